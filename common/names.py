"""A deleted account's name: its user row stays, inactive, named "former member #N" (a key:
spaces and "#", so no one can sign up with such a name), and every page shows that name in
the reader's language ("ancien membre n° N")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

#: the stored username of a deleted account (accounts/privacy.py ``forget_user``)
FORMER_MEMBER = "former member #{pk}"


def shown_username(username: str, pk: Any) -> str:
    """A username as a reader sees it: a former member's in the reader's language."""
    if username == FORMER_MEMBER.format(pk=pk):
        return gettext("former member #%(number)s") % {"number": pk}
    return username


def player_name(user: Any) -> str:
    """A user's name as a reader sees it (``shown_username`` of the user)."""
    if user is None:
        return ""
    return shown_username(user.get_username(), user.pk)
