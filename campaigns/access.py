"""Who may do what in a campaign (views call these; the engine checks the rules).

- Anyone who is neither the organiser nor a player gets a 404 for every campaign URL
  (``services.get_campaign_for_user``), except the join page reached by its invite link.
- Only the players of the two gangs in an encounter record, confirm or dispute it, roll
  their own death rolls, and answer their own showdowns.
- Only a gang's player spends its CCP or dollars, recruits, or rides to Mexico.
- Only the organiser starts, finishes, settles disputes, undoes the last encounter and
  changes the settings. The organiser may also play (join with a gang).
"""

from __future__ import annotations

from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, resolve_url
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from campaigns.models import Campaign

#: the methods of a page that shows a form and takes its POST
PAGE_METHODS = ["GET", "HEAD", "POST"]
_IDS = ("campaign_id", "club_id", "league_id")


def post_only(page: str):
    """An action: POST does it; a GET (a reload, a typed URL, coming back from the login
    page) goes to ``page``, reversed with the URL's campaign, club or league id."""

    def decorator(view):
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                return view(request, *args, **kwargs)
            if request.method in ("GET", "HEAD"):
                return redirect(page, **{k: v for k, v in kwargs.items() if k in _IDS})
            return HttpResponseNotAllowed(["POST"])

        return wrapper

    return decorator


def login_required(view):
    """Log in first, then come back: to the page asked for (a GET), or to the campaign page
    a form was on (a POST: the action URLs only take POST). htmx requests are sent to the
    login page with ``HX-Redirect`` rather than getting it swapped into the page."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.method in ("GET", "HEAD"):
            back = request.get_full_path()
        elif "encounter_id" in kwargs:
            back = reverse("encounter_detail", args=[kwargs["campaign_id"], kwargs["encounter_id"]])
        elif "gang_id" in kwargs:
            back = reverse("campaign_gang", args=[kwargs["campaign_id"], kwargs["gang_id"]])
        elif "campaign_id" in kwargs:
            back = reverse("campaign_detail", args=[kwargs["campaign_id"]])
        else:
            back = request.path
        url = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': back})}"
        if request.htmx:
            return HttpResponseClientRedirect(url)
        return redirect(url)

    return wrapper


def is_organiser(campaign: Campaign, user) -> bool:
    return user.is_authenticated and campaign.organiser_id == user.pk


def require_organiser(campaign: Campaign, user) -> None:
    if not is_organiser(campaign, user):
        raise PermissionDenied("Only the campaign's organiser can do that.")


def require_player(gang_ids: set[str], gang_id: str) -> None:
    """``gang_ids``: the user's gangs in the campaign (``services.user_gang_ids``)."""
    if str(gang_id) not in gang_ids:
        raise PermissionDenied("Only that gang's player can do that.")
