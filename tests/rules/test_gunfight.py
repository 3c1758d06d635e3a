"""Gunfight v2 (``gunfight``): figures, random characters and validation, as RULES.md says.

The numbers below come from RULES.md (section ``gunfight``) and the rulebook (seed 004),
not from the engine's own constants, so that a wrong constant in the engine fails a test.

Helpers build rosters that read like the rules::

    side(character("1", "lawman", "veteran", ["leader", "cool", "tin_star"]),
         trooper("2", count=4), rabble("3", count=6))
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from rules import Report, Severity, get_system
from rules.dice import Dice
from rules.systems import gunfight
from tests.rules.findings import assert_clear, assert_flags

ERROR = Severity.ERROR
WARNING = Severity.WARNING
DASH = "\u2013"  # en dash, as printed on the sheet ("1-10 limit", "no point blank range")

SYSTEM = get_system("gunfight")
ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "docs" / "examples"

CHARACTERISTICS = ("bd", "sk", "sp", "ag", "wp")
TROOPER = {"bd": 4, "sk": 4, "sp": 4, "ag": 6, "wp": 4}  # AG 6 and 4 in every other
ABILITY_COUNT = {"greenhorn": 1, "old_hand": 2, "veteran": 3}
TYPES_TO_TABLE = {
    "lawman": "lawman",
    "outlaw": "outlaw_or_mexican",
    "mexican": "outlaw_or_mexican",
    "outsider": "outsider_gambler_gunfighter",
    "gambler": "outsider_gambler_gunfighter",
    "gunfighter": "outsider_gambler_gunfighter",
    "indian": "indian",
    "soldier": "soldier",
}

# The five D20 tables of seed 004 (pp. 2-4), written out result by result.
LAWMAN = [
    "block_and_parry",
    "cool",
    "dead_eye",
    "drunk_as_a_skunk",
    "ive_been_hit_worse",
    "impressive_whiskers_or_amazing_outfit",
    "leader",
    "loyal_sidekick",
    "old_timer",
    "quick_draw",
    "relentless",
    "shootist",
    "something_to_fight_for",
    "terrifying",
    "tin_star",
    "tough_as_old_boots",
    "trick_horse",
    "true_grit",
    "unnerving_habit",
    "white_hat",
]
OUTLAW_OR_MEXICAN = [
    "back_from_the_dead",
    "black_hat_large_sombrero_or_feathers",
    "block_and_parry",
    "brawler",
    "coyote_cunning",
    "dead_eye",
    "drunk_as_a_skunk",
    "ducking_and_weaving",
    "gimmick",
    "leader",
    "mad_dog",
    "quick_draw",
    "relentless",
    "savage",
    "shootist",
    "snake_strike",
    "sneaky_dog",
    "terrifying",
    "tough_as_old_boots",
    "unnerving_habit",
]
OUTSIDER_GAMBLER_GUNFIGHTER = [
    "back_from_the_dead",
    "block_and_parry",
    "cool",
    "coyote_cunning",
    "dead_eye",
    "doctor",
    "ducking_and_weaving",
    "gimmick",
    "horseman",
    "ive_been_hit_worse",
    "quick_draw",
    "relentless",
    "shootist",
    "snake_strike",
    "terrifying",
    "trick_horse",
    "true_grit",
    "unnerving_habit",
    "white_hat",
    "you_killed_my",
]


def _expand(ranges: list[tuple[int, int, str]]) -> list[str]:
    out = []
    for low, high, ability in ranges:
        out.extend([ability] * (high - low + 1))
    assert len(out) == 20
    return out


INDIAN = _expand(
    [
        (1, 2, "black_hat_large_sombrero_or_feathers"),
        (3, 4, "coyote_cunning"),
        (5, 5, "ducking_and_weaving"),
        (6, 7, "horseman"),
        (8, 8, "leader"),
        (9, 9, "loyal_sidekick"),
        (10, 10, "mad_dog"),
        (11, 11, "nobility"),
        (12, 12, "relentless"),
        (13, 14, "savage"),
        (15, 15, "snake_strike"),
        (16, 17, "sneaky_dog"),
        (18, 19, "terrifying"),
        (20, 20, "trick_horse"),
    ]
)
SOLDIER = _expand(
    [
        (1, 4, "leader"),
        (5, 7, "horseman"),
        (8, 9, "true_grit"),
        (10, 10, "relentless"),
        (11, 11, "ive_been_hit_worse"),
        (12, 13, "tough_as_old_boots"),
        (14, 14, "impressive_whiskers_or_amazing_outfit"),
        (15, 15, "dead_eye"),
        (16, 18, "discipline"),
        (19, 20, "tactician"),
    ]
)
TABLES = {
    "lawman": LAWMAN,
    "outlaw_or_mexican": OUTLAW_OR_MEXICAN,
    "outsider_gambler_gunfighter": OUTSIDER_GAMBLER_GUNFIGHTER,
    "indian": INDIAN,
    "soldier": SOLDIER,
}

# Weapon ranges and shots, RULES.md: (point blank, normal, long, shots).
BOOK_WEAPONS = {
    "Thrown knife": (None, 3, 6, None),
    "Bow": (None, 6, 12, 1),
    "Pistol": (2, 6, 14, 6),
    "Shotgun": (4, 6, 14, 2),
    "Carbine": (None, 10, 36, 1),
    "Sharps rifle": (None, 12, 48, 1),
    "Winchester rifle": (None, 12, 48, 15),
}


# --------------------------------------------------------------------------- builders


def weapon(name: str) -> dict[str, Any]:
    pb, normal, long, shots = BOOK_WEAPONS[name]
    return {"name": name, "point_blank": pb, "normal": normal, "long": long, "shots": shots}


def character(
    key: str,
    character_type: str = "lawman",
    experience: str = "greenhorn",
    abilities: list[str] | tuple[str, ...] | None = None,
    *,
    name: str | None = None,
    weapons: list[dict[str, Any]] | None = None,
    source: str = "entered",
    **values: Any,
) -> dict[str, Any]:
    """An entered character with 7 in each characteristic unless given."""
    if abilities is None:
        table = TABLES[TYPES_TO_TABLE.get(character_type, "lawman")]
        safe = [a for a in dict.fromkeys(table) if a not in MODIFYING]
        abilities = safe[: ABILITY_COUNT.get(experience, 1)]
    characteristics = dict.fromkeys(CHARACTERISTICS, 7)
    characteristics.update(values)
    return {
        "key": key,
        "name": f"Character {key}" if name is None else name,
        "data": {
            "figure": "character",
            "character_type": character_type,
            "experience": experience,
            "characteristics": characteristics,
            "abilities": list(abilities),
            "source": source,
            "rolls": [],
            "weapons": weapons or [],
        },
    }


def trooper(key: str, count: int | None = None, **data: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"figure": "trooper", "abilities": [], "weapons": []}
    if count is not None:
        entry["count"] = count
    entry.update(data)
    return {"key": key, "name": "", "data": entry}


def rabble(key: str, count: int | None = None, **data: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"figure": "rabble", "abilities": [], "weapons": []}
    if count is not None:
        entry["count"] = count
    entry.update(data)
    return {"key": key, "name": "", "data": entry}


def side(*members: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "gangfight-roster",
        "version": 1,
        "system": "gunfight",
        "name": "The Posse",
        "limit": None,
        "gang": {},
        "members": list(members),
    }


def evaluate(roster: Any) -> Report:
    return SYSTEM.evaluate(roster)


def rolled(seed: int, character_type: str, experience: str, key: str = "1") -> dict[str, Any]:
    data = SYSTEM.generate_character(Dice(random.Random(seed)), character_type, experience)
    return {"key": key, "name": f"Rolled {key}", "data": data}


MODIFYING = {"drunk_as_a_skunk", "nobility", "old_timer", "white_hat", "loyal_sidekick"}


class Scripted(random.Random):
    """A random source that answers the rolls it is given, in order."""

    def __init__(self, *results: int) -> None:
        super().__init__(0)
        self.results = list(results)

    def randint(self, a: int, b: int) -> int:
        value = self.results.pop(0)
        assert a <= value <= b, f"scripted {value} is not a D{b}"
        return value


# --------------------------------------------------------------------------- assertions


# --------------------------------------------------------------------------- the rule list

SOURCE = Path(__file__).read_text(encoding="utf-8")


def test_rule_codes_are_unique_and_namespaced():
    codes = [r.code for r in SYSTEM.rules]
    assert len(codes) == len(set(codes))
    assert all(re.fullmatch(r"gunfight\.[a-z_]+", code) for code in codes)
    assert all(r.severity in (ERROR, WARNING) for r in SYSTEM.rules)
    assert all(r.summary and r.source.startswith("seed 004") for r in SYSTEM.rules)


@pytest.mark.parametrize("rule", gunfight.RULES, ids=lambda r: r.code)
def test_every_rule_has_a_legal_and_an_illegal_case_here(rule):
    quoted = f'"{rule.code}"'
    flagged = re.search(r"assert_flags\(\s*[\w().]+,\s*" + re.escape(quoted), SOURCE)
    cleared = re.search(r"assert_clear\(\s*[\w().]+,\s*" + re.escape(quoted), SOURCE)
    assert flagged, f"no illegal case (assert_flags) for {rule.code}"
    assert cleared, f"no legal case (assert_clear) for {rule.code}"


def test_the_documented_codes_are_the_codes_tested_here():
    tested = set(re.findall(r'assert_flags\(\s*[\w().]+,\s*"(gunfight\.[a-z_]+)"', SOURCE))
    assert {r.code for r in SYSTEM.rules} == tested


def test_decisions_from_rules_md_are_shown():
    decided = {r.code for r in SYSTEM.rules if r.decision}
    assert "gunfight.duplicate_ability" in decided  # a repeated ability is re-rolled
    text = " ".join(SYSTEM.decisions)
    assert "clamped to 1..10" in text and "unclamped" in text
    assert "Loyal Sidekick" in text


def test_the_interface():
    assert SYSTEM.id == "gunfight"
    assert SYSTEM.total_label == "Figures"
    assert SYSTEM.seed == "004_408766a37f4dcf7f.txt"
    assert SYSTEM.limit_presets == ()
    assert SYSTEM.default_limit is None
    jsonschema.Draft202012Validator.check_schema(SYSTEM.member_schema)
    jsonschema.Draft202012Validator.check_schema(SYSTEM.gang_schema)


# --------------------------------------------------------------------------- content


def test_content_has_the_five_tables_with_their_types():
    tables = {t["id"]: t for t in SYSTEM.content["ability_tables"]}
    assert set(tables) == set(TABLES)
    for ctype, table_id in TYPES_TO_TABLE.items():
        assert ctype in tables[table_id]["character_types"]
    for table_id, expected in TABLES.items():
        got = []
        for entry in tables[table_id]["entries"]:
            got.extend([entry["ability"]] * (entry["to"] - entry["from"] + 1))
        assert got == expected, table_id


@pytest.mark.parametrize(
    ("table_id", "roll", "ability"),
    [
        ("lawman", 7, "leader"),
        ("lawman", 20, "white_hat"),
        ("outlaw_or_mexican", 2, "black_hat_large_sombrero_or_feathers"),
        ("outsider_gambler_gunfighter", 20, "you_killed_my"),
        ("indian", 1, "black_hat_large_sombrero_or_feathers"),
        ("indian", 2, "black_hat_large_sombrero_or_feathers"),
        ("indian", 11, "nobility"),
        ("soldier", 4, "leader"),
        ("soldier", 18, "discipline"),
        ("soldier", 19, "tactician"),
    ],
)
def test_table_results(table_id, roll, ability):
    table = {t["id"]: t for t in SYSTEM.content["ability_tables"]}[table_id]
    assert gunfight.table_result(table, roll) == ability


def test_every_ability_has_its_text_and_the_modifiers_rules_md_lists():
    abilities = {a["id"]: a for a in SYSTEM.content["abilities"]}
    for table in TABLES.values():
        assert set(table) <= set(abilities)
    assert "ambidextrous" in abilities  # described, but on no table
    assert len(abilities) == 37
    assert all(a["text"].strip() and a["name"].strip() for a in abilities.values())
    modifiers = {k: a["modifiers"] for k, a in abilities.items() if a["modifiers"]}
    assert modifiers == {
        "drunk_as_a_skunk": {"sk": -2},
        "nobility": {"wp": 6},
        "old_timer": {"ag": -2, "sk": -2, "sp": -2, "wp": 4},
        "white_hat": dict.fromkeys(CHARACTERISTICS, 2),
    }
    assert "never routs until the character routs" in abilities["loyal_sidekick"]["text"]


def test_content_profiles_and_weapons():
    content = SYSTEM.content
    assert content["figures"]["trooper"]["characteristics"] == TROOPER
    assert content["figures"]["rabble"]["move"] == 5
    assert content["figures"]["rabble"]["actions"] == 1
    assert [(e["id"], e["abilities"]) for e in content["experience_levels"]] == list(
        ABILITY_COUNT.items()
    )
    weapons = {w["name"]: w for w in content["weapons"]}
    for name, (pb, normal, long, shots) in BOOK_WEAPONS.items():
        w = weapons[name]
        assert (w["point_blank"], w["normal"], w["long"], w["shots"]) == (pb, normal, long, shots)
    assert (weapons["Rifle"]["normal"], weapons["Rifle"]["long"]) == (12, 48)


# --------------------------------------------------------------------------- rolling


def test_a_seeded_roll_is_repeatable():
    first = SYSTEM.generate_character(Dice(random.Random(7)), "outlaw", "veteran")
    second = SYSTEM.generate_character(Dice(random.Random(7)), "outlaw", "veteran")
    assert first == second


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("experience", list(ABILITY_COUNT))
def test_rolled_characters_follow_the_rules(seed, experience):
    ctype = list(TYPES_TO_TABLE)[seed % len(TYPES_TO_TABLE)]
    dice = Dice(random.Random(seed))
    data = SYSTEM.generate_character(dice, ctype, experience)
    assert data["figure"] == "character"
    assert data["source"] == "rolled"
    assert data["character_type"] == ctype and data["experience"] == experience
    for c in CHARACTERISTICS:
        assert 5 <= data["characteristics"][c] <= 10  # 1D6 + 4
    assert len(data["abilities"]) == ABILITY_COUNT[experience]
    assert len(set(data["abilities"])) == len(data["abilities"])
    assert set(data["abilities"]) <= set(TABLES[TYPES_TO_TABLE[ctype]])
    # every die went through the injected Dice and is recorded on the member
    assert data["rolls"] == [r.to_dict() for r in dice.log]
    d6 = [r for r in dice.log if r.sides == 6]
    assert [r.purpose for r in d6] == ["BD", "SK", "SP", "AG", "WP"]
    assert [r.total + 4 for r in d6] == [data["characteristics"][c] for c in CHARACTERISTICS]
    assert all(r.sides == 20 for r in dice.log[5:])
    report = evaluate(side({"key": "1", "name": "Rolled", "data": data}))
    assert report.findings == []


def test_rolling_uses_the_types_table_and_records_purposes():
    dice = Dice(Scripted(1, 2, 3, 4, 5, 11, 9))
    data = SYSTEM.generate_character(dice, "Indian", "Old Hand")
    assert data["characteristics"] == {"bd": 5, "sk": 6, "sp": 7, "ag": 8, "wp": 9}
    assert data["abilities"] == ["nobility", "loyal_sidekick"]
    assert [r.purpose for r in dice.log[5:]] == [
        "ability 1 (Indian table)",
        "ability 2 (Indian table)",
    ]


def test_a_repeated_ability_is_rerolled():
    dice = Dice(Scripted(6, 6, 6, 6, 6, 7, 7, 1, 7, 12))
    data = SYSTEM.generate_character(dice, "lawman", "veteran", name="Wyatt")
    assert data["characteristics"] == dict.fromkeys(CHARACTERISTICS, 10)
    assert data["abilities"] == ["leader", "block_and_parry", "shootist"]  # 7, 1, 12
    assert [r.purpose for r in dice.log[5:]] == [
        "Wyatt: ability 1 (Lawman table)",  # 7 Leader
        "Wyatt: ability 2 (Lawman table)",  # 7 Leader again
        "Wyatt: re-roll: repeat of Leader",  # 1 Block and Parry
        "Wyatt: ability 3 (Lawman table)",  # 7 Leader again
        "Wyatt: re-roll: repeat of Leader",  # 12 Shootist
    ]
    assert [r["rolled"] for r in data["rolls"]] == [[n] for n in (6, 6, 6, 6, 6, 7, 7, 1, 7, 12)]
    report = evaluate(side({"key": "1", "name": "Wyatt", "data": data}))
    assert report.findings == []
    notes = " ".join(report.members["1"].notes)
    assert "D20 7 Leader (repeat, re-rolled)" in notes and "BD 6+4" in notes


def test_a_soldier_range_repeats_too():
    dice = Dice(Scripted(3, 3, 3, 3, 3, 1, 4, 19))
    data = SYSTEM.generate_character(dice, "soldier", "old_hand")
    assert data["abilities"] == ["leader", "tactician"]


@pytest.mark.parametrize(("ctype", "experience"), [("cowboy", "veteran"), ("lawman", "legend")])
def test_rolling_an_unknown_type_or_experience_is_refused(ctype, experience):
    with pytest.raises(ValueError):
        SYSTEM.generate_character(Dice(random.Random(1)), ctype, experience)


def test_rolled_member_data_fits_the_schema():
    data = SYSTEM.generate_character(Dice(random.Random(3)), "gambler", "veteran")
    jsonschema.validate(data, SYSTEM.member_schema)


# --------------------------------------------------------------------------- figures, total


def test_a_posse_counts_its_figures():
    report = evaluate(
        side(
            character("1", "lawman", "veteran", ["leader", "cool", "tin_star"]),
            character("2", "lawman", "greenhorn", ["quick_draw"]),
            character("3", "gunfighter", "old_hand", ["shootist", "gimmick"]),
            trooper("4", count=4),
            rabble("5", count=6),
            rabble("6"),
        )
    )
    assert report.findings == []
    assert report.total == 3 + 4 + 6 + 1 == 14
    assert report.total_label == "Figures"
    assert report.limit is None
    assert report.total == sum(m.cost for m in report.members.values())
    gang = report.gang
    assert gang["by_experience"] == {"greenhorn": 1, "old_hand": 1, "veteran": 1}
    assert (gang["characters"], gang["troopers"], gang["rabble"]) == (3, 4, 7)
    assert gang["figures"] == 14
    facts = dict(gang["facts"])
    assert facts["Characters"] == "3"
    assert facts["Veterans"] == "1" and facts["Old Hands"] == "1" and facts["Greenhorns"] == "1"
    assert facts["Troopers"] == "4" and facts["Rabble"] == "7" and facts["Figures"] == "14"
    assert facts["Leaders (can rally)"] == "Character 1"


def test_a_limit_is_ignored():
    roster = side(trooper("1", count=40))
    roster["limit"] = 10
    report = evaluate(roster)
    assert report.findings == [] and report.total == 40 and report.limit is None


def test_loyal_sidekick_adds_a_trooper_like_figure():
    report = evaluate(
        side(character("1", "lawman", "old_hand", ["loyal_sidekick", "cool"], name="Wyatt"))
    )
    assert report.findings == []
    m = report.members["1"]
    assert m.cost == 2 and report.total == 2
    assert report.gang["sidekicks"] == 1
    assert dict(report.gang["facts"])["Loyal sidekicks"] == "1"
    sidekick = report.gang["figure_list"][1]
    assert sidekick["figure"] == "sidekick"
    assert dict(sidekick["stats"]) | {} == {
        "BD": "4",
        "SK": "4",
        "SP": "4",
        "AG": "6",
        "WP": "4",
        "Move": '6"',
        "Actions": "2",
    }
    assert any("never routs until Wyatt routs" in n for n in m.notes)
    assert "Loyal Sidekick" in m.summary


def test_a_characters_stat_line():
    m = evaluate(side(character("1", bd=6, sk=7, sp=8, ag=9, wp=10))).members["1"]
    assert m.stats == [
        ("BD", "6"),
        ("SK", "7"),
        ("SP", "8"),
        ("AG", "9"),
        ("WP", "10"),
        ("Move", '9"'),  # 1" per AG
        ("Actions", "2"),
    ]
    assert m.summary == "Character · Lawman · Greenhorn"
    assert m.cost == 1


def test_a_troopers_stat_line_is_the_fixed_profile():
    m = evaluate(side(trooper("1", count=3))).members["1"]
    assert dict(m.stats) == {
        "BD": "4",
        "SK": "4",
        "SP": "4",
        "AG": "6",
        "WP": "4",
        "Move": '6"',
        "Actions": "2",
    }
    assert m.cost == 3


def test_a_rabbles_stat_line():
    m = evaluate(side(rabble("1", count=5))).members["1"]
    assert dict(m.stats)["Move"] == '5"'
    assert dict(m.stats)["Actions"] == "1"
    assert dict(m.stats)["SK"] in (DASH, "-", "none")
    assert "BD" not in dict(m.stats)
    assert m.cost == 5


# --------------------------------------------------------------------------- modifiers


def stat(report: Report, key: str, label: str) -> str:
    return dict(report.members[key].stats)[label]


def test_drunk_as_a_skunk_is_minus_2_sk():
    report = evaluate(side(character("1", abilities=["drunk_as_a_skunk"], sk=8)))
    assert stat(report, "1", "SK") == "6"


def test_nobility_is_plus_6_wp_clamped_to_10_and_noted():
    report = evaluate(side(character("1", "indian", abilities=["nobility"], wp=7)))
    assert report.findings == []
    assert stat(report, "1", "WP") == "10"
    assert f"WP 10 (13 before the 1{DASH}10 limit)" in report.members["1"].notes


def test_nobility_below_the_limit_is_not_noted():
    report = evaluate(side(character("1", "indian", abilities=["nobility"], wp=3)))
    assert stat(report, "1", "WP") == "9"
    assert not any("before the" in n for n in report.members["1"].notes)


def test_old_timer():
    report = evaluate(side(character("1", abilities=["old_timer"], bd=7, sk=8, sp=9, ag=10, wp=5)))
    stats = dict(report.members["1"].stats)
    assert (stats["BD"], stats["SK"], stats["SP"], stats["AG"], stats["WP"]) == (
        "7",
        "6",
        "7",
        "8",
        "9",
    )
    assert stats["Move"] == '8"'


def test_white_hat_is_plus_2_to_each_and_clamps():
    report = evaluate(side(character("1", abilities=["white_hat"], bd=5, sk=9, sp=10, ag=8, wp=6)))
    stats = dict(report.members["1"].stats)
    assert [stats[k] for k in ("BD", "SK", "SP", "AG", "WP")] == ["7", "10", "10", "10", "8"]
    notes = report.members["1"].notes
    assert f"SK 10 (11 before the 1{DASH}10 limit)" in notes
    assert f"SP 10 (12 before the 1{DASH}10 limit)" in notes


def test_modifiers_add_up_before_the_clamp():
    report = evaluate(
        side(
            character("1", "lawman", "old_hand", ["old_timer", "white_hat"], ag=5, wp=8),
        )
    )
    assert stat(report, "1", "AG") == "5"  # 5 - 2 + 2
    assert stat(report, "1", "WP") == "10"  # 8 + 4 + 2 = 14
    assert f"WP 10 (14 before the 1{DASH}10 limit)" in report.members["1"].notes


def test_a_modifier_below_1_is_clamped_to_1():
    report = evaluate(
        side(character("1", "lawman", "old_hand", ["drunk_as_a_skunk", "old_timer"], sk=3))
    )
    assert stat(report, "1", "SK") == "1"
    assert f"SK 1 (-1 before the 1{DASH}10 limit)" in report.members["1"].notes


def test_the_characteristics_entered_are_kept_before_modifiers():
    report = evaluate(side(character("1", abilities=["white_hat"], bd=5)))
    assert report.members["1"].characteristics["bd"] == 5
    assert stat(report, "1", "BD") == "7"


# --------------------------------------------------------------------------- the rules


def test_no_figures():
    assert_flags(evaluate(side()), "gunfight.no_figures", ERROR, None)
    assert_flags(evaluate(None), "gunfight.no_figures", ERROR, None)


def test_one_figure_is_a_side():
    report = evaluate(side(rabble("1")))
    assert_clear(report, "gunfight.no_figures")
    assert report.findings == [] and report.total == 1


@pytest.mark.parametrize("figure", ["horse", "", "Deputy"])
def test_unknown_figure(figure):
    report = evaluate(side(rabble("1"), {"key": "2", "name": "Nell", "data": {"figure": figure}}))
    finding = assert_flags(report, "gunfight.unknown_figure", ERROR, "2")
    assert "Character, Trooper or Rabble" in finding.message
    assert report.members["2"].cost == 0


def test_a_missing_figure_is_unknown():
    report = evaluate(side({"key": "1", "name": "Nell", "data": {}}))
    finding = assert_flags(report, "gunfight.unknown_figure", ERROR, "1")
    assert finding.message.startswith("No figure type")


@pytest.mark.parametrize("figure", ["character", "Trooper", "RABBLE"])
def test_known_figures(figure):
    member = {"key": "1", "name": "A", "data": {"figure": figure}}
    assert_clear(evaluate(side(member)), "gunfight.unknown_figure")


@pytest.mark.parametrize("count", [0, -3, "many"])
def test_a_trooper_count_below_1_is_an_error(count):
    report = evaluate(side(rabble("1"), trooper("2", count=count)))
    finding = assert_flags(report, "gunfight.bad_count", ERROR, "2")
    assert "set count to 1 or more" in finding.message
    assert report.members["2"].cost == 0
    assert report.total == 1


def test_a_character_is_one_figure():
    member = character("1")
    member["data"]["count"] = 3
    report = evaluate(side(member))
    finding = assert_flags(report, "gunfight.bad_count", ERROR, "1")
    assert "count 3" in finding.message and "set count to 1" in finding.message
    assert report.total == 1


@pytest.mark.parametrize("count", [1, 4, 12])
def test_a_count_stands_for_that_many_figures(count):
    report = evaluate(side(trooper("1", count=count), rabble("2", count=count)))
    assert_clear(report, "gunfight.bad_count")
    assert report.total == 2 * count


def test_a_character_needs_a_name():
    report = evaluate(side(character("1", name="")))
    finding = assert_flags(report, "gunfight.character_unnamed", WARNING, "1")
    assert "name" in finding.message
    assert report.is_legal


def test_named_characters_and_nameless_troopers_are_fine():
    report = evaluate(side(character("1"), trooper("2"), rabble("3")))
    assert_clear(report, "gunfight.character_unnamed")


@pytest.mark.parametrize("ctype", ["cowboy", "", "Sheriff"])
def test_unknown_character_type(ctype):
    report = evaluate(side(character("1", ctype, abilities=["leader"])))
    finding = assert_flags(report, "gunfight.unknown_character_type", ERROR, "1")
    assert "Lawman" in finding.message and "Soldier" in finding.message


def test_a_troopers_type_is_optional_but_checked():
    report = evaluate(side(trooper("1", character_type="cavalry")))
    assert_flags(report, "gunfight.unknown_character_type", ERROR, "1")
    report = evaluate(side(trooper("1", character_type="soldier"), trooper("2")))
    assert report.findings == []


@pytest.mark.parametrize("ctype", list(TYPES_TO_TABLE))
def test_the_eight_character_types(ctype):
    report = evaluate(side(character("1", ctype)))
    assert_clear(report, "gunfight.unknown_character_type")
    assert report.findings == []


@pytest.mark.parametrize("experience", ["legend", "", "expert"])
def test_unknown_experience(experience):
    report = evaluate(side(character("1", experience=experience, abilities=["leader"])))
    finding = assert_flags(report, "gunfight.unknown_experience", ERROR, "1")
    assert "Greenhorn, Old Hand or Veteran" in finding.message
    assert_clear(report, "gunfight.ability_count")


@pytest.mark.parametrize("experience", ["greenhorn", "Old Hand", "old_hand", "veteran"])
def test_known_experience(experience):
    report = evaluate(side(character("1", experience=experience, abilities=None)))
    assert_clear(report, "gunfight.unknown_experience")


@pytest.mark.parametrize("value", [0, 11, -1, 15])
@pytest.mark.parametrize("characteristic", CHARACTERISTICS)
def test_characteristics_run_from_1_to_10(characteristic, value):
    report = evaluate(side(character("1", **{characteristic: value})))
    finding = assert_flags(report, "gunfight.characteristic_out_of_range", ERROR, "1")
    assert characteristic.upper() in finding.message and str(value) in finding.message


@pytest.mark.parametrize("value", [None, "seven", 7.5, [7]])
def test_a_missing_or_junk_characteristic_is_out_of_range(value):
    member = character("1")
    if value is None:
        del member["data"]["characteristics"]["ag"]
    else:
        member["data"]["characteristics"]["ag"] = value
    finding = assert_flags(
        evaluate(side(member)), "gunfight.characteristic_out_of_range", ERROR, "1"
    )
    assert "AG" in finding.message and "1 to 10" in finding.message


@pytest.mark.parametrize("value", [5, 7, 10])
def test_rollable_characteristics_are_fine(value):
    report = evaluate(side(character("1", **dict.fromkeys(CHARACTERISTICS, value))))
    assert_clear(report, "gunfight.characteristic_out_of_range")
    assert_clear(report, "gunfight.characteristic_outside_roll")
    assert report.findings == []


@pytest.mark.parametrize("value", [1, 4])
def test_an_entered_value_below_5_is_a_warning(value):
    report = evaluate(side(character("1", sk=value)))
    finding = assert_flags(report, "gunfight.characteristic_outside_roll", WARNING, "1")
    assert "SK" in finding.message and "5 to 10" in finding.message
    assert_clear(report, "gunfight.characteristic_out_of_range")
    assert report.is_legal


@pytest.mark.parametrize(("experience", "wanted"), list(ABILITY_COUNT.items()))
@pytest.mark.parametrize("have", [0, 1, 2, 3, 4])
def test_ability_count_matches_experience(experience, wanted, have):
    abilities = ["leader", "cool", "dead_eye", "tin_star"][:have]
    report = evaluate(side(character("1", "lawman", experience, abilities)))
    if have == wanted:
        assert_clear(report, "gunfight.ability_count")
        assert report.findings == []
    else:
        finding = assert_flags(report, "gunfight.ability_count", ERROR, "1")
        assert f"has {wanted} special abilit" in finding.message
        assert f"has {have}" in finding.message


def test_unknown_ability():
    report = evaluate(side(character("1", abilities=["jedi_mind_trick"])))
    finding = assert_flags(report, "gunfight.unknown_ability", ERROR, "1")
    assert "jedi_mind_trick" in finding.message and "Lawman table" in finding.message


def test_abilities_by_name_are_known():
    report = evaluate(
        side(character("1", "outsider", "old_hand", ["You killed my .....", "I've been hit worse"]))
    )
    assert_clear(report, "gunfight.unknown_ability")
    assert report.findings == []


@pytest.mark.parametrize(
    ("ctype", "ability"),
    [("lawman", "nobility"), ("indian", "white_hat"), ("soldier", "shootist")],
)
def test_an_ability_off_the_types_table_is_a_warning(ctype, ability):
    report = evaluate(side(character("1", ctype, abilities=[ability])))
    finding = assert_flags(report, "gunfight.ability_not_on_table", WARNING, "1")
    assert "table" in finding.message
    assert report.is_legal


def test_ambidextrous_is_on_no_table():
    for ctype in TYPES_TO_TABLE:
        report = evaluate(side(character("1", ctype, abilities=["ambidextrous"])))
        assert_flags(report, "gunfight.ability_not_on_table", WARNING, "1")


def test_an_off_table_modifier_still_applies():
    report = evaluate(side(character("1", "lawman", abilities=["nobility"], wp=5)))
    assert stat(report, "1", "WP") == "10"
    assert f"WP 10 (11 before the 1{DASH}10 limit)" in report.members["1"].notes


@pytest.mark.parametrize(("ctype", "table"), list(TYPES_TO_TABLE.items()))
def test_every_ability_on_the_types_table_is_fine(ctype, table):
    for ability in set(TABLES[table]):
        report = evaluate(side(character("1", ctype, abilities=[ability])))
        assert_clear(report, "gunfight.ability_not_on_table")


def test_a_duplicated_ability_is_an_error():
    report = evaluate(side(character("1", "lawman", "old_hand", ["leader", "leader"])))
    finding = assert_flags(report, "gunfight.duplicate_ability", ERROR, "1")
    assert "Leader" in finding.message and "re-rolled" in finding.message
    assert_clear(report, "gunfight.ability_count")


def test_a_duplicated_modifier_counts_once():
    report = evaluate(
        side(character("1", "lawman", "old_hand", ["drunk_as_a_skunk", "drunk_as_a_skunk"]))
    )
    assert stat(report, "1", "SK") == "5"


def test_different_abilities_are_not_duplicates():
    report = evaluate(side(character("1", "lawman", "old_hand", ["leader", "cool"])))
    assert_clear(report, "gunfight.duplicate_ability")


@pytest.mark.parametrize("make", [trooper, rabble])
def test_troopers_and_rabble_have_no_abilities(make):
    report = evaluate(side(make("1", abilities=["leader"])))
    finding = assert_flags(report, "gunfight.abilities_not_allowed", ERROR, "1")
    assert "no special abilities" in finding.message
    assert report.members["1"].abilities == []


def test_troopers_without_abilities_are_fine():
    report = evaluate(side(trooper("1"), rabble("2")))
    assert_clear(report, "gunfight.abilities_not_allowed")


@pytest.mark.parametrize(("characteristic", "value"), [("ag", 7), ("bd", 5), ("wp", 6)])
def test_a_troopers_profile_is_fixed(characteristic, value):
    report = evaluate(side(trooper("1", characteristics={**TROOPER, characteristic: value})))
    finding = assert_flags(report, "gunfight.trooper_profile", ERROR, "1")
    assert f"{characteristic.upper()} {value} (should be {TROOPER[characteristic]})" in (
        finding.message
    )
    assert dict(report.members["1"].stats)[characteristic.upper()] == str(TROOPER[characteristic])


def test_a_trooper_with_the_book_profile_or_none_is_fine():
    report = evaluate(side(trooper("1", characteristics=dict(TROOPER)), trooper("2")))
    assert_clear(report, "gunfight.trooper_profile")
    assert report.findings == []


def test_rabble_have_no_characteristics():
    report = evaluate(side(rabble("1", characteristics={"sk": 5})))
    finding = assert_flags(report, "gunfight.rabble_characteristics", WARNING, "1")
    assert "no SK" in finding.message
    assert report.is_legal


def test_rabble_without_characteristics_is_fine():
    report = evaluate(side(rabble("1", characteristics={})))
    assert_clear(report, "gunfight.rabble_characteristics")


def test_an_unknown_weapon_is_a_warning():
    laser = {"name": "Gatling gun", "point_blank": None, "normal": 24, "long": 48, "shots": 30}
    report = evaluate(side(character("1", weapons=[laser])))
    finding = assert_flags(report, "gunfight.unknown_weapon", WARNING, "1")
    assert "Gatling gun" in finding.message
    assert report.is_legal
    assert any(f'Gatling gun, {DASH} / 24" / 48"' in n for n in report.members["1"].notes)


@pytest.mark.parametrize("name", list(BOOK_WEAPONS))
def test_the_books_weapons_are_known(name):
    report = evaluate(side(character("1", weapons=[weapon(name)])))
    assert_clear(report, "gunfight.unknown_weapon")
    assert_clear(report, "gunfight.weapon_stats_differ")
    assert report.findings == []


@pytest.mark.parametrize("name", ["revolver", "PISTOL", "Knife", "Dynamite", "Rifle"])
def test_other_weapon_names_are_known(name):
    report = evaluate(side(trooper("1", weapons=[{"name": name}])))
    assert_clear(report, "gunfight.unknown_weapon")


def test_the_pistol_line_on_the_card():
    report = evaluate(side(character("1", weapons=[{"name": "Pistol"}])))
    assert 'Weapon: Pistol, 2" / 6" / 14", reload after 6 shots' in report.members["1"].notes


def test_weapon_stats_that_differ_from_the_book_are_a_warning():
    pistol = {**weapon("Pistol"), "normal": 8}
    report = evaluate(side(character("1", weapons=[pistol])))
    finding = assert_flags(report, "gunfight.weapon_stats_differ", WARNING, "1")
    assert "normal 8 (book: 6)" in finding.message
    assert report.members["1"].weapons[0].normal == 6


def test_weapon_stats_left_out_are_the_books():
    report = evaluate(side(character("1", weapons=[{"name": "Winchester rifle"}])))
    assert_clear(report, "gunfight.weapon_stats_differ")
    assert report.members["1"].weapons[0].shots == 15


def test_an_edited_rolled_character_no_longer_matches_its_dice():
    member = rolled(11, "outlaw", "old_hand")
    dice_bd = member["data"]["rolls"][0]["rolled"][0]
    member["data"]["characteristics"]["bd"] = 11 - dice_bd  # anything but dice_bd + 4
    report = evaluate(side(member))
    finding = assert_flags(report, "gunfight.rolls_mismatch", WARNING, "1")
    assert f"the D6 rolled {dice_bd} ({dice_bd} + 4 = {dice_bd + 4})" in finding.message
    assert 'set the source to "entered"' in finding.message


def test_a_rolled_character_with_swapped_abilities_no_longer_matches():
    member = rolled(12, "soldier", "veteran")
    first, second, *rest = member["data"]["abilities"]
    assert first != second  # a repeat is re-rolled, so a Veteran's three are distinct
    member["data"]["abilities"] = [second, first, *rest]
    assert_flags(evaluate(side(member)), "gunfight.rolls_mismatch", WARNING, "1")


def test_a_rolled_character_without_dice_does_not_match():
    member = character("1", source="rolled")
    finding = assert_flags(evaluate(side(member)), "gunfight.rolls_mismatch", WARNING, "1")
    assert "0 D6 rolls" in finding.message


def test_a_rolled_character_matches_its_dice():
    report = evaluate(side(rolled(5, "gunfighter", "veteran")))
    assert_clear(report, "gunfight.rolls_mismatch")
    assert report.findings == []


def test_an_entered_character_is_not_checked_against_dice():
    member = rolled(5, "gunfighter", "veteran")
    member["data"]["source"] = "entered"
    member["data"]["characteristics"]["bd"] = 5
    report = evaluate(side(member))
    assert_clear(report, "gunfight.rolls_mismatch")


def test_an_unknown_source_is_a_warning():
    report = evaluate(side(character("1", source="dreamt")))
    finding = assert_flags(report, "gunfight.unknown_source", WARNING, "1")
    assert "'dreamt'" in finding.message and "entered" in finding.message
    assert report.is_legal


@pytest.mark.parametrize("source", ["rolled", "entered", None])
def test_known_sources(source):
    member = rolled(8, "mexican", "greenhorn")
    if source is None:
        del member["data"]["source"]
    else:
        member["data"]["source"] = source
    report = evaluate(side(member))
    assert_clear(report, "gunfight.unknown_source")
    assert report.findings == []


# --------------------------------------------------------------------------- new members


@pytest.mark.parametrize("figure", ["trooper", "rabble"])
def test_new_troopers_and_rabble_are_legal(figure):
    data = SYSTEM.new_member(figure)
    jsonschema.validate(data, SYSTEM.member_schema)
    report = evaluate(side({"key": "1", "name": "", "data": data}))
    assert report.findings == [] and report.total == 1


def test_a_new_character_with_dice_is_rolled_and_legal():
    data = SYSTEM.new_member("character", "soldier", "veteran", dice=Dice(random.Random(2)))
    assert data["source"] == "rolled"
    report = evaluate(side({"key": "1", "name": "Sgt. Ryan", "data": data}))
    assert report.findings == []


def test_a_new_character_without_dice_asks_for_its_abilities():
    data = SYSTEM.new_member("character")
    jsonschema.validate(data, SYSTEM.member_schema)
    report = evaluate(side({"key": "1", "name": "Sam", "data": data}))
    assert report.codes() == ["gunfight.ability_count"]


def test_type_choices():
    assert [c for c, _ in SYSTEM.type_choices()] == ["character", "trooper", "rabble"]


# --------------------------------------------------------------------------- schemas


def test_the_schema_rejects_wrong_types_but_not_wrong_choices():
    validator = jsonschema.Draft202012Validator(SYSTEM.member_schema)
    good = character("1", "cowboy", "legend", ["jedi"], bd=15)["data"]
    assert not list(validator.iter_errors(good))  # wrong choices are findings
    bad = {**good, "characteristics": {"bd": "7"}}
    errors = list(validator.iter_errors(bad))
    assert errors and list(errors[0].absolute_path) == ["characteristics", "bd"]
    assert list(validator.iter_errors({**good, "name": "Bill"}))  # never in data
    assert list(validator.iter_errors({**good, "abilities": "leader"}))
    assert list(validator.iter_errors({**good, "weapons": [{"normal": 6}]}))


def test_the_gang_schema_is_an_empty_object():
    validator = jsonschema.Draft202012Validator(SYSTEM.gang_schema)
    assert not list(validator.iter_errors({}))
    assert list(validator.iter_errors([]))


# --------------------------------------------------------------------------- examples

EXPECTED_EXAMPLES = {
    "gunfight-legal-lawman-posse.json": (True, 13, []),
    "gunfight-legal-indian-war-party.json": (True, 8, []),
    "gunfight-illegal-reno-gang.json": (
        False,
        5,
        [
            "gunfight.characteristic_out_of_range",
            "gunfight.ability_not_on_table",
            "gunfight.duplicate_ability",
            "gunfight.unknown_weapon",
            "gunfight.unknown_character_type",
            "gunfight.character_unnamed",
            "gunfight.ability_count",
            "gunfight.abilities_not_allowed",
            "gunfight.trooper_profile",
            "gunfight.weapon_stats_differ",
            "gunfight.bad_count",
            "gunfight.unknown_figure",
        ],
    ),
}


def test_every_example_file_is_listed_here():
    assert {p.name for p in EXAMPLES.glob("gunfight-*.json")} == set(EXPECTED_EXAMPLES)


@pytest.mark.parametrize("filename", list(EXPECTED_EXAMPLES))
def test_example_files(filename):
    text = (EXAMPLES / filename).read_text("utf-8")
    roster = json.loads(text)
    assert text == json.dumps(roster, indent=2, ensure_ascii=False) + "\n"
    assert roster["format"] == "gangfight-roster" and roster["version"] == 1
    assert roster["system"] == "gunfight"
    assert [m["key"] for m in roster["members"]] == [
        str(i) for i in range(1, len(roster["members"]) + 1)
    ]
    jsonschema.validate(roster["gang"], SYSTEM.gang_schema)
    for m in roster["members"]:
        assert set(m) == {"key", "name", "data"}
        jsonschema.validate(m["data"], SYSTEM.member_schema)
    legal, total, codes = EXPECTED_EXAMPLES[filename]
    report = evaluate(roster)
    assert report.is_legal is legal
    assert report.codes() == codes
    assert report.total == total


def test_the_posse_marshal_is_the_roll_of_seed_309():
    roster = json.loads((EXAMPLES / "gunfight-legal-lawman-posse.json").read_text("utf-8"))
    marshal = roster["members"][0]
    again = SYSTEM.generate_character(
        Dice(random.Random(309)), "lawman", "veteran", name=marshal["name"]
    )
    assert {**marshal["data"], "weapons": []} == again
    # the ability D20 rolled 8 twice: Loyal Sidekick, then a re-roll
    assert marshal["data"]["abilities"] == ["loyal_sidekick", "leader", "tough_as_old_boots"]
    report = evaluate(roster)
    assert report.members["1"].cost == 2  # the Marshal and his sidekick
    assert dict(report.gang["facts"]) == {
        "Characters": "2",
        "Greenhorns": "1",
        "Veterans": "1",
        "Loyal sidekicks": "1",
        "Troopers": "4",
        "Rabble": "6",
        "Figures": "13",
        "Leaders (can rally)": "Marshal Caleb Stone",
    }


def test_the_war_party_chief_has_wp_10_from_nobility():
    roster = json.loads((EXAMPLES / "gunfight-legal-indian-war-party.json").read_text("utf-8"))
    report = evaluate(roster)
    assert dict(report.members["1"].stats)["WP"] == "10"
    assert f"WP 10 (13 before the 1{DASH}10 limit)" in report.members["1"].notes


# --------------------------------------------------------------------------- robustness

GARBAGE_ROSTERS = {
    "none": None,
    "a list": [],
    "a string": "posse",
    "empty dict": {},
    "members is a string": {"members": "Wyatt, Doc"},
    "members is a dict": {"members": {"1": {"figure": "character"}}},
    "members are not dicts": {"members": ["Wyatt", 5, None, [], 3.5]},
    "data is not a dict": {"members": [{"key": "1", "data": "character"}, {"key": "2"}]},
    "member fields flat (no data)": {"members": [{"key": "1", "figure": "trooper"}]},
    "wrong types everywhere": {
        "members": [
            {
                "key": 7,
                "name": {"a": 1},
                "data": {
                    "figure": ["character"],
                    "character_type": 3,
                    "experience": None,
                    "characteristics": [1, 2, 3],
                    "abilities": "leader",
                    "source": 5,
                    "rolls": "lots",
                    "weapons": "Pistol",
                    "count": "x",
                },
            }
        ]
    },
    "character junk": {
        "members": [
            {
                "key": True,
                "data": {
                    "figure": "character",
                    "characteristics": {"bd": "abc", "sk": 1.5, "sp": None, "ag": [], "wp": True},
                    "abilities": [None, 5, {"x": 1}, ["leader"], "leader"],
                    "source": "rolled",
                    "rolls": [None, {"dice": "D6", "rolled": "3"}, {"rolled": [1, 2]}],
                    "weapons": [None, 3, {"name": 5, "normal": "far"}, {"id": "pistol"}],
                },
            }
        ]
    },
    "huge numbers": {
        "members": [
            {"key": "1", "data": {"figure": "trooper", "count": 10**30}},
            {
                "key": "2",
                "data": {"figure": "character", "characteristics": {"bd": 10**30}, "count": 1},
            },
        ]
    },
    "rolled with impossible dice": {
        "members": [
            {
                "key": "1",
                "data": {
                    "figure": "character",
                    "character_type": "lawman",
                    "experience": "greenhorn",
                    "source": "rolled",
                    "rolls": [{"purpose": "x", "dice": "D20", "rolled": [99]}],
                },
            }
        ]
    },
    "duplicate keys": {"members": [{"key": "1"}, {"key": "1"}, {"key": "#2"}, {}]},
}


def assert_sane(report: Report) -> None:
    assert isinstance(report, Report)
    assert isinstance(report.total, int) and report.total >= 0
    assert report.total == sum(m.cost for m in report.members.values())
    assert all(f.code in gunfight.RULE_CODES for f in report.findings)
    assert all(f.member is None or f.member in report.members for f in report.findings)
    for m in report.members.values():
        assert isinstance(m.summary, str)
        assert all(isinstance(a, str) and isinstance(b, str) for a, b in m.stats)
        assert all(isinstance(n, str) for n in m.notes)
    assert all(isinstance(a, str) and isinstance(b, str) for a, b in report.gang["facts"])


@pytest.mark.parametrize("roster", GARBAGE_ROSTERS.values(), ids=GARBAGE_ROSTERS.keys())
def test_garbage_never_raises(roster):
    assert_sane(evaluate(roster))


def test_missing_and_duplicate_keys_get_positions():
    report = evaluate(GARBAGE_ROSTERS["duplicate keys"])
    # A key written in the file is kept; a fallback steps aside ("#2" is the third's own).
    assert list(report.members) == ["1", "#2-2", "#2", "#4"]


def test_members_without_data_are_unknown_figures():
    report = evaluate(GARBAGE_ROSTERS["member fields flat (no data)"])
    assert_flags(report, "gunfight.unknown_figure", ERROR, "1")
