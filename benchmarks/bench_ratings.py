"""Benchmark the club ratings (``campaigns/leagues/ratings.py``, Glicko-2) at ladder scale.

    python3 -m uv run python benchmarks/bench_ratings.py [--sizes 20000 60000 200000]
    python3 -m uv run python benchmarks/bench_ratings.py --quick      # tiny, for CI

Pure Python, no Django and no database. For each size, a ladder of ``size / 100``
players plays league rounds of 16 matches (32 players drawn from the pool, a rating
period each) until there are ``size`` matches, random results (a third drawn), and
times:

- **full**: every rating computed from every match (``Ratings(games)``);
- **latest**: a newly confirmed match in the last round (``update([game])``: the last
  round is undone and rated again), on the full state;
- **correction**: the organiser's correction of a match ten rounds from the end (those
  ten rounds undone and rated again).

Each incremental run is checked against a full recompute once (``snapshot`` equal).
Figures are ratios to the ``loop`` calibration measured in the same run
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

from benchmarks.figures import Figures, calibrate_loop, median, timed  # noqa: E402
from campaigns.leagues.ratings import Game, Ratings  # noqa: E402

ROUND = 16  # matches a round (a rating period)


def ladder(size: int, seed: int = 7) -> list[Game]:
    rng = random.Random(seed)
    pool = list(range(1, max(size // 100, 2 * ROUND) + 1))
    games: list[Game] = []
    period = 0
    while len(games) < size:
        players = rng.sample(pool, 2 * ROUND)
        for i in range(0, len(players), 2):
            score = rng.choice((1.0, 0.0, 0.5))
            games.append(Game(period, len(games) + 1, players[i], players[i + 1], score))
            if len(games) == size:
                break
        period += 1
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 60_000, 200_000])
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.iterations = [400, 800], 2
    figures = Figures("loop", calibrate_loop())
    print(f"Python {platform.python_version()}, {platform.machine()}; {figures.header()}\n")
    print("| what | matches | runs | median ms | ratio |")
    print("|---|---|---|---|---|")
    for size in args.sizes:
        games = ladder(size)
        ms = median(timed(lambda games=games: Ratings(games), args.iterations))
        ratio = figures.figure(f"ratings.full.{size}", ms, matches=size)
        print(f"| full recompute | {size} | {args.iterations} | {ms:.1f} | {ratio:.2f} |")

        state = Ratings(games[:-1])
        last = games[-1]
        changed = Game(last.period, last.key, last.a, last.b, 0.0 if last.score else 1.0)
        flip = [last, changed]

        def latest(state=state, flip=flip):
            flip.reverse()
            state.update([flip[0]])

        latest()
        samples = timed(latest, 21)
        ratio = figures.figure(f"ratings.latest.{size}", median(samples), matches=size)
        print(f"| a new match, latest round | {size} | 21 | {median(samples):.2f} | {ratio:.4f} |")

        old = next(g for g in reversed(games) if g.period == games[-1].period - 10)
        fixed = [old, Game(old.period, old.key, old.a, old.b, 0.0 if old.score else 1.0)]
        state = Ratings(games)

        def correction(state=state, fixed=fixed):
            fixed.reverse()
            state.update([fixed[0]])

        samples = timed(correction, 21)
        ratio = figures.figure(f"ratings.correction.{size}", median(samples), matches=size)
        print(
            f"| a correction ten rounds back | {size} | 21 | {median(samples):.2f} | {ratio:.4f} |"
        )
        if fixed[0] is not old:
            correction()
        assert state.snapshot() == Ratings(games).snapshot(), "incremental differs from full"


if __name__ == "__main__":
    main()
