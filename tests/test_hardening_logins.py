"""Issue 27, findings 1 and 2: nobody can lock everyone out behind a proxy, and nobody can
lock one player out (common/throttle.py).

Behind the README's reverse proxy every request comes from the proxy's address
(``REMOTE_ADDR`` 127.0.0.1) with the client's in ``X-Forwarded-For``: only the hop named
in ``TRUSTED_PROXIES`` is believed. A browser that has logged in to an account before
carries a signed device cookie, and the right password from it is never refused, however
many wrong ones others typed; a new browser past the account's limit may ask for a
one-time link by mail."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from common import throttle
from tests.conftest import PASSWORD

PROXY = "127.0.0.1"


@pytest.fixture(autouse=True)
def behind_the_proxy(settings):
    """The README's recipe: the app trusts the proxy on the same machine, and only it."""
    settings.TRUSTED_PROXIES = [PROXY]
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(db) -> User:
    return User.objects.create_user("alice", "alice@example.org", PASSWORD)


def via_proxy(client_address: str, **extra) -> Client:
    """A browser at ``client_address``, as the proxy hands its requests to the app."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_address, **extra)


def log_in(client: Client, username: str, password: str, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def sent(background) -> list:
    background.run_all()
    return mail.outbox


# --------------------------------------------------------------------------- finding 1


def test_made_up_usernames_from_one_client_do_not_lock_out_everyone_behind_the_proxy(alice):
    """The issue's probe: 30 log-ins with made-up usernames, then every user's right
    password got 429 for 15 minutes, because every request came from the proxy."""
    attacker = via_proxy("203.0.113.9")
    statuses = [log_in(attacker, f"made-up-{n}", "guess").status_code for n in range(30)]
    assert statuses[-1] == 429  # the attacker's own address is limited...
    player = via_proxy("198.51.100.20")
    response = log_in(player, "alice", PASSWORD)  # ...and nobody else's
    assert response.status_code == 302 and logged_in(player)


def test_only_the_trusted_hop_is_believed(db, rf, settings):
    def address(remote: str, forwarded: str) -> str:
        return throttle.client_address(
            rf.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
        )

    # straight to the app (not through the proxy): X-Forwarded-For is anyone's claim
    assert address("203.0.113.9", "198.51.100.1") == "203.0.113.9"
    # through the proxy, which appends the address it saw: the last untrusted hop
    assert address(PROXY, "198.51.100.1, 203.0.113.9") == "203.0.113.9"
    assert address(PROXY, "203.0.113.9") == "203.0.113.9"
    # two proxies named: both are skipped, the client's is the one before them
    settings.TRUSTED_PROXIES = [PROXY, "10.0.0.0/8"]
    assert address(PROXY, "1.2.3.4, 203.0.113.9, 10.1.2.3") == "203.0.113.9"
    # nothing to believe: the proxy's own address counts
    assert address(PROXY, "") == PROXY


def test_made_up_forwarded_addresses_sent_straight_to_the_app_do_not_help(db):
    """A client that reaches the app directly cannot claim a new address each time."""
    for n in range(20):
        Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").post(
            reverse("login"), {"username": f"x{n}", "password": "guess"}
        )
    direct = Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert log_in(direct, "y", "guess").status_code == 429


def test_forwarded_headers_from_an_untrusted_peer_are_dropped(db, settings):
    """X-Forwarded-Proto too: only the named proxy may say the request came over HTTPS."""
    from django.http import HttpResponse

    from gangfight_site.middleware import ProxyHeadersMiddleware

    seen = {}

    def view(request):
        seen.update(request.META)
        return HttpResponse()

    middleware = ProxyHeadersMiddleware(view)
    from django.test import RequestFactory

    rf = RequestFactory()
    middleware(rf.get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_PROTO="https"))
    assert "HTTP_X_FORWARDED_PROTO" not in seen
    seen.clear()
    middleware(rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_PROTO="https"))
    assert seen["HTTP_X_FORWARDED_PROTO"] == "https"


# --------------------------------------------------------------------------- finding 2


def test_wrong_passwords_from_others_never_stop_the_owners_browser(alice):
    """The issue's probe: 15 wrong passwords for alice and her right one got 429. Her
    browser has logged in before: its right password is never refused."""
    browser = via_proxy("198.51.100.20")
    assert log_in(browser, "alice", PASSWORD).status_code == 302
    browser.post(reverse("logout"))
    for n in range(15):
        log_in(via_proxy(f"203.0.113.{n}"), "alice", f"guess-{n}")
    assert log_in(via_proxy("203.0.113.99"), "alice", "guess").status_code == 429
    response = log_in(browser, "alice", PASSWORD)
    assert response.status_code == 302 and logged_in(browser)
    # ... again and again
    browser.post(reverse("logout"))
    for n in range(15):
        log_in(via_proxy(f"203.0.113.{n}"), "alice", f"more-{n}")
    assert log_in(browser, "alice", PASSWORD).status_code == 302


def test_the_owners_browser_is_believed_even_from_a_limited_network(alice, settings):
    browser = via_proxy("198.51.100.20")
    log_in(browser, "alice", PASSWORD)
    browser.post(reverse("logout"))
    neighbour = via_proxy("198.51.100.20")  # the same club's network, another browser
    for n in range(25):
        log_in(neighbour, f"nobody{n}", "guess")
    assert log_in(neighbour, "somebody", "guess").status_code == 429
    assert log_in(browser, "alice", PASSWORD).status_code == 302


def test_a_device_cookie_is_for_its_own_account_only(alice):
    """Mallory logs in to his own account, then guesses alice's password from the same
    browser: her account's limit still applies to him."""
    User.objects.create_user("mallory", password=PASSWORD)
    browser = via_proxy("203.0.113.9")
    assert log_in(browser, "mallory", PASSWORD).status_code == 302
    browser.post(reverse("logout"))
    with mock.patch("django.contrib.auth.forms.authenticate", wraps=authenticate) as checked:
        statuses = [log_in(browser, "alice", f"guess-{n}").status_code for n in range(8)]
    assert statuses == [200] * 5 + [429] * 3
    assert checked.call_count == 5


def test_a_forged_or_stolen_device_cookie_is_not_believed(alice):
    browser = via_proxy("198.51.100.20")
    log_in(browser, "alice", PASSWORD)
    browser.post(reverse("logout"))
    cookie = browser.cookies[throttle.DEVICE_COOKIE].value
    forged = via_proxy("203.0.113.9")
    forged.cookies[throttle.DEVICE_COOKIE] = cookie[:-2] + "xx"
    statuses = [log_in(forged, "alice", f"guess-{n}").status_code for n in range(6)]
    assert statuses == [200] * 5 + [429]
    # a stolen one gets its own limit, then counts as a new browser's
    stolen = via_proxy("203.0.113.10")
    stolen.cookies[throttle.DEVICE_COOKIE] = cookie
    statuses = [log_in(stolen, "alice", f"guess-{n}").status_code for n in range(6)]
    assert statuses == [200] * 5 + [429]


def test_a_new_browser_past_the_limit_can_get_a_one_time_link_by_mail(alice, background):
    for n in range(6):
        log_in(via_proxy(f"203.0.113.{n}"), "alice", f"guess-{n}")
    phone = via_proxy("198.51.100.30")
    response = log_in(phone, "alice", PASSWORD)
    assert response.status_code == 429 and not logged_in(phone)
    page = response.content.decode()
    assert 'data-testid="login-link"' in page  # the way in: a link by mail
    asked = phone.post(reverse("login_link"), {"username": "alice"})
    assert asked.status_code == 200
    assert "If this account has an email address" in asked.content.decode()
    messages = sent(background)
    assert [m.to for m in messages] == [["alice@example.org"]]
    link = re.search(r"http://testserver(/accounts/login/link/\S+)", messages[0].body).group(1)
    assert phone.get(link).status_code == 200 and not logged_in(phone)  # a page, a button
    assert phone.post(link).status_code == 302 and logged_in(phone)
    # used once
    other = via_proxy("198.51.100.31")
    assert "no longer works" in other.post(link).content.decode()
    assert not logged_in(other)
    # and the phone is now a browser alice has logged in from
    phone.post(reverse("logout"))
    assert log_in(phone, "alice", PASSWORD).status_code == 302


def test_asking_for_a_link_says_the_same_for_anyone_and_is_throttled(alice, background):
    for name in ["nobody", "alice"]:
        page = via_proxy("198.51.100.30").post(reverse("login_link"), {"username": name})
        assert "If this account has an email address" in page.content.decode()
    assert [m.to for m in sent(background)] == [["alice@example.org"]]
    statuses = [
        via_proxy("198.51.100.30").post(reverse("login_link"), {"username": "alice"}).status_code
        for _ in range(6)
    ]
    assert statuses[-1] == 429
    assert len(sent(background)) <= 5
