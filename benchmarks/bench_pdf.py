"""Benchmark the PDFs: character cards and gang sheet of a 12-member gang, every system.

    uv run python benchmarks/bench_pdf.py [--iterations 7] [--members 12]

For each system it takes the legal example in docs/examples/, repeats its members up to
``--members``, and times, through the same function the Print menu calls:

- **cold**: the first PDF of a new process (WeasyPrint imported, fonts loaded), measured
  in a fresh Python process for each system and kind;
- **warm**: the median of ``--iterations`` more renders in one process, no PDF cached
  (a new roster every time: the cache is keyed by what the PDF is made from), but the
  cache remembers how each card was fitted (a member reprinted), as on a server;
- **new cards**: the same, with that memory cleared each time (every card fitted anew);
- **cached**: a second download of the same PDF (``printing.cached_pdf``), which only
  reads the cache.

- **first after start**: the same first PDF, in a process that ran
  ``gangfight_site.startup.settle()`` first (as wsgi.py does before serving: WeasyPrint,
  Pango, the fonts and the print templates loaded, ``printing.warm_up()``);
- **one changed**: the gang as a player leaves it after one change (one member's card is
  new, the others' fits are known), laid out in two processes at once (``PDF_PARALLEL``),
  and the same in one process (**one changed, 1 CPU**).

Then the user-facing figure (``--click``, on the database DATABASE_URL names, in a
throwaway ``test_*`` database): a 12-member gang (bwg1), one change through the builder
(an htmx POST of a point), then the Print click (GET of the cards, A4; then of the sheet),
timed to the response's first byte (the whole PDF: the view answers it in one piece):

- **without the background render**: the PDF is made in the request, as when the worker
  is down or the click comes before the debounce delay ends;
- **with the background render**: the change's recorded submission (``prerender_gang``)
  is run first, as the worker does in the seconds before the click; the click reads it
  from the PDF cache (files, or Redis when REDIS_URL is set).

It prints Markdown tables; copy them into docs/benchmarks.md with the date and machine.

    uv run python benchmarks/bench_pdf.py --click-only --iterations 7
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_print \\
        uv run python benchmarks/bench_pdf.py --click-only
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gangfight_site.settings")

EXAMPLES = {
    "bwg1": "bwg1-legal-dalton-boys.json",
    "bwg2": "bwg2-legal-tranquility-crew-700.json",
    "gf26": "gf26-legal-iron-company.json",
    "rivals": "rivals-legal-red-jacks-gang.json",
    "gunfight": "gunfight-legal-lawman-posse.json",
}


def gang_of(system: str, members: int) -> dict:
    roster = json.loads((ROOT / "docs" / "examples" / EXAMPLES[system]).read_text())
    source = roster["members"]
    roster["members"] = []
    for n in range(members):
        member = json.loads(json.dumps(source[n % len(source)]))
        member.pop("key", None)
        member["name"] = f"{member.get('name') or 'Member'} {n + 1}"
        roster["members"].append(member)
    return roster


SHARE = "https://example.org/s/token/"


def make(roster: dict, kind: str) -> bytes:
    from builder import printing

    if kind == "cards":
        return printing.cards_pdf(roster, share_url=SHARE)
    return printing.sheet_pdf(roster, share_url=SHARE)


def cold(system: str, kind: str, members: int, *, settled: bool = False) -> float:
    """Seconds for the first PDF in a new process (after Django is set up; ``settled``:
    after the server's start-up work too)."""
    settle = "from gangfight_site.startup import settle; settle();" if settled else ""
    code = (
        f"import sys, time, django; sys.path.insert(0, {str(ROOT)!r}); django.setup();"
        f"{settle}from benchmarks.bench_pdf import gang_of, make;"
        f"roster = gang_of({system!r}, {members}); start = time.perf_counter();"
        f"make(roster, {kind!r}); print(time.perf_counter() - start)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "gangfight_site.settings"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd=ROOT
    )
    return float(out.stdout.strip().splitlines()[-1])


def one_changed(system: str, members: int, n: int) -> dict:
    """The gang after one change: one member's name is new (so is its card)."""
    roster = gang_of(system, members)
    roster["members"][min(3, members - 1)]["name"] += f" ({n})"
    return roster


def click(iterations: int) -> None:
    """Print click to first byte after a change, with and without the background render."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.cache import caches
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings, setup_test_environment
    from django.urls import reverse

    from common import background
    from gangfight_site.startup import settle
    from tests.factories import build_gang

    setup_test_environment()
    settle()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    rows = []
    try:
        with override_settings(
            BACKGROUND_TASKS="record", SITE_URL="http://testserver", ALLOWED_HOSTS=["*"]
        ):
            call_command("load_content", verbosity=0)
            user = User.objects.create_user("bench", password="x" * 12)
            gang = build_gang(user, size=12)
            member = gang.members.order_by("position")[3]
            client = Client()
            client.force_login(user)
            details_url = reverse("member_action", args=[gang.pk, member.pk, "details"])
            renames = iter(range(1, 10_000))

            def change() -> None:
                """Rename one member (a new roster, never printed before)."""
                background.reset_recorded()
                prefix = f"m{member.pk}-details-"
                data = {
                    prefix + "name": f"Kid Curry {next(renames)}",
                    prefix + "member_type": member.data.get("type", "henchman"),
                    prefix + "profession": member.data.get("profession", ""),
                    "open": member.pk,
                }
                response = client.post(details_url, data, HTTP_HX_REQUEST="true")
                assert response.status_code == 200, response.status_code

            def print_click(kind: str) -> float:
                url = reverse("gang_print", args=[gang.pk]) + f"?kind={kind}&paper=a4"
                start = time.perf_counter()
                response = client.get(url)
                took = time.perf_counter() - start
                assert response.status_code == 200 and response.content.startswith(b"%PDF")
                return took * 1000

            change()
            print_click("cards")  # the fits of the members' cards known, as on a server
            for kind in ("cards", "sheet"):
                without, made_ahead, ahead, hit = [], [], [], []
                for _ in range(iterations):
                    change()
                    without.append(print_click(kind))
                    change()
                    start = time.perf_counter()
                    assert background.run_recorded() == 1
                    ahead.append((time.perf_counter() - start) * 1000)
                    made_ahead.append(print_click(kind))
                    hit.append(print_click(kind))
                rows.append(
                    f"| {kind} | {statistics.median(without):.0f} | {max(without):.0f} "
                    f"| {statistics.median(made_ahead):.1f} | {max(made_ahead):.1f} "
                    f"| {statistics.median(ahead):.0f} |"
                )
            # a ready PDF read from the PDF cache, without the view around it
            pdfs = caches["pdf"]
            key = "bench:ready"
            pdfs.set(key, b"%PDF" + os.urandom(120_000))
            reads = []
            for _ in range(200):
                start = time.perf_counter()
                pdfs.get(key)
                reads.append((time.perf_counter() - start) * 1000)
            cache_read = statistics.median(reads)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    cache = settings.CACHES["pdf"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs")
    print(
        f"Print click to first byte after a change, bwg1, 12 members, {iterations} each; "
        f"database {engine}, PDF cache {cache}\n"
    )
    print(
        "| PDF | without background: median (ms) | max (ms) | with background: median (ms) "
        "| max (ms) | background render (ms) |"
    )
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"\nA ready PDF (120 KB) read from the PDF cache: median {cache_read:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=7)
    parser.add_argument("--members", type=int, default=12)
    parser.add_argument("--click-only", action="store_true", help="only the click figures")
    parser.add_argument("--no-click", action="store_true", help="no click figures")
    parser.add_argument("--systems", nargs="*", default=list(EXAMPLES))
    args = parser.parse_args()

    import django

    if args.click_only:
        click(args.iterations)
        return

    with tempfile.TemporaryDirectory() as cache_dir:
        os.environ["PDF_CACHE_DIR"] = cache_dir
        django.setup()
        from django.core.cache import caches

        from builder import printing

        rows = []
        for system in args.systems:
            for kind in ("cards", "sheet"):
                first = cold(system, kind, args.members)
                started = cold(system, kind, args.members, settled=True)
                make(gang_of(system, args.members), kind)  # every card's fit known
                changed, serial = [], []
                for n in range(args.iterations):
                    roster = one_changed(system, args.members, n)
                    start = time.perf_counter()
                    content = make(roster, kind)
                    changed.append(time.perf_counter() - start)
                    if kind == "cards":
                        roster = one_changed(system, args.members, n + 1000)
                        start = time.perf_counter()
                        printing.cards_pdf(roster, share_url=SHARE, parallel=False)
                        serial.append(time.perf_counter() - start)
                fresh = []
                for n in range(args.iterations):
                    caches["pdf"].clear()
                    roster = gang_of(system, args.members)
                    roster["name"] = f"{roster['name']} fresh {n}"
                    start = time.perf_counter()
                    make(roster, kind)
                    fresh.append(time.perf_counter() - start)
                roster = gang_of(system, args.members)
                options = {"share_url": SHARE}
                printing.cached_pdf(roster, kind, **options)
                cached = []
                for _ in range(50):
                    start = time.perf_counter()
                    printing.cached_pdf(roster, kind, **options)
                    cached.append(time.perf_counter() - start)
                import io

                from pypdf import PdfReader

                pages = len(PdfReader(io.BytesIO(content)).pages)
                one_cpu = f"{statistics.median(serial) * 1000:.0f}" if serial else "-"
                rows.append(
                    f"| {system} | {kind} | {pages} | {first * 1000:.0f} | {started * 1000:.0f} "
                    f"| {statistics.median(changed) * 1000:.0f} | {one_cpu} "
                    f"| {statistics.median(fresh) * 1000:.0f} "
                    f"| {statistics.median(cached) * 1000:.2f} |"
                )
    print(f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs")
    print(f"{args.members} members, {args.iterations} renders each (medians)\n")
    print(
        "| system | PDF | pages | cold (ms) | first after start (ms) | one changed (ms) "
        "| one changed, 1 CPU (ms) | new cards (ms) | cached (ms) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if not args.no_click:
        print()
        click(args.iterations)


if __name__ == "__main__":
    main()
