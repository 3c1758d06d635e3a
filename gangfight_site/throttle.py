"""Log-in throttling: attempts counted per account and per client address.

Counts live in Django's default cache (in-process memory by default, Redis with
``REDIS_URL``), so they need no table and expire by themselves. A count belongs to a window
of ``LOGIN_FAILURE_WINDOW`` seconds that starts with the first attempt counted in it; when
an attempt takes a count past its limit the answer is "wait until the window is over" and
no password is checked. Every attempt is counted before the password is checked (so that
many attempts at once cannot all slip under the limit); a successful log-in then clears the
account's count and takes itself back off the address's, so only failures add up.

Limits, window and where the client's address comes from are settings
(``LOGIN_FAILURES_PER_ACCOUNT``, ``LOGIN_FAILURES_PER_ADDRESS``, ``LOGIN_FAILURE_WINDOW``,
``TRUST_X_FORWARDED_FOR``). The same counters can throttle another form (a password reset,
per address only) with another ``scope``.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
import time
from dataclasses import dataclass, field

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext, ngettext

PREFIX = "throttle"


def client_address(request: HttpRequest | None) -> str:
    """The address attempts are counted by: REMOTE_ADDR, or X-Forwarded-For's first hop
    when ``TRUST_X_FORWARDED_FOR`` says a proxy in front sets it. An IPv6 address counts by
    its /64 (one household's or one server's share), an IPv4-mapped one as IPv4."""
    if request is None:
        return "unknown"
    address = request.META.get("REMOTE_ADDR", "")
    if settings.TRUST_X_FORWARDED_FOR:
        first = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[0].strip()
        address = first or address
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

    def succeeded(self) -> None:
        """A good password: clear the account's count, and take this attempt back off the
        address's (a success is not a failure)."""
        for count in self.counts:
            if count.counter.kind == "account":
                cache.delete(count.counter.key + ":since")
                cache.delete(count.key)
            else:
                with contextlib.suppress(ValueError):  # unless the window is over already
                    cache.decr(count.key)


def attempt(request: HttpRequest | None, account: str | None, scope: str = "login") -> Attempt:
    """Count an attempt to use ``account`` (None: only the address counts) from the
    request's address, and say whether it may go ahead."""
    window = max(1, settings.LOGIN_FAILURE_WINDOW)
    now = time.time()
    address = client_address(request)
    counters = [Counter(scope, "address", address, settings.LOGIN_FAILURES_PER_ADDRESS)]
    if account:
        account = account.strip().casefold()
        counters.append(Counter(scope, "account", account, settings.LOGIN_FAILURES_PER_ACCOUNT))
    counts = [_count(c, window, now) for c in counters if c.limit > 0]
    return Attempt(counts, now)


class ThrottledLoginMixin:
    """For an AuthenticationForm: count the attempt before checking the password, and
    when it is one too many, say how long to wait instead of checking it."""

    throttled: Attempt | None = None

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is None or not password:
            return super().clean()
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
