"""Benchmark a big league's pages: 500 registered gangs, 5,000 confirmed matches.

    uv run python benchmarks/bench_league.py [--players 500] [--rounds 20] [--iterations 30]

Builds a throwaway test database (SQLite in memory, or a ``test_*`` database on the
server named by DATABASE_URL): a club of ``--players`` members, each with a copy of a
legal bwg1 gang registered in one Swiss league, and ``--rounds`` rounds of random
pairings, every match confirmed (500 players x 20 rounds = 5,000 matches). Then, through
Django's test client (whole stack: middleware, session, view, template), it times:

- **league page**: ``league_detail`` for the organiser: the standings with every
  tiebreaker, the organiser's box, the chart of the leading players (the head-to-head
  matrix is drawn only up to 24 players: beyond, a line says so);
- **public page**: ``league_public``: the same, plus every round's results;
- **player page**: ``league_player``: one player's history (it ranks the whole league);
- **standings CSV** and **matches CSV**;
- **standings arithmetic**: ``campaigns.leagues.standings.standings`` alone, in memory.

It prints a Markdown table with the queries each page made and its size; copy it into
docs/benchmarks.md with the date and machine.
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


def row(name: str, samples: list[float], queries: int | str = "", size: str = "") -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"| {name} | {len(samples)} | {statistics.median(samples):.2f} | {p95:.2f} | "
        f"{ordered[0]:.2f} | {queries} | {size} |"
    )


def build(players: int, rounds: int, seed: int = 7):
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
    organiser = User.objects.create_user("organiser", password="x" * 12)
    club = services.create_club(organiser, name="Big Club")
    league = services.create_league(
        club, name="Big League", system="bwg1", cap=400, pairing=League.SWISS, rounds=rounds
    )
    template = import_gang(organiser, read_roster(EXAMPLE.read_bytes()))
    members = list(template.members.order_by("position"))
    items = {m.pk: list(m.member_items.all()) for m in members}

    users = User.objects.bulk_create(
        User(username=f"player{n:03}", password="!") for n in range(players)
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
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=30)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from campaigns.leagues import standings as arithmetic
    from campaigns.leagues.models import Pairing
    from campaigns.leagues.views import leagues as league_views

    # Not setup_test_environment(): its template instrumentation lets the test client
    # keep every response's context (here 5,000 matches each) alive, and the garbage
    # collector slows down with every request. A server has none of that.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        call_command("load_content", verbosity=0)
        start = time.perf_counter()
        league, organiser = build(args.players, args.rounds)
        built = time.perf_counter() - start
        matches = Pairing.objects.filter(round__league=league).count()
        client = Client()
        client.force_login(organiser)
        anonymous = Client()
        player = league.registrations.order_by("pk").first()
        pages = [
            ("league page (league_detail)", client, reverse("league_detail", args=[league.pk])),
            (
                "public page (league_public)",
                anonymous,
                reverse("league_public", args=[league.public_token]),
            ),
            (
                "player page (league_player)",
                client,
                reverse("league_player", args=[league.pk, player.pk]),
            ),
            ("standings CSV", client, reverse("league_standings_csv", args=[league.pk])),
            ("matches CSV", client, reverse("league_matches_csv", args=[league.pk])),
        ]
        results = []
        for name, who, url in pages:

            def get(who=who, url=url):
                response = who.get(url)
                assert response.status_code == 200, (url, response.status_code)
                return response

            response = get()  # warm
            with CaptureQueriesContext(connection) as ctx:
                get()
            queries = len(ctx.captured_queries)  # now: each request clears the log
            size = f"{len(response.content) / 1024:.0f} KB"
            iterations = args.iterations if "CSV" not in name else max(5, args.iterations // 3)
            results.append(row(name, timed(get, iterations), queries, size))

        board = league_views._board(league)
        players = [(r.pk, r.gang_name) for r in board.registrations]
        counted = [r for r in (m.result() for m in board.matches) if r is not None]
        results.append(
            row(
                "standings arithmetic alone",
                timed(lambda: arithmetic.standings(players, counted), args.iterations),
                0,
            )
        )
        vendor = connection.vendor
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)

    print(
        f"{args.players} players · {matches} matches over {args.rounds} rounds · {vendor} · "
        f"Python {platform.python_version()} · {platform.machine()} · {os.cpu_count()} CPUs · "
        f"built in {built:.1f} s"
    )
    print()
    print("| what | runs | median ms | p95 ms | min ms | queries | size |")
    print("|---|---|---|---|---|---|---|")
    for line in results:
        print(line)


if __name__ == "__main__":
    main()
