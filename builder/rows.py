"""The builder's roster rows: one line per member, drawn in Python (a row is drawn for every
member on every answer, so it must cost microseconds, not a template's milliseconds).

An htmx answer leaves out a row the page already shows as it is (``keep``): the page
sends the version it shows and which member is open (``X-Builder-Version``,
``X-Builder-Open``); when the version is the one the change started from, each row is
compared with the row the page has, and an unchanged one is sent as an empty placeholder
that ``static/js/app.js`` keeps as it is.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def row_html(row: dict[str, Any], position: int, page_url: str, is_open: bool) -> SafeString:
    """One member's row: a link that opens (or closes) its panel."""
    member, figures = row["member"], row["r"]
    count = row["findings"]
    if count:
        badge = format_html(
            '<span class="row-badge {}" data-testid="member-badge" title="{}">{}</span>',
            "error" if figures.has_errors else "warning",
            ngettext("%(n)d finding", "%(n)d findings", count) % {"n": count},
            count,
        )
    else:
        badge = mark_safe('<span class="row-badge none"></span>')
    stats = format_html_join(
        " ", '<span class="row-stat"><i>{}</i> {}</span>', ((k, v) for k, v in row["stats"])
    )
    href = page_url if is_open else f"{page_url}?open={member.pk}"
    return format_html(
        '<li class="roster-row{}{}" id="member-{}" data-testid="member" data-member-name="{}">'
        '<a class="row-link" id="row-link-{}" href="{}" hx-get="{}" hx-push-url="true"'
        ' aria-expanded="{}" data-testid="open-member"><b class="row-pos">{}</b>'
        '<span class="row-main"><span class="row-name">{}</span>'
        '<span class="row-kind">{}</span></span><span class="row-stats">{}</span>'
        '<span class="row-cost" data-testid="member-cost">{}</span>{}</a></li>',
        " is-open" if is_open else "",
        " has-errors" if figures.has_errors else "",
        member.pk,
        member.name,
        member.pk,
        href if is_open else f"{href}#member-{member.pk}",
        href,
        "true" if is_open else "false",
        position,
        member.name or _("(no name)"),
        row["kind"],
        stats,
        figures.cost,
        badge,
    )


def parse_known(request) -> tuple[int | None, int | None]:
    """The version of the builder the page shows and the member open there (or Nones)."""

    def number(header: str) -> int | None:
        try:
            return int(request.headers.get(header, ""))
        except ValueError:
            return None

    return number("X-Builder-Version"), number("X-Builder-Open")
