"""Play mode: a game at the table, kept as its log of taps.

A game's state (every member's counters, the turn, who took whom out) is never stored: it
is replayed by ``rules.play.replay`` from the gangs' snapshot and the taps, so an undo is
a tap too and the record drafted after the game can be trusted. ``version`` is the last
tap's seq: a phone that shows that version asks for nothing more.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.play import Tap


class Game(models.Model):
    GANG, ENCOUNTER, MATCH = "gang", "encounter", "match"
    SOURCES = [
        (GANG, _("A gang")),
        (ENCOUNTER, _("A campaign encounter")),
        (MATCH, _("A league match")),
    ]

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games_started"
    )
    players = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="games")
    system = models.CharField(max_length=20)
    name = models.CharField(max_length=200)
    #: the gangs' rosters as counters, when the game began (rules.play.setup)
    snapshot = models.JSONField(default=dict)
    source = models.CharField(max_length=10, choices=SOURCES, default=GANG)
    gang = models.ForeignKey(
        "builder.Gang", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    campaign = models.ForeignKey(
        "campaigns.Campaign", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    encounter = models.PositiveIntegerField(null=True, blank=True)  # its id in the log
    pairing = models.ForeignKey(
        "leagues.Pairing", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    scenario = models.CharField(max_length=120, blank=True)
    table_size = models.CharField(max_length=40, blank=True)
    version = models.PositiveIntegerField(default=0)
    #: the record drafted from this game has been submitted (to the campaign or league)
    submitted = models.BooleanField(default=False)
    #: the log's last word is "the game ended" (kept by each tap, for the list of games)
    ended = models.BooleanField(default=False)
    #: the secret of the read-only link a third phone follows the game by ("" = none)
    watch_token = models.CharField(max_length=43, blank=True, default="", db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated", "-id"]
        constraints = [
            # one game per encounter and per match: both players follow the same log
            models.UniqueConstraint(
                fields=["campaign", "encounter"],
                condition=Q(encounter__isnull=False),
                name="one_game_per_encounter",
            ),
            models.UniqueConstraint(
                fields=["pairing"], condition=Q(pairing__isnull=False), name="one_game_per_match"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def title(self) -> str:
        """The game's name in the reader's language: a campaign encounter's and a league
        match's are made from their parts (``snapshot["title"]``); a gang's is its name."""
        snapshot = self.snapshot if isinstance(self.snapshot, dict) else {}
        sides = [s.get("name", "") for s in snapshot.get("sides", [])]
        parts = snapshot.get("title") or {}
        if self.source == self.ENCOUNTER and len(sides) == 2 and "encounter" in parts:
            return gettext("%(a)s v %(b)s (encounter %(n)d)") % {
                "a": sides[0],
                "b": sides[1],
                "n": parts["encounter"],
            }
        if self.source == self.MATCH and len(sides) == 2 and "round" in parts:
            return gettext("%(a)s v %(b)s (%(league)s, round %(n)d)") % {
                "a": sides[0],
                "b": sides[1],
                "league": parts.get("league", ""),
                "n": parts["round"],
            }
        return self.name


class TapEvent(models.Model):
    """One tap: what it was, who made it, when. ``client_id`` is made by the phone, so a
    tap sent again (a lost answer, a queue replayed after a reload) is not counted twice."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="taps")
    seq = models.PositiveIntegerField()
    client_id = models.CharField(max_length=64)
    kind = models.CharField(max_length=12)
    data = models.JSONField(default=dict)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)  # when the server received it
    #: when the phone made it, on the server's clock (the phone's time corrected by its
    #: offset: an offline tap arrives later, and is put in the log where it was made)
    made_at = models.DateTimeField(null=True, blank=True)
    #: the phone that made it (a random id the browser keeps) and its number there
    phone = models.CharField(max_length=32, blank=True, default="")
    phone_seq = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_tap_per_seq"),
            models.UniqueConstraint(fields=["game", "client_id"], name="one_tap_per_client_id"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.kind}"

    def as_tap(self, username: str = "") -> Tap:
        made = self.made_at.isoformat() if self.made_at else ""
        at = self.at.isoformat()
        return Tap(self.seq, self.kind, self.data, username, at, made, self.phone, self.phone_seq)


class PhoneClock(models.Model):
    """How far a player's phone's clock is from the server's (``offset_ms``: add it to the
    phone's time): the smallest (received - sent) of its recent requests, since a request's
    time on the way only adds. Kept per player and phone, a few phones each."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    phone = models.CharField(max_length=32)
    offset_ms = models.BigIntegerField()
    measured = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "phone"], name="one_clock_per_phone")
        ]

    def __str__(self) -> str:
        return f"{self.phone}: {self.offset_ms} ms"
