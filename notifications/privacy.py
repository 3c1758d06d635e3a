"""The notifications' part of a user's data (accounts/services.py finds this module by
its name; the interface is written there).

- export: nothing. What waits on a user is computed, never stored; what is stored (the
  kinds they chose not to be mailed, the keys of what was mailed, the notices they have
  not dismissed) is not in the archive today;
- forgetting: nothing, as before: it stays with the inactive former member's row, which no
  one can log in to or mail (it has no address).
"""

from __future__ import annotations

from typing import Any

#: last of the apps: what waits on others is recounted by the parts before it
PRIVACY_ORDER = 50


def export_user_data(user) -> dict[str, Any]:
    return {}


def forget_user(user) -> None:
    """Nothing: see the module's docstring."""
