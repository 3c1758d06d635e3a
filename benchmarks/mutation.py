"""The mutation run (docs/benchmarks.md, "Mutation testing"): mutmut over ``rules/``, the
league's standings and pairing and the log-in throttle, then a table of its results.

Not part of CI: the whole of ``rules/`` is about 23,500 mutants (hours on two CPUs). It
runs one mutant at a time, at nice 19, on SQLite, with the property tests' quick profile
(``HYPOTHESIS_PROFILE=ci``: tests/helpers/properties.py). What is mutated and which
tests run for it is pyproject.toml's ``[tool.mutmut]``; results are kept in ``mutants/``
(ignored by git), so a second run only tries the mutants of functions that changed.

    python3 -m uv run --locked --group mutation python benchmarks/mutation.py
    python3 -m uv run --locked --group mutation python benchmarks/mutation.py \\
        "common.throttle*" "campaigns.leagues*" "rules.play.engine*"
    python3 -m uv run --locked --group mutation python benchmarks/mutation.py --report

Names are mutmut's (``module.x_function__mutmut_N``, globs allowed): given names, only
those mutants run, and they run again even when a result is kept. ``--report`` only prints
the table of the kept results; ``--survivors`` lists the surviving mutants too
(``mutmut show NAME`` prints one's diff).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: mutmut's exit codes (mutmut/stats.py), by what the table calls them
STATUS = {1: "killed", 3: "killed", 0: "survived", 33: "no tests", 5: "no tests"}
TIMEOUTS = {24, -24, 152, 255, 36}


def status(code: int | None) -> str:
    if code is None:
        return "not run"
    if code in TIMEOUTS:
        return "timeout"
    return STATUS.get(code, "suspicious")


def results() -> dict[str, dict[str, int | None]]:
    """Each mutated file's mutants and exit codes, as mutmut kept them."""
    out = {}
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        codes = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
        if codes:
            out[str(meta.relative_to(ROOT / "mutants"))[: -len(".meta")]] = codes
    return out


def table(show_survivors: bool) -> str:
    lines = [
        "| module | mutants | killed | survived | timeout / suspicious | no tests | not run "
        "| survival |",
        "|---|---|---|---|---|---|---|---|",
    ]
    total: Counter[str] = Counter()
    survivors = []
    for path, codes in results().items():
        count = Counter(status(c) for c in codes.values())
        if count["not run"] == len(codes):
            continue
        total.update(count)
        total["mutants"] += len(codes)
        lines.append(row(path, len(codes), count))
        survivors += [name for name, c in codes.items() if status(c) in ("survived", "no tests")]
    lines.append(row("**all run**", total["mutants"], total))
    if show_survivors:
        lines += ["", *sorted(survivors)]
    return "\n".join(lines)


def row(path: str, mutants: int, count: Counter[str]) -> str:
    tried = mutants - count["not run"]
    lost = count["survived"] + count["no tests"]
    rate = f"{100 * lost / tried:.1f} %" if tried else "-"
    odd = count["timeout"] + count["suspicious"]
    return (
        f"| `{path}` | {mutants} | {count['killed']} | {count['survived']} | {odd} "
        f"| {count['no tests']} | {count['not run']} | {rate} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="mutmut's mutant names (globs allowed)")
    parser.add_argument("--report", action="store_true", help="only print the table")
    parser.add_argument("--survivors", action="store_true", help="list the survivors too")
    args = parser.parse_args()
    code = 0
    if not args.report:
        env = {**os.environ, "HYPOTHESIS_PROFILE": "ci"}
        env.pop("DATABASE_URL", None)  # SQLite, never a shared PostgreSQL test database
        mutmut = Path(sys.executable).parent / "mutmut"
        start = time.monotonic()
        code = subprocess.call(
            ["nice", "-n", "19", str(mutmut), "run", "--max-children", "1", *args.names],
            cwd=ROOT,
            env=env,
        )
        minutes = (time.monotonic() - start) / 60
        print(f"\nmutmut run: exit {code}, {minutes:.1f} min wall time\n")
    print(table(args.survivors))
    return code


if __name__ == "__main__":
    sys.exit(main())
