"""A campaign's state: the gangs, members and encounters that replaying its events builds.

Plain data (dataclasses); :mod:`rules.campaign.engine` changes it, one event at a time.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules.base import as_int, as_str
from rules.i18n import _, gettext_noop
from rules.registry import get_system

if TYPE_CHECKING:
    from rules.campaign.progression import Progression

ACTIVE, DEAD = "active", "dead"
SETUP, RUNNING, FINISHED = "setup", "running", "finished"
IN_PLAY, PROVISIONAL, DISPUTED, CONFIRMED = "in_play", "provisional", "disputed", "confirmed"
ENCOUNTER_STATUS = {
    IN_PLAY: gettext_noop("Being played"),
    PROVISIONAL: gettext_noop("Provisional: waiting for both players to confirm"),
    DISPUTED: gettext_noop("Disputed: the organiser settles it"),
    CONFIRMED: gettext_noop("Confirmed"),
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
    declined: bool = False  # killed, and the player chose to fight on without a recruit
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
    def waiting(self) -> list[MemberState]:
        """The fallen whose replacement is still owed before the next encounter."""
        return [m for m in self.fallen if not m.declined]

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
            raise CampaignError(_("That gang is not in this campaign."), "gang")
        return gang

    def member(self, member_ref: Any, what: str = "member") -> MemberState:
        text = as_str(member_ref) if not isinstance(member_ref, int) else str(member_ref)
        gang_id, _sep, key = text.partition("/")
        gang = self.gangs.get(gang_id)
        member = gang.members.get(key) if gang else None
        if member is None:
            raise CampaignError(
                _("Choose a {what} from the campaign's gangs.").format(what=_(what)), what
            )
        return member

    def encounter(self, encounter_id: Any) -> EncounterState:
        wanted = as_int(encounter_id)
        found = next((e for e in self.encounters if e.id == wanted), None)
        if found is None:
            raise CampaignError(_("That encounter is not in this campaign (it may be undone)."))
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
                    note=_("Rode to Mexico after encounter {number}: retired").format(
                        number=gang.retired_after
                    ),
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
        labels = [gettext_noop("Start") if n == 0 else str(n) for n in numbers]
        refs: dict[str, list[int | None]] = {}
        for gang in self.gangs.values():
            for m in gang.members.values():
                refs[m.ref] = [self.snapshots[n].get(m.ref) for n in numbers]
        return labels, refs

    def gang_series(self) -> tuple[list[str], dict[str, list[int | None]]]:
        numbers = sorted(self.snapshots)
        labels = [gettext_noop("Start") if n == 0 else str(n) for n in numbers]
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


def whole_number(
    value: Any, what: str, field_name: str, *, low: int = 0, high: int | None = None
) -> int:
    number = as_int(value)
    if number is None:
        raise CampaignError(_("{what} must be a whole number.").format(what=what), field_name)
    if number < low or (high is not None and number > high):
        if high is not None:
            message = _("{what} must be {low} to {high}, not {number}.")
        else:
            message = _("{what} must be at least {low}, not {number}.")
        raise CampaignError(
            message.format(what=what, low=low, high=high, number=number), field_name
        )
    return number


def counted(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def signed(n: int) -> str:
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
