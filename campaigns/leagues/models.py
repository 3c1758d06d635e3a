"""Clubs and their leagues: members and roles, a league's settings, registrations,
rounds, pairings and match reports.

The tables keep the names they had when these models lived in ``campaigns``
(``campaigns_club``, ``campaigns_league``...): the move was a change of state only (see
``migrations/0001_move_from_campaigns.py``), no data moved.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from campaigns.leagues import pairing
from campaigns.models import Campaign, CampaignGang, new_invite_token
from rules import system_choices


class Club(models.Model):
    """A club: its members play in its leagues. Joined by an invite link."""

    name = models.CharField(max_length=80)
    about = models.TextField(blank=True, max_length=2000)
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaigns_club"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubMember(models.Model):
    ORGANISER, MEMBER = "organiser", "member"
    ROLES = [(ORGANISER, gettext_lazy("Organiser")), (MEMBER, gettext_lazy("Member"))]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=10, choices=ROLES, default=MEMBER)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaigns_clubmember"
        ordering = ["joined"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


def new_public_token() -> str:
    return secrets.token_urlsafe(12)


class League(models.Model):
    """A season in a club: one game, a cap, scoring, tiebreakers and a way to pair."""

    REGISTRATION, RUNNING, FINISHED = "registration", "running", "finished"
    STATUSES = [
        (REGISTRATION, gettext_lazy("Registration")),
        (RUNNING, gettext_lazy("Running")),
        (FINISHED, gettext_lazy("Finished")),
    ]
    SWISS, ROUND_ROBIN = "swiss", "round_robin"
    PAIRINGS = [(SWISS, gettext_lazy("Swiss")), (ROUND_ROBIN, gettext_lazy("Round robin"))]
    RANDOM, FOLD = pairing.RANDOM, pairing.FOLD
    FIRST_ROUNDS = [
        (RANDOM, _("Drawn at random")),
        (FOLD, _("Top half against bottom half")),
    ]
    #: a Swiss league's rounds when none are given
    SWISS_ROUNDS = 5

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=80)
    system = models.CharField(max_length=20, choices=system_choices)
    cap = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy("Fame or points cap; empty: each gang's own limit."),
    )
    starts = models.DateField(null=True, blank=True)
    ends = models.DateField(null=True, blank=True)
    win_points = models.PositiveSmallIntegerField(default=3)
    draw_points = models.PositiveSmallIntegerField(default=1)
    loss_points = models.PositiveSmallIntegerField(default=0)
    #: tiebreakers after points, comma-separated ids from standings.TIEBREAKS
    tiebreaks = models.CharField(max_length=60, default="vp_diff,head_to_head,sos")
    pairing = models.CharField(max_length=12, choices=PAIRINGS, default=SWISS)
    #: empty: a round robin plays everyone once (set when its first round is paired),
    #: a Swiss league SWISS_ROUNDS
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(50)]
    )
    #: how round 1 is drawn (pairing.first_round)
    first_round = models.CharField(max_length=8, choices=FIRST_ROUNDS, default=RANDOM)
    #: the seed a random round 1 was drawn with (pairing.seeded_order): the draw can be
    #: made again from it and the registrations in the order they registered
    draw_seed = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    status = models.CharField(max_length=12, choices=STATUSES, default=REGISTRATION)
    public_token = models.CharField(max_length=32, unique=True, default=new_public_token)
    campaign = models.ForeignKey(
        Campaign,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="leagues",
        help_text=gettext_lazy("A campaign of the same game that confirmed results are fed into."),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaigns_league"
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    @property
    def tiebreak_list(self) -> list[str]:
        return [t for t in self.tiebreaks.split(",") if t]

    def planned_rounds(self, registered: int) -> int:
        """How many rounds the league plays with ``registered`` players (every
        registration, dropped or not): a round robin's number of rounds (or everyone
        against everyone: n - 1, n if odd), but never more than that; a Swiss league's."""
        if self.pairing == self.ROUND_ROBIN:
            full = pairing.round_robin_length(registered)
            return full if self.rounds is None else min(self.rounds, full)
        return self.SWISS_ROUNDS if self.rounds is None else self.rounds


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
    #: dropped by the organiser as a disqualification (``dropped`` is then set too)
    disqualified = models.BooleanField(default=False)
    registered = models.DateTimeField(auto_now_add=True)
    #: the gang's legality under the league's cap, checked at this gang version
    checked_version = models.PositiveIntegerField(default=0)
    legal = models.BooleanField(default=True)
    problems = models.TextField(blank=True)
    #: the running totals of its counted results (``campaigns/leagues/tallies.py``,
    #: ``standings.Tally``): kept up to date as results count, so that the standings
    #: never read every result of the league
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    byes = models.PositiveIntegerField(default=0)
    vp_for = models.PositiveIntegerField(default=0)
    vp_against = models.PositiveIntegerField(default=0)
    #: the sums of its opponents' won, drawn, lost and byes over every counted match
    opp_won = models.PositiveIntegerField(default=0)
    opp_drawn = models.PositiveIntegerField(default=0)
    opp_lost = models.PositiveIntegerField(default=0)
    opp_byes = models.PositiveIntegerField(default=0)
    #: its counted matches, for head-to-head: ",17w,23d,45l," (opponent, outcome)
    meetings = models.TextField(blank=True, default="")

    class Meta:
        db_table = "campaigns_registration"
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
        db_table = "campaigns_round"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="one_round_number")
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}


class Pairing(models.Model):
    """Two registrations who play each other in a round; ``b`` empty is a bye for ``a``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField(default=1)
    a = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        db_table = "campaigns_pairing"
        ordering = ["round__number", "table"]

    def __str__(self) -> str:
        return f"{self.round}: {self.a} v {self.b or 'bye'}"

    def save(self, *args, **kwargs) -> None:
        """Saved with the players' tallies (``campaigns/leagues/tallies.py``): a new bye
        counts at once; players swapped between tables are counted again."""
        from campaigns.leagues import tallies

        then = getattr(self, "_players_then", None)
        with transaction.atomic():
            super().save(*args, **kwargs)
            now = (self.a_id, self.b_id)
            if then is None and self.b_id is None:
                tallies.changed(self.round.league_id, [self.a_id])
            elif then is not None and then != now:
                tallies.changed(self.round.league_id, [*then, *now])
        self._players_then = now

    @classmethod
    def from_db(cls, db, field_names, values):
        pairing = super().from_db(db, field_names, values)
        pairing._players_then = (pairing.__dict__.get("a_id"), pairing.__dict__.get("b_id"))
        return pairing

    @property
    def is_bye(self) -> bool:
        return self.b_id is None


class MatchReport(models.Model):
    """What happened in a pairing, submitted by one player and confirmed by the other."""

    SUBMITTED, CONFIRMED, DISPUTED, SETTLED = "submitted", "confirmed", "disputed", "settled"
    STATUSES = [
        (SUBMITTED, gettext_lazy("Waiting for the opponent")),
        (CONFIRMED, gettext_lazy("Confirmed")),
        (DISPUTED, gettext_lazy("Disputed: the organiser settles it")),
        (SETTLED, gettext_lazy("Settled by the organiser")),
    ]
    WINNERS = [
        ("a", gettext_lazy("First player")),
        ("b", gettext_lazy("Second player")),
        ("draw", gettext_lazy("Draw")),
    ]

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

    class Meta:
        db_table = "campaigns_matchreport"

    def __str__(self) -> str:
        return f"{self.pairing}: {self.vp_a}-{self.vp_b}"

    def save(self, *args, **kwargs) -> None:
        """Saved with the players' tallies (``campaigns/leagues/tallies.py``) when what
        counts changed: confirmed, settled, or settled again with other values."""
        from campaigns.leagues import tallies

        then = getattr(self, "_counted_then", None)
        with transaction.atomic():
            super().save(*args, **kwargs)
            now = self._counted()
            if now != then:
                pairing = self.pairing
                tallies.changed(pairing.round.league_id, [pairing.a_id, pairing.b_id])
        self._counted_then = now

    @classmethod
    def from_db(cls, db, field_names, values):
        report = super().from_db(db, field_names, values)
        if {"status", "vp_a", "vp_b", "winner"} <= report.__dict__.keys():
            report._counted_then = report._counted()
        return report

    @property
    def counts(self) -> bool:
        """Only confirmed or settled results feed the standings."""
        return self.status in (self.CONFIRMED, self.SETTLED)

    def _counted(self) -> tuple | None:
        return (self.vp_a, self.vp_b, self.winner) if self.counts else None


class ReportEvent(models.Model):
    """One step in a match report's history: who did what, when, with the values then.
    Rows are only added: a result's story is kept as campaigns keep theirs."""

    KINDS = [
        ("submitted", gettext_lazy("Reported")),
        ("corrected", gettext_lazy("Corrected by the player who reported it")),
        ("confirmed", gettext_lazy("Confirmed")),
        ("disputed", gettext_lazy("Disputed")),
        ("settled", gettext_lazy("Settled by the organiser")),
    ]

    report = models.ForeignKey(MatchReport, on_delete=models.CASCADE, related_name="history")
    kind = models.CharField(max_length=10, choices=KINDS)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    values = models.JSONField(default=dict, blank=True)  # the result, reason or note then

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.report}: {self.kind}"
