"""Play mode: a game at the table, kept as a log of taps.

Plain Python, like the rest of ``rules`` (no Django). The app stores taps; this package
says what they mean:

- :mod:`.engine`: :func:`setup` turns the gangs' rosters into the game's snapshot (each
  member's counters, in its system's terms); :func:`replay` folds the taps into a
  :class:`GameState`; :func:`prepare` checks a new tap, or raises :class:`PlayError`.
  Undo is a tap too: it voids an earlier one.
- :mod:`.tracker`: what every system's tracker shares (:class:`Tracker`), and the generic
  fallback a sixth system gets for free;
- one module per game system (``rivals``, ``bwg1``, ``bwg2``, ``gf26``, ``gunfight``)
  setting ``TRACKER``, found by its system id.
- :mod:`.record`: the game's log as the draft of the after-game record (a Rivals
  encounter's happenings, a league match report).
"""

from rules.play.engine import (
    KINDS,
    STATUSES,
    Checkpoints,
    GameState,
    MemberTrack,
    PlayError,
    Side,
    Tap,
    kept,
    prepare,
    replay,
    setup,
    tracker_for,
)
from rules.play.record import encounter_draft, match_draft, unnamed_wounds
from rules.play.tracker import Counter, Tracker

__all__ = [
    "KINDS",
    "STATUSES",
    "Checkpoints",
    "Counter",
    "GameState",
    "MemberTrack",
    "PlayError",
    "Side",
    "Tap",
    "Tracker",
    "encounter_draft",
    "kept",
    "match_draft",
    "prepare",
    "replay",
    "setup",
    "tracker_for",
    "unnamed_wounds",
]
