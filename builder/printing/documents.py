"""What goes into each document: the character cards, the gang sheet, the quick reference.

The rules engine says what is on each card (``system.print_cards``), on the sheet
(``system.print_sheet``) and in the reference (``system.quick_reference``); the templates
in ``templates/pdf/`` draw them; ``render`` turns the HTML into a PDF; the cards are laid
out nine to a page, with cut marks, backs mirrored for long-edge duplex (``cards.py``).
``print_pdf`` makes any of the three in a child process with a deadline.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string, select_template
from django.utils.translation import gettext_noop

from builder.printing import cards, render
from builder.printing.layout import PAPERS, Paper
from builder.printing.printed import Printed, base_context, prepare
from rules.pdf import run_with_deadline
from rules.printing import Section

KINDS = {
    "cards": gettext_noop("Character cards"),
    "sheet": gettext_noop("Gang sheet"),
    "reference": gettext_noop("Quick reference"),
}


def cards_pdf(
    roster: Mapping[str, Any],
    *,
    paper: str = "a4",
    fronts_only: bool = False,
    member_key: str | None = None,
    share_url: str | None = None,
    parallel: bool | None = None,
) -> bytes:
    """Character cards, nine to a page, backs mirrored (unless ``fronts_only``).

    ``parallel`` (default: ``PDF_PARALLEL``, on with two CPUs or more): lay the sheets
    out in two processes at once (``cards.parallel_render``)."""
    printed = prepare(roster)
    if parallel if parallel is not None else render.parallel_allowed():
        return cards.fit_cards(
            printed,
            PAPERS[paper],
            fronts_only=fronts_only,
            member_key=member_key,
            share_url=share_url,
            lay_out=cards.parallel_render,
        )
    return render.write(
        cards.layout_cards(
            printed,
            PAPERS[paper],
            fronts_only=fronts_only,
            member_key=member_key,
            share_url=share_url,
        )
    )


def sheet_html(printed: Printed, paper: Paper, share_url: str | None = None) -> str:
    context = base_context(printed, paper, share_url)
    context.update(
        members=printed.members(),
        findings=printed.finding_rows(),
        sheet=printed.system.print_sheet(printed.roster, printed.report),
        cards=printed.cards,
    )
    # the game's own sheet, in its editor's package (editors/<id>/sheet.html), else the generic
    template = select_template(
        [f"editors/{printed.system.id}/sheet.html", "pdf/generic_sheet.html"]
    )
    return template.render(context)


def sheet_pdf(
    roster: Mapping[str, Any], *, paper: str = "a4", share_url: str | None = None
) -> bytes:
    """The system's own gang sheet, with every finding."""
    return render.pdf(sheet_html(prepare(roster), PAPERS[paper], share_url))


def reference_html(printed: Printed, paper: Paper, share_url: str | None = None) -> str:
    context = base_context(printed, paper, share_url)
    sections: list[Section] = printed.system.quick_reference(printed.roster, printed.report)
    context.update(sections=[s for s in sections if s.entries], findings=printed.finding_rows())
    return render_to_string("pdf/reference.html", context)


def reference_pdf(
    roster: Mapping[str, Any], *, paper: str = "a4", share_url: str | None = None
) -> bytes:
    """Only the rules, skills, traits and weapons this gang uses, with their text."""
    return render.pdf(reference_html(prepare(roster), PAPERS[paper], share_url))


def print_pdf(
    roster: Mapping[str, Any],
    kind: str,
    *,
    paper: str = "a4",
    fronts_only: bool = False,
    member_key: str | None = None,
    share_url: str | None = None,
    timeout: float | None = None,
    nice: int = 10,
) -> bytes:
    """Any of the three PDFs, made in a child process stopped after ``timeout`` seconds
    and run at ``nice`` (a render made ahead, in the background, at 19: clicks go first)."""
    if kind == "cards":

        def job() -> bytes:
            return cards_pdf(
                roster,
                paper=paper,
                fronts_only=fronts_only,
                member_key=member_key,
                share_url=share_url,
                # made ahead, nobody waits: one CPU, leaving the other to the site
                parallel=False if nice > 10 else None,
            )
    elif kind == "sheet":

        def job() -> bytes:
            return sheet_pdf(roster, paper=paper, share_url=share_url)
    elif kind == "reference":

        def job() -> bytes:
            return reference_pdf(roster, paper=paper, share_url=share_url)
    else:
        raise ValueError(f"unknown kind of PDF {kind!r}: use one of {', '.join(KINDS)}")
    seconds = settings.PDF_TIMEOUT_SECONDS if timeout is None else timeout
    return run_with_deadline(job, seconds, nice=nice)


def site_origin() -> str:
    """The site's address for a PDF made with no request (in the background):
    ``SITE_URL``, else the development server's (common/links.py)."""
    from common import links

    return links.site_origin()
