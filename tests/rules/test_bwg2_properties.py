"""Property tests: whatever roster the builder (or a file) hands the bwg2 engine, it answers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Severity, get_system
from rules.roster import check_roster
from rules.systems import bwg2
from tests.helpers.properties import examples
from tests.schema_strategy import CHARACTERS

SYSTEM = get_system("bwg2")

anything = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(CHARACTERS, max_size=8),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(CHARACTERS, max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)

small = st.integers(min_value=-2, max_value=8)
trait = st.sampled_from([*(t["name"] for t in SYSTEM.content["traits"]), "Boomy", ""])
item = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["Colt", "Lucky Dollar", "Knife", ""]),
        "level": st.none() | st.integers(min_value=-1, max_value=7),
        "traits": st.lists(trait, max_size=3),
        "weightless": st.booleans(),
        "unique": st.booleans(),
        "consumable": st.booleans(),
    },
    optional={"range": st.sampled_from([10, "M", None]), "str": st.sampled_from([4, "M"])},
)
extra = st.builds(lambda i, c: {**i, "cost": c}, item, st.integers(min_value=-5, max_value=60))
skill = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["Tosser", "Switch Sides", "Gunslinger"]),
        "text": st.just("text"),
        "opens_factions": st.lists(st.sampled_from(["lawmen", "Cursed", "aliens"]), max_size=2),
    }
)
card = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["Reinholdt", "Gunhand", "Deputy", "Ghoul", ""]),
        "faction": st.sampled_from(["outlaws", "Lawmen", "beasts", "cursed", "pirates", ""]),
        "level": st.sampled_from(["hero", "henchman", "Minion", "boss", ""]),
        "size": st.sampled_from(["standard", "Large", "massive", "giant", "huge", ""]),
        "one_per_gang": st.none() | st.booleans(),
        "artillery": st.booleans(),
        **{a: small | st.integers(min_value=0, max_value=200) for a in bwg2.ATTRIBUTES},
        "equipment": st.lists(item, max_size=4),
        "skills": st.lists(skill, max_size=2),
    }
)
member_data = st.fixed_dictionaries(
    {
        "card": card,
        "leader": st.booleans(),
        "team": st.none() | st.sampled_from(["A", "B", ""]),
        "extras": st.lists(extra, max_size=3),
    }
)


def roster_of(data_strategy):
    members = st.lists(
        st.fixed_dictionaries(
            {
                "key": st.sampled_from(["#1", "#2", "#3", "1", ""])
                | st.text(CHARACTERS, min_size=1, max_size=3),
                "name": st.text(CHARACTERS, max_size=8),
                "data": data_strategy,
            }
        ),
        max_size=10,
    )
    return st.fixed_dictionaries(
        {
            "format": st.just("gangfight-roster"),
            "version": st.just(1),
            "system": st.just("bwg2"),
            "name": st.text(CHARACTERS, max_size=10),
            "limit": st.none() | st.integers(min_value=1, max_value=2000),
            "gang": st.just({}),
            "members": members,
        }
    )


def check(data):
    report = SYSTEM.evaluate(data)
    members = list(report.members.values())
    assert len(members) == len(data["members"])  # every member keeps its own key
    assert report.total == sum(m.cost for m in members)
    keys = set(report.members)
    for finding in report.findings:
        assert finding.code in bwg2.RULE_CODES
        assert finding.severity in (Severity.ERROR, Severity.WARNING)
        assert finding.member is None or finding.member in keys
        assert finding.message.strip()
    # gang findings first, then each member's in member order
    order = [-1 if f.member is None else report.members[f.member].position for f in report.findings]
    assert order == sorted(order)
    if report.limit is not None and report.total > report.limit:
        assert "bwg2.fame_over_limit" in report.codes()
    heroes = sum(1 for m in members if m.is_hero)
    if heroes > report.gang["heroes_allowed"]:
        assert "bwg2.too_many_heroes" in report.codes()
    assert report.gang["objectives"] == report.total // 200
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in report.gang["facts"])
    assert report.is_legal == (not report.errors)


@settings(max_examples=examples(300), deadline=None)
@given(roster_of(member_data))
def test_well_shaped_rosters_always_evaluate_consistently(data):
    assert check_roster(data) == []  # right types: only wrong choices, found by the rules
    check(data)


@settings(max_examples=examples(300), deadline=None)
@given(anything)
def test_any_value_at_all_never_raises(data):
    report = SYSTEM.evaluate(data)
    assert report.total >= 0


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.fixed_dictionaries({"key": anything, "name": anything, "data": anything})))
def test_members_of_any_shape_never_raise(members):
    report = SYSTEM.evaluate({"members": members, "limit": 700})
    assert report.total == sum(m.cost for m in report.members.values())
    assert all(f.code in bwg2.RULE_CODES for f in report.findings)
    assert all(f.member is None or f.member in report.members for f in report.findings)
