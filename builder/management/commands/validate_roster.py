"""Check a roster file against its game system's rules.

    python manage.py validate_roster FILE [--json]

Prints the totals and every finding. Exits 0 when the gang is legal, 1 when it has an
error, 2 when the file can't be read as a roster (naming the line or field at fault):
whatever the file holds (10,000 levels of nesting, a 5,000-digit number, NaN, a NUL
character, a lone surrogate), ``rules.roster.read_roster`` says so, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from rules import Report, get_system
from rules.roster import Problem, RosterFileError, read_roster

LEGAL, ILLEGAL, UNREADABLE = 0, 1, 2


def report_dict(path: str, roster: dict[str, Any], report: Report) -> dict[str, Any]:
    return {
        "file": path,
        "readable": True,
        "system": report.system,
        "name": roster["name"],
        "total_label": report.total_label,
        "total": report.total,
        "limit": report.limit,
        "legal": report.is_legal,
        "errors": len(report.errors),
        "warnings": len(report.warnings),
        "facts": [list(f) for f in report.gang.get("facts", [])],
        "findings": [
            {
                "code": f.code,
                "severity": str(f.severity),
                "member": f.member,
                "member_name": report.members[f.member].name if f.member else None,
                "message": f.message,
            }
            for f in report.findings
        ],
    }


def read_file(path: str) -> bytes:
    """The bytes of a roster file; ``-`` is standard input. Unreadable: RosterFileError."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise RosterFileError([Problem(path, e.strerror or "can't be read")]) from None


class Command(BaseCommand):
    help = "Validate a roster file: exit 0 legal, 1 illegal, 2 not a roster."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the roster file (JSON); - reads standard input")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args, **options) -> None:
        path: str = options["file"]
        try:
            roster = read_roster(read_file(path))
        except RosterFileError as e:
            self._unreadable(path, e.problems, as_json=options["json"])
            sys.exit(UNREADABLE)
        report = get_system(roster["system"]).evaluate(roster)
        result = report_dict(path, roster, report)
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
        else:
            self._print(result, report)
        sys.exit(LEGAL if report.is_legal else ILLEGAL)

    def _unreadable(self, path: str, problems: list[Problem], *, as_json: bool) -> None:
        if as_json:
            payload = {
                "file": path,
                "readable": False,
                "problems": [{"where": p.where, "message": p.message} for p in problems],
            }
            self.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False))
            return
        self.stderr.write(f"{path} is not a roster file:")
        for problem in problems:
            self.stderr.write(f"  {problem}")

    def _print(self, result: dict[str, Any], report: Report) -> None:
        system = get_system(result["system"])
        limit = f" / {result['limit']}" if result["limit"] else ""
        self.stdout.write(f"{result['name'] or '(unnamed gang)'} ({system.name})")
        self.stdout.write(f"{result['total_label']}: {result['total']}{limit}")
        for label, value in result["facts"]:
            self.stdout.write(f"{label}: {value}")
        verdict = "legal" if result["legal"] else "ILLEGAL"
        self.stdout.write(
            f"{verdict}: {result['errors']} error(s), {result['warnings']} warning(s)"
        )
        for f in result["findings"]:
            who = f"{f['member']} ({f['member_name'] or 'unnamed'})" if f["member"] else "gang"
            self.stdout.write(f"{f['severity']:<8} {f['code']:<34} {who}: {f['message']}")
