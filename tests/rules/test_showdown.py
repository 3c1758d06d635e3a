"""Whether a showdown may follow an encounter, and why not (rules/campaign/showdown.py):
the book's rule, said in words, with no Django."""

from __future__ import annotations

from rules.campaign import showdown_pairs
from rules.campaign.showdown import ShowdownChance, showdown_chance
from tests.rules.test_campaign import (
    BILL,
    JAMES,
    SARAH,
    Play,
    example,
    rivals_campaign,
    wound,
    xp_campaign,
)


def test_the_lower_gang_may_challenge_an_outlaw_with_the_same_notoriety():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 4), winner="1")
    state = play.confirm(enc)
    chance = showdown_chance(state, state.last_encounter)
    assert chance.open and chance.why_not == ""
    assert chance.pairs == showdown_pairs(state, state.last_encounter)
    assert all(x.startswith("2/") and y.startswith("1/") for x, y in chance.pairs)


def test_equal_totals_let_nobody_challenge():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc)
    state = play.confirm(enc)
    chance = showdown_chance(state, state.last_encounter)
    assert not chance.open and chance.pairs == []
    assert chance.why_not == (
        "Both gangs have 0 reputation: neither is lower, so nobody may challenge."
    )


def test_no_outlaw_of_the_lower_gang_shares_a_notoriety():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), winner="1")
    state = play.confirm(enc)
    for member in state.gangs["1"].alive:  # every Red Jack a Drifter, every O'Neil a Loafer
        member.score = 6
    for member in state.gangs["2"].alive:
        member.score = 0
    chance = showdown_chance(state, state.last_encounter)
    assert not chance.open
    assert chance.why_not == (
        "No outlaw of The O'Neil Gang (the gang with less reputation) shares a notoriety "
        "with an outlaw of Red Jack's Gang."
    )


def test_a_gang_that_rode_to_mexico_fights_no_showdown():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(JAMES, SARAH, 4), winner="2")
    play.confirm(enc)
    state = play.do("rode_to_mexico", gang="1")
    chance = showdown_chance(state, state.encounter(enc))
    assert chance == ShowdownChance(why_not="A gang rode to Mexico: no showdown.")


def test_the_chance_is_gone_once_a_gang_begins_another_encounter():
    play = Play()
    for gang, name in (("1", "red-jacks-gang"), ("2", "six-outlaws"), ("3", "red-jacks-gang")):
        play.do("gang_joined", gang=gang, player=f"p{gang}", roster=example(f"rivals-legal-{name}"))
    play.do("campaign_started")
    first = play.begin("1", "2")
    play.record(first, wound(SARAH, JAMES, 4), winner="1")
    play.confirm(first)
    assert showdown_chance(play.state, play.state.encounter(first)).open
    play.begin("2", "3")
    chance = showdown_chance(play.state, play.state.encounter(first))
    assert not chance.open
    assert chance.why_not.startswith("The O'Neil Gang has begun encounter 2 since")


def test_no_question_before_the_awards_during_a_showdown_or_in_a_game_without_one():
    play = rivals_campaign()
    enc = play.begin()
    state = play.record(enc, wound(SARAH, JAMES, 4), winner="1")  # not confirmed yet
    assert showdown_chance(state, state.last_encounter) == ShowdownChance()
    state = play.confirm(enc)
    x, y = showdown_pairs(state, state.last_encounter)[0]
    state = play.do("showdown_challenged", encounter=enc, challenger=x, challenged=y)
    assert showdown_chance(state, state.last_encounter) == ShowdownChance()
    xp = xp_campaign("bwg2", "bwg2-legal-tranquility-crew-700", "bwg2-legal-tranquility-crew-700")
    enc = xp.begin()
    xp.record(enc)
    state = xp.confirm(enc)
    assert showdown_chance(state, state.last_encounter) == ShowdownChance()
