"""What waits on a user, counted for the header, and mailed to them, each once.

- :func:`count_for`: the number shown in the header of every page. Kept in the default
  cache per user, so a page reads one cache key and makes no query, ever: the count is
  made (every running campaign replayed) by a background job (:func:`refresh_count`)
  submitted when something touching the user is recorded, when a page finds it missing
  or older than ``NOTIFICATIONS_COUNT_SECONDS`` (so processes with their own
  local-memory cache catch up), and by the home page, which lists the items anyway.
- :func:`campaign_changed` / :func:`league_changed` / :func:`club_changed`: called by
  the campaign and league services when something is recorded; they forget the count of
  everyone concerned and, for those with an email address, submit a debounced background
  job (:func:`send_batch`, keyed per user, run ``NOTIFICATIONS_BATCH_SECONDS`` after the
  last change) so what happens within those minutes goes out as one mail; but never more
  than ``NOTIFICATIONS_MAX_WAIT_SECONDS`` after the first change not mailed yet, so a
  busy league (a change every minute, each one for every member) still mails its
  players within that time, not once it falls quiet.
- :func:`send_batch`: mails a user every waiting action not mailed yet (of the kinds they
  did not turn off) in one message, and records their keys so nothing is mailed twice.
  ``manage.py send_notifications`` runs it for everyone (for a cron).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.language import language_of
from common import background
from notifications.models import Mailed, Notice, Preference
from notifications.waiting import KINDS, Waiting, waiting_for

__all__ = [
    "campaign_changed",
    "changed",
    "club_changed",
    "count_for",
    "dismiss_notice",
    "league_changed",
    "made_organiser",
    "muted_kinds",
    "notify",
    "send_batch",
    "set_muted",
]

log = logging.getLogger(__name__)

COUNT_KEY = "notifications:count:{}"
REFRESHING_KEY = "notifications:refreshing:{}"
KEEP_SECONDS = 7 * 24 * 3600
TASK = "notifications.tasks.send_batch"
COUNT_TASK = "notifications.tasks.refresh_count"
#: a mail goes at most this long after the first change it tells of (settings can say)
DEFAULT_MAX_WAIT = 600
#: and a header's count is made again at most this long after the first change
COUNT_MAX_WAIT = 5.0


# --------------------------------------------------------------------------- the count


def _count_seconds() -> int:
    return int(getattr(settings, "NOTIFICATIONS_COUNT_SECONDS", 300))


def count_for(user) -> int | None:
    """How many actions wait on the user, as last counted: one cache read, never a query.

    ``None`` when not known yet: it is then counted in the background (as it is when the
    count is older than ``NOTIFICATIONS_COUNT_SECONDS``), never in the request."""
    if not getattr(user, "is_authenticated", False):
        return None
    known = cache.get(COUNT_KEY.format(user.pk))
    if known is None:
        refresh_later(user.pk)
        return None
    count, at = known
    if time.time() - at > _count_seconds():
        refresh_later(user.pk)
    return count


def remember_count(user, items: list[Waiting]) -> int:
    """Keep the count of ``items`` (just computed for ``user``) for the header."""
    cache.set(COUNT_KEY.format(user.pk), (len(items), time.time()), KEEP_SECONDS)
    return len(items)


def refresh_later(user_id: int) -> None:
    """Count the user's waiting actions in the background (once, however many pages ask)."""
    if cache.add(REFRESHING_KEY.format(user_id), 1, 60):
        background.submit(COUNT_TASK, key=f"count:{user_id}", user_id=user_id)


def refresh_count(user_id: int) -> int | None:
    """The background job: count what waits on the user and keep it for the header."""
    cache.delete(REFRESHING_KEY.format(user_id))
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    return None if user is None else remember_count(user, waiting_for(user))


def forget_counts(user_ids: Iterable[int]) -> None:
    cache.delete_many([COUNT_KEY.format(pk) for pk in user_ids])


# --------------------------------------------------------------------------- the hooks


def changed(user_ids: Iterable[int], emails: dict[int, str] | None = None) -> None:
    """Something touching these users was recorded: their counts are forgotten (now, and
    again once the transaction commits, so a count made in between is not kept) and made
    again in the background, and those with an address get a batch mail soon."""
    ids = sorted(set(user_ids))
    if not ids:
        return
    forget_counts(ids)
    transaction.on_commit(lambda: forget_counts(ids))
    for pk in ids:  # (a burst of changes within a second is counted once)
        background.submit(
            COUNT_TASK, key=f"count:{pk}", delay=1.0, max_wait=COUNT_MAX_WAIT, user_id=pk
        )
    if emails is None:
        User = get_user_model()
        emails = dict(User.objects.filter(pk__in=ids).values_list("pk", "email"))
    delay, max_wait = batch_seconds()
    for pk in ids:
        if emails.get(pk):
            background.submit(TASK, key=f"notify:{pk}", delay=delay, max_wait=max_wait, user_id=pk)


def batch_seconds() -> tuple[float, float]:
    """(how long a mail waits after the last change, the longest it waits after the first
    change not mailed yet): ``NOTIFICATIONS_BATCH_SECONDS`` and
    ``NOTIFICATIONS_MAX_WAIT_SECONDS`` (never less than the first)."""
    delay = float(getattr(settings, "NOTIFICATIONS_BATCH_SECONDS", 300))
    longest = float(getattr(settings, "NOTIFICATIONS_MAX_WAIT_SECONDS", DEFAULT_MAX_WAIT))
    return delay, max(delay, longest)


def _safely(what: str, work) -> None:
    """A hook never stops what it follows: a cache or broker that is down is logged."""
    try:
        work()
    except Exception:
        log.exception("Could not note a change for the waiting list (%s)", what)


def campaign_changed(campaign) -> None:
    """An event was recorded in ``campaign`` (campaigns.services.record)."""

    def work() -> None:
        User = get_user_model()
        rows = (
            User.objects.filter(Q(pk=campaign.organiser_id) | Q(campaign_gangs__campaign=campaign))
            .distinct()
            .values_list("pk", "email")
        )
        emails = dict(rows)
        changed(emails, emails)

    _safely(f"campaign {campaign.pk}", work)


def league_changed(league_id: int) -> None:
    """A report, round or registration changed in the league."""

    def work() -> None:
        User = get_user_model()
        rows = (
            User.objects.filter(
                Q(league_registrations__league_id=league_id)
                | Q(
                    club_memberships__club__leagues__id=league_id,
                    club_memberships__role="organiser",
                )
            )
            .distinct()
            .values_list("pk", "email")
        )
        emails = dict(rows)
        changed(emails, emails)

    _safely(f"league {league_id}", work)


def club_changed(club_id: int) -> None:
    """Something every member of the club may wait on changed: a league opened for
    registration, or closed it by starting (notifications/waiting.py ``register``)."""

    def work() -> None:
        User = get_user_model()
        rows = (
            User.objects.filter(club_memberships__club_id=club_id, is_active=True)
            .distinct()
            .values_list("pk", "email")
        )
        emails = dict(rows)
        changed(emails, emails)

    _safely(f"club {club_id}", work)


# --------------------------------------------------------------------------- notices


def notify(user, text: str, url: str = "", *, mailed: bool = False) -> Notice:
    """Store a piece of news for the user (listed with what waits on them, and mailed like
    the rest if they have an address, unless ``mailed``: a mail of its own says it) until
    they dismiss it."""
    notice = Notice.objects.create(user=user, text=text[:500], url=url)
    if mailed:
        Mailed.objects.create(user=user, key=f"n{notice.pk}")
    changed([user.pk], {user.pk: user.email})
    return notice


def handed_over(heir, name: str, url: str) -> None:
    """Tell ``heir`` "You now organise X" (in their language), on their list until
    dismissed: a campaign or club passed to them when its organiser deleted their account
    (accounts/signals.py ``handed_over``). Not mailed with the rest when they have an
    address: a mail of its own says it (accounts/services.py ``mail_heir``)."""
    with translation.override(language_of(heir)):
        text = _(
            "You now organise %(name)s: its organiser deleted their account. Its players "
            "and results are as they were."
        ) % {"name": name}
    notify(heir, text, url, mailed=bool(heir.email))


def made_organiser_text(club: str, by: str | None) -> str:
    """The news of being made an organiser of ``club`` (by ``by``), in the active language."""
    if by:
        return _(
            "%(by)s made you an organiser of %(club)s: you can now open its leagues, pair "
            "their rounds and settle their disputes."
        ) % {"by": by, "club": club}
    return _(
        "You are now an organiser of %(club)s: you can open its leagues, pair their rounds "
        "and settle their disputes."
    ) % {"club": club}


def made_organiser(user, club, by=None) -> None:
    """Tell ``user`` (in their language) that ``by`` made them an organiser of ``club``:
    a notice on their list until dismissed, mailed with the rest."""

    with translation.override(language_of(user)):
        text = made_organiser_text(club.name, by.get_username() if by else None)
    try:
        with transaction.atomic():  # (a savepoint: the role change stands regardless)
            notify(user, text, reverse("club_detail", args=[club.pk]))
    except Exception:
        log.exception("Could not tell user %s they organise club %s", user.pk, club.pk)


@transaction.atomic
def dismiss_notice(notice: Notice) -> None:
    user_id = notice.user_id
    notice.delete()
    forget_counts([user_id])


# --------------------------------------------------------------------------- preferences


def muted_kinds(user) -> set[str]:
    muted = (
        Preference.objects.filter(user=user).values_list("muted", flat=True).first()
        if user.is_authenticated
        else None
    )
    return {k for k in (muted or []) if k in KINDS}


@transaction.atomic
def set_muted(user, kinds: Iterable[str]) -> Preference:
    """The kinds the user gets no email for (any kind not named is mailed)."""
    muted = [k for k in KINDS if k in set(kinds)]
    preference, _created = Preference.objects.select_for_update().get_or_create(user=user)
    preference.muted = muted
    preference.save(update_fields=["muted"])
    return preference


# --------------------------------------------------------------------------- the mail


def site_origin() -> str:
    """``SITE_URL`` (the site's address as its users reach it; required in production),
    else the address of ``manage.py serve``: never a request's Host, and nothing a request
    said is kept for the mails written later (common/links.py)."""
    from common import links

    return links.site_origin()


def site_url(path: str) -> str:
    """An absolute link for a mail (see :func:`site_origin`)."""
    return site_origin() + path


def send_batch(user_id: int) -> int:
    """Mail the user, in one message, every waiting action not mailed yet (of the kinds
    not turned off); returns how many it held. Nothing when there is nothing new."""
    User = get_user_model()
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email:
        return 0
    language = language_of(user)  # the mail (and what it lists) in the user's language
    with translation.override(language):
        items = waiting_for(user)
    remember_count(user, items)
    with transaction.atomic():
        # the user's preference row, locked: two sweeps at once mail the same items once
        preference, _created = Preference.objects.select_for_update().get_or_create(user=user)
        muted = set(preference.muted or [])
        wanted = [i for i in items if i.kind not in muted]
        if not wanted:
            return 0
        done = set(
            Mailed.objects.filter(user=user, key__in=[i.key for i in wanted]).values_list(
                "key", flat=True
            )
        )
        new = [i for i in wanted if i.key not in done]
        if not new:
            return 0
        Mailed.objects.bulk_create([Mailed(user=user, key=i.key) for i in new])
        with translation.override(language):
            subject = ngettext(
                "Gangfight: %(n)d thing waits on you",
                "Gangfight: %(n)d things wait on you",
                len(new),
            ) % {"n": len(new)}
            origin = site_origin()  # (one cache read for the whole mail)
            body = render_to_string(
                "notifications/mail.txt",
                {
                    "user": user,
                    "items": [(i, origin + i.url) for i in new],
                    "all_url": origin + reverse("home"),
                    "settings_url": origin + reverse("notification_settings"),
                },
            )
        # sent last: if sending fails, nothing is recorded and the next sweep tries again
        send_mail(subject, body, None, [user.email])
    return len(new)


def sweep() -> tuple[int, int]:
    """``send_batch`` for every active user with an address: (users mailed, items)."""
    User = get_user_model()
    mailed = items = 0
    for pk in (
        User.objects.filter(is_active=True)
        .exclude(email="")
        .order_by("pk")
        .values_list("pk", flat=True)
    ):
        sent = send_batch(pk)
        if sent:
            mailed += 1
            items += sent
    return mailed, items
