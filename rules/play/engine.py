"""The play engine: taps in, the table's state out.

- :func:`setup` reads the gangs' rosters (through their system's ``evaluate``) into the
  game's snapshot: for each member, the counters it starts with in its system's terms.
- :func:`replay` folds a game's taps, in order, into a :class:`GameState`. An ``undo`` tap
  voids the tap it names, so the state is exactly what it would be had that tap never
  been made. Replay never raises: a tap it cannot read is left out, and says so.
- :func:`prepare` checks a new tap against the state and returns the data to store, or
  raises :class:`PlayError` saying what is wrong.

What differs between systems is asked of the game's :class:`~rules.play.tracker.Tracker`
(:func:`tracker_for`: the module of this package named after the system, which sets
``TRACKER``, else the generic tracker).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from rules.base import as_int, as_str
from rules.i18n import _, gettext_noop, ngettext
from rules.play.tracker import Tracker
from rules.registry import get_system, tracker_class

KINDS = (
    "wound",
    "adjust",
    "flip",
    "status",
    "turn",
    "ap",
    "vp",
    "loot",
    "end",
    "undo",
    "blame",
    "settle",
)
#: taps that may still be made after the game ended: they put the record right
AFTER_THE_END = ("undo", "loot", "blame", "settle")
#: taps that say something of other taps (their place in the log does not matter)
ABOUT_TAPS = ("undo", "settle")
STATUSES = {  # translated where they are shown
    "active": gettext_noop("In the fight"),
    "out": gettext_noop("Out of action"),
    "dead": gettext_noop("Killed"),
    "playing_dead": gettext_noop("Playing dead"),
    "left": gettext_noop("Left the board"),
}
MAX_STEP = 10  # the most a single tap may change a counter by
MAX_CASH = 100_000


class PlayError(Exception):
    """A tap the rules refuse: ``message`` says what to change, ``field`` where."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Tap:
    """One tap as stored: its place in the game's log, what it is, who made it, when."""

    seq: int
    kind: str
    data: Mapping[str, Any]
    by: str = ""
    at: str = ""  # when the server received it
    made: str = ""  # when the phone made it, on the server's clock (offline: received later)
    phone: str = ""  # the phone that made it (a random id kept by the browser)
    phone_seq: int = 0  # its number on that phone: 1, 2, 3...


#: a tap received this long (seconds) after it was made was "sent late"
LATE_SECONDS = 30
#: two taps of different players closer than this are told apart only by arrival: the
#: phones' clocks are corrected by their offset to the server, known to about a second
ORDER_SECONDS = 2
#: the same effect on the same member from both players within this many seconds is one
#: event recorded twice (a tap farther apart is a second event)
SAME_EVENT_SECONDS = 10


def _seconds(text: str) -> float:
    try:
        return datetime.fromisoformat(text).timestamp()
    except (TypeError, ValueError):
        return 0.0


def order_key(tap: Tap) -> tuple:
    """Where a tap stands in the game's log: when it was made (the server's clock), then
    its phone and its number on the phone, then its arrival."""
    return (_seconds(tap.made or tap.at), tap.phone, tap.phone_seq, tap.seq)


def _moves(tap: Tap) -> bool:
    return tap.kind == "settle" and tap.data.get("choice") == "keep"


def ordered(taps: Iterable[Tap]) -> list[Tap]:
    """The taps in the log's order. A conflicting tap kept by a ``settle`` tap stands just
    before the settle tap (where the players put it)."""
    taps = list(taps)
    moved = {
        as_int(t.data.get("target")): (*order_key(t)[:3], t.seq - 0.5) for t in taps if _moves(t)
    }
    return sorted(taps, key=lambda t: moved.get(t.seq) or order_key(t))


@dataclass
class LogLine:
    seq: int
    kind: str
    text: str
    by: str
    at: str
    undone: bool = False
    made: str = ""
    #: "conflict" (it no longer fits where it was made) or "disagreement" (the other
    #: player recorded the same thing otherwise): held, counted once settled
    held: str = ""
    #: the seq of the tap this one repeats (the same event recorded by the other player)
    repeats: int | None = None

    @property
    def when(self) -> str:
        """When the tap was made (the phone's time, else when it was received)."""
        return self.made or self.at

    @property
    def late(self) -> bool:
        """Made offline and received well after."""
        if not self.made or not self.at:
            return False
        try:
            gap = datetime.fromisoformat(self.at) - datetime.fromisoformat(self.made)
        except (TypeError, ValueError):
            return False
        return gap.total_seconds() > LATE_SECONDS


@dataclass
class Held:
    """A tap that does not count until a player settles it (one tap: keep, drop...)."""

    seq: int
    what: str  # "conflict" or "disagreement"
    text: str  # the tap, in words
    by: str
    reason: str  # why it does not fit, or what the other player recorded
    partner: int | None = None  # the tap it disagrees with
    partner_by: str = ""


@dataclass
class _Recent:
    """A counted tap, kept a few seconds of game time to spot the other player's copy."""

    t: float
    seq: int
    by: str
    key: tuple
    effect: tuple
    text: str
    echoed: set[str] = field(default_factory=set)


@dataclass
class MemberTrack:
    """One member at the table."""

    ref: str  # "<side>/<key>"
    side: str
    key: str
    name: str
    summary: str
    leader: bool
    vp: int  # the Victory Points it is worth to the enemy when out of action
    start: dict[str, int]
    counters: dict[str, int]
    cash: int = 0
    status: str = "active"
    cause: str = ""  # the member who put it out of the fight, if named
    wounds: list[dict[str, Any]] = field(default_factory=list)  # Rivals: wound counters
    #: what the member carries that can be taken from the body (None: not known)
    items: list[str] | None = None
    #: a counter's own name for this member (bwg2: its consumable, "Snake Oil")
    counter_names: dict[str, str] = field(default_factory=dict)

    @property
    def in_fight(self) -> bool:
        return self.status == "active"

    @property
    def status_label(self) -> str:
        return STATUSES[self.status]


@dataclass
class Side:
    id: str  # "a" or "b"
    name: str
    gang: str  # the gang it comes from (a builder gang or a campaign gang id)
    player: str
    members: dict[str, MemberTrack]
    ap_max: int | None = None
    ap: int | None = None
    vp: int = 0  # Victory Points tapped in (objectives, loot cards...)


@dataclass
class GameState:
    system: str
    tracker: Tracker
    sides: dict[str, Side]
    turn: int = 1
    ended: bool = False
    winner: str | None = None  # "a", "b", "draw"; None while the game runs
    version: int = 0  # the last tap's seq
    happenings: list[dict[str, Any]] = field(default_factory=list)
    log: list[LogLine] = field(default_factory=list)
    effective: list[int] = field(default_factory=list)  # seqs of the taps that count
    held: list[Held] = field(default_factory=list)  # taps waiting to be settled
    duplicates: dict[int, int] = field(default_factory=dict)  # a repeat's seq: the original's
    recent: list[_Recent] = field(default_factory=list)

    def held_tap(self, seq: Any) -> Held | None:
        return next((h for h in self.held if h.seq == seq), None)

    def member(self, member_ref: Any, what: str = "member") -> MemberTrack:
        side_id, _slash, key = as_str(member_ref).partition("/")
        side = self.sides.get(side_id)
        member = side.members.get(key) if side else None
        if member is None:
            raise PlayError(_("Choose a member from the game's gangs."), what)
        return member

    def members(self) -> Iterable[MemberTrack]:
        for side in self.sides.values():
            yield from side.members.values()

    def other(self, side_id: str) -> Side | None:
        return next((s for s in self.sides.values() if s.id != side_id), None)

    def figures(self) -> dict[str, Any]:
        """The state as plain data (what a test compares)."""
        return {
            "turn": self.turn,
            "ended": self.ended,
            "winner": self.winner,
            "sides": {
                s.id: {
                    "ap": s.ap,
                    "vp": s.vp,
                    "members": {
                        m.key: (
                            dict(m.counters),
                            m.status,
                            m.cause,
                            m.cash,
                            copy.deepcopy(m.wounds),
                        )
                        for m in s.members.values()
                    },
                }
                for s in self.sides.values()
            },
            "happenings": copy.deepcopy(self.happenings),
            "effective": list(self.effective),
            "held": sorted((h.seq, h.what) for h in self.held),
            "duplicates": dict(self.duplicates),
        }


# --------------------------------------------------------------------------- trackers


def tracker_for(system_id: str) -> Tracker:
    try:
        made = tracker_class(system_id)
    except KeyError:  # a system this server doesn't know: count with the generic tracker
        made = None
    return (made or Tracker)(system_id)


# --------------------------------------------------------------------------- setup


def setup(system_id: str, sides: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The game's snapshot from one or two sides: each ``{"id", "name", "gang", "player",
    "roster"}`` with the roster in the roster-file shape. Every member gets its counters
    as its system's tracker reads them from the system's report."""
    tracker = tracker_for(system_id)
    system = get_system(system_id)
    out = []
    for side in sides:
        roster = dict(side["roster"])
        report = system.evaluate(roster)
        facts = dict(report.gang.get("facts") or [])
        members = []
        for entry in roster.get("members") or []:
            key = str(entry.get("key"))
            member_report = report.members.get(key) if isinstance(report.members, dict) else None
            profile = tracker.profile(member_report, facts)
            members.append({"key": key, "name": as_str(entry.get("name"))[:100], **profile})
        out.append(
            {
                "id": side["id"],
                "name": as_str(side.get("name"))[:80],
                "gang": str(side.get("gang", "")),
                "player": as_str(side.get("player")),
                "ap": tracker.action_points(report, members) if tracker.has_action_points else None,
                "members": members,
            }
        )
    return {"system": system_id, "sides": out}


def new_state(snapshot: Mapping[str, Any]) -> GameState:
    system_id = as_str(snapshot.get("system"))
    tracker = tracker_for(system_id)
    sides: dict[str, Side] = {}
    for s in snapshot.get("sides") or []:
        side_id = as_str(s.get("id"))
        members = {}
        for m in s.get("members") or []:
            key = str(m.get("key"))
            start = {
                c.id: as_int((m.get("counters") or {}).get(c.id))
                for c in tracker.counters
                if as_int((m.get("counters") or {}).get(c.id)) is not None
            }
            members[key] = MemberTrack(
                ref=f"{side_id}/{key}",
                side=side_id,
                key=key,
                name=as_str(m.get("name")),
                summary=as_str(m.get("summary")),
                leader=bool(m.get("leader")),
                vp=as_int(m.get("vp")) or 0,
                start=start,
                counters=dict(start),
                cash=as_int(m.get("cash")) or 0,
                items=[as_str(i) for i in m["items"]] if isinstance(m.get("items"), list) else None,
                counter_names={
                    str(k): as_str(v) for k, v in (m.get("names") or {}).items() if as_str(v)
                },
            )
        ap = as_int(s.get("ap"))
        sides[side_id] = Side(
            side_id,
            as_str(s.get("name")),
            str(s.get("gang", "")),
            as_str(s.get("player")),
            members,
            ap,
            ap,
        )
    return GameState(system_id, tracker, sides)


# --------------------------------------------------------------------------- replay


def undone_by(taps: Sequence[Tap]) -> set[int]:
    """The seqs voided by the log's undo and settle taps. An undo names an earlier tap:
    it voids it, and the event with it: the tap it repeats or the other player's copies of
    it, those made before the undo (a copy made after it is an event of its own), found in
    the log's order so that when each tap arrived changes nothing. A settle drops the tap
    it names, or the one it disagreed with (``instead``). Anything else is left out."""
    kinds = {t.seq: t.kind for t in taps}
    voided: set[int] = set()

    def valid(target: Any, before: int) -> int | None:
        target = as_int(target)
        if target is not None and target < before and kinds.get(target) not in (None, *ABOUT_TAPS):
            return target
        return None

    undos = [t for t in taps if t.kind == "undo"]
    if undos:
        order = ordered(taps)
        keys = {t.seq: order_key(t) for t in order}
        roots = _copies(order)
        members: dict[int, list[int]] = {}
        for copy_seq, root in roots.items():
            members.setdefault(root, []).append(copy_seq)
        for t in undos:
            target = valid(t.data.get("target"), t.seq)
            if target is None:
                continue
            voided.add(target)
            root = roots.get(target, target)
            for seq in (root, *members.get(root, ())):
                if keys[seq] < keys[t.seq]:
                    voided.add(seq)
    for t in taps:
        if t.kind == "settle":
            choice = t.data.get("choice")
            target = t.data.get("partner") if choice == "instead" else t.data.get("target")
            if choice in ("drop", "instead") and valid(target, t.seq) is not None:
                voided.add(as_int(target))
    return voided


def _copies(order: Sequence[Tap]) -> dict[int, int]:
    """Each tap that repeats another player's (the same kind, subject and effect within
    SAME_EVENT_SECONDS, in the log's order): the seq of the tap it repeats. Read from the
    taps alone (what an undo takes back with its target)."""
    roots: dict[int, int] = {}
    recent: list[tuple[float, int, str, tuple, tuple, set[str]]] = []
    for tap in order:
        if tap.kind in ABOUT_TAPS:
            continue
        t = _seconds(tap.made or tap.at)
        key, effect = (tap.kind, _subject(tap.kind, tap.data)), _effect(tap.kind, tap.data)
        match = None
        if tap.by:
            for r in reversed(recent):
                if t - r[0] > SAME_EVENT_SECONDS:
                    break
                if r[3] == key and r[4] == effect and r[2] != tap.by and tap.by not in r[5]:
                    match = r
                    break
        if match is not None:
            match[5].add(tap.by)
            roots[tap.seq] = match[1]
        else:
            recent.append((t, tap.seq, tap.by, key, effect, set()))
    return roots


def _both(taps: Sequence[Tap]) -> set[int]:
    """Taps a settle said are an event of their own (not the other player's copy)."""
    return {
        as_int(t.data.get("target"))
        for t in taps
        if t.kind == "settle" and t.data.get("choice") in ("both", "instead")
    }


def _subject(kind: str, data: Mapping[str, Any]) -> tuple:
    """What a tap is about: two players' taps about the same thing may be one event."""
    if kind == "adjust":
        return (as_str(data.get("member")), as_str(data.get("counter")))
    if kind == "flip":
        return (as_str(data.get("member")), as_int(data.get("index")))
    if kind in ("wound", "status"):
        return (as_str(data.get("member")),)
    if kind == "loot":
        return (as_str(data.get("from")),)
    if kind in ("ap", "vp"):
        return (as_str(data.get("side")),)
    if kind == "blame":
        return (as_int(data.get("target")),)
    return ()


def _effect(kind: str, data: Mapping[str, Any]) -> tuple:
    """What a tap does to its subject (equal effects: the same event)."""
    if kind == "wound":
        return (as_int(data.get("amount")), as_str(data.get("by")))
    if kind == "status":
        return (as_str(data.get("status")), as_str(data.get("by")))
    if kind == "loot":
        items = data.get("items") or []
        if isinstance(items, str):
            items = [i.strip() for i in items.split(",") if i.strip()]
        return (as_str(data.get("by")), as_int(data.get("cash")) or 0, tuple(sorted(items)))
    if kind == "end":
        return (as_str(data.get("winner")),)
    if kind == "blame":
        return (as_str(data.get("by")),)
    if kind == "flip":
        return ()
    return (as_int(data.get("delta")),)


@dataclass(frozen=True)
class Outcome:
    """What a tap comes to at its place in the log: ``apply`` (with the data it counts
    with), ``repeat`` (the other player's copy of ``partner``), ``disagreement`` (the
    other player recorded ``partner`` otherwise) or ``conflict`` (``reason``)."""

    what: str
    data: Mapping[str, Any] | None = None
    partner: int | None = None
    reason: str = ""


def _recent_match(state: GameState, tap: Tap, t: float, key: tuple):
    for r in reversed(state.recent):
        if t - r.t > SAME_EVENT_SECONDS:
            return None
        if r.key == key and r.by != tap.by and tap.by not in r.echoed:
            return r
    return None


def classify(state: GameState, tap: Tap, *, alone: bool = False) -> Outcome:
    """What ``tap`` comes to if it is the next in the log after ``state`` (nothing is
    changed). ``alone``: a settle said it is an event of its own."""
    t = _seconds(tap.made or tap.at)
    if tap.by and not alone:
        r = _recent_match(state, tap, t, (tap.kind, _subject(tap.kind, tap.data)))
        if r is not None:
            if r.effect == _effect(tap.kind, tap.data):
                return Outcome("repeat", partner=r.seq)
            return Outcome("disagreement", partner=r.seq, reason=r.text)
    try:
        return Outcome("apply", prepare(state, tap.kind, tap.data))
    except PlayError as refused:
        return Outcome("conflict", reason=refused.message)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return Outcome("conflict", reason=_("That tap could not be read."))


def _next(state: GameState, snapshot: Mapping[str, Any], tap: Tap, alone: bool) -> LogLine:
    """Put one tap (not voided, not an undo or settle) in the state; its log line."""
    outcome = classify(state, tap, alone=alone)
    line = LogLine(tap.seq, tap.kind, "", tap.by, tap.at, made=tap.made)
    if outcome.what == "apply":
        line.text = apply(state, replace(tap, data=outcome.data))
        if state.effective and state.effective[-1] == tap.seq:
            t = _seconds(tap.made or tap.at)
            state.recent = [r for r in state.recent if t - r.t <= SAME_EVENT_SECONDS]
            key = (tap.kind, _subject(tap.kind, tap.data))
            effect = _effect(tap.kind, outcome.data)
            state.recent.append(_Recent(t, tap.seq, tap.by, key, effect, line.text))
        return line
    if outcome.what == "repeat":
        original = next(r for r in state.recent if r.seq == outcome.partner)
        original.echoed.add(tap.by)
        state.duplicates[tap.seq] = outcome.partner
        line.repeats = outcome.partner
        line.text = _("Recorded by both players: {what}").format(what=original.text)
        return line
    text = _preview(snapshot, tap)  # (a repeat says the original's words: none needed)
    partner_by = ""
    if outcome.what == "disagreement":
        partner_by = next(r.by for r in state.recent if r.seq == outcome.partner)
    state.held.append(
        Held(tap.seq, outcome.what, text, tap.by, outcome.reason, outcome.partner, partner_by)
    )
    line.held, line.text = outcome.what, text
    return line


def replay(snapshot: Mapping[str, Any], taps: Iterable[Tap]) -> GameState:
    """The game's state after its taps, in the log's order, voided taps left out."""
    return _replayed(snapshot, list(taps))[0]


def _replayed(snapshot: Mapping[str, Any], taps: list[Tap]) -> tuple[GameState, list[LogLine]]:
    """``replay``, and its log's lines (the list a book feeds on)."""
    voided, alone = undone_by(taps), _both(taps)
    state = new_state(snapshot)
    lines: dict[int, LogLine] = {}
    order = ordered(taps)
    for tap in order:
        if tap.kind in ABOUT_TAPS or tap.seq in voided:
            continue
        lines[tap.seq] = _next(state, snapshot, tap, tap.seq in alone)
    texts = {seq: line.text for seq, line in lines.items()}
    for tap in order:  # a voided tap keeps the words it would have had
        if tap.seq in voided:
            texts[tap.seq] = _preview(snapshot, tap)
    for tap in order:  # an undo or a settle says what it did, in words
        if tap.kind in ABOUT_TAPS:
            texts[tap.seq] = _describe_about(tap, texts)
    out = [
        lines.get(t.seq)
        or LogLine(t.seq, t.kind, texts[t.seq], t.by, t.at, undone=t.seq in voided, made=t.made)
        for t in order
    ]
    state.log = list(out)
    state.version = max((t.seq for t in taps), default=0)
    return state, out


def kept(state: GameState) -> GameState:
    """A copy of ``state`` that a book's next replay does not change (the log is shared:
    a replay gives the state a new list, it never changes the old one)."""
    out = copy.copy(state)
    out.sides = copy.deepcopy(state.sides)
    out.happenings = copy.deepcopy(state.happenings)
    out.effective = list(state.effective)
    out.held = list(state.held)
    out.duplicates = dict(state.duplicates)
    out.recent = copy.deepcopy(state.recent)
    return out


class Checkpoints:
    """One game's replay kept between calls (a process's memory, issue 31): when the log,
    in its order, begins with the taps the book has seen and what follows holds no undo or
    settle, only the new taps are applied; otherwise (a late tap made before the last one,
    an undo, a tap changed, another snapshot) the book replays the whole log again. The
    state returned is the book's own and changes at its next ``replay``: read it before
    asking again, never change it. A book is not shared between threads."""

    def __init__(self, snapshot: Mapping[str, Any]) -> None:
        self.snapshot = snapshot
        self._taps: list[Tap] = []
        self._state: GameState | None = None
        self._lines: list[LogLine] = []

    def fits(self, snapshot: Mapping[str, Any]) -> bool:
        return snapshot == self.snapshot

    def replay(self, taps: Iterable[Tap]) -> GameState:
        taps = ordered(taps)
        seen = len(self._taps)
        state = self._state
        if (
            state is None
            or seen > len(taps)
            or self._taps != taps[:seen]
            or any(t.kind in ABOUT_TAPS for t in taps[seen:])
            or any(_moves(t) for t in self._taps)  # (a kept conflict moves in the order)
        ):
            self._state, self._lines = _replayed(self.snapshot, taps)
            self._taps = taps
            return self._state
        for tap in taps[seen:]:
            self._lines.append(_next(state, self.snapshot, tap, False))
        self._taps = taps
        state.log = list(self._lines)
        state.version = max((t.seq for t in taps), default=0)
        return state


def _preview(snapshot: Mapping[str, Any], tap: Tap) -> str:
    """A tap in words, as if made at the game's start (a tap that did not count)."""
    try:
        return _APPLY[tap.kind](new_state(snapshot), tap.data)
    except Exception:
        return _("A {kind} tap that could not be read, left out.").format(kind=tap.kind)


def _describe_about(tap: Tap, texts: Mapping[int, str]) -> str:
    target = as_int(tap.data.get("target"))
    what = texts.get(target) if target is not None else None
    if not what:
        return _("Undid a tap that is not in the log.")
    if tap.kind == "undo":
        return _("Undid: {what}").format(what=what)
    choice = tap.data.get("choice")
    if choice == "keep":
        return _("Kept, after the taps it conflicted with: {what}").format(what=what)
    if choice == "drop":
        return _("Dropped: {what}").format(what=what)
    if choice == "instead":
        return _("Counted instead of the other player's: {what}").format(what=what)
    return _("Counted as an event of its own: {what}").format(what=what)


def apply(state: GameState, tap: Tap) -> str:
    """Apply one (not undone) tap to the state; returns the log's words for it."""
    handler = _APPLY.get(tap.kind)
    if handler is None:
        return _("An unknown tap ({kind}), left out.").format(kind=tap.kind)
    before = len(state.happenings)
    try:
        text = handler(state, tap.data)
    except (PlayError, KeyError, IndexError, TypeError, ValueError, AttributeError):
        del state.happenings[before:]
        return _("A {kind} tap that could not be read, left out.").format(kind=tap.kind)
    for h in state.happenings[before:]:
        h["seq"] = tap.seq
    state.effective.append(tap.seq)
    return text


def _name(state: GameState, member_ref: str) -> str:
    try:
        return state.member(member_ref).name
    except PlayError:
        return "?"


def _apply_wound(state: GameState, d: Mapping[str, Any]) -> str:
    m = state.member(d["member"])
    harm = state.tracker.harm
    amount = int(d["amount"])
    m.counters[harm.id] = max(0, m.counters.get(harm.id, 0) - amount)
    by = as_str(d.get("by"))
    if state.tracker.wound_counters:
        m.wounds.append({"amount": amount, "red": False, "by": by})
    state.happenings.append({"kind": "wound", "to": m.ref, "by": by, "amount": amount})
    what = harm.counted(amount)
    if by:
        return _("{by} wounded {name}: {what} lost.").format(
            name=m.name, what=what, by=_name(state, by)
        )
    return _("{name} wounded: {what} lost.").format(name=m.name, what=what)


def _heal(state: GameState, m: MemberTrack, counter_id: str) -> str:
    """Rivals: the harm counter's + takes the last wound counter off (its actions back,
    and its wound out of the record), so actions and wound counters always agree."""
    wound = m.wounds.pop()
    m.counters[counter_id] = min(m.start[counter_id], m.counters[counter_id] + wound["amount"])
    for i in range(len(state.happenings) - 1, -1, -1):
        h = state.happenings[i]
        if h["kind"] == "wound" and h["to"] == m.ref and h["amount"] == wound["amount"]:
            del state.happenings[i]
            break
    return _("{name}'s last wound taken off: {what} back.").format(
        name=m.name, what=state.tracker.harm.counted(wound["amount"])
    )


def _apply_adjust(state: GameState, d: Mapping[str, Any]) -> str:
    m = state.member(d["member"])
    counter = state.tracker.counter(d["counter"])
    delta = int(d["delta"])
    if d.get("heal"):
        return _heal(state, m, counter.id)
    # clamped: undoing an early tap may leave a later one reaching past the bounds
    m.counters[counter.id] = min(m.start[counter.id], max(0, m.counters[counter.id] + delta))
    what = counter.counted(abs(delta), m.counter_names.get(counter.id))
    words = (
        _("{name} got {what} back ({left} now).")
        if delta > 0
        else _("{name} used or lost {what} ({left} left).")
    )
    return words.format(name=m.name, what=what, left=m.counters[counter.id])


def _apply_flip(state: GameState, d: Mapping[str, Any]) -> str:
    m = state.member(d["member"])
    index = int(d["index"])
    wound = m.wounds[index]
    wound["red"] = not wound["red"]
    words = (
        _("{name}'s wound {n} turned to its red side.")
        if wound["red"]
        else _("{name}'s wound {n} turned back to its white side.")
    )
    return words.format(name=m.name, n=index + 1)


def _apply_status(state: GameState, d: Mapping[str, Any]) -> str:
    m = state.member(d["member"])
    status = d["status"]
    m.status = status
    m.cause = as_str(d.get("by")) if status in ("out", "dead") else ""
    if status == "dead":
        state.happenings.append({"kind": "kill", "to": m.ref, "by": m.cause})
    elif status == "out":
        state.happenings.append({"kind": "out", "to": m.ref, "by": m.cause})
    elif status in ("left", "playing_dead"):
        state.happenings.append({"kind": status, "who": m.ref})
    elif status == "active":
        state.happenings.append({"kind": "back", "who": m.ref})
    if m.cause:
        return _("{name}: {what}, by {by}.").format(
            name=m.name, what=_(STATUSES[status]).lower(), by=_name(state, m.cause)
        )
    return _("{name}: {what}.").format(name=m.name, what=_(STATUSES[status]).lower())


def _apply_turn(state: GameState, d: Mapping[str, Any]) -> str:
    delta = int(d["delta"])
    state.turn += delta
    if delta > 0:
        for side in state.sides.values():
            side.ap = side.ap_max
    return _("{word} {n}.").format(word=_(state.tracker.turn_word), n=state.turn)


def _apply_ap(state: GameState, d: Mapping[str, Any]) -> str:
    side = state.sides[d["side"]]
    delta = int(d["delta"])
    side.ap = min(side.ap_max or 0, max(0, (side.ap or 0) + delta))
    if delta < 0:
        words = ngettext(
            "{side} spent {n} Action Point ({left} left).",
            "{side} spent {n} Action Points ({left} left).",
            -delta,
        )
    else:
        words = ngettext(
            "{side} got {n} Action Point back ({left} left).",
            "{side} got {n} Action Points back ({left} left).",
            delta,
        )
    return words.format(side=side.name, n=abs(delta), left=side.ap)


def _apply_vp(state: GameState, d: Mapping[str, Any]) -> str:
    side = state.sides[d["side"]]
    delta = int(d["delta"])
    side.vp = max(0, side.vp + delta)
    return _("{side}: {delta:+d} Victory Points ({vp}).").format(
        side=side.name, delta=delta, vp=side.vp
    )


def _apply_loot(state: GameState, d: Mapping[str, Any]) -> str:
    by, victim = state.member(d["by"]), state.member(d["from"])
    cash = min(max(0, victim.cash), int(d.get("cash") or 0))
    items = [as_str(i) for i in d.get("items") or []]
    victim.cash -= cash
    by.cash += cash
    for item in items:
        if victim.items is not None and item in victim.items:
            victim.items.remove(item)
            if by.items is not None:
                by.items.append(item)
    state.happenings.append(
        {"kind": "loot", "by": by.ref, "from": victim.ref, "cash": cash, "items": items}
    )
    what = ", ".join(([f"${cash}"] if cash else []) + items)
    return _("{by} took {what} from {victim}.").format(by=by.name, what=what, victim=victim.name)


def _apply_end(state: GameState, d: Mapping[str, Any]) -> str:
    state.ended = True
    state.winner = d["winner"]
    if state.winner == "draw":
        return _("The game ended in a draw.")
    return _("The game ended: {side} won.").format(side=state.sides[state.winner].name)


def _apply_blame(state: GameState, d: Mapping[str, Any]) -> str:
    """Name who caused a wound tapped with nobody named (from the review of the record)."""
    target, by = int(d["target"]), as_str(d["by"])
    h = next(h for h in state.happenings if h.get("seq") == target and h["kind"] == "wound")
    h["by"] = by
    victim = state.member(h["to"])
    return _("{by} wounded {name} (named afterwards).").format(
        by=_name(state, by), name=victim.name
    )


_APPLY = {
    "blame": _apply_blame,
    "wound": _apply_wound,
    "adjust": _apply_adjust,
    "flip": _apply_flip,
    "status": _apply_status,
    "turn": _apply_turn,
    "ap": _apply_ap,
    "vp": _apply_vp,
    "loot": _apply_loot,
    "end": _apply_end,
}


# --------------------------------------------------------------------------- prepare


def _step(value: Any, what: str, field_name: str) -> int:
    number = as_int(value)
    if number is None or number == 0 or abs(number) > MAX_STEP:
        raise PlayError(
            _("{what}: give a whole number from 1 to {most}.").format(what=what, most=MAX_STEP),
            field_name,
        )
    return number


def _is(m: MemberTrack) -> str:
    return _("{name} is {what}.").format(name=m.name, what=_(m.status_label).lower())


def _cause(state: GameState, victim: MemberTrack, value: Any) -> str:
    """The member who caused a wound or a kill: someone of the other side still in the
    fight, or nobody named."""
    if not as_str(value):
        return ""
    by = state.member(value, "by")
    if by.side == victim.side:
        raise PlayError(
            _("{by} and {victim} are on the same side.").format(by=by.name, victim=victim.name),
            "by",
        )
    if not by.in_fight:
        raise PlayError(_is(by), "by")
    return by.ref


def _fighting(state: GameState, data: Mapping[str, Any]) -> MemberTrack:
    m = state.member(data.get("member"))
    if not m.in_fight:
        raise PlayError(_is(m), "member")
    return m


def prepare(state: GameState, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Check a new tap against the state; returns the data to store.

    Raises :class:`PlayError` if it makes no sense now (a counter below 0, a wound on a
    member out of the fight, a cause on the wrong side...).
    """
    if kind not in KINDS:
        raise PlayError(_("Unknown tap {kind!r}.").format(kind=kind), "kind")
    if state.ended and kind not in AFTER_THE_END:  # the record can be put right after
        raise PlayError(_("The game has ended: undo its end to go on tapping."))
    return _PREPARE[kind](state, dict(data))


def well_formed(state: GameState, kind: str, data: Mapping[str, Any]) -> None:
    """PlayError unless the tap is one the game can read: a known kind, naming its own
    members and sides (what a tap sent late must be, to be kept even where it no longer
    fits)."""
    if kind not in KINDS:
        raise PlayError(_("Unknown tap {kind!r}.").format(kind=kind), "kind")
    for key in ("member", "from", "by"):
        if as_str(data.get(key)):
            state.member(data.get(key), key)
    if kind in ("ap", "vp"):
        _side(state, data)


def admit(
    snapshot: Mapping[str, Any], taps: Sequence[Tap], state: GameState, new: Tap, seen: Any
) -> dict[str, Any]:
    """The data to store for ``new``, a tap arriving at a log of ``taps`` whose state is
    ``state``; or PlayError (nothing to store). ``seen``: the log's version the phone showed
    when the tap was made (None: it showed the whole log).

    An undo or a settle is checked against the log as it is (a conflict kept must then
    fit). A tap made after the whole log is checked where it stands: refused when the phone
    had seen the whole log (its player is told at once), else kept, in conflict if it does
    not fit. A tap made before the log's last (sent late) goes where it was made: the
    replay says whether it fits there. Either way it must name the game's own members."""
    if new.kind in ABOUT_TAPS:
        prepared = prepare(state, new.kind, new.data)
        if new.kind == "settle" and prepared["choice"] == "keep":
            trial = replay(snapshot, [*taps, replace(new, data=prepared)])
            still = trial.held_tap(prepared["target"])
            if still is not None:
                raise PlayError(_("It still does not fit: {reason}").format(reason=still.reason))
        return prepared
    well_formed(state, new.kind, new.data)
    last = max((order_key(t) for t in ordered(taps)), default=None)
    if last is not None and order_key(new) < last:
        return dict(new.data)  # sent late: the replay puts it where it was made
    outcome = classify(state, new)
    if outcome.what == "conflict" and (seen is None or seen >= state.version):
        raise PlayError(outcome.reason)
    return dict(outcome.data) if outcome.what == "apply" else dict(new.data)


def _prepare_wound(state: GameState, data: dict) -> dict:
    m = _fighting(state, data)
    harm = state.tracker.harm
    amount = abs(_step(data.get("amount", 1), _("Wounds"), "amount"))
    left = m.counters.get(harm.id, 0)
    if left <= 0:
        raise PlayError(
            _("{name} has no {what} left: mark the member out of the fight.").format(
                name=m.name, what=_(harm.label)
            )
        )
    if amount > left:
        raise PlayError(
            _("{name} has {n} {what} left.").format(name=m.name, n=left, what=_(harm.label)),
            "amount",
        )
    return {"member": m.ref, "amount": amount, "by": _cause(state, m, data.get("by"))}


def _prepare_adjust(state: GameState, data: dict) -> dict:
    m = state.member(data.get("member"))
    counter = state.tracker.counter(as_str(data.get("counter")))
    if counter is None or counter.id not in m.counters:
        raise PlayError(_("{name} has no such counter.").format(name=m.name), "counter")
    delta = _step(data.get("delta"), _(counter.label), "delta")
    if counter.harm and state.tracker.wound_counters and delta > 0:
        # Rivals: actions come back only by taking a wound counter off
        if not m.wounds:
            raise PlayError(
                _("{name} has no wound counter to take off.").format(name=m.name), "delta"
            )
        return {"member": m.ref, "counter": counter.id, "delta": 1, "heal": True}
    new = m.counters[counter.id] + delta
    if new < 0:
        raise PlayError(
            _("{name} has no {what} left.").format(name=m.name, what=_(counter.label)), "delta"
        )
    if new > m.start[counter.id]:
        raise PlayError(
            _("{name} started with {n} {what}: no more than that.").format(
                name=m.name, n=m.start[counter.id], what=_(counter.label)
            ),
            "delta",
        )
    return {"member": m.ref, "counter": counter.id, "delta": delta}


def _prepare_flip(state: GameState, data: dict) -> dict:
    m = state.member(data.get("member"))
    if not m.wounds:
        raise PlayError(_("{name} has no wound counter to turn.").format(name=m.name), "member")
    index = as_int(data.get("index"))
    if index is None:
        index = len(m.wounds) - 1
    if not 0 <= index < len(m.wounds):
        raise PlayError(
            ngettext(
                "{name} has {n} wound counter.", "{name} has {n} wound counters.", len(m.wounds)
            ).format(name=m.name, n=len(m.wounds)),
            "index",
        )
    return {"member": m.ref, "index": index}


def _prepare_status(state: GameState, data: dict) -> dict:
    m = state.member(data.get("member"))
    status = as_str(data.get("status"))
    if status != "active" and status not in state.tracker.statuses:
        raise PlayError(_("Choose what happened to the member."), "status")
    if status == m.status:
        raise PlayError(
            _("{name} is already {what}.").format(name=m.name, what=_(m.status_label).lower()),
            "status",
        )
    by = _cause(state, m, data.get("by")) if status in ("out", "dead") else ""
    return {"member": m.ref, "status": status, "by": by}


def _prepare_turn(state: GameState, data: dict) -> dict:
    delta = as_int(data.get("delta"))
    if delta not in (1, -1):
        raise PlayError(_("A turn goes one forward or one back."), "delta")
    if state.turn + delta < 1:
        raise PlayError(_(state.tracker.first_turn), "delta")
    limit = state.tracker.turns
    if limit and state.turn + delta > limit:
        raise PlayError(
            _("The game lasts {n} {words}.").format(
                n=limit, words=_(state.tracker.turns_word).lower()
            ),
            "delta",
        )
    return {"delta": delta}


def _side(state: GameState, data: Mapping) -> Side:
    side = state.sides.get(as_str(data.get("side")))
    if side is None:
        raise PlayError(_("Choose one of the game's sides."), "side")
    return side


def _prepare_ap(state: GameState, data: dict) -> dict:
    side = _side(state, data)
    if side.ap_max is None:
        raise PlayError(_("This game has no Action Point pool."), "side")
    delta = _step(data.get("delta"), _("Action Points"), "delta")
    new = (side.ap or 0) + delta
    if not 0 <= new <= side.ap_max:
        raise PlayError(
            _("{side}'s pool holds 0 to {most} Action Points.").format(
                side=side.name, most=side.ap_max
            ),
            "delta",
        )
    return {"side": side.id, "delta": delta}


def _prepare_vp(state: GameState, data: dict) -> dict:
    side = _side(state, data)
    delta = _step(data.get("delta"), _("Victory Points"), "delta")
    if side.vp + delta < 0:
        raise PlayError(
            _("{side} has {n} Victory Points.").format(side=side.name, n=side.vp), "delta"
        )
    return {"side": side.id, "delta": delta}


def _prepare_loot(state: GameState, data: dict) -> dict:
    by = _fighting(state, {"member": data.get("by")})
    victim = state.member(data.get("from"), "from")
    if victim.status != "dead":
        raise PlayError(
            _("Only the dead can be robbed: {name} is not dead.").format(name=victim.name), "from"
        )
    # (any dead outlaw, one's own gang's too: seed 003, "Playing an encounter")
    cash = as_int(data.get("cash") or 0)
    if cash is None or not 0 <= cash <= MAX_CASH:
        raise PlayError(_("Dollars taken: a whole number, 0 or more."), "cash")
    if cash > victim.cash:
        raise PlayError(_("{name} has ${cash}.").format(name=victim.name, cash=victim.cash), "cash")
    items = data.get("items") or []
    if isinstance(items, str):
        items = [t.strip() for t in items.split(",")]
    items = [as_str(i)[:60] for i in items if as_str(i).strip()][:10]
    if victim.items is not None:  # only what the victim carries
        carried = list(victim.items)
        for item in items:
            if item not in carried:
                raise PlayError(
                    _("{name} carries no {item}.").format(name=victim.name, item=item), "items"
                )
            carried.remove(item)
    if not cash and not items:
        raise PlayError(_("Say what was taken (dollars or items)."), "cash")
    return {"by": by.ref, "from": victim.ref, "cash": cash, "items": items}


def _prepare_end(state: GameState, data: dict) -> dict:
    winner = as_str(data.get("winner"))
    if winner not in (*state.sides, "draw"):
        raise PlayError(_("Choose the winner, or a draw."), "winner")
    return {"winner": winner}


def _prepare_undo(state: GameState, data: dict) -> dict:
    """Undo a tap that counts, a copy of one, or one held: a tap recorded by both players
    is undone with its copies made before the undo (either player's undo takes the event
    back: ``undone_by``)."""
    target = as_int(data.get("target"))
    undoable = [*state.effective, *state.duplicates, *(h.seq for h in state.held)]
    if not undoable:
        raise PlayError(_("Nothing to undo."))
    if target is None:
        target = state.effective[-1] if state.effective else undoable[-1]
    if target not in undoable:
        raise PlayError(_("That tap is already undone, or can't be undone."), "target")
    return {"target": target}


#: how a held tap is settled: a conflict kept (after the taps it conflicted with) or
#: dropped; a disagreement's tap dropped, counted instead of the other player's, or
#: counted as well (two events)
SETTLE = {"conflict": ("keep", "drop"), "disagreement": ("drop", "instead", "both")}


def _prepare_settle(state: GameState, data: dict) -> dict:
    held = state.held_tap(as_int(data.get("target")))
    if held is None:
        raise PlayError(_("That tap is settled already."), "target")
    choice = as_str(data.get("choice"))
    if choice not in SETTLE[held.what]:
        raise PlayError(_("Choose what to do with the tap."), "choice")
    out = {"target": held.seq, "choice": choice}
    if choice == "instead":
        out["partner"] = held.partner
    return out


def _prepare_blame(state: GameState, data: dict) -> dict:
    target = as_int(data.get("target"))
    h = next(
        (
            h
            for h in state.happenings
            if target is not None and h.get("seq") == target and h["kind"] == "wound"
        ),
        None,
    )
    if h is None:
        raise PlayError(_("That wound is not in the game's log."), "target")
    if h["by"]:
        raise PlayError(
            _("That wound already names {by}.").format(by=_name(state, h["by"])), "target"
        )
    victim = state.member(h["to"])
    if not as_str(data.get("by")):
        raise PlayError(_("Choose who caused the wound."), "by")
    by = state.member(data.get("by"), "by")
    if by.side == victim.side:
        raise PlayError(
            _("{by} and {victim} are on the same side.").format(by=by.name, victim=victim.name),
            "by",
        )
    return {"target": target, "by": by.ref}


_PREPARE = {
    "blame": _prepare_blame,
    "wound": _prepare_wound,
    "adjust": _prepare_adjust,
    "flip": _prepare_flip,
    "status": _prepare_status,
    "turn": _prepare_turn,
    "ap": _prepare_ap,
    "vp": _prepare_vp,
    "loot": _prepare_loot,
    "end": _prepare_end,
    "undo": _prepare_undo,
    "settle": _prepare_settle,
}
