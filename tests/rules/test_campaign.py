"""The campaign engine (rules/campaign.py): Rivals as the book and RULES.md say, and the
Rivals-style house rules of the other four systems (docs/campaigns.md).

Campaigns are played here as logs of events, exactly as the app stores them; dice come
from a scripted source so every roll is known.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rules import get_system
from rules.campaign import (
    CONFIRMED,
    DEAD,
    DISPUTED,
    FINISHED,
    PROVISIONAL,
    RUNNING,
    CampaignError,
    Event,
    prepare,
    replay,
    showdown_pairs,
)
from rules.dice import Dice
from rules.systems import rivals

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text("utf-8"))


class Scripted(random.Random):
    """A random source that returns the given numbers, in order (checked against the die)."""

    def __init__(self, *numbers: int):
        super().__init__(0)
        self.numbers = list(numbers)

    def randint(self, a: int, b: int) -> int:
        if not self.numbers:
            raise AssertionError("the test scripted too few dice")
        n = self.numbers.pop(0)
        assert a <= n <= b, f"scripted {n} on a 1..{b} die"
        return n


class Play:
    """A campaign as a log: each step prepares an event against the replayed state."""

    def __init__(self, system: str = "rivals", agreed: int = 5, rules: dict | None = None):
        self.system, self.agreed, self.rules = system, agreed, rules
        self.events: list[Event] = []

    @property
    def state(self):
        return replay(self.system, self.events, self.rules, self.agreed)

    def do(self, kind: str, *dice: int, **data: Any):
        source = Scripted(*dice) if dice else random.Random(1)
        roller = Dice(source)
        out = prepare(self.state, kind, data, roller)
        if dice:
            assert not source.numbers, "scripted dice left over"
        seq = len(self.events) + 1
        self.events.append(
            Event(seq, kind, out, "tester", "", tuple(r.to_dict() for r in roller.log))
        )
        return self.state

    def refuse(self, kind: str, *dice: int, **data: Any) -> CampaignError:
        with pytest.raises(CampaignError) as caught:
            self.do(kind, *dice, **data)
        return caught.value

    # -- shortcuts
    def begin(self, a: str = "1", b: str = "2", location: int = 2):
        if self.state.progression.uses_location:
            state = self.do("encounter_begun", location, gangs=[a, b])
        else:
            state = self.do("encounter_begun", gangs=[a, b])
        return state.last_encounter.id

    def record(self, enc: int, *happenings: dict, winner: str = "", gang: str = "1"):
        return self.do(
            "encounter_recorded",
            encounter=enc,
            gang=gang,
            winner=winner,
            happenings=list(happenings),
        )

    def confirm(self, enc: int, gang: str = "2"):
        return self.do("encounter_confirmed", encounter=enc, gang=gang)


def rivals_campaign(agreed: int = 5) -> Play:
    play = Play("rivals", agreed)
    play.do("gang_joined", gang="1", player="ann", roster=example("rivals-legal-red-jacks-gang"))
    play.do("gang_joined", gang="2", player="bob", roster=example("rivals-legal-six-outlaws"))
    play.do("campaign_started")
    return play


def wound(by: str, to: str, actions: int) -> dict:
    return {"kind": "wound", "by": by, "to": to, "amount": actions}


def kill(by: str, to: str, actions: int | None = None) -> dict:
    """A kill: the engine fills in its worth (the victim's toughness in actions)."""
    line = {"kind": "kill", "by": by, "to": to}
    if actions is not None:
        line["amount"] = actions
    return line


def left(who: str) -> dict:
    return {"kind": "left", "who": who}


def member_dump(state) -> dict:
    """Everything the state says about gangs, members and encounters (not the log)."""
    gangs = {g.id: dataclasses.asdict(g) for g in state.gangs.values()}
    encounters = [dataclasses.asdict(e) for e in state.encounters]
    return {
        "status": state.status,
        "gangs": gangs,
        "encounters": encounters,
        "snapshots": copy.deepcopy(state.snapshots),
        "standings": [(s.rank, s.gang.id, s.total, s.title) for s in state.standings()],
    }


# Red Jack's Gang (gang 1): 1 Red Jack, 2 Sarah, 3 Jesse, 4 Luke, 5 Clay.
# The O'Neil Gang (gang 2): 1 Jack O'Neil, 2 Mark, 3 David, 4 Bill, 5 Kate, 6 Tom.
SARAH, RED_JACK, JESSE = "1/2", "1/1", "1/3"
JACK, JAMES, DAVID, BILL = "2/1", "2/2", "2/3", "2/4"


# --------------------------------------------------------------------------- set-up


def test_gangs_join_as_copies_and_the_campaign_starts():
    roster = example("rivals-legal-red-jacks-gang")
    play = Play()
    play.do("gang_joined", gang="1", player="ann", roster=roster)
    roster["members"][0]["name"] = "Changed later in the builder"
    assert play.state.gangs["1"].members["1"].name == "Red Jack"
    assert play.refuse("campaign_started").message.startswith("A campaign needs at least two")
    play.do("gang_joined", gang="2", player="bob", roster=example("rivals-legal-six-outlaws"))
    state = play.do("campaign_started")
    assert state.status == RUNNING
    sarah = state.member(SARAH)
    assert (sarah.score, sarah.cash, sarah.original_cost) == (0, 12, 6)
    assert sarah.equipment.count("Handgun reload") == 2
    assert state.snapshots[0][SARAH] == 0


def test_an_illegal_gang_cannot_join_and_says_why():
    play = Play()
    error = play.refuse(
        "gang_joined", gang="1", player="ann", roster=example("rivals-illegal-three-outlaws-31-ccp")
    )
    assert "can't join" in error.message and error.field == "gang"
    assert "30" in error.message  # the budget problem is named
    assert play.state.gangs == {}


def test_nobody_joins_a_running_campaign():
    play = rivals_campaign()
    error = play.refuse(
        "gang_joined", gang="3", player="cy", roster=example("rivals-legal-six-outlaws")
    )
    assert "running" in error.message


# --------------------------------------------------------------------------- encounters


@pytest.mark.parametrize(
    ("roll", "place"),
    [
        (1, "centre_of_town"),
        (3, "centre_of_town"),
        (4, "edge_of_town"),
        (5, "edge_of_town"),
        (6, "homestead"),
    ],
)
def test_the_location_is_rolled(roll, place):
    play = rivals_campaign()
    play.begin(location=roll)
    enc = play.state.last_encounter
    assert enc.location["id"] == place and enc.location["roll"] == roll
    assert play.events[-1].dice == (
        {"purpose": "Rivals: encounter location", "dice": "D6", "rolled": [roll]},
    )


def test_the_book_example_sarah_kills_james_a_drifter_with_regular_toughness():
    play = rivals_campaign()
    # Encounter 1 makes James a Drifter: he wounds Red Jack for 4 actions and his gang wins.
    enc = play.begin()
    play.record(enc, wound(JAMES, RED_JACK, 4), winner="2")
    state = play.confirm(enc)
    james = state.member(JAMES)
    assert james.score == 6 and rivals.notoriety(james.score) == ("Drifter", 2)
    assert james.data["tiers"]["toughness"] == 1  # Regular: 4 actions
    # Encounter 2: Sarah's Belly Wound costs James 2 actions (+2), then her Serious Chest
    # Wound kills him: only the kill counts for that hit, 4 wounds + Drifter's 2 = 6.
    # The recorder gives the wound's actions; the kill's worth is filled in (whatever
    # number the recorder would have typed after the wound: 2 left, 4 toughness).
    enc = play.begin()
    state = play.record(enc, wound(SARAH, JAMES, 2), kill(SARAH, JAMES))
    awards = [(a.reason, a.amount) for a in state.last_encounter.awards_for(SARAH)]
    assert awards == [
        ("Wounded Mark (2 actions lost)", 2),
        ("Killed Mark: 4 actions (toughness) + Drifter notoriety bonus 2", 6),
    ]
    assert state.last_encounter.happenings[1]["amount"] == 4


@pytest.mark.parametrize(
    ("reputation", "title", "bonus"),
    [
        (0, "Loafer", 1),
        (5, "Loafer", 1),
        (6, "Drifter", 2),
        (10, "Drifter", 2),
        (11, "Small time crook", 3),
        (15, "Small time crook", 3),
        (16, "Outlaw", 4),
        (20, "Outlaw", 4),
        (21, "Wanted", 5),
        (30, "Wanted", 5),
        (31, "Most wanted", 6),
        (-5, "Loafer", 1),
    ],
)
def test_a_kill_is_worth_the_victims_notoriety_at_each_boundary(reputation, title, bonus):
    play = rivals_campaign()
    enc = play.begin()
    state = play.state
    state.member(JAMES).score = reputation  # as if earned in earlier encounters
    state.encounter(enc).happenings = [kill(SARAH, JAMES, 3)]
    (award,) = state.progression.awards(state, state.encounter(enc))
    assert award.amount == 3 + bonus
    assert f"{title} notoriety bonus {bonus}" in award.reason
    assert rivals.notoriety(reputation) == (title, bonus)


def test_notoriety_counts_what_the_victim_earned_earlier_in_the_same_encounter():
    play = rivals_campaign()
    enc = play.begin()
    # James (0) wounds Red Jack for 4 actions and Sarah for 2 (now 6: a Drifter), then dies.
    state = play.record(enc, wound(JAMES, RED_JACK, 4), wound(JAMES, SARAH, 2), kill(SARAH, JAMES))
    kill_award = state.last_encounter.awards_for(SARAH)[-1]
    assert kill_award.amount == 4 + 2


def test_winning_gives_two_to_each_outlaw_of_the_winning_gang_and_leaving_costs_five():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, left(DAVID), winner="1")
    state = play.confirm(enc)
    assert [m.score for m in state.gangs["1"].alive] == [2, 2, 2, 2, 2]
    assert state.member(DAVID).score == -5
    assert state.gangs["1"].total == 10 and state.gangs["2"].total == -5


def test_the_record_is_checked_line_by_line():
    play = rivals_campaign()
    enc = play.begin()
    cases = [
        ([wound(SARAH, RED_JACK, 2)], "ride together"),
        ([wound(SARAH, JAMES, 0)], "1 to 10"),
        ([kill(SARAH, JAMES), wound(JESSE, JAMES, 1)], "already down"),
        ([kill(SARAH, JAMES), wound(JAMES, SARAH, 1)], "out of the fight"),
        ([left(DAVID), wound(SARAH, DAVID, 1)], "left the board"),
        ([{"kind": "dance", "by": SARAH}], "choose what happened"),
        ([wound("9/9", JAMES, 1)], "Line 1"),
        ([{"kind": "loot", "by": SARAH, "from": JAMES, "cash": 3}], "only a dead outlaw"),
        (
            [kill(SARAH, JAMES), {"kind": "loot", "by": SARAH, "from": JAMES, "cash": 99}],
            "has only $5",
        ),
        (
            [
                kill(SARAH, JAMES),
                {"kind": "loot", "by": SARAH, "from": JAMES, "items": ["Colt"]},
            ],
            "has no Colt",
        ),
    ]
    for lines, words in cases:
        error = play.refuse("encounter_recorded", encounter=enc, gang="1", happenings=lines)
        assert words in error.message, (lines, error.message)
        assert error.field.startswith("line-")
    error = play.refuse("encounter_recorded", encounter=enc, gang="1", winner="7", happenings=[])
    assert error.field == "winner"


def test_loot_changes_hands_once_the_record_stands():
    play = rivals_campaign()
    enc = play.begin()
    play.record(
        enc,
        kill(SARAH, JAMES),
        {
            "kind": "loot",
            "by": JESSE,
            "from": JAMES,
            "cash": 5,
            "items": "Winchester Carbine, Horse",
        },
    )
    state = play.confirm(enc)
    assert state.member(JESSE).cash == 5  # not yet: James's death roll is still to make
    state = play.do("death_rolled", 6, encounter=enc, member=JAMES)  # playing dead
    jesse, james = state.member(JESSE), state.member(JAMES)
    assert jesse.cash == 10 and james.cash == 0
    assert jesse.equipment.count("Winchester Carbine") == 2 and "Horse" not in james.equipment


# --------------------------------------------------------------------------- confirming


def test_a_record_is_provisional_until_both_players_confirm():
    play = rivals_campaign()
    enc = play.begin()
    state = play.record(enc, wound(SARAH, JAMES, 2), winner="1")
    assert state.last_encounter.status == PROVISIONAL
    assert state.member(SARAH).score == 0  # nothing counts yet
    assert (
        "already confirmed" in play.refuse("encounter_confirmed", encounter=enc, gang="1").message
    )
    state = play.confirm(enc)
    assert state.last_encounter.status == CONFIRMED and state.member(SARAH).score == 4


def test_a_dispute_goes_to_the_organiser():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 3), winner="1")
    assert play.refuse("encounter_disputed", encounter=enc, gang="2", reason="").field == "reason"
    state = play.do("encounter_disputed", encounter=enc, gang="2", reason="It was 2 actions")
    assert state.last_encounter.status == DISPUTED
    assert "disputed" in play.refuse("encounter_confirmed", encounter=enc, gang="1").message
    state = play.do("encounter_settled", encounter=enc, note="Checked the photos")
    assert state.last_encounter.status == CONFIRMED and state.member(SARAH).score == 5


def test_a_disputed_record_can_be_recorded_again():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 3), winner="1")
    play.do("encounter_disputed", encounter=enc, gang="2", reason="2 actions, not 3")
    play.record(enc, wound(SARAH, JAMES, 2), winner="1", gang="2")
    state = play.confirm(enc, gang="1")
    assert state.member(SARAH).score == 4


# --------------------------------------------------------------------------- death rolls


def killed_james(play: Play, death_roll: int, *more: int):
    enc = play.begin()
    play.record(enc, wound(JAMES, SARAH, 2), wound(SARAH, JAMES, 1), kill(SARAH, JAMES), winner="2")
    play.confirm(enc)
    return enc, play.do("death_rolled", death_roll, *more, encounter=enc, member=JAMES)


@pytest.mark.parametrize("roll", [1, 2, 3])
def test_dead_is_removed(roll):
    play = rivals_campaign()
    _, state = killed_james(play, roll)
    james = state.member(JAMES)
    assert james.status == DEAD and james not in state.gangs["2"].alive
    assert state.member(SARAH).score == 1 + 4 + 1  # her wound and kill count
    assert state.gangs["2"].total == sum(m.score for m in state.gangs["2"].alive)


def test_badly_wounded_loses_a_point_from_a_random_skill_row_and_earns_nothing():
    play = rivals_campaign()
    # Mark: handgun 1, rifle 1, brawl 1, riding 1 (shotgun 0 has nothing to lose): the
    # second die picks among those four; 2 = rifle.
    _, state = killed_james(play, 4, 2)
    james = state.member(JAMES)
    assert james.status == "active"
    assert james.data["tiers"]["rifle"] == 0
    assert james.score == 0  # his +2 wound and +2 win are void
    (line,) = [a for a in state.last_encounter.awards_for(JAMES) if a.reason.startswith("Wounded")]
    assert not line.counts and "Badly wounded" in line.why_not
    assert play.events[-1].dice[1]["dice"] == "D4"
    assert "Rifle Regular +2 → Got the shakes! +0" in state.log[-1].text


def test_playing_dead_loses_nothing_but_earns_nothing():
    play = rivals_campaign()
    before = copy.deepcopy(play.state.member(JAMES).data)
    _, state = killed_james(play, 6)
    james = state.member(JAMES)
    assert james.status == "active" and james.score == 0 and james.data == before
    assert state.gangs["2"].members["1"].score == 2  # Jack's win still counts


def test_the_encounter_stays_open_until_every_death_roll_is_made():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, kill(SARAH, JAMES), kill(JACK, JESSE))
    state = play.confirm(enc)
    assert state.last_encounter.dead == [JAMES, JESSE] and state.member(SARAH).score == 0
    assert "open" in play.refuse("encounter_begun", 2, gangs=["1", "2"]).message
    play.do("death_rolled", 6, encounter=enc, member=JAMES)
    assert "already made" in play.refuse("death_rolled", 6, encounter=enc, member=JAMES).message
    state = play.do("death_rolled", 5, 1, encounter=enc, member=JESSE)
    assert state.last_encounter.awarded and state.member(SARAH).score == 4 + 1


# --------------------------------------------------------------------------- CCP


def test_ccp_one_per_five_never_taken_back_and_a_threshold_grants_once():
    play = rivals_campaign()
    enc = play.begin()
    state = play.record(enc, wound(SARAH, JAMES, 4))
    state = play.confirm(enc)
    sarah = state.member(SARAH)
    assert (sarah.score, sarah.earned) == (4, 0)
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 1))
    sarah = play.confirm(enc).member(SARAH)
    assert (sarah.score, sarah.earned, sarah.best) == (5, 1, 5)  # the threshold passed
    # The O'Neils have less reputation: Jack (a Loafer) challenges Sarah (a Loafer), who
    # declines: -5. Her CCP stays.
    state = play.do("showdown_challenged", encounter=enc, challenger=JACK, challenged=SARAH)
    state = play.do("showdown_answered", encounter=enc, accepted=False)
    sarah = state.member(SARAH)
    assert (sarah.score, sarah.earned) == (0, 1)
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 1))
    sarah = play.confirm(enc).member(SARAH)
    assert (sarah.score, sarah.earned) == (5, 1)  # 5 again: no new CCP
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 1))
    sarah = play.confirm(enc).member(SARAH)
    assert (sarah.score, sarah.earned) == (10, 2)


def test_ccp_buy_a_higher_tier_or_a_special_skill_roll():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 4), wound(SARAH, DAVID, 2))
    state = play.confirm(enc)
    sarah = state.member(SARAH)
    assert sarah.saved == 2 and sarah.data["tiers"]["rifle"] == 0
    options = dict(state.progression.advance_options(sarah))
    assert "rifle:2" in options and "rifle:3" not in options  # Deadeye costs 4
    assert "table:B" in options and "table:C" not in options
    error = play.refuse("advance_taken", member=SARAH, choice="rifle:3")
    assert "4 CCP; 2 saved" in error.message
    state = play.do("advance_taken", member=SARAH, choice="rifle:1")
    sarah = state.member(SARAH)
    assert sarah.data["tiers"]["rifle"] == 1 and sarah.saved == 1 and sarah.spent == 1
    # Table A roll: 3 = Fast.
    state = play.do("advance_taken", 3, member=SARAH, choice="table:A")
    sarah = state.member(SARAH)
    assert sarah.saved == 0
    assert sarah.data["extra_skills"][0]["skill"] == "Fast"
    roster = state.gangs["1"].current_roster(state.progression)
    data = next(m["data"] for m in roster["members"] if m["name"] == "Sarah")
    assert data["ccp"] == 0 and data["ccp_spent"] == 2 and data["reputation"] == 10


def test_a_special_skill_already_held_is_rolled_again():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(RED_JACK, JAMES, 4), wound(RED_JACK, BILL, 1))
    play.confirm(enc)
    # Red Jack holds Fast draw (table A, 6): a 6 is rolled again, then 2 = Hard Hitter.
    state = play.do("advance_taken", 6, 2, member=RED_JACK, choice="table:A")
    assert state.member(RED_JACK).data["extra_skills"][0]["skill"] == "Hard Hitter"


def test_nothing_is_spent_while_the_encounter_is_open():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 1))
    assert "settled" in play.refuse("advance_taken", member=SARAH, choice="rifle:1").message
    assert "settled" in play.refuse("item_bought", member=SARAH, item="Knife").message


# --------------------------------------------------------------------------- showdown


def test_showdown_eligibility_lower_gang_same_notoriety():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 4), winner="1")
    state = play.confirm(enc)
    # Sarah 10 (Drifter), the rest of her gang 2 (Loafers); the O'Neils all 0 (Loafers).
    pairs = showdown_pairs(state, state.last_encounter)
    assert pairs and all(x.startswith("2/") and y.startswith("1/") for x, y in pairs)
    assert not any(y == SARAH for _, y in pairs)  # a Drifter is no Loafer's match
    error = play.refuse("showdown_challenged", encounter=enc, challenger=JACK, challenged=SARAH)
    assert "same notoriety" in error.message
    error = play.refuse("showdown_challenged", encounter=enc, challenger=RED_JACK, challenged=JACK)
    assert "lower total" in error.message


def test_no_showdown_when_the_totals_are_equal():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc)
    state = play.confirm(enc)
    assert state.gangs["1"].total == state.gangs["2"].total == 0
    assert showdown_pairs(state, state.last_encounter) == []


def test_a_showdown_fought_to_the_death():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 2), winner="1")
    play.confirm(enc)
    play.do("showdown_challenged", encounter=enc, challenger=JACK, challenged=JESSE)
    play.do("showdown_answered", encounter=enc, accepted=True)
    assert "open" in play.refuse("encounter_begun", 3, gangs=["1", "2"]).message
    state = play.do(
        "showdown_fought",
        encounter=enc,
        winner=JACK,
        fate="dead",
        hits=[
            {"kind": "wound", "by": JESSE, "to": JACK, "amount": 3},
            {"kind": "kill", "by": JACK, "to": JESSE},
        ],
    )
    assert state.member(JACK).score == 4 + 1  # Jesse's toughness 4 + a Loafer's +1
    jesse = state.member(JESSE)
    assert (jesse.score, jesse.earned) == (2 + 3, 1)  # 5 reputation: his first CCP
    # the CCP can't be spent before the death roll: the encounter is still open
    assert "settled" in play.refuse("advance_taken", member=JESSE, choice="rifle:1").message
    state = play.do("death_rolled", 4, 1, encounter=enc, member=JESSE)  # badly wounded
    # 003, "Ending an encounter": badly wounded, "Do not earn any reputation this
    # encounter": his showdown wound no longer counts, nor the CCP it gave.
    jesse = state.member(JESSE)
    assert (jesse.score, jesse.earned, jesse.best) == (2, 0, 2)
    assert "struck out" in state.log[-1].text and "1 CCP" in state.log[-1].text
    assert not state.last_encounter.open


# --------------------------------------------------------------------------- dollars


def test_dollars_at_the_price_list():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc)
    play.confirm(enc)
    state = play.do("item_bought", member=SARAH, item="Knife")
    assert state.member(SARAH).cash == 9 and state.member(SARAH).equipment.count("Knife") == 2
    state = play.do("item_bought", member=SARAH, item="Shotgun reloads", quantity=2)
    assert (
        state.member(SARAH).cash == 7 and state.member(SARAH).equipment.count("Shotgun reload") == 4
    )
    assert (
        "$7; Colt '45 costs $25"
        in play.refuse("item_bought", member=SARAH, item="Colt '45").message
    )
    assert play.refuse("item_bought", member=SARAH, item="Gatling gun").field == "item"


# --------------------------------------------------------------------------- recruits


def recruit_data(**tiers: int) -> dict:
    base = {"toughness": 1, "handgun": 0, "rifle": 0, "shotgun": 0, "brawl": 0, "riding": 0}
    base.update(tiers)
    return {"gender": "female", "hand": "right", "tiers": base, "special_skill": None, "pack": "A"}


def test_a_recruit_is_built_with_the_ccp_originally_used():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, kill(JAMES, SARAH))
    play.confirm(enc)
    play.do("death_rolled", 1, encounter=enc, member=SARAH)  # dead
    state = play.state
    assert state.member(SARAH).original_cost == 6 and state.gangs["1"].fallen
    # 7 CCP is too dear; 6 is right; a cheaper recruit is allowed (unused CCP are lost).
    error = play.refuse(
        "member_recruited",
        gang="1",
        replaces=SARAH,
        member={"name": "Belle", "data": recruit_data(handgun=3, brawl=2)},
    )
    assert "costs 7" in error.message and "at most 6" in error.message
    state = play.do(
        "member_recruited",
        gang="1",
        replaces=SARAH,
        member={"name": "Belle", "data": recruit_data(handgun=3, brawl=1)},
    )
    belle = state.gangs["1"].members["6"]
    assert (belle.name, belle.original_cost, belle.score, belle.cash) == ("Belle", 6, 0, 10)
    assert state.member(SARAH).replaced_by == "6" and not state.gangs["1"].fallen
    assert (
        "killed"
        in play.refuse(
            "member_recruited",
            gang="1",
            replaces=SARAH,
            member={"name": "X", "data": recruit_data()},
        ).message
    )


def test_a_recruit_may_not_replace_the_living():
    play = rivals_campaign()
    error = play.refuse(
        "member_recruited", gang="1", replaces=SARAH, member={"name": "X", "data": recruit_data()}
    )
    assert error.field == "replaces"


# --------------------------------------------------------------------------- the end


def test_riding_to_mexico_forfeits_and_retires_the_gang():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(JAMES, SARAH, 4), winner="2")
    assert "settled" in play.refuse("rode_to_mexico", gang="1").message
    play.confirm(enc)
    state = play.do("rode_to_mexico", gang="2")
    assert state.status == FINISHED
    standings = state.standings()
    assert [s.gang.id for s in standings] == ["1", "2"]
    assert standings[0].title and not standings[1].title
    assert "Rode to Mexico after encounter 1" in standings[1].note
    assert state.winners[0].name == "Red Jack's Gang"
    assert state.title == "The Most Wanted Outlaws in the Old West"


def test_a_retired_gang_fights_no_more_in_a_bigger_campaign():
    play = Play()
    for gang, name in (("1", "red-jacks-gang"), ("2", "six-outlaws"), ("3", "red-jacks-gang")):
        play.do("gang_joined", gang=gang, player=f"p{gang}", roster=example(f"rivals-legal-{name}"))
    play.do("campaign_started")
    # 003, "Riding to Mexico": "at the end of any encounter", so never before the first.
    error = play.refuse("rode_to_mexico", gang="3")
    assert "played no encounter yet" in error.message
    enc = play.begin("3", "2")
    play.record(enc, gang="3")
    play.confirm(enc)
    state = play.do("rode_to_mexico", gang="3")
    assert state.status == RUNNING and state.gangs["3"].retired
    assert state.gangs["3"].retired_after == 1
    assert "Mexico" in play.refuse("encounter_begun", 2, gangs=["1", "3"]).message
    # retired for good: nothing more is spent, bought or recruited
    assert "retired" in play.refuse("item_bought", member="3/1", item="Knife").message
    assert "retired" in play.refuse("advance_taken", member="3/1", choice="rifle:1").message


def test_the_most_wanted_after_the_agreed_encounters_counts_only_the_survivors():
    play = rivals_campaign(agreed=2)
    enc = play.begin()
    play.record(
        enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 1), kill(JAMES, RED_JACK), winner="1"
    )
    play.do("encounter_confirmed", encounter=enc, gang="2")
    state = play.do("death_rolled", 2, encounter=enc, member=RED_JACK)  # Red Jack is dead
    play.do("recruit_declined", gang="1", replaces=RED_JACK)  # fights on short-handed
    enc = play.begin()
    play.record(enc, wound(JAMES, SARAH, 3), winner="2")
    state = play.confirm(enc)
    assert state.all_played
    assert "agreed" in play.refuse("encounter_begun", 4, gangs=["1", "2"]).message
    state = play.do("campaign_finished")
    # Gang 1: Sarah 5+2 and the rest 2 each (Red Jack's 2 are gone with him) = 7+2+2+2.
    assert state.gangs["1"].total == 13
    # Gang 2: Mark's kill (Red Jack's toughness 4 + a Loafer's 1) + 3 + 2, the rest 2 each.
    assert state.gangs["2"].total == 10 + 5 * 2
    top = state.standings()[0]
    assert top.title and top.gang.id == "2"
    assert state.finish_note == "The O'Neil Gang: The Most Wanted Outlaws in the Old West"


# --------------------------------------------------------------------------- history


def test_undo_returns_exactly_to_the_state_before_the_encounter():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 1), winner="1")
    play.confirm(enc)
    play.do("advance_taken", member=SARAH, choice="rifle:1")
    before = member_dump(play.state)
    # A whole second encounter, with everything that can follow it.
    enc2 = play.begin(location=6)
    play.record(
        enc2,
        wound(JAMES, SARAH, 3),
        kill(SARAH, JAMES),
        {"kind": "loot", "by": SARAH, "from": JAMES, "cash": 5},
        winner="1",
    )
    play.confirm(enc2)
    play.do("death_rolled", 4, 3, encounter=enc2, member=JAMES)
    play.do("item_bought", member=SARAH, item="Knife")
    assert member_dump(play.state) != before
    assert "Only the last" in play.refuse("encounter_undone", encounter=enc).message
    state = play.do("encounter_undone", encounter=enc2, reason="wrong gangs")
    assert member_dump(state) == before
    undone = [line for line in state.log if line.undone]
    assert len(undone) == 5 and undone[0].text.startswith("Encounter 2: ")
    assert "undid encounter 2" in state.log[-1].text
    # The campaign goes on: encounter 2 again, from the same state.
    enc3 = play.begin()
    assert play.state.last_encounter.number == 2 and enc3 != enc2


def test_undo_of_the_first_encounter_and_after_the_finish():
    play = rivals_campaign(agreed=1)
    before = member_dump(play.state)
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 1), winner="1")
    play.confirm(enc)
    assert play.do("campaign_finished").status == FINISHED
    state = play.do("encounter_undone")
    assert state.status == RUNNING and member_dump(state) == before


def test_charts_series_after_each_encounter():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 4), wound(SARAH, BILL, 1), winner="1")
    play.confirm(enc)
    enc = play.begin()
    state = play.state
    labels, series = state.series()
    assert labels == ["Start", "1"]
    assert series[SARAH] == [0, 7] and series[JAMES] == [0, 0]
    labels, totals = state.gang_series()
    assert totals["1"] == [0, 15] and totals["2"] == [0, 0]


# --------------------------------------------------------------------------- other systems


def xp_campaign(system: str, first: str, second: str, rules: dict | None = None) -> Play:
    play = Play(system, rules=rules)
    play.do("gang_joined", gang="1", player="ann", roster=example(first))
    play.do("gang_joined", gang="2", player="bob", roster=example(second))
    play.do("campaign_started")
    return play


def out(by: str, to: str) -> dict:
    return {"kind": "out", "by": by, "to": to}


def test_bwg2_xp_is_the_victory_points_of_each_enemy_and_goes_on_the_card_and_fame():
    play = xp_campaign("bwg2", "bwg2-legal-tranquility-crew-700", "bwg2-legal-tranquility-crew-700")
    state = play.state
    fame = get_system("bwg2").evaluate(state.gangs["1"].current_roster(state.progression)).total
    enc = play.begin()
    # Gang 1's Captain (1/1) takes out gang 2's Captain, the Gang Leader (5 VP).
    play.record(enc, out("1/1", "2/1"), winner="1")
    play.confirm(enc)
    state = play.do("death_rolled", 6, encounter=enc, member="2/1")
    captain = state.member("1/1")
    assert captain.score == 5 + 2
    assert captain.data["card"]["xp"] == 150 + 7
    new_fame = get_system("bwg2").evaluate(state.gangs["1"].current_roster(state.progression)).total
    assert new_fame == fame + 7 + 2 * (len(state.gangs["1"].alive) - 1)


def test_bwg1_every_five_xp_is_an_attribute_point():
    play = xp_campaign("bwg1", "bwg1-legal-dalton-boys", "bwg1-legal-dalton-boys")
    enc = play.begin()
    play.record(enc, out("1/2", "2/1"), winner="1")  # the Leader: 5 VP, +2 for the win
    play.confirm(enc)
    state = play.do("death_rolled", 6, encounter=enc, member="2/1")
    doc = state.member("1/2")
    assert (doc.score, doc.earned) == (7, 1)
    options = dict(state.progression.advance_options(doc))
    choice = next(iter(options))
    state = play.do("advance_taken", member="1/2", choice=choice)
    assert state.member("1/2").data["advances"][choice] == 1
    assert state.member("1/2").saved == 0
    assert play.refuse("advance_taken", member="1/2", choice=choice).field == "choice"


def test_gf26_campaigns_start_at_500_points_and_promote_with_a_perk():
    play = xp_campaign("gf26", "gf26-legal-iron-company", "gf26-legal-iron-company")
    assert play.state.rules["limit"] == 500
    enc = play.begin()
    # Dara (1/5), a Regular, takes out two Heroes: 3 + 3 + 2 for the win = 8 XP
    play.record(enc, out("1/5", "2/1"), out("1/5", "2/2"), winner="1")
    play.confirm(enc)
    state = play.do("death_rolled", 6, encounter=enc, member="2/1")
    state = play.do("death_rolled", 6, encounter=enc, member="2/2")
    dara = state.member("1/5")
    assert dara.earned == 1
    assert dara.data["profile"]["troop_type"] == "regular"
    perk = next(iter(dict(state.progression.advance_options(dara))))
    state = play.do("advance_taken", member="1/5", choice=perk)
    assert state.member("1/5").data["profile"]["troop_type"] == "veteran"
    assert perk in state.member("1/5").data["perks"]


def test_gf26_a_gang_over_500_points_cannot_join():
    play = Play("gf26")
    roster = example("gf26-legal-iron-company")
    roster["members"].append(copy.deepcopy(roster["members"][1]))
    error = play.refuse("gang_joined", gang="1", player="ann", roster=roster)
    assert "can't join" in error.message


def test_gunfight_greenhorn_to_old_hand_rolls_a_new_ability():
    play = xp_campaign(
        "gunfight",
        "gunfight-legal-lawman-posse",
        "gunfight-legal-indian-war-party",
        rules={"old_hand_xp": 3},
    )
    state = play.state
    deputy = state.member("1/2")
    assert deputy.data["experience"] == "greenhorn"
    enc = play.begin()
    play.record(enc, out("1/2", "2/1"), winner="1")
    play.confirm(enc)
    state = play.do("death_rolled", 6, encounter=enc, member="2/1")
    deputy = state.member("1/2")
    assert deputy.earned == 1
    held = list(deputy.data["abilities"])
    state = play.do("advance_taken", member="1/2", choice="promote")
    deputy = state.member("1/2")
    assert deputy.data["experience"] == "old_hand"
    assert len(deputy.data["abilities"]) == len(held) + 1
    assert play.events[-1].dice[-1]["dice"] == "D20"
    report = get_system("gunfight").evaluate(state.gangs["1"].current_roster(state.progression))
    assert not [f for f in report.findings_for("2") if f.is_error]


def test_gunfight_troopers_gain_no_experience_and_make_no_death_roll():
    play = xp_campaign("gunfight", "gunfight-legal-lawman-posse", "gunfight-legal-indian-war-party")
    enc = play.begin()
    posse = "1/3"  # Posse riders: troopers
    play.record(enc, out("2/1", posse), out("1/1", "2/1"), winner="1")
    state = play.confirm(enc)
    assert posse not in state.last_encounter.dead
    state = play.do("death_rolled", 6, encounter=enc, member="2/1")
    assert state.member(posse).score == 0


def test_house_rules_change_the_numbers():
    play = xp_campaign(
        "bwg1",
        "bwg1-legal-dalton-boys",
        "bwg1-legal-dalton-boys",
        rules={"win_xp": 5, "death_roll": False, "purse_per_game": 0},
    )
    enc = play.begin()
    play.record(enc, out("1/2", "2/1"), winner="1")
    state = play.confirm(enc)
    assert state.last_encounter.dead == [] and state.last_encounter.awarded
    assert state.member("1/2").score == 5 + 5 and state.gangs["1"].purse == 0


def test_the_purse_buys_gear_for_the_other_systems():
    play = xp_campaign("bwg1", "bwg1-legal-dalton-boys", "bwg1-legal-dalton-boys")
    enc = play.begin()
    play.record(enc, winner="1")
    state = play.confirm(enc)
    assert state.gangs["1"].purse == 10
    state = play.do("item_bought", gang="1", member="1/1", item="Dynamite", price=6)
    assert state.gangs["1"].purse == 4 and state.gangs["1"].gear == [("Bob Dalton", "Dynamite", 6)]
    assert "$4" in play.refuse("item_bought", gang="1", item="Horse", price=5).message


# --------------------------------------------------------------------------- properties


def short_handed(play: Play) -> None:
    """Full strength: each fallen outlaw is replaced, or his gang fights short-handed."""
    state = play.state
    for gang in state.active_gangs:
        for fallen in gang.waiting:
            out = prepare(state, "recruit_declined", {"gang": gang.id, "replaces": fallen.ref})
            play.events.append(Event(len(play.events) + 1, "recruit_declined", out))
            state = play.state


def random_encounter(play: Play, rng: random.Random) -> None:
    """Play one encounter with random happenings and after-steps, all through prepare()."""
    short_handed(play)
    state = play.state
    a, b = (g.id for g in state.active_gangs[:2])
    source = Dice(rng)
    out = prepare(state, "encounter_begun", {"gangs": [a, b]}, source)
    play.events.append(Event(len(play.events) + 1, "encounter_begun", out))
    state = play.state
    enc = state.last_encounter
    standing = [m.ref for g in (a, b) for m in state.gangs[g].alive]
    lines, down = [], set()
    left = {r: state.progression.actions(state.member(r)) for r in standing}
    for _ in range(rng.randint(0, 6)):
        up = [r for r in standing if r not in down]
        hitters = [(x, y) for x in up for y in up if x.split("/")[0] != y.split("/")[0]]
        if not hitters:
            break
        x, y = rng.choice(hitters)
        if rng.random() < 0.4 or left[y] == 0:
            lines.append(kill(x, y))
            down.add(y)
        else:
            lost = rng.randint(1, min(3, left[y]))
            left[y] -= lost
            lines.append(wound(x, y, lost))
    winner = rng.choice([a, b, ""])
    play.do("encounter_recorded", encounter=enc.id, gang=a, winner=winner, happenings=lines)
    play.do("encounter_confirmed", encounter=enc.id, gang=b)
    for member in list(play.state.last_encounter.dead):
        out = prepare(
            play.state, "death_rolled", {"encounter": enc.id, "member": member}, Dice(rng)
        )
        play.events.append(Event(len(play.events) + 1, "death_rolled", out))
    state = play.state
    for gang in state.active_gangs:
        for member in gang.alive:
            options = state.progression.advance_options(member)
            if options and rng.random() < 0.7:
                out = prepare(
                    state,
                    "advance_taken",
                    {"member": member.ref, "choice": rng.choice(options)[0]},
                    Dice(rng),
                )
                play.events.append(Event(len(play.events) + 1, "advance_taken", out))
                state = play.state


@pytest.mark.parametrize("seed", range(12))
def test_undo_is_exact_after_random_campaigns(seed):
    rng = random.Random(seed)
    play = rivals_campaign(agreed=10)
    for _ in range(rng.randint(0, 3)):
        random_encounter(play, rng)
    short_handed(play)
    before = member_dump(play.state)
    random_encounter(play, rng)
    state = play.do("encounter_undone")
    assert member_dump(state) == before
    # Every member's CCP follow from their best reputation, never from the last total.
    for gang in state.gangs.values():
        for m in gang.members.values():
            assert m.earned == max(0, m.best) // 5 and m.spent <= m.earned


def test_a_new_leader_when_the_leader_is_killed():
    play = rivals_campaign()
    error = play.refuse("leader_chosen", member=SARAH)
    assert "Red Jack leads the gang" in error.message  # only when the leader is dead
    enc = play.begin()
    play.record(enc, kill(JAMES, RED_JACK))
    play.confirm(enc)
    assert "Red Jack leads" in play.refuse("leader_chosen", member=SARAH).message  # until his roll
    state = play.do("death_rolled", 1, encounter=enc, member=RED_JACK)
    roster = state.gangs["1"].current_roster(state.progression)
    report = get_system("rivals").evaluate(roster)
    assert "rivals.no_leader" in report.codes()
    assert "already leads" in play.refuse("leader_chosen", member=JACK).message
    assert "dead" in play.refuse("leader_chosen", member=RED_JACK).message
    state = play.do("leader_chosen", member=SARAH)
    roster = state.gangs["1"].current_roster(state.progression)
    assert "rivals.no_leader" not in get_system("rivals").evaluate(roster).codes()
    assert state.log[-1].text == "Sarah now leads Red Jack's Gang."


def test_bwg1_has_no_leader_flag_to_move():
    play = xp_campaign("bwg1", "bwg1-legal-dalton-boys", "bwg1-legal-dalton-boys")
    assert "not a flag" in play.refuse("leader_chosen", member="1/2").message


def test_each_system_has_its_campaign_module_and_a_new_one_falls_back():
    """The campaign rules live in each system's package (``rules/systems/<id>/campaign.py``),
    found through the one registry; a system with no module of its own gets the generic
    Rivals-style progression."""
    from rules.campaign import XPProgression, progression_for
    from rules.registry import progression_class
    from rules.systems.bwg1.campaign import Bwg1Progression
    from rules.systems.bwg2.campaign import Bwg2Progression
    from rules.systems.gf26.campaign import Gf26Progression
    from rules.systems.gunfight.campaign import GunfightProgression
    from rules.systems.rivals.campaign import RivalsProgression

    assert {
        system_id: progression_class(system_id)
        for system_id in ("bwg1", "bwg2", "gf26", "gunfight", "rivals")
    } == {
        "bwg1": Bwg1Progression,
        "bwg2": Bwg2Progression,
        "gf26": Gf26Progression,
        "gunfight": GunfightProgression,
        "rivals": RivalsProgression,
    }
    assert type(progression_for("rivals")) is RivalsProgression
    assert type(XPProgression("sixth")) is XPProgression
    with pytest.raises(KeyError):
        progression_for("sixth")


# --------------------------------------------------------------------------- issue 15


def dead_james(play: Play) -> int:
    """An encounter in which Sarah kills James (Mark), who rolls 1: dead."""
    enc = play.begin()
    play.record(enc, kill(SARAH, JAMES))
    play.confirm(enc)
    play.do("death_rolled", 1, encounter=enc, member=JAMES)
    return enc


def test_gangs_fight_at_full_strength():
    """003, "Recruiting new gang members": "Before the start of each encounter gang members
    killed and removed from the game in a previous encounter are replaced." And "The Outlaw
    Gang": "Once the size of the gang has been chosen it remains that size"."""
    play = rivals_campaign()
    dead_james(play)
    error = play.refuse("encounter_begun", 2, gangs=["1", "2"])
    assert "full strength" in error.message and "Mark" in error.message
    assert error.field == "gangs"
    # Recruiting is open now (no encounter has begun), and then the encounter can begin.
    state = play.do(
        "member_recruited",
        gang="2",
        replaces=JAMES,
        member={"name": "Wes", "data": recruit_data(handgun=2)},
    )
    assert not state.gangs["2"].waiting
    play.begin()


def test_a_player_may_choose_to_fight_short_handed_and_recruit_later():
    play = rivals_campaign()
    dead_james(play)
    assert "killed" in play.refuse("recruit_declined", gang="2", replaces=DAVID).message
    state = play.do("recruit_declined", gang="2", replaces=JAMES)
    assert state.gangs["2"].fallen and not state.gangs["2"].waiting
    assert "fights on without replacing Mark" in state.log[-1].text
    assert (
        "already fights without"
        in play.refuse("recruit_declined", gang="2", replaces=JAMES).message
    )
    enc = play.begin()
    play.record(enc)
    play.confirm(enc)
    state = play.do(
        "member_recruited",
        gang="2",
        replaces=JAMES,
        member={"name": "Wes", "data": recruit_data(handgun=2)},
    )
    assert not state.gangs["2"].fallen


def test_the_other_games_need_not_replace_their_dead():
    play = xp_campaign("bwg1", "bwg1-legal-dalton-boys", "bwg1-legal-dalton-boys")
    enc = play.begin()
    play.record(enc, out("1/2", "2/3"), winner="1")
    play.confirm(enc)
    state = play.do("death_rolled", 1, encounter=enc, member="2/3")
    assert state.gangs["2"].fallen
    play.begin()  # a house-rules campaign: recruits are optional


def test_a_wound_is_worth_no_more_actions_than_the_victim_has_left():
    """003, "Reputation": wounding is worth "Number of actions lost from the wound"; RULES.md
    decides it is "never more than the victim has left". Mark is Regular: 4 actions."""
    play = rivals_campaign()
    enc = play.begin()
    cases = [
        ([wound(SARAH, JAMES, 9)], "Line 1: Mark has 4 actions left (toughness 4)"),
        (
            [wound(SARAH, JAMES, 3), wound(JESSE, JAMES, 3)],
            "Line 2: Mark has 1 action left (toughness 4, less earlier wounds)",
        ),
        (
            [wound(SARAH, JAMES, 4), wound(JESSE, JAMES, 1)],
            "Line 2: Mark has no actions left to lose",
        ),
    ]
    for lines, words in cases:
        error = play.refuse("encounter_recorded", encounter=enc, gang="1", happenings=lines)
        assert words in error.message, error.message
        assert error.field == "line-2" if len(lines) > 1 else error.field == "line-1"
    # Three wounds that fit (3 + 1 on Mark, 5 on Clay, who is Built like an outhouse!).
    state = play.record(enc, wound(SARAH, JAMES, 3), wound(JESSE, JAMES, 1), wound(JAMES, "1/5", 5))
    assert [h["amount"] for h in state.last_encounter.happenings] == [3, 1, 5]


def test_a_kill_is_worth_the_victims_toughness_and_the_engine_fills_it_in():
    """003, "Reputation": Sarah kills James, "a Drifter with Regular toughness (4 Actions) -
    so Sarah gains 6 reputation for killing him", after her Belly Wound took 2 of his
    actions. The kill's worth is his toughness, whatever was typed before."""
    play = rivals_campaign()
    enc = play.begin()
    error = play.refuse(
        "encounter_recorded", encounter=enc, gang="1", happenings=[kill(SARAH, JAMES, 10)]
    )
    assert "worth Mark's toughness, 4 actions" in error.message and error.field == "line-1"
    error = play.refuse(
        "encounter_recorded",
        encounter=enc,
        gang="1",
        happenings=[wound(SARAH, JAMES, 2), kill(SARAH, JAMES, 2)],
    )
    assert "leave the number empty or give 4" in error.message
    state = play.record(enc, wound(SARAH, JAMES, 2), kill(SARAH, JAMES, 4), kill(JACK, "1/5"))
    amounts = [h["amount"] for h in state.last_encounter.happenings]
    assert amounts == [2, 4, 5]  # Clay: Built like an outhouse!, 5 actions


def test_showdown_hits_are_checked_like_the_record():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, wound(SARAH, JAMES, 2), winner="1")
    play.confirm(enc)
    play.do("showdown_challenged", encounter=enc, challenger=JACK, challenged=JESSE)
    play.do("showdown_answered", encounter=enc, accepted=True)
    hit = lambda kind, by, to, n=None: {  # noqa: E731
        "kind": kind,
        "by": by,
        "to": to,
        **({} if n is None else {"amount": n}),
    }
    for hits, words, field in [
        ([hit("wound", JESSE, JACK, 5)], "Hit 1: Jack O'Neil has 4 actions left", "hits-1"),
        ([hit("kill", JACK, JESSE, 10)], "worth Jesse's toughness, 4 actions", "hits-1"),
        (
            [hit("kill", JACK, JESSE), hit("wound", JESSE, JACK, 1)],
            "the fight ended with the kill",
            "hits-2",
        ),
    ]:
        error = play.refuse("showdown_fought", encounter=enc, winner=JACK, fate="dead", hits=hits)
        assert words in error.message and error.field == field, error.message


def test_one_leader_a_recruit_is_not_a_second_leader():
    """003, "The Outlaw Gang": "One character in the gang is chosen as the gang leader"."""
    play = rivals_campaign()
    dead_james(play)
    state = play.do(
        "member_recruited",
        gang="2",
        replaces=JAMES,
        member={"name": "Wes", "data": {**recruit_data(), "leader": True}},
    )
    wes = state.gangs["2"].members["7"]
    assert wes.data["leader"] is False and state.member(JACK).data["leader"] is True
    assert "not as a leader: Jack O'Neil leads the gang" in state.log[-1].text
    roster = state.gangs["2"].current_roster(state.progression)
    assert "rivals.two_leaders" not in get_system("rivals").evaluate(roster).codes()


def test_a_recruit_may_lead_when_the_leader_is_dead():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc, kill(SARAH, JACK))
    play.confirm(enc)
    play.do("death_rolled", 1, encounter=enc, member=JACK)
    state = play.do(
        "member_recruited",
        gang="2",
        replaces=JACK,
        member={"name": "Wes", "data": {**recruit_data(), "leader": True}},
    )
    assert state.gangs["2"].members["7"].data["leader"] is True


def test_bwg1_refuses_a_second_leader_as_a_recruit():
    play = xp_campaign("bwg1", "bwg1-legal-dalton-boys", "bwg1-legal-dalton-boys")
    enc = play.begin()
    play.record(enc, out("1/2", "2/3"), winner="1")
    play.confirm(enc)
    play.do("death_rolled", 1, encounter=enc, member="2/3")
    leader = copy.deepcopy(example("bwg1-legal-dalton-boys")["members"][0]["data"])
    error = play.refuse(
        "member_recruited", gang="2", replaces="2/3", member={"name": "Boss", "data": leader}
    )
    assert "Bob Dalton leads" in error.message and error.field == "recruit"


def four_gangs() -> Play:
    play = Play()
    for gang in "1234":
        name = "red-jacks-gang" if gang in "13" else "six-outlaws"
        play.do("gang_joined", gang=gang, player=f"p{gang}", roster=example(f"rivals-legal-{name}"))
    play.do("campaign_started")
    return play


def test_every_encounter_keeps_its_showdown_until_its_gangs_fight_again():
    """003, "Showdown": "After every encounter an individual outlaw from the gang with the
    lowest reputation total may challenge". With four gangs, encounter 2 (3 v 4) may begin
    before encounter 1's showdown is made; it stays owed until gang 1 or 2 fights again."""
    play = four_gangs()
    enc1 = play.begin("1", "2")
    play.record(enc1, wound(SARAH, JAMES, 2), winner="1")
    play.confirm(enc1)
    enc2 = play.begin("3", "4")
    state = play.state
    assert showdown_pairs(state, state.encounter(enc1))
    play.do("showdown_challenged", encounter=enc1, challenger=JACK, challenged=JESSE)
    state = play.do("showdown_answered", encounter=enc1, accepted=False)
    assert state.member(JESSE).score == 2 - 5
    # Undoing encounter 2 leaves encounter 1's showdown alone: other gangs, other tables.
    state = play.do("encounter_undone", encounter=enc2)
    assert state.member(JESSE).score == -3 and state.encounter(enc1).showdown["status"] == (
        "declined"
    )
    assert [line.undone for line in state.log if line.kind.startswith("showdown")] == [
        False,
        False,
    ]


def test_a_showdown_is_gone_once_one_of_its_gangs_fights_again():
    play = four_gangs()
    enc1 = play.begin("1", "2")
    play.record(enc1, wound(SARAH, JAMES, 2), winner="1")
    play.confirm(enc1)
    play.begin("1", "3")
    state = play.state
    assert showdown_pairs(state, state.encounter(enc1)) == []
    error = play.refuse("showdown_challenged", encounter=enc1, challenger=JACK, challenged=JESSE)
    assert "Red Jack's Gang has begun encounter 2 since" in error.message


def test_riding_to_mexico_after_the_gangs_own_encounter():
    """003, "Riding to Mexico": "A Player can end a game at the end of any encounter"."""
    play = four_gangs()
    assert "played no encounter yet" in play.refuse("rode_to_mexico", gang="4").message
    enc = play.begin("1", "4")
    play.record(enc)
    play.confirm(enc, gang="4")
    enc = play.begin("2", "3")
    play.record(enc, gang="2")
    state = play.do("rode_to_mexico", gang="4")
    assert state.gangs["4"].retired_after == 1  # its own last encounter, not the campaign's


def test_buying_zero_buys_nothing():
    play = rivals_campaign()
    enc = play.begin()
    play.record(enc)
    play.confirm(enc)
    error = play.refuse("item_bought", member=SARAH, item="Knife", quantity=0)
    assert error.field == "quantity" and "1 to 20, not 0" in error.message
    assert play.state.member(SARAH).cash == 12


def test_leaving_early_is_never_a_gain():
    """docs/campaigns.md: ``left_xp`` is "XP (0 or less)"; an old campaign with a positive
    figure is read as 0."""
    play = xp_campaign("bwg1", "bwg1-legal-dalton-boys", "bwg1-legal-dalton-boys")
    play.rules = {"left_xp": 3}
    enc = play.begin()
    play.record(enc, {"kind": "left", "who": "1/3"})
    state = play.confirm(enc)
    assert state.member("1/3").score == 0
    play.rules = {"left_xp": -2}
    assert play.state.member("1/3").score == -2
