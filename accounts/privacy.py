"""The account's own part of a user's data (the interface: accounts/services.py).

- export: ``account.json``, the username, email address, when they joined and last
  logged in;
- forgetting: the user row stays, as a *former member* (no name, no address, no password,
  inactive, no groups or permissions), so everything that points at it reads as before
  with "former member #N" where the name was; the language they chose goes.

accounts/services.py writes this part first in the archive and forgets it last, after
every other app's (the row is what the others' records point at).
"""

from __future__ import annotations

import json
from typing import Any

from accounts.models import Profile
from common import names


def _when(value) -> str | None:
    return value.isoformat() if value else None


def export_user_data(user) -> dict[str, Any]:
    account = {
        "username": user.get_username(),
        "email": user.email,
        "joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
    }
    return {"account.json": json.dumps(account, indent=2, ensure_ascii=False)}


def forget_user(user) -> None:
    user.username = names.FORMER_MEMBER.format(pk=user.pk)
    user.email = ""
    user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    Profile.objects.filter(user=user).delete()  # the language they chose
