"""The campaign engine: events in, state out.

- :func:`replay` folds a campaign's events, in order, into a :class:`CampaignState`.
- :func:`prepare` checks a new event against the state and completes it (rolling the dice
  it needs), or raises :class:`CampaignError` saying what to change.
- Undoing an encounter is itself an event: it voids every event from the encounter's start
  up to the undo, so the state is exactly what it was before the encounter began.

What differs between games is asked of the state's :class:`Progression`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.base import as_int, as_str
from rules.campaign.progression import Progression, XPProgression
from rules.campaign.state import (
    CONFIRMED,
    DEAD,
    DISPUTED,
    FINISHED,
    IN_PLAY,
    MAX_HAPPENINGS,
    PROVISIONAL,
    RUNNING,
    SETUP,
    CampaignError,
    CampaignState,
    EncounterState,
    Event,
    GangState,
    LogLine,
    MemberState,
    member_cost,
    signed,
)
from rules.dice import Dice
from rules.i18n import _, gettext_noop, ngettext, punctuate
from rules.registry import get_system, progression_class

# --------------------------------------------------------------------------- the engine


def progression_for(system_id: str) -> Progression:
    """The system's campaign rules: its package's ``campaign.py``, else the generic XP."""
    get_system(system_id)  # an unknown id is a KeyError here, not a generic campaign
    return (progression_class(system_id) or XPProgression)(system_id)


def new_state(
    system_id: str, house_rules: Mapping[str, Any] | None = None, agreed: int = 5
) -> CampaignState:
    progression = progression_for(system_id)
    return CampaignState(system_id, progression, progression.house_rules(house_rules), agreed)


def replay(
    system_id: str,
    events: Iterable[Event],
    house_rules: Mapping[str, Any] | None = None,
    agreed: int = 5,
) -> CampaignState:
    """The campaign's state after its events, with undone encounters left out.

    Events are applied in order. An undo voids the events of its encounter and every
    event since the encounter began that concerns one of its two gangs (or no gang, as a
    finish), and the state is rebuilt from the events left, so the encounter's gangs are
    exactly as they were before it. What the other gangs did meanwhile stands (a showdown
    owed by an earlier encounter, a purchase). Voided events keep, in the log, the text
    they had when they happened, marked undone.
    """
    run = _Replay(system_id, house_rules, agreed)
    for event in sorted(events, key=lambda e: e.seq):
        run.feed(event)
    return run.finish()


class _Replay:
    """A replay under way: the state so far and what the fold keeps beside it (the events
    applied, each event's text, the voided ones, each encounter's two gangs)."""

    def __init__(self, system_id: str, house_rules: Mapping[str, Any] | None, agreed: int) -> None:
        self.system_id, self.house_rules, self.agreed = system_id, house_rules, agreed
        self.state = new_state(system_id, house_rules, agreed)
        self.events: list[Event] = []  # every event fed, in order
        self.applied: list[Event] = []
        self.texts: dict[int, str] = {}
        self.voided: set[int] = set()
        self.fought: dict[int, tuple[str, ...]] = {}  # an encounter's id: its two gangs
        self.lines: list[LogLine] = []  # the log so far, a line per event fed
        self._finished: tuple[int, Any] | None = None  # what finish() changed, to put back

    def gangs(self, e: Event) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*_gangs_of(e), *self.fought.get(_encounter_of(e) or 0, ()))))

    def feed(self, event: Event) -> None:
        self._unfinish()
        self.events.append(event)
        if event.kind == "encounter_begun":
            self.fought[event.seq] = tuple(str(g) for g in event.data.get("gangs") or ())
        if event.kind == "encounter_undone":
            first = as_int(event.data.get("encounter")) or 0
            theirs = set(self.fought.get(first, ()))

            def void(e: Event, first=first, theirs=theirs) -> bool:
                concerns = set(self.gangs(e))
                return e.seq >= first and (not concerns or bool(concerns & theirs))

            self.voided.update(e.seq for e in self.applied if void(e))
            self.applied = [e for e in self.applied if not void(e)]
            self.state = new_state(self.system_id, self.house_rules, self.agreed)
            for kept in self.applied:
                _APPLY[kept.kind](self.state, kept)
            self.texts[event.seq] = _describe_undo(event)
            self.lines = [self.line(e) for e in self.events]  # some are struck out now
            return
        self.texts[event.seq] = _APPLY[event.kind](self.state, event)
        self.applied.append(event)
        self.lines.append(self.line(event))

    def line(self, e: Event) -> LogLine:
        return LogLine(
            e.seq,
            e.kind,
            self.texts[e.seq],
            e.by,
            e.at,
            e.dice,
            _encounter_of(e),
            undone=e.seq in self.voided,
            gangs=self.gangs(e),
        )

    def finish(self) -> CampaignState:
        """The state after the events fed so far, with its log. More may be fed after:
        what this adds to the state (the log, the last encounter's scores) is taken back
        first, so feeding on is the same as a replay of every event at once."""
        state = self.state
        state.log = list(self.lines)
        last = state.last_encounter
        if last is None or last.awarded:
            number = state.encounters[-1].number if state.encounters else 0
            self._finished = (number, state.snapshots.get(number, _NOTHING))
            _snapshot(state)
        return state

    def _unfinish(self) -> None:
        if self._finished is None:
            return
        number, before = self._finished
        self._finished = None
        if before is _NOTHING:
            self.state.snapshots.pop(number, None)
        else:
            self.state.snapshots[number] = before


_NOTHING = object()


class Checkpoints:
    """One campaign's replay, kept between calls (in a process's memory), so that a new
    event costs what it adds, not the whole log again (issue 31).

    ``replay(events)`` is :func:`replay`'s answer; when ``events`` begin with the events
    the book has seen (the same ones, equal in every field), only the events after them
    are applied; otherwise the book starts again from the first (an event changed or
    taken away, another campaign's log). An undo rebuilds from the events it keeps, as in
    :func:`replay`.

    The state returned is the book's own and changes at its next ``replay``: read it
    before asking again, never change it. A book is not shared between threads."""

    def __init__(
        self, system_id: str, house_rules: Mapping[str, Any] | None = None, agreed: int = 5
    ) -> None:
        self.system_id, self.house_rules, self.agreed = system_id, house_rules, agreed
        self._run: _Replay | None = None

    def fits(self, system_id: str, house_rules: Mapping[str, Any] | None, agreed: int) -> bool:
        """Whether this book replays a campaign of these settings."""
        return (system_id, dict(house_rules or {}), agreed) == (
            self.system_id,
            dict(self.house_rules or {}),
            self.agreed,
        )

    def replay(self, events: Iterable[Event]) -> CampaignState:
        events = sorted(events, key=lambda e: e.seq)
        run = self._run
        if run is None or len(run.events) > len(events) or run.events != events[: len(run.events)]:
            run = _Replay(self.system_id, self.house_rules, self.agreed)
        for event in events[len(run.events) :]:
            run.feed(event)
        self._run = run
        return run.finish()


def _gangs_of(event: Event) -> tuple[str, ...]:
    """The gang ids an event concerns, for filtering a gang's history."""
    d = event.data
    found = [str(g) for g in d.get("gangs") or ()]
    for key in ("gang", "member", "replaces", "challenger", "challenged", "winner"):
        value = d.get(key)
        if isinstance(value, str | int) and str(value):
            found.append(str(value).partition("/")[0])
    return tuple(dict.fromkeys(g for g in found if g))


def _describe_undo(event: Event) -> str:
    reason = as_str(event.data.get("reason"))
    number = event.data.get("number", "?")
    if reason:
        return _(
            "The organiser undid encounter {number} ({reason}): everything its two gangs did "
            "from its start on is struck out, and they are as they were before it."
        ).format(number=number, reason=reason)
    return _(
        "The organiser undid encounter {number}: everything its two gangs did from its start "
        "on is struck out, and they are as they were before it."
    ).format(number=number)


def _encounter_of(event: Event) -> int | None:
    if event.kind == "encounter_begun":
        return event.seq
    return as_int(event.data.get("encounter"))


def prepare(
    state: CampaignState, kind: str, data: Mapping[str, Any], dice: Dice | None = None
) -> dict[str, Any]:
    """Check a new event against the state and complete it (dice are rolled here).

    Returns the data to store. Raises :class:`CampaignError` if the rules refuse it.
    """
    handler = _PREPARE.get(kind)
    if handler is None:
        raise CampaignError(_("Unknown campaign event {kind}.").format(kind=repr(kind)))
    return handler(state, dict(data), dice or Dice())


def _snapshot(state: CampaignState) -> None:
    """Record every member's score after the last encounter (0: the start)."""
    if state.status == SETUP and not state.encounters:
        return
    number = state.encounters[-1].number if state.encounters else 0
    state.snapshots[number] = {
        m.ref: m.score for g in state.gangs.values() for m in g.members.values() if m.alive
    }


def _need_status(state: CampaignState, *wanted: str, what: str) -> None:
    if state.status not in wanted:
        now = {
            SETUP: _("the campaign is still being set up"),
            RUNNING: _("the campaign is running"),
            FINISHED: _("the campaign is finished"),
        }[state.status]
        raise CampaignError(_("You can't {what}: {now}.").format(what=what, now=now))


def _change_score(state: CampaignState, m: MemberState, delta: int) -> str:
    """Add ``delta`` to a member's score; grant what every threshold newly passed gives.

    Penalties lower the total, but what was granted is never taken back, and a threshold
    passed once does not grant again (RULES.md). Only what the member can still spend is
    granted (``Progression.earn``): a gf26 Hero gains no more promotions.
    """
    if delta == 0:
        return ""
    p = state.progression
    m.score += delta
    gained = note = ""
    if m.score > m.best:
        new, note = p.earn(m, m.best, m.score, state.rules)
        m.best = m.score
        if new > 0:
            m.earned += new
            gained = ngettext(", {earned} earned", ", {earned} earned", new).format(
                earned=ngettext("{count} {one}", "{count} {many}", new).format(
                    count=new, one=_(p.earned_one), many=_(p.earned_label)
                )
            )
    p.on_gain(m, delta, state.rules)
    if note:  # a threshold passed, and nothing (or less) earned by it: the log says why
        return _("{name} {delta} {score} (now {total}{gained}; {note})").format(
            name=m.name,
            delta=signed(delta),
            score=_(p.score_label),
            total=m.score,
            gained=gained,
            note=note,
        )
    return _("{name} {delta} {score} (now {total}{gained})").format(
        name=m.name, delta=signed(delta), score=_(p.score_label), total=m.score, gained=gained
    )


# -- set-up ------------------------------------------------------------------


def _prepare_gang_joined(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, SETUP, what=_("join"))
    gang_id = as_str(str(data.get("gang", "")))
    if not gang_id or gang_id in state.gangs:
        raise CampaignError(_("Each gang joins once."), "gang")
    roster = data.get("roster")
    if not isinstance(roster, Mapping) or roster.get("system") != state.system:
        raise CampaignError(_("Pick a gang of this campaign's game."), "gang")
    state.progression.check_join(roster, state.rules)
    members = []
    for i, member in enumerate(roster.get("members") or [], start=1):
        name = as_str(member.get("name")) or f"Member {i}"
        members.append({"key": str(i), "name": name, "data": dict(member.get("data") or {})})
    clean = {k: v for k, v in roster.items() if k != "members"}
    if state.rules.get("limit") is not None:
        clean["limit"] = state.rules["limit"]
    clean["members"] = members
    return {
        "gang": gang_id,
        "name": as_str(data.get("name")) or as_str(roster.get("name")) or "A gang",
        "player": as_str(data.get("player")),
        "roster": clean,
    }


def _apply_gang_joined(state: CampaignState, event: Event) -> str:
    d = event.data
    roster = dict(d["roster"])
    gang = GangState(d["gang"], d["name"], d["player"], roster)
    for member in roster["members"]:
        _add_member(state, gang, member["name"], member["data"])
    state.gangs[gang.id] = gang
    cost = sum(m.original_cost for m in gang.members.values())
    total = get_system(state.system).total_label
    n = len(gang.members)
    return ngettext(
        "{gang} ({player}) joined with {count} member ({cost} {total}).",
        "{gang} ({player}) joined with {count} members ({cost} {total}).",
        n,
    ).format(gang=gang.name, player=d["player"] or _("no player"), count=n, cost=cost, total=total)


def _add_member(state: CampaignState, gang: GangState, name: str, data: Mapping) -> MemberState:
    key = str(gang.next_key)
    gang.next_key += 1
    data = copy.deepcopy(dict(data))
    m = MemberState(gang.id, key, name, data, member_cost(state.system, data))
    m.joined_after = state.encounters[-1].number if state.encounters else 0
    state.progression.start(m, state.rules)
    gang.members[key] = m
    return m


def _prepare_gang_left(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, SETUP, what=_("leave the campaign this way"))
    return {"gang": state.gang(data.get("gang")).id}


def _apply_gang_left(state: CampaignState, event: Event) -> str:
    gang = state.gangs.pop(event.data["gang"])
    return _("{gang} left the campaign before it started.").format(gang=gang.name)


def _prepare_campaign_started(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, SETUP, what=_("start it"))
    if len(state.gangs) < 2:
        raise CampaignError(_("A campaign needs at least two gangs before it starts."))
    return {}


def _apply_campaign_started(state: CampaignState, event: Event) -> str:
    state.status = RUNNING
    _snapshot(state)
    n = len(state.gangs)
    return ngettext(
        "The campaign began with {count} gang.", "The campaign began with {count} gangs.", n
    ).format(count=n)


def _prepare_campaign_finished(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what=_("finish it"))
    if any(e.open for e in state.encounters):
        raise CampaignError(_("Finish the open encounter first (record, confirm, death rolls)."))
    return {"early": not state.all_played}


def _apply_campaign_finished(state: CampaignState, event: Event) -> str:
    state.status = FINISHED
    winners = state.winners
    names = _(" and ").join(g.name for g in winners) or _("nobody")
    state.finish_note = _("{winners}: {title}").format(winners=names, title=_(state.title))
    if event.data.get("early"):
        return _("The campaign ended before the agreed number of encounters. {winners}.").format(
            winners=state.finish_note
        )
    return _("The campaign ended. {winners}.").format(winners=state.finish_note)


# -- encounters --------------------------------------------------------------


def _prepare_encounter_begun(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what=_("start an encounter"))
    raw = data.get("gangs") or []
    if not isinstance(raw, Sequence) or isinstance(raw, str) or len(raw) != 2:
        raise CampaignError(_("Pick the two gangs that fight."), "gangs")
    a, b = (state.gang(g) for g in raw)
    if a.id == b.id:
        raise CampaignError(_("A gang can't fight itself: pick two different gangs."), "gangs")
    for gang in (a, b):
        if gang.retired:
            raise CampaignError(
                _("{gang} rode to Mexico and is retired.").format(gang=gang.name), "gangs"
            )
        if state.open_encounter(gang.id):
            raise CampaignError(
                _("{gang} has an encounter still open: finish it first.").format(gang=gang.name),
                "gangs",
            )
        if state.played(gang.id) >= state.agreed:
            raise CampaignError(
                ngettext(
                    "{gang} has played the agreed {count} encounter.",
                    "{gang} has played the agreed {count} encounters.",
                    state.agreed,
                ).format(gang=gang.name, count=state.agreed),
                "gangs",
            )
        if not gang.alive:
            raise CampaignError(
                _("{gang} has nobody left to fight: recruit first.").format(gang=gang.name),
                "gangs",
            )
        waiting = gang.waiting if state.progression.full_strength else []
        if waiting:
            names = _(" and ").join(m.name for m in waiting)
            raise CampaignError(
                _(
                    "{gang} fights at full strength: recruit a replacement for {names} on the "
                    "gang's Recruit page first (or choose there to fight short-handed)."
                ).format(gang=gang.name, names=names),
                "gangs",
            )
    out = {"gangs": [a.id, b.id], "scenario": as_str(data.get("scenario"))[:120]}
    if state.progression.uses_location:
        out["location"] = state.progression.roll_location(dice)
    return out


def _apply_encounter_begun(state: CampaignState, event: Event) -> str:
    _snapshot(state)
    number = len(state.encounters) + 1
    d = event.data
    enc = EncounterState(event.seq, number, tuple(d["gangs"]), d.get("location"), d["scenario"])
    state.encounters.append(enc)
    a, b = (state.gangs[g] for g in enc.gangs)
    if enc.location:
        text = _("Encounter {number}: {a} v {b} at {place} (rolled {roll})").format(
            number=number,
            a=a.name,
            b=b.name,
            place=enc.location["name"],
            roll=enc.location["roll"],
        )
    else:
        text = _("Encounter {number}: {a} v {b}").format(number=number, a=a.name, b=b.name)
    if enc.scenario:
        text += punctuate(":") + enc.scenario
    return text + "."


def _open(state: CampaignState, data: Mapping, *statuses: str) -> EncounterState:
    enc = state.encounter(data.get("encounter"))
    if enc.status not in statuses:
        raise CampaignError(
            _("Encounter {number} is {status}.").format(
                number=enc.number, status=_(enc.status_label).lower()
            )
        )
    return enc


def _player_gang(enc: EncounterState, data: Mapping) -> str:
    gang = str(data.get("gang", ""))
    if gang not in enc.gangs:
        raise CampaignError(_("Only the two gangs in the encounter can do that."), "gang")
    return gang


def _prepare_encounter_recorded(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, IN_PLAY, PROVISIONAL, DISPUTED)
    gang = str(data.get("gang", ""))
    if gang and gang not in enc.gangs:
        raise CampaignError(_("Only the two gangs in the encounter record it."), "gang")
    raw = data.get("happenings") or []
    if not isinstance(raw, list) or len(raw) > MAX_HAPPENINGS:
        raise CampaignError(_("The record's list of what happened is not readable."))
    happenings = state.progression.check_happenings(state, enc, raw)
    winner = data.get("winner")
    winner = "" if winner in (None, "", "draw") else str(winner)
    if winner and winner not in enc.gangs:
        raise CampaignError(_("The winner is one of the two gangs, or nobody (a draw)."), "winner")
    return {
        "encounter": enc.id,
        "gang": gang,
        "happenings": happenings,
        "winner": winner,
        "notes": as_str(data.get("notes"))[:2000],
    }


def _apply_encounter_recorded(state: CampaignState, event: Event) -> str:
    d = event.data
    enc = state.encounter(d["encounter"])
    enc.happenings = [dict(h) for h in d["happenings"]]
    enc.winner = d["winner"]
    enc.notes = d.get("notes", "")
    enc.recorded_by = d["gang"]
    enc.dispute = enc.disputed_by = ""
    enc.confirmed = {d["gang"]} if d["gang"] else set()
    enc.status = PROVISIONAL
    enc.awards = state.progression.awards(state, enc)
    n = len(enc.happenings)
    if enc.winner:
        return ngettext(
            "Encounter {number} recorded: {gang} won; {count} thing happened. "
            "Provisional until both confirm.",
            "Encounter {number} recorded: {gang} won; {count} things happened. "
            "Provisional until both confirm.",
            n,
        ).format(number=enc.number, gang=state.gangs[enc.winner].name, count=n)
    return ngettext(
        "Encounter {number} recorded: A draw; {count} thing happened. "
        "Provisional until both confirm.",
        "Encounter {number} recorded: A draw; {count} things happened. "
        "Provisional until both confirm.",
        n,
    ).format(number=enc.number, count=n)


def _prepare_encounter_confirmed(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, PROVISIONAL, DISPUTED)
    gang = _player_gang(enc, data)
    if enc.status == DISPUTED and gang != enc.disputed_by:
        raise CampaignError(
            _(
                "The record is disputed: the organiser settles it, or the player who disputed "
                "it confirms it after all, or it is recorded again."
            )
        )
    if gang in enc.confirmed and enc.status == PROVISIONAL:
        raise CampaignError(
            _("{gang} has already confirmed this record.").format(gang=state.gangs[gang].name)
        )
    return {"encounter": enc.id, "gang": gang}


def _apply_encounter_confirmed(state: CampaignState, event: Event) -> str:
    enc = state.encounter(event.data["encounter"])
    gang = event.data["gang"]
    enc.confirmed.add(gang)
    if enc.status == DISPUTED:
        enc.status = PROVISIONAL
        enc.dispute = enc.disputed_by = ""
    text = _("{gang} confirmed the record of encounter {number}.").format(
        gang=state.gangs[gang].name, number=enc.number
    )
    if set(enc.gangs) <= enc.confirmed:
        text += " " + _confirm(state, enc)
    return text


def _prepare_encounter_settled(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, PROVISIONAL, DISPUTED)
    return {"encounter": enc.id, "note": as_str(data.get("note"))[:500]}


def _apply_encounter_settled(state: CampaignState, event: Event) -> str:
    enc = state.encounter(event.data["encounter"])
    enc.confirmed = set(enc.gangs)
    if event.data.get("note"):
        text = _("The organiser upheld the record of encounter {number} ({note}).").format(
            number=enc.number, note=event.data["note"]
        )
    else:
        text = _("The organiser upheld the record of encounter {number}.").format(number=enc.number)
    return text + " " + _confirm(state, enc)


def _confirm(state: CampaignState, enc: EncounterState) -> str:
    enc.status = CONFIRMED
    enc.dispute = enc.disputed_by = ""
    enc.dead = state.progression.who_rolls(state, enc)
    if enc.dead:
        names = ", ".join(state.member(r).name for r in enc.dead)
        return _("Death rolls to make for {names}.").format(names=names)
    return _award(state, enc)


def _prepare_encounter_disputed(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, PROVISIONAL)
    gang = _player_gang(enc, data)
    reason = as_str(data.get("reason"))[:1000]
    if not reason:
        raise CampaignError(_("Say what is wrong with the record, for the organiser."), "reason")
    return {"encounter": enc.id, "gang": gang, "reason": reason}


def _apply_encounter_disputed(state: CampaignState, event: Event) -> str:
    enc = state.encounter(event.data["encounter"])
    enc.status = DISPUTED
    enc.dispute = event.data["reason"]
    enc.disputed_by = event.data["gang"]
    enc.confirmed.discard(event.data["gang"])
    name = state.gangs[event.data["gang"]].name
    return _("{gang} disputed the record of encounter {number}: {reason}").format(
        gang=name, number=enc.number, reason=enc.dispute
    )


def _prepare_encounter_undone(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, FINISHED, what=_("undo an encounter"))
    last = state.last_encounter
    if last is None:
        raise CampaignError(_("There is no encounter to undo."))
    wanted = as_int(data.get("encounter"))
    if wanted is not None and wanted != last.id:
        raise CampaignError(
            _("Only the last encounter (number {number}) can be undone.").format(number=last.number)
        )
    return {"encounter": last.id, "number": last.number, "reason": as_str(data.get("reason"))}


def _apply_encounter_undone(state: CampaignState, event: Event) -> str:
    raise CampaignError("An undo takes effect by replaying the log: call replay().")


# -- after the encounter -----------------------------------------------------


def _prepare_death_rolled(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, CONFIRMED)
    member = state.member(data.get("member"))
    if member.ref not in enc.dead:
        raise CampaignError(
            _("{name} doesn't need a death roll for this encounter.").format(name=member.name)
        )
    if member.ref in enc.deaths:
        raise CampaignError(_("{name}'s death roll is already made.").format(name=member.name))
    result = state.progression.death_result(dice.d6(f"Death roll for {member.name}"))
    out = {
        "encounter": enc.id,
        "member": member.ref,
        "roll": result["roll"],
        "result": result["id"],
        "name": result["name"],
        "injury": "",
    }
    if result["id"] == "badly_wounded":
        choices = state.progression.injury_choices(member)
        if len(choices) == 1:
            out["injury"] = choices[0]
        elif choices:
            n = dice.roll(1, len(choices), f"Badly wounded: which of {member.name}'s rows").total
            out["injury"] = choices[n - 1]
    return out


def _apply_death_rolled(state: CampaignState, event: Event) -> str:
    d = event.data
    enc = state.encounter(d["encounter"])
    m = state.member(d["member"])
    enc.deaths[m.ref] = {**d, "seq": event.seq}  # the latest roll, and where it is logged
    text = _("Death roll for {name}: {roll}, {result}.").format(
        name=m.name, roll=d["roll"], result=_(d["name"])
    )
    if d["result"] == "dead":
        m.status = DEAD
        m.notes.append(_("Killed in encounter {number}.").format(number=enc.number))
        text += " " + _("Removed from the gang.")
    else:
        lost = state.progression.injure(m, d["injury"]) if d["injury"] else ""
        if d["result"] == "badly_wounded":
            note = _("Badly wounded in encounter {number}").format(number=enc.number)
        else:
            note = _("Playing dead in encounter {number}").format(number=enc.number)
        m.notes.append(f"{note}{punctuate(':')}{lost}." if lost else f"{note}.")
        if lost:
            text += f" {lost}."
        text += " " + _("No {score} this encounter.").format(score=_(state.progression.score_word))
    if enc.showdown and enc.showdown.get("fate") == "dead" and m.ref == enc.showdown["loser"]:
        if d["result"] != "dead":
            text += _void_showdown(state, enc, m)
    elif not enc.death_rolls_left and not enc.awarded:
        text += " " + _award(state, enc)
    return text


def _award(state: CampaignState, enc: EncounterState) -> str:
    """Give each member what the encounter earned it (now that death rolls are made)."""
    p = state.progression
    for award in enc.awards:
        death = enc.deaths.get(award.member)
        if death and award.amount > 0:
            award.counts = False
            award.why_not = _("{result}: no {score} this encounter").format(
                result=_(death["name"]), score=_(p.score_word)
            )
        if award.counts and not p.earns(state.member(award.member)):
            award.counts = False
            award.why_not = _(p.no_gain_reason)
    lines = []
    for r in dict.fromkeys(a.member for a in enc.awards):
        m = state.member(r)
        before = m.earned
        line = _change_score(state, m, enc.earned_by(r))
        if m.earned > before:
            enc.advanced[r] = m.earned - before
        if line:
            lines.append(line)
    p.after_award(state, enc)
    enc.awarded = True
    purse = as_int(state.rules.get("purse_per_game")) or 0
    if purse and not p.uses_location:
        for g in enc.gangs:
            state.gangs[g].purse += purse
            enc.purse[g] = purse
    if not lines:
        return _("Encounter {number} settled: no {score} changed.").format(
            number=enc.number, score=_(p.score_word)
        )
    return _("Encounter {number} settled: {changes}.").format(
        number=enc.number, changes=punctuate(";").join(lines)
    )


def _void_showdown(state: CampaignState, enc: EncounterState, loser: MemberState) -> str:
    """The showdown's loser rolled "no reputation this encounter": what he gained in the
    showdown is struck out, with the CCP it gave (nothing was spent in between: the
    encounter stays open until this roll). A penalty still counts."""
    sd = enc.showdown
    gained = sum(a["amount"] for a in sd.get("awards", []) if a["member"] == loser.ref)
    if gained <= 0:
        return ""
    _score, best, earned = sd["before"][loser.ref]
    lost = loser.earned - earned
    loser.score -= gained
    loser.best, loser.earned = best, earned
    p = state.progression
    score = _(p.score_word)
    if lost:
        earned = ngettext("{count} {one}", "{count} {many}", lost).format(
            count=lost, one=_(p.earned_one), many=_(p.earned_label)
        )
        text = _(
            "The {gained} {score} {name} gained in the showdown and the {earned} it gave are "
            "struck out (now {total})."
        ).format(gained=gained, score=score, name=loser.name, earned=earned, total=loser.score)
    else:
        text = ngettext(
            "The {gained} {score} {name} gained in the showdown is struck out (now {total}).",
            "The {gained} {score} {name} gained in the showdown are struck out (now {total}).",
            gained,
        ).format(gained=gained, score=score, name=loser.name, total=loser.score)
    return " " + text


def _prepare_showdown_challenged(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = state.encounter(data.get("encounter"))
    if not enc.awarded:
        raise CampaignError(_("A showdown comes after the encounter's death rolls."))
    gone = showdown_gone(state, enc)
    if gone:
        raise CampaignError(gone)
    if enc.showdown:
        raise CampaignError(_("This encounter has had its showdown challenge."))
    challenger = state.member(data.get("challenger"), "challenger")
    challenged = state.member(data.get("challenged"), "challenged")
    pairs = showdown_pairs(state, enc)
    if (challenger.ref, challenged.ref) not in pairs:
        raise CampaignError(
            _(
                "A showdown challenge comes from an outlaw of the gang with the lower total "
                "reputation, to an outlaw of the other gang with the same notoriety."
            ),
            "challenged",
        )
    return {"encounter": enc.id, "challenger": challenger.ref, "challenged": challenged.ref}


def showdown_gone(state: CampaignState, enc: EncounterState) -> str:
    """Why the chance of a showdown after ``enc`` is gone ("" while it is not).

    The book: "After every encounter" an outlaw may challenge. Each encounter keeps its
    chance until one of its two gangs begins another encounter, so in a campaign of three
    or more gangs a showdown owed by encounter 1 (A v B) can still be made while
    encounter 2 (C v D) is played."""
    later = next(
        (e for e in state.encounters if e.number > enc.number and set(e.gangs) & set(enc.gangs)),
        None,
    )
    if later is None:
        return ""
    gang = state.gangs[next(g for g in later.gangs if g in enc.gangs)]
    return _(
        "{gang} has begun encounter {later} since: the chance of a showdown after encounter "
        "{number} is gone."
    ).format(gang=gang.name, later=later.number, number=enc.number)


def showdown_pairs(state: CampaignState, enc: EncounterState) -> list[tuple[str, str]]:
    """Every (challenger, challenged) a showdown may have after ``enc``: from the gang
    with the lower total reputation, to an outlaw of the other gang with the same
    notoriety. Equal totals: no gang is lower, so no showdown."""
    if not state.progression.has_showdown or showdown_gone(state, enc):
        return []
    a, b = (state.gangs[g] for g in enc.gangs)
    if a.total == b.total or a.retired or b.retired:
        return []
    low, high = (a, b) if a.total < b.total else (b, a)
    rank = state.progression.notoriety
    return [(x.ref, y.ref) for x in low.alive for y in high.alive if rank(x.score) == rank(y.score)]


def _apply_showdown_challenged(state: CampaignState, event: Event) -> str:
    d = event.data
    enc = state.encounter(d["encounter"])
    enc.showdown = {
        "challenger": d["challenger"],
        "challenged": d["challenged"],
        "status": "challenged",
        "awards": [],
    }
    x, y = state.member(d["challenger"]), state.member(d["challenged"])
    return _("Showdown: {challenger} challenged {challenged}.").format(
        challenger=x.name, challenged=y.name
    )


def _prepare_showdown_answered(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = state.encounter(data.get("encounter"))
    if not enc.showdown or enc.showdown["status"] != "challenged":
        raise CampaignError(_("There is no showdown challenge waiting for an answer."))
    return {"encounter": enc.id, "accepted": bool(data.get("accepted"))}


def _apply_showdown_answered(state: CampaignState, event: Event) -> str:
    enc = state.encounter(event.data["encounter"])
    sd = enc.showdown
    challenged = state.member(sd["challenged"])
    if event.data["accepted"]:
        sd["status"] = "accepted"
        return _("{name} accepted the showdown.").format(name=challenged.name)
    sd["status"] = "declined"
    penalty = state.progression.decline_penalty
    line = _change_score(state, challenged, penalty)
    challenged.notes.append(
        _("Declined a showdown after encounter {number} ({penalty}).").format(
            number=enc.number, penalty=penalty
        )
    )
    return _("{name} declined the showdown: {change}.").format(name=challenged.name, change=line)


def _prepare_showdown_fought(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = state.encounter(data.get("encounter"))
    sd = enc.showdown
    if not sd or sd["status"] != "accepted":
        raise CampaignError(_("Record a showdown's result after the challenge is accepted."))
    winner = state.member(data.get("winner"), "winner")
    if winner.ref not in (sd["challenger"], sd["challenged"]):
        raise CampaignError(_("The winner is the challenger or the challenged."), "winner")
    fate = as_str(data.get("fate"))
    if fate not in SHOWDOWN_FATES:
        raise CampaignError(_("Say how the loser ended: unconscious, dead or off the map."), "fate")
    loser = sd["challenged"] if winner.ref == sd["challenger"] else sd["challenger"]
    hits = []
    left: dict[str, int] = {}  # actions each outlaw has left in the fight
    killed = False
    for i, h in enumerate(data.get("hits") or [], start=1):
        kind = as_str(h.get("kind"))
        if kind not in ("wound", "kill"):
            raise CampaignError(
                _("Hit {number}: a wound or the kill.").format(number=i), f"hits-{i}"
            )
        by, to = as_str(h.get("by")), as_str(h.get("to"))
        if {by, to} != {winner.ref, loser}:
            raise CampaignError(
                _("Hit {number}: one of the two outlaws hits the other.").format(number=i),
                f"hits-{i}",
            )
        if killed:
            raise CampaignError(
                _("Hit {number}: the fight ended with the kill.").format(number=i), f"hits-{i}"
            )
        if kind == "kill" and (fate != "dead" or to != loser):
            raise CampaignError(
                _("Hit {number}: only the loser can be killed, when he ends dead.").format(
                    number=i
                ),
                f"hits-{i}",
            )
        victim = state.member(to)
        amount = state.progression.hit_amount(
            kind, h.get("amount"), victim, left, f"Hit {i}", f"hits-{i}"
        )
        killed = kind == "kill"
        hits.append({"kind": kind, "by": by, "to": to, "amount": amount})
    return {"encounter": enc.id, "winner": winner.ref, "loser": loser, "fate": fate, "hits": hits}


SHOWDOWN_FATES = {
    "unconscious": gettext_noop("Permanently unconscious"),
    "dead": gettext_noop("Dead"),
    "left": gettext_noop("Left the map"),
}


def _apply_showdown_fought(state: CampaignState, event: Event) -> str:
    d = event.data
    enc = state.encounter(d["encounter"])
    sd = enc.showdown
    sd.update(status="fought", winner=d["winner"], loser=d["loser"], fate=d["fate"])
    p = state.progression
    running = {r: state.member(r).score for r in (d["winner"], d["loser"])}
    # what each had before, so that a death roll's "no reputation" can strike it all out
    sd["before"] = {r: (m.score, m.best, m.earned) for r in running for m in (state.member(r),)}
    awards = []
    for h in d["hits"]:
        by, to = state.member(h["by"]), state.member(h["to"])
        amount, why = p.hit_award(h["kind"], h["amount"], to, running[to.ref])
        running[by.ref] += amount
        awards.append({"member": by.ref, "reason": why, "amount": amount})
    loser = state.member(d["loser"])
    if d["fate"] == "left":
        awards.append({"member": loser.ref, "reason": "Left the map", "amount": p.left_penalty})
    sd["awards"] = awards
    lines = []
    for r in dict.fromkeys(a["member"] for a in awards):
        line = _change_score(
            state, state.member(r), sum(a["amount"] for a in awards if a["member"] == r)
        )
        if line:
            lines.append(line)
    winner = state.member(d["winner"])
    text = _("Showdown: {winner} beat {loser} ({fate}).").format(
        winner=winner.name, loser=loser.name, fate=_(SHOWDOWN_FATES[d["fate"]]).lower()
    )
    if lines:
        text += " " + punctuate(";").join(lines) + "."
    if d["fate"] == "dead":
        enc.deaths.pop(loser.ref, None)  # a second death roll, for the showdown
        if loser.ref not in enc.dead:
            enc.dead.append(loser.ref)
        text += " " + _("Death roll to make for {name}.").format(name=loser.name)
    return text


def _need_riding(state: CampaignState, gang_id: str, field_name: str) -> None:
    """A gang that rode to Mexico is retired for good: it spends and recruits no more."""
    gang = state.gang(gang_id)
    if gang.retired:
        raise CampaignError(
            _("{gang} rode to Mexico and is retired.").format(gang=gang.name), field_name
        )


def _prepare_advance_taken(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what=_("spend advances"))
    member = state.member(data.get("member"))
    if not member.alive:
        raise CampaignError(_("{name} is dead.").format(name=member.name), "member")
    _need_riding(state, member.gang, "member")
    enc = state.open_encounter(member.gang)
    if enc is not None:
        raise CampaignError(_("Spend advances after the encounter is settled."), "member")
    out = state.progression.prepare_advance(state, member, data, dice)
    out["member"] = member.ref
    return out


def _apply_advance_taken(state: CampaignState, event: Event) -> str:
    m = state.member(event.data["member"])
    text = state.progression.apply_advance(m, event.data)
    m.notes.append(text)
    return f"{m.name}{punctuate(':')}{text}"


def _prepare_item_bought(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what=_("buy anything"))
    gang = str(data.get("gang", "")) or state.member(data.get("member")).gang
    _need_riding(state, gang, "item")
    if state.open_encounter(gang):
        raise CampaignError(_("Buy between encounters, once the last one is settled."), "item")
    return state.progression.prepare_purchase(state, {**data, "gang": gang})


def _apply_item_bought(state: CampaignState, event: Event) -> str:
    return state.progression.apply_purchase(state, event.data)


def _prepare_member_recruited(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what=_("recruit"))
    gang = state.gang(data.get("gang"))
    _need_riding(state, gang.id, "replaces")
    replaced = state.member(data.get("replaces"), "replaces")
    if replaced.gang != gang.id or replaced.status != DEAD or replaced.replaced_by:
        raise CampaignError(
            _("A recruit replaces a member of this gang who was killed."), "replaces"
        )
    if state.open_encounter(gang.id):
        raise CampaignError(_("Recruit once the last encounter is settled."), "replaces")
    member = data.get("member")
    if not isinstance(member, Mapping) or not isinstance(member.get("data"), Mapping):
        raise CampaignError(_("Pick the recruit from one of your gangs."), "recruit")
    name = as_str(member.get("name"))[:80] or "Recruit"
    new = dict(member["data"])
    note = state.progression.check_recruit(state, replaced, new)
    out = {"gang": gang.id, "replaces": replaced.ref, "member": {"name": name, "data": new}}
    if note:
        out["note"] = note
    return out


def _apply_member_recruited(state: CampaignState, event: Event) -> str:
    d = event.data
    gang = state.gangs[d["gang"]]
    old = state.member(d["replaces"])
    new = _add_member(state, gang, d["member"]["name"], d["member"]["data"])
    new.replaces = old.key
    old.replaced_by = new.key
    new.notes.append(_("Recruited to replace {name}.").format(name=old.name))
    total = get_system(state.system).total_label
    if d.get("note"):
        return _("{gang} recruited {name} ({cost} {total}) to replace {fallen} ({note}).").format(
            gang=gang.name,
            name=new.name,
            cost=new.original_cost,
            total=total,
            fallen=old.name,
            note=d["note"],
        )
    return _("{gang} recruited {name} ({cost} {total}) to replace {fallen}.").format(
        gang=gang.name, name=new.name, cost=new.original_cost, total=total, fallen=old.name
    )


def _prepare_recruit_declined(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what=_("decline a recruit"))
    gang = state.gang(data.get("gang"))
    _need_riding(state, gang.id, "replaces")
    fallen = state.member(data.get("replaces"), "replaces")
    if fallen.gang != gang.id or fallen not in gang.fallen:
        raise CampaignError(_("Only a member of this gang who was killed is replaced."), "replaces")
    if fallen.declined:
        raise CampaignError(
            _("{gang} already fights without {name}.").format(gang=gang.name, name=fallen.name),
            "replaces",
        )
    return {"gang": gang.id, "replaces": fallen.ref}


def _apply_recruit_declined(state: CampaignState, event: Event) -> str:
    fallen = state.member(event.data["replaces"])
    fallen.declined = True
    gang = state.gangs[fallen.gang]
    return _(
        "{gang} fights on without replacing {name} (a recruit may still take the place later)."
    ).format(gang=gang.name, name=fallen.name)


def _prepare_leader_chosen(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, SETUP, RUNNING, what=_("choose a leader"))
    key = state.progression.leader_key
    if key is None:
        raise CampaignError(_("In this game the leader is not a flag you can move."))
    member = state.member(data.get("member"))
    if not member.alive:
        raise CampaignError(_("{name} is dead.").format(name=member.name), "member")
    if member.data.get(key) is True:
        raise CampaignError(_("{name} already leads the gang.").format(name=member.name), "member")
    _need_riding(state, member.gang, "member")
    leader = next((m for m in state.gangs[member.gang].alive if m.data.get(key) is True), None)
    if leader is not None:
        raise CampaignError(
            _("{name} leads the gang: a new leader is chosen only when the leader is dead.").format(
                name=leader.name
            ),
            "member",
        )
    if state.open_encounter(member.gang):
        raise CampaignError(_("Choose the new leader once the encounter is settled."), "member")
    return {"gang": member.gang, "member": member.ref}


def _apply_leader_chosen(state: CampaignState, event: Event) -> str:
    key = state.progression.leader_key
    chosen = state.member(event.data["member"])
    gang = state.gangs[chosen.gang]
    for m in gang.members.values():
        if m.alive:
            m.data[key] = m is chosen
    chosen.notes.append(_("Became the gang's leader."))
    return _("{name} now leads {gang}.").format(name=chosen.name, gang=gang.name)


def _prepare_rode_to_mexico(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what=_("ride to Mexico"))
    gang = state.gang(data.get("gang"))
    if gang.retired:
        raise CampaignError(_("{gang} is already in Mexico.").format(gang=gang.name))
    if state.open_encounter(gang.id):
        raise CampaignError(_("Ride to Mexico at the end of an encounter, once it is settled."))
    if not state.played(gang.id):
        raise CampaignError(
            _(
                "{gang} has played no encounter yet: a gang rides to Mexico at the end of an "
                "encounter it played."
            ).format(gang=gang.name)
        )
    return {"gang": gang.id}


def _apply_rode_to_mexico(state: CampaignState, event: Event) -> str:
    gang = state.gangs[event.data["gang"]]
    played = [e.number for e in state.encounters if gang.id in e.gangs]
    gang.retired_after = played[-1] if played else 0
    text = _(
        "{gang} rode to Mexico: the campaign is forfeit and the gang retires for good."
    ).format(gang=gang.name)
    riding = state.active_gangs
    if len(riding) < 2:
        state.status = FINISHED
        names = _(" and ").join(g.name for g in riding) or _("nobody")
        state.finish_note = _("{winners}: {title}").format(winners=names, title=_(state.title))
        text += " " + _("The campaign is over. {winners}.").format(winners=state.finish_note)
    return text


_PREPARE = {
    name.removeprefix("_prepare_"): fn
    for name, fn in list(globals().items())
    if name.startswith("_prepare_")
}
_PREPARE["encounter_undone"] = _prepare_encounter_undone
_APPLY = {
    name.removeprefix("_apply_"): fn
    for name, fn in list(globals().items())
    if name.startswith("_apply_")
}
EVENT_KINDS = frozenset(_PREPARE)
