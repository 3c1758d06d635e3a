"""Blackwater Gulch 2nd edition: gangs built from printed Character Cards.

Content a pack can hold: character cards (``card``, artillery too) and consumables or
thrown weapons (``extra``). On the builder page a player picks a card (or an artillery
piece, or a blank card) in a select and it is in the gang, named after the card and open
(the first Hero of a gang with no Leader becomes its Leader); the Fame limit is one tap.
In the open member's panel every control applies as it changes: the name, the Leader, the
minion team, a consumable or thrown weapon added; the card itself is edited in a closed
form with one button. The card list is drawn once per page, under the roster. The rules
engine (``rules.systems.bwg2``) says what is legal.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _
from jsonschema import Draft202012Validator

from builder.book_texts import language_of
from builder.editors.base import ActionContext, ActionForm, Editor, EntryForm, mark
from builder.models import Item, Member
from builder.services import append_member, member_name, remove_member
from rules.i18n import punctuate
from rules.systems import bwg2

SAMPLES_FILE = Path(__file__).with_name("samples.json")

FACTION_CHOICES = [(f["id"], f["name"]) for f in bwg2.FACTIONS.values()]
LEVEL_CHOICES = [(lv["id"], lv["name"]) for lv in bwg2.LEVELS.values()]
SIZE_CHOICES = [(s["id"], f"{s['name']} ({s['base']})") for s in bwg2.SIZES.values()]
ONE_PER_GANG_CHOICES = [
    ("", _("Default (Heroes and Henchmen one per gang, Minions any number)")),
    ("yes", _("One per gang")),
    ("no", _("Any number")),
]
FLAGS = ("weightless", "unique", "consumable")

EQUIPMENT_HELP = _(
    "One item per line: Name | range | Str | level | traits | flags. "
    "Range and Str are numbers, “M”, “M+1” or empty; level a number or empty; traits "
    "comma-separated (e.g. Pistol, 1-Handed); flags any of weightless, unique, consumable. "
    "Example: Hand Cannon | 10 | 4 | | Pistol, 1-Handed |"
)
SKILLS_HELP = _(
    "One skill per line: Name | rules text | factions it lets the gang recruit from "
    "(comma-separated, optional). Example: Switch Sides | May recruit Cursed. | cursed"
)

_card_validator = Draft202012Validator(bwg2.CARD_SCHEMA)
_extra_validator = Draft202012Validator(bwg2.EXTRA_SCHEMA)


def schema_errors(validator: Draft202012Validator, entry: dict[str, Any]) -> list[str]:
    return [
        f"{'/'.join(str(p) for p in e.absolute_path) or 'entry'}: {e.message}"
        for e in validator.iter_errors(entry)
    ]


# --------------------------------------------------------------------------- line formats


def _number_or_text(value: str) -> int | str:
    value = value.strip()
    if value.isdigit():
        return int(value)
    return value


def _show(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return ""
    return str(value)


def parse_equipment(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Equipment lines → items, and an error per bad line (naming its number)."""
    items: list[dict[str, Any]] = []
    errors: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) > 6:
            errors.append(
                gettext(
                    "Line %(n)s: too many “|”: write Name | range | Str | level | traits | flags."
                )
                % {"n": number}
            )
            continue
        parts += [""] * (6 - len(parts))
        name, rng, strength, level, traits, flags = parts
        if not name:
            errors.append(
                gettext("Line %(n)s: the item has no name (write it before the first “|”).")
                % {"n": number}
            )
            continue
        if level and not level.isdigit():
            errors.append(
                gettext("Line %(n)s: level “%(level)s” is not a whole number.")
                % {"n": number, "level": level}
            )
            continue
        flag_words = {f.strip().lower() for f in flags.split(",") if f.strip()}
        unknown = flag_words - set(FLAGS)
        if unknown:
            errors.append(
                gettext(
                    "Line %(n)s: “%(flags)s” is not a flag: use weightless, unique or consumable."
                )
                % {"n": number, "flags": ", ".join(sorted(unknown))}
            )
            continue
        items.append(
            {
                "name": name,
                "range": _number_or_text(rng),
                "str": _number_or_text(strength),
                "level": int(level) if level else None,
                "traits": [t.strip() for t in traits.split(",") if t.strip()],
                **{f: f in flag_words for f in FLAGS},
            }
        )
    return items, errors


def format_equipment(items: Any) -> str:
    lines = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        flags = ", ".join(f for f in FLAGS if item.get(f) is True)
        traits = ", ".join(t for t in item.get("traits") or [] if isinstance(t, str))
        parts = [
            _show(item.get("name")),
            _show(item.get("range")),
            _show(item.get("str")),
            _show(item.get("level")),
            traits,
            flags,
        ]
        lines.append(" | ".join(parts).rstrip())
    return "\n".join(lines)


def parse_skills(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    skills: list[dict[str, Any]] = []
    errors: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split("|")]
        name = parts[0]
        if not name:
            errors.append(
                gettext("Line %(n)s: the skill has no name (write it before the first “|”).")
                % {"n": number}
            )
            continue
        if len(parts) >= 3:
            rules_text, opens_text = "|".join(parts[1:-1]).strip(), parts[-1]
        else:
            rules_text, opens_text = (parts[1] if len(parts) == 2 else ""), ""
        opens = []
        bad = []
        for word in (w.strip() for w in opens_text.split(",")):
            if not word:
                continue
            faction = bwg2._lookup(bwg2.FACTIONS, word)
            if faction is None:
                bad.append(word)
            elif faction not in opens:
                opens.append(faction)
        if bad:
            names = ", ".join(f["id"] for f in bwg2.FACTIONS.values())
            errors.append(
                gettext("Line %(n)s: “%(bad)s” is not a faction: use %(names)s.")
                % {"n": number, "bad": ", ".join(bad), "names": names}
            )
            continue
        skills.append({"name": name, "text": rules_text, "opens_factions": opens})
    return skills, errors


def format_skills(skills: Any) -> str:
    lines = []
    for skill in skills if isinstance(skills, list) else []:
        if not isinstance(skill, dict):
            continue
        opens = ", ".join(f for f in skill.get("opens_factions") or [] if isinstance(f, str))
        parts = [_show(skill.get("name")), _show(skill.get("text"))]
        if opens:
            parts.append(opens)
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def describe_card(stats: dict[str, Any]) -> str:
    faction = bwg2.FACTIONS.get(stats.get("faction", ""), {}).get("name", "?")
    if stats.get("artillery") is True:
        kind = gettext("Artillery")
    else:
        kind = bwg2.LEVELS.get(stats.get("level", ""), {}).get("name", "?")
    size = bwg2.SIZES.get(stats.get("size") or bwg2.DEFAULT_SIZE, {}).get("name", "?")
    attrs = " ".join(f"{bwg2.ATTRIBUTE_LABELS[a]} {stats.get(a, '?')}" for a in bwg2.ATTRIBUTES)
    return f"{faction} {kind}, {size}: {attrs}"


# --------------------------------------------------------------------------- card fields


class CardFields(forms.Form):
    """Everything a printed card shows (the card's name comes from the form using it)."""

    faction = forms.ChoiceField(label=gettext_lazy("Faction"), choices=FACTION_CHOICES)
    level = forms.ChoiceField(
        label=gettext_lazy("Level"),
        choices=[("", gettext_lazy("— (artillery has no level)")), *LEVEL_CHOICES],
        required=False,
        help_text=gettext_lazy("Hero, Henchman or Minion; artillery has none."),
    )
    artillery = forms.BooleanField(
        label=gettext_lazy("Artillery"),
        required=False,
        help_text=gettext_lazy("An artillery piece: not a character, no level or size bonus."),
    )
    size = forms.ChoiceField(
        label=gettext_lazy("Size"), choices=SIZE_CHOICES, initial=bwg2.DEFAULT_SIZE
    )
    one_per_gang = forms.ChoiceField(
        label=gettext_lazy("One per gang"), choices=ONE_PER_GANG_CHOICES, required=False
    )
    hp = forms.IntegerField(min_value=0, max_value=999, label=gettext_lazy("HP"))
    dp = forms.IntegerField(min_value=0, max_value=999, label=gettext_lazy("DP"))
    xp = forms.IntegerField(
        min_value=0,
        max_value=99999,
        label=gettext_lazy("XP"),
        help_text=gettext_lazy("Its Fame cost."),
    )
    str = forms.IntegerField(min_value=0, max_value=999, label=gettext_lazy("Str"))
    spd = forms.IntegerField(min_value=0, max_value=999, label=gettext_lazy("Spd"))
    sta = forms.IntegerField(min_value=0, max_value=999, label=gettext_lazy("Sta"))
    int = forms.IntegerField(min_value=0, max_value=999, label=gettext_lazy("Int"))
    rc = forms.IntegerField(min_value=0, max_value=999, label=gettext_lazy("RC"))
    mc = forms.IntegerField(min_value=0, max_value=999, label=gettext_lazy("MC"))
    equipment = forms.CharField(
        label=gettext_lazy("Equipment"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=EQUIPMENT_HELP,
    )
    vital_info = forms.CharField(max_length=200, required=False, label=gettext_lazy("Vital info"))
    faction_rule_name = forms.CharField(
        max_length=80, required=False, label=gettext_lazy("Faction rule")
    )
    faction_rule_text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label=gettext_lazy("Faction rule text"),
    )
    skills = forms.CharField(
        label=gettext_lazy("Skills"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=SKILLS_HELP,
    )
    notes = forms.CharField(
        label=gettext_lazy("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    #: the fields that hold the card's texts, often the English book's own
    BOOK_TEXT_FIELDS = (
        "equipment", "vital_info", "faction_rule_name", "faction_rule_text", "skills", "notes",
    )  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # A field showing the book's English (or a sample card's) on a French page says so.
        for name in self.BOOK_TEXT_FIELDS:
            field = self.fields.get(name)
            value = self.data.get(self.add_prefix(name)) if self.is_bound else None
            if value is None:
                value = self.initial.get(name, field.initial if field else "")
            lang = language_of(value, "bwg2") if field is not None else ""
            if lang:
                field.widget.attrs["lang"] = lang

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("artillery") and not cleaned.get("level") and "level" not in self.errors:
            self.add_error("level", gettext_lazy("Choose the card's level, or tick Artillery."))
        return cleaned

    def clean_equipment(self) -> list[dict[str, Any]]:
        items, errors = parse_equipment(self.cleaned_data["equipment"])
        if errors:
            raise forms.ValidationError(errors)
        return items

    def clean_skills(self) -> list[dict[str, Any]]:
        skills, errors = parse_skills(self.cleaned_data["skills"])
        if errors:
            raise forms.ValidationError(errors)
        return skills

    @staticmethod
    def card_initial(card: dict[str, Any]) -> dict[str, Any]:
        """A stored card (without its name) → the form's initial values."""
        rule = card.get("faction_rule") if isinstance(card.get("faction_rule"), dict) else {}
        one = card.get("one_per_gang")

        def known(table: dict[str, Any], value: Any) -> Any:
            # "Outlaw" or "HERO" in an imported card shows as the engine reads it.
            return bwg2._lookup(table, value) or value if isinstance(value, str) else ""

        initial = {
            "faction": known(bwg2.FACTIONS, card.get("faction", "")),
            "level": known(bwg2.LEVELS, card.get("level", "")),
            "artillery": card.get("artillery") is True,
            "size": known(bwg2.SIZES, card.get("size") or bwg2.DEFAULT_SIZE),
            "one_per_gang": "yes" if one is True else "no" if one is False else "",
            "equipment": format_equipment(card.get("equipment")),
            "vital_info": card.get("vital_info", ""),
            "faction_rule_name": rule.get("name", ""),
            "faction_rule_text": rule.get("text", ""),
            "skills": format_skills(card.get("skills")),
            "notes": card.get("notes", ""),
        }
        for a in bwg2.ATTRIBUTES:
            initial[a] = card.get(a)
        return initial

    def card_stats(self) -> dict[str, Any]:
        """The card as the engine reads it, without its name."""
        data = self.cleaned_data
        artillery = bool(data["artillery"])
        card: dict[str, Any] = {
            "faction": data["faction"],
            "level": "" if artillery else data["level"],
            "size": data["size"],
            "artillery": artillery,
        }
        if data.get("one_per_gang"):
            card["one_per_gang"] = data["one_per_gang"] == "yes"
        for a in bwg2.ATTRIBUTES:
            card[a] = data[a]
        card["equipment"] = data["equipment"]
        card["vital_info"] = data["vital_info"].strip()
        card["faction_rule"] = {
            "name": data["faction_rule_name"].strip(),
            "text": data["faction_rule_text"].strip(),
        }
        card["skills"] = data["skills"]
        if data["notes"].strip():
            card["notes"] = data["notes"].strip()
        return card

    def check_card(self, name: str, card: dict[str, Any]) -> None:
        """A card the engine can read, always (the schema is the roster file's)."""
        for error in schema_errors(_card_validator, {"name": name, **card}):
            self.add_error(None, error)


# --------------------------------------------------------------------------- content kinds


#: How many rows of equipment, or of skills, a card form holds at most.
MAX_ROWS = 40
FACTION_IDS = [f["id"] for f in bwg2.FACTIONS.values()]


def _equipment_row(prefix: str) -> dict[str, forms.Field]:
    """The fields of one line of the card's equipment (``prefix``: ``equipment-2``)."""
    return {
        f"{prefix}-name": forms.CharField(max_length=80, required=False, label=_("Item")),
        f"{prefix}-range": forms.CharField(
            max_length=10, required=False, label=_("Range"), help_text=_("Inches, “M” or empty.")
        ),
        f"{prefix}-str": forms.CharField(
            max_length=10, required=False, label=_("Str"), help_text=_("A number, “M”, “M+1”…")
        ),
        f"{prefix}-level": forms.IntegerField(
            min_value=0, max_value=99, required=False, label=_("Level")
        ),
        f"{prefix}-traits": forms.CharField(
            max_length=200,
            required=False,
            label=_("Traits"),
            help_text=_("Comma-separated, e.g. Pistol, 1-Handed."),
        ),
        **{
            f"{prefix}-{flag}": forms.BooleanField(required=False, label=flag.capitalize())
            for flag in FLAGS
        },
    }


def _skill_row(prefix: str) -> dict[str, forms.Field]:
    """The fields of one of the card's skills (``prefix``: ``skills-0``)."""
    return {
        f"{prefix}-name": forms.CharField(max_length=80, required=False, label=_("Skill")),
        f"{prefix}-text": forms.CharField(
            max_length=2000,
            required=False,
            label=_("Rules text"),
            widget=forms.Textarea(attrs={"rows": 2}),
        ),
        f"{prefix}-opens_factions": forms.MultipleChoiceField(
            choices=FACTION_CHOICES,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            label=_("Lets the gang recruit from"),
        ),
    }


ROWS = {"equipment": _equipment_row, "skills": _skill_row}
_ROW_KEY = re.compile(r"^(equipment|skills)-(\d+)-")


class CardForm(CardFields, EntryForm):
    """A character card (or an artillery piece) in a pack.

    Its fields come in groups, as the card prints them: who it is, its attributes, its
    equipment (a row per item, with + for another: no line format to learn), its skills
    (a row each) and the rest. A row left empty is no item. ``with_another_row`` gives the
    same form, as typed, with one more row (the + button without JavaScript).
    """

    category = Item.Category.CARD
    label = gettext_lazy("Character card")
    plural = gettext_lazy("Character cards")

    # One row per item and per skill instead of the line formats of the member's card.
    equipment = None
    skills = None

    #: Where a field's value is in the entry's stats (for a pack file's problems).
    stats_paths: ClassVar[dict[str, str]] = {
        "faction_rule_name": "faction_rule.name",
        "faction_rule_text": "faction_rule.text",
    }
    GROUPS: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = (
        ("identity", ("name", "faction", "level", "artillery", "size", "one_per_gang")),
        ("attributes", ("hp", "dp", "xp", *bwg2.ATTRIBUTES[3:])),
        ("more", ("vital_info", "faction_rule_name", "faction_rule_text", "notes")),
    )
    GROUP_TITLES: ClassVar[dict[str, Any]] = {
        "identity": _("Who it is"),
        "attributes": _("Attributes"),
        "equipment": _("Equipment"),
        "skills": _("Skills"),
        "more": _("Vital info, faction rule, notes"),
    }

    def __init__(self, data=None, *, rows: dict[str, int] | None = None, **kwargs: Any):
        super().__init__(data, **kwargs)
        source = self.data if self.is_bound else self.initial
        counts = dict.fromkeys(ROWS, 0)
        for key in source:
            found = _ROW_KEY.match(key)
            if found:
                section = found[1]
                counts[section] = max(counts[section], int(found[2]) + 1)
        #: sections sent with more rows than a card holds (said when it is cleaned)
        self.too_many = [s for s in ROWS if self.is_bound and counts[s] > MAX_ROWS]
        for section in ROWS:
            wanted = (rows or {}).get(section, counts[section])
            if not self.is_bound:
                wanted = max(wanted, 1)  # an empty row to fill in
            counts[section] = min(max(wanted, 0), MAX_ROWS)
        self.row_counts = counts
        for section, make in ROWS.items():
            for i in range(counts[section]):
                self.fields.update(make(f"{section}-{i}"))

    # ---------------------------------------------------------------- rows in and out

    @classmethod
    def initial_from(cls, stats: dict[str, Any]) -> dict[str, Any]:
        initial = cls.card_initial(stats)
        del initial["equipment"], initial["skills"]
        items = stats.get("equipment") if isinstance(stats.get("equipment"), list) else []
        for i, item in enumerate(e for e in items if isinstance(e, dict)):
            traits = item.get("traits") if isinstance(item.get("traits"), list) else []
            initial.update(
                {
                    f"equipment-{i}-name": _show(item.get("name")),
                    f"equipment-{i}-range": _show(item.get("range")),
                    f"equipment-{i}-str": _show(item.get("str")),
                    f"equipment-{i}-level": item.get("level"),
                    f"equipment-{i}-traits": ", ".join(t for t in traits if isinstance(t, str)),
                    **{f"equipment-{i}-{f}": item.get(f) is True for f in FLAGS},
                }
            )
        skills = stats.get("skills") if isinstance(stats.get("skills"), list) else []
        for i, skill in enumerate(s for s in skills if isinstance(s, dict)):
            opens = skill.get("opens_factions")
            opens = opens if isinstance(opens, list) else []
            initial.update(
                {
                    f"skills-{i}-name": _show(skill.get("name")),
                    f"skills-{i}-text": _show(skill.get("text")),
                    f"skills-{i}-opens_factions": [
                        bwg2._lookup(bwg2.FACTIONS, f) or f for f in opens if isinstance(f, str)
                    ],
                }
            )
        return initial

    @classmethod
    def with_another_row(cls, data, section: str, **kwargs: Any) -> CardForm:
        """The form as typed (not checked: no errors yet), with one more row in
        ``section``: what the + button does without JavaScript."""
        typed = cls(data, **kwargs)
        initial = {name: typed[name].data for name in typed.fields}
        rows = dict(typed.row_counts)
        if section in rows:
            rows[section] += 1
        return cls(initial=initial, rows=rows, **kwargs)

    def _row_values(self, section: str) -> list[dict[str, Any]]:
        """The section's rows as the card holds them; an empty row is none. A row with
        something in it but no name gets its error beside the name."""
        values = []
        for i in range(self.row_counts[section]):
            prefix = f"{section}-{i}-"
            if any(self.has_error(name) for name in self.fields if name.startswith(prefix)):
                continue
            row = {
                name.removeprefix(prefix): self.cleaned_data.get(name)
                for name in self.fields
                if name.startswith(prefix)
            }
            filled = [k for k, v in row.items() if v not in (None, "", False, [])]
            if not filled:
                continue
            if not (row["name"] or "").strip():
                self.add_error(
                    f"{prefix}name",
                    gettext("Give it a name, or clear the row to leave it out."),
                )
                continue
            values.append(row)
        return values

    def _equipment(self) -> list[dict[str, Any]]:
        items = []
        for row in self._row_values("equipment"):
            items.append(
                {
                    "name": row["name"].strip(),
                    "range": _number_or_text(row["range"] or ""),
                    "str": _number_or_text(row["str"] or ""),
                    "level": row["level"],
                    "traits": [t.strip() for t in (row["traits"] or "").split(",") if t.strip()],
                    **{f: bool(row[f]) for f in FLAGS},
                }
            )
        return items

    def _skills(self) -> list[dict[str, Any]]:
        return [
            {
                "name": row["name"].strip(),
                "text": (row["text"] or "").strip(),
                "opens_factions": [f for f in FACTION_IDS if f in (row["opens_factions"] or [])],
            }
            for row in self._row_values("skills")
        ]

    # ---------------------------------------------------------------- for the template

    @property
    def groups(self) -> list[dict[str, Any]]:
        """The fields in the order and groups the card prints them."""
        groups = [
            {"id": gid, "title": self.GROUP_TITLES[gid], "fields": [self[n] for n in names]}
            for gid, names in self.GROUPS
        ]
        for section in ROWS:
            rows = []
            for i in range(self.row_counts[section]):
                prefix = f"{section}-{i}-"
                names = [n for n in self.fields if n.startswith(prefix)]
                rows.append([{"f": self[n], "key": n.removeprefix(prefix)} for n in names])
            # A blank row for the + button to copy (numbered by the script that adds it).
            holder = forms.Form(prefix=self.prefix)
            holder.fields = ROWS[section](f"{section}-__i__")
            template = [
                {"f": holder[n], "key": n.removeprefix(f"{section}-__i__-")} for n in holder.fields
            ]
            groups.append(
                {
                    "id": section,
                    "title": self.GROUP_TITLES[section],
                    "rows": rows,
                    "template": template,
                    "full": len(rows) >= MAX_ROWS,
                }
            )
        order = ("identity", "attributes", "equipment", "skills", "more")
        return sorted(groups, key=lambda g: order.index(g["id"]))

    @classmethod
    def describe(cls, stats: dict[str, Any]) -> str:
        return describe_card(stats)

    def clean(self):
        cleaned = super().clean()
        for section in self.too_many:
            self.add_error(
                None,
                gettext("A card holds at most %(most)s rows of %(section)s.")
                % {"most": MAX_ROWS, "section": self.GROUP_TITLES[section].lower()},
            )
        cleaned["equipment"] = self._equipment()
        cleaned["skills"] = self._skills()
        if not self.errors:
            self.check_card(cleaned["name"], self.card_stats())
        return cleaned

    def stats(self) -> dict[str, Any]:
        return self.card_stats()

    @property
    def preview(self) -> Any:
        """The card as it will print (``rules.printing.Card``), as far as it is filled in."""
        from rules.roster import make_roster

        card = self.preview_card()
        roster = make_roster("bwg2", "", None, [(card["name"], {"card": card})])
        return bwg2.SYSTEM.print_cards(roster)[0]

    def preview_card(self) -> dict[str, Any]:
        """The card as far as it is filled in right (for the live preview): what is
        missing or wrong shows as nothing (a 0, an empty line), never an error."""
        if not self.is_bound:  # what the form shows: its starting values
            shown = {name: self[name].value() for name in self.fields}
            shown = {k: v for k, v in shown.items() if v not in (None, False)}
            return type(self)(shown, pack=self.pack).preview_card()
        self.is_valid()
        data = self.cleaned_data
        artillery = bool(data.get("artillery"))
        card: dict[str, Any] = {
            "name": (data.get("name") or "").strip(),
            "faction": data.get("faction") or "",
            "level": "" if artillery else data.get("level") or "",
            "size": data.get("size") or bwg2.DEFAULT_SIZE,
            "artillery": artillery,
            **{a: data.get(a) or 0 for a in bwg2.ATTRIBUTES},
            "equipment": data.get("equipment") or [],
            "vital_info": (data.get("vital_info") or "").strip(),
            "faction_rule": {
                "name": (data.get("faction_rule_name") or "").strip(),
                "text": (data.get("faction_rule_text") or "").strip(),
            },
            "skills": data.get("skills") or [],
        }
        if data.get("one_per_gang"):
            card["one_per_gang"] = data["one_per_gang"] == "yes"
        if (data.get("notes") or "").strip():
            card["notes"] = data["notes"].strip()
        return card


class ExtraForm(EntryForm):
    """A consumable or thrown weapon, added to a character before the game for Fame."""

    category = Item.Category.EXTRA
    label = gettext_lazy("Consumable or thrown weapon")
    plural = gettext_lazy("Consumables and thrown weapons")

    cost = forms.IntegerField(
        label=gettext_lazy("Cost"),
        min_value=1,
        max_value=9999,
        help_text=gettext_lazy("Fame it adds to the gang."),
    )
    level = forms.IntegerField(
        label=gettext_lazy("Level"), min_value=0, max_value=99, required=False
    )
    range = forms.CharField(
        label=gettext_lazy("Range"),
        max_length=10,
        required=False,
        help_text=gettext_lazy("Inches, “M” (= Strength) or empty."),
    )
    str = forms.CharField(max_length=10, required=False, label=gettext_lazy("Str"))
    traits = forms.CharField(
        label=gettext_lazy("Traits"),
        max_length=200,
        required=False,
        help_text=gettext_lazy("Comma-separated, e.g. Thrown, Concealed or Consumable, Silver."),
    )
    consumable = forms.BooleanField(label=gettext_lazy("Consumable"), required=False, initial=True)
    weightless = forms.BooleanField(label=gettext_lazy("Weightless"), required=False)
    unique = forms.BooleanField(label=gettext_lazy("Unique"), required=False)
    text = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Rules text")
    )

    @classmethod
    def initial_from(cls, stats: dict[str, Any]) -> dict[str, Any]:
        return {
            "cost": stats.get("cost"),
            "level": stats.get("level"),
            "range": _show(stats.get("range")),
            "str": _show(stats.get("str")),
            "traits": ", ".join(stats.get("traits") or []),
            "consumable": stats.get("consumable") is True,
            "weightless": stats.get("weightless") is True,
            "unique": stats.get("unique") is True,
            "text": stats.get("text", ""),
        }

    @classmethod
    def describe(cls, stats: dict[str, Any]) -> str:
        item = bwg2.Item.from_dict(stats | {"name": ""}, on_card=False)
        bits = [gettext("%(cost)s Fame") % {"cost": stats.get("cost", "?")}]
        if item.level is not None:
            bits.append(gettext("level %(level)s") % {"level": item.level})
        if item.range:
            bits.append(gettext("range %(range)s") % {"range": item.range})
        if item.str:
            bits.append(gettext("Str %(strength)s") % {"strength": item.str})
        if item.traits:
            bits.append(", ".join(item.traits))
        return punctuate(";").join(bits)

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        traits = [t.strip() for t in cleaned["traits"].split(",") if t.strip()]
        cleaned["traits"] = traits
        thrown = any(bwg2._trait_id(t) in ("thrown", "consumable") for t in traits)
        if not cleaned["consumable"] and not thrown:
            self.add_error(
                "consumable",
                gettext_lazy(
                    "Only Consumable items and Thrown weapons are added before the game: tick "
                    "Consumable, or give it the Thrown trait."
                ),
            )
            return cleaned
        for error in schema_errors(_extra_validator, {"name": cleaned["name"], **self.stats()}):
            self.add_error(None, error)
        return cleaned

    def stats(self) -> dict[str, Any]:
        data = self.cleaned_data
        stats: dict[str, Any] = {
            "cost": data["cost"],
            "level": data["level"],
            "range": _number_or_text(data["range"]),
            "str": _number_or_text(data["str"]),
            "traits": data["traits"],
            "weightless": data["weightless"],
            "unique": data["unique"],
            "consumable": data["consumable"],
        }
        if data["text"].strip():
            stats["text"] = data["text"].strip()
        return stats


# --------------------------------------------------------------------------- helpers


def _data(ctx: ActionContext) -> dict[str, Any]:
    return copy.deepcopy(ctx.member.data) if isinstance(ctx.member.data, dict) else {}


def _save(ctx: ActionContext, data: dict[str, Any], *fields: str) -> None:
    ctx.member.data = data
    ctx.member.save(update_fields=["data", *fields])


def _card_label(item: Item) -> str:
    stats = item.stats
    if stats.get("artillery") is True:
        kind = gettext("Artillery")
    else:
        kind = bwg2.LEVELS.get(stats.get("level", ""), {}).get("name", "?")
    faction = bwg2.FACTIONS.get(stats.get("faction", ""), {}).get("name", "?")
    return gettext("%(name)s (%(faction)s %(kind)s, %(xp)s XP)") % {
        "name": item.name,
        "faction": faction,
        "kind": kind,
        "xp": stats.get("xp", "?"),
    }


def _extra_label(item: Item) -> str:
    return gettext("%(name)s (%(cost)s Fame)") % {
        "name": item.name,
        "cost": item.stats.get("cost", "?"),
    }


# --------------------------------------------------------------------------- gang actions


def _is_hero_card(card: Any) -> bool:
    return (
        isinstance(card, dict)
        and card.get("artillery") is not True
        and bwg2._lookup(bwg2.LEVELS, str(card.get("level") or "")) == "hero"
    )


def _has_leader(ctx: ActionContext) -> bool:
    return any(
        isinstance(m.data, dict) and m.data.get("leader") is True for m in ctx.gang.members.all()
    )


class AddCardForm(ActionForm):
    """Recruit a character from the card library: picking the card adds it (named after
    the card; renaming is in its panel) and opens it. The first Hero of a gang that has no
    Leader becomes the Leader (a gang needs one, and it must be a Hero)."""

    label = _("Add to gang")
    live = True
    artillery = False
    placeholder = _("Add a character card…")

    card = forms.ChoiceField(
        label=_("Character card"),
        error_messages={"required": _("Choose a card from the library.")},
    )

    def setup(self) -> None:
        cards = [
            i
            for i in self.catalogue.of(Item.Category.CARD)
            if (i.stats.get("artillery") is True) == self.artillery
        ]
        self.fields["card"].choices = [("", self.placeholder)] + [
            (str(i.pk), f"{_card_label(i)}{mark(i)}") for i in cards
        ]

    def clean_card(self) -> Item:
        item = self.catalogue.get(self.cleaned_data["card"], Item.Category.CARD)
        if item is None:
            raise forms.ValidationError(_("Choose a card from the library."))
        return item

    def apply(self, ctx: ActionContext) -> None:
        item = self.cleaned_data["card"]
        data = ctx.system.new_member(card=item.roster_entry())
        if _is_hero_card(data["card"]) and not _has_leader(ctx):
            data["leader"] = True
        member = append_member(ctx.gang, name=member_name(ctx.gang, item.name), data=data)
        ctx.opened = member


class AddArtilleryForm(AddCardForm):
    """Add an artillery piece from the card library, in one pick like a character."""

    label = _("Add artillery")
    artillery = True
    placeholder = _("Add an artillery piece…")

    card = forms.ChoiceField(
        label=_("Artillery"),
        error_messages={"required": _("Choose an artillery card from the library.")},
    )


#: A blank card of each level, and its new member's name (in the reader's language).
BLANK_KINDS = {
    "hero": (_("Blank Hero card"), _("New Hero")),
    "henchman": (_("Blank Henchman card"), _("New Henchman")),
    "minion": (_("Blank Minion card"), _("New Minion")),
    "artillery": (_("Blank artillery card"), _("New artillery piece")),
}


def blank_kinds() -> list[tuple[str, str]]:
    return [("", str(_("Add a blank card…"))), *((k, str(v[0])) for k, v in BLANK_KINDS.items())]


class AddBlankForm(ActionForm):
    """A blank card to fill in (homebrew, or a card not in the library): picked, it is in."""

    label = _("Add blank card")
    live = True

    kind = forms.ChoiceField(
        choices=blank_kinds,
        label=_("Blank card"),
        error_messages={"required": _("Choose which kind of blank card to add.")},
    )

    def apply(self, ctx: ActionContext) -> None:
        kind = self.cleaned_data["kind"]
        data = ctx.system.new_member("henchman")
        card = data["card"]
        if kind == "artillery":
            card.update(
                name=str(BLANK_KINDS["artillery"][1]),
                level="",
                artillery=True,
                size="massive",
                **dict.fromkeys(bwg2.ATTRIBUTES, 0),
            )
        else:
            card.update(name=str(BLANK_KINDS[kind][1]), level=kind)
        member = append_member(ctx.gang, name=member_name(ctx.gang, card["name"]), data=data)
        ctx.opened = member


class SetLimitForm(ActionForm):
    """One tap sets the Fame limit to a usual value (325 starter, 700 standard)."""

    label = _("Set limit")

    value = forms.IntegerField(min_value=1, max_value=100_000, widget=forms.HiddenInput)

    def apply(self, ctx: ActionContext) -> None:
        ctx.gang.limit = self.cleaned_data["value"]
        ctx.gang.save(update_fields=["limit"])
        # The page drawn after the action shows the view's gang: it has the new limit too.
        self.gang.limit = ctx.gang.limit


# --------------------------------------------------------------------------- member actions


class RenameForm(ActionForm):
    """The member's own name (the card keeps its printed name): applied on change."""

    label = _("Rename")
    live = True

    name = forms.CharField(max_length=100, label=_("Name"))

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return {"name": member.name}

    def setup(self) -> None:
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    def apply(self, ctx: ActionContext) -> None:
        ctx.member.name = self.cleaned_data["name"].strip()
        ctx.member.save(update_fields=["name"])


class EditCardForm(CardFields, ActionForm):
    """Change this member's card in place (players tweak cards and homebrew)."""

    label = _("Save card")

    name = forms.CharField(max_length=80, label=_("Card name"))

    field_order = ["name"]

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        card = member.data.get("card") if isinstance(member.data, dict) else None
        card = card if isinstance(card, dict) else {}
        return {"name": card.get("name", ""), **cls.card_initial(card)}

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            self.check_card(cleaned["name"].strip(), self.card_stats())
        return cleaned

    def apply(self, ctx: ActionContext) -> None:
        data = _data(ctx)
        old = data.get("card") if isinstance(data.get("card"), dict) else {}
        card = {"name": self.cleaned_data["name"].strip(), **self.card_stats()}
        if old.get("sample") is True:
            card["sample"] = True
        data["card"] = card
        if card["artillery"]:
            data["team"] = None
        _save(ctx, data)


class LeaderForm(ActionForm):
    """A box ticked makes this member the Leader (and no one else); cleared, no Leader."""

    label = _("Save")
    live = True

    on = forms.BooleanField(
        required=False,
        label=_("Gang Leader"),
        help_text=_("The Leader is a Hero; the gang has exactly one."),
    )

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return {"on": isinstance(member.data, dict) and member.data.get("leader") is True}

    def apply(self, ctx: ActionContext) -> None:
        on = self.cleaned_data["on"]
        if on:
            others = ctx.gang.members.select_for_update().exclude(pk=ctx.member.pk)
            for other in others:
                if isinstance(other.data, dict) and other.data.get("leader") is True:
                    other.data = {**other.data, "leader": False}
                    other.save(update_fields=["data"])
        data = _data(ctx)
        data["leader"] = on
        _save(ctx, data)


class TeamForm(ActionForm):
    """Put a minion in a team (same card, fights together); empty clears it."""

    label = _("Set team")
    live = True

    team = forms.CharField(
        max_length=60,
        required=False,
        label=_("Minion team"),
        help_text=_("Minions of the same card with the same team name fight together."),
    )

    def setup(self) -> None:
        self.fields["team"].widget.attrs["autocomplete"] = "off"

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        team = member.data.get("team") if isinstance(member.data, dict) else None
        return {"team": team or ""}

    def apply(self, ctx: ActionContext) -> None:
        data = _data(ctx)
        data["team"] = self.cleaned_data["team"].strip() or None
        _save(ctx, data)


class AddExtraForm(ActionForm):
    """Give a character a consumable or thrown weapon from the library, for its Fame."""

    label = _("Give")
    live = True

    extra = forms.ChoiceField(
        label=_("Add a consumable or thrown weapon"),
        error_messages={"required": _("Choose a consumable or thrown weapon from the list.")},
    )

    def setup(self) -> None:
        self.fields["extra"].choices = [
            ("", _("Add one…")),
            *self.catalogue.choices(Item.Category.EXTRA, _extra_label),
        ]

    def clean_extra(self) -> Item:
        item = self.catalogue.get(self.cleaned_data["extra"], Item.Category.EXTRA)
        if item is None:
            raise forms.ValidationError(_("Choose a consumable or thrown weapon from the library."))
        return item

    def clean(self):
        cleaned = super().clean()
        card = self.member.data.get("card") if isinstance(self.member.data, dict) else None
        if isinstance(card, dict) and card.get("artillery") is True:
            raise forms.ValidationError(
                gettext_lazy(
                    "Artillery is not a character: give consumables and thrown weapons "
                    "to a character."
                )
            )
        return cleaned

    def apply(self, ctx: ActionContext) -> None:
        data = _data(ctx)
        extras = data.get("extras") if isinstance(data.get("extras"), list) else []
        data["extras"] = [*extras, self.cleaned_data["extra"].roster_entry()]
        _save(ctx, data)


class RemoveExtraForm(ActionForm):
    label = _("Remove")

    index = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def clean_index(self) -> int:
        index = self.cleaned_data["index"]
        extras = self.member.data.get("extras") if isinstance(self.member.data, dict) else None
        if not isinstance(extras, list) or index >= len(extras):
            raise forms.ValidationError(
                gettext_lazy("That item is no longer there: reload the page.")
            )
        return index

    def apply(self, ctx: ActionContext) -> None:
        data = _data(ctx)
        extras = data.get("extras") if isinstance(data.get("extras"), list) else []
        index = self.cleaned_data["index"]
        if index < len(extras):
            del extras[index]
        data["extras"] = extras
        _save(ctx, data)


class DuplicateForm(ActionForm):
    """Another model with the same card (and team): for minions."""

    label = _("Add another")

    def apply(self, ctx: ActionContext) -> None:
        data = _data(ctx)
        data["leader"] = False
        data["extras"] = []
        member = append_member(ctx.gang, name=member_name(ctx.gang, ctx.member.name), data=data)
        ctx.opened = member


class RemoveForm(ActionForm):
    label = _("Remove")

    def apply(self, ctx: ActionContext) -> None:
        ctx.removed = remove_member(ctx.member)  # Undo brings it back


# --------------------------------------------------------------------------- the editor


def _builtin_card(card: dict[str, Any], source: str) -> dict[str, Any]:
    stats = {k: v for k, v in card.items() if k != "name"}
    return {
        "category": Item.Category.CARD,
        "name": card["name"],
        "stats": stats,
        "is_sample": card.get("sample") is True,
        "source": source,
    }


class Bwg2Editor(Editor):
    system_id = "bwg2"
    gang_template = "editors/bwg2/_gang.html"
    panel_template = "editors/bwg2/_panel.html"
    stylesheet = "editors/bwg2/editor.css"
    samples_file = SAMPLES_FILE
    #: What a player reads at a glance on a row (the row's cost is the member's Fame).
    key_stats = ("HP", "DP", "RC", "MC")
    add_action = "add_card"
    empty_roster = _("No one yet: pick a Hero from the card library below to lead the gang.")
    gang_actions = {
        "add_card": AddCardForm,
        "add_artillery": AddArtilleryForm,
        "add_blank": AddBlankForm,
        "set_limit": SetLimitForm,
    }
    member_actions = {
        "rename": RenameForm,
        "edit_card": EditCardForm,
        "leader": LeaderForm,
        "team": TeamForm,
        "add_extra": AddExtraForm,
        "remove_extra": RemoveExtraForm,
        "duplicate": DuplicateForm,
        "remove": RemoveForm,
    }
    content_kinds = (CardForm, ExtraForm)

    def row(self, member: Member, figures: Any) -> dict[str, Any]:
        """The level (Hero, Henchman, Minion or Artillery) first, then Leader or team."""
        row = super().row(member, figures)
        kind = [figures.level_label]
        if figures.is_leader:
            kind.append(gettext("Leader"))
        if figures.team:
            kind.append(gettext("Team %(team)s") % {"team": figures.team})
        row["kind"] = " · ".join(kind)
        return row

    def extra_context(self, evaluated: Any, catalogue: Any) -> dict[str, Any]:
        return {"bwg2_presets": bwg2.CONTENT["fame_presets"]}

    def all_good(self, evaluated: Any) -> str:
        """Legal; and, with a Fame limit, how much of it is left (Fame is what is spent)."""
        report = evaluated.report
        if report.limit and report.total < report.limit:
            return gettext("Nothing to fix: the gang is legal, %(left)s Fame under the limit.") % {
                "left": report.limit - report.total
            }
        if report.limit and report.total == report.limit:
            return gettext("Nothing to fix: the gang is legal and uses its whole Fame limit.")
        return gettext("Nothing to fix: the gang is legal.")

    def builtin_content(self) -> list[dict[str, Any]]:
        entries = [_builtin_card(c, bwg2.CONTENT["source"]) for c in bwg2.CONTENT["cards"]]
        for extra in bwg2.CONTENT["consumables"]:
            entries.append(
                {
                    "category": Item.Category.EXTRA,
                    "name": extra["name"],
                    "stats": {k: v for k, v in extra.items() if k != "name"},
                    "is_sample": extra.get("sample") is True,
                    "source": bwg2.CONTENT["source"],
                }
            )
        samples = json.loads(SAMPLES_FILE.read_text(encoding="utf-8"))
        for card in samples["cards"]:
            entries.append(_builtin_card(card, "Gangfight sample card (not from the book)"))
        return entries


EDITOR = Bwg2Editor()
