"""Benchmark a Swiss round at growing fields (``campaigns/leagues/pairing.py`` ``swiss``).

    python3 -m uv run python benchmarks/bench_swiss.py [--sizes 24 50 128 256 512]
    python3 -m uv run python benchmarks/bench_swiss.py --quick      # tiny, for CI

Pure Python, no Django and no database. For each size, a league plays ``--rounds`` (5)
Swiss rounds with random results (3 / 1 / 0; the first round folded, the others paired
by ``swiss`` itself, ranked by the standings), then the next round is timed: ``swiss()``
with the standings' order, the scores, every pair who met and every bye so far. An odd
size has a bye. The league is played once per size, before timing.

``--before COMMIT`` times ``swiss`` as it was at that commit instead (the league is
played with today's code either way; the figures are named ``before.…``).

Each figure is printed as a ratio to the ``loop`` calibration measured in the same run
(``benchmarks/figures.py``).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import Figures, calibrate_loop, median, module_at, timed  # noqa: E402
from campaigns.leagues.pairing import fold, swiss  # noqa: E402
from campaigns.leagues.standings import Result, Scoring, standings  # noqa: E402


def played(size: int, rounds: int, seed: int = 11):
    """The state before round ``rounds + 1``: (ranked, met, byes, scores)."""
    rng = random.Random(seed)
    players = [(p, f"P{p:04}") for p in range(1, size + 1)]
    results: list[Result] = []
    met: list[tuple[int, int]] = []
    byes: list[int] = []
    for number in range(1, rounds + 1):
        rows = standings(players, results, Scoring())
        ranked = [r.player for r in rows]
        scores = {r.player: r.points for r in rows}
        pairs = fold(ranked) if number == 1 else swiss(ranked, met, byes, scores)
        for a, b in pairs:
            if b is None:
                byes.append(a)
                results.append(Result(number, a, None))
                continue
            met.append((a, b))
            roll = rng.random()
            winner = None if roll < 0.15 else (a if roll < 0.575 else b)
            results.append(Result(number, a, b, rng.randint(0, 15), rng.randint(0, 15), winner))
    rows = standings(players, results, Scoring())
    return [r.player for r in rows], met, byes, {r.player: r.points for r in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[24, 50, 128, 256, 512])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--before", metavar="COMMIT", help="time swiss() at COMMIT")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.rounds, args.iterations = [8, 13], 3, 2
    pair, prefix = swiss, ""
    if args.before:
        path = "campaigns/leagues/pairing.py"
        pair, prefix = module_at(args.before, path, "pairing_before").swiss, "before."

    figures = Figures("loop", calibrate_loop())
    print(f"Python {platform.python_version()}, {platform.machine()}; {figures.header()}\n")
    print("| players | round | score groups | runs | median ms | ratio |")
    print("|---|---|---|---|---|---|")
    for size in args.sizes:
        ranked, met, byes, scores = played(size, args.rounds)

        def run(ranked=ranked, met=met, byes=byes, scores=scores):
            return pair(ranked, met, byes, scores)

        iterations = args.iterations if size <= 256 else max(2, args.iterations // 2)
        ms = median(timed(run, iterations))
        groups = len(set(scores.values()))
        ratio = figures.figure(f"{prefix}swiss.{size}", ms, players=size, groups=groups)
        print(f"| {size} | {args.rounds + 1} | {groups} | {iterations} | {ms:.2f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
