"""Printing Blackwater Gulch 2nd edition (``bwg2``): Character Cards, the gang sheet, the
quick reference.

What a card must show comes from RULES.md ("The Character Card"): faction icon top right,
the attributes, a life meter of one box per HP; on the back the equipment with range and
Str, Vital info, the faction rule, skills with their rules text and what each trait means.
Expected texts and numbers are written out here, from RULES.md and the book's own example
card (Captain Nathan Reinholdt), so that a wrong lookup in the engine fails.
"""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from builder import printing as printing_module
from rules import get_system
from rules.printing import Card
from rules.roster import make_roster
from rules.systems import bwg2
from tests.helpers.pdf import pdf_text

SYSTEM = get_system("bwg2")
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
LEGAL = "bwg2-legal-tranquility-crew-700.json"
ILLEGAL = "bwg2-illegal-three-heroes-at-700.json"

# The book's example card (RULES.md, "The Character Card"; seed 000, p. 17).
REINHOLDT_SKILLS = {
    "Duck & Cover": "Receive an additional +1 Defense (+2 total) when hiding.",
    "Gunslinger": "Lower base to hit Target Number by one when using pistols.",
    "Let's Misbehave": 'Captain Reinholdt and any friendly model within 6" may steal one Loot '
    "Card or consumable item from an enemy that fails a Defense roll in melee combat, instead "
    "of injuring them.",
    "Tosser": "Captain Reinholdt carries unlimited Throwing Knives.",
}
DIRTY_FIGHTERS = "All Outlaw characters receive a +1D6 to hit when attacking enemies from behind."
STAT_LABELS = ["HP", "DP", "XP", "Str", "Spd", "Sta", "Int", "RC", "MC"]


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / name).read_text("utf-8"))


def reinholdt() -> dict[str, Any]:
    """The book's card as shipped (its attribute numbers are samples: the book gives none)."""
    return copy.deepcopy(bwg2.CONTENT["cards"][0])


def card(name: str = "Sample", **changes: Any) -> dict[str, Any]:
    base = {
        "name": name,
        "faction": "outlaws",
        "level": "henchman",
        "size": "standard",
        "hp": 2,
        "dp": 2,
        "xp": 60,
        "str": 2,
        "spd": 5,
        "sta": 3,
        "int": 2,
        "rc": 3,
        "mc": 2,
        "equipment": [],
        "vital_info": "Mortal Henchman",
        "faction_rule": {"name": "Dirty Fighters", "text": DIRTY_FIGHTERS},
        "skills": [],
    }
    return {**base, **changes}


def roster(*members: tuple[str, dict[str, Any]], name: str = "The Tranquility Crew", limit=700):
    return make_roster("bwg2", name, limit, members)


def cards_of(r: dict[str, Any]) -> list[Card]:
    return SYSTEM.print_cards(r, SYSTEM.evaluate(r))


def section(c: Card, title: str) -> dict[str, str]:
    (found,) = [s for s in c.sections if s.title == title]
    return {e.term: e.text for e in found.entries}


# --------------------------------------------------------------------------- the book's card


def test_the_books_example_card_front_and_back():
    r = roster(("Captain Nathan Reinholdt", {"card": reinholdt(), "leader": True}))
    (c,) = cards_of(r)

    assert c.key == "1"
    assert c.name == "Captain Nathan Reinholdt"
    assert c.mark == "skull"  # the Outlaws' icon
    assert c.kind == "Leader · Outlaws · Hero"
    assert [s.label for s in c.stats] == STAT_LABELS
    assert [(t.label, t.boxes) for t in c.tracks] == [("Health", 4)]  # one box per HP

    hand_cannon, knife = c.weapons
    assert (hand_cannon.name, hand_cannon.range, hand_cannon.strength) == ("Hand Cannon", "10", "4")
    assert hand_cannon.traits == ("Pistol", "1-Handed")
    assert (knife.name, knife.strength, knife.traits) == (
        "Throwing Knife",
        "4",
        ("Thrown", "Concealed"),
    )

    titles = [s.title for s in c.sections]
    assert titles[:4] == ["Vital info", "Faction: Outlaws", "Skills", "Weapon traits"]
    assert "Mortal Hero, Leader of the Tranquility Crew" in section(c, "Vital info")
    assert section(c, "Faction: Outlaws") == {"Dirty Fighters": DIRTY_FIGHTERS}
    assert section(c, "Skills") == REINHOLDT_SKILLS  # full text, never shortened

    traits = section(c, "Weapon traits")
    assert list(traits) == ["Pistol", "1-Handed", "Thrown", "Concealed"]
    assert "+1D6 to hit" in traits["1-Handed"]  # two 1-handed weapons of the same type
    assert "once per game" in traits["Thrown"].lower()
    assert "range M" in traits["Thrown"]  # range "M" = Str
    assert c.play_notes == []


def test_front_facts_are_fame_and_victory_points():
    r = roster(("Captain Nathan Reinholdt", {"card": reinholdt(), "leader": True}))
    (c,) = cards_of(r)
    assert {s.label: s.value for s in c.facts} == {
        "Fame": "150",
        "VP": "5",  # Gang Leader 5
        "Sample card": "some numbers are not from the book",  # the book prints no numbers
    }


# --------------------------------------------------------------------------- a legal gang


def test_every_member_of_the_example_gang_gets_a_card_in_roster_order():
    r = example(LEGAL)
    cards = cards_of(r)
    assert [c.key for c in cards] == [m["key"] for m in r["members"]]
    assert [c.name for c in cards] == [m["name"] for m in r["members"]]
    assert all(c.count == 1 for c in cards)  # each bwg2 member is one figure


def test_stat_line_includes_size_bonuses_and_the_life_meter_has_one_box_per_hp():
    r = example(LEGAL)
    tully = cards_of(r)[2]  # Big Ma Tully: Large, HP 3 on the card
    stats = {s.label: s.value for s in tully.stats}
    assert stats == {
        "HP": "4",  # +1 for Large
        "DP": "2",
        "XP": "80",  # +10 for Large
        "Str": "3",
        "Spd": "4",
        "Sta": "3",
        "Int": "2",
        "RC": "2",
        "MC": "4",
    }
    assert tully.tracks[0].boxes == 4
    assert tully.kind == "Outlaws · Henchman · Large"
    assert "Large (40 mm base)" in section(tully, "Vital info")


def test_weapons_carry_range_str_and_level_and_extras_say_their_cost():
    r = example(LEGAL)
    dutch = cards_of(r)[3]
    rifle, knife = dutch.weapons
    assert (rifle.name, rifle.range, rifle.strength, rifle.level) == ("Long Rifle", "16", "4", "4")
    assert rifle.traits == ("Rifle", "2-Handed", "Sniper")
    assert (knife.name, knife.range, knife.level) == ("Throwing Knife", "M", "1")
    assert knife.note == "added before the game, 5 Fame"
    sniper = section(dutch, "Weapon traits")["Sniper"]
    assert "re-roll 1 missed D6" in sniper


def test_minion_team_and_artillery_cards():
    cards = cards_of(example(LEGAL))
    abe, gatling = cards[4], cards[7]
    assert abe.kind == "Outlaws · Minion · Team Gunhands"
    vital = section(abe, "Vital info")
    assert vital["Minion team Gunhands"] == "3 minions of this type."
    assert "Card: Tranquility Gunhand" in vital  # the member's name differs from the card's
    assert gatling.kind == "Outlaws · Artillery"
    assert {s.label: s.value for s in gatling.facts}["VP"] == "0"
    assert set(section(gatling, "Weapon traits")) == {"Artillery", "Automatic", "AOE"}


def test_a_leader_whose_card_does_not_say_so_gets_it_in_vital_info():
    r = roster(("Ma", {"card": card("Ma", level="hero"), "leader": True}), name="Ma's Boys")
    (c,) = cards_of(r)
    assert list(section(c, "Vital info")) == ["Mortal Henchman", "Leader of Ma's Boys"]


def test_marks_follow_the_faction():
    r = roster(
        *[
            (f, {"card": card(f, faction=f, level="minion", one_per_gang=False)})
            for f in ("lawmen", "outlaws", "beasts", "cursed", "pirates")
        ]
    )
    assert [c.mark for c in cards_of(r)] == ["badge", "skull", "claw", "diamond", "circle"]


def test_skills_keep_their_full_text_however_long():
    long_text = "When he shoots, " + "he aims very carefully and then some more, " * 40 + "."
    r = roster(
        ("Ace", {"card": card("Ace", skills=[{"name": "Dead Eye", "text": long_text}])}),
    )
    (c,) = cards_of(r)
    assert section(c, "Skills") == {"Dead Eye": long_text}


def test_consumables_added_before_the_game_print_their_rule():
    r = example(LEGAL)
    doyle = cards_of(r)[1]
    assert "Special ammunition" in section(doyle, "Equipment rules")["Silver Bullets"]
    assert section(doyle, "Weapon traits")["Silver"] == "+1 Strength against Skinwalkers."


# --------------------------------------------------------------------------- play notes


def test_an_item_above_the_members_level_is_a_play_note_on_that_card():
    carbine = {"name": "Carbine", "range": 12, "str": 4, "level": 3, "traits": ["Rifle"]}
    r = roster(
        ("Boss", {"card": reinholdt(), "leader": True}),
        ("Kid", {"card": card("Kid", level="minion", equipment=[carbine])}),
    )
    boss, kid = cards_of(r)
    assert boss.play_notes == []
    assert kid.weapons[0].note == "above level 2: Minions can't use it"
    assert len(kid.play_notes) == 1
    assert kid.play_notes[0].startswith("Not legal: Carbine is level 3")


def test_too_many_items_for_str_is_a_play_note():
    items = [{"name": f"Knife {i}", "str": 2, "traits": ["1-Handed"]} for i in range(3)]
    r = roster(
        ("Boss", {"card": reinholdt(), "leader": True}),
        ("Bo", {"card": card("Bo", equipment=items)}),
    )
    bo = cards_of(r)[1]
    assert any("3 items that take Strength but Str 2 allows 2" in n for n in bo.play_notes)


def test_building_only_findings_stay_off_the_card():
    snake_oil = {"name": "Snake Oil", "cost": 0, "traits": ["Consumable"]}
    r = roster(
        ("Boss", {"card": reinholdt(), "leader": True}),
        ("", {"card": card(""), "extras": [snake_oil]}),
    )
    report = SYSTEM.evaluate(r)
    assert {"bwg2.card_unnamed", "bwg2.extra_cost_missing"} <= set(report.codes())
    assert SYSTEM.print_cards(r, report)[1].play_notes == []


def test_the_illegal_example_puts_each_members_findings_on_its_card():
    r = example(ILLEGAL)
    report = SYSTEM.evaluate(r)
    cards = SYSTEM.print_cards(r, report)
    hollis = next(c for c in cards if c.name == "Deputy Hollis Crane")
    assert any("Lawmen recruit" in n for n in hollis.play_notes)  # bwg2.wrong_faction
    # gang-wide findings (too many Heroes, Fame over the limit) are for the sheet, not a card
    gang_messages = {f.message for f in report.gang_findings}
    assert gang_messages
    assert not gang_messages & {n.removeprefix("Not legal: ") for c in cards for n in c.play_notes}


# --------------------------------------------------------------------------- bad data


@pytest.mark.parametrize(
    "data",
    [
        None,
        "not a member",
        {},
        {"card": None},
        {"card": {"hp": "lots", "equipment": [1, {"traits": [3]}], "skills": [None]}},
        {"card": {"hp": 10**7, "faction_rule": "x"}, "extras": [None], "team": 5},
    ],
)
def test_partial_or_garbage_member_data_still_gets_a_card(data):
    r = roster(("Odd", {}))
    r["members"][0]["data"] = data
    (c,) = SYSTEM.print_cards(r, SYSTEM.evaluate(r))
    assert c.key == "1"
    assert c.name == "Odd"
    assert [s.label for s in c.stats] == STAT_LABELS
    assert 0 <= c.tracks[0].boxes <= bwg2.MAX_LIFE_BOXES
    assert c.mark == "circle"


def test_a_huge_hp_is_cut_short_with_a_note():
    r = roster(("Titan", {"card": card("Titan", hp=500)}))
    (c,) = cards_of(r)
    assert c.tracks[0].boxes == bwg2.MAX_LIFE_BOXES
    assert c.tracks[0].note == "30 boxes shown of 500 HP"


def test_a_roster_that_is_not_a_mapping_gives_no_cards_and_no_error():
    assert SYSTEM.print_cards(None, SYSTEM.evaluate(None)) == []
    assert SYSTEM.quick_reference(None, SYSTEM.evaluate(None))  # the core rules at least
    assert SYSTEM.print_sheet(None, SYSTEM.evaluate(None))["models"] == []


# --------------------------------------------------------------------------- the gang sheet


def test_sheet_figures_of_the_example_gang():
    sheet = SYSTEM.print_sheet(example(LEGAL), SYSTEM.evaluate(example(LEGAL)))
    assert (sheet["fame"], sheet["limit"], sheet["fame_label"]) == (675, 700, "675 / 700")
    assert sheet["over_limit"] is False
    assert sheet["leader"] == "Captain Nathan Reinholdt"
    assert sheet["faction"] == "Outlaws"
    assert (sheet["heroes"], sheet["heroes_allowed"]) == (2, 2)  # 1 + floor(700 / 400)
    assert sheet["objectives"] == 3  # floor(675 / 200)
    vps = [(m["name"], m["victory_points"], m["vp_reason"]) for m in sheet["models"]]
    assert vps == [
        ("Captain Nathan Reinholdt", 5, "Gang Leader 5"),
        ("Gentleman Jim Doyle", 3, "Hero 3"),
        ("Big Ma Tully", 3, "Henchman 2 + Large 1"),
        ("Dutch Van Hoek", 2, "Henchman 2"),
        ("Gunhand Abe", 1, "Minion 1"),
        ("Gunhand Billy", 1, "Minion 1"),
        ("Gunhand Cole", 1, "Minion 1"),
        ("Rustbucket Gatling", 0, "Artillery 0"),
    ]
    assert sheet["victory_points_total"] == 16
    assert sheet["teams"] == [
        {"name": "Gunhands", "members": ["Gunhand Abe", "Gunhand Billy", "Gunhand Cole"]}
    ]
    assert [len(m["life_boxes"]) for m in sheet["models"]] == [4, 4, 4, 2, 1, 1, 1, 3]


@pytest.mark.parametrize(("limit", "heroes_allowed"), [(325, 1), (700, 2), (800, 3), (None, 2)])
def test_sheet_heroes_allowed_follow_the_limit(limit, heroes_allowed):
    r = example(LEGAL)
    r["limit"] = limit  # with no limit, the gang's own 675 Fame counts
    assert SYSTEM.print_sheet(r, SYSTEM.evaluate(r))["heroes_allowed"] == heroes_allowed


def test_sheet_marks_fame_over_the_limit():
    r = example(LEGAL)
    r["limit"] = 600
    sheet = SYSTEM.print_sheet(r, SYSTEM.evaluate(r))
    assert sheet["over_limit"] is True
    assert sheet["fame_label"] == "675 / 600"


# --------------------------------------------------------------------------- quick reference


def reference_terms(r: dict[str, Any]) -> dict[str, dict[str, str]]:
    sections = SYSTEM.quick_reference(r, SYSTEM.evaluate(r))
    return {s.title: {e.term: e.text for e in s.entries} for s in sections}


def test_quick_reference_holds_what_the_gang_uses_with_full_text():
    ref = reference_terms(example(LEGAL))
    assert ref["Faction rules"] == {"Dirty Fighters": DIRTY_FIGHTERS}
    assert ref["Skills"]["Gunslinger"] == REINHOLDT_SKILLS["Gunslinger"]
    assert ref["Skills"]["Let's Misbehave"] == REINHOLDT_SKILLS["Let's Misbehave"]
    assert ref["Weapons and equipment"]["Long Rifle"].startswith("range 16, Str 4, level 4")
    assert {"Sniper", "Shotgun", "Slow", "AOE", "Automatic", "Artillery"} <= set(
        ref["Weapon traits"]
    )
    # the Gatling's Massive base is artillery: no size bonus, so not listed
    assert set(ref["Model sizes"]) == {"Large (40 mm base)"}
    assert "Gang Leader 5" in ref["Core rules"]["Victory Points"]
    assert "this gang brings 3" in ref["Core rules"]["Objectives"]


def test_quick_reference_leaves_out_what_the_gang_does_not_use():
    ref = reference_terms(example(LEGAL))
    everything = " ".join(t for s in ref.values() for t in s)
    for unused in ("Binding", "Bow", "DOT", "Long Reach", "Holy", "Vorpal", "Armor", "Giant"):
        assert unused not in everything
    # a gang of one Hero with no teams and no Henchmen or Minions
    small = reference_terms(roster(("Boss", {"card": reinholdt(), "leader": True})))
    assert "Minion teams" not in small["Core rules"]
    assert "Item levels" not in small["Core rules"]
    assert "Model sizes" not in small


def test_quick_reference_lists_each_term_once():
    for section in SYSTEM.quick_reference(example(LEGAL), SYSTEM.evaluate(example(LEGAL))):
        terms = [e.term.casefold() for e in section.entries]
        assert len(terms) == len(set(terms)), section.title
    ref = reference_terms(example(LEGAL))
    assert list(ref["Faction rules"]) == ["Dirty Fighters"]  # on all eight cards, printed once


# --------------------------------------------------------------------------- PDFs


def _printing():
    return printing_module


def _flat(text: str) -> str:
    """Extracted text with line breaks and runs of spaces as single spaces."""
    return " ".join(text.split())


def _printed_in_full(term: str, rule: str, text: str) -> bool:
    """The entry is in the text whole, or split once onto a next card as "term (continued)"."""
    if f"{term} {rule}" in text:
        return True
    words = rule.split()
    return any(
        f"{term} {' '.join(words[:k])}" in text
        and f"{term} (continued) {' '.join(words[k:])}" in text
        for k in range(1, len(words))
    )


def test_gang_sheet_pdf_has_the_roster_fame_leader_heroes_objectives_and_vp():
    printing = _printing()
    r = example(LEGAL)
    text = _flat(pdf_text(printing.sheet_pdf(r)))
    assert "The Tranquility Crew" in text
    for m in r["members"]:
        assert m["name"] in text
    assert "675 / 700" in text
    assert "Captain Nathan Reinholdt" in text
    assert "2 of 2 allowed" in text  # Heroes allowed
    assert "this gang brings 3" in text  # objectives
    assert "16 on the table" in text  # Victory Points, summed
    for reason in ("Gang Leader 5", "Hero 3", "Henchman 2 + Large 1", "Minion 1", "Artillery 0"):
        assert reason in text
    for label in STAT_LABELS:
        assert label in text
    assert "Long Rifle (range 16, Str 4, level 4)" in text
    assert "Gunhands (Gunhand Abe, Gunhand Billy, Gunhand Cole)" in text


def test_gang_sheet_pdf_shows_every_finding():
    printing = _printing()
    r = example(ILLEGAL)
    text = _flat(pdf_text(printing.sheet_pdf(r)))
    report = SYSTEM.evaluate(r)
    assert len(report.findings) >= 7
    for f in report.findings:
        assert _flat(f.message) in text, f.code


def test_gang_sheet_pdf_in_letter_prints_too():
    printing = _printing()
    from pypdf import PdfReader

    pdf = printing.sheet_pdf(example(LEGAL), paper="letter")
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)  # 8.5 x 11 in


def test_cards_pdf_has_every_member_and_the_books_card_in_full():
    printing = _printing()
    r = example(LEGAL)
    text = _flat(pdf_text(printing.cards_pdf(r)))
    for m in r["members"]:
        assert m["name"] in text
    for skill, rule in REINHOLDT_SKILLS.items():
        assert _printed_in_full(skill, rule, text), skill
    assert DIRTY_FIGHTERS in text
    assert "Mortal Hero, Leader of the Tranquility Crew" in text
    # the stat line (the card layout may set its labels in capitals, over one or more rows)
    for label in STAT_LABELS:
        assert f" {label.upper()} " in text.upper()
    front = text[text.index("Captain Nathan Reinholdt") : text.index("Gentleman Jim Doyle")]
    values = re.findall(r"\b\d+\b", front)
    assert values[:9] == ["4", "3", "150", "3", "5", "4", "3", "4", "3"]  # HP DP XP Str ... MC


def test_single_card_pdf_holds_only_that_member():
    printing = _printing()
    r = example(LEGAL)
    text = _flat(pdf_text(printing.cards_pdf(r, member_key="3")))
    assert "Big Ma Tully" in text
    assert "Dutch Van Hoek" not in text


def test_reference_pdf_has_the_terms_the_gang_uses_and_not_others():
    printing = _printing()
    text = _flat(pdf_text(printing.reference_pdf(example(LEGAL))))
    for term in ("Dirty Fighters", "Gunslinger", "Long Rifle", "Sniper", "Victory Points"):
        assert term in text
    assert "re-roll 1 missed D6" in text
    for unused in ("Binding", "Vorpal", "Long Reach"):
        assert unused not in text


def test_gang_sheet_pdf_escapes_user_text_and_prints_accents_and_other_scripts():
    printing = _printing()
    from pypdf import PdfReader

    hostile = "<link rel=attachment href=file:///etc/passwd>"
    r = roster(
        ("Señor Ñandú", {"card": card("Señor Ñandú", level="hero"), "leader": True}),
        ("李小龍", {"card": card(hostile, level="minion")}),
        name=f"Los Ñandúes {hostile}",
    )
    pdf = printing.sheet_pdf(r)
    assert PdfReader(io.BytesIO(pdf)).attachments == {}
    text = _flat(pdf_text(pdf))
    assert "Los Ñandúes <link rel=attachment" in text  # printed as text, not markup
    assert "Señor Ñandú" in text
    assert "李小龍" in text
