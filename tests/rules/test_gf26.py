"""Gangfight Core Rules 2.6 (``gf26``): party building, as RULES.md digests seed 001.

Expected numbers come from RULES.md (section ``gf26``) and the seed, not from the engine's
constants, so that a wrong constant in the engine fails a test.

Helpers build rosters in the roster file's shape::

    party(model("1", "hero", leader=True), model("2", "veteran", unit="Alpha"), ...)

A model gets the perks its troop type brings unless ``perks`` is given: non-stat perks, so
that its printed stat line is its profile's.
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
from rules.roster import read_roster, write_roster
from rules.systems import gf26
from tests.rules.findings import assert_clear, assert_flags

ERROR = Severity.ERROR
WARNING = Severity.WARNING
SYSTEM = get_system("gf26")
ROOT = Path(__file__).resolve().parents[2]

ATTRIBUTES = ("mov", "att", "mrk", "def", "iv", "wp", "arm", "en", "dam")
LABELS = ("MOV", "ATT", "MRK", "DEF", "IV", "WP", "ARM", "EN", "DAM")
PERK_COUNT = {"regular": 1, "veteran": 2, "hero": 3}
STAT_PERKS = {
    "fast": "MOV",
    "natural_born_killer": "ATT",
    "marksman": "MRK",
    "lightning_reflexes": "IV",
    "stubborn": "WP",
    "true_grit": "EN",
}
CORE_PERKS = (
    *STAT_PERKS,
    "healer",
    "agile_riposte",
    "sidestep",
    "dash",
    "hard_target",
    "artful_dodger",
    "athletics",
    "counter_strike",
    "bull_true",
    "fearless",
    "target_shooter",
    "power_shot",
    "finesse_shot",
    "vengeance",
    "executioner",
    "solid",
    "large_and_in_charge",
)
# size -> (smallest base mm, largest base mm, threat inches, wounds per melee hit)
SIZES = {
    "small": (20, 25, 0.5, 1),
    "medium": (20, 32, 1, 1),
    "large": (40, 60, 2, 2),
    "huge": (75, 120, 3, 4),
}
PLAIN_PERKS = ("healer", "dash", "athletics")  # no effect on the profile
BASE_STATS = {"mov": 4, "att": 3, "mrk": 3, "def": 4, "iv": 3, "wp": 3, "arm": 4, "en": 4, "dam": 4}
BASE_POINTS = {"regular": 40, "veteran": 60, "hero": 100}


# --------------------------------------------------------------------------- builders


def profile(
    troop_type: str = "regular",
    size: str = "medium",
    *,
    points: int | None = None,
    equipment: list[dict[str, Any]] | tuple = (),
    name: str = "Test Profile",
    **stats: int,
) -> dict[str, Any]:
    return {
        "name": name,
        "troop_type": troop_type,
        "size": size,
        **BASE_STATS,
        **stats,
        "points": BASE_POINTS.get(troop_type, 50) if points is None else points,
        "equipment": list(equipment),
    }


def item(name: str, points: int, notes: str = "") -> dict[str, Any]:
    return {"name": name, "points": points, "notes": notes}


def model(
    key: str,
    troop_type: str = "regular",
    perks: list[str] | None = None,
    *,
    name: str | None = None,
    leader: bool = False,
    unit: str | None = None,
    unit_leader: bool | None = None,
    size: str = "medium",
    points: int | None = None,
    equipment: list[dict[str, Any]] | tuple = (),
    profile_name: str = "Test Profile",
    **stats: int,
) -> dict[str, Any]:
    if perks is None:
        perks = list(PLAIN_PERKS[: PERK_COUNT.get(troop_type, 1)])
    data: dict[str, Any] = {
        "profile": profile(
            troop_type, size, points=points, equipment=equipment, name=profile_name, **stats
        ),
        "perks": perks,
        "leader": leader,
    }
    if unit is not None:
        data["unit"] = unit
    if unit_leader is not None:
        data["unit_leader"] = unit_leader
    return {"key": key, "name": f"Model {key}" if name is None else name, "data": data}


def hero(key: str = "H", perks: list[str] | None = None, **kwargs: Any) -> dict[str, Any]:
    return model(key, "hero", perks, **kwargs)


def party(
    *members: dict[str, Any], limit: int | None = None, gang: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "format": "gangfight-roster",
        "version": 1,
        "system": "gf26",
        "name": "The Iron Party",
        "limit": limit,
        "gang": gang or {},
        "members": list(members),
    }


def legal_party(limit: int | None = 500) -> dict[str, Any]:
    """A Hero Party Leader, a unit of two Veterans and two Regulars: 300 points."""
    return party(
        hero("1", leader=True),
        model("2", "veteran", unit="Alpha"),
        model("3", "veteran", unit="Alpha"),
        model("4"),
        model("5"),
        limit=limit,
    )


LEGAL_PARTY_POINTS = 100 + 60 + 60 + 40 + 40


def replace(roster: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    members = [new if m["key"] == new["key"] else m for m in roster["members"]]
    assert any(m is new for m in members), f"no member {new['key']!r} to replace"
    return {**roster, "members": members}


def with_extra(roster: dict[str, Any], *extra: dict[str, Any]) -> dict[str, Any]:
    return {**roster, "members": [*roster["members"], *extra]}


def evaluate(roster: Any) -> Report:
    return SYSTEM.evaluate(roster)


def member_report(roster: dict[str, Any], key: str):
    return evaluate(roster).members[key]


def stat(report_member: Any, label: str) -> int:
    return int(dict(report_member.stats)[label])


# --------------------------------------------------------------------------- assertions


# --------------------------------------------------------------------------- the rule list

SOURCE = Path(__file__).read_text(encoding="utf-8")


def test_rule_codes_are_unique_and_namespaced():
    codes = [r.code for r in SYSTEM.rules]
    assert len(codes) == len(set(codes))
    assert all(re.fullmatch(r"gf26\.[a-z_]+", code) for code in codes)
    assert all(r.severity in (ERROR, WARNING) for r in SYSTEM.rules)
    assert all(r.summary and r.source.startswith("seed 001") for r in SYSTEM.rules)


@pytest.mark.parametrize("rule", SYSTEM.rules, ids=lambda r: r.code)
def test_every_rule_has_a_legal_and_an_illegal_case_here(rule):
    quoted = f'"{rule.code}"'
    flagged = re.search(r"assert_flags\(\s*[^,\"]+,\s*" + re.escape(quoted), SOURCE)
    cleared = re.search(r"assert_clear\(\s*[^,\"]+,\s*" + re.escape(quoted), SOURCE)
    assert flagged, f"no illegal case (assert_flags) for {rule.code}"
    assert cleared, f"no legal case (assert_clear) for {rule.code}"


def test_the_documented_codes_are_exactly_the_tested_codes():
    tested = set(re.findall(r'assert_flags\(\s*[^,"]+,\s*"(gf26\.[a-z_]+)"', SOURCE))
    assert {r.code for r in SYSTEM.rules} == tested


def test_the_system_interface():
    assert SYSTEM.id == "gf26"
    assert SYSTEM.name == "Gangfight Core Rules 2.6"
    assert SYSTEM.short_name == "Gangfight 2.6"
    assert SYSTEM.total_label == "Points"
    assert SYSTEM.seed == "001_9a9f6354e78230fb.txt"
    assert SYSTEM.limit_presets == (500, 1000)
    assert SYSTEM.default_limit == 1000
    assert SYSTEM.decisions and all(isinstance(d, str) and d for d in SYSTEM.decisions)
    assert {r.code for r in SYSTEM.rules if r.decision} >= {
        "gf26.too_few_perks",
        "gf26.huge_already",
    }


# --------------------------------------------------------------------------- a legal party


def test_legal_party_has_no_findings_at_all():
    report = evaluate(legal_party())
    assert report.findings == []
    assert report.is_legal
    assert report.total == LEGAL_PARTY_POINTS == 300
    assert report.gang["counts"] == {"regular": 2, "veteran": 2, "hero": 1}
    assert report.gang["leader"] == "1"
    assert report.system == "gf26" and report.total_label == "Points" and report.limit == 500


def test_legal_party_facts():
    facts = dict(evaluate(legal_party()).gang["facts"])
    assert facts["Points"] == "300 / 500"
    assert facts["Party Leader"] == "Model 1"
    assert (facts["Heroes"], facts["Veterans"], facts["Regulars"]) == ("1", "2", "2")
    assert facts["Unit Alpha"] == "Model 2, Model 3: 3 AP"
    # Hero 3 + unit Alpha 3 + two Regulars 3 each
    assert facts["Action Points per turn"] == "12"
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in facts.items())


def test_member_reports_have_the_interface():
    report = evaluate(legal_party())
    for position, (key, m) in enumerate(report.members.items(), start=1):
        assert m.key == key and m.position == position and m.name == f"Model {key}"
        assert isinstance(m.cost, int) and isinstance(m.summary, str) and m.summary
        assert [label for label, _ in m.stats] == list(LABELS)
        assert all(isinstance(n, str) for n in m.notes)
        assert m.findings == [] and not m.has_errors
    assert report.members["1"].summary == "Hero · Test Profile · Medium · Party Leader"
    assert report.members["2"].summary == "Veteran · Test Profile · Medium · Unit Alpha (leader)"


# --------------------------------------------------------------------------- points


def test_a_models_cost_is_its_profile_plus_its_equipment():
    roster = replace(
        legal_party(),
        hero("1", leader=True, points=110, equipment=[item("Sword", 5), item("Shield", 5)]),
    )
    report = evaluate(roster)
    assert report.members["1"].cost == 120
    assert report.total == LEGAL_PARTY_POINTS + 20


def test_equipment_bought_for_the_model_counts_too():
    roster = replace(
        legal_party(), hero("1", leader=True, points=110, equipment=[item("Sword", 5)])
    )
    roster["members"][0]["data"]["equipment"] = [item("Healing potion", 15, "one use")]
    m = evaluate(roster).members["1"]
    assert m.cost == 130
    assert "Healing potion (15 pts): one use" in m.notes


def test_perks_cost_nothing():
    plain = member_report(party(hero("1", leader=True)), "1")
    stat_perks = member_report(
        party(hero("1", ["fast", "stubborn", "true_grit"], leader=True)), "1"
    )
    assert plain.cost == stat_perks.cost == 100


def test_points_over_the_limit_is_an_error():
    roster = with_extra(legal_party(limit=500), model("6", points=201))
    finding = assert_flags(evaluate(roster), "gf26.points_over_limit", ERROR, None)
    assert "501" in finding.message and "500" in finding.message and " 1 " in finding.message


def test_points_equal_to_the_limit_are_fine():
    roster = with_extra(legal_party(limit=500), model("6", points=200))
    report = evaluate(roster)
    assert report.total == 500
    assert_clear(report, "gf26.points_over_limit")


def test_equipment_can_push_the_party_over_the_limit():
    roster = with_extra(legal_party(limit=500), model("6", points=190, equipment=[item("Bow", 15)]))
    assert_flags(evaluate(roster), "gf26.points_over_limit", ERROR, None)


@pytest.mark.parametrize("limit", [500, 1000])
def test_the_books_two_sizes(limit):
    under = with_extra(legal_party(limit=limit), model("6", points=limit - LEGAL_PARTY_POINTS))
    over = with_extra(legal_party(limit=limit), model("6", points=limit - LEGAL_PARTY_POINTS + 1))
    assert_clear(evaluate(under), "gf26.points_over_limit")
    assert_flags(evaluate(over), "gf26.points_over_limit", ERROR, None)


def test_no_limit_means_no_points_check():
    roster = with_extra(legal_party(limit=None), model("6", points=5000))
    report = evaluate(roster)
    assert report.limit is None
    assert_clear(report, "gf26.points_over_limit")
    assert dict(report.gang["facts"])["Points"] == "5300 (no limit)"


def test_a_negative_profile_cost_is_an_error_and_counts_as_0():
    roster = with_extra(legal_party(), model("6", points=-50))
    report = evaluate(roster)
    finding = assert_flags(report, "gf26.negative_points", ERROR, "6")
    assert "-50" in finding.message
    assert report.total == LEGAL_PARTY_POINTS


def test_negative_equipment_cost_is_an_error():
    roster = with_extra(legal_party(), model("6", equipment=[item("Cursed Coin", -10)]))
    finding = assert_flags(evaluate(roster), "gf26.negative_points", ERROR, "6")
    assert "Cursed Coin" in finding.message


def test_zero_cost_equipment_is_fine():
    roster = with_extra(legal_party(), model("6", equipment=[item("Torch", 0)]))
    assert_clear(evaluate(roster), "gf26.negative_points")


def test_a_profile_costing_nothing_is_a_warning():
    roster = with_extra(legal_party(), model("6", points=0))
    report = evaluate(roster)
    finding = assert_flags(report, "gf26.no_points_cost", WARNING, "6")
    assert "0 points" in finding.message
    assert report.is_legal
    assert_clear(evaluate(legal_party()), "gf26.no_points_cost")


# --------------------------------------------------------------------------- heroes, leader


def test_a_party_without_a_hero_is_illegal():
    roster = party(model("1", leader=False), model("2", "veteran"))
    report = evaluate(roster)
    assert "add a Hero" in assert_flags(report, "gf26.no_hero", ERROR, None).message
    assert_flags(report, "gf26.no_leader", ERROR, None)


def test_one_hero_is_enough():
    assert_clear(evaluate(legal_party()), "gf26.no_hero")


def test_an_empty_party_has_no_hero_and_no_leader():
    report = evaluate(party())
    assert report.codes() == ["gf26.no_hero", "gf26.no_leader"]
    assert report.total == 0


def test_a_hero_not_marked_as_leader_is_not_enough():
    roster = replace(legal_party(), hero("1", name="Aldric", leader=False))
    finding = assert_flags(evaluate(roster), "gf26.no_leader", ERROR, None)
    assert "Aldric" in finding.message
    assert_clear(evaluate(roster), "gf26.no_hero")


def test_one_party_leader_is_right():
    report = evaluate(legal_party())
    assert_clear(report, "gf26.no_leader")
    assert_clear(report, "gf26.too_many_leaders")
    assert report.members["1"].is_party_leader


def test_a_second_party_leader_is_flagged_not_the_first():
    roster = with_extra(legal_party(), hero("6", name="Bren", leader=True))
    finding = assert_flags(evaluate(roster), "gf26.too_many_leaders", ERROR, "6")
    assert "Bren" in finding.message and "Model 1" in finding.message
    assert evaluate(roster).gang["leader"] == "1"


def test_an_unnamed_model_is_named_by_its_place_never_by_its_key():
    """Issue 14: findings never show internal keys; the roster numbers its models."""
    roster = party(
        hero("k-17", name="", leader=True),
        hero("k-18", name="Bren", leader=True),
        model("k-19", "veteran", name="", unit="Alpha"),
        model("k-20", "veteran", name="Cole", unit="Alpha", unit_leader=True),
        model("k-21", "regular", name="Dan", unit="Alpha", unit_leader=True),
    )
    report = evaluate(roster)
    second = assert_flags(report, "gf26.too_many_leaders", ERROR, "k-18")
    assert "(unnamed model 1)" in second.message and "k-17" not in second.message
    assert not any("k-" in f.message for f in report.findings), report.findings
    sheet = SYSTEM.print_sheet(roster, report)
    assert sheet["units"][0]["members"] == ["unnamed model 3", "Cole", "Dan"]


def test_each_extra_party_leader_is_flagged():
    roster = with_extra(legal_party(), hero("6", leader=True), hero("7", leader=True))
    found = [f for f in evaluate(roster).findings if f.code == "gf26.too_many_leaders"]
    assert [f.member for f in found] == ["6", "7"]


def test_a_veteran_party_leader_is_an_error():
    roster = replace(legal_party(), model("2", "veteran", leader=True, unit="Alpha"))
    roster = replace(roster, hero("1", leader=False))
    report = evaluate(roster)
    finding = assert_flags(report, "gf26.leader_not_hero", ERROR, "2")
    assert "Veteran" in finding.message
    assert_clear(report, "gf26.no_leader")


def test_a_regular_party_leader_is_an_error():
    roster = party(hero("1"), model("2", leader=True))
    assert_flags(evaluate(roster), "gf26.leader_not_hero", ERROR, "2")


def test_a_hero_party_leader_is_fine():
    assert_clear(evaluate(legal_party()), "gf26.leader_not_hero")


def test_the_party_leader_note_uses_its_wp_after_stubborn():
    roster = replace(legal_party(), hero("1", ["stubborn", "healer", "dash"], leader=True, wp=4))
    notes = " ".join(member_report(roster, "1").notes)
    assert 'within 12"' in notes and "WP (5)" in notes


# --------------------------------------------------------------------------- troop types, perks


@pytest.mark.parametrize("troop_type", ["regular", "veteran", "hero"])
def test_known_troop_types(troop_type):
    report = evaluate(with_extra(legal_party(), model("6", troop_type)))
    assert_clear(report, "gf26.unknown_troop_type")


@pytest.mark.parametrize("troop_type", ["champion", "", "Heroic"])
def test_unknown_troop_type(troop_type):
    report = evaluate(with_extra(legal_party(), model("6", troop_type, perks=["healer"])))
    finding = assert_flags(report, "gf26.unknown_troop_type", ERROR, "6")
    assert "Regular, Veteran or Hero" in finding.message


def test_troop_types_are_read_regardless_of_case():
    report = evaluate(with_extra(legal_party(), model("6", " Veteran", perks=["fast", "dash"])))
    assert report.members["6"].troop_label == "Veteran" and report.findings == []


@pytest.mark.parametrize("troop_type, count", PERK_COUNT.items())
def test_exactly_the_troop_types_perk_count_is_fine(troop_type, count):
    report = evaluate(with_extra(legal_party(), model("6", troop_type, list(CORE_PERKS[:count]))))
    assert_clear(report, "gf26.too_many_perks")
    assert_clear(report, "gf26.too_few_perks")


def test_a_regular_with_two_perks_is_an_error():
    """The issue's own test."""
    roster = with_extra(legal_party(), model("6", "regular", ["fast", "stubborn"]))
    finding = assert_flags(evaluate(roster), "gf26.too_many_perks", ERROR, "6")
    assert "Regular" in finding.message and "1 perk" in finding.message
    assert "remove 1 perk" in finding.message


def test_too_many_perks_names_the_perks_not_their_ids():
    """Issue 14: "Fast, Marksman", never "fast, marksman"; a perk not in the book as written."""
    roster = with_extra(legal_party(), model("6", "regular", ["fast", "marksman", "Flying"]))
    finding = assert_flags(evaluate(roster), "gf26.too_many_perks", ERROR, "6")
    assert "(Fast, Marksman, Flying)" in finding.message
    assert "fast" not in finding.message and "marksman" not in finding.message


@pytest.mark.parametrize("troop_type, count", PERK_COUNT.items())
def test_one_perk_too_many_is_an_error(troop_type, count):
    roster = with_extra(legal_party(), model("6", troop_type, list(CORE_PERKS[: count + 1])))
    assert_flags(evaluate(roster), "gf26.too_many_perks", ERROR, "6")


@pytest.mark.parametrize("troop_type, count", PERK_COUNT.items())
def test_too_few_perks_is_an_error(troop_type, count):
    roster = with_extra(legal_party(), model("6", troop_type, list(CORE_PERKS[: count - 1])))
    report = evaluate(roster)
    finding = assert_flags(report, "gf26.too_few_perks", ERROR, "6")
    assert f"{count - 1}" in finding.message and "choose 1 more perk" in finding.message
    assert not report.is_legal


def test_a_hero_with_no_perks_has_three_to_choose():
    roster = replace(legal_party(), hero("1", [], leader=True))
    finding = assert_flags(evaluate(roster), "gf26.too_few_perks", ERROR, "1")
    assert "choose 3 more perks" in finding.message


def test_a_perk_taken_twice_is_an_error():
    roster = with_extra(legal_party(), model("6", "veteran", ["fast", "fast"]))
    report = evaluate(roster)
    finding = assert_flags(report, "gf26.duplicate_perk", ERROR, "6")
    assert "Fast" in finding.message and "2 times" in finding.message
    assert_clear(report, "gf26.too_many_perks")


def test_a_duplicated_perk_never_stacks():
    roster = with_extra(legal_party(), model("6", "veteran", ["fast", "fast"]))
    assert stat(member_report(roster, "6"), "MOV") == BASE_STATS["mov"] + 1


def test_a_regular_with_the_same_perk_twice_breaks_two_rules():
    roster = with_extra(legal_party(), model("6", "regular", ["fast", "Fast"]))
    report = evaluate(roster)
    assert report.findings_for("6") and {f.code for f in report.findings_for("6")} == {
        "gf26.too_many_perks",
        "gf26.duplicate_perk",
    }


def test_different_perks_are_fine():
    roster = with_extra(legal_party(), model("6", "hero", ["fast", "marksman", "solid"]))
    assert_clear(evaluate(roster), "gf26.duplicate_perk")


def test_all_23_core_perks_are_known():
    assert [p["id"] for p in SYSTEM.content["perks"]] == list(CORE_PERKS)
    for i in range(0, len(CORE_PERKS), 3):
        roster = with_extra(legal_party(), model("6", "hero", list(CORE_PERKS[i : i + 3])))
        assert_clear(evaluate(roster), "gf26.unknown_perk")


def test_perks_may_be_given_by_name():
    roster = with_extra(
        legal_party(), model("6", "hero", ["Large and In Charge", "Bull True", "True Grit"])
    )
    report = evaluate(roster)
    assert report.findings == []
    assert report.members["6"].perk_ids == ["large_and_in_charge", "bull_true", "true_grit"]


def test_an_unknown_perk_is_an_error():
    roster = with_extra(legal_party(), model("6", "regular", ["Laser Eyes"]))
    finding = assert_flags(evaluate(roster), "gf26.unknown_perk", ERROR, "6")
    assert "'Laser Eyes'" in finding.message and "Natural Born Killer" in finding.message


def test_a_blank_perk_is_unknown():
    roster = with_extra(legal_party(), model("6", "regular", [""]))
    assert_flags(evaluate(roster), "gf26.unknown_perk", ERROR, "6")


# --------------------------------------------------------------------------- the stat line


@pytest.mark.parametrize("perk, label", STAT_PERKS.items())
def test_each_stat_perk_adds_1_to_the_printed_stat(perk, label):
    roster = with_extra(legal_party(), model("6", "regular", [perk]))
    m = member_report(roster, "6")
    for attribute, other in zip(ATTRIBUTES, LABELS, strict=True):
        expected = BASE_STATS[attribute] + (1 if other == label else 0)
        assert stat(m, other) == expected, other
    assert any(f"+1 {label}" in n for n in m.notes)


def test_a_hero_with_three_stat_perks():
    roster = replace(
        legal_party(), hero("1", ["fast", "natural_born_killer", "true_grit"], leader=True)
    )
    m = member_report(roster, "1")
    assert (stat(m, "MOV"), stat(m, "ATT"), stat(m, "EN")) == (5, 4, 5)
    assert (stat(m, "MRK"), stat(m, "DEF"), stat(m, "IV")) == (3, 4, 3)


@pytest.mark.parametrize(
    "perk, against", [("hard_target", "ranged attacks"), ("artful_dodger", "Free Strikes")]
)
def test_situational_def_perks_are_notes_not_on_the_base_def(perk, against):
    roster = with_extra(legal_party(), model("6", "regular", [perk], **{"def": 3}))
    m = member_report(roster, "6")
    assert stat(m, "DEF") == 3
    assert any(f"DEF 4 against {against}" in n for n in m.notes), m.notes


@pytest.mark.parametrize("attribute, label", list(zip(ATTRIBUTES, LABELS, strict=True)))
def test_a_negative_attribute_is_an_error(attribute, label):
    roster = with_extra(legal_party(), model("6", **{attribute: -1}))
    finding = assert_flags(evaluate(roster), "gf26.attribute_out_of_range", ERROR, "6")
    assert label in finding.message and "0 or more" in finding.message


def test_endurance_0_is_an_error():
    roster = with_extra(legal_party(), model("6", en=0))
    finding = assert_flags(evaluate(roster), "gf26.attribute_out_of_range", ERROR, "6")
    assert "EN is 0" in finding.message


def test_true_grit_lifts_endurance_0_to_1():
    roster = with_extra(legal_party(), model("6", perks=["true_grit"], en=0))
    assert_clear(evaluate(roster), "gf26.attribute_out_of_range")


def test_attributes_of_0_other_than_en_are_fine():
    roster = with_extra(legal_party(), model("6", mrk=0, wp=0, arm=0))
    assert_clear(evaluate(roster), "gf26.attribute_out_of_range")


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize("size", SIZES)
def test_the_four_sizes(size):
    low, high, threat, wounds = SIZES[size]
    roster = with_extra(legal_party(), model("6", size=size))
    report = evaluate(roster)
    assert_clear(report, "gf26.unknown_size")
    m = report.members["6"]
    assert m.size["base_mm"] == [low, high]
    assert m.size["threat_inches"] == threat
    assert m.size["wounds_per_melee_hit"] == wounds
    note = m.notes[0]
    assert f"{low}-{high} mm" in note and f'threat {threat:g}"' in note
    assert f"{wounds} wound" in note


@pytest.mark.parametrize("size", ["gigantic", ""])
def test_an_unknown_size_is_an_error(size):
    roster = with_extra(legal_party(), model("6", size=size))
    finding = assert_flags(evaluate(roster), "gf26.unknown_size", ERROR, "6")
    assert "Small, Medium, Large or Huge" in finding.message


@pytest.mark.parametrize(
    "size, bigger", [("small", "medium"), ("medium", "large"), ("large", "huge")]
)
def test_large_and_in_charge_is_one_size_larger_and_causes_fear(size, bigger):
    roster = with_extra(legal_party(), model("6", "regular", ["large_and_in_charge"], size=size))
    report = evaluate(roster)
    m = report.members["6"]
    assert m.size["id"] == bigger
    assert m.size["threat_inches"] == SIZES[bigger][2]
    assert m.size["wounds_per_melee_hit"] == SIZES[bigger][3]
    assert m.causes_fear == 4
    assert any("Fear (TN 4)" in n for n in m.notes)
    assert bigger.capitalize() in m.summary
    assert_clear(report, "gf26.huge_already")


def test_a_medium_model_with_large_and_in_charge_hits_for_2_wounds():
    roster = with_extra(legal_party(), model("6", "regular", ["Large and In Charge"]))
    m = member_report(roster, "6")
    assert m.size["wounds_per_melee_hit"] == 2 and "Slam!" in m.notes[0]


def test_large_and_in_charge_on_a_huge_model_stays_huge_with_a_warning():
    roster = with_extra(legal_party(), model("6", "regular", ["large_and_in_charge"], size="huge"))
    report = evaluate(roster)
    finding = assert_flags(report, "gf26.huge_already", WARNING, "6")
    assert "Fear (TN 4)" in finding.message
    m = report.members["6"]
    assert m.size["id"] == "huge" and m.causes_fear == 4
    assert m.size["wounds_per_melee_hit"] == 4
    assert report.is_legal


def test_no_fear_without_large_and_in_charge():
    m = member_report(legal_party(), "1")
    assert m.causes_fear is None and not any("Fear" in n for n in m.notes[:2])


# --------------------------------------------------------------------------- units


def test_a_units_action_points_are_its_lowest_iv():
    roster = party(
        hero("1", leader=True),
        model("2", "veteran", unit="Alpha", iv=4),
        model("3", "veteran", unit="Alpha", iv=2),
        model("4", unit="Alpha", iv=3),
    )
    report = evaluate(roster)
    (unit,) = report.gang["units"]
    assert unit == {
        "name": "Alpha",
        "members": ["2", "3", "4"],
        "leader": "2",
        "action_points": 2,
    }


def test_the_books_unit_of_three_at_iv_3_has_3_action_points():
    roster = party(hero("1", leader=True), *(model(k, "veteran", unit="U", iv=3) for k in "234"))
    assert evaluate(roster).gang["units"][0]["action_points"] == 3


def test_lightning_reflexes_counts_towards_a_units_action_points():
    roster = party(
        hero("1", leader=True),
        model("2", perks=["lightning_reflexes"], unit="Alpha", iv=2),
        model("3", perks=["lightning_reflexes"], unit="Alpha", iv=2),
    )
    report = evaluate(roster)
    assert report.gang["units"][0]["action_points"] == 3
    # the Hero's 3 AP plus the unit's 3
    assert report.gang["action_points"] == 6


def test_unit_names_ignore_case_and_spaces():
    roster = party(hero("1", leader=True), model("2", unit="Alpha"), model("3", unit="  alpha "))
    report = evaluate(roster)
    assert [u["members"] for u in report.gang["units"]] == [["2", "3"]]
    assert_clear(report, "gf26.unit_of_one")


def test_a_unit_of_one_is_a_warning():
    roster = with_extra(legal_party(), model("6", unit="Lonely"))
    report = evaluate(roster)
    finding = assert_flags(report, "gf26.unit_of_one", WARNING, "6")
    assert "Lonely" in finding.message
    assert report.is_legal


def test_a_unit_of_two_is_a_unit():
    assert_clear(evaluate(legal_party()), "gf26.unit_of_one")


def test_a_unit_is_led_by_its_highest_ranked_model():
    roster = party(
        model("1", unit="Mixed"),
        model("2", "veteran", unit="Mixed"),
        hero("3", leader=True, unit="Mixed"),
        model("4", "veteran", unit="Mixed"),
    )
    report = evaluate(roster)
    assert report.gang["units"][0]["leader"] == "3"
    assert report.findings == []


# Seed 001, "Units": "A unit of troops consisting of veteran models has as many Action Points
# (AP) as the lowest IV in that unit." and "If a unit Leader falls in combat, each member of
# that unit must make a Bravery test." Nothing about ranks: "A model can only perform a
# Banding Action with models of their rank or lower" is said of Banding Actions, a play-time
# action, not of units. (Issue 15, item 3: gf26.unit_leader_outranked is dropped.)


@pytest.mark.parametrize("leader_type", ["regular", "veteran", "hero"])
def test_any_model_may_lead_a_unit_whatever_the_ranks_in_it(leader_type):
    members = [model("1", leader_type, unit="U", unit_leader=True)]
    members += [model(str(i), t, unit="U") for i, t in enumerate(PERK_COUNT, start=2)]
    roster = party(hero("H", leader=True), *members)
    report = evaluate(roster)
    assert report.findings == []
    assert report.gang["units"][0]["leader"] == "1"


def test_a_regular_may_lead_a_veteran():
    """The case issue 15 reported: a Regular flagged to lead a unit with a Veteran in it."""
    roster = party(
        hero("1", leader=True),
        model("2", "veteran", name="Kell", unit="Brutes"),
        model("3", "regular", name="Lugg", unit="Brutes", unit_leader=True),
    )
    report = evaluate(roster)
    assert report.findings == [] and report.is_legal
    assert report.gang["units"][0]["leader"] == "3"
    assert "gf26.unit_leader_outranked" not in gf26.RULE_CODES


def test_a_veteran_may_lead_a_hero_but_a_unit_still_has_one_leader():
    roster = party(
        hero("1", leader=True, unit="Command"),
        model("2", "veteran", unit="Command", unit_leader=True),
    )
    report = evaluate(roster)
    assert report.findings == []
    assert report.gang["units"][0]["leader"] == "2"
    # The unit rules the book does have still hold: one leader per unit.
    roster = party(
        hero("1", leader=True, unit="Command", unit_leader=True),
        model("2", "veteran", unit="Command", unit_leader=True),
    )
    assert_flags(evaluate(roster), "gf26.too_many_unit_leaders", ERROR, "2")


def test_banding_rank_text_is_about_banding_actions_only():
    banding = next(r for r in gf26.CONTENT["play_rules"] if r["id"] == "banding")
    assert "Banding Action" in banding["text"] and "or a unit" not in banding["text"]
    assert not any("unit_leader_outranked" in d for d in SYSTEM.decisions)


def test_two_unit_leaders_in_one_unit():
    roster = party(
        hero("1", leader=True),
        model("2", "veteran", unit="Alpha", unit_leader=True),
        model("3", "veteran", unit="Alpha", unit_leader=True),
    )
    report = evaluate(roster)
    finding = assert_flags(report, "gf26.too_many_unit_leaders", ERROR, "3")
    assert "Alpha" in finding.message and "Model 2" in finding.message
    assert report.gang["units"][0]["leader"] == "2"


def test_one_unit_leader_per_unit_is_fine():
    roster = party(
        hero("1", leader=True),
        model("2", "veteran", unit="Alpha", unit_leader=True),
        model("3", "veteran", unit="Alpha"),
        model("4", unit="Beta", unit_leader=True),
        model("5", unit="Beta"),
    )
    report = evaluate(roster)
    assert_clear(report, "gf26.too_many_unit_leaders")
    assert report.findings == []


def test_a_unit_leader_outside_a_unit_is_a_warning():
    roster = with_extra(legal_party(), model("6", unit_leader=True))
    finding = assert_flags(evaluate(roster), "gf26.unit_leader_without_unit", WARNING, "6")
    assert "in no unit" in finding.message


def test_a_unit_leader_inside_a_unit_is_fine():
    roster = replace(legal_party(), model("2", "veteran", unit="Alpha", unit_leader=True))
    assert_clear(evaluate(roster), "gf26.unit_leader_without_unit")


def test_models_outside_units_have_their_own_action_points():
    report = evaluate(legal_party())
    assert report.gang["action_points"] == 3 + 3 + 3 + 3


def test_banding_is_noted_on_every_model():
    report = evaluate(legal_party())
    assert "Banding: may lead Heroes, Veterans and Regulars." in report.members["1"].notes
    assert "Banding: may lead Veterans and Regulars." in report.members["2"].notes
    assert "Banding: may lead Regulars." in report.members["4"].notes


# --------------------------------------------------------------------------- names, setting


def test_an_unnamed_model_is_a_warning():
    roster = with_extra(legal_party(), model("6", name=""))
    finding = assert_flags(evaluate(roster), "gf26.member_unnamed", WARNING, "6")
    assert "give it one" in finding.message
    assert_clear(evaluate(legal_party()), "gf26.member_unnamed")


def test_an_unnamed_profile_is_a_warning():
    roster = with_extra(legal_party(), model("6", profile_name=" "))
    finding = assert_flags(evaluate(roster), "gf26.profile_unnamed", WARNING, "6")
    assert "profile has no name" in finding.message
    assert_clear(evaluate(legal_party()), "gf26.profile_unnamed")


@pytest.mark.parametrize("setting", ["chronicle", "Aeon", "First Strike", "mixed", ""])
def test_the_settings(setting):
    roster = {**legal_party(), "gang": {"setting": setting}}
    assert_clear(evaluate(roster), "gf26.unknown_setting")


def test_an_unknown_setting_is_a_warning():
    roster = {**legal_party(), "gang": {"setting": "Steampunk"}}
    report = evaluate(roster)
    finding = assert_flags(report, "gf26.unknown_setting", WARNING, None)
    assert "'Steampunk'" in finding.message and "Chronicle, Aeon, First Strike" in finding.message
    assert report.is_legal


def test_the_setting_is_a_fact():
    roster = {**legal_party(), "gang": {"setting": "first_strike"}}
    assert dict(evaluate(roster).gang["facts"])["Setting"] == "First Strike (Modern Warfare)"


# --------------------------------------------------------------------------- findings order


def test_party_findings_come_first_then_members_in_order():
    roster = party(model("1", perks=["a", "b"]), model("2", name=""), limit=10)
    report = evaluate(roster)
    members = [f.member for f in report.findings]
    first_member = next(i for i, m in enumerate(members) if m is not None)
    assert all(m is None for m in members[:first_member])
    assert members[first_member:] == sorted(members[first_member:])


def test_missing_or_duplicate_keys_become_positions():
    roster = party(hero("1", leader=True), model("1"), {**model("x"), "key": ""})
    assert list(evaluate(roster).members) == ["1", "#2", "#3"]


# --------------------------------------------------------------------------- never raises


@pytest.mark.parametrize(
    "roster",
    [
        None,
        [],
        "gf26",
        42,
        {},
        {"members": "x"},
        {"members": None, "limit": "lots"},
        {"members": [None, 1, "x", [], {}]},
        {"members": [{"key": 1, "name": 2, "data": None}]},
        {"members": [{"key": "1", "data": {"profile": "x", "perks": "fast"}}]},
        {"members": [{"key": "1", "data": {"profile": {"mov": "x", "points": None}}}]},
        {"members": [{"key": "1", "data": {"profile": {"equipment": [1, None, {"points": "x"}]}}}]},
        {"members": [{"key": "1", "data": {"perks": [1, None, {}], "unit": 5, "leader": "yes"}}]},
        {"members": [{"data": {"profile": {"troop_type": 3, "size": []}}}], "gang": "x"},
        {"members": [], "limit": True, "gang": {"setting": 5}},
        {"members": [], "limit": 1.5},
    ],
)
def test_garbage_never_raises(roster):
    report = evaluate(roster)
    assert report.total == sum(m.cost for m in report.members.values())
    for finding in report.findings:
        assert finding.code in gf26.RULE_CODES
        assert finding.member is None or finding.member in report.members
    assert report.gang["facts"]


def test_a_flat_member_without_data_is_read_too():
    member = {"key": "1", "name": "A", **model("1", "hero", leader=True)["data"]}
    report = evaluate({"members": [member]})
    assert report.findings == [] and report.total == 100


def test_the_limit_is_read_leniently():
    assert evaluate({**legal_party(), "limit": "500"}).limit == 500
    assert evaluate({**legal_party(), "limit": 0}).limit is None
    assert evaluate({**legal_party(), "limit": True}).limit is None


# --------------------------------------------------------------------------- content


def test_content_perks_have_texts_and_the_six_stat_perks_say_what_they_change():
    perks = {p["id"]: p for p in SYSTEM.content["perks"]}
    assert len(perks) == 23
    assert all(p["name"] and len(p["text"]) > 40 for p in perks.values())
    stat_perks = {pid: p["stat"] for pid, p in perks.items() if "stat" in p}
    assert stat_perks == {
        pid: {ATTRIBUTES[LABELS.index(label)]: 1} for pid, label in STAT_PERKS.items()
    }
    assert perks["hard_target"]["situational"]["def"] == 1
    assert perks["artful_dodger"]["situational"]["def"] == 1
    assert perks["large_and_in_charge"]["fear_tn"] == 4


def test_content_sizes_and_troop_types():
    sizes = {s["id"]: s for s in SYSTEM.content["sizes"]}
    for size, (low, high, threat, wounds) in SIZES.items():
        s = sizes[size]
        assert (s["base_mm"], s["threat_inches"], s["wounds_per_melee_hit"]) == (
            [low, high],
            threat,
            wounds,
        )
    types = {t["id"]: t for t in SYSTEM.content["troop_types"]}
    assert {t: types[t]["perks"] for t in types} == PERK_COUNT
    assert set(types["hero"]["may_lead"]) == {"hero", "veteran", "regular"}
    assert set(types["veteran"]["may_lead"]) == {"veteran", "regular"}
    assert set(types["regular"]["may_lead"]) == {"regular"}


def test_content_settings_and_sample_profiles():
    names = {s["name"] for s in SYSTEM.content["settings"]}
    assert {"Chronicle", "Aeon", "First Strike"} <= names
    profiles = SYSTEM.content["profiles"]
    assert profiles and all(p["sample"] is True for p in profiles)
    validator = Draft202012Validator(SYSTEM.member_schema["properties"]["profile"])
    for p in profiles:
        assert list(validator.iter_errors({k: v for k, v in p.items() if k != "id"})) == []


def test_content_is_the_data_file():
    path = ROOT / "rules" / "systems" / "gf26" / "data" / "content.json"
    assert SYSTEM.content == json.loads(path.read_text("utf-8"))


# --------------------------------------------------------------------------- schemas


def test_schemas_are_valid_json_schema():
    Draft202012Validator.check_schema(SYSTEM.member_schema)
    Draft202012Validator.check_schema(SYSTEM.gang_schema)
    assert "key" not in SYSTEM.member_schema["properties"]
    assert "name" not in SYSTEM.member_schema["properties"]


def test_the_schema_rejects_wrong_types_but_not_wrong_choices():
    validator = Draft202012Validator(SYSTEM.member_schema)
    good = model("1", "champion", ["laser_eyes"], size="gigantic", en=-3)["data"]
    assert list(validator.iter_errors(good)) == []
    bad = model("1")["data"]
    bad["perks"] = "fast"
    bad["profile"]["mov"] = "4"
    errors = {tuple(e.absolute_path) for e in validator.iter_errors(bad)}
    assert errors == {("perks",), ("profile", "mov")}
    assert list(validator.iter_errors({**model("1")["data"], "extra": 1}))


@pytest.mark.parametrize("troop_type", ["regular", "veteran", "hero"])
def test_new_member_is_a_valid_member_that_is_legal_but_for_its_perks(troop_type):
    data = SYSTEM.new_member(troop_type)
    assert list(Draft202012Validator(SYSTEM.member_schema).iter_errors(data)) == []
    assert data["profile"]["troop_type"] == troop_type
    report = evaluate(party({"key": "1", "name": "New", "data": data}))
    assert {f.code for f in report.findings_for("1")} == {"gf26.too_few_perks"}
    assert report.members["1"].cost > 0


def test_new_member_from_a_named_sample_profile():
    data = SYSTEM.new_member("troll")
    assert data["profile"]["name"] == "Troll" and data["profile"]["size"] == "large"
    assert SYSTEM.new_member("hero", profile="orc_brave")["profile"]["name"] == "Orc Brave"
    assert SYSTEM.new_member("Heroes")["profile"]["troop_type"] == "hero"
    data["profile"]["equipment"].append(item("Club", 5))
    assert SYSTEM.new_member("troll")["profile"]["equipment"] == []


# --------------------------------------------------------------------------- examples

EXAMPLES = {
    "gf26-legal-iron-company.json": (True, []),
    "gf26-illegal-too-many-captains.json": (
        False,
        [
            ("gf26.points_over_limit", None),
            ("gf26.duplicate_perk", "1"),
            ("gf26.too_many_leaders", "2"),
            ("gf26.too_many_perks", "3"),
            ("gf26.unknown_perk", "6"),
        ],
    ),
}


def test_every_gf26_example_is_listed():
    found = {p.name for p in (ROOT / "docs" / "examples").glob("gf26-*.json")}
    assert found == set(EXAMPLES)


@pytest.mark.parametrize("filename", EXAMPLES)
def test_example_files(filename):
    text = (ROOT / "docs" / "examples" / filename).read_text("utf-8")
    roster = read_roster(text)
    assert write_roster(roster) == text
    assert [m["key"] for m in roster["members"]] == [
        str(i) for i in range(1, len(roster["members"]) + 1)
    ]
    legal, codes = EXAMPLES[filename]
    report = evaluate(roster)
    assert report.is_legal is legal
    assert [(f.code, f.member) for f in report.findings] == codes
    assert filename.startswith("gf26-legal-" if legal else "gf26-illegal-")


def test_the_legal_example_is_a_500_point_party():
    roster = read_roster((ROOT / "docs" / "examples" / "gf26-legal-iron-company.json").read_text())
    report = evaluate(roster)
    assert roster["limit"] == 500 and report.total == 500
    assert report.warnings == []
    facts = dict(report.gang["facts"])
    assert facts["Unit Shield Wall"] == "Bren, Cole: 3 AP"
    assert facts["Unit Bowmen"] == "Dara, Edda, Finn: 2 AP"


# --------------------------------------------------------------------------- dice


class Scripted(random.Random):
    """A random source that returns the given dice, in order."""

    def __init__(self, values: list[int]):
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


def test_the_books_critical_success_example():
    """Martin rolls 3 dice at TN 4: 3, 4, 6; the 6 gives a die (6), which gives another (5)."""
    dice = Dice(Scripted([3, 4, 6, 6, 5]))
    result = SYSTEM.roll_test(dice, 3, 4, "Attack")
    assert result.rolls == (3, 4, 6, 6, 5)
    assert result.successes == 4
    assert [r.dice for r in dice.log] == [(3, 4, 6), (6,), (5,)]
    assert dice.log[1].purpose == "Attack (critical)"


def test_the_books_dropping_dice_example():
    """ATT 5 against DEF 7: drop one die to TN 6 with 4 dice; two more for TN 4 with 2."""
    forced = SYSTEM.roll_test(Dice(Scripted([1, 1, 1, 1])), 5, 7, "Attack")
    assert (forced.pool, forced.target, forced.dropped) == (4, 6, 1)
    chosen = SYSTEM.roll_test(Dice(Scripted([4, 1])), 5, 7, "Attack", drop=3)
    assert (chosen.pool, chosen.target, chosen.successes) == (2, 4, 1)


def test_a_target_number_never_goes_below_2():
    result = SYSTEM.roll_test(Dice(Scripted([1, 2])), 3, 3, "Jump", drop=5)
    assert (result.pool, result.target, result.dropped) == (2, 2, 1)
    assert result.successes == 1  # a natural 1 always fails


def test_too_few_dice_to_reach_the_target_rolls_nothing():
    dice = Dice(random.Random(1))
    result = SYSTEM.roll_test(dice, 1, 8, "Attack")
    assert result.successes == 0 and result.rolls == () and dice.log == []


def test_seeded_rolls_are_repeatable_and_logged():
    first, second = Dice(random.Random(42)), Dice(random.Random(42))
    a = SYSTEM.roll_test(first, 6, 4, "Fire!")
    b = SYSTEM.roll_test(second, 6, 4, "Fire!")
    assert a == b
    assert [r.to_dict() for r in first.log] == [r.to_dict() for r in second.log]
    assert sum(len(r.dice) for r in first.log) == len(a.rolls)
    assert a.successes == sum(1 for d in a.rolls if d >= 4)


def test_initiative_is_the_party_leaders_iv_at_tn_4():
    roster = replace(legal_party(), hero("1", ["lightning_reflexes", "dash", "solid"], leader=True))
    dice = Dice(random.Random(3))
    result = SYSTEM.roll_initiative(roster, dice)
    assert result is not None and result.target == 4
    assert len(dice.log[0].dice) == 4  # IV 3 + Lightning Reflexes
    assert "Initiative" in dice.log[0].purpose


def test_no_initiative_roll_without_a_party_leader():
    dice = Dice(random.Random(3))
    assert SYSTEM.roll_initiative(party(model("1")), dice) is None
    assert dice.log == []


def test_a_fallback_key_never_takes_a_key_written_in_the_file():
    """A member whose key is missing gets a fallback that no other member has written."""
    roster = legal_party()
    roster["members"][0]["key"] = "#2"
    roster["members"][1]["key"] = None
    report = evaluate(roster)
    assert len(report.members) == len(roster["members"])
    assert "#2" in report.members and report.members["#2"].name == "Model 1"
    assert report.total == sum(m.cost for m in report.members.values()) == LEGAL_PARTY_POINTS


@pytest.mark.parametrize("written", ["Large & In Charge", "large&in charge", "LARGE AND IN CHARGE"])
def test_large_and_in_charge_may_be_written_with_an_ampersand(written):
    roster = party(hero("1", [written, "dash", "solid"], leader=True))
    report = evaluate(roster)
    assert_clear(report, "gf26.unknown_perk")
    assert report.members["1"].size["id"] == "large"
