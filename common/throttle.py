"""Log-in throttling: attempts counted per account and per client address, and never a
lockout of the account's owner.

Counts live in Django's default cache (in-process memory by default, Redis with
``REDIS_URL``), so they need no table and expire by themselves. A count belongs to a window
of ``LOGIN_FAILURE_WINDOW`` seconds that starts with the first attempt counted in it; when
an attempt takes a count past its limit the answer is "wait until the window is over" and
no password is checked. Every attempt is counted before the password is checked (so that
many attempts at once cannot all slip under the limit); a successful log-in then clears the
account's count and takes itself back off the address's, so only failures add up.

**Device cookies** (OWASP's "Slow Down Online Guessing Attacks with Device Cookies"): a
browser that logs in to an account gets a signed cookie naming that account (a digest of
the name and a random nonce; up to five accounts a browser). A log-in from a browser whose
cookie names the account is counted against that cookie alone, never against the account
or the address: however many wrong passwords others type, the owner's right password from
a browser that has logged in before is never refused. Only a cookie that itself fails
``LOGIN_FAILURES_PER_ACCOUNT`` times in a window (a stolen laptop) goes back to being a
new browser's. A new browser past the account's limit is offered a one-time link by mail
(``accounts/login_links.py``), so the owner always has a way in, and the attacker
still gets no more guesses.

Limits, window and where the client's address comes from are settings
(``LOGIN_FAILURES_PER_ACCOUNT``, ``LOGIN_FAILURES_PER_ADDRESS``, ``LOGIN_FAILURE_WINDOW``,
``LOGIN_DEVICE_DAYS``; the address behind ``TRUSTED_PROXIES``: common/proxies.py).
The same counters can throttle another form (a password reset, an email change, per typed
address, per account and per client address) with another ``scope``.

Why not django-axes: it stops attempts by address, username or both, so one of the two
lockouts of issue 27 always remains (by username, anyone locks the owner out; by both, a
spread attacker guesses freely), it has no device cookies nor a mailed way in, and it
would add a table and a middleware for what these few counters in the cache do.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
import secrets
import time
from dataclasses import dataclass, field

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext, ngettext

from common.proxies import client_ip

PREFIX = "throttle"
DEVICE_COOKIE = "gangfight_device"
DEVICE_SALT = "gangfight.login-device"
#: the accounts one browser's device cookie remembers (the latest logged in to)
DEVICE_ACCOUNTS = 5


def client_address(request: HttpRequest | None) -> str:
    """The address attempts are counted by: the client's, as the trusted proxies tell it
    (REMOTE_ADDR without one: common/proxies.py). An IPv6 address counts by its
    /64 (one household's or one server's share), an IPv4-mapped one as IPv4."""
    if request is None:
        return "unknown"
    address = client_ip(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:100] or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:40]


@dataclass(frozen=True)
class Counter:
    """One count: a kind ("account" or "address") of one scope ("login"...)."""

    scope: str
    kind: str
    value: str
    limit: int

    @property
    def key(self) -> str:
        return f"{PREFIX}:{self.scope}:{self.kind}:{_digest(self.value)}"


@dataclass
class Count:
    counter: Counter
    key: str  # the cache key of this window's count
    number: int
    ends: float  # when the window is over (time.time())

    @property
    def over(self) -> bool:
        return 0 < self.counter.limit < self.number


def _count(counter: Counter, window: int, now: float) -> Count:
    """Count one attempt in the counter's current window (opening one if there is none)."""
    since_key = counter.key + ":since"
    cache.add(since_key, now, timeout=window)
    since = cache.get(since_key)
    if since is None or since + window <= now:  # closed meanwhile, or kept past its end
        since = now
        cache.set(since_key, since, timeout=window)
    # The count's key names its window, so a count never outlives the window it is in.
    key = f"{counter.key}:{int(since * 1000)}"
    remaining = max(1, math.ceil(since + window - now))
    if cache.add(key, 1, timeout=remaining):
        number = 1
    else:
        try:
            number = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=remaining)
            number = 1
    return Count(counter, key, number, since + window)


@dataclass
class Attempt:
    """An attempt, counted: ``blocked`` when a count went past its limit."""

    counts: list[Count] = field(default_factory=list)
    now: float = 0.0

    @property
    def blocking(self) -> list[Count]:
        return [c for c in self.counts if c.over]

    @property
    def blocked(self) -> bool:
        return bool(self.blocking)

    @property
    def wait_seconds(self) -> int:
        """How long until every count past its limit has its window over."""
        ends = [c.ends for c in self.blocking]
        return max(1, math.ceil(max(ends) - self.now)) if ends else 0

    @property
    def message(self) -> str:
        minutes = max(1, math.ceil(self.wait_seconds / 60))
        wait = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
        if any(c.counter.kind == "account" for c in self.blocking):
            text = gettext(
                "Too many failed attempts to log in to this account. For its safety, "
                "wait %(wait)s and try again."
            )
        else:
            text = gettext(
                "Too many failed attempts from your network. Wait %(wait)s and try again."
            )
        return text % {"wait": wait}

    @property
    def offers_link(self) -> bool:
        """Whether the way in is a log-in link by mail (the account's limit, not the
        network's, is what stops this browser)."""
        return any(c.counter.kind == "account" for c in self.blocking)

    def succeeded(self) -> None:
        """A good password: clear the account's (or the device's) count, and take this
        attempt back off the address's (a success is not a failure)."""
        for count in self.counts:
            if count.counter.kind in ("account", "device"):
                cache.delete(count.counter.key + ":since")
                cache.delete(count.key)
            else:
                with contextlib.suppress(ValueError):  # unless the window is over already
                    cache.decr(count.key)


def attempt(
    request: HttpRequest | None,
    account: str | None,
    scope: str = "login",
    *,
    user: object | None = None,
) -> Attempt:
    """Count an attempt to use ``account`` (None: only the address counts) from the
    request's address, and say whether it may go ahead. ``user``: also count it for this
    signed-in user (the one asking, e.g. for an email change), with the account's limit."""
    window = max(1, settings.LOGIN_FAILURE_WINDOW)
    now = time.time()
    address = client_address(request)
    counters = [Counter(scope, "address", address, settings.LOGIN_FAILURES_PER_ADDRESS)]
    if account:
        account = account.strip().casefold()
        counters.append(Counter(scope, "account", account, settings.LOGIN_FAILURES_PER_ACCOUNT))
    if user is not None:
        counters.append(Counter(scope, "user", str(user.pk), settings.LOGIN_FAILURES_PER_ACCOUNT))
    counts = [_count(c, window, now) for c in counters if c.limit > 0]
    return Attempt(counts, now)


# --------------------------------------------------------------------------- device cookies


def _account_digest(account: str) -> str:
    return _digest("account:" + account.strip().casefold())[:24]


def _devices(request: HttpRequest | None) -> list[tuple[str, str]]:
    """The (account digest, nonce) pairs the request's device cookie holds, if its
    signature is ours and it is not older than ``LOGIN_DEVICE_DAYS``."""
    raw = request.COOKIES.get(DEVICE_COOKIE, "") if request is not None else ""
    if not raw:
        return []
    try:
        data = signing.loads(raw, salt=DEVICE_SALT, max_age=settings.LOGIN_DEVICE_DAYS * 86400)
    except signing.BadSignature:
        return []
    if not isinstance(data, list):
        return []
    return [
        (str(pair[0]), str(pair[1]))
        for pair in data[:DEVICE_ACCOUNTS]
        if isinstance(pair, list) and len(pair) == 2
    ]


def device_of(request: HttpRequest | None, account: str) -> str | None:
    """The nonce of the request's device cookie for ``account``: this browser has logged
    in to it before (None: a new browser, for this account)."""
    digest = _account_digest(account)
    return next((nonce for named, nonce in _devices(request) if named == digest), None)


def attempt_from_device(request: HttpRequest | None, nonce: str, scope: str = "login") -> Attempt:
    """Count an attempt from a browser that has logged in to the account before: against
    its own cookie only (not the account, not the address)."""
    window = max(1, settings.LOGIN_FAILURE_WINDOW)
    now = time.time()
    counter = Counter(scope, "device", nonce, settings.LOGIN_FAILURES_PER_ACCOUNT)
    return Attempt([_count(counter, window, now)] if counter.limit > 0 else [], now)


def remember_device(request: HttpRequest, response: HttpResponse, account: str) -> None:
    """After a log-in to ``account``: this browser's device cookie names it (with a new
    nonce, first), beside up to four other accounts it logged in to."""
    digest = _account_digest(account)
    kept = [[named, nonce] for named, nonce in _devices(request) if named != digest]
    pairs = [[digest, secrets.token_urlsafe(12)], *kept][:DEVICE_ACCOUNTS]
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps(pairs, salt=DEVICE_SALT, compress=True),
        max_age=settings.LOGIN_DEVICE_DAYS * 86400,
        secure=getattr(settings, "SESSION_COOKIE_SECURE", False),
        httponly=True,
        samesite="Lax",
    )


class ThrottledLoginMixin:
    """For an AuthenticationForm: count the attempt before checking the password, and
    when it is one too many, say how long to wait instead of checking it."""

    throttled: Attempt | None = None

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is None or not password:
            return super().clean()
        counted = None
        nonce = device_of(self.request, username)
        if nonce is not None:  # this browser has logged in to this account before
            counted = attempt_from_device(self.request, nonce)
            if counted.blocked:  # ... but has failed too often since: a new browser's way
                counted = None
        if counted is None:
            counted = attempt(self.request, username)
            if counted.blocked:
                self.throttled = counted
                raise forms.ValidationError(counted.message, code="throttled")
        cleaned = super().clean()  # a wrong password raises: the attempt stays counted
        counted.succeeded()
        return cleaned


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass
