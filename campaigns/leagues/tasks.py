"""Background work for the leagues: each round's result rows rendered before the public
page's next visitor asks for them.

After a league changes (a report, a round, a registration: ``campaigns.signals.
league_changed``), :func:`schedule_results` submits :func:`render_results`
(``common/background.py``), debounced by the league. The task reads the board as the
public page does and renders its rounds in every language the site offers, through the
same :func:`campaigns.leagues.board.results` the page uses: the rows land in the cache
under the keys the page reads, and only a round whose rows changed is rendered again.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from common.background import submit

#: seconds after the last change of a burst (a round paired, several reports at once)
RESULTS_DELAY = 2.0


def schedule_results(league_id: int) -> None:
    submit(
        "campaigns.leagues.tasks.render_results",
        key=f"league-results:{league_id}",
        delay=RESULTS_DELAY,
        league_id=league_id,
    )


def render_results(league_id: int) -> int:
    """Render the league's result rows in every language; how many languages were done
    (0 for a league that is gone)."""
    from campaigns.leagues.board import read_board, results
    from campaigns.leagues.models import League

    league = League.objects.filter(pk=league_id).first()
    if league is None:
        return 0
    board = read_board(league)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            results(board)
    return len(settings.LANGUAGES)
