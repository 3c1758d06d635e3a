"""Printing Blackwater Gulch v1.1.2 (``bwg1``) gangs: cards, the gang sheet, the quick reference.

Rules-level tests call the system's ``print_cards``, ``print_sheet`` and ``quick_reference``
directly (no Django); PDF-level tests render through ``builder.printing`` and read the text
back with pypdf. Numbers come from RULES.md (section ``bwg1``) and the rulebook (seed 002).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules.printing import MARKS, Card, Section
from rules.roster import make_roster
from rules.systems import bwg1
from tests.helpers.pdf import pdf_text

SYSTEM = bwg1.SYSTEM
ROOT = Path(__file__).resolve().parent.parent
DALTONS = ROOT / "docs" / "examples" / "bwg1-legal-dalton-boys.json"
CHIEFS = ROOT / "docs" / "examples" / "bwg1-illegal-too-many-chiefs.json"

# The three weapons whose levels the book gives (seed 002, p. 12).
BOWIE = {
    "name": "Bowie knife",
    "kind": "melee",
    "hands": 1,
    "level": 3,
    "strength": "",
    "traits": [],
}
REMINGTON = {
    "name": "Remington Army revolver",
    "kind": "ranged",
    "hands": 1,
    "level": 4,
    "strength": "",
    "traits": ["pistol"],
}
WINCHESTER = {
    "name": "Winchester Repeater",
    "kind": "ranged",
    "hands": 2,
    "level": 5,
    "strength": "",
    "traits": ["repeater"],
}
SABRE = {
    "name": "Cavalry sabre",
    "kind": "melee",
    "hands": 1,
    "level": 4,
    "strength": "M+1",
    "traits": ["parry"],
}
KNIFE = {
    "name": "Throwing knife",
    "kind": "ranged",
    "hands": 1,
    "level": 2,
    "strength": "",
    "traits": ["thrown"],
}
MULE = {"name": "Mule", "str": 3, "qui": 3, "sta": 2, "int": 2, "speed": 7, "xp": 10}


def member(kind: str, profession: str = "", weapons=(), horse=None, **points: int) -> dict:
    spent = dict.fromkeys(("str", "qui", "sta", "int", "rc", "mc"), 0) | points
    return {
        "type": kind,
        "profession": profession,
        "points": spent,
        "weapons": list(weapons),
        "horse": horse,
    }


def henchman(**points: int) -> dict:
    return member(
        "henchman", **({"str": 2, "qui": 2, "sta": 2, "int": 2, "rc": 1, "mc": 1} | points)
    )


def gang(
    *members: tuple[str, dict], name: str = "The Wild Bunch", limit: int | None = None
) -> dict:
    return make_roster("bwg1", name, limit, members)


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text("utf-8"))


def cards_of(roster: dict) -> list[Card]:
    return SYSTEM.print_cards(roster, SYSTEM.evaluate(roster))


def section(card: Card, title: str) -> dict[str, str]:
    found = [s for s in card.sections if s.title == title]
    assert found, f"{card.name} has no {title!r} section: {[s.title for s in card.sections]}"
    return {e.term: e.text for e in found[0].entries}


def reference(roster: dict) -> dict[str, dict[str, str]]:
    sections: list[Section] = SYSTEM.quick_reference(roster, SYSTEM.evaluate(roster))
    return {s.title: {e.term: e.text for e in s.entries} for s in sections}


# --------------------------------------------------------------------------- cards: front


def test_one_card_per_member_in_roster_order_keyed_like_the_report():
    roster = load(DALTONS)
    cards = cards_of(roster)
    assert [c.name for c in cards] == [m["name"] for m in roster["members"]]
    assert [c.key for c in cards] == list(SYSTEM.evaluate(roster).members)


def test_the_front_shows_the_book_stat_line_with_its_own_labels():
    bob = cards_of(load(DALTONS))[0]
    # Bob Dalton: 1 + points, +1 RC as the first Gunslinger; 100 + 3 + 4 + 5 XP; Leader HP/DP 3.
    assert [(s.label, s.value) for s in bob.stats] == [
        ("Str", "3"),
        ("Qui", "5"),
        ("Sta", "5"),
        ("Int", "5"),
        ("RC", "6"),
        ("MC", "3"),
        ("XP", "112"),
        ("HP", "3"),
        ("DP", "3"),
    ]
    assert bob.kind == "Leader · Gunslinger"


def test_one_health_box_per_hp():
    cards = cards_of(load(DALTONS))
    health = [next(t.boxes for t in c.tracks if t.label == "Health") for c in cards]
    assert health == [3, 2, 1, 1, 1]  # Leader 3, Professional 2, Henchmen 1


def test_really_tough_adds_a_health_box():
    roster = gang(("Tough", member("henchman", sta=5, str=3, qui=2)))
    (card,) = cards_of(roster)
    assert [t.boxes for t in card.tracks if t.label == "Health"] == [2]


def test_the_leader_gets_a_leaders_luck_track_4_dice_for_a_gambler():
    gunslinger = cards_of(load(DALTONS))[0]
    assert [(t.label, t.boxes) for t in gunslinger.tracks] == [("Health", 3), ("Leader's Luck", 3)]
    roster = gang(("Lucky", member("leader", "gambler", str=4, qui=4, sta=3, int=3, rc=3, mc=3)))
    (gambler,) = cards_of(roster)
    assert ("Leader's Luck", 4) in [(t.label, t.boxes) for t in gambler.tracks]
    assert "4D6" in section(gambler, "Leader")["Leader's Luck"]


def test_marks_follow_the_member_type_and_profession():
    roster = gang(
        ("L", member("leader", "gunslinger")),
        ("B", member("professional", "bounty_hunter")),
        ("S", member("professional", "gunslinger")),
        ("D", member("professional", "doctor")),
        ("H", henchman()),
        ("?", member("wizard")),
    )
    marks = [c.mark for c in cards_of(roster)]
    assert marks == ["star", "badge", "crosshair", "diamond", "hat", "circle"]
    assert set(marks) <= set(MARKS)


def test_a_horse_shows_on_the_front_and_its_xp_in_fame():
    bill = cards_of(load(DALTONS))[4]
    facts = {s.label: s.value for s in bill.facts}
    assert facts["Horse"] == 'Mule 7"'
    assert facts["Fame"] == "63"  # 50 + Bowie knife 3 + Mule 10
    assert section(bill, "Equipment rules")["Mule"].startswith("Str 3, Qui 3, Sta 2, Int 2")


# --------------------------------------------------------------------------- cards: back


def test_weapons_have_range_str_level_and_traits():
    bob = cards_of(load(DALTONS))[0]
    rows = {w.name: (w.range, w.strength, w.level, w.traits) for w in bob.weapons}
    assert rows == {
        "Bowie knife": ("Melee", "", "3", ("1-Handed",)),
        "Remington Army revolver": ("", "", "4", ("1-Handed", "Pistol")),
        "Winchester Repeater": ("", "", "5", ("2-Handed", "Repeater")),
    }


def test_melee_str_is_resolved_and_thrown_range_is_str_plus_d6():
    roster = gang(
        ("Kit", henchman(str=2, qui=2, sta=1, int=1, rc=2, mc=2) | {"weapons": [SABRE, KNIFE]})
    )
    (kit,) = cards_of(roster)
    sabre, knife = kit.weapons
    assert sabre.strength == "M+1 (4)"  # Str 3 + 1
    assert knife.range == '3+D6"'  # Str 3 + 1D6
    assert 'Str "M"' in section(kit, "Weapon traits")


def test_skills_print_with_their_full_text():
    bob = cards_of(load(DALTONS))[0]
    skills = section(bob, "Skills")
    # Int 5, Qui 5, Sta 5, RC 6: Bravery, Run & Gun, Hearty, Quickdraw and Deadeye.
    assert set(skills) == {"Bravery", "Run & Gun", "Quickdraw", "Deadeye", "Hearty"}
    assert skills["Quickdraw"] == "No to-hit penalty for two pistols in one turn (same target)."
    assert skills["Run & Gun"] == "May shoot after running, at +1 to the target number."


def test_the_profession_prints_in_full_and_its_leader_rule_only_for_the_leader():
    cards = cards_of(load(DALTONS))
    bob, doc = cards[0], cards[1]
    assert section(bob, "Profession") == {
        "Gunslinger": bwg1.PROFESSION_RULES["gunslinger"][0],
        "Gunslinger Leader": bwg1.PROFESSION_RULES["gunslinger"][1],
    }
    doctor = section(doc, "Profession")
    assert list(doctor) == ["Doctor"]
    assert "a 1 always fails" in doctor["Doctor"]
    assert "can't be healed" in doctor["Doctor"]  # the part a digest would drop


def test_vital_info_names_the_role_the_gang_and_the_first_of_profession_bonus():
    cards = cards_of(load(DALTONS))
    assert section(cards[0], "Vital info") == {
        "Gunslinger, Leader of The Dalton Boys": "First Gunslinger: +1 RC."
    }
    assert section(cards[2], "Vital info") == {"Henchman in The Dalton Boys": ""}


def test_weapon_traits_explain_every_trait_on_the_card_and_no_other():
    bob = cards_of(load(DALTONS))[0]
    traits = section(bob, "Weapon traits")
    # The hands a weapon needs show beside it ("1-Handed") and need no explanation.
    assert list(traits) == ["Pistol", "Repeater"]
    assert "pistol in each hand may shoot twice" in traits["Pistol"]
    assert "+1D6 to the to-hit roll" in traits["Repeater"]


def test_explosive_and_flaming_print_the_book_rule_not_a_digest():
    dynamite = KNIFE | {"name": "Dynamite", "level": 4, "traits": ["thrown", "explosive"]}
    torch = BOWIE | {"name": "Burning torch", "level": 2, "strength": "M", "traits": ["flaming"]}
    roster = gang(("Boom", henchman(str=2) | {"weapons": [dynamite, torch]}))
    traits = section(cards_of(roster)[0], "Weapon traits")
    assert "1D3 hits" in traits["Explosive"]
    assert "Defense roll with target 6" in traits["Flaming"]


def test_the_section_order_is_vital_info_profession_leader_skills_traits_equipment():
    bob, bill = cards_of(load(DALTONS))[0], cards_of(load(DALTONS))[4]
    assert [s.title for s in bob.sections] == [
        "Vital info",
        "Profession",
        "Leader",
        "Skills",
        "Weapon traits",
    ]
    assert [s.title for s in bill.sections] == ["Vital info", "Equipment rules"]


# --------------------------------------------------------------------------- play notes


def test_a_legal_gang_has_no_play_notes():
    assert all(c.play_notes == [] for c in cards_of(load(DALTONS)))


def test_a_weapon_above_the_members_rc_prints_the_to_hit_penalty():
    # RC 1 + 2 = 3, Remington level 4: +1 to the target number, hits on 5+.
    roster = gang(("Shaky", henchman(rc=2, mc=0) | {"weapons": [REMINGTON]}))
    (card,) = cards_of(roster)
    assert card.weapons[0].note == "above RC 3: +1 to hit (5+)"
    assert card.play_notes == [
        "Remington Army revolver: +1 to the to-hit target number, hits on 5+ "
        "(level 4 is above RC 3)."
    ]


def test_the_penalty_stops_at_a_target_of_6():
    roster = gang(("Hopeless", henchman() | {"weapons": [WINCHESTER]}))  # RC 2, level 5
    (card,) = cards_of(roster)
    assert card.weapons[0].note == "above RC 2: +3 to hit (6+)"


def test_a_bounty_hunters_level_of_grace_and_knowhow_print_no_penalty():
    hunter = member("professional", "bounty_hunter", str=3, qui=3, sta=3, int=2, rc=2, mc=2)
    knowhow = henchman(qui=5, str=1, sta=1, int=1, rc=1, mc=1)
    roster = gang(
        ("Hunter", hunter | {"weapons": [REMINGTON]}),
        ("Clever", knowhow | {"weapons": [WINCHESTER]}),
    )
    hunter_card, clever_card = cards_of(roster)
    assert hunter_card.weapons[0].note == "above RC 3: no penalty (Bounty Hunter)"
    assert clever_card.weapons[0].note == "above RC 2: no penalty (Knowhow)"
    assert hunter_card.play_notes == [] and clever_card.play_notes == []


BOOK_LEADER = member("leader", "gunslinger", str=2, qui=4, sta=4, int=4, rc=4, mc=2) | {
    "weapons": [BOWIE, REMINGTON, WINCHESTER]
}


def test_the_books_leader_example_prints_112_xp_and_no_note():
    # Bowie knife (3) + Remington (4) + Winchester (5): 112 XP, and Str 3 carries all three.
    (card,) = cards_of(gang(("Boss", BOOK_LEADER)))
    assert {s.label: s.value for s in card.stats}["XP"] == "112"
    assert card.play_notes == []


def test_a_leader_with_str_2_and_three_weapons_is_marked_not_legal_on_the_card():
    weak = BOOK_LEADER | {"points": BOOK_LEADER["points"] | {"str": 1, "mc": 3}}
    (card,) = cards_of(gang(("Boss", weak)))
    assert card.play_notes == [
        "Not legal: Carries 3 weapons but Str 2 allows 2: raise Str to 3 or drop 1 weapon."
    ]


def test_two_thrown_weapons_get_a_play_note():
    roster = gang(("Kit", henchman(str=2, rc=2, mc=0) | {"weapons": [KNIFE, KNIFE]}))
    (card,) = cards_of(roster)
    assert "Thrown weapons: throw one at a time, never one in each hand." in card.play_notes


def test_warnings_that_do_not_change_play_stay_off_the_card():
    roster = gang(("", member("henchman", str=1)))  # unnamed, 9 points unspent
    (card,) = cards_of(roster)
    assert card.name == "(no name)"
    assert card.play_notes == []


# --------------------------------------------------------------------------- bad data


@pytest.mark.parametrize(
    "members",
    [
        [None, 5, "x"],
        [{"key": 1, "name": 7, "data": 5}],
        [{"name": "Odd", "data": {"type": "leader", "profession": "zz", "points": "x"}}],
        [
            {
                "name": "Junk",
                "data": {
                    "type": "professional",
                    "points": {"str": "a", "rc": -9},
                    "weapons": [
                        None,
                        3,
                        {"name": 3, "level": "x", "traits": "x", "strength": "M+x"},
                    ],
                    "horse": {"name": None, "xp": "z"},
                },
            }
        ],
    ],
)
def test_garbage_members_still_get_a_card(members):
    roster = {"system": "bwg1", "name": None, "members": members}
    report = SYSTEM.evaluate(roster)
    cards = SYSTEM.print_cards(roster, report)
    assert len(cards) == len(members)
    assert all(c.name and c.stats and c.tracks for c in cards)
    assert isinstance(SYSTEM.print_sheet(roster, report), dict)
    assert SYSTEM.quick_reference(roster, report)


@pytest.mark.parametrize("roster", [None, "text", {}, {"members": "x"}])
def test_no_roster_at_all_gives_no_cards_and_never_raises(roster):
    report = SYSTEM.evaluate(roster)
    assert SYSTEM.print_cards(roster, report) == []
    assert SYSTEM.print_sheet(roster, report)["fame"] == 0


# --------------------------------------------------------------------------- quick reference


def test_the_quick_reference_holds_what_the_gang_uses_each_once():
    ref = reference(load(DALTONS))
    assert list(ref) == [
        "Core rules",
        "Professions",
        "Skills",
        "Weapon traits",
        "Weapons",
        "Horses",
    ]
    assert list(ref["Professions"]) == ["Gunslinger", "Gunslinger Leader", "Doctor"]
    assert set(ref["Skills"]) == {
        "Brute Strength",
        "Bravery",
        "Run & Gun",
        "Quickdraw",
        "Deadeye",
        "Hearty",
    }
    assert list(ref["Weapon traits"]) == ["Pistol", "Repeater"]
    # Three members carry the Remington or the Bowie knife: each weapon is listed once.
    assert list(ref["Weapons"]) == ["Bowie knife", "Remington Army revolver", "Winchester Repeater"]
    assert ref["Weapons"]["Remington Army revolver"] == "ranged (RC), 1-handed, level 4; Pistol."
    assert list(ref["Horses"]) == ["Mule"]
    assert "4+" in ref["Core rules"]["To hit"]
    assert "3D6" in ref["Core rules"]["Leader's Luck"]


def test_the_quick_reference_leaves_out_what_the_gang_does_not_use():
    ref = reference(load(DALTONS))
    terms = {term for entries in ref.values() for term in entries}
    unused = {
        "Wrassler",
        "Bounty Hunter",
        "Longarm",
        "Parry",
        "Explosive",
        "Knowhow",
        "Doctor Leader",
    }
    assert not terms & unused
    assert "Wrassler" not in json.dumps(ref)  # not even mentioned in another rule's text


def test_a_gang_without_a_leader_has_no_leaders_luck_in_its_reference():
    ref = reference(gang(("H", henchman())))
    assert "Leader's Luck" not in ref["Core rules"]
    assert "Professions" not in ref  # nothing to list: no empty section


# --------------------------------------------------------------------------- gang sheet figures


def test_print_sheet_figures_for_a_legal_gang():
    sheet = SYSTEM.print_sheet(load(DALTONS), SYSTEM.evaluate(load(DALTONS)))
    assert sheet["fame"] == 361  # 112 + 79 + 53 + 54 + 53 XP + the Mule's 10
    assert (sheet["limit"], sheet["fame_left"], sheet["fame_over"]) == (400, 39, 0)
    assert sheet["make_up"] == "1 Leader, 1 Professional, 3 Henchmen"
    assert (sheet["henchmen"], sheet["henchmen_needed"]) == (3, 2)  # half of the 4 others
    assert sheet["leader"] == "Bob Dalton"
    assert sheet["leaders_luck_dice"] == 3
    assert sheet["first_of_profession"] == [
        "Gunslinger +1 RC: Bob Dalton",
        "Doctor +1 Int: Doc Ruth",
    ]
    assert (sheet["weapon_levels"], sheet["horses_xp"]) == (26, 10)


def test_print_sheet_over_the_limit():
    sheet = SYSTEM.print_sheet(load(CHIEFS), SYSTEM.evaluate(load(CHIEFS)))
    assert (sheet["fame"], sheet["fame_left"], sheet["fame_over"]) == (498, 0, 98)
    assert sheet["make_up"] == "2 Leaders, 2 Professionals, 1 Henchman"


# --------------------------------------------------------------------------- PDFs


def squash(text: str) -> str:
    """Text without whitespace, so that a line break in the PDF does not matter."""
    return re.sub(r"\s+", "", text)


def test_the_gang_sheet_pdf_has_the_books_sheet_items():
    from builder.printing import sheet_pdf

    roster = load(DALTONS)
    text = pdf_text(sheet_pdf(roster))
    for label in ("GANG NAME:", "FAME", "NAME:", "TYPE:", "PROFESSION:", "WEAPONS:", "SKILLS:"):
        assert label in text, label
    for label in ("Str:", "Qui:", "Sta:", "Int:", "RC:", "MC:", "XP:", "HP:", "DP:"):
        assert label in text, label
    assert "The Dalton Boys" in text
    assert "361" in text and "400" in text
    for m in roster["members"]:
        assert m["name"] in text
    assert "Winchester Repeater" in text
    assert squash(bwg1.SKILLS[6].text) in squash(text)  # Quickdraw's text, Bob has it


def test_the_gang_sheet_pdf_prints_every_finding_and_the_to_hit_penalty():
    from builder.printing import sheet_pdf

    roster = load(CHIEFS)
    text = squash(pdf_text(sheet_pdf(roster)))
    for finding in SYSTEM.evaluate(roster).findings:
        assert squash(finding.message) in text, finding.code
    assert squash("above RC 3: +3 to hit (6+)") in text  # Tiny's level 6 rifle


def test_the_cards_pdf_has_each_member_and_their_stats():
    from builder.printing import cards_pdf

    roster = load(DALTONS)
    text = pdf_text(cards_pdf(roster))
    flat = squash(text)
    for card in cards_of(roster):
        assert card.name in text
        assert squash("".join(s.value for s in card.stats[:6])) in flat or all(
            s.value in text for s in card.stats
        )
    assert squash(bwg1.PROFESSION_RULES["doctor"][0]) in flat  # full text, never cut


def test_the_reference_pdf_has_the_terms_the_gang_uses():
    from builder.printing import reference_pdf

    text = pdf_text(reference_pdf(load(DALTONS)))
    for term in (
        "Gunslinger",
        "Doctor",
        "Quickdraw",
        "Repeater",
        "Bowie knife",
        "Mule",
        "Leader's Luck",
    ):
        assert term in text, term
    assert "Wrassler" not in text


def test_the_gang_sheet_escapes_names_and_weapons():
    from builder.printing import PAPERS, prepare
    from builder.printing.documents import sheet_html

    attack = '<link rel=attachment href="file:///etc/passwd">'
    roster = gang(
        (attack, henchman() | {"weapons": [BOWIE | {"name": f"<b>{attack}</b>"}]}),
        name=f"Gang {attack}",
    )
    html = sheet_html(prepare(roster), PAPERS["a4"])
    assert "<link rel=attachment" not in html
    assert "&lt;link rel=attachment" in html
    assert "&lt;b&gt;" in html


# --------------------------------------------------------------------------- campaign advances


def daltons_with_advances(advances: dict[str, int]) -> dict[str, Any]:
    """The Dalton Boys after a campaign: Bob Dalton's data carries ``advances``."""
    roster = load(DALTONS)
    roster["members"][0]["data"]["advances"] = advances
    return roster


def test_a_card_shows_the_final_attributes_and_says_the_advances():
    roster = daltons_with_advances({"str": 1, "mc": -1})
    bob = cards_of(roster)[0]
    # Bob Dalton is Str 3 and MC 3 at creation: Str 4 (Brute Strength) and MC 2 now.
    stats = {s.label: s.value for s in bob.stats}
    assert (stats["Str"], stats["MC"], stats["RC"]) == ("4", "2", "6")
    assert "Brute Strength" in section(bob, "Skills")
    assert section(bob, "Vital info")["Campaign advances"] == "+1 Str, \u22121 MC."
    assert "Campaign advances: +1 Str, \u22121 MC" in SYSTEM.evaluate(roster).members["1"].notes
    # Legal (advances don't use the attribute points), but the injury shows in play: the
    # level 3 Bowie knife is now above MC 2.
    assert bob.play_notes == [
        "Bowie knife: +1 to the to-hit target number, hits on 5+ (level 3 is above MC 2)."
    ]
    assert not any(f.is_error for f in SYSTEM.evaluate(roster).findings)


def test_an_injury_below_1_is_a_play_note_on_the_card():
    roster = daltons_with_advances({"mc": -3})
    bob = cards_of(roster)[0]
    assert {s.label: s.value for s in bob.stats}["MC"] == "0"
    assert any("MC is 0" in note and "injury" in note for note in bob.play_notes)


def test_the_gang_sheet_pdf_prints_the_final_attributes():
    from builder.printing import sheet_pdf

    text = squash(pdf_text(sheet_pdf(daltons_with_advances({"str": 1}))))
    assert squash("Str: 4") in text
    assert squash(bwg1.SKILLS[0].text) in text  # Brute Strength, reached through the advance


# --------------------------------------------------------------------------- one card


WAR_HORSE = {"name": "War horse", "str": 6, "qui": 6, "sta": 5, "int": 3, "speed": 10, "xp": 80}
# The book's Leader with all he can have on his card: the book's three weapons, a horse,
# his profession (and its Leader rule), Leader's Luck, and six skills (every attribute at 4
# or more: 20 points spent).
BOOK_SIZED_LEADER = member(
    "leader",
    "gunslinger",
    weapons=[BOWIE, REMINGTON, WINCHESTER],
    horse=WAR_HORSE,
    str=3,
    qui=4,
    sta=3,
    int=4,
    rc=3,
    mc=3,
)


def test_a_book_sized_leader_prints_on_one_card_front_and_back():
    from builder import printing
    from builder.printing import layout
    from builder.printing.cards import layout_cards

    roster = gang(("Big Boss Dalton", BOOK_SIZED_LEADER))
    (card,) = cards_of(roster)
    assert len(card.weapons) == 3 and len(section(card, "Skills")) == 6
    assert section(card, "Equipment rules") and section(card, "Profession")
    document = layout_cards(printing.prepare(roster), printing.PAPERS["a4"])
    assert layout.measure(document) == {}  # nothing cut off
    faces = {}
    for page in document.pages:
        for box in layout._boxes(page._page_box):
            element = getattr(box, "element", None)
            if element is not None and element.get("data-card") is not None:
                side = "front" if "front" in element.get("class").split() else "back"
                faces[(element.get("data-part"), side)] = " ".join(
                    " ".join(b.text for b in layout._boxes(box) if hasattr(b, "text")).split()
                )
    assert set(faces) == {("1", "front"), ("1", "back")}  # one card
    front, back = faces[("1", "front")], faces[("1", "back")]
    for weapon in card.weapons:  # the weapons with their figures on the front
        assert weapon.name in front
    # every word of every section, in order, front then back (a cut entry goes on as
    # "Term (continued)")
    printed_words = iter(re.findall(r"\w+", front + " " + back))
    for s in card.sections:
        for entry in s.entries:
            for word in re.findall(r"\w+", f"{entry.term} {entry.text}"):
                assert any(word == got for got in printed_words), (entry.term, word)
