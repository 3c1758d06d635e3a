"""Choosing the language: LocaleMiddleware (cookie, then Accept-Language, then English), the
switcher in the header (a plain form posting to ``set_language``), and a signed-in user's
choice kept on their profile and restored when they log in."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from tests.conftest import PASSWORD

COOKIE = settings.LANGUAGE_COOKIE_NAME


def text(response) -> str:
    return response.content.decode()


@pytest.mark.django_db
def test_english_is_the_default():
    page = text(Client().get(reverse("home")))
    assert '<html lang="en-gb"' in page
    assert "Log in" in page


@pytest.mark.django_db
def test_a_first_visit_follows_accept_language():
    page = text(Client().get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5"))
    assert '<html lang="fr"' in page


@pytest.mark.django_db
def test_an_unknown_language_falls_back_to_english():
    page = text(Client().get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9"))
    assert '<html lang="en-gb"' in page


@pytest.mark.django_db
def test_the_switcher_sets_the_cookie_and_goes_back():
    client = Client()
    page = text(client.get(reverse("rules")))
    assert 'data-testid="language-switcher"' in page
    assert 'name="language" value="fr"' in page
    response = client.post(reverse("set_language"), {"language": "fr", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert client.cookies[COOKIE].value == "fr"
    # the cookie wins over the browser's language from then on
    page = text(client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="en"))
    assert '<html lang="fr"' in page


@pytest.mark.django_db
def test_the_switcher_refuses_a_foreign_next_and_a_get():
    client = Client()
    response = client.post(
        reverse("set_language"), {"language": "fr", "next": "https://evil.example/"}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get(reverse("set_language")).status_code == 405


def test_a_signed_in_choice_is_kept_on_the_profile(owner_client, owner):
    owner_client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert Profile.objects.get(user=owner).language == "fr"
    owner_client.post(reverse("set_language"), {"language": "en-gb", "next": "/"})
    assert Profile.objects.get(user=owner).language == "en-gb"
    owner_client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert Profile.objects.get(user=owner).language == "en-gb"


def test_an_anonymous_choice_touches_no_profile(db):
    Client().post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert not Profile.objects.exists()


def test_log_in_restores_the_profiles_language(owner):
    Profile.objects.create(user=owner, language="fr")
    client = Client()  # a new browser: no cookie, an English one
    response = client.post(
        reverse("login"),
        {"username": "owner", "password": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    assert client.cookies[COOKIE].value == "fr"
    assert '<html lang="fr"' in text(client.get(reverse("gang_list")))


def test_log_in_keeps_the_current_language_for_a_user_who_never_chose(owner):
    client = Client()
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    client.post(reverse("login"), {"username": "owner", "password": PASSWORD})
    assert Profile.objects.get(user=owner).language == "fr"


def test_sign_up_keeps_the_language_read_then(db):
    client = Client()
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    response = client.post(
        reverse("signup"),
        {"username": "newcomer", "password1": "a-Long-pass-123", "password2": "a-Long-pass-123"},
    )
    assert response.status_code == 302, text(response)
    assert Profile.objects.get(user__username="newcomer").language == "fr"


def test_deleting_an_account_forgets_its_language(owner_client, owner):
    owner_client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    from accounts import services

    services.delete_account(owner)
    assert not Profile.objects.filter(user=owner).exists()
    assert User.objects.filter(pk=owner.pk).exists()


def test_mail_to_another_player_is_in_their_language(owner, background):
    """The new organiser of a club handed over on a deletion reads the notice in French
    (their profile's language), whatever the language of the request that deleted."""
    from django.core import mail

    from accounts import services
    from campaigns.leagues import services as league_services

    heir = User.objects.create_user("heir", email="heir@example.org", password=PASSWORD)
    Profile.objects.create(user=heir, language="fr")
    club = league_services.create_club(owner, name="Zorro Club")
    league_services.join_club(club, heir)
    services.delete_account(owner)
    background.run_all()
    handed = [m for m in mail.outbox if m.to == ["heir@example.org"] and "Zorro Club" in m.subject]
    assert handed, [m.subject for m in mail.outbox]
    assert "vous organisez désormais « Zorro Club »" in handed[0].subject
    assert "Bonjour heir" in handed[0].body


@pytest.fixture(autouse=True)
def _no_printing_ahead(no_printing_ahead):
    """This module runs background work for mail and counts, never for PDFs."""
