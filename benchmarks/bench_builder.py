"""Benchmark the builder: its htmx update, its page, the rules engine, the gang sheet.

    uv run python benchmarks/bench_builder.py [--iterations 300] [--members 20]

Builds a throwaway test database (SQLite in memory, or a ``test_*`` database on the
server named by DATABASE_URL), a legal gang of ``--members`` members, and times:

- the htmx update: POST one attribute point (as the + and - buttons do) with HX-Request,
  through the whole Django stack (middleware, service, rules, template fragment), from a
  page that says nothing of what it shows (every part drawn: bench_editors.py measures
  the answer a real page gets);
- the full builder page (GET);
- the rules engine alone (evaluate the roster dict);
- the gang sheet PDF (WeasyPrint).

It prints a Markdown table; copy it into docs/benchmarks.md with the date and machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gangfight_site.settings")


def timed(func, iterations: int) -> list[float]:
    samples = []
    for _ in range(iterations):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def row(name: str, samples: list[float], queries: int | str = "") -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"| {name} | {len(samples)} | {statistics.median(samples):.2f} | {p95:.2f} | "
        f"{ordered[0]:.2f} | {queries} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--members", type=int, default=20)
    parser.add_argument("--pdf-iterations", type=int, default=10)
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from builder import printing
    from builder.roster import gang_roster, members_with_items
    from rules import get_system
    from tests.factories import build_gang

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        call_command("load_content", verbosity=0)
        user = User.objects.create_user("bench", password="x" * 12)
        gang = build_gang(user, size=args.members)
        leader = gang.members.order_by("position").first()
        client = Client()
        client.force_login(user)
        page_url = reverse("gang_detail", args=[gang.pk])
        points_url = reverse("member_action", args=[gang.pk, leader.pk, "points"])
        changes = iter(["mc:-", "mc:+"] * (args.iterations + 10))

        def htmx_update():
            data = {f"m{leader.pk}-points-change": next(changes), "open": leader.pk}
            response = client.post(points_url, data, HTTP_HX_REQUEST="true")
            assert response.status_code == 200 and b"field-error" not in response.content

        def full_page():
            assert client.get(page_url).status_code == 200

        roster = gang_roster(gang, list(members_with_items(gang)))
        system = get_system("bwg1")

        for warm in (htmx_update, htmx_update, full_page):
            warm()
        with CaptureQueriesContext(connection) as ctx:
            htmx_update()
        update_queries = len(ctx.captured_queries)
        with CaptureQueriesContext(connection) as ctx:
            full_page()
        page_queries = len(ctx.captured_queries)

        results = [
            row("htmx update (POST a point)", timed(htmx_update, args.iterations), update_queries),
            row("builder page (GET)", timed(full_page, args.iterations // 2), page_queries),
            row("rules engine: evaluate", timed(lambda: system.evaluate(roster), 1000), 0),
            row("gang sheet PDF", timed(lambda: printing.sheet_pdf(roster), args.pdf_iterations)),
        ]
        vendor = connection.vendor
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)

    print(
        f"{args.members}-member bwg1 gang · {vendor} · Python {platform.python_version()} · "
        f"{platform.machine()} · {os.cpu_count()} CPUs"
    )
    print()
    print("| what | runs | median ms | p95 ms | min ms | queries |")
    print("|---|---|---|---|---|---|")
    for line in results:
        print(line)


if __name__ == "__main__":
    main()
