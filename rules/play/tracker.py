"""What every system's tracker shares, and the generic fallback.

A :class:`Tracker` says, for one game system, which counters a member carries at the
table (in the system's own words), where their starting values come from (the member's
report from the system's ``evaluate``), which counter a wound lowers, whether the game
has a turn limit and an Action Point pool. A system with no module of its own gets this
class as it is: one Health counter from a stat called HP, Health, Wounds, EN or BD.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.base import as_int
from rules.i18n import _, gettext_noop, ngettext


@dataclass(frozen=True)
class Counter:
    """One counter a member carries: ``harm`` when lowering it is a wound. ``label`` and
    ``short`` are marked for translation, and translated where they are shown."""

    id: str
    label: str
    short: str
    harm: bool = False

    def counted(self, n: int, name: str | None = None) -> str:
        """``n`` of this counter in words, as the log says it ("1 action", "2 actions");
        ``name``: what the member's counter is (a consumable's name)."""
        if name:
            return f"{n} {name}"
        words = _COUNTED.get(self.id)
        if words is not None:
            return words(n).format(n=n)
        return _("{n} {what}").format(n=n, what=_(self.label))


_COUNTED = {
    "actions": lambda n: ngettext("{n} action", "{n} actions", n),
    "hp": lambda n: ngettext("{n} Health box", "{n} Health boxes", n),
    "health": lambda n: ngettext("{n} Health box", "{n} Health boxes", n),
    "luck": lambda n: ngettext("{n} Luck die", "{n} Luck dice", n),
    "consumables": lambda n: ngettext("{n} consumable", "{n} consumables", n),
    "en": lambda n: ngettext("{n} Endurance point", "{n} Endurance points", n),
    "bd": lambda n: ngettext("{n} Body point", "{n} Body points", n),
    "wp": lambda n: ngettext("{n} Willpower point", "{n} Willpower points", n),
}


HEALTH_STATS = ("HP", "Health", "Wounds", "EN", "BD", "W")


def stat(report: Any, *names: str) -> int | None:
    """The first of ``names`` in the report's stat line, as a number (or None)."""
    stats = dict(getattr(report, "stats", None) or [])
    for name in names:
        value = as_int(str(stats.get(name, "")).strip().rstrip('"'))
        if value is not None:
            return value
    return None


class Tracker:
    """A system's trackers. Subclasses change the class attributes and ``profile``."""

    system_id = ""
    #: the counters, in the order the page shows them
    counters: tuple[Counter, ...] = (
        Counter("health", gettext_noop("Health"), gettext_noop("HP"), harm=True),
    )
    #: how many turns the book's game lasts (None: no fixed length)
    turns: int | None = None
    turn_word = gettext_noop("Turn")
    turns_word = gettext_noop("turns")
    #: refusing to go back before turn 1 (a whole sentence: "tour" and "manche" differ in
    #: gender in French)
    first_turn = gettext_noop("This is the first turn.")
    #: an Action Point pool per side, refilled at each new turn
    has_action_points = False
    #: Rivals: each wound is a counter with a white side and a red side
    wound_counters = False
    #: what a member can be, beside in the fight
    statuses: tuple[str, ...] = ("out", "dead", "playing_dead", "left")
    #: the record the game's log drafts for a campaign ("wound"/"kill" with a cause)
    happening_kinds: tuple[str, ...] = ("out", "left")

    def __init__(self, system_id: str = ""):
        self.system_id = system_id or self.system_id

    @property
    def harm(self) -> Counter:
        return next(c for c in self.counters if c.harm)

    def counter(self, counter_id: str) -> Counter | None:
        return next((c for c in self.counters if c.id == counter_id), None)

    def profile(self, report: Any, gang_facts: Mapping[str, str]) -> dict[str, Any]:
        """What the tracker keeps of a member: each counter's starting value, whether it
        leads, the Victory Points it is worth to the enemy, a one-line summary."""
        health = stat(report, *HEALTH_STATS)
        return {
            "counters": {"health": max(1, health or 1)},
            "leader": bool(getattr(report, "leader", False)),
            "vp": as_int(getattr(report, "victory_points", None)) or 0,
            "summary": str(getattr(report, "summary", "") or ""),
        }

    def action_points(self, report: Any, members: list[dict[str, Any]]) -> int | None:
        """A side's Action Point pool each turn (None: the system has none)."""
        return None


GenericTracker = Tracker
