"""Gangfight Core Rules 2.6: the party builder.

A member's ``data`` is the engine's (``rules.systems.gf26``): the profile it was bought as
(copied by value, so the player may edit its numbers for homebrew), its perks, the Party
Leader flag, its unit and unit-leader flag, and equipment bought on top of the profile's
own. Content kinds: profiles and equipment. The engine says what is legal; the forms only
refuse what it could not read (unknown perks, troop types, sizes, numbers that are not
numbers).

The page: picking a profile adds a model named after it and opens it (each profile priced
with its kit); the limit presets are one tap. In the open model's panel every control
applies as it changes: name, unit, perks (each with its rule), equipment bought, and the
numbers of its own profile; Party Leader and Remove are buttons.
"""

from __future__ import annotations

import re
from typing import Any

import jsonschema
from django import forms
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext_lazy as _

from builder import services
from builder.editors.base import ActionContext, ActionForm, Catalogue, Editor, EntryForm, mark
from builder.models import Gang, Item, Member
from common.sorting import name_key
from rules.base import as_int
from rules.i18n import punctuate
from rules.systems import gf26

ATTRIBUTES = gf26.ATTRIBUTES
LABELS = gf26.ATTRIBUTE_LABELS
TROOP_CHOICES = [(t["id"], t["name"]) for t in gf26.TROOP_TYPES.values()]
SIZE_CHOICES = [(s, gf26.SIZES[s]["name"]) for s in gf26.SIZE_ORDER]
SETTING_CHOICES = [("", "—")] + [
    (s["id"], s["name"]) for s in gf26.SETTINGS.values() if s["id"] != "mixed"
]
PERK_CHOICES = [(p["id"], p["name"]) for p in gf26.PERKS.values()]
LIMIT_PRESETS = (
    (gf26.CAMPAIGN_LIMIT, _("campaign")),
    (gf26.PICKUP_LIMIT, _("pickup")),
)
MAX_ATTRIBUTE = 30
MAX_POINTS = 10_000
MAX_EQUIPMENT = 30
EQUIPMENT_HELP = _(
    "One piece a line: “name | points | notes” (notes optional), e.g. “Sword | 5 | hand weapon”."
)


def _schema_errors(schema: dict[str, Any], value: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [
        f"{'/'.join(str(p) for p in e.absolute_path) or 'entry'}: {e.message}"
        for e in validator.iter_errors(value)
    ]


# --------------------------------------------------------------------------- equipment lines


def parse_equipment(text: str) -> list[dict[str, Any]]:
    """“name | points | notes” lines -> the engine's equipment entries; errors name lines."""
    entries: list[dict[str, Any]] = []
    errors: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) < 2 or not parts[0]:
            errors.append(gettext("Line %(n)s: write “name | points | notes”.") % {"n": number})
            continue
        name, points, notes = parts[0], parts[1], "|".join(parts[2:]).strip()
        try:
            cost = int(points)
        except ValueError:
            errors.append(
                gettext("Line %(n)s: the points (“%(points)s”) must be a whole number.")
                % {"n": number, "points": points}
            )
            continue
        if not 0 <= cost <= MAX_POINTS:
            errors.append(
                gettext("Line %(n)s: the points must be from 0 to %(most)s.")
                % {"n": number, "most": MAX_POINTS}
            )
            continue
        if len(name) > 80 or len(notes) > 200:
            errors.append(
                gettext("Line %(n)s: keep the name under 80 and the notes under 200 letters.")
                % {"n": number}
            )
            continue
        entry: dict[str, Any] = {"name": name, "points": cost}
        if notes:
            entry["notes"] = notes
        entries.append(entry)
    if len(entries) > MAX_EQUIPMENT:
        errors.append(gettext("At most %(most)s pieces of equipment.") % {"most": MAX_EQUIPMENT})
    if errors:
        raise forms.ValidationError(errors)
    return entries


def equipment_lines(entries: Any) -> str:
    lines = []
    for e in entries if isinstance(entries, list) else []:
        if not isinstance(e, dict):
            continue
        parts = [str(e.get("name", "")), str(e.get("points", 0))]
        if e.get("notes"):
            parts.append(str(e["notes"]))
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def _entries(value: Any) -> list[dict[str, Any]]:
    """Equipment entries as stored (a list of dicts), whatever the stored value is."""
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def kit_points(stats: dict[str, Any]) -> int:
    """What the profile's own equipment costs (as the engine counts it: negatives as 0)."""
    return sum(max(0, as_int(e.get("points")) or 0) for e in _entries(stats.get("equipment")))


def profile_price(stats: dict[str, Any]) -> int:
    """What a model bought as this profile costs: the profile's points plus its kit's."""
    return max(0, as_int(stats.get("points")) or 0) + kit_points(stats)


def describe_profile(stats: dict[str, Any]) -> str:
    troop = gf26.TROOP_TYPES.get(stats.get("troop_type", ""), {}).get("name", "?")
    size = gf26.SIZES.get(stats.get("size", ""), {}).get("name", "?")
    line = " ".join(f"{LABELS[a]} {stats.get(a, '?')}" for a in ATTRIBUTES)
    kit = ", ".join(
        f"{e.get('name', '?')} ({e.get('points', 0)})" for e in stats.get("equipment", [])
    )
    if kit:
        price = gettext("%(price)s pts with its kit (profile %(points)s)") % {
            "price": profile_price(stats),
            "points": stats.get("points", "?"),
        }
        return f"{troop}, {size}, {price} · {line} · {kit}"
    points = gettext("%(points)s pts") % {"points": stats.get("points", "?")}
    return f"{troop}, {size}, {points} · {line}"


def profile_line(stats: dict[str, Any]) -> str:
    """Size, the nine attributes and the kit: a profile in the party's list of profiles."""
    size = gf26.SIZES.get(stats.get("size", ""), {}).get("name", "?")
    line = " ".join(f"{LABELS[a]} {stats.get(a, '?')}" for a in ATTRIBUTES)
    kit = ", ".join(
        f"{e.get('name', '?')} ({e.get('points', 0)})" for e in _entries(stats.get("equipment"))
    )
    return " · ".join(part for part in (size, line, kit) if part)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def perk_rule(perk: dict[str, Any]) -> str:
    """A perk's rule without its flavour: from the first sentence about "this model"."""
    sentences = _SENTENCE_END.split(perk.get("text", ""))
    for i, sentence in enumerate(sentences):
        if "this model" in sentence.lower():
            return " ".join(sentences[i:])
    return perk.get("text", "")


PERK_RULES = {p["id"]: perk_rule(p) for p in gf26.PERKS.values()}


# --------------------------------------------------------------------------- the profile fields


class ProfileFields(forms.Form):
    """The fields of a profile (without its name), shared by packs and the member editor."""

    troop_type = forms.ChoiceField(choices=TROOP_CHOICES, label=gettext_lazy("Troop type"))
    size = forms.ChoiceField(label=gettext_lazy("Size"), choices=SIZE_CHOICES, initial="medium")
    points = forms.IntegerField(
        label=gettext_lazy("Points"),
        min_value=0,
        max_value=MAX_POINTS,
        help_text=gettext_lazy("The profile's cost."),
    )
    mov = forms.IntegerField(min_value=0, max_value=MAX_ATTRIBUTE, label=gettext_lazy("MOV"))
    att = forms.IntegerField(min_value=0, max_value=MAX_ATTRIBUTE, label=gettext_lazy("ATT"))
    mrk = forms.IntegerField(min_value=0, max_value=MAX_ATTRIBUTE, label=gettext_lazy("MRK"))
    def_ = forms.IntegerField(min_value=0, max_value=MAX_ATTRIBUTE, label=gettext_lazy("DEF"))
    iv = forms.IntegerField(min_value=0, max_value=MAX_ATTRIBUTE, label=gettext_lazy("IV"))
    wp = forms.IntegerField(min_value=0, max_value=MAX_ATTRIBUTE, label=gettext_lazy("WP"))
    arm = forms.IntegerField(min_value=0, max_value=MAX_ATTRIBUTE, label=gettext_lazy("ARM"))
    en = forms.IntegerField(min_value=0, max_value=MAX_ATTRIBUTE, label=gettext_lazy("EN"))
    dam = forms.IntegerField(min_value=0, max_value=MAX_ATTRIBUTE, label=gettext_lazy("DAM"))
    equipment = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=EQUIPMENT_HELP,
        label=gettext_lazy("The profile's equipment"),
    )
    setting = forms.ChoiceField(
        label=gettext_lazy("Setting"), choices=SETTING_CHOICES, required=False
    )

    @staticmethod
    def field_name(attribute: str) -> str:
        return "def_" if attribute == "def" else attribute

    def clean_equipment(self) -> list[dict[str, Any]]:
        return parse_equipment(self.cleaned_data.get("equipment", ""))

    def profile_stats(self) -> dict[str, Any]:
        """The engine's profile dict, without its name."""
        data = self.cleaned_data
        stats: dict[str, Any] = {"troop_type": data["troop_type"], "size": data["size"]}
        for a in ATTRIBUTES:
            stats[a] = data[self.field_name(a)]
        stats["points"] = data["points"]
        stats["equipment"] = data["equipment"]
        if data.get("setting"):
            stats["setting"] = data["setting"]
        return stats

    @classmethod
    def initial_from_profile(cls, stats: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "troop_type": stats.get("troop_type", ""),
            "size": stats.get("size", ""),
            "points": stats.get("points"),
            "equipment": equipment_lines(stats.get("equipment")),
            "setting": stats.get("setting", ""),
        }
        for a in ATTRIBUTES:
            initial[cls.field_name(a)] = stats.get(a)
        return initial

    def check_profile(self, name: str) -> None:
        """What the engine reads must match its schema (it always does if the form is valid)."""
        for error in _schema_errors(gf26.PROFILE_SCHEMA, {"name": name, **self.profile_stats()}):
            self.add_error(None, error)


# --------------------------------------------------------------------------- content kinds


class ProfileForm(EntryForm, ProfileFields):
    """A profile for a pack: troop type, size, the nine attributes, points, equipment."""

    category = Item.Category.PROFILE
    label = gettext_lazy("Profile")
    plural = gettext_lazy("Profiles")
    field_order = ["name"]

    @classmethod
    def initial_from(cls, stats: dict[str, Any]) -> dict[str, Any]:
        return cls.initial_from_profile(stats)

    @classmethod
    def describe(cls, stats: dict[str, Any]) -> str:
        return describe_profile(stats)

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            self.check_profile(cleaned.get("name", ""))
        return cleaned

    def stats(self) -> dict[str, Any]:
        return self.profile_stats()


class EquipmentForm(EntryForm):
    """A piece of equipment a member can buy on top of its profile's own."""

    category = Item.Category.EQUIPMENT
    label = gettext_lazy("Equipment")
    plural = gettext_lazy("Equipment")

    points = forms.IntegerField(label=gettext_lazy("Points"), min_value=0, max_value=MAX_POINTS)
    notes = forms.CharField(
        label=gettext_lazy("Notes"),
        max_length=200,
        required=False,
        help_text=gettext_lazy("e.g. “+2 DAM, two hands”."),
    )

    @classmethod
    def describe(cls, stats: dict[str, Any]) -> str:
        notes = punctuate(":") + stats["notes"] if stats.get("notes") else ""
        return f"{stats.get('points', '?')} pts{notes}"

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            entry = {"name": cleaned["name"], **self.stats()}
            for error in _schema_errors(gf26.EQUIPMENT_SCHEMA, entry):
                self.add_error(None, error)
        return cleaned

    def stats(self) -> dict[str, Any]:
        stats: dict[str, Any] = {"points": self.cleaned_data["points"]}
        if self.cleaned_data.get("notes"):
            stats["notes"] = self.cleaned_data["notes"].strip()
        return stats


# --------------------------------------------------------------------------- helpers


def _data(member: Member) -> dict[str, Any]:
    data = dict(member.data) if isinstance(member.data, dict) else {}
    data.setdefault("perks", [])
    if not isinstance(data.get("profile"), dict):
        data["profile"] = {}
    return data


def _save(ctx: ActionContext, data: dict[str, Any], *, name: str | None = None) -> None:
    member = ctx.member
    member.data = data
    fields = ["data"]
    if name is not None:
        member.name = name
        fields.append("name")
    member.save(update_fields=fields)


def _troop_name(stats: dict[str, Any]) -> str:
    return gf26.TROOP_TYPES.get(stats.get("troop_type", ""), {}).get("name", "?")


def _profile_label(item: Item) -> str:
    """“Human Captain (Hero) · 120 pts”: what the model will cost, with its kit."""
    return gettext("%(name)s (%(troop)s) · %(price)s pts") % {
        "name": item.name,
        "troop": _troop_name(item.stats),
        "price": profile_price(item.stats),
    }


def _equipment_label(item: Item) -> str:
    return gettext("%(name)s (%(points)s pts)") % {
        "name": item.name,
        "points": item.stats.get("points", "?"),
    }


# --------------------------------------------------------------------------- gang actions


class AddMemberForm(ActionForm):
    """Pick a profile: a model named after it joins the party (and opens, to rename)."""

    label = _("Add")
    live = True

    profile = forms.ChoiceField(label=_("Add a model"))
    #: Not on the page (the model is named after its profile, renamed in its panel); a
    #: plain post may still give one.
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100, required=False)

    def setup(self) -> None:
        profiles = self.catalogue.choices(Item.Category.PROFILE, _profile_label)
        self.fields["profile"].choices = [("", gettext("Choose a profile…")), *profiles]

    def clean_profile(self) -> Item:
        item = self.catalogue.get(self.cleaned_data["profile"], Item.Category.PROFILE)
        if item is None:
            raise forms.ValidationError(_("Choose a profile from the list."))
        return item

    def apply(self, ctx: ActionContext) -> None:
        item: Item = self.cleaned_data["profile"]
        stats = {k: v for k, v in item.stats.items() if k not in ("name", "sample", "id")}
        stats["equipment"] = [dict(e) for e in stats.get("equipment", [])]
        data = {
            "profile": {"name": item.name, **stats},
            "perks": [],
            "leader": False,
            "unit": "",
            "unit_leader": False,
            "equipment": [],
        }
        name = self.cleaned_data["name"].strip()
        if not name:
            name = services.member_name(ctx.gang, item.name)
        member = services.append_member(ctx.gang, name=name, data=data)
        ctx.opened = member


class SetLimitForm(ActionForm):
    """One tap: the usual limits (500 to start a campaign, 1000 for pickup games)."""

    label = _("Set the limit")

    limit = forms.TypedChoiceField(
        label=gettext_lazy("Limit"),
        choices=lambda: [(n, f"{n} ({what})") for n, what in LIMIT_PRESETS],
        coerce=int,
    )

    def apply(self, ctx: ActionContext) -> None:
        limit = self.cleaned_data["limit"]
        ctx.gang.limit = limit
        ctx.gang.save(update_fields=["limit"])
        self.gang.limit = limit  # the page is drawn from the view's gang


class SetSettingForm(ActionForm):
    label = _("Set the setting")
    live = True

    setting = forms.ChoiceField(
        label=_("Setting"),
        choices=[("", _("None given"))]
        + [(s["id"], f"{s['name']} ({s['genre']})") for s in gf26.SETTINGS.values()],
        required=False,
    )

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        return {"setting": (gang.data or {}).get("setting", "")}

    def apply(self, ctx: ActionContext) -> None:
        data = dict(ctx.gang.data or {})
        if self.cleaned_data["setting"]:
            data["setting"] = self.cleaned_data["setting"]
        else:
            data.pop("setting", None)
        ctx.gang.data = data
        ctx.gang.save(update_fields=["data"])
        self.gang.data = data


# --------------------------------------------------------------------------- member actions


class RenameForm(ActionForm):
    label = _("Rename")
    live = True

    name = forms.CharField(max_length=100, label=_("Name"))

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        return {"name": member.name if member else ""}

    def apply(self, ctx: ActionContext) -> None:
        ctx.member.name = self.cleaned_data["name"].strip()
        ctx.member.save(update_fields=["name"])


class RemoveForm(ActionForm):
    label = _("Remove")

    def apply(self, ctx: ActionContext) -> None:
        ctx.removed = services.remove_member(ctx.member)  # Undo brings it back


class EditProfileForm(ActionForm, ProfileFields):
    """The member's own copy of its profile: change any number (homebrew)."""

    label = _("Save the profile")
    live = True

    profile_name = forms.CharField(max_length=80, label=_("Profile name"))
    field_order = ["profile_name"]

    def head_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in ("profile_name", "troop_type", "size", "points")]

    def attribute_fields(self) -> list[forms.BoundField]:
        return [self[self.field_name(a)] for a in ATTRIBUTES]

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        profile = _data(member)["profile"] if member else {}
        return {"profile_name": profile.get("name", ""), **cls.initial_from_profile(profile)}

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            self.check_profile(cleaned["profile_name"])
        return cleaned

    def apply(self, ctx: ActionContext) -> None:
        data = _data(ctx.member)
        old = data["profile"]
        profile = {"name": self.cleaned_data["profile_name"].strip(), **self.profile_stats()}
        if "setting" not in profile and old.get("setting") == "mixed":
            profile["setting"] = "mixed"
        data["profile"] = profile
        _save(ctx, data)


class PerksForm(ActionForm):
    """The model's perks: a box each, applied as it is ticked."""

    label = _("Save perks")
    live = True

    perks = forms.MultipleChoiceField(
        label=gettext_lazy("Perks"),
        choices=PERK_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        return {"perks": list(getattr(figures, "perk_ids", []))}

    def boxes(self) -> list[dict[str, Any]]:
        """Each perk's checkbox (as Django would draw it, without a template per box) with
        its rule (without the flavour text)."""
        field = self["perks"]
        chosen = {str(v) for v in (field.value() or [])}
        return [
            {
                "id": f"{field.auto_id}_{i}",
                "name": field.html_name,
                "value": value,
                "label": label,
                "checked": str(value) in chosen,
                "rule": PERK_RULES.get(value, ""),
            }
            for i, (value, label) in enumerate(self.fields["perks"].choices)
        ]

    def apply(self, ctx: ActionContext) -> None:
        chosen = set(self.cleaned_data["perks"])
        data = _data(ctx.member)
        data["perks"] = [pid for pid, _name in PERK_CHOICES if pid in chosen]
        _save(ctx, data)


class LeaderForm(ActionForm):
    """One click: this model is the Party Leader (the others are not); again to clear."""

    label = _("Make Party Leader")

    def apply(self, ctx: ActionContext) -> None:
        data = _data(ctx.member)
        becomes = data.get("leader") is not True
        data["leader"] = becomes
        _save(ctx, data)
        if becomes:
            for other in ctx.gang.members.select_for_update().exclude(pk=ctx.member.pk):
                if isinstance(other.data, dict) and other.data.get("leader") is True:
                    other.data = {**other.data, "leader": False}
                    other.save(update_fields=["data"])


class UnitForm(ActionForm):
    """Put the model in a unit (by name) and say whether it leads it."""

    label = _("Save unit")
    live = True

    unit = forms.CharField(
        max_length=40,
        required=False,
        label=_("Unit"),
        help_text=_("Models with the same unit name act together."),
    )
    unit_leader = forms.BooleanField(required=False, label=_("Leads the unit"))

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        data = _data(member) if member else {}
        unit = data.get("unit")
        return {
            "unit": unit if isinstance(unit, str) else "",
            "unit_leader": data.get("unit_leader") is True,
        }

    def setup(self) -> None:
        self.fields["unit"].widget.attrs["list"] = "gf26-units"

    def clean_unit(self) -> str:
        return " ".join(self.cleaned_data["unit"].split())

    def apply(self, ctx: ActionContext) -> None:
        data = _data(ctx.member)
        unit = self.cleaned_data["unit"]
        leads = self.cleaned_data["unit_leader"]
        data["unit"] = unit
        data["unit_leader"] = leads
        _save(ctx, data)
        if unit and leads:
            # One leader per unit: taking the lead takes it from the unit-mate who had it.
            for other in ctx.gang.members.select_for_update().exclude(pk=ctx.member.pk):
                d = other.data if isinstance(other.data, dict) else {}
                other_unit = d.get("unit") if isinstance(d.get("unit"), str) else ""
                same = " ".join(other_unit.split()).casefold() == unit.casefold()
                if same and d.get("unit_leader") is True:
                    other.data = {**d, "unit_leader": False}
                    other.save(update_fields=["data"])


class AddEquipmentForm(ActionForm):
    """Buy a piece of equipment on top of the profile's own: applied as it is picked."""

    label = _("Buy")
    live = True

    item = forms.ChoiceField(label=_("Buy equipment"))

    def setup(self) -> None:
        kit = self.catalogue.choices(Item.Category.EQUIPMENT, _equipment_label)
        self.fields["item"].choices = [("", gettext("Buy equipment…")), *kit]

    def clean_item(self) -> Item:
        item = self.catalogue.get(self.cleaned_data["item"], Item.Category.EQUIPMENT)
        if item is None:
            raise forms.ValidationError(_("Choose a piece of equipment from the list."))
        return item

    def apply(self, ctx: ActionContext) -> None:
        item: Item = self.cleaned_data["item"]
        entry: dict[str, Any] = {"name": item.name, "points": int(item.stats.get("points", 0))}
        if item.stats.get("notes"):
            entry["notes"] = str(item.stats["notes"])
        data = _data(ctx.member)
        data["equipment"] = [*(data.get("equipment") or []), entry]
        _save(ctx, data)


class RemoveEquipmentForm(ActionForm):
    label = _("Drop")

    index = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def clean_index(self) -> int:
        index = self.cleaned_data["index"]
        bought = _data(self.member).get("equipment") or []
        if index >= len(bought):
            raise forms.ValidationError(_("That equipment is gone already: reload the page."))
        return index

    def apply(self, ctx: ActionContext) -> None:
        data = _data(ctx.member)
        bought = list(data.get("equipment") or [])
        index = self.cleaned_data["index"]
        if index < len(bought):
            del bought[index]
        data["equipment"] = bought
        _save(ctx, data)


# --------------------------------------------------------------------------- the editor


class Gf26Editor(Editor):
    system_id = "gf26"
    gang_template = "editors/gf26/_gang.html"
    panel_template = "editors/gf26/_panel.html"
    stylesheet = "editors/gf26/editor.css"
    key_stats = ("MOV", "ATT", "MRK", "DEF", "EN")
    add_action = "add_member"
    roster_title = _("Models")
    empty_roster = _("No models yet: add one from a profile below.")
    gang_actions = {
        "add_member": AddMemberForm,
        "set_limit": SetLimitForm,
        "set_setting": SetSettingForm,
    }
    member_actions = {
        "rename": RenameForm,
        "unit": UnitForm,
        "perks": PerksForm,
        "add_equipment": AddEquipmentForm,
        "remove_equipment": RemoveEquipmentForm,
        "leader": LeaderForm,
        "edit_profile": EditProfileForm,
        "remove": RemoveForm,
    }
    content_kinds = (ProfileForm, EquipmentForm)

    def row(self, member: Member, figures: Any) -> dict[str, Any]:
        """Troop type, Party Leader and unit when it has them, then the profile."""
        row = super().row(member, figures)
        parts = [figures.troop_label]
        if figures.is_party_leader:
            parts.append(gettext("Party Leader"))
        if figures.unit:
            parts.append(gettext("Unit %(unit)s") % {"unit": figures.unit})
        if figures.profile_name:
            parts.append(figures.profile_name)
        row["kind"] = " · ".join(parts)
        return row

    def panel_context(self, member: Member, figures: Any) -> dict[str, Any]:
        data = _data(member)
        return {
            # The nine attributes after perks, each marked when a perk raised it.
            "stat_cells": [
                (
                    LABELS[a],
                    figures.attributes[a],
                    figures.attributes[a] != figures.base_attributes[a],
                )
                for a in ATTRIBUTES
            ],
            "kit": _entries(data["profile"].get("equipment")),
            # With each its place in the stored list, which "Drop" posts.
            "bought": [
                (i, e) for i, e in enumerate(data.get("equipment") or []) if isinstance(e, dict)
            ],
            "perk_names": ", ".join(p["name"] for p in figures.perks),
        }

    def extra_context(self, evaluated: Any, catalogue: Catalogue) -> dict[str, Any]:
        units = sorted({u["name"] for u in evaluated.report.gang.get("units", [])}, key=name_key)
        profiles = [
            {
                "item": i,
                "mark": mark(i),
                "troop": _troop_name(i.stats),
                "price": profile_price(i.stats),
                "line": profile_line(i.stats),
            }
            for i in catalogue.of(Item.Category.PROFILE)
        ]
        return {
            "gf26_units": units,
            "gf26_profiles": profiles,
            "gf26_limit_presets": LIMIT_PRESETS,
        }

    def all_good(self, evaluated: Any) -> str:
        report = evaluated.report
        legal = gettext("Nothing to fix: the gang is legal.")
        if report.limit is None:
            return legal
        left = report.limit - report.total
        if left > 0:
            more = ngettext(
                "%(left)s of the %(limit)s points is left to spend.",
                "%(left)s of the %(limit)s points are left to spend.",
                left,
            ) % {"left": left, "limit": report.limit}
        else:
            more = gettext("Every one of the %(limit)s points is spent.") % {"limit": report.limit}
        return f"{legal} {more}"

    def builtin_content(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = []
        equipment: dict[str, dict[str, Any]] = {}
        for profile in gf26.CONTENT["profiles"]:
            stats = {k: v for k, v in profile.items() if k not in ("id", "name", "sample")}
            entries.append(
                {
                    "category": Item.Category.PROFILE,
                    "name": profile["name"],
                    "stats": stats,
                    "is_sample": profile.get("sample", True),
                    "source": "Sample profile (the seed gives no numbers)",
                }
            )
            for e in profile.get("equipment", []):
                equipment.setdefault(e["name"], {k: v for k, v in e.items() if k != "name"})
        for name, stats in equipment.items():
            entries.append(
                {
                    "category": Item.Category.EQUIPMENT,
                    "name": name,
                    "stats": stats,
                    "is_sample": True,
                    "source": "Sample equipment (from the sample profiles)",
                }
            )
        return entries


EDITOR = Gf26Editor()
