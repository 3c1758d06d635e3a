"""What an account does: confirm a new email address, gather everything a user owns into
one archive, and delete the account.

Deleting an account (``delete_account``) is what a club would expect of a player who
leaves:

- their gangs and content packs go (a pack whose entries another player's gang still
  carries stays, with only those entries, so that gang is not broken);
- their results stay: the user row is kept as a *former member* (no name, no address, no
  password, inactive), so every league's standings and every campaign's log read as
  before, with "former member #N" where the name was;
- a running league stops pairing them (dropped, results kept); a league still taking
  registrations forgets them;
- a campaign they organise that others play in passes to the player who joined it first;
  one nobody else plays in goes;
- a club they organise alone passes to its longest-standing member (as organiser); a club
  with no other member goes, unless other players' results are in its leagues (then it
  stays, under the former member). They leave every other club;
- each new organiser with an address is told by mail.

Each app does its own part of this, and of the data download, in its ``privacy.py``
(the interface: "my data" below); this module imports none of them.
"""

from __future__ import annotations

import io
import json
import secrets
import zipfile
from collections.abc import Callable
from types import ModuleType
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from accounts import privacy as own_part
from accounts.forms import email_taken
from accounts.language import language_of
from common import background, names
from common.discovery import app_modules

EMAIL_SALT = "accounts.email-change"
REVERT_SALT = "accounts.email-revert"
FORMER_MEMBER = names.FORMER_MEMBER  # spaces and "#": no one can sign up with such a name


class AccountError(ValueError):
    """Refused: the message says why, for the user."""


# --------------------------------------------------------------------------- email address


def _send(template: str, context: dict[str, Any], to: str) -> None:
    subject = " ".join(render_to_string(f"accounts/email/{template}_subject.txt", context).split())
    body = render_to_string(f"accounts/email/{template}.txt", context)
    background.submit("accounts.tasks.send_mail", subject=subject, body=body, to=[to])


def email_change_token(user, email: str) -> str:
    """A signed link's token: this user, this new address, from the address they have now
    (so a link stops working once the address changes, by it or any other way)."""
    return signing.dumps({"u": user.pk, "e": email, "was": user.email or ""}, salt=EMAIL_SALT)


def request_email_change(user, email: str, link: Callable[[str], str]) -> None:
    """Mail a confirmation link (``link(token)`` is its full URL) to the NEW address."""
    token = email_change_token(user, email)
    days = max(1, settings.EMAIL_CONFIRMATION_SECONDS // 86400)
    context = {"user": user, "email": email, "link": link(token), "days": days}
    _send("confirm_email", context, email)


def offer_address(user, email: str, link: Callable[[str], str]) -> None:
    """An address typed at sign-up or on the email page: a confirmation link goes to it
    (``request_email_change``); if another account uses it, its owner gets a short notice
    instead, and the page that follows says the same either way (whether an address
    belongs to someone is never shown)."""
    if not email:
        return
    if email_taken(email, other_than=user):
        _send("address_taken", {"email": email}, email)
    else:
        request_email_change(user, email, link)


def read_email_change(user, token: str) -> str:
    """The new address a token asks for, or AccountError saying why it cannot be used."""
    try:
        data = signing.loads(token, salt=EMAIL_SALT, max_age=settings.EMAIL_CONFIRMATION_SECONDS)
    except signing.SignatureExpired:
        raise AccountError(
            _("This confirmation link has expired. Ask for a new one from your account page.")
        ) from None
    except signing.BadSignature:
        raise AccountError(
            _("This confirmation link is not valid. Copy the whole link from the mail.")
        ) from None
    if not isinstance(data, dict) or data.get("u") != user.pk:
        raise AccountError(
            _(
                "This confirmation link was sent for another account. Log in to the "
                "account that asked for it, then open the link again."
            )
        )
    if data.get("was", "") != (user.email or ""):
        raise AccountError(
            _("This link is out of date: your address has changed since it was sent.")
        )
    email = str(data.get("e", ""))
    if email_taken(email, other_than=user):
        raise AccountError(_("Another account uses this email address now."))
    return email


def confirm_email_change(user, token: str, revert_link: Callable[[str], str] | None = None) -> str:
    """Change the address to the one the token was sent to; the old address (if any) is
    told, with a one-time link that takes the account back (``revert_link(token)`` is its
    full URL; see :func:`revert_email_change`). Returns the new address."""
    User = get_user_model()
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        email = read_email_change(locked, token)
        old = locked.email
        locked.email = email
        locked.save(update_fields=["email"])
    user.email = email
    if old:
        token = signing.dumps(
            {"u": user.pk, "old": old, "new": email, "s": _revert_stamp(locked)}, salt=REVERT_SALT
        )
        days = max(1, settings.EMAIL_CONFIRMATION_SECONDS // 86400)
        context = {
            "user": user,
            "email": email,
            "old": old,
            "days": days,
            "link": revert_link(token) if revert_link else "",
        }
        _send("email_changed", context, old)
    return email


def _revert_stamp(user) -> str:
    """The account as a "this wasn't me" link found it: its address and password. A link
    works only while both are as they were (so once: using it changes both)."""
    return salted_hmac(REVERT_SALT, f"{user.pk}:{user.email}:{user.password}").hexdigest()[:32]


def read_email_revert(token: str) -> tuple[Any, str, str]:
    """(the user, the old address, the new one) a "this wasn't me" link is for, or
    AccountError saying why it cannot be used (expired, tampered, already used: the
    address is no longer the one it moved to)."""
    try:
        data = signing.loads(token, salt=REVERT_SALT, max_age=settings.EMAIL_CONFIRMATION_SECONDS)
    except signing.SignatureExpired:
        raise AccountError(
            _("This link has expired. Ask your club's organiser or the site's admin for help.")
        ) from None
    except signing.BadSignature:
        raise AccountError(
            _("This link is not valid. Copy the whole link from the mail.")
        ) from None
    User = get_user_model()
    user = (
        User.objects.filter(pk=data.get("u"), is_active=True).first()
        if isinstance(data, dict)
        else None
    )
    if user is None:
        raise AccountError(_("This link is not valid. Copy the whole link from the mail."))
    if (user.email or "").casefold() == str(data.get("old", "")).casefold():
        raise AccountError(_("This link was used already: the account has this address again."))
    if not constant_time_compare(str(data.get("s", "")), _revert_stamp(user)):
        raise AccountError(
            _(
                "This link no longer works: the account's address or password has changed "
                "since it was sent. If someone else has your account, ask your club's "
                "organiser or the site's admin for help."
            )
        )
    return user, str(data["old"]), str(data["new"])


def revert_email_change(token: str) -> Any:
    """The "this wasn't me" link: the address goes back to the old one, and the password
    becomes a random one nobody knows, which logs out every session (Django checks the
    password's hash on each request); the owner sets a new password by a reset mailed to
    their own address (a random password, not an unusable one: Django mails no reset for
    an unusable password).
    One use, and only while the account is as the link found it: a later change of address
    or password (the owner's own, or the link's use) makes it void (issue 27: it used to
    work again after the owner moved on to a third address on purpose)."""
    User = get_user_model()
    with transaction.atomic():
        user, old, _new = read_email_revert(token)
        user = User.objects.select_for_update().get(pk=user.pk)
        read_email_revert(token)  # again, the row locked: nothing changed meanwhile
        user.email = old
        user.set_password(secrets.token_urlsafe(32))
        user.save(update_fields=["email", "password"])
    return user


# --------------------------------------------------------------------------- my data
#
# Each app holds its part of a user's data in its module ``<app>/privacy.py``, found by
# that name among the installed apps (common/discovery.py): accounts imports no app
# (tests/test_privacy.py). The interface:
#
# - ``export_user_data(user) -> dict``: the app's files in the archive, by name (a str or
#   bytes value is the file's content; any other value is written as JSON, indented by
#   two spaces, with a trailing newline);
# - ``forget_user(user) -> None``: what deleting the account does in that app (in the
#   deletion's transaction, with the user's row locked);
# - ``PRIVACY_ORDER``: an int; the parts are exported and forgotten in its order, lowest
#   first (builder 10, campaigns 20, leagues 30, play 40, notifications 50): the gangs go
#   before the campaigns and clubs are handed on, as the module's docstring says;
# - optional, for the account pages: ``owned_counts(user) -> dict[str, int]`` (what the
#   user owns: "gangs", "packs", "campaigns", "clubs") and ``deletion_plan(user) -> dict``
#   (what deleting would do: "campaigns", "clubs").
#
# The account's own part (accounts/privacy.py) comes first in the archive and last in the
# deletion: the user row is what the others' records point at.


def _parts() -> list[ModuleType]:
    """Every app's privacy module but the account's own, in ``PRIVACY_ORDER``."""
    others = [m for m in app_modules("privacy") if m is not own_part]
    return sorted(others, key=lambda m: m.PRIVACY_ORDER)


def _file(value: Any) -> str | bytes:
    if isinstance(value, str | bytes):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def my_data(user) -> bytes:
    """Everything the user owns, as a zip: ``account.json``, ``gangs/`` (roster files, with
    the pack entries they use), ``packs/`` (pack files), ``campaigns.json``,
    ``leagues.json``, ``games.json`` and a README: each app's part (above)."""
    buffer = io.BytesIO()
    written: set[str] = set()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "README.txt",
            render_to_string("accounts/my_data_readme.txt", {"user": user, "now": timezone.now()}),
        )
        for part in [own_part, *_parts()]:
            for name, value in part.export_user_data(user).items():
                if name in written or name == "README.txt":
                    raise ValueError(f"{part.__name__} exports {name!r}, which another part has")
                written.add(name)
                archive.writestr(name, _file(value))
    return buffer.getvalue()


# --------------------------------------------------------------------------- delete


def former_member_name(user) -> str:
    return FORMER_MEMBER.format(pk=user.pk)


def is_former_member(user) -> bool:
    return not user.is_active and user.get_username() == former_member_name(user)


def mail_heir(heir, name: str) -> None:
    """Tell ``heir`` by mail, in their language, that they now organise ``name`` (a
    campaign or club whose organiser deleted their account): ``signals.handed_over``'s
    receiver (accounts/apps.py). The mail leaves once the deletion is committed."""
    if heir.email:
        with translation.override(language_of(heir)):  # the heir's language
            _send("handed_over", {"user": heir, "name": name}, heir.email)


@transaction.atomic
def delete_account(user) -> None:
    """Delete the user's account as the module's docstring says: every app's
    ``forget_user`` in turn, then the account's own; one transaction."""
    User = get_user_model()
    user = User.objects.select_for_update().get(pk=user.pk)
    for part in [*_parts(), own_part]:
        part.forget_user(user)


def owned_counts(user) -> dict[str, int]:
    """How much the user owns (for the account pages): the apps' ``owned_counts``."""
    counts: dict[str, int] = {}
    for part in _parts():
        if hasattr(part, "owned_counts"):
            counts.update(part.owned_counts(user))
    return counts


def deletion_plan(user) -> dict[str, Any]:
    """What deleting the account would do, for its confirm page: the apps'
    ``deletion_plan`` ("campaigns", "clubs"), what the user owns, their name after."""
    plan: dict[str, Any] = {"campaigns": [], "clubs": []}
    for part in _parts():
        if hasattr(part, "deletion_plan"):
            plan.update(part.deletion_plan(user))
    plan["counts"] = owned_counts(user)
    plan["former_name"] = names.shown_username(former_member_name(user), user.pk)
    return plan
