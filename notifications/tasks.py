"""Background tasks (common/background.py runs them by their dotted path)."""

from __future__ import annotations

from notifications import services


def send_batch(user_id: int) -> int:
    """Mail the user what waits on them and was not mailed yet (one message)."""
    return services.send_batch(user_id)


def refresh_count(user_id: int) -> int | None:
    """Count what waits on the user, for the header of every page."""
    return services.refresh_count(user_id)
