"""Promotions, and what caps them (rules/campaign: gf26, Gunfight, bwg1, the generic game).

What the score earns is credited only while the member can still spend it:

- Gangfight Core 2.6, "Model Profiles: Troop Types": a Regular has 1 perk, a Veteran 2,
  a Hero 3. Promotion (docs/campaigns.md) moves a model up one troop type with one new
  perk, so a Regular can take two promotions, a Veteran one, a Hero none.
- Gunfight v2, "Characters" (p. 2): "A greenhorn has one, an old hand has two and a
  veteran has three" special abilities. ``old_hand_xp`` is where a Greenhorn becomes an
  Old Hand and ``veteran_xp`` where an Old Hand becomes a Veteran: a mark below the
  character's level gives nothing, and a Veteran goes no higher.
- Blackwater Gulch v1.1.2: attributes go from 1 to 6, so an attribute point is credited
  only while some attribute is below 6.

As everywhere in a campaign, a threshold passed once never grants again.
"""

from __future__ import annotations

import copy

from rules import get_system
from rules.campaign import MemberState, XPProgression
from tests.rules.test_campaign import Play, example, out, xp_campaign


def fight(play: Play, *lines: dict, winner: str = "1"):
    """One encounter between gangs 1 and 2, recorded, confirmed and (death rolls of 6,
    playing dead, for everyone taken out who rolls) settled."""
    enc = play.begin()
    play.record(enc, *lines, winner=winner)
    state = play.confirm(enc)
    for member in list(state.last_encounter.dead):
        state = play.do("death_rolled", 6, encounter=enc, member=member)
    assert state.last_encounter.awarded
    return state


def settled(state) -> str:
    """The log line that says what the last encounter gave."""
    return next(line.text for line in reversed(state.log) if "settled" in line.text)


# --------------------------------------------------------------------------- gf26

# The Iron Company: 1 Aldric (Hero, leader), 2 Gwen (Hero), 3 Bren and 4 Cole (Veterans),
# 5 Dara, 6 Edda, 7 Finn (Regulars). Worth to the enemy: Regular 1, Veteran 2, Hero 3.
GWEN, BREN, DARA = "1/2", "1/3", "1/5"


def gf26_campaign(rules: dict | None = None) -> Play:
    return xp_campaign("gf26", "gf26-legal-iron-company", "gf26-legal-iron-company", rules)


def test_gf26_a_hero_earning_xp_gets_no_promotion_and_the_log_says_so():
    """The issue's case: a Hero takes out two models in a won game (Regular 1 + Veteran 2
    + 2 for the win = 5 XP)."""
    play = gf26_campaign()
    state = fight(play, out(GWEN, "2/5"), out(GWEN, "2/3"))
    gwen = state.member(GWEN)
    assert (gwen.score, gwen.best) == (5, 5)
    assert (gwen.earned, gwen.spent, gwen.saved) == (0, 0, 0)
    assert "Gwen +5 XP (now 5; no more promotions: Hero is the highest troop type)" in (
        settled(state)
    )
    assert "promotion earned" not in settled(state)
    assert GWEN not in state.last_encounter.advanced
    assert state.progression.advance_options(gwen) == []
    error = play.refuse("advance_taken", member=GWEN, choice="fast")
    assert error.field == "choice" and "no promotion to take" in error.message


def test_gf26_a_regular_is_promoted_twice_to_hero_and_no_further():
    play = gf26_campaign()
    # Dara takes out two Heroes and wins: 3 + 3 + 2 = 8 XP, one threshold of 5.
    state = fight(play, out(DARA, "2/1"), out(DARA, "2/2"))
    dara = state.member(DARA)
    assert (dara.score, dara.earned, dara.saved) == (8, 1, 0 + 1)
    assert "Dara +8 XP (now 8, 1 promotion earned)" in settled(state)
    assert state.last_encounter.advanced[DARA] == 1
    options = dict(state.progression.advance_options(dara))
    assert "Become a Veteran with Fast" in options.values()
    state = play.do("advance_taken", member=DARA, choice="fast")
    dara = state.member(DARA)
    assert dara.data["profile"]["troop_type"] == "veteran"
    assert dara.data["perks"] == ["marksman", "fast"]  # a Veteran's 2 perks
    assert dara.saved == 0

    # 8 → 10 passes the second threshold: Veteran → Hero.
    state = fight(play, out(DARA, "2/5"), winner="2")  # a Regular: 1 XP, no win
    state = fight(play, out(DARA, "2/6"))  # 1 + 2
    dara = state.member(DARA)
    assert (dara.score, dara.earned) == (12, 2)
    state = play.do("advance_taken", member=DARA, choice="stubborn")
    dara = state.member(DARA)
    assert dara.data["profile"]["troop_type"] == "hero"
    assert len(dara.data["perks"]) == 3  # a Hero's 3 perks
    report = get_system("gf26").evaluate(state.gangs["1"].current_roster(state.progression))
    assert not [f for f in report.findings_for("5") if f.is_error]

    # 12 → 15 passes the third threshold: a Hero gains no more.
    state = fight(play, out(DARA, "2/7"))
    dara = state.member(DARA)
    assert (dara.score, dara.earned, dara.saved) == (15, 2, 0)
    assert "Dara +3 XP (now 15; no more promotions: Hero is the highest troop type)" in (
        settled(state)
    )


def test_gf26_a_veteran_passing_two_thresholds_at_once_earns_one_promotion():
    """Hero 3 + Hero 3 + Veteran 2 + 2 for the win = 10 XP: two thresholds, but a Veteran
    has one troop type left above him."""
    play = gf26_campaign()
    state = fight(play, out(BREN, "2/1"), out(BREN, "2/2"), out(BREN, "2/3"))
    bren = state.member(BREN)
    assert (bren.score, bren.earned, bren.saved) == (10, 1, 1)
    assert (
        "Bren +10 XP (now 10, 1 promotion earned; no more promotions: Hero is the highest "
        "troop type)"
    ) in settled(state)
    state = play.do("advance_taken", member=BREN, choice="stubborn")
    bren = state.member(BREN)
    assert bren.data["profile"]["troop_type"] == "hero" and bren.saved == 0
    assert state.progression.advance_options(bren) == []


def test_gf26_a_promotion_saved_counts_against_what_is_left():
    """A Veteran who has not spent his promotion yet is a Hero-to-be: the next threshold
    gives him nothing, and spending it later leaves nothing saved."""
    play = gf26_campaign({"per_advance": 3})
    state = fight(play, out(BREN, "2/5"))  # 1 + 2 = 3: one promotion, saved
    assert state.member(BREN).saved == 1
    state = fight(play, out(BREN, "2/6"))  # 6: a second threshold
    bren = state.member(BREN)
    assert (bren.score, bren.earned, bren.saved) == (6, 1, 1)
    assert "no more promotions" in settled(state)
    state = play.do("advance_taken", member=BREN, choice="stubborn")
    assert state.member(BREN).saved == 0


# --------------------------------------------------------------------------- Gunfight

# The Lawman Posse: 1 Marshal Caleb Stone (Veteran), 2 Deputy Jim Hale (Greenhorn),
# 3 Posse riders (troopers), 4 Townsfolk (rabble). The Indian War Party: 1 Grey Wolf
# (Old Hand), 2 Running Elk (Greenhorn), 3 Braves (troopers).
MARSHAL, DEPUTY, GREY_WOLF = "1/1", "1/2", "2/1"


def gunfight_campaign(rules: dict | None = None) -> Play:
    return xp_campaign(
        "gunfight", "gunfight-legal-lawman-posse", "gunfight-legal-indian-war-party", rules
    )


def test_gunfight_a_veteran_crossing_5_and_15_xp_gets_no_promotion():
    play = gunfight_campaign()
    # Old Hand 2 + Greenhorn 1 + 2 for the win = 5 XP: the Old Hand mark.
    state = fight(play, out(MARSHAL, "2/1"), out(MARSHAL, "2/2"))
    marshal = state.member(MARSHAL)
    assert (marshal.score, marshal.earned) == (5, 0)
    assert (
        "Marshal Caleb Stone +5 XP (now 5; no more promotions: Veteran is the highest level)"
    ) in settled(state)
    state = fight(play, out(MARSHAL, "2/1"), out(MARSHAL, "2/2"), out(MARSHAL, "2/3"))  # 11
    state = fight(play, out(MARSHAL, "2/1"), out(MARSHAL, "2/2"))  # 16: the Veteran mark
    marshal = state.member(MARSHAL)
    assert (marshal.score, marshal.best, marshal.earned, marshal.saved) == (16, 16, 0, 0)
    assert (
        "Marshal Caleb Stone +5 XP (now 16; no more promotions: Veteran is the highest level)"
    ) in settled(state)
    assert state.progression.advance_options(marshal) == []
    assert marshal.data["experience"] == "veteran" and len(marshal.data["abilities"]) == 3
    assert "no promotion to take" in play.refuse("advance_taken", member=MARSHAL).message


def test_gunfight_an_old_hand_is_promoted_at_the_veteran_mark_not_at_the_old_hand_mark():
    play = gunfight_campaign({"win_xp": 4})
    # Grey Wolf (gang 2) takes out the Deputy (1) and wins (4): 5 XP, the Old Hand mark.
    state = fight(play, out(GREY_WOLF, DEPUTY), winner="2")
    wolf = state.member(GREY_WOLF)
    assert (wolf.score, wolf.earned) == (5, 0)
    assert "Grey Wolf +5 XP (now 5; no promotion: already an Old Hand)" in settled(state)
    assert state.progression.advance_options(wolf) == []
    # the Marshal (3) and the Deputy (1) and the win (4): 13; then 3 + 1 + 4 = 21.
    fight(play, out(GREY_WOLF, MARSHAL), out(GREY_WOLF, DEPUTY), winner="2")
    state = fight(play, out(GREY_WOLF, MARSHAL), out(GREY_WOLF, DEPUTY), winner="2")
    wolf = state.member(GREY_WOLF)
    assert (wolf.score, wolf.earned, wolf.saved) == (21, 1, 1)
    assert "Grey Wolf +8 XP (now 21, 1 promotion earned)" in settled(state)
    # 7 is Horseman, which he has: rolled again (RULES.md), 3 is Coyote Cunning
    state = play.do("advance_taken", 7, 3, member=GREY_WOLF, choice="promote")
    wolf = state.member(GREY_WOLF)
    assert wolf.data["experience"] == "veteran"
    assert wolf.data["abilities"] == ["nobility", "horseman", "coyote_cunning"]
    assert len(wolf.data["abilities"]) == 3  # "a veteran has three"
    assert state.progression.advance_options(wolf) == []


def test_gunfight_a_greenhorn_passing_both_marks_at_once_becomes_a_veteran():
    play = gunfight_campaign({"win_xp": 13})
    # Old Hand 2 + Greenhorn 1 + 13 for the win = 16 XP: both marks in one encounter.
    state = fight(play, out(DEPUTY, "2/1"), out(DEPUTY, "2/2"))
    deputy = state.member(DEPUTY)
    assert (deputy.score, deputy.earned, deputy.saved) == (16, 2, 2)
    assert "Deputy Jim Hale +16 XP (now 16, 2 promotions earned)" in settled(state)
    state = play.do("advance_taken", 3, member=DEPUTY, choice="promote")
    assert state.member(DEPUTY).data["experience"] == "old_hand"
    state = play.do("advance_taken", 5, member=DEPUTY, choice="promote")
    deputy = state.member(DEPUTY)
    assert deputy.data["experience"] == "veteran" and deputy.saved == 0
    assert len(deputy.data["abilities"]) == 3  # one, then two, then three
    report = get_system("gunfight").evaluate(state.gangs["1"].current_roster(state.progression))
    assert not [f for f in report.findings_for("2") if f.is_error]


def test_gunfight_a_greenhorn_saving_a_promotion_still_earns_the_veteran_mark():
    play = gunfight_campaign({"win_xp": 4})
    state = fight(play, out(DEPUTY, "2/2"))  # 1 + 4 = 5: the Old Hand mark, saved
    assert state.member(DEPUTY).saved == 1
    fight(play, out(DEPUTY, "2/1"), out(DEPUTY, "2/2"))  # 12
    state = fight(play, out(DEPUTY, "2/2"))  # 17: the Veteran mark
    deputy = state.member(DEPUTY)
    assert (deputy.score, deputy.earned, deputy.saved) == (17, 2, 2)
    assert deputy.data["experience"] == "greenhorn"


# --------------------------------------------------------------------------- bwg1


def bwg1_almost_maxed() -> dict:
    """The Dalton Boys, with Bob Dalton (a Gunslinger Leader) carrying attribute points
    from an earlier campaign: every attribute at 6 but MC, at 5."""
    roster = example("bwg1-legal-dalton-boys")
    bob = roster["members"][0]["data"]
    # points + 1: Str 3, Qui 5, Sta 5, Int 5, RC 5 (+1 Gunslinger: 6), MC 3
    bob["advances"] = {"str": 3, "qui": 1, "sta": 1, "int": 1, "mc": 2}
    return roster


def test_bwg1_attribute_points_stop_when_every_attribute_is_6():
    play = Play("bwg1")
    play.do("gang_joined", gang="1", player="ann", roster=bwg1_almost_maxed())
    play.do("gang_joined", gang="2", player="bob", roster=example("bwg1-legal-dalton-boys"))
    play.do("campaign_started")
    state = play.state
    report = get_system("bwg1").evaluate(state.gangs["1"].current_roster(state.progression))
    assert report.members["1"].attributes == {
        "str": 6,
        "qui": 6,
        "sta": 6,
        "int": 6,
        "rc": 6,
        "mc": 5,
    }
    # Bob takes out the enemy Leader (5) and Doc Ruth (3), and wins (2): 10 XP.
    state = fight(play, out("1/1", "2/1"), out("1/1", "2/2"))
    bob = state.member("1/1")
    assert (bob.score, bob.earned, bob.saved) == (10, 1, 1)
    assert (
        "Bob Dalton +10 XP (now 10, 1 attribute point earned; no more attribute points: every "
        "attribute is 6, or will be with the points saved)"
    ) in settled(state)
    assert [v for _value, v in state.progression.advance_options(bob)] == ["MC 5 → 6"]
    state = play.do("advance_taken", member="1/1", choice="mc")
    bob = state.member("1/1")
    assert bob.saved == 0 and state.progression.advance_options(bob) == []


# --------------------------------------------------------------------------- the rest


def test_a_game_without_advances_of_its_own_credits_none():
    """The generic progression has nothing to spend advances on, so it credits none."""
    member = MemberState("1", "1", "Someone", {}, 0)
    assert XPProgression("sixth").earn(member, 0, 12, {"per_advance": 5}) == (0, "")


def test_rivals_ccp_are_not_capped():
    """Rivals is played by its book: every 5 reputation is 1 CCP, spent or saved."""
    from rules.campaign import progression_for

    member = MemberState("1", "1", "Sarah", {}, 0)
    assert progression_for("rivals").earn(member, 0, 12, {}) == (2, "")


def test_undo_takes_back_the_promotions_of_the_encounter_undone():
    play = gf26_campaign({"per_advance": 2})
    fight(play, out(DARA, "2/5"))  # 3 XP: one promotion
    before = copy.deepcopy(play.state.member(DARA))
    state = fight(play, out(DARA, "2/1"), out(DARA, "2/2"), out(DARA, "2/3"))  # 13
    assert state.member(DARA).earned == 2  # the room left: Veteran, then Hero
    state = play.do("encounter_undone")
    assert state.member(DARA) == before
