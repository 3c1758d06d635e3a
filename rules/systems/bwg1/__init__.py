"""Blackwater Gulch v1.1.2: build every member yourself (seed 002, French translation).

A roster for this system is a dict::

    {
        "system": "bwg1",
        "name": "The Dalton Boys",
        "limit": 400,                      # optional Fame limit
        "members": [
            {
                "key": "1",                # stable id of the member
                "name": "Bill",
                "type": "leader",          # leader | professional | henchman
                "profession": "gunslinger",  # "" for henchmen
                "points": {"str": 2, "qui": 3, "sta": 3, "int": 3, "rc": 5, "mc": 4},
                "weapons": [{"name": "Bowie knife", "kind": "melee", "level": 3,
                             "hands": 1, "strength": "M", "traits": []}],
                "horse": {"name": "Mule", "str": 3, "qui": 3, "sta": 2, "int": 2,
                          "speed": 7, "xp": 10},   # or None
                "advances": {"rc": 1, "str": -1},  # optional, written by a campaign
            },
        ],
    }

(A roster file gives the same fields under each member's ``data``.)

``points`` are the attribute points spent on top of the 1 every attribute starts at.
``advances`` are attribute points gained (positive) or lost to injuries (negative) during a
campaign: each attribute is 1 + its points + the first-of-profession bonus + its advance.
Advances don't count against the type's points (20/15/10); the final value must still be 1
to 6, and the skills at 4 and 6 follow from it. Recruitment order is the order of
``members``, but for the Leader: he is always the first recruit (seed 002, p. 12), so he
takes his profession's +1 wherever he is listed.

A weapon or horse named as in the book (``BOOK_WEAPONS``, ``BOOK_HORSES``; the English or
the French book's name, ignoring case and spacing) has the book's figures: different figures
entered are flagged and replaced by the book's, in XP, Fame and on the card. Other names are
the user's own items and keep the figures entered.

In French the member types, professions, skills, weapon traits, weapons and horses are the
French book's own words and texts (``data/book_fr.json``, with their pages), not a
translation of ours; our own messages go through ``rules.i18n`` (``locale/``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import i18n
from rules.base import Finding, Report, RuleDoc, Severity, as_int, load_content, member_keys
from rules.base import as_str as _str
from rules.printing import Card, Entry, Section, Stat, Track, dedupe_entries, play_notes
from rules.printing import Weapon as PrintedWeapon

_ = i18n.gettext
ngettext = i18n.ngettext
pgettext = i18n.pgettext

ERROR = Severity.ERROR
WARNING = Severity.WARNING

SEED = "002_4e994b1f6a3b36b6.txt"

ATTRIBUTES: tuple[str, ...] = ("str", "qui", "sta", "int", "rc", "mc")
ATTRIBUTE_LABELS: dict[str, str] = {
    "str": "Str",
    "qui": "Qui",
    "sta": "Sta",
    "int": "Int",
    "rc": "RC",
    "mc": "MC",
}
ATTRIBUTE_NAMES: dict[str, str] = {
    "str": "Strength",
    "qui": "Quickness",
    "sta": "Stamina",
    "int": "Intellect",
    "rc": "Ranged Combat",
    "mc": "Melee Combat",
}
ATTRIBUTE_MIN = 1
ATTRIBUTE_MAX = 6
MIN_MEMBERS = 5
BASE_TO_HIT = 4
MAX_TO_HIT = 6
FIRST_GANG_FAME = 400

# The French book's words (seed 002 is the French edition): used when French is active.
#: this game's data: its book's content (and, for bwg1, the French book's words)
DATA = Path(__file__).parent / "data"
BOOK_FR: dict[str, Any] = load_content(DATA / "book_fr.json")


def book_text(section: str, key: str, part: str) -> str | None:
    """The French book's word or text for ``key`` of ``section`` when French is active,
    else None (the English text is ours, from the same book)."""
    if i18n.language() != "fr":
        return None
    entry = BOOK_FR.get(section, {}).get(key)
    return entry.get(part) if isinstance(entry, Mapping) else None


def attribute_name(attribute: str) -> str:
    """An attribute's full name as the book prints it ("Strength", "Force")."""
    return book_text("attributes", attribute, "name") or ATTRIBUTE_NAMES[attribute]


@dataclass(frozen=True)
class MemberType:
    id: str
    label_en: str
    xp: int
    hp: int
    dp: int
    points: int
    has_profession: bool
    plural_en: str = ""

    @property
    def label(self) -> str:
        """As the book in the active language calls it: Leader, Chef."""
        return book_text("member_types", self.id, "label") or self.label_en

    @property
    def plural(self) -> str:
        return book_text("member_types", self.id, "plural") or self.plural_en


MEMBER_TYPES: dict[str, MemberType] = {
    t.id: t
    for t in (
        MemberType("leader", "Leader", 100, 3, 3, 20, True, "Leaders"),
        MemberType("professional", "Professional", 75, 2, 2, 15, True, "Professionals"),
        MemberType("henchman", "Henchman", 50, 1, 1, 10, False, "Henchmen"),
    )
}


@dataclass(frozen=True)
class Profession:
    id: str
    label_en: str
    attribute: str
    in_play_en: str
    as_leader_en: str
    weapon_grace: int = 0

    @property
    def label(self) -> str:
        """As the book in the active language calls it: Bounty Hunter, Chasseur de primes."""
        return book_text("professions", self.id, "label") or self.label_en

    @property
    def in_play(self) -> str:
        return book_text("professions", self.id, "in_play") or self.in_play_en

    @property
    def as_leader(self) -> str:
        return book_text("professions", self.id, "as_leader") or self.as_leader_en


PROFESSIONS: dict[str, Profession] = {
    p.id: p
    for p in (
        Profession(
            "bounty_hunter",
            "Bounty Hunter",
            "str",
            "Uses weapons one level above its RC or MC without penalty.",
            'Friendly models within 12" may re-roll failed Morale tests.',
            weapon_grace=1,
        ),
        Profession(
            "gambler",
            "Gambler",
            "qui",
            "May re-roll one die, like Leader's Luck; +1 DP in melee only.",
            "Leader's Luck becomes 4 dice and may be lent to friends within 12\".",
        ),
        Profession(
            "prospector",
            "Prospector",
            "sta",
            'Treats outdoor terrain as heavy cover; moves 6" through difficult terrain '
            "without a Qui roll (cannot run).",
            'Those bonuses extend to friends within 12".',
        ),
        Profession(
            "doctor",
            "Doctor",
            "int",
            'May revive an out-of-action friend within 1": Int roll, must roll at most the '
            "patient's Sta; a 1 always fails.",
            "Teaches the gang to patch itself up.",
        ),
        Profession(
            "wrassler",
            "Wrassler",
            "mc",
            "One bonus melee attack when using a melee weapon; fists count as weapons.",
            "Counts as an extra model for enemy Morale and as 2 models in melee.",
        ),
        Profession(
            "gunslinger",
            "Gunslinger",
            "rc",
            "May give up movement to aim: -1 to the to-hit target number.",
            'No penalty for a second target with two pistols; +2D6" long range with a '
            "Longarm or Repeater.",
        ),
    )
}


@dataclass(frozen=True)
class Skill:
    name: str  # the book's name, in English in both editions
    attribute: str
    at: int
    text_en: str

    @property
    def text(self) -> str:
        return book_text("skills", self.name, "text") or self.text_en


SKILLS: tuple[Skill, ...] = (
    Skill(
        "Brute Strength",
        "str",
        4,
        "In melee, force the defender to re-roll one successful save die.",
    ),
    Skill(
        "Strong Arms",
        "str",
        6,
        "-1 to the to-hit target number when shooting; +1D6 with thrown weapons.",
    ),
    Skill("Bravery", "int", 4, "-1 to the Morale target number."),
    Skill("Duck & Cover", "int", 6, "+1 DP."),
    Skill("Run & Gun", "qui", 4, "May shoot after running, at +1 to the target number."),
    Skill("Knowhow", "qui", 6, "Uses weapons above its RC/MC level without penalty."),
    Skill(
        "Quickdraw",
        "rc",
        4,
        "No to-hit penalty for two pistols in one turn (same target).",
    ),
    Skill("Deadeye", "rc", 6, "No penalty for long-range rifle shots."),
    Skill(
        "Duelist",
        "mc",
        4,
        "No to-hit penalty for two 1-handed melee weapons (same target).",
    ),
    Skill(
        "Point Blank",
        "mc",
        6,
        "May use a pistol in melee at the pistol's Str, rolling MC.",
    ),
    Skill("Hearty", "sta", 4, "Re-roll one failed save die."),
    Skill("Really Tough", "sta", 6, "+1 HP."),
)

WEAPON_KINDS = {"ranged": "RC", "melee": "MC"}

# The builder's one-line digests (by trait id): see trait_digest().
WEAPON_TRAITS: dict[str, str] = {
    "pistol": "Pistol: 1-handed; a pistol in each hand shoots twice.",
    "longarm": "Longarm: 2-handed single shot; re-roll one missed die.",
    "shotgun": "Shotgun: 2-handed; +1 Str at short range.",
    "repeater": "Repeater: 2-handed; +1D6 to hit.",
    "thrown": "Thrown: 1-handed; range = Str + 1D6; never one in each hand.",
    "parry": "Parry: +1 DP against melee; two 1-handed parry weapons: +1 DP and "
    "re-roll one failed save.",
    "explosive": 'Explosive: 1D6" blast.',
    "flaming": "Flaming: sets the target on fire.",
}


def trait_digest(trait: str) -> str:
    """A weapon trait's one-line digest, in the book's words in French."""
    return book_text("traits", trait, "digest") or WEAPON_TRAITS.get(trait, trait)


RANGED_TRAITS = frozenset({"pistol", "longarm", "shotgun", "repeater", "thrown"})
MELEE_TRAITS = frozenset({"parry"})

HORSE_FIELDS = ("str", "qui", "sta", "int", "speed", "xp")
HORSE_LABELS = {
    "str": "Str",
    "qui": "Qui",
    "sta": "Sta",
    "int": "Int",
    "speed": "Speed",
    "xp": "XP",
}

CONTENT: dict[str, Any] = load_content(DATA / "content.json")


def item_key(name: Any) -> str:
    """How a weapon's or horse's name is matched with the book's: case and spacing aside."""
    return " ".join(name.split()).casefold() if isinstance(name, str) else ""


def _by_name(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item_key(n): e for e in entries for n in (e["name"], *e.get("aliases", ()))}


# The book's own items (seed 002): the three weapons of the example Leader (p. 12, the only
# levels the seed gives) and the four horses (p. 32), by name and by the French book's name.
BOOK_WEAPONS: dict[str, dict[str, Any]] = _by_name(CONTENT["weapons"])
BOOK_HORSES: dict[str, dict[str, Any]] = _by_name(CONTENT["horses"])
_BOOK_WEAPON_LIST = ", ".join(f"{w['name']} {w['level']}" for w in CONTENT["weapons"])
_BOOK_HORSE_LIST = ", ".join(f"{h['name']} {h['xp']} XP" for h in CONTENT["horses"])

_PROFESSION_LIST = ", ".join(p.label_en for p in PROFESSIONS.values())


def _profession_list() -> str:
    """The professions, for a message, as the active language's book names them."""
    return ", ".join(p.label for p in PROFESSIONS.values())


def book_item_name(name: str, book: Mapping[str, Any] | None, section: str) -> str:
    """A book weapon's or horse's name in the active language's book ("Couteau Bowie"),
    else the name as entered."""
    if book is not None:
        name = book_text(section, book["name"], "name") or name
    return item_name(name, section)


# The French names of every item the app ships (fixtures/bwg1_content.json): the book's, or
# ours for the sample weapons the book does not list ("sample_weapons"), by the English name.
_FRENCH_ITEM_NAMES: dict[str, dict[str, str]] = {
    section: {item_key(en): entry["name"] for part in parts for en, entry in BOOK_FR[part].items()}
    for section, parts in (("weapons", ("weapons", "sample_weapons")), ("horses", ("horses",)))
}


def item_name(name: str, section: str) -> str:
    """A weapon's or horse's name as the reader's language names it: in French, the book's
    name ("Couteau Bowie", "Petit cheval") or the glossary's for a sample weapon ("Fusil
    Sharps"); any other name as entered."""
    if i18n.language() != "fr" or not isinstance(name, str):
        return name
    return _FRENCH_ITEM_NAMES.get(section, {}).get(item_key(name), name)


def kind_word(kind: str) -> str:
    """A weapon's kind, "ranged" or "melee", as the reader's book says it ("à distance",
    "corps à corps": seed 002, p. 30)."""
    book = book_text("weapon_kinds", kind, "label")
    if book:
        return book
    if kind == "ranged":
        return pgettext("weapon kind", "ranged")
    if kind == "melee":
        return pgettext("weapon kind", "melee")
    return kind


def hands_word(hands: Any) -> str:
    """The hands a weapon needs: "1-handed", "à une main", "à deux mains" (seed 002, p. 30)."""
    count = 2 if str(hands) == "2" else 1
    return book_text("hands", str(count), "label") or ngettext(
        "{count}-handed", "{count}-handed", count
    ).format(count=count)


RULES: tuple[RuleDoc, ...] = (
    RuleDoc(
        "bwg1.too_few_members",
        ERROR,
        "A gang has at least 5 members.",
        "seed 002, p. 12 (Nom, renommée & taille de gang)",
    ),
    RuleDoc(
        "bwg1.no_leader",
        ERROR,
        "A gang has a Leader.",
        "seed 002, p. 12 (Le chef)",
    ),
    RuleDoc(
        "bwg1.too_many_leaders",
        ERROR,
        "A gang has exactly one Leader; each extra Leader is flagged.",
        "seed 002, p. 12 (Le chef)",
    ),
    RuleDoc(
        "bwg1.too_few_henchmen",
        ERROR,
        "At least half of the members other than the Leader are Henchmen.",
        "seed 002, p. 12 (Le reste de la Gang)",
    ),
    RuleDoc(
        "bwg1.fame_over_limit",
        ERROR,
        "Fame (every member's XP plus horses' XP) is at most the gang's Fame limit, if set.",
        "seed 002, p. 12 (Nom, renommée & taille de gang); p. 23 (Chevaux)",
    ),
    RuleDoc(
        "bwg1.unknown_type",
        ERROR,
        "Every member is a Leader, a Professional or a Henchman.",
        "seed 002, p. 10 (Statistiques); p. 12 (Recruter)",
    ),
    RuleDoc(
        "bwg1.profession_missing",
        ERROR,
        "The Leader and every Professional have a profession.",
        "seed 002, p. 12 (Le chef; Les professionnels)",
    ),
    RuleDoc(
        "bwg1.unknown_profession",
        ERROR,
        f"A profession is one of: {_PROFESSION_LIST}.",
        "seed 002, pp. 13-15 (professions)",
    ),
    RuleDoc(
        "bwg1.henchman_profession",
        ERROR,
        "Henchmen have no profession.",
        "seed 002, p. 12 (hommes de main: no special abilities or attribute bonus)",
    ),
    RuleDoc(
        "bwg1.points_overspent",
        ERROR,
        "Attribute points spent are at most the type's allowance "
        "(Leader 20, Professional 15, Henchman 10).",
        "seed 002, p. 12 (Recruter)",
    ),
    RuleDoc(
        "bwg1.points_unspent",
        WARNING,
        "Attribute points left unspent are wasted.",
        "seed 002, p. 12 (Recruter)",
    ),
    RuleDoc(
        "bwg1.attribute_above_max",
        ERROR,
        "No attribute exceeds 6.",
        "seed 002, p. 10 (Attributs)",
    ),
    RuleDoc(
        "bwg1.profession_bonus_above_max",
        ERROR,
        "The first-of-profession +1 may not push an attribute above 6.",
        "seed 002, p. 10 (Attributs); pp. 13-15 (professions)",
        decision="A bonus past 6 is a validation error, not silently capped (RULES.md).",
    ),
    RuleDoc(
        "bwg1.attribute_below_min",
        ERROR,
        "Every attribute is at least 1 (no negative points, and no campaign injury takes "
        "one below 1).",
        "seed 002, p. 10 (Attributs)",
    ),
    RuleDoc(
        "bwg1.weapons_over_strength",
        ERROR,
        "A member carries at most Str weapons.",
        "seed 002, p. 12 (Le chef: Str 3 to carry 3 weapons)",
    ),
    RuleDoc(
        "bwg1.weapon_above_skill",
        WARNING,
        "A weapon above the member's RC (ranged) or MC (melee) adds +1 to the to-hit "
        "target number per level above (max 6); Bounty Hunters get one level of grace, "
        "Knowhow removes the penalty.",
        "seed 002, p. 13 (Bounty Hunter); p. 11 (Knowhow); p. 17 and p. 35 (modifiers)",
    ),
    RuleDoc(
        "bwg1.thrown_in_each_hand",
        WARNING,
        "A member can't use a thrown weapon in each hand.",
        "seed 002, p. 30 (Arme de jet)",
    ),
    RuleDoc(
        "bwg1.weapon_level_differs",
        WARNING,
        f"A weapon of the book ({_BOOK_WEAPON_LIST}) has the book's level; a different "
        "level entered is replaced by the book's in XP, Fame and on the card.",
        "seed 002, p. 12 (Le chef: the example Leader's weapons)",
        decision="The seed gives levels only for these three weapons (its General Store "
        "price list is missing). A weapon is the book's when its name is the book's, in "
        "English or French, ignoring case; any other name is the user's own weapon and "
        "keeps the level entered.",
    ),
    RuleDoc(
        "bwg1.horse_figures_differ",
        WARNING,
        f"A horse of the book ({_BOOK_HORSE_LIST}) has the book's Str, Qui, Sta, Int, "
        "Speed and XP; different figures entered are replaced by the book's in Fame and on "
        "the card.",
        "seed 002, p. 32 (Attributs des chevaux)",
        decision="A horse is the book's when its name is the book's, in English or French "
        "(Mule, Petit cheval, Grand cheval, Cheval de guerre), ignoring case; any other name "
        "is the user's own horse and keeps the figures entered.",
    ),
    RuleDoc(
        "bwg1.gang_unnamed",
        WARNING,
        "The gang has a name (it heads the gang sheet).",
        "seed 002, p. 12 (Nom, renommée & taille de gang)",
        decision="A warning, like an unnamed member: the book asks for both names in the "
        "same sentence, and a name changes nothing in play.",
    ),
    RuleDoc(
        "bwg1.member_unnamed",
        WARNING,
        "Every member has a name (it goes on the gang sheet).",
        "seed 002, p. 12 (Nom, renommée & taille de gang)",
    ),
)
RULE_CODES = frozenset(r.code for r in RULES)
_SEVERITY = {r.code: r.severity for r in RULES}


# --------------------------------------------------------------------------- parsing


def _differing(
    data: Mapping[str, Any], book: Mapping[str, Any], fields: tuple[str, ...]
) -> tuple[tuple[str, Any], ...]:
    """The figures entered that are not the book's: (field, as entered), in ``fields`` order.
    A figure left out is not a difference: the book's is used."""
    return tuple((f, data[f]) for f in fields if f in data and as_int(data[f]) != book[f])


@dataclass(frozen=True)
class Weapon:
    name: str
    kind: str
    level: int
    hands: int = 1
    strength: str = ""
    traits: tuple[str, ...] = ()
    book: bool = False  # named as one of the book's weapons: the level is the book's
    differs: tuple[tuple[str, Any], ...] = ()  # the book's figures entered otherwise

    @classmethod
    def from_dict(cls, data: Any) -> Weapon:
        data = data if isinstance(data, Mapping) else {}
        raw_traits = data.get("traits")
        traits = tuple(
            t.strip().lower()
            for t in (raw_traits if isinstance(raw_traits, list | tuple) else ())
            if isinstance(t, str)
        )
        kind = _str(data.get("kind")).lower()
        if kind not in WEAPON_KINDS:
            kind = "ranged" if RANGED_TRAITS & set(traits) else "melee"
        book = BOOK_WEAPONS.get(item_key(data.get("name")))
        level = max(0, _int(data.get("level")))
        differs: tuple[tuple[str, Any], ...] = ()
        if book is not None:
            differs = _differing(data, book, ("level",))
            level = book["level"]
        name = _str(data.get("name")) or _("Unnamed weapon")
        return cls(
            name=book_item_name(name, book, "weapons"),
            kind=kind,
            level=level,
            hands=2 if _int(data.get("hands"), 1) == 2 else 1,
            strength=_str(str(data.get("strength") or "")),
            traits=traits,
            book=book is not None,
            differs=differs,
        )

    @property
    def skill_attribute(self) -> str:
        return "rc" if self.kind == "ranged" else "mc"

    @property
    def kind_label(self) -> str:
        """ "à distance", "corps à corps" (the reader's book's words)."""
        return kind_word(self.kind)


@dataclass(frozen=True)
class Horse:
    name: str
    str: int
    qui: int
    sta: int
    int: int
    speed: int
    xp: int
    book: bool = False  # named as one of the book's horses: the figures are the book's
    differs: tuple[tuple[str, Any], ...] = ()  # the book's figures entered otherwise

    @classmethod
    def from_dict(cls, data: Any) -> Horse | None:
        if not isinstance(data, Mapping):
            return None
        book = BOOK_HORSES.get(item_key(data.get("name")))
        if book is None:
            values = {f: max(0, _int(data.get(f))) for f in HORSE_FIELDS}
            return cls(name=_str(data.get("name")) or _("Horse"), **values)
        return cls(
            name=book_item_name(_str(data.get("name")), book, "horses"),
            **{f: book[f] for f in HORSE_FIELDS},
            book=True,
            differs=_differing(data, book, HORSE_FIELDS),
        )


# --------------------------------------------------------------------------- results


@dataclass
class WeaponReport:
    weapon: Weapon
    skill: int
    grace: int
    penalty: int

    @property
    def target(self) -> int:
        """The to-hit target number with this weapon, before situational modifiers."""
        return min(MAX_TO_HIT, BASE_TO_HIT + self.penalty)


@dataclass
class MemberReport:
    key: str
    name: str
    position: int
    type: MemberType | None
    type_id: str
    profession: Profession | None
    profession_id: str
    spent: dict[str, int]
    attributes: dict[str, int]
    bonus_attribute: str | None
    points_available: int
    xp: int
    hp: int
    dp: int
    skills: list[Skill]
    weapons: list[WeaponReport]
    horse: Horse | None
    # Campaign advances by attribute (only the ones not 0), already in ``attributes``.
    advances: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    @property
    def points_spent(self) -> int:
        return sum(self.spent.values())

    @property
    def points_left(self) -> int:
        return self.points_available - self.points_spent

    @property
    def weapon_xp(self) -> int:
        return sum(w.weapon.level for w in self.weapons)

    @property
    def horse_xp(self) -> int:
        return self.horse.xp if self.horse else 0

    @property
    def fame(self) -> int:
        """What this member brings to the gang's Fame: its XP and its horse's."""
        return self.xp + self.horse_xp

    @property
    def type_label(self) -> str:
        return self.type.label if self.type else self.type_id or "?"

    @property
    def profession_label(self) -> str:
        if self.profession:
            return self.profession.label
        return self.profession_id

    @property
    def has_errors(self) -> bool:
        return any(f.is_error for f in self.findings)

    @property
    def cost(self) -> int:
        """What this member adds to the gang's total (Fame)."""
        return self.fame

    @property
    def summary(self) -> str:
        parts = [self.type_label]
        if self.profession_label:
            parts.append(self.profession_label)
        return " · ".join(parts)

    @property
    def stats(self) -> list[tuple[str, str]]:
        """The stat line as the gang sheet prints it."""
        line = [(ATTRIBUTE_LABELS[a], str(self.attributes[a])) for a in ATTRIBUTES]
        return [*line, ("XP", str(self.xp)), ("HP", str(self.hp)), ("DP", str(self.dp))]

    @property
    def advances_text(self) -> str:
        """The campaign advances, gains first: "+1 RC, \u22121 Str" ("" for none)."""
        ordered = [a for a in ATTRIBUTES if self.advances.get(a, 0) > 0]
        ordered += [a for a in ATTRIBUTES if self.advances.get(a, 0) < 0]
        return ", ".join(f"{_signed(self.advances[a])} {ATTRIBUTE_LABELS[a]}" for a in ordered)

    @property
    def notes(self) -> list[str]:
        notes = []
        if self.bonus_attribute:
            notes.append(
                _("First {profession}: +1 {attribute}").format(
                    profession=self.profession_label,
                    attribute=ATTRIBUTE_LABELS[self.bonus_attribute],
                )
            )
        if self.advances:
            notes.append(_("Campaign advances: {advances}").format(advances=self.advances_text))
        notes.extend(_("{term}: {text}").format(term=s.name, text=s.text) for s in self.skills)
        for w in self.weapons:
            kind = _kind_word(w.weapon.kind)
            if w.penalty:
                note = _("{weapon} (level {level}, {kind}, hits on {target}+)")
            else:
                note = _("{weapon} (level {level}, {kind})")
            notes.append(
                note.format(weapon=w.weapon.name, level=w.weapon.level, kind=kind, target=w.target)
            )
        if self.horse:
            notes.append(
                _("Horse: {horse} ({xp} XP)").format(horse=self.horse.name, xp=self.horse.xp)
            )
        return notes

    def rows(self) -> list[dict[str, Any]]:
        """The six attributes, for templates: label, value, points spent, bonus."""
        return [
            {
                "id": a,
                "label": ATTRIBUTE_LABELS[a],
                "name": attribute_name(a),
                "value": self.attributes[a],
                "spent": self.spent[a],
                "bonus": a == self.bonus_attribute,
                "advance": self.advances.get(a, 0),
            }
            for a in ATTRIBUTES
        ]


# --------------------------------------------------------------------------- evaluation


TYPE_PLURALS = {t.id: t.plural_en for t in MEMBER_TYPES.values()}

WEAPON_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "kind", "level"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "pattern": "\\S", "maxLength": 80},
        "kind": {"type": "string", "description": "ranged | melee"},
        "level": {"type": "integer"},
        "hands": {"type": "integer", "description": "1 or 2"},
        "strength": {"type": "string", "description": 'a number, "M" for thrown, or ""'},
        "traits": {"type": "array", "items": {"type": "string"}},
    },
}
HORSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", *HORSE_FIELDS],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "pattern": "\\S", "maxLength": 80},
        **{f: {"type": "integer"} for f in HORSE_FIELDS},
    },
}
MEMBER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["type", "profession", "points"],
    "additionalProperties": False,
    "properties": {
        "type": {"type": "string", "description": "leader | professional | henchman"},
        "profession": {
            "type": "string",
            "description": 'a profession id, or "" for a Henchman',
        },
        "points": {
            "type": "object",
            "description": "attribute points spent on top of the 1 every attribute starts at",
            "additionalProperties": False,
            "properties": {a: {"type": "integer"} for a in ATTRIBUTES},
        },
        "weapons": {"type": "array", "items": WEAPON_SCHEMA},
        "horse": {"oneOf": [HORSE_SCHEMA, {"type": "null"}]},
        "advances": {
            "type": "object",
            "description": "campaign: attribute points gained (positive) or lost to injuries "
            "(negative), added on top of 1 + points + profession bonus; they don't count "
            "against the type's points",
            "additionalProperties": False,
            "properties": {a: {"type": "integer"} for a in ATTRIBUTES},
        },
    },
}


def _int(value: Any, default: int = 0) -> int:
    number = as_int(value)
    return default if number is None else number


def _count_of(n: int, member_type: MemberType) -> str:
    """ "1 Leader", "2 Henchmen", "0 Chef": a count of a member type, in the book's words
    (French counts 0 and 1 as singular)."""
    one = n in (0, 1) if i18n.language() == "fr" else n == 1
    return f"{n} {member_type.label if one else member_type.plural}"


def _kind_word(kind: str) -> str:
    """A weapon's kind, "ranged" or "melee", in the active language."""
    return kind_word(kind)


def _points(n: int) -> str:
    return ngettext("{count} point", "{count} points", n).format(count=n)


def _weapons(n: int) -> str:
    return ngettext("{count} weapon", "{count} weapons", n).format(count=n)


def _shown(value: Any) -> str:
    """A figure as entered, for a message: 10, '10', or 'ten' in quotes."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else repr(value)


def _signed(n: int) -> str:
    """+1, +0, \u22121 (a true minus sign, as printed)."""
    return f"\u2212{-n}" if n < 0 else f"+{n}"


# --------------------------------------------------------------------------- printing

# The rules text printed on cards and on the quick reference, in full (seed 002, translated).
# WEAPON_TRAITS and Profession.in_play above are the builder's one-line digests.
PROFESSION_RULES: dict[str, tuple[str, str]] = {
    # id: (in play, if the Leader has it)
    "bounty_hunter": (
        "Known for using a wide variety of weapons: uses ranged or melee weapons one level "
        "above its RC or MC without penalty; penalties count as if RC or MC were one level "
        "higher. Example: with RC 3 it uses a level 4 gun without penalty; a level 5 gun "
        "adds +1 to its to-hit target number, a level 6 gun +2.",
        'While the Leader is not out of action or fleeing, friendly models within 12" may '
        "re-roll failed Morale tests.",
    ),
    "gambler": (
        "Luckier than most: like the Leader's Luck rule, may re-roll one D6 in the game. "
        "Quick reflexes let it dodge attacks in melee: +1 DP in melee only.",
        "Leader's Luck gets one more die, 4 in all. While the Leader is not out of action "
        'or fleeing, it may let a friendly model within 12" use its re-rolls.',
    ),
    "prospector": (
        "Knows how to hide in the wild: treats outdoor terrain as heavy cover. Needs no Qui "
        'roll to move through difficult terrain: moves its 6" instead, but cannot run.',
        'The heavy cover and the movement bonus apply to every friendly model within 12".',
    ),
    "doctor": (
        'May revive a friendly model that is out of action: move within 1" of it and heal '
        "it instead of attacking. Make an Int roll with the patient's Sta as the target "
        "number: the result must be at most the patient's Sta to revive it; a 1 always "
        "fails. A model hit again after that can't be healed and stays down.",
        "Teaches the gang how to patch itself up, or supplies it with tonics.",
    ),
    "wrassler": (
        "One bonus melee attack when fighting with a melee weapon: with a 2-handed weapon "
        "it makes 2 separate attacks, with two 1-handed weapons 3. Its fists count as melee "
        "weapons too: one separate attack with each fist, where other models make only one.",
        "Counts as one extra model for enemy Morale tests, and as 2 models in melee.",
    ),
    "gunslinger": (
        "May give up its movement (it may still turn to face) to aim: -1 to its to-hit "
        "target number.",
        "No penalty for shooting a second target with two pistols once it puts the first "
        'target out of action. With a Longarm or a Repeater it may add 2D6" to its long '
        "range (roll before choosing a target); long-range shots still take +1 to hit "
        "unless it has Deadeye.",
    ),
}

TRAIT_RULES: dict[str, tuple[str, str]] = {
    # id: (term as printed, full text)
    "pistol": (
        "Pistol",
        "A 1-handed gun for short and medium range. A model with a pistol in each hand may "
        "shoot twice.",
    ),
    "longarm": (
        "Longarm",
        "A 2-handed single-shot gun for long-range targets: re-roll one missed D6 on the "
        "to-hit roll.",
    ),
    "shotgun": (
        "Shotgun",
        "A 2-handed twin-barrelled gun for short range. It fires shot: +1 Str against "
        "targets at short range.",
    ),
    "repeater": (
        "Repeater",
        "A 2-handed rifle for medium and long range, holding several rounds: +1D6 to the "
        "to-hit roll.",
    ),
    "thrown": (
        "Thrown",
        "A 1-handed ranged weapon, but a model can't use one in each hand. Unless stated "
        "otherwise its range is the model's Str + 1D6: roll the range for each attack "
        "before choosing a target.",
    ),
    "parry": (
        "Parry",
        "A long blade or haft to parry blows: +1 DP against melee attacks. Two 1-handed "
        "parry weapons give +1 DP and a re-roll of one failed save die.",
    ),
    "explosive": (
        "Explosive",
        'Every explosion has a 1D6" radius and hits everything in it, friend or foe. Roll '
        "to hit as usual: one success sets it off. Roll 1D6 for the radius, measured from "
        "the edge of the target's base. The target takes 1D6 hits; a model whose whole "
        "base is inside takes 1D3 hits, one partly inside takes 1 hit; each hit can be "
        "saved with a Defense roll. Unless stated otherwise, an explosive is used against "
        "a model, not thrown at the ground.",
    ),
    "flaming": (
        "Flaming",
        "If the target fails its Defense roll and loses 1 HP or more but is not out of "
        "action, it is on fire. At its next activation it may move or run as usual but can "
        "do nothing else than try to put the fire out. Water puts the fire out at once (it "
        "still can't attack that turn); otherwise it may roll on the ground: a Defense roll "
        "with target 6, one success puts the fire out; on a failure it keeps burning and "
        "loses 1 HP. It burns until the fire is out or it is out of action.",
    ),
    "melee-str": (
        'Str "M"',
        "The weapon strikes at the model's own Str; M+1 or M+2 adds 1 or 2 to it.",
    ),
}

LEADERS_LUCK = (
    "A pool of {dice}D6 each game: add them to any roll the Leader makes, or re-roll a failed "
    "roll with them; use some or all at any time. Dice used are gone; a re-roll is never "
    "re-rolled; dice left when the Leader goes out of action are lost."
)


def profession_rules(profession_id: str) -> tuple[str, str]:
    """A profession's full text: (in play, if the Leader has it), the book's in French."""
    french = book_text("professions", profession_id, "rules")
    if french:
        return french[0], french[1]
    return PROFESSION_RULES[profession_id]


def trait_rule(trait: str) -> tuple[str, str]:
    """A weapon trait's (term, full text), the book's in French."""
    term, text = TRAIT_RULES[trait]
    return (
        book_text("traits", trait, "label") or term,
        book_text("traits", trait, "text") or text,
    )


def leaders_luck(dice: int) -> str:
    """The Leader's Luck rule for a pool of ``dice`` dice."""
    text = BOOK_FR["leaders_luck"]["text"] if i18n.language() == "fr" else LEADERS_LUCK
    return text.format(dice=dice)


def core_rules() -> tuple[Entry, ...]:
    """The core rules of the quick reference, the book's in French."""
    if i18n.language() == "fr":
        return tuple(
            Entry(r["term"], r["text"].format(target=BASE_TO_HIT, most=MAX_TO_HIT))
            for r in BOOK_FR["core_rules"]
        )
    return CORE_RULES


# The few rules a player looks up (RULES.md: base to-hit, weapon level, Str, move); the
# exceptions (Bounty Hunter, Knowhow) are listed with the professions and skills that use them.
CORE_RULES: tuple[Entry, ...] = (
    Entry(
        "To hit",
        f"Roll one D6 per point of RC (shooting) or MC (melee); each die at or above the "
        f"target number hits. The base target number is {BASE_TO_HIT}+.",
    ),
    Entry(
        "Weapon level",
        "A weapon whose level is above the model's RC (ranged) or MC (melee) adds +1 to the "
        f"to-hit target number per level above, to at most {MAX_TO_HIT}.",
    ),
    Entry("Carrying weapons", "A model carries at most as many weapons as its Str."),
    Entry("Move", 'A model on foot moves 6".'),
)

MOVE = '6"'
_MELEE_STR = re.compile(r"^M(?:\+(\d+))?$")

PROFESSION_MARKS = {"bounty_hunter": "badge", "gunslinger": "crosshair"}


def _trait_ids(weapon: Weapon) -> list[str]:
    """The weapon's traits, and "M" Str, whose meaning the card's back explains."""
    ids = list(weapon.traits)
    if _MELEE_STR.match(weapon.strength.upper()):
        ids.append("melee-str")
    return ids


def _trait_labels(weapon: Weapon) -> tuple[str, ...]:
    """The traits column: the hands it needs (self-explanatory), then its traits."""
    book = book_text("hands", str(weapon.hands), "label")
    hands = (
        book[:1].upper() + book[1:]
        if book
        else ngettext("{count}-Handed", "{count}-Handed", weapon.hands).format(count=weapon.hands)
    )
    return (hands, *(_trait_label(t) for t in weapon.traits))


def _trait_label(trait: str) -> str:
    return trait_rule(trait)[0] if trait in TRAIT_RULES else trait.capitalize()


def _trait_entries(weapons: list[Weapon]) -> list[Entry]:
    return [Entry(*trait_rule(t)) for w in weapons for t in _trait_ids(w) if t in TRAIT_RULES]


def _weapon_strength(weapon: Weapon, strength: int) -> str:
    """The Str column: "M+1 (4)" for a melee weapon of a Str 3 model, else as written."""
    match = _MELEE_STR.match(weapon.strength.upper())
    if match:
        return f"{weapon.strength} ({strength + int(match.group(1) or 0)})"
    return weapon.strength


def _weapon_range(weapon: Weapon, strength: int) -> str:
    if weapon.kind == "melee":
        return pgettext("range column", "Melee")
    if "thrown" in weapon.traits:
        return f'{strength}+D6"'
    return ""  # the book gives no ranges in inches for guns


def _weapon_note(m: MemberReport, wr: WeaponReport) -> str:
    label = WEAPON_KINDS[wr.weapon.kind]
    if wr.penalty:
        return _("above {attribute} {skill}: +{penalty} to hit ({target}+)").format(
            attribute=label, skill=wr.skill, penalty=wr.penalty, target=wr.target
        )
    if wr.weapon.level > wr.skill:
        has_knowhow = any(s.name == "Knowhow" for s in m.skills)
        why = "Knowhow" if has_knowhow and wr.weapon.level > wr.skill + wr.grace else ""
        return _("above {attribute} {skill}: no penalty ({why})").format(
            attribute=label, skill=wr.skill, why=why or m.profession_label
        )
    return ""


def _weapon_summary(weapon: Weapon) -> str:
    """One weapon for the quick reference: "ranged (RC), 1-handed, level 4; Pistol"."""
    parts = [
        f"{_kind_word(weapon.kind)} ({WEAPON_KINDS[weapon.kind]})",
        hands_word(weapon.hands),
        _("level {level}").format(level=weapon.level),
    ]
    if weapon.strength:
        parts.append(f"Str {weapon.strength}")
    traits = ", ".join(_trait_label(t) for t in weapon.traits)
    return ", ".join(parts) + (i18n.punctuate(";") + traits if traits else "") + "."


def _horse_text(horse: Horse) -> str:
    return _('Str {str}, Qui {qui}, Sta {sta}, Int {int}, Speed {speed}", {xp} XP.').format(
        str=horse.str, qui=horse.qui, sta=horse.sta, int=horse.int, speed=horse.speed, xp=horse.xp
    )


def _gang_name(roster: Any) -> str:
    name = _str(roster.get("name")) if isinstance(roster, Mapping) else ""
    return name or _("the gang")


def _mark(m: MemberReport) -> str:
    if m.type_id == "leader":
        return "star"
    if m.type_id == "henchman":
        return "hat"
    if m.type_id == "professional":
        return PROFESSION_MARKS.get(m.profession_id, "diamond")
    return "circle"


def _vital_info(m: MemberReport, gang: str) -> list[Entry]:
    role = {
        "leader": _("Leader of {gang}"),
        "professional": _("Professional in {gang}"),
        "henchman": _("Henchman in {gang}"),
    }
    term = role.get(m.type_id, _("Member of {gang}")).format(gang=gang)
    if m.profession_label:
        term = _("{profession}, {role}").format(profession=m.profession_label, role=term)
    bonus = ""
    if m.bonus_attribute:
        bonus = _("First {profession}: +1 {attribute}.").format(
            profession=m.profession_label, attribute=ATTRIBUTE_LABELS[m.bonus_attribute]
        )
    entries = [Entry(term, bonus)]
    if m.advances:
        entries.append(Entry(_("Campaign advances"), f"{m.advances_text}."))
    return entries


def _profession_entries(m: MemberReport, leader_key: str | None) -> list[Entry]:
    if not (m.profession and m.type and m.type.has_profession):
        return []
    in_play, as_leader = profession_rules(m.profession.id)
    entries = [Entry(m.profession.label, in_play)]
    if m.key == leader_key:
        title = _("{profession} Leader").format(profession=m.profession.label)
        entries.append(Entry(title, as_leader))
    return entries


def _play_notes(m: MemberReport) -> list[str]:
    """What changes at the table, in the table's words; then what makes the member illegal."""
    notes = [
        (
            _(
                "{weapon}: +{penalty} to the to-hit target number, hits on {target}+ "
                "(level {level} is above {attribute} {skill} + 1 grace)."
            )
            if wr.grace
            else _(
                "{weapon}: +{penalty} to the to-hit target number, hits on {target}+ "
                "(level {level} is above {attribute} {skill})."
            )
        ).format(
            weapon=wr.weapon.name,
            penalty=wr.penalty,
            target=wr.target,
            level=wr.weapon.level,
            attribute=WEAPON_KINDS[wr.weapon.kind],
            skill=wr.skill,
        )
        for wr in m.weapons
        if wr.penalty
    ]
    if sum(1 for wr in m.weapons if "thrown" in wr.weapon.traits) >= 2:
        notes.append(_("Thrown weapons: throw one at a time, never one in each hand."))
    notes += play_notes(f for f in m.findings if f.is_error)
    return notes


class Bwg1:
    id = "bwg1"
    name = "Blackwater Gulch v1.1.2"
    short_name = "Blackwater Gulch v1.1.2"  # its edition is its name (issue 25: one name)
    seed = SEED
    # The languages the book's own texts exist in (seed 002 is the French edition; the
    # English texts are ours, from it): rules.base.text_language().
    book_languages = ("en", "fr")
    rules = RULES
    member_types = MEMBER_TYPES
    professions = PROFESSIONS
    attributes = ATTRIBUTES
    attribute_labels = ATTRIBUTE_LABELS
    skills = SKILLS
    weapon_traits = WEAPON_TRAITS
    min_members = MIN_MEMBERS
    suggested_limit = FIRST_GANG_FAME
    limit_presets = (FIRST_GANG_FAME,)
    default_limit = FIRST_GANG_FAME
    #: what a league's cap means (shown beside the cap field); None as the refusal: it can be set
    content_entry_schemas: dict[str, dict[str, Any]] = {"weapon": WEAPON_SCHEMA}
    cap_help = i18n.gettext_noop("Fame: each gang's members may cost at most this much Fame.")
    cap_refused: str | None = None
    #: the builder's help beside the limit (None: the presets, or "no limit")
    limit_help: str | None = None
    #: an empty limit stays empty (the player's choice), instead of the game's default
    limit_optional = True
    member_schema = MEMBER_SCHEMA
    gang_schema: dict[str, Any] = {"type": "object", "additionalProperties": False}
    decisions = (
        "Really Tough (Sta 6) gives +1 HP: the HP section says so; the skill list's "
        '"+1 Sta" is impossible at Sta 6.',
        "Duck & Cover (+1 DP) is the Int 6 skill: the seed's two-column layout puts it "
        "under Int 6.",
        'The Leader is always the first recruit (p. 12: "Le premier membre de votre gang à '
        "recruter sera votre chef\"), so he takes his profession's +1 wherever he is listed. "
        "For the others, recruitment order is the member order in the gang: the first "
        "Professional of each other profession gets its +1, and the sheet shows who got it.",
        "Fame = every member's XP (base + weapon levels) + the XP of their horses.",
        "The General Store price list is missing from the seed: only the Bowie knife (3), "
        "Remington Army revolver (4) and Winchester Repeater (5) have the book's levels; "
        "other shipped weapons are marked sample.",
    )
    # How catalogue items sit in a member's roster entry: category -> (key, many).
    item_slots = {"weapon": ("weapons", True), "horse": ("horse", False)}

    def item_word(self, field: str, value: Any) -> Any:
        """A catalogue weapon's kind, hands or traits in the words of the reader's book
        ("corps à corps", "à une main", "Pistolet, Parer": seed 002, p. 30)."""
        if field == "kind":
            return kind_word(str(value or ""))
        if field == "hands":
            return hands_word(value)
        if field == "traits":
            return ", ".join(_trait_label(str(t)) for t in (value or ()))
        return value

    def item_name(self, name: str, category: str) -> str:
        """A catalogue entry's name as the reader's language names it (the French book's
        for a shipped weapon or horse; ``item_name``)."""
        if category not in ("weapon", "horse"):
            return name
        return item_name(name, "horses" if category == "horse" else "weapons")

    @property
    def total_label(self) -> str:
        return _("Fame")

    def new_member(self, member_type: str = "henchman") -> dict[str, Any]:
        """The system-specific part of a freshly recruited member."""
        return {
            "type": member_type if member_type in MEMBER_TYPES else "henchman",
            "profession": "",
            "points": dict.fromkeys(ATTRIBUTES, 0),
        }

    def type_choices(self) -> list[tuple[str, str]]:
        return [(t.id, t.label) for t in MEMBER_TYPES.values()]

    def profession_choices(self) -> list[tuple[str, str]]:
        return [
            (p.id, f"{p.label} (+1 {ATTRIBUTE_LABELS[p.attribute]})") for p in PROFESSIONS.values()
        ]

    def evaluate(self, roster: Mapping[str, Any]) -> Report:
        roster = roster if isinstance(roster, Mapping) else {}
        raw_members = roster.get("members")
        if not isinstance(raw_members, list):
            raw_members = []
        limit = _int(roster.get("limit"), 0) or None

        findings: list[Finding] = []
        members: list[MemberReport] = []
        keys = member_keys(raw_members)  # every member needs its own key for its findings
        raws = []
        for raw in raw_members:
            raw = raw if isinstance(raw, Mapping) else {}
            data = raw.get("data")
            if isinstance(data, Mapping):  # the roster file's shape: key, name, data
                raw = {**data, "key": raw.get("key"), "name": raw.get("name")}
            raws.append(raw)
        # profession id -> the key of the member who has its +1. "Le premier membre de votre
        # gang à recruter sera votre chef" (seed 002, p. 12): the Leader (the first one listed,
        # if there are more) is the first recruit, wherever he is listed.
        bonus_taken: dict[str, str] = {}
        for key, raw in zip(keys, raws, strict=True):
            if _str(raw.get("type")).lower() == "leader":
                profession = PROFESSIONS.get(_str(raw.get("profession")).lower())
                if profession is not None:
                    bonus_taken[profession.id] = key
                break
        for position, (key, raw) in enumerate(zip(keys, raws, strict=True), start=1):
            members.append(self._member(key, position, raw, bonus_taken))

        for member in members:
            self._check_member(member)

        gang_findings = self._check_gang(members, limit, _str(roster.get("name")))
        findings.extend(gang_findings)
        for member in members:
            findings.extend(member.findings)
        by_position = {m.key: m for m in members}
        for finding in gang_findings:  # a gang rule about one member shows on its card too
            if finding.member in by_position:
                by_position[finding.member].findings.append(finding)

        fame = sum(m.fame for m in members)
        leader = next((m for m in members if m.type_id == "leader"), None)
        luck = 4 if leader and leader.profession_id == "gambler" else 3
        by_key = {m.key: m for m in members}
        return Report(
            system=self.id,
            total_label=self.total_label,
            total=fame,
            limit=limit,
            findings=findings,
            members=by_key,
            gang={
                "leader": leader,
                "leaders_luck_dice": luck,
                "profession_bonuses": [
                    {
                        "profession": PROFESSIONS[p],
                        "attribute": ATTRIBUTE_LABELS[PROFESSIONS[p].attribute],
                        "member": by_key[k],
                    }
                    for p, k in bonus_taken.items()
                ],
                "counts": {t: sum(1 for m in members if m.type_id == t) for t in MEMBER_TYPES},
                "member_list": members,
                "facts": [
                    (
                        MEMBER_TYPES["leader"].label,
                        (leader.name or _("(unnamed)")) if leader else _("none"),
                    ),
                    (_("Leader's Luck dice"), str(luck)),
                    *(
                        (t.plural, str(sum(1 for m in members if m.type_id == t.id)))
                        for t in MEMBER_TYPES.values()
                    ),
                ],
            },
        )

    # ----------------------------------------------------------------- one member

    def _member(
        self, key: str, position: int, raw: Mapping[str, Any], bonus_taken: dict[str, str]
    ) -> MemberReport:
        type_id = _str(raw.get("type")).lower()
        mtype = MEMBER_TYPES.get(type_id)
        profession_id = _str(raw.get("profession")).lower()
        profession = PROFESSIONS.get(profession_id)
        points = raw.get("points") if isinstance(raw.get("points"), Mapping) else {}
        spent = {a: _int(points.get(a)) for a in ATTRIBUTES}

        bonus_attribute = None
        has_bonus = mtype and mtype.has_profession and profession
        if has_bonus and bonus_taken.setdefault(profession.id, key) == key:
            bonus_attribute = profession.attribute

        raw_advances = raw.get("advances")
        raw_advances = raw_advances if isinstance(raw_advances, Mapping) else {}
        advances = {a: _int(raw_advances.get(a)) for a in ATTRIBUTES}
        advances = {a: n for a, n in advances.items() if n}
        attributes = {
            a: ATTRIBUTE_MIN + spent[a] + (1 if a == bonus_attribute else 0) + advances.get(a, 0)
            for a in ATTRIBUTES
        }
        skills = [s for s in SKILLS if attributes[s.attribute] >= s.at]
        skill_names = {s.name for s in skills}

        weapons_raw = raw.get("weapons") if isinstance(raw.get("weapons"), list) else []
        weapons = [Weapon.from_dict(w) for w in weapons_raw]
        grace = profession.weapon_grace if (profession and mtype and mtype.has_profession) else 0
        knowhow = "Knowhow" in skill_names
        weapon_reports = []
        for w in weapons:
            skill = attributes[w.skill_attribute]
            over = w.level - skill - grace
            weapon_reports.append(
                WeaponReport(w, skill=skill, grace=grace, penalty=0 if knowhow else max(0, over))
            )

        base_xp = mtype.xp if mtype else 0
        return MemberReport(
            key=key,
            name=_str(raw.get("name")),
            position=position,
            type=mtype,
            type_id=type_id,
            profession=profession,
            profession_id=profession_id,
            spent=spent,
            attributes=attributes,
            bonus_attribute=bonus_attribute,
            points_available=mtype.points if mtype else 0,
            xp=base_xp + sum(w.level for w in weapons),
            hp=(mtype.hp if mtype else 0) + (1 if "Really Tough" in skill_names else 0),
            dp=(mtype.dp if mtype else 0) + (1 if "Duck & Cover" in skill_names else 0),
            skills=skills,
            weapons=weapon_reports,
            horse=Horse.from_dict(raw.get("horse")),
            advances=advances,
        )

    def _check_member(self, m: MemberReport) -> None:
        def add(code: str, message: str) -> None:
            m.findings.append(Finding(code, _SEVERITY[code], message, member=m.key))

        if not m.name:
            add(
                "bwg1.member_unnamed",
                _("This member has no name: give them one, it goes on the gang sheet."),
            )

        if m.type is None:
            types = {t.id: t.label for t in MEMBER_TYPES.values()}
            if m.type_id:
                message = _(
                    "'{value}' is not a member type: choose {leader}, {professional} or {henchman}."
                )
            else:
                message = _(
                    "No type is not a member type: choose {leader}, {professional} or {henchman}."
                )
            add("bwg1.unknown_type", message.format(value=m.type_id, **types))
        elif m.type.has_profession:
            if not m.profession_id:
                add(
                    "bwg1.profession_missing",
                    _("A {type} needs a profession: choose one of {professions}.").format(
                        type=m.type.label, professions=_profession_list()
                    ),
                )
            elif m.profession is None:
                add(
                    "bwg1.unknown_profession",
                    _("'{value}' is not a profession: choose one of {professions}.").format(
                        value=m.profession_id, professions=_profession_list()
                    ),
                )
        elif m.profession_id:
            add(
                "bwg1.henchman_profession",
                _(
                    "Henchmen have no profession: clear the profession, or make this member "
                    "a Professional."
                ),
            )

        if m.type is not None:
            left = m.points_left
            if left < 0:
                add(
                    "bwg1.points_overspent",
                    ngettext(
                        "Spent {spent} of the {available} attribute points a {type} has: "
                        "take {count} point off.",
                        "Spent {spent} of the {available} attribute points a {type} has: "
                        "take {count} points off.",
                        -left,
                    ).format(
                        spent=m.points_spent,
                        available=m.points_available,
                        type=m.type.label,
                        count=-left,
                    ),
                )
            elif left > 0:
                add(
                    "bwg1.points_unspent",
                    ngettext(
                        "{count} attribute point of {available} left to spend: spend it or "
                        "it is wasted.",
                        "{count} attribute points of {available} left to spend: spend them "
                        "or they are wasted.",
                        left,
                    ).format(count=left, available=m.points_available),
                )

        for a in ATTRIBUTES:
            value = m.attributes[a]
            label = ATTRIBUTE_LABELS[a]
            advance = m.advances.get(a, 0)
            before = value - advance  # 1 + points + profession bonus
            figures = {
                "attribute": label,
                "value": value,
                "advance": _signed(advance),
                "before": before,
                "most": ATTRIBUTE_MAX,
                "least": ATTRIBUTE_MIN,
            }
            if value > ATTRIBUTE_MAX and advance > 0:
                excess = value - ATTRIBUTE_MAX
                if before <= ATTRIBUTE_MAX:
                    message = _(
                        "{attribute} is {value} with a campaign advance of {advance} ({before} "
                        "without); no attribute may exceed {most}: lower {attribute}'s "
                        "campaign advance to {lowered}."
                    )
                else:
                    message = ngettext(
                        "{attribute} is {value} with a campaign advance of {advance} ({before} "
                        "without); no attribute may exceed {most}: take {count} point off "
                        "{attribute}'s points or its advance.",
                        "{attribute} is {value} with a campaign advance of {advance} ({before} "
                        "without); no attribute may exceed {most}: take {count} points off "
                        "{attribute}'s points or its advance.",
                        excess,
                    )
                add(
                    "bwg1.attribute_above_max",
                    message.format(**figures, lowered=_signed(advance - excess), count=excess),
                )
            elif value < ATTRIBUTE_MIN and advance < 0:
                if before >= ATTRIBUTE_MIN:
                    message = _(
                        "{attribute} is {value} after a campaign advance of {advance} ({before} "
                        "without); every attribute is at least {least}: set {attribute}'s "
                        "campaign advance to {raised} (an injury can't take an attribute below "
                        "{least})."
                    )
                else:
                    message = _(
                        "{attribute} is {value} after a campaign advance of {advance} ({before} "
                        "without); every attribute is at least {least}: set the points spent "
                        "on {attribute} to 0 or more and raise its advance."
                    )
                add(
                    "bwg1.attribute_below_min",
                    message.format(**figures, raised=_signed(ATTRIBUTE_MIN - before)),
                )
            elif value > ATTRIBUTE_MAX:
                excess = value - ATTRIBUTE_MAX
                if a == m.bonus_attribute and value - 1 <= ATTRIBUTE_MAX:
                    assert m.profession is not None
                    add(
                        "bwg1.profession_bonus_above_max",
                        ngettext(
                            "The first {profession}'s +1 {attribute} takes {attribute} to "
                            "{value}; no attribute may exceed {most}: take {count} point off "
                            "{attribute}.",
                            "The first {profession}'s +1 {attribute} takes {attribute} to "
                            "{value}; no attribute may exceed {most}: take {count} points off "
                            "{attribute}.",
                            excess,
                        ).format(**figures, profession=m.profession.label, count=excess),
                    )
                else:
                    add(
                        "bwg1.attribute_above_max",
                        ngettext(
                            "{attribute} is {value}; no attribute may exceed {most}: take "
                            "{count} point off {attribute}.",
                            "{attribute} is {value}; no attribute may exceed {most}: take "
                            "{count} points off {attribute}.",
                            excess,
                        ).format(**figures, count=excess),
                    )
            elif value < ATTRIBUTE_MIN:
                add(
                    "bwg1.attribute_below_min",
                    _(
                        "{attribute} is {value}; every attribute starts at {least}: set the "
                        "points spent on {attribute} to 0 or more."
                    ).format(**figures),
                )

        strength = m.attributes["str"]
        carried = len(m.weapons)
        if carried > max(strength, 0):
            drop = carried - max(strength, 0)
            add(
                "bwg1.weapons_over_strength",
                _(
                    "Carries {weapons} but Str {strength} allows {allowed}: raise Str to "
                    "{carried} or drop {dropped}."
                ).format(
                    weapons=_weapons(carried),
                    strength=strength,
                    allowed=max(strength, 0),
                    carried=carried,
                    dropped=_weapons(drop),
                ),
            )

        for wr in m.weapons:
            if wr.penalty <= 0:
                continue
            w = wr.weapon
            raise_to = w.level - wr.grace <= ATTRIBUTE_MAX
            if wr.grace and raise_to:
                message = _(
                    "{weapon} is level {level} but {attribute} is {skill} ({graced} with the "
                    "Bounty Hunter's level of grace): +{penalty} to the to-hit target number "
                    "(hits on {target}+ instead of {base}+). To use it without penalty, raise "
                    "{attribute} to {needed}, reach Qui 6 (Knowhow) or choose a {kind} weapon "
                    "of level {graced} or less."
                )
            elif wr.grace:
                message = _(
                    "{weapon} is level {level} but {attribute} is {skill} ({graced} with the "
                    "Bounty Hunter's level of grace): +{penalty} to the to-hit target number "
                    "(hits on {target}+ instead of {base}+). To use it without penalty, reach "
                    "Qui 6 (Knowhow) or choose a {kind} weapon of level {graced} or less."
                )
            elif raise_to:
                message = _(
                    "{weapon} is level {level} but {attribute} is {skill}: +{penalty} to the "
                    "to-hit target number (hits on {target}+ instead of {base}+). To use it "
                    "without penalty, raise {attribute} to {needed}, reach Qui 6 (Knowhow) or "
                    "choose a {kind} weapon of level {graced} or less."
                )
            else:
                message = _(
                    "{weapon} is level {level} but {attribute} is {skill}: +{penalty} to the "
                    "to-hit target number (hits on {target}+ instead of {base}+). To use it "
                    "without penalty, reach Qui 6 (Knowhow) or choose a {kind} weapon of level "
                    "{graced} or less."
                )
            kind = (
                pgettext("a … weapon", "ranged")
                if w.kind == "ranged"
                else pgettext("a … weapon", "melee")
            )
            add(
                "bwg1.weapon_above_skill",
                message.format(
                    weapon=w.name,
                    level=w.level,
                    attribute=WEAPON_KINDS[w.kind],
                    skill=wr.skill,
                    graced=wr.skill + wr.grace,
                    penalty=wr.penalty,
                    target=wr.target,
                    base=BASE_TO_HIT,
                    needed=w.level - wr.grace,
                    kind=kind,
                ),
            )

        thrown = [wr.weapon.name for wr in m.weapons if "thrown" in wr.weapon.traits]
        if len(thrown) >= 2:
            add(
                "bwg1.thrown_in_each_hand",
                ngettext(
                    "Carries {count} thrown weapon ({names}): they can't be used one in each "
                    "hand, so only one is thrown at a time. Keep one, or carry the rest "
                    "knowing this.",
                    "Carries {count} thrown weapons ({names}): they can't be used one in each "
                    "hand, so only one is thrown at a time. Keep one, or carry the rest "
                    "knowing this.",
                    len(thrown),
                ).format(count=len(thrown), names=", ".join(thrown)),
            )

        for wr in m.weapons:
            w = wr.weapon
            if w.differs:
                add(
                    "bwg1.weapon_level_differs",
                    _(
                        "{weapon} is level {level} in the book, not {entered}: XP and Fame "
                        "count level {level}. Correct the level, or rename the weapon if it is "
                        "another one."
                    ).format(weapon=w.name, level=w.level, entered=_shown(w.differs[0][1])),
                )
        horse = m.horse
        if horse is not None and horse.differs:
            wrong = ", ".join(
                _("{figure} {entered} (book: {book})").format(
                    figure=HORSE_LABELS[f], entered=_shown(v), book=getattr(horse, f)
                )
                for f, v in horse.differs
            )
            add(
                "bwg1.horse_figures_differ",
                _(
                    "{horse} has {figures}; Fame and the card use the book's figures: correct "
                    "them, or rename the horse if it is another one."
                ).format(horse=horse.name, figures=wrong),
            )

    # ----------------------------------------------------------------- the gang

    def _check_gang(
        self, members: list[MemberReport], limit: int | None, name: str
    ) -> list[Finding]:
        found: list[Finding] = []

        def add(code: str, message: str, member: str | None = None) -> None:
            found.append(Finding(code, _SEVERITY[code], message, member=member))

        if not name:
            add(
                "bwg1.gang_unnamed",
                _("The gang has no name: give it one, it heads the gang sheet."),
            )

        count = len(members)
        if count < MIN_MEMBERS:
            add(
                "bwg1.too_few_members",
                ngettext(
                    "The gang has {count} member; a gang needs at least {least}: recruit "
                    "{more} more.",
                    "The gang has {count} members; a gang needs at least {least}: recruit "
                    "{more} more.",
                    count,
                ).format(count=count, least=MIN_MEMBERS, more=MIN_MEMBERS - count),
            )

        leaders = [m for m in members if m.type_id == "leader"]
        if not leaders:
            add("bwg1.no_leader", _("The gang has no Leader: make one member the Leader."))
        for extra in leaders[1:]:
            add(
                "bwg1.too_many_leaders",
                _(
                    "{name} is a second Leader, and a gang has exactly one (the first is "
                    "{first}): make this member a Professional or a Henchman."
                ).format(
                    name=extra.name or pgettext("the subject of a sentence", "This member"),
                    first=leaders[0].name or pgettext("the first Leader is", "unnamed"),
                ),
                member=extra.key,
            )

        others = count - len(leaders)
        henchmen = sum(1 for m in members if m.type_id == "henchman")
        needed = math.ceil(others / 2)
        if henchmen < needed:
            convert = needed - henchmen
            recruit = others - 2 * henchmen
            add(
                "bwg1.too_few_henchmen",
                _(
                    "{members} besides the Leader need at least {needed}; the gang has "
                    "{henchmen}: {convert}, or recruit {recruit}."
                ).format(
                    members=ngettext("{count} member", "{count} members", others).format(
                        count=others
                    ),
                    needed=ngettext("{count} Henchman", "{count} Henchmen", needed).format(
                        count=needed
                    ),
                    henchmen=henchmen,
                    convert=ngettext(
                        "make {count} more member a Henchman",
                        "make {count} more members Henchmen",
                        convert,
                    ).format(count=convert),
                    recruit=ngettext(
                        "{count} more Henchman", "{count} more Henchmen", recruit
                    ).format(count=recruit),
                ),
            )

        fame = sum(m.fame for m in members)
        if limit is not None and fame > limit:
            add(
                "bwg1.fame_over_limit",
                _(
                    "Fame {fame} is over the gang's limit of {limit} by {over}: drop weapons, "
                    "horses or members worth {over} XP, or raise the limit."
                ).format(fame=fame, limit=limit, over=fame - limit),
            )
        return found

    # ----------------------------------------------------------------- printing

    def print_cards(self, roster: Mapping[str, Any], report: Report | None = None) -> list[Card]:
        """One card per member, in roster order (see ``rules.printing``)."""
        report = report or self.evaluate(roster)
        gang = _gang_name(roster)
        leader = report.gang.get("leader")
        leader_key = leader.key if leader else None
        luck = report.gang.get("leaders_luck_dice", 3)
        return [self._card(m, gang, leader_key, luck) for m in report.members.values()]

    def _card(self, m: MemberReport, gang: str, leader_key: str | None, luck: int) -> Card:
        strength = m.attributes["str"]
        tracks = [Track(_("Health"), max(0, m.hp))]
        if m.key == leader_key:
            tracks.append(Track(_("Leader's Luck"), luck, note=_("dice per game")))
        facts = [Stat(_("Move"), MOVE)]
        if m.horse:
            facts += [
                Stat(_("Horse"), f'{m.horse.name} {m.horse.speed}"'),
                Stat(_("Fame"), str(m.fame)),
            ]

        weapons = [
            PrintedWeapon(
                name=wr.weapon.name,
                range=_weapon_range(wr.weapon, strength),
                strength=_weapon_strength(wr.weapon, strength),
                level=str(wr.weapon.level),
                traits=_trait_labels(wr.weapon),
                note=_weapon_note(m, wr),
            )
            for wr in m.weapons
        ]
        sections = [Section.of(_("Vital info"), _vital_info(m, gang))]
        profession = _profession_entries(m, leader_key)
        if profession:
            sections.append(Section.of(_("Profession"), profession))
        if m.key == leader_key:
            sections.append(
                Section.of(MEMBER_TYPES["leader"].label, [(_("Leader's Luck"), leaders_luck(luck))])
            )
        if m.skills:
            sections.append(Section.of(_("Skills"), [(s.name, s.text) for s in m.skills]))
        traits = dedupe_entries(_trait_entries([wr.weapon for wr in m.weapons]))
        if traits:
            sections.append(Section(_("Weapon traits"), traits))
        if m.horse:
            sections.append(
                Section.of(_("Equipment rules"), [(m.horse.name, _horse_text(m.horse))])
            )
        return Card(
            key=m.key,
            name=m.name or _("(no name)"),
            kind=m.summary,
            mark=_mark(m),
            stats=[Stat(label, value) for label, value in m.stats],
            tracks=tracks,
            facts=facts,
            weapons=weapons,
            sections=sections,
            play_notes=_play_notes(m),
            stat_break=6,  # the book's six attributes, then XP, HP and DP
        )

    def print_sheet(self, roster: Mapping[str, Any], report: Report | None = None) -> dict:
        """The gang sheet's figures: Fame against the limit, the gang's make-up."""
        report = report or self.evaluate(roster)
        members: list[MemberReport] = list(report.members.values())
        counts = report.gang.get("counts", {})
        others = len(members) - counts.get("leader", 0)
        leader = report.gang.get("leader")
        return {
            "fame": report.total,
            "limit": report.limit,
            "fame_left": max(0, report.limit - report.total) if report.limit else None,
            "fame_over": max(0, report.total - report.limit) if report.limit else 0,
            "members": len(members),
            "make_up": ", ".join(_count_of(counts.get(t.id, 0), t) for t in MEMBER_TYPES.values()),
            "henchmen": counts.get("henchman", 0),
            "henchmen_needed": math.ceil(others / 2),
            "leader": (leader.name or _("(no name)")) if leader else "",
            "leaders_luck_dice": report.gang.get("leaders_luck_dice", 3),
            "first_of_profession": [
                _("{profession} +1 {attribute}: {name}").format(
                    profession=b["profession"].label,
                    attribute=b["attribute"],
                    name=b["member"].name or _("(no name)"),
                )
                for b in report.gang.get("profession_bonuses", [])
            ],
            "members_xp": sum(m.xp for m in members),
            "weapon_levels": sum(m.weapon_xp for m in members),
            "horses_xp": sum(m.horse_xp for m in members),
        }

    def quick_reference(
        self, roster: Mapping[str, Any], report: Report | None = None
    ) -> list[Section]:
        """The rules this gang uses, each once, with their full text."""
        report = report or self.evaluate(roster)
        members: list[MemberReport] = list(report.members.values())
        leader = report.gang.get("leader")
        leader_key = leader.key if leader else None
        weapons = [wr.weapon for m in members for wr in m.weapons]

        core = list(core_rules())
        if leader:
            luck = report.gang.get("leaders_luck_dice", 3)
            core.append(Entry(_("Leader's Luck"), leaders_luck(luck)))
        sections = [
            Section(_("Core rules"), tuple(core)),
            Section(
                _("Professions"),
                dedupe_entries(e for m in members for e in _profession_entries(m, leader_key)),
            ),
            Section(
                _("Skills"),
                dedupe_entries(
                    Entry(s.name, s.text) for s in SKILLS for m in members if s in m.skills
                ),
            ),
            Section(_("Weapon traits"), dedupe_entries(_trait_entries(weapons))),
            Section(
                _("Weapons"), dedupe_entries(Entry(w.name, _weapon_summary(w)) for w in weapons)
            ),
            Section(
                _("Horses"),
                dedupe_entries(
                    Entry(m.horse.name, _horse_text(m.horse)) for m in members if m.horse
                ),
            ),
        ]
        return [s for s in sections if s.entries]


SYSTEM = Bwg1()
