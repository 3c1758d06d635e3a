"""Benchmark every system's builder: the page, opening a member, and the htmx answer to a
real change, at 5, 20 and 50 members, against a trivial view of the same stack.

    uv run python benchmarks/bench_editors.py [--iterations 200] [--members 5 20 50]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test uv run python benchmarks/bench_editors.py

DEBUG is off and the process is settled (``gangfight_site.startup.settle``), as in
production: cached templates, and what every request uses out of the garbage collector's
way. Builds a throwaway test database (SQLite in memory, or a ``test_*`` database on the
server named by DATABASE_URL), imports each system's first legal example from
``docs/examples/``, grown to each size with copies of its members (one leader kept:
``grown()``), and times through Django's test client (the whole stack: middleware,
session, view, service in its transaction, rules engine, template):

- **page**: GET of the builder page with nothing open;
- **open**: the htmx GET that opens the first member (its panel, the summary, the rows
  that changed: the page says which version it shows, as ``static/js/app.js`` does);
- **change**: one POST a player makes, with HX-Request, and its answer: a point (bwg1), a
  card's team (bwg2), a perk (gf26), a tier (rivals), a figure count or a name (gunfight).
  Each change is undone by the next run's opposite change where it matters.

Each line gives the answer's size in KB and its queries. It prints Markdown tables; copy
them into docs/benchmarks.md with the date and machine.
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


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    median = ordered[len(ordered) // 2]
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return median, p95


def grown(roster: dict, size: int) -> dict:
    """The roster with ``size`` members: its own, then copies of all but the first (so the
    gang keeps one leader), each with its own name and key, as a player's big gang."""
    members = roster["members"]
    extra = members[1:] or members
    grown_members = []
    for i in range(size):
        if i < len(members):
            grown_members.append({**members[i], "key": str(i + 1)})
            continue
        source = extra[(i - len(members)) % len(extra)]
        data = dict(source["data"])
        if data.get("leader") is True:
            data["leader"] = False
        if data.get("type") == "leader":
            data["type"] = "henchman"
        name = f"{source['name']} {i + 1}"
        grown_members.append({**source, "name": name, "data": data, "key": str(i + 1)})
    return {**roster, "members": grown_members}


def change_for(system: str, gang, member, flip: list[int]):
    """The (action URL, POST data) of one real change a player makes in the member's panel;
    ``flip`` alternates it so that it keeps changing something."""
    from django.urls import reverse

    flip[0] ^= 1
    p = f"m{member.pk}"

    def url(action: str) -> str:
        return reverse("member_action", args=[gang.pk, member.pk, action])

    if system == "bwg1":
        return url("points"), {f"{p}-points-change": "str:-" if flip[0] else "str:+"}
    if system == "gf26":
        perks = ["fast", "stubborn", "healer"] if flip[0] else ["fast", "stubborn", "solid"]
        return url("perks"), {f"{p}-perks-perks": perks}
    if system == "rivals":
        return url("tiers"), {f"{p}-tiers-shotgun": "1" if flip[0] else "0"}
    if system == "bwg2":
        return url("team"), {f"{p}-team-team": "A" if flip[0] else "B"}
    if system == "gunfight":
        return url("rename"), {f"{p}-rename-name": "Jack" if flip[0] else "Jake"}
    raise KeyError(system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--members", type=int, nargs="+", default=[5, 20, 50])
    parser.add_argument("--systems", nargs="*", default=None)
    args = parser.parse_args()

    # DEBUG off, as in production (set here, not on import: the tests import grown() and
    # change_for() from this module and must not inherit a production environment).
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "benchmark-only-" + "x" * 40)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SITE_URL", "http://testserver")  # required with DEBUG off
    os.environ.setdefault("SECURE_COOKIES", "0")
    import django
    from django.conf import settings

    django.setup()
    settings.ROOT_URLCONF = "benchmarks.trivial_urls"
    # Production hashes static names after collectstatic; plain names cost the same here.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import clear_url_caches, reverse

    from builder.services import import_gang
    from rules import all_systems
    from rules.roster import read_roster

    clear_url_caches()
    # As gangfight_site/wsgi.py does before a server's first request.
    from gangfight_site.startup import settle

    settle()
    examples = sorted((ROOT / "docs" / "examples").glob("*-legal-*.json"))
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    hx = {"HTTP_HX_REQUEST": "true"}
    try:
        call_command("load_content", verbosity=0)
        user = User.objects.create_user("bench", password="x" * 12)
        client = Client()
        client.force_login(user)

        def measure(label, request):
            with CaptureQueriesContext(connection) as ctx:
                response = request()
            assert response.status_code == 200, (label, response.status_code)
            queries = len(ctx.captured_queries)
            size = len(response.content) / 1024
            median, p95 = stats(timed(request, args.iterations))
            runs = args.iterations
            print(f"| {label} | {runs} | {median:.2f} | {p95:.2f} | {size:.1f} | {queries} |")

        print(
            f"DEBUG off · {platform.machine()} · Python {platform.python_version()} · "
            f"{connection.vendor}\n"
        )
        print("| what | runs | median ms | p95 ms | KB | queries |")
        print("|---|---|---|---|---|---|")
        trivial = reverse("bench_trivial")
        measure("trivial view (same stack)", lambda: client.get(trivial))
        for size in args.members:
            for system in all_systems():
                if args.systems and system.id not in args.systems:
                    continue
                path = next(p for p in examples if p.name.startswith(f"{system.id}-legal-"))
                roster = grown(read_roster(path.read_bytes()), size)
                gang = import_gang(user, roster)
                member = gang.members.order_by("position", "id").first()
                page = reverse("gang_detail", args=[gang.pk])
                name = f"`{system.id}` {size}"
                measure(f"{name} · page", lambda u=page: client.get(u))
                gang.refresh_from_db()
                # What the page tells the server it shows (app.js sends these headers).
                shown = {"HTTP_X_BUILDER_VERSION": str(gang.version), "HTTP_X_BUILDER_OPEN": ""}
                measure(
                    f"{name} · open",
                    lambda u=page, m=member, h=shown: client.get(u, {"open": m.pk}, **hx, **h),
                )
                flip = [0]
                version = [gang.version]

                def change(s=system.id, g=gang, m=member, f=flip, v=version):
                    url, data = change_for(s, g, m, f)
                    shown = {"HTTP_X_BUILDER_VERSION": str(v[0]), "HTTP_X_BUILDER_OPEN": str(m.pk)}
                    response = client.post(url, {**data, "open": m.pk}, **hx, **shown)
                    shows = re.search(rb'id="builder"[^>]*data-version="(\d+)"', response.content)
                    v[0] = int(shows.group(1)) if shows else v[0]  # what the page now shows
                    return response

                measure(f"{name} · change", change)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
