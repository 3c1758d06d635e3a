"""The campaigns' part of a user's data (accounts/services.py finds this module by its
name; the interface is written there).

- export: ``campaigns.json``, each campaign the user organises or plays in, with its log's
  events that are the user's (recorded by them, or naming one of their gangs; every event
  of a campaign they organise);
- forgetting: a campaign they organise that others play in passes to the player who joined
  it first (told through ``accounts.signals.handed_over``); one nobody else plays in goes.
  Their gangs in campaigns and the log stay (the user row stays, as a former member).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse

from accounts.signals import handed_over
from campaigns.models import Campaign, CampaignGang

#: after the builder's part, before the leagues' (as accounts/services.py did it)
PRIVACY_ORDER = 20


def _when(value) -> str | None:
    return value.isoformat() if value else None


def _history(user) -> list[dict[str, Any]]:
    campaigns = (
        Campaign.objects.filter(Q(organiser=user) | Q(gangs__player=user))
        .distinct()
        .order_by("pk")
        .prefetch_related("events__user", "gangs")
    )
    history = []
    for campaign in campaigns:
        mine = {str(g.pk) for g in campaign.gangs.all() if g.player_id == user.pk}
        organiser = campaign.organiser_id == user.pk
        events = []
        for event in campaign.events.all():
            data = event.data if isinstance(event.data, dict) else {}
            named: set[str] = set()
            for key in ("gang", "gangs", "challenger", "challenged"):
                value = data.get(key)
                values = value if isinstance(value, list) else [value]
                named.update(str(v) for v in values if v is not None)
            if organiser or event.user_id == user.pk or named & mine:
                events.append(
                    {
                        "seq": event.seq,
                        "kind": event.kind,
                        "data": event.data,
                        "dice": event.dice,
                        "by": event.user.get_username() if event.user else None,
                        "at": _when(event.created),
                    }
                )
        history.append(
            {
                "id": campaign.pk,
                "name": campaign.name,
                "system": campaign.system,
                "status": campaign.status,
                "organiser": organiser,
                "gangs": [
                    {"id": g.pk, "name": g.name, "joined": _when(g.joined)}
                    for g in campaign.gangs.all()
                    if g.player_id == user.pk
                ],
                "events": events,
            }
        )
    return history


def export_user_data(user) -> dict[str, Any]:
    return {"campaigns.json": _history(user)}


def heir(campaign: Campaign, user):
    """Who organises the campaign when ``user`` leaves: the player who joined it first
    (another active user), or None."""
    gang = (
        CampaignGang.objects.filter(campaign=campaign, player__is_active=True)
        .exclude(player=user)
        .select_related("player")
        .order_by("joined", "pk")
        .first()
    )
    return gang.player if gang else None


def forget_user(user) -> None:
    for campaign in Campaign.objects.select_for_update().filter(organiser=user):
        new = heir(campaign, user)
        if new is None:
            campaign.delete()  # a league that fed it keeps its results, unlinked
        else:
            campaign.organiser = new
            campaign.save(update_fields=["organiser"])
            handed_over.send(
                Campaign,
                heir=new,
                name=campaign.name,
                url=reverse("campaign_detail", args=[campaign.pk]),
            )


def owned_counts(user) -> dict[str, int]:
    return {"campaigns": Campaign.objects.filter(organiser=user).count()}


def deletion_plan(user) -> dict[str, Any]:
    """The campaigns the user organises, each with who would organise it (None: it goes)."""
    return {
        "campaigns": [
            {"name": c.name, "heir": heir(c, user)}
            for c in Campaign.objects.filter(organiser=user).order_by("name")
        ]
    }
