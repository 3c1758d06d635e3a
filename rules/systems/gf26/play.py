"""Gangfight Core Rules 2.6 at the table: Endurance (EN) and the party's Action Point pool."""

from __future__ import annotations

from typing import Any

from rules.base import as_int
from rules.i18n import gettext_noop
from rules.play.tracker import Counter, Tracker


class GF26Tracker(Tracker):
    counters = (Counter("en", gettext_noop("Endurance"), gettext_noop("EN"), harm=True),)
    has_action_points = True
    statuses = ("out", "left")  # out: incapacitated
    happening_kinds = ("out", "left")

    def profile(self, report: Any, gang_facts) -> dict[str, Any]:
        attributes = getattr(report, "attributes", None) or {}
        return {
            "counters": {"en": max(1, as_int(attributes.get("en")) or 1)},
            "leader": bool(getattr(report, "is_party_leader", False)),
            "vp": 0,
            "iv": as_int(attributes.get("iv")) or 0,
            "summary": str(getattr(report, "summary", "") or ""),
        }

    def action_points(self, report: Any, members: list[dict[str, Any]]) -> int | None:
        """The party's Action Points per turn, as the gang sheet says (units use their
        lowest IV), else the sum of the members' IV."""
        facts = dict(getattr(report, "gang", {}).get("facts") or [])
        given = as_int(facts.get("Action Points per turn"))
        if given is not None:
            return given
        return sum(m.get("iv", 0) for m in members)


TRACKER = GF26Tracker
