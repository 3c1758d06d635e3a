"""Issue 27, findings 4, 5 and 6: links that cannot be bent or reused.

4. The "this wasn't me" link is one-time, and void once the account's address or
   password changes again.
5. Email-change mails are throttled like password resets: per account and per address
   typed.
6. Links in mail and PDFs come from ``SITE_URL`` (required when DEBUG is off), never from a
   request's Host; nothing a request says is stored for others.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache, caches
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parent.parent
SITE = "https://gangfight.example.org"
FOREIGN = "testserver:6666"  # ALLOWED_HOSTS ignores the port: Django lets it through


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def bob(db) -> User:
    return User.objects.create_user("bob", "bob@example.org", PASSWORD)


@pytest.fixture
def bob_client(bob) -> Client:
    client = Client()
    client.force_login(bob)
    return client


def sent(background) -> list:
    background.run_all()
    return mail.outbox


def link_in(message, path: str) -> str:
    return re.search(rf"https?://[^/\s]+({re.escape(path)}\S+)", message.body).group(1)


def change_address(client: Client, background, email: str) -> None:
    """Ask for ``email`` and open the confirmation link mailed to it."""
    mail.outbox.clear()
    client.post(reverse("email_change"), {"email": email, "password": PASSWORD})
    (confirm,) = sent(background)
    client.post(link_in(confirm, "/accounts/email/confirm/"))


# --------------------------------------------------------------------------- finding 4


def test_the_take_back_link_works_once(bob, bob_client, client, background):
    change_address(bob_client, background, "bob2@example.org")
    notice = sent(background)[-1]
    assert notice.to == ["bob@example.org"]
    revert = link_in(notice, "/accounts/email/revert/")
    client.post(revert)
    bob.refresh_from_db()
    assert bob.email == "bob@example.org"
    # bob sets a password and moves to bob2@ again: the old link must not undo it
    bob.set_password(PASSWORD)
    bob.save()
    bob_client.force_login(bob)
    change_address(bob_client, background, "bob2@example.org")
    page = client.post(revert).content.decode()
    bob.refresh_from_db()
    assert bob.email == "bob2@example.org" and bob.check_password(PASSWORD)
    assert "no longer works" in page or "used already" in page


def test_the_take_back_link_is_void_once_the_address_changes_again(
    bob, bob_client, client, background
):
    """The issue's probe: bob confirms bob2@, later moves to bob3@ on purpose; the first
    notice's link put bob@ back and scrambled his password, for three days."""
    change_address(bob_client, background, "bob2@example.org")
    revert = link_in(sent(background)[-1], "/accounts/email/revert/")
    change_address(bob_client, background, "bob3@example.org")
    page = client.post(revert).content.decode()
    bob.refresh_from_db()
    assert bob.email == "bob3@example.org" and bob.check_password(PASSWORD)
    assert "no longer works" in page
    assert "no longer works" in client.get(revert).content.decode()


def test_the_take_back_link_is_void_once_the_password_changes(bob, bob_client, client, background):
    change_address(bob_client, background, "bob2@example.org")
    revert = link_in(sent(background)[-1], "/accounts/email/revert/")
    bob.refresh_from_db()
    bob.set_password("An0ther-long-password")
    bob.save()
    client.post(revert)
    bob.refresh_from_db()
    assert bob.email == "bob2@example.org" and bob.check_password("An0ther-long-password")


# --------------------------------------------------------------------------- finding 5


def test_email_change_mails_to_one_address_are_throttled(bob, bob_client, background):
    """The issue's probe: 25 posts for alice@ sent alice 25 "address taken" mails."""
    User.objects.create_user("alice", "alice@example.org", PASSWORD)
    statuses = [
        bob_client.post(
            reverse("email_change"), {"email": "alice@example.org", "password": PASSWORD}
        ).status_code
        for _ in range(25)
    ]
    to_alice = [m for m in sent(background) if m.to == ["alice@example.org"]]
    assert len(to_alice) <= 5
    assert statuses[-1] == 429
    page = bob_client.post(
        reverse("email_change"), {"email": "alice@example.org", "password": PASSWORD}
    ).content.decode()
    assert "Too many" in page


def test_email_change_mails_from_one_account_are_throttled(bob, bob_client, background):
    """A free address each time: a confirmation mail each time, with bob's chosen name."""
    for n in range(25):
        bob_client.post(
            reverse("email_change"), {"email": f"victim{n}@example.org", "password": PASSWORD}
        )
    assert len(sent(background)) <= 5


def test_one_address_is_throttled_across_accounts_and_sign_ups(bob, background, db):
    carol = User.objects.create_user("carol", password=PASSWORD)
    clients = []
    for n, user in enumerate([bob, carol] * 4):
        c = Client(REMOTE_ADDR=f"198.51.100.{n}")
        c.force_login(user)
        clients.append(c)
    for c in clients:
        c.post(reverse("email_change"), {"email": "target@example.org", "password": PASSWORD})
    for n in range(4):
        Client(REMOTE_ADDR=f"192.0.2.{n}").post(
            reverse("signup"),
            {
                "username": f"newcomer{n}",
                "email": "target@example.org",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
    assert len([m for m in sent(background) if m.to == ["target@example.org"]]) <= 5


# --------------------------------------------------------------------------- finding 6


def test_a_reset_mail_links_to_site_url_whatever_the_host_and_port(
    db, client, settings, background
):
    settings.SITE_URL = SITE
    User.objects.create_user("jane", "jane@example.org", PASSWORD)
    client.post(reverse("password_reset"), {"email": "jane@example.org"}, HTTP_HOST=FOREIGN)
    (message,) = sent(background)
    assert "6666" not in message.body
    assert f"{SITE}/accounts/password/reset/" in message.body


def test_address_mails_link_to_site_url_whatever_the_host(bob, settings, background):
    settings.SITE_URL = SITE
    client = Client(HTTP_HOST=FOREIGN)
    client.force_login(bob)
    client.post(reverse("email_change"), {"email": "bob2@example.org", "password": PASSWORD})
    (confirm,) = sent(background)
    assert f"{SITE}/accounts/email/confirm/" in confirm.body and "6666" not in confirm.body
    client.post(link_in(confirm, "/accounts/email/confirm/"))
    notice = sent(background)[-1]
    assert f"{SITE}/accounts/email/revert/" in notice.body and "6666" not in notice.body
    signup = Client(HTTP_HOST=FOREIGN).post(
        reverse("signup"),
        {
            "username": "newcomer",
            "email": "new@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert signup.status_code == 302
    assert f"{SITE}/accounts/email/confirm/" in sent(background)[-1].body


def test_no_request_stores_its_host_for_others(db, settings):
    """The issue's probe: three anonymous GET /rules/ with a foreign Host rewrote the
    shared origin (``pdf:1:print:origin``, no expiry): every later mail and QR code
    pointed there."""
    from builder import printing
    from notifications import services as notifications

    settings.SITE_URL = ""
    for _ in range(3):
        Client().get(reverse("rules"), HTTP_HOST=FOREIGN)
    assert caches["pdf"].get("print:origin") is None
    assert "6666" not in notifications.site_url("/x/")
    assert "6666" not in printing.site_origin()
    settings.SITE_URL = SITE
    assert notifications.site_url("/x/") == f"{SITE}/x/"


def test_a_print_with_a_foreign_host_stores_nothing_and_prints_site_url(
    owner_client, owner, content, settings, monkeypatch
):
    from builder import printing
    from builder.printing import documents
    from tests.factories import build_gang

    settings.SITE_URL = ""
    gang = build_gang(owner)
    seen = {}
    monkeypatch.setattr(documents, "print_pdf", lambda *a, **k: seen.update(k) or b"%PDF-1.7")
    url = reverse("gang_print", args=[gang.pk]) + "?kind=sheet&paper=a4"
    owner_client.get(url, HTTP_HOST=FOREIGN)
    assert caches["pdf"].get("print:origin") is None
    assert "6666" not in printing.site_origin()
    settings.SITE_URL = SITE
    owner_client.get(url + "&fronts_only=on", HTTP_HOST=FOREIGN)
    assert seen["share_url"] == f"{SITE}/s/{gang.share_token}/"


def test_without_debug_the_app_refuses_to_start_without_site_url():
    env = {
        k: v for k, v in os.environ.items() if k not in ("SITE_URL", "DATABASE_URL", "REDIS_URL")
    }
    env.update({"DEBUG": "0", "SECRET_KEY": "x" * 50})
    code = "import gangfight_site.settings"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode != 0 and "SITE_URL" in out.stderr
    env["SITE_URL"] = "https://gangfight.example.org"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
