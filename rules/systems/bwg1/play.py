"""Blackwater Gulch v1.1.2 at the table: Health boxes (HP) and the Leader's Luck dice."""

from __future__ import annotations

from typing import Any

from rules.base import as_int
from rules.i18n import gettext_noop
from rules.play.tracker import Counter, Tracker


class BWG1Tracker(Tracker):
    counters = (
        Counter("hp", gettext_noop("Health"), gettext_noop("HP"), harm=True),
        Counter("luck", gettext_noop("Leader's Luck"), gettext_noop("Luck")),
    )
    turns = None
    happening_kinds = ("out", "left")

    def profile(self, report: Any, gang_facts) -> dict[str, Any]:
        leader = getattr(report, "type_id", "") == "leader"
        luck = as_int(dict(gang_facts).get("Leader's Luck dice")) or 3
        counters = {"hp": max(1, as_int(getattr(report, "hp", None)) or 1)}
        if leader:
            counters["luck"] = luck
        return {
            "counters": counters,
            "leader": leader,
            "vp": 0,
            "summary": str(getattr(report, "summary", "") or ""),
        }


TRACKER = BWG1Tracker
