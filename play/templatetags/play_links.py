"""Links to play mode from the pages of what a game is played for: the match's page keeps
a link to its game once the result is reported."""

from __future__ import annotations

from typing import Any

from django import template

from play.models import Game

register = template.Library()


@register.simple_tag(takes_context=True)
def game_at_the_table(
    context: Any, *, pairing: Any = None, campaign: Any = None, encounter: Any = None
) -> Game | None:
    """The game tracked at the table for this match or encounter, if the user plays in
    it (one query); None otherwise."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return None
    games = Game.objects.filter(players=user)
    if pairing is not None:
        return games.filter(pairing=pairing).only("pk").first()
    if campaign is not None and encounter is not None:
        return games.filter(campaign=campaign, encounter=encounter).only("pk").first()
    return None
