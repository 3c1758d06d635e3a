"""The printed fallback of play mode: a tracking grid on the quick reference, drawn from
the same trackers as the table on the phone (``rules.play``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from rules.play import tracker_for

register = template.Library()

MAX_BOXES = 12  # more than this is written as a number to cross off, not drawn


@register.simple_tag
def tracking_grid(roster: Any, report: Any) -> dict[str, Any]:
    """Each member's counters as boxes to tick, the turns, the Action Point pool."""
    system_id = str((roster or {}).get("system", ""))
    tracker = tracker_for(system_id)
    facts = dict((getattr(report, "gang", None) or {}).get("facts") or [])
    members_report = getattr(report, "members", None) or {}
    rows = []
    for entry in (roster or {}).get("members") or []:
        key = str(entry.get("key"))
        member = members_report.get(key) if isinstance(members_report, dict) else None
        profile = tracker.profile(member, facts)
        counters = []
        for counter in tracker.counters:
            start = profile["counters"].get(counter.id)
            if start is None:
                continue
            counters.append(
                {
                    "short": gettext(counter.short),
                    "start": start,
                    "boxes": range(min(start, MAX_BOXES)),
                }
            )
        rows.append({"name": entry.get("name") or "", "counters": counters})
    width = max((len(r["counters"]) for r in rows), default=1)
    for row in rows:
        row["blank"] = range(width - len(row["counters"]))
    ap = tracker.action_points(report, []) if tracker.has_action_points else None
    return {
        "rows": rows,
        "width": range(width),
        "turns": range(1, (tracker.turns or 10) + 1),
        "turn_word": gettext(tracker.turn_word),
        "ap": ap,
        "wound_counters": tracker.wound_counters,
        "statuses": [gettext("Out"), gettext("Killed"), gettext("Left")],
    }
