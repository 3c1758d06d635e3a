"""Outlaws: Rivals - Gangs of the Old West (seed 003, with the Outlaws optional rules).

A gang is 4 to 6 outlaws built from 30 Character Creation Points (CCP) in total; unused
points are lost. One outlaw is the leader and the gang is named after him or her.

A roster for this system has the common roster-file shape::

    {
        "format": "gangfight-roster", "version": 1, "system": "rivals",
        "name": "Red Jack's Gang",
        "limit": 30,                        # ignored: the budget is always 30 CCP
        "gang": {},                         # nothing gang-level at creation
        "members": [{"key": "1", "name": "Red Jack", "data": {...}}],
    }

and each member's ``data`` (the Wanted Poster) is::

    {
        "gender": "male",                   # male | female
        "hand": "right",                    # left | right
        "tiers": {                          # the tier chosen in each row, 0..3
            "toughness": 1,                 #   (Toughness has tiers 0..2 only)
            "handgun": 2, "rifle": 0, "shotgun": 0, "brawl": 1, "riding": 1,
        },
        "special_skill": {                  # or null: no special skill
            "table": "A",                   # A (1 CCP) | B (2 CCP) | C (3 CCP)
            "roll": 3,                      # the 1D6 rolled on that table, 1..6
            "source": "rolled",             # "rolled" here (Dice) | "entered" by hand
            "skill": "Fast",                # optional; must agree with table + roll
        },
        "pack": "A",                        # equipment pack A | B | C | D
        "leader": true,                     # optional, default false: exactly one leader
        "drunk": false,                     # optional rule Drunk (a status on the card)
        "tuwa": false,                      # optional rule The Tuwa (Brave skill)
        # Optional, written by a campaign (the outlaw's *current* poster):
        "reputation": 7,                    # reputation total (may be negative)
        "cash": 23,                         # dollars carried now, >= 0 (else the pack's)
        "ccp": 2,                           # CCP earned from reputation, saved (unspent)
        "ccp_spent": 3,                     # CCP from reputation spent on this outlaw
        "equipment": ["Colt '41", "Handgun reload", "Handgun reload", "Horse"],
                                            # what the outlaw owns now: replaces the
                                            # pack's contents (repeat an item for 2x;
                                            # unknown items print as they are)
        "extra_skills": [                   # special skills bought with campaign CCP,
            {"table": "C", "roll": 1, "source": "rolled"},  # each like special_skill
        ],
    }

An outlaw's full cost is the sum of its tier costs plus the table costs of its special
skill and extra skills; its creation cost (``cost``, also ``creation_cost``) is the full
cost less ``ccp_spent``, what the gang's 30 CCP paid for and what a replacement is built
with. The gang's total is the sum of its outlaws' creation costs. A special skill is always
derived from the table and the roll; a recorded ``skill`` name is only checked against them.
At creation an outlaw rolls on a single table (Step 7): an outlaw with more than one special
skill must have ``ccp_spent`` covering the tables of all but the dearest.

Campaign helpers (plain functions, used by the campaign): :func:`notoriety`,
:func:`reputation_for_wound`, :func:`reputation_for_kill`, :func:`reputation_for_win`,
:data:`LEAVING_THE_BOARD`, :data:`DECLINING_A_SHOWDOWN`, :func:`ccp_earned`,
:func:`roll_encounter_location` and :func:`roll_death` (both through an injected
:class:`rules.dice.Dice`), :func:`roll_special_skill` and :func:`suggested_gang_name`.
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

_ = i18n.gettext
ngettext = i18n.ngettext

ERROR = Severity.ERROR
WARNING = Severity.WARNING

SEED = "003_c03a98c2ce9ed0ff.txt"
#: this game's data: its book's content (and, for bwg1, the French book's words)
DATA = Path(__file__).parent / "data"
CONTENT: dict[str, Any] = load_content(DATA / "content.json")

CCP_BUDGET: int = CONTENT["ccp"]
MIN_OUTLAWS: int = CONTENT["min_outlaws"]
MAX_OUTLAWS: int = CONTENT["max_outlaws"]
GENDERS: dict[str, str] = CONTENT["genders"]
HANDS: dict[str, str] = CONTENT["hands"]
# Plain words, not the book's terms: translated where shown (tests hold them to the data).
_CHOICE_WORDS = (
    i18n.gettext_noop("Male"),
    i18n.gettext_noop("Female"),
    i18n.gettext_noop("Left-handed"),
    i18n.gettext_noop("Right-handed"),
)
SOURCES = ("rolled", "entered")


@dataclass(frozen=True)
class Tier:
    row: str
    tier: int
    name: str
    cost: int
    bonus: int | None = None  # the weapon/skill rows
    actions: int | None = None  # Toughness

    @property
    def value(self) -> str:
        """The stat as printed: starting actions for Toughness, else the bonus."""
        return str(self.actions) if self.actions is not None else f"+{self.bonus}"


@dataclass(frozen=True)
class Row:
    id: str
    label: str
    tiers: tuple[Tier, ...]

    def get(self, tier: int | None) -> Tier | None:
        return next((t for t in self.tiers if t.tier == tier), None)

    @property
    def choices(self) -> str:
        return ", ".join(f"{t.tier} {t.name} ({t.cost} CCP)" for t in self.tiers)


ROWS: dict[str, Row] = {
    r["id"]: Row(
        r["id"],
        r["label"],
        tuple(
            Tier(r["id"], t["tier"], t["name"], t["cost"], t.get("bonus"), t.get("actions"))
            for t in r["tiers"]
        ),
    )
    for r in CONTENT["rows"]
}


@dataclass(frozen=True)
class SkillResult:
    table: str
    rolls: tuple[int, ...]
    name: str
    effect: str
    aliases: tuple[str, ...] = ()

    def matches(self, name: str) -> bool:
        wanted = _norm(name)
        return any(_norm(n) == wanted for n in (self.name, *self.aliases))


@dataclass(frozen=True)
class SkillTable:
    id: str
    label: str
    cost: int
    results: tuple[SkillResult, ...]

    def result(self, roll: int) -> SkillResult | None:
        return next((r for r in self.results if roll in r.rolls), None)


SKILL_TABLES: dict[str, SkillTable] = {
    tid: SkillTable(
        tid,
        t["label"],
        t["cost"],
        tuple(
            SkillResult(tid, tuple(r["rolls"]), r["name"], r["effect"], tuple(r.get("aliases", ())))
            for r in t["results"]
        ),
    )
    for tid, t in CONTENT["special_skill_tables"].items()
}
PACKS: dict[str, dict[str, Any]] = CONTENT["equipment_packs"]
NOTORIETY: list[dict[str, Any]] = CONTENT["notoriety"]
REPUTATION_PER_CCP: int = CONTENT["advancement"]["reputation_per_ccp"]
_EVENTS = {e["id"]: e for e in CONTENT["reputation_events"]}
LEAVING_THE_BOARD: int = _EVENTS["leave_board"]["value"]
DECLINING_A_SHOWDOWN: int = _EVENTS["decline_showdown"]["value"]
WIN_PER_OUTLAW: int = _EVENTS["win"]["value"]

_TABLE_LIST = ", ".join(f"{t.id} ({t.cost} CCP)" for t in SKILL_TABLES.values())
_PACK_LIST = ", ".join(PACKS)

_SRC = "seed 003, Rivals: Gangs of the Old West"
RULES: tuple[RuleDoc, ...] = (
    RuleDoc(
        "rivals.too_few_outlaws",
        ERROR,
        f"A gang has at least {MIN_OUTLAWS} outlaws.",
        f"{_SRC} (The Outlaw Gang; Character Creation)",
    ),
    RuleDoc(
        "rivals.too_many_outlaws",
        ERROR,
        f"A gang has at most {MAX_OUTLAWS} outlaws.",
        f"{_SRC} (The Outlaw Gang; Character Creation)",
    ),
    RuleDoc(
        "rivals.ccp_over_budget",
        ERROR,
        f"The outlaws' costs add up to at most {CCP_BUDGET} Character Creation Points.",
        f"{_SRC} (Character Creation)",
    ),
    RuleDoc(
        "rivals.ccp_unspent",
        WARNING,
        f"CCP left from the {CCP_BUDGET} after the outlaws are created are lost.",
        f"{_SRC} (Character Creation: unused points are discarded)",
    ),
    RuleDoc(
        "rivals.ccp_spent_too_high",
        ERROR,
        "The CCP an outlaw spent in the campaign (from reputation) are at most what its "
        "tiers and special skills cost.",
        f"{_SRC} (Advancement: CCP spent on higher tiers or a special-skill roll)",
        decision="A campaign records the CCP from reputation spent on each outlaw "
        "(ccp_spent); they are taken off the outlaw's cost for the 30-CCP creation "
        "budget, so they can't be more than its tiers and special skills cost in all.",
    ),
    RuleDoc(
        "rivals.no_leader",
        ERROR,
        'One outlaw is the gang leader (member flag "leader": true).',
        f"{_SRC} (The Outlaw Gang)",
    ),
    RuleDoc(
        "rivals.too_many_leaders",
        ERROR,
        "A gang has exactly one leader; each extra leader is flagged.",
        f"{_SRC} (The Outlaw Gang)",
    ),
    RuleDoc(
        "rivals.gang_not_named_after_leader",
        WARNING,
        'The gang is named after its leader ("Red Jack\'s Gang", "James\' Gang").',
        f"{_SRC} (The Outlaw Gang)",
        decision="The book states it as a rule but it has no effect on play, so it is a "
        "warning; the name counts as the leader's when it contains one of the words of the "
        "leader's name (ignoring case, 'the', 'of' and a possessive 's).",
    ),
    RuleDoc(
        "rivals.outlaw_unnamed",
        WARNING,
        "Every outlaw has a name (it goes on the Wanted Poster).",
        f"{_SRC} (Character Creation: the Wanted Poster)",
    ),
    RuleDoc(
        "rivals.no_gender",
        ERROR,
        "Every outlaw's gender is recorded (male or female).",
        f"{_SRC} (Gender and Handedness)",
    ),
    RuleDoc(
        "rivals.unknown_gender",
        ERROR,
        "An outlaw's gender is male or female, as the book offers.",
        f"{_SRC} (Gender and Handedness)",
    ),
    RuleDoc(
        "rivals.no_hand",
        ERROR,
        "Every outlaw's handedness is recorded (left or right).",
        f"{_SRC} (Gender and Handedness)",
    ),
    RuleDoc(
        "rivals.unknown_hand",
        ERROR,
        "An outlaw is left- or right-handed.",
        f"{_SRC} (Gender and Handedness)",
    ),
    RuleDoc(
        "rivals.tier_missing",
        ERROR,
        "Every outlaw picks one tier in each of the six rows (Toughness, Handgun, Rifle, "
        "Shotgun, Brawl, Riding).",
        f"{_SRC} (Steps 1-6)",
    ),
    RuleDoc(
        "rivals.unknown_tier",
        ERROR,
        "A tier is one the row offers: 0-2 for Toughness, 0-3 for the other rows.",
        f"{_SRC} (Steps 1-6)",
    ),
    RuleDoc(
        "rivals.unknown_skill_table",
        ERROR,
        f"A special skill is rolled on one table: {_TABLE_LIST}.",
        f"{_SRC} (Step 7. Special Skill)",
        decision='The seed heads the 3 CCP table "Table A"; it is Table C (RULES.md).',
    ),
    RuleDoc(
        "rivals.too_many_skill_tables",
        ERROR,
        "At creation an outlaw rolls on a single special-skill table; every further special "
        "skill is bought with CCP earned in the campaign (recorded as ccp_spent).",
        f'{_SRC} (Step 7. Special Skill: "A character may roll only a single table"; '
        "Increasing Skills)",
        decision="The creation budget is taken to have paid for the dearest of the outlaw's "
        "special skills; the CCP spent in the campaign must cover at least the others' "
        "tables (they may also have paid for higher tiers).",
    ),
    RuleDoc(
        "rivals.skill_roll_out_of_range",
        ERROR,
        "The special-skill roll is a 1D6 result, 1 to 6.",
        f"{_SRC} (Step 7. Special Skill)",
    ),
    RuleDoc(
        "rivals.skill_name_mismatch",
        ERROR,
        "A recorded special-skill name is the one the table and the roll give.",
        f"{_SRC} (Step 7. Special Skill)",
    ),
    RuleDoc(
        "rivals.unknown_skill_source",
        ERROR,
        'A special-skill roll says where it came from: "rolled" here or "entered" by hand.',
        f"{_SRC} (Step 7: the skill is determined by rolling)",
    ),
    RuleDoc(
        "rivals.no_pack",
        ERROR,
        f"Every outlaw chooses one equipment pack ({_PACK_LIST}).",
        f"{_SRC} (Step 8. Weapons, Ammo & Cash)",
    ),
    RuleDoc(
        "rivals.unknown_pack",
        ERROR,
        f"An equipment pack is one of {_PACK_LIST}.",
        f"{_SRC} (Step 8. Weapons, Ammo & Cash)",
    ),
    RuleDoc(
        "rivals.optional_rule",
        WARNING,
        "An outlaw marked Drunk or Tuwa uses an optional rule: agree it with your opponent.",
        "seed 003, Optional Rules (Drunk; The Tuwa)",
    ),
)
RULE_CODES = frozenset(r.code for r in RULES)
_SEVERITY = {r.code: r.severity for r in RULES}

MEMBER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Rivals outlaw (a member's data: the Wanted Poster)",
    "type": "object",
    "required": ["gender", "hand", "tiers", "special_skill", "pack"],
    "additionalProperties": False,
    "properties": {
        "gender": {"type": "string", "description": 'male | female ("" not chosen yet)'},
        "hand": {"type": "string", "description": 'left | right ("" not chosen yet)'},
        "tiers": {
            "type": "object",
            "description": "the tier picked in each row: 0..2 for toughness, 0..3 otherwise",
            "required": list(ROWS),
            "additionalProperties": False,
            "properties": {row: {"type": "integer"} for row in ROWS},
        },
        "special_skill": {
            "oneOf": [{"type": "null"}, {"$ref": "#/$defs/special_skill"}],
        },
        "pack": {"type": "string", "description": "equipment pack A | B | C | D"},
        "leader": {"type": "boolean", "description": "the gang's leader (exactly one)"},
        "drunk": {"type": "boolean", "description": "optional rule: Drunk status"},
        "tuwa": {"type": "boolean", "description": "optional rule: a Tuwa with the Brave skill"},
        "reputation": {
            "type": "integer",
            "description": "campaign: the outlaw's reputation total (may be negative)",
        },
        "cash": {
            "type": "integer",
            "minimum": 0,
            "description": "campaign: dollars the outlaw carries now (absent: the pack's)",
        },
        "ccp": {
            "type": "integer",
            "minimum": 0,
            "description": "campaign: CCP earned from reputation and saved (not yet spent)",
        },
        "ccp_spent": {
            "type": "integer",
            "minimum": 0,
            "description": "campaign: CCP from reputation spent on this outlaw (higher "
            "tiers, extra skills); taken off its cost for the 30-CCP creation budget",
        },
        "equipment": {
            "type": "array",
            "description": "campaign: what the outlaw owns now, replacing the pack's "
            "contents; repeat an item for each one owned (unknown items are allowed)",
            "items": {"type": "string", "pattern": "\\S", "maxLength": 80},
        },
        "extra_skills": {
            "type": "array",
            "description": "campaign: special skills bought with CCP after creation",
            "items": {"$ref": "#/$defs/special_skill"},
        },
    },
    "$defs": {
        "special_skill": {
            "type": "object",
            "required": ["table", "roll", "source"],
            "additionalProperties": False,
            "properties": {
                "table": {"type": "string", "description": "A (1 CCP) | B (2 CCP) | C (3 CCP)"},
                "roll": {"type": "integer", "description": "the 1D6 result, 1..6"},
                "source": {"type": "string", "description": "rolled | entered"},
                "skill": {"type": "string", "description": "the skill's name (optional)"},
            },
        }
    },
}
GANG_SCHEMA: dict[str, Any] = {"type": "object", "additionalProperties": False}


# --------------------------------------------------------------------------- helpers


def _norm(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").lower().split())


def _shown(value: Any) -> str:
    try:
        text = value if isinstance(value, str) else json.dumps(value, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return f"'{text[:40]}'"


def _list_and(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) == 1:
        return items[0]
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def _choice_id(value: Any, prefix: str) -> str:
    """'A', 'a', 'Table A', 'Pack a' -> 'A'."""
    text = _str(value).upper()
    if text.startswith(prefix):
        text = text[len(prefix) :].strip()
    return text


_STOP_WORDS = frozenset({"the", "a", "an", "of", "and", "gang"})


def _name_words(text: str) -> set[str]:
    words = re.findall(r"[^\W_]+(?:'[^\W_]+)*", text.replace("\u2019", "'").lower())
    return {w.removesuffix("'s") for w in words} - _STOP_WORDS


def suggested_gang_name(leader_name: str) -> str:
    """The gang named after its leader: "Red Jack" -> "Red Jack's Gang", "James" -> "James'
    Gang" (the book's two examples)."""
    name = " ".join(_str(leader_name).split())
    if not name:
        return ""
    return f"{name}' Gang" if name.endswith(("s", "S")) else f"{name}'s Gang"


def names_leader(gang_name: str, leader_name: str) -> bool:
    """Whether a gang's name is after its leader: it shares a word of the leader's name."""
    leader_words = _name_words(leader_name)
    return bool(leader_words & _name_words(gang_name))


def skill_for(table: str, roll: int) -> SkillResult | None:
    """The special skill a roll gives on a table (None for an unknown table or roll)."""
    t = SKILL_TABLES.get(_choice_id(table, "TABLE"))
    return t.result(roll) if t else None


def roll_special_skill(dice: Dice, table: str) -> dict[str, Any]:
    """Roll 1D6 on a special-skill table: the member's ``special_skill`` record."""
    table_id = _choice_id(table, "TABLE")
    t = SKILL_TABLES.get(table_id)
    if t is None:
        raise ValueError(f"unknown special-skill table {table!r}; one of {', '.join(SKILL_TABLES)}")
    roll = dice.d6(f"Special skill: {t.label} ({t.cost} CCP)")
    result = t.result(roll)
    assert result is not None  # every table covers 1..6
    return {"table": table_id, "roll": roll, "source": "rolled", "skill": result.name}


# --------------------------------------------------------------------------- campaign


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    return value


def notoriety(reputation: int) -> tuple[str, int]:
    """(title, notoriety bonus) for a reputation total; below 0 counts as Loafer."""
    reputation = _whole(reputation, "reputation")
    for level in NOTORIETY:
        if level["max"] is None or reputation <= level["max"]:
            return level["title"], level["bonus"]
    raise AssertionError("the notoriety table ends open")  # pragma: no cover


def reputation_for_wound(actions_lost: int) -> int:
    """Wounding an outlaw of another gang: the number of actions the wound costs."""
    actions_lost = _whole(actions_lost, "actions lost")
    if actions_lost < 0:
        raise ValueError("a wound can't give actions back")
    return actions_lost


def reputation_for_kill(
    wounds_lost: int, notoriety_bonus: int | None = None, *, victim_reputation: int | None = None
) -> int:
    """Killing an outlaw of another gang: wounds lost from the killing wound + the victim's
    notoriety bonus (give the bonus, or the victim's reputation to look it up).

    Book example: James, a Drifter (+2) with Regular toughness (4 actions):
    ``reputation_for_kill(4, 2) == reputation_for_kill(4, victim_reputation=7) == 6``.
    """
    wounds_lost = _whole(wounds_lost, "wounds lost")
    if wounds_lost < 0:
        raise ValueError("a wound can't give actions back")
    if (notoriety_bonus is None) == (victim_reputation is None):
        raise ValueError("give the victim's notoriety bonus or the victim's reputation")
    if notoriety_bonus is None:
        notoriety_bonus = notoriety(_whole(victim_reputation, "victim's reputation"))[1]
    return wounds_lost + _whole(notoriety_bonus, "notoriety bonus")


def reputation_for_win(outlaws: int = 1) -> int:
    """Winning the encounter: +2 for each outlaw of the winning gang (the gang's total)."""
    outlaws = _whole(outlaws, "outlaws")
    if outlaws < 0:
        raise ValueError("a gang can't have fewer than 0 outlaws")
    return WIN_PER_OUTLAW * outlaws


def ccp_earned(previous_best: int, new_total: int) -> int:
    """CCP an outlaw gains when its reputation goes from its best so far to ``new_total``.

    Every 5 reputation gives 1 CCP. Penalties lower the total but never take CCP back,
    and a threshold passed once never grants again: only thresholds above
    ``previous_best`` (the highest total the outlaw has reached) count.
    """
    best = max(0, _whole(previous_best, "previous best"))
    new = _whole(new_total, "new total")
    if new <= best:
        return 0
    return new // REPUTATION_PER_CCP - best // REPUTATION_PER_CCP


def _lookup(table: list[dict[str, Any]], roll: int, what: str) -> dict[str, Any]:
    roll = _whole(roll, what)
    for entry in table:
        if roll in entry["rolls"]:
            return {"roll": roll, **{k: v for k, v in entry.items() if k != "rolls"}}
    raise ValueError(f"{what} {roll} is not a 1D6 result (1 to 6)")


def encounter_location(roll: int) -> dict[str, Any]:
    """Where an encounter takes place for a 1D6 roll: 1-3 centre of town, 4-5 edge of town,
    6 Homestead. Keys: roll, id, name, text."""
    return _lookup(CONTENT["encounter_locations"], roll, "location roll")


def roll_encounter_location(dice: Dice) -> dict[str, Any]:
    return encounter_location(dice.d6("Rivals: encounter location"))


def death_result(roll: int) -> dict[str, Any]:
    """After the encounter, for an outlaw who ended it dead: 1-3 Dead, 4-5 Badly wounded,
    6 Playing dead. Keys: roll, id, name, text, removed, earns_reputation."""
    return _lookup(CONTENT["death_table"], roll, "death roll")


def roll_death(dice: Dice, outlaw: str = "") -> dict[str, Any]:
    who = f" for {outlaw}" if outlaw else ""
    return death_result(dice.d6(f"Rivals: death roll{who}"))


# --------------------------------------------------------------------------- results


@dataclass
class MemberReport:
    key: str
    name: str
    position: int
    gender: str = ""
    hand: str = ""
    leader: bool = False
    tiers: dict[str, Tier | None] = field(default_factory=dict)
    tier_values: dict[str, Any] = field(default_factory=dict)  # as given, for messages
    special_skill: dict[str, Any] | None = None
    skill_cost: int = 0
    pack_id: str = ""
    pack: dict[str, Any] | None = None
    drunk: bool = False
    tuwa: bool = False
    # What a campaign records (None: not recorded, a new outlaw)
    extra_skills: list[dict[str, Any]] = field(default_factory=list)
    extra_skill_cost: int = 0
    saved_ccp: int | None = None  # data "ccp": earned from reputation, not spent yet
    ccp_spent: int | None = None  # data "ccp_spent": from reputation, spent on this outlaw
    owned: list[str] | None = None  # data "equipment": what the outlaw owns now
    campaign_cash: int | None = None  # data "cash"
    findings: list[Finding] = field(default_factory=list)

    @property
    def display_name(self) -> str:
        # By its place in the roster, never by its key (in the app, a database id).
        return self.name or _("Outlaw {position}").format(position=self.position)

    @property
    def tier_cost(self) -> int:
        return sum(t.cost for t in self.tiers.values() if t is not None)

    @property
    def full_cost(self) -> int:
        """CCP: every tier's cost plus the special skill's and the extra skills' tables."""
        return self.tier_cost + self.skill_cost + self.extra_skill_cost

    @property
    def creation_cost(self) -> int:
        """CCP from the gang's 30: the full cost less the CCP spent in the campaign (what
        a replacement is built with)."""
        return max(0, self.full_cost - (self.ccp_spent or 0))

    @property
    def cost(self) -> int:
        """What the outlaw adds to the gang's total: its creation cost (the full cost for
        an outlaw with no CCP spent in the campaign)."""
        return self.creation_cost

    @property
    def in_campaign(self) -> bool:
        """Whether a campaign recorded CCP or extra skills for this outlaw."""
        return self.saved_ccp is not None or self.ccp_spent is not None or bool(self.extra_skills)

    @property
    def actions(self) -> int | None:
        t = self.tiers.get("toughness")
        return t.actions if t else None

    @property
    def bonuses(self) -> dict[str, int | None]:
        """Each weapon/skill row's bonus (None where the tier is missing or unknown)."""
        return {
            row: (t.bonus if t else None) for row, t in self.tiers.items() if row != "toughness"
        }

    @property
    def cash(self) -> int:
        """Dollars carried: the campaign's figure once recorded, else the pack's."""
        if self.campaign_cash is not None:
            return self.campaign_cash
        return self.pack["cash"] if self.pack else 0

    @property
    def kit(self) -> list[dict[str, Any]]:
        """What the outlaw owns, as ``{"item", "quantity"}``: the campaign's equipment
        (repeated items grouped) once recorded, else the pack's contents."""
        if self.owned is not None:
            return _grouped(self.owned)
        return [dict(c) for c in self.pack["contents"]] if self.pack else []

    @property
    def equipment(self) -> list[str]:
        return [_item(c) for c in self.kit]

    @property
    def skills(self) -> list[dict[str, Any]]:
        """The special skill, then the extra skills: each with its name and effect, or
        without them when the roll is not a 1D6 result."""
        return [s for s in (self.special_skill, *self.extra_skills) if s]

    @property
    def has_errors(self) -> bool:
        return any(f.is_error for f in self.findings)

    @property
    def summary(self) -> str:
        parts = [_("Leader")] if self.leader else []
        parts.append(_(GENDERS[self.gender]) if self.gender in GENDERS else _("Gender?"))
        parts.append(_(HANDS[self.hand]) if self.hand in HANDS else _("Hand?"))
        if self.tuwa:
            parts.append("Tuwa")
        parts.append(_("{cost} CCP").format(cost=self.cost))
        return " · ".join(parts)

    @property
    def stats(self) -> list[tuple[str, str]]:
        return [
            (_("Actions") if row == "toughness" else ROWS[row].label, t.value if t else "?")
            for row, t in self.tiers.items()
        ]

    @property
    def notes(self) -> list[str]:
        notes = []
        names = []
        for row, t in self.tiers.items():
            label = ROWS[row].label
            names.append(
                _("{row} {tier} ({cost} CCP)").format(row=label, tier=t.name, cost=t.cost)
                if t
                else f"{label} ?"
            )
        notes.append(_("Tiers: {tiers}").format(tiers=i18n.punctuate(";").join(names)))
        for skill in (self.special_skill, *self.extra_skills):
            if skill and skill.get("name"):
                extra = "number" in skill
                if skill["source"] == "rolled" and extra:
                    note = _(
                        "Extra special skill {number} {skill} (Table {table}, {cost} CCP, "
                        "rolled {roll}): {effect}"
                    )
                elif skill["source"] == "rolled":
                    note = _(
                        "Special skill {skill} (Table {table}, {cost} CCP, rolled {roll}): {effect}"
                    )
                elif extra:
                    note = _(
                        "Extra special skill {number} {skill} (Table {table}, {cost} CCP, roll "
                        "{roll} entered by hand, not rolled here): {effect}"
                    )
                else:
                    note = _(
                        "Special skill {skill} (Table {table}, {cost} CCP, roll {roll} entered "
                        "by hand, not rolled here): {effect}"
                    )
                notes.append(
                    note.format(
                        number=skill.get("number"),
                        skill=skill["name"],
                        table=skill["table"],
                        cost=skill["cost"],
                        roll=skill["roll"],
                        effect=skill["effect"],
                    )
                )
        if self.owned is not None:
            owned = ", ".join(self.equipment) or _("nothing")
            notes.append(
                _("Equipment (campaign): {equipment}; cash ${cash}").format(
                    equipment=owned, cash=self.cash
                )
            )
        elif self.pack:
            notes.append(
                _("{pack}: {equipment}; cash ${cash}").format(
                    pack=self.pack["label"], equipment=", ".join(self.equipment), cash=self.cash
                )
            )
        if self.saved_ccp is not None:
            notes.append(_("Saved CCP: {ccp}").format(ccp=self.saved_ccp))
        if self.ccp_spent is not None:
            notes.append(
                _(
                    "CCP spent in the campaign: {spent} ({creation} CCP at creation, {full} in all)"
                ).format(spent=self.ccp_spent, creation=self.creation_cost, full=self.full_cost)
            )
        if self.drunk:
            notes.append(_("Drunk: {text}").format(text=CONTENT["drunk"]["text"]))
        if self.tuwa:
            tuwa = CONTENT["tuwa"]
            abilities = " ".join(f"{a['name']}: {a['text']}" for a in tuwa["brave"]["abilities"])
            notes.append(_("Brave (Tuwa): {abilities}").format(abilities=abilities))
            weapons = ", ".join(w["name"] for w in tuwa["weapons"])
            notes.append(
                _("Tuwa weapons: {weapons}; the Tuwa favour the {favoured}.").format(
                    weapons=weapons, favoured=tuwa["favoured"]["name"]
                )
            )
        return notes


# --------------------------------------------------------------------------- evaluation


class Rivals:
    id = "rivals"
    name = "Outlaws: Rivals \u2013 Gangs of the Old West"
    short_name = "Outlaws: Rivals"
    seed = SEED
    book_languages = ("en",)  # no French edition: its texts stay English, marked so
    rules = RULES
    content = CONTENT
    rows = ROWS
    skill_tables = SKILL_TABLES
    packs = PACKS
    limit_presets = (CCP_BUDGET,)
    default_limit = CCP_BUDGET
    content_entry_schemas: dict[str, dict[str, Any]] = {}
    cap_help = i18n.gettext_noop("No cap to set: a Rivals gang is always built with 30 CCP.")
    cap_refused: str | None = i18n.gettext_noop(
        "Leave it empty: a Rivals gang is always built with 30 CCP."
    )
    limit_help: str | None = i18n.gettext_noop("Rivals gangs always have 30 CCP to spend.")
    limit_optional = False
    member_schema = MEMBER_SCHEMA
    gang_schema = GANG_SCHEMA
    decisions = (
        f"The budget is always {CCP_BUDGET} CCP, whatever limit a roster file gives: the "
        "book builds every gang from 30 points.",
        "Notoriety: the book's ranges overlap; 0-5 Loafer (+1), 6-10 Drifter (+2), 11-15 "
        "Small time crook (+3), 16-20 Outlaw (+4), 21-30 Wanted (+5), 31+ Most wanted (+6) "
        "(RULES.md). A total below 0 counts as Loafer.",
        "Advancement: every 5 reputation gives 1 CCP; penalties lower the reputation total "
        "but never take CCP back, and a threshold passed once does not grant a CCP again "
        "(RULES.md).",
        "The special skill is derived from its table and its 1D6 roll; a roll entered by "
        "hand (a die rolled at the table) is accepted and marked as entered on the poster.",
        "A special-skill table chosen with a bad roll still costs its CCP: the table is "
        "paid before rolling.",
        "Drunk and Tuwa (Brave) are optional statuses from the Outlaws optional rules; they "
        "cost no CCP and are printed on the poster with their rules text.",
    )

    # ----------------------------------------------------------------- public helpers

    def new_member(
        self, *, leader: bool = False, gender: str = "male", hand: str = "right", pack: str = "A"
    ) -> dict[str, Any]:
        """A fresh outlaw: tier 0 everywhere (0 CCP), no special skill, a pack."""
        return {
            "gender": gender,
            "hand": hand,
            "tiers": dict.fromkeys(ROWS, 0),
            "special_skill": None,
            "pack": pack,
            "leader": leader,
        }

    @property
    def total_label(self) -> str:
        return _("CCP")

    @staticmethod
    def suggested_gang_name(leader_name: str) -> str:
        return suggested_gang_name(leader_name)

    @staticmethod
    def roll_special_skill(dice: Dice, table: str) -> dict[str, Any]:
        return roll_special_skill(dice, table)

    # ----------------------------------------------------------------- evaluate

    def evaluate(self, roster: Mapping[str, Any]) -> Report:
        roster = roster if isinstance(roster, Mapping) else {}
        raw_members = roster.get("members")
        if not isinstance(raw_members, list):
            raw_members = []

        members: list[MemberReport] = []
        keys = member_keys(raw_members)
        for position, (key, raw) in enumerate(zip(keys, raw_members, strict=True), start=1):
            raw = raw if isinstance(raw, Mapping) else {}
            members.append(self._member(key, position, raw))

        gang_name = _str(roster.get("name"))
        gang_findings = self._check_gang(members, gang_name)
        findings = gang_findings + [f for m in members for f in m.findings]

        spent = sum(m.cost for m in members)
        leaders = [m for m in members if m.leader]
        leader = leaders[0] if leaders else None
        left = max(0, CCP_BUDGET - spent)
        suggested = suggested_gang_name(leader.name) if leader else ""
        return Report(
            system=self.id,
            total_label=self.total_label,
            total=spent,
            limit=CCP_BUDGET,
            findings=findings,
            members={m.key: m for m in members},
            gang={
                "outlaws": len(members),
                "ccp_budget": CCP_BUDGET,
                "ccp_spent": spent,
                "ccp_left": left,
                "ccp_lost": left,
                "ccp_over": max(0, spent - CCP_BUDGET),
                "leader": leader.key if leader else None,
                "leader_name": leader.name if leader else "",
                "suggested_name": suggested,
                "cash": sum(m.cash for m in members),
                "member_list": members,
                "facts": [
                    (
                        _("Outlaws"),
                        _("{count} ({least} to {most})").format(
                            count=len(members), least=MIN_OUTLAWS, most=MAX_OUTLAWS
                        ),
                    ),
                    (
                        _("CCP spent"),
                        _("{spent} of {budget}").format(spent=spent, budget=CCP_BUDGET),
                    ),
                    (_("CCP left (lost)"), str(left)),
                    (_("Leader"), (leader.display_name if leader else _("none"))),
                    (_("Suggested name"), suggested or _("(choose a named leader)")),
                    (_("Cash"), f"${sum(m.cash for m in members)}"),
                ],
            },
        )

    # ----------------------------------------------------------------- one outlaw

    def _member(self, key: str, position: int, raw: Mapping[str, Any]) -> MemberReport:
        data = raw.get("data")
        data = data if isinstance(data, Mapping) else {}
        m = MemberReport(key=key, name=_str(raw.get("name")), position=position)

        def add(code: str, message: str) -> None:
            m.findings.append(Finding(code, _SEVERITY[code], message, member=key))

        who = m.display_name
        if not m.name:
            add(
                "rivals.outlaw_unnamed",
                _(
                    "The outlaw at place {position} in the roster has no name: give them one "
                    "for the Wanted Poster."
                ).format(position=position),
            )

        def choice(field: str, choices: Any, missing: str, unknown: str) -> str:
            """The field's value if it is one of ``choices``; else a finding and ""."""
            raw_value = data.get(field)
            value = _str(raw_value).lower()
            if value in choices:
                return value
            if raw_value is None or (value == "" and isinstance(raw_value, str)):
                add(f"rivals.no_{field}", missing.format(name=who))
            else:
                add(f"rivals.unknown_{field}", unknown.format(value=_shown(raw_value)))
            return ""

        # Gender and handedness
        m.gender = choice(
            "gender",
            GENDERS,
            _("{name} has no gender: choose male or female."),
            _("{value} is not a gender the book offers: choose male or female."),
        )
        m.hand = choice(
            "hand",
            HANDS,
            _("{name} has no handedness: choose left or right."),
            _("{value} is not a handedness: choose left or right."),
        )

        # Steps 1-6: one tier per row
        tiers = data.get("tiers")
        tiers = tiers if isinstance(tiers, Mapping) else {}
        for row in ROWS.values():
            value = tiers.get(row.id)
            m.tier_values[row.id] = value
            tier = row.get(_int(value))
            m.tiers[row.id] = tier
            if tier is not None:
                continue
            if value is None:
                add(
                    "rivals.tier_missing",
                    _("{name} has no {row} tier: pick one of {choices}.").format(
                        name=who, row=row.label, choices=row.choices
                    ),
                )
            else:
                add(
                    "rivals.unknown_tier",
                    _("{value} is not a {row} tier: pick one of {choices}.").format(
                        value=_shown(value), row=row.label, choices=row.choices
                    ),
                )

        # Step 7: special skill
        m.special_skill = self._special_skill(m, data.get("special_skill"), add)
        m.skill_cost = m.special_skill["cost"] if m.special_skill else 0

        # Step 8: equipment pack
        raw_pack = data.get("pack")
        pack_id = _choice_id(raw_pack, "PACK")
        if pack_id in PACKS:
            m.pack_id = pack_id
            m.pack = PACKS[pack_id]
        elif raw_pack is None or (pack_id == "" and isinstance(raw_pack, str)):
            add(
                "rivals.no_pack",
                _("{name} has no equipment pack: choose one of {packs} (packs are free).").format(
                    name=who, packs=_pack_menu()
                ),
            )
        else:
            add(
                "rivals.unknown_pack",
                _("{value} is not an equipment pack: choose one of {packs}.").format(
                    value=_shown(raw_pack), packs=_pack_menu()
                ),
            )

        m.leader = data.get("leader") is True
        m.drunk = data.get("drunk") is True
        m.tuwa = data.get("tuwa") is True
        used = [n for n, on in (("Drunk", m.drunk), ("Tuwa (Brave)", m.tuwa)) if on]
        if used:
            add(
                "rivals.optional_rule",
                ngettext(
                    "{name} uses the optional rule {rules} (Outlaws optional rules, not "
                    "Rivals): agree it with your opponent, or clear it.",
                    "{name} uses the optional rules {rules} (Outlaws optional rules, not "
                    "Rivals): agree them with your opponent, or clear them.",
                    len(used),
                ).format(name=who, rules=_list_and(used)),
            )

        self._campaign(m, data, add)
        return m

    def _campaign(self, m: MemberReport, data: Mapping[str, Any], add) -> None:
        """What a campaign records: extra skills, CCP saved and spent, equipment, cash."""
        raw_extra = data.get("extra_skills")
        if isinstance(raw_extra, list):
            for number, raw in enumerate(raw_extra, start=1):
                skill = self._special_skill(m, raw, add, number=number)
                if skill is not None:
                    m.extra_skills.append(skill)
        m.extra_skill_cost = sum(s["cost"] for s in m.extra_skills)

        def count(field: str) -> int | None:
            value = _int(data.get(field))
            return value if value is not None and value >= 0 else None

        m.saved_ccp = count("ccp")
        m.ccp_spent = count("ccp_spent")
        m.campaign_cash = count("cash")
        raw_equipment = data.get("equipment")
        if isinstance(raw_equipment, list):
            m.owned = [" ".join(i.split()) for i in raw_equipment if isinstance(i, str)]
            m.owned = [i for i in m.owned if i]

        # Step 7: "A character may roll only a single table." Any skill beyond one is paid
        # with CCP from reputation, whichever record (special_skill or extra_skills) holds it.
        tables = [s for s in (m.special_skill, *m.extra_skills) if s]
        if len(tables) > 1:
            needed = sum(s["cost"] for s in tables) - max(s["cost"] for s in tables)
            paid = m.ccp_spent or 0
            if paid < needed:
                names = _list_and(
                    [
                        _("{skill} on Table {table}").format(
                            skill=s.get("name") or _("a bad roll"), table=s["table"]
                        )
                        for s in tables
                    ]
                )
                add(
                    "rivals.too_many_skill_tables",
                    ngettext(
                        "{name} has {count} special skills ({names}), but an outlaw rolls on "
                        "a single table at creation: the other must be bought with CCP earned "
                        "in the campaign, {needed} CCP, and {recorded}. Remove the extra "
                        "special skill, or record the CCP spent in the campaign (at least "
                        "{needed}).",
                        "{name} has {count} special skills ({names}), but an outlaw rolls on "
                        "a single table at creation: the others must be bought with CCP earned "
                        "in the campaign, {needed} CCP, and {recorded}. Remove the extra "
                        "special skills, or record the CCP spent in the campaign (at least "
                        "{needed}).",
                        len(tables) - 1,
                    ).format(
                        name=m.display_name,
                        count=len(tables),
                        names=names,
                        needed=needed,
                        recorded=ngettext(
                            "{count} is recorded as spent in the campaign",
                            "{count} are recorded as spent in the campaign",
                            paid,
                        ).format(count=paid),
                    ),
                )

        if m.ccp_spent is not None and m.ccp_spent > m.full_cost:
            if m.gender == "male":
                message = _(
                    "{name} has {spent} CCP spent in the campaign, but his tiers and special "
                    "skills cost {full} CCP in all: lower the CCP spent in the campaign to "
                    "{full} or less, or record the higher tiers and extra skills they bought."
                )
            elif m.gender == "female":
                message = _(
                    "{name} has {spent} CCP spent in the campaign, but her tiers and special "
                    "skills cost {full} CCP in all: lower the CCP spent in the campaign to "
                    "{full} or less, or record the higher tiers and extra skills they bought."
                )
            else:
                message = _(
                    "{name} has {spent} CCP spent in the campaign, but their tiers and special "
                    "skills cost {full} CCP in all: lower the CCP spent in the campaign to "
                    "{full} or less, or record the higher tiers and extra skills they bought."
                )
            add(
                "rivals.ccp_spent_too_high",
                message.format(name=m.display_name, spent=m.ccp_spent, full=m.full_cost),
            )

    def _special_skill(
        self, m: MemberReport, raw: Any, add, *, number: int | None = None
    ) -> dict[str, Any] | None:
        """The special skill (``number`` None) or extra special skill ``number`` as a
        record with its table's cost; findings for what is wrong with it."""
        who = m.display_name
        extra = number is not None
        figures = {"name": who, "number": number, "tables": _TABLE_LIST}
        if raw is None:
            if extra:
                add(
                    "rivals.unknown_skill_table",
                    _(
                        "{name}'s extra special skill {number}: it is empty: record the table "
                        "({tables}) and the 1D6 rolled on it, or remove it."
                    ).format(**figures),
                )
            return None
        if not isinstance(raw, Mapping):
            if extra:
                message = _(
                    "{name}'s extra special skill {number} {value} is not a table and a roll: "
                    "record the table ({tables}) and the 1D6 rolled on it, or remove it."
                )
            else:
                message = _(
                    "{name}'s special skill {value} is not a table and a roll: record the "
                    "table ({tables}) and the 1D6 rolled on it, or remove the special skill."
                )
            add("rivals.unknown_skill_table", message.format(**figures, value=_shown(raw)))
            return None
        raw_table = raw.get("table")
        table = SKILL_TABLES.get(_choice_id(raw_table, "TABLE"))
        if table is None:
            if extra:
                message = _(
                    "{name}'s extra special skill {number}: {value} is not a special-skill "
                    "table: choose {tables}, or remove it."
                )
            else:
                message = _(
                    "{value} is not a special-skill table: choose {tables}, or remove the "
                    "special skill."
                )
            add("rivals.unknown_skill_table", message.format(**figures, value=_shown(raw_table)))
            return None
        raw_source = raw.get("source")
        source = _str(raw_source).lower()
        if source not in SOURCES:
            if extra:
                message = _(
                    "{name}'s extra special skill {number} roll has source {value}: set it to "
                    "'rolled' (rolled here) or 'entered' (a die rolled at the table)."
                )
            else:
                message = _(
                    "{name}'s special-skill roll has source {value}: set it to 'rolled' "
                    "(rolled here) or 'entered' (a die rolled at the table)."
                )
            add("rivals.unknown_skill_source", message.format(**figures, value=_shown(raw_source)))
            source = "entered"
        record: dict[str, Any] = {"table": table.id, "cost": table.cost}
        if number is not None:
            record["number"] = number
        raw_roll = raw.get("roll")
        roll = _int(raw_roll)
        result = table.result(roll) if roll is not None else None
        if result is None:
            if extra:
                message = _(
                    "{name}'s extra special skill {number} ({table}) roll {value} is not a 1D6 "
                    "result: enter the 1 to 6 rolled, or roll again."
                )
            else:
                message = _(
                    "{name}'s {table} roll {value} is not a 1D6 result: enter the 1 to 6 "
                    "rolled, or roll again."
                )
            add(
                "rivals.skill_roll_out_of_range",
                message.format(**figures, table=table.label, value=_shown(raw_roll)),
            )
            return {**record, "roll": raw_roll}
        recorded = raw.get("skill")
        if isinstance(recorded, str) and not recorded.strip():
            recorded = None  # no name recorded: nothing to check
        if recorded is not None and not (isinstance(recorded, str) and result.matches(recorded)):
            if extra:
                message = _(
                    "{name}'s extra special skill {number}: a roll of {roll} on {table} gives "
                    "{skill}, not {value}: correct the skill to {skill}, or correct the table "
                    "or the roll."
                )
            else:
                message = _(
                    "A roll of {roll} on {table} gives {skill}, not {value}: correct the skill "
                    "to {skill}, or correct the table or the roll."
                )
            add(
                "rivals.skill_name_mismatch",
                message.format(
                    **figures,
                    roll=roll,
                    table=table.label,
                    skill=result.name,
                    value=_shown(recorded),
                ),
            )
        return {
            **record,
            "roll": roll,
            "source": source,
            "name": result.name,
            "effect": result.effect,
        }

    # ----------------------------------------------------------------- the gang

    def _check_gang(self, members: list[MemberReport], gang_name: str) -> list[Finding]:
        found: list[Finding] = []

        def add(code: str, message: str) -> None:
            found.append(Finding(code, _SEVERITY[code], message))

        count = len(members)
        if count < MIN_OUTLAWS:
            add(
                "rivals.too_few_outlaws",
                ngettext(
                    "The gang has {count} outlaw; a gang has {least} to {most}: create {more} "
                    "more.",
                    "The gang has {count} outlaws; a gang has {least} to {most}: create {more} "
                    "more.",
                    count,
                ).format(
                    count=count, least=MIN_OUTLAWS, most=MAX_OUTLAWS, more=MIN_OUTLAWS - count
                ),
            )
        elif count > MAX_OUTLAWS:
            add(
                "rivals.too_many_outlaws",
                _(
                    "The gang has {count} outlaws; a gang has {least} to {most}: remove {extra}."
                ).format(
                    count=count, least=MIN_OUTLAWS, most=MAX_OUTLAWS, extra=count - MAX_OUTLAWS
                ),
            )

        spent = sum(m.cost for m in members)
        if spent > CCP_BUDGET:
            if any(m.in_campaign for m in members):
                message = _(
                    "The outlaws cost {spent} CCP but a gang has {budget}: take {over} CCP off "
                    "(lower a tier or drop a special skill, or record the CCP from reputation "
                    "that paid for them as CCP spent in the campaign)."
                )
            else:
                message = _(
                    "The outlaws cost {spent} CCP but a gang has {budget}: take {over} CCP off "
                    "(lower a tier or drop a special skill)."
                )
            add(
                "rivals.ccp_over_budget",
                message.format(spent=spent, budget=CCP_BUDGET, over=spent - CCP_BUDGET),
            )
        elif spent < CCP_BUDGET and members:
            left = CCP_BUDGET - spent
            add("rivals.ccp_unspent", _unspent_message(members, left))

        leaders = [m for m in members if m.leader]
        if not leaders:
            add(
                "rivals.no_leader",
                _(
                    "No outlaw is the gang leader: mark one as the leader (the gang is named "
                    "after them)."
                ),
            )
        for extra in leaders[1:]:
            extra.findings.insert(
                0,
                Finding(
                    "rivals.too_many_leaders",
                    ERROR,
                    _(
                        "{name} is a second leader (the leader is {leader}) and a gang has "
                        "exactly one: unmark this outlaw as leader."
                    ).format(name=extra.display_name, leader=leaders[0].display_name),
                    member=extra.key,
                ),
            )
        if leaders and leaders[0].name and not names_leader(gang_name, leaders[0].name):
            suggested = suggested_gang_name(leaders[0].name)
            if gang_name:
                message = _(
                    "The gang's name '{gang}' does not name its leader {leader}: a gang is "
                    "named after its leader, e.g. '{suggested}'."
                )
            else:
                message = _("The gang has no name: name it after its leader, e.g. '{suggested}'.")
            add(
                "rivals.gang_not_named_after_leader",
                message.format(gang=gang_name, leader=leaders[0].name, suggested=suggested),
            )
        return found

    # ----------------------------------------------------------------- printing

    def print_cards(self, roster: Mapping[str, Any], report: Report) -> list[Card]:
        """One card per outlaw, in roster order: the Wanted Poster's figures on the front,
        the special skill, the optional rules and the equipment rules in full on the back."""
        gang_name = _gang_name(roster)
        data = _members_data(roster)
        return [
            _card(m, data.get(m.key, {}), gang_name)
            for m in report.members.values()
            if isinstance(m, MemberReport)
        ]

    def print_sheet(self, roster: Mapping[str, Any], report: Report) -> dict[str, Any]:
        """The Wanted Posters (one per outlaw) and the gang summary."""
        data = _members_data(roster)
        members = [m for m in report.members.values() if isinstance(m, MemberReport)]
        posters = [_poster(m, data.get(m.key, {})) for m in members]
        leader = next((p for p in posters if p["leader"]), None)
        return {
            "posters": posters,
            "summary": {
                "outlaws": len(posters),
                "min_outlaws": MIN_OUTLAWS,
                "max_outlaws": MAX_OUTLAWS,
                "ccp_budget": CCP_BUDGET,
                "ccp_spent": sum(m.cost for m in members),
                "ccp_left": max(0, CCP_BUDGET - sum(m.cost for m in members)),
                "leader": leader["name"] if leader else "",
                "suggested_name": report.gang.get("suggested_name", ""),
                "reputation": sum(p["reputation"] for p in posters),
                "cash": sum(p["cash"] for p in posters),
                "actions": sum(p["actions"] for p in posters),
                "special_skills": sum(
                    bool(p["special_skill"]) + len(p["extra_skills"]) for p in posters
                ),
                "legal": report.is_legal,
                "errors": len(report.errors),
                "warnings": len(report.warnings),
            },
        }

    def quick_reference(self, roster: Mapping[str, Any], report: Report) -> list[Section]:
        """The special skills, weapons, equipment and optional rules this gang uses, in
        full, then the tracks and the campaign rules every Rivals gang plays by."""
        members = [m for m in report.members.values() if isinstance(m, MemberReport)]
        skills, weapons, traits, equipment, optional = [], [], [], [], []
        for m in members:
            skills += [Entry(s["name"], s["effect"]) for s in m.skills if s.get("name")]
            for item in _kit_items(m):
                trait = _weapon_trait(item)
                if trait:
                    price = _price(item)
                    if price:
                        text = _("{trait}. ${price} to buy.").format(
                            trait=trait["trait"], price=price
                        )
                    else:
                        text = f"{trait['trait']}."
                    weapons.append(Entry(item, text))
                    traits.append(Entry(trait["trait"], trait["text"]))
                elif _equipment_rule(item):
                    equipment.append(Entry(item, _equipment_rule(item)))
            if m.drunk:
                optional.append(Entry("Drunk", CONTENT["drunk"]["text"]))
            if m.tuwa:
                optional += _tuwa_entries()
        if members:
            equipment += [
                Entry(_("Cash"), _EQUIPMENT_RULES["Cash"]),
                Entry("Own weapons only", _EQUIPMENT_RULES["Own weapons only"]),
                Entry("Spending dollars", CONTENT["price_list_text"]),
            ]
        if any(t.term == "Handgun" for t in traits):
            equipment.append(Entry("Double holster", _EQUIPMENT_RULES["Double holster"]))
        sections = [
            Section.of(_("Special skills"), dedupe_entries(skills)),
            Section.of(_("Weapons"), dedupe_entries(weapons)),
            Section.of(_("Weapon traits"), dedupe_entries(traits)),
            Section.of(_("Equipment"), dedupe_entries(equipment)),
            Section.of(_("Optional rules"), dedupe_entries(optional)),
            Section.of(
                _("Tracks"),
                [(_("Actions"), _TRACKS["actions"]), (_("Wounds"), _TRACKS["wounds"])],
            ),
            Section.of(_("Reputation and notoriety"), _reputation_entries()),
            Section.of(_("Campaign"), [(r["term"], r["text"]) for r in CONTENT["play_rules"]]),
        ]
        return [s for s in sections if s.entries]


def _item(content: Mapping[str, Any]) -> str:
    n = content["quantity"]
    return f"{n}\u00d7 {content['item']}" if n > 1 else content["item"]


def _grouped(items: list[str]) -> list[dict[str, Any]]:
    """Repeated items as one ``{"item", "quantity"}`` each, in the order first owned."""
    found: dict[str, dict[str, Any]] = {}
    for item in items:
        entry = found.setdefault(_norm(item), {"item": item, "quantity": 0})
        entry["quantity"] += 1
    return list(found.values())


def _pack_menu() -> str:
    return "; ".join(
        f"{pid} ({', '.join(_item(c) for c in p['contents'])}, ${p['cash']})"
        for pid, p in PACKS.items()
    )


def _unspent_message(members: list[MemberReport], left: int) -> str:
    """How many CCP will be lost, and where they could go."""
    options: list[str] = []
    for m in members:
        if m.special_skill is None and m.skill_cost == 0:
            affordable = [t for t in SKILL_TABLES.values() if t.cost <= left]
            if affordable:
                best = max(affordable, key=lambda t: t.cost)
                options.append(
                    _("a {table} special skill for {name} ({cost} CCP)").format(
                        table=best.label, name=m.display_name, cost=best.cost
                    )
                )
                break
    for m in members:
        upgrades = []
        for row in ROWS.values():
            tier = m.tiers.get(row.id)
            nxt = row.get(tier.tier + 1) if tier else None
            if tier and nxt and nxt.cost - tier.cost <= left:
                upgrades.append((nxt.cost - tier.cost, row, tier, nxt))
        if upgrades:
            delta, row, tier, nxt = max(upgrades, key=lambda u: u[0])
            options.append(
                _("{name}'s {row} from {tier} to {next} (+{delta} CCP)").format(
                    name=m.display_name, row=row.label, tier=tier.name, next=nxt.name, delta=delta
                )
            )
            break
    if len(options) == 2:
        spend = _("{one} or {other}").format(one=options[0], other=options[1])
    else:
        spend = " or ".join(options)
    if options:
        message = ngettext(
            "{count} of the {budget} CCP is unspent and will be lost: spend it, e.g. on {options}.",
            "{count} of the {budget} CCP are unspent and will be lost: spend them, e.g. on "
            "{options}.",
            left,
        )
    else:
        message = ngettext(
            "{count} of the {budget} CCP is unspent and will be lost: no higher tier or "
            "special-skill table costs that little; keep the rest.",
            "{count} of the {budget} CCP are unspent and will be lost: no higher tier or "
            "special-skill table costs that little; keep the rest.",
            left,
        )
    return message.format(count=left, budget=CCP_BUDGET, options=spend)


# --------------------------------------------------------------------------- printing

START_REPUTATION = 0  # an outlaw starts the campaign with no reputation
_TRACKS: dict[str, Any] = CONTENT["tracks"]
USUAL_ACTIONS: int = _TRACKS["usual_actions"]
_WEAPON_TRAITS: list[dict[str, Any]] = CONTENT["weapon_traits"]
_EQUIPMENT_RULES: dict[str, str] = {e["item"]: e["text"] for e in CONTENT["equipment_rules"]}
# Rules too plain for a card's back (spare ammunition): only the quick reference has them.
_OFF_CARD = frozenset(e["item"] for e in CONTENT["equipment_rules"] if not e.get("on_card", True))
# Pack items named differently in the price list.
_PRICE_NAMES = {"smith & wesson no.2": "S&W No. 2", "remington shotgun": "Remington"}
# The stat line's labels on a card, short enough for six cells across 63 mm (the back's
# Vital info names each tier in full).
_CARD_LABELS = {
    "toughness": "Act",
    "handgun": "H'gun",
    "rifle": "Rifle",
    "shotgun": "S'gun",
    "brawl": "Brawl",
    "riding": "Riding",
}
# Findings that change nothing at the table: kept off the cards' play notes (the sheet
# still prints them).
_PAPERWORK = frozenset({"rivals.outlaw_unnamed", "rivals.no_gender", "rivals.unknown_gender"})


def _gang_name(roster: Any) -> str:
    return _str(roster.get("name")) if isinstance(roster, Mapping) else ""


def _members_data(roster: Any) -> dict[str, Mapping[str, Any]]:
    """Each member's ``data`` by the key ``evaluate`` gives it."""
    raw = roster.get("members") if isinstance(roster, Mapping) else None
    if not isinstance(raw, list):
        return {}
    found: dict[str, Mapping[str, Any]] = {}
    for key, member in zip(member_keys(raw), raw, strict=True):
        data = member.get("data") if isinstance(member, Mapping) else None
        found[key] = data if isinstance(data, Mapping) else {}
    return found


def _kit_items(m: MemberReport) -> list[str]:
    """The names of what the outlaw owns: the campaign's equipment, else the pack's."""
    return [c["item"] for c in m.kit]


_RULES_BY_NAME = {_norm(item): text for item, text in _EQUIPMENT_RULES.items()}
_OFF_CARD_NAMES = frozenset(_norm(item) for item in _OFF_CARD)


def _equipment_rule(item: str) -> str:
    """The rules text of a piece of equipment ("" for an unknown item)."""
    return _RULES_BY_NAME.get(_norm(item), "")


def _weapon_trait(item: str) -> dict[str, Any] | None:
    """The weapon kind (Handgun, Rifle, Shotgun, Knife) of an item, or None."""
    wanted = _norm(item)
    return next((t for t in _WEAPON_TRAITS if any(_norm(i) == wanted for i in t["items"])), None)


def _price(item: str) -> int | None:
    name = _norm(_PRICE_NAMES.get(_norm(item), item))
    return next((p["price"] for p in CONTENT["price_list"] if _norm(p["item"]) == name), None)


def _standing(m: MemberReport, data: Mapping[str, Any]) -> tuple[int, int, str, int]:
    """(reputation, cash, notoriety title, notoriety bonus).

    Reputation and cash come from the member's data once a campaign records them, else
    the starting values (no reputation, the equipment pack's cash: ``m.cash``); notoriety
    follows from the reputation.
    """
    reputation = _int(data.get("reputation"))
    if reputation is None:
        reputation = START_REPUTATION
    title, bonus = notoriety(reputation)
    return reputation, m.cash, title, bonus


def _reward_text(m: MemberReport) -> str:
    """The Wanted Poster's reward line, as a template taking ``bonus``."""
    if m.gender == "male":
        return _(
            "Cash on him, and +{bonus} reputation on top of the killing wound to the outlaw "
            "who kills him."
        )
    if m.gender == "female":
        return _(
            "Cash on her, and +{bonus} reputation on top of the killing wound to the outlaw "
            "who kills her."
        )
    return _(
        "Cash on them, and +{bonus} reputation on top of the killing wound to the outlaw who "
        "kills them."
    )


def _skill_text(skill: Mapping[str, Any] | None) -> str:
    if not skill:
        return _("None.")
    table = _("Table {table} ({cost} CCP)").format(table=skill["table"], cost=skill["cost"])
    if not skill.get("name"):
        return _("{table}: the roll {value} is not a 1D6 result.").format(
            table=table, value=_shown(skill.get("roll"))
        )
    if skill.get("source") == "rolled":
        text = _("{skill}, {table}, rolled {roll}.")
    else:
        text = _("{skill}, {table}, entered by hand: {roll}.")
    return text.format(skill=skill["name"], table=table, roll=skill["roll"])


def _skill_label(skill: Mapping[str, Any]) -> str:
    """The skill's label: "Special skill", or "Extra special skill 2" for the second one
    bought in the campaign."""
    number = skill.get("number")
    if number is None:
        # the plural message's singular: one msgid can't be both plain and plural
        return ngettext("Special skill", "Special skills", 1)
    return _("Extra special skill {number}").format(number=number)


def _tuwa_entries() -> list[Entry]:
    """The Tuwa optional rule: who they are, the Brave skill's abilities, their weapons."""
    tuwa = CONTENT["tuwa"]
    brave = tuwa["brave"]
    abilities = ", ".join(a["name"] for a in brave["abilities"])
    entries = [
        Entry("Tuwa", tuwa["text"]),
        Entry(
            brave["name"], _("The Tuwa's special skill: {abilities}.").format(abilities=abilities)
        ),
    ]
    entries += [Entry(a["name"], a["text"]) for a in brave["abilities"]]
    entries += [Entry(w["name"], w["text"]) for w in tuwa["weapons"]]
    entries.append(Entry(tuwa["favoured"]["name"], tuwa["favoured"]["text"]))
    return entries


def _reputation_entries() -> list[Entry]:
    entries = [Entry(e["event"], e["reputation"]) for e in CONTENT["reputation_events"]]
    entries.append(Entry(_("Earning reputation"), " ".join(CONTENT["reputation_notes"])))
    levels = i18n.punctuate(";").join(
        f"{n['min']}{'+' if n['max'] is None else '-' + str(n['max'])} {n['title']} (+{n['bonus']})"
        for n in NOTORIETY
    )
    entries.append(
        Entry(_("Notoriety"), _("From the reputation total: {levels}.").format(levels=levels))
    )
    entries.append(Entry(_("Advancement"), CONTENT["advancement"]["text"]))
    return entries


def _card(m: MemberReport, data: Mapping[str, Any], gang_name: str) -> Card:
    reputation, cash, title, bonus = _standing(m, data)
    boxes = m.actions if m.actions is not None else USUAL_ACTIONS
    unknown = ""
    if m.actions is None:
        unknown = _("no Toughness tier: the usual {actions}").format(actions=USUAL_ACTIONS)
    kind = " · ".join(
        part
        for part in (
            _("Leader") if m.leader else _("Outlaw"),
            _(HANDS[m.hand]) if m.hand in HANDS else "",
            "Tuwa" if m.tuwa else "",
            "Drunk" if m.drunk else "",
            f"{title} (+{bonus})",
        )
        if part
    )
    weapons: list[Weapon] = []
    traits: list[Entry] = []
    equipment: list[Entry] = []
    for content in m.kit:
        item = content["item"]
        trait = _weapon_trait(item)
        if trait is None:
            text = "" if _norm(item) in _OFF_CARD_NAMES else _equipment_rule(item)
            equipment.append(Entry(_item(content), text))
            continue
        tier = m.tiers.get(trait["skill"])
        skill = f"{ROWS[trait['skill']].label} {tier.value if tier else '?'}"
        weapons.append(Weapon(_item(content), traits=(trait["trait"],), note=skill))
        traits.append(Entry(trait["trait"], trait["text"]))
    equipment.append(Entry(_("Cash ${cash}").format(cash=cash), _EQUIPMENT_RULES["Cash"]))

    gang = gang_name or _("the gang")
    who = (_("Leader of {gang}.") if m.leader else _("Member of {gang}.")).format(gang=gang)
    gender = _(GENDERS[m.gender]) if m.gender in GENDERS else _("gender not recorded")
    hand = (_(HANDS[m.hand]) if m.hand in HANDS else _("hand not recorded")).lower()
    ccp = _("{ccp} CCP (a replacement gets as many).").format(ccp=m.cost)
    if m.ccp_spent is not None:
        ccp = _(
            "{creation} CCP at creation (a replacement gets as many); CCP spent in the "
            "campaign: {spent}."
        ).format(creation=m.creation_cost, spent=m.ccp_spent)
    if m.gender == "male":
        killer = _("{reputation}, {title}: his killer gains +{bonus} on top of the killing wound.")
    elif m.gender == "female":
        killer = _("{reputation}, {title}: her killer gains +{bonus} on top of the killing wound.")
    else:
        killer = _(
            "{reputation}, {title}: their killer gains +{bonus} on top of the killing wound."
        )
    vital = [
        Entry(
            _("Outlaw"),
            _("{who} {gender}, {hand}. {ccp}").format(who=who, gender=gender, hand=hand, ccp=ccp),
        ),
        Entry(_("Reputation"), killer.format(reputation=reputation, title=title, bonus=bonus)),
    ]
    for s in m.skills:
        if not s.get("name"):
            vital.append(Entry(_skill_label(s), _skill_text(s)))
    sections = [Section.of(_("Vital info"), vital)]
    if m.tuwa:
        sections.append(Section.of(_("Tuwa (optional rule)"), _tuwa_entries()))
    if m.drunk:
        sections.append(
            Section.of(_("Drunk (optional rule)"), [("Drunk", CONTENT["drunk"]["text"])])
        )
    named = dedupe_entries(Entry(s["name"], s["effect"]) for s in m.skills if s.get("name"))
    if named:
        title = ngettext("Special skill", "Special skills", len(named))
        sections.append(Section(title, named))
    if traits:
        sections.append(Section.of(_("Weapon traits"), dedupe_entries(traits)))
    sections.append(Section.of(_("Equipment"), equipment))
    return Card(
        key=m.key,
        name=m.display_name,
        kind=kind,
        mark="star" if m.leader else "horseshoe" if m.tuwa else "skull",
        stats=[Stat(_CARD_LABELS[row], t.value if t else "?") for row, t in m.tiers.items()],
        tracks=[
            Track(_("Actions"), boxes, unknown or _TRACKS["actions_card"]),
            Track(_("Wounds"), boxes, unknown or _TRACKS["wounds_card"]),
        ],
        facts=[
            Stat(_("CCP"), str(m.cost)),
            *([Stat(_("Saved CCP"), str(m.saved_ccp))] if m.saved_ccp is not None else []),
            Stat(_("Reputation"), str(reputation)),
            Stat(_("Notoriety"), f"+{bonus}"),
            Stat(_("Cash"), f"${cash}"),
        ],
        weapons=weapons,
        sections=sections,
        play_notes=play_notes(f for f in m.findings if f.code not in _PAPERWORK),
    )


def _poster(m: MemberReport, data: Mapping[str, Any]) -> dict[str, Any]:
    """One Wanted Poster's figures, ready for the sheet template.

    ``ccp`` is the creation cost (what the gang's 30 paid), ``full_ccp`` adds the CCP spent
    in the campaign. The sheet prints ``statuses`` as blocks: Drunk and Tuwa, then what a
    campaign added (each extra skill with its effect, "Saved CCP N" with the CCP spent).
    """
    reputation, cash, title, bonus = _standing(m, data)
    skill = m.special_skill
    tiers = []
    for row_id, tier in m.tiers.items():
        row = ROWS[row_id]
        if tier is None:
            value = "?"
        else:
            value = (
                ngettext("{count} action", "{count} actions", tier.actions).format(
                    count=tier.actions
                )
                if tier.actions is not None
                else tier.value
            )
        tiers.append(
            {
                "row": row.label,
                "name": tier.name if tier else _("not chosen"),
                "value": value,
                "cost": tier.cost if tier else 0,
            }
        )
    statuses = []
    if m.drunk:
        statuses.append({"name": "Drunk", "text": CONTENT["drunk"]["text"]})
    if m.tuwa:
        brave = CONTENT["tuwa"]["brave"]
        statuses.append(
            {
                "name": "Tuwa (Brave)",
                "text": " ".join(f"{a['name']}: {a['text']}" for a in brave["abilities"]),
            }
        )
    # What a campaign added, printed like the statuses (a tag in the summary, a block on
    # the poster): each extra skill with its effect, then the CCP saved and spent.
    extra_skills = [
        {
            "label": _skill_label(s),
            "name": s.get("name", ""),
            "effect": s.get("effect", ""),
            "table": _("Table {table}").format(table=s["table"]),
            "cost": s["cost"],
            "how": _skill_text(s),
        }
        for s in m.extra_skills
    ]
    for s in extra_skills:
        if s["name"]:
            text = _("{label} ({table}, {cost} CCP). {effect}").format(
                label=s["label"], table=s["table"], cost=s["cost"], effect=s["effect"]
            )
            statuses.append({"name": s["name"], "text": text})
        else:
            statuses.append({"name": s["label"], "text": s["how"]})
    if m.saved_ccp is not None or m.ccp_spent is not None:
        statuses.append(
            {
                "name": _("Saved CCP {ccp}").format(ccp=m.saved_ccp or 0),
                "text": _(
                    "CCP spent in the campaign: {spent}. {creation} CCP at creation (a "
                    "replacement gets as many), {full} in all."
                ).format(spent=m.ccp_spent or 0, creation=m.creation_cost, full=m.full_cost),
            }
        )
    return {
        "key": m.key,
        "position": m.position,
        "name": m.display_name,
        "leader": m.leader,
        "gender": GENDERS.get(m.gender, ""),
        "hand": HANDS.get(m.hand, ""),
        "actions": m.actions or 0,
        "stats": [{"label": label, "value": value} for label, value in m.stats],
        "tiers": tiers,
        "special_skill": None
        if skill is None
        else {
            "name": skill.get("name", ""),
            "effect": skill.get("effect", ""),
            "table": _("Table {table}").format(table=skill["table"]),
            "cost": skill["cost"],
            "how": _skill_text(skill),
        },
        "pack": m.pack["label"] if m.pack and m.owned is None else "",
        "equipment": m.equipment,
        "cash": cash,
        "reputation": reputation,
        "notoriety": title,
        "notoriety_bonus": bonus,
        "ccp": m.cost,
        "full_ccp": m.full_cost,
        "saved_ccp": m.saved_ccp,
        "ccp_spent": m.ccp_spent,
        "extra_skills": extra_skills,
        "reward": f"${cash}",
        "reward_text": _reward_text(m).format(bonus=bonus),
        "statuses": statuses,
        "legal": not m.has_errors,
    }


SYSTEM = Rivals()
