"""Property tests for ``gf26``: whatever roster the builder (or a file) hands the engine, it
answers, and its numbers add up."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rules import Severity, get_system
from rules.systems import gf26
from tests.helpers.properties import examples

SYSTEM = get_system("gf26")
ATTRIBUTES = ("mov", "att", "mrk", "def", "iv", "wp", "arm", "en", "dam")
STAT_PERKS = {
    "fast": "mov",
    "natural_born_killer": "att",
    "marksman": "mrk",
    "lightning_reflexes": "iv",
    "stubborn": "wp",
    "true_grit": "en",
}

anything = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)

perk_ids = [p["id"] for p in SYSTEM.content["perks"]]
equipment = st.fixed_dictionaries(
    {
        "name": st.text(max_size=10),
        "points": st.integers(min_value=-20, max_value=200),
        "notes": st.text(max_size=10),
    }
)
profile = st.fixed_dictionaries(
    {
        "name": st.text(max_size=10),
        "troop_type": st.sampled_from(["regular", "veteran", "hero", "Hero", "", "champion"]),
        "size": st.sampled_from(["small", "medium", "large", "huge", "", "gigantic"]),
        **{a: st.integers(min_value=-2, max_value=8) for a in ATTRIBUTES},
        "points": st.integers(min_value=-50, max_value=400),
        "equipment": st.lists(equipment, max_size=3),
    }
)
member_data = st.fixed_dictionaries(
    {
        "profile": profile,
        "perks": st.lists(st.sampled_from([*perk_ids, "Fast", "laser_eyes", ""]), max_size=5),
        "leader": st.booleans(),
        "unit": st.sampled_from(["", "Alpha", "alpha", "Beta", None]),
        "unit_leader": st.booleans(),
    }
)
member = st.fixed_dictionaries(
    {
        "key": st.sampled_from(["#1", "#2", "#3", "1", ""]) | st.text(max_size=3),
        "name": st.text(max_size=8),
        "data": member_data,
    }
)
# Any values of the right types, optional keys left out: what the schema lets through.
loose_profile = st.fixed_dictionaries(
    {
        "name": st.text(max_size=10),
        "troop_type": st.text(max_size=8),
        "size": st.text(max_size=8),
        **{a: st.integers() for a in ATTRIBUTES},
        "points": st.integers(),
    },
    optional={
        "equipment": st.lists(
            st.fixed_dictionaries(
                {"name": st.text(max_size=6), "points": st.integers()},
                optional={"notes": st.text(max_size=6)},
            ),
            max_size=3,
        ),
        "setting": st.text(max_size=6),
        "sample": st.booleans(),
    },
)
loose_data = st.fixed_dictionaries(
    {"profile": loose_profile, "perks": st.lists(st.text(max_size=12), max_size=4)},
    optional={
        "leader": st.booleans(),
        "unit": st.none() | st.text(max_size=4),
        "unit_leader": st.booleans(),
    },
)
schema_member = st.fixed_dictionaries(
    {"key": st.text(max_size=3), "name": st.text(max_size=8), "data": loose_data}
)
MEMBER_VALIDATOR = Draft202012Validator(SYSTEM.member_schema)
roster = st.fixed_dictionaries(
    {
        "format": st.just("gangfight-roster"),
        "version": st.just(1),
        "system": st.just("gf26"),
        "name": st.text(max_size=10),
        "limit": st.none() | st.integers(min_value=1, max_value=2000),
        "gang": st.fixed_dictionaries({}, optional={"setting": st.text(max_size=12)}),
        "members": st.lists(member, max_size=10),
    }
)


def check_consistent(report, members_given: int) -> None:
    members = list(report.members.values())
    assert len(members) == members_given  # every member keeps its own key
    assert report.total == sum(m.cost for m in members)
    assert report.total >= 0
    keys = set(report.members)
    for finding in report.findings:
        assert finding.code in gf26.RULE_CODES
        assert finding.severity in (Severity.ERROR, Severity.WARNING)
        assert finding.member is None or finding.member in keys
        assert finding.message.strip()
    member_findings = [f for m in members for f in m.findings]
    gang_findings = [f for f in report.findings if f.member is None]
    assert report.findings == [*gang_findings, *member_findings]
    if report.limit is not None and report.total > report.limit:
        assert "gf26.points_over_limit" in report.codes()
    assert report.is_legal == (not report.errors)
    for m in members:
        assert len(m.stats) == 9 and all(isinstance(v, str) for _, v in m.stats)
        assert isinstance(m.summary, str) and all(isinstance(n, str) for n in m.notes)
    facts = report.gang["facts"]
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in facts)


@settings(max_examples=examples(300), deadline=None)
@given(roster)
def test_well_shaped_rosters_always_evaluate_consistently(data):
    report = SYSTEM.evaluate(data)
    check_consistent(report, len(data["members"]))
    for raw, m in zip(data["members"], report.members.values(), strict=True):
        p = raw["data"]["profile"]
        assert m.cost == max(0, p["points"]) + sum(max(0, e["points"]) for e in p["equipment"])
        known = {gf26._id(x) for x in raw["data"]["perks"]}
        for perk, attribute in STAT_PERKS.items():
            bonus = 1 if perk in known else 0
            assert m.attributes[attribute] == p[attribute] + bonus
        assert m.attributes["def"] == p["def"]  # Hard Target / Artful Dodger never show here
    in_units = {k for u in report.gang["units"] for k in u["members"]}
    for unit in report.gang["units"]:
        ivs = [report.members[k].attributes["iv"] for k in unit["members"]]
        assert unit["action_points"] == max(0, min(ivs))
    leaders = [m for m in report.members.values() if m.leader]
    assert ("gf26.no_leader" in report.codes()) == (not leaders)
    assert report.codes().count("gf26.too_many_leaders") == max(0, len(leaders) - 1)
    assert report.gang["action_points"] == sum(
        u["action_points"] for u in report.gang["units"]
    ) + sum(max(0, m.attributes["iv"]) for k, m in report.members.items() if k not in in_units)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(schema_member, max_size=5), st.none() | st.integers(min_value=1, max_value=999))
def test_any_schema_valid_member_evaluates_consistently(members, limit):
    for m in members:
        assert list(MEMBER_VALIDATOR.iter_errors(m["data"])) == []
    report = SYSTEM.evaluate({"system": "gf26", "limit": limit, "gang": {}, "members": members})
    check_consistent(report, len(members))


@settings(max_examples=examples(300), deadline=None)
@given(anything)
def test_any_value_at_all_never_raises(data):
    report = SYSTEM.evaluate(data)
    assert report.total >= 0
    assert report.total == sum(m.cost for m in report.members.values())


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(anything, max_size=5), anything)
def test_any_members_at_all_never_raise(members, gang):
    report = SYSTEM.evaluate({"members": members, "gang": gang, "limit": 100})
    check_consistent(report, len(members))


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.fixed_dictionaries({"key": anything, "name": anything, "data": anything})))
def test_members_with_junk_parts_never_raise(members):
    report = SYSTEM.evaluate({"members": members})
    check_consistent(report, len(members))
