"""Email: the settings read from the environment, the address asked at sign-up, the
account page, and changing the address by a confirmation link sent to the new one."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail, signing
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.mail_settings import CONSOLE, SMTP, EmailSettingsError, email_settings
from tests.conftest import PASSWORD


@pytest.fixture(autouse=True)
def empty_cache():
    """Password checks are counted in the cache (throttling): each test starts afresh."""
    cache.clear()
    yield
    cache.clear()


# --------------------------------------------------------------------------- settings


def test_no_email_settings_prints_mail_to_the_console():
    found = email_settings({})
    assert found["EMAIL_BACKEND"] == CONSOLE
    assert found["DEFAULT_FROM_EMAIL"] == "Gangfight <noreply@localhost>"
    assert found["EMAIL_TIMEOUT"] == 10


def test_email_url_with_starttls_on_the_submission_port():
    found = email_settings(
        {
            "EMAIL_URL": "smtp://club%40example.org:p%3Ass%2Fw0rd@mail.example.org:587",
            "DEFAULT_FROM_EMAIL": "Gangfight <gangfight@example.org>",
        }
    )
    assert found == {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "club@example.org",
        "EMAIL_HOST_PASSWORD": "p:ss/w0rd",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
        "DEFAULT_FROM_EMAIL": "Gangfight <gangfight@example.org>",
        "SERVER_EMAIL": "Gangfight <gangfight@example.org>",
        "EMAIL_TIMEOUT": 10,
    }


def test_smtps_url_is_ssl_on_465_and_plain_smtp_is_port_25_without_tls():
    ssl = email_settings({"EMAIL_URL": "smtps://u:p@mail.example.org"})
    assert (ssl["EMAIL_PORT"], ssl["EMAIL_USE_SSL"], ssl["EMAIL_USE_TLS"]) == (465, True, False)
    plain = email_settings({"EMAIL_URL": "smtp://localhost"})
    assert (plain["EMAIL_PORT"], plain["EMAIL_USE_TLS"], plain["EMAIL_HOST_USER"]) == (
        25,
        False,
        "",
    )
    forced = email_settings({"EMAIL_URL": "smtp://relay:2525?tls=1"})
    assert (forced["EMAIL_PORT"], forced["EMAIL_USE_TLS"]) == (2525, True)


def test_the_usual_django_variables_work_without_email_url():
    found = email_settings(
        {
            "EMAIL_HOST": "smtp.example.org",
            "EMAIL_PORT": "587",
            "EMAIL_HOST_USER": "me",
            "EMAIL_HOST_PASSWORD": "secret",
            "EMAIL_USE_TLS": "1",
            "EMAIL_TIMEOUT": "30",
        }
    )
    assert found["EMAIL_BACKEND"] == SMTP
    assert (found["EMAIL_HOST"], found["EMAIL_PORT"], found["EMAIL_USE_TLS"]) == (
        "smtp.example.org",
        587,
        True,
    )
    assert (found["EMAIL_HOST_USER"], found["EMAIL_HOST_PASSWORD"]) == ("me", "secret")
    assert found["EMAIL_TIMEOUT"] == 30


@pytest.mark.parametrize(
    ("environ", "words"),
    [
        ({"EMAIL_URL": "http://mail.example.org"}, "must start smtp://"),
        ({"EMAIL_URL": "smtp://"}, "names no host"),
        ({"EMAIL_URL": "smtp://host:port"}, "port must be a number"),
        ({"EMAIL_HOST": "h", "EMAIL_PORT": "twenty-five"}, "EMAIL_PORT must be a port"),
        ({"EMAIL_HOST": "h", "EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"}, "not both"),
        ({"EMAIL_TIMEOUT": "soon"}, "EMAIL_TIMEOUT must be"),
    ],
)
def test_bad_email_settings_say_what_is_wrong(environ, words):
    with pytest.raises(EmailSettingsError, match=words):
        email_settings(environ)


def test_the_tests_catch_mail_in_memory(settings):
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.locmem.EmailBackend"


# --------------------------------------------------------------------------- sign-up


def test_sign_up_with_an_email_address_mails_a_link_that_makes_it_the_accounts(
    client, db, background
):
    response = client.post(
        reverse("signup"),
        {
            "username": "calamity",
            "email": " Jane@Example.org ",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )
    assert "We sent a link to Jane@example.org" in response.content.decode()
    calamity = User.objects.get(username="calamity")
    assert calamity.email == ""  # pending until the link is opened
    message = sent(background)[0]
    # kept as typed, the domain in lower case (as Django normalises it)
    assert message.to == ["Jane@example.org"]
    client.post(_link(message))
    calamity.refresh_from_db()
    assert calamity.email == "Jane@example.org"


def test_sign_up_without_an_email_address_is_fine(client, db, background):
    response = client.post(
        reverse("signup"), {"username": "calamity", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    assert User.objects.get(username="calamity").email == ""
    assert sent(background) == []


def _sign_up(client, username: str, email: str):
    return client.post(
        reverse("signup"),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )


def test_sign_up_with_a_taken_address_says_the_same_and_tells_its_owner(client, db, background):
    User.objects.create_user("jane", "jane@example.org", PASSWORD)
    page = _sign_up(client, "calamity", "JANE@example.ORG").content.decode()
    free = _sign_up(Client(), "hickok", "bill@example.org").content.decode()
    assert "Another account" not in page
    said = re.search(r"We sent a link to [^<]*", page).group(0)
    assert said == re.search(r"We sent a link to [^<]*", free).group(0).replace(
        "bill@example.org", "JANE@example.org"
    ).replace("hickok", "calamity")
    assert User.objects.get(username="calamity").email == ""
    assert User.objects.get(username="jane").email == "jane@example.org"
    notice, link = sent(background)
    assert notice.to == ["JANE@example.org"] and link.to == ["bill@example.org"]
    assert "already uses" in notice.body and "/accounts/email/confirm/" not in notice.body


def test_changing_to_a_taken_address_says_the_same_and_tells_its_owner(
    owner_client, owner, background
):
    User.objects.create_user("taken", "taken@example.org", PASSWORD)
    taken = ask(owner_client, "TAKEN@example.org")
    free = ask(owner_client, "free@example.org")
    assert taken.status_code == free.status_code == 302
    assert taken["Location"] == free["Location"]
    page = owner_client.get(reverse("account")).content.decode()
    assert "We sent a link to TAKEN@example.org" in page and "Another account" not in page
    notice, link = sent(background)
    assert notice.to == ["TAKEN@example.org"] and "already uses" in notice.body
    assert "/accounts/email/confirm/" not in notice.body and link.to == ["free@example.org"]
    owner.refresh_from_db()
    assert owner.email == ""


def test_sign_up_page_asks_for_an_optional_address(client, db):
    page = client.get(reverse("signup")).content.decode()
    assert 'name="email"' in page and "Optional." in page


# --------------------------------------------------------------------------- account page


def test_account_page_shows_name_address_and_links(owner_client, owner):
    owner.email = "owner@example.org"
    owner.save()
    page = owner_client.get(reverse("account")).content.decode()
    assert 'data-testid="account-username">owner<' in page
    assert 'data-testid="account-email">owner@example.org<' in page
    names = ("password_change", "email_change", "notification_settings", "my_data")
    for name in (*names, "account_delete"):
        assert f'href="{reverse(name)}"' in page


def test_account_page_invites_a_user_without_address_to_add_one(owner_client):
    page = owner_client.get(reverse("account")).content.decode()
    assert "Add an email address" in page


def test_the_header_names_the_user_and_leads_to_the_account(owner_client):
    page = owner_client.get(reverse("account")).content.decode()
    link = f'href="{reverse("account")}" class="account-link" title="Your account"'
    assert link + ' data-testid="nav-user"' in page
    css = (settings.BASE_DIR / "static/css/app.css").read_text()
    assert ".nav a.account-link { text-decoration: underline;" in css  # looks like a link


@pytest.mark.parametrize("name", ["account", "email_change", "my_data", "account_delete"])
def test_account_pages_send_anonymous_visitors_to_log_in(client, db, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# --------------------------------------------------------------------------- email change


def sent(background) -> list:
    """The mail sent so far: it goes in the background (accounts/tasks.py)."""
    background.run_all()
    return mail.outbox


def _link(message) -> str:
    return re.search(r"http://testserver(/\S+)", message.body).group(1)


def ask(client, email: str, password: str = PASSWORD):
    return client.post(reverse("email_change"), {"email": email, "password": password})


def test_changing_the_address_mails_the_new_one_and_changes_nothing_yet(
    owner_client, owner, background
):
    owner.email = "old@example.org"
    owner.save()
    response = ask(owner_client, "new@example.org")
    assert response.status_code == 302 and response["Location"] == reverse("account")
    assert len(sent(background)) == 1
    assert sent(background)[0].to == ["new@example.org"]
    assert "/accounts/email/confirm/" in sent(background)[0].body
    owner.refresh_from_db()
    assert owner.email == "old@example.org"
    page = owner_client.get(reverse("account")).content.decode()
    assert "We sent a link to new@example.org" in page


def test_opening_the_link_asks_then_the_button_changes_it_and_tells_the_old_address(
    owner_client, owner, background
):
    owner.email = "old@example.org"
    owner.save()
    ask(owner_client, "new@example.org")
    link = _link(sent(background)[0])
    page = owner_client.get(link).content.decode()
    assert "new@example.org" in page and 'data-testid="confirm-email"' in page
    owner.refresh_from_db()
    assert owner.email == "old@example.org"  # opening the page alone changes nothing
    response = owner_client.post(link, follow=True)
    owner.refresh_from_db()
    assert owner.email == "new@example.org"
    assert "Your email address is now new@example.org" in response.content.decode()
    assert sent(background)[-1].to == ["old@example.org"]
    assert "new@example.org" in sent(background)[-1].body
    # used once: the address has changed since, so the link is out of date
    again = owner_client.post(link).content.decode()
    assert "out of date" in again


def _changed(owner_client, owner, background) -> str:
    """Change the owner's address from old@ to new@; the "this wasn't me" link mailed to
    the old address."""
    owner.email = "old@example.org"
    owner.save()
    ask(owner_client, "new@example.org")
    owner_client.post(_link(sent(background)[0]))
    notice = sent(background)[-1]
    assert notice.to == ["old@example.org"]
    assert "reset your password" not in notice.body  # the reset would go to the new address
    return _link(notice)


def test_the_old_address_gets_a_link_that_takes_the_account_back(
    owner_client, owner, client, background
):
    link = _changed(owner_client, owner, background)
    assert "/accounts/email/revert/" in link
    page = client.get(link).content.decode()  # no log-in needed
    assert "new@example.org" in page and 'data-testid="revert-email"' in page
    owner.refresh_from_db()
    assert owner.email == "new@example.org"  # opening the page alone changes nothing
    page = client.post(link).content.decode()
    assert 'data-testid="reverted"' in page
    owner.refresh_from_db()
    assert owner.email == "old@example.org"
    assert not owner.check_password(PASSWORD) and owner.has_usable_password()
    # every session is logged out (the password's hash changed)
    assert owner_client.get(reverse("account")).status_code == 302
    # the owner sets a new password by a reset mailed to the old address
    client.post(reverse("password_reset"), {"email": "old@example.org"})
    assert sent(background)[-1].to == ["old@example.org"]
    # used once
    assert "used already" in client.post(link).content.decode()


def test_the_take_back_link_is_void_after_a_second_change(owner_client, owner, client, background):
    """Issue 27: a later change of address makes the link void (it used to undo the
    owner's own move to a third address, for three days). See test_hardening_links.py."""
    link = _changed(owner_client, owner, background)
    owner.refresh_from_db()
    owner.email = "third@example.org"
    owner.save()
    assert "no longer works" in client.post(link).content.decode()
    owner.refresh_from_db()
    assert owner.email == "third@example.org"


def test_the_take_back_link_expires_and_cannot_be_forged(
    owner_client, owner, client, settings, background
):
    link = _changed(owner_client, owner, background)
    assert "not valid" in client.post(link[:-3] + "xyz/").content.decode()
    settings.EMAIL_CONFIRMATION_SECONDS = -1
    assert "expired" in client.post(link).content.decode()
    owner.refresh_from_db()
    assert owner.email == "new@example.org"


def test_a_first_address_needs_no_notice(owner_client, owner, background):
    ask(owner_client, "first@example.org")
    owner_client.post(_link(sent(background)[0]))
    owner.refresh_from_db()
    assert owner.email == "first@example.org"
    assert len(sent(background)) == 1


def test_the_link_opened_by_another_user_changes_nothing(
    owner_client, owner, stranger_client, background
):
    ask(owner_client, "new@example.org")
    link = _link(sent(background)[0])
    page = stranger_client.post(link).content.decode()
    assert "sent for another account" in page
    owner.refresh_from_db()
    assert owner.email == ""
    assert not User.objects.filter(email="new@example.org").exists()


def test_the_link_opened_logged_out_asks_to_log_in_first(client, owner_client, background):
    ask(owner_client, "new@example.org")
    link = _link(sent(background)[0])
    response = client.get(link)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_an_expired_link_says_so(owner_client, owner, settings, background):
    ask(owner_client, "new@example.org")
    link = _link(sent(background)[0])
    settings.EMAIL_CONFIRMATION_SECONDS = -1
    page = owner_client.post(link).content.decode()
    assert "expired" in page
    owner.refresh_from_db()
    assert owner.email == ""


def test_a_tampered_link_is_refused(owner_client, owner):
    token = services.email_change_token(owner, "new@example.org")
    forged = signing.dumps({"u": owner.pk, "e": "evil@example.org", "was": ""}, salt="other")
    for bad in (token[:-2] + "xx", forged):
        page = owner_client.post(reverse("email_confirm", args=[bad])).content.decode()
        assert "not valid" in page
    owner.refresh_from_db()
    assert owner.email == ""


def test_an_address_taken_meanwhile_is_refused_at_confirmation(owner_client, owner, background):
    ask(owner_client, "new@example.org")
    User.objects.create_user("quick", "NEW@example.org", PASSWORD)
    page = owner_client.post(_link(sent(background)[0])).content.decode()
    assert "Another account uses this email address now" in page
    owner.refresh_from_db()
    assert owner.email == ""


@pytest.mark.parametrize(
    ("email", "password", "words"),
    [
        ("new@example.org", "wrong", "This is not your password."),
        ("not an address", PASSWORD, "Enter a valid email address."),
        ("OWNER@example.org", PASSWORD, "This is your address already."),
    ],
)
def test_a_bad_change_is_answered_beside_the_field_and_sends_nothing(
    owner_client, owner, email, password, words, background
):
    owner.email = "owner@example.org"
    owner.save()
    User.objects.create_user("taken", "taken@example.org", PASSWORD)
    response = ask(owner_client, email, password)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert sent(background) == []


def test_what_is_typed_is_escaped(owner_client):
    response = ask(owner_client, '"<script>x</script>"@example.org', "wrong")
    assert "<script>x" not in response.content.decode()


def test_guessing_the_password_on_the_email_page_is_throttled(owner_client, owner, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 1
    ask(owner_client, "new@example.org", "guess")
    response = ask(owner_client, "new@example.org")
    assert "Too many wrong passwords" in response.content.decode()


def test_the_settings_read_email_url_and_refuse_a_bad_one():
    import os
    import subprocess
    import sys

    from django.conf import settings as django_settings

    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'gangfight_site.settings'; "
        "django.setup(); from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_SSL, s.DEFAULT_FROM_EMAIL)"
    )

    def run(**env):
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=django_settings.BASE_DIR,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=60,
        )

    good = run(EMAIL_URL="smtps://u:p@mail.example.org", DEFAULT_FROM_EMAIL="club@example.org")
    assert good.stdout.split() == [SMTP, "mail.example.org", "465", "True", "club@example.org"]
    bad = run(EMAIL_URL="http://mail.example.org")
    assert bad.returncode != 0
    assert "ImproperlyConfigured" in bad.stderr and "EMAIL_URL must start smtp://" in bad.stderr


@pytest.fixture(autouse=True)
def _no_printing_ahead(no_printing_ahead):
    """This module runs background work for mail and counts, never for PDFs."""
