"""Forms for every input the builder takes. Errors are shown beside the field."""

from __future__ import annotations

import re

from django import forms

from builder.models import Gang, Item
from rules import get_system, system_choices
from rules.roster import MAX_BYTES, RosterFileError, read_roster
from rules.systems import bwg1

MAX_LIMIT = 100_000
# The systems the browser builder edits; gangs of the others come in as roster files.
BUILDER_SYSTEMS = ("bwg1",)


class GangCreateForm(forms.Form):
    name = forms.CharField(max_length=100, label="Gang name")
    system = forms.ChoiceField(label="Game system")
    limit = forms.IntegerField(
        label="Fame limit",
        required=False,
        min_value=1,
        max_value=MAX_LIMIT,
        help_text="Optional. A first gang is usually about 400 Fame.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = [c for c in system_choices() if c[0] in BUILDER_SYSTEMS]
        self.fields["name"].widget.attrs["autocomplete"] = "off"


class RosterImportForm(forms.Form):
    """A roster file, uploaded or pasted. ``cleaned_data["roster"]`` is the checked roster."""

    file = forms.FileField(label="Roster file (.json)", required=False)
    text = forms.CharField(
        label="…or paste the file's text",
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )

    def clean(self):
        cleaned = super().clean()
        upload, text = cleaned.get("file"), cleaned.get("text", "").strip()
        if upload and text:
            raise forms.ValidationError("Choose a file or paste its text, not both.")
        if not upload and not text:
            raise forms.ValidationError("Choose a roster file, or paste its text.")
        if upload and upload.size > MAX_BYTES:
            self.add_error("file", f"The file is over {MAX_BYTES:,} bytes.")
            return cleaned
        field = "file" if upload else "text"
        try:
            cleaned["roster"] = read_roster(upload.read() if upload else text)
        except RosterFileError as e:
            self.add_problems(field, e)
        return cleaned

    def add_problems(self, field: str, error: RosterFileError) -> None:
        """Each problem beside the field, saying where in the file it is."""
        for problem in error.problems[:20]:
            self.add_error(field, str(problem))
        if len(error.problems) > 20:
            self.add_error(field, f"…and {len(error.problems) - 20} more problems.")


class GangSettingsForm(forms.Form):
    name = forms.CharField(max_length=100, label="Gang name")
    limit = forms.IntegerField(label="Fame limit", required=False, min_value=1, max_value=MAX_LIMIT)

    def __init__(self, *args, total_label: str = "Fame", **kwargs):
        kwargs.setdefault("prefix", "gang")
        super().__init__(*args, **kwargs)
        self.fields["limit"].label = f"{total_label} limit"

    @classmethod
    def for_gang(cls, gang: Gang) -> GangSettingsForm:
        return cls(
            initial={"name": gang.name, "limit": gang.limit},
            total_label=get_system(gang.system).total_label,
        )


class MemberAddForm(forms.Form):
    name = forms.CharField(max_length=100, label="Name")
    member_type = forms.ChoiceField(label="Type")

    def __init__(self, *args, system_id: str, **kwargs):
        kwargs.setdefault("prefix", "new")
        super().__init__(*args, **kwargs)
        system = get_system(system_id)
        self.fields["member_type"].choices = system.type_choices()
        self.fields["member_type"].initial = "henchman"


class MemberForm(forms.Form):
    name = forms.CharField(max_length=100, required=False, label="Name")
    member_type = forms.ChoiceField(label="Type")
    profession = forms.ChoiceField(label="Profession", required=False)

    def __init__(self, *args, system_id: str, **kwargs):
        super().__init__(*args, **kwargs)
        system = get_system(system_id)
        self.fields["member_type"].choices = system.type_choices()
        self.fields["profession"].choices = [("", "— none —"), *system.profession_choices()]


def _point_changes() -> list[tuple[str, str]]:
    return [
        (f"{a}:{sign}", f"{sign} {bwg1.ATTRIBUTE_LABELS[a]}")
        for a in bwg1.ATTRIBUTES
        for sign in ("+", "-")
    ]


class PointsForm(forms.Form):
    """One click on a + or - button beside an attribute."""

    change = forms.ChoiceField(choices=_point_changes)

    def __init__(self, *args, member_report=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.member_report = member_report

    def clean(self):
        cleaned = super().clean()
        change = cleaned.get("change")
        if not change or self.member_report is None:
            return cleaned
        attribute, sign = change.split(":")
        label = bwg1.ATTRIBUTE_LABELS[attribute]
        report = self.member_report
        if sign == "-" and report.spent[attribute] <= 0:
            raise forms.ValidationError(
                f"No points are spent on {label}: it is at its starting value."
            )
        if sign == "+":
            if report.attributes[attribute] >= bwg1.ATTRIBUTE_MAX:
                raise forms.ValidationError(
                    f"{label} is already {report.attributes[attribute]}; "
                    f"the most an attribute can be is {bwg1.ATTRIBUTE_MAX}."
                )
            if report.points_left <= 0:
                raise forms.ValidationError(
                    "No attribute points left: take one off another attribute first."
                )
        cleaned["attribute"] = attribute
        cleaned["delta"] = 1 if sign == "+" else -1
        return cleaned


class ItemChoiceForm(forms.Form):
    """Pick a catalogue item (built-in or the user's own) for a member."""

    item = forms.ModelChoiceField(
        queryset=Item.objects.none(),
        error_messages={
            "required": "Choose one from the list first.",
            "invalid_choice": "That is not in your catalogue: choose one from the list.",
        },
    )

    def __init__(self, *args, user, system_id: str, category: str, required=True, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["item"]
        field.queryset = Item.objects.available_to(user).filter(system=system_id, category=category)
        field.required = required


class MoveForm(forms.Form):
    direction = forms.ChoiceField(choices=[("up", "Up"), ("down", "Down")])


STRENGTH_RE = re.compile(r"^(M(\+[1-6])?|[1-9]|1[0-2])$")
TRAIT_CHOICES = [(t, t.capitalize()) for t in bwg1.WEAPON_TRAITS]


class WeaponForm(forms.Form):
    """A user's own bwg1 weapon."""

    name = forms.CharField(max_length=80)
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

    def __init__(self, *args, user, instance: Item | None = None, **kwargs):
        self.user = user
        self.instance = instance
        if instance is not None and "initial" not in kwargs:
            kwargs["initial"] = {"name": instance.name, **instance.stats}
        super().__init__(*args, **kwargs)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        mine = Item.objects.filter(
            owner=self.user, system="bwg1", category=Item.Category.WEAPON, name__iexact=name
        )
        if self.instance is not None:
            mine = mine.exclude(pk=self.instance.pk)
        if mine.exists():
            raise forms.ValidationError("You already have a weapon with this name.")
        return name

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

    def save(self) -> Item:
        from builder import services

        item = self.instance or Item(owner=self.user, system="bwg1", category=Item.Category.WEAPON)
        data = self.cleaned_data
        item.name = data["name"]
        item.stats = {
            "kind": data["kind"],
            "hands": data["hands"],
            "level": data["level"],
            "strength": data["strength"],
            "traits": [t for t in bwg1.WEAPON_TRAITS if t in data["traits"]],
        }
        return services.save_own_item(item)
