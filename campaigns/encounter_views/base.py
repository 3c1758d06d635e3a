"""What the encounter and gang views share: who is looking (:class:`Seat`), the dice
(:data:`RNG`), recording one event, and the refused forms shown again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.translation import gettext

from campaigns import access, services
from campaigns.encounter_forms import add_engine_error
from campaigns.models import Campaign
from rules.campaign import CampaignError, CampaignState, EncounterState, GangState

#: The dice the views roll with: None is the system's random. Tests set a seeded
#: ``random.Random`` here for predictable rolls.
RNG: random.Random | None = None

TIMES = "\u00d7 "  # "2 times Handgun reload"
MINUS = "\u2212"


@dataclass
class Seat:
    """Who is looking at which campaign: its state and what the user plays in it."""

    campaign: Campaign
    state: CampaignState
    mine: set[str]  # the user's gang ids in the campaign
    organiser: bool

    def plays(self, gang_id: str) -> bool:
        return str(gang_id) in self.mine


def seat_of(request: HttpRequest, campaign_id: int) -> Seat:
    campaign = services.get_campaign_for_user(request.user, campaign_id)
    return Seat(
        campaign,
        services.state_of(campaign),
        services.acting_gang_ids(campaign, request.user),  # (a former member's: organiser)
        access.is_organiser(campaign, request.user),
    )


def encounter_of(state: CampaignState, encounter_id: int) -> EncounterState:
    try:
        return state.encounter(encounter_id)
    except CampaignError:
        raise Http404("No such encounter in this campaign (it may have been undone).") from None


def gang_of(state: CampaignState, gang_id: int) -> GangState:
    gang = state.gangs.get(str(gang_id))
    if gang is None:
        raise Http404("No such gang in this campaign.")
    return gang


def record(request: HttpRequest, seat: Seat, kind: str, data: dict[str, Any]) -> CampaignState:
    """Record one event (``services.record``), with the views' dice."""
    return services.record(seat.campaign, request.user, kind, data, rng=RNG)


def require_player_or_organiser(seat: Seat, gang_id: str) -> None:
    if not (seat.organiser or seat.plays(gang_id)):
        raise PermissionDenied("Only that gang's player or the organiser can do that.")


def last_text(state: CampaignState) -> str:
    return state.log[-1].text if state.log else ""


def detail_url(campaign_id: int, encounter_id: int) -> str:
    return reverse("encounter_detail", args=[campaign_id, encounter_id])


def gang_url(campaign_id: int, gang_id: str) -> str:
    return reverse("campaign_gang", args=[campaign_id, gang_id])


def grouped(items: list[str]) -> list[str]:
    """["Handgun reload", "Handgun reload", "Horse"] -> ["2\u00d7 Handgun reload", "Horse"]."""
    counts = Counter(items)
    return [f"{n}{TIMES}{item}" if n > 1 else item for item, n in counts.items()]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (MINUS + str(-n) if n < 0 else "0")


# --------------------------------------------------------------------------- refused forms


@dataclass
class Failed:
    """A step's form that the engine or the form refused, to show instead of a fresh one."""

    step: str
    form: Any
    key: str = ""


@dataclass
class Action:
    """What a step's POST asks to record: the event's kind and data, once its form is
    valid; where the engine's refusal goes (``on_error``: the form's top by default)."""

    form: Any
    kind: str = ""  # "" while the form is invalid: nothing to record
    data: dict[str, Any] = field(default_factory=dict)
    key: str = ""
    on_error: Callable[[CampaignError], None] | None = None


def into(form, field_name: str) -> Callable[[CampaignError], None]:
    """An engine refusal, beside ``field_name`` of ``form`` (or on top)."""

    def on_error(error: CampaignError) -> None:
        add_engine_error(form, error, field_name)

    return on_error


def renumber(message: str, word: str, engine_n: int, shown_n: int) -> str:
    """The engine counts only the filled-in lines; the page counts them all. ``word`` is
    the message's start as the engine writes it, in the reader's language ("Line {number}",
    "Ligne {number}"), followed by a colon (with French spacing or not)."""
    prefix = word.format(number=engine_n)
    if message.startswith(prefix) and message[len(prefix) :].lstrip("\u00a0 ").startswith(":"):
        return word.format(number=shown_n) + message.removeprefix(prefix)
    return message


def stray_errors(failed: Failed | None, placed: list[Any]) -> list[str]:
    """The errors of a refused form the page has no place for any more (the state moved
    on, say): shown at the top so nothing is lost silently."""
    if failed is None or any(f is failed.form for f in placed if f is not None):
        return []
    errors = [str(e) for errs in failed.form.errors.values() for e in errs]
    hits = getattr(failed.form, "hits", None)
    if hits is not None:
        errors += [str(e) for f in hits.forms for errs in f.errors.values() for e in errs]
    return errors or [gettext("That can't be done now: the page below is up to date.")]
