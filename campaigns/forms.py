"""Forms for the campaign pages (campaigns/views.py). Errors are shown beside the field.

A campaign's house rules depend on its game, so the set-up form carries every game's
house-rule fields, each named ``<system>-<rule>`` and grouped by game; only the chosen
game's group is read (the page shows every group without JavaScript, and CSS hides the
others where the browser can).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from builder.models import Gang
from campaigns.models import Campaign
from common.engine_words import shown
from rules import all_systems
from rules.campaign import progression_for

MAX_RULE = 1000  # the largest number a house rule may hold
#: the few house rules that are a penalty: (lowest, highest); "0 or less"
NEGATIVE_RULES = {"left_xp": (-MAX_RULE, 0)}
#: house rules that are a count of something, never 0
POSITIVE_RULES = {"per_advance", "old_hand_xp", "veteran_xp", "limit"}

RULE_LABELS = {
    "limit": _("Gang limit when joining"),
    "win_xp": _("Experience for winning"),
    "left_xp": _("Experience for leaving the table early"),
    "per_advance": _("Experience per advance"),
    "purse_per_game": _("Dollars per game"),
    "death_roll": _("Death rolls"),
    "old_hand_xp": _("Experience to become an Old Hand"),
    "veteran_xp": _("Experience to become a Veteran"),
}


def rule_label(name: str) -> str:
    return RULE_LABELS.get(name, name.replace("_", " ").capitalize())


def rule_field(name: str, default: Any, help_text: str) -> forms.Field:
    """A form field for one house rule, from its default value's type."""
    label = rule_label(name)
    if isinstance(default, bool):
        return forms.BooleanField(label=label, required=False, help_text=help_text)
    if name == "limit":
        return forms.IntegerField(
            label=label, required=False, min_value=1, max_value=100_000, help_text=help_text
        )
    low, high = NEGATIVE_RULES.get(name, (1 if name in POSITIVE_RULES else 0, MAX_RULE))
    return forms.IntegerField(label=label, min_value=low, max_value=high, help_text=help_text)


def rule_names(system_id: str) -> list[str]:
    """The house rules a game's campaigns may change (none for Rivals: the book's rules)."""
    progression = progression_for(system_id)
    return [name for name in progression.defaults if name in progression.rule_help]


def rule_fields(system_id: str) -> dict[str, forms.Field]:
    progression = progression_for(system_id)
    return {
        name: rule_field(name, progression.defaults[name], shown(progression.rule_help[name]))
        for name in rule_names(system_id)
    }


class HouseRulesMixin:
    """Reads the chosen game's house-rule fields (``<system>-<rule>``) into a dict."""

    def rule_groups(self) -> list[dict[str, Any]]:
        """Per game in the form: its id, name, bound fields, and the line shown when it
        has none."""
        groups = []
        for system in self.rule_systems:
            names = [f"{system.id}-{name}" for name in rule_names(system.id)]
            groups.append(
                {
                    "system": system,
                    "progression": progression_for(system.id),
                    "fields": [self[n] for n in names],
                    "none": _("%(game)s uses the book's rules: there are no house rules to set.")
                    % {"game": system.name}
                    if not names
                    else "",
                }
            )
        return groups

    def house_rules(self, system_id: str) -> dict[str, Any]:
        return {
            name: self.cleaned_data.get(f"{system_id}-{name}") for name in rule_names(system_id)
        }


class CampaignForm(HouseRulesMixin, forms.Form):
    """A new campaign: game, name, encounters agreed, and the game's house rules."""

    system = forms.ChoiceField(label=gettext_lazy("Game system"))
    name = forms.CharField(max_length=80, label=gettext_lazy("Campaign name"))
    encounters = forms.IntegerField(
        label=gettext_lazy("Encounters agreed"),
        min_value=1,
        max_value=30,
        initial=5,
        help_text=gettext_lazy("How many encounters each gang plays. Rivals recommends 4 to 6."),
    )
    solo_play = forms.BooleanField(
        label=_("Solo play"),
        required=False,
        help_text=_(
            "Allow one player to run both gangs of an encounter. Off: the two gangs of an "
            "encounter belong to two players."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rule_systems = list(all_systems())
        self.fields["system"].choices = [(s.id, s.name) for s in self.rule_systems]
        self.fields["name"].widget.attrs["autocomplete"] = "off"
        for system in self.rule_systems:
            defaults = progression_for(system.id).defaults
            for name, field in rule_fields(system.id).items():
                field.initial = defaults[name]
                self.fields[f"{system.id}-{name}"] = field

    def full_clean(self):
        super().full_clean()
        # Only the chosen game's house rules are read: the other games' fields may hold
        # anything (the browser sends every group) and must not stop the form.
        if not self.is_bound:
            return
        chosen = self.cleaned_data.get("system")
        for system in self.rule_systems:
            if system.id != chosen:
                for name in rule_names(system.id):
                    self._errors.pop(f"{system.id}-{name}", None)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(gettext_lazy("Give the campaign a name."))
        return name


class CampaignSettingsForm(HouseRulesMixin, forms.Form):
    """The organiser's settings: name, encounters agreed, and (while it is being set up)
    the house rules of the campaign's game."""

    name = forms.CharField(max_length=80, label=gettext_lazy("Campaign name"))
    encounters = forms.IntegerField(
        label=gettext_lazy("Encounters agreed"),
        min_value=1,
        max_value=30,
        help_text=gettext_lazy("How many encounters each gang plays. Rivals recommends 4 to 6."),
    )
    solo_play = CampaignForm.base_fields["solo_play"]

    def __init__(self, *args, campaign: Campaign, **kwargs):
        self.campaign = campaign
        if "initial" not in kwargs:  # a disabled field's value comes from here
            initial = {
                "name": campaign.name,
                "encounters": campaign.encounters,
                "solo_play": campaign.solo_play,
            }
            rules = progression_for(campaign.system).house_rules(campaign.house_rules)
            for name in rule_names(campaign.system):
                initial[f"{campaign.system}-{name}"] = rules.get(name)
            kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        self.rule_systems = [s for s in all_systems() if s.id == campaign.system]
        self.rules_locked = campaign.status != "setup"
        for name, field in rule_fields(campaign.system).items():
            field.disabled = self.rules_locked
            if self.rules_locked:
                field.help_text = gettext_lazy("Fixed once the campaign has started.")
            self.fields[f"{campaign.system}-{name}"] = field

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(gettext_lazy("Give the campaign a name."))
        return name


class JoinForm(forms.Form):
    """Which of the player's own gangs (of the campaign's game) joins."""

    gang = forms.ModelChoiceField(
        queryset=Gang.objects.none(),
        label=gettext_lazy("Your gang"),
        empty_label=gettext_lazy("Choose one of your gangs"),
        error_messages={
            "required": gettext_lazy("Choose the gang you join with."),
            "invalid_choice": gettext_lazy("Choose one of your own gangs of this game."),
        },
        help_text=gettext_lazy(
            "A copy of the gang as it is now joins: later changes in the builder "
            "don't change the campaign's gang."
        ),
    )

    def __init__(self, *args, user, campaign: Campaign, taken: Collection[int] = (), **kwargs):
        """``taken``: the user's builder gangs already in the campaign (a copy of a gang
        joins once). The gangs that can join are ``eligible``; when exactly one can, it
        is ``only`` and is chosen to begin with (with several, the player chooses)."""
        super().__init__(*args, **kwargs)
        gangs = user.gangs.filter(system=campaign.system).order_by("name", "pk")
        self.fields["gang"].queryset = gangs
        self.gangs = list(gangs)  # every gang of the game (one query)
        self.eligible = [gang for gang in self.gangs if gang.pk not in taken]
        self.only = self.eligible[0] if len(self.eligible) == 1 else None
        if self.only is not None and not self.is_bound:
            self.initial.setdefault("gang", self.only.pk)


class FinishForm(forms.Form):
    """Finishing before every gang played the agreed encounters needs a second yes."""

    confirm = forms.BooleanField(required=False)
