"""Benchmark the standings arithmetic at ladder scale (``campaigns/leagues/standings.py``).

    python3 -m uv run python benchmarks/bench_standings.py [--sizes 500 2000 5000]
    python3 -m uv run python benchmarks/bench_standings.py --quick      # tiny, for CI

Pure Python, no Django and no database. For each size, a league of that many players
plays ``--rounds`` (20) rounds of random pairings, so ten times as many matches as
players (5,000 players: 50,000 matches), and times:

- **results**: ``standings(players, results, scoring, tiebreaks)`` from every confirmed
  result (what the rebuild command and a league without stored tallies compute), with
  random Victory Points (the winner by VP, a draw on equal VP);
- **ties**: the same league with every match a draw at 10-10: everyone on the same points,
  Victory Point difference and strength of schedule, so every tiebreaker is tried on one
  group of everybody (head-to-head skipped: they have not all met);
- **ties, random VP**: every match a draw, with random Victory Points: one group on
  points, split by VP difference into many small groups, each ranked again;
- **tallies**: ``standings_from_tallies`` from each player's stored tallies (what the
  league page reads: ``Registration``'s totals), where the module has it.

``--before COMMIT`` times the module as it was at that commit instead (loaded beside
today's; the figures are named ``before.…``), in the same run and against the same
calibration.

Each figure is printed as a ratio to the ``loop`` calibration measured in the same run
(``benchmarks/figures.py``); ``benchmarks/check.py`` compares them with
docs/benchmarks.md.
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
from campaigns.leagues import standings as arithmetic  # noqa: E402


def league(players: int, rounds: int, kind: str, seed: int = 7):
    """(players, results): ``rounds`` rounds of random pairings (an odd player out has a
    bye), results by ``kind``: "results" (random VP, the winner by VP), "ties" (every
    match a draw, 10-10) or "ties_vp" (every match a draw, random VP)."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    names = [(p, f"Gang {p:05}") for p in ids]
    results = []
    for number in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        if len(order) % 2:
            results.append(arithmetic.Result(number, order.pop(), None))
        for i in range(0, len(order), 2):
            a, b = order[i], order[i + 1]
            if kind == "ties":
                results.append(arithmetic.Result(number, a, b, 10, 10, None))
                continue
            vp_a, vp_b = rng.randint(0, 20), rng.randint(0, 20)
            if kind == "ties_vp":
                results.append(arithmetic.Result(number, a, b, vp_a, vp_b, None))
                continue
            winner = a if vp_a > vp_b else (b if vp_b > vp_a else None)
            results.append(arithmetic.Result(number, a, b, vp_a, vp_b, winner))
    return names, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 2000, 5000])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--before", metavar="COMMIT", help="time the module at COMMIT")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.rounds, args.iterations = [20, 40], 4, 2
    module, prefix = arithmetic, ""
    if args.before:
        path = "campaigns/leagues/standings.py"
        module, prefix = module_at(args.before, path, "standings_before"), "before."

    figures = Figures("loop", calibrate_loop())
    print(f"Python {platform.python_version()}, {platform.machine()}; {figures.header()}\n")
    print("| what | players | matches | runs | median ms | ratio |")
    print("|---|---|---|---|---|---|")
    scoring = module.Scoring()
    tiebreaks = module.DEFAULT_TIEBREAKS
    from_tallies = getattr(module, "standings_from_tallies", None)
    for kind, label in (("results", "results"), ("ties", "ties"), ("ties_vp", "ties, random VP")):
        for size in args.sizes:
            players, results = league(size, args.rounds, kind)
            matches = sum(1 for r in results if r.b is not None)

            if prefix:
                results = [
                    module.Result(r.round, r.a, r.b, r.vp_a, r.vp_b, r.winner) for r in results
                ]

            def run(players=players, results=results):
                return module.standings(players, results, scoring, tiebreaks)

            run()
            ms = median(timed(run, args.iterations))
            ratio = figures.figure(
                f"{prefix}standings.{kind}.{size}", ms, players=size, matches=matches
            )
            print(f"| {label} | {size} | {matches} | {args.iterations} | {ms:.2f} | {ratio:.2f} |")
            if kind == "results" and from_tallies is not None:
                tallies = module.tally(players, results)
                meetings = module.Meetings(results)
                # (name, tally) per player, as the league page reads them from Registration

                def stored(players=players, tallies=tallies, meetings=meetings):
                    return from_tallies(
                        [(pid, name, tallies[pid]) for pid, name in players],
                        scoring,
                        tiebreaks,
                        meetings.among,
                    )

                stored()
                ms = median(timed(stored, args.iterations))
                ratio = figures.figure(f"{prefix}standings.tallies.{size}", ms, players=size)
                print(
                    f"| from stored tallies | {size} | {matches} | {args.iterations} | "
                    f"{ms:.2f} | {ratio:.2f} |"
                )


if __name__ == "__main__":
    main()
