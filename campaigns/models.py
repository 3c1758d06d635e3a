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

from rules import system_choices
from rules.campaign import Event


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


class Campaign(models.Model):
    STATUS_CHOICES = [("setup", "Setting up"), ("running", "Running"), ("finished", "Finished")]

    system = models.CharField(max_length=20, choices=system_choices)
    name = models.CharField(max_length=80)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_campaigns"
    )
    encounters = models.PositiveSmallIntegerField(
        "encounters agreed",
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(30)],
        help_text="How many encounters each gang plays (Rivals recommends 4 to 6).",
    )
    house_rules = models.JSONField(default=dict, blank=True)
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
        return Event(
            self.seq,
            self.kind,
            self.data,
            username,
            self.created.isoformat() if self.created else "",
            tuple(self.dice or ()),
        )


# --------------------------------------------------------------------------- clubs


class Club(models.Model):
    """A club: its members play in its leagues. Joined by an invite link."""

    name = models.CharField(max_length=80)
    about = models.TextField(blank=True, max_length=2000)
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubMember(models.Model):
    ORGANISER, MEMBER = "organiser", "member"
    ROLES = [(ORGANISER, "Organiser"), (MEMBER, "Member")]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=10, choices=ROLES, default=MEMBER)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


def new_public_token() -> str:
    return secrets.token_urlsafe(12)


class League(models.Model):
    """A season in a club: one game, a cap, scoring, tiebreakers and a way to pair."""

    REGISTRATION, RUNNING, FINISHED = "registration", "running", "finished"
    STATUSES = [(REGISTRATION, "Registration"), (RUNNING, "Running"), (FINISHED, "Finished")]
    SWISS, ROUND_ROBIN = "swiss", "round_robin"
    PAIRINGS = [(SWISS, "Swiss"), (ROUND_ROBIN, "Round robin")]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=80)
    system = models.CharField(max_length=20, choices=system_choices)
    cap = models.PositiveIntegerField(
        null=True, blank=True, help_text="Fame or points cap; empty: each gang's own limit."
    )
    starts = models.DateField(null=True, blank=True)
    ends = models.DateField(null=True, blank=True)
    win_points = models.PositiveSmallIntegerField(default=3)
    draw_points = models.PositiveSmallIntegerField(default=1)
    loss_points = models.PositiveSmallIntegerField(default=0)
    #: tiebreakers after points, comma-separated ids from campaigns.league.TIEBREAKS
    tiebreaks = models.CharField(max_length=60, default="vp_diff,head_to_head,sos")
    pairing = models.CharField(max_length=12, choices=PAIRINGS, default=SWISS)
    rounds = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(50)]
    )
    status = models.CharField(max_length=12, choices=STATUSES, default=REGISTRATION)
    public_token = models.CharField(max_length=32, unique=True, default=new_public_token)
    campaign = models.ForeignKey(
        Campaign,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="leagues",
        help_text="A campaign of the same game that confirmed results are fed into.",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    @property
    def tiebreak_list(self) -> list[str]:
        return [t for t in self.tiebreaks.split(",") if t]


class Registration(models.Model):
    """A player's gang in a league (the gang stays the player's own, and live)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_registrations"
    )
    gang = models.ForeignKey(
        "builder.Gang", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    gang_name = models.CharField(max_length=80)  # as registered, should the gang go
    campaign_gang = models.ForeignKey(
        CampaignGang, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    dropped = models.BooleanField(default=False)
    registered = models.DateTimeField(auto_now_add=True)
    #: the gang's legality under the league's cap, checked at this gang version
    checked_version = models.PositiveIntegerField(default=0)
    legal = models.BooleanField(default=True)
    problems = models.TextField(blank=True)

    class Meta:
        ordering = ["registered"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="one_registration")
        ]

    def __str__(self) -> str:
        return f"{self.player} — {self.gang_name}"


class Round(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="one_round_number")
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


class Pairing(models.Model):
    """Two registrations who play each other in a round; ``b`` empty is a bye for ``a``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField(default=1)
    a = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        ordering = ["round__number", "table"]

    def __str__(self) -> str:
        return f"{self.round}: {self.a} v {self.b or 'bye'}"

    @property
    def is_bye(self) -> bool:
        return self.b_id is None


class MatchReport(models.Model):
    """What happened in a pairing, submitted by one player and confirmed by the other."""

    SUBMITTED, CONFIRMED, DISPUTED, SETTLED = "submitted", "confirmed", "disputed", "settled"
    STATUSES = [
        (SUBMITTED, "Waiting for the opponent"),
        (CONFIRMED, "Confirmed"),
        (DISPUTED, "Disputed: the organiser settles it"),
        (SETTLED, "Settled by the organiser"),
    ]
    WINNERS = [("a", "First player"), ("b", "Second player"), ("draw", "Draw")]

    pairing = models.OneToOneField(Pairing, on_delete=models.CASCADE, related_name="report")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    scenario = models.CharField(max_length=80, blank=True)
    deployment = models.CharField(max_length=80, blank=True)
    vp_a = models.PositiveIntegerField(default=0)
    vp_b = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=4, choices=WINNERS)
    casualties = models.TextField(blank=True, max_length=2000)
    notes = models.TextField(blank=True, max_length=4000)
    status = models.CharField(max_length=10, choices=STATUSES, default=SUBMITTED)
    dispute = models.TextField(blank=True, max_length=2000)
    settled_note = models.TextField(blank=True, max_length=2000)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.pairing}: {self.vp_a}-{self.vp_b}"

    @property
    def counts(self) -> bool:
        """Only confirmed or settled results feed the standings."""
        return self.status in (self.CONFIRMED, self.SETTLED)
