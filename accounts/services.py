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
"""

from __future__ import annotations

import io
import json
import secrets
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts import names
from accounts.forms import email_taken
from accounts.language import language_of
from accounts.models import Profile
from builder import services as builder_services
from builder.models import ContentPack, Gang, Item, MemberItem
from builder.packs import write_pack
from campaigns.leagues import services as league_services
from campaigns.leagues.models import Club, ClubMember, League, MatchReport, Pairing, Registration
from campaigns.models import Campaign, CampaignGang
from gangfight_site import background
from play import services as play_services
from rules.roster import write_roster

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


def _when(value) -> str | None:
    return value.isoformat() if value else None


def _campaign_history(user) -> list[dict[str, Any]]:
    """Each campaign the user organises or plays in, with its log's events that are the
    user's: recorded by them, or naming one of their gangs."""
    campaigns = (
        Campaign.objects.filter(Q(organiser=user) | Q(gangs__player=user))
        .distinct()
        .order_by("pk")
        .prefetch_related("events__user", "gangs")
    )
    history = []
    for campaign in campaigns:
        mine = {str(g.pk) for g in campaign.gangs.all() if g.player_id == user.pk}
        organiser = campaign.organiser_id == user.pk
        events = []
        for event in campaign.events.all():
            data = event.data if isinstance(event.data, dict) else {}
            named: set[str] = set()
            for key in ("gang", "gangs", "challenger", "challenged"):
                value = data.get(key)
                values = value if isinstance(value, list) else [value]
                named.update(str(v) for v in values if v is not None)
            if organiser or event.user_id == user.pk or named & mine:
                events.append(
                    {
                        "seq": event.seq,
                        "kind": event.kind,
                        "data": event.data,
                        "dice": event.dice,
                        "by": event.user.get_username() if event.user else None,
                        "at": _when(event.created),
                    }
                )
        history.append(
            {
                "id": campaign.pk,
                "name": campaign.name,
                "system": campaign.system,
                "status": campaign.status,
                "organiser": organiser,
                "gangs": [
                    {"id": g.pk, "name": g.name, "joined": _when(g.joined)}
                    for g in campaign.gangs.all()
                    if g.player_id == user.pk
                ],
                "events": events,
            }
        )
    return history


def _league_history(user) -> list[dict[str, Any]]:
    """Each league the user registered in: their registration and every match of theirs,
    with the report and its history."""
    registrations = list(
        Registration.objects.filter(player=user).select_related("league__club").order_by("pk")
    )
    ids = [r.pk for r in registrations]
    pairings = (
        Pairing.objects.filter(Q(a_id__in=ids) | Q(b_id__in=ids))
        .select_related("round", "a__player", "b__player", "report__submitted_by")
        .prefetch_related("report__history__by")
        .order_by("round__number", "pk")
    )
    by_registration: dict[int, list[dict[str, Any]]] = {pk: [] for pk in ids}
    for pairing in pairings:
        mine = pairing.a if pairing.a_id in by_registration else pairing.b
        other = pairing.b if mine is pairing.a else pairing.a
        side = "a" if mine is pairing.a else "b"
        match: dict[str, Any] = {
            "round": pairing.round.number,
            "side": side,
            "opponent": None
            if other is None
            else {"gang": other.gang_name, "player": other.player.get_username()},
            "report": None,
        }
        try:
            report = pairing.report
        except MatchReport.DoesNotExist:
            report = None
        if report is not None:
            match["report"] = {
                "status": report.status,
                "winner": report.winner,
                "vp_a": report.vp_a,
                "vp_b": report.vp_b,
                "scenario": report.scenario,
                "deployment": report.deployment,
                "casualties": report.casualties,
                "notes": report.notes,
                "dispute": report.dispute,
                "settled_note": report.settled_note,
                "history": [
                    {
                        "kind": step.kind,
                        "by": step.by.get_username() if step.by else None,
                        "at": _when(step.at),
                        "values": step.values,
                    }
                    for step in report.history.all()
                ],
            }
        by_registration[mine.pk].append(match)
    return [
        {
            "club": r.league.club.name,
            "league": r.league.name,
            "system": r.league.system,
            "status": r.league.status,
            "gang": r.gang_name,
            "registered": _when(r.registered),
            "dropped": r.dropped,
            "matches": by_registration[r.pk],
        }
        for r in registrations
    ]


def _unique(name: str, used: set[str]) -> str:
    stem, dot, ext = name.rpartition(".")
    candidate, n = name, 2
    while candidate in used:
        candidate = f"{stem}-{n}{dot}{ext}"
        n += 1
    used.add(candidate)
    return candidate


def my_data(user) -> bytes:
    """Everything the user owns, as a zip: ``gangs/`` (roster files, with the pack entries
    they use), ``packs/`` (pack files), ``campaigns.json``, ``leagues.json``,
    ``account.json`` and a README."""
    buffer = io.BytesIO()
    used: set[str] = set()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "README.txt",
            render_to_string("accounts/my_data_readme.txt", {"user": user, "now": timezone.now()}),
        )
        account = {
            "username": user.get_username(),
            "email": user.email,
            "joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
        }
        archive.writestr("account.json", json.dumps(account, indent=2, ensure_ascii=False))
        for gang in Gang.objects.filter(owner=user).order_by("pk"):
            name = f"gangs/{slugify(gang.name) or 'gang'}-{gang.system}-roster.json"
            archive.writestr(_unique(name, used), write_roster(builder_services.roster_file(gang)))
        for pack in ContentPack.objects.filter(owner=user).order_by("pk"):
            name = f"packs/{slugify(pack.name) or 'pack'}-{pack.system}-pack.json"
            archive.writestr(_unique(name, used), write_pack(builder_services.export_pack(pack)))
        for name, value in (
            ("campaigns.json", _campaign_history(user)),
            ("leagues.json", _league_history(user)),
            ("games.json", play_services.games_data(user)),  # play mode: games and taps
        ):
            archive.writestr(name, json.dumps(value, indent=2, ensure_ascii=False) + "\n")
    return buffer.getvalue()


# --------------------------------------------------------------------------- delete


@dataclass
class Deleted:
    """What deleting an account did (for the page that follows, and tests)."""

    gangs: int = 0
    packs: int = 0
    packs_kept: int = 0
    campaigns_handed_over: int = 0
    campaigns_deleted: int = 0
    clubs_handed_over: int = 0
    clubs_deleted: int = 0
    #: (the new organiser, the campaign's or club's name) of each handed over
    handed: list[tuple[Any, str]] = field(default_factory=list)


def former_member_name(user) -> str:
    return FORMER_MEMBER.format(pk=user.pk)


def is_former_member(user) -> bool:
    return not user.is_active and user.get_username() == former_member_name(user)


def _delete_content(user, deleted: Deleted) -> None:
    gangs = Gang.objects.filter(owner=user)
    deleted.gangs = gangs.count()
    for gang in gangs:
        builder_services.delete_gang(gang)
    # Entries another player's gang still carries stay; so does their pack.
    carried = set(MemberItem.objects.filter(item__owner=user).values_list("item_id", flat=True))
    Item.objects.filter(owner=user).exclude(pk__in=carried).delete()
    for pack in ContentPack.objects.filter(owner=user):
        if pack.items.exists():
            deleted.packs_kept += 1
        else:
            builder_services.delete_pack(pack)
            deleted.packs += 1


def _campaign_heir(campaign: Campaign, user):
    """Who organises the campaign when ``user`` leaves: the player who joined it first
    (another active user), or None."""
    gang = (
        CampaignGang.objects.filter(campaign=campaign, player__is_active=True)
        .exclude(player=user)
        .select_related("player")
        .order_by("joined", "pk")
        .first()
    )
    return gang.player if gang else None


def _club_heir(club: Club, user) -> tuple[str, ClubMember | None]:
    """What becomes of a club when ``user`` leaves: "stays" (another organiser remains),
    "hand" (to the member returned), "keep" (no one else, but others' results are in it:
    it stays under the former member) or "delete"."""
    others = club.members.exclude(user=user).filter(user__is_active=True)
    if not others.exists():
        if Registration.objects.filter(league__club=club).exclude(player=user).exists():
            return "keep", None
        return "delete", None
    if others.filter(role=ClubMember.ORGANISER).exists():
        return "stays", None
    return "hand", others.select_related("user").order_by("joined", "pk").first()


def _hand_over_campaigns(user, deleted: Deleted) -> None:
    for campaign in Campaign.objects.select_for_update().filter(organiser=user):
        heir = _campaign_heir(campaign, user)
        if heir is None:
            campaign.delete()  # a league that fed it keeps its results, unlinked
            deleted.campaigns_deleted += 1
        else:
            campaign.organiser = heir
            campaign.save(update_fields=["organiser"])
            deleted.campaigns_handed_over += 1
            deleted.handed.append((heir, campaign.name))
            _tell_heir(heir, campaign.name, reverse("campaign_detail", args=[campaign.pk]))


def _tell_heir(heir, name: str, url: str) -> None:
    """Tell the heir "You now organise X", in the heir's What waits on you (until dismissed)."""
    from notifications import services as notifications  # (it reads the leagues)

    with translation.override(language_of(heir)):
        text = _(
            "You now organise %(name)s: its organiser deleted their account. Its players "
            "and results are as they were."
        ) % {"name": name}
    notifications.notify(heir, text, url, mailed=bool(heir.email))  # (mailed: handed_over)


def _leave_clubs(user, deleted: Deleted) -> None:
    for membership in ClubMember.objects.filter(user=user).select_related("club"):
        what, heir = _club_heir(membership.club, user)
        if what == "keep":
            continue  # the former member stays its organiser: the results stay
        if what == "delete":
            membership.club.delete()
            deleted.clubs_deleted += 1
            continue
        if what == "hand" and membership.role == ClubMember.ORGANISER:
            heir.role = ClubMember.ORGANISER
            heir.save(update_fields=["role"])
            deleted.clubs_handed_over += 1
            deleted.handed.append((heir.user, membership.club.name))
            _tell_heir(heir.user, membership.club.name, reverse("club_detail", args=[heir.club_id]))
        membership.delete()


def _leave_leagues(user) -> None:
    registrations = Registration.objects.filter(player=user).exclude(league__status=League.FINISHED)
    for registration in registrations.select_related("league"):
        league_services.withdraw(registration)


@transaction.atomic
def delete_account(user) -> Deleted:
    """Delete the user's account as the module's docstring says; one transaction."""
    User = get_user_model()
    user = User.objects.select_for_update().get(pk=user.pk)
    deleted = Deleted()
    _delete_content(user, deleted)
    _leave_leagues(user)
    _hand_over_campaigns(user, deleted)
    _leave_clubs(user, deleted)
    user.username = former_member_name(user)
    user.email = ""
    user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    Profile.objects.filter(user=user).delete()  # the language they chose
    for heir, name in deleted.handed:  # sent once the deletion is committed
        if heir.email:
            with translation.override(language_of(heir)):  # the heir's language
                _send("handed_over", {"user": heir, "name": name}, heir.email)
    return deleted


def owned_counts(user) -> dict[str, int]:
    """How much the user owns (for the account pages)."""
    return {
        "gangs": Gang.objects.filter(owner=user).count(),
        "packs": ContentPack.objects.filter(owner=user).count(),
        "campaigns": Campaign.objects.filter(organiser=user).count(),
        "clubs": ClubMember.objects.filter(user=user).count(),
    }


def deletion_plan(user) -> dict[str, Any]:
    """What deleting the account would do, for its confirm page."""
    campaigns = [
        {"name": c.name, "heir": _campaign_heir(c, user)}
        for c in Campaign.objects.filter(organiser=user).order_by("name")
    ]
    clubs = []
    for membership in ClubMember.objects.filter(user=user).select_related("club"):
        what, heir = _club_heir(membership.club, user)
        if membership.role == ClubMember.ORGANISER or what in ("delete", "keep"):
            clubs.append({"name": membership.club.name, "what": what, "heir": heir})
    return {
        "counts": owned_counts(user),
        "campaigns": campaigns,
        "clubs": clubs,
        "former_name": names.shown_username(former_member_name(user), user.pk),
    }
