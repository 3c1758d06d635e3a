"""A game followed by a third phone (a referee, the organiser, a spectator): a secret
read-only link, made, renewed or stopped by either player. The page needs no account and
shows no control; it polls its own URL like the table (204 while nothing changed)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from play import services
from play.views import LOG_LINES, _row, _shown

WATCH_POLL_SECONDS = 5


@login_required
@require_POST
def game_watch_link(request: HttpRequest, game_id: int) -> HttpResponse:
    """Make (``on``), renew (``new``: the old link stops) or stop (``off``) the link."""
    game = services.get_game_for_user(request.user, game_id)
    what = request.POST.get("watch", "")
    if what in ("on", "new", "off"):
        services.watch_link(game, on=what != "off")
        messages.success(
            request,
            _("Nobody can follow the game by its old link any more.")
            if what != "on"
            else _("The link is ready: send it to whoever follows the game."),
        )
    return redirect(reverse("play_game", args=[game.pk]) + "?watch=1#watch")


@require_http_methods(["GET", "HEAD"])
def game_watch(request: HttpRequest, token: str) -> HttpResponse:
    game = services.watched_game(token)
    if request.htmx and _shown(request) == game.version:
        return HttpResponse(status=204)
    state = services.state_of(game)
    sides = [
        {"side": side, "members": [_row(state, m) for m in side.members.values()]}
        for side in state.sides.values()
    ]
    context = {
        "game": game,
        "state": state,
        "tracker": state.tracker,
        "sides": sides,
        "turn_word": _(state.tracker.turn_word),
        "log": list(reversed(state.log[-LOG_LINES:])),
        "poll": WATCH_POLL_SECONDS,
    }
    template = "play/game_watch.html#watched" if request.htmx else "play/game_watch.html"
    response = render(request, template, context)
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"  # the link is the secret: never sent on
    return response
