"""The header's count of what waits on the signed-in user (templates/base.html)."""

from __future__ import annotations

from django.http import HttpRequest

from notifications.services import count_for


def waiting(request: HttpRequest) -> dict:
    """``waiting_count``: a callable, so only a page that shows it (signed in) reads it,
    and then one cache key, never a query (notifications/services.py); ``None`` while it
    is being counted."""
    return {"waiting_count": lambda: count_for(request.user)}
