"""A club's ratings across seasons: its ladder per game system and each player's page
(``campaigns/leagues/ratings.py``; docs/leagues.md, "Ratings").

Thin views: the club through ``services.get_club_for_user`` (a query that starts from
the user: anyone not in the club gets a 404, as every club page), one function of
``ratings``, render. Anonymous readers are sent to log in: the ratings span every league
of the club, and only a league has a public link (``/l/<token>/``), so no public link
covers them.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.access import login_required
from campaigns.leagues import ratings
from campaigns.leagues.services import get_club_for_user

READ_METHODS = ["GET", "HEAD"]


def _system(club, system: str | None) -> tuple[str, str, list[tuple[str, str]]]:
    systems = ratings.club_systems(club)
    names = dict(systems)
    if system is None:
        if not systems:
            raise Http404("No league in this club yet.")
        system = systems[0][0]
    if system not in names:
        raise Http404("No league of this game in this club.")
    return system, names[system], systems


@login_required
@require_http_methods(READ_METHODS)
def club_ratings(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_club_for_user(request.user, club_id)
    system, _, _ = _system(club, None)
    return redirect("ratings_ladder", club.pk, system)


@login_required
@require_http_methods(READ_METHODS)
def ratings_ladder(request: HttpRequest, club_id: int, system: str) -> HttpResponse:
    club = get_club_for_user(request.user, club_id)
    system, name, systems = _system(club, system)
    context = {
        "club": club,
        "system": system,
        "system_name": name,
        "systems": systems,
        **ratings.ladder_page(club, system),
    }
    return render(request, "leagues/ratings_ladder.html", context)


@login_required
@require_http_methods(READ_METHODS)
def ratings_player(request: HttpRequest, club_id: int, system: str, user_id: int) -> HttpResponse:
    club = get_club_for_user(request.user, club_id)
    system, name, _ = _system(club, system)
    page = ratings.player_page(club, system, user_id)
    if page is None:
        raise Http404("This player has not played in this club's leagues of this game.")
    context = {
        "club": club,
        "system": system,
        "system_name": name,
        "player_id": user_id,
        **page,
    }
    return render(request, "leagues/ratings_player.html", context)
