"""Benchmark the play log kept in the order taps were made (issue 29): a tap at the end,
and a late tap made early in the log, with 12 members a side.

    python3 -m uv run python benchmarks/bench_play_log.py [--iterations 30] [--sizes 100 200 400]
    python3 -m uv run python benchmarks/bench_play_log.py --quick        # tiny, a smoke test
    python3 -m uv run python benchmarks/bench_play_log.py --no-db        # the engine only
    python3 -m uv run python benchmarks/bench_play_log.py --profile      # and where it goes

A two-sided Rivals game (``--system``), each side the first legal example grown to
``--members`` (``bench_editors.grown``). Two phones ("pa", Alice; "pb", Bob) make a log of
``--sizes`` taps, one every 5 s of the server's clock, alternately: wounds, a wound taken
back, a few turns, and Bob's own copy of one of Alice's wounds now and then (the same
event recorded twice, counted once). Times:

- **engine, tap at the end**: what ``play.services.tap`` asks of the engine for a tap made
  after the whole log, in a process that has seen the log (a warm ``Checkpoints`` book):
  the state before, ``admit``, the state after (incremental: only the new tap is applied);
- **engine, late tap**: the same for a wound made near the log's start (at a tenth of
  it) on a third phone ("pc", Bob's, offline since: a phone's own taps keep their order,
  so the late tap comes from a phone with nothing stored after it) and sent now: it goes
  where it was made, so the state after is a replay of the whole log (the book's prefix
  no longer matches);
- **engine, cold replay**: ``replay`` of the whole log from nothing (for comparison);
- **server, late tap** (unless ``--no-db``): the late tap through ``play.services.tap``
  with the database (a throwaway test database, as ``bench_play.py`` makes: reading the
  log, the game row locked, the write, the book's replays), each run rolled back, the
  thread's book warm at the log's length before it (as between two taps of a game).

Engine figures are ratios to the ``loop`` calibration, server figures to the ``view``
calibration (a trivial view through the test client, same stack: ``benchmarks/figures.py``),
each measured in the same run; the growth is each size's figure over the first size's.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gangfight_site.settings")

from benchmarks.bench_editors import grown  # noqa: E402
from benchmarks.figures import (  # noqa: E402
    Figures,
    calibrate_loop,
    calibrate_view,
    median,
    timed,
)
from rules.play import Checkpoints, PlayError, Tap, replay, setup  # noqa: E402
from rules.play.engine import admit  # noqa: E402
from rules.roster import read_roster  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"
GAP = 5  # seconds between two taps of the log
PLAYERS = {"pa": "alice", "pb": "bob"}


def snapshot_for(system: str, members: int) -> dict:
    path = sorted(EXAMPLES.glob(f"{system}-legal-*.json"))[0]
    roster = grown(read_roster(path.read_bytes()), members)
    return setup(
        system,
        [
            {"id": s, "name": f"Side {s}", "gang": s, "player": PLAYERS[p], "roster": roster}
            for s, p in (("a", "pa"), ("b", "pb"))
        ],
    )


def wanted(snapshot: dict, count: int) -> list[tuple[str, str, dict]]:
    """The log's taps as the phones make them: (phone, kind, data), one every GAP s."""
    from rules.play import tracker_for

    harm = tracker_for(snapshot["system"]).harm.id
    keys = [m["key"] for m in snapshot["sides"][1]["members"]]
    out: list[tuple[str, str, dict]] = []
    i = 0
    while len(out) < count:
        member = f"b/{keys[i % len(keys)]}"
        wound = {"member": member, "amount": 1, "by": "a/2"}
        out.append(("pa", "wound", wound))
        if i % 4 == 1:  # Bob taps the same wound (one event, counted once)
            out.append(("pb", "wound", dict(wound)))
        out.append(("pb", "adjust", {"member": member, "counter": harm, "delta": 1}))
        if i % 10 == 9:
            out.append(("pa" if i % 20 == 9 else "pb", "turn", {"delta": 1 if i % 40 < 20 else -1}))
        i += 1
    return out[:count]


class Log:
    """A log written as ``play.services.tap`` writes it (engine only)."""

    def __init__(self, snapshot: dict, start: datetime):
        self.snapshot = snapshot
        self.start = start
        self.taps: list[Tap] = []
        self.numbers = {"pa": 0, "pb": 0}
        self.book = Checkpoints(snapshot)

    def tap(self, phone: str, kind: str, data: dict, t: float, book=None) -> None:
        book = book or self.book
        before = book.replay(self.taps)
        self.numbers[phone] += 1
        made = (self.start + timedelta(seconds=t)).isoformat()
        seq = len(self.taps) + 1
        new = Tap(seq, kind, data, PLAYERS[phone], made, made, phone, self.numbers[phone])
        stored = admit(self.snapshot, self.taps, before, new, None)
        self.taps.append(replace(new, data=stored))
        book.replay(self.taps)


def log_of(snapshot: dict, count: int, start: datetime) -> Log:
    log = Log(snapshot, start)
    for i, (phone, kind, data) in enumerate(wanted(snapshot, count)):
        try:
            log.tap(phone, kind, data, i * GAP)
        except PlayError as refused:  # (the script's taps all fit)
            raise SystemExit(f"tap {i + 1} refused: {refused.message}") from None
    return log


def engine_figures(args, figures: Figures, snapshot: dict, start: datetime) -> dict:
    rows = {}
    for n in args.sizes:
        log = log_of(snapshot, n, start)
        taps = log.taps
        state = replay(snapshot, taps)
        assert not state.held, [h.reason for h in state.held]
        end_t = n * GAP
        late_t = (n // 10) * GAP + 1  # made just after the log's tenth tap, sent now
        cases = {
            "end": Tap(
                n + 1,
                "wound",
                {"member": "b/1", "amount": 1, "by": "a/2"},
                "alice",
                "",
                (start + timedelta(seconds=end_t)).isoformat(),
                "pa",
                10_000,
            ),
            "late": Tap(
                n + 1,
                "wound",
                {"member": "b/1", "amount": 1, "by": "a/3"},
                "bob",
                "",
                (start + timedelta(seconds=late_t)).isoformat(),
                "pc",
                1,
            ),
        }
        for name, new in cases.items():
            samples = []
            for _ in range(args.iterations):
                book = Checkpoints(snapshot)
                book.replay(taps)  # the process has seen the log so far

                def run(book=book, new=new, taps=taps):
                    before = book.replay(taps)
                    stored = admit(snapshot, taps, before, new, None)
                    after = book.replay([*taps, replace(new, data=stored)])
                    assert new.seq in after.effective

                samples += timed(run, 1)
            ms = median(samples)
            rows[(name, n)] = (ms, figures.figure(f"play_log.{name}.{n}", ms, taps=n))
        ms = median(timed(lambda taps=taps: replay(snapshot, taps), args.iterations))
        rows[("cold", n)] = (ms, figures.figure(f"play_log.cold.{n}", ms, taps=n))
    return rows


def profile(func, warm, runs: int = 20, top: int = 25) -> None:
    """cProfile ``func`` over ``runs`` runs (``warm`` before each, not profiled)."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    for _ in range(runs):
        warm()
        profiler.enable()
        func()
        profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    print(f"\nprofile of {runs} late taps, by cumulative time:")
    stats.sort_stats("cumulative").print_stats(top)
    print("by own time:")
    stats.sort_stats("tottime").print_stats(top)


def server_figures(args, snapshot: dict) -> tuple[Figures, dict]:
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "benchmark-only-" + "x" * 40)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SITE_URL", "http://testserver")  # required with DEBUG off
    os.environ.setdefault("SECURE_COOKIES", "0")
    import django
    from django.conf import settings

    django.setup()
    settings.ROOT_URLCONF = "benchmarks.trivial_urls"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from django.test import Client
    from django.urls import clear_url_caches, reverse
    from django.utils import timezone

    from gangfight_site.startup import settle
    from play import services
    from play.models import Game

    clear_url_caches()
    settle()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    rows = {}
    try:
        alice = User.objects.create_user("alice", password="x" * 12)
        bob = User.objects.create_user("bob", password="x" * 12)
        users = {"pa": alice, "pb": bob}
        client = Client()
        client.force_login(alice)
        figures = Figures("view", calibrate_view(client, reverse("bench_trivial")))
        print(f"server: {connection.vendor}; {figures.header()}")
        for n in args.sizes:
            start = timezone.now() - timedelta(hours=1)
            game = Game.objects.create(
                owner=alice, system=snapshot["system"], name="Bench", snapshot=snapshot
            )
            game.players.add(alice, bob)
            Game.objects.filter(pk=game.pk).update(created=start - timedelta(minutes=1))
            game.refresh_from_db()
            numbers = {"pa": 0, "pb": 0}
            for i, (phone, kind, data) in enumerate(wanted(snapshot, n)):
                numbers[phone] += 1
                services.tap(
                    game,
                    users[phone],
                    kind,
                    data,
                    f"{phone}-{numbers[phone]}",
                    made_at=start + timedelta(seconds=i * GAP),
                    phone=phone,
                    phone_seq=numbers[phone],
                    seen=game.version,
                )
            late = start + timedelta(seconds=(n // 10) * GAP + 1)
            wound = {"member": "b/1", "amount": 1, "by": "a/3"}

            class Rollback(Exception):
                pass

            def late_tap(game=game, late=late, wound=wound, n=n):
                try:
                    with transaction.atomic():
                        after, _shown, new = services.tap(
                            game,
                            bob,
                            "wound",
                            wound,
                            "late",
                            made_at=late,
                            phone="pc",
                            phone_seq=1,
                            seen=None,
                        )
                        assert new and after.version == n + 1, (after.version, n)
                        assert not after.held, [h.reason for h in after.held]
                        raise Rollback
                except Rollback:
                    pass

            samples = []
            for _ in range(args.iterations):
                game.refresh_from_db()
                services.state_of(game)  # the thread's book has seen the log (warm)
                samples += timed(late_tap, 1)
            ms = median(samples)
            if args.profile and n == max(args.sizes):
                profile(late_tap, lambda g=game: (g.refresh_from_db(), services.state_of(g)))
            rows[("server_late", n)] = (ms, figures.figure(f"play_log.server_late.{n}", ms, taps=n))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return figures, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400])
    parser.add_argument("--members", type=int, default=12)
    parser.add_argument("--system", default="rivals")
    parser.add_argument("--no-db", action="store_true", help="the engine only")
    parser.add_argument("--profile", action="store_true", help="cProfile the server's late tap")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for a smoke test")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.iterations = [20, 40], 2

    snapshot = snapshot_for(args.system, args.members)
    start = datetime(2026, 11, 24, 19, 0, tzinfo=UTC)
    loop = Figures("loop", calibrate_loop())
    print(
        f"Python {platform.python_version()}, {platform.machine()}; `{args.system}`, "
        f"{args.members} members a side, taps {GAP} s apart from two phones; "
        f"engine: {loop.header()}"
    )
    rows = engine_figures(args, loop, snapshot, start)
    view = None
    if not args.no_db:
        view, server_rows = server_figures(args, snapshot)
        rows.update(server_rows)
    labels = {
        "end": ("engine · tap at the end (incremental)", "loop"),
        "late": ("engine · late tap, made at a tenth of the log (full replay)", "loop"),
        "cold": ("engine · cold replay of the whole log", "loop"),
        "server_late": ("server · late tap through `play.services.tap` (SQLite)", "view"),
    }
    first = args.sizes[0]
    print()
    print("| what | taps | runs | median ms | ratio | calibration | growth |")
    print("|---|---|---|---|---|---|---|")
    for key, (label, calibration) in labels.items():
        for n in args.sizes:
            if (key, n) not in rows:
                continue
            ms, ratio = rows[(key, n)]
            growth = ratio / rows[(key, first)][1] if rows[(key, first)][1] else 0.0
            print(
                f"| {label} | {n} | {args.iterations} | {ms:.2f} | {ratio:.3f} | "
                f"{calibration} | x{growth:.2f} |"
            )
    print()
    print(f"calibrations: loop {loop.calibration_ms:.2f} ms", end="")
    print(f", view {view.calibration_ms:.2f} ms" if view else " (no database: --no-db)")


if __name__ == "__main__":
    main()
