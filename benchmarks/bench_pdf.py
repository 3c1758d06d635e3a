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

It prints a Markdown table; copy it into docs/benchmarks.md with the date and machine.
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


def make(roster: dict, kind: str) -> bytes:
    from builder import printing

    if kind == "cards":
        return printing.cards_pdf(roster, share_url="https://example.org/s/token/")
    return printing.sheet_pdf(roster, share_url="https://example.org/s/token/")


def cold(system: str, kind: str, members: int) -> float:
    """Seconds for the first PDF in a new process (after Django is set up)."""
    code = (
        f"import sys, time, django; sys.path.insert(0, {str(ROOT)!r}); django.setup();"
        "from benchmarks.bench_pdf import gang_of, make;"
        f"roster = gang_of({system!r}, {members}); start = time.perf_counter();"
        f"make(roster, {kind!r}); print(time.perf_counter() - start)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "gangfight_site.settings"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd=ROOT
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=7)
    parser.add_argument("--members", type=int, default=12)
    args = parser.parse_args()

    import django

    with tempfile.TemporaryDirectory() as cache_dir:
        os.environ["PDF_CACHE_DIR"] = cache_dir
        django.setup()
        from django.core.cache import caches

        from builder import printing

        rows = []
        for system in EXAMPLES:
            for kind in ("cards", "sheet"):
                first = cold(system, kind, args.members)
                samples = []
                for n in range(args.iterations):
                    roster = gang_of(system, args.members)
                    roster["name"] = f"{roster['name']} {n}"  # never the same PDF twice
                    start = time.perf_counter()
                    content = make(roster, kind)
                    samples.append(time.perf_counter() - start)
                fresh = []
                for n in range(args.iterations):
                    caches["pdf"].clear()
                    roster = gang_of(system, args.members)
                    roster["name"] = f"{roster['name']} fresh {n}"
                    start = time.perf_counter()
                    make(roster, kind)
                    fresh.append(time.perf_counter() - start)
                roster = gang_of(system, args.members)
                options = {"share_url": "https://example.org/s/token/"}
                printing.cached_pdf(roster, kind, **options)
                cached = []
                for _ in range(50):
                    start = time.perf_counter()
                    printing.cached_pdf(roster, kind, **options)
                    cached.append(time.perf_counter() - start)
                import io

                from pypdf import PdfReader

                pages = len(PdfReader(io.BytesIO(content)).pages)
                rows.append(
                    f"| {system} | {kind} | {pages} | {first * 1000:.0f} | "
                    f"{statistics.median(samples) * 1000:.0f} | "
                    f"{statistics.median(fresh) * 1000:.0f} | "
                    f"{statistics.median(cached) * 1000:.2f} |"
                )
    print(f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs")
    print(f"{args.members} members, {args.iterations} warm renders each\n")
    print(
        "| system | PDF | pages | cold (ms) | warm median (ms) | new cards median (ms) "
        "| cached (ms) |"
    )
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
