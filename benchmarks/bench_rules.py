"""Benchmark the rules engine: validate a 20-member roster of each game system.

    python3 -m uv run python benchmarks/bench_rules.py [--iterations 2000] [--members 20]

Pure Python, no Django and no database. Each system's roster is its legal example in
docs/examples/, its members repeated until there are ``--members`` of them (new keys,
same data). Times, per roster:

- **evaluate**: the rules engine's totals and findings (what the builder runs on every
  change, and ``validate_roster`` after reading);
- **read + evaluate**: the whole ``validate_roster`` path from text: JSON decoding, the
  schema check (``rules.roster.read_roster``), then ``evaluate``.

It prints a Markdown table; copy it into docs/benchmarks.md with the date and machine.
"""

from __future__ import annotations

import argparse
import copy
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules import all_systems, get_system  # noqa: E402
from rules.roster import read_roster, write_roster  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"


def roster_of(system_id: str, size: int) -> dict:
    """The system's first legal example, its members repeated to ``size``."""
    path = sorted(EXAMPLES.glob(f"{system_id}-legal-*.json"))[0]
    roster = json.loads(path.read_text())
    members = roster["members"]
    roster["members"] = [
        {**copy.deepcopy(members[i % len(members)]), "key": str(i + 1)} for i in range(size)
    ]
    return roster


def timed(func, iterations: int) -> list[float]:
    samples = []
    for _ in range(iterations):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--members", type=int, default=20)
    args = parser.parse_args()

    print(f"{platform.python_implementation()} {platform.python_version()}, {args.members} members")
    print()
    print("| system | what | runs | median ms | p95 ms | min ms | findings |")
    print("|---|---|---|---|---|---|---|")
    for system in all_systems():
        roster = roster_of(system.id, args.members)
        text = write_roster(roster)
        engine = get_system(system.id)
        findings = len(engine.evaluate(roster).findings)
        for label, func in (
            ("evaluate", lambda e=engine, r=roster: e.evaluate(r)),
            ("read + evaluate", lambda e=engine, t=text: e.evaluate(read_roster(t))),
        ):
            func()  # warm up (schema validators are built once and cached)
            samples = timed(func, args.iterations)
            p95 = statistics.quantiles(samples, n=20)[-1]
            print(
                f"| `{system.id}` | {label} | {args.iterations} | "
                f"{statistics.median(samples):.3f} | {p95:.3f} | {min(samples):.3f} | "
                f"{findings} |"
            )


if __name__ == "__main__":
    main()
