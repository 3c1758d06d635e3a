"""Print any roster file, no account needed (a club printing a whole league's gangs).

    python manage.py render_pdf ROSTER.json --kind cards|sheet|reference
        [--paper a4|letter] [--fronts-only] [--member KEY] [--lang en|fr] -o OUT.pdf

Exits 0 with the PDF written, 2 when the file can't be read as a roster (naming the line
or field at fault) or a choice is wrong, 3 when the PDF can't be made (WeasyPrint missing,
or the render took too long).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import translation

from builder import printing
from builder.management.commands.validate_roster import read_file
from rules.roster import RosterFileError, read_roster

UNREADABLE, NOT_MADE = 2, 3


def language_code(value: str) -> str:
    """One of the site's languages, as a person types it: ``en``, ``EN``, ``en_US`` and
    ``en-gb`` all print in English (the closest language the site has)."""
    wanted = value.strip().replace("_", "-").lower()
    try:
        return translation.get_supported_language_variant(wanted)
    except LookupError:
        pass
    # a variant of a language the site has under another region (en-us: en-gb)
    for code, _name in settings.LANGUAGES:
        if code.split("-")[0] == wanted.split("-")[0]:
            return code
    choices = ", ".join(code for code, _name in settings.LANGUAGES)
    raise argparse.ArgumentTypeError(f"{value!r} is not a language we print in (use {choices})")


class Command(BaseCommand):
    help = "Print a roster file as character cards, its gang sheet or a quick reference."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the roster file (JSON); - reads standard input")
        parser.add_argument("--kind", choices=list(printing.KINDS), default="cards")
        parser.add_argument("--paper", choices=list(printing.PAPERS), default="a4")
        parser.add_argument("--fronts-only", action="store_true", help="cards without their backs")
        parser.add_argument("--member", help="only this member's card (its key or name)")
        parser.add_argument("-o", "--output", required=True, help="the PDF to write")
        parser.add_argument(
            "--lang",
            type=language_code,
            default=settings.LANGUAGE_CODE,
            help="the language to print in: "
            + ", ".join(code for code, _name in settings.LANGUAGES)
            + " (en and en-us mean en-gb; fr: French, with the French book's terms)",
        )

    def handle(self, *args, **options) -> None:
        path: str = options["file"]
        try:
            roster = read_roster(read_file(path))
        except RosterFileError as e:
            self.stderr.write(f"{path} is not a roster file:")
            for problem in e.problems:
                self.stderr.write(f"  {problem}")
            sys.exit(UNREADABLE)
        member_key = None
        if options["member"]:
            member_key = self._member_key(roster, options["member"])
            if member_key is None:
                self.stderr.write(f"{path} has no member {options['member']!r}.")
                sys.exit(UNREADABLE)
        try:
            with translation.override(options["lang"]):
                content = self._print(roster, member_key, options)
        except printing.PdfError as e:
            self.stderr.write(f"The PDF could not be made: {e}")
            sys.exit(NOT_MADE)
        output = Path(options["output"])
        output.write_bytes(content)
        what = printing.KINDS[options["kind"]].lower()
        self.stdout.write(f"Wrote {output} ({what}, {len(content):,} bytes).")

    def _print(self, roster: dict, member_key: str | None, options: dict) -> bytes:
        return printing.print_pdf(
            roster,
            options["kind"],
            paper=options["paper"],
            fronts_only=options["fronts_only"],
            member_key=member_key,
        )

    def _member_key(self, roster: dict, wanted: str) -> str | None:
        """A member's key in the report: from its written key, position or name."""
        report = printing.prepare(roster).report
        for key, member in report.members.items():
            if wanted in (key, member.name):
                return key
        return None
