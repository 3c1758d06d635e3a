"""What the builder's gang page says about the leagues the gang plays in
(``templates/builder/_gang_leagues.html``): a builder template asks, the leagues answer,
and the builder's code never imports them."""

from __future__ import annotations

from typing import Any

from django import template

from campaigns.leagues.models import League, Registration
from campaigns.leagues.services import problem_sentences
from rules import get_system

register = template.Library()


@register.simple_tag
def gang_leagues(gang) -> list[dict[str, Any]]:
    """The leagues still open or running that ``gang`` is registered in (one query), each
    with its cap in the game's words and, if the gang breaks it, why."""
    if gang is None or getattr(gang, "pk", None) is None:
        return []
    registrations = (
        Registration.objects.filter(
            gang_id=gang.pk,
            dropped=False,
            league__status__in=[League.REGISTRATION, League.RUNNING],
        )
        .select_related("league__club")
        .order_by("league__name", "league_id")
    )
    out = []
    for r in registrations:
        league = r.league
        label = get_system(league.system).total_label
        out.append(
            {
                "league": league,
                "club": league.club,
                "cap": f"{league.cap} {label}" if league.cap is not None else "",
                "legal": r.legal,
                "problems": problem_sentences(r.problems.splitlines()) if not r.legal else [],
            }
        )
    return out
