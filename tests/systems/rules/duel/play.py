"""Duel at Dawn at the table: one Grit counter per gunhand, which a hit lowers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.i18n import gettext_noop
from rules.play.tracker import Counter, Tracker


class DuelTracker(Tracker):
    counters = (Counter("grit", gettext_noop("Grit"), gettext_noop("Grit"), harm=True),)
    turns = None  # the duel lasts until one side is down
    happening_kinds = ("out", "left")

    def profile(self, report: Any, gang_facts: Mapping[str, str]) -> dict[str, Any]:
        grit = getattr(report, "grit", None)
        return {
            "counters": {"grit": max(1, grit if isinstance(grit, int) else 1)},
            "leader": False,
            "vp": 0,
            "summary": str(getattr(report, "summary", "") or ""),
        }


TRACKER = DuelTracker
