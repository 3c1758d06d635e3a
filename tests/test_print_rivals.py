"""Printing Outlaws: Rivals gangs: cards, the Wanted Poster sheet, the quick reference.

Numbers and texts are copied from RULES.md (section ``rivals``) and the seed (003), not from
the engine's data, so that a wrong data entry fails a test. Rosters are the example files
in ``docs/examples`` or built here with ``rules.roster.make_roster``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from builder import printing as printing_module
from rules import get_system
from rules.printing import MARKS, Card
from rules.roster import make_roster
from tests.helpers.pdf import pdf_text

SYSTEM = get_system("rivals")
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
ROWS = ("toughness", "handgun", "rifle", "shotgun", "brawl", "riding")


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text("utf-8"))


def outlaw(*, leader: bool = False, pack: str = "A", skill=None, **tiers: Any) -> dict[str, Any]:
    """A Wanted Poster: tiers default to 0; extra fields (drunk, reputation…) via ``extra``."""
    extra = tiers.pop("extra", {})
    return {
        "gender": "male",
        "hand": "right",
        "tiers": {row: tiers.get(row, 0) for row in ROWS},
        "special_skill": skill,
        "pack": pack,
        "leader": leader,
        **extra,
    }


def cards_of(roster: dict[str, Any]) -> list[Card]:
    return SYSTEM.print_cards(roster, SYSTEM.evaluate(roster))


def section(card: Card, title: str) -> dict[str, str]:
    found = [s for s in card.sections if s.title == title]
    assert found, f"{card.name}'s card has no {title!r} section: {[s.title for s in card.sections]}"
    return {e.term: e.text for e in found[0].entries}


RED_JACKS_GANG = example("rivals-legal-red-jacks-gang")


# --------------------------------------------------------------------------- cards


def test_one_card_per_outlaw_in_roster_order_with_the_member_keys():
    cards = cards_of(RED_JACKS_GANG)
    assert [(c.key, c.name) for c in cards] == [
        ("1", "Red Jack"),
        ("2", "Sarah"),
        ("3", "Jesse"),
        ("4", "Luke"),
        ("5", "Clay"),
    ]
    assert all(c.count == 1 for c in cards)


def test_front_has_the_posters_stat_line_and_facts():
    red_jack = cards_of(RED_JACKS_GANG)[0]
    # Regular toughness = 4 actions; Gunslinger +3; Got the shakes! +0; Everyone duck! +0;
    # Brawl Regular +1; Riding Regular +1.
    # Short labels: six cells fit across the card; the back names each tier in full.
    assert [(s.label, s.value) for s in red_jack.stats] == [
        ("Act", "4"),
        ("H'gun", "+3"),
        ("Rifle", "+0"),
        ("S'gun", "+0"),
        ("Brawl", "+1"),
        ("Riding", "+1"),
    ]
    facts = {s.label: s.value for s in red_jack.facts}
    # 1 + 4 + 0 + 0 + 1 + 1 for the tiers, + 1 for Table A; a new outlaw has no reputation
    # (Loafer, +1) and carries Pack A's $10.
    assert facts == {"CCP": "8", "Reputation": "0", "Notoriety": "+1", "Cash": "$10"}
    assert red_jack.kind.startswith("Leader")
    assert "Loafer" in red_jack.kind


def test_marks_leader_star_outlaws_skull_tuwa_horseshoe():
    roster = make_roster(
        "rivals",
        "Red Jack's Gang",
        30,
        [
            ("Red Jack", outlaw(leader=True)),
            ("Sam", outlaw()),
            ("Running Elk", outlaw(extra={"tuwa": True})),
        ],
    )
    assert [c.mark for c in cards_of(roster)] == ["star", "skull", "horseshoe"]
    assert all(c.mark in MARKS for c in cards_of(roster))


@pytest.mark.parametrize(("toughness", "actions"), [(0, 3), (1, 4), (2, 5)])
def test_tracks_have_one_action_and_one_wound_box_per_starting_action(toughness, actions):
    roster = make_roster("rivals", "X", 30, [("Bob", outlaw(toughness=toughness))])
    (card,) = cards_of(roster)
    assert [(t.label, t.boxes) for t in card.tracks] == [("Actions", actions), ("Wounds", actions)]


def test_weapons_carry_their_kind_and_the_outlaws_skill_bonus():
    cards = {c.name: c for c in cards_of(RED_JACKS_GANG)}
    colt = cards["Red Jack"].weapons[0]
    assert (colt.name, colt.traits) == ("Colt '41", ("Handgun",))
    assert colt.note == "Handgun +3"  # Gunslinger
    # Pack B: Smith & Wesson No.2 and a knife; Sarah has Straight-shooter (+2), Brawl +0.
    sarah = {w.name: w for w in cards["Sarah"].weapons}
    assert set(sarah) == {"Smith & Wesson No.2", "Knife"}
    assert "Handgun +2" in sarah["Smith & Wesson No.2"].note
    assert sarah["Knife"].traits == ("Knife",) and "Brawl +0" in sarah["Knife"].note
    assert [w.name for w in cards["Jesse"].weapons] == ["Winchester Carbine"]
    assert "Rifle +4" in cards["Jesse"].weapons[0].note  # Steady
    assert [w.name for w in cards["Luke"].weapons] == ["Remington Shotgun"]
    assert "Shotgun +2" in cards["Luke"].weapons[0].note  # Hunter


def test_weapon_traits_say_what_each_kind_of_weapon_means():
    sarah = cards_of(RED_JACKS_GANG)[1]
    traits = section(sarah, "Weapon traits")
    assert set(traits) == {"Handgun", "Knife"}
    assert "Handgun skill" in traits["Handgun"]
    assert "Double holster" in traits["Handgun"]  # needed if two handguns are used
    assert "Brawl" in traits["Knife"]


def test_special_skill_is_printed_with_its_full_text():
    red_jack, sarah, _jesse, luke, _clay = cards_of(RED_JACKS_GANG)
    # Seed 003, Table A roll 6: "Fast draw. In a showdown +1 to Handgun".
    fast_draw = section(red_jack, "Special skill")["Fast draw"]
    assert "In a showdown" in fast_draw and "+1 to Handgun" in fast_draw
    # Table B roll 3-4: "Ambidextrous. Can fire handgun with either hand with no penalty."
    ambidextrous = section(sarah, "Special skill")["Ambidextrous"]
    assert "either hand" in ambidextrous and "no penalty" in ambidextrous
    # Table A roll 3-4, entered by hand: "Fast. One walk action each turn can be 2 squares".
    assert "2 squares" in section(luke, "Special skill")["Fast"]


def test_back_sections_come_in_order_and_vital_info_names_the_gang():
    red_jack, _sarah, jesse, *_ = cards_of(RED_JACKS_GANG)
    assert [s.title for s in red_jack.sections] == [
        "Vital info",
        "Special skill",
        "Weapon traits",
        "Equipment",
    ]
    vital = section(red_jack, "Vital info")
    assert "Leader of Red Jack's Gang" in vital["Outlaw"]
    assert "8 CCP" in vital["Outlaw"]  # a replacement is built with as many
    assert "+1" in vital["Reputation"]  # Loafer: the killer's bonus
    assert "Special skill" not in [s.title for s in jesse.sections]  # Jesse has none


def test_equipment_lists_the_pack_and_its_rules():
    red_jack = cards_of(RED_JACKS_GANG)[0]
    equipment = section(red_jack, "Equipment")
    assert "2\u00d7 Handgun reload" in equipment
    assert "horse-rail" in equipment["Horse"]
    assert "Cash $10" in equipment


def test_optional_rules_are_printed_in_full_and_noted_for_play():
    roster = make_roster(
        "rivals",
        "Bob's Gang",
        30,
        [("Bob", outlaw(leader=True, extra={"drunk": True, "tuwa": True}))],
    )
    (bob,) = cards_of(roster)
    drunk = section(bob, "Drunk (optional rule)")["Drunk"]
    # Seed: "Any action undertaken by a Drunk character costs an additional 1 action."
    assert "1 more action" in drunk and "falls prone" in drunk
    tuwa = section(bob, "Tuwa (optional rule)")
    for ability in (
        "Throw Tomahawk",
        "Throw Lance",
        "Quick Saddle-up",
        "Bow skill",
        "Horsemanship",
    ):
        assert tuwa[ability], ability
    assert "Saddle-up action for 1 action" in tuwa["Quick Saddle-up"]
    assert any("optional rule" in note for note in bob.play_notes)


def test_a_broken_tier_or_roll_is_a_play_note_on_that_card_only():
    roster = make_roster(
        "rivals",
        "Red Jack's Gang",
        30,
        [
            ("Red Jack", outlaw(leader=True, toughness=3)),
            ("Sam", outlaw(skill={"table": "A", "roll": 7, "source": "rolled"})),
            ("Ned", outlaw()),
        ],
    )
    red_jack, sam, ned = cards_of(roster)
    assert any(n.startswith("Not legal:") and "Toughness" in n for n in red_jack.play_notes)
    assert red_jack.stats[0].value == "?"
    assert any("not a 1D6 result" in n for n in sam.play_notes)
    assert ned.play_notes == []


def test_paperwork_findings_stay_off_the_cards():
    roster = make_roster("rivals", "Gang", 30, [("", outlaw(leader=True))])
    (card,) = cards_of(roster)
    assert card.name == "Outlaw 1"
    assert not any("has no name" in note for note in card.play_notes)


def test_reputation_and_cash_from_the_campaign_and_the_books_kill_example():
    # Book example: James is a Drifter (+2) with Regular toughness (4 actions): killing him
    # earns 4 + 2 = 6 reputation. Drifter is 6-10 reputation.
    roster = make_roster(
        "rivals",
        "James' Gang",
        30,
        [("James", outlaw(leader=True, toughness=1, extra={"reputation": 7, "cash": 23}))],
    )
    (james,) = cards_of(roster)
    facts = {s.label: s.value for s in james.facts}
    assert facts["Reputation"] == "7"
    assert facts["Notoriety"] == "+2"
    assert facts["Cash"] == "$23"
    assert "Drifter" in james.kind
    wounds = next(t for t in james.tracks if t.label == "Wounds")
    assert wounds.boxes + int(facts["Notoriety"]) == 6
    poster = SYSTEM.print_sheet(roster, SYSTEM.evaluate(roster))["posters"][0]
    assert (poster["notoriety"], poster["notoriety_bonus"]) == ("Drifter", 2)


@pytest.mark.parametrize(
    ("reputation", "title"),
    [(0, "Loafer"), (5, "Loafer"), (6, "Drifter"), (11, "Small time crook"), (16, "Outlaw"),
     (21, "Wanted"), (31, "Most wanted"), (-5, "Loafer")],
)  # fmt: skip
def test_notoriety_follows_the_decided_ranges(reputation, title):
    roster = make_roster("rivals", "G", 30, [("Al", outlaw(extra={"reputation": reputation}))])
    poster = SYSTEM.print_sheet(roster, SYSTEM.evaluate(roster))["posters"][0]
    assert poster["notoriety"] == title


def test_partial_and_garbage_members_still_get_cards():
    roster = {
        "system": "rivals",
        "name": "Junk",
        "members": [
            None,
            {},
            {"key": "x", "name": "Half", "data": {"tiers": {"handgun": 2}}},
            {
                "name": "Garbage",
                "data": {
                    "tiers": "lots",
                    "special_skill": "yes",
                    "pack": 7,
                    "reputation": "many",
                    "cash": -4,
                    "gender": ["?"],
                },
            },
        ],
    }
    cards = cards_of(roster)
    assert len(cards) == 4
    half = cards[2]
    assert half.name == "Half"
    assert ("H'gun", "+2") in [(s.label, s.value) for s in half.stats]
    # No toughness: the usual starting limit of four actions, said on the track.
    assert [(t.label, t.boxes) for t in half.tracks] == [("Actions", 4), ("Wounds", 4)]
    assert "usual" in half.tracks[0].note
    garbage = cards[3]
    assert {s.label: s.value for s in garbage.facts}["Cash"] == "$0"
    assert garbage.text()  # every card prints something


@pytest.mark.parametrize("roster", [None, {}, {"members": "no"}, {"members": [1, "two"]}])
def test_nothing_raises_on_a_broken_roster(roster):
    report = SYSTEM.evaluate(roster)
    SYSTEM.print_cards(roster, report)
    SYSTEM.print_sheet(roster, report)
    SYSTEM.quick_reference(roster, report)


# --------------------------------------------------------------------------- gang sheet


def test_print_sheet_gives_the_gang_summary():
    summary = SYSTEM.print_sheet(RED_JACKS_GANG, SYSTEM.evaluate(RED_JACKS_GANG))["summary"]
    assert summary["outlaws"] == 5
    assert (summary["ccp_spent"], summary["ccp_budget"], summary["ccp_left"]) == (30, 30, 0)
    assert summary["leader"] == "Red Jack"
    assert summary["cash"] == 10 + 12 + 5 + 5 + 10  # packs A, B, C, D, A
    assert summary["reputation"] == 0
    assert summary["legal"] is True


def test_print_sheet_gives_a_wanted_poster_per_outlaw():
    sheet = SYSTEM.print_sheet(RED_JACKS_GANG, SYSTEM.evaluate(RED_JACKS_GANG))
    posters = sheet["posters"]
    assert [p["name"] for p in posters] == ["Red Jack", "Sarah", "Jesse", "Luke", "Clay"]
    red_jack = posters[0]
    assert red_jack["leader"] is True
    assert red_jack["ccp"] == 8
    assert red_jack["reward"] == "$10"
    assert [(t["row"], t["name"]) for t in red_jack["tiers"]][:2] == [
        ("Toughness", "Regular"),
        ("Handgun", "Gunslinger"),
    ]
    assert red_jack["special_skill"]["name"] == "Fast draw"
    assert red_jack["equipment"] == ["Colt '41", "2\u00d7 Handgun reload", "Horse"]
    assert posters[4]["tiers"][0]["value"] == "5 actions"  # Clay: Built like an outhouse!
    assert posters[2]["special_skill"] is None
    assert "entered by hand" in posters[3]["special_skill"]["how"]  # Luke's Fast


# --------------------------------------------------------------------------- quick reference


def reference_of(roster: dict[str, Any]) -> dict[str, dict[str, str]]:
    sections = SYSTEM.quick_reference(roster, SYSTEM.evaluate(roster))
    return {s.title: {e.term: e.text for e in s.entries} for s in sections}


def test_quick_reference_holds_what_the_gang_uses_and_not_what_it_does_not():
    ref = reference_of(RED_JACKS_GANG)
    assert set(ref["Special skills"]) == {"Fast draw", "Ambidextrous", "Fast"}
    assert "2 squares" in ref["Special skills"]["Fast"]
    assert set(ref["Weapons"]) == {
        "Colt '41",
        "Smith & Wesson No.2",
        "Knife",
        "Winchester Carbine",
        "Remington Shotgun",
    }
    assert "$20" in ref["Weapons"]["Colt '41"]  # the price list's Colt '41
    assert set(ref["Weapon traits"]) == {"Handgun", "Knife", "Rifle", "Shotgun"}
    text = json.dumps(ref)
    for unused in ("Dodge", "Acrobatic", "Derringer", "Sharps Buffalo", "Drunk", "Tuwa"):
        assert unused not in text, unused
    assert "Optional rules" not in ref


def test_quick_reference_has_the_campaign_rules_rules_md_gives():
    ref = reference_of(RED_JACKS_GANG)
    assert "Badly wounded" in ref["Campaign"]["After the encounter"]
    assert "same notoriety" in ref["Campaign"]["Showdown"]
    notoriety = ref["Reputation and notoriety"]["Notoriety"]
    assert "6-10 Drifter (+2)" in notoriety and "31+ Most wanted (+6)" in notoriety
    assert "4 + 2 = 6" in ref["Reputation and notoriety"]["Earning reputation"]
    assert set(ref["Tracks"]) == {"Actions", "Wounds"}


def test_quick_reference_lists_each_term_once_and_optional_rules_when_used():
    roster = make_roster(
        "rivals",
        "Bob's Gang",
        30,
        [
            ("Bob", outlaw(leader=True, extra={"drunk": True})),
            ("Al", outlaw(extra={"drunk": True})),
            ("Cy", outlaw(skill={"table": "C", "roll": 1, "source": "rolled"})),
            ("Di", outlaw(skill={"table": "C", "roll": 1, "source": "entered"})),
        ],
    )
    sections = SYSTEM.quick_reference(roster, SYSTEM.evaluate(roster))
    for s in sections:
        terms = [e.term for e in s.entries]
        assert len(terms) == len(set(terms)), s.title
    ref = {s.title: {e.term: e.text for e in s.entries} for s in sections}
    assert list(ref["Optional rules"]) == ["Drunk"]
    assert list(ref["Special skills"]) == ["Dodge"]
    assert "Once per encounter" in ref["Special skills"]["Dodge"]


# --------------------------------------------------------------------------- PDFs


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def printing():
    """The layout module (a plain import: a broken module fails, never skips)."""
    return printing_module


@pytest.fixture(scope="module")
def sheet_text(printing) -> str:
    return flat(pdf_text(printing.sheet_pdf(RED_JACKS_GANG)))


def test_sheet_pdf_has_the_gang_the_posters_and_the_summary(sheet_text):
    assert "Red Jack's Gang" in sheet_text
    assert sheet_text.count("WANTED") >= 5
    assert sheet_text.upper().count("REWARD $") == 5
    for name in ("Red Jack", "Sarah", "Jesse", "Luke", "Clay"):
        assert name.upper() in sheet_text.upper()
    for words in ("Gunslinger", "Built like an outhouse!", "Fast draw", "Colt '41", "Loafer"):
        assert words in sheet_text, words
    assert "30 / 30" in sheet_text
    assert "$42" in sheet_text  # the gang's cash


def test_sheet_pdf_prints_every_finding(printing):
    roster = example("rivals-illegal-bad-choices")
    report = SYSTEM.evaluate(roster)
    text = flat(pdf_text(printing.sheet_pdf(roster)))
    assert report.findings
    for finding in report.findings:
        assert flat(finding.message)[:60] in text, finding.code


def test_cards_pdf_has_each_name_and_stat_value(printing):
    text = flat(pdf_text(printing.cards_pdf(RED_JACKS_GANG)))
    for card in cards_of(RED_JACKS_GANG):
        assert card.name in text
        values = " ".join(stat.value for stat in card.stats)
        labels = " ".join(stat.label for stat in card.stats)
        assert f"{labels} {values}".upper() in text.upper(), card.name
    assert "In a showdown, +1 to Handgun." in text


def test_reference_pdf_has_the_used_terms_only(printing):
    text = flat(pdf_text(printing.reference_pdf(RED_JACKS_GANG)))
    for term in ("Fast draw", "Ambidextrous", "Colt '41", "Winchester Carbine", "Showdown"):
        assert term in text, term
    assert "Dodge" not in text


def test_sheet_pdf_prints_user_text_as_text_and_fetches_nothing(printing):
    from pypdf import PdfReader

    evil = '<link rel=attachment href="file:///etc/passwd"><img src="http://169.254.169.254/">'
    roster = make_roster("rivals", f"Gang {evil}", 30, [(f"Bob {evil}", outlaw(leader=True))])
    data = printing.sheet_pdf(roster)
    text = flat(pdf_text(data))
    assert "<link rel=attachment" in text  # printed, not obeyed
    reader = PdfReader(io.BytesIO(data))
    assert "/EmbeddedFiles" not in str(reader.trailer["/Root"].get("/Names", {}))
    subtypes = [
        annot.get_object().get("/Subtype")
        for page in reader.pages
        for annot in (page.get("/Annots") or [])
    ]
    assert "/FileAttachment" not in subtypes


# --------------------------------------------------------------------------- campaign

# Red Jack after a few encounters (the campaign writes these keys into his data): Toughness
# raised to Built like an outhouse! and Rifle to Steady, a Table C roll of 1 (Dodge)
# bought, 8 CCP from reputation spent and 2 saved; he looted a Navy Colt, a Winchester
# Rifle and another gang's pocket watch, and lost his Colt '41.
CAMPAIGN = {
    "reputation": 23,
    "cash": 15,
    "ccp": 2,
    "ccp_spent": 8,
    "equipment": [
        "Navy Colt",
        "Winchester Rifle",
        "Handgun reload",
        "Handgun reload",
        "Horse",
        "Gold pocket watch",
    ],
    "extra_skills": [{"table": "C", "roll": 1, "source": "rolled"}],
}
FAST_DRAW = {"table": "A", "roll": 6, "source": "rolled"}


def campaign_roster(**changes: Any) -> dict[str, Any]:
    jack = outlaw(
        leader=True,
        skill=FAST_DRAW,
        toughness=2,
        handgun=3,
        rifle=2,
        brawl=1,
        riding=1,
        extra={**CAMPAIGN, **changes},
    )
    return make_roster(
        "rivals", "Red Jack's Gang", 30, [("Red Jack", jack), ("Sam", outlaw(pack="C"))]
    )


def test_a_campaign_card_shows_the_saved_ccp_and_the_creation_cost():
    jack, sam = cards_of(campaign_roster())
    facts = {s.label: s.value for s in jack.facts}
    # 16 CCP in all (tiers 4+4+2+0+1+1, Table A 1, Table C 3), 8 of them from reputation.
    assert facts == {
        "CCP": "8",
        "Saved CCP": "2",
        "Reputation": "23",
        "Notoriety": "+5",
        "Cash": "$15",
    }
    assert "Saved CCP 2" in jack.text()
    vital = section(jack, "Vital info")["Outlaw"]
    assert "8 CCP at creation" in vital and "CCP spent in the campaign: 8" in vital
    assert "Saved CCP" not in {s.label for s in sam.facts}  # no campaign keys: as before


def test_a_campaign_card_lists_the_equipment_owned_not_the_pack():
    jack = cards_of(campaign_roster())[0]
    assert [(w.name, w.traits, w.note) for w in jack.weapons] == [
        ("Navy Colt", ("Handgun",), "Handgun +3"),
        ("Winchester Rifle", ("Rifle",), "Rifle +4"),
    ]
    equipment = section(jack, "Equipment")
    assert list(equipment) == [
        "2\u00d7 Handgun reload",
        "Horse",
        "Gold pocket watch",
        "Cash $15",
    ]
    assert equipment["Gold pocket watch"] == ""  # looted, unknown here: printed as it is
    assert "horse-rail" in equipment["Horse"]
    assert "Colt '41" not in jack.text()
    assert set(section(jack, "Weapon traits")) == {"Handgun", "Rifle"}


def test_repeated_weapons_are_grouped_with_their_count():
    jack = cards_of(campaign_roster(equipment=["Colt '41", "Colt '41", "Double holster"]))[0]
    assert [w.name for w in jack.weapons] == ["2\u00d7 Colt '41"]
    assert "Needed if two handguns" in section(jack, "Equipment")["Double holster"]


def test_an_extra_skill_prints_with_its_effect_like_the_first():
    jack = cards_of(campaign_roster())[0]
    skills = section(jack, "Special skills")
    assert list(skills) == ["Fast draw", "Dodge"]
    # Seed 003, Table C roll 1: "Dodge ... discard their chosen wound counter".
    assert "discard their chosen wound counter" in skills["Dodge"]
    assert "+1 to Handgun" in skills["Fast draw"]


def test_an_extra_skill_with_a_bad_roll_is_said_on_the_card():
    roster = campaign_roster(extra_skills=[{"table": "B", "roll": 9, "source": "entered"}])
    jack = cards_of(roster)[0]
    vital = section(jack, "Vital info")
    assert "not a 1D6 result" in vital["Extra special skill 1"]
    assert any("extra special skill 1" in note for note in jack.play_notes)


def test_the_wanted_poster_has_the_campaign_figures():
    roster = campaign_roster()
    sheet = SYSTEM.print_sheet(roster, SYSTEM.evaluate(roster))
    poster = sheet["posters"][0]
    assert (poster["ccp"], poster["full_ccp"]) == (8, 16)
    assert (poster["saved_ccp"], poster["ccp_spent"]) == (2, 8)
    assert poster["equipment"] == [
        "Navy Colt",
        "Winchester Rifle",
        "2\u00d7 Handgun reload",
        "Horse",
        "Gold pocket watch",
    ]
    assert poster["pack"] == ""  # the pack no longer says what he owns
    assert poster["cash"] == 15 and poster["reward"] == "$15"
    blocks = {s["name"]: s["text"] for s in poster["statuses"]}
    assert "discard their chosen wound counter" in blocks["Dodge"]
    assert "CCP spent in the campaign: 8" in blocks["Saved CCP 2"]
    assert [s["name"] for s in poster["extra_skills"]] == ["Dodge"]
    assert sheet["summary"]["ccp_spent"] == 8 + 0  # the creation CCP, as the 30 counts them
    assert sheet["summary"]["special_skills"] == 2


def test_the_quick_reference_has_the_extra_skill_and_the_weapons_owned():
    ref = reference_of(campaign_roster())
    assert set(ref["Special skills"]) == {"Fast draw", "Dodge"}
    assert set(ref["Weapons"]) == {"Navy Colt", "Winchester Rifle", "Winchester Carbine"}
    assert "$30" in ref["Weapons"]["Navy Colt"]
    assert "Colt '41" not in json.dumps(ref["Weapons"])


def test_sheet_and_cards_pdfs_print_the_campaign_outlaw(printing):
    roster = campaign_roster()
    sheet = flat(pdf_text(printing.sheet_pdf(roster)))
    for words in (
        "SAVED CCP 2",
        "CCP spent in the campaign: 8",
        "Navy Colt",
        "2\u00d7 Handgun reload",
        "Gold pocket watch",
        "DODGE",
        "discard their chosen wound counter",
    ):
        assert words.upper() in sheet.upper(), words
    cards = flat(pdf_text(printing.cards_pdf(roster)))
    for words in ("Saved CCP 2", "Navy Colt", "Dodge", "discard their chosen wound counter"):
        assert words in cards, words
