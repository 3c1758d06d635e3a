"""Property tests: whatever roster the builder (or a file) hands the engine, it answers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Severity, get_system
from rules.systems import bwg1
from tests.helpers.properties import examples

SYSTEM = get_system("bwg1")

anything = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)

weapon = st.fixed_dictionaries(
    {
        "name": st.text(max_size=20),
        "kind": st.sampled_from(["ranged", "melee", "", "laser"]),
        "level": st.integers(min_value=-3, max_value=12),
        "hands": st.sampled_from([1, 2, 3]),
        "strength": st.sampled_from(["", "M", "M+1", "4"]),
        "traits": st.lists(st.sampled_from([*bwg1.WEAPON_TRAITS, "odd"]), max_size=3),
    }
)
horse = st.none() | st.fixed_dictionaries(
    {f: st.integers(min_value=0, max_value=100) for f in bwg1.HORSE_FIELDS}
    | {"name": st.text(max_size=10)}
)
member = st.fixed_dictionaries(
    {
        "key": st.text(min_size=1, max_size=4),
        "name": st.text(max_size=12),
        "type": st.sampled_from([*bwg1.MEMBER_TYPES, "", "sheriff"]),
        "profession": st.sampled_from([*bwg1.PROFESSIONS, "", "barber"]),
        "points": st.fixed_dictionaries(
            {a: st.integers(min_value=-2, max_value=8) for a in bwg1.ATTRIBUTES}
        ),
        "weapons": st.lists(weapon, max_size=5),
        "horse": horse,
    }
)
roster = st.fixed_dictionaries(
    {
        "system": st.just("bwg1"),
        "name": st.text(max_size=10),
        "limit": st.none() | st.integers(min_value=0, max_value=2000),
        "members": st.lists(member, max_size=12),
    }
)


@settings(max_examples=examples(300), deadline=None)
@given(roster)
def test_well_shaped_rosters_always_evaluate_consistently(data):
    report = SYSTEM.evaluate(data)
    members = list(report.members.values())
    assert len(members) == len(data["members"])  # every member keeps its own key
    assert report.total == sum(m.xp + m.horse_xp for m in members)
    for m in members:
        assert m.xp == (m.type.xp if m.type else 0) + sum(max(0, w.weapon.level) for w in m.weapons)
    keys = set(report.members)
    for finding in report.findings:
        assert finding.code in bwg1.RULE_CODES
        assert finding.severity in (Severity.ERROR, Severity.WARNING)
        assert finding.member is None or finding.member in keys
        assert finding.message.strip()
    if report.limit is not None and report.total > report.limit:
        assert "bwg1.fame_over_limit" in report.codes()
    assert report.is_legal == (not report.errors)


@settings(max_examples=examples(300), deadline=None)
@given(anything)
def test_any_value_at_all_never_raises(data):
    report = SYSTEM.evaluate(data)
    assert report.total >= 0


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(member, max_size=8))
def test_at_most_one_member_of_each_profession_gets_the_bonus(members):
    report = SYSTEM.evaluate({"members": members})
    bonus_by_profession: dict[str, int] = {}
    for m in report.members.values():
        if m.bonus_attribute:
            assert m.profession is not None
            assert m.bonus_attribute == m.profession.attribute
            bonus_by_profession[m.profession.id] = bonus_by_profession.get(m.profession.id, 0) + 1
    assert all(count == 1 for count in bonus_by_profession.values())


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(member, max_size=8), st.sampled_from(sorted(bwg1.PROFESSIONS)), st.integers(0, 8))
def test_the_leader_has_his_professions_bonus_wherever_he_is_listed(members, profession, at):
    """Seed 002, p. 12: "Le premier membre de votre gang à recruter sera votre chef"."""
    others = [
        {**m, "key": f"m{i}", "type": m["type"] if m["type"] != "leader" else "henchman"}
        for i, m in enumerate(members)
    ]
    chief = {
        "key": "chief",
        "name": "Chief",
        "type": "leader",
        "profession": profession,
        "points": {},
    }
    others.insert(min(at, len(others)), chief)
    report = SYSTEM.evaluate({"members": others})
    attribute = bwg1.PROFESSIONS[profession].attribute
    assert report.members["chief"].bonus_attribute == attribute
    for m in report.members.values():
        if m.key != "chief" and m.profession_id == profession:
            assert m.bonus_attribute is None
