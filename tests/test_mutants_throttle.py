"""The log-in throttle's windows, counted one attempt at a time (common/throttle.py).

Written for the mutation run (docs/benchmarks.md, "Mutation testing"): each test pins a
rule of the module's docstring and of the settings' comment that the page-level tests in
test_protections.py reach only as a whole. ``throttle_clock`` moves the throttle's clock
alone, as when the cache (Redis rounds expiry to whole seconds) still holds an entry
whose window is over; ``clock`` moves the cache's and the throttle's together.
"""

from __future__ import annotations

import types
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import NON_FIELD_ERRORS

from common import throttle
from tests.conftest import PASSWORD

T = 1_000_000.0
WINDOW = 900


@pytest.fixture(autouse=True)
def limits(settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 5
    settings.LOGIN_FAILURES_PER_ADDRESS = 20
    settings.LOGIN_FAILURE_WINDOW = WINDOW
    settings.TRUSTED_PROXIES = []
    cache.clear()
    yield
    cache.clear()


class Clock:
    def __init__(self, now: float = T):
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture
def throttle_clock(monkeypatch) -> Clock:
    """The throttle's clock only: the cache keeps its own (real) time."""
    clock = Clock()
    monkeypatch.setattr(throttle, "time", types.SimpleNamespace(time=clock.time))
    return clock


@pytest.fixture
def clock() -> Clock:
    """One clock for the throttle and the cache's expiry alike."""
    shared = Clock()
    with mock.patch("time.time", side_effect=lambda: shared.now):
        yield shared


def from_address(rf, address: str):
    return rf.post("/accounts/login/", REMOTE_ADDR=address)


def fail(request, account: str | None, times: int = 1) -> list[throttle.Attempt]:
    return [throttle.attempt(request, account) for _ in range(times)]


def test_each_account_opens_its_own_window(rf, throttle_clock):
    """A window "starts with the first attempt counted in it": bob's starts with bob's
    first attempt, not with someone else's earlier one."""
    fail(from_address(rf, "192.0.2.1"), "alice")
    throttle_clock.now = T + 600
    attempts = fail(from_address(rf, "192.0.2.2"), "bob", 6)
    assert [a.blocked for a in attempts] == [False] * 5 + [True]
    assert attempts[-1].wait_seconds == WINDOW


def test_failures_after_a_success_start_a_new_window(rf, throttle_clock):
    """A successful log-in clears the account's count: the next failure opens a window of
    its own, a whole window long."""
    request = from_address(rf, "192.0.2.1")
    fail(request, "alice", 4)
    throttle_clock.now = T + 800
    throttle.attempt(request, "alice").succeeded()
    throttle_clock.now = T + 850
    attempts = fail(request, "alice", 6)
    assert [a.blocked for a in attempts] == [False] * 5 + [True]
    assert attempts[-1].wait_seconds == WINDOW


def test_a_success_clears_the_count_even_in_the_same_instant(rf, throttle_clock):
    request = from_address(rf, "192.0.2.1")
    fail(request, "alice", 4)
    throttle.attempt(request, "alice").succeeded()
    attempts = fail(request, "alice", 6)
    assert [a.blocked for a in attempts] == [False] * 5 + [True]


def test_a_success_takes_itself_off_the_addresss_count(rf, throttle_clock):
    """Only failures add up for an address: 19 failures and a success leave room for one
    more failure before the limit of 20 is passed."""
    request = from_address(rf, "192.0.2.1")
    for n in range(19):
        fail(request, f"nobody{n}")
    throttle.attempt(request, "somebody").succeeded()
    assert not throttle.attempt(request, "nobody-else").blocked
    assert throttle.attempt(request, "nobody-at-all").blocked


def test_a_success_whose_counts_have_gone_is_harmless(rf):
    counted = throttle.attempt(from_address(rf, "192.0.2.1"), "alice")
    cache.clear()  # the window ended (or the cache was emptied) before the password checked
    counted.succeeded()
    assert not throttle.attempt(from_address(rf, "192.0.2.1"), "alice").blocked


def test_a_window_kept_past_its_end_is_over_all_the_same(rf, throttle_clock):
    """The cache may hold a window's start past its end (Redis rounds expiry): at its end
    the window is over, the next attempt opens a new one, and that one counts as usual."""
    request = from_address(rf, "192.0.2.1")
    assert fail(request, "alice", 6)[-1].blocked
    attempts = []
    for second in range(6):
        throttle_clock.now = T + WINDOW + second
        attempts.append(throttle.attempt(request, "alice"))
    assert [a.blocked for a in attempts] == [False] * 5 + [True]
    assert attempts[-1].wait_seconds == WINDOW - 5
    # what the new window stored expires (with its window), none of it is kept for ever
    assert all(expiry is not None for expiry in cache._expire_info.values())


def test_every_count_expires_with_its_window(rf, clock):
    """The counts "expire by themselves": nothing the throttle stores outlives the window
    it belongs to."""
    request = from_address(rf, "192.0.2.1")
    fail(request, "alice", 3)
    clock.now = T + 300
    fail(request, "alice", 2)
    fail(request, None)
    assert cache._expire_info  # (the cache the tests use: Django's local memory)
    assert all(T + WINDOW <= expiry < T + WINDOW + 1 for expiry in cache._expire_info.values())
    clock.now = T + WINDOW
    assert not throttle.attempt(request, "alice").blocking


def test_an_empty_password_neither_counts_nor_clears_the_count(client, db):
    """A form sent without a password checks nothing: it is not an attempt, and it does
    not wipe the failures counted so far either."""
    User.objects.create_user("owner", password=PASSWORD)
    for _ in range(4):
        client.post("/accounts/login/", {"username": "owner", "password": "wrong"})
    client.post("/accounts/login/", {"username": "owner", "password": ""})
    client.post("/accounts/login/", {"username": "owner", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "owner", "password": PASSWORD})
    assert response.status_code == 429


def test_the_throttled_form_says_so_with_its_own_error_code(rf, db):
    User.objects.create_user("owner", password=PASSWORD)
    request = rf.post("/accounts/login/")
    for _ in range(5):
        form = throttle.ThrottledAuthenticationForm(
            request, data={"username": "owner", "password": "wrong"}
        )
        assert not form.is_valid() and not form.has_error(NON_FIELD_ERRORS, "throttled")
    form = throttle.ThrottledAuthenticationForm(
        request, data={"username": "owner", "password": PASSWORD}
    )
    assert not form.is_valid()
    assert form.has_error(NON_FIELD_ERRORS, "throttled")
    assert form.throttled is not None and form.throttled.wait_seconds == WINDOW


class Racing:
    """The cache, but the count expires between being found and being added to (the
    window ends in between): ``incr`` finds the key gone."""

    def __init__(self, real):
        self.real = real

    def __getattr__(self, name):
        return getattr(self.real, name)

    def incr(self, key, *args, **kwargs):
        self.real.delete(key)
        return self.real.incr(key, *args, **kwargs)


def test_a_count_that_expires_as_it_is_counted_starts_again_at_one(rf, clock, monkeypatch):
    request = from_address(rf, "192.0.2.1")

    def account_number() -> int:
        counted = throttle.attempt(request, "alice")
        return next(c.number for c in counted.counts if c.counter.kind == "account")

    numbers = [account_number()]
    monkeypatch.setattr(throttle, "cache", Racing(cache))
    numbers.append(account_number())  # the race: counted as the first of a new count
    monkeypatch.setattr(throttle, "cache", cache)
    numbers += [account_number(), account_number()]
    assert numbers == [1, 1, 2, 3]
    # and every count still ends with the window it is in (to the second)
    assert cache._expire_info
    assert all(T + WINDOW <= expiry < T + WINDOW + 1 for expiry in cache._expire_info.values())


def test_one_failure_allowed_means_the_first_is_checked(rf, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 1
    request = from_address(rf, "192.0.2.1")
    assert [a.blocked for a in fail(request, "alice", 2)] == [False, True]


def test_a_window_of_one_second(rf, settings, clock):
    settings.LOGIN_FAILURE_WINDOW = 1
    request = from_address(rf, "192.0.2.1")
    blocked = fail(request, "alice", 6)[-1]
    assert blocked.blocked and blocked.wait_seconds == 1
    clock.now = T + 1
    assert not throttle.attempt(request, "alice").blocked


def test_each_scope_counts_on_its_own(rf):
    """ "The same counters can throttle another form ... with another scope": failures to
    confirm a password (per account) or to ask for a reset (per address) are not log-in
    failures."""
    request = from_address(rf, "192.0.2.1")
    for _ in range(5):
        throttle.attempt(request, "alice", scope="password-again")
    for n in range(15):
        throttle.attempt(request, f"someone{n}@example.com", scope="password-reset")
    assert not throttle.attempt(request, "alice").blocked


def test_the_address_of_a_request_that_has_none(rf, settings):
    """No REMOTE_ADDR (a test client, a socket): "unknown"; an address that is not an IP
    counts by itself; behind a trusted proxy, a request without X-Forwarded-For counts
    by REMOTE_ADDR."""
    request = rf.get("/")
    del request.META["REMOTE_ADDR"]
    assert throttle.client_address(request) == "unknown"
    assert throttle.client_address(rf.get("/", REMOTE_ADDR="local-socket")) == "local-socket"
    settings.TRUSTED_PROXIES = ["192.0.2.1"]
    assert throttle.client_address(rf.get("/", REMOTE_ADDR="192.0.2.1")) == "192.0.2.1"
