"""Outlaws: Rivals (``rivals``): gang creation and the campaign helpers, as RULES.md digests them.

Every number below is copied from RULES.md (section ``rivals``) and the seed (003), not from
the engine's constants or its data file, so that a wrong constant or a wrong data entry
fails a test.

Helpers build rosters in the roster-file shape::

    gang(outlaw("1", "Red Jack", leader=True, toughness=1, handgun=3), outlaw("2", ...))

An outlaw's tiers default to 0 (the free tier of every row).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules import Report, Severity, get_system
from rules.dice import Dice
from rules.systems import rivals
from tests.rules.findings import assert_clear, assert_flags

ERROR = Severity.ERROR
WARNING = Severity.WARNING
SYSTEM = get_system("rivals")
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

ROWS = ("toughness", "handgun", "rifle", "shotgun", "brawl", "riding")
ROW_LABELS = {
    "toughness": "Toughness",
    "handgun": "Handgun",
    "rifle": "Rifle",
    "shotgun": "Shotgun",
    "brawl": "Brawl",
    "riding": "Riding",
}
# RULES.md: row -> [(name, starting actions or bonus, CCP cost), ...] by tier
TIERS: dict[str, list[tuple[str, int, int]]] = {
    "toughness": [("Weakling", 3, 0), ("Regular", 4, 1), ("Built like an outhouse!", 5, 4)],
    "handgun": [
        ("Make sure you are holding the right end!", 0, 0),
        ("Regular", 1, 1),
        ("Straight-shooter", 2, 2),
        ("Gunslinger", 3, 4),
    ],
    "rifle": [("Got the shakes!", 0, 0), ("Regular", 2, 1), ("Steady", 4, 2), ("Deadeye", 6, 4)],
    "shotgun": [
        ("Everyone duck!", 0, 0),
        ("Regular", 1, 1),
        ("Hunter", 2, 2),
        ("Shotgun Ace", 3, 4),
    ],
    "brawl": [("Run away!", 0, 0), ("Regular", 1, 1), ("Brawler", 2, 2), ("Prize Fighter", 3, 3)],
    "riding": [("Walker!", 0, 0), ("Regular", 1, 1), ("Horseman", 2, 2), ("Stunt Rider", 3, 3)],
}
TABLE_COST = {"A": 1, "B": 2, "C": 3}
SKILLS = {
    "A": {
        1: "Acrobatic",
        2: "Hard Hitter",
        3: "Fast",
        4: "Fast",
        5: "Knife-fighter",
        6: "Fast draw",
    },
    "B": {
        1: "Speed loader",
        2: "Shotgun Ace",
        3: "Ambidextrous",
        4: "Ambidextrous",
        5: "Quick Draw",
        6: "Shotgun Sling",
    },
    "C": {
        1: "Dodge",
        2: "Ambidextrous+",
        3: "Catch a break",
        4: "Catch a break",
        5: "Deadeye (Handgun)",
        6: "Deadeye (Rifle)",
    },
}
# A few words of each effect, from the seed.
EFFECT_WORDS = {
    "Acrobatic": "low object",
    "Hard Hitter": "2 Blows",
    "Fast": "2 squares",
    "Knife-fighter": "two wound counters",
    "Fast draw": "+1 to Handgun",
    "Speed loader": "2 actions",
    "Shotgun Ace": "one action less",
    "Ambidextrous": "either hand",
    "Quick Draw": "+2 to Handgun",
    "Shotgun Sling": "one hand",
    "Dodge": "discard",
    "Ambidextrous+": "two handguns in a Snapshot",
    "Catch a break": "re-rolled",
    "Deadeye (Handgun)": "handgun",
    "Deadeye (Rifle)": "rifle",
}
PACKS = {
    "A": (["Colt '41", "2\u00d7 Handgun reload", "Horse"], 10),
    "B": (["Smith & Wesson No.2", "2\u00d7 Handgun reload", "Knife", "Horse"], 12),
    "C": (["Winchester Carbine", "Rifle reload", "Horse"], 5),
    "D": (["Remington Shotgun", "8\u00d7 Shotgun reload", "Horse"], 5),
}


# --------------------------------------------------------------------------- builders


def skill(table: Any, roll: Any, source: Any = "rolled", name: Any = None) -> dict[str, Any]:
    record = {"table": table, "roll": roll, "source": source}
    if name is not None:
        record["skill"] = name
    return record


def outlaw(
    key: str,
    name: str | None = None,
    *,
    gender: Any = "male",
    hand: Any = "right",
    pack: Any = "A",
    special: Any = None,
    leader: Any = False,
    **tiers: Any,
) -> dict[str, Any]:
    extra = {k: tiers.pop(k) for k in ("drunk", "tuwa") if k in tiers}
    data = {
        "gender": gender,
        "hand": hand,
        "tiers": {row: tiers.get(row, 0) for row in ROWS},
        "special_skill": special,
        "pack": pack,
        "leader": leader,
        **extra,
    }
    return {"key": key, "name": f"Outlaw {key}" if name is None else name, "data": data}


def gang(*members: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    if name is None:
        leader = next((m for m in members if m["data"].get("leader") is True), None)
        name = f"{leader['name']}'s Gang" if leader else "The Gang"
    return {
        "format": "gangfight-roster",
        "version": 1,
        "system": "rivals",
        "name": name,
        "limit": 30,
        "gang": {},
        "members": list(members),
    }


def legal_gang(name: str = "Red Jack's Gang") -> dict[str, Any]:
    """Five outlaws spending exactly 30 CCP: 8 + 6 + 5 + 6 + 5."""
    return gang(
        # 1 + 4 + 0 + 0 + 1 + 1 = 7, Table A = 1: 8
        outlaw(
            "1",
            "Red Jack",
            leader=True,
            special=skill("A", 6, name="Fast draw"),
            toughness=1,
            handgun=3,
            brawl=1,
            riding=1,
        ),
        # 1 + 2 + 1 = 4, Table B = 2: 6
        outlaw(
            "2",
            "Sarah",
            gender="female",
            hand="left",
            pack="B",
            special=skill("B", 3),
            toughness=1,
            handgun=2,
            riding=1,
        ),
        # 1 + 2 + 2 = 5
        outlaw("3", "Jesse", pack="C", toughness=1, rifle=2, riding=2),
        # 1 + 2 + 1 + 1 = 5, Table A = 1: 6
        outlaw(
            "4",
            "Luke",
            pack="D",
            special=skill("A", 4, "entered"),
            toughness=1,
            shotgun=2,
            brawl=1,
            riding=1,
        ),
        # 4 + 1 = 5
        outlaw("5", "Clay", hand="left", toughness=2, riding=1),
        name=name,
    )


def replace(roster: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    members = [new if m["key"] == new["key"] else m for m in roster["members"]]
    assert any(m is new for m in members), f"no member {new['key']!r} to replace"
    return {**roster, "members": members}


def with_data(roster: dict[str, Any], key: str, **changes: Any) -> dict[str, Any]:
    """The roster with member ``key``'s data changed (a value of ... removes the field)."""
    member = next(m for m in roster["members"] if m["key"] == key)
    data = {**member["data"], **changes}
    data = {k: v for k, v in data.items() if v is not ...}
    return replace(roster, {**member, "data": data})


def with_tiers(roster: dict[str, Any], key: str, **tiers: Any) -> dict[str, Any]:
    member = next(m for m in roster["members"] if m["key"] == key)
    new = {**member["data"]["tiers"], **tiers}
    return with_data(roster, key, tiers={k: v for k, v in new.items() if v is not ...})


def with_extra(roster: dict[str, Any], *extra: dict[str, Any]) -> dict[str, Any]:
    return {**roster, "members": [*roster["members"], *extra]}


def without(roster: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {**roster, "members": [m for m in roster["members"] if m["key"] not in keys]}


def evaluate(roster: Any) -> Report:
    return SYSTEM.evaluate(roster)


# --------------------------------------------------------------------------- assertions


# --------------------------------------------------------------------------- the rule list


SOURCE = Path(__file__).read_text(encoding="utf-8")


def test_rule_codes_are_unique_and_namespaced():
    codes = [r.code for r in SYSTEM.rules]
    assert len(codes) == len(set(codes))
    assert all(re.fullmatch(r"rivals\.[a-z0-9_]+", code) for code in codes)
    assert all(r.severity in (ERROR, WARNING) for r in SYSTEM.rules)
    assert all(r.summary and r.source.startswith("seed 003") for r in SYSTEM.rules)


def test_the_documented_codes_are_exactly_the_codes_tested_here():
    flagged = set(re.findall(r'assert_flags\([^"]*?,\s*"(rivals\.[a-z0-9_]+)"', SOURCE))
    cleared = set(re.findall(r'assert_clear\([^"]*?,\s*"(rivals\.[a-z0-9_]+)"', SOURCE))
    documented = {r.code for r in SYSTEM.rules}
    assert flagged == documented
    assert cleared == documented


def test_the_table_c_decision_is_documented():
    rule = next(r for r in SYSTEM.rules if r.code == "rivals.unknown_skill_table")
    assert "Table C" in rule.decision
    assert any("Loafer" in d for d in SYSTEM.decisions)
    assert any("never take CCP back" in d for d in SYSTEM.decisions)


def test_system_interface():
    assert SYSTEM.id == "rivals"
    assert SYSTEM.total_label == "CCP"
    assert SYSTEM.seed == "003_c03a98c2ce9ed0ff.txt"
    assert SYSTEM.default_limit == 30
    assert SYSTEM.limit_presets == (30,)
    Draft202012Validator.check_schema(SYSTEM.member_schema)
    Draft202012Validator.check_schema(SYSTEM.gang_schema)


# --------------------------------------------------------------------------- a legal gang


def test_legal_gang_has_no_findings_at_all():
    report = evaluate(legal_gang())
    assert report.findings == []
    assert report.is_legal
    assert report.total == 8 + 6 + 5 + 6 + 5 == 30
    assert report.limit == 30
    assert [m.cost for m in report.members.values()] == [8, 6, 5, 6, 5]


def test_gang_facts():
    report = evaluate(legal_gang())
    gang_ = report.gang
    assert gang_["ccp_spent"] == 30
    assert gang_["ccp_left"] == 0
    assert gang_["ccp_lost"] == 0
    assert gang_["leader"] == "1"
    assert gang_["leader_name"] == "Red Jack"
    assert gang_["suggested_name"] == "Red Jack's Gang"
    assert gang_["outlaws"] == 5
    facts = dict(gang_["facts"])
    assert facts["CCP spent"] == "30 of 30"
    assert facts["CCP left (lost)"] == "0"
    assert facts["Leader"] == "Red Jack"
    assert facts["Suggested name"] == "Red Jack's Gang"
    assert all(isinstance(a, str) and isinstance(b, str) for a, b in gang_["facts"])


def test_total_is_the_sum_of_member_costs():
    report = evaluate(legal_gang())
    assert report.total == sum(m.cost for m in report.members.values())


def test_member_report_shape():
    m = evaluate(legal_gang()).members["1"]
    assert (m.key, m.name, m.position) == ("1", "Red Jack", 1)
    assert m.stats == [
        ("Actions", "4"),
        ("Handgun", "+3"),
        ("Rifle", "+0"),
        ("Shotgun", "+0"),
        ("Brawl", "+1"),
        ("Riding", "+1"),
    ]
    assert m.actions == 4
    assert m.bonuses == {"handgun": 3, "rifle": 0, "shotgun": 0, "brawl": 1, "riding": 1}
    assert "Leader" in m.summary and "Male" in m.summary and "Right" in m.summary
    assert "8 CCP" in m.summary
    assert not m.has_errors
    notes = " | ".join(m.notes)
    assert "Gunslinger" in notes
    assert "Fast draw" in notes and "+1 to Handgun" in notes
    assert "Colt '41" in notes and "$10" in notes


# --------------------------------------------------------------------------- tiers and costs


@pytest.mark.parametrize(
    "row, tier",
    [(row, tier) for row, tiers in TIERS.items() for tier in range(len(tiers))],
)
def test_every_tier_costs_as_in_the_table(row, tier):
    name, value, cost = TIERS[row][tier]
    others = {r: 0 for r in ROWS if r != row}
    roster = gang(outlaw("1", leader=True, **others, **{row: tier}))
    m = evaluate(roster).members["1"]
    assert m.cost == cost
    label = "Actions" if row == "toughness" else ROW_LABELS[row]
    assert dict(m.stats)[label] == (str(value) if row == "toughness" else f"+{value}")
    assert m.tiers[row].name == name
    assert_clear(evaluate(roster), "rivals.unknown_tier")


def test_the_dearest_tiers():
    assert TIERS["toughness"][2] == ("Built like an outhouse!", 5, 4)
    assert TIERS["brawl"][3][2] == TIERS["riding"][3][2] == 3
    roster = gang(outlaw("1", leader=True, toughness=2, brawl=3, riding=3))
    assert evaluate(roster).members["1"].cost == 4 + 3 + 3


def test_the_most_an_outlaw_can_cost():
    top = {"toughness": 2, "handgun": 3, "rifle": 3, "shotgun": 3, "brawl": 3, "riding": 3}
    roster = gang(outlaw("1", leader=True, special=skill("C", 1), **top))
    assert evaluate(roster).members["1"].cost == 4 + 4 + 4 + 4 + 3 + 3 + 3 == 25


def test_toughness_has_no_tier_3():
    report = evaluate(with_tiers(legal_gang(), "5", toughness=3))
    finding = assert_flags(report, "rivals.unknown_tier", ERROR, "5")
    assert "Toughness" in finding.message and "Built like an outhouse!" in finding.message
    assert report.members["5"].cost == 1  # the unknown tier costs nothing; Riding 1 does
    assert dict(report.members["5"].stats)["Actions"] == "?"


@pytest.mark.parametrize("value", [4, -1, 7, "three", True, [1], 2.5, {"tier": 1}])
def test_an_unknown_tier_is_an_error(value):
    report = evaluate(with_tiers(legal_gang(), "3", rifle=value))
    finding = assert_flags(report, "rivals.unknown_tier", ERROR, "3")
    assert "Rifle" in finding.message and "Deadeye" in finding.message


def test_known_tiers_are_clear():
    assert_clear(evaluate(legal_gang()), "rivals.unknown_tier")
    assert_clear(evaluate(legal_gang()), "rivals.tier_missing")


def test_an_integral_float_or_digit_string_tier_is_read():
    report = evaluate(with_tiers(legal_gang(), "3", rifle=2.0, riding="2"))
    assert_clear(report, "rivals.unknown_tier")
    assert report.members["3"].cost == 5


def test_a_missing_row_is_an_error():
    report = evaluate(with_tiers(legal_gang(), "3", riding=...))
    finding = assert_flags(report, "rivals.tier_missing", ERROR, "3")
    assert "Riding" in finding.message and "Stunt Rider" in finding.message
    assert report.members["3"].cost == 3


def test_no_tiers_at_all_is_six_missing_rows():
    report = evaluate(with_data(legal_gang(), "3", tiers="lots"))
    missing = [f for f in report.findings if f.code == "rivals.tier_missing"]
    assert [f.member for f in missing] == ["3"] * 6
    assert report.members["3"].cost == 0


# --------------------------------------------------------------------------- gang size


@pytest.mark.parametrize("count", [4, 5, 6])
def test_four_to_six_outlaws(count):
    members = [outlaw(str(i), leader=(i == 1), toughness=1) for i in range(1, count + 1)]
    report = evaluate(gang(*members))
    assert_clear(report, "rivals.too_few_outlaws")
    assert_clear(report, "rivals.too_many_outlaws")


def test_three_outlaws_are_too_few():
    report = evaluate(without(legal_gang(), "4", "5"))
    finding = assert_flags(report, "rivals.too_few_outlaws", ERROR, None)
    assert "3 outlaws" in finding.message and "1 more" in finding.message


def test_seven_outlaws_are_too_many():
    report = evaluate(with_extra(legal_gang(), outlaw("6", "Bob"), outlaw("7", "Mark")))
    finding = assert_flags(report, "rivals.too_many_outlaws", ERROR, None)
    assert "7 outlaws" in finding.message and "remove 1" in finding.message


# --------------------------------------------------------------------------- the 30 CCP


def test_exactly_30_ccp_is_fine():
    report = evaluate(legal_gang())
    assert_clear(report, "rivals.ccp_over_budget")
    assert_clear(report, "rivals.ccp_unspent")


def test_31_ccp_is_an_error():
    report = evaluate(with_tiers(legal_gang(), "3", shotgun=1))
    assert report.total == 31
    finding = assert_flags(report, "rivals.ccp_over_budget", ERROR, None)
    assert "31" in finding.message and "1 CCP" in finding.message


def test_the_roster_limit_does_not_change_the_budget():
    report = evaluate({**with_tiers(legal_gang(), "3", shotgun=1), "limit": 40})
    assert report.limit == 30
    assert_flags(report, "rivals.ccp_over_budget", ERROR, None)


def test_unspent_ccp_are_a_warning_saying_how_many_and_where():
    report = evaluate(with_tiers(legal_gang(), "5", riding=0))  # 29 CCP
    assert report.total == 29
    finding = assert_flags(report, "rivals.ccp_unspent", WARNING, None)
    assert "1 of the 30 CCP" in finding.message and "lost" in finding.message
    assert "Table A" in finding.message  # a skill table that fits
    assert report.is_legal
    assert report.gang["ccp_left"] == report.gang["ccp_lost"] == 1
    assert dict(report.gang["facts"])["CCP left (lost)"] == "1"


def test_unspent_ccp_suggest_a_tier_to_raise():
    roster = gang(*(outlaw(str(i), leader=(i == 1), special=skill("A", 1)) for i in range(1, 5)))
    finding = assert_flags(evaluate(roster), "rivals.ccp_unspent", WARNING, None)
    assert "26 of the 30" in finding.message
    assert "Toughness from Weakling to Regular" in finding.message


# --------------------------------------------------------------------------- the leader


def test_one_leader_is_right():
    report = evaluate(legal_gang())
    assert_clear(report, "rivals.no_leader")
    assert_clear(report, "rivals.too_many_leaders")


def test_no_leader_is_an_error():
    report = evaluate(with_data(legal_gang(), "1", leader=False))
    finding = assert_flags(report, "rivals.no_leader", ERROR, None)
    assert "leader" in finding.message
    assert report.gang["leader"] is None


@pytest.mark.parametrize("flag", ["yes", 1, "true", None])
def test_only_true_makes_a_leader(flag):
    report = evaluate(with_data(legal_gang(), "1", leader=flag))
    assert "rivals.no_leader" in report.codes()


def test_a_second_leader_is_flagged_not_the_first():
    report = evaluate(with_data(legal_gang(), "3", leader=True))
    finding = assert_flags(report, "rivals.too_many_leaders", ERROR, "3")
    assert "Jesse" in finding.message and "Red Jack" in finding.message
    assert report.findings_for("1") == []
    assert report.gang["leader"] == "1"


def test_leaving_out_the_leader_flag_means_not_the_leader():
    report = evaluate(with_data(legal_gang(), "2", leader=...))
    assert report.is_legal


# --------------------------------------------------------------------------- the gang's name


@pytest.mark.parametrize(
    "leader_name, expected",
    [("Red Jack", "Red Jack's Gang"), ("James", "James' Gang"), ("  Belle  Starr ", None)],
)
def test_suggested_gang_name(leader_name, expected):
    expected = expected or "Belle Starr's Gang"
    assert SYSTEM.suggested_gang_name(leader_name) == expected
    assert rivals.suggested_gang_name(leader_name) == expected


@pytest.mark.parametrize(
    "name", ["Red Jack's Gang", "red jack\u2019s gang", "The Jack Gang", "Reds of the Red River"]
)
def test_a_gang_named_after_its_leader(name):
    assert_clear(evaluate(legal_gang(name)), "rivals.gang_not_named_after_leader")


def test_a_gang_not_named_after_its_leader_is_a_warning():
    report = evaluate(legal_gang("The Wild Bunch"))
    finding = assert_flags(report, "rivals.gang_not_named_after_leader", WARNING, None)
    assert "The Wild Bunch" in finding.message and "Red Jack's Gang" in finding.message
    assert report.is_legal


def test_an_unnamed_gang_is_told_its_name():
    report = evaluate(legal_gang(""))
    finding = assert_flags(report, "rivals.gang_not_named_after_leader", WARNING, None)
    assert "Red Jack's Gang" in finding.message


def test_the_james_gang():
    roster = replace(legal_gang("James' Gang"), outlaw("1", "James", leader=True, toughness=1))
    assert_clear(evaluate(roster), "rivals.gang_not_named_after_leader")


def test_the_words_the_and_gang_do_not_name_a_leader():
    roster = replace(legal_gang("The Gang"), outlaw("1", "The Gang Kid", leader=True))
    report = evaluate(roster)
    finding = assert_flags(report, "rivals.gang_not_named_after_leader", WARNING, None)
    assert "The Gang Kid's Gang" in finding.message


# --------------------------------------------------------------------------- the poster


def test_named_outlaws_are_fine():
    assert_clear(evaluate(legal_gang()), "rivals.outlaw_unnamed")


def test_an_unnamed_outlaw_is_a_warning():
    report = evaluate(replace(legal_gang(), {**legal_gang()["members"][2], "name": " "}))
    finding = assert_flags(report, "rivals.outlaw_unnamed", WARNING, "3")
    assert finding.message == (
        "The outlaw at place 3 in the roster has no name: give them one for the Wanted Poster."
    )


def test_an_unnamed_outlaw_is_called_by_its_place_never_by_its_key():
    # In the app a member's key is its database id: a player never sees it.
    roster = legal_gang()
    roster["members"][1] = {**roster["members"][1], "key": "8817", "name": ""}
    report = evaluate(roster)
    finding = assert_flags(report, "rivals.outlaw_unnamed", WARNING, "8817")
    assert "place 2" in finding.message and "8817" not in finding.message
    assert report.members["8817"].display_name == "Outlaw 2"


@pytest.mark.parametrize(
    "gender, hand", [("male", "left"), ("female", "right"), ("Female", "LEFT")]
)
def test_gender_and_hand(gender, hand):
    report = evaluate(with_data(legal_gang(), "2", gender=gender, hand=hand))
    assert_clear(report, "rivals.no_gender")
    assert_clear(report, "rivals.unknown_gender")
    assert_clear(report, "rivals.no_hand")
    assert_clear(report, "rivals.unknown_hand")
    assert report.members["2"].hand == hand.lower()


@pytest.mark.parametrize("value", ["", "  ", ...])
def test_no_gender_is_an_error(value):
    report = evaluate(with_data(legal_gang(), "2", gender=value))
    finding = assert_flags(report, "rivals.no_gender", ERROR, "2")
    assert "male or female" in finding.message


@pytest.mark.parametrize("value", ["horse", 3, ["female"]])
def test_an_unknown_gender_is_an_error(value):
    report = evaluate(with_data(legal_gang(), "2", gender=value))
    finding = assert_flags(report, "rivals.unknown_gender", ERROR, "2")
    assert "male or female" in finding.message


@pytest.mark.parametrize("value", ["", ...])
def test_no_hand_is_an_error(value):
    report = evaluate(with_data(legal_gang(), "2", hand=value))
    finding = assert_flags(report, "rivals.no_hand", ERROR, "2")
    assert "left or right" in finding.message


@pytest.mark.parametrize("value", ["both", "ambidextrous", 1])
def test_an_unknown_hand_is_an_error(value):
    report = evaluate(with_data(legal_gang(), "2", hand=value))
    finding = assert_flags(report, "rivals.unknown_hand", ERROR, "2")
    assert "left or right" in finding.message


# --------------------------------------------------------------------------- special skills


@pytest.mark.parametrize(
    "table, roll", [(t, r) for t in ("A", "B", "C") for r in range(1, 7)], ids=str
)
def test_every_special_skill_result(table, roll):
    roster = replace(legal_gang(), outlaw("3", "Jesse", pack="C", special=skill(table, roll)))
    report = evaluate(roster)
    m = report.members["3"]
    assert m.cost == TABLE_COST[table]
    name = SKILLS[table][roll]
    assert m.special_skill["name"] == name
    assert EFFECT_WORDS[name].lower() in m.special_skill["effect"].lower()
    assert any(name in n and EFFECT_WORDS[name] in n for n in m.notes)
    assert report.findings_for("3") == []


def test_no_special_skill_costs_nothing():
    m = evaluate(legal_gang()).members["3"]
    assert m.special_skill is None
    assert m.cost == 5


@pytest.mark.parametrize("table", ["a", "Table B", " c "])
def test_table_names_are_read_loosely(table):
    report = evaluate(with_data(legal_gang(), "3", special_skill=skill(table, 2)))
    assert_clear(report, "rivals.unknown_skill_table")


@pytest.mark.parametrize("table", ["D", "", 3, None])
def test_an_unknown_table_is_an_error(table):
    report = evaluate(with_data(legal_gang(), "3", special_skill=skill(table, 2)))
    finding = assert_flags(report, "rivals.unknown_skill_table", ERROR, "3")
    assert "A (1 CCP), B (2 CCP), C (3 CCP)" in finding.message
    assert report.members["3"].cost == 5  # nothing paid for an unknown table


@pytest.mark.parametrize("value", ["Fast", 3, ["A", 3]])
def test_a_special_skill_that_is_not_a_record_is_an_error(value):
    report = evaluate(with_data(legal_gang(), "3", special_skill=value))
    assert_flags(report, "rivals.unknown_skill_table", ERROR, "3")


def test_the_roll_on_a_known_table_is_in_range():
    report = evaluate(with_data(legal_gang(), "3", special_skill=skill("C", 6)))
    assert_clear(report, "rivals.skill_roll_out_of_range")
    assert_clear(report, "rivals.unknown_skill_table")


@pytest.mark.parametrize("roll", [0, 7, -1, "six", None, 3.5])
def test_a_roll_outside_1_to_6_is_an_error(roll):
    report = evaluate(with_data(legal_gang(), "3", special_skill=skill("B", roll)))
    finding = assert_flags(report, "rivals.skill_roll_out_of_range", ERROR, "3")
    assert "1 to 6" in finding.message
    assert report.members["3"].cost == 5 + 2  # the table is still paid for


def test_a_recorded_skill_that_agrees_with_the_roll():
    for name in ("Fast", "fast", "Fast "):
        roster = with_data(legal_gang(), "3", special_skill=skill("A", 4, name=name))
        assert_clear(evaluate(roster), "rivals.skill_name_mismatch")
    roster = with_data(legal_gang(), "3", special_skill=skill("B", 2, name="Shotgun Ace (skill)"))
    assert_clear(evaluate(roster), "rivals.skill_name_mismatch")


def test_a_recorded_skill_that_disagrees_with_the_roll_is_an_error():
    roster = with_data(legal_gang(), "3", special_skill=skill("A", 5, name="Fast draw"))
    report = evaluate(roster)
    finding = assert_flags(report, "rivals.skill_name_mismatch", ERROR, "3")
    assert "Knife-fighter" in finding.message and "Fast draw" in finding.message
    assert report.members["3"].special_skill["name"] == "Knife-fighter"  # from the roll


def test_deadeye_handgun_is_not_deadeye_rifle():
    roster = with_data(legal_gang(), "3", special_skill=skill("C", 6, name="Deadeye (Handgun)"))
    assert "rivals.skill_name_mismatch" in evaluate(roster).codes()


def test_an_entered_roll_is_marked_but_legal():
    report = evaluate(legal_gang())
    luke = report.members["4"]
    assert luke.special_skill["source"] == "entered"
    assert any("entered" in n for n in luke.notes)
    assert report.findings_for("4") == []
    assert_clear(report, "rivals.unknown_skill_source")
    red_jack = report.members["1"]
    assert red_jack.special_skill["source"] == "rolled"
    assert not any("entered" in n for n in red_jack.notes)


@pytest.mark.parametrize("source", ["guessed", "", None, 6])
def test_an_unknown_source_is_an_error(source):
    report = evaluate(with_data(legal_gang(), "3", special_skill=skill("A", 1, source)))
    finding = assert_flags(report, "rivals.unknown_skill_source", ERROR, "3")
    assert "rolled" in finding.message and "entered" in finding.message


# --------------------------------------------------------------------------- rolling a skill


def test_rolling_a_special_skill_is_repeatable_and_logged():
    first = Dice(random.Random(3))
    second = Dice(random.Random(3))
    record = SYSTEM.roll_special_skill(first, "B")
    assert record == SYSTEM.roll_special_skill(second, "B")
    assert record["table"] == "B" and record["source"] == "rolled"
    assert 1 <= record["roll"] <= 6
    assert record["skill"] == SKILLS["B"][record["roll"]]
    assert len(first.log) == 1
    roll = first.log[0]
    assert roll.sides == 6 and roll.dice == (record["roll"],)
    assert "Table B" in roll.purpose


def test_every_roll_lands_on_its_table():
    dice = Dice(random.Random(1))
    seen = set()
    for _ in range(60):
        record = rivals.roll_special_skill(dice, "C")
        seen.add(record["roll"])
        roster = with_data(legal_gang(), "3", special_skill=record)
        report = evaluate(roster)
        assert report.findings_for("3") == []
        assert report.members["3"].special_skill["name"] == SKILLS["C"][record["roll"]]
    assert seen == {1, 2, 3, 4, 5, 6}
    assert len(dice.log) == 60


def test_rolling_on_an_unknown_table_raises_before_rolling():
    dice = Dice(random.Random(1))
    with pytest.raises(ValueError):
        SYSTEM.roll_special_skill(dice, "D")
    assert dice.log == []


# --------------------------------------------------------------------------- packs


@pytest.mark.parametrize("pack", ["A", "B", "C", "D"])
def test_every_pack_has_its_contents_and_cash(pack):
    contents, cash = PACKS[pack]
    report = evaluate(with_data(legal_gang(), "3", pack=pack))
    m = report.members["3"]
    assert m.equipment == contents
    assert m.cash == cash
    assert m.cost == 5  # packs are free
    assert_clear(report, "rivals.no_pack")
    assert_clear(report, "rivals.unknown_pack")


def test_gang_cash():
    assert evaluate(legal_gang()).gang["cash"] == 10 + 12 + 5 + 5 + 10


@pytest.mark.parametrize("value", ["", ...])
def test_no_pack_is_an_error(value):
    report = evaluate(with_data(legal_gang(), "3", pack=value))
    finding = assert_flags(report, "rivals.no_pack", ERROR, "3")
    assert "Winchester Carbine" in finding.message and "8\u00d7 Shotgun reload" in finding.message


@pytest.mark.parametrize("value", ["E", "AB", 1])
def test_an_unknown_pack_is_an_error(value):
    report = evaluate(with_data(legal_gang(), "3", pack=value))
    finding = assert_flags(report, "rivals.unknown_pack", ERROR, "3")
    assert "A (Colt '41" in finding.message


# --------------------------------------------------------------------------- optional rules


def test_no_optional_rules_by_default():
    assert_clear(evaluate(legal_gang()), "rivals.optional_rule")


def test_a_tuwa_brave_is_a_warning_with_the_brave_abilities():
    report = evaluate(with_data(legal_gang(), "3", tuwa=True))
    finding = assert_flags(report, "rivals.optional_rule", WARNING, "3")
    assert "Tuwa" in finding.message
    notes = " | ".join(report.members["3"].notes)
    for ability in ("Throw Tomahawk", "Throw Lance", "Quick Saddle-up", "Bow skill"):
        assert ability in notes
    assert "Horsemanship" in notes
    assert "Bow, War Lance, Tomahawk" in notes and "Henry rifle" in notes
    assert report.members["3"].cost == 5


def test_a_drunk_outlaw_is_a_warning_with_the_drunk_text():
    report = evaluate(with_data(legal_gang(), "3", drunk=True))
    finding = assert_flags(report, "rivals.optional_rule", WARNING, "3")
    assert "Drunk" in finding.message
    assert any(
        "additional 1 action" in n or "1 more action" in n for n in report.members["3"].notes
    )


# --------------------------------------------------------------------------- new members


def test_a_new_member_is_legal_and_free():
    data = SYSTEM.new_member()
    Draft202012Validator(SYSTEM.member_schema).validate(data)
    members = [{"key": "1", "name": "Red Jack", "data": SYSTEM.new_member(leader=True)}]
    members += [{"key": str(i), "name": f"O{i}", "data": SYSTEM.new_member()} for i in (2, 3, 4)]
    report = evaluate(gang(*members))
    assert report.total == 0
    assert report.is_legal
    assert report.codes() == ["rivals.ccp_unspent"]


# --------------------------------------------------------------------------- schema


def test_the_schema_rejects_wrong_types_with_the_path():
    validator = Draft202012Validator(SYSTEM.member_schema)
    data = legal_gang()["members"][0]["data"]
    assert not list(validator.iter_errors(data))
    bad = {**data, "tiers": {**data["tiers"], "rifle": "2"}}
    errors = list(validator.iter_errors(bad))
    assert [list(e.absolute_path) for e in errors] == [["tiers", "rifle"]]
    bad = {**data, "special_skill": {"table": "A", "roll": "3", "source": "rolled"}}
    assert list(validator.iter_errors(bad))
    assert list(validator.iter_errors({**data, "leader": "yes"}))
    assert list(validator.iter_errors({**data, "key": "1"}))


def test_the_schema_accepts_wrong_choices():
    """Unknown tiers, tables and packs are findings, not schema errors."""
    data = legal_gang()["members"][0]["data"]
    odd = {
        **data,
        "tiers": {**data["tiers"], "toughness": 3},
        "special_skill": skill("D", 9, "guessed", "Flying"),
        "pack": "E",
        "gender": "",
        "hand": "both",
    }
    assert not list(Draft202012Validator(SYSTEM.member_schema).iter_errors(odd))


# --------------------------------------------------------------------------- campaign keys

# Red Jack after a few encounters: Toughness raised to Built like an outhouse! (1 -> 4 CCP)
# and Rifle to Steady (0 -> 2 CCP), and a Table C skill bought (3 CCP): 8 CCP more than
# the 8 he was created with, all paid with CCP from reputation.
CAMPAIGN_KEYS = {
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
    "extra_skills": [skill("C", 1, name="Dodge")],
}


def campaign_gang(**changes: Any) -> dict[str, Any]:
    """The legal gang with Red Jack's current poster from a campaign (``changes`` on top;
    a value of ... removes the key)."""
    roster = with_tiers(legal_gang(), "1", toughness=2, rifle=2)
    return with_data(roster, "1", **{**CAMPAIGN_KEYS, **changes})


def test_a_campaign_outlaw_with_every_key_is_legal():
    report = evaluate(campaign_gang())
    assert report.findings == []
    jack = report.members["1"]
    # Tiers 4 + 4 + 2 + 0 + 1 + 1 = 12, Table A 1 + Table C 3: 16 in all; 8 from reputation.
    assert jack.full_cost == 16
    assert jack.creation_cost == jack.cost == 16 - 8 == 8
    assert report.total == 30  # the gang's creation total: still exactly the 30 CCP
    assert report.total == sum(m.cost for m in report.members.values())
    assert_clear(report, "rivals.ccp_over_budget")
    assert_clear(report, "rivals.ccp_spent_too_high")
    assert jack.actions == 5 and jack.bonuses["rifle"] == 4
    assert [s["name"] for s in jack.skills] == ["Fast draw", "Dodge"]
    assert jack.cash == 15
    assert jack.equipment == [
        "Navy Colt",
        "Winchester Rifle",
        "2\u00d7 Handgun reload",
        "Horse",
        "Gold pocket watch",  # looted from another gang: unknown, kept as it is
    ]
    notes = " | ".join(jack.notes)
    assert "CCP spent in the campaign: 8" in notes
    assert "Saved CCP: 2" in notes
    assert "Extra special skill 1 Dodge (Table C, 3 CCP" in notes
    assert "discard" in notes  # Dodge's effect
    assert "Colt '41" not in notes  # the pack's contents are replaced
    assert "$15" in notes


def test_the_raised_tiers_are_over_budget_unless_ccp_spent_covers_them():
    report = evaluate(campaign_gang(ccp_spent=...))
    finding = assert_flags(report, "rivals.ccp_over_budget", ERROR, None)
    assert "38" in finding.message and "8 CCP" in finding.message
    assert "CCP spent in the campaign" in finding.message  # the campaign's way to fix it
    assert report.members["1"].cost == report.members["1"].full_cost == 16
    report = evaluate(campaign_gang(ccp_spent=5))
    assert_flags(report, "rivals.ccp_over_budget", ERROR, None)
    assert report.total == 33


def test_a_new_gang_over_budget_is_not_told_about_campaign_ccp():
    report = evaluate(with_tiers(legal_gang(), "3", rifle=3))
    finding = assert_flags(report, "rivals.ccp_over_budget", ERROR, None)
    assert "campaign" not in finding.message


def test_ccp_spent_above_the_full_cost_is_an_error():
    report = evaluate(campaign_gang(ccp_spent=17))
    finding = assert_flags(report, "rivals.ccp_spent_too_high", ERROR, "1")
    assert "17" in finding.message and "16 CCP" in finding.message
    assert "to 16 or less" in finding.message
    assert report.members["1"].cost == 0  # never below nothing
    assert report.total == sum(m.cost for m in report.members.values())


def test_ccp_spent_equal_to_the_full_cost_is_fine():
    report = evaluate(campaign_gang(ccp_spent=16))
    assert_clear(report, "rivals.ccp_spent_too_high")
    assert report.members["1"].cost == 0


def test_an_extra_skill_counts_its_table_in_the_full_cost():
    report = evaluate(campaign_gang(extra_skills=[skill("C", 1), skill("B", 5)], ccp_spent=10))
    jack = report.members["1"]
    assert jack.full_cost == 12 + 1 + 3 + 2
    assert jack.cost == 8
    assert [s["name"] for s in jack.extra_skills] == ["Dodge", "Quick Draw"]
    assert report.findings == []


def test_an_extra_skill_is_checked_like_the_special_skill():
    report = evaluate(campaign_gang(extra_skills=[skill("C", 1), skill("D", 1)]))
    finding = assert_flags(report, "rivals.unknown_skill_table", ERROR, "1")
    assert "extra special skill 2" in finding.message
    assert "A (1 CCP), B (2 CCP), C (3 CCP)" in finding.message
    assert report.members["1"].full_cost == 16  # an unknown table costs nothing

    report = evaluate(campaign_gang(extra_skills=[skill("C", 7)]))
    finding = assert_flags(report, "rivals.skill_roll_out_of_range", ERROR, "1")
    assert "extra special skill 1" in finding.message and "1 to 6" in finding.message
    assert report.members["1"].full_cost == 16  # the table is paid before rolling

    report = evaluate(campaign_gang(extra_skills=[skill("C", 1, name="Fast")]))
    finding = assert_flags(report, "rivals.skill_name_mismatch", ERROR, "1")
    assert "extra special skill 1" in finding.message and "Dodge" in finding.message

    report = evaluate(campaign_gang(extra_skills=[skill("C", 1, source="guessed")]))
    finding = assert_flags(report, "rivals.unknown_skill_source", ERROR, "1")
    assert "extra special skill 1" in finding.message


# Seed 003, Step 7. Special Skill: "There are three special skills tables. A character's
# special skill is determined by randomly rolling on the chosen table. A character may roll
# only a single table." More skills come later, from the CCP that reputation earns
# ("Increasing Skills": "For each five reputation earned an outlaw character gains a
# Character Creation Point to spend on purchasing skills and abilities.").


def two_skills_in_30_ccp(**campaign: Any) -> dict[str, Any]:
    """The legal gang where Red Jack also has Dodge (Table C, 3 CCP) and Jesse is 3 CCP
    cheaper (Rifle 0, Riding 1): still exactly 30 CCP."""
    roster = with_data(legal_gang(), "1", extra_skills=[skill("C", 1)], **campaign)
    return with_tiers(roster, "3", rifle=0, riding=1)


def test_a_second_skill_with_no_campaign_ccp_is_an_error():
    """Issue 15, item 4: a second table paid from the 30 creation CCP passed before."""
    report = evaluate(two_skills_in_30_ccp())
    assert report.total == 30
    assert "rivals.ccp_over_budget" not in report.codes()
    finding = assert_flags(report, "rivals.too_many_skill_tables", ERROR, "1")
    assert "2 special skills (Fast draw on Table A and Dodge on Table C)" in finding.message
    assert "single table" in finding.message and "at least 1" in finding.message


def test_a_second_skill_paid_with_campaign_ccp_is_fine():
    assert_clear(evaluate(campaign_gang()), "rivals.too_many_skill_tables")  # 8 spent
    # Just enough: the cheaper table (A, 1 CCP) was bought in the campaign, whichever record
    # holds it (a campaign outlaw created without a skill keeps his first in special_skill).
    report = evaluate(two_skills_in_30_ccp(ccp_spent=1))
    assert_clear(report, "rivals.too_many_skill_tables")
    assert report.is_legal and report.total == 29


def test_three_skills_need_the_campaign_to_pay_for_two_tables():
    three = [skill("C", 1), skill("B", 5)]  # with Fast draw (A): 1 + 3 + 2 = 6, 3 at creation
    finding = assert_flags(
        evaluate(campaign_gang(extra_skills=three, ccp_spent=2)),
        "rivals.too_many_skill_tables",
        ERROR,
        "1",
    )
    assert "3 special skills" in finding.message and "at least 3" in finding.message
    report = evaluate(campaign_gang(extra_skills=three, ccp_spent=3))
    assert_clear(report, "rivals.too_many_skill_tables")


def test_one_skill_in_extra_skills_alone_is_one_table():
    roster = with_data(legal_gang(), "1", special_skill=None, extra_skills=[skill("A", 6)])
    assert_clear(evaluate(roster), "rivals.too_many_skill_tables")


@pytest.mark.parametrize("value", [None, "Dodge", 3])
def test_an_extra_skill_that_is_not_a_record_is_an_error(value):
    report = evaluate(campaign_gang(extra_skills=[value]))
    finding = assert_flags(report, "rivals.unknown_skill_table", ERROR, "1")
    assert "extra special skill 1" in finding.message


def test_an_outlaw_without_campaign_keys_is_unchanged():
    jack = evaluate(legal_gang()).members["1"]
    assert jack.cost == jack.creation_cost == jack.full_cost == 8
    assert (jack.saved_ccp, jack.ccp_spent, jack.owned, jack.extra_skills) == (None, None, None, [])
    assert jack.equipment == PACKS["A"][0] and jack.cash == PACKS["A"][1]
    assert not any("campaign" in note.lower() for note in jack.notes)


def test_an_empty_equipment_list_means_the_outlaw_owns_nothing():
    jack = evaluate(campaign_gang(equipment=[])).members["1"]
    assert jack.equipment == []
    assert any("Equipment (campaign): nothing" in note for note in jack.notes)


def test_negative_reputation_is_read():
    report = evaluate(campaign_gang(reputation=-5))
    assert report.findings == []


def test_the_schema_takes_the_campaign_keys():
    validator = Draft202012Validator(SYSTEM.member_schema)
    data = campaign_gang()["members"][0]["data"]
    assert not list(validator.iter_errors(data))
    assert not list(validator.iter_errors({**data, "reputation": -10}))
    assert not list(validator.iter_errors({**data, "ccp_spent": 99}))  # a finding, not a type


@pytest.mark.parametrize(
    "key, value, path",
    [
        ("equipment", "Colt", ["equipment"]),
        ("equipment", ["Colt", 3], ["equipment", 1]),
        ("equipment", ["  "], ["equipment", 0]),
        ("ccp", -1, ["ccp"]),
        ("ccp", "2", ["ccp"]),
        ("ccp_spent", -3, ["ccp_spent"]),
        ("ccp_spent", 2.5, ["ccp_spent"]),
        ("cash", -4, ["cash"]),
        ("reputation", "7", ["reputation"]),
        ("extra_skills", skill("C", 1), ["extra_skills"]),
        ("extra_skills", [skill("C", "1")], ["extra_skills", 0, "roll"]),
        ("extra_skills", [{"table": "C", "roll": 1}], ["extra_skills", 0]),
        ("extra_skills", [{**skill("C", 1), "x": 1}], ["extra_skills", 0]),
        ("status", "badly_wounded", []),
    ],
)  # fmt: skip
def test_the_schema_rejects_wrong_campaign_types_with_the_path(key, value, path):
    data = campaign_gang()["members"][0]["data"]
    errors = list(Draft202012Validator(SYSTEM.member_schema).iter_errors({**data, key: value}))
    assert [list(e.absolute_path) for e in errors] == [path]


# --------------------------------------------------------------------------- content


def test_content_tiers_match_rules_md():
    rows = {r["id"]: r for r in SYSTEM.content["rows"]}
    assert list(rows) == list(ROWS)
    for row, tiers in TIERS.items():
        shipped = rows[row]["tiers"]
        assert [t["tier"] for t in shipped] == list(range(len(tiers)))
        for t, (name, value, cost) in zip(shipped, tiers, strict=True):
            stat = t["actions"] if row == "toughness" else t["bonus"]
            assert (t["name"], stat, t["cost"]) == (name, value, cost)


def test_content_skill_tables():
    tables = SYSTEM.content["special_skill_tables"]
    assert {t: tables[t]["cost"] for t in tables} == TABLE_COST
    for t, results in SKILLS.items():
        by_roll = {roll: r["name"] for r in tables[t]["results"] for roll in r["rolls"]}
        assert by_roll == results
        assert all(r["effect"] for r in tables[t]["results"])


def test_content_price_list():
    prices = {(p["item"], p["quantity"]): p["price"] for p in SYSTEM.content["price_list"]}
    assert prices == {
        ("Derringer", 1): 8,
        ("S&W No. 2", 1): 18,
        ("Colt '41", 1): 20,
        ("Colt '45", 1): 25,
        ("Navy Colt", 1): 30,
        ("Handgun reload", 1): 1,
        ("Spencer Carbine", 1): 30,
        ("Winchester Carbine", 1): 30,
        ("Winchester Rifle", 1): 50,
        ("Sharps Buffalo", 1): 50,
        ("Rifle reload", 1): 2,
        ("Whitney", 1): 20,
        ("Remington", 1): 20,
        ("Shotgun reloads", 2): 1,
        ("Knife", 1): 3,
        ("Double holster", 1): 4,
    }
    assert all(p["what"] and p["kind"] for p in SYSTEM.content["price_list"])
    holster = next(p for p in SYSTEM.content["price_list"] if p["item"] == "Double holster")
    assert "two handguns" in holster["what"]


def test_content_packs():
    packs = SYSTEM.content["equipment_packs"]
    for pid, (contents, cash) in PACKS.items():
        assert packs[pid]["cash"] == cash
        shown = [
            f"{c['quantity']}\u00d7 {c['item']}" if c["quantity"] > 1 else c["item"]
            for c in packs[pid]["contents"]
        ]
        assert shown == contents


def test_content_tuwa_and_drunk():
    tuwa = SYSTEM.content["tuwa"]
    assert [w["name"] for w in tuwa["weapons"]] == ["Bow", "War Lance", "Tomahawk"]
    lance = tuwa["weapons"][1]
    assert lance["throw_range_squares"] == 3
    assert lance["wounds"] == {"Body": 1, "Head": 2}
    assert tuwa["weapons"][0]["hands"] == 2
    assert [a["name"] for a in tuwa["brave"]["abilities"]] == [
        "Throw Tomahawk",
        "Throw Lance",
        "Quick Saddle-up",
        "Bow skill",
        "Horsemanship",
    ]
    assert tuwa["favoured"]["name"] == "Henry rifle"
    assert "1 more action" in SYSTEM.content["drunk"]["text"]


def test_content_reputation_events():
    events = {e["id"]: e["value"] for e in SYSTEM.content["reputation_events"]}
    assert events == {
        "wound": None,
        "kill": None,
        "leave_board": -5,
        "win": 2,
        "decline_showdown": -5,
    }


# --------------------------------------------------------------------------- campaign


@pytest.mark.parametrize(
    "reputation, title, bonus",
    [
        (-5, "Loafer", 1),
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
        (200, "Most wanted", 6),
    ],
)
def test_notoriety(reputation, title, bonus):
    assert rivals.notoriety(reputation) == (title, bonus)


def test_the_book_example_wound_and_kill():
    # A Belly Wound costs James two actions: Sarah gains 2.
    assert rivals.reputation_for_wound(2) == 2
    # Sarah kills James, a Drifter (+2) with Regular toughness (4 actions): 4 + 2 = 6.
    drifter_bonus = rivals.notoriety(7)[1]
    assert drifter_bonus == 2
    assert rivals.reputation_for_kill(4, drifter_bonus) == 6
    assert rivals.reputation_for_kill(4, victim_reputation=7) == 6
    assert rivals.reputation_for_kill(3, victim_reputation=31) == 3 + 6


def test_reputation_penalties_and_winning():
    assert rivals.LEAVING_THE_BOARD == -5
    assert rivals.DECLINING_A_SHOWDOWN == -5
    assert rivals.reputation_for_win() == 2
    assert rivals.reputation_for_win(5) == 10


@pytest.mark.parametrize(
    "call",
    [
        lambda: rivals.reputation_for_wound(-1),
        lambda: rivals.reputation_for_kill(4),
        lambda: rivals.reputation_for_kill(4, 2, victim_reputation=7),
        lambda: rivals.notoriety("lots"),
        lambda: rivals.ccp_earned(0, None),
        lambda: rivals.encounter_location(7),
        lambda: rivals.death_result(0),
    ],
)
def test_campaign_helpers_refuse_nonsense(call):
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize(
    "previous_best, new_total, ccp",
    [
        (0, 4, 0),
        (0, 5, 1),
        (0, 12, 2),
        (4, 6, 1),
        (5, 9, 0),
        (9, 10, 1),
        (12, 7, 0),  # a penalty takes nothing back
        (12, 14, 0),  # 10 was passed already
        (12, 15, 1),
        (0, 31, 6),
        (0, -5, 0),
        (-5, 5, 1),
    ],
)
def test_ccp_earned(previous_best, new_total, ccp):
    assert rivals.ccp_earned(previous_best, new_total) == ccp


def test_ccp_earned_over_a_campaign_never_repeats_a_threshold():
    best, total, earned = 0, 0, 0
    for change in (6, -5, 4, 2, -5, 8, 1):
        total += change
        earned += rivals.ccp_earned(best, total)
        best = max(best, total)
    assert best == 11 and total == 11
    assert earned == 2  # 5 and 10, once each


@pytest.mark.parametrize(
    "roll, location",
    [
        (1, "centre_of_town"),
        (2, "centre_of_town"),
        (3, "centre_of_town"),
        (4, "edge_of_town"),
        (5, "edge_of_town"),
        (6, "homestead"),
    ],
)
def test_encounter_location_table(roll, location):
    result = rivals.encounter_location(roll)
    assert (result["roll"], result["id"]) == (roll, location)


@pytest.mark.parametrize(
    "roll, outcome, removed",
    [
        (1, "dead", True),
        (2, "dead", True),
        (3, "dead", True),
        (4, "badly_wounded", False),
        (5, "badly_wounded", False),
        (6, "playing_dead", False),
    ],
)
def test_death_table(roll, outcome, removed):
    result = rivals.death_result(roll)
    assert (result["id"], result["removed"], result["earns_reputation"]) == (
        outcome,
        removed,
        False,
    )


def test_location_and_death_rolls_are_repeatable_and_logged():
    for seed in range(5):
        a, b = Dice(random.Random(seed)), Dice(random.Random(seed))
        assert rivals.roll_encounter_location(a) == rivals.roll_encounter_location(b)
        assert rivals.roll_death(a, "James") == rivals.roll_death(b, "James")
        assert [r.purpose for r in a.log] == [
            "Rivals: encounter location",
            "Rivals: death roll for James",
        ]
        assert a.log[0].dice[0] == rivals.roll_encounter_location(Dice(random.Random(seed)))["roll"]


# --------------------------------------------------------------------------- examples


EXPECTED_EXAMPLES = {
    "rivals-legal-red-jacks-gang.json": (True, []),
    "rivals-legal-six-outlaws.json": (True, []),
    "rivals-illegal-three-outlaws-31-ccp.json": (
        False,
        [
            ("rivals.too_few_outlaws", None),
            ("rivals.ccp_over_budget", None),
            ("rivals.too_many_leaders", "2"),
            ("rivals.no_pack", "2"),
        ],
    ),
    "rivals-illegal-bad-choices.json": (
        False,
        [
            ("rivals.too_many_outlaws", None),
            ("rivals.ccp_unspent", None),
            ("rivals.no_leader", None),
            ("rivals.unknown_tier", "1"),
            ("rivals.unknown_skill_table", "1"),
            ("rivals.skill_roll_out_of_range", "2"),
            ("rivals.unknown_hand", "3"),
            ("rivals.skill_name_mismatch", "3"),
            ("rivals.outlaw_unnamed", "4"),
            ("rivals.unknown_pack", "4"),
            ("rivals.unknown_skill_source", "5"),
            ("rivals.optional_rule", "6"),
            ("rivals.no_gender", "7"),
        ],
    ),
}


def test_every_rivals_example_is_listed():
    assert {p.name for p in EXAMPLES.glob("rivals-*.json")} == set(EXPECTED_EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXPECTED_EXAMPLES))
def test_example_files(name):
    text = (EXAMPLES / name).read_text("utf-8")
    roster = json.loads(text)
    assert text == json.dumps(roster, indent=2, ensure_ascii=False) + "\n"
    assert roster["format"] == "gangfight-roster" and roster["system"] == "rivals"
    assert [m["key"] for m in roster["members"]] == [
        str(i) for i in range(1, len(roster["members"]) + 1)
    ]
    validator = Draft202012Validator(SYSTEM.member_schema)
    for m in roster["members"]:
        assert not list(validator.iter_errors(m["data"])), m["key"]
    legal, findings = EXPECTED_EXAMPLES[name]
    report = evaluate(roster)
    assert report.is_legal is legal
    assert [(f.code, f.member) for f in report.findings] == findings
    assert name.startswith("rivals-legal-" if legal else "rivals-illegal-")


def test_the_legal_examples_spend_exactly_30():
    for name in ("rivals-legal-red-jacks-gang.json", "rivals-legal-six-outlaws.json"):
        report = evaluate(json.loads((EXAMPLES / name).read_text("utf-8")))
        assert report.total == 30


def test_the_31_ccp_example_is_31():
    roster = json.loads((EXAMPLES / "rivals-illegal-three-outlaws-31-ccp.json").read_text())
    assert evaluate(roster).total == (4 + 4 + 4 + 3) + (1 + 2 + 4 + 3 + 1) + (1 + 2 + 1 + 1) == 31


# --------------------------------------------------------------------------- never raises


GARBAGE_ROSTERS = {
    "none": None,
    "a list": [],
    "a string": "gang",
    "empty dict": {},
    "members is a string": {"members": "Bill, Joe"},
    "members is a dict": {"members": {"1": {"data": {}}}},
    "members is None": {"members": None},
    "members are not dicts": {"members": ["Bill", 5, None, [], 3.5]},
    "empty member": {"members": [{}]},
    "data is a list": {"members": [{"key": "1", "data": [1, 2]}]},
    "data is a string": {"members": [{"key": "1", "data": "leader"}]},
    "tiers garbage": {
        "members": [
            {
                "key": "1",
                "data": {"tiers": {"toughness": "x", "handgun": None, "rifle": [], "brawl": {}}},
            }
        ]
    },
    "huge tier": {"members": [{"key": "1", "data": {"tiers": {"rifle": 10**30}}}]},
    "nan tier": {"members": [{"key": "1", "data": {"tiers": {"rifle": float("nan")}}}]},
    "skill garbage": {
        "members": [
            {
                "key": "1",
                "data": {"special_skill": {"table": ["A"], "roll": {}, "source": 3, "skill": 5}},
            }
        ]
    },
    "campaign garbage": {
        "members": [
            {
                "key": "1",
                "data": {
                    "ccp": "lots",
                    "ccp_spent": -4,
                    "cash": [],
                    "reputation": {},
                    "equipment": "Colt '41",
                    "extra_skills": {"table": "A"},
                },
            },
            {
                "key": "2",
                "data": {
                    "ccp_spent": 10**30,
                    "equipment": [None, 3, "", ["Knife"], "Knife"],
                    "extra_skills": [None, "A", {}, {"table": "B", "roll": "x"}],
                },
            },
        ]
    },
    "key and name not strings": {"members": [{"key": 7, "name": {"a": 1}, "data": {}}]},
    "duplicate keys": {"members": [{"key": "1", "data": {}}, {"key": "1", "data": {}}]},
    "name not a string": {"name": 5, "members": []},
    "limit not a number": {"limit": "thirty", "members": []},
}


@pytest.mark.parametrize("roster", GARBAGE_ROSTERS.values(), ids=GARBAGE_ROSTERS.keys())
def test_garbage_never_raises(roster):
    report = evaluate(roster)
    assert isinstance(report, Report)
    assert report.total == sum(m.cost for m in report.members.values())
    codes = {r.code for r in SYSTEM.rules}
    assert all(f.code in codes for f in report.findings)
    assert all(f.member is None or f.member in report.members for f in report.findings)
    for m in report.members.values():
        assert isinstance(m.summary, str) and isinstance(m.notes, list)
        assert all(isinstance(a, str) and isinstance(b, str) for a, b in m.stats)


@pytest.mark.parametrize("roster", [None, {}, {"members": "Bill"}, {"members": None}])
def test_garbage_without_members_is_an_empty_gang(roster):
    report = evaluate(roster)
    assert report.members == {}
    assert report.total == 0
    assert_flags(report, "rivals.too_few_outlaws", ERROR, None)
    assert_flags(report, "rivals.no_leader", ERROR, None)


def test_missing_and_duplicate_keys_become_positions():
    report = evaluate(GARBAGE_ROSTERS["duplicate keys"])
    assert list(report.members) == ["1", "#2"]
    report = evaluate({"members": ["Bill"]})
    assert list(report.members) == ["#1"]
    assert_flags(report, "rivals.no_pack", ERROR, "#1")


def test_a_fallback_key_never_collides_with_a_real_key():
    # Member 1's real key is "#2"; member 2 has no key, so its fallback "#2" is taken.
    members = [
        {"key": "#2", "name": "Red Jack", "data": SYSTEM.new_member(leader=True)},
        {"name": "Bill", "data": {**SYSTEM.new_member(), "special_skill": None}},
    ]
    members[1]["data"]["tiers"]["rifle"] = 3
    report = evaluate({"name": "Red Jack's Gang", "members": members})
    assert len(report.members) == 2
    assert report.total == sum(m.cost for m in report.members.values()) == 4
    assert report.members["#2"].name == "Red Jack"


def test_a_boolean_key_is_no_key():
    report = evaluate({"members": [{"key": True, "data": {}}]})
    assert list(report.members) == ["#1"]
