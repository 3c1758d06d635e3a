"""Outlaws: Rivals at the table: each outlaw's actions (his toughness: 3, 4 or 5) and the
wound counters laid on him, each with its white side (the actions it costs) up until it is
turned to its red side; 10 rounds an encounter. Wounds and kills name who caused them, so
the log drafts the encounter record (reputation is the campaign engine's to compute)."""

from __future__ import annotations

from typing import Any

from rules.base import as_int
from rules.i18n import gettext_noop
from rules.play.tracker import Counter, Tracker


class RivalsTracker(Tracker):
    counters = (Counter("actions", gettext_noop("Actions"), gettext_noop("Act."), harm=True),)
    turns = 10  # "An encounter lasts 10 rounds"
    turn_word = gettext_noop("Round")
    turns_word = gettext_noop("rounds")
    first_turn = gettext_noop("This is the first round.")
    wound_counters = True
    statuses = ("out", "dead", "playing_dead", "left")  # out: knocked out
    happening_kinds = ("wound", "kill", "left", "loot")

    def profile(self, report: Any, gang_facts) -> dict[str, Any]:
        actions = as_int(getattr(report, "actions", None)) or 4
        return {
            "counters": {"actions": actions},
            "leader": bool(getattr(report, "leader", False)),
            "vp": 0,
            "cash": as_int(getattr(report, "campaign_cash", None))
            or as_int(getattr(report, "cash", None))
            or 0,
            # what can be taken from his body: the loot is picked from this list
            "items": [
                str(c["item"])
                for c in getattr(report, "kit", None) or []
                for _n in range(as_int(c.get("quantity")) or 1)
            ],
            "summary": str(getattr(report, "summary", "") or ""),
        }


TRACKER = RivalsTracker
