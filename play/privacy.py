"""Play mode's part of a user's data (accounts/services.py finds this module by its name;
the interface is written there).

- export: ``games.json``, every game the user played in, with its whole log of taps
  (``play.services.games_data``);
- forgetting: nothing goes. A game is shared by its players and its log is theirs too;
  the user row stays (as a former member), so the games and taps read as before.
"""

from __future__ import annotations

from typing import Any

from play import services

#: after the leagues' part (a game may be played for a league's match)
PRIVACY_ORDER = 40


def export_user_data(user) -> dict[str, Any]:
    return {"games.json": services.games_data(user)}


def forget_user(user) -> None:
    """Nothing: see the module's docstring."""
