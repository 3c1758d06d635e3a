"""Blackwater Gulch v1.1.2: build every member yourself.

Recruit (the first recruit is the Leader), then in the member's panel: name, type and
profession (applied on change), attribute points (- and + or a typed number), weapons
and a horse from the catalogue (each applied as it is picked), recruitment order and
removal. Weapons and horses are catalogue items (``MemberItem``); everything else is
``Member.data``, read by ``rules.systems.bwg1``. Content kind: weapons.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.db.models import Max
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext_lazy as _

from builder import services
from builder.editors.base import ActionContext, ActionForm, Editor, EntryForm
from builder.models import Gang, Item, Member, MemberItem
from rules.systems import bwg1

STRENGTH_RE = re.compile(r"^(M(\+[1-6])?|[1-9]|1[0-2])$")


# Choices are callables, drawn when a form is (in the reader's language: bwg1 in French
# uses the French book's terms), not once at import.
def profession_choices() -> list[tuple[str, str]]:
    return [("", str(_("— none —"))), *bwg1.SYSTEM.profession_choices()]


def trait_choices() -> list[tuple[str, str]]:
    """The weapon traits, named as the book of the reader's language names them."""
    return [(t, bwg1._trait_label(t)) for t in bwg1.WEAPON_TRAITS]


class WeaponForm(EntryForm):
    """A user's own bwg1 weapon."""

    category = Item.Category.WEAPON
    label = gettext_lazy("Weapon")
    plural = gettext_lazy("Weapons")

    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[
            ("ranged", gettext_lazy("Ranged (uses RC)")),
            ("melee", gettext_lazy("Melee (uses MC)")),
        ],
    )
    hands = forms.TypedChoiceField(
        label=gettext_lazy("Hands"),
        choices=[(1, gettext_lazy("1-handed")), (2, gettext_lazy("2-handed"))],
        coerce=int,
        initial=1,
    )
    level = forms.IntegerField(
        label=gettext_lazy("Level"),
        min_value=1,
        max_value=12,
        help_text=gettext_lazy("Adds to the member's XP."),
    )
    strength = forms.CharField(
        max_length=4,
        required=False,
        label=gettext_lazy("Str"),
        help_text=gettext_lazy(
            'A number, or "M", "M+1", "M+2" for melee weapons. Leave empty if unknown.'
        ),
    )
    traits = forms.MultipleChoiceField(
        label=gettext_lazy("Traits"),
        choices=trait_choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    @classmethod
    def describe(cls, stats: dict[str, Any]) -> str:
        """In French in the book's words: "à distance, à une main, niveau 4, Pistolet"."""
        traits = ", ".join(bwg1._trait_label(t) for t in stats.get("traits", []))
        line = gettext("%(kind)s, %(hands)s, level %(level)s") % {
            "kind": bwg1.kind_word(str(stats.get("kind", "?"))),
            "hands": bwg1.hands_word(stats.get("hands", 1)),
            "level": stats.get("level", "?"),
        }
        if stats.get("strength"):
            line += ", " + gettext("Str %(strength)s") % {"strength": stats["strength"]}
        return line + (", " + traits if traits else "")

    def clean_strength(self) -> str:
        value = self.cleaned_data["strength"].strip().upper().replace(" ", "")
        if value and not STRENGTH_RE.match(value):
            raise forms.ValidationError(
                gettext_lazy('Write a number from 1 to 12, or "M", "M+1" … "M+6".')
            )
        return value

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("kind")
        traits = set(cleaned.get("traits") or [])
        if kind == "melee" and traits & bwg1.RANGED_TRAITS:
            names = ", ".join(sorted(bwg1._trait_label(t) for t in traits & bwg1.RANGED_TRAITS))
            self.add_error(
                "traits",
                ngettext(
                    "%(names)s is a ranged trait: make the weapon ranged.",
                    "%(names)s are ranged traits: make the weapon ranged.",
                    len(traits & bwg1.RANGED_TRAITS),
                )
                % {"names": names},
            )
        if kind == "ranged" and traits & bwg1.MELEE_TRAITS:
            self.add_error(
                "traits",
                gettext("%(name)s is a melee trait: make the weapon melee.")
                % {"name": bwg1._trait_label("parry")},
            )
        if kind == "ranged" and cleaned.get("strength", "").startswith("M"):
            self.add_error("strength", gettext_lazy('"M" strengths are for melee weapons.'))
        return cleaned

    def stats(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "kind": data["kind"],
            "hands": data["hands"],
            "level": data["level"],
            "strength": data["strength"],
            "traits": [t for t in bwg1.WEAPON_TRAITS if t in data["traits"]],
        }


# --------------------------------------------------------------------------- gang actions


def _has_leader(gang: Gang) -> bool:
    return any(
        isinstance(m.data, dict) and m.data.get("type") == "leader" for m in gang.members.all()
    )


class RecruitForm(ActionForm):
    """Recruit a member: the Leader first, as the book has it (seed 002, p. 12); then
    recruitment order decides which Professional gets each other profession's +1."""

    label = _("Recruit")

    name = forms.CharField(max_length=100, label=_("Name"))
    member_type = forms.ChoiceField(label=_("Type"), choices=bwg1.SYSTEM.type_choices)

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        # The gang's report says whether it has its Leader yet (no query here).
        members = getattr(figures, "members", {}) or {}
        has_leader = any(r.type_id == "leader" for r in members.values())
        return {"member_type": "henchman" if has_leader else "leader"}

    def setup(self) -> None:
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    def apply(self, ctx: ActionContext) -> None:
        data = bwg1.SYSTEM.new_member(self.cleaned_data["member_type"])
        ctx.opened = services.append_member(
            ctx.gang, name=self.cleaned_data["name"].strip(), data=data
        )


# --------------------------------------------------------------------------- member actions


def _save(ctx: ActionContext, data: dict[str, Any], *fields: str) -> None:
    ctx.member.data = data
    ctx.member.save(update_fields=["data", *fields])


class DetailsForm(ActionForm):
    """Name, type and profession: each applies as soon as it changes."""

    label = _("Save")
    live = True

    name = forms.CharField(max_length=100, required=False, label=_("Name"))
    member_type = forms.ChoiceField(label=_("Type"), choices=bwg1.SYSTEM.type_choices)
    profession = forms.ChoiceField(
        label=_("Profession"),
        required=False,
        choices=profession_choices,
    )

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        data = member.data if member and isinstance(member.data, dict) else {}
        return {
            "name": member.name if member else "",
            "member_type": data.get("type", "henchman"),
            "profession": data.get("profession", ""),
        }

    def setup(self) -> None:
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    def apply(self, ctx: ActionContext) -> None:
        data = dict(ctx.member.data or {})
        member_type = self.cleaned_data["member_type"]
        profession = self.cleaned_data["profession"]
        # A Henchman has no profession: becoming one clears it rather than leave an error.
        # (A Henchman who is given one anyway keeps it, and the rules say what to change.)
        if member_type == "henchman" and data.get("type") != "henchman":
            profession = ""
        data["type"] = member_type
        data["profession"] = profession
        ctx.member.name = self.cleaned_data["name"].strip()
        _save(ctx, data, "name")


def _point_changes() -> list[tuple[str, str]]:
    return [
        (f"{a}:{sign}", f"{sign} {bwg1.ATTRIBUTE_LABELS[a]}")
        for a in bwg1.ATTRIBUTES
        for sign in ("+", "-")
    ]


class PointsForm(ActionForm):
    """Attribute points: a - or + button (``change``), or the attributes typed in."""

    label = _("Set attributes")
    live = True

    change = forms.ChoiceField(choices=_point_changes, required=False)

    def setup(self) -> None:
        for a in bwg1.ATTRIBUTES:
            self.fields[a] = forms.IntegerField(
                label=bwg1.ATTRIBUTE_LABELS[a], required=False, min_value=0, max_value=99
            )

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        return dict(getattr(figures, "attributes", {}) or {})

    def attribute_rows(self) -> list[tuple[Any, forms.BoundField, str, str]]:
        """Each attribute's figures (value, points spent, bonus) beside its number field,
        and what its - and + buttons say to a screen reader."""
        return [
            (
                a,
                self[a["id"]],
                _("Take a point off %(attribute)s") % {"attribute": a["name"]},
                _("Add a point to %(attribute)s") % {"attribute": a["name"]},
            )
            for a in self.figures.rows()
        ]

    def _check_raise(self, attribute: str, wanted: int) -> None:
        report = self.figures
        label = bwg1.ATTRIBUTE_LABELS[attribute]
        current = report.attributes[attribute]
        if wanted > bwg1.ATTRIBUTE_MAX:
            raise forms.ValidationError(
                _("%(attribute)s can be at most %(most)d.")
                % {"attribute": label, "most": bwg1.ATTRIBUTE_MAX},
                code="max",
            )
        needed = wanted - current
        if needed > report.points_left:
            if report.points_left <= 0:
                raise forms.ValidationError(
                    _("No attribute points left: take one off another attribute first.")
                )
            raise forms.ValidationError(
                ngettext(
                    "Only %(n)d point left: %(attribute)s can go up to %(most)d.",
                    "Only %(n)d points left: %(attribute)s can go up to %(most)d.",
                    report.points_left,
                )
                % {
                    "n": report.points_left,
                    "attribute": label,
                    "most": current + report.points_left,
                }
            )

    def clean(self):
        cleaned = super().clean()
        report = self.figures
        if report is None or self.errors:
            return cleaned
        deltas: dict[str, int] = {}
        change = cleaned.get("change")
        if change:
            attribute, sign = change.split(":")
            label = bwg1.ATTRIBUTE_LABELS[attribute]
            if sign == "-":
                if report.spent[attribute] <= 0:
                    raise forms.ValidationError(
                        _("No points are spent on %(attribute)s: it is at its starting value.")
                        % {"attribute": label}
                    )
                deltas[attribute] = -1
            else:
                self._check_raise(attribute, report.attributes[attribute] + 1)
                deltas[attribute] = 1
        else:
            for a in bwg1.ATTRIBUTES:
                wanted = cleaned.get(a)
                if wanted is None or wanted == report.attributes[a]:
                    continue
                lowest = report.attributes[a] - report.spent[a]
                if wanted < lowest:
                    self.add_error(
                        a,
                        _("%(attribute)s starts at %(lowest)d: it cannot go lower.")
                        % {"attribute": bwg1.ATTRIBUTE_LABELS[a], "lowest": lowest},
                    )
                    continue
                try:
                    self._check_raise(a, wanted)
                except forms.ValidationError as error:
                    self.add_error(a, error)
                    continue
                deltas[a] = wanted - report.attributes[a]
        cleaned["deltas"] = deltas
        return cleaned

    def apply(self, ctx: ActionContext) -> None:
        data = dict(ctx.member.data or {})
        points = dict(data.get("points") or {})
        for attribute, delta in self.cleaned_data["deltas"].items():
            points[attribute] = max(0, int(points.get(attribute, 0) or 0) + delta)
        data["points"] = points
        _save(ctx, data)


class ItemForm(ActionForm):
    """Pick a catalogue item for the member (built-in content or the gang's packs)."""

    category: str = ""
    live = True

    item = forms.ChoiceField(
        required=False,
        error_messages={
            "invalid_choice": _("That is not in your catalogue: choose one from the list.")
        },
    )

    def clean_item(self) -> Item | None:
        value = self.cleaned_data["item"]
        if not value:
            return None
        item = self.catalogue.get(value, self.category)
        if item is None:
            raise forms.ValidationError(
                _("That is not in your catalogue: choose one from the list.")
            )
        return item


class AddWeaponForm(ItemForm):
    label = _("Add")
    category = Item.Category.WEAPON

    def setup(self) -> None:
        field = self.fields["item"]
        field.label = _("Add a weapon")
        field.choices = [
            ("", _("Add a weapon…")),
            *self.catalogue.choices(self.category, weapon_label),
        ]

    def clean_item(self) -> Item:
        item = super().clean_item()
        if item is None:
            raise forms.ValidationError(_("Choose a weapon from the list first."))
        return item

    def apply(self, ctx: ActionContext) -> None:
        last = ctx.member.member_items.aggregate(last=Max("position"))["last"]
        MemberItem.objects.create(
            member=ctx.member, item=self.cleaned_data["item"], position=(last or 0) + 1
        )


class HorseForm(ItemForm):
    label = _("Set horse")
    category = Item.Category.HORSE

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        horses = [mi for mi in member.member_items.all() if mi.item.category == cls.category]
        return {"item": str(horses[0].item_id) if horses else ""}

    def setup(self) -> None:
        field = self.fields["item"]
        field.label = _("Horse")
        field.choices = [("", _("No horse")), *self.catalogue.choices(self.category, horse_label)]

    def apply(self, ctx: ActionContext) -> None:
        ctx.member.member_items.filter(item__category=self.category).delete()
        if self.cleaned_data["item"] is not None:
            MemberItem.objects.create(member=ctx.member, item=self.cleaned_data["item"])


class RemoveWeaponForm(ActionForm):
    label = _("Remove")

    member_item = forms.IntegerField(widget=forms.HiddenInput)

    def clean_member_item(self) -> int:
        pk = self.cleaned_data["member_item"]
        if not any(mi.pk == pk for mi in self.member.member_items.all()):
            raise forms.ValidationError(_("That weapon is gone already: reload the page."))
        return pk

    def apply(self, ctx: ActionContext) -> None:
        ctx.member.member_items.filter(pk=self.cleaned_data["member_item"]).delete()


class MoveForm(ActionForm):
    """Recruit earlier or later: recruitment order decides which Professional gets the
    first-of-profession bonus (the Leader has his profession's wherever he is listed)."""

    label = _("Move")

    direction = forms.ChoiceField(choices=[("up", _("Earlier")), ("down", _("Later"))])

    def apply(self, ctx: ActionContext) -> None:
        members = list(ctx.gang.members.select_for_update().order_by("position", "id"))
        index = next(i for i, m in enumerate(members) if m.pk == ctx.member.pk)
        other = index - 1 if self.cleaned_data["direction"] == "up" else index + 1
        if not 0 <= other < len(members):
            return
        members[index], members[other] = members[other], members[index]
        changed = []
        for position, m in enumerate(members):
            if m.position != position:
                m.position = position
                changed.append(m)
        type(ctx.member).objects.bulk_update(changed, ["position"])


class RemoveForm(ActionForm):
    label = _("Remove")

    def apply(self, ctx: ActionContext) -> None:
        ctx.removed = services.remove_member(ctx.member)  # Undo brings it back


def weapon_label(w: Item) -> str:
    return _("%(name)s (level %(level)s, %(kind)s)") % {
        "name": bwg1.item_name(w.name, "weapons"),
        "level": w.stats.get("level", "?"),
        "kind": bwg1.kind_word(str(w.stats.get("kind", "?"))),
    }


def horse_label(h: Item) -> str:
    return _('%(name)s (%(xp)s XP, %(speed)s")') % {
        "name": bwg1.item_name(h.name, "horses"),
        "xp": h.stats.get("xp", "?"),
        "speed": h.stats.get("speed", "?"),
    }


class Bwg1Editor(Editor):
    system_id = "bwg1"
    gang_template = "editors/bwg1/_gang.html"
    panel_template = "editors/bwg1/_panel.html"
    stylesheet = "editors/bwg1/editor.css"
    weapon_catalogue = True
    summary_template = "editors/bwg1/_summary.html"
    readonly_template = "editors/bwg1/_member_readonly.html"
    key_stats = ("RC", "MC", "HP")
    add_action = "recruit"
    gang_actions = {"recruit": RecruitForm}
    member_actions = {
        "details": DetailsForm,
        "points": PointsForm,
        "add_weapon": AddWeaponForm,
        "remove_weapon": RemoveWeaponForm,
        "horse": HorseForm,
        "move": MoveForm,
        "remove": RemoveForm,
    }
    content_kinds = (WeaponForm,)

    def row(self, member: Member, figures: Any) -> dict[str, Any]:
        row = super().row(member, figures)
        row["kind"] = figures.type_label + (
            f" · {figures.profession_label}" if figures.profession_label else ""
        )
        return row

    def panel_context(self, member: Member, figures: Any) -> dict[str, Any]:
        weapons = [mi for mi in member.member_items.all() if mi.item.category == "weapon"]
        # Weapons stored beside the engine's figures for them (same order).
        return {"weapons": list(zip(weapons, figures.weapons, strict=False))}

    def all_good(self, evaluated: Any) -> str:
        left = sum(max(r.points_left, 0) for r in evaluated.report.members.values())
        if left:
            return ngettext(
                "Nothing to fix: the gang is legal. %(n)d attribute point is not spent yet.",
                "Nothing to fix: the gang is legal. %(n)d attribute points are not spent yet.",
                left,
            ) % {"n": left}
        return _("Nothing to fix: the gang is legal and every attribute point is spent.")


EDITOR = Bwg1Editor()
