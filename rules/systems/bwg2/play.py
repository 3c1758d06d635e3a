"""Blackwater Gulch 2nd edition at the table: the life meter (one Health box per HP), the
consumables added before the game, Victory Points for each enemy out of action, 6 turns."""

from __future__ import annotations

from typing import Any

from rules.base import as_int
from rules.i18n import gettext_noop
from rules.play.tracker import Counter, Tracker


class BWG2Tracker(Tracker):
    counters = (
        Counter("hp", gettext_noop("Health"), gettext_noop("HP"), harm=True),
        Counter("consumables", gettext_noop("Consumables left"), gettext_noop("Cons.")),
    )
    turns = 6  # "Game length: 6 turns"
    happening_kinds = ("out", "left")

    def profile(self, report: Any, gang_facts) -> dict[str, Any]:
        attributes = getattr(report, "attributes", None) or {}
        hp = as_int(attributes.get("hp")) or 1
        items = getattr(report, "items", None) or []
        kept = [item for item in items if getattr(item, "consumable", False)]
        consumables = len(kept)
        counters = {"hp": max(1, hp)}
        names = {}
        if consumables:
            counters["consumables"] = consumables
            # the counter says what it is: "Snake Oil", not "Cons."
            found = [str(getattr(i, "name", "") or "") for i in kept]
            names["consumables"] = " / ".join(dict.fromkeys(n for n in found if n))[:60]
        return {
            "counters": counters,
            "names": names,
            "leader": bool(getattr(report, "is_leader", False)),
            "vp": as_int(getattr(report, "victory_points", None)) or 0,
            "summary": str(getattr(report, "summary", "") or ""),
        }


TRACKER = BWG2Tracker
