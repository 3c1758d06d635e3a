"""Campaigns: a gang's life after its first fight, kept as an append-only log of events.

Plain Python, like the rest of ``rules``. The app stores events; this module says what
they mean:

- :func:`replay` folds a campaign's events, in order, into a :class:`CampaignState`: every
  gang, every member's reputation or experience, every encounter and what is left to do
  after it. Nothing else is stored, so a gang's state always follows from its log.
- :func:`prepare` checks a new event against the state before it is stored and completes
  it (it rolls the dice an event needs, through an injected :class:`rules.dice.Dice`).
  A refused event raises :class:`CampaignError` with a message saying what to change.
- Undoing an encounter is itself an event: it voids every event from the encounter's
  start up to the undo, so the state is exactly what it was before the encounter began.

Each system's progression (how members gain and spend experience) is a
:class:`Progression`. Rivals follows its book (:class:`RivalsProgression`); the other four
follow Rivals-style house rules (``docs/campaigns.md``) whose numbers the organiser can
change per campaign. A system without its own progression gets :class:`XPProgression`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.base import as_int, as_str
from rules.dice import Dice
from rules.registry import get_system

ACTIVE, DEAD = "active", "dead"
SETUP, RUNNING, FINISHED = "setup", "running", "finished"
IN_PLAY, PROVISIONAL, DISPUTED, CONFIRMED = "in_play", "provisional", "disputed", "confirmed"
ENCOUNTER_STATUS = {
    IN_PLAY: "Being played",
    PROVISIONAL: "Provisional: waiting for both players to confirm",
    DISPUTED: "Disputed: the organiser settles it",
    CONFIRMED: "Confirmed",
}
MAX_HAPPENINGS = 200
TIMES = " \u00d7 "


class CampaignError(ValueError):
    """An event the rules refuse; ``field`` names the form field to show it beside."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Event:
    """One stored event: its place in the log, kind, data, who made it, when, and dice."""

    seq: int
    kind: str
    data: Mapping[str, Any]
    by: str = ""
    at: str = ""
    dice: tuple[Mapping[str, Any], ...] = ()


# --------------------------------------------------------------------------- state


def ref(gang: str, key: str) -> str:
    """How an event names a member: "<gang id>/<member key>"."""
    return f"{gang}/{key}"


@dataclass
class MemberState:
    gang: str
    key: str
    name: str
    data: dict[str, Any]
    original_cost: int  # what the member cost when created (CCP, XP, points...)
    status: str = ACTIVE
    joined_after: int = 0  # the encounter number after which it joined (0: from the start)
    replaces: str = ""  # the key of the member this recruit replaced
    replaced_by: str = ""
    score: int = 0  # reputation (Rivals) or experience (the others)
    best: int = 0  # the highest score reached: a threshold passed once never grants again
    earned: int = 0  # CCP (Rivals) or advances earned from the score
    spent: int = 0  # of those, how many are spent
    cash: int = 0  # Rivals: dollars the outlaw carries
    equipment: list[str] = field(default_factory=list)  # Rivals: what the outlaw owns
    notes: list[str] = field(default_factory=list)  # what happened to it, in order

    @property
    def ref(self) -> str:
        return ref(self.gang, self.key)

    @property
    def alive(self) -> bool:
        return self.status == ACTIVE

    @property
    def saved(self) -> int:
        return self.earned - self.spent


@dataclass
class GangState:
    id: str
    name: str
    player: str
    roster: dict[str, Any]  # the roster as it joined (format, system, name, limit, gang)
    members: dict[str, MemberState] = field(default_factory=dict)
    retired_after: int | None = None  # Riding to Mexico: the encounter number after which
    purse: int = 0  # the other systems: the gang's dollars (house rule)
    gear: list[tuple[str, str, int]] = field(default_factory=list)  # (member, item, price)
    next_key: int = 1

    @property
    def retired(self) -> bool:
        return self.retired_after is not None

    @property
    def alive(self) -> list[MemberState]:
        return [m for m in self.members.values() if m.alive]

    @property
    def fallen(self) -> list[MemberState]:
        """Members killed and removed, not yet replaced by a recruit."""
        return [m for m in self.members.values() if m.status == DEAD and not m.replaced_by]

    @property
    def total(self) -> int:
        """The gang's total: the reputation (or experience) of its surviving members."""
        return sum(m.score for m in self.alive)

    def current_roster(self, progression: Progression) -> dict[str, Any]:
        """The gang as it stands now, in the roster-file shape: every surviving member."""
        roster = {k: copy.deepcopy(v) for k, v in self.roster.items() if k != "members"}
        roster["members"] = [
            {"key": m.key, "name": m.name, "data": progression.member_data(m)} for m in self.alive
        ]
        return roster


@dataclass
class Award:
    """One line of what an encounter earned a member: why, how much, whether it counts."""

    member: str  # ref
    reason: str
    amount: int
    counts: bool = True
    why_not: str = ""


@dataclass
class EncounterState:
    id: int  # the seq of the event that began it
    number: int
    gangs: tuple[str, str]
    location: dict[str, Any] | None = None
    scenario: str = ""
    status: str = IN_PLAY
    happenings: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None  # a gang id, "" for a draw, None before the record
    recorded_by: str = ""
    confirmed: set[str] = field(default_factory=set)  # gang ids that confirmed
    dispute: str = ""
    disputed_by: str = ""  # the gang whose player disputed the record
    awards: list[Award] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)  # refs who need a death roll
    deaths: dict[str, dict[str, Any]] = field(default_factory=dict)
    awarded: bool = False
    advanced: dict[str, int] = field(default_factory=dict)  # CCP/advances each member earned
    notes: str = ""
    showdown: dict[str, Any] | None = None
    purse: dict[str, int] = field(default_factory=dict)

    @property
    def status_label(self) -> str:
        return ENCOUNTER_STATUS[self.status]

    @property
    def open(self) -> bool:
        """Still being played, recorded, confirmed, rolled for, or with a showdown under
        way: its gangs start no new encounter and spend nothing until it is settled."""
        if not self.awarded or self.death_rolls_left:
            return True
        return bool(self.showdown and self.showdown["status"] in ("challenged", "accepted"))

    @property
    def death_rolls_left(self) -> list[str]:
        return [r for r in self.dead if r not in self.deaths]

    def awards_for(self, member: str) -> list[Award]:
        return [a for a in self.awards if a.member == member]

    def earned_by(self, member: str) -> int:
        return sum(a.amount for a in self.awards if a.member == member and a.counts)


@dataclass
class LogLine:
    seq: int
    kind: str
    text: str
    by: str
    at: str
    dice: tuple[Mapping[str, Any], ...]
    encounter: int | None = None
    undone: bool = False
    gangs: tuple[str, ...] = ()  # the gangs the event concerns


@dataclass
class Standing:
    rank: int
    gang: GangState
    total: int
    title: bool = False
    note: str = ""


@dataclass
class CampaignState:
    system: str
    progression: Progression
    rules: dict[str, Any]
    agreed: int
    status: str = SETUP
    gangs: dict[str, GangState] = field(default_factory=dict)
    encounters: list[EncounterState] = field(default_factory=list)
    log: list[LogLine] = field(default_factory=list)
    #: scores of every member after each encounter: {number: {ref: score}}; 0 is the start
    snapshots: dict[int, dict[str, int]] = field(default_factory=dict)
    finish_note: str = ""

    # ---------------------------------------------------------------- lookups
    def gang(self, gang_id: Any) -> GangState:
        gang = self.gangs.get(str(gang_id))
        if gang is None:
            raise CampaignError("That gang is not in this campaign.", "gang")
        return gang

    def member(self, member_ref: Any, what: str = "member") -> MemberState:
        text = as_str(member_ref) if not isinstance(member_ref, int) else str(member_ref)
        gang_id, _, key = text.partition("/")
        gang = self.gangs.get(gang_id)
        member = gang.members.get(key) if gang else None
        if member is None:
            raise CampaignError(f"Choose a {what} from the campaign's gangs.", what)
        return member

    def encounter(self, encounter_id: Any) -> EncounterState:
        wanted = as_int(encounter_id)
        found = next((e for e in self.encounters if e.id == wanted), None)
        if found is None:
            raise CampaignError("That encounter is not in this campaign (it may be undone).")
        return found

    @property
    def last_encounter(self) -> EncounterState | None:
        return self.encounters[-1] if self.encounters else None

    @property
    def active_gangs(self) -> list[GangState]:
        return [g for g in self.gangs.values() if not g.retired]

    def played(self, gang_id: str) -> int:
        return sum(1 for e in self.encounters if gang_id in e.gangs)

    def open_encounter(self, gang_id: str) -> EncounterState | None:
        return next((e for e in self.encounters if gang_id in e.gangs and e.open), None)

    @property
    def title(self) -> str:
        return self.progression.title

    @property
    def score_label(self) -> str:
        return self.progression.score_label

    @property
    def all_played(self) -> bool:
        """Every gang still riding has played the agreed number of encounters."""
        return bool(self.encounters) and all(
            self.played(g.id) >= self.agreed for g in self.active_gangs
        )

    def standings(self) -> list[Standing]:
        """Gangs by the total of their surviving members; retired gangs come last. When the
        campaign is finished, the first gang (or gangs, on a tie) holds the title."""
        riding = sorted(self.active_gangs, key=lambda g: (-g.total, g.name.lower()))
        rows: list[Standing] = []
        for gang in riding:
            rank = 1 + sum(1 for g in riding if g.total > gang.total)
            rows.append(Standing(rank, gang, gang.total))
        retired = [g for g in self.gangs.values() if g.retired]
        for gang in sorted(retired, key=lambda g: -(g.retired_after or 0)):
            rows.append(
                Standing(
                    len(rows) + 1,
                    gang,
                    gang.total,
                    note=f"Rode to Mexico after encounter {gang.retired_after}: retired",
                )
            )
        if self.status == FINISHED and riding and (self.encounters or len(self.gangs) > 1):
            for row in rows:
                row.title = row.rank == 1 and not row.gang.retired
        return rows

    @property
    def winners(self) -> list[GangState]:
        return [s.gang for s in self.standings() if s.title]

    def series(self) -> tuple[list[str], dict[str, list[int | None]]]:
        """(x labels, {member ref: score after each encounter or None}) for the charts."""
        numbers = sorted(self.snapshots)
        labels = ["Start" if n == 0 else str(n) for n in numbers]
        refs: dict[str, list[int | None]] = {}
        for gang in self.gangs.values():
            for m in gang.members.values():
                refs[m.ref] = [self.snapshots[n].get(m.ref) for n in numbers]
        return labels, refs

    def gang_series(self) -> tuple[list[str], dict[str, list[int | None]]]:
        numbers = sorted(self.snapshots)
        labels = ["Start" if n == 0 else str(n) for n in numbers]
        totals: dict[str, list[int | None]] = {}
        for gang in self.gangs.values():
            row: list[int | None] = []
            for n in numbers:
                snap = self.snapshots[n]
                values = [snap[m.ref] for m in gang.members.values() if m.ref in snap]
                row.append(sum(values) if values else None)
            totals[gang.id] = row
        return labels, totals


# --------------------------------------------------------------------------- helpers


def _whole(value: Any, what: str, field_name: str, *, low: int = 0, high: int | None = None) -> int:
    number = as_int(value)
    if number is None:
        raise CampaignError(f"{what} must be a whole number.", field_name)
    if number < low or (high is not None and number > high):
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise CampaignError(f"{what} must be {span}, not {number}.", field_name)
    return number


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def member_cost(system_id: str, data: Mapping[str, Any]) -> int:
    """What one member costs by its own system's rules (CCP, XP, points, figures)."""
    report = get_system(system_id).evaluate(
        {
            "system": system_id,
            "name": "",
            "limit": None,
            "gang": {},
            "members": [{"key": "1", "name": "Recruit", "data": dict(data)}],
        }
    )
    member = report.members.get("1")
    cost = getattr(member, "creation_cost", None)
    if cost is None:
        cost = getattr(member, "cost", 0)
    return int(cost or 0)


# --------------------------------------------------------------------------- progression


class Progression:
    """How a system's members gain and spend experience in a campaign.

    Subclasses set the numbers and the few hooks that differ between games; the event
    handling (encounters, death rolls, recruits, Riding to Mexico) is shared.
    """

    score_label = "XP"
    score_word = "XP"  # the score in running text ("no XP this encounter")
    earned_label = "advances"
    title = "Campaign champions"
    #: the happening kinds an encounter record may hold, with their labels
    happening_kinds: dict[str, str] = {"out": "Took out", "left": "Left the table early"}
    #: the house rules a campaign starts with (``docs/campaigns.md``)
    defaults: dict[str, Any] = {
        "limit": None,
        "win_xp": 2,
        "left_xp": 0,
        "per_advance": 5,
        "purse_per_game": 10,
        "death_roll": True,
    }
    #: one line per house rule, shown on the campaign's set-up page
    rule_help: dict[str, str] = {
        "limit": "The most a gang may cost when it joins (empty: the game's usual limit).",
        "win_xp": "Experience for every member of the winning gang.",
        "left_xp": "Experience (usually 0 or less) for a member who left the table early.",
        "per_advance": "Experience needed for each advance.",
        "purse_per_game": "Dollars each gang gets after every game, to spend between games.",
        "death_roll": "Roll the Rivals death roll for every member taken out.",
    }
    uses_location = False
    injury_stats: tuple[str, ...] = ()
    #: finding codes about building a gang that mean nothing once it is in a campaign
    campaign_ignores: frozenset[str] = frozenset()
    #: the member data key that marks the gang's leader, if the game has one to move
    leader_key: str | None = None

    def __init__(self, system_id: str):
        self.system_id = system_id

    @property
    def earned_one(self) -> str:
        """``earned_label`` for one: "1 promotion", "1 CCP"."""
        label = self.earned_label
        return label[:-1] if label.endswith("s") else label

    # -- set-up
    def house_rules(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        rules = dict(self.defaults)
        for name, value in (given or {}).items():
            if name in rules:
                rules[name] = value
        return rules

    def check_join(self, roster: Mapping[str, Any], rules: Mapping[str, Any]) -> None:
        limit = rules.get("limit")
        roster = dict(roster)
        if limit is not None:
            roster["limit"] = limit
        report = get_system(self.system_id).evaluate(roster)
        if report.errors:
            first = "; ".join(f.message for f in report.errors[:3])
            more = len(report.errors) - 3
            extra = f" (and {_plural(more, 'more problem')})" if more > 0 else ""
            raise CampaignError(
                f"This gang breaks the rules, so it can't join yet: {first}{extra}. "
                "Fix it in the builder, then join.",
                "gang",
            )
        if not report.members:
            raise CampaignError("This gang has no members yet.", "gang")

    def start(self, member: MemberState, rules: Mapping[str, Any]) -> None:
        """Set a member's starting campaign values when it joins."""

    def member_data(self, member: MemberState) -> dict[str, Any]:
        """The member's data as its system reads it, with what the campaign changed."""
        return copy.deepcopy(member.data)

    def member_summary(self, member: MemberState) -> str:
        return f"{self.score_label} {member.score}"

    # -- experience
    def victory_points(self, state: CampaignState, victim: MemberState) -> int:
        """What taking out ``victim`` is worth to the member who did it."""
        return 1

    def gain_reason(self, victim: MemberState, amount: int) -> str:
        return f"Took out {victim.name} ({_plural(amount, 'XP', 'XP')})"

    def earns(self, member: MemberState) -> bool:
        """Whether a member gains experience at all (Gunfight's troopers don't)."""
        return True

    def advances_for(self, member: MemberState, old_best: int, new_best: int, rules) -> int:
        per = max(1, as_int(rules.get("per_advance")) or 5)
        return new_best // per - max(0, old_best) // per

    def on_gain(self, member: MemberState, delta: int, rules: Mapping[str, Any]) -> None:
        """Called after a member's score changes (bwg2 adds earned XP to its card)."""

    # -- injuries and advances
    def injury_choices(self, member: MemberState) -> list[str]:
        return []

    def injure(self, member: MemberState, stat: str) -> str:
        """Take one point off ``stat``; return what the log says."""
        return ""

    def advance_options(self, member: MemberState) -> list[tuple[str, str]]:
        """What the member may take now: (value, label) pairs."""
        return []

    def prepare_advance(self, state: CampaignState, member: MemberState, data: dict, dice: Dice):
        raise CampaignError("This game has no advances to take.")

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        return ""

    # -- encounters
    has_showdown = False
    decline_penalty = 0
    no_gain_reason = "gains no experience"

    def notoriety(self, score: int) -> tuple[str, int]:
        return ("", 0)

    def roll_location(self, dice: Dice) -> dict[str, Any]:
        raise CampaignError("This game has no encounter locations to roll.")

    def death_result(self, roll: int) -> dict[str, Any]:
        from rules.systems import rivals

        return rivals.death_result(roll)

    def rolls_death(self, member: MemberState) -> bool:
        return True

    def check_happenings(
        self, state: CampaignState, enc: EncounterState, raw: list[Any]
    ) -> list[dict[str, Any]]:
        """The record's list of what happened, checked; each entry names members by ref."""
        check = _Happenings(state, enc)
        out = []
        for i, h in enumerate(raw, start=1):
            kind = as_str(h.get("kind")) if isinstance(h, Mapping) else ""
            if kind not in self.happening_kinds:
                allowed = ", ".join(self.happening_kinds.values())
                raise CampaignError(f"Line {i}: choose what happened ({allowed}).", f"line-{i}")
            out.append(getattr(self, f"_check_{kind}")(check, i, h))
        return out

    def _check_out(self, check: _Happenings, i: int, h: Mapping) -> dict[str, Any]:
        to = check.victim(i, h.get("to"))
        by = check.attacker(i, h.get("by"), to, optional=True)
        check.down.add(to.ref)
        return {"kind": "out", "by": by.ref if by else "", "to": to.ref}

    def _check_left(self, check: _Happenings, i: int, h: Mapping) -> dict[str, Any]:
        who = check.member(i, h.get("who") or h.get("by"), "who")
        if who.ref in check.down or who.ref in check.left:
            raise CampaignError(f"Line {i}: {who.name} was already off the table.", f"line-{i}")
        check.left.add(who.ref)
        return {"kind": "left", "who": who.ref}

    def awards(self, state: CampaignState, enc: EncounterState) -> list[Award]:
        rules = state.rules
        awards = []
        for h in enc.happenings:
            if h["kind"] == "out" and h["by"]:
                victim = state.member(h["to"])
                vp = self.victory_points(state, victim)
                awards.append(Award(h["by"], self.gain_reason(victim, vp), vp))
            elif h["kind"] == "left" and as_int(rules.get("left_xp")):
                awards.append(Award(h["who"], "Left the table early", as_int(rules["left_xp"])))
        awards += self.win_awards(state, enc, as_int(rules.get("win_xp")) or 0)
        return awards

    def win_awards(self, state: CampaignState, enc: EncounterState, each: int) -> list[Award]:
        if not enc.winner or not each:
            return []
        gang = state.gangs[enc.winner]
        return [Award(m.ref, "Won the encounter", each) for m in gang.alive]

    def who_rolls(self, state: CampaignState, enc: EncounterState) -> list[str]:
        if not state.rules.get("death_roll", True):
            return []
        refs = [h["to"] for h in enc.happenings if h["kind"] in ("out", "kill")]
        return [r for r in dict.fromkeys(refs) if self.rolls_death(state.member(r))]

    def after_award(self, state: CampaignState, enc: EncounterState) -> None:
        """What else the record changes once it stands (Rivals: loot changes hands)."""

    def check_recruit(
        self, state: CampaignState, replaced: MemberState, data: dict[str, Any]
    ) -> None:
        report = get_system(self.system_id).evaluate(
            {
                "system": self.system_id,
                "name": "",
                "limit": None,
                "gang": {},
                "members": [{"key": "1", "name": "Recruit", "data": data}],
            }
        )
        errors = [f.message for f in report.findings_for("1") if f.is_error]
        if errors:
            raise CampaignError(f"The recruit breaks the rules: {errors[0]}", "recruit")
        cost = member_cost(self.system_id, data)
        label = get_system(self.system_id).total_label
        if cost > replaced.original_cost:
            raise CampaignError(
                f"The recruit costs {cost} {label}; {replaced.name} was made with "
                f"{replaced.original_cost}. Build a recruit of at most "
                f"{replaced.original_cost} {label}.",
                "recruit",
            )

    # -- purchases
    def prepare_purchase(self, state: CampaignState, data: dict[str, Any]) -> dict[str, Any]:
        gang = state.gang(data.get("gang"))
        item = as_str(data.get("item"))[:80]
        if not item:
            raise CampaignError("Say what the gang buys.", "item")
        price = _whole(data.get("price"), "The price", "price", low=0, high=10_000)
        if price > gang.purse:
            raise CampaignError(f"{gang.name} has ${gang.purse}; {item} costs ${price}.", "price")
        holder = as_str(data.get("member"))
        if holder:
            m = state.member(holder)
            if m.gang != gang.id or not m.alive:
                raise CampaignError("Choose a surviving member of this gang.", "member")
        return {"gang": gang.id, "member": holder, "item": item, "price": price}

    def apply_purchase(self, state: CampaignState, data: Mapping[str, Any]) -> str:
        gang = state.gangs[data["gang"]]
        gang.purse -= data["price"]
        who = state.member(data["member"]).name if data.get("member") else ""
        gang.gear.append((who, data["item"], data["price"]))
        if who:
            state.member(data["member"]).notes.append(f"Bought {data['item']} (${data['price']}).")
        for_whom = f" for {who}" if who else ""
        return f"{gang.name} bought {data['item']}{for_whom} for ${data['price']}."


class XPProgression(Progression):
    """Rivals-style progression for a game without campaign rules of its own."""


# --------------------------------------------------------------------------- the engine


def progression_for(system_id: str) -> Progression:
    system = get_system(system_id)
    made = getattr(system, "campaign", None)
    if made is not None:
        return made
    return _PROGRESSIONS.get(system_id, XPProgression)(system_id)


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

    Events are applied in order. An undo voids the events from its encounter's start on,
    and the state is rebuilt from the events before them, so it is exactly what it was
    before the encounter. Voided events keep, in the log, the text they had when they
    happened, marked undone.
    """
    events = sorted(events, key=lambda e: e.seq)
    state = new_state(system_id, house_rules, agreed)
    applied: list[Event] = []
    texts: dict[int, str] = {}
    voided: set[int] = set()
    for event in events:
        if event.kind == "encounter_undone":
            first = as_int(event.data.get("encounter")) or 0
            voided.update(e.seq for e in applied if e.seq >= first)
            applied = [e for e in applied if e.seq < first]
            state = new_state(system_id, house_rules, agreed)
            for kept in applied:
                _APPLY[kept.kind](state, kept)
            texts[event.seq] = _describe_undo(event)
            continue
        texts[event.seq] = _APPLY[event.kind](state, event)
        applied.append(event)
    state.log = [
        LogLine(
            e.seq,
            e.kind,
            texts[e.seq],
            e.by,
            e.at,
            e.dice,
            _encounter_of(e),
            undone=e.seq in voided,
            gangs=_gangs_of(e),
        )
        for e in events
    ]
    last = state.last_encounter
    if last is None or last.awarded:
        _snapshot(state)
    return state


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
    why = f" ({reason})" if reason else ""
    return (
        f"The organiser undid encounter {event.data.get('number', '?')}{why}: everything "
        "from its start on is struck out, and the campaign is as it was before it."
    )


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
        raise CampaignError(f"Unknown campaign event {kind!r}.")
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
        now = {SETUP: "still being set up", RUNNING: "running", FINISHED: "finished"}[state.status]
        raise CampaignError(f"You can't {what}: the campaign is {now}.")


def _change_score(state: CampaignState, m: MemberState, delta: int) -> str:
    """Add ``delta`` to a member's score; grant what every threshold newly passed gives.

    Penalties lower the total, but what was granted is never taken back, and a threshold
    passed once does not grant again (RULES.md).
    """
    if delta == 0:
        return ""
    p = state.progression
    m.score += delta
    gained = ""
    if m.score > m.best:
        new = p.advances_for(m, m.best, m.score, state.rules)
        m.best = m.score
        if new > 0:
            m.earned += new
            gained = f", {_plural(new, p.earned_one, p.earned_label)} earned"
    p.on_gain(m, delta, state.rules)
    return f"{m.name} {_signed(delta)} {p.score_label} (now {m.score}{gained})"


# -- set-up ------------------------------------------------------------------


def _prepare_gang_joined(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, SETUP, what="join")
    gang_id = as_str(str(data.get("gang", "")))
    if not gang_id or gang_id in state.gangs:
        raise CampaignError("Each gang joins once.", "gang")
    roster = data.get("roster")
    if not isinstance(roster, Mapping) or roster.get("system") != state.system:
        raise CampaignError("Pick a gang of this campaign's game.", "gang")
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
    return (
        f"{gang.name} ({d['player'] or 'no player'}) joined with "
        f"{_plural(len(gang.members), 'member')} ({cost} {total})."
    )


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
    _need_status(state, SETUP, what="leave the campaign this way")
    return {"gang": state.gang(data.get("gang")).id}


def _apply_gang_left(state: CampaignState, event: Event) -> str:
    gang = state.gangs.pop(event.data["gang"])
    return f"{gang.name} left the campaign before it started."


def _prepare_campaign_started(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, SETUP, what="start it")
    if len(state.gangs) < 2:
        raise CampaignError("A campaign needs at least two gangs before it starts.")
    return {}


def _apply_campaign_started(state: CampaignState, event: Event) -> str:
    state.status = RUNNING
    _snapshot(state)
    return f"The campaign began with {_plural(len(state.gangs), 'gang')}."


def _prepare_campaign_finished(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what="finish it")
    if any(e.open for e in state.encounters):
        raise CampaignError("Finish the open encounter first (record, confirm, death rolls).")
    return {"early": not state.all_played}


def _apply_campaign_finished(state: CampaignState, event: Event) -> str:
    state.status = FINISHED
    winners = state.winners
    names = " and ".join(g.name for g in winners) or "nobody"
    early = " before the agreed number of encounters" if event.data.get("early") else ""
    state.finish_note = f"{names}: {state.title}"
    return f"The campaign ended{early}. {state.finish_note}."


# -- encounters --------------------------------------------------------------


def _prepare_encounter_begun(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what="start an encounter")
    raw = data.get("gangs") or []
    if not isinstance(raw, Sequence) or isinstance(raw, str) or len(raw) != 2:
        raise CampaignError("Pick the two gangs that fight.", "gangs")
    a, b = (state.gang(g) for g in raw)
    if a.id == b.id:
        raise CampaignError("A gang can't fight itself: pick two different gangs.", "gangs")
    for gang in (a, b):
        if gang.retired:
            raise CampaignError(f"{gang.name} rode to Mexico and is retired.", "gangs")
        if state.open_encounter(gang.id):
            raise CampaignError(
                f"{gang.name} has an encounter still open: finish it first.", "gangs"
            )
        if state.played(gang.id) >= state.agreed:
            raise CampaignError(
                f"{gang.name} has played the agreed {_plural(state.agreed, 'encounter')}.",
                "gangs",
            )
        if not gang.alive:
            raise CampaignError(f"{gang.name} has nobody left to fight: recruit first.", "gangs")
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
    where = ""
    if enc.location:
        where = f" at {enc.location['name']} (rolled {enc.location['roll']})"
    if enc.scenario:
        where += f": {enc.scenario}"
    return f"Encounter {number}: {a.name} v {b.name}{where}."


def _open(state: CampaignState, data: Mapping, *statuses: str) -> EncounterState:
    enc = state.encounter(data.get("encounter"))
    if enc.status not in statuses:
        raise CampaignError(f"Encounter {enc.number} is {enc.status_label.lower()}.")
    return enc


def _player_gang(enc: EncounterState, data: Mapping) -> str:
    gang = str(data.get("gang", ""))
    if gang not in enc.gangs:
        raise CampaignError("Only the two gangs in the encounter can do that.", "gang")
    return gang


def _prepare_encounter_recorded(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, IN_PLAY, PROVISIONAL, DISPUTED)
    gang = str(data.get("gang", ""))
    if gang and gang not in enc.gangs:
        raise CampaignError("Only the two gangs in the encounter record it.", "gang")
    raw = data.get("happenings") or []
    if not isinstance(raw, list) or len(raw) > MAX_HAPPENINGS:
        raise CampaignError("The record's list of what happened is not readable.")
    happenings = state.progression.check_happenings(state, enc, raw)
    winner = data.get("winner")
    winner = "" if winner in (None, "", "draw") else str(winner)
    if winner and winner not in enc.gangs:
        raise CampaignError("The winner is one of the two gangs, or nobody (a draw).", "winner")
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
    outcome = state.gangs[enc.winner].name + " won" if enc.winner else "A draw"
    return (
        f"Encounter {enc.number} recorded: {outcome}; "
        f"{_plural(len(enc.happenings), 'thing')} happened. Provisional until both confirm."
    )


def _prepare_encounter_confirmed(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, PROVISIONAL, DISPUTED)
    gang = _player_gang(enc, data)
    if enc.status == DISPUTED and gang != enc.disputed_by:
        raise CampaignError(
            "The record is disputed: the organiser settles it, or the player who disputed "
            "it confirms it after all, or it is recorded again."
        )
    if gang in enc.confirmed and enc.status == PROVISIONAL:
        raise CampaignError(f"{state.gangs[gang].name} has already confirmed this record.")
    return {"encounter": enc.id, "gang": gang}


def _apply_encounter_confirmed(state: CampaignState, event: Event) -> str:
    enc = state.encounter(event.data["encounter"])
    gang = event.data["gang"]
    enc.confirmed.add(gang)
    if enc.status == DISPUTED:
        enc.status = PROVISIONAL
        enc.dispute = enc.disputed_by = ""
    text = f"{state.gangs[gang].name} confirmed the record of encounter {enc.number}."
    if set(enc.gangs) <= enc.confirmed:
        text += " " + _confirm(state, enc)
    return text


def _prepare_encounter_settled(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, PROVISIONAL, DISPUTED)
    return {"encounter": enc.id, "note": as_str(data.get("note"))[:500]}


def _apply_encounter_settled(state: CampaignState, event: Event) -> str:
    enc = state.encounter(event.data["encounter"])
    enc.confirmed = set(enc.gangs)
    note = f" ({event.data['note']})" if event.data.get("note") else ""
    return f"The organiser upheld the record of encounter {enc.number}{note}. " + _confirm(
        state, enc
    )


def _confirm(state: CampaignState, enc: EncounterState) -> str:
    enc.status = CONFIRMED
    enc.dispute = enc.disputed_by = ""
    enc.dead = state.progression.who_rolls(state, enc)
    if enc.dead:
        names = ", ".join(state.member(r).name for r in enc.dead)
        return f"Death rolls to make for {names}."
    return _award(state, enc)


def _prepare_encounter_disputed(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, PROVISIONAL)
    gang = _player_gang(enc, data)
    reason = as_str(data.get("reason"))[:1000]
    if not reason:
        raise CampaignError("Say what is wrong with the record, for the organiser.", "reason")
    return {"encounter": enc.id, "gang": gang, "reason": reason}


def _apply_encounter_disputed(state: CampaignState, event: Event) -> str:
    enc = state.encounter(event.data["encounter"])
    enc.status = DISPUTED
    enc.dispute = event.data["reason"]
    enc.disputed_by = event.data["gang"]
    enc.confirmed.discard(event.data["gang"])
    name = state.gangs[event.data["gang"]].name
    return f"{name} disputed the record of encounter {enc.number}: {enc.dispute}"


def _prepare_encounter_undone(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, FINISHED, what="undo an encounter")
    last = state.last_encounter
    if last is None:
        raise CampaignError("There is no encounter to undo.")
    wanted = as_int(data.get("encounter"))
    if wanted is not None and wanted != last.id:
        raise CampaignError(f"Only the last encounter (number {last.number}) can be undone.")
    return {"encounter": last.id, "number": last.number, "reason": as_str(data.get("reason"))}


def _apply_encounter_undone(state: CampaignState, event: Event) -> str:
    raise CampaignError("An undo takes effect by replaying the log: call replay().")


# -- after the encounter -----------------------------------------------------


def _prepare_death_rolled(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = _open(state, data, CONFIRMED)
    member = state.member(data.get("member"))
    if member.ref not in enc.dead:
        raise CampaignError(f"{member.name} doesn't need a death roll for this encounter.")
    if member.ref in enc.deaths:
        raise CampaignError(f"{member.name}'s death roll is already made.")
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
    text = f"Death roll for {m.name}: {d['roll']}, {d['name']}."
    if d["result"] == "dead":
        m.status = DEAD
        m.notes.append(f"Killed in encounter {enc.number}.")
        text += " Removed from the gang."
    else:
        lost = state.progression.injure(m, d["injury"]) if d["injury"] else ""
        what = "Badly wounded" if d["result"] == "badly_wounded" else "Playing dead"
        m.notes.append(f"{what} in encounter {enc.number}{': ' + lost if lost else ''}.")
        if lost:
            text += f" {lost}."
        text += f" No {state.progression.score_word} this encounter."
    if enc.showdown and enc.showdown.get("fate") == "dead" and m.ref == enc.showdown["loser"]:
        _void_showdown(state, enc, m)
    elif not enc.death_rolls_left and not enc.awarded:
        text += " " + _award(state, enc)
    return text


class _Happenings:
    """Checks the lines of an encounter record in order: who is still standing."""

    def __init__(self, state: CampaignState, enc: EncounterState):
        self.state, self.enc = state, enc
        self.down: set[str] = set()
        self.left: set[str] = set()

    def member(self, i: int, value: Any, what: str) -> MemberState:
        try:
            m = self.state.member(value, what)
        except CampaignError:
            raise CampaignError(f"Line {i}: choose {what}.", f"line-{i}") from None
        if m.gang not in self.enc.gangs or not m.alive:
            raise CampaignError(
                f"Line {i}: {m.name} is not in this encounter.", f"line-{i}"
            ) from None
        return m

    def victim(self, i: int, value: Any) -> MemberState:
        m = self.member(i, value, "who was hit")
        if m.ref in self.down:
            raise CampaignError(f"Line {i}: {m.name} was already down.", f"line-{i}")
        if m.ref in self.left:
            raise CampaignError(f"Line {i}: {m.name} had left the board.", f"line-{i}")
        return m

    def attacker(
        self, i: int, value: Any, victim: MemberState, *, optional: bool = False
    ) -> MemberState | None:
        if optional and not as_str(value):
            return None
        m = self.member(i, value, "who did it")
        if m.gang == victim.gang:
            raise CampaignError(
                f"Line {i}: only an outlaw of another gang earns by it; {m.name} and "
                f"{victim.name} ride together.",
                f"line-{i}",
            )
        if m.ref in self.down or m.ref in self.left:
            raise CampaignError(f"Line {i}: {m.name} was out of the fight by then.", f"line-{i}")
        return m


def _award(state: CampaignState, enc: EncounterState) -> str:
    """Give each member what the encounter earned it (now that death rolls are made)."""
    p = state.progression
    for award in enc.awards:
        death = enc.deaths.get(award.member)
        if death and award.amount > 0:
            award.counts = False
            award.why_not = f"{death['name']}: no {p.score_word} this encounter"
        if award.counts and not p.earns(state.member(award.member)):
            award.counts = False
            award.why_not = p.no_gain_reason
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
    done = "; ".join(lines) if lines else f"no {p.score_word} changed"
    return f"Encounter {enc.number} settled: {done}."


def _void_showdown(state: CampaignState, enc: EncounterState, loser: MemberState) -> None:
    gained = sum(a["amount"] for a in enc.showdown.get("awards", []) if a["member"] == loser.ref)
    if gained > 0:
        _change_score(state, loser, -gained)


def _prepare_showdown_challenged(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = state.encounter(data.get("encounter"))
    if not enc.awarded or enc is not state.last_encounter:
        raise CampaignError("A showdown comes after the last encounter's death rolls.")
    if enc.showdown:
        raise CampaignError("This encounter has had its showdown challenge.")
    challenger = state.member(data.get("challenger"), "challenger")
    challenged = state.member(data.get("challenged"), "challenged")
    pairs = showdown_pairs(state, enc)
    if (challenger.ref, challenged.ref) not in pairs:
        raise CampaignError(
            "A showdown challenge comes from an outlaw of the gang with the lower total "
            "reputation, to an outlaw of the other gang with the same notoriety.",
            "challenged",
        )
    return {"encounter": enc.id, "challenger": challenger.ref, "challenged": challenged.ref}


def showdown_pairs(state: CampaignState, enc: EncounterState) -> list[tuple[str, str]]:
    """Every (challenger, challenged) a showdown may have after ``enc``: from the gang
    with the lower total reputation, to an outlaw of the other gang with the same
    notoriety. Equal totals: no gang is lower, so no showdown."""
    if not state.progression.has_showdown:
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
    return f"Showdown: {x.name} challenged {y.name}."


def _prepare_showdown_answered(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = state.encounter(data.get("encounter"))
    if not enc.showdown or enc.showdown["status"] != "challenged":
        raise CampaignError("There is no showdown challenge waiting for an answer.")
    return {"encounter": enc.id, "accepted": bool(data.get("accepted"))}


def _apply_showdown_answered(state: CampaignState, event: Event) -> str:
    enc = state.encounter(event.data["encounter"])
    sd = enc.showdown
    challenged = state.member(sd["challenged"])
    if event.data["accepted"]:
        sd["status"] = "accepted"
        return f"{challenged.name} accepted the showdown."
    sd["status"] = "declined"
    penalty = state.progression.decline_penalty
    line = _change_score(state, challenged, penalty)
    challenged.notes.append(f"Declined a showdown after encounter {enc.number} ({penalty}).")
    return f"{challenged.name} declined the showdown: {line}."


def _prepare_showdown_fought(state: CampaignState, data: dict, dice: Dice) -> dict:
    enc = state.encounter(data.get("encounter"))
    sd = enc.showdown
    if not sd or sd["status"] != "accepted":
        raise CampaignError("Record a showdown's result after the challenge is accepted.")
    winner = state.member(data.get("winner"), "winner")
    if winner.ref not in (sd["challenger"], sd["challenged"]):
        raise CampaignError("The winner is the challenger or the challenged.", "winner")
    fate = as_str(data.get("fate"))
    if fate not in SHOWDOWN_FATES:
        raise CampaignError("Say how the loser ended: unconscious, dead or off the map.", "fate")
    loser = sd["challenged"] if winner.ref == sd["challenger"] else sd["challenger"]
    hits = []
    for i, h in enumerate(data.get("hits") or [], start=1):
        kind = as_str(h.get("kind"))
        if kind not in ("wound", "kill"):
            raise CampaignError(f"Hit {i}: a wound or the kill.", f"hits-{i}")
        by, to = as_str(h.get("by")), as_str(h.get("to"))
        if {by, to} != {winner.ref, loser}:
            raise CampaignError(f"Hit {i}: one of the two outlaws hits the other.", f"hits-{i}")
        amount = _whole(h.get("amount"), f"Hit {i}: the number", f"hits-{i}", low=0, high=10)
        if kind == "kill" and (fate != "dead" or to != loser):
            raise CampaignError(
                f"Hit {i}: only the loser can be killed, when he ends dead.", f"hits-{i}"
            )
        hits.append({"kind": kind, "by": by, "to": to, "amount": amount})
    return {"encounter": enc.id, "winner": winner.ref, "loser": loser, "fate": fate, "hits": hits}


SHOWDOWN_FATES = {
    "unconscious": "Permanently unconscious",
    "dead": "Dead",
    "left": "Left the map",
}


def _apply_showdown_fought(state: CampaignState, event: Event) -> str:
    d = event.data
    enc = state.encounter(d["encounter"])
    sd = enc.showdown
    sd.update(status="fought", winner=d["winner"], loser=d["loser"], fate=d["fate"])
    p = state.progression
    running = {r: state.member(r).score for r in (d["winner"], d["loser"])}
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
    text = f"Showdown: {winner.name} beat {loser.name} ({SHOWDOWN_FATES[d['fate']].lower()})."
    if lines:
        text += " " + "; ".join(lines) + "."
    if d["fate"] == "dead":
        enc.deaths.pop(loser.ref, None)  # a second death roll, for the showdown
        if loser.ref not in enc.dead:
            enc.dead.append(loser.ref)
        text += f" Death roll to make for {loser.name}."
    return text


def _need_riding(state: CampaignState, gang_id: str, field_name: str) -> None:
    """A gang that rode to Mexico is retired for good: it spends and recruits no more."""
    gang = state.gang(gang_id)
    if gang.retired:
        raise CampaignError(f"{gang.name} rode to Mexico and is retired.", field_name)


def _prepare_advance_taken(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what="spend advances")
    member = state.member(data.get("member"))
    if not member.alive:
        raise CampaignError(f"{member.name} is dead.", "member")
    _need_riding(state, member.gang, "member")
    enc = state.open_encounter(member.gang)
    if enc is not None:
        raise CampaignError("Spend advances after the encounter is settled.", "member")
    out = state.progression.prepare_advance(state, member, data, dice)
    out["member"] = member.ref
    return out


def _apply_advance_taken(state: CampaignState, event: Event) -> str:
    m = state.member(event.data["member"])
    text = state.progression.apply_advance(m, event.data)
    m.notes.append(text)
    return f"{m.name}: {text}"


def _prepare_item_bought(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what="buy anything")
    gang = str(data.get("gang", "")) or state.member(data.get("member")).gang
    _need_riding(state, gang, "item")
    if state.open_encounter(gang):
        raise CampaignError("Buy between encounters, once the last one is settled.", "item")
    return state.progression.prepare_purchase(state, {**data, "gang": gang})


def _apply_item_bought(state: CampaignState, event: Event) -> str:
    return state.progression.apply_purchase(state, event.data)


def _prepare_member_recruited(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what="recruit")
    gang = state.gang(data.get("gang"))
    _need_riding(state, gang.id, "replaces")
    replaced = state.member(data.get("replaces"), "replaces")
    if replaced.gang != gang.id or replaced.status != DEAD or replaced.replaced_by:
        raise CampaignError("A recruit replaces a member of this gang who was killed.", "replaces")
    if state.open_encounter(gang.id):
        raise CampaignError("Recruit once the last encounter is settled.", "replaces")
    member = data.get("member")
    if not isinstance(member, Mapping) or not isinstance(member.get("data"), Mapping):
        raise CampaignError("Pick the recruit from one of your gangs.", "recruit")
    name = as_str(member.get("name"))[:80] or "Recruit"
    new = dict(member["data"])
    state.progression.check_recruit(state, replaced, new)
    return {"gang": gang.id, "replaces": replaced.ref, "member": {"name": name, "data": new}}


def _apply_member_recruited(state: CampaignState, event: Event) -> str:
    d = event.data
    gang = state.gangs[d["gang"]]
    old = state.member(d["replaces"])
    new = _add_member(state, gang, d["member"]["name"], d["member"]["data"])
    new.replaces = old.key
    old.replaced_by = new.key
    new.notes.append(f"Recruited to replace {old.name}.")
    total = get_system(state.system).total_label
    return f"{gang.name} recruited {new.name} ({new.original_cost} {total}) to replace {old.name}."


def _prepare_leader_chosen(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, SETUP, RUNNING, what="choose a leader")
    key = state.progression.leader_key
    if key is None:
        raise CampaignError("In this game the leader is not a flag you can move.")
    member = state.member(data.get("member"))
    if not member.alive:
        raise CampaignError(f"{member.name} is dead.", "member")
    if member.data.get(key) is True:
        raise CampaignError(f"{member.name} already leads the gang.", "member")
    _need_riding(state, member.gang, "member")
    leader = next((m for m in state.gangs[member.gang].alive if m.data.get(key) is True), None)
    if leader is not None:
        raise CampaignError(
            f"{leader.name} leads the gang: a new leader is chosen only when the leader is dead.",
            "member",
        )
    if state.open_encounter(member.gang):
        raise CampaignError("Choose the new leader once the encounter is settled.", "member")
    return {"gang": member.gang, "member": member.ref}


def _apply_leader_chosen(state: CampaignState, event: Event) -> str:
    key = state.progression.leader_key
    chosen = state.member(event.data["member"])
    gang = state.gangs[chosen.gang]
    for m in gang.members.values():
        if m.alive:
            m.data[key] = m is chosen
    chosen.notes.append("Became the gang's leader.")
    return f"{chosen.name} now leads {gang.name}."


def _prepare_rode_to_mexico(state: CampaignState, data: dict, dice: Dice) -> dict:
    _need_status(state, RUNNING, what="ride to Mexico")
    gang = state.gang(data.get("gang"))
    if gang.retired:
        raise CampaignError(f"{gang.name} is already in Mexico.")
    if state.open_encounter(gang.id):
        raise CampaignError("Ride to Mexico at the end of an encounter, once it is settled.")
    return {"gang": gang.id}


def _apply_rode_to_mexico(state: CampaignState, event: Event) -> str:
    gang = state.gangs[event.data["gang"]]
    gang.retired_after = state.last_encounter.number if state.last_encounter else 0
    text = f"{gang.name} rode to Mexico: the campaign is forfeit and the gang retires for good."
    riding = state.active_gangs
    if len(riding) < 2:
        state.status = FINISHED
        names = " and ".join(g.name for g in riding) or "nobody"
        state.finish_note = f"{names}: {state.title}"
        text += f" The campaign is over. {state.finish_note}."
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


# --------------------------------------------------------------------------- Rivals


class RivalsProgression(Progression):
    """Outlaws: Rivals, as the book and RULES.md say: reputation, notoriety, CCP."""

    score_label = "Reputation"
    score_word = "reputation"
    earned_label = "CCP"
    title = "The Most Wanted Outlaws in the Old West"
    happening_kinds = {
        "wound": "Wounded",
        "kill": "Killed",
        "left": "Left the board early",
        "loot": "Took from a dead outlaw",
    }
    defaults: dict[str, Any] = {"limit": 30}
    rule_help: dict[str, str] = {}
    uses_location = True
    has_showdown = True
    campaign_ignores = frozenset({"rivals.ccp_unspent"})  # spent or lost at creation
    leader_key = "leader"
    no_gain_reason = "earns no reputation"
    SKILL_ROWS = ("handgun", "rifle", "shotgun", "brawl", "riding")

    def __init__(self, system_id: str = "rivals"):
        super().__init__(system_id)
        from rules.systems import rivals

        self.r = rivals
        self.decline_penalty = rivals.DECLINING_A_SHOWDOWN

    def house_rules(self, given=None) -> dict[str, Any]:
        return {"limit": self.r.CCP_BUDGET}  # the book's rules: nothing to change

    def notoriety(self, score: int) -> tuple[str, int]:
        return self.r.notoriety(score)

    def roll_location(self, dice: Dice) -> dict[str, Any]:
        return self.r.roll_encounter_location(dice)

    def advances_for(self, member, old_best, new_best, rules) -> int:
        return self.r.ccp_earned(old_best, new_best)

    def start(self, member: MemberState, rules) -> None:
        data = member.data
        for key in ("reputation", "ccp", "ccp_spent"):
            data.pop(key, None)
        pack = self.r.PACKS.get(as_str(data.get("pack")).upper())
        items = [c["item"] for c in pack["contents"] for _ in range(c["quantity"])] if pack else []
        member.equipment = list(data.pop("equipment", None) or items)
        cash = as_int(data.pop("cash", None))
        member.cash = cash if cash is not None else (pack["cash"] if pack else 0)

    def member_data(self, member: MemberState) -> dict[str, Any]:
        data = copy.deepcopy(member.data)
        data.update(
            reputation=member.score,
            cash=member.cash,
            ccp=member.saved,
            ccp_spent=member.spent,
            equipment=list(member.equipment),
        )
        return data

    def member_summary(self, member: MemberState) -> str:
        title, bonus = self.notoriety(member.score)
        return (
            f"Reputation {member.score} · {title} (+{bonus}) · {member.saved} CCP · ${member.cash}"
        )

    # -- the record
    def _check_wound(self, check: _Happenings, i: int, h: Mapping) -> dict[str, Any]:
        to = check.victim(i, h.get("to"))
        by = check.attacker(i, h.get("by"), to)
        amount = _whole(h.get("amount"), f"Line {i}: actions lost", f"line-{i}", low=1, high=10)
        return {"kind": "wound", "by": by.ref, "to": to.ref, "amount": amount}

    def _check_kill(self, check: _Happenings, i: int, h: Mapping) -> dict[str, Any]:
        to = check.victim(i, h.get("to"))
        by = check.attacker(i, h.get("by"), to, optional=True)
        amount = _whole(
            h.get("amount"),
            f"Line {i}: wounds lost from the killing wound",
            f"line-{i}",
            low=0,
            high=10,
        )
        check.down.add(to.ref)
        return {"kind": "kill", "by": by.ref if by else "", "to": to.ref, "amount": amount}

    def _check_loot(self, check: _Happenings, i: int, h: Mapping) -> dict[str, Any]:
        by = check.member(i, h.get("by"), "who took it")
        victim = check.member(i, h.get("from") or h.get("to"), "the dead outlaw")
        if victim.ref not in check.down:
            raise CampaignError(
                f"Line {i}: only a dead outlaw can be robbed; record {victim.name}'s death "
                "on an earlier line.",
                f"line-{i}",
            )
        if by.ref in check.down or by.ref in check.left:
            raise CampaignError(f"Line {i}: {by.name} was out of the fight by then.", f"line-{i}")
        purse = getattr(check, "cash", {})
        goods = getattr(check, "goods", {})
        check.cash, check.goods = purse, goods
        left_cash = purse.setdefault(victim.ref, victim.cash)
        left_goods = goods.setdefault(victim.ref, list(victim.equipment))
        cash = _whole(h.get("cash") or 0, f"Line {i}: dollars taken", f"line-{i}", low=0)
        if cash > left_cash:
            raise CampaignError(f"Line {i}: {victim.name} has only ${left_cash}.", f"line-{i}")
        items = h.get("items") or []
        if isinstance(items, str):
            items = [t.strip() for t in items.split(",") if t.strip()]
        taken = []
        for item in items:
            match = next((g for g in left_goods if g.lower() == as_str(item).lower()), None)
            if match is None:
                raise CampaignError(
                    f"Line {i}: {victim.name} has no {as_str(item) or 'such item'}"
                    f" (has: {', '.join(left_goods) or 'nothing'}).",
                    f"line-{i}",
                )
            left_goods.remove(match)
            taken.append(match)
        if not cash and not taken:
            raise CampaignError(f"Line {i}: say what was taken (dollars or items).", f"line-{i}")
        purse[victim.ref] = left_cash - cash
        return {"kind": "loot", "by": by.ref, "from": victim.ref, "cash": cash, "items": taken}

    def awards(self, state: CampaignState, enc: EncounterState) -> list[Award]:
        """Reputation as each thing happened: one of wound or kill per hit, a kill worth the
        victim's notoriety bonus at that moment (their total so far, this encounter too)."""
        running = {m.ref: m.score for g in enc.gangs for m in state.gangs[g].alive}
        awards = []
        for h in enc.happenings:
            if h["kind"] == "wound" or (h["kind"] == "kill" and h["by"]):
                to = state.member(h["to"])
                amount, why = self.hit_award(h["kind"], h["amount"], to, running[to.ref])
            elif h["kind"] == "left":
                amount, why = self.r.LEAVING_THE_BOARD, "Left the board early"
                h = {**h, "by": h["who"]}
            else:
                continue
            running[h["by"]] += amount
            awards.append(Award(h["by"], why, amount))
        return awards + self.win_awards(state, enc, self.r.WIN_PER_OUTLAW)

    def hit_award(
        self, kind: str, amount: int, victim: MemberState, victim_score: int
    ) -> tuple[int, str]:
        """Reputation for one hit: a wound's actions lost, or a kill's wounds lost plus the
        victim's notoriety bonus at that moment (their score ``victim_score`` then)."""
        if kind == "wound":
            gained = self.r.reputation_for_wound(amount)
            return gained, f"Wounded {victim.name} ({_plural(amount, 'action')} lost)"
        title, bonus = self.notoriety(victim_score)
        gained = self.r.reputation_for_kill(amount, bonus)
        lost = _plural(amount, "wound")
        return gained, f"Killed {victim.name}: {lost} lost + {title} notoriety bonus {bonus}"

    @property
    def left_penalty(self) -> int:
        return self.r.LEAVING_THE_BOARD

    def after_award(self, state: CampaignState, enc: EncounterState) -> None:
        for h in enc.happenings:
            if h["kind"] != "loot":
                continue
            by, victim = state.member(h["by"]), state.member(h["from"])
            victim.cash -= h["cash"]
            by.cash += h["cash"]
            for item in h["items"]:
                if item in victim.equipment:
                    victim.equipment.remove(item)
                by.equipment.append(item)
            what = ", ".join(([f"${h['cash']}"] if h["cash"] else []) + h["items"])
            by.notes.append(f"Took {what} from {victim.name} in encounter {enc.number}.")

    # -- injuries and CCP
    def injury_choices(self, member: MemberState) -> list[str]:
        tiers = member.data.get("tiers") or {}
        return [row for row in self.SKILL_ROWS if (as_int(tiers.get(row)) or 0) > 0]

    def injure(self, member: MemberState, stat: str) -> str:
        tiers = member.data.setdefault("tiers", {})
        row = self.r.ROWS[stat]
        before = row.get(as_int(tiers.get(stat)))
        tiers[stat] = (as_int(tiers.get(stat)) or 0) - 1
        after = row.get(tiers[stat])
        if before is None or after is None:
            return f"{row.label} down one tier"
        return f"{row.label} {before.name} {before.value} → {after.name} {after.value}"

    def advance_options(self, member: MemberState) -> list[tuple[str, str]]:
        options = []
        tiers = member.data.get("tiers") or {}
        for row in self.r.ROWS.values():
            now = row.get(as_int(tiers.get(row.id)))
            for tier in row.tiers:
                if now is None or tier.tier <= now.tier:
                    continue
                cost = tier.cost - (now.cost if now else 0)
                if cost <= member.saved:
                    label = f"{row.label}: {tier.name} {tier.value} ({_plural(cost, 'CCP', 'CCP')})"
                    options.append((f"{row.id}:{tier.tier}", label))
        for table in self.r.SKILL_TABLES.values():
            if table.cost <= member.saved and self._skills_left(member, table.id):
                options.append(
                    (
                        f"table:{table.id}",
                        f"Special skill: roll on {table.label} ({table.cost} CCP)",
                    )
                )
        return options

    def _held(self, member: MemberState) -> list[dict[str, Any]]:
        data = member.data
        skills = [data.get("special_skill"), *(data.get("extra_skills") or [])]
        return [s for s in skills if isinstance(s, Mapping)]

    def _skills_left(self, member: MemberState, table_id: str) -> list[int]:
        table = self.r.SKILL_TABLES[table_id]
        held = {
            self.r.skill_for(s.get("table"), s.get("roll")).name
            for s in self._held(member)
            if self.r.skill_for(s.get("table"), s.get("roll"))
        }
        return [roll for roll in range(1, 7) if table.result(roll).name not in held]

    def prepare_advance(self, state, member, data, dice) -> dict[str, Any]:
        choice = as_str(data.get("choice"))
        what, _, value = choice.partition(":")
        if what == "table":
            table = self.r.SKILL_TABLES.get(value)
            if table is None:
                raise CampaignError("Choose table A, B or C.", "choice")
            if table.cost > member.saved:
                raise CampaignError(
                    f"{member.name} has {member.saved} CCP; {table.label} costs {table.cost}.",
                    "choice",
                )
            left = self._skills_left(member, table.id)
            if not left:
                raise CampaignError(f"{member.name} has every skill of {table.label}.", "choice")
            while True:
                skill = self.r.roll_special_skill(dice, table.id)
                if skill["roll"] in left:
                    break
            return {"choice": choice, "cost": table.cost, "skill": skill}
        row = self.r.ROWS.get(what)
        tier = row.get(as_int(value)) if row else None
        if row is None or tier is None:
            raise CampaignError("Choose a row and a tier, or a special-skill table.", "choice")
        now = row.get(as_int((member.data.get("tiers") or {}).get(row.id)))
        if now is not None and tier.tier <= now.tier:
            raise CampaignError(f"{member.name} is already {now.name} at {row.label}.", "choice")
        cost = tier.cost - (now.cost if now else 0)
        if cost > member.saved:
            raise CampaignError(
                f"{tier.name} costs {member.name} {cost} CCP; {member.saved} saved.", "choice"
            )
        return {"choice": choice, "cost": cost, "row": row.id, "tier": tier.tier}

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        member.spent += data["cost"]
        if "skill" in data:
            skill = dict(data["skill"])
            if isinstance(member.data.get("special_skill"), Mapping):
                member.data.setdefault("extra_skills", []).append(skill)
            else:
                member.data["special_skill"] = skill
            return (
                f"Spent {data['cost']} CCP on a special-skill roll (table {skill['table']}): "
                f"rolled {skill['roll']}, {skill.get('skill', '')}."
            )
        row = self.r.ROWS[data["row"]]
        member.data.setdefault("tiers", {})[row.id] = data["tier"]
        tier = row.get(data["tier"])
        return f"Spent {data['cost']} CCP: {row.label} is now {tier.name} {tier.value}."

    # -- dollars and recruits
    def prepare_purchase(self, state: CampaignState, data: dict[str, Any]) -> dict[str, Any]:
        member = state.member(data.get("member"))
        if not member.alive:
            raise CampaignError(f"{member.name} is dead.", "member")
        wanted = as_str(data.get("item")).lower()
        entry = next((p for p in self.r.CONTENT["price_list"] if p["item"].lower() == wanted), None)
        if entry is None:
            raise CampaignError("Choose an item from the price list.", "item")
        count = _whole(data.get("quantity") or 1, "How many", "quantity", low=1, high=20)
        price = entry["price"] * count
        what = f"{count}{TIMES}{entry['item']}" if count > 1 else entry["item"]
        if price > member.cash:
            raise CampaignError(
                f"{member.name} has ${member.cash}; {what} costs ${price}.",
                "item",
            )
        return {
            "gang": member.gang,
            "member": member.ref,
            "item": entry["item"],
            "quantity": count,
            "price": price,
        }

    def apply_purchase(self, state: CampaignState, data: Mapping[str, Any]) -> str:
        member = state.member(data["member"])
        member.cash -= data["price"]
        entry = next(p for p in self.r.CONTENT["price_list"] if p["item"] == data["item"])
        name = (
            entry["item"][:-1]
            if entry["quantity"] > 1 and entry["item"].endswith("s")
            else entry["item"]
        )
        member.equipment += [name] * (entry["quantity"] * data["quantity"])
        count = f"{data['quantity']}{TIMES}" if data["quantity"] > 1 else ""
        member.notes.append(f"Bought {count}{entry['item']} for ${data['price']}.")
        left = f"${member.cash} left"
        return f"{member.name} bought {count}{entry['item']} for ${data['price']} ({left})."

    def check_recruit(self, state, replaced, data) -> None:
        for key in ("reputation", "cash", "ccp", "ccp_spent", "equipment", "extra_skills"):
            data.pop(key, None)
        super().check_recruit(state, replaced, data)


# --------------------------------------------------------------------------- the others


class Bwg1Progression(Progression):
    """Blackwater Gulch v1.1.2: every 5 XP is an attribute point; skills at 4 and 6 follow."""

    title = "The Most Famous Gang in Blackwater Gulch"
    earned_label = "attribute points"
    VP = {"leader": 5, "professional": 3, "henchman": 2}
    injury_stats = ("str", "qui", "sta", "int", "rc", "mc")

    def victory_points(self, state, victim) -> int:
        return self.VP.get(as_str(victim.data.get("type")), 2)

    def _attributes(self, member: MemberState) -> dict[str, int]:
        report = get_system(self.system_id).evaluate(
            {
                "system": self.system_id,
                "name": "",
                "limit": None,
                "gang": {},
                "members": [{"key": "1", "name": member.name, "data": member.data}],
            }
        )
        return dict(report.members["1"].attributes)

    def injury_choices(self, member: MemberState) -> list[str]:
        values = self._attributes(member)
        return [a for a in self.injury_stats if values.get(a, 1) > 1]

    def injure(self, member: MemberState, stat: str) -> str:
        advances = member.data.setdefault("advances", {})
        advances[stat] = advances.get(stat, 0) - 1
        return f"{stat.upper()} -1"

    def advance_options(self, member: MemberState) -> list[tuple[str, str]]:
        if member.saved < 1:
            return []
        values = self._attributes(member)
        return [
            (a, f"{a.upper()} {values[a]} → {values[a] + 1}")
            for a in self.injury_stats
            if values.get(a, 6) < 6
        ]

    def prepare_advance(self, state, member, data, dice) -> dict[str, Any]:
        attribute = as_str(data.get("choice"))
        if member.saved < 1:
            raise CampaignError(f"{member.name} has no attribute point to spend.", "choice")
        if attribute not in dict(self.advance_options(member)):
            raise CampaignError("Choose an attribute below 6.", "choice")
        return {"choice": attribute}

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        member.spent += 1
        advances = member.data.setdefault("advances", {})
        advances[data["choice"]] = advances.get(data["choice"], 0) + 1
        return f"Spent an attribute point: {data['choice'].upper()} +1."


class Bwg2Progression(Progression):
    """Blackwater Gulch 2nd edition: earned XP is added to the character, so to Fame."""

    title = "The Most Famous Gang in Blackwater Gulch"
    earned_label = "advances"
    injury_stats = ("str", "spd", "sta", "int", "rc", "mc")
    leader_key = "leader"

    def victory_points(self, state, victim) -> int:
        report = get_system(self.system_id).evaluate(
            {
                "system": self.system_id,
                "name": "",
                "limit": None,
                "gang": {},
                "members": [{"key": "1", "name": victim.name, "data": victim.data}],
            }
        )
        return int(report.members["1"].victory_points)

    def gain_reason(self, victim, amount) -> str:
        return f"Took out {victim.name} ({amount} Victory Points)"

    def advances_for(self, member, old_best, new_best, rules) -> int:
        return 0

    def on_gain(self, member: MemberState, delta: int, rules) -> None:
        card = member.data.get("card")
        if isinstance(card, dict):
            card["xp"] = max(0, (as_int(card.get("xp")) or 0) + delta)

    def injury_choices(self, member: MemberState) -> list[str]:
        card = member.data.get("card") or {}
        return [a for a in self.injury_stats if (as_int(card.get(a)) or 0) > 1]

    def injure(self, member: MemberState, stat: str) -> str:
        card = member.data["card"]
        card[stat] = (as_int(card.get(stat)) or 0) - 1
        return f"{stat.upper()} {card[stat] + 1} → {card[stat]}"


class Gf26Progression(Progression):
    """Gangfight Core 2.6: campaigns start at 500 points; 5 XP promote a model one troop
    type (Regular → Veteran → Hero) with a new perk."""

    earned_label = "promotions"
    defaults = {**Progression.defaults, "limit": 500}
    VP = {"regular": 1, "veteran": 2, "hero": 3}
    NEXT = {"regular": "veteran", "veteran": "hero"}
    injury_stats = ("mov", "att", "mrk", "def", "iv", "wp")
    leader_key = "leader"

    def _type(self, member: MemberState) -> str:
        profile = member.data.get("profile") or {}
        return as_str(profile.get("troop_type")).lower()

    def victory_points(self, state, victim) -> int:
        return self.VP.get(self._type(victim), 1)

    def injury_choices(self, member: MemberState) -> list[str]:
        profile = member.data.get("profile") or {}
        return [a for a in self.injury_stats if (as_int(profile.get(a)) or 0) > 1]

    def injure(self, member: MemberState, stat: str) -> str:
        profile = member.data["profile"]
        profile[stat] = (as_int(profile.get(stat)) or 0) - 1
        return f"{stat.upper()} {profile[stat] + 1} → {profile[stat]}"

    def advance_options(self, member: MemberState) -> list[tuple[str, str]]:
        from rules.systems import gf26

        if member.saved < 1 or self._type(member) not in self.NEXT:
            return []
        to = self.NEXT[self._type(member)]
        held = set(member.data.get("perks") or [])
        return [
            (pid, f"Become a {to.title()} with {p['name']}")
            for pid, p in gf26.PERKS.items()
            if pid not in held
        ]

    def prepare_advance(self, state, member, data, dice) -> dict[str, Any]:
        if member.saved < 1:
            raise CampaignError(f"{member.name} has no promotion to take.", "choice")
        if self._type(member) not in self.NEXT:
            raise CampaignError(f"{member.name} is a Hero already.", "choice")
        perk = as_str(data.get("choice"))
        if perk not in dict(self.advance_options(member)):
            raise CampaignError("Choose a perk the model doesn't have.", "choice")
        return {"choice": perk, "to": self.NEXT[self._type(member)]}

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        from rules.systems import gf26

        member.spent += 1
        member.data.setdefault("profile", {})["troop_type"] = data["to"]
        member.data.setdefault("perks", []).append(data["choice"])
        return f"Promoted to {data['to'].title()} with {gf26.PERKS[data['choice']]['name']}."


class GunfightProgression(Progression):
    """Gunfight v2: characters move from Greenhorn to Old Hand (5 XP) to Veteran (15 XP),
    each step rolling a new special ability on their type's D20 table."""

    earned_label = "promotions"
    defaults = {**Progression.defaults, "old_hand_xp": 5, "veteran_xp": 15}
    rule_help = {
        **Progression.rule_help,
        "old_hand_xp": "Experience at which a Greenhorn becomes an Old Hand.",
        "veteran_xp": "Experience at which an Old Hand becomes a Veteran.",
    }
    VP = {"greenhorn": 1, "old_hand": 2, "veteran": 3}
    NEXT = {"greenhorn": "old_hand", "old_hand": "veteran"}
    injury_stats = ("bd", "sk", "sp", "ag", "wp")
    no_gain_reason = "troopers and rabble gain no experience"

    def _character(self, member: MemberState) -> bool:
        return as_str(member.data.get("figure")) == "character"

    def victory_points(self, state, victim) -> int:
        return self.VP.get(as_str(victim.data.get("experience")), 1)

    def earns(self, member: MemberState) -> bool:
        return self._character(member)

    def rolls_death(self, member: MemberState) -> bool:
        return self._character(member)

    def advances_for(self, member, old_best, new_best, rules) -> int:
        marks = [as_int(rules.get("old_hand_xp")) or 5, as_int(rules.get("veteran_xp")) or 15]
        return sum(1 for mark in marks if old_best < mark <= new_best)

    def injury_choices(self, member: MemberState) -> list[str]:
        values = member.data.get("characteristics") or {}
        return [c for c in self.injury_stats if (as_int(values.get(c)) or 0) > 1]

    def injure(self, member: MemberState, stat: str) -> str:
        values = member.data["characteristics"]
        values[stat] = (as_int(values.get(stat)) or 0) - 1
        return f"{stat.upper()} {values[stat] + 1} → {values[stat]}"

    def advance_options(self, member: MemberState) -> list[tuple[str, str]]:
        level = as_str(member.data.get("experience"))
        if member.saved < 1 or not self._character(member) or level not in self.NEXT:
            return []
        to = self.NEXT[level].replace("_", " ").title()
        return [("promote", f"Become {to} and roll a new ability")]

    def prepare_advance(self, state, member, data, dice) -> dict[str, Any]:
        from rules.systems import gunfight

        if not self.advance_options(member):
            raise CampaignError(f"{member.name} has no promotion to take.", "choice")
        table = gunfight.table_for(as_str(member.data.get("character_type")))
        if table is None:
            raise CampaignError(f"{member.name} has no ability table (character type).", "choice")
        held = set(member.data.get("abilities") or [])
        if not set(gunfight.table_abilities(table)) - held:
            raise CampaignError(f"{member.name} has every ability on the table.", "choice")
        while True:
            roll = dice.d20(f"{member.name}: new ability ({table.get('name', 'table')})")
            ability = gunfight.table_result(table, roll)
            if ability not in held:  # RULES.md: a repeated ability is re-rolled
                break
        rolled = dice.log[-1].to_dict()
        to = self.NEXT[as_str(member.data.get("experience"))]
        return {"choice": "promote", "to": to, "ability": ability, "roll": roll, "rolled": rolled}

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        from rules.systems import gunfight

        member.spent += 1
        member.data["experience"] = data["to"]
        member.data.setdefault("abilities", []).append(data["ability"])
        member.data.setdefault("rolls", []).append(dict(data["rolled"]))
        name = gunfight.ABILITIES.get(data["ability"], {}).get("name", data["ability"])
        level = data["to"].replace("_", " ").title()
        return f"Became {level}: rolled {data['roll']}, {name}."


_PROGRESSIONS: dict[str, type[Progression]] = {
    "rivals": RivalsProgression,
    "bwg1": Bwg1Progression,
    "bwg2": Bwg2Progression,
    "gf26": Gf26Progression,
    "gunfight": GunfightProgression,
}
