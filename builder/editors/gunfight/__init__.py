"""Gunfight v2: roll characters (every die shown and logged), enter them by hand, add
troopers and rabble, arm them from the weapon list. The total is the figure count: there
are no points.

Under the roster: roll a character (type and experience, then Roll: it is named after its
type and opens with every die shown), add troopers or rabble (one button each), or enter a
character by hand (name, type, experience). In the open member's panel every control
applies as it changes: the name, how many figures and what they are, a weapon or a special
ability picked from its list (each taken off with its own button), and the character's
type, experience and characteristics; re-roll and remove are buttons.

Dice are rolled only inside ``apply`` through ``ctx.dice`` (a POST), so a reload never
re-rolls. ``random_source`` is the one seam tests use to make a roll repeatable.
"""

from __future__ import annotations

import random
import re
from typing import Any

from django import forms
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext
from django.utils.translation import gettext_lazy as _
from jsonschema import Draft202012Validator

from builder import services
from builder.editors.base import ActionContext, ActionForm, Editor, EntryForm
from builder.models import Item
from rules.systems import gunfight as gf

CHARACTERISTIC_MIN = 0
CHARACTERISTIC_MAX = 99  # the form only checks it is a number; the engine checks 1..10
MAX_COUNT = 200
WEAPON_KEYS = ("id", "name", *gf.WEAPON_STATS, "notes")
_WEAPON_VALIDATOR = Draft202012Validator(gf._WEAPON_SCHEMA)


def random_source() -> random.Random | None:
    """The random source for this editor's rolls: None keeps ``ctx.dice``'s own
    (``random.SystemRandom``). Tests patch this to return a seeded ``random.Random``."""
    return None


def _dice(ctx: ActionContext):
    source = random_source()
    if source is not None:
        ctx.dice.source = source
    return ctx.dice


# --------------------------------------------------------------------------- choices

TYPE_CHOICES = gf.SYSTEM.character_type_choices()
EXPERIENCE_CHOICES = gf.SYSTEM.experience_choices()
FIGURE_CHOICES = [(f, gf.FIGURE_LABELS[f]) for f in ("trooper", "rabble")]


def description_choices() -> list[tuple[str, str]]:
    """The character types, after "no type" in the reader's language."""
    return [("", str(_("— no type —"))), *TYPE_CHOICES]


#: The first ability table each ability is on (None: on no table, as Ambidextrous).
_TABLE_OF: dict[str, str | None] = dict.fromkeys(gf.ABILITIES)
for _table in reversed(list(gf.TABLES.values())):
    for _ability in gf.table_abilities(_table):
        _TABLE_OF[_ability] = _table["name"]


def ability_choices(character_type: str) -> list[tuple[str, str]]:
    """One flat list (drawn fast): the abilities of the character's own table first, then
    every other one saying which table it is on (picking one is allowed, with a warning)."""
    table = gf.table_for(character_type)
    own = gf.table_abilities(table) if table else []
    choices = [("", gettext("— none —"))]
    choices += [(a, gf.ABILITIES[a]["name"]) for a in own]
    for a, ability in gf.ABILITIES.items():
        if a in own:
            continue
        where = _TABLE_OF[a]
        mark = gettext("%(table)s table") % {"table": where} if where else gettext("on no table")
        choices.append((a, f"{ability['name']} · {mark}"))
    return choices


def _name(value: str) -> str:
    return value.strip()


def describe_character(data: dict[str, Any], name: str = "") -> str:
    """One line for the dice log: 'Doc — Gunfighter (Old Hand): BD 7, ... · Quick Draw'."""
    ctype = gf.CHARACTER_TYPES.get(data.get("character_type", ""), {}).get("name", "?")
    exp = gf.EXPERIENCE.get(data.get("experience", ""), {}).get("name", "?")
    chars = ", ".join(
        f"{gf.LABELS[c]} {data['characteristics'].get(c)}" for c in gf.CHARACTERISTICS
    )
    abilities = ", ".join(gf.ABILITIES[a]["name"] for a in data.get("abilities", []))
    who = f"{name} — " if name else ""
    return f"{who}{ctype} ({exp}): {chars} · {abilities or gettext('no abilities')}"


def weapon_entry(item: Item) -> dict[str, Any]:
    """The member-data weapon (roster format) for a catalogue entry."""
    stats = item.stats or {}
    entry: dict[str, Any] = {}
    if item.pack_id is None and isinstance(stats.get("id"), str):
        entry["id"] = stats["id"]
    entry["name"] = item.name
    for s in gf.WEAPON_STATS:
        value = stats.get(s)
        entry[s] = value if isinstance(value, int) and not isinstance(value, bool) else None
    if item.pack_id is not None and isinstance(stats.get("notes"), str) and stats["notes"]:
        entry["notes"] = stats["notes"]
    return entry


def weapon_label(stats: dict[str, Any]) -> str:
    """'2"/6"/14", 6 shots' (ranges point blank/normal/long; a dash for none)."""

    def rng(v: Any) -> str:
        return gf.DASH if v is None else f'{v}"'

    parts = []
    if any(stats.get(s) is not None for s in ("point_blank", "normal", "long")):
        parts.append("/".join(rng(stats.get(s)) for s in ("point_blank", "normal", "long")))
    if stats.get("shots") is not None:
        parts.append(ngettext("%(n)s shot", "%(n)s shots", stats["shots"]) % {"n": stats["shots"]})
    if not parts:
        parts.append(stats.get("kind", "").replace("_", " ") or gettext("no range"))
    return ", ".join(parts)


def _characteristic_field(label: str, name: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=CHARACTERISTIC_MIN,
        max_value=CHARACTERISTIC_MAX,
        help_text=name,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "gf-char"}),
    )


def _member_data(member) -> dict[str, Any]:
    data = member.data if member is not None and isinstance(member.data, dict) else {}
    return data


# --------------------------------------------------------------------------- gang actions


def _last_character(figures: Any, default_experience: str) -> dict[str, Any]:
    """The type and experience of the side's last character (from the gang's report, no
    query), so rolling or entering another starts from what the player picked last: a
    side of four outlaws is rolled with four presses of Roll. Before the first: Lawman."""
    members = getattr(figures, "members", None) or {}
    for member in reversed(list(members.values())):
        character_type = getattr(member, "character_type", "")
        experience = getattr(member, "experience", "")
        if getattr(member, "figure", "") == "character" and character_type in gf.CHARACTER_TYPES:
            if experience not in gf.EXPERIENCE:
                experience = default_experience
            return {"character_type": character_type, "experience": experience}
    return {"experience": default_experience}


class RollCharacterForm(ActionForm):
    """Roll a character: 1D6 + 4 per characteristic, abilities on the type's D20 table."""

    label = gettext_lazy("Roll a character")
    rolls = True

    #: Not on the page (the character is named after its type, renamed in its panel);
    #: a post may still give one.
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100, required=False)
    character_type = forms.ChoiceField(label=_("Type"), choices=TYPE_CHOICES)
    experience = forms.ChoiceField(
        label=_("Experience"), choices=EXPERIENCE_CHOICES, initial="old_hand"
    )

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return _last_character(figures, "old_hand")

    def apply(self, ctx: ActionContext) -> None:
        data = self.cleaned_data
        name = _name(data["name"]) or services.member_name(
            ctx.gang, gf.CHARACTER_TYPES[data["character_type"]]["name"]
        )
        member_data = gf.SYSTEM.generate_character(
            _dice(ctx), data["character_type"], data["experience"], name=name
        )
        member = services.append_member(ctx.gang, name=name, data=member_data)
        ctx.outcome = describe_character(member_data, name)
        ctx.opened = member


class AddFiguresForm(ActionForm):
    """Troopers or rabble: one entry stands for ``count`` identical figures. The page has
    one button per kind (one figure, named after its kind); how many, their type and
    weapons are set in the new entry's panel. A post may give them all at once."""

    label = gettext_lazy("Add figures")

    figure = forms.ChoiceField(label=_("Kind"), choices=FIGURE_CHOICES)
    count = forms.IntegerField(
        label=_("How many"), min_value=1, max_value=MAX_COUNT, initial=1, required=False
    )
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=100,
        required=False,
        help_text=gettext_lazy("Optional, e.g. “Cavalry troopers”."),
    )
    character_type = forms.ChoiceField(
        label=gettext_lazy("Type"),
        choices=description_choices,
        required=False,
        help_text=gettext_lazy("Optional."),
    )
    weapon = forms.ChoiceField(label=gettext_lazy("Weapon"), required=False)

    def setup(self) -> None:
        self.fields["weapon"].choices = [("", "— none —"), *_weapon_choices(self.catalogue)]

    def apply(self, ctx: ActionContext) -> None:
        data = self.cleaned_data
        member_data = gf.SYSTEM.new_member(data["figure"])
        member_data["count"] = data["count"] or 1
        if data["character_type"]:
            member_data["character_type"] = data["character_type"]
        item = ctx.catalogue.get(data["weapon"], Item.Category.WEAPON) if data["weapon"] else None
        if item is not None:
            member_data["weapons"] = [weapon_entry(item)]
        name = _name(data["name"]) or services.member_name(
            ctx.gang, gf.FIGURE_LABELS[data["figure"]]
        )
        member = services.append_member(ctx.gang, name=name, data=member_data)
        ctx.opened = member


def _weapon_choices(catalogue) -> list[tuple[str, str]]:
    return catalogue.choices(
        Item.Category.WEAPON, lambda i: f"{i.name} ({weapon_label(i.stats or {})})"
    )


class CharacterFieldsMixin:
    """Type, experience and the five characteristics of a character (its abilities are
    added and taken off one by one, like weapons)."""

    def add_character_fields(self) -> None:
        fields = self.fields
        fields["character_type"] = forms.ChoiceField(label=_("Type"), choices=TYPE_CHOICES)
        fields["experience"] = forms.ChoiceField(label=_("Experience"), choices=EXPERIENCE_CHOICES)
        for c in gf.CHARACTERISTICS:
            fields[c] = _characteristic_field(gf.LABELS[c], gf.NAMES[c])

    def characteristic_fields(self) -> list[Any]:
        return [self[c] for c in gf.CHARACTERISTICS]

    def character_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "character_type": data["character_type"],
            "experience": data["experience"],
            "characteristics": {c: data[c] for c in gf.CHARACTERISTICS},
        }


def _initial_character(data: dict[str, Any]) -> dict[str, Any]:
    chars = data.get("characteristics") if isinstance(data.get("characteristics"), dict) else {}
    return {
        "character_type": data.get("character_type", ""),
        "experience": data.get("experience", ""),
        **{c: chars.get(c) for c in gf.CHARACTERISTICS},
    }


def _entered(data: dict[str, Any]) -> dict[str, Any]:
    """A character changed by hand is "entered": its dice no longer give what it has (they
    stay in the gang's dice log)."""
    data["source"] = "entered"
    data["rolls"] = []
    return data


def _abilities(data: dict[str, Any]) -> list[str]:
    raw = data.get("abilities")
    if not isinstance(raw, list):
        return []
    return [gf._ABILITY_LOOKUP.get(gf.normalise(a), a) if isinstance(a, str) else "" for a in raw]


class EnterCharacterForm(ActionForm):
    """A character typed in from a sheet or a scenario (source "entered"): its name, type
    and experience; it opens with 7 in each characteristic and no abilities yet, and its
    panel (the character's numbers open) takes the rest as it is typed."""

    label = gettext_lazy("Add this character")

    name = forms.CharField(label=_("Name"), max_length=100, required=False)
    character_type = forms.ChoiceField(label=_("Type"), choices=TYPE_CHOICES)
    experience = forms.ChoiceField(
        label=_("Experience"), choices=EXPERIENCE_CHOICES, initial="greenhorn"
    )

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return _last_character(figures, "greenhorn")

    def apply(self, ctx: ActionContext) -> None:
        data = self.cleaned_data
        member_data = gf.SYSTEM.new_member("character", data["character_type"], data["experience"])
        name = _name(data["name"]) or services.member_name(
            ctx.gang, gf.CHARACTER_TYPES[data["character_type"]]["name"]
        )
        ctx.opened = services.append_member(ctx.gang, name=name, data=member_data)


# --------------------------------------------------------------------------- member actions


class MemberForm(ActionForm):
    """A member action, which may be for some kinds of figure only."""

    #: The kinds of figure the action is for (None: any member, even an unknown one).
    for_figures: tuple[str, ...] | None = None

    def clean(self):
        cleaned = super().clean()
        figure = gf.normalise(_member_data(self.member).get("figure"))
        if self.for_figures is not None and figure not in self.for_figures:
            kinds = gettext(" or ").join(gf.FIGURE_LABELS[f] for f in self.for_figures)
            raise forms.ValidationError(gettext("Only a %(kinds)s can do this.") % {"kinds": kinds})
        return cleaned

    def save(self, ctx: ActionContext, data: dict[str, Any], *fields: str) -> None:
        ctx.member.data = data
        ctx.member.save(update_fields=["data", *fields])


class RenameForm(MemberForm):
    label = gettext_lazy("Rename")
    live = True

    name = forms.CharField(label=_("Name"), max_length=100, required=False)

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return {"name": member.name}

    def apply(self, ctx: ActionContext) -> None:
        ctx.member.name = _name(self.cleaned_data["name"])
        ctx.member.save(update_fields=["name"])


class EditCharacterForm(CharacterFieldsMixin, MemberForm):
    """Change a character's type, experience and characteristics (applied as each
    changes). A rolled character whose numbers change becomes "entered" (its dice stay in
    the dice log)."""

    label = gettext_lazy("Save character")
    live = True
    for_figures = ("character",)

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return _initial_character(_member_data(member))

    def setup(self) -> None:
        self.add_character_fields()

    def apply(self, ctx: ActionContext) -> None:
        data = dict(_member_data(ctx.member))
        new = self.character_data()
        changed = any(data.get(k) != v for k, v in new.items())
        data.update(new)
        if changed or data.get("source") not in gf.SOURCES:
            _entered(data)
        self.save(ctx, data)


class AddAbilityForm(MemberForm):
    """Picking a special ability adds it: those of the character's own table first, then
    the others, each saying which table it is on (allowed, with a warning)."""

    label = gettext_lazy("Add ability")
    live = True
    for_figures = ("character",)

    ability = forms.ChoiceField(label=_("Add a special ability"))

    def setup(self) -> None:
        data = _member_data(self.member)
        have = set(_abilities(data))
        choices = ability_choices(gf.normalise(data.get("character_type")))
        self.fields["ability"].choices = [
            ("", gettext("Choose an ability…")),
            *[(a, label) for a, label in choices if a and a not in have],
        ]

    def apply(self, ctx: ActionContext) -> None:
        data = dict(_member_data(ctx.member))
        data["abilities"] = [*_abilities(data), self.cleaned_data["ability"]]
        self.save(ctx, _entered(data))


class RemoveAbilityForm(MemberForm):
    """Take one special ability off (any figure: troopers and rabble should have none)."""

    label = gettext_lazy("Remove ability")

    index = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def clean_index(self) -> int:
        index = self.cleaned_data["index"]
        if index >= len(_abilities(_member_data(self.member))):
            raise forms.ValidationError(gettext("That ability is not there any more."))
        return index

    def apply(self, ctx: ActionContext) -> None:
        data = dict(_member_data(ctx.member))
        abilities = _abilities(data)
        del abilities[self.cleaned_data["index"]]
        data["abilities"] = abilities
        if data.get("figure") == "character":
            _entered(data)
        self.save(ctx, data)


class RerollForm(MemberForm):
    """Roll this character afresh (same name, type, experience and weapons)."""

    label = gettext_lazy("Re-roll")
    rolls = True
    for_figures = ("character",)

    def clean(self):
        cleaned = super().clean()
        data = _member_data(self.member)
        if (
            data.get("character_type") not in gf.CHARACTER_TYPES
            or data.get("experience") not in gf.EXPERIENCE
        ):
            raise forms.ValidationError(
                gettext_lazy("Choose the character's type and experience first.")
            )
        return cleaned

    def apply(self, ctx: ActionContext) -> None:
        data = dict(_member_data(ctx.member))
        rolled = gf.SYSTEM.generate_character(
            _dice(ctx), data["character_type"], data["experience"], name=ctx.member.name
        )
        rolled["weapons"] = data.get("weapons", [])
        ctx.outcome = describe_character(rolled, ctx.member.name)
        self.save(ctx, rolled)


class FiguresForm(MemberForm):
    """How many figures a trooper or rabble entry stands for, and what they are."""

    label = gettext_lazy("Save")
    live = True
    for_figures = ("trooper", "rabble")

    count = forms.IntegerField(
        label=_("How many"),
        min_value=1,
        max_value=MAX_COUNT,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "gf-count"}),
    )
    character_type = forms.ChoiceField(label=_("Type"), choices=description_choices, required=False)

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        data = _member_data(member)
        return {"count": data.get("count", 1), "character_type": data.get("character_type", "")}

    def apply(self, ctx: ActionContext) -> None:
        data = dict(_member_data(ctx.member))
        data["count"] = self.cleaned_data["count"]
        if self.cleaned_data["character_type"]:
            data["character_type"] = self.cleaned_data["character_type"]
        else:
            data.pop("character_type", None)
        self.save(ctx, data)


class AddWeaponForm(MemberForm):
    """Picking a weapon in the list adds it."""

    label = gettext_lazy("Add weapon")
    live = True

    weapon = forms.ChoiceField(label=_("Add a weapon"))

    def setup(self) -> None:
        self.fields["weapon"].choices = [
            ("", gettext("Choose a weapon…")),
            *_weapon_choices(self.catalogue),
        ]

    def apply(self, ctx: ActionContext) -> None:
        item = ctx.catalogue.get(self.cleaned_data["weapon"], Item.Category.WEAPON)
        data = dict(_member_data(ctx.member))
        weapons = list(data.get("weapons") or [])
        weapons.append(weapon_entry(item))
        data["weapons"] = weapons
        self.save(ctx, data)


class RemoveWeaponForm(MemberForm):
    label = gettext_lazy("Remove weapon")

    index = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def clean_index(self) -> int:
        index = self.cleaned_data["index"]
        weapons = _member_data(self.member).get("weapons") or []
        if index >= len(weapons):
            raise forms.ValidationError(gettext_lazy("That weapon is not carried any more."))
        return index

    def apply(self, ctx: ActionContext) -> None:
        data = dict(_member_data(ctx.member))
        weapons = list(data.get("weapons") or [])
        index = self.cleaned_data["index"]
        if index < len(weapons):
            del weapons[index]
        data["weapons"] = weapons
        self.save(ctx, data)


class RemoveMemberForm(MemberForm):
    label = gettext_lazy("Remove")

    def apply(self, ctx: ActionContext) -> None:
        ctx.removed = services.remove_member(ctx.member)  # Undo brings it back


# --------------------------------------------------------------------------- content


class WeaponForm(EntryForm):
    """A house weapon: ranges in inches (empty = none) and shots before reloading."""

    category = Item.Category.WEAPON
    label = gettext_lazy("Weapon")
    plural = gettext_lazy("Weapons")

    point_blank = forms.IntegerField(
        label=gettext_lazy("Point blank"),
        min_value=0,
        max_value=200,
        required=False,
        help_text=gettext_lazy("Inches."),
    )
    normal = forms.IntegerField(
        label=gettext_lazy("Normal range"),
        min_value=0,
        max_value=200,
        required=False,
        help_text=gettext_lazy("Inches."),
    )
    long = forms.IntegerField(
        label=gettext_lazy("Long range"),
        min_value=0,
        max_value=200,
        required=False,
        help_text=gettext_lazy("Inches."),
    )
    shots = forms.IntegerField(
        label=gettext_lazy("Shots"),
        min_value=1,
        max_value=200,
        required=False,
        help_text=gettext_lazy("Shots before reloading; empty if it doesn't track ammunition."),
    )
    notes = forms.CharField(
        label=gettext_lazy("Notes"),
        max_length=300,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    @classmethod
    def describe(cls, stats: dict[str, Any]) -> str:
        return weapon_label(stats)

    @classmethod
    def initial_from(cls, stats: dict[str, Any]) -> dict[str, Any]:
        return {k: stats.get(k) for k in (*gf.WEAPON_STATS, "notes")}

    def clean_name(self) -> str:
        name = super().clean_name()
        book = gf._WEAPON_LOOKUP.get(gf.normalise(name))
        if book:
            raise forms.ValidationError(
                gettext(
                    "The book already has the %(weapon)s: its numbers are "
                    "used whatever a pack says. Give your weapon another name."
                )
                % {"weapon": gf.WEAPONS[book]["name"]}
            )
        return name

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        entry = {"name": cleaned.get("name", ""), **self.stats()}
        for error in _WEAPON_VALIDATOR.iter_errors(entry):
            self.add_error(
                None,
                gettext("Not a weapon Gunfight can read: %(error)s") % {"error": error.message},
            )
        return cleaned

    def stats(self) -> dict[str, Any]:
        data = self.cleaned_data
        stats: dict[str, Any] = {s: data.get(s) for s in gf.WEAPON_STATS}
        notes = (data.get("notes") or "").strip()
        if notes:
            stats["notes"] = notes
        return stats


# --------------------------------------------------------------------------- the editor


#: A roll's purpose is "<name when rolled>: <what for>" ("Doc: SK", "Doc: ability 1
#: (Lawman table)", "Doc: re-roll: repeat of Cool"): the panel says what for, in short.
_LABELS_RE = "|".join(map(re.escape, gf.LABELS.values()))
_PURPOSE = re.compile(
    rf"^(?:.+?: )?(?:(?P<label>{_LABELS_RE})$|ability (?P<ability>\d+) \(|(?P<reroll>re-roll): )"
)


def roll_rows(figures: Any) -> list[dict[str, Any]]:
    """A rolled character's dice, in order, for its panel: a short ``label`` for what each
    die was for ("SK", "Ability 1", "Re-roll"; ``purpose`` is the whole line of the dice
    log), the dice, and what the die gave ("+4 = 7", "Quick Draw")."""
    table = gf.table_for(getattr(figures, "character_type", ""))
    d6 = 0
    got: list[str] = []
    rows = []
    for roll in getattr(figures, "rolls", []) or []:
        purpose = str(roll.get("purpose", ""))
        what = _PURPOSE.match(purpose)
        if what is None:
            label = purpose
        elif what["label"]:
            label = what["label"]
        elif what["ability"]:
            label = gettext("Ability %(n)s") % {"n": what["ability"]}
        else:
            label = gettext("Re-roll")
        rolled = roll.get("rolled")
        rolled = rolled if isinstance(rolled, list) else []
        die = rolled[0] if len(rolled) == 1 and isinstance(rolled[0], int) else None
        kind = str(roll.get("dice", "")).upper()
        gives = ""
        if die is not None and kind == "D6" and d6 < len(gf.CHARACTERISTICS):
            gives = f"+{gf.ROLL_ADD} = {die + gf.ROLL_ADD}"
            d6 += 1
        elif die is not None and kind == "D20" and table is not None and 1 <= die <= 20:
            ability = gf.table_result(table, die)
            gives = gf.ABILITIES[ability]["name"]
            if ability in got:
                gives = gettext("%(ability)s: a repeat, rolled again") % {"ability": gives}
            got.append(ability)
        dice = str(roll.get("dice", ""))
        # the dice log's own line is English (it is data the panel reads): a tooltip of
        # it only in English, the short label otherwise
        title = purpose if (get_language() or "en").startswith("en") else label
        rows.append(
            {
                "label": label,
                "purpose": purpose,
                "title": title,
                "dice": dice,
                "rolled": rolled,
                "gives": gives,
            }
        )
    return rows


def member_kind(figures: Any) -> str:
    """What a member is, in the words of the book: "Lawman · Veteran" (and "+ sidekick"
    when Loyal Sidekick adds a figure), "Troopers x4 · Soldier", "Rabble x5", "Trooper"
    (the x is a multiplication sign)."""
    figure = getattr(figures, "figure", "")
    if figure == "character":
        parts = [
            figures.type_label or gettext("no type"),
            figures.experience_label or gettext("no experience"),
        ]
        kind = " · ".join(parts)
        return kind + (gettext(" + sidekick") if figures.sidekick else "")
    if figure in ("trooper", "rabble"):
        count = figures.count
        if figure == "trooper":
            kind = gettext("Troopers") if count != 1 else gettext("Trooper")
        else:
            kind = gettext("Rabble")
        if count != 1:
            kind += f" {gf.TIMES}{count}"
        if figures.character_type in gf.CHARACTER_TYPES:
            kind += f" · {figures.type_label}"
        return kind
    return str(getattr(figures, "summary", ""))


def _shown_elsewhere(note: str) -> bool:
    """A note the card shows in its own way (an ability, a weapon, the dice), as the engine
    wrote it in the reader's language."""
    abilities = {
        gettext("{term}: {text}").format(term=a["name"], text=a["text"])
        for a in gf.ABILITIES.values()
    }
    starts = (
        gettext("Weapon: {weapon}").split("{weapon}")[0],
        gettext("Rolled: {dice}.").split("{dice}")[0],
        gettext("Rolled (the recorded dice can't be read)."),
    )
    return note in abilities or note.startswith(starts)


class GunfightEditor(Editor):
    system_id = "gunfight"
    gang_template = "editors/gunfight/_gang.html"
    panel_template = "editors/gunfight/_panel.html"
    stylesheet = "editors/gunfight/editor.css"
    key_stats = ("SK", "SP", "WP")
    add_action = "roll"
    empty_roster = _("No figures yet: roll a character below, or add troopers or rabble.")
    gang_actions = {
        "roll": RollCharacterForm,
        "add_figures": AddFiguresForm,
        "enter": EnterCharacterForm,
    }
    member_actions = {
        "rename": RenameForm,
        "edit": EditCharacterForm,
        "add_ability": AddAbilityForm,
        "remove_ability": RemoveAbilityForm,
        "reroll": RerollForm,
        "figures": FiguresForm,
        "add_weapon": AddWeaponForm,
        "remove_weapon": RemoveWeaponForm,
        "remove": RemoveMemberForm,
    }
    content_kinds = (WeaponForm,)

    def row(self, member: Any, figures: Any) -> dict[str, Any]:
        """The row says what the figure is: "Lawman · Veteran", "Troopers x4 · Soldier"."""
        row = super().row(member, figures)
        row["kind"] = member_kind(figures)
        return row

    def panel_context(self, member: Any, figures: Any) -> dict[str, Any]:
        """The member's abilities as stored (each with its place, to take it off), whether
        it has room for another, and a character's dice."""
        abilities = []
        for index, a in enumerate(_abilities(_member_data(member))):
            known = gf.ABILITIES.get(a)
            abilities.append(
                {
                    "index": index,
                    "name": known["name"] if known else a,
                    "text": known["text"] if known else gettext("Not in the book."),
                }
            )
        context: dict[str, Any] = {"abilities": abilities, "rolls": [], "table": ""}
        if getattr(figures, "figure", "") == "character":
            experience = gf.EXPERIENCE.get(figures.experience)
            wanted = experience["abilities"] if experience else None
            table = gf.table_for(figures.character_type)
            context.update(
                rolls=roll_rows(figures),
                table=table["name"] if table else "",
                wanted=wanted,
                room=wanted is None or len(abilities) < wanted,
            )
        return context

    def all_good(self, evaluated: Any) -> str:
        # No points in Gunfight: nothing to say about spending them.
        return gettext("Nothing to fix: the gang is legal.")

    def extra_context(self, evaluated: Any, catalogue: Any) -> dict[str, Any]:
        # The card shows abilities, weapons and dice in its own way: the other notes
        # (clamped characteristics, the sidekick, troopers' and rabble's rules) go below.
        for m in evaluated.report.members.values():
            m.gf_notes = [n for n in m.notes if not _shown_elsewhere(n)]
        return {}

    def builtin_content(self) -> list[dict[str, Any]]:
        source = f"{gf.CONTENT['source']}, p. 7 (Range; Ammunition)"
        return [
            {
                "category": Item.Category.WEAPON,
                "name": w["name"],
                "stats": {k: v for k, v in w.items() if k not in ("name", "is_sample")},
                "is_sample": bool(w.get("is_sample", False)),
                "source": source,
            }
            for w in gf.WEAPONS.values()
        ]


EDITOR = GunfightEditor()
