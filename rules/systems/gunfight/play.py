"""Gunfight v2 at the table: Body (BD) and Willpower (WP), both lost to hits."""

from __future__ import annotations

from typing import Any

from rules.base import as_int
from rules.i18n import gettext_noop
from rules.play.tracker import Counter, Tracker


class GunfightTracker(Tracker):
    counters = (
        Counter("bd", gettext_noop("Body"), gettext_noop("BD"), harm=True),
        Counter("wp", gettext_noop("Willpower"), gettext_noop("WP")),
    )
    happening_kinds = ("out", "left")

    def profile(self, report: Any, gang_facts) -> dict[str, Any]:
        final = getattr(report, "final", None) or {}
        return {
            "counters": {
                "bd": max(1, as_int(final.get("bd")) or 1),
                "wp": max(1, as_int(final.get("wp")) or 1),
            },
            "leader": "leader" in (getattr(report, "abilities", None) or []),
            "vp": 0,
            "summary": str(getattr(report, "summary", "") or ""),
        }


TRACKER = GunfightTracker
