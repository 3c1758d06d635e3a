"""A system's progression: how its members gain and spend experience in a campaign.

:class:`Progression` holds what every game shares (the record's lines, awards, death rolls,
recruits, purchases) and the hooks a game overrides; each game's own rules are a subclass
in a module of this package named after the system (``rules/campaign/rivals.py``...),
which sets ``PROGRESSION``. A system without one gets :class:`XPProgression`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rules.base import as_int, as_str, load_content
from rules.campaign.state import (
    Award,
    CampaignError,
    CampaignState,
    EncounterState,
    MemberState,
    member_cost,
    whole_number,
)
from rules.dice import Dice
from rules.i18n import _, gettext_noop, ngettext, punctuate
from rules.registry import get_system

#: what every game's campaign starts with (docs/campaigns.md), as data
HOUSE_RULES = load_content("house_rules")


def death_entry(table: list[dict[str, Any]], roll: int) -> dict[str, Any]:
    """The entry of a 1D6 death-roll table for ``roll``, with the roll."""
    roll = as_int(roll)
    for entry in table:
        if roll in entry["rolls"]:
            return {"roll": roll, **{k: v for k, v in entry.items() if k != "rolls"}}
    raise ValueError(f"death roll {roll!r} is not a 1D6 result (1 to 6)")


class Progression:
    """How a system's members gain and spend experience in a campaign.

    Subclasses set the numbers and the few hooks that differ between games; the event
    handling (encounters, death rolls, recruits, Riding to Mexico) is shared.
    """

    score_label = gettext_noop("XP")
    score_word = gettext_noop("XP")  # the score in running text ("no XP this encounter")
    earned_label = gettext_noop("advances")
    title = gettext_noop("Campaign champions")
    #: the book calls a gang's members "outlaws" (Rivals) rather than members
    members_are_outlaws = False
    #: shown instead of the house-rules fields when the game has its own rules (Rivals)
    no_house_rules: str | None = None
    #: a sentence added to the death-roll house rule's note, when the game has one
    death_roll_note: str | None = None
    #: the happening kinds an encounter record may hold, with their labels
    happening_kinds: dict[str, str] = {
        "out": gettext_noop("Took out"),
        "left": gettext_noop("Left the table early"),
    }
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
        "limit": gettext_noop(
            "The most a gang may cost when it joins (empty: the game's usual limit)."
        ),
        "win_xp": gettext_noop("Experience for every member of the winning gang."),
        "left_xp": gettext_noop(
            "Experience (usually 0 or less) for a member who left the table early."
        ),
        "per_advance": gettext_noop("Experience needed for each advance."),
        "purse_per_game": gettext_noop(
            "Dollars each gang gets after every game, to spend between games."
        ),
        "death_roll": gettext_noop("Roll the Rivals death roll for every member taken out."),
    }
    uses_location = False
    injury_stats: tuple[str, ...] = ()
    #: finding codes about building a gang that mean nothing once it is in a campaign
    campaign_ignores: frozenset[str] = frozenset()
    #: the member data key that marks the gang's leader, if the game has one to move
    leader_key: str | None = None
    #: a gang replaces its dead before its next encounter (Rivals: "Recruiting")
    full_strength = False

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
            first = punctuate(";").join(f.message for f in report.errors[:3])
            more = len(report.errors) - 3
            if more > 0:
                message = ngettext(
                    "This gang breaks the rules, so it can't join yet: {problems} (and {count} "
                    "more problem). Fix it in the builder, then join.",
                    "This gang breaks the rules, so it can't join yet: {problems} (and {count} "
                    "more problems). Fix it in the builder, then join.",
                    more,
                ).format(problems=first, count=more)
            else:
                message = _(
                    "This gang breaks the rules, so it can't join yet: {problems}. "
                    "Fix it in the builder, then join."
                ).format(problems=first)
            raise CampaignError(message, "gang")
        if not report.members:
            raise CampaignError(_("This gang has no members yet."), "gang")

    def start(self, member: MemberState, rules: Mapping[str, Any]) -> None:
        """Set a member's starting campaign values when it joins."""

    def member_data(self, member: MemberState) -> dict[str, Any]:
        """The member's data as its system reads it, with what the campaign changed."""
        return copy.deepcopy(member.data)

    def member_summary(self, member: MemberState) -> str:
        return f"{_(self.score_label)} {member.score}"

    # -- experience
    def victory_points(self, state: CampaignState, victim: MemberState) -> int:
        """What taking out ``victim`` is worth to the member who did it."""
        return 1

    def gain_reason(self, victim: MemberState, amount: int) -> str:
        return _("Took out {name} ({amount} XP)").format(name=victim.name, amount=amount)

    def earns(self, member: MemberState) -> bool:
        """Whether a member gains experience at all (Gunfight's troopers don't)."""
        return True

    def advances_for(self, member: MemberState, old_best: int, new_best: int, rules) -> int:
        """How many thresholds the member's best score passes going from ``old_best`` to
        ``new_best`` (what they would earn with nothing to cap them)."""
        per = max(1, as_int(rules.get("per_advance")) or 5)
        return new_best // per - max(0, old_best) // per

    def advance_room(self, member: MemberState) -> int | None:
        """How many more advances the member could still take, beyond those it has saved
        (``None``: nothing caps them, as Rivals' CCP). A game with no advances of its own
        (the generic progression) has nothing to spend them on: none."""
        return 0

    def no_room_note(self, member: MemberState) -> str:
        """What the log adds when a threshold passed earns nothing: the member has no room
        left ("" to say nothing)."""
        return ""

    def earn(
        self, member: MemberState, old_best: int, new_best: int, rules: Mapping[str, Any]
    ) -> tuple[int, str]:
        """What the member earns as its best score goes from ``old_best`` to ``new_best``:
        how many advances, and a note for the log when a threshold passed earns nothing.

        Only what the member can still spend is credited (a gf26 Hero gains no more
        promotions); a threshold passed without room never grants later (RULES.md)."""
        passed = self.advances_for(member, old_best, new_best, rules)
        if passed <= 0:
            return 0, ""
        room = self.advance_room(member)
        if room is None or passed <= room:
            return passed, ""
        return max(0, room), self.no_room_note(member)

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
        raise CampaignError(_("This game has no advances to take."))

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        return ""

    # -- encounters
    has_showdown = False
    decline_penalty = 0
    no_gain_reason = gettext_noop("gains no experience")

    def notoriety(self, score: int) -> tuple[str, int]:
        return ("", 0)

    def roll_location(self, dice: Dice) -> dict[str, Any]:
        raise CampaignError(_("This game has no encounter locations to roll."))

    def death_result(self, roll: int) -> dict[str, Any]:
        """The house rule's death roll (``rules/data/house_rules.json``: the Rivals book's
        table, borrowed): 1-3 Dead, 4-5 Badly wounded, 6 Playing dead."""
        return death_entry(HOUSE_RULES["death_table"], roll)

    def rolls_death(self, member: MemberState) -> bool:
        return True

    def check_happenings(
        self, state: CampaignState, enc: EncounterState, raw: list[Any]
    ) -> list[dict[str, Any]]:
        """The record's list of what happened, checked; each entry names members by ref."""
        check = Happenings(state, enc)
        out = []
        for i, h in enumerate(raw, start=1):
            kind = as_str(h.get("kind")) if isinstance(h, Mapping) else ""
            if kind not in self.happening_kinds:
                allowed = ", ".join(_(k) for k in self.happening_kinds.values())
                raise CampaignError(
                    _("Line {number}: choose what happened ({kinds}).").format(
                        number=i, kinds=allowed
                    ),
                    f"line-{i}",
                )
            out.append(getattr(self, f"_check_{kind}")(check, i, h))
        return out

    def _check_out(self, check: Happenings, i: int, h: Mapping) -> dict[str, Any]:
        to = check.victim(i, h.get("to"))
        by = check.attacker(i, h.get("by"), to, optional=True)
        check.down.add(to.ref)
        return {"kind": "out", "by": by.ref if by else "", "to": to.ref}

    def _check_left(self, check: Happenings, i: int, h: Mapping) -> dict[str, Any]:
        who = check.member(i, h.get("who") or h.get("by"), gettext_noop("who"))
        if who.ref in check.down or who.ref in check.left:
            raise CampaignError(
                _("Line {number}: {name} was already off the table.").format(
                    number=i, name=who.name
                ),
                f"line-{i}",
            )
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
            elif h["kind"] == "left" and min(0, as_int(rules.get("left_xp")) or 0):
                # "0 or less" (docs/campaigns.md): the form refuses more; old data is read so
                penalty = min(0, as_int(rules["left_xp"]) or 0)
                awards.append(Award(h["who"], _("Left the table early"), penalty))
        awards += self.win_awards(state, enc, as_int(rules.get("win_xp")) or 0)
        return awards

    def win_awards(self, state: CampaignState, enc: EncounterState, each: int) -> list[Award]:
        if not enc.winner or not each:
            return []
        gang = state.gangs[enc.winner]
        reason = _("Won the encounter")
        return [Award(m.ref, reason, each) for m in gang.alive]

    def who_rolls(self, state: CampaignState, enc: EncounterState) -> list[str]:
        if not state.rules.get("death_roll", True):
            return []
        refs = [h["to"] for h in enc.happenings if h["kind"] in ("out", "kill")]
        return [r for r in dict.fromkeys(refs) if self.rolls_death(state.member(r))]

    def after_award(self, state: CampaignState, enc: EncounterState) -> None:
        """What else the record changes once it stands (Rivals: loot changes hands)."""

    def is_leader(self, data: Mapping[str, Any]) -> bool:
        return self.leader_key is not None and data.get(self.leader_key) is True

    def check_recruit(
        self, state: CampaignState, replaced: MemberState, data: dict[str, Any]
    ) -> str:
        """Refuse a recruit the rules don't allow; clean ``data`` in place. Returns what the
        log should add ("" for nothing).

        One leader: while the leader lives, a recruit marked as a leader (as the first
        member of a new builder gang is) joins as an ordinary member where the leader is
        a flag; where it is a member type (bwg1's Leader, built differently), he is
        refused."""
        gang = state.gangs[replaced.gang]
        leader = next((m for m in gang.alive if self.is_leader(m.data)), None)
        note = ""
        if leader is not None and self.is_leader(data):
            if self.leader_key is None:
                raise CampaignError(
                    _(
                        "{name} leads {gang}, and a gang has one leader: pick a recruit who is "
                        "not a Leader."
                    ).format(name=leader.name, gang=gang.name),
                    "recruit",
                )
            data[self.leader_key] = False
            note = _("not as a leader: {name} leads the gang").format(name=leader.name)
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
            raise CampaignError(
                _("The recruit breaks the rules: {problem}").format(problem=errors[0]), "recruit"
            )
        cost = member_cost(self.system_id, data)
        label = get_system(self.system_id).total_label
        if cost > replaced.original_cost:
            raise CampaignError(
                _(
                    "The recruit costs {cost} {total}; {name} was made with {original}. Build a "
                    "recruit of at most {original} {total}."
                ).format(
                    cost=cost, total=label, name=replaced.name, original=replaced.original_cost
                ),
                "recruit",
            )
        return note

    # -- purchases
    def prepare_purchase(self, state: CampaignState, data: dict[str, Any]) -> dict[str, Any]:
        gang = state.gang(data.get("gang"))
        item = as_str(data.get("item"))[:80]
        if not item:
            raise CampaignError(_("Say what the gang buys."), "item")
        price = whole_number(data.get("price"), _("The price"), "price", low=0, high=10_000)
        if price > gang.purse:
            raise CampaignError(
                _("{gang} has ${purse}; {item} costs ${price}.").format(
                    gang=gang.name, purse=gang.purse, item=item, price=price
                ),
                "price",
            )
        holder = as_str(data.get("member"))
        if holder:
            m = state.member(holder)
            if m.gang != gang.id or not m.alive:
                raise CampaignError(_("Choose a surviving member of this gang."), "member")
        return {"gang": gang.id, "member": holder, "item": item, "price": price}

    def apply_purchase(self, state: CampaignState, data: Mapping[str, Any]) -> str:
        gang = state.gangs[data["gang"]]
        gang.purse -= data["price"]
        who = state.member(data["member"]).name if data.get("member") else ""
        gang.gear.append((who, data["item"], data["price"]))
        if who:
            state.member(data["member"]).notes.append(
                _("Bought {item} (${price}).").format(item=data["item"], price=data["price"])
            )
            return _("{gang} bought {item} for {name} for ${price}.").format(
                gang=gang.name, item=data["item"], name=who, price=data["price"]
            )
        return _("{gang} bought {item} for ${price}.").format(
            gang=gang.name, item=data["item"], price=data["price"]
        )


class XPProgression(Progression):
    """Rivals-style progression for a game without campaign rules of its own."""


class Happenings:
    """Checks the lines of an encounter record in order: who is still standing."""

    def __init__(self, state: CampaignState, enc: EncounterState):
        self.state, self.enc = state, enc
        self.down: set[str] = set()
        self.left: set[str] = set()
        self.actions_left: dict[str, int] = {}  # Rivals: actions each victim has left

    def member(self, i: int, value: Any, what: str) -> MemberState:
        try:
            m = self.state.member(value, what)
        except CampaignError:
            raise CampaignError(
                _("Line {number}: choose {what}.").format(number=i, what=_(what)), f"line-{i}"
            ) from None
        if m.gang not in self.enc.gangs or not m.alive:
            raise CampaignError(
                _("Line {number}: {name} is not in this encounter.").format(number=i, name=m.name),
                f"line-{i}",
            ) from None
        return m

    def victim(self, i: int, value: Any) -> MemberState:
        m = self.member(i, value, gettext_noop("who was hit"))
        if m.ref in self.down:
            raise CampaignError(
                _("Line {number}: {name} was already down.").format(number=i, name=m.name),
                f"line-{i}",
            )
        if m.ref in self.left:
            raise CampaignError(
                _("Line {number}: {name} had left the board.").format(number=i, name=m.name),
                f"line-{i}",
            )
        return m

    def attacker(
        self, i: int, value: Any, victim: MemberState, *, optional: bool = False
    ) -> MemberState | None:
        if optional and not as_str(value):
            return None
        m = self.member(i, value, gettext_noop("who did it"))
        if m.gang == victim.gang:
            raise CampaignError(
                _(
                    "Line {number}: only an outlaw of another gang earns by it; {name} and "
                    "{victim} ride together."
                ).format(number=i, name=m.name, victim=victim.name),
                f"line-{i}",
            )
        if m.ref in self.down or m.ref in self.left:
            raise CampaignError(
                _("Line {number}: {name} was out of the fight by then.").format(
                    number=i, name=m.name
                ),
                f"line-{i}",
            )
        return m
