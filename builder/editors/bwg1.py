"""Blackwater Gulch v1.1.2: its builder has its own views (``builder/views.py``); here is
the content a pack can hold for it: weapons."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from builder.editors.base import Editor, EntryForm
from builder.models import Item
from rules.systems import bwg1

STRENGTH_RE = re.compile(r"^(M(\+[1-6])?|[1-9]|1[0-2])$")
TRAIT_CHOICES = [(t, t.capitalize()) for t in bwg1.WEAPON_TRAITS]


class WeaponForm(EntryForm):
    """A user's own bwg1 weapon."""

    category = Item.Category.WEAPON
    label = "Weapon"
    plural = "Weapons"

    kind = forms.ChoiceField(choices=[("ranged", "Ranged (uses RC)"), ("melee", "Melee (uses MC)")])
    hands = forms.TypedChoiceField(
        choices=[(1, "1-handed"), (2, "2-handed")], coerce=int, initial=1
    )
    level = forms.IntegerField(min_value=1, max_value=12, help_text="Adds to the member's XP.")
    strength = forms.CharField(
        max_length=4,
        required=False,
        label="Str",
        help_text='A number, or "M", "M+1", "M+2" for melee weapons. Leave empty if unknown.',
    )
    traits = forms.MultipleChoiceField(
        choices=TRAIT_CHOICES, required=False, widget=forms.CheckboxSelectMultiple
    )

    @classmethod
    def describe(cls, stats: dict[str, Any]) -> str:
        traits = ", ".join(t.capitalize() for t in stats.get("traits", []))
        strength = f", Str {stats['strength']}" if stats.get("strength") else ""
        return (
            f"{stats.get('kind', '?')}, {stats.get('hands', '?')}-handed, "
            f"level {stats.get('level', '?')}{strength}{', ' + traits if traits else ''}"
        )

    def clean_strength(self) -> str:
        value = self.cleaned_data["strength"].strip().upper().replace(" ", "")
        if value and not STRENGTH_RE.match(value):
            raise forms.ValidationError('Write a number from 1 to 12, or "M", "M+1" … "M+6".')
        return value

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("kind")
        traits = set(cleaned.get("traits") or [])
        if kind == "melee" and traits & bwg1.RANGED_TRAITS:
            names = ", ".join(sorted(t.capitalize() for t in traits & bwg1.RANGED_TRAITS))
            self.add_error("traits", f"{names} is a ranged trait: make the weapon ranged.")
        if kind == "ranged" and traits & bwg1.MELEE_TRAITS:
            self.add_error("traits", "Parry is a melee trait: make the weapon melee.")
        if kind == "ranged" and cleaned.get("strength", "").startswith("M"):
            self.add_error("strength", '"M" strengths are for melee weapons.')
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


class Bwg1Editor(Editor):
    system_id = "bwg1"
    content_kinds = (WeaponForm,)
    has_own_builder = True


EDITOR = Bwg1Editor()
