"""Benchmark every system's builder page at 50 members: the full page and the htmx fragment.

    uv run python benchmarks/bench_editors.py [--iterations 100] [--members 50]

Builds a throwaway test database (SQLite in memory, or a ``test_*`` database on the
server named by DATABASE_URL), imports each system's first legal example from
``docs/examples/`` with its members repeated to ``--members``, and times GET of the builder
page (whole Django stack: session, view, rules engine, every member's forms, template)
and the same URL with HX-Request (the ``#builder`` fragment every change sends back).

It prints a Markdown table; copy it into docs/benchmarks.md with the date and machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gangfight_site.settings")

from benchmarks.bench_builder import row, timed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--members", type=int, default=50)
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from builder.services import import_gang
    from rules import all_systems
    from rules.roster import read_roster

    examples = sorted((ROOT / "docs" / "examples").glob("*-legal-*.json"))
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        call_command("load_content", verbosity=0)
        user = User.objects.create_user("bench", password="x" * 12)
        client = Client()
        client.force_login(user)
        print(
            f"{args.members} members · {platform.machine()} · Python {platform.python_version()}"
            f" · {connection.vendor}\n"
        )
        print("| system | what | runs | median ms | p95 ms | min ms | queries |")
        print("|---|---|---|---|---|---|---|")
        for system in all_systems():
            path = next(p for p in examples if p.name.startswith(f"{system.id}-legal-"))
            roster = read_roster(path.read_bytes())
            members = roster["members"]
            roster["members"] = [
                {**members[i % len(members)], "key": str(i + 1)} for i in range(args.members)
            ]
            gang = import_gang(user, roster)
            url = reverse("gang_detail", args=[gang.pk])
            for what, headers in (("page", {}), ("htmx fragment", {"HTTP_HX_REQUEST": "true"})):
                with CaptureQueriesContext(connection) as ctx:
                    response = client.get(url, **headers)
                assert response.status_code == 200
                queries = len(ctx.captured_queries)  # now: later requests rotate the log
                samples = timed(lambda u=url, h=headers: client.get(u, **h), args.iterations)
                print(row(f"`{system.id}` | {what}", samples, queries))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
