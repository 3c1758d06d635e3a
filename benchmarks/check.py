"""Run the benchmarks and compare their ratios with the ones docs/benchmarks.md records.

    python3 -m uv run python benchmarks/check.py            # the full set, compared
    python3 -m uv run python benchmarks/check.py --record   # the same, written as recorded
    python3 -m uv run python benchmarks/check.py --quick    # tiny sizes: a smoke test (CI)

Each benchmark prints its figures as ratios to a calibration measured in the same run
(``benchmarks/figures.py``: one ``FIGURE {json}`` line each). This script runs them with
``BENCH_FIGURES`` naming a file they append to, then reads the table under "Recorded
figures" in docs/benchmarks.md (``| name | ratio |``) and fails when a figure's ratio is
more than ``--tolerance`` (30 %) above the recorded one: a figure that got slower against
the same calibration. A figure faster than recorded is reported, not failed (record it).

A figure found slower is measured once more (its benchmark runs again) and keeps its
better run, and ``--record`` keeps the slower of two runs: one busy or lucky moment does
not fail the check.

``--quick`` runs every benchmark at its tiny sizes and only checks that each one ran and
printed its figures: the sizes are not the recorded ones, and CI's machine is not quiet
enough to compare timings (a non-timing smoke test, seconds not minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
HEADING = "## Recorded figures"
#: the benchmarks that print ratio figures, with the arguments of their full run
BENCHMARKS = {
    "bench_standings.py": [],
    "bench_swiss.py": [],
    "bench_campaign.py": [],
    "bench_league.py": [],
}
#: which benchmark prints a figure, by the figure's first word
SCRIPT_OF = {
    "standings": "bench_standings.py",
    "swiss": "bench_swiss.py",
    "campaign": "bench_campaign.py",
    "league": "bench_league.py",
}
ROW = re.compile(r"^\| `([\w.]+)` \| ([0-9.]+) \|", re.M)


def recorded(text: str) -> dict[str, float]:
    """The recorded ratios: the table under ``HEADING`` in docs/benchmarks.md."""
    start = text.find(HEADING)
    if start < 0:
        return {}
    section = text[start : text.find("\n## ", start + len(HEADING))]
    return {name: float(ratio) for name, ratio in ROW.findall(section)}


def run(quick: bool, only: set[str] | None = None) -> tuple[dict[str, dict], list[str]]:
    """Every benchmark's figures (by name), and the benchmarks that failed (``only``: those
    scripts alone)."""
    failed = []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "figures.jsonl"
        env = {**os.environ, "BENCH_FIGURES": str(out)}
        env.pop("DATABASE_URL", None)  # a database of the benchmark's own
        for script, arguments in BENCHMARKS.items():
            if only is not None and script not in only:
                continue
            command = [sys.executable, str(ROOT / "benchmarks" / script)]
            command += ["--quick"] if quick else arguments
            print(f"==> {' '.join(command[1:])}", flush=True)
            before = out.read_text("utf-8").count("\n") if out.exists() else 0
            done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
            after = out.read_text("utf-8").count("\n") if out.exists() else 0
            if done.returncode != 0 or after - before < 2:  # a calibration and a figure
                failed.append(script)
                print(done.stdout[-2000:], done.stderr[-4000:], sep="\n")
        lines = out.read_text("utf-8").splitlines() if out.exists() else []
    figures = {}
    for line in lines:
        data = json.loads(line.removeprefix("FIGURE "))
        if not data["name"].startswith("calibration.") and not data["name"].startswith("before."):
            figures[data["name"]] = data
    return figures, failed


def compare(figures: dict[str, dict], known: dict[str, float], tolerance: float) -> list[str]:
    """The figures slower than recorded by more than ``tolerance``, said for people."""
    slower = []
    for name, data in sorted(figures.items()):
        if name not in known:
            print(f"  {name}: {data['ratio']:.3f} (not recorded)")
            continue
        change = data["ratio"] / known[name] - 1 if known[name] else 0.0
        verdict = "SLOWER" if change > tolerance else ("faster" if change < -tolerance else "ok")
        print(f"  {name}: {data['ratio']:.3f} against {known[name]:.3f} ({change:+.0%}) {verdict}")
        if verdict == "SLOWER":
            slower.append(name)
    return slower


def record(text: str, figures: dict[str, dict]) -> str:
    """docs/benchmarks.md with its "Recorded figures" table replaced by ``figures``."""
    rows = "\n".join(
        f"| `{name}` | {data['ratio']:.4f} | {data['calibration']} |"
        for name, data in sorted(figures.items())
    )
    section = (
        f"{HEADING} (`benchmarks/check.py`)\n\n"
        "The ratios `benchmarks/check.py` compares new runs with (written by its `--record`; "
        "each is a figure's median over its calibration measured in the same run).\n\n"
        f"| figure | ratio | calibration |\n|---|---|---|\n{rows}\n"
    )
    start = text.find(HEADING)
    if start < 0:
        return text.rstrip("\n") + "\n\n" + section
    end = text.find("\n## ", start + len(HEADING))
    return text[:start] + section + (text[end:] if end >= 0 else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, no comparison")
    parser.add_argument("--record", action="store_true", help="write the ratios as recorded")
    parser.add_argument("--tolerance", type=float, default=0.30)
    args = parser.parse_args(argv)
    figures, failed = run(args.quick)
    if failed:
        print(f"FAILED: {', '.join(failed)} did not run or printed no figures")
        return 1
    if args.quick:
        print(f"{len(figures)} figures from {len(BENCHMARKS)} benchmarks (quick: not compared)")
        return 0
    text = DOC.read_text("utf-8")
    if args.record:
        # Recorded: the slower of two runs of each figure (compared: the faster of up to
        # two), so that the check fails on a regression, not on one lucky or busy run.
        more, failed = run(False)
        if failed:
            print(f"FAILED: {', '.join(failed)} did not run or printed no figures")
            return 1
        for name, data in more.items():
            if name in figures and data["ratio"] > figures[name]["ratio"]:
                figures[name] = data
        DOC.write_text(record(text, figures), "utf-8")
        print(f"{len(figures)} figures recorded in {DOC.relative_to(ROOT)}")
        return 0
    known = recorded(text)
    slower = compare(figures, known, args.tolerance)
    if slower:
        # A busy moment slows one run: the benchmarks of the slower figures run once more,
        # and each figure keeps its better run.
        again = {SCRIPT_OF.get(name.split(".")[0], "") for name in slower}
        print(f"==> {len(slower)} figures slower: running {', '.join(sorted(again))} again")
        more, failed = run(False, again)
        for name, data in more.items():
            if name in figures and data["ratio"] < figures[name]["ratio"]:
                figures[name] = data
        slower = compare(figures, known, args.tolerance) if not failed else slower
    if slower:
        print(f"FAILED: {len(slower)} figures over {args.tolerance:.0%} slower: {slower}")
        return 1
    print("every recorded figure within its tolerance")
    return 0


if __name__ == "__main__":
    sys.exit(main())
