"""Blackwater Gulch 2nd edition: gangs built from printed Character Cards (seed 000).

A roster is the roster file's shape (see ``rules/roster.py``)::

    {
      "format": "gangfight-roster", "version": 1, "system": "bwg2",
      "name": "The Tranquility Crew",
      "limit": 700,                       # Fame limit, or null for none
      "gang": {},                         # nothing at gang level: the Leader fixes the faction
      "members": [{"key": "1", "name": "Nathan", "data": {...}}]
    }

A member's ``data`` carries its whole card, by value::

    {
      "card": {
        "name": "Captain Nathan Reinholdt",
        "faction": "outlaws",             # lawmen | outlaws | beasts | cursed
        "level": "hero",                  # hero | henchman | minion (ignored for artillery)
        "size": "standard",               # standard | large | massive | giant ("" = standard)
        "one_per_gang": true,             # optional; default true for Heroes and Henchmen
        "artillery": false,               # artillery is not a character
        "sample": true,                   # optional: numbers not from the book
        "notes": "...",                   # optional
        "hp": 4, "dp": 3, "xp": 150, "str": 3, "spd": 5,
        "sta": 4, "int": 3, "rc": 4, "mc": 3,   # as printed, before size bonuses
        "equipment": [                    # printed on the card: always equipped
          {"name": "Hand Cannon", "range": 10, "str": 4, "level": null,
           "traits": ["Pistol", "1-Handed"], "weightless": false, "unique": false,
           "consumable": false}
        ],
        "vital_info": "Mortal Hero, Leader of the Tranquility Crew",
        "faction_rule": {"name": "Dirty Fighters", "text": "..."},
        "skills": [{"name": "Tosser", "text": "...", "opens_factions": []}]
      },
      "leader": true,                     # exactly one member, a Hero
      "team": null,                       # minion team name, or null / "" for none
      "extras": [                         # consumables and thrown weapons bought before the game
        {"name": "Snake Oil", "cost": 10, "level": 1, "traits": ["Consumable"],
         "weightless": false, "unique": false, "consumable": true}
      ]
    }

``opens_factions`` on a skill lists the factions (ids) the gang may recruit from, beyond the
Leader's, while that card is in the gang ("switch sides"), whoever carries it. Whether an
item is Weightless, Unique or Consumable is its flag OR its trait of that name; a Thrown
weapon is a consumable too. A member's cost (its share of Fame) is the card's XP + the size
surcharge + the cost of its extras; artillery pays no surcharge.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules import i18n
from rules.base import Finding, Report, RuleDoc, Severity, load_content
from rules.base import as_int as _int
from rules.base import as_str as _str
from rules.base import member_keys as _member_keys
from rules.dice import Dice
from rules.printing import Card, Entry, Section, Stat, Track, Weapon, dedupe_entries, play_notes

_ = i18n.gettext
ngettext = i18n.ngettext

ERROR = Severity.ERROR
WARNING = Severity.WARNING

SEED = "000_863c21c7d229bf40.txt"
#: this game's data: its book's content (and, for bwg1, the French book's words)
DATA = Path(__file__).parent / "data"
CONTENT: dict[str, Any] = load_content(DATA / "content.json")

ATTRIBUTES: tuple[str, ...] = tuple(a["id"] for a in CONTENT["attributes"])
ATTRIBUTE_LABELS: dict[str, str] = {a["id"]: a["label"] for a in CONTENT["attributes"]}
FACTIONS: dict[str, dict[str, Any]] = {f["id"]: f for f in CONTENT["factions"]}
LEVELS: dict[str, dict[str, Any]] = {lv["id"]: lv for lv in CONTENT["levels"]}
SIZES: dict[str, dict[str, Any]] = {s["id"]: s for s in CONTENT["sizes"]}
TRAITS: dict[str, dict[str, Any]] = {t["id"]: t for t in CONTENT["traits"]}
LEADER_VP: int = CONTENT["leader_victory_points"]
ARTILLERY_VP: int = CONTENT["artillery_victory_points"]
STARTER_FAME, STANDARD_FAME = (p["fame"] for p in CONTENT["fame_presets"])
FAME_PER_EXTRA_HERO = 400
FAME_PER_OBJECTIVE = 200
DEFAULT_SIZE = "standard"

_FACTION_LIST = ", ".join(f["name"] for f in FACTIONS.values())
_LEVEL_LIST = ", ".join(lv["name"] for lv in LEVELS.values())
_SIZE_LIST = ", ".join(s["name"] for s in SIZES.values())


def heroes_allowed(fame: int) -> int:
    """One Hero, plus one more per full 400 Fame (RULES.md Decision)."""
    return 1 + max(0, fame) // FAME_PER_EXTRA_HERO


def objectives(*fames: int) -> int:
    """Objectives on the board: floor(Fame / 200) for each gang, summed (RULES.md)."""
    return sum(max(0, f) // FAME_PER_OBJECTIVE for f in fames)


def board_size(models: int) -> str:
    """The suggested board for the larger side's model count (seed 000, The Game Board)."""
    if models > 10:
        return "4' x 4'"
    if models < 5:
        return _("2' x 2' (or 3' x 3')")
    return "3' x 3'"


def roll_off(dice: Dice, purpose: str = "roll-off") -> tuple[int, int]:
    """Both players roll 1D6, re-rolling ties (set-up, initiative). Every throw is logged."""
    while True:
        first = dice.d6(f"{purpose}: first player")
        second = dice.d6(f"{purpose}: second player")
        if first != second:
            return first, second


def roll_d3(dice: Dice, purpose: str) -> int:
    """A D3 from a D6: 1-2 → 1, 3-4 → 2, 5-6 → 3 (seed 000, A Fistful of Dice)."""
    return (dice.d6(purpose) + 1) // 2


_S = "seed 000"
RULES: tuple[RuleDoc, ...] = (
    RuleDoc(
        "bwg2.no_hero",
        ERROR,
        "A gang includes at least one Hero.",
        f"{_S}, p. 18 (Character Levels: Heroes)",
    ),
    RuleDoc(
        "bwg2.no_leader",
        ERROR,
        'One member is the gang\'s Leader ("leader": true).',
        f"{_S}, p. 18 (Heroes: specify one Hero as your gang's leader)",
    ),
    RuleDoc(
        "bwg2.too_many_leaders",
        ERROR,
        "A gang has exactly one Leader; each extra Leader is flagged.",
        f"{_S}, p. 18 (Heroes)",
    ),
    RuleDoc(
        "bwg2.leader_not_hero",
        ERROR,
        "The Leader is a Hero.",
        f"{_S}, p. 16 (Forming your Gangs); p. 18 (Heroes)",
    ),
    RuleDoc(
        "bwg2.too_many_heroes",
        ERROR,
        "At most 1 + floor(Fame limit / 400) Heroes (with no limit: the gang's own Fame).",
        f"{_S}, p. 18 (Heroes: one additional Hero for every 400 Fame)",
        decision="Max Heroes = 1 + floor(Fame limit / 400): 700 Fame → 2 Heroes, 800 → 3 "
        "(RULES.md). With no limit, the gang's own Fame is used.",
    ),
    RuleDoc(
        "bwg2.fame_over_limit",
        ERROR,
        "Fame (card XP + size surcharges + extras + artillery) is at most the agreed limit.",
        f"{_S}, p. 17 (Character Cards); p. 40 (Artillery); p. 43 (Thrown)",
    ),
    RuleDoc(
        "bwg2.unknown_faction",
        ERROR,
        f"A card's faction (and any faction a skill opens) is one of: {_FACTION_LIST}.",
        f"{_S}, p. 16 (Forming your Gangs)",
    ),
    RuleDoc(
        "bwg2.unknown_level",
        ERROR,
        f"A character's level is one of: {_LEVEL_LIST} (artillery has none).",
        f"{_S}, p. 18 (Character Levels)",
    ),
    RuleDoc(
        "bwg2.unknown_size",
        ERROR,
        f"A model's size is one of: {_SIZE_LIST} (empty means Standard).",
        f"{_S}, p. 18 (Model Sizes)",
    ),
    RuleDoc(
        "bwg2.wrong_faction",
        ERROR,
        "Every recruit shares the Leader's faction, unless a card in the gang has a skill "
        "that opens the recruit's faction.",
        f"{_S}, p. 16 (Forming your Gangs: switch sides)",
    ),
    RuleDoc(
        "bwg2.bad_attribute",
        ERROR,
        "A card prints all nine attributes as whole numbers, 0 or more.",
        f"{_S}, p. 16 (Character Attributes)",
    ),
    RuleDoc(
        "bwg2.too_many_items",
        ERROR,
        "A character equips at most Str items (after the size bonus); Weightless items are "
        "free; items printed on the card are always equipped.",
        f"{_S}, p. 25 (Loot); p. 43 (Weightless)",
    ),
    RuleDoc(
        "bwg2.item_level_too_high",
        ERROR,
        "Minions equip items up to level 2, Henchmen up to level 4, Heroes any level.",
        f"{_S}, p. 25 (Loot)",
    ),
    RuleDoc(
        "bwg2.duplicate_unique",
        ERROR,
        "A gang never has two of the same Unique item.",
        f"{_S}, p. 43 (Unique)",
    ),
    RuleDoc(
        "bwg2.extra_not_consumable",
        ERROR,
        "Only Consumable items and Thrown weapons are added to characters before the game.",
        f"{_S}, p. 41 (Consumable); p. 43 (Thrown)",
    ),
    RuleDoc(
        "bwg2.extra_cost_missing",
        WARNING,
        "An item added before the game has a Fame cost (it counts toward Fame).",
        f"{_S}, p. 43 (Thrown: as long as your Fame limit will allow)",
    ),
    RuleDoc(
        "bwg2.artillery_extras",
        ERROR,
        "Artillery is not a character: consumables and thrown weapons go to characters.",
        f"{_S}, p. 18 (Massive); p. 41 (Consumable: assigned to characters)",
    ),
    RuleDoc(
        "bwg2.team_not_minion",
        ERROR,
        "Only Minions form minion teams.",
        f"{_S}, p. 33 (Minion Teams)",
    ),
    RuleDoc(
        "bwg2.team_mismatch",
        ERROR,
        "All minions in a team are the same type: same attributes, size and skills.",
        f"{_S}, p. 33 (Minion Teams)",
    ),
    RuleDoc(
        "bwg2.team_of_one",
        WARNING,
        "A minion team has two or more minions (a lone minion fights alone).",
        f"{_S}, p. 33 (Minion Teams: a team of two or more)",
    ),
    RuleDoc(
        "bwg2.duplicate_character",
        ERROR,
        "A card marked one-per-gang (Heroes and Henchmen by default) is in the gang once.",
        f"{_S}, p. 17 (Character Cards)",
        decision="The book is silent on duplicates. Heroes and Henchmen are named people, so "
        "a card may be marked one per gang, the default for Heroes and Henchmen; Minions "
        "default to any number. A second copy of a one-per-gang card is an error (RULES.md).",
    ),
    RuleDoc(
        "bwg2.unknown_trait",
        WARNING,
        "An item's traits are the book's weapon traits (so the card can print their rules).",
        f"{_S}, pp. 40-43 (Special Rules)",
    ),
    RuleDoc(
        "bwg2.card_unnamed",
        WARNING,
        "A card has a name (it is printed, and duplicates are found by name).",
        f"{_S}, p. 17 (Character Cards)",
    ),
)
RULE_CODES = frozenset(r.code for r in RULES)
_SEVERITY = {r.code: r.severity for r in RULES}


# --------------------------------------------------------------------------- parsing


def _text(value: Any) -> str:
    """A display string for a number or a string ("" for anything else)."""
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, int | str):
        return str(value).strip()
    return ""


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


@lru_cache(maxsize=4096)
def _norm(text: str) -> str:
    return re.sub(r"[\s_]+", " ", text.strip().lower())


@lru_cache(maxsize=4096)
def _trait_id(name: str) -> str:
    """'Long Reach' → 'long-reach', 'DOT (Fire)' → 'dot'."""
    base = name.split("(", 1)[0]
    return re.sub(r"[\s_]+", "-", base.strip().lower())


def _lookup(table: Mapping[str, Mapping[str, Any]], value: str) -> str | None:
    """The id of a faction / level / size given its id, name or plural, any case."""
    wanted = _norm(value)
    if not wanted:
        return None
    for key, entry in table.items():
        names = {key, _norm(entry.get("name", "")), _norm(entry.get("plural", ""))}
        names |= {_norm(a) for a in entry.get("aliases", ())}
        if wanted in names - {""}:
            return key
    return None


@dataclass(frozen=True)
class Item:
    """One piece of equipment: printed on the card, or an extra added before the game."""

    name: str
    range: str
    str: str
    level: int | None
    traits: tuple[str, ...]
    weightless: bool
    unique: bool
    consumable: bool
    on_card: bool
    cost: int = 0
    cost_given: bool = False
    text: str = ""

    @classmethod
    def from_dict(cls, data: Any, *, on_card: bool) -> Item:
        data = data if isinstance(data, Mapping) else {}
        traits = tuple(t.strip() for t in _list(data.get("traits")) if isinstance(t, str))
        ids = {_trait_id(t) for t in traits}
        raw_cost = _int(data.get("cost"))
        level = _int(data.get("level"))
        return cls(
            name=_str(data.get("name")) or "Unnamed item",
            range=_text(data.get("range")),
            str=_text(data.get("str")),
            level=level if level is not None and level >= 0 else None,
            traits=tuple(t for t in traits if t),
            weightless=data.get("weightless") is True or "weightless" in ids,
            unique=data.get("unique") is True or "unique" in ids,
            consumable=data.get("consumable") is True or bool({"consumable", "thrown"} & ids),
            on_card=on_card,
            cost=max(0, raw_cost or 0),
            cost_given=raw_cost is not None and raw_cost > 0,
            text=_str(data.get("text")),
        )

    @property
    def label(self) -> str:
        inside = _item_stats(self)
        return f"{self.name} ({inside})" if inside else self.name


@dataclass(frozen=True)
class Skill:
    name: str
    text: str
    opens: tuple[str, ...]  # raw values as written


# --------------------------------------------------------------------------- results


@dataclass
class MemberReport:
    key: str
    name: str
    position: int
    card_name: str
    faction_id: str | None
    faction_raw: str
    level_id: str | None
    level_raw: str
    size_id: str | None
    size_raw: str
    artillery: bool
    one_per_gang: bool
    leader: bool
    team: str
    card: dict[str, int]  # the nine attributes as printed (bad values read as 0)
    bad_attributes: list[str]
    equipment: list[Item]
    extras: list[Item]
    skills: list[Skill]
    vital_info: str
    faction_rule: tuple[str, str]
    sample: bool
    is_leader: bool = False  # the gang's designated Leader (the first flagged)
    #: How findings name this member to a player: its name (else its card's), and its
    #: place in the roster when another member goes by the same name. Set by ``evaluate``.
    who: str = ""
    findings: list[Finding] = field(default_factory=list)

    # -- derived numbers

    @property
    def size(self) -> dict[str, Any]:
        return SIZES[self.size_id or DEFAULT_SIZE]

    @property
    def size_applies(self) -> bool:
        return not self.artillery

    def _bonus(self, what: str) -> int:
        return self.size[what] if self.size_applies else 0

    @property
    def surcharge(self) -> int:
        return self._bonus("xp")

    @property
    def extras_cost(self) -> int:
        return sum(x.cost for x in self.extras)

    @property
    def cost(self) -> int:
        """What this member adds to the gang's Fame."""
        return max(0, self.card["xp"]) + self.surcharge + self.extras_cost

    @property
    def attributes(self) -> dict[str, int]:
        """The attributes in play: the card plus the size bonuses (XP with the surcharge)."""
        values = dict(self.card)
        values["hp"] += self._bonus("hp")
        values["str"] += self._bonus("str")
        values["xp"] = max(0, values["xp"]) + self.surcharge
        return values

    @property
    def is_hero(self) -> bool:
        return not self.artillery and self.level_id == "hero"

    @property
    def is_minion(self) -> bool:
        return not self.artillery and self.level_id == "minion"

    @property
    def max_item_level(self) -> int | None:
        if self.artillery or self.level_id is None:
            return None
        return LEVELS[self.level_id]["max_item_level"]

    @property
    def victory_points(self) -> int:
        if self.artillery:
            return ARTILLERY_VP
        if self.is_leader:
            base = LEADER_VP
        elif self.level_id:
            base = LEVELS[self.level_id]["victory_points"]
        else:
            base = 0
        return base + self._bonus("victory_points")

    @property
    def items(self) -> list[Item]:
        return [*self.equipment, *self.extras]

    @property
    def weighty_items(self) -> list[Item]:
        return [i for i in self.items if not i.weightless]

    @property
    def level_label(self) -> str:
        if self.artillery:
            return "Artillery"
        if self.level_id:
            return LEVELS[self.level_id]["name"]
        return self.level_raw or "?"

    @property
    def faction_label(self) -> str:
        if self.faction_id:
            return FACTIONS[self.faction_id]["name"]
        return self.faction_raw or "?"

    # -- what every system's member report offers

    @property
    def summary(self) -> str:
        parts = []
        if self.is_leader:
            parts.append(_("Gang Leader"))
        parts += [self.level_label, self.faction_label]
        if not self.artillery:
            parts.append(self.size["name"] if self.size_id else self.size_raw or "?")
        if self.team:
            parts.append(_("Team {team}").format(team=self.team))
        return " · ".join(parts)

    @property
    def stats(self) -> list[tuple[str, str]]:
        values = self.attributes
        return [(ATTRIBUTE_LABELS[a], str(values[a])) for a in ATTRIBUTES]

    @property
    def notes(self) -> list[str]:
        notes = []
        if self.card_name and self.card_name != self.name:
            notes.append(_("Card: {card}").format(card=self.card_name))
        if self.vital_info:
            notes.append(_("Vital info: {text}").format(text=self.vital_info))
        notes.extend(_("Equipment: {item}").format(item=i.label) for i in self.equipment)
        notes.extend(
            _("Added before the game: {item}, {cost} Fame").format(item=i.label, cost=i.cost)
            for i in self.extras
        )
        rule_name, rule_text = self.faction_rule
        if rule_name or rule_text:
            rule = _("Faction rule — {name}: {text}").format(name=rule_name, text=rule_text)
            notes.append(rule.rstrip(": \u00a0"))
        for s in self.skills:
            notes.append(_("{term}: {text}").format(term=s.name, text=s.text) if s.text else s.name)
        seen: set[str] = set()
        for item in self.items:
            for t in item.traits:
                tid = _trait_id(t)
                if tid in TRAITS and tid not in seen:
                    seen.add(tid)
                    notes.append(
                        _("{term}: {text}").format(
                            term=TRAITS[tid]["name"], text=TRAITS[tid]["text"]
                        )
                    )
        if self.size_applies and self.size_id and self.size_id != DEFAULT_SIZE:
            s = self.size
            notes.append(
                _(
                    "{size} ({base} base): +{hp} HP, +{str} Str, +{xp} XP, +{vp} Victory Points"
                ).format(
                    size=s["name"],
                    base=s["base"],
                    hp=s["hp"],
                    str=s["str"],
                    xp=s["xp"],
                    vp=s["victory_points"],
                )
            )
        if self.artillery:
            notes.append(_("Artillery: not a character; no size bonus or surcharge."))
        notes.append(_("Victory Points: {points}").format(points=self.victory_points))
        if self.sample:
            notes.append(_("Sample card: some numbers are not from the book."))
        return notes

    @property
    def has_errors(self) -> bool:
        return any(f.is_error for f in self.findings)

    def add(self, code: str, message: str) -> None:
        self.findings.append(Finding(code, _SEVERITY[code], message, member=self.key))


# --------------------------------------------------------------------------- schemas

_NUMBER_OR_TEXT = {"type": ["integer", "string", "null"]}
ITEM_PROPERTIES: dict[str, Any] = {
    "name": {"type": "string"},
    "range": {**_NUMBER_OR_TEXT, "description": 'inches, "M" (= Strength) or empty'},
    "str": {**_NUMBER_OR_TEXT, "description": 'Strength of the attack, a number or "M"'},
    "level": {"type": ["integer", "null"], "description": "item level, null if not printed"},
    "traits": {"type": "array", "items": {"type": "string"}},
    "weightless": {"type": "boolean"},
    "unique": {"type": "boolean"},
    "consumable": {"type": "boolean"},
    "text": {"type": "string", "description": "rules text of a special item"},
    "sample": {"type": "boolean"},
}
EQUIPMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": ITEM_PROPERTIES,
}
EXTRA_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "cost"],
    "additionalProperties": False,
    "properties": {**ITEM_PROPERTIES, "cost": {"type": "integer", "description": "Fame"}},
}
SKILL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "text": {"type": "string"},
        "opens_factions": {
            "type": "array",
            "items": {"type": "string"},
            "description": "factions (ids) this skill lets the gang recruit from",
        },
    },
}
CARD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "faction", "level", *ATTRIBUTES],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "faction": {"type": "string", "description": "lawmen | outlaws | beasts | cursed"},
        "level": {"type": "string", "description": "hero | henchman | minion"},
        "size": {"type": "string", "description": "standard | large | massive | giant"},
        "one_per_gang": {
            "type": ["boolean", "null"],
            "description": "default: true for Heroes and Henchmen, false for Minions",
        },
        "artillery": {"type": "boolean"},
        "sample": {"type": "boolean"},
        "notes": {"type": "string"},
        **{a: {"type": "integer"} for a in ATTRIBUTES},
        "equipment": {"type": "array", "items": EQUIPMENT_SCHEMA},
        "vital_info": {"type": "string"},
        "faction_rule": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "text": {"type": "string"}},
        },
        "skills": {"type": "array", "items": SKILL_SCHEMA},
    },
}
MEMBER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["card"],
    "additionalProperties": False,
    "properties": {
        "card": CARD_SCHEMA,
        "leader": {"type": "boolean"},
        "team": {"type": ["string", "null"], "description": "minion team name"},
        "extras": {"type": "array", "items": EXTRA_SCHEMA},
    },
}
GANG_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
}


# --------------------------------------------------------------------------- the system


def _items(n: int) -> str:
    return ngettext("{count} item", "{count} items", n).format(count=n)


def _an(word: str) -> bool:
    """Whether English says "an" before ``word`` (the messages say "a" or "an")."""
    return word[:1].lower() in "aeiou"


def _ordinal(n: int) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd" (in French "1er", "2e")."""
    if i18n.language() == "fr":
        return "1er" if n == 1 else f"{n}e"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _name_members(members: list[MemberReport]) -> None:
    """Give each member the words a player knows it by: "Slim", or "Slim (2nd)" (its place
    in the roster) when two members go by the same name. Never the roster file's key."""
    names = [_display_name(m) for m in members]
    counts: dict[str, int] = {}
    for name in names:
        counts[_norm(name)] = counts.get(_norm(name), 0) + 1
    for m, name in zip(members, names, strict=True):
        m.who = f"{name} ({_ordinal(m.position)})" if counts[_norm(name)] > 1 else name


def _who(m: MemberReport) -> str:
    return m.who or _display_name(m)


# --------------------------------------------------------------------------- printing helpers

# The card's mark (top right of its front) stands for the book's faction icon.
FACTION_MARKS: dict[str, str] = {
    "lawmen": "badge",
    "outlaws": "skull",
    "beasts": "claw",
    "cursed": "diamond",
}
# A Life Meter longer than this is cut short (a card has room for about two rows of boxes).
MAX_LIFE_BOXES = 30
# Member findings that only concern building the gang (its Fame, a missing name): they go
# on the gang sheet but not on the card, whose notes are for the table.
NOT_FOR_THE_TABLE = frozenset({"bwg2.card_unnamed", "bwg2.extra_cost_missing"})
CONSUMABLE_TEXT: dict[str, str] = {
    _norm(c["name"]): c.get("text", "") for c in CONTENT["consumables"] if c.get("name")
}


def _item_text(item: Item) -> str:
    """An item's own rules text; an extra without one gets the shipped consumable's text."""
    if item.text or item.on_card:
        return item.text
    return CONSUMABLE_TEXT.get(_norm(item.name), "")


def _trait_entries(items: list[Item]) -> list[Entry]:
    """What each (known) trait on these items means, each trait once, in first-seen order."""
    entries: list[Entry] = []
    seen: set[str] = set()
    for item in items:
        for t in item.traits:
            tid = _trait_id(t)
            if tid in TRAITS and tid not in seen:
                seen.add(tid)
                entries.append(Entry(TRAITS[tid]["name"], TRAITS[tid]["text"]))
    return entries


def _size_entry(m: MemberReport, *, on_card: bool = False) -> Entry | None:
    """A model size's bonuses (none for Standard or artillery)."""
    if not m.size_applies or not m.size_id or m.size_id == DEFAULT_SIZE:
        return None
    s = m.size
    bonuses = [f"+{s[k]} {label}" for k, label in (("hp", "HP"), ("str", "Str"), ("xp", "XP"))]
    bonuses.append(_("+{points} Victory Points").format(points=s["victory_points"]))
    text = ", ".join(b for b in bonuses if not b.startswith("+0 "))
    if on_card:
        text = _("{bonuses}: already in the numbers on the front").format(bonuses=text)
    return Entry(_("{size} ({base} base)").format(size=s["name"], base=s["base"]), text + ".")


def _vp_reason(m: MemberReport) -> str:
    """Why a model is worth its Victory Points: "Gang Leader 5 + Large 1"."""
    if m.artillery:
        return _("Artillery {points}").format(points=ARTILLERY_VP)
    if m.is_leader:
        why = _("Gang Leader {points}").format(points=LEADER_VP)
    elif m.level_id:
        why = f"{LEVELS[m.level_id]['name']} {LEVELS[m.level_id]['victory_points']}"
    else:
        why = _("No level 0")
    bonus = m._bonus("victory_points")
    return f"{why} + {m.size['name']} {bonus}" if bonus else why


def _item_stats(item: Item) -> str:
    bits = [
        _("range {range}").format(range=item.range) if item.range else "",
        f"Str {item.str}" if item.str else "",
    ]
    bits.append(_("level {level}").format(level=item.level) if item.level is not None else "")
    head = ", ".join(b for b in bits if b)
    return i18n.punctuate(";").join(x for x in (head, ", ".join(item.traits)) if x)


def _display_name(m: MemberReport) -> str:
    return m.name or m.card_name or _("Unnamed")


class Bwg2:
    id = "bwg2"
    name = "Blackwater Gulch 2nd edition"
    short_name = "Blackwater Gulch 2"
    book_languages = ("en",)  # no French edition: its texts stay English, marked so

    @property
    def total_label(self) -> str:
        return _("Fame")

    seed = SEED
    rules = RULES
    content = CONTENT
    limit_presets = (STARTER_FAME, STANDARD_FAME)
    default_limit = STANDARD_FAME
    content_entry_schemas: dict[str, dict[str, Any]] = {"card": CARD_SCHEMA, "extra": EXTRA_SCHEMA}
    cap_help = i18n.gettext_noop(
        "Fame: each gang's members may cost at most this much Fame (325 or 700 are usual)."
    )
    cap_refused: str | None = None
    limit_help: str | None = None
    limit_optional = False
    member_schema = MEMBER_SCHEMA
    gang_schema = GANG_SCHEMA
    decisions = (
        "With no Fame limit, the Heroes allowed are 1 + floor(the gang's own Fame / 400).",
        "Artillery is not a character: no level, no size bonus or surcharge, never a Hero or "
        "Leader, not in minion teams, no item limits; its XP counts toward Fame. It is worth "
        "0 Victory Points: the book awards them by character level, which artillery lacks.",
        "Card attributes are printed before size bonuses; HP, Str and XP shown on the sheet "
        "include them (RULES.md: bonuses are added on top of the card).",
        "Every item, printed or added before the game, takes one point of Strength unless "
        "Weightless (the book names special ammunition as Weightless).",
        "Item level limits apply to printed items too; an item without a level is not checked.",
        "A skill's opens_factions lets the gang recruit those factions whoever carries the "
        "card, Leader or follower. With no valid Leader the faction is not checked.",
        "Objectives: floor(Fame / 200) for each gang, summed (two 700-Fame gangs → 6, the "
        "book's example); shown for this gang on the sheet.",
        "Minions in a team must share the card's nine attributes, size and skill names.",
        "Duplicate cards and Unique items are matched by name, ignoring case and spacing.",
        "The Leader is worth 5 Victory Points (+ size); other members by level: Minion 1, "
        "Henchman 2, Hero 3.",
        "Consumable costs are not in the book: the shipped consumables are samples, and "
        "Captain Reinholdt's attribute numbers are samples.",
    )
    # Extras travel inside each member's data (no catalogue category for them yet).
    item_slots: dict[str, tuple[str, bool]] = {}

    # ----------------------------------------------------------------- new members

    def new_member(
        self, member_type: str = "henchman", card: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """A fresh member's ``data``: the given card, Reinholdt for a Hero, else a blank card."""
        if isinstance(card, Mapping):
            return {"card": json.loads(json.dumps(dict(card))), "leader": False, "extras": []}
        level = _lookup(LEVELS, _str(member_type)) or "henchman"
        if level == "hero":
            return {
                "card": json.loads(json.dumps(CONTENT["cards"][0])),
                "leader": False,
                "extras": [],
            }
        blank = {
            "name": f"New {LEVELS[level]['name']}",
            "faction": "outlaws",
            "level": level,
            "size": DEFAULT_SIZE,
            "artillery": False,
            "hp": 1,
            "dp": 1,
            "xp": 0,
            "str": 1,
            "spd": 4,
            "sta": 2,
            "int": 1,
            "rc": 1,
            "mc": 1,
            "equipment": [],
            "vital_info": "",
            "faction_rule": {"name": "", "text": ""},
            "skills": [],
        }
        return {"card": blank, "leader": False, "extras": []}

    # ----------------------------------------------------------------- evaluation

    def evaluate(self, roster: Mapping[str, Any]) -> Report:
        roster = roster if isinstance(roster, Mapping) else {}
        raw_members = _list(roster.get("members"))
        limit = _int(roster.get("limit"))
        limit = limit if limit is not None and limit > 0 else None

        raws = [raw if isinstance(raw, Mapping) else {} for raw in raw_members]
        members = [
            self._member(key, position, raw)
            for position, (key, raw) in enumerate(
                zip(_member_keys(raws), raws, strict=True), start=1
            )
        ]

        _name_members(members)
        leaders = [m for m in members if m.leader]
        leader = leaders[0] if leaders else None
        if leader:
            leader.is_leader = True

        fame = sum(m.cost for m in members)
        allowed = heroes_allowed(limit if limit is not None else fame)
        opened = self._opened_factions(members)
        gang_faction = leader.faction_id if leader else None
        allowed_factions = ({gang_faction} | opened) if gang_faction else set()

        for m in members:
            self._check_member(m)
        gang_findings = self._check_gang(members, leaders, limit, fame, allowed)
        self._check_factions(members, leader, allowed_factions, opened)
        self._check_duplicates(members)
        teams = self._check_teams(members)

        findings = list(gang_findings)
        for m in members:
            findings.extend(m.findings)

        heroes = sum(1 for m in members if m.is_hero)
        vps = {m.key: m.victory_points for m in members}
        faction_label = FACTIONS[gang_faction]["name"] if gang_faction else _("none")
        leader_label = _who(leader) if leader else _("none")
        limit_label = _("no limit") if limit is None else str(limit)
        return Report(
            system=self.id,
            total_label=self.total_label,
            total=fame,
            limit=limit,
            findings=findings,
            members={m.key: m for m in members},
            gang={
                "fame": fame,
                "limit": limit,
                "leader": leader.key if leader else None,
                "faction": gang_faction,
                "opened_factions": sorted(opened),
                "heroes": heroes,
                "heroes_allowed": allowed,
                "objectives": objectives(fame),
                "victory_points": vps,
                "victory_points_total": sum(vps.values()),
                "teams": teams,
                "models": len(members),
                "board": board_size(len(members)),
                "member_list": members,
                "facts": [
                    (_("Fame"), f"{fame} ({limit_label})"),
                    (_("Faction"), faction_label),
                    (_("Leader"), leader_label),
                    (_("Heroes"), str(heroes)),
                    (_("Heroes allowed"), str(allowed)),
                    (_("Objectives brought"), str(objectives(fame))),
                    (_("Victory Points on the table"), str(sum(vps.values()))),
                    (_("Board"), board_size(len(members))),
                    (_("Game length"), _("6 turns")),
                ],
            },
        )

    # ----------------------------------------------------------------- one member

    def _member(self, key: str, position: int, raw: Mapping[str, Any]) -> MemberReport:
        data = raw.get("data")
        data = data if isinstance(data, Mapping) else raw
        card = data.get("card")
        card = card if isinstance(card, Mapping) else {}

        values: dict[str, int] = {}
        bad: list[str] = []
        for a in ATTRIBUTES:
            v = _int(card.get(a))
            if v is None or v < 0:
                bad.append(a)
                v = 0
            values[a] = min(v, 10**6)

        faction_raw = _str(card.get("faction"))
        level_raw = _str(card.get("level"))
        size_raw = _str(card.get("size"))
        level_id = _lookup(LEVELS, level_raw)
        artillery = card.get("artillery") is True
        one = card.get("one_per_gang")
        if not isinstance(one, bool):
            one = bool(level_id and not artillery and LEVELS[level_id]["one_per_gang"])
        rule = card.get("faction_rule")
        rule = rule if isinstance(rule, Mapping) else {}
        skills = []
        for s in _list(card.get("skills")):
            s = s if isinstance(s, Mapping) else {}
            opens = tuple(_str(f) for f in _list(s.get("opens_factions")) if _str(f))
            name = _str(s.get("name")) or _("Unnamed skill")
            skills.append(Skill(name, _str(s.get("text")), opens))
        team = data.get("team")
        return MemberReport(
            key=key,
            name=_str(raw.get("name")),
            position=position,
            card_name=_str(card.get("name")),
            faction_id=_lookup(FACTIONS, faction_raw),
            faction_raw=faction_raw,
            level_id=level_id,
            level_raw=level_raw,
            size_id=_lookup(SIZES, size_raw) if size_raw else DEFAULT_SIZE,
            size_raw=size_raw,
            artillery=artillery,
            one_per_gang=one,
            leader=data.get("leader") is True,
            team=_text(team) if isinstance(team, str | int) else "",
            card=values,
            bad_attributes=bad,
            equipment=[Item.from_dict(e, on_card=True) for e in _list(card.get("equipment"))],
            extras=[Item.from_dict(e, on_card=False) for e in _list(data.get("extras"))],
            skills=skills,
            vital_info=_str(card.get("vital_info")),
            faction_rule=(_str(rule.get("name")), _str(rule.get("text"))),
            sample=card.get("sample") is True,
        )

    def _check_member(self, m: MemberReport) -> None:
        if not m.card_name:
            m.add(
                "bwg2.card_unnamed",
                _(
                    "The card has no name: enter the name printed on it (it goes on the card, "
                    "and copies of a card are found by name)."
                ),
            )
        if m.faction_id is None:
            if m.faction_raw:
                message = _(
                    "'{value}' is not a faction: set the card's faction to one of {factions}."
                )
            else:
                message = _("No faction: set the card's faction to one of {factions}.")
            m.add(
                "bwg2.unknown_faction",
                message.format(value=m.faction_raw, factions=_FACTION_LIST),
            )
        for s in m.skills:
            for f in s.opens:
                if _lookup(FACTIONS, f) is None:
                    m.add(
                        "bwg2.unknown_faction",
                        _(
                            "Skill {skill} opens '{value}', which is not a faction: use one of "
                            "{factions}."
                        ).format(skill=s.name, value=f, factions=_FACTION_LIST),
                    )
        if m.level_id is None and not m.artillery:
            if m.level_raw:
                message = _(
                    "'{value}' is not a level: set the card's level to one of {levels}, or mark "
                    "it artillery."
                )
            else:
                message = _(
                    "No level: set the card's level to one of {levels}, or mark it artillery."
                )
            m.add("bwg2.unknown_level", message.format(value=m.level_raw, levels=_LEVEL_LIST))
        if m.size_id is None:
            m.add(
                "bwg2.unknown_size",
                _(
                    "'{value}' is not a model size: set it to one of {sizes} (by the base: 30 "
                    "mm, 40 mm, 50 mm, larger)."
                ).format(value=m.size_raw, sizes=_SIZE_LIST),
            )
        if m.bad_attributes:
            labels = ", ".join(ATTRIBUTE_LABELS[a] for a in m.bad_attributes)
            m.add(
                "bwg2.bad_attribute",
                ngettext(
                    "{attributes} is missing, negative or not a whole number (read as 0): copy "
                    "the number printed on the card.",
                    "{attributes} are missing, negative or not a whole number (read as 0): "
                    "copy the number printed on the card.",
                    len(m.bad_attributes),
                ).format(attributes=labels),
            )

        for item in m.items:
            for t in item.traits:
                if _trait_id(t) not in TRAITS:
                    names = ", ".join(tr["name"] for tr in TRAITS.values())
                    m.add(
                        "bwg2.unknown_trait",
                        _(
                            "{item}: '{trait}' is not a weapon trait, so no rules text can be "
                            "printed for it: use one of {traits}, or put the rule in the item's "
                            "text."
                        ).format(item=item.name, trait=t, traits=names),
                    )

        for x in m.extras:
            if not x.consumable:
                m.add(
                    "bwg2.extra_not_consumable",
                    _(
                        "{item} is neither Consumable nor a Thrown weapon: only those are added "
                        "before the game. Mark it Consumable if it is one, put it on the card if "
                        "it is printed there, or remove it."
                    ).format(item=x.name),
                )
            if not x.cost_given:
                m.add(
                    "bwg2.extra_cost_missing",
                    _(
                        "{item} has no Fame cost, so it adds nothing to Fame: enter its cost."
                    ).format(item=x.name),
                )

        if m.artillery:
            if m.extras:
                m.add(
                    "bwg2.artillery_extras",
                    ngettext(
                        "Artillery is not a character and can't be given {items}: give it to a "
                        "character instead.",
                        "Artillery is not a character and can't be given {items}: give them to "
                        "a character instead.",
                        len(m.extras),
                    ).format(items=", ".join(x.name for x in m.extras)),
                )
            return

        strength = m.attributes["str"]
        weighty = m.weighty_items
        if len(weighty) > max(0, strength):
            over = len(weighty) - max(0, strength)
            printed = sum(1 for i in weighty if i.on_card)
            bonus = m._bonus("str")
            if printed > strength and bonus:
                message = _(
                    "Has {items} that take Strength but Str {strength} (with +{bonus} for size) "
                    "allows {allowed}: the card's own {printed} already exceed Str: check the "
                    "card's Str and equipment (printed items can't be unequipped)."
                )
            elif printed > strength:
                message = _(
                    "Has {items} that take Strength but Str {strength} allows {allowed}: the "
                    "card's own {printed} already exceed Str: check the card's Str and equipment "
                    "(printed items can't be unequipped)."
                )
            elif bonus:
                message = _(
                    "Has {items} that take Strength but Str {strength} (with +{bonus} for size) "
                    "allows {allowed}: remove {over} added before the game, or use Weightless "
                    "ones."
                )
            else:
                message = _(
                    "Has {items} that take Strength but Str {strength} allows {allowed}: remove "
                    "{over} added before the game, or use Weightless ones."
                )
            m.add(
                "bwg2.too_many_items",
                message.format(
                    items=_items(len(weighty)),
                    strength=strength,
                    bonus=bonus,
                    allowed=max(0, strength),
                    printed=_items(printed),
                    over=_items(over),
                ),
            )

        cap = m.max_item_level
        if cap is not None:
            for item in m.items:
                if item.level is not None and item.level > cap:
                    if item.on_card:
                        message = _(
                            "{item} is level {level} but {levels} may equip items up to level "
                            "{cap} (Heroes any level): the card's printed level or item may be "
                            "wrong: check the card."
                        )
                    else:
                        message = _(
                            "{item} is level {level} but {levels} may equip items up to level "
                            "{cap} (Heroes any level): remove it or give it to a higher-level "
                            "character."
                        )
                    m.add(
                        "bwg2.item_level_too_high",
                        message.format(
                            item=item.name,
                            level=item.level,
                            levels=LEVELS[m.level_id]["plural"],
                            cap=cap,
                        ),
                    )

    # ----------------------------------------------------------------- the gang

    @staticmethod
    def _opened_factions(members: list[MemberReport]) -> set[str]:
        opened: set[str] = set()
        for m in members:
            for s in m.skills:
                for f in s.opens:
                    fid = _lookup(FACTIONS, f)
                    if fid:
                        opened.add(fid)
        return opened

    def _check_gang(
        self,
        members: list[MemberReport],
        leaders: list[MemberReport],
        limit: int | None,
        fame: int,
        allowed: int,
    ) -> list[Finding]:
        found: list[Finding] = []

        def add(code: str, message: str) -> None:
            found.append(Finding(code, _SEVERITY[code], message, member=None))

        heroes = [m for m in members if m.is_hero]
        if not heroes:
            add(
                "bwg2.no_hero",
                _("The gang has no Hero: recruit a Hero to lead it (a gang must include one)."),
            )
        if not leaders:
            if heroes:
                message = _(
                    "No member is the gang's Leader: mark one Hero as Leader, e.g. {name} (your "
                    "opponent must know who)."
                )
            else:
                message = _(
                    "No member is the gang's Leader: recruit a Hero and mark them as Leader "
                    "(your opponent must know who)."
                )
            add("bwg2.no_leader", message.format(name=_who(heroes[0]) if heroes else ""))
        else:
            first = leaders[0]
            for extra in leaders[1:]:
                extra.add(
                    "bwg2.too_many_leaders",
                    _(
                        "A second Leader: the gang has exactly one, {name}; clear this member's "
                        "Leader flag."
                    ).format(name=_who(first)),
                )
            if not first.is_hero:
                an = _an(first.level_label)
                if heroes and an:
                    message = _(
                        "The Leader is an {level}, and the Leader must be a Hero: make a Hero "
                        "the Leader such as {hero}."
                    )
                elif heroes:
                    message = _(
                        "The Leader is a {level}, and the Leader must be a Hero: make a Hero "
                        "the Leader such as {hero}."
                    )
                elif an:
                    message = _(
                        "The Leader is an {level}, and the Leader must be a Hero: make a Hero "
                        "the Leader (recruit one if you have none)."
                    )
                else:
                    message = _(
                        "The Leader is a {level}, and the Leader must be a Hero: make a Hero "
                        "the Leader (recruit one if you have none)."
                    )
                first.add(
                    "bwg2.leader_not_hero",
                    message.format(level=first.level_label, hero=_who(heroes[0]) if heroes else ""),
                )

        if len(heroes) > allowed:
            need = FAME_PER_EXTRA_HERO * (len(heroes) - 1)
            excess = len(heroes) - allowed
            remove = ngettext("a Hero", "{count} Heroes", excess).format(count=excess)
            if limit is not None:
                message = _(
                    "{heroes} Heroes but a {limit} Fame limit allows {allowed}: remove {remove} "
                    "or raise the limit to {need}."
                )
            else:
                message = _(
                    "{heroes} Heroes but, with no Fame limit, the gang's own {fame} Fame allows "
                    "{allowed} (one more per 400 Fame): remove {remove}, or agree a limit of "
                    "{need} or more."
                )
            add(
                "bwg2.too_many_heroes",
                message.format(
                    heroes=len(heroes),
                    limit=limit,
                    allowed=allowed,
                    remove=remove,
                    need=need,
                    fame=fame,
                ),
            )

        if limit is not None and fame > limit:
            over = fame - limit
            add(
                "bwg2.fame_over_limit",
                _(
                    "Fame {fame} is over the limit of {limit} by {over}: drop members or items "
                    "worth {over} Fame, or raise the limit to {fame}."
                ).format(fame=fame, limit=limit, over=over),
            )
        return found

    def _check_factions(
        self,
        members: list[MemberReport],
        leader: MemberReport | None,
        allowed: set[str],
        opened: set[str],
    ) -> None:
        if leader is None or leader.faction_id is None:
            return
        gang = FACTIONS[leader.faction_id]["name"]
        for m in members:
            if m is leader or m.faction_id is None or m.faction_id in allowed:
                continue
            names = ", ".join(FACTIONS[f]["name"] for f in sorted(opened))
            an = _an(gang)
            if opened and an:
                message = _(
                    "A {faction} recruit in an {gang} gang (the Leader's faction) (skills in the "
                    "gang open {opened}): recruit {gang} instead, or add a card whose skill opens "
                    "{faction}."
                )
            elif opened:
                message = _(
                    "A {faction} recruit in a {gang} gang (the Leader's faction) (skills in the "
                    "gang open {opened}): recruit {gang} instead, or add a card whose skill opens "
                    "{faction}."
                )
            elif an:
                message = _(
                    "A {faction} recruit in an {gang} gang (the Leader's faction): recruit "
                    "{gang} instead, or add a card whose skill opens {faction}."
                )
            else:
                message = _(
                    "A {faction} recruit in a {gang} gang (the Leader's faction): recruit {gang} "
                    "instead, or add a card whose skill opens {faction}."
                )
            m.add(
                "bwg2.wrong_faction",
                message.format(faction=m.faction_label, gang=gang, opened=names),
            )

    def _check_duplicates(self, members: list[MemberReport]) -> None:
        by_name: dict[str, list[MemberReport]] = {}
        for m in members:
            if m.card_name:
                by_name.setdefault(_norm(m.card_name), []).append(m)
        for copies in by_name.values():
            if len(copies) > 1 and any(c.one_per_gang for c in copies):
                for extra in copies[1:]:
                    extra.add(
                        "bwg2.duplicate_character",
                        _(
                            "{card} is one per gang and is already in it as {name}: remove this "
                            "copy, or recruit another character."
                        ).format(card=extra.card_name, name=_who(copies[0])),
                    )

        # A copy of a Unique item is that Unique item, whether or not the copy is marked.
        unique = {_norm(i.name) for m in members for i in m.items if i.unique}
        seen: dict[str, MemberReport] = {}
        for m in members:
            for item in m.items:
                name = _norm(item.name)
                if name not in unique:
                    continue
                if name in seen:
                    holder = seen[name]
                    if holder is m:
                        message = _(
                            "{item} is Unique and also has: a gang never has two of the same "
                            "Unique item; remove this one."
                        )
                    else:
                        message = _(
                            "{item} is Unique and is already carried by {name}: a gang never "
                            "has two of the same Unique item; remove this one."
                        )
                    m.add(
                        "bwg2.duplicate_unique",
                        message.format(item=item.name, name=_who(holder)),
                    )
                else:
                    seen[name] = m

    def _check_teams(self, members: list[MemberReport]) -> dict[str, list[str]]:
        teams: dict[str, list[MemberReport]] = {}
        for m in members:
            if not m.team:
                continue
            if not m.is_minion:
                if _an(m.level_label):
                    message = _(
                        "Only Minions form teams, and this is an {level}: clear team '{team}' "
                        "from this member."
                    )
                else:
                    message = _(
                        "Only Minions form teams, and this is a {level}: clear team '{team}' from "
                        "this member."
                    )
                m.add("bwg2.team_not_minion", message.format(level=m.level_label, team=m.team))
                continue
            teams.setdefault(_norm(m.team), []).append(m)

        def signature(m: MemberReport) -> dict[str, Any]:
            return {
                **{ATTRIBUTE_LABELS[a]: m.card[a] for a in ATTRIBUTES},
                "size": m.size_id,
                "skills": sorted(_norm(s.name) for s in m.skills),
            }

        for team in teams.values():
            name = team[0].team
            if len(team) == 1:
                team[0].add(
                    "bwg2.team_of_one",
                    _(
                        "Team '{team}' has only this minion: add an identical minion to it, or "
                        "clear the team (a lone minion fights alone)."
                    ).format(team=name),
                )
                continue
            first = signature(team[0])
            for m in team[1:]:
                mine = signature(m)
                diffs = [k for k in first if first[k] != mine[k]]
                if diffs:
                    m.add(
                        "bwg2.team_mismatch",
                        _(
                            "Team '{team}': differs from {name} in {differences}; every minion "
                            "in a team is the same type: use the same card, or put this minion "
                            "in another team."
                        ).format(team=name, name=_who(team[0]), differences=", ".join(diffs)),
                    )
        return {team[0].team: [m.key for m in team] for team in teams.values()}

    # ----------------------------------------------------------------- printing

    def _report(self, roster: Mapping[str, Any], report: Report | None) -> Report:
        return report if isinstance(report, Report) else self.evaluate(roster)

    def print_cards(self, roster: Mapping[str, Any], report: Report | None = None) -> list[Card]:
        """One Character Card per member, in roster order, as the book describes it (RULES.md,
        "The Character Card"): faction icon, attributes, a Life Meter of one box per HP;
        on the back the equipment, Vital info, the faction rule, skills and equipment rules."""
        report = self._report(roster, report)
        roster = roster if isinstance(roster, Mapping) else {}
        gang_name = _str(roster.get("name"))
        teams = report.gang.get("teams", {})
        return [self._card(m, gang_name, teams) for m in report.members.values()]

    def _card(self, m: MemberReport, gang_name: str, teams: dict[str, list[str]]) -> Card:
        values = m.attributes
        hp = max(0, values["hp"])
        boxes = min(hp, MAX_LIFE_BOXES)
        life_note = ""
        if hp > boxes:
            life_note = _("{boxes} boxes shown of {hp} HP").format(boxes=boxes, hp=hp)

        kind = [m.faction_label, m.level_label]
        if m.is_leader:
            kind.insert(0, _("Leader"))
        if m.size_applies and m.size_id != DEFAULT_SIZE:
            kind.append(m.size["name"] if m.size_id else m.size_raw or "?")
        if m.team:
            kind.append(_("Team {team}").format(team=m.team))

        cap = m.max_item_level
        weapons = []
        for item in m.items:
            notes = []
            if not item.on_card:
                notes.append(_("added before the game, {cost} Fame").format(cost=item.cost))
            if cap is not None and item.level is not None and item.level > cap:
                notes.append(
                    _("above level {cap}: {levels} can't use it").format(
                        cap=cap, levels=LEVELS[m.level_id]["plural"]
                    )
                )
            weapons.append(
                Weapon(
                    name=item.name,
                    range=item.range,
                    strength=item.str,
                    level="" if item.level is None else str(item.level),
                    traits=item.traits,
                    note="; ".join(notes),
                )
            )

        return Card(
            key=m.key,
            name=_display_name(m),
            kind=" · ".join(kind),
            mark=FACTION_MARKS.get(m.faction_id or "", "circle"),
            stats=[Stat(ATTRIBUTE_LABELS[a], str(values[a])) for a in ATTRIBUTES],
            tracks=[Track(_("Health"), boxes, life_note)],
            facts=[
                Stat(_("Fame"), str(m.cost)),
                Stat(_("VP"), str(m.victory_points)),
                *(
                    [Stat(_("Sample card"), _("some numbers are not from the book"))]
                    if m.sample
                    else []
                ),
            ],
            weapons=weapons,
            sections=self._card_sections(m, gang_name, teams),
            play_notes=play_notes(f for f in m.findings if f.code not in NOT_FOR_THE_TABLE),
        )

    def _card_sections(
        self, m: MemberReport, gang_name: str, teams: dict[str, list[str]]
    ) -> list[Section]:
        vital: list[Entry] = []
        if m.vital_info:
            vital.append(Entry(m.vital_info))
        if m.is_leader and "leader" not in m.vital_info.lower():
            if gang_name:
                vital.append(Entry(_("Leader of {gang}").format(gang=gang_name)))
            else:
                vital.append(Entry(_("Gang Leader")))
        if m.card_name and m.card_name != m.name:
            vital.append(Entry(_("Card: {card}").format(card=m.card_name)))
        if m.team:
            size = len(teams.get(m.team, [m.key]))
            vital.append(
                Entry(
                    _("Minion team {team}").format(team=m.team),
                    ngettext(
                        "{count} minion of this type.", "{count} minions of this type.", size
                    ).format(count=size),
                )
            )
        size_entry = _size_entry(m, on_card=True)
        if size_entry:
            vital.append(size_entry)
        if m.artillery:
            vital.append(Entry(_("Artillery"), _("Not a character: no size bonus or surcharge.")))

        sections = []
        if vital:
            sections.append(Section(_("Vital info"), tuple(vital)))
        rule_name, rule_text = m.faction_rule
        if rule_name or rule_text:
            sections.append(
                Section(
                    _("Faction: {faction}").format(faction=m.faction_label),
                    (Entry(rule_name or _("Faction rule"), rule_text),),
                )
            )
        if m.skills:
            sections.append(Section.of(_("Skills"), [(s.name, s.text) for s in m.skills]))
        traits = _trait_entries(m.items)
        if traits:
            sections.append(Section(_("Weapon traits"), tuple(traits)))
        rules = [(i.name, _item_text(i)) for i in m.items if _item_text(i)]
        if rules:
            sections.append(Section.of(_("Equipment rules"), rules))
        return sections

    def print_sheet(self, roster: Mapping[str, Any], report: Report | None = None) -> dict:
        """The gang sheet's figures: Fame against the limit, the Leader, Heroes allowed, the
        objectives this gang brings and each model's Victory Points."""
        report = self._report(roster, report)
        gang = report.gang
        members: list[MemberReport] = list(report.members.values())
        leader = report.members.get(gang.get("leader") or "")
        limit = report.limit
        fame = report.total
        faction = gang.get("faction")
        cards = self.print_cards(roster, report)
        return {
            "fame": fame,
            "limit": limit,
            "fame_label": f"{fame} / {limit}"
            if limit is not None
            else _("{total} (no limit)").format(total=fame),
            "over_limit": limit is not None and fame > limit,
            "faction": FACTIONS[faction]["name"] if faction else "",
            "opened_factions": [FACTIONS[f]["name"] for f in gang.get("opened_factions", [])],
            "leader": _display_name(leader) if leader else "",
            "leader_key": leader.key if leader else None,
            "heroes": gang.get("heroes", 0),
            "heroes_allowed": gang.get("heroes_allowed", heroes_allowed(limit or fame)),
            "objectives": gang.get("objectives", objectives(fame)),
            "objectives_rule": _(
                "One per {fame} Fame of each gang: this gang brings {objectives}; add the other "
                "gang's. Each captured objective is worth 2 Victory Points."
            ).format(fame=FAME_PER_OBJECTIVE, objectives=objectives(fame)),
            "victory_points_total": gang.get("victory_points_total", 0),
            "stat_labels": [ATTRIBUTE_LABELS[a] for a in ATTRIBUTES],
            "detail_span": len(ATTRIBUTES) + 3,  # the roster table's columns after "#"
            "models": [
                {
                    "key": m.key,
                    "name": _display_name(m),
                    "card_name": m.card_name,
                    "summary": m.summary,
                    "fame": m.cost,
                    "victory_points": m.victory_points,
                    "vp_reason": _vp_reason(m),
                    "is_leader": m.is_leader,
                    "team": m.team,
                    "items": [i.label for i in m.items],
                    "skills": [s.name for s in m.skills],
                    "card": card,
                    "life_boxes": list(range(card.tracks[0].boxes)),
                    "life_note": card.tracks[0].note,
                }
                for m, card in zip(members, cards, strict=True)
            ],
            "teams": [
                {
                    "name": name,
                    "members": [_display_name(report.members[k]) for k in keys],
                }
                for name, keys in gang.get("teams", {}).items()
            ],
            "board": gang.get("board", board_size(len(members))),
            "game_length": _("6 turns"),
        }

    def quick_reference(
        self, roster: Mapping[str, Any], report: Report | None = None
    ) -> list[Section]:
        """Only the rules, skills, traits and weapons this gang uses, with their full text."""
        report = self._report(roster, report)
        members: list[MemberReport] = list(report.members.values())
        items = [i for m in members for i in m.items]

        faction_rules = [
            Entry(name or _("{faction} faction rule").format(faction=m.faction_label), text)
            for m in members
            for name, text in [m.faction_rule]
            if name or text
        ]
        skills = [Entry(s.name, s.text) for m in members for s in m.skills]
        weapons = [
            Entry(i.name, "; ".join(x for x in (_item_stats(i), _item_text(i)) if x)) for i in items
        ]
        sizes = [e for m in members if (e := _size_entry(m))]

        core: list[Entry] = []
        if any(not m.artillery for m in members):
            core.append(
                Entry(
                    "Equipment",
                    "A character equips at most Str items; Weightless items don't count. "
                    "Items printed on the card are always equipped and can't be unequipped.",
                )
            )
        caps = [
            f"{LEVELS[lv]['plural']} up to level {LEVELS[lv]['max_item_level']}"
            for lv in LEVELS
            if LEVELS[lv]["max_item_level"] is not None
            and any(m.level_id == lv and not m.artillery for m in members)
        ]
        if caps:
            core.append(Entry("Item levels", f"{', '.join(caps)}; Heroes any level."))
        if any(_trait_id(t) in {"1-handed", "pistol"} for i in items for t in i.traits):
            core.append(
                Entry(
                    "Two 1-handed weapons",
                    "Two 1-handed weapons of the same type (both ranged or both melee) give "
                    "+1D6 to hit.",
                )
            )
        if any(m.team for m in members):
            core.append(
                Entry(
                    "Minion teams",
                    "All minions in a team are the same type (same attributes and skills).",
                )
            )
        core.append(
            Entry(
                "Victory Points",
                "For each enemy out of action at the end: Minion 1, Henchman 2, Hero 3, "
                "Gang Leader 5; Large +1, Massive +2, Giant +3. A Loot Card is worth its "
                "level / 2, rounded up. Each captured objective is worth 2. Wiping out the "
                "enemy gang wins outright.",
            )
        )
        core.append(
            Entry(
                "Objectives",
                f"One per {FAME_PER_OBJECTIVE} Fame of each gang (floor), summed: this gang "
                f"brings {objectives(report.total)}.",
            )
        )
        core.append(
            Entry(
                "Game",
                "6 turns. Board 3' x 3' (2' x 2' for fewer than 5 models a side, 4' x 4' for "
                f"more than 10): this gang suggests {board_size(len(members))}.",
            )
        )

        sections = [
            Section(_("Faction rules"), dedupe_entries(faction_rules)),
            Section(_("Skills"), dedupe_entries(skills)),
            Section(_("Weapons and equipment"), dedupe_entries(weapons)),
            Section(_("Weapon traits"), dedupe_entries(_trait_entries(items))),
            Section(_("Model sizes"), dedupe_entries(sizes)),
            # The core rules are the English book's, digested: they stay English.
            Section(_("Core rules"), tuple(core), lang="en"),
        ]
        return [s for s in sections if s.entries]


SYSTEM = Bwg2()
