"""The scenario and deployment lists read from rules/data/scenarios.json."""

from __future__ import annotations

import json
import re

from rules import all_systems
from rules.scenarios import DATA, Choice, canonical, lists_for


def test_every_listed_system_exists_and_every_entry_says_where_it_comes_from():
    systems = {s.id for s in all_systems()}
    data = json.loads(DATA.read_text("utf-8"))["systems"]
    assert set(data) <= systems
    for system_id in data:
        lists = lists_for(system_id)
        entries = lists.scenarios + lists.deployments
        assert entries, system_id
        assert re.match(r"seed \d{3}\b", lists.source)
        for entry in entries:
            assert re.match(r"seed \d{3}\b", entry.source), entry
            assert entry.name.strip() == entry.name and len(entry.name) <= 80
        assert bool(lists.scenarios) == bool(lists.scenarios_where)
        assert bool(lists.deployments) == bool(lists.deployments_where)
        names = [e.name.casefold() for e in lists.scenarios]
        assert len(names) == len(set(names))


def test_the_books_lists():
    bwg1 = lists_for("bwg1")
    assert [c.name for c in bwg1.scenarios] == [
        "This Town Ain't Big Enough",
        "Manhunt",
        "Stay of Execution",
        "Gold Rush",
    ]
    assert [c.name for c in bwg1.deployments] == [
        "High Noon",
        "Cornered",
        "Outnumbered",
        "Outnumbered & Cornered",
    ]
    assert bwg1.deployments[0].book_name == "Midi pile"
    assert [c.name for c in lists_for("bwg2").deployments] == [
        "High Noon",
        "Cornered",
        "Surrounded",
    ]
    assert [c.name for c in lists_for("rivals").scenarios][-1] == "Homestead"


def test_a_system_whose_book_has_no_list_gets_empty_lists():
    for system_id in ("gf26", "gunfight", "no-such-game"):
        lists = lists_for(system_id)
        assert lists.scenarios == () and lists.deployments == ()


def test_canonical_spelling_by_name_or_book_title_else_as_typed():
    choices = (Choice("High Noon", "seed 002, p. 25", book_name="Midi pile"),)
    assert canonical(choices, "high  noon") == "High Noon"
    assert canonical(choices, "MIDI PILE") == "High Noon"
    assert canonical(choices, "Our own") == "Our own"
    assert canonical(choices, "") == ""
    assert canonical((Choice("Cornered", "seed 000"),), "") == ""
