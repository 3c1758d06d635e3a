"""benchmarks/check.py: the benchmarks run (a smoke test, at their tiny sizes) and a figure
that got slower than docs/benchmarks.md records, against its own calibration, fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import check  # noqa: E402

DOC = """# Benchmarks

## Something else

| `not.this` | 9.0 |

## Recorded figures (`benchmarks/check.py`)

| figure | ratio | calibration |
|---|---|---|
| `standings.results.5000` | 4.0000 | loop |
| `swiss.round.128` | 2.0000 | loop |

## Later
"""


def figure(name: str, ratio: float) -> dict:
    return {"name": name, "ratio": ratio, "calibration": "loop"}


def test_the_recorded_ratios_are_read_from_their_section_only():
    assert check.recorded(DOC) == {"standings.results.5000": 4.0, "swiss.round.128": 2.0}


@pytest.mark.parametrize(
    ("ratio", "slower"),
    [(4.0, []), (5.1, []), (5.3, ["standings.results.5000"]), (1.0, [])],
)
def test_a_figure_more_than_30_percent_slower_fails(ratio, slower):
    figures = {"standings.results.5000": figure("standings.results.5000", ratio)}
    assert check.compare(figures, check.recorded(DOC), 0.30) == slower


def test_recording_replaces_the_table_and_keeps_the_rest():
    figures = {"swiss.round.128": figure("swiss.round.128", 2.5)}
    text = check.record(DOC, figures)
    assert check.recorded(text) == {"swiss.round.128": 2.5}
    assert "## Something else" in text and "## Later" in text and "`not.this`" in text


def test_every_benchmark_runs_and_prints_its_figures():
    """The quick run CI makes: each benchmark at its tiny sizes (no timing compared)."""
    done = subprocess.run(
        [sys.executable, "benchmarks/check.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert f"from {len(check.BENCHMARKS)} benchmarks" in done.stdout
