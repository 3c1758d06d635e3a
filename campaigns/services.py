"""Everything that changes a campaign, each inside one transaction.

Views call these; they call the rules engine (``rules.campaign``), which says whether an
event is allowed and what it means. A change is always a new event in the log.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from builder.models import Gang
from builder.roster import export_roster
from campaigns import signals
from campaigns.models import Campaign, CampaignEvent, CampaignGang, new_invite_token
from common.recent import PerThread
from rules.campaign import (
    CampaignError,
    CampaignState,
    Checkpoints,
    prepare,
    progression_for,
)
from rules.dice import Dice

__all__ = [
    "CampaignError",
    "acting_gang_ids",
    "campaigns_for",
    "create_campaign",
    "get_campaign_for_user",
    "join_campaign",
    "record",
    "reset_invite",
    "state_of",
    "update_settings",
    "user_gang_ids",
]


def campaigns_for(user) -> QuerySet[Campaign]:
    """Campaigns the user organises or plays in."""
    return (
        Campaign.objects.filter(Q(organiser=user) | Q(gangs__player=user))
        .distinct()
        .select_related("organiser")
    )


def get_campaign_for_user(user, campaign_id: int) -> Campaign:
    """A campaign the user organises or plays in; anyone else gets a 404."""
    return get_object_or_404(campaigns_for(user), pk=campaign_id)


def user_gang_ids(campaign: Campaign, user) -> set[str]:
    """The ids (as the log names them) of the user's gangs in the campaign."""
    return {str(pk) for pk in campaign.gangs.filter(player=user).values_list("pk", flat=True)}


def acting_gang_ids(campaign: Campaign, user) -> set[str]:
    """The gangs the user acts for in an encounter: their own and, for the organiser, the
    gangs of players who deleted their account (what such a player owed, a record to make
    or confirm, death rolls, showdown answers, becomes the organiser's to do)."""
    gangs = Q(player=user)
    if campaign.organiser_id == getattr(user, "pk", None):
        gangs |= Q(player__is_active=False)
    return {str(pk) for pk in campaign.gangs.filter(gangs).values_list("pk", flat=True)}


#: each thread's checkpoints of the campaigns it replayed lately (rules.campaign.Checkpoints:
#: a new event is applied to the state the thread had, not the whole log again), at most
#: CAMPAIGN_BOOKS of them, the least recently used dropped first
CAMPAIGN_BOOKS = 64
_books: PerThread[Checkpoints] = PerThread(CAMPAIGN_BOOKS)


def _book(campaign: Campaign) -> Checkpoints:
    settings = (campaign.system, campaign.house_rules, campaign.encounters)
    # (a book per language: the log's texts are written in the reader's as events apply)
    return _books.get(
        (campaign.pk, translation.get_language()),
        lambda book: book.fits(*settings),
        lambda: Checkpoints(*settings),
    )


def state_of(campaign: Campaign) -> CampaignState:
    """The campaign's state, replayed from its log (one query). The events this thread
    replayed for the campaign before are not applied again (their checkpoint is kept):
    the state is the same as a replay of the whole log, read it and don't change it."""
    events = [
        e.as_event(e.user.username if e.user else "")
        for e in campaign.events.select_related("user").order_by("seq")
    ]
    return _book(campaign).replay(events)


@transaction.atomic
def create_campaign(
    organiser,
    *,
    system: str,
    name: str,
    encounters: int,
    house_rules: Mapping[str, Any],
    solo_play: bool = False,
) -> Campaign:
    rules = progression_for(system).house_rules(house_rules)
    return Campaign.objects.create(
        organiser=organiser,
        system=system,
        name=name,
        encounters=encounters,
        house_rules=rules,
        solo_play=solo_play,
    )


@transaction.atomic
def update_settings(
    campaign: Campaign,
    *,
    name: str,
    encounters: int,
    house_rules: Mapping[str, Any],
    solo_play: bool | None = None,
) -> Campaign:
    """Name and agreed encounters; the house rules only while the campaign is set up
    (changing them later would rewrite what the log already means)."""
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    locked.name = name
    locked.encounters = encounters
    if solo_play is not None:
        locked.solo_play = solo_play
    if locked.status == "setup":
        locked.house_rules = progression_for(locked.system).house_rules(house_rules)
    elif house_rules and dict(house_rules) != dict(locked.house_rules):
        raise CampaignError(gettext_lazy("House rules can't change once the campaign has started."))
    locked.save()
    return locked


@transaction.atomic
def record(
    campaign: Campaign,
    user,
    kind: str,
    data: Mapping[str, Any],
    *,
    rng: random.Random | None = None,
) -> CampaignState:
    """Check one event against the campaign's log, roll its dice and append it.

    The campaign row is locked, so two players recording at once are put in order.
    Raises :class:`CampaignError` (nothing is written) if the rules refuse it.
    """
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if kind == "encounter_begun":
        check_sides(locked, data.get("gangs") or ())
    state = state_of(locked)
    dice = Dice(rng or random.SystemRandom())
    prepared = prepare(state, kind, data, dice)
    last = locked.events.order_by("-seq").values_list("seq", flat=True).first() or 0
    CampaignEvent.objects.create(
        campaign=locked,
        seq=last + 1,
        kind=kind,
        data=prepared,
        dice=[roll.to_dict() for roll in dice.log],
        user=user,
    )
    new = state_of(locked)
    Campaign.objects.filter(pk=locked.pk).update(status=new.status, updated=timezone.now())
    campaign.status = new.status
    signals.campaign_changed.send(Campaign, campaign=locked)  # what waits on its players
    return new


def check_sides(campaign: Campaign, gangs) -> None:
    """Two gangs of one player don't fight each other unless the organiser allows solo
    play: otherwise one person would record, confirm and roll for both sides."""
    if campaign.solo_play:
        return
    ids = [g for g in gangs if str(g).isdigit()]
    if len(ids) != 2 or ids[0] == ids[1]:
        return  # the engine says what is wrong with the pair
    players = campaign.gangs.filter(pk__in=ids).values_list("player__username", flat=True)
    names = set(players)
    if len(names) == 1 and len(players) == 2:
        raise CampaignError(
            _(
                "Both gangs are %(player)s's: one player can't play both sides of an "
                "encounter unless the organiser allows solo play in the campaign's settings."
            )
            % {"player": names.pop()},
            "gangs",
        )


@transaction.atomic
def replace_token(obj, field: str, make) -> Any:
    """A new secret link for ``obj`` (its ``field`` made anew by ``make``), under the
    row's lock: the old link no longer finds it. Campaign and club invites, league
    public links."""
    locked = type(obj).objects.select_for_update().get(pk=obj.pk)
    setattr(locked, field, make())
    locked.save(update_fields=[field])
    setattr(obj, field, getattr(locked, field))
    return obj


def reset_invite(campaign: Campaign) -> Campaign:
    """A new invite link for the campaign: the old one no longer finds it."""
    return replace_token(campaign, "invite_token", new_invite_token)


@transaction.atomic
def join_campaign(campaign: Campaign, user, gang: Gang) -> CampaignGang:
    """Join with a copy of one of the user's gangs (its roster as it is now)."""
    if gang.owner_id != user.pk:
        raise CampaignError(gettext_lazy("You can only join with one of your own gangs."), "gang")
    if gang.system != campaign.system:
        raise CampaignError(gettext_lazy("Pick a gang of this campaign's game."), "gang")
    # The campaign row is locked first, so joins made at the same moment come in order and
    # the same gang can't slip in twice (a database constraint stands behind this check).
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.gangs.filter(source=gang).exists():
        raise CampaignError(_("This gang has already joined the campaign."), "gang")
    entry = CampaignGang.objects.create(campaign=campaign, player=user, source=gang, name=gang.name)
    record(
        campaign,
        user,
        "gang_joined",
        {
            "gang": str(entry.pk),
            "name": gang.name,
            "player": user.username,
            "roster": export_roster(gang),
        },
    )
    return entry
