"""Campaigns: who organises and plays them, and their append-only log of events.

A campaign's state (every gang, member, encounter and standing) is never stored: it is
computed by ``rules.campaign.replay`` from the log, so history can be trusted and undoing
an encounter is itself a logged event. A gang joins as a *copy* (the roster is inside
its ``gang_joined`` event): nothing in a campaign changes the gang it came from.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from rules import system_choices
from rules.campaign import Event


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


class Campaign(models.Model):
    STATUS_CHOICES = [
        ("setup", gettext_lazy("Setting up")),
        ("running", gettext_lazy("Running")),
        ("finished", gettext_lazy("Finished")),
    ]

    system = models.CharField(max_length=20, choices=system_choices)
    name = models.CharField(max_length=80)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_campaigns"
    )
    encounters = models.PositiveSmallIntegerField(
        gettext_lazy("encounters agreed"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(30)],
        help_text=gettext_lazy("How many encounters each gang plays (Rivals recommends 4 to 6)."),
    )
    house_rules = models.JSONField(default=dict, blank=True)
    solo_play = models.BooleanField(
        _("solo play"),
        default=False,
        help_text=_(
            "Allow one player to run both gangs of an encounter (playing alone, or for "
            "someone away). Off: the two gangs of an encounter belong to two players."
        ),
    )
    #: the log's status, kept here only so lists can show it without a replay
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default="setup")
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return self.name


class CampaignGang(models.Model):
    """A player's gang in a campaign: a copy, taken when it joined."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="gangs")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_gangs"
    )
    source = models.ForeignKey(
        "builder.Gang", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=80)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "source"],
                condition=models.Q(source__isnull=False),
                name="a_gang_joins_a_campaign_once",
            )
        ]

    def __str__(self) -> str:
        return self.name


class AppendOnly(Exception):
    pass


class CampaignEvent(models.Model):
    """One entry of a campaign's log. Never changed or deleted once written."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    dice = models.JSONField(default=list, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="campaign_event_seq")
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id}#{self.seq} {self.kind}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise AppendOnly("a campaign's log is append-only: add an event instead")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly("a campaign's log is append-only: undo with a new event")

    def as_event(self, username: str = "") -> Event:
        data = self.data
        # A player who deleted their account (accounts/services.py) shows as the former
        # member their user row became, not the name written when the gang joined; only
        # when the user was loaded with the event (no query here).
        user = self._state.fields_cache.get("user")
        if self.kind == "gang_joined" and user is not None and not user.is_active:
            data = {**data, "player": user.get_username()}
        return Event(
            self.seq,
            self.kind,
            data,
            username,
            self.created.isoformat() if self.created else "",
            tuple(self.dice or ()),
        )


def new_public_token() -> str:
    """Kept here: migration 0002 (which made the league tables) names it. The leagues'
    own is ``campaigns.leagues.models.new_public_token``."""
    return secrets.token_urlsafe(12)
