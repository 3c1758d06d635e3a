"""Printing a Gunfight v2 (``gunfight``) side: cards, the figure list, the quick reference.

Expected texts and numbers come from RULES.md (section ``gunfight``) and the rulebook
(seed 004), not from the engine, so that a wrong constant or a shortened text fails a test.
The main side is ``docs/examples/gunfight-legal-lawman-posse.json``: Marshal Caleb Stone
(Veteran Lawman: Loyal Sidekick, Leader, Tough as Old Boots; pistol and Winchester), Deputy
Jim Hale (Greenhorn Lawman: Quick Draw; pistol and shotgun), 4 troopers (Posse riders) and
6 rabble (Townsfolk).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from builder import printing
from rules import get_system
from rules.printing import MARKS, Card, Section
from rules.roster import make_roster
from tests.helpers.pdf import pdf_words

SYSTEM = get_system("gunfight")
ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
POSSE = json.loads((EXAMPLES / "gunfight-legal-lawman-posse.json").read_text())
RENO = json.loads((EXAMPLES / "gunfight-illegal-reno-gang.json").read_text())
WAR_PARTY = json.loads((EXAMPLES / "gunfight-legal-indian-war-party.json").read_text())

CHARACTERISTICS = ["BD", "SK", "SP", "AG", "WP"]  # the book's order (seed 004, p. 2)
DASH = "\u2013"  # en dash: no value ("no point blank range"), and "1-10"
TIMES = "\u00d7"  # multiplication sign: "2 x BD", "x4"

# Ability texts as the book gives them (seed 004, pp. 4-5), a few words each that must be
# printed whole: the start and the end of the description.
BOOK_ABILITIES = {
    "Tough as Old Boots": ["Half all BD loss."],
    "Leader": ["Can rally"],
    "Loyal Sidekick": ["loyal follower", "never routs until the character routs"],
    "Quick Draw": [
        "No action required to draw or put away a weapon.",
        "Can reload a pistol in 1 action.",
    ],
    "Sneaky Dog": [
        "No enemy can attack the character if in cover",
        "No enemy can turn to face the character if the character is out of LOS unless "
        "the character attacks first.",
    ],
    "White Hat": [
        "No bonus for surprise.",
        "Must protect innocent bystanders. +2 to each STAT.",
    ],
}


def evaluate_cards(roster: dict[str, Any]) -> list[Card]:
    return SYSTEM.print_cards(roster, SYSTEM.evaluate(roster))


def card_of(cards: list[Card], name: str) -> Card:
    return next(c for c in cards if c.name == name)


def section(card: Card, title: str) -> Section:
    return next(s for s in card.sections if s.title == title)


def texts(card: Card, title: str) -> dict[str, str]:
    return {e.term: e.text for e in section(card, title).entries}


def stats(card: Card) -> dict[str, str]:
    return {s.label: s.value for s in card.stats}


def character(name: str, abilities: list[str], weapons: list[str] = (), **data: Any):
    base = {
        "figure": "character",
        "character_type": "lawman",
        "experience": {1: "greenhorn", 2: "old_hand", 3: "veteran"}.get(len(abilities), "veteran"),
        "characteristics": {"bd": 7, "sk": 7, "sp": 7, "ag": 7, "wp": 7},
        "abilities": abilities,
        "source": "entered",
        "weapons": [{"name": w} for w in weapons],
    }
    base.update(data)
    return name, base


def side(*members, name: str = "Test side") -> dict[str, Any]:
    return make_roster("gunfight", name, None, members)


# --------------------------------------------------------------------------- cards


def test_one_card_per_member_in_roster_order_with_the_members_keys():
    cards = evaluate_cards(POSSE)
    assert [c.name for c in cards] == [
        "Marshal Caleb Stone",
        "Deputy Jim Hale",
        "Posse riders",
        "Townsfolk",
    ]
    assert [c.key for c in cards] == ["1", "2", "3", "4"]
    assert all(c.mark in MARKS for c in cards)


def test_a_characters_front_has_the_book_stat_line_and_bd_and_wp_tracks():
    marshal = card_of(evaluate_cards(POSSE), "Marshal Caleb Stone")
    # Rolled 1+4, 3+4, 1+4, 2+4, 2+4; no ability changes a characteristic.
    assert [s.label for s in marshal.stats][:5] == CHARACTERISTICS
    assert stats(marshal) == {"BD": "5", "SK": "7", "SP": "5", "AG": "6", "WP": "6", "Move": '6"'}
    facts = {f.label: f.value for f in marshal.facts}
    assert facts["Actions"] == "2"  # each character has 2 actions (seed 004, p. 5)
    assert facts["Figures"] == "2"  # the character and its loyal sidekick
    tracks = {t.label: t.boxes for t in marshal.tracks}
    assert tracks == {"BD": 5, "WP": 6, "Sidekick": 1}  # one box per point of BD and WP
    assert marshal.mark == "star"  # the Leader
    assert marshal.kind == "Character · Lawman · Veteran · Leader"
    assert marshal.count == 1


def test_tracks_follow_abilities_that_change_bd_and_wp():
    # White Hat: +2 to each STAT; Nobility: +6 WP; clamped to 10 (RULES.md Decision).
    roster = side(character("Ned", ["white_hat", "nobility"], character_type="indian"))
    ned = evaluate_cards(roster)[0]
    assert {t.label: t.boxes for t in ned.tracks} == {"BD": 9, "WP": 10}
    limit = f"1{DASH}10 limit"
    assert texts(ned, "Vital info")[limit] == f"WP 10 (15 before the {limit})."


def test_weapons_have_the_books_ranges_and_ammunition():
    marshal = card_of(evaluate_cards(POSSE), "Marshal Caleb Stone")
    weapons = {w.name: w for w in marshal.weapons}
    # Range table (seed 004, p. 7): point blank / normal / long.
    assert weapons["Pistol"].range == '2" / 6" / 14"'
    assert weapons["Winchester rifle"].range == f'{DASH} / 12" / 48"'
    # Ammunition: a pistol reloads after 6 shots (2 actions), a Winchester after 15 (4).
    assert weapons["Pistol"].note == "6 shots, reload 2 actions"
    assert weapons["Winchester rifle"].note == "15 shots, reload 4 actions"
    # Gunfight weapons have no Str and no level: those columns stay empty (a dash).
    assert all(w.strength == "" and w.level == "" for w in marshal.weapons)


def test_quick_draw_reloads_a_pistol_in_one_action():
    deputy = card_of(evaluate_cards(POSSE), "Deputy Jim Hale")
    weapons = {w.name: w for w in deputy.weapons}
    assert weapons["Pistol"].note == "6 shots, reload 1 action"
    assert weapons["Shotgun"].range == '4" / 6" / 14"'
    assert weapons["Shotgun"].note == "2 shots, reload 1 action"


def test_close_combat_and_dynamite_ranges():
    roster = side(character("Boom", ["cool"], ["Knife", "Dynamite"]))
    weapons = {w.name: w.range for w in evaluate_cards(roster)[0].weapons}
    assert weapons["Knife"] == 'hit within 1"'
    assert weapons["Dynamite"] == f'2 {TIMES} BD (14")'  # thrown 2 x BD inches (seed 004, p. 8)


@pytest.mark.parametrize("name", sorted(BOOK_ABILITIES))
def test_every_ability_prints_with_its_full_text(name):
    ability_id = re.sub(r"[^a-z]+", "_", name.lower()).strip("_")
    roster = side(character("Tester", [ability_id]))
    card = evaluate_cards(roster)[0]
    text = texts(card, "Special abilities")[name]
    for words in BOOK_ABILITIES[name]:
        assert words in text


def test_the_back_has_vital_info_abilities_weapon_traits_and_rules_in_order():
    marshal = card_of(evaluate_cards(POSSE), "Marshal Caleb Stone")
    assert [s.title for s in marshal.sections] == [
        "Vital info",
        "Special abilities",
        "Weapon traits",
        "Rules",
    ]
    vital = texts(marshal, "Vital info")
    assert vital["Character"] == "Veteran Lawman of Marshal Stone's Posse."
    # The follower of Loyal Sidekick is a trooper: AG 6 and 4 in every other.
    assert "BD 4, SK 4, SP 4, AG 6, WP 4" in vital["Sidekick"]
    assert list(texts(marshal, "Special abilities")) == [
        "Loyal Sidekick",
        "Leader",
        "Tough as Old Boots",
    ]
    traits = texts(marshal, "Weapon traits")
    assert "One level better at point blank" in traits["Pistol"]
    assert "15 shots" in traits["Winchester rifle"]
    assert "long range is one level worse" in traits["Ranges"]
    # Leader: "A leader within 6" can rally ... rolls WP-1D10" (seed 004, p. 8).
    assert "rolls WP - 1D10" in texts(marshal, "Rules")["Rallying"]


def test_dynamite_and_horsemen_get_the_books_rules_in_full():
    roster = side(character("Boom", ["horseman"], ["Dynamite"], character_type="indian"))
    rules = texts(evaluate_cards(roster)[0], "Rules")
    assert "on a roll of 5 or less the dynamite explodes" in rules["Dynamite: fuse and blast"]
    assert "a stone structure within 1" in rules["Dynamite: fuse and blast"]
    assert "-1 per stick after the first" in rules["Throwing dynamite"]
    assert "roll 1D10: on 1-5 the horse is affected by a shot" in rules["Mounted targets"]


def test_troopers_and_rabble_get_one_card_each_with_their_count():
    cards = evaluate_cards(POSSE)
    riders, townsfolk = card_of(cards, "Posse riders"), card_of(cards, "Townsfolk")
    assert riders.count == 4 and townsfolk.count == 6
    # Troopers: AG 6 and 4 in each other characteristic (seed 004, p. 5).
    assert stats(riders) == {"BD": "4", "SK": "4", "SP": "4", "AG": "6", "WP": "4", "Move": '6"'}
    # Rabble: move 5", one action, no SK.
    assert stats(townsfolk) == {"Move": '5"', "SK": DASH}
    assert {f.label: f.value for f in townsfolk.facts} == {"Actions": "1", "Figures": "6"}
    # Anything but a miss routs them: a box per figure to mark routed, and one for out.
    assert [(t.label, t.boxes) for t in riders.tracks] == [("Routed", 4), ("Out", 4)]
    assert [(t.label, t.boxes) for t in townsfolk.tracks] == [("Routed", 6), ("Out", 6)]
    assert riders.mark == "crosshair" and townsfolk.mark == "circle"
    assert "Townspeople, cowboys and farmers" in texts(townsfolk, "Vital info")["Rabble"]


def test_a_rule_broken_in_play_is_a_note_on_that_card_only():
    cards = evaluate_cards(RENO)
    frank = card_of(cards, "Frank Reno")
    assert any(n.startswith("Not legal: Leader is listed 2 times") for n in frank.play_notes)
    assert any("'Gatling gun' is not in the book's weapon list" in n for n in frank.play_notes)
    hands = card_of(cards, "Gang hands")
    assert any("Pistol has normal 8 (book: 6)" in n for n in hands.play_notes)
    assert not any("Leader is listed" in n for n in hands.play_notes)


def test_a_finding_about_building_only_stays_off_the_card():
    report = SYSTEM.evaluate(RENO)
    unnamed = SYSTEM.print_cards(RENO, report)[1]
    assert "gunfight.character_unnamed" in [f.code for f in report.findings_for("2")]
    assert not any("Characters have names" in n for n in unnamed.play_notes)
    assert any("'cowboy' is not a character type" in n for n in unnamed.play_notes)


def test_rabble_with_a_carbine_shoot_one_level_worse():
    roster = side(
        ("Farmers", {"figure": "rabble", "count": 3, "weapons": [{"name": "Carbine"}]}),
    )
    farmers = evaluate_cards(roster)[0]
    assert "Rabble shooting a carbine are one level worse." in farmers.play_notes
    assert farmers.weapons[0].note == "rabble keep no count of ammunition"


def test_two_pistols_are_one_level_worse():
    cards = evaluate_cards(
        side(
            character("Two Guns", ["cool"], ["Pistol", "Pistol"]),
            character("Lefty", ["ambidextrous"], ["Pistol", "Pistol"]),
        )
    )
    assert any("Two pistols: firing both is one level worse" in n for n in cards[0].play_notes)
    assert "Ambidextrous: no off-hand penalty" in " ".join(cards[1].play_notes)


@pytest.mark.parametrize(
    "member",
    [
        None,
        "garbage",
        {"name": 5, "data": []},
        {"data": {}},
        {"data": {"figure": "horse"}},
        {"data": {"figure": "character", "characteristics": {"bd": "x"}, "abilities": [3, None]}},
        {"data": {"figure": "trooper", "count": "many", "weapons": [None, 7, {"name": 5}]}},
        {"data": {"figure": "rabble", "count": -3}},
    ],
)
def test_partial_or_garbage_members_still_get_a_card(member):
    roster = {"system": "gunfight", "name": "Odd side", "members": [member]}
    report = SYSTEM.evaluate(roster)
    cards = SYSTEM.print_cards(roster, report)
    assert len(cards) == 1
    assert cards[0].name and cards[0].mark in MARKS and cards[0].count >= 1
    assert isinstance(SYSTEM.print_sheet(roster, report), dict)
    assert isinstance(SYSTEM.quick_reference(roster, report), list)


def test_a_huge_group_does_not_get_thousands_of_boxes():
    roster = side(("Army", {"figure": "trooper", "count": 5000}))
    army = evaluate_cards(roster)[0]
    assert army.count == 5000
    assert all(t.boxes <= 30 for t in army.tracks)


def test_no_roster_at_all_gives_no_cards():
    for roster in (None, {}, {"members": "x"}):
        report = SYSTEM.evaluate(roster)
        assert SYSTEM.print_cards(roster, report) == []


# --------------------------------------------------------------------------- quick reference


def reference_terms(roster: dict[str, Any]) -> dict[str, str]:
    sections = SYSTEM.quick_reference(roster, SYSTEM.evaluate(roster))
    found: dict[str, str] = {}
    for s in sections:
        for e in s.entries:
            assert e.term not in found, f"{e.term} printed twice"
            found[e.term] = e.text
    return found


def test_quick_reference_holds_what_the_side_uses_and_nothing_else():
    terms = reference_terms(POSSE)
    for used in [
        "Loyal Sidekick",
        "Leader",
        "Tough as Old Boots",
        "Quick Draw",
        "Pistol",
        "Winchester rifle",
        "Shotgun",
        "Carbine",
        "Rallying",
        "Character",
        "Trooper",
        "Rabble",
        "Sidekick",
        "Injuries (characters)",
    ]:
        assert used in terms
    for unused in ["Sharps rifle", "Bow", "Dynamite", "Shootist", "White Hat", "Mounted targets"]:
        assert unused not in terms
    assert terms["Pistol"].startswith('Point blank 2", normal 6", long 14".')
    # A mortal: roll 1D under WP each turn; 9 or 10 and the character dies (seed 004, p. 7).
    assert "if the roll comes up 9 or 10 the character dies" in terms["Injuries (characters)"]


def test_quick_reference_of_a_war_party():
    terms = reference_terms(WAR_PARTY)
    assert {"Nobility", "Horseman", "Loyal Sidekick", "Bow", "Knife", "Sharps rifle"} <= set(terms)
    assert "Thrown knife" in terms and "Mounted targets" in terms
    assert "Rabble" not in terms and "Pistol" not in terms and "Rallying" not in terms
    assert "A shot with a bow is one level worse" in terms["Bow"]


def test_quick_reference_of_dynamite_has_the_weapon_and_its_rules_once_each():
    terms = reference_terms(side(character("Boom", ["cool"], ["Dynamite", "Dynamite"])))
    assert "Light the fuse" in terms["Dynamite"]
    assert "1 to 10 sticks at once" in terms["Dynamite: fuse and blast"]
    assert "scatters the difference in inches" in terms["Throwing dynamite"]
    assert "Cover" in terms  # Cool: "ignore the opponent's cover"


def test_quick_reference_names_a_house_weapon_as_entered():
    terms = reference_terms(RENO)
    assert terms["Gatling gun"].startswith(f'Point blank {DASH}, normal 24", long 48".')
    assert "Not in the book's weapon list" in terms["Gatling gun"]


# --------------------------------------------------------------------------- the figure list


def test_print_sheet_is_a_figure_list():
    sheet = SYSTEM.print_sheet(POSSE, SYSTEM.evaluate(POSSE))
    assert sheet["figures"] == 13  # 2 characters + 1 sidekick + 4 troopers + 6 rabble
    assert sheet["stat_labels"] == [*CHARACTERISTICS, "Move", "Actions"]
    marshal, deputy = sheet["characters"]
    assert marshal["name"] == "Marshal Caleb Stone" and marshal["figures"] == 2
    assert marshal["stats"] == ["5", "7", "5", "6", "6", '6"', "2"]
    assert {"name": "Tough as Old Boots", "text": "Half all BD loss."} in marshal["abilities"]
    assert "BD 4, SK 4, SP 4, AG 6, WP 4" in marshal["sidekick"]["text"]
    assert deputy["sidekick"] is None
    assert [(t["name"], t["count"]) for t in sheet["troopers"]] == [("Posse riders", 4)]
    assert [(r["name"], r["count"]) for r in sheet["rabble"]] == [("Townsfolk", 6)]
    summary = {f["label"]: f["value"] for f in sheet["summary"]}
    assert summary["Figures"] == "13" and summary["Veterans"] == "1"
    assert summary["Leaders (can rally)"] == "Marshal Caleb Stone"
    assert sheet["legal"] is True


def test_print_sheet_marks_illegal_rows_and_unknown_figures():
    sheet = SYSTEM.print_sheet(RENO, SYSTEM.evaluate(RENO))
    assert sheet["legal"] is False
    assert [c["legal"] for c in sheet["characters"]] == [False, False]
    assert sheet["unknown"] == [{"key": "5", "name": "Old Nell", "kind": "Unknown figure (horse)"}]


# --------------------------------------------------------------------------- PDFs


@pytest.fixture(scope="module")
def posse_sheet() -> str:
    return pdf_words(printing.sheet_pdf(POSSE))


def test_sheet_pdf_lists_every_figure_with_its_abilities_text(posse_sheet):
    for words in [
        "Marshal Stone's Posse",
        "Figure list",
        "Marshal Caleb Stone",
        "Character · Lawman · Veteran · Leader",
        "Deputy Jim Hale",
        "Posse riders",
        "Townsfolk",
        "Characters",
        "Troopers",
        "Rabble",
        "Half all BD loss.",
        "No action required to draw or put away a weapon. Can reload a pistol in 1 action.",
        "Sidekick",
        "(no limit)",
    ]:
        assert words in posse_sheet
    assert re.search(r"BD SK SP AG WP Move Actions .*5 7 5 6 6 6\" 2", posse_sheet)
    assert "No findings" in posse_sheet


def test_sheet_pdf_shows_the_findings():
    text = pdf_words(printing.sheet_pdf(RENO))
    assert "The Reno Gang (needs work)" in text
    assert "Not legal: 8 errors" in text
    assert "Leader is listed 2 times" in text
    assert "'horse' is not a type of figure" in text
    assert "Old Nell" in text


def test_sheet_pdf_escapes_user_text():
    roster = copy.deepcopy(POSSE)
    roster["members"][0]["name"] = "<b>Bold</b> & <script>x</script>"
    text = pdf_words(printing.sheet_pdf(roster))
    assert "<b>Bold</b> & <script>x</script>" in text


def test_cards_pdf_has_each_members_name_and_stats():
    text = pdf_words(printing.cards_pdf(POSSE))
    for name in ["Marshal Caleb Stone", "Deputy Jim Hale", "Posse riders", "Townsfolk"]:
        assert name in text
    assert f"{TIMES}4" in text and f"{TIMES}6" in text
    assert re.search(r"BD SK SP AG WP MOVE 7 8 6 7 6 7\"", text, re.IGNORECASE)
    assert "Half all BD loss." in text
    assert "rolls WP - 1D10" in text


def test_reference_pdf_has_the_used_terms_only():
    text = pdf_words(printing.reference_pdf(POSSE))
    for term in ["Tough as Old Boots", "Quick Draw", "Winchester rifle", "Rallying"]:
        assert term in text
    assert "Sharps rifle" not in text and "Dynamite" not in text
