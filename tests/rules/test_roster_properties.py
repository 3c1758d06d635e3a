"""Properties of every system, over any roster that fits the schema (hypothesis).

The rosters are drawn from the roster file's own JSON Schema (``tests/schema_strategy.py``),
so the engine is tried on exactly the files ``read_roster`` lets through.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import all_systems, get_system
from rules.roster import check_roster, read_roster, system_schema, write_roster
from tests.helpers.properties import examples
from tests.schema_strategy import from_schema

SYSTEM_IDS = [s.id for s in all_systems()]
PROPERTY_SETTINGS = settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)


def rosters(system_id: str) -> st.SearchStrategy[dict]:
    schema = system_schema(get_system(system_id))
    schema["properties"]["members"]["maxItems"] = 8  # enough to meet every gang rule
    # The pack content a file may carry is checked per kind by conditional subschemas
    # (allOf/if), which the strategy can't draw: tests/test_pack_files.py covers it.
    schema["properties"].pop("content", None)
    return from_schema(schema)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_every_system_has_a_schema_that_checks(system_id):
    system = get_system(system_id)
    assert system.member_schema["type"] == "object"
    assert system.gang_schema["type"] == "object"


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_evaluation_never_raises_and_adds_up(system_id, data):
    roster = data.draw(rosters(system_id))
    assert check_roster(roster) == []
    system = get_system(system_id)
    report = system.evaluate(roster)

    assert report.total == sum(m.cost for m in report.members.values())
    documented = {r.code for r in system.rules}
    for finding in report.findings:
        assert finding.code in documented
        assert finding.member is None or finding.member in report.members
        assert finding.message.strip()
    for member in report.members.values():
        assert isinstance(member.summary, str)
        assert all(isinstance(label, str) and isinstance(v, str) for label, v in member.stats)
        assert all(isinstance(note, str) for note in member.notes)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in report.gang["facts"])


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_write_then_read_gives_the_same_roster(system_id, data):
    roster = data.draw(rosters(system_id))
    assert read_roster(write_roster(roster)) == roster
    assert read_roster(write_roster(roster).encode()) == roster
