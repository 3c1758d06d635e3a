"""A roster evaluated for printing, and what every document's template is given.

Everything starts from a roster dict (the roster file's shape), so a saved gang and a file
given to ``manage.py render_pdf`` print the same way: ``prepare`` evaluates it with its
system's rules and asks the system for its cards (``system.print_cards``).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from builder.printing.layout import Paper
from builder.printing.render import needs_fallback_font, qr_data_uri
from rules import Report, get_system
from rules.printing import Card


@dataclass
class Printed:
    """A roster evaluated for printing: the system, its report and its cards."""

    roster: Mapping[str, Any]
    system: Any
    report: Report
    cards: list[Card]

    @property
    def gang_name(self) -> str:
        name = self.roster.get("name")
        return name.strip() if isinstance(name, str) and name.strip() else _("Unnamed gang")

    def members(self) -> list[dict[str, Any]]:
        raws = self.roster.get("members") or []
        by_key = {c.key: c for c in self.cards}
        rows = []
        for raw, (key, r) in zip(raws, self.report.members.items(), strict=False):
            raw = raw if isinstance(raw, Mapping) else {}
            rows.append(
                {"name": r.name, "data": raw.get("data") or {}, "r": r, "card": by_key.get(key)}
            )
        return rows

    def finding_rows(self) -> list[dict[str, Any]]:
        return [
            {"finding": f, "member": self.report.members.get(f.member) if f.member else None}
            for f in self.report.findings
        ]


def prepare(roster: Mapping[str, Any]) -> Printed:
    system = get_system(roster["system"])
    report = system.evaluate(roster)
    return Printed(roster, system, report, system.print_cards(roster, report))


def _all_text(printed: Printed) -> str:
    return printed.gang_name + " ".join(card.text() for card in printed.cards)


def base_context(printed: Printed, paper: Paper, share_url: str | None) -> dict[str, Any]:
    """What every document's template is given: the gang, its report, the paper, the QR
    code of its shared page, the date it is printed."""
    return {
        "gang_name": printed.gang_name,
        "limit": printed.report.limit,
        "roster": printed.roster,
        "system": printed.system,
        "report": printed.report,
        "printed": timezone.localdate() if settings.USE_TZ else datetime.date.today(),
        "paper": paper,
        "qr": qr_data_uri(share_url) if share_url else "",
        "share_url": share_url or "",
        "fallback_font": needs_fallback_font(_all_text(printed)),
    }
