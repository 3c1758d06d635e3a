"""Gangfight Core Rules 2.6: points-costed profiles with troop types and perks (seed 001).

A roster is the roster file's shape (``rules.roster``); a member's ``data`` is::

    {
        "profile": {                      # the model as bought, by value
            "name": "Human Veteran",
            "troop_type": "veteran",      # regular | veteran | hero
            "size": "medium",             # small | medium | large | huge
            "mov": 4, "att": 3, "mrk": 3, "def": 4, "iv": 3,
            "wp": 3, "arm": 4, "en": 4, "dam": 4,   # as printed, before perks
            "points": 60,                 # the profile's own cost
            "equipment": [{"name": "Sword", "points": 5, "notes": "hand weapon"}],
            "setting": "chronicle"        # optional, informative
        },
        "perks": ["fast", "true_grit"],   # core perk ids (names are accepted too)
        "leader": false,                  # the Party Leader (a Hero)
        "unit": "Shield Wall",            # optional: models with the same unit act together
        "unit_leader": false,             # optional: who leads the unit (else its highest rank)
        "equipment": []                   # optional: bought on top of the profile's own kit
    }

A member costs its profile's points plus the points of its equipment (the profile's and its
own; the seed gives perks no cost). The stat line is printed after the six stat perks (Fast
+1 MOV, Natural Born Killer +1 ATT, Marksman +1 MRK, Lightning Reflexes +1 IV, Stubborn +1
WP, True Grit +1 EN); Hard Target and Artful Dodger only apply against ranged attacks / Free
Strikes and are printed as notes, never on the base DEF. Large and In Charge makes the model
one size larger (Huge stays Huge) and causes Fear (TN 4).

Decisions (also on the rules page): fewer perks than the troop type brings is a warning
(the perks are granted, taking fewer gives no advantage); a unit is led by the model flagged
``unit_leader`` or else by its highest-ranked model, whatever the ranks in it (the book sets
no rank rule for units: Hero > Veteran > Regular is for Banding Actions); a unit of one is a
warning.

The roster's ``gang`` part may name the ``setting`` (chronicle | aeon | first_strike |
mixed). The seed gives no points costs: profiles are content users enter; the shipped
profiles are invented samples.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import i18n
from rules.base import Finding, Report, RuleDoc, Severity, as_int, load_content
from rules.base import as_str as _str
from rules.base import member_keys as _member_keys
from rules.dice import Dice
from rules.printing import (
    Card,
    Entry,
    Section,
    Stat,
    Track,
    Weapon,
    dedupe_entries,
    play_notes,
)

ERROR = Severity.ERROR
WARNING = Severity.WARNING

SEED = "001_9a9f6354e78230fb.txt"
#: this game's data: its book's content (and, for bwg1, the French book's words)
DATA = Path(__file__).parent / "data"
CONTENT: dict[str, Any] = load_content(DATA / "content.json")

ATTRIBUTES: tuple[str, ...] = tuple(a["id"] for a in CONTENT["attributes"])
ATTRIBUTE_LABELS: dict[str, str] = {a["id"]: a["label"] for a in CONTENT["attributes"]}
PERKS: dict[str, dict[str, Any]] = {p["id"]: p for p in CONTENT["perks"]}
SIZES: dict[str, dict[str, Any]] = {s["id"]: s for s in CONTENT["sizes"]}
SIZE_ORDER: tuple[str, ...] = tuple(
    s["id"] for s in sorted(SIZES.values(), key=lambda s: s["order"])
)
TROOP_TYPES: dict[str, dict[str, Any]] = {t["id"]: t for t in CONTENT["troop_types"]}
SETTINGS: dict[str, dict[str, Any]] = {s["id"]: s for s in CONTENT["settings"]}
PROFILES: dict[str, dict[str, Any]] = {p["id"]: p for p in CONTENT["profiles"]}
PLAY_RULES: dict[str, dict[str, Any]] = {r["id"]: r for r in CONTENT["play_rules"]}
EQUIPMENT_RULES: tuple[dict[str, Any], ...] = tuple(CONTENT["equipment_rules"])

PICKUP_LIMIT = CONTENT["limits"]["pickup"]  # 1000: pickup and tournament games
CAMPAIGN_LIMIT = CONTENT["limits"]["campaign"]  # 500: to start a campaign
LARGE_AND_IN_CHARGE = "large_and_in_charge"
FEAR_TN = PERKS[LARGE_AND_IN_CHARGE]["fear_tn"]
MIN_TN, MAX_TN = 2, 6  # a TN is never below 2; above 6 dice must be dropped
INITIATIVE_TN = 4

_PERK_NAMES = ", ".join(p["name"] for p in PERKS.values())
_TROOP_NAMES = "Regular, Veteran or Hero"
_SIZE_NAMES = "Small, Medium, Large or Huge"
_TROOP_ALIASES = {"regulars": "regular", "veterans": "veteran", "heroes": "hero"}

P = "seed 001"
RULES: tuple[RuleDoc, ...] = (
    RuleDoc(
        "gf26.points_over_limit",
        ERROR,
        "The party's points (every profile and piece of equipment) are at most the agreed "
        "size: 1000 recommended for pickup and tournament games, 500 to start a campaign.",
        f"{P}, Assembling your Party; Points",
    ),
    RuleDoc(
        "gf26.no_hero",
        ERROR,
        "The party has at least one Hero.",
        f"{P}, Party Leader",
    ),
    RuleDoc(
        "gf26.no_leader",
        ERROR,
        'One Hero is designated the Party Leader (member flag "leader": true).',
        f"{P}, Party Leader; Initiative and Deployment",
    ),
    RuleDoc(
        "gf26.too_many_leaders",
        ERROR,
        "The party has exactly one Party Leader; each extra one is flagged.",
        f"{P}, Party Leader",
        decision="The first model flagged as leader (in roster order) is the Party Leader; "
        "every later one is an error on that model.",
    ),
    RuleDoc(
        "gf26.leader_not_hero",
        ERROR,
        "The Party Leader is a Hero.",
        f"{P}, Party Leader",
    ),
    RuleDoc(
        "gf26.unknown_setting",
        WARNING,
        "The party's setting, if given, is Chronicle, Aeon, First Strike or mixed.",
        f"{P}, A New Kind of Miniature Skirmish",
    ),
    RuleDoc(
        "gf26.unknown_troop_type",
        ERROR,
        "Every model is a Regular, a Veteran or a Hero.",
        f"{P}, Troop Types",
    ),
    RuleDoc(
        "gf26.unknown_size",
        ERROR,
        "Every model is Small, Medium, Large or Huge.",
        f"{P}, Size and Volume",
    ),
    RuleDoc(
        "gf26.too_many_perks",
        ERROR,
        "A Regular has 1 perk, a Veteran 2, a Hero 3: no more.",
        f"{P}, Troop Types",
    ),
    RuleDoc(
        "gf26.too_few_perks",
        ERROR,
        "A Regular takes exactly 1 perk, a Veteran 2, a Hero 3: choose the perks left.",
        f"{P}, Troop Types",
        decision="Fewer perks than the troop type brings is an error, as too many is: the "
        "troop type fixes the count ('exactly 1, 2 and 3 perks'). A draft may lack them; the "
        "builder says how many are left to choose.",
    ),
    RuleDoc(
        "gf26.duplicate_perk",
        ERROR,
        "A perk is taken only once per model (effects never stack).",
        f"{P}, Perks",
    ),
    RuleDoc(
        "gf26.unknown_perk",
        ERROR,
        "Every perk is one of the 23 core perks.",
        f"{P}, Perks",
        decision="The seed mentions setting-exclusive perks but gives none, so only the 23 "
        "core perks are known; any other perk is an error until it is added as content.",
    ),
    RuleDoc(
        "gf26.huge_already",
        WARNING,
        "Large and In Charge can't make a Huge model larger; it still causes Fear (TN 4).",
        f"{P}, Size and Volume (Huge is the largest size); Perks (Large and In Charge)",
        decision="On a Huge model Large and In Charge leaves the size at Huge (the largest "
        "designation) and only causes Fear (TN 4); it is legal, with a warning.",
    ),
    RuleDoc(
        "gf26.attribute_out_of_range",
        ERROR,
        "No attribute is below 0, and Endurance (after perks) is at least 1.",
        f"{P}, Attributes (a model at EN 0 or less is incapacitated)",
    ),
    RuleDoc(
        "gf26.negative_points",
        ERROR,
        "A profile's or a piece of equipment's points cost is 0 or more.",
        f"{P}, Points",
    ),
    RuleDoc(
        "gf26.no_points_cost",
        WARNING,
        "Every model has a points cost: a profile costing 0 points was probably not costed.",
        f"{P}, Points",
    ),
    RuleDoc(
        "gf26.unit_of_one",
        WARNING,
        "A unit has at least two models; a unit of one acts as an individual model.",
        f"{P}, Units; Game Terms (Party)",
        decision="A unit of one is legal but pointless (its AP are its own IV): a warning.",
    ),
    RuleDoc(
        "gf26.too_many_unit_leaders",
        ERROR,
        "A unit has at most one model flagged as its leader.",
        f"{P}, Units (a unit Leader)",
    ),
    RuleDoc(
        "gf26.unit_leader_without_unit",
        WARNING,
        "Only a model in a unit can be its unit leader.",
        f"{P}, Units",
    ),
    RuleDoc(
        "gf26.member_unnamed",
        WARNING,
        "Every model has a name (it goes on the party roster).",
        f"{P}, What you need to Play (a roster)",
    ),
    RuleDoc(
        "gf26.profile_unnamed",
        WARNING,
        "Every profile has a name (it goes on the card and the roster).",
        f"{P}, Model Profiles",
    ),
)
RULE_CODES = frozenset(r.code for r in RULES)
_SEVERITY = {r.code: r.severity for r in RULES}

DECISIONS: tuple[str, ...] = (
    "The seed gives no points costs: profiles (attributes, size, troop type, points) and "
    "equipment (points) are content users enter; the shipped profiles are samples.",
    "A model costs its profile's points plus the points of its equipment (the profile's "
    "own kit and any bought for the model); perks cost nothing (the seed gives them no cost).",
    "Limit presets: 1000 points (pickup and tournament games, the default) and 500 (to start "
    "a campaign); no limit when the roster's limit is null.",
    "The six stat perks are added to the printed stat line; Hard Target (+1 DEF against "
    "ranged attacks) and Artful Dodger (+1 DEF against Free Strikes) are printed as notes, "
    "never on the base DEF.",
    "Large and In Charge: the model's size, threat range, base and wounds per melee hit are "
    "those of the next size up; it causes Fear (TN 4). A Huge model stays Huge.",
    "A unit's Action Points are the lowest IV in it, after Lightning Reflexes; a model in a "
    "unit generates no AP of its own. The party's AP per turn = each unit's AP + the IV of "
    "each model outside a unit.",
    "Unit names are compared ignoring case and surrounding spaces.",
    "A unit is led by the model flagged unit_leader, or else by its highest-ranked model (the "
    "first listed on a tie). The book sets no rank rule for who is in a unit or leads it, so "
    "any model may lead any unit-mates (Hero > Veteran > Regular is for Banding Actions, a "
    "play-time action). Units have no size limit (the four-model limit is for Banding Actions).",
)


# --------------------------------------------------------------------------- parsing


def _int(value: Any, default: int = 0) -> int:
    number = as_int(value)
    return default if number is None else number


def _id(value: Any) -> str:
    """'Large and In Charge' (or 'Large & In Charge') -> 'large_and_in_charge'."""
    text = _str(value).lower().replace("&", " and ")
    return re.sub(r"[^a-z0-9]+", "_", text).strip("_")


def _inches(value: float) -> str:
    return f'{value:g}"'


def _list(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("{items} and {last}").format(items=", ".join(names[:-1]), last=names[-1])


_ = i18n.gettext
ngettext = i18n.ngettext


def _points(n: int) -> str:
    return ngettext("{count} pt", "{count} pts", n).format(count=n)


def _perks(n: int) -> str:
    return ngettext("{count} perk", "{count} perks", n).format(count=n)


@dataclass(frozen=True)
class Equipment:
    name: str
    points: int
    notes: str

    @classmethod
    def from_dict(cls, data: Any) -> Equipment:
        data = data if isinstance(data, Mapping) else {}
        return cls(
            name=_str(data.get("name")) or "Unnamed equipment",
            points=_int(data.get("points")),
            notes=_str(data.get("notes")),
        )


# --------------------------------------------------------------------------- results


@dataclass
class MemberReport:
    key: str
    name: str
    position: int
    profile_name: str
    troop_type_id: str
    troop_type: dict[str, Any] | None
    base_size_id: str
    size: dict[str, Any] | None  # after Large and In Charge
    base_attributes: dict[str, int]
    attributes: dict[str, int]  # after the stat perks
    profile_points: int
    equipment: list[Equipment]
    perk_entries: list[str]  # as given, normalised to ids
    perk_names: list[str]  # as given, for messages
    perks: list[dict[str, Any]]  # the known perks, each once, in order
    leader: bool
    unit: str  # the unit's name as first written, "" for none
    unit_leader: bool
    findings: list[Finding] = field(default_factory=list)
    leads_unit: bool = False
    is_party_leader: bool = False

    @property
    def has_errors(self) -> bool:
        return any(f.is_error for f in self.findings)

    @property
    def cost(self) -> int:
        """Profile points plus equipment points (negative costs count as 0)."""
        return max(0, self.profile_points) + sum(max(0, e.points) for e in self.equipment)

    @property
    def called(self) -> str:
        """How messages and pages name the model: its name, else its place in the party."""
        return self.name or _("unnamed model {position}").format(position=self.position)

    @property
    def perk_labels(self) -> list[str]:
        """The perks as written, each known one by its name ("Fast", not "fast")."""
        return [
            PERKS[pid]["name"] if pid in PERKS else raw
            for pid, raw in zip(self.perk_entries, self.perk_names, strict=True)
        ]

    @property
    def perk_ids(self) -> list[str]:
        return [p["id"] for p in self.perks]

    @property
    def troop_label(self) -> str:
        return self.troop_type["name"] if self.troop_type else (self.troop_type_id or "?")

    @property
    def size_label(self) -> str:
        return self.size["name"] if self.size else (self.base_size_id or "?")

    @property
    def rank(self) -> int:
        return self.troop_type["rank"] if self.troop_type else 0

    @property
    def causes_fear(self) -> int | None:
        return FEAR_TN if LARGE_AND_IN_CHARGE in self.perk_ids else None

    @property
    def summary(self) -> str:
        parts = [self.troop_label]
        if self.profile_name:
            parts.append(self.profile_name)
        parts.append(self.size_label)
        if self.is_party_leader:
            parts.append(_("Party Leader"))
        if self.unit:
            unit = _("Unit {unit} (leader)") if self.leads_unit else _("Unit {unit}")
            parts.append(unit.format(unit=self.unit))
        return " · ".join(parts)

    @property
    def stats(self) -> list[tuple[str, str]]:
        """The nine attributes as printed: after the six stat perks."""
        return [(ATTRIBUTE_LABELS[a], str(self.attributes[a])) for a in ATTRIBUTES]

    @property
    def notes(self) -> list[str]:
        notes: list[str] = []
        if self.size:
            s = self.size
            low, high = s["base_mm"]
            text = ngettext(
                "{size}: {low}-{high} mm base, threat {threat}, {count} wound per melee hit",
                "{size}: {low}-{high} mm base, threat {threat}, {count} wounds per melee hit",
                s["wounds_per_melee_hit"],
            ).format(
                size=s["name"],
                low=low,
                high=high,
                threat=_inches(s["threat_inches"]),
                count=s["wounds_per_melee_hit"],
            )
            if self.base_size_id != s["id"]:
                text += f" ({SIZES[self.base_size_id]['name']} + Large and In Charge)"
            if s["order"] >= SIZES["large"]["order"]:
                text = _("{size_note}; may Slam! or Trample").format(size_note=text)
            notes.append(text)
        if self.causes_fear:
            notes.append(
                _(
                    "Causes Fear (TN {tn}): a model or unit must score a success on a Bravery "
                    "test to Charge! or Fight! it."
                ).format(tn=self.causes_fear)
            )
        for perk in self.perks:
            stat = perk.get("stat")
            situational = perk.get("situational")
            if stat:
                (a, bonus), *_rest = stat.items()
                notes.append(
                    _("{perk}: +{bonus} {attribute} (on the profile above).").format(
                        perk=perk["name"], bonus=bonus, attribute=ATTRIBUTE_LABELS[a]
                    )
                )
            elif situational:
                a, bonus = "def", situational["def"]
                value = self.attributes[a]
                notes.append(
                    _(
                        "{perk}: {attribute} {value} against {against} ({attribute} {usual} "
                        "otherwise)."
                    ).format(
                        perk=perk["name"],
                        attribute=ATTRIBUTE_LABELS[a],
                        value=value + bonus,
                        against=situational["against"],
                        usual=value,
                    )
                )
            else:
                notes.append(_("{term}: {text}").format(term=perk["name"], text=perk["text"]))
        for e in self.equipment:
            note = _("{item} ({points}): {notes}") if e.notes else _("{item} ({points})")
            notes.append(note.format(item=e.name, points=_points(e.points), notes=e.notes))
        if self.troop_type:
            may_lead = [TROOP_TYPES[t]["plural"] for t in self.troop_type["may_lead"]]
            notes.append(_("Banding: may lead {troops}.").format(troops=_list(may_lead)))
        if self.is_party_leader:
            notes.append(
                _(
                    'Party Leader: models within 12" use its WP ({wp}) for Bravery, Fear and '
                    "Rallying; it rolls IV {iv} for initiative."
                ).format(wp=self.attributes["wp"], iv=self.attributes["iv"])
            )
        return notes


@dataclass(frozen=True)
class TestResult:
    """A Standard or Skill Test: dice rolled against a Target Number, criticals re-rolled."""

    purpose: str
    pool: int  # dice rolled, after dropping
    target: int  # the Target Number, after dropping
    dropped: int
    rolls: tuple[int, ...]  # every die, critical extra dice included, in order
    successes: int


# --------------------------------------------------------------------------- schemas

_ATTRIBUTE_SCHEMA = {a: {"type": "integer"} for a in ATTRIBUTES}
EQUIPMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "points"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "points": {"type": "integer"},
        "notes": {"type": "string"},
    },
}
PROFILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "troop_type", "size", *ATTRIBUTES, "points"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "troop_type": {"type": "string", "description": "regular | veteran | hero"},
        "size": {"type": "string", "description": "small | medium | large | huge"},
        **_ATTRIBUTE_SCHEMA,
        "points": {"type": "integer", "description": "the profile's own cost"},
        "equipment": {"type": "array", "items": EQUIPMENT_SCHEMA},
        "setting": {"type": "string", "description": "chronicle | aeon | first_strike"},
        "sample": {"type": "boolean", "description": "invented numbers, not the book's"},
    },
}
MEMBER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["profile", "perks"],
    "additionalProperties": False,
    "properties": {
        "profile": PROFILE_SCHEMA,
        "perks": {
            "type": "array",
            "items": {"type": "string"},
            "description": "core perk ids: Regular 1, Veteran 2, Hero 3",
        },
        "leader": {"type": "boolean", "description": "the Party Leader (a Hero)"},
        "unit": {
            "type": ["string", "null"],
            "description": "models with the same unit name act as a unit",
        },
        "unit_leader": {"type": "boolean", "description": "leads its unit"},
        "equipment": {
            "type": "array",
            "items": EQUIPMENT_SCHEMA,
            "description": "equipment bought for this model on top of the profile's own",
        },
    },
}
GANG_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "setting": {"type": "string", "description": "chronicle | aeon | first_strike | mixed"},
    },
}


# --------------------------------------------------------------------------- dice


def roll_test(dice: Dice, pool: int, target: int, purpose: str, drop: int = 0) -> TestResult:
    """Roll ``pool`` dice against ``target``; each natural 6 adds a die (which may chain).

    A Target Number above 6 forces dice to be dropped (1 die per point); ``drop`` drops
    more by choice. The TN never goes below 2. With no dice left nothing is rolled.
    """
    pool, target = max(0, pool), max(MIN_TN, target)
    drop = min(max(drop, target - MAX_TN, 0), max(0, target - MIN_TN))
    pool, target = pool - drop, target - drop
    if pool < 1 or target > MAX_TN:
        return TestResult(purpose, max(0, pool), target, drop, (), 0)
    rolls: list[int] = []
    pending = pool
    label = purpose
    for _throw in range(100):  # criticals chain; a bound keeps a rigged source from looping
        if pending < 1:
            break
        thrown = dice.roll(pending, 6, label).dice
        rolls.extend(thrown)
        pending = sum(1 for d in thrown if d == 6)
        label = f"{purpose} (critical)"
    successes = sum(1 for d in rolls if d >= target)
    return TestResult(purpose, pool, target, drop, tuple(rolls), successes)


# --------------------------------------------------------------------------- printing

MAX_EN_BOXES = 30  # the most EN boxes a card's track shows; more is bad data


def _equipment_rules(equipment: list[Equipment]) -> list[dict[str, Any]]:
    """The equipment rules one model's kit calls on, by its names and notes: Reload/Fire!
    for a bow, Two hand weapons only for a model carrying two (``min_count``)."""
    found = []
    for rule in EQUIPMENT_RULES:
        matching = [e for e in equipment if _calls_on(rule, e)]
        if len(matching) >= rule.get("min_count", 1):
            found.append(rule)
    return found


def _calls_on(rule: dict[str, Any], e: Equipment) -> bool:
    return re.search(rule["pattern"], f"{e.name} {e.notes}", re.IGNORECASE) is not None


def _equipment_note(e: Equipment) -> str:
    if e.notes:
        return _("{notes} ({points})").format(notes=e.notes, points=_points(e.points))
    return _points(e.points)


def _size_entry(size: dict[str, Any], base_size_id: str = "") -> Entry:
    low, high = size["base_mm"]
    wounds = size["wounds_per_melee_hit"]
    text = ngettext(
        "{low}-{high} mm base, threat range {threat}, {count} wound per hit in melee",
        "{low}-{high} mm base, threat range {threat}, {count} wounds per hit in melee",
        wounds,
    ).format(low=low, high=high, threat=_inches(size["threat_inches"]), count=wounds)
    if base_size_id in SIZES and base_size_id != size["id"]:
        text = _("{size_note} (a {size} model made larger by Large and In Charge)").format(
            size_note=text, size=SIZES[base_size_id]["name"]
        )
    if size["order"] >= SIZES["large"]["order"]:
        text = _(
            "{size_note}; may Slam! a model its size or larger, or Trample smaller ones"
        ).format(size_note=text)
    return Entry(size["name"], text + ".")


def _mark(m: MemberReport) -> str:
    """The Party Leader a star, a Large or Huge model a claw, a shooter a gun sight,
    else by troop type: a Hero a diamond, a Veteran a hat, anything else a plain disc."""
    if m.is_party_leader:
        return "star"
    if m.size and m.size["order"] >= SIZES["large"]["order"]:
        return "claw"
    if m.attributes["mrk"] > m.attributes["att"]:
        return "crosshair"
    return {"hero": "diamond", "veteran": "hat"}.get(m.troop_type_id, "circle")


def _situational_notes(m: MemberReport) -> list[str]:
    """Hard Target, Artful Dodger: DEF against some attacks only, in words for the table."""
    notes = []
    for perk in m.perks:
        situational = perk.get("situational")
        if situational:
            value = m.attributes["def"]
            notes.append(
                _(
                    "{perk}: {attribute} {value} against {against} ({attribute} {usual} otherwise)."
                ).format(
                    perk=perk["name"],
                    attribute="DEF",
                    value=value + situational["def"],
                    against=situational["against"],
                    usual=value,
                )
            )
    return notes


def _unit_entry(m: MemberReport, unit: dict[str, Any], by_key: dict[str, MemberReport]) -> Entry:
    others = [by_key[k].called for k in unit["members"] if k != m.key]
    leader = by_key.get(unit["leader"])
    led = _("This model leads it. ") if m.leads_unit else ""
    if leader is not None and not m.leads_unit:
        led = _("Led by {leader}. ").format(leader=leader.called)
    with_whom = (
        _("With {models}. ").format(models=_list(others)) if others else _("Alone in its unit. ")
    )
    points = unit["action_points"]
    has = ngettext(
        "The unit has {count} Action Point a turn (the lowest IV in it); this model generates "
        "none of its own.",
        "The unit has {count} Action Points a turn (the lowest IV in it); this model generates "
        "none of its own.",
        points,
    ).format(count=points)
    return Entry(_("Unit {unit}").format(unit=unit["name"]), with_whom + led + has)


# --------------------------------------------------------------------------- the system


class Gf26:
    id = "gf26"
    name = "Gangfight Core Rules 2.6"
    short_name = "Gangfight 2.6"
    book_languages = ("en",)  # no French edition: its texts stay English, marked so

    @property
    def total_label(self) -> str:
        return _("Points")

    seed = SEED
    rules = RULES
    decisions = DECISIONS
    limit_presets = (CAMPAIGN_LIMIT, PICKUP_LIMIT)
    default_limit = PICKUP_LIMIT
    content_entry_schemas: dict[str, dict[str, Any]] = {
        "profile": PROFILE_SCHEMA,
        "equipment": EQUIPMENT_SCHEMA,
    }
    cap_help = i18n.gettext_noop(
        "Points: each gang may cost at most this many points (500 or 1000 are usual)."
    )
    cap_refused: str | None = None
    limit_help: str | None = None
    limit_optional = False
    suggested_limit = PICKUP_LIMIT
    member_schema = MEMBER_SCHEMA
    gang_schema = GANG_SCHEMA
    content = CONTENT
    attributes = ATTRIBUTES
    attribute_labels = ATTRIBUTE_LABELS
    perks = PERKS
    sizes = SIZES
    troop_types = TROOP_TYPES

    def new_member(
        self, member_type: str = "regular", profile: str | None = None
    ) -> dict[str, Any]:
        """A fresh member's ``data``: a copy of a sample profile, no perks chosen yet.

        ``member_type`` is a troop type (the first sample profile of that type is used) or a
        sample profile's id; ``profile`` names the sample profile outright.
        """
        chosen = PROFILES.get(profile or "") or PROFILES.get(member_type)
        if chosen is None:
            troop = _TROOP_ALIASES.get(_id(member_type), _id(member_type))
            chosen = next(
                (p for p in PROFILES.values() if p["troop_type"] == troop),
                next(iter(PROFILES.values())),
            )
        copied = {k: v for k, v in chosen.items() if k != "id"}
        copied["equipment"] = [dict(e) for e in chosen.get("equipment", [])]
        return {"profile": copied, "perks": [], "leader": False, "unit": ""}

    def type_choices(self) -> list[tuple[str, str]]:
        return [(t["id"], t["name"]) for t in TROOP_TYPES.values()]

    roll_test = staticmethod(roll_test)

    def roll_initiative(self, roster: Mapping[str, Any], dice: Dice) -> TestResult | None:
        """The Party Leader's IV test (TN 4) for deployment; None without a Party Leader."""
        report = self.evaluate(roster)
        leader_key = report.gang["leader"]
        leader = report.members.get(leader_key) if leader_key else None
        if leader is None:
            return None
        return roll_test(dice, leader.attributes["iv"], INITIATIVE_TN, "Initiative (Party Leader)")

    # ----------------------------------------------------------------- evaluation

    def evaluate(self, roster: Mapping[str, Any]) -> Report:
        roster = roster if isinstance(roster, Mapping) else {}
        raw_members = roster.get("members")
        if not isinstance(raw_members, list):
            raw_members = []
        raw_limit = roster.get("limit")
        limit = _int(raw_limit, 0) if isinstance(raw_limit, int | float | str) else 0
        limit = limit if limit > 0 else None
        gang_part = roster.get("gang") if isinstance(roster.get("gang"), Mapping) else {}

        members: list[MemberReport] = []
        raws = [raw if isinstance(raw, Mapping) else {} for raw in raw_members]
        for position, (key, raw) in enumerate(zip(_member_keys(raws), raws, strict=True), start=1):
            data = raw.get("data")
            members.append(
                self._member(
                    key, position, _str(raw.get("name")), data if isinstance(data, Mapping) else raw
                )
            )

        for m in members:
            self._check_member(m)
        units = self._units(members)
        gang_findings = self._check_gang(members, limit, gang_part)

        findings = [*gang_findings]
        for m in members:
            findings.extend(m.findings)

        total = sum(m.cost for m in members)
        leader = next((m for m in members if m.is_party_leader), None)
        counts = {t: sum(1 for m in members if m.troop_type_id == t) for t in TROOP_TYPES}
        in_units = {k for u in units for k in u["members"]}
        action_points = sum(u["action_points"] for u in units) + sum(
            max(0, m.attributes["iv"]) for m in members if m.key not in in_units
        )
        setting = SETTINGS.get(_id(gang_part.get("setting")))
        facts: list[tuple[str, str]] = [
            (
                _("Points"),
                f"{total} / {limit}" if limit else _("{total} (no limit)").format(total=total),
            ),
            (_("Party Leader"), (leader.name or _("(unnamed)")) if leader else _("none")),
            *((TROOP_TYPES[t]["plural"], str(n)) for t, n in counts.items()),
            (_("Action Points per turn"), str(action_points)),
        ]
        if setting:
            facts.insert(0, (_("Setting"), f"{setting['name']} ({setting['genre']})"))
        by_key = {m.key: m for m in members}
        for u in units:
            names = ", ".join(by_key[k].called for k in u["members"])
            facts.append(
                (
                    _("Unit {unit}").format(unit=u["name"]),
                    _("{names}: {points} AP").format(names=names, points=u["action_points"]),
                )
            )
        return Report(
            system=self.id,
            total_label=self.total_label,
            total=total,
            limit=limit,
            findings=findings,
            members=by_key,
            gang={
                "points": total,
                "limit": limit,
                "setting": setting["id"] if setting else None,
                "leader": leader.key if leader else None,
                "leader_name": leader.name if leader else "",
                "counts": counts,
                "units": units,
                "action_points": action_points,
                "member_list": members,
                "facts": facts,
            },
        )

    # ----------------------------------------------------------------- one member

    def _member(self, key: str, position: int, name: str, data: Mapping[str, Any]) -> MemberReport:
        profile = data.get("profile") if isinstance(data.get("profile"), Mapping) else {}
        troop_id = _id(profile.get("troop_type"))
        troop_id = _TROOP_ALIASES.get(troop_id, troop_id)
        size_id = _id(profile.get("size"))
        base = {a: _int(profile.get(a)) for a in ATTRIBUTES}

        raw_perks = data.get("perks") if isinstance(data.get("perks"), list) else []
        entries = [_id(p) if isinstance(p, str) else "" for p in raw_perks]
        perks: list[dict[str, Any]] = []
        for pid in entries:
            if pid in PERKS and PERKS[pid] not in perks:
                perks.append(PERKS[pid])

        attributes = dict(base)
        for perk in perks:
            for a, bonus in perk.get("stat", {}).items():
                attributes[a] += bonus

        size = SIZES.get(size_id)
        if size and any(p["id"] == LARGE_AND_IN_CHARGE for p in perks):
            bigger = min(SIZE_ORDER.index(size_id) + 1, len(SIZE_ORDER) - 1)
            size = SIZES[SIZE_ORDER[bigger]]

        equipment = [
            Equipment.from_dict(e)
            for raw_equipment in (profile.get("equipment"), data.get("equipment"))
            for e in (raw_equipment if isinstance(raw_equipment, list) else [])
        ]
        unit = data.get("unit")
        return MemberReport(
            key=key,
            name=name,
            position=position,
            profile_name=_str(profile.get("name")),
            troop_type_id=troop_id,
            troop_type=TROOP_TYPES.get(troop_id),
            base_size_id=size_id,
            size=size,
            base_attributes=base,
            attributes=attributes,
            profile_points=_int(profile.get("points")),
            equipment=equipment,
            perk_entries=entries,
            perk_names=[p if isinstance(p, str) else repr(p) for p in raw_perks],
            perks=perks,
            leader=data.get("leader") is True,
            unit=" ".join(unit.split()) if isinstance(unit, str) else "",
            unit_leader=data.get("unit_leader") is True,
        )

    def _check_member(self, m: MemberReport) -> None:
        def add(code: str, message: str) -> None:
            m.findings.append(Finding(code, _SEVERITY[code], message, member=m.key))

        if not m.name:
            add(
                "gf26.member_unnamed",
                _("This model has no name: give it one, it goes on the party roster."),
            )
        if not m.profile_name:
            add(
                "gf26.profile_unnamed",
                _(
                    "This model's profile has no name: name it (e.g. 'Human Veteran'), it goes "
                    "on the card and the roster."
                ),
            )

        if m.troop_type is None:
            if m.troop_type_id:
                message = _("'{value}' is not a troop type: choose {troops}.")
            else:
                message = _("No troop type is not a troop type: choose {troops}.")
            add(
                "gf26.unknown_troop_type",
                message.format(value=m.troop_type_id, troops=_TROOP_NAMES),
            )
        if m.size is None:
            if m.base_size_id:
                message = _("'{value}' is not a size: choose {sizes}.")
            else:
                message = _("No size is not a size: choose {sizes}.")
            add("gf26.unknown_size", message.format(value=m.base_size_id, sizes=_SIZE_NAMES))

        # perks: unknown, twice, how many
        seen: dict[str, int] = {}
        shown_as: dict[str, str] = {}
        for entry, raw in zip(m.perk_entries, m.perk_names, strict=True):
            seen[entry] = seen.get(entry, 0) + 1
            shown_as.setdefault(entry, raw)
        for entry in seen:
            if entry not in PERKS:
                if entry:
                    message = _("'{value}' is not a core perk: replace it with one of {perks}.")
                else:
                    message = _("A blank perk is not a core perk: replace it with one of {perks}.")
                add(
                    "gf26.unknown_perk",
                    message.format(value=shown_as[entry], perks=_PERK_NAMES),
                )
        for entry, times in seen.items():
            if entry in PERKS and times > 1:
                perk = PERKS[entry]["name"]
                add(
                    "gf26.duplicate_perk",
                    ngettext(
                        "{perk} is taken {times} times; a perk may be taken only once per model "
                        "(effects never stack): replace {count} extra {perk} with a different "
                        "perk.",
                        "{perk} is taken {times} times; a perk may be taken only once per model "
                        "(effects never stack): replace {count} extra {perk}s with a different "
                        "perk.",
                        times - 1,
                    ).format(perk=perk, times=times, count=times - 1),
                )
        if m.troop_type is not None:
            allowed = m.troop_type["perks"]
            taken = len(m.perk_entries)
            label = m.troop_type["name"]
            if taken > allowed:
                add(
                    "gf26.too_many_perks",
                    _(
                        "A {troop} has exactly {allowed} but this model has {taken} ({perks}): "
                        "remove {extra}."
                    ).format(
                        troop=label,
                        allowed=_perks(allowed),
                        taken=taken,
                        perks=", ".join(m.perk_labels),
                        extra=_perks(taken - allowed),
                    ),
                )
            elif taken < allowed:
                add(
                    "gf26.too_few_perks",
                    _(
                        "A {troop} comes with {allowed} but this model has {taken}: choose {more}."
                    ).format(
                        troop=label,
                        allowed=_perks(allowed),
                        taken=taken,
                        more=ngettext(
                            "{count} more perk", "{count} more perks", allowed - taken
                        ).format(count=allowed - taken),
                    ),
                )

        if m.size is not None and m.base_size_id == "huge" and m.causes_fear:
            add(
                "gf26.huge_already",
                _(
                    "Large and In Charge can't make a Huge model any larger (Huge is the "
                    "largest size); it only makes it cause Fear (TN {tn}). Keep it for the Fear, "
                    "or choose another perk."
                ).format(tn=FEAR_TN),
            )

        for a in ATTRIBUTES:
            label = ATTRIBUTE_LABELS[a]
            if m.base_attributes[a] < 0:
                add(
                    "gf26.attribute_out_of_range",
                    _(
                        "{attribute} is {value} on the profile: an attribute can't be negative: "
                        "set {attribute} to 0 or more."
                    ).format(attribute=label, value=m.base_attributes[a]),
                )
        if m.base_attributes["en"] >= 0 and m.attributes["en"] < 1:
            add(
                "gf26.attribute_out_of_range",
                _(
                    "EN is {value}: a model at 0 Endurance is incapacitated before the game "
                    "starts: set EN to 1 or more."
                ).format(value=m.attributes["en"]),
            )

        if m.profile_points < 0:
            add(
                "gf26.negative_points",
                _(
                    "The profile costs {points} points: a cost can't be negative: set it to 0 or "
                    "more."
                ).format(points=m.profile_points),
            )
        for e in m.equipment:
            if e.points < 0:
                add(
                    "gf26.negative_points",
                    _(
                        "{item} costs {points} points: a cost can't be negative: set it to 0 or "
                        "more."
                    ).format(item=e.name, points=e.points),
                )
        if m.profile_points == 0:
            add(
                "gf26.no_points_cost",
                _(
                    "The profile costs 0 points: every model has a points cost: enter what the "
                    "profile costs."
                ),
            )

        if m.unit_leader and not m.unit:
            add(
                "gf26.unit_leader_without_unit",
                _(
                    "This model is marked as a unit leader but is in no unit: put it in a unit "
                    "or clear its unit-leader flag."
                ),
            )

    # ----------------------------------------------------------------- units

    def _units(self, members: list[MemberReport]) -> list[dict[str, Any]]:
        groups: dict[str, list[MemberReport]] = {}
        for m in members:
            if m.unit:
                groups.setdefault(m.unit.casefold(), []).append(m)
        units: list[dict[str, Any]] = []
        for group in groups.values():
            name = group[0].unit
            flagged = [m for m in group if m.unit_leader]
            for extra in flagged[1:]:
                extra.findings.append(
                    Finding(
                        "gf26.too_many_unit_leaders",
                        _SEVERITY["gf26.too_many_unit_leaders"],
                        _(
                            "Unit {unit} already has a leader ({leader}): clear this model's "
                            "unit-leader flag."
                        ).format(unit=name, leader=flagged[0].called),
                        member=extra.key,
                    )
                )
            # "Units" (seed 001) sets no rank rule for who leads a unit: any model may, even
            # a Regular with Veterans (the rank rule is for Banding Actions, a play action).
            top = max(m.rank for m in group)
            leader = flagged[0] if flagged else next(m for m in group if m.rank == top)
            leader.leads_unit = True
            if len(group) == 1:
                group[0].findings.append(
                    Finding(
                        "gf26.unit_of_one",
                        _SEVERITY["gf26.unit_of_one"],
                        _(
                            "Unit {unit} has only this model, so it acts as an individual model: "
                            "add models to the unit or clear its unit."
                        ).format(unit=name),
                        member=group[0].key,
                    )
                )
            units.append(
                {
                    "name": name,
                    "members": [m.key for m in group],
                    "leader": leader.key,
                    "action_points": max(0, min(m.attributes["iv"] for m in group)),
                }
            )
        return units

    # ----------------------------------------------------------------- the party

    def _check_gang(
        self, members: list[MemberReport], limit: int | None, gang_part: Mapping[str, Any]
    ) -> list[Finding]:
        found: list[Finding] = []

        def add(code: str, message: str, member: str | None = None) -> None:
            finding = Finding(code, _SEVERITY[code], message, member=member)
            if member is None:
                found.append(finding)
            else:
                next(m for m in members if m.key == member).findings.append(finding)

        setting = gang_part.get("setting")
        if setting not in (None, "") and _id(setting) not in SETTINGS:
            add(
                "gf26.unknown_setting",
                _(
                    "'{value}' is not a setting: choose Chronicle, Aeon, First Strike or mixed, "
                    "or leave it empty."
                ).format(value=setting),
            )

        total = sum(m.cost for m in members)
        if limit is not None and total > limit:
            add(
                "gf26.points_over_limit",
                ngettext(
                    "The party costs {total} points, {over} over the {limit}-point limit: drop "
                    "models or equipment worth {over} point, or raise the limit to {total}.",
                    "The party costs {total} points, {over} over the {limit}-point limit: drop "
                    "models or equipment worth {over} points, or raise the limit to {total}.",
                    total - limit,
                ).format(total=total, over=total - limit, limit=limit),
            )

        heroes = [m for m in members if m.troop_type_id == "hero"]
        if not heroes:
            add(
                "gf26.no_hero",
                _("The party has no Hero: add a Hero, to be the Party Leader."),
            )

        flagged = [m for m in members if m.leader]
        if not flagged:
            who = _list([h.called for h in heroes])
            if who:
                message = _(
                    "No model is the Party Leader: mark one Hero ({heroes}) as the Party Leader."
                )
            else:
                message = _("No model is the Party Leader: mark one Hero as the Party Leader.")
            add("gf26.no_leader", message.format(heroes=who))
        else:
            flagged[0].is_party_leader = True
        for extra in flagged[1:]:
            add(
                "gf26.too_many_leaders",
                _(
                    "{name} is a second Party Leader; a party has exactly one ({leader}): clear "
                    "this model's leader flag."
                ).format(
                    name=extra.name or i18n.pgettext("the subject of a sentence", "This model"),
                    leader=flagged[0].called,
                ),
                member=extra.key,
            )
        for m in flagged:
            if m.troop_type is not None and m.troop_type_id != "hero":
                add(
                    "gf26.leader_not_hero",
                    _(
                        "The Party Leader must be a Hero but this model is a {troop}: mark a "
                        "Hero as the Party Leader instead."
                    ).format(troop=m.troop_label),
                    member=m.key,
                )
        return found

    # ----------------------------------------------------------------- printing

    def print_cards(self, roster: Mapping[str, Any], report: Report) -> list[Card]:
        """One card per model, in roster order: profile, EN boxes, kit, perks in full."""
        gang_name = _str(roster.get("name")) if isinstance(roster, Mapping) else ""
        members: list[MemberReport] = report.gang.get("member_list") or []
        by_key = {m.key: m for m in members}
        units = {k: u for u in report.gang.get("units", []) for k in u["members"]}
        return [self._card(m, gang_name, units.get(m.key), by_key, report) for m in members]

    def _card(
        self,
        m: MemberReport,
        gang_name: str,
        unit: dict[str, Any] | None,
        by_key: dict[str, MemberReport],
        report: Report,
    ) -> Card:
        a = m.attributes
        kind = [
            m.troop_type["name"] if m.troop_type else "",
            m.profile_name,
            m.size["name"] if m.size else "",
        ]
        if m.is_party_leader:
            kind.insert(0, _("Party Leader"))
        en = max(0, a["en"])
        boxes = min(en, MAX_EN_BOXES)
        en_note = _("one box per wound; at 0 the model is incapacitated")
        if en > boxes:
            en_note = _("EN {en}: only {boxes} boxes shown").format(en=en, boxes=boxes)

        facts = [Stat(_("Points"), str(m.cost))]
        if m.size:
            facts.append(Stat(_("Threat"), _inches(m.size["threat_inches"])))
        if m.causes_fear:
            facts.append(Stat(_("Fear"), f"TN {m.causes_fear}"))
        if unit:
            facts.append(Stat(_("Unit"), unit["name"]))

        vital: list[Entry] = []
        if m.is_party_leader:
            title = (
                _("Party Leader of {party}").format(party=gang_name)
                if gang_name
                else _("Party Leader")
            )
            vital.append(
                Entry(
                    title,
                    _(
                        'Models within 12" use its WP ({wp}) for Bravery, Fear and Rallying. '
                        "Rolls its IV ({iv} dice, TN {tn}) for initiative."
                    ).format(wp=a["wp"], iv=a["iv"], tn=INITIATIVE_TN),
                )
            )
        if m.troop_type:
            may_lead = _list([TROOP_TYPES[t]["plural"] for t in m.troop_type["may_lead"]])
            vital.append(
                Entry(
                    m.troop_type["name"],
                    _("Leads {troops} in Banding Actions.").format(troops=may_lead),
                )
            )
        if m.size and (m.size["id"] != m.base_size_id or m.size["wounds_per_melee_hit"] > 1):
            vital.append(_size_entry(m.size, m.base_size_id))
        if m.causes_fear:
            vital.append(
                Entry(
                    _("Causes Fear (TN {tn})").format(tn=m.causes_fear),
                    _(
                        "A model or unit must score a success on a Bravery test to Charge! or "
                        "Fight! it."
                    ),
                )
            )
        if unit:
            vital.append(_unit_entry(m, unit, by_key))

        sections = [Section(_("Vital info"), tuple(vital))]
        if m.perks:
            sections.append(Section.of(_("Perks"), [(p["name"], p["text"]) for p in m.perks]))
        traits = _equipment_rules(m.equipment)
        if traits:
            sections.append(
                Section.of(_("Weapon traits"), [(r["term"], r["text"]) for r in traits])
            )

        return Card(
            key=m.key,
            name=m.name or _("(no name)"),
            kind=" · ".join(k for k in kind if k) or _("No profile"),
            mark=_mark(m),
            stats=[Stat(ATTRIBUTE_LABELS[k], str(a[k])) for k in ATTRIBUTES],
            tracks=[Track("EN", boxes, en_note)],
            facts=facts,
            weapons=[
                Weapon(
                    e.name,
                    traits=tuple(r["term"] for r in traits if _calls_on(r, e)),
                    note=_equipment_note(e),
                )
                for e in m.equipment
            ],
            sections=sections,
            play_notes=_situational_notes(m) + play_notes(report.findings_for(m.key)),
        )

    def print_sheet(self, roster: Mapping[str, Any], report: Report) -> dict[str, Any]:
        """The party roster's figures: points, the Party Leader, troop counts, units, AP,
        one row per model (stat line after perks, perks, kit, points) and the perks' text."""
        gang = report.gang
        members: list[MemberReport] = gang.get("member_list") or []
        by_key = {m.key: m for m in members}
        setting = SETTINGS.get(gang.get("setting") or "")
        limit = report.limit
        rows = []
        for m in members:
            perks = [p["name"] for p in m.perks]
            written = zip(m.perk_names, m.perk_entries, strict=True)
            perks += [name for name, pid in written if pid not in PERKS]
            rows.append(
                {
                    "key": m.key,
                    "position": m.position,
                    "name": m.name or _("(no name)"),
                    "profile": m.profile_name,
                    "troop": m.troop_label,
                    "size": m.size_label,
                    "stats": [
                        {
                            "label": ATTRIBUTE_LABELS[k],
                            "value": m.attributes[k],
                            "raised": m.attributes[k] != m.base_attributes[k],
                        }
                        for k in ATTRIBUTES
                    ],
                    "perks": perks,
                    "equipment": [f"{e.name} ({e.points})" for e in m.equipment],
                    "points": m.cost,
                    "leader": m.is_party_leader,
                    "unit": m.unit,
                    "leads_unit": m.leads_unit,
                    "errors": sum(1 for f in m.findings if f.is_error),
                    "warnings": sum(1 for f in m.findings if not f.is_error),
                }
            )
        return {
            "setting": f"{setting['name']} ({setting['genre']})" if setting else "",
            "points": report.total,
            "limit": limit,
            "left": None if limit is None else limit - report.total,
            "over": limit is not None and report.total > limit,
            "over_by": 0 if limit is None else max(0, report.total - limit),
            "leader": gang.get("leader_name") or "",
            "troops": [
                {"label": t["plural"], "count": gang.get("counts", {}).get(t["id"], 0)}
                for t in TROOP_TYPES.values()
            ],
            "action_points": gang.get("action_points", 0),
            "units": [
                {
                    "name": u["name"],
                    "leader": by_key[u["leader"]].called,
                    "members": [by_key[k].called for k in u["members"]],
                    "models": len(u["members"]),
                    "action_points": u["action_points"],
                }
                for u in gang.get("units", [])
            ],
            "stat_labels": [ATTRIBUTE_LABELS[k] for k in ATTRIBUTES],
            "rows": rows,
            "perks": dedupe_entries(Entry(p["name"], p["text"]) for m in members for p in m.perks),
            "legal": report.is_legal,
        }

    def quick_reference(self, roster: Mapping[str, Any], report: Report) -> list[Section]:
        """The rules this party plays by: tests, AP, units, banding, its Leader, its sizes,
        its perks, its equipment's rules and its equipment; nothing it doesn't use."""
        members: list[MemberReport] = report.gang.get("member_list") or []
        used = ["tests", "action_points", "endurance"]
        if report.gang.get("units"):
            used.append("units")
        used.append("banding")
        if report.gang.get("leader"):
            used.append("party_leader")
        if any(m.causes_fear for m in members):
            used.append("fear")
        play = [Entry(PLAY_RULES[r]["term"], PLAY_RULES[r]["text"]) for r in used]
        profile = [Entry(f"{a['label']} ({a['name']})", a["text"]) for a in CONTENT["attributes"]]
        sizes = [
            _size_entry(SIZES[s])
            for s in SIZE_ORDER
            if any(m.size and m.size["id"] == s for m in members)
        ]
        perks = [Entry(p["name"], p["text"]) for m in members for p in m.perks]
        traits = [
            Entry(r["term"], r["text"]) for m in members for r in _equipment_rules(m.equipment)
        ]
        kit = [Entry(e.name, _equipment_note(e)) for m in members for e in m.equipment]
        sections = [
            Section(_("Playing the party"), dedupe_entries(play)),
            Section(_("Profile"), tuple(profile)),
            Section(_("Sizes"), dedupe_entries(sizes)),
            Section(_("Perks"), dedupe_entries(perks)),
            Section(_("Weapon traits"), dedupe_entries(traits)),
            Section(_("Equipment"), dedupe_entries(kit)),
        ]
        return [s for s in sections if s.entries]


SYSTEM = Gf26()
