"""Gunfight v2: roll characters (every die shown and logged), enter them by hand, add
troopers and rabble, arm them from the weapon list. The total is the figure count.

Dice are rolled only inside ``apply`` through ``ctx.dice`` (a POST), so a reload never
re-rolls. ``random_source`` is the one seam tests use to make a roll repeatable.
"""

from __future__ import annotations

import random
from typing import Any

from django import forms
from jsonschema import Draft202012Validator

from builder import services
from builder.editors.base import ActionContext, ActionForm, Editor, EntryForm
from builder.models import Item
from rules.systems import gunfight as gf

CHARACTERISTIC_MIN = 0
CHARACTERISTIC_MAX = 99  # the form only checks it is a number; the engine checks 1..10
MAX_COUNT = 200
ABILITY_SLOTS = 3  # a Veteran's three; more slots show when a stored character has more
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
DESCRIPTION_CHOICES = [("", "— no type —"), *TYPE_CHOICES]


def _ability_choices() -> list[Any]:
    groups: list[Any] = [("", "— none —")]
    on_tables: set[str] = set()
    for table in gf.TABLES.values():
        ids = gf.table_abilities(table)
        on_tables.update(ids)
        groups.append((f"{table['name']} table", [(a, gf.ABILITIES[a]["name"]) for a in ids]))
    others = [(a["id"], a["name"]) for a in gf.ABILITIES.values() if a["id"] not in on_tables]
    if others:
        groups.append(("On no table", others))
    return groups


ABILITY_CHOICES = _ability_choices()


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
    return f"{who}{ctype} ({exp}): {chars} · {abilities or 'no abilities'}"


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
        parts.append(f"{stats['shots']} shot{'s' if stats['shots'] != 1 else ''}")
    if not parts:
        parts.append(stats.get("kind", "").replace("_", " ") or "no range")
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


class RollCharacterForm(ActionForm):
    """Roll a character: 1D6 + 4 per characteristic, abilities on the type's D20 table."""

    label = "Roll a character"
    rolls = True

    name = forms.CharField(
        max_length=100,
        required=False,
        help_text="Leave empty to call the character by its type.",
    )
    character_type = forms.ChoiceField(label="Type", choices=TYPE_CHOICES)
    experience = forms.ChoiceField(choices=EXPERIENCE_CHOICES, initial="old_hand")

    def apply(self, ctx: ActionContext) -> None:
        data = self.cleaned_data
        name = _name(data["name"]) or gf.CHARACTER_TYPES[data["character_type"]]["name"]
        member_data = gf.SYSTEM.generate_character(
            _dice(ctx), data["character_type"], data["experience"], name=name
        )
        member = services.append_member(ctx.gang, name=name, data=member_data)
        ctx.outcome = describe_character(member_data, name)
        ctx.opened = member


class AddFiguresForm(ActionForm):
    """Troopers or rabble: one entry stands for ``count`` identical figures."""

    label = "Add figures"

    figure = forms.ChoiceField(label="Kind", choices=FIGURE_CHOICES)
    count = forms.IntegerField(label="How many", min_value=1, max_value=MAX_COUNT, initial=1)
    name = forms.CharField(
        max_length=100, required=False, help_text="Optional, e.g. “Cavalry troopers”."
    )
    character_type = forms.ChoiceField(
        label="Type", choices=DESCRIPTION_CHOICES, required=False, help_text="Optional."
    )
    weapon = forms.ChoiceField(label="Weapon", required=False)

    def setup(self) -> None:
        self.fields["weapon"].choices = [("", "— none —"), *_weapon_choices(self.catalogue)]

    def apply(self, ctx: ActionContext) -> None:
        data = self.cleaned_data
        member_data = gf.SYSTEM.new_member(data["figure"])
        member_data["count"] = data["count"]
        if data["character_type"]:
            member_data["character_type"] = data["character_type"]
        item = ctx.catalogue.get(data["weapon"], Item.Category.WEAPON) if data["weapon"] else None
        if item is not None:
            member_data["weapons"] = [weapon_entry(item)]
        name = _name(data["name"]) or gf.FIGURE_LABELS[data["figure"]]
        member = services.append_member(ctx.gang, name=name, data=member_data)
        ctx.opened = member


def _weapon_choices(catalogue) -> list[tuple[str, str]]:
    return catalogue.choices(
        Item.Category.WEAPON, lambda i: f"{i.name} ({weapon_label(i.stats or {})})"
    )


class CharacterFieldsMixin:
    """Type, experience, the five characteristics and the ability slots of a character."""

    def add_character_fields(self, abilities: list[str]) -> None:
        fields = self.fields
        fields["character_type"] = forms.ChoiceField(label="Type", choices=TYPE_CHOICES)
        fields["experience"] = forms.ChoiceField(
            choices=EXPERIENCE_CHOICES,
            help_text="Greenhorn 1 ability, Old Hand 2, Veteran 3.",
        )
        for c in gf.CHARACTERISTICS:
            fields[c] = _characteristic_field(gf.LABELS[c], gf.NAMES[c])
        choices = list(ABILITY_CHOICES)
        unknown = [a for a in abilities if a and a not in gf.ABILITIES]
        if unknown:
            choices.append(("Not in the book", [(a, a) for a in dict.fromkeys(unknown)]))
        for i in range(max(ABILITY_SLOTS, len(abilities))):
            fields[f"ability_{i + 1}"] = forms.ChoiceField(
                label=f"Ability {i + 1}", choices=choices, required=False
            )

    def character_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "character_type": data["character_type"],
            "experience": data["experience"],
            "characteristics": {c: data[c] for c in gf.CHARACTERISTICS},
            "abilities": [data[k] for k in self.fields if k.startswith("ability_") and data.get(k)],
        }


def _initial_character(data: dict[str, Any]) -> dict[str, Any]:
    chars = data.get("characteristics") if isinstance(data.get("characteristics"), dict) else {}
    initial: dict[str, Any] = {
        "character_type": data.get("character_type", ""),
        "experience": data.get("experience", ""),
        **{c: chars.get(c) for c in gf.CHARACTERISTICS},
    }
    for i, a in enumerate(_abilities(data)):
        initial[f"ability_{i + 1}"] = a
    return initial


def _abilities(data: dict[str, Any]) -> list[str]:
    raw = data.get("abilities")
    if not isinstance(raw, list):
        return []
    return [gf._ABILITY_LOOKUP.get(gf.normalise(a), a) if isinstance(a, str) else "" for a in raw]


class EnterCharacterForm(CharacterFieldsMixin, ActionForm):
    """A character typed in from a sheet or a scenario (source "entered")."""

    label = "Add this character"

    name = forms.CharField(max_length=100, required=False)

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return _initial_character(gf.SYSTEM.new_member("character"))

    def setup(self) -> None:
        self.add_character_fields([])

    def apply(self, ctx: ActionContext) -> None:
        data = {
            "figure": "character",
            **self.character_data(),
            "source": "entered",
            "rolls": [],
            "weapons": [],
        }
        member = services.append_member(ctx.gang, name=_name(self.cleaned_data["name"]), data=data)
        ctx.opened = member


# --------------------------------------------------------------------------- member actions


class MemberForm(ActionForm):
    """A member action, which may be for some kinds of figure only."""

    #: The kinds of figure the action is for (None: any member, even an unknown one).
    for_figures: tuple[str, ...] | None = None

    def clean(self):
        cleaned = super().clean()
        figure = gf.normalise(_member_data(self.member).get("figure"))
        if self.for_figures is not None and figure not in self.for_figures:
            kinds = " or ".join(gf.FIGURE_LABELS[f] for f in self.for_figures)
            raise forms.ValidationError(f"Only a {kinds} can do this.")
        return cleaned

    def save(self, ctx: ActionContext, data: dict[str, Any], *fields: str) -> None:
        ctx.member.data = data
        ctx.member.save(update_fields=["data", *fields])


class RenameForm(MemberForm):
    label = "Rename"

    name = forms.CharField(max_length=100, required=False)

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return {"name": member.name}

    def apply(self, ctx: ActionContext) -> None:
        ctx.member.name = _name(self.cleaned_data["name"])
        ctx.member.save(update_fields=["name"])


class EditCharacterForm(CharacterFieldsMixin, MemberForm):
    """Change a character's type, experience, characteristics and abilities. A rolled
    character whose numbers change becomes "entered" (its dice stay in the dice log)."""

    label = "Save character"
    for_figures = ("character",)

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return _initial_character(_member_data(member))

    def setup(self) -> None:
        self.add_character_fields(_abilities(_member_data(self.member)))

    def apply(self, ctx: ActionContext) -> None:
        data = dict(_member_data(ctx.member))
        new = self.character_data()
        old = {
            "character_type": data.get("character_type"),
            "experience": data.get("experience"),
            "characteristics": data.get("characteristics"),
            "abilities": _abilities(data),
        }
        changed = new != old
        data.update(new)
        if changed or data.get("source") not in gf.SOURCES:
            data["source"] = "entered"
            data["rolls"] = []
        self.save(ctx, data)


class RerollForm(MemberForm):
    """Roll this character afresh (same name, type, experience and weapons)."""

    label = "Re-roll"
    rolls = True
    for_figures = ("character",)

    def clean(self):
        cleaned = super().clean()
        data = _member_data(self.member)
        if (
            data.get("character_type") not in gf.CHARACTER_TYPES
            or data.get("experience") not in gf.EXPERIENCE
        ):
            raise forms.ValidationError("Choose the character's type and experience first.")
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

    label = "Save"
    for_figures = ("trooper", "rabble")

    count = forms.IntegerField(label="How many", min_value=1, max_value=MAX_COUNT)
    character_type = forms.ChoiceField(label="Type", choices=DESCRIPTION_CHOICES, required=False)

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
    label = "Add weapon"

    weapon = forms.ChoiceField(label="Weapon")

    def setup(self) -> None:
        self.fields["weapon"].choices = [("", "Choose a weapon…"), *_weapon_choices(self.catalogue)]

    def apply(self, ctx: ActionContext) -> None:
        item = ctx.catalogue.get(self.cleaned_data["weapon"], Item.Category.WEAPON)
        data = dict(_member_data(ctx.member))
        weapons = list(data.get("weapons") or [])
        weapons.append(weapon_entry(item))
        data["weapons"] = weapons
        self.save(ctx, data)


class RemoveWeaponForm(MemberForm):
    label = "Remove weapon"

    index = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def clean_index(self) -> int:
        index = self.cleaned_data["index"]
        weapons = _member_data(self.member).get("weapons") or []
        if index >= len(weapons):
            raise forms.ValidationError("That weapon is not carried any more.")
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
    label = "Remove"

    def apply(self, ctx: ActionContext) -> None:
        ctx.member.delete()


# --------------------------------------------------------------------------- content


class WeaponForm(EntryForm):
    """A house weapon: ranges in inches (empty = none) and shots before reloading."""

    category = Item.Category.WEAPON
    label = "Weapon"
    plural = "Weapons"

    point_blank = forms.IntegerField(
        label="Point blank", min_value=0, max_value=200, required=False, help_text="Inches."
    )
    normal = forms.IntegerField(min_value=0, max_value=200, required=False, help_text="Inches.")
    long = forms.IntegerField(min_value=0, max_value=200, required=False, help_text="Inches.")
    shots = forms.IntegerField(
        min_value=1,
        max_value=200,
        required=False,
        help_text="Shots before reloading; empty if it doesn't track ammunition.",
    )
    notes = forms.CharField(
        max_length=300, required=False, widget=forms.Textarea(attrs={"rows": 2})
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
                f"The book already has the {gf.WEAPONS[book]['name']}: its numbers are "
                "used whatever a pack says. Give your weapon another name."
            )
        return name

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        entry = {"name": cleaned.get("name", ""), **self.stats()}
        for error in _WEAPON_VALIDATOR.iter_errors(entry):
            self.add_error(None, f"Not a weapon Gunfight can read: {error.message}")
        return cleaned

    def stats(self) -> dict[str, Any]:
        data = self.cleaned_data
        stats: dict[str, Any] = {s: data.get(s) for s in gf.WEAPON_STATS}
        notes = (data.get("notes") or "").strip()
        if notes:
            stats["notes"] = notes
        return stats


# --------------------------------------------------------------------------- the editor

_ABILITY_NOTES = frozenset(f"{a['name']}: {a['text']}" for a in gf.ABILITIES.values())


def _shown_elsewhere(note: str) -> bool:
    return note in _ABILITY_NOTES or note.startswith(("Weapon: ", "Rolled: ", "Rolled ("))


class GunfightEditor(Editor):
    system_id = "gunfight"
    template = "builder/gunfight/editor.html"
    gang_actions = {
        "roll": RollCharacterForm,
        "add_figures": AddFiguresForm,
        "enter": EnterCharacterForm,
    }
    member_actions = {
        "rename": RenameForm,
        "edit": EditCharacterForm,
        "reroll": RerollForm,
        "figures": FiguresForm,
        "add_weapon": AddWeaponForm,
        "remove_weapon": RemoveWeaponForm,
        "remove": RemoveMemberForm,
    }
    content_kinds = (WeaponForm,)

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
