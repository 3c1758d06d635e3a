"""Property tests: whatever roster the builder (or a file) hands the Rivals engine, it answers."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rules import Severity, get_system
from rules.dice import Dice
from rules.systems import rivals
from tests.helpers.properties import examples

SYSTEM = get_system("rivals")
CODES = {r.code for r in SYSTEM.rules}
ROWS = ("toughness", "handgun", "rifle", "shotgun", "brawl", "riding")
# RULES.md: the cost of each tier, by row; and each table's cost.
COSTS = {
    "toughness": (0, 1, 4),
    "handgun": (0, 1, 2, 4),
    "rifle": (0, 1, 2, 4),
    "shotgun": (0, 1, 2, 4),
    "brawl": (0, 1, 2, 3),
    "riding": (0, 1, 2, 3),
}
TABLE_COST = {"A": 1, "B": 2, "C": 3}

anything = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)

special_skill = st.none() | st.fixed_dictionaries(
    {
        "table": st.sampled_from(["A", "B", "C", "D", "", "b"]),
        "roll": st.integers(min_value=-1, max_value=8),
        "source": st.sampled_from(["rolled", "entered", "", "guessed"]),
    },
    optional={"skill": st.sampled_from(["Fast", "Dodge", "Shotgun Ace", "", "Flying"])},
)
data = st.fixed_dictionaries(
    {
        "gender": st.sampled_from(["male", "female", "", "horse"]),
        "hand": st.sampled_from(["left", "right", "", "both"]),
        "tiers": st.fixed_dictionaries(
            {row: st.integers(min_value=-1, max_value=4) for row in ROWS}
        ),
        "special_skill": special_skill,
        "pack": st.sampled_from(["A", "B", "C", "D", "", "E"]),
    },
    optional={
        "leader": st.booleans(),
        "drunk": st.booleans(),
        "tuwa": st.booleans(),
    },
)
member = st.fixed_dictionaries(
    {
        "key": st.text(min_size=0, max_size=3),
        "name": st.text(max_size=12),
        "data": data | anything,
    }
)
schema_member = st.fixed_dictionaries(
    {"key": st.text(min_size=1, max_size=3), "name": st.text(max_size=12), "data": data}
)
VALIDATOR = Draft202012Validator(SYSTEM.member_schema)


def roster(members):
    return st.fixed_dictionaries(
        {
            "format": st.just("gangfight-roster"),
            "version": st.just(1),
            "system": st.just("rivals"),
            "name": st.text(max_size=20),
            "limit": st.none() | st.integers(min_value=1, max_value=100),
            "gang": st.just({}),
            "members": st.lists(members, max_size=8),
        }
    )


def check(report, given_members):
    members = list(report.members.values())
    assert len(members) == len(given_members)  # every member keeps its own key
    assert report.total == sum(m.cost for m in members)
    keys = set(report.members)
    for finding in report.findings:
        assert finding.code in CODES
        assert finding.severity in (Severity.ERROR, Severity.WARNING)
        assert finding.member is None or finding.member in keys
        assert finding.message.strip()
    gang_first = [f.member is None for f in report.findings]
    assert gang_first == sorted(gang_first, reverse=True)  # gang findings come first
    for m in members:
        assert isinstance(m.summary, str)
        assert all(isinstance(a, str) and isinstance(b, str) for a, b in m.stats)
        assert all(isinstance(n, str) for n in m.notes)
    assert all(isinstance(a, str) and isinstance(b, str) for a, b in report.gang["facts"])
    assert report.is_legal == (not report.errors)
    if report.total > 30:
        assert "rivals.ccp_over_budget" in report.codes()


@settings(max_examples=examples(300), deadline=None)
@given(roster(member))
def test_rosters_of_any_member_shape_evaluate_consistently(data):
    check(SYSTEM.evaluate(data), data["members"])


@settings(max_examples=examples(200), deadline=None)
@given(roster(schema_member))
def test_schema_valid_rosters_evaluate_consistently(data):
    for m in data["members"]:  # wrong choices, right types: the schema lets them through
        assert not list(VALIDATOR.iter_errors(m["data"]))
    check(SYSTEM.evaluate(data), data["members"])


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.fixed_dictionaries({"key": st.text(max_size=2), "data": data}), max_size=8))
def test_each_outlaw_costs_its_tiers_plus_its_table(members):
    report = SYSTEM.evaluate({"members": members})
    for given_member, m in zip(members, report.members.values(), strict=True):
        d = given_member["data"]
        expected = sum(
            COSTS[row][d["tiers"][row]] for row in ROWS if 0 <= d["tiers"][row] < len(COSTS[row])
        )
        skill = d["special_skill"]
        if skill is not None:
            expected += TABLE_COST.get(skill["table"].upper(), 0)
        assert m.cost == expected
        bad_tier = any(not 0 <= d["tiers"][r] < len(COSTS[r]) for r in ROWS)
        assert bad_tier == ("rivals.unknown_tier" in [f.code for f in m.findings])


@settings(max_examples=examples(300), deadline=None)
@given(anything)
def test_any_value_at_all_never_raises(value):
    report = SYSTEM.evaluate(value)
    assert report.total >= 0
    assert report.total == sum(m.cost for m in report.members.values())


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["A", "B", "C"]))
def test_a_rolled_skill_is_always_a_legal_record(seed, table):
    dice = Dice(random.Random(seed))
    record = SYSTEM.roll_special_skill(dice, table)
    assert len(dice.log) == 1 and dice.log[0].dice == (record["roll"],)
    assert record == SYSTEM.roll_special_skill(Dice(random.Random(seed)), table)
    entry = {"key": "1", "name": "X", "data": {**SYSTEM.new_member(), "special_skill": record}}
    report = SYSTEM.evaluate({"members": [entry]})
    assert report.members["1"].findings == []
    assert report.members["1"].cost == TABLE_COST[table]


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(min_value=-50, max_value=200), st.integers(min_value=-50, max_value=200))
def test_ccp_earned_never_negative_and_counts_new_thresholds(best, new):
    earned = rivals.ccp_earned(best, new)
    assert earned >= 0
    if new <= max(best, 0):
        assert earned == 0
    else:
        assert earned == new // 5 - max(best, 0) // 5


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=-100, max_value=500))
def test_notoriety_never_falls_as_reputation_rises(reputation):
    _title, bonus = rivals.notoriety(reputation)
    assert 1 <= bonus <= 6
    assert rivals.notoriety(reputation + 1)[1] >= bonus
