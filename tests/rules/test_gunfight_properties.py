"""Property tests: whatever roster the builder (or a file) hands the engine, it answers."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Severity, get_system
from rules.dice import Dice
from rules.systems import gunfight
from tests.helpers.properties import examples

SYSTEM = get_system("gunfight")
CHARACTERISTICS = ("bd", "sk", "sp", "ag", "wp")
TYPES = ["lawman", "outlaw", "mexican", "outsider", "gambler", "gunfighter", "indian", "soldier"]
EXPERIENCE = {"greenhorn": 1, "old_hand": 2, "veteran": 3}

anything = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)

ability = st.sampled_from([*gunfight.ABILITIES, "Leader", "White Hat", "jedi", ""]) | anything
weapon = (
    st.fixed_dictionaries(
        {"name": st.sampled_from(["Pistol", "Bow", "Rifle", "Gatling gun", "", "revolver"])},
        optional={
            s: st.none() | st.integers(min_value=-2, max_value=60) for s in gunfight.WEAPON_STATS
        },
    )
    | anything
)
roll = (
    st.fixed_dictionaries(
        {
            "purpose": st.text(max_size=8),
            "dice": st.sampled_from(["D6", "D20", "D8"]),
            "rolled": st.lists(st.integers(min_value=-1, max_value=25), max_size=2),
        }
    )
    | anything
)
data = st.fixed_dictionaries(
    {},
    optional={
        "figure": st.sampled_from(["character", "trooper", "rabble", "horse", ""]) | anything,
        "character_type": st.sampled_from([*TYPES, "cowboy", ""]) | anything,
        "experience": st.sampled_from([*EXPERIENCE, "legend"]) | anything,
        "characteristics": st.dictionaries(
            st.sampled_from([*CHARACTERISTICS, "xx"]),
            st.integers(min_value=-3, max_value=14) | anything,
            max_size=6,
        )
        | anything,
        "abilities": st.lists(ability, max_size=5) | anything,
        "source": st.sampled_from(["rolled", "entered", "dreamt"]) | anything,
        "rolls": st.lists(roll, max_size=10) | anything,
        "weapons": st.lists(weapon, max_size=3) | anything,
        "count": st.integers(min_value=-2, max_value=50) | anything,
    },
)
member = st.fixed_dictionaries(
    {},
    optional={
        "key": st.text(max_size=3) | st.integers(min_value=0, max_value=5) | anything,
        "name": st.text(max_size=12) | anything,
        "data": data | anything,
    },
)
roster = st.fixed_dictionaries(
    {
        "format": st.just("gangfight-roster"),
        "version": st.just(1),
        "system": st.just("gunfight"),
        "name": st.text(max_size=10),
        "limit": st.none() | st.integers(min_value=0, max_value=2000),
        "gang": st.just({}) | anything,
        "members": st.lists(member | anything, max_size=10),
    }
)


@settings(max_examples=examples(400), deadline=None)
@given(roster)
def test_members_of_any_shape_always_evaluate_consistently(data):
    report = SYSTEM.evaluate(data)
    members = list(report.members.values())
    assert len(members) == len(data["members"])  # every member keeps its own key
    assert report.total == sum(m.cost for m in members)
    assert report.total >= 0
    keys = set(report.members)
    for finding in report.findings:
        assert finding.code in gunfight.RULE_CODES
        assert finding.severity in (Severity.ERROR, Severity.WARNING)
        assert finding.member is None or finding.member in keys
        assert finding.message.strip()
    # gang findings first, then each member's in order
    member_order = [f.member for f in report.findings if f.member is not None]
    seen = list(dict.fromkeys(member_order))
    assert seen == [k for k in report.members if k in seen]
    assert all(f.member is None for f in report.findings[: len(report.gang_findings)])
    assert report.is_legal == (not report.errors)
    for m in members:
        assert all(isinstance(a, str) and isinstance(b, str) for a, b in m.stats)
        assert all(isinstance(n, str) for n in m.notes)
        assert isinstance(m.summary, str)
        if m.figure == "character":
            assert m.cost in (1, 2)
            for _, value in m.stats[:5]:
                assert 1 <= int(value) <= 10  # clamped (RULES.md Decision)
    facts = dict(report.gang["facts"])
    assert facts["Figures"] == str(report.total)


@settings(max_examples=examples(300), deadline=None)
@given(anything)
def test_any_value_at_all_never_raises(value):
    report = SYSTEM.evaluate(value)
    assert report.total >= 0
    assert report.total == sum(m.cost for m in report.members.values())


@settings(max_examples=examples(200), deadline=None)
@given(
    st.integers(min_value=0, max_value=10**9),
    st.sampled_from(TYPES),
    st.sampled_from(list(EXPERIENCE)),
)
def test_rolled_characters_are_always_legal_and_logged(seed, character_type, experience):
    dice = Dice(random.Random(seed))
    data = SYSTEM.generate_character(dice, character_type, experience)
    assert data["rolls"] == [r.to_dict() for r in dice.log]
    assert len(data["abilities"]) == EXPERIENCE[experience]
    assert all(5 <= data["characteristics"][c] <= 10 for c in CHARACTERISTICS)
    report = SYSTEM.evaluate({"members": [{"key": "1", "name": "Rolled", "data": data}]})
    assert report.findings == []
    assert report.total == (2 if "loyal_sidekick" in data["abilities"] else 1)
