"""Password reset by email: Django's views and tokens, throttled, never saying whether an
address belongs to an account."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

from tests.conftest import PASSWORD

NEW = "A-brand-new-pa55word"


@pytest.fixture
def jane(db) -> User:
    return User.objects.create_user("jane", "jane@example.org", PASSWORD)


def sent(background) -> list:
    """The mail sent so far: it goes in the background (accounts/tasks.py)."""
    background.run_all()
    return mail.outbox


def reset(client, email: str, **extra):
    return client.post(reverse("password_reset"), {"email": email}, **extra)


def test_the_log_in_page_links_to_the_reset(client, db):
    page = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in page and "Forgot your password?" in page


def test_reset_mails_a_link_that_sets_a_new_password(client, jane, background):
    response = reset(client, "JANE@example.org")
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(sent(background)) == 1
    message = sent(background)[0]
    assert message.to == ["jane@example.org"]
    assert message.subject == "Gangfight: choose a new password"
    assert '"jane"' in message.body
    link = re.search(r"http://testserver(/accounts/password/reset/\S+)", message.body).group(1)
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW, "new_password2": NEW}, follow=True)
    assert 'data-testid="reset-complete"' in done.content.decode()
    jane.refresh_from_db()
    assert jane.check_password(NEW)
    # the link works once
    again = client.get(link, follow=True).content.decode()
    assert 'data-testid="reset-link-invalid"' in again


def _without_tokens(response) -> str:
    page = re.sub(r'"X-CSRFToken": "\w+"', "", response.content.decode())
    return re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", page)


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, jane, background):
    known = reset(client, "jane@example.org", follow=True)
    unknown = reset(client, "nobody@example.org", follow=True)
    assert known.status_code == unknown.status_code == 200
    assert known.redirect_chain == unknown.redirect_chain
    assert _without_tokens(known) == _without_tokens(unknown)
    assert len(sent(background)) == 1


def test_an_inactive_or_former_member_gets_no_mail(client, jane, background):
    jane.is_active = False
    jane.save()
    reset(client, "jane@example.org")
    assert sent(background) == []


def test_a_bad_address_is_answered_beside_the_field(client, db):
    response = reset(client, "not an address")
    assert response.status_code == 200
    assert "Enter a valid email address." in response.content.decode()


def test_reset_is_throttled_per_typed_address(client, jane, settings, background):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 2
    for _ in range(2):
        assert reset(client, "jane@example.org").status_code == 302
    blocked = reset(client, "Jane@Example.org ")
    assert blocked.status_code == 429
    assert int(blocked["Retry-After"]) > 0
    assert "Too many password reset requests" in blocked.content.decode()
    assert len(sent(background)) == 2
    # another address from elsewhere is not held up by it
    assert reset(client, "other@example.org", REMOTE_ADDR="10.0.0.9").status_code == 302


def test_an_unknown_address_is_throttled_alike(client, db, settings):
    """Throttling says nothing either: it counts what was typed, account or not."""
    settings.LOGIN_FAILURES_PER_ACCOUNT = 1
    assert reset(client, "nobody@example.org").status_code == 302
    assert reset(client, "nobody@example.org").status_code == 429


def test_reset_is_throttled_per_client_address(client, jane, settings, background):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for n in range(3):
        assert reset(client, f"someone{n}@example.org").status_code == 302
    assert reset(client, "jane@example.org").status_code == 429
    assert sent(background) == []
    assert reset(client, "jane@example.org", REMOTE_ADDR="10.0.0.9").status_code == 302


def test_reset_counts_apart_from_log_in(client, jane, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 1
    client.post(reverse("login"), {"username": "jane@example.org", "password": "wrong"})
    client.post(reverse("login"), {"username": "jane@example.org", "password": "wrong"})
    assert reset(client, "jane@example.org").status_code == 302


def test_the_mail_goes_in_the_background_so_a_known_address_answers_as_fast(
    client, jane, background
):
    reset(client, "jane@example.org")
    assert mail.outbox == []  # nothing sent inside the request
    [submission] = background.tasks("accounts.tasks.send_mail")
    assert submission.kwargs["to"] == ["jane@example.org"]
    assert submission.kwargs["subject"] == "Gangfight: choose a new password"
    reset(client, "nobody@example.org")
    assert len(background.tasks("accounts.tasks.send_mail")) == 1


def test_a_mail_server_that_fails_never_fails_the_page(client, jane, background, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 1
    response = reset(client, "jane@example.org")
    assert response.status_code == 302
    assert len(background.tasks("accounts.tasks.send_mail")) == 1


@pytest.fixture(autouse=True)
def _no_printing_ahead(no_printing_ahead):
    """This module runs background work for mail and counts, never for PDFs."""
