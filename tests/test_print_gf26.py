"""Printing a Gangfight Core Rules 2.6 (``gf26``) party: cards, the party roster, the quick
reference.

Expected texts come from RULES.md (section ``gf26``) and seed 001, not from the engine, so
that a wrong constant or a shortened text fails a test. The party is
``docs/examples/gf26-legal-iron-company.json``: Aldric (Party Leader, Hero), Gwen (Hero),
Bren and Cole (Veterans, unit Shield Wall) and three Bowmen (Regulars, unit Bowmen).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from builder import printing as printing_module
from rules import get_system
from rules.printing import MARKS, Card
from rules.roster import make_roster
from tests.helpers.pdf import pdf_words

SYSTEM = get_system("gf26")
ROOT = Path(__file__).resolve().parents[1]
IRON_COMPANY = json.loads((ROOT / "docs/examples/gf26-legal-iron-company.json").read_text())
LABELS = ["MOV", "ATT", "MRK", "DEF", "IV", "WP", "ARM", "EN", "DAM"]


def profile(troop_type: str = "veteran", **changes: Any) -> dict[str, Any]:
    """The seed's Human Veteran (ARM 4, EN 4, from the Wounds example), as a profile."""
    base = {
        "name": "Human Veteran",
        "troop_type": troop_type,
        "size": "medium",
        "mov": 4,
        "att": 3,
        "mrk": 3,
        "def": 4,
        "iv": 3,
        "wp": 3,
        "arm": 4,
        "en": 4,
        "dam": 4,
        "points": 60,
        "equipment": [{"name": "Sword", "points": 5, "notes": "hand weapon"}],
    }
    return {**base, **changes}


def model(troop_type: str, perks: list[str], **data: Any) -> dict[str, Any]:
    return {"profile": profile(troop_type, **data.pop("profile", {})), "perks": perks, **data}


def party(*members: tuple[str, dict[str, Any]], limit: int | None = 1000) -> dict[str, Any]:
    return make_roster("gf26", "The Test Party", limit, members)


def captain(perks: list[str] | None = None, **data: Any) -> tuple[str, dict[str, Any]]:
    """The Party Leader: a Hero with three perks that leave his profile as printed."""
    perks = ["healer", "dash", "athletics"] if perks is None else perks
    return ("Aldric", model("hero", perks, leader=True, **data))


def cards_of(roster: dict[str, Any]) -> list[Card]:
    return SYSTEM.print_cards(roster, SYSTEM.evaluate(roster))


def card_named(roster: dict[str, Any], name: str) -> Card:
    return next(c for c in cards_of(roster) if c.name == name)


def entries(card: Card, title: str) -> dict[str, str]:
    section = next((s for s in card.sections if s.title == title), None)
    return {e.term: e.text for e in section.entries} if section else {}


def reference(roster: dict[str, Any]) -> dict[str, dict[str, str]]:
    sections = SYSTEM.quick_reference(roster, SYSTEM.evaluate(roster))
    return {s.title: {e.term: e.text for e in s.entries} for s in sections}


# --------------------------------------------------------------------------- cards


def test_one_card_per_model_in_roster_order_keyed_by_member():
    cards = cards_of(IRON_COMPANY)
    assert [c.name for c in cards] == ["Aldric", "Gwen", "Bren", "Cole", "Dara", "Edda", "Finn"]
    assert [c.key for c in cards] == ["1", "2", "3", "4", "5", "6", "7"]
    assert all(c.mark in MARKS and c.count == 1 for c in cards)


def test_the_front_has_the_nine_attributes_after_the_stat_perks():
    aldric = card_named(IRON_COMPANY, "Aldric")  # Human Captain + NBK, Stubborn, Reflexes
    assert [s.label for s in aldric.stats] == LABELS
    stats = {s.label: s.value for s in aldric.stats}
    assert stats == {
        "MOV": "4",
        "ATT": "5",
        "MRK": "3",
        "DEF": "4",
        "IV": "4",
        "WP": "5",
        "ARM": "4",
        "EN": "5",
        "DAM": "4",
    }
    assert aldric.kind == "Party Leader · Hero · Human Captain · Medium"
    assert aldric.mark == "star"
    assert {f.label: f.value for f in aldric.facts}["Points"] == "120"  # 110 + sword + shield


def test_the_track_is_one_en_box_per_endurance_point_after_true_grit():
    bren, cole = card_named(IRON_COMPANY, "Bren"), card_named(IRON_COMPANY, "Cole")
    assert [(t.label, t.boxes) for t in bren.tracks] == [("EN", 5)]  # EN 4 + True Grit
    assert [(t.label, t.boxes) for t in cole.tracks] == [("EN", 4)]


def test_the_books_wounds_example_a_human_veteran_has_four_en_boxes():
    # Seed 001, Wounds: the Human Veteran (EN 4) takes 2 wounds and "can sustain another 2".
    veteran = cards_of(party(captain(), ("Vet", model("veteran", ["dash", "athletics"]))))[1]
    assert veteran.tracks[0].boxes == 4


def test_the_back_lists_the_kit_with_its_notes_and_points():
    aldric = card_named(IRON_COMPANY, "Aldric")
    assert [(w.name, w.note) for w in aldric.weapons] == [
        ("Sword", "hand weapon (5 pts)"),
        ("Shield", "can't be carried with two weapons (5 pts)"),
    ]
    # gf26 kit has no range, Str or level: those columns print as a dash.
    assert all(w.range == w.strength == w.level == "" for w in aldric.weapons)
    dara = card_named(IRON_COMPANY, "Dara")
    assert dara.weapons[0].name == "Bow" and dara.weapons[0].traits == ("Reload/Fire!",)


def test_perks_print_with_their_full_text():
    gwen = entries(card_named(IRON_COMPANY, "Gwen"), "Perks")
    assert list(gwen) == ["Fearless", "Sidestep", "Healer"]
    assert "immune to the effects of Fear" in gwen["Fearless"]
    # Healer's whole rule (seed 001): base contact, WP roll TN 6, 1 EN per success, capped.
    healer = gwen["Healer"]
    for words in ("base contact", "WP roll (TN 6)", "restores 1 Endurance", "half"):
        assert words in healer
    cole = entries(card_named(IRON_COMPANY, "Cole"), "Perks")
    assert "using its IV instead of its ATT" in cole["Counter Strike"]
    assert "+1 DEF" in cole["Counter Strike"]
    assert "Power Attack or a Finesse Attack" in cole["Counter Strike"]


def test_weapon_traits_say_what_the_kit_means():
    dara = entries(card_named(IRON_COMPANY, "Dara"), "Weapon traits")
    assert "Action Point to load" in dara["Reload/Fire!"]
    assert "may not fire while in close combat" in dara["Reload/Fire!"]
    # One sword: the two-weapon rule (seed 001, Attacking with Two Weapons) does not apply.
    assert entries(card_named(IRON_COMPANY, "Bren"), "Weapon traits") == {}
    two_swords = [
        {"name": "Sword", "points": 5, "notes": "hand weapon"},
        {"name": "Axe", "points": 5, "notes": "hand weapon"},
    ]
    roster = party(captain(profile={"equipment": two_swords}))
    card = cards_of(roster)[0]
    text = entries(card, "Weapon traits")["Two hand weapons"]
    assert "+1 ATT" in text and "can't carry a shield" in text
    assert [w.traits for w in card.weapons] == [("Two hand weapons",), ("Two hand weapons",)]
    assert "Two hand weapons" in reference(roster)["Weapon traits"]


def test_vital_info_names_the_leader_the_troop_type_and_the_unit():
    aldric = entries(card_named(IRON_COMPANY, "Aldric"), "Vital info")
    leader = aldric["Party Leader of The Iron Company"]
    assert 'within 12"' in leader and "WP (5)" in leader  # Stubborn: WP 4 + 1
    assert "IV (4 dice, TN 4)" in leader  # IV 3 + Lightning Reflexes
    assert "Heroes, Veterans and Regulars" in aldric["Hero"]
    assert "Medium" not in aldric  # a Medium model's size changes nothing in play

    cole = entries(card_named(IRON_COMPANY, "Cole"), "Vital info")
    assert "Led by Bren" in cole["Unit Shield Wall"]
    assert "3 Action Points a turn" in cole["Unit Shield Wall"]
    assert "generates none of its own" in cole["Unit Shield Wall"]
    assert "Veterans and Regulars" in cole["Veteran"] and "Heroes" not in cole["Veteran"]


def test_a_large_model_has_its_wounds_per_hit_in_vital_info():
    ogre = model("veteran", ["dash", "athletics"], profile={"name": "Ogre", "size": "large"})
    vital = entries(cards_of(party(captain(), ("Ogre", ogre)))[1], "Vital info")
    assert '40-60 mm base, threat range 2", 2 wounds per hit in melee' in vital["Large"]
    assert "Slam!" in vital["Large"]


def test_the_books_unit_example_three_models_of_iv_3_have_3_action_points():
    roster = party(
        captain(),
        *((n, model("veteran", ["dash", "athletics"], unit="Alpha")) for n in ("A", "B", "C")),
    )
    text = entries(cards_of(roster)[1], "Vital info")["Unit Alpha"]
    assert "3 Action Points a turn" in text


def test_large_and_in_charge_prints_the_larger_size_and_fear():
    troll = model(
        "veteran",
        ["large_and_in_charge", "fearless"],
        profile={"name": "Troll", "size": "large", "en": 7},
    )
    card = cards_of(party(captain(), ("Grok", troll)))[1]
    vital = entries(card, "Vital info")
    assert "4 wounds per hit in melee" in vital["Huge"]
    assert "Large model made larger by Large and In Charge" in vital["Huge"]
    assert "Bravery test" in vital["Causes Fear (TN 4)"]
    assert {f.label: f.value for f in card.facts}["Fear"] == "TN 4"
    assert card.mark == "claw"


def test_hard_target_is_a_play_note_not_a_higher_def():
    cole = card_named(IRON_COMPANY, "Cole")
    assert {s.label: s.value for s in cole.stats}["DEF"] == "4"
    assert "Hard Target: DEF 5 against ranged attacks (DEF 4 otherwise)." in cole.play_notes


def test_a_rule_broken_at_the_table_is_a_play_note_on_that_card():
    # Two models flagged to lead one unit: the second is told, on its own card.
    roster = party(
        captain(unit="Alpha", unit_leader=True),
        ("Sarge", model("veteran", ["dash", "athletics"], unit="Alpha", unit_leader=True)),
    )
    sarge, aldric = card_named(roster, "Sarge"), card_named(roster, "Aldric")
    assert any(
        n.startswith("Not legal: ") and "already has a leader" in n for n in sarge.play_notes
    )
    assert not any("already has a leader" in n for n in aldric.play_notes)
    # A unit of one acts as an individual model: a warning, printed without "Not legal".
    alone = card_named(party(captain(unit="Solo")), "Aldric")
    assert any(n.startswith("Unit Solo has only this model") for n in alone.play_notes)


def test_a_legal_card_has_no_play_notes_beyond_its_perks():
    assert card_named(IRON_COMPANY, "Aldric").play_notes == []


@pytest.mark.parametrize(
    "raw",
    [
        {},
        {"name": 5, "data": "not a member"},
        {"name": "Odd", "data": {"profile": {"en": "lots", "troop_type": 3}, "perks": [None]}},
        {"name": "Mystery", "data": {"profile": "x", "perks": "fast", "equipment": [7]}},
        {"name": "Laser", "data": {"profile": profile("champion"), "perks": ["laser_eyes"]}},
    ],
)
def test_partial_or_garbage_members_still_get_a_card(raw):
    roster = {"system": "gf26", "name": "Junk", "members": [raw]}
    report = SYSTEM.evaluate(roster)
    (card,) = SYSTEM.print_cards(roster, report)
    assert card.mark in MARKS and [s.label for s in card.stats] == LABELS
    assert card.kind and "?" not in card.kind
    assert card.tracks[0].label == "EN" and card.tracks[0].boxes >= 0
    assert card.play_notes  # what is wrong with it
    assert SYSTEM.print_sheet(roster, report)["rows"][0]["name"]
    assert SYSTEM.quick_reference(roster, report)


def test_a_huge_endurance_is_capped_on_the_card_and_said_so():
    roster = party(captain(profile={"en": 500}))
    (track,) = cards_of(roster)[0].tracks
    assert track.boxes == 30 and "EN 500" in track.note


def test_no_roster_at_all_gives_no_cards():
    for roster in ({}, None, {"members": "nope"}):
        report = SYSTEM.evaluate(roster)
        assert SYSTEM.print_cards(roster, report) == []
        assert SYSTEM.print_sheet(roster, report)["rows"] == []


def test_an_unknown_perk_is_listed_on_the_roster_as_written():
    roster = party(captain(perks=["healer", "dash", "Laser Eyes"]))
    row = SYSTEM.print_sheet(roster, SYSTEM.evaluate(roster))["rows"][0]
    assert row["perks"] == ["Healer", "Dash", "Laser Eyes"] and row["errors"] == 1


# --------------------------------------------------------------------------- sheet


def test_print_sheet_figures_of_the_iron_company():
    sheet = SYSTEM.print_sheet(IRON_COMPANY, SYSTEM.evaluate(IRON_COMPANY))
    assert (sheet["points"], sheet["limit"], sheet["left"], sheet["over"]) == (500, 500, 0, False)
    assert sheet["leader"] == "Aldric" and sheet["legal"] is True
    assert sheet["setting"] == "Chronicle (Fantasy Battles)"
    counts = {t["label"]: t["count"] for t in sheet["troops"]}
    assert counts == {"Regulars": 3, "Veterans": 2, "Heroes": 2}
    # AP: Aldric 4 + Gwen 3 + Shield Wall 3 (lowest IV) + Bowmen 2 (lowest IV).
    assert sheet["action_points"] == 12
    assert [(u["name"], u["leader"], u["members"], u["action_points"]) for u in sheet["units"]] == [
        ("Shield Wall", "Bren", ["Bren", "Cole"], 3),
        ("Bowmen", "Dara", ["Dara", "Edda", "Finn"], 2),
    ]
    assert sheet["stat_labels"] == LABELS
    aldric = sheet["rows"][0]
    assert aldric["leader"] and aldric["points"] == 120
    assert aldric["equipment"] == ["Sword (5)", "Shield (5)"]
    raised = [s["label"] for s in aldric["stats"] if s["raised"]]
    assert raised == ["ATT", "IV", "WP"]
    assert [p.term for p in sheet["perks"]][:3] == [
        "Natural Born Killer",
        "Stubborn",
        "Lightning Reflexes",
    ]


def test_print_sheet_says_how_far_over_the_limit():
    roster = copy.deepcopy(IRON_COMPANY)
    roster["limit"] = 450
    sheet = SYSTEM.print_sheet(roster, SYSTEM.evaluate(roster))
    assert (sheet["left"], sheet["over"], sheet["over_by"]) == (-50, True, 50)
    assert sheet["legal"] is False


# --------------------------------------------------------------------------- quick reference


def test_quick_reference_holds_what_the_party_uses():
    ref = reference(IRON_COMPANY)
    assert list(ref) == [
        "Playing the party",
        "Profile",
        "Sizes",
        "Perks",
        "Weapon traits",
        "Equipment",
    ]
    play = ref["Playing the party"]
    assert "lowest IV" in play["Action Points (AP)"] and "Bravery test" in play["Units"]
    assert 'within 12"' in play["Party Leader"] and "Hero leads" in play["Banding"]
    assert list(ref["Sizes"]) == ["Medium"]
    used = ["Natural Born Killer", "Stubborn", "Lightning Reflexes", "Fearless", "Sidestep"]
    assert list(ref["Perks"])[:5] == used and len(ref["Perks"]) == 13
    assert "WP roll (TN 6)" in ref["Perks"]["Healer"]
    assert set(ref["Weapon traits"]) == {"Reload/Fire!"}  # nobody carries two hand weapons
    assert ref["Equipment"] == {
        "Sword": "hand weapon (5 pts)",
        "Shield": "can't be carried with two weapons (5 pts)",
        "Bow": "archaic: Reload/Fire! (10 pts)",
    }


def test_quick_reference_leaves_out_what_the_party_does_not_use():
    ref = reference(IRON_COMPANY)
    words = json.dumps(ref)
    for unused in ("Vengeance", "Executioner", "Large and In Charge", "Artful Dodger"):
        assert unused not in ref["Perks"]
    assert "Fear" not in ref["Playing the party"]  # nobody causes Fear
    assert "Huge" not in ref["Sizes"] and "Large" not in ref["Sizes"]
    assert "No reload" not in words


def test_quick_reference_adds_fear_sizes_and_modern_guns_when_used():
    troll = model("veteran", ["large_and_in_charge", "fearless"], profile={"size": "large"})
    trooper = model(
        "regular",
        ["marksman"],
        profile={"equipment": [{"name": "Pulse rifle", "points": 15, "notes": "no reload needed"}]},
    )
    ref = reference(party(captain(), ("Grok", troll), ("Zed", trooper)))
    assert "Bravery test" in ref["Playing the party"]["Fear"]
    assert list(ref["Sizes"]) == ["Medium", "Huge"]
    assert "don't need to be loaded" in ref["Weapon traits"]["No reload"]
    assert "Units" not in ref["Playing the party"]  # no units in this party


def test_quick_reference_gives_each_term_once():
    sections = SYSTEM.quick_reference(IRON_COMPANY, SYSTEM.evaluate(IRON_COMPANY))
    for section in sections:
        terms = [e.term.casefold() for e in section.entries]
        assert len(terms) == len(set(terms)), section.title


# --------------------------------------------------------------------------- PDFs


def without_labels(text: str) -> str:
    """The text with the stat labels taken out, so a stat line reads "4 5 3 4 4 5 4 5 4"."""
    return " ".join(re.sub(r"\b(MOV|ATT|MRK|DEF|IV|WP|ARM|EN|DAM)\b", " ", text).split())


# Each model's nine values after perks, MOV to DAM.
IRON_STATS = {
    "Aldric": "4 5 3 4 4 5 4 5 4",
    "Gwen": "4 4 3 4 3 4 4 5 4",
    "Bren": "5 3 3 4 3 3 4 5 4",
    "Cole": "4 3 3 4 3 3 4 4 4",
    "Dara": "4 2 4 3 2 3 3 3 3",
    "Edda": "4 2 3 3 2 3 3 3 3",
}


@pytest.fixture(scope="module")
def printing():
    return printing_module


@pytest.fixture(scope="module")
def iron_sheet(printing) -> str:
    return pdf_words(printing.sheet_pdf(IRON_COMPANY))


def test_the_party_roster_pdf_has_the_party_its_models_and_their_stats(iron_sheet):
    assert "The Iron Company" in iron_sheet and "PARTY ROSTER" in iron_sheet
    assert "POINTS 500 / 500" in iron_sheet and "0 left · Legal" in iron_sheet
    assert "Chronicle (Fantasy Battles)" in iron_sheet
    for name, stats in IRON_STATS.items():
        assert name in iron_sheet
        assert stats in without_labels(iron_sheet), name
    assert "MOV ATT MRK DEF IV WP ARM EN DAM" in iron_sheet


def test_the_party_roster_pdf_has_perks_points_leader_and_units(iron_sheet):
    assert "Aldric PARTY LEADER" in iron_sheet
    assert "Natural Born Killer, Stubborn, Lightning Reflexes" in iron_sheet
    assert "Sword (5), Shield (5)" in iron_sheet
    assert "120pts" in iron_sheet.replace(" ", "")
    assert "ACTION POINTS PER TURN" in iron_sheet
    assert "Shield Wall Bren Bren, Cole (2) 3" in iron_sheet
    assert "Bowmen Dara Dara, Edda, Finn (3) 2" in iron_sheet
    assert "Perks in this party" in iron_sheet
    assert "each success restores 1 Endurance" in iron_sheet  # Healer, in full
    assert "No findings" in iron_sheet


def test_the_party_roster_pdf_prints_every_finding_and_escapes_names(printing):
    roster = party(
        ("<b>Boss</b> & co", model("hero", ["healer", "healer", "dash"], leader=True)),
        ("Lonely", model("veteran", ["dash"], unit="Solo")),
        ("Troll", model("regular", ["fast"], profile={"points": 900})),
        limit=500,
    )
    report = SYSTEM.evaluate(roster)
    text = pdf_words(printing.sheet_pdf(roster))
    assert "<b>Boss</b> & co" in text
    assert "POINTS 1035 / 500" in text and "535 over the limit" in text
    assert f"what the rules say ({len(report.findings)})" in text.lower()
    for finding in report.findings:
        assert " ".join(finding.message.split()) in text, finding.code
    assert "1 error, 1 warning: see the findings below" in text  # Lonely


def test_the_cards_pdf_has_each_model_its_stats_and_its_perks_in_full(printing):
    text = pdf_words(printing.cards_pdf(IRON_COMPANY))
    plain = without_labels(text)
    for name, stats in IRON_STATS.items():
        assert name in text
        assert f"{name} " in plain and stats in plain, name
    assert "Party Leader of The Iron Company" in text
    assert "Archaic ranged weapons must be loaded" in text  # Reload/Fire!, on the Bowmen
    assert "Hard Target: DEF 5 against ranged attacks (DEF 4 otherwise)." in text
    for perk in ("Healer", "Counter Strike", "Target Shooter"):
        for sentence in PERK_SENTENCES[perk]:
            assert sentence in text, perk


PERK_SENTENCES = {
    "Healer": ["WP roll (TN 6)", "up to half of that model's starting EN"],
    "Counter Strike": ["using its IV instead of its ATT", "The target of this attack gains +1 DEF"],
    "Target Shooter": ["adds +1 die to its next ranged attack", "This effect is cumulative"],
}


def test_the_quick_reference_pdf_has_the_terms_the_party_uses(printing):
    text = pdf_words(printing.reference_pdf(IRON_COMPANY, paper="letter"))
    for term in ("Tests", "Action Points (AP)", "Units", "Banding", "Party Leader", "Medium"):
        assert term in text
    for term in ("Healer", "Counter Strike", "Power Shot", "Reload/Fire!", "Bow", "Shield"):
        assert term in text
    for unused in ("Vengeance", "Executioner", "Large and In Charge", "Huge", "Fear (TN"):
        assert unused not in text


def test_garbage_members_still_print(printing):
    roster = {
        "system": "gf26",
        "name": "Junk",
        "limit": None,
        "members": [{}, {"name": "Odd", "data": {"profile": {"en": "lots"}, "perks": [None]}}],
    }
    sheet = pdf_words(printing.sheet_pdf(roster))
    assert "(no name)" in sheet and "Odd" in sheet and "(no limit)" in sheet
    cards = pdf_words(printing.cards_pdf(roster))
    assert "(no name)" in cards and "Odd" in cards
