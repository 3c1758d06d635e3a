"""Gunfight v2 (seed 004): random characters, troopers and rabble; no points.

A roster for this system is the common roster file shape; each member's ``data`` is::

    {
        "figure": "character",          # character | trooper | rabble
        "character_type": "lawman",     # lawman, outlaw, mexican, outsider, gambler,
                                        # gunfighter, indian, soldier (optional for
                                        # troopers and rabble: a description)
        "experience": "veteran",        # greenhorn | old_hand | veteran (characters only)
        "characteristics": {"bd": 7, "sk": 9, "sp": 6, "ag": 8, "wp": 10},
                                        # as rolled or entered, BEFORE ability modifiers;
                                        # troopers may omit it (their profile is fixed),
                                        # rabble have none
        "abilities": ["leader", "loyal_sidekick", "white_hat"],   # ability ids
        "source": "rolled",             # rolled | entered
        "rolls": [{"purpose": "BD", "dice": "D6", "rolled": [3]}, ...],
                                        # the raw dice of a rolled character, in order
                                        # (rules.dice.Roll.to_dict()): five D6 for BD, SK,
                                        # SP, AG, WP, then the D20 ability rolls and re-rolls
        "weapons": [{"name": "Pistol", "point_blank": 2, "normal": 6, "long": 14,
                     "shots": 6}],      # name required; range in inches (null = none)
        "count": 4,                     # troopers and rabble: how many identical figures
                                        # this entry stands for (default 1)
    }

There is no points system: the total is the number of FIGURES. A character is one figure,
plus one for the follower of Loyal Sidekick; a trooper or rabble entry is ``count`` figures.
The roster's ``gang`` part is an empty object and ``limit`` is ignored.

``SYSTEM.generate_character(dice, character_type, experience)`` rolls a character: 1D6 + 4
for each characteristic, then 1, 2 or 3 abilities on the D20 table of the character's type,
re-rolling a repeat. Every die is rolled through the injected ``rules.dice.Dice``.

Abilities that change characteristics (Drunk as a Skunk, Nobility, Old Timer, White Hat) are
applied on the report's stat line; the result is clamped to 1..10 and the unclamped value is
noted (RULES.md Decision).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import i18n
from rules.base import Finding, Report, RuleDoc, Severity, load_content, member_keys
from rules.base import as_int as _int
from rules.base import as_str as _str
from rules.dice import Dice
from rules.printing import Card, Entry, Section, Stat, Track, Weapon, dedupe_entries, play_notes

ERROR = Severity.ERROR
WARNING = Severity.WARNING

SEED = "004_408766a37f4dcf7f.txt"

#: this game's data: its book's content (and, for bwg1, the French book's words)
DATA = Path(__file__).parent / "data"
CONTENT: dict[str, Any] = load_content(DATA / "content.json")

CHARACTERISTICS: tuple[str, ...] = tuple(c["id"] for c in CONTENT["characteristics"])
LABELS: dict[str, str] = {c["id"]: c["label"] for c in CONTENT["characteristics"]}
NAMES: dict[str, str] = {c["id"]: c["name"] for c in CONTENT["characteristics"]}
CHAR_MIN: int = CONTENT["characteristic_range"]["min"]
CHAR_MAX: int = CONTENT["characteristic_range"]["max"]
ROLL_SIDES: int = CONTENT["random_characteristic"]["sides"]
ROLL_ADD: int = CONTENT["random_characteristic"]["add"]
ROLLED_MIN = 1 + ROLL_ADD
ROLLED_MAX = ROLL_SIDES + ROLL_ADD

FIGURES: tuple[str, ...] = ("character", "trooper", "rabble")
FIGURE_LABELS = {"character": "Character", "trooper": "Trooper", "rabble": "Rabble"}
TROOPER_PROFILE: dict[str, int] = dict(CONTENT["figures"]["trooper"]["characteristics"])
TROOPER_ACTIONS: int = CONTENT["figures"]["trooper"]["actions"]
CHARACTER_ACTIONS: int = CONTENT["figures"]["character"]["actions"]
RABBLE_MOVE: int = CONTENT["figures"]["rabble"]["move"]
RABBLE_ACTIONS: int = CONTENT["figures"]["rabble"]["actions"]

EXPERIENCE: dict[str, dict[str, Any]] = {e["id"]: e for e in CONTENT["experience_levels"]}
CHARACTER_TYPES: dict[str, dict[str, Any]] = {t["id"]: t for t in CONTENT["character_types"]}
TABLES: dict[str, dict[str, Any]] = {t["id"]: t for t in CONTENT["ability_tables"]}
ABILITIES: dict[str, dict[str, Any]] = {a["id"]: a for a in CONTENT["abilities"]}
WEAPONS: dict[str, dict[str, Any]] = {w["id"]: w for w in CONTENT["weapons"]}
WEAPON_STATS: tuple[str, ...] = ("point_blank", "normal", "long", "shots")
SOURCES = ("rolled", "entered")
SIDEKICK = "loyal_sidekick"
DASH = "\u2013"  # en dash: "no value" on the sheet, and ranges like 1-10
TIMES = "\u00d7"  # multiplication sign: "Trooper x4"


def normalise(value: Any) -> str:
    """An id from a name or an id: lower case, apostrophes dropped, other runs to '_'."""
    if not isinstance(value, str):
        return ""
    text = value.strip().lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[^a-z0-9]+", "_", text).strip("_")


_ABILITY_LOOKUP: dict[str, str] = {}
for _a in ABILITIES.values():
    _ABILITY_LOOKUP[_a["id"]] = _a["id"]
    _ABILITY_LOOKUP[normalise(_a["name"])] = _a["id"]
_WEAPON_LOOKUP: dict[str, str] = {}
for _w in WEAPONS.values():
    for _n in (_w["id"], _w["name"], *_w.get("aliases", ())):
        _WEAPON_LOOKUP[normalise(_n)] = _w["id"]


def table_for(character_type: str) -> dict[str, Any] | None:
    ctype = CHARACTER_TYPES.get(character_type)
    return TABLES[ctype["table"]] if ctype else None


def table_result(table: Mapping[str, Any], roll: int) -> str:
    """The ability id a D20 result gives on ``table``."""
    for entry in table["entries"]:
        if entry["from"] <= roll <= entry["to"]:
            return entry["ability"]
    raise ValueError(f"{roll} is not on the {table['name']} table")


def table_abilities(table: Mapping[str, Any]) -> list[str]:
    seen: list[str] = []
    for entry in table["entries"]:
        if entry["ability"] not in seen:
            seen.append(entry["ability"])
    return seen


_ = i18n.gettext
ngettext = i18n.ngettext


def _a(word: str, capital: bool = False) -> str:
    article = "an" if word[:1].lower() in "aeiou" else "a"
    return f"{article.capitalize() if capital else article} {word}"


def _an(word: str) -> bool:
    """Whether English says "an" before ``word`` (the messages say "a" or "an")."""
    return word[:1].lower() in "aeiou"


def _range(value: int | None) -> str:
    return DASH if value is None else f'{value}"'


def _choices(ids: Any, mapping: Mapping[str, Mapping[str, Any]]) -> str:
    names = [mapping[i]["name"] for i in ids]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


_TYPE_LIST = _choices(CHARACTER_TYPES, CHARACTER_TYPES)
_EXPERIENCE_LIST = _choices(EXPERIENCE, EXPERIENCE)

# --------------------------------------------------------------------------- the rules

RULES: tuple[RuleDoc, ...] = (
    RuleDoc(
        "gunfight.no_figures",
        ERROR,
        "A side has at least one figure.",
        "seed 004, p. 8 (Setting Up a Game: each side has a figure in range of an opponent)",
    ),
    RuleDoc(
        "gunfight.unknown_figure",
        ERROR,
        "Every member is a Character, a Trooper or Rabble.",
        "seed 004, p. 2 (Types of Figure)",
    ),
    RuleDoc(
        "gunfight.bad_count",
        ERROR,
        "A Trooper or Rabble entry stands for 1 or more figures; a Character is one figure.",
        "seed 004, p. 2 (Types of Figure)",
        decision="A Trooper or Rabble entry may stand for several identical figures "
        "(`count`, default 1); a Character is always one named figure.",
    ),
    RuleDoc(
        "gunfight.character_unnamed",
        WARNING,
        "Characters have names (Troopers and Rabble are nameless).",
        "seed 004, p. 2 (Types of Figure: characters have names)",
    ),
    RuleDoc(
        "gunfight.unknown_character_type",
        ERROR,
        f"A Character's type is one of: {_TYPE_LIST}; it chooses the ability table.",
        "seed 004, pp. 2-4 (Characters: the five D20 tables)",
    ),
    RuleDoc(
        "gunfight.unknown_experience",
        ERROR,
        f"A Character's experience is {_EXPERIENCE_LIST}.",
        "seed 004, p. 2 (Characters)",
    ),
    RuleDoc(
        "gunfight.characteristic_out_of_range",
        ERROR,
        "Each characteristic (BD, SK, SP, AG, WP) is a whole number from 1 to 10, before "
        "ability modifiers.",
        "seed 004, p. 2 (Characters: each is measured from 1-10)",
    ),
    RuleDoc(
        "gunfight.characteristic_outside_roll",
        WARNING,
        "A random character rolls 1D6 + 4 (5 to 10) for each characteristic; an entered "
        "value of 1 to 4 is allowed but could not have been rolled.",
        "seed 004, p. 2 (Characters: roll 1D6+4)",
        decision="Characters may be entered by hand (a scenario's named character): any "
        "value from 1 to 10 is legal, a value below 5 is a warning.",
    ),
    RuleDoc(
        "gunfight.ability_count",
        ERROR,
        "A Greenhorn has 1 special ability, an Old Hand 2 and a Veteran 3.",
        "seed 004, p. 2 (Characters)",
    ),
    RuleDoc(
        "gunfight.unknown_ability",
        ERROR,
        "Every special ability is one the book describes.",
        "seed 004, pp. 4-5 (Ability Descriptions)",
    ),
    RuleDoc(
        "gunfight.ability_not_on_table",
        WARNING,
        "Abilities are rolled on the table of the character's type; one from elsewhere "
        "(or Ambidextrous, which is on no table) is allowed with a warning.",
        "seed 004, pp. 2-4 (Characters: roll on the table appropriate to the character's type)",
    ),
    RuleDoc(
        "gunfight.duplicate_ability",
        ERROR,
        "A character has each special ability at most once.",
        "seed 004, p. 2 (Characters)",
        decision="A repeated ability is re-rolled (RULES.md), so a repeat on the sheet is "
        "an error.",
    ),
    RuleDoc(
        "gunfight.abilities_not_allowed",
        ERROR,
        "Troopers and Rabble have no special abilities.",
        "seed 004, p. 5 (Troopers); p. 2 (Types of Figure)",
    ),
    RuleDoc(
        "gunfight.trooper_profile",
        ERROR,
        "Troopers have fixed characteristics: AG 6 and 4 in each other characteristic.",
        "seed 004, p. 5 (Troopers)",
    ),
    RuleDoc(
        "gunfight.rabble_characteristics",
        WARNING,
        'Rabble have no characteristics: they move 5", have one action and no SK.',
        "seed 004, pp. 5-6 (Sequence; Move; Shoot or Hit)",
    ),
    RuleDoc(
        "gunfight.unknown_weapon",
        WARNING,
        "Weapons come from the book's list (Thrown knife, Bow, Pistol, Shotgun, Carbine, "
        "Sharps or Winchester rifle, close combat weapons, Dynamite); another is shown "
        "with the stats entered.",
        "seed 004, p. 7 (Range; Ammunition)",
    ),
    RuleDoc(
        "gunfight.weapon_stats_differ",
        WARNING,
        "A listed weapon's ranges and shots are the book's; differing numbers entered are "
        "replaced by the book's on the sheet.",
        "seed 004, p. 7 (Range; Ammunition)",
    ),
    RuleDoc(
        "gunfight.rolls_mismatch",
        WARNING,
        "A character marked as rolled has the characteristics (die + 4) and abilities its "
        "recorded dice give.",
        "seed 004, p. 2 (Characters)",
    ),
    RuleDoc(
        "gunfight.unknown_source",
        WARNING,
        'A character\'s source is "rolled" or "entered"; anything else is read as entered.',
        "seed 004, p. 2 (Characters: to roll a character randomly...)",
    ),
)
RULE_CODES = frozenset(r.code for r in RULES)
_SEVERITY = {r.code: r.severity for r in RULES}

DECISIONS: tuple[str, ...] = (
    "After ability modifiers a characteristic is clamped to 1..10 on the stat line, and "
    "the unclamped value is noted (e.g. 'WP 10 (16 before the 1-10 limit)') (RULES.md).",
    "Modifying abilities: Drunk as a Skunk -2 SK; Nobility +6 WP; Old Timer -2 AG, -2 SK, "
    "-2 SP, +4 WP; White Hat +2 to each characteristic. They add up before the clamp, "
    "also when the ability is off the character's table; a repeated ability counts once.",
    "Loyal Sidekick: the follower is a trooper-like figure (BD 4, SK 4, SP 4, AG 6, WP 4, "
    "2 actions, no abilities) that never routs until its character routs. It is not a "
    "separate member: it shows in the character's notes and in the gang's figure list, "
    "and it counts in the character's figures (cost 2).",
    "Troopers may omit their characteristics (the fixed profile is used). A Trooper's or "
    "Rabble's character type, if given, only describes it (U.S. cavalry, Indian braves, "
    "Mexican army) and must be a known type; experience is read for Characters only.",
    "Characteristics the sheet can't read (missing, not a whole number) are errors and count "
    "as 0; an entry of unknown figure type counts for no figures.",
    'Move is 1" per AG (after modifiers) for characters and troopers; rabble move 5".',
    "The Range table's Rifle is split into the Sharps rifle (1 shot) and the Winchester "
    "rifle (15 shots) of the Ammunition section; a plain 'Rifle' has the ranges but no "
    "shot count. A bow reloads after every shot (1 action) as the Action list says.",
    "There is no points system and no limit: the total is the number of figures "
    "(characters, their sidekicks, troopers and rabble).",
)


# --------------------------------------------------------------------------- parsing


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    try:
        return json.dumps(value)[:40]
    except (TypeError, ValueError):
        return type(value).__name__


# --------------------------------------------------------------------------- results


@dataclass
class WeaponReport:
    name: str
    weapon: dict[str, Any] | None  # the book's weapon, or None if unknown
    point_blank: int | None
    normal: int | None
    long: int | None
    shots: int | None
    entered: dict[str, Any]

    @property
    def known(self) -> bool:
        return self.weapon is not None

    @property
    def line(self) -> str:
        parts = [self.name]
        if self.point_blank is not None or self.normal is not None or self.long is not None:
            parts.append(
                f"{_range(self.point_blank)} / {_range(self.normal)} / {_range(self.long)}"
            )
        if self.shots is not None:
            parts.append(
                ngettext(
                    "reload after {count} shot", "reload after {count} shots", self.shots
                ).format(count=self.shots)
            )
        return ", ".join(parts)


@dataclass
class MemberReport:
    key: str
    name: str
    position: int
    figure: str
    figure_raw: str
    count: int
    character_type: str
    experience: str
    source: str
    characteristics: dict[str, int | None]  # as rolled / entered
    modified: dict[str, int]  # after ability modifiers, before the clamp
    final: dict[str, int]  # after the clamp: the stat line
    abilities: list[str]  # known ability ids, in order, without repeats
    ability_entries: list[str]  # every entry as written (normalised)
    weapons: list[WeaponReport]
    rolls: list[dict[str, Any]]
    sidekick: bool = False
    cost: int = 0
    summary: str = ""
    stats: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        return any(f.is_error for f in self.findings)

    @property
    def figure_label(self) -> str:
        return FIGURE_LABELS.get(self.figure, self.figure_raw or "?")

    @property
    def type_label(self) -> str:
        ctype = CHARACTER_TYPES.get(self.character_type)
        return ctype["name"] if ctype else self.character_type

    @property
    def experience_label(self) -> str:
        exp = EXPERIENCE.get(self.experience)
        return exp["name"] if exp else self.experience

    @property
    def ability_rows(self) -> list[dict[str, Any]]:
        return [ABILITIES[a] for a in self.abilities]


# --------------------------------------------------------------------------- schemas

_CHARACTERISTICS_SCHEMA = {
    "type": "object",
    "properties": {c: {"type": "integer"} for c in CHARACTERISTICS},
    "additionalProperties": False,
}
_WEAPON_SCHEMA = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        **{s: {"type": ["integer", "null"]} for s in WEAPON_STATS},
        "notes": {"type": "string"},
    },
    "additionalProperties": False,
}
_ROLL_SCHEMA = {
    "type": "object",
    "required": ["purpose", "dice", "rolled"],
    "properties": {
        "purpose": {"type": "string"},
        "dice": {"type": "string"},
        "rolled": {"type": "array", "items": {"type": "integer"}},
    },
    "additionalProperties": False,
}
MEMBER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Gunfight v2 member",
    "type": "object",
    "required": ["figure"],
    "properties": {
        "figure": {"type": "string", "description": "character | trooper | rabble"},
        "character_type": {"type": "string"},
        "experience": {"type": "string", "description": "greenhorn | old_hand | veteran"},
        "characteristics": _CHARACTERISTICS_SCHEMA,
        "abilities": {"type": "array", "items": {"type": "string"}},
        "source": {"type": "string", "description": "rolled | entered"},
        "rolls": {"type": "array", "items": _ROLL_SCHEMA},
        "weapons": {"type": "array", "items": _WEAPON_SCHEMA},
        "count": {"type": "integer"},
    },
    "additionalProperties": False,
}
GANG_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Gunfight v2 side",
    "type": "object",
    "properties": {},
    "additionalProperties": False,
}


# --------------------------------------------------------------------------- the system


class Gunfight:
    id = "gunfight"
    name = "Gunfight v2"
    short_name = "Gunfight"
    book_languages = ("en",)  # no French edition: its texts stay English, marked so

    @property
    def total_label(self) -> str:
        return _("Figures")

    seed = SEED
    rules = RULES
    decisions = DECISIONS
    limit_presets: tuple[int, ...] = ()
    default_limit: int | None = None
    content_entry_schemas: dict[str, dict[str, Any]] = {"weapon": _WEAPON_SCHEMA}
    cap_help = i18n.gettext_noop(
        "No cap to set: Gunfight has no points; gangs are counted in figures."
    )
    cap_refused: str | None = i18n.gettext_noop(
        "Leave it empty: Gunfight has no points; gangs are counted in figures."
    )
    limit_help: str | None = None
    limit_optional = False
    member_schema = MEMBER_SCHEMA
    gang_schema = GANG_SCHEMA
    content = CONTENT
    characteristics = CHARACTERISTICS
    characteristic_labels = LABELS
    # Weapons travel inside each member's data, by value (no catalogue items yet).
    item_slots: dict[str, tuple[str, bool]] = {}

    # ----------------------------------------------------------------- choices

    def type_choices(self) -> list[tuple[str, str]]:
        return [(f, FIGURE_LABELS[f]) for f in FIGURES]

    def character_type_choices(self) -> list[tuple[str, str]]:
        return [(t["id"], t["name"]) for t in CHARACTER_TYPES.values()]

    def experience_choices(self) -> list[tuple[str, str]]:
        return [(e["id"], e["name"]) for e in EXPERIENCE.values()]

    def new_member(
        self,
        member_type: str = "trooper",
        character_type: str = "lawman",
        experience: str = "greenhorn",
        dice: Dice | None = None,
    ) -> dict[str, Any]:
        """The ``data`` of a fresh member.

        Troopers and rabble are legal as they come. A character is rolled when ``dice`` is
        given; otherwise it is entered with 7 in each characteristic and no abilities yet
        (the sheet asks for them).
        """
        figure = normalise(member_type)
        if figure == "character":
            if dice is not None:
                return self.generate_character(dice, character_type, experience)
            ctype = normalise(character_type)
            exp = normalise(experience)
            return {
                "figure": "character",
                "character_type": ctype if ctype in CHARACTER_TYPES else "lawman",
                "experience": exp if exp in EXPERIENCE else "greenhorn",
                "characteristics": dict.fromkeys(CHARACTERISTICS, 7),
                "abilities": [],
                "source": "entered",
                "rolls": [],
                "weapons": [],
            }
        if figure == "rabble":
            return {"figure": "rabble", "abilities": [], "weapons": [], "count": 1}
        return {
            "figure": "trooper",
            "characteristics": dict(TROOPER_PROFILE),
            "abilities": [],
            "weapons": [],
            "count": 1,
        }

    # ----------------------------------------------------------------- rolling

    def generate_character(
        self, dice: Dice, character_type: str, experience: str, name: str = ""
    ) -> dict[str, Any]:
        """Roll a character: 1D6 + 4 per characteristic, then its abilities on its table.

        A repeated ability is re-rolled (RULES.md Decision). Every die goes through
        ``dice`` with its purpose; the raw dice are kept in the member's ``rolls``.
        """
        ctype = normalise(character_type)
        exp = normalise(experience)
        table = table_for(ctype)
        if table is None:
            raise ValueError(f"unknown character type {character_type!r}: choose {_TYPE_LIST}")
        if exp not in EXPERIENCE:
            raise ValueError(f"unknown experience {experience!r}: choose {_EXPERIENCE_LIST}")
        prefix = f"{name.strip()}: " if isinstance(name, str) and name.strip() else ""
        start = len(dice.log)
        characteristics = {
            c: dice.roll(1, ROLL_SIDES, f"{prefix}{LABELS[c]}").total + ROLL_ADD
            for c in CHARACTERISTICS
        }
        wanted = EXPERIENCE[exp]["abilities"]
        abilities: list[str] = []
        purpose = f"{prefix}ability 1 ({table['name']} table)"
        for _attempt in range(1000):  # a repeat is re-rolled; this never runs out in practice
            if len(abilities) >= wanted:
                break
            ability = table_result(table, dice.d20(purpose))
            if ability in abilities:
                purpose = f"{prefix}re-roll: repeat of {ABILITIES[ability]['name']}"
                continue
            abilities.append(ability)
            purpose = f"{prefix}ability {len(abilities) + 1} ({table['name']} table)"
        return {
            "figure": "character",
            "character_type": ctype,
            "experience": exp,
            "characteristics": characteristics,
            "abilities": abilities,
            "source": "rolled",
            "rolls": [r.to_dict() for r in dice.log[start:]],
            "weapons": [],
        }

    # ----------------------------------------------------------------- evaluation

    def evaluate(self, roster: Mapping[str, Any]) -> Report:
        roster = roster if isinstance(roster, Mapping) else {}
        raw_members = roster.get("members")
        if not isinstance(raw_members, list):
            raw_members = []

        members: list[MemberReport] = []
        keys = member_keys(raw_members)
        for position, (key, raw) in enumerate(zip(keys, raw_members, strict=True), start=1):
            raw = raw if isinstance(raw, Mapping) else {}
            data = raw.get("data")
            member = self._member(key, position, _str(raw.get("name")), data)
            self._check_member(member, data if isinstance(data, Mapping) else {})
            self._describe(member)
            members.append(member)

        findings: list[Finding] = []
        if sum(m.cost for m in members) <= 0:
            findings.append(
                Finding(
                    "gunfight.no_figures",
                    ERROR,
                    _("The side has no figures: add at least one Character, Trooper or Rabble."),
                )
            )
        for m in members:
            findings.extend(m.findings)

        by_key = {m.key: m for m in members}
        return Report(
            system=self.id,
            total_label=self.total_label,
            total=sum(m.cost for m in members),
            limit=None,
            findings=findings,
            members=by_key,
            gang=self._gang(members),
        )

    # ----------------------------------------------------------------- one member

    def _member(self, key: str, position: int, name: str, data: Any) -> MemberReport:
        data = data if isinstance(data, Mapping) else {}
        figure_raw = _shown(data.get("figure")) if "figure" in data else ""
        figure = normalise(data.get("figure"))
        ctype = normalise(data.get("character_type"))
        exp = normalise(data.get("experience"))
        raw_source = data.get("source")
        if raw_source is None or (isinstance(raw_source, str) and not raw_source.strip()):
            source = "entered"  # a hand-written file may leave it out
        else:
            source = normalise(raw_source) or "?"

        raw_chars = data.get("characteristics")
        raw_chars = raw_chars if isinstance(raw_chars, Mapping) else {}
        characteristics = {c: _int(raw_chars.get(c)) for c in CHARACTERISTICS}
        if figure == "trooper":
            base = dict(TROOPER_PROFILE)
        else:
            base = {c: characteristics[c] or 0 for c in CHARACTERISTICS}

        raw_abilities = data.get("abilities")
        raw_abilities = raw_abilities if isinstance(raw_abilities, list) else []
        entries = [_ABILITY_LOOKUP.get(normalise(a), _shown(a)) for a in raw_abilities]
        abilities: list[str] = []
        for a in entries:
            if a in ABILITIES and a not in abilities:
                abilities.append(a)

        modified = dict(base)
        if figure == "character":
            for a in abilities:
                for c, delta in ABILITIES[a]["modifiers"].items():
                    modified[c] += delta
        final = {c: min(CHAR_MAX, max(CHAR_MIN, v)) for c, v in modified.items()}

        raw_weapons = data.get("weapons")
        raw_weapons = raw_weapons if isinstance(raw_weapons, list) else []
        weapons = [self._weapon(w) for w in raw_weapons]

        raw_rolls = data.get("rolls")
        rolls = (
            [r for r in raw_rolls if isinstance(r, Mapping)] if isinstance(raw_rolls, list) else []
        )

        count = _int(data.get("count")) if "count" in data else 1
        return MemberReport(
            key=key,
            name=name,
            position=position,
            figure=figure if figure in FIGURES else "",
            figure_raw=figure_raw,
            count=count if count is not None else 0,
            character_type=ctype,
            experience=exp,
            source=source,
            characteristics=characteristics,
            modified=modified,
            final=final,
            abilities=abilities if figure == "character" else [],
            ability_entries=entries,
            weapons=weapons,
            rolls=rolls,
            sidekick=figure == "character" and SIDEKICK in abilities,
        )

    def _weapon(self, raw: Any) -> WeaponReport:
        entry = raw if isinstance(raw, Mapping) else {"name": raw}
        name = _str(entry.get("name")) or _str(entry.get("id")) or _shown(entry.get("name"))
        weapon_id = _WEAPON_LOOKUP.get(normalise(entry.get("id"))) or _WEAPON_LOOKUP.get(
            normalise(entry.get("name"))
        )
        weapon = WEAPONS.get(weapon_id) if weapon_id else None
        entered = {s: entry[s] for s in WEAPON_STATS if s in entry}
        if weapon is not None:
            stats = {s: weapon[s] for s in WEAPON_STATS}
            name = weapon["name"]
        else:
            stats = {s: _int(entered.get(s)) for s in WEAPON_STATS}
        name = name or _("Unnamed weapon")
        return WeaponReport(name=name, weapon=weapon, entered=entered, **stats)

    def _check_member(self, m: MemberReport, data: Mapping[str, Any]) -> None:
        def add(code: str, message: str) -> None:
            m.findings.append(Finding(code, _SEVERITY[code], message, member=m.key))

        if not m.figure:
            if m.figure_raw:
                message = _(
                    "'{value}' is not a type of figure: choose Character, Trooper or Rabble."
                )
            else:
                message = _(
                    "No figure type is not a type of figure: choose Character, Trooper or Rabble."
                )
            add("gunfight.unknown_figure", message.format(value=m.figure_raw))

        # count
        if m.figure == "character":
            if m.count != 1:
                add(
                    "gunfight.bad_count",
                    _(
                        "A Character is one named figure, but this entry has count {value}: set "
                        "count to 1 (or remove it), and add another Character for each other "
                        "figure."
                    ).format(value=_shown(data.get("count"))),
                )
                m.count = 1
        elif m.count < 1:
            add(
                "gunfight.bad_count",
                _(
                    "Count is {value}, but an entry stands for at least one figure: set count to "
                    "1 or more, or remove the entry."
                ).format(value=_shown(data.get("count"))),
            )
            m.count = 0

        # character type
        typed = m.figure == "character" or (m.character_type and m.figure in FIGURES)
        if typed and m.character_type not in CHARACTER_TYPES:
            if m.character_type:
                message = _("'{value}' is not a character type: choose {types}.")
            else:
                message = _("This character has no type: choose {types}.")
            add(
                "gunfight.unknown_character_type",
                message.format(value=_shown(data.get("character_type")), types=_TYPE_LIST),
            )

        if m.figure == "character":
            self._check_character(m, data, add)
        elif m.figure in ("trooper", "rabble"):
            label = "Troopers" if m.figure == "trooper" else "Rabble"
            if m.ability_entries:
                add(
                    "gunfight.abilities_not_allowed",
                    ngettext(
                        "{figures} have no special abilities, but this entry has {count} "
                        "ability: remove it, or make the figure a Character.",
                        "{figures} have no special abilities, but this entry has {count} "
                        "abilities: remove them, or make the figure a Character.",
                        len(m.ability_entries),
                    ).format(figures=label, count=len(m.ability_entries)),
                )
            if m.figure == "trooper":
                changed = [
                    c
                    for c in CHARACTERISTICS
                    if c in _mapping(data.get("characteristics"))
                    and m.characteristics[c] != TROOPER_PROFILE[c]
                ]
                if changed:
                    wrong = ", ".join(
                        _("{characteristic} {value} (should be {book})").format(
                            characteristic=LABELS[c],
                            value=_shown(_mapping(data.get("characteristics"))[c]),
                            book=TROOPER_PROFILE[c],
                        )
                        for c in changed
                    )
                    add(
                        "gunfight.trooper_profile",
                        _(
                            "Troopers have fixed characteristics ({profile}); this one has "
                            "{changes}: set them back, or make the figure a Character."
                        ).format(profile=_profile(TROOPER_PROFILE), changes=wrong),
                    )
            elif _mapping(data.get("characteristics")):
                add(
                    "gunfight.rabble_characteristics",
                    _(
                        'Rabble have no characteristics (they move 5", have one action and no '
                        "SK): clear them; they are ignored."
                    ),
                )

        for w in m.weapons:
            if w.weapon is None:
                add(
                    "gunfight.unknown_weapon",
                    _(
                        "'{weapon}' is not in the book's weapon list (Thrown knife, Bow, Pistol, "
                        "Shotgun, Carbine, Sharps rifle, Winchester rifle, Rifle, Knife, Sword, "
                        "Machete, Dynamite): pick one of those, or keep it as a house weapon "
                        "with the stats you entered."
                    ).format(weapon=w.name),
                )
                continue
            differ = [s for s, v in w.entered.items() if _int(v) != w.weapon[s] or _bad_stat(v)]
            if differ:
                wrong = ", ".join(
                    _("{figure} {entered} (book: {book})").format(
                        figure=s.replace("_", " "),
                        entered=_shown(w.entered[s]),
                        book=_("none") if w.weapon[s] is None else w.weapon[s],
                    )
                    for s in differ
                )
                add(
                    "gunfight.weapon_stats_differ",
                    _(
                        "{weapon} has {figures}; the sheet uses the book's numbers: correct the "
                        "entry, or rename it if it is a different weapon."
                    ).format(weapon=w.name, figures=wrong),
                )

    def _check_character(self, m: MemberReport, data: Mapping[str, Any], add) -> None:
        if not m.name:
            add(
                "gunfight.character_unnamed",
                _("Characters have names: give this one a name (it goes on the card)."),
            )

        exp = EXPERIENCE.get(m.experience)
        if exp is None:
            if m.experience:
                message = _("'{value}' is not an experience level: choose {levels}.")
            else:
                message = _("This character has no experience level: choose {levels}.")
            add(
                "gunfight.unknown_experience",
                message.format(value=_shown(data.get("experience")), levels=_EXPERIENCE_LIST),
            )

        if m.source not in SOURCES:
            add(
                "gunfight.unknown_source",
                _(
                    "'{value}' is not a source: set it to \"rolled\" (with the dice) or "
                    '"entered"; it is read as entered.'
                ).format(value=_shown(data.get("source"))),
            )

        raw_chars = _mapping(data.get("characteristics"))
        for c in CHARACTERISTICS:
            value = m.characteristics[c]
            label = LABELS[c]
            limits = {
                "characteristic": label,
                "value": value,
                "least": CHAR_MIN,
                "most": CHAR_MAX,
                "rolled_least": ROLLED_MIN,
                "rolled_most": ROLLED_MAX,
            }
            if value is None:
                if c in raw_chars:
                    message = _(
                        "{characteristic} is '{value}': enter a whole number from {least} to "
                        "{most} ({rolled_least} to {rolled_most} if rolled)."
                    )
                    limits["value"] = _shown(raw_chars[c])
                else:
                    message = _(
                        "{characteristic} is missing: enter a whole number from {least} to "
                        "{most} ({rolled_least} to {rolled_most} if rolled)."
                    )
                add("gunfight.characteristic_out_of_range", message.format(**limits))
            elif not CHAR_MIN <= value <= CHAR_MAX:
                add(
                    "gunfight.characteristic_out_of_range",
                    _(
                        "{characteristic} is {value}; characteristics run from {least} to "
                        "{most} before abilities: set {characteristic} to a value from {least} "
                        "to {most}."
                    ).format(**limits),
                )
            elif value < ROLLED_MIN:
                add(
                    "gunfight.characteristic_outside_roll",
                    _(
                        "{characteristic} is {value}, which 1D6 + 4 can't roll ({rolled_least} "
                        "to {rolled_most}): fine for an entered character, otherwise raise "
                        "{characteristic} to {rolled_least} or more."
                    ).format(**limits),
                )

        table = table_for(m.character_type)
        seen: set[str] = set()
        repeated: list[str] = []
        for entry in m.ability_entries:
            if entry not in ABILITIES:
                if table:
                    message = _(
                        "'{value}' is not a Gunfight special ability: choose one from the "
                        "{table} table, or remove it."
                    )
                else:
                    message = _(
                        "'{value}' is not a Gunfight special ability: choose one from the "
                        "ability descriptions, or remove it."
                    )
                add(
                    "gunfight.unknown_ability",
                    message.format(value=entry, table=table["name"] if table else ""),
                )
                continue
            if entry in seen:
                if entry not in repeated:
                    repeated.append(entry)
                continue
            seen.add(entry)
            if table is not None and entry not in table_abilities(table):
                kind = CHARACTER_TYPES[m.character_type]["name"]
                if _an(kind):
                    message = _(
                        "{ability} is not on the {table} table that an {type} rolls on: fine "
                        "if your scenario gives it, otherwise pick an ability from that table."
                    )
                else:
                    message = _(
                        "{ability} is not on the {table} table that a {type} rolls on: fine if "
                        "your scenario gives it, otherwise pick an ability from that table."
                    )
                add(
                    "gunfight.ability_not_on_table",
                    message.format(
                        ability=ABILITIES[entry]["name"], table=table["name"], type=kind
                    ),
                )
        for entry in repeated:
            times = m.ability_entries.count(entry)
            add(
                "gunfight.duplicate_ability",
                _(
                    "{ability} is listed {times} times; a repeated ability is re-rolled: keep "
                    "it once and roll (or choose) another ability instead."
                ).format(ability=ABILITIES[entry]["name"], times=times),
            )

        if exp is not None:
            wanted = exp["abilities"]
            have = len(m.ability_entries)
            if have != wanted:
                an = _an(exp["name"])
                if have < wanted and an:
                    message = _(
                        "An {experience} has {abilities}; this character has {have}: add "
                        "{count} more, or change the experience level."
                    )
                elif have < wanted:
                    message = _(
                        "A {experience} has {abilities}; this character has {have}: add "
                        "{count} more, or change the experience level."
                    )
                elif an:
                    message = _(
                        "An {experience} has {abilities}; this character has {have}: remove "
                        "{count}, or change the experience level."
                    )
                else:
                    message = _(
                        "A {experience} has {abilities}; this character has {have}: remove "
                        "{count}, or change the experience level."
                    )
                add(
                    "gunfight.ability_count",
                    message.format(
                        experience=exp["name"],
                        abilities=ngettext(
                            "{count} special ability", "{count} special abilities", wanted
                        ).format(count=wanted),
                        have=have,
                        count=abs(wanted - have),
                    ),
                )

        if m.source == "rolled":
            problems = self._roll_problems(m)
            if problems:
                add(
                    "gunfight.rolls_mismatch",
                    _(
                        "Marked as rolled, but {problems}: put back the rolled values, or set "
                        'the source to "entered".'
                    ).format(problems="; ".join(problems)),
                )

    def _roll_problems(self, m: MemberReport) -> list[str]:
        parsed = _parse_rolls(m.rolls)
        if parsed is None:
            return [_("a recorded roll is not one D6 or one D20 die")]
        d6, d20 = parsed
        problems: list[str] = []
        if len(d6) != len(CHARACTERISTICS):
            problems.append(
                ngettext(
                    "{count} D6 roll recorded instead of {wanted} (one per characteristic)",
                    "{count} D6 rolls recorded instead of {wanted} (one per characteristic)",
                    len(d6),
                ).format(count=len(d6), wanted=len(CHARACTERISTICS))
            )
        else:
            for c, die in zip(CHARACTERISTICS, d6, strict=True):
                if m.characteristics[c] != die + ROLL_ADD:
                    problems.append(
                        _(
                            "{characteristic} is {value} where the D6 rolled {die} ({die} + "
                            "{add} = {total})"
                        ).format(
                            characteristic=LABELS[c],
                            value=_shown(m.characteristics[c]),
                            die=die,
                            add=ROLL_ADD,
                            total=die + ROLL_ADD,
                        )
                    )
        table = table_for(m.character_type)
        exp = EXPERIENCE.get(m.experience)
        if table is None or exp is None:
            return problems
        got: list[str] = []
        used = 0
        for die in d20:
            if len(got) >= exp["abilities"]:
                break
            used += 1
            if not 1 <= die <= 20:
                return [*problems, _("a D20 roll of {die} is impossible").format(die=die)]
            ability = table_result(table, die)
            if ability not in got:
                got.append(ability)
        if used < len(d20) or got != m.ability_entries:
            rolled = ", ".join(ABILITIES[a]["name"] for a in got) or _("no ability")
            problems.append(
                _(
                    "the recorded D20 rolls ({rolls}) on the {table} table give {abilities}, not "
                    "the abilities listed"
                ).format(
                    rolls=", ".join(map(str, d20)) or _("none"),
                    table=table["name"],
                    abilities=rolled,
                )
            )
        return problems

    # ----------------------------------------------------------------- display

    def _describe(self, m: MemberReport) -> None:
        if m.figure == "character":
            m.cost = 1 + (1 if m.sidekick else 0)
            parts = [_("Character"), m.type_label or _("no type"), m.experience_label or "?"]
            if m.sidekick:
                parts.append(_("with Loyal Sidekick"))
            m.summary = " · ".join(parts)
            m.stats = [(LABELS[c], str(m.final[c])) for c in CHARACTERISTICS]
            m.stats += [(_("Move"), f'{m.final["ag"]}"'), (_("Actions"), str(CHARACTER_ACTIONS))]
            for c in CHARACTERISTICS:
                if m.modified[c] != m.final[c]:
                    m.notes.append(
                        _("{characteristic} {value} ({before} before the {limits} limit)").format(
                            characteristic=LABELS[c],
                            value=m.final[c],
                            before=m.modified[c],
                            limits=f"{CHAR_MIN}{DASH}{CHAR_MAX}",
                        )
                    )
            for a in m.abilities:
                ability = ABILITIES[a]
                m.notes.append(
                    _("{term}: {text}").format(term=ability["name"], text=ability["text"])
                )
            if m.sidekick:
                m.notes.append(
                    _(
                        "Loyal sidekick (1 more figure): {profile}, {actions} actions, no "
                        "abilities; never routs until {name} routs."
                    ).format(
                        profile=_profile(TROOPER_PROFILE),
                        actions=TROOPER_ACTIONS,
                        name=m.name or _("this character"),
                    )
                )
            if m.source == "rolled" and m.rolls:
                m.notes.append(_rolled_note(m))
        elif m.figure == "trooper":
            m.cost = m.count
            m.summary = _("Trooper") + (f" {TIMES}{m.count}" if m.count != 1 else "")
            if m.character_type in CHARACTER_TYPES:
                m.summary += f" · {m.type_label}"
            m.stats = [(LABELS[c], str(TROOPER_PROFILE[c])) for c in CHARACTERISTICS]
            m.stats += [
                (_("Move"), f'{TROOPER_PROFILE["ag"]}"'),
                (_("Actions"), str(TROOPER_ACTIONS)),
            ]
            m.notes.append(_("No special abilities. Any hit but a miss routs it."))
        elif m.figure == "rabble":
            m.cost = m.count
            m.summary = _("Rabble") + (f" {TIMES}{m.count}" if m.count != 1 else "")
            if m.character_type in CHARACTER_TYPES:
                m.summary += f" · {m.type_label}"
            m.stats = [
                (_("Move"), f'{RABBLE_MOVE}"'),
                (_("Actions"), str(RABBLE_ACTIONS)),
                ("SK", DASH),
            ]
            m.notes.append(
                _("Moves after all characters; rolls 1D10 with no SK; doesn't track ammunition.")
            )
        else:
            m.cost = 0  # not a figure the book knows: it counts for nothing
            m.summary = _("Unknown figure ({value})").format(value=m.figure_raw or _("none"))
        for w in m.weapons:
            note = _("Weapon: {weapon}") if w.known else _("Weapon: {weapon} (not in the book)")
            m.notes.append(note.format(weapon=w.line))

    def _gang(self, members: list[MemberReport]) -> dict[str, Any]:
        characters = [m for m in members if m.figure == "character"]
        by_experience = {e: sum(1 for m in characters if m.experience == e) for e in EXPERIENCE}
        sidekicks = sum(1 for m in characters if m.sidekick)
        troopers = sum(m.cost for m in members if m.figure == "trooper")
        rabble = sum(m.cost for m in members if m.figure == "rabble")
        total = sum(m.cost for m in members)
        leaders = [m.key for m in characters if "leader" in m.abilities]
        figures: list[dict[str, Any]] = []
        for m in members:
            figures.append(
                {
                    "member": m.key,
                    "name": m.name,
                    "figure": m.figure,
                    "count": m.cost if m.figure != "character" else 1,
                    "stats": m.stats,
                }
            )
            if m.sidekick:
                figures.append(
                    {
                        "member": m.key,
                        "name": _("{name}'s sidekick").format(name=m.name or _("Character")),
                        "figure": "sidekick",
                        "count": 1,
                        "stats": [(LABELS[c], str(TROOPER_PROFILE[c])) for c in CHARACTERISTICS]
                        + [(_("Move"), f'{TROOPER_PROFILE["ag"]}"'), (_("Actions"), "2")],
                    }
                )
        facts = [(_("Characters"), str(len(characters)))]
        facts += [(EXPERIENCE[e]["name"] + "s", str(n)) for e, n in by_experience.items() if n]
        if sidekicks:
            facts.append((_("Loyal sidekicks"), str(sidekicks)))
        facts += [
            (_("Troopers"), str(troopers)),
            (_("Rabble"), str(rabble)),
            (_("Figures"), str(total)),
        ]
        if leaders:
            names = [m.name or _("(no name)") for m in characters if m.key in leaders]
            facts.append((_("Leaders (can rally)"), ", ".join(names)))
        return {
            "characters": len(characters),
            "by_experience": by_experience,
            "sidekicks": sidekicks,
            "troopers": troopers,
            "rabble": rabble,
            "figures": total,
            "leaders": leaders,
            "figure_list": figures,
            "member_list": members,
            "facts": facts,
        }

    # ----------------------------------------------------------------- printing

    def print_cards(self, roster: Mapping[str, Any], report: Report) -> list[Card]:
        """One card per member, in roster order.

        The front has the stat line (BD SK SP AG WP and Move; rabble: Move and SK), the
        actions and figures, and the tracks: a character's BD and WP, one box per point
        (ticked off as injuries take them); a trooper or rabble entry one box per figure
        for routed and for out of the fight (the book's injuries for them).
        The back has the weapons, then "Vital info", the special abilities with their full
        text, what each weapon's rules mean, and the rules the card's abilities and weapons
        use. Troopers and rabble get one card per entry, with ``count`` set.
        """
        roster = roster if isinstance(roster, Mapping) else {}
        gang_name = _str(roster.get("name"))
        raw = _raw_member_data(roster)
        return [_card(m, report, raw.get(m.key, {}), gang_name) for m in _printed(report)]

    def print_sheet(self, roster: Mapping[str, Any], report: Report) -> dict[str, Any]:
        """The figure list: characters (with their abilities' text), troopers and rabble."""
        roster = roster if isinstance(roster, Mapping) else {}
        raw = _raw_member_data(roster)
        members = _printed(report)
        return {
            "stat_labels": [LABELS[c] for c in CHARACTERISTICS] + [_("Move"), _("Actions")],
            "characters": [
                _sheet_character(m, raw.get(m.key, {})) for m in members if m.figure == "character"
            ],
            "troopers": [
                _sheet_group(m, raw.get(m.key, {})) for m in members if m.figure == "trooper"
            ],
            "rabble": [
                _sheet_group(m, raw.get(m.key, {})) for m in members if m.figure == "rabble"
            ],
            "unknown": [
                {"key": m.key, "name": m.name or _unnamed(m), "kind": m.summary}
                for m in members
                if m.figure not in FIGURES
            ],
            "summary": [
                {"label": str(label), "value": str(value)}
                for label, value in report.gang.get("facts", [])
            ],
            "figures": report.total,
            "legal": report.is_legal,
        }

    def quick_reference(self, roster: Mapping[str, Any], report: Report) -> list[Section]:
        """Only what this side uses: its figure types, abilities, weapons and their rules."""
        members = _printed(report)
        figures = {m.figure for m in members}
        sidekick = any(m.sidekick for m in members)
        abilities = [a for m in members for a in m.abilities]
        weapons = [w for m in members for w in m.weapons]

        basics: list[Entry] = []
        if figures & {"character", "trooper"}:
            basics.append(
                Entry(
                    _("Characteristics"),
                    _("{names}; each is measured from {low}{dash}{high}.").format(
                        names=", ".join(f"{LABELS[c]} = {NAMES[c]}" for c in CHARACTERISTICS),
                        low=CHAR_MIN,
                        dash=DASH,
                        high=CHAR_MAX,
                    ),
                )
            )
        if "character" in figures:
            levels = ", ".join(f"{_a(e['name'])} {e['abilities']}" for e in EXPERIENCE.values())
            basics.append(
                Entry(
                    "Character",
                    f"{FIGURE_TEXT['character']} {CHARACTER_ACTIONS} actions a turn; moves "
                    f'1" per AG. Special abilities: {levels}.',
                )
            )
        if "trooper" in figures:
            basics.append(
                Entry(
                    "Trooper",
                    f'{FIGURE_TEXT["trooper"]} {TROOPER_ACTIONS} actions a turn; moves 1" per AG.',
                )
            )
        if sidekick:
            basics.append(Entry(_("Sidekick"), _sidekick_text(_("its character"))))
        if "rabble" in figures:
            basics.append(Entry(_("Rabble"), FIGURE_TEXT["rabble"]))

        injuries: list[Entry] = []
        if "character" in figures:
            injuries.append(_rule_entry("injuries"))
        if figures & {"character", "trooper", "rabble"}:
            injuries.append(_rule_entry("routing"))

        weapon_entries: list[Entry] = []
        for w in weapons:
            ranges = _weapon_range_text(w)
            if w.weapon is None:
                text = _("Not in the book's weapon list: as entered.")
                if w.shots is not None:
                    text = ngettext(
                        "Not in the book's weapon list: as entered. {count} shot.",
                        "Not in the book's weapon list: as entered. {count} shots.",
                        w.shots,
                    ).format(count=w.shots)
            else:
                text = w.weapon["text"]
            weapon_entries.append(Entry(w.name, f"{ranges} {text}" if ranges else text))
        if any(w.weapon and w.weapon["kind"] == "ranged" for w in weapons):
            weapon_entries.insert(0, Entry(_("Ranges"), RANGES_TEXT))

        rule_ids = _rules_used(abilities, weapons)
        sections = [
            Section(_("Figures"), dedupe_entries(basics)),
            Section(_("Injuries and routing"), dedupe_entries(injuries)),
            Section(
                _("Special abilities"),
                dedupe_entries(
                    Entry(ABILITIES[a]["name"], ABILITIES[a]["text"]) for a in abilities
                ),
            ),
            Section(_("Weapons"), dedupe_entries(weapon_entries)),
            Section(_("Rules"), dedupe_entries(_rule_entry(r) for r in rule_ids)),
        ]
        return [s for s in sections if s.entries]


def _parse_rolls(rolls: list[Mapping[str, Any]]) -> tuple[list[int], list[int]] | None:
    """The recorded D6 and D20 results in order, or None if a roll is not one such die."""
    d6: list[int] = []
    d20: list[int] = []
    for r in rolls:
        rolled = r.get("rolled")
        value = _int(rolled[0]) if isinstance(rolled, list) and len(rolled) == 1 else None
        kind = _str(r.get("dice")).upper()
        if value is None or kind not in ("D6", "D20"):
            return None
        (d6 if kind == "D6" else d20).append(value)
    return d6, d20


def _rolled_note(m: MemberReport) -> str:
    """The dice of a rolled character, for its card: 'Rolled: BD 3+4, ...; D20 7 Leader'."""
    parsed = _parse_rolls(m.rolls)
    if parsed is None:
        return _("Rolled (the recorded dice can't be read).")
    d6, d20 = parsed
    parts = [f"{LABELS[c]} {die}+{ROLL_ADD}" for c, die in zip(CHARACTERISTICS, d6, strict=False)]
    table = table_for(m.character_type)
    got: list[str] = []
    for die in d20:
        if table is None or not 1 <= die <= 20:
            parts.append(f"D20 {die}")
            continue
        ability = table_result(table, die)
        if ability in got:
            parts.append(
                _("D20 {die} {ability} (repeat, re-rolled)").format(
                    die=die, ability=ABILITIES[ability]["name"]
                )
            )
        else:
            got.append(ability)
            parts.append(f"D20 {die} {ABILITIES[ability]['name']}")
    return _("Rolled: {dice}.").format(dice=", ".join(parts))


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _bad_stat(value: Any) -> bool:
    return value is not None and _int(value) is None


def _profile(profile: Mapping[str, int]) -> str:
    return ", ".join(f"{LABELS[c]} {profile[c]}" for c in CHARACTERISTICS)


# --------------------------------------------------------------------------- printing helpers

PLAY_RULES: dict[str, dict[str, Any]] = {r["id"]: r for r in CONTENT["play_rules"]}
FIGURE_TEXT: dict[str, str] = {f: CONTENT["figures"][f]["text"] for f in FIGURES}
RANGES_TEXT = "Point blank / normal / long. A shot at long range is one level worse."
# The rules (RULES.md's seed text, in the data's "play_rules") that an ability or a weapon
# refers to, printed after it on the card and on the quick reference.
ABILITY_RULES: dict[str, tuple[str, ...]] = {
    "leader": ("rallying",),
    "discipline": ("rallying",),
    "horseman": ("mounted",),
    "trick_horse": ("mounted",),
    "cool": ("cover",),
    "coyote_cunning": ("cover",),
    "mad_dog": ("cover",),
    "sneaky_dog": ("cover",),
    "white_hat": ("hold_up",),
    "snake_strike": ("sequence",),
    "tactician": ("sequence",),
}
WEAPON_RULES: dict[str, tuple[str, ...]] = {"dynamite": ("dynamite", "throwing_dynamite")}
# A card's mark: a Leader's star first, then by figure and character type.
TYPE_MARKS: dict[str, str] = {
    "lawman": "badge",
    "outlaw": "skull",
    "mexican": "skull",
    "gunfighter": "crosshair",
    "gambler": "diamond",
    "outsider": "hat",
    "indian": "horseshoe",
    "soldier": "hat",
}
# Rabble shooting these are one level worse (seed 004, p. 6).
RABBLE_WORSE: dict[str, str] = {"carbine": "a carbine", "sharps_rifle": "a Sharps rifle"}
# Findings about how a character was made, not how it plays: on the gang sheet, not the card.
NOT_FOR_THE_TABLE = frozenset(
    {
        "gunfight.character_unnamed",
        "gunfight.unknown_source",
        "gunfight.rolls_mismatch",
        "gunfight.characteristic_outside_roll",
    }
)
# A trooper or rabble card has a box per figure; a count beyond this gets no more boxes.
MAX_FIGURE_BOXES = 30


def _printed(report: Report) -> list[MemberReport]:
    members = report.members.values() if isinstance(report.members, Mapping) else ()
    return [m for m in members if isinstance(m, MemberReport)]


def _raw_member_data(roster: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """Each member's ``data`` by its report key (as ``evaluate`` keys them)."""
    raw_members = roster.get("members")
    if not isinstance(raw_members, list):
        return {}
    found: dict[str, Mapping[str, Any]] = {}
    for key, raw in zip(member_keys(raw_members), raw_members, strict=True):
        data = raw.get("data") if isinstance(raw, Mapping) else None
        found[key] = data if isinstance(data, Mapping) else {}
    return found


def _unnamed(m: MemberReport) -> str:
    if m.figure == "character":
        return _("Unnamed character")
    if m.figure == "trooper":
        return _("Troopers")
    if m.figure == "rabble":
        return _("Rabble")
    return _("Unknown figure")


def _kind(m: MemberReport) -> str:
    if m.figure == "character":
        parts = [_("Character"), m.type_label or _("no type"), m.experience_label or "?"]
        if "leader" in m.abilities:
            parts.append(_("Leader"))
        return " · ".join(parts)
    if m.figure in ("trooper", "rabble"):
        parts = [_(FIGURE_LABELS[m.figure])]
        if m.character_type in CHARACTER_TYPES:
            parts.append(m.type_label)
        return " · ".join(parts)
    return m.summary


def _mark(m: MemberReport) -> str:
    if m.figure == "character":
        if "leader" in m.abilities:
            return "star"
        return TYPE_MARKS.get(m.character_type, "circle")
    if m.figure == "trooper":
        return "crosshair"
    return "circle"


def _figures(m: MemberReport) -> int:
    return max(1, min(m.count, MAX_FIGURE_BOXES))


def _tracks(m: MemberReport) -> list[Track]:
    if m.figure == "character":
        tracks = [
            Track("BD", m.final["bd"], _("0: dead")),
            Track("WP", m.final["wp"], _("0: routed")),
        ]
        if m.sidekick:
            tracks.append(Track(_("Sidekick"), 1, _("wound or mortal: out")))
        return tracks
    if m.figure in ("trooper", "rabble"):
        routed, out = _("any hit but a miss"), _("wound or mortal")
        if m.count > MAX_FIGURE_BOXES:
            more = _("{note} (first {shown} of {count})")
            routed = more.format(note=routed, shown=MAX_FIGURE_BOXES, count=m.count)
            out = more.format(note=out, shown=MAX_FIGURE_BOXES, count=m.count)
        return [
            Track(_("Routed"), _figures(m), routed),
            Track(_("Out"), _figures(m), out),
        ]
    return []


def _sidekick_text(owner: str, *, short: bool = False) -> str:
    """The follower of Loyal Sidekick; ``short`` leaves out what the ability's text says."""
    text = _(
        '1 more figure: {profile}, {actions} actions a turn, moves {move}", no special abilities.'
    ).format(profile=_profile(TROOPER_PROFILE), actions=TROOPER_ACTIONS, move=TROOPER_PROFILE["ag"])
    if short:
        return text
    return _(
        "{text} It never routs until {owner} routs; a wound incapacitates it, a mortal kills it."
    ).format(text=text, owner=owner)


def _rule_entry(rule_id: str) -> Entry:
    rule = PLAY_RULES[rule_id]
    return Entry(rule["name"], rule["text"])


def _rules_used(abilities: list[str], weapons: list[WeaponReport]) -> list[str]:
    ids: list[str] = []
    for a in abilities:
        ids += ABILITY_RULES.get(a, ())
    for w in weapons:
        if w.weapon is not None:
            ids += WEAPON_RULES.get(w.weapon["id"], ())
    return list(dict.fromkeys(ids))


def _weapon_range(m: MemberReport, w: WeaponReport) -> str:
    kind = w.weapon["kind"] if w.weapon else "ranged"
    if kind == "close_combat":
        return _('hit within 1"')
    if kind == "thrown":
        bd = m.final.get("bd") if m.figure in ("character", "trooper") else None
        return f'2 {TIMES} BD ({2 * bd}")' if bd else f"2 {TIMES} BD"
    if w.point_blank is None and w.normal is None and w.long is None:
        return ""
    return f"{_range(w.point_blank)} / {_range(w.normal)} / {_range(w.long)}"


def _weapon_range_text(w: WeaponReport) -> str:
    if w.point_blank is None and w.normal is None and w.long is None:
        return ""
    return _("Point blank {point_blank}, normal {normal}, long {long}.").format(
        point_blank=_range(w.point_blank), normal=_range(w.normal), long=_range(w.long)
    )


def _weapon_note(m: MemberReport, w: WeaponReport, raw: Any) -> str:
    parts: list[str] = []
    if w.weapon is None:
        parts.append(_("not in the book: as entered"))
        if w.shots is not None:
            parts.append(ngettext("{count} shot", "{count} shots", w.shots).format(count=w.shots))
    elif w.shots:
        reload = w.weapon["reload_actions"] or 1
        if w.weapon["id"] == "pistol" and "quick_draw" in m.abilities:
            reload = 1
        if m.figure == "rabble":
            parts.append(_("rabble keep no count of ammunition"))
        elif w.shots == 1:
            parts.append(
                ngettext(
                    "reload after every shot ({count} action)",
                    "reload after every shot ({count} actions)",
                    reload,
                ).format(count=reload)
            )
        else:
            parts.append(
                ngettext(
                    "{shots} shots, reload {count} action",
                    "{shots} shots, reload {count} actions",
                    reload,
                ).format(shots=w.shots, count=reload)
            )
    notes = raw.get("notes") if isinstance(raw, Mapping) else None
    if isinstance(notes, str) and notes.strip():
        parts.append(notes.strip())
    return "; ".join(parts)


def _card_weapons(m: MemberReport, data: Mapping[str, Any]) -> list[Weapon]:
    raw_weapons = data.get("weapons")
    raw_weapons = raw_weapons if isinstance(raw_weapons, list) else []
    raw_weapons = raw_weapons + [None] * (len(m.weapons) - len(raw_weapons))
    return [
        Weapon(w.name, range=_weapon_range(m, w), note=_weapon_note(m, w, raw))
        for w, raw in zip(m.weapons, raw_weapons, strict=False)
    ]


def _vital_info(m: MemberReport, gang_name: str) -> list[Entry]:
    """Who the figure is ("Veteran Lawman of <side>"), its limits, its sidekick."""
    if m.figure == "character":
        what = " ".join(x for x in (m.experience_label, m.type_label) if x) or _("Character")
        who = _("{what} of {side}.").format(what=what, side=gang_name) if gang_name else f"{what}."
        entries = [Entry(_("Character"), who)]
        clamped = [_clamped_note(m, c) for c in CHARACTERISTICS if m.modified[c] != m.final[c]]
        if clamped:
            limit = _("{limits} limit").format(limits=f"{CHAR_MIN}{DASH}{CHAR_MAX}")
            entries.append(Entry(limit, "; ".join(clamped) + "."))
        if m.sidekick:
            entries.append(Entry(_("Sidekick"), _sidekick_text("", short=True)))
        return entries
    if m.figure in ("trooper", "rabble"):
        what = (
            ngettext("{count} figure", "{count} figures", m.count).format(count=m.count)
            if m.count >= 1
            else _("Figures")
        )
        if m.character_type in CHARACTER_TYPES:
            what = f"{what} ({m.type_label})"
        what = _("{what} of {side}.").format(what=what, side=gang_name) if gang_name else f"{what}."
        text = f"{what} {FIGURE_TEXT[m.figure]}"
        if m.figure == "rabble":
            text += " " + _(
                "They roll 1D10 alone to shoot or hit, and shots and hits against rabble are "
                "one level better."
            )
        return [Entry(_(FIGURE_LABELS[m.figure]), text)]
    return [Entry(_("Unknown figure"), _("Not a Character, Trooper or Rabble: see the notes."))]


def _clamped_note(m: MemberReport, c: str) -> str:
    return _("{characteristic} {value} ({before} before the {limits} limit)").format(
        characteristic=LABELS[c],
        value=m.final[c],
        before=m.modified[c],
        limits=f"{CHAR_MIN}{DASH}{CHAR_MAX}",
    )


def _table_notes(m: MemberReport) -> list[str]:
    """Notes for the table that come from the figure's weapons, not from a finding."""
    notes: list[str] = []
    ids = [w.weapon["id"] for w in m.weapons if w.weapon is not None]
    if m.figure == "rabble":
        for wid in dict.fromkeys(ids):
            if wid in RABBLE_WORSE:
                notes.append(
                    _("Rabble shooting {weapon} are one level worse.").format(
                        weapon=RABBLE_WORSE[wid]
                    )
                )
    if m.figure == "character" and ids.count("pistol") >= 2:
        if "ambidextrous" in m.abilities:
            notes.append(
                _(
                    "Two pistols: firing both is one level worse (Ambidextrous: no off-hand "
                    "penalty)."
                )
            )
        else:
            notes.append(
                _(
                    "Two pistols: firing both is one level worse, and so is shooting with the "
                    "off hand."
                )
            )
    return notes


def _card(m: MemberReport, report: Report, data: Mapping[str, Any], gang_name: str) -> Card:
    known = [w for w in m.weapons if w.weapon is not None]
    traits = [Entry(w.name, w.weapon["text"]) for w in known]
    if any(w.weapon["kind"] == "ranged" for w in known):
        traits.insert(0, Entry(_("Ranges"), RANGES_TEXT))
    sections = [
        Section(_("Vital info"), tuple(_vital_info(m, gang_name))),
        Section.of(
            _("Special abilities"),
            ((ABILITIES[a]["name"], ABILITIES[a]["text"]) for a in m.abilities),
        ),
        Section(_("Weapon traits"), dedupe_entries(traits)),
        Section(_("Rules"), tuple(_rule_entry(r) for r in _rules_used(m.abilities, m.weapons))),
    ]
    actions = _("Actions")  # the stat line's label for actions, as _describe wrote it
    return Card(
        key=m.key,
        name=m.name or _unnamed(m),
        kind=_kind(m),
        mark=_mark(m),
        stats=[Stat(str(label), str(value)) for label, value in m.stats if label != actions],
        tracks=_tracks(m),
        facts=[Stat(str(label), str(value)) for label, value in m.stats if label == actions]
        + [Stat(_("Figures"), str(m.cost))],
        weapons=_card_weapons(m, data),
        sections=[s for s in sections if s.entries],
        play_notes=play_notes(
            f for f in report.findings_for(m.key) if f.code not in NOT_FOR_THE_TABLE
        )
        + _table_notes(m),
        count=m.count if m.figure in ("trooper", "rabble") and m.count >= 1 else 1,
    )


def _sheet_weapons(m: MemberReport, data: Mapping[str, Any]) -> list[dict[str, str]]:
    return [{"name": w.name, "range": w.range, "note": w.note} for w in _card_weapons(m, data)]


def _sheet_character(m: MemberReport, data: Mapping[str, Any]) -> dict[str, Any]:
    notes = [_clamped_note(m, c) for c in CHARACTERISTICS if m.modified[c] != m.final[c]]
    if m.source == "rolled" and m.rolls:
        notes.append(_rolled_note(m))
    sidekick = None
    if m.sidekick:
        sidekick = {
            "name": _("{name}'s sidekick").format(name=m.name or _("Character")),
            "stats": [str(TROOPER_PROFILE[c]) for c in CHARACTERISTICS]
            + [f'{TROOPER_PROFILE["ag"]}"', str(TROOPER_ACTIONS)],
            "text": _sidekick_text(m.name or _("the character")),
        }
    return {
        "key": m.key,
        "position": m.position,
        "name": m.name or _unnamed(m),
        "kind": _kind(m),
        "stats": [str(value) for _label, value in m.stats],
        "abilities": [{"name": a["name"], "text": a["text"]} for a in m.ability_rows],
        "weapons": _sheet_weapons(m, data),
        "notes": notes,
        "sidekick": sidekick,
        "figures": m.cost,
        "legal": not m.has_errors,
    }


def _sheet_group(m: MemberReport, data: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "key": m.key,
        "position": m.position,
        "name": m.name or _unnamed(m),
        "kind": _kind(m),
        "count": m.count,
        "stats": [{"label": str(label), "value": str(value)} for label, value in m.stats],
        "weapons": _sheet_weapons(m, data),
        "legal": not m.has_errors,
    }


SYSTEM = Gunfight()
