"""The printed fallback of play mode: the quick reference's tracking grid (issue 20, 6)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string

from builder import printing
from builder.printing import documents
from rules import get_system
from rules.roster import read_roster

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def grid(name: str) -> str:
    roster = read_roster((EXAMPLES / name).read_bytes())
    report = get_system(roster["system"]).evaluate(roster)
    return render_to_string("pdf/_tracking_grid.html", {"roster": roster, "report": report})


def boxes(html: str, name: str) -> int:
    row = re.search(rf"<tr><td>{re.escape(name)}</td>(.*?)</tr>", html, re.S)
    assert row, name
    cells = row.group(1).split('<td class="status">')[0]
    return cells.count('class="box"')


def test_each_member_has_a_box_per_counter_point():
    html = grid("bwg1-legal-dalton-boys.json")
    assert "HP 3" in html and "Luck 3" in html
    assert boxes(html, "Bob Dalton") == 3 + 3  # Health and the Leader's Luck dice
    assert boxes(html, "Bill Power") == 1


@pytest.mark.parametrize(
    "name, wanted",
    [
        ("rivals-legal-red-jacks-gang.json", ["Round: ", "<span>10</span>", "Act. 4"]),
        ("gf26-legal-iron-company.json", ["Action Points each turn: 12", "EN 5"]),
        ("gunfight-legal-lawman-posse.json", ["BD 5", "WP 6"]),
        ("bwg2-legal-tranquility-crew-700.json", ["HP 4", "Cons. 2", "<span>6</span></p>"]),
    ],
)
def test_each_system_prints_its_own_counters(name, wanted):
    html = grid(name)
    for text in wanted:
        assert text in html, text


def test_the_quick_reference_carries_the_grid():
    roster = read_roster((EXAMPLES / "rivals-legal-red-jacks-gang.json").read_bytes())
    html = documents.reference_html(printing.prepare(roster), printing.PAPERS["a4"])
    assert "Tracking grid" in html and "<td>Sarah</td>" in html
