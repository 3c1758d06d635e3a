"""Benchmark play mode at the table: a tap's answer and the other phone's poll, with 12
members a side, against a trivial view of the same stack.

    uv run python benchmarks/bench_play.py [--iterations 200] [--members 12] [--log 0 200]

DEBUG off and the process settled, as in production (like ``bench_editors.py``). Builds a
throwaway test database, makes a two-sided game of each system from its first legal
example grown to ``--members`` a side (``bench_editors.grown``), optionally with a log of
``--log`` taps already made, and times through Django's test client (the whole stack:
middleware, session, view, the service in its transaction with the game row locked, the
replay of the whole log, the table's template):

- **tap**: one POST with HX-Request (a wound, then the Health back, alternately), and its
  answer: the table partial, which the phone morphs into the page (the phone says which
  version it shows, so the trackers it already shows as they are come as placeholders);
- **poll, no change**: the other phone's poll when it already shows the last version (204);
- **poll, changed**: the poll after a tap (the table partial).

It prints a Markdown table; copy it into docs/benchmarks.md with the date and machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gangfight_site.settings")

from benchmarks.bench_builder import timed  # noqa: E402
from benchmarks.bench_editors import grown, stats  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--members", type=int, default=12)
    parser.add_argument("--log", type=int, nargs="+", default=[0, 200])
    parser.add_argument("--systems", nargs="*", default=None)
    args = parser.parse_args()

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
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import clear_url_caches, reverse

    from gangfight_site.startup import settle
    from play import services
    from play.models import Game
    from rules import all_systems
    from rules.play import setup, tracker_for
    from rules.roster import read_roster

    clear_url_caches()
    settle()
    examples = sorted((ROOT / "docs" / "examples").glob("*-legal-*.json"))
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    hx = {"HTTP_HX_REQUEST": "true"}
    try:
        user = User.objects.create_user("bench", password="x" * 12)
        client = Client()
        client.force_login(user)

        def measure(label, request, status=200):
            with CaptureQueriesContext(connection) as ctx:
                response = request()
            assert response.status_code == status, (label, response.status_code)
            queries = len(ctx.captured_queries)
            size = len(response.content) / 1024
            median, p95 = stats(timed(request, args.iterations))
            runs = args.iterations
            print(f"| {label} | {runs} | {median:.2f} | {p95:.2f} | {size:.1f} | {queries} |")

        print(
            f"DEBUG off · {platform.machine()} · Python {platform.python_version()} · "
            f"{connection.vendor} · {args.members} members a side\n"
        )
        print("| what | runs | median ms | p95 ms | KB | queries |")
        print("|---|---|---|---|---|---|")
        trivial = reverse("bench_trivial")
        measure("trivial view (same stack)", lambda: client.get(trivial))
        for system in all_systems():
            if args.systems and system.id not in args.systems:
                continue
            path = next(p for p in examples if p.name.startswith(f"{system.id}-legal-"))
            roster = grown(read_roster(path.read_bytes()), args.members)
            sides = [
                {"id": s, "name": f"Side {s}", "gang": s, "player": "bench", "roster": roster}
                for s in ("a", "b")
            ]
            harm = tracker_for(system.id).harm.id
            for log in args.log:
                game = Game.objects.create(
                    owner=user, system=system.id, name="Bench", snapshot=setup(system.id, sides)
                )
                game.players.add(user)
                for i in range(log):  # a long game: turns back and forth
                    services.tap(game, user, "turn", {"delta": 1 if i % 2 == 0 else -1})
                url = reverse("play_tap", args=[game.pk])
                table = reverse("play_game", args=[game.pk])
                flip = [0]
                game.refresh_from_db()
                shows = [game.version]  # the version the phone shows, as play.js sends it

                def tap(url=url, flip=flip, harm=harm, shows=shows):
                    flip[0] ^= 1
                    do = "wound/1" if flip[0] else f"adjust/{harm}/1"
                    data = {"do": do, "member": "b/2", "v": shows[0]}
                    response = client.post(url, data, **hx)
                    shows[0] = int(re.search(rb'data-version="(\d+)"', response.content)[1])
                    return response

                name = f"`{system.id}` log {log}"
                measure(f"{name} · tap", tap)
                game.refresh_from_db()
                measure(
                    f"{name} · poll, no change",
                    lambda t=table, g=game: client.get(t, {"v": str(g.version)}, **hx),
                    status=204,
                )
                measure(f"{name} · poll, changed", lambda t=table: client.get(t, {"v": "0"}, **hx))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
