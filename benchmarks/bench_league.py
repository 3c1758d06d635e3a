"""Benchmark a big league's pages: 500 to 5,000 registered gangs, ten matches each.

    uv run python benchmarks/bench_league.py [--players 500 2000 5000] [--rounds 20]
    uv run python benchmarks/bench_league.py --quick        # tiny, for CI
    psql -h 127.0.0.1 -U postgres -c 'DROP DATABASE IF EXISTS costs_bench' \\
        -c 'CREATE DATABASE costs_bench'
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/costs_bench \\
        uv run python benchmarks/bench_league.py --in-place   # PostgreSQL

Builds a throwaway database (SQLite in memory; with ``--in-place``, the database
DATABASE_URL names, migrated, used as it is: make it empty first), then for each size a
club of ``--players`` members, each with a copy of a legal bwg1 gang (members and
weapons included) registered in one Swiss league, and ``--rounds`` rounds of random
pairings, every match confirmed (500 players x 20 rounds = 5,000 matches; 5,000 players,
50,000). They are made in bulk, so the registrations' tallies are then rebuilt
(``campaigns.leagues.tallies.rebuild``, timed). Then, through Django's test client
(whole stack: middleware, session, view, template; DEBUG off, as in production), it
times:

- **league page**: ``league_detail`` for the organiser: the standings with every
  tiebreaker, the organiser's box, the chart of the leading players (the head-to-head
  matrix is drawn only up to 24 players: beyond, a line says so);
- **public page**: ``league_public``: the same, plus every round's results (each round's
  rows rendered by a template and cached: ``campaigns.leagues.board.results``);
- **public page, results not cached**: the same with the cache emptied before each
  request (a league's first view, or a language's);
- **player page**: ``league_player``: one player's history (it ranks the whole league);
- **standings CSV** and **matches CSV**;
- **standings arithmetic**: ``campaigns.leagues.standings.standings`` alone, in memory,
  from every result (what the rebuild computes).

Figures are ratios to a trivial view of the same stack measured in the same run (the
``view`` calibration; the arithmetic's to the ``loop``), printed as a Markdown table
with the queries each page made and its size.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gangfight_site.settings")

EXAMPLE = ROOT / "docs" / "examples" / "bwg1-legal-dalton-boys.json"


def timed(func, iterations: int) -> list[float]:
    samples = []
    for _ in range(iterations):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def row(
    name: str, samples: list[float], ratio: float, queries: int | str = "", size: str = ""
) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"| {name} | {len(samples)} | {statistics.median(samples):.2f} | {p95:.2f} | "
        f"{ratio:.2f} | {queries} | {size} |"
    )


def build(players: int, rounds: int, seed: int = 7, tag: str = ""):
    """The club, its league, and everything played; returns (league, organiser)."""
    from django.contrib.auth.models import User

    from builder.models import Gang, Member, MemberItem
    from builder.services import import_gang
    from campaigns.leagues import services
    from campaigns.leagues.models import (
        ClubMember,
        League,
        MatchReport,
        Pairing,
        Registration,
        Round,
    )
    from rules.roster import read_roster

    rng = random.Random(seed)
    organiser = User.objects.create_user(f"organiser-{tag}", password="x" * 12)
    club = services.create_club(organiser, name="Big Club")
    league = services.create_league(
        club, name="Big League", system="bwg1", cap=400, pairing=League.SWISS, rounds=rounds
    )
    template = import_gang(organiser, read_roster(EXAMPLE.read_bytes()))
    members = list(template.members.order_by("position"))
    items = {m.pk: list(m.member_items.all()) for m in members}

    users = User.objects.bulk_create(
        User(username=f"player{n:03}-{tag}", password="!") for n in range(players)
    )
    ClubMember.objects.bulk_create(ClubMember(club=club, user=u) for u in users)
    gangs = Gang.objects.bulk_create(
        Gang(
            owner=u,
            system=template.system,
            name=f"{template.name} {n:03}",
            limit=template.limit,
            data=template.data,
            version=template.version,
        )
        for n, u in enumerate(users)
    )
    copies = Member.objects.bulk_create(
        Member(gang=g, position=m.position, name=m.name, data=m.data)
        for g in gangs
        for m in members
    )
    originals = members * len(gangs)
    MemberItem.objects.bulk_create(
        MemberItem(member=copy, item_id=mi.item_id, quantity=mi.quantity)
        if hasattr(mi, "quantity")
        else MemberItem(member=copy, item_id=mi.item_id)
        for copy, original in zip(copies, originals, strict=True)
        for mi in items[original.pk]
    )
    registrations = Registration.objects.bulk_create(
        Registration(
            league=league,
            player=u,
            gang=g,
            gang_name=g.name,
            checked_version=g.version,
        )
        for u, g in zip(users, gangs, strict=True)
    )
    ids = [r.pk for r in registrations]
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(league=league, number=number)
        order = ids[:]
        rng.shuffle(order)
        pairings = Pairing.objects.bulk_create(
            Pairing(round=rnd, table=t, a_id=order[2 * t - 2], b_id=order[2 * t - 1])
            for t in range(1, len(order) // 2 + 1)
        )
        reports = []
        for p in pairings:
            vp_a, vp_b = rng.randint(0, 20), rng.randint(0, 20)
            winner = "a" if vp_a > vp_b else ("b" if vp_b > vp_a else "draw")
            reports.append(
                MatchReport(
                    pairing=p, vp_a=vp_a, vp_b=vp_b, winner=winner, status=MatchReport.CONFIRMED
                )
            )
        MatchReport.objects.bulk_create(reports)
    league.status = League.RUNNING
    league.save(update_fields=["status"])
    return league, organiser


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[500, 2000, 5000])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--in-place", action="store_true", help="use DATABASE_URL's database")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    args = parser.parse_args()
    if args.quick:
        args.players, args.rounds, args.iterations = [30], 3, 3

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
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import clear_url_caches, reverse

    from benchmarks.figures import Figures, calibrate_loop, calibrate_view
    from campaigns.leagues import standings as arithmetic
    from campaigns.leagues.models import Pairing

    try:
        from campaigns.leagues import board as league_views
    except ImportError:  # the code before issue 28: the board in the league views
        from campaigns.leagues.views import leagues as league_views

    try:
        from campaigns.leagues import tallies
    except ImportError:  # the code before issue 31: no stored tallies
        tallies = None

    clear_url_caches()
    from gangfight_site.startup import settle

    settle()
    if args.in_place:
        call_command("migrate", verbosity=0)
        old_name = None
    else:
        # Not setup_test_environment(): its template instrumentation lets the test client
        # keep every response's context (here thousands of matches each) alive, and the
        # garbage collector slows down with every request. A server has none of that.
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    lines = []
    try:
        call_command("load_content", verbosity=0)
        loop = Figures("loop", calibrate_loop())
        for size in args.players:
            start = time.perf_counter()
            league, organiser = build(size, args.rounds, tag=f"{size}-{time.time_ns()}")
            built = time.perf_counter() - start
            rebuilt = ""
            if tallies is not None:
                start = time.perf_counter()
                tallies.rebuild(league.pk)
                rebuilt = f", tallies rebuilt in {time.perf_counter() - start:.1f} s"
            matches = Pairing.objects.filter(round__league=league).count()
            client = Client()
            client.force_login(organiser)
            view = Figures("view", calibrate_view(client, reverse("bench_trivial")))
            anonymous = Client()
            player = league.registrations.order_by("pk").first()
            pages = [
                ("league", "league page (league_detail)", client, ("league_detail", league.pk)),
                ("public", "public page (league_public)", anonymous,
                 ("league_public", league.public_token)),
                ("public_cold", "public page, results not cached", anonymous,
                 ("league_public", league.public_token)),
                ("player", "player page (league_player)", client,
                 ("league_player", league.pk, player.pk)),
                ("standings_csv", "standings CSV", client, ("league_standings_csv", league.pk)),
                ("matches_csv", "matches CSV", client, ("league_matches_csv", league.pk)),
            ]  # fmt: skip
            lines.append(
                f"\n{size} players · {matches} matches over {args.rounds} rounds · "
                f"{connection.vendor} · built in {built:.1f} s{rebuilt} · "
                f"{view.header()}\n"
            )
            lines.append("| what | runs | median ms | p95 ms | ratio | queries | size |")
            lines.append("|---|---|---|---|---|---|---|")
            for key, name, who, (url_name, *url_args) in pages:
                url = reverse(url_name, args=url_args)

                def get(who=who, url=url, cold=key == "public_cold"):
                    if cold:  # each round's results rendered again (board.results)
                        cache.clear()
                    response = who.get(url)
                    assert response.status_code == 200, (url, response.status_code)
                    return response

                response = get()  # warm
                with CaptureQueriesContext(connection) as ctx:
                    get()
                queries = len(ctx.captured_queries)
                kb = f"{len(response.content) / 1024:.0f} KB"
                runs = args.iterations if "CSV" not in name else max(3, args.iterations // 3)
                samples = timed(get, runs)
                ratio = view.figure(f"league.{key}.{size}", statistics.median(samples))
                lines.append(row(name, samples, ratio, queries, kb))

            read_board = getattr(league_views, "read_board", None) or league_views._board
            board = read_board(league)
            players = [(r.pk, r.gang_name) for r in board.registrations]
            every = Pairing.objects.filter(round__league=league)
            counted = [
                r
                for r in (
                    league_views.Match(*v).result()
                    for v in every.values_list(*league_views.MATCH_FIELDS)
                )
                if r is not None
            ]
            samples = timed(
                lambda p=players, c=counted: arithmetic.standings(p, c), args.iterations
            )
            ratio = loop.figure(f"league.arithmetic.{size}", statistics.median(samples))
            lines.append(row("standings arithmetic alone (to `loop`)", samples, ratio, 0))
            lines.append(f"\n(`loop` calibration {loop.calibration_ms:.3f} ms)")
        vendor = connection.vendor
    finally:
        if old_name is not None:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    print(
        f"{vendor} · DEBUG off · Python {platform.python_version()} · {platform.machine()} · "
        f"{os.cpu_count()} CPUs"
    )
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
