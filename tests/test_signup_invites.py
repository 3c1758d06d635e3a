"""Issue 25: an invitation survives signing up. Logged out, a club or campaign invite (or a
league link) sends the player to log in with ``?next=``; every way on to the sign-up page
from there keeps it, sign-up brings the new player back to it, and so does the link that
confirms the address typed at sign-up. ``next`` is only ever a path of this site.

Also the log-in throttle's other half: a club night's players, all on the club's wifi (one
address), log in one after another without the address being blocked."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from campaigns import services as campaign_services
from campaigns.leagues import services as leagues
from campaigns.leagues.models import ClubMember
from tests.conftest import PASSWORD


@pytest.fixture
def club(db):
    boss = User.objects.create_user("boss", password=PASSWORD)
    return leagues.create_club(boss, name="Deadwood Irregulars")


def sign_up_data(username: str, **extra) -> dict:
    return {"username": username, "password1": PASSWORD, "password2": PASSWORD, **extra}


def hrefs(page: str, path: str) -> list[str]:
    """Every link on the page to ``path`` (with its query string, unescaped)."""
    found = re.findall(f'href="({re.escape(path)}[^"]*)"', page)
    return [h.replace("&amp;", "&") for h in found]


def signup_form(page: str) -> str:
    """The sign-up form (the header's language switcher has a ``next`` of its own)."""
    form = re.search(r'<form method="post" action="/accounts/signup/".*?</form>', page, re.S)
    return form.group(0)


def next_of(url: str) -> str | None:
    values = parse_qs(urlsplit(url).query).get("next")
    return values[0] if values else None


# --------------------------------------------------------------------------- the way there


def test_a_club_invite_logged_out_leads_to_a_log_in_page_whose_sign_up_links_keep_it(club):
    invite = reverse("club_join", args=[club.invite_token])
    response = Client().get(invite)
    assert response.status_code == 302
    login = response["Location"]
    assert login.startswith(reverse("login")) and next_of(login) == invite

    page = Client().get(login).content.decode()
    signups = hrefs(page, reverse("signup"))
    # the sentence's link ("New here? Sign up.") and the header's button: both keep it
    assert len(signups) == 2
    assert all(next_of(h) == invite for h in signups), signups


def test_the_sign_up_page_keeps_next_in_its_form_and_in_its_log_in_links(club):
    invite = reverse("club_join", args=[club.invite_token])
    page = Client().get(reverse("signup") + "?next=" + quote(invite)).content.decode()
    assert f'<input type="hidden" name="next" value="{invite}">' in page
    logins = hrefs(page, reverse("login"))
    assert len(logins) == 2 and all(next_of(h) == invite for h in logins), logins
    assert 'data-testid="signup-next"' in page  # it says where it leads back to
    # a mistake in the form: it comes back, still leading to the invite
    wrong = Client().post(reverse("signup"), sign_up_data("x", password2="other", next=invite))
    assert wrong.status_code == 200
    assert f'name="next" value="{invite}"' in signup_form(wrong.content.decode())


def test_without_next_the_links_are_plain(db):
    page = Client().get(reverse("login")).content.decode()
    assert hrefs(page, reverse("signup")) == [reverse("signup")] * 2
    page = Client().get(reverse("signup")).content.decode()
    assert 'name="next"' not in signup_form(page) and 'data-testid="signup-next"' not in page


# --------------------------------------------------------------------------- signing up


def test_signing_up_from_a_club_invite_lands_on_it_and_the_new_player_joins(club):
    invite = reverse("club_join", args=[club.invite_token])
    client = Client()
    response = client.post(reverse("signup"), sign_up_data("newcomer", next=invite))
    assert response.status_code == 302 and response["Location"] == invite
    page = client.get(invite)
    assert page.status_code == 200 and "Deadwood Irregulars" in page.content.decode()
    assert 'data-testid="join-club"' in page.content.decode()
    joined = client.post(invite)
    assert joined["Location"] == reverse("club_detail", args=[club.pk])
    newcomer = User.objects.get(username="newcomer")
    assert ClubMember.objects.filter(club=club, user=newcomer, role="member").exists()


def test_a_club_night_of_seven_newcomers_all_land_on_the_invite(club):
    invite = reverse("club_join", args=[club.invite_token])
    for n in range(7):
        client = Client()
        login = client.get(invite)["Location"]
        signup = hrefs(client.get(login).content.decode(), reverse("signup"))[0]
        landed = client.post(signup, sign_up_data(f"newcomer{n}"))  # the link's ?next=
        assert landed["Location"] == invite, n
        client.post(invite)
    assert club.members.count() == 8


def test_signing_up_from_a_campaign_invite_lands_on_it(db):
    ada = User.objects.create_user("ada", password=PASSWORD)
    campaign = campaign_services.create_campaign(
        ada, system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    invite = reverse("campaign_join", args=[campaign.invite_token])
    client = Client()
    login = client.get(invite)["Location"]
    signup = hrefs(client.get(login).content.decode(), reverse("signup"))[0]
    response = client.post(signup, sign_up_data("newcomer"))
    assert response["Location"] == invite
    page = client.get(invite)
    assert page.status_code == 200 and "Deadrock" in page.content.decode()


def test_a_member_who_took_the_sign_up_link_by_mistake_logs_in_and_lands_on_the_league(club):
    cy = User.objects.create_user("cy", password=PASSWORD)
    leagues.join_club(club, cy)
    autumn = leagues.create_league(club, name="Autumn", system="bwg2", cap=700)
    link = reverse("league_register", args=[autumn.pk])
    client = Client()
    login = client.get(link)["Location"]
    signup = hrefs(client.get(login).content.decode(), reverse("signup"))[0]
    back = hrefs(client.get(signup).content.decode(), reverse("login"))[0]
    response = client.post(back, {"username": "cy", "password": PASSWORD, "next": next_of(back)})
    assert response["Location"] == link
    assert client.get(link).status_code == 200


def test_already_logged_in_the_sign_up_page_goes_on_to_next(club, owner_client):
    invite = reverse("club_join", args=[club.invite_token])
    response = owner_client.get(reverse("signup") + "?next=" + quote(invite))
    assert response["Location"] == invite


@pytest.mark.parametrize(
    "unsafe",
    [
        "https://evil.example/clubs/join/x/",
        "//evil.example/clubs/join/x/",
        "///evil.example/",
        "/\\evil.example/",
        "\\\\evil.example/",
        "javascript:alert(1)",
        "http://testserver@evil.example/",
        "https:evil.example",
        "/\t/evil.example/",
    ],
)
def test_next_is_only_ever_a_path_of_this_site(db, unsafe):
    client = Client()
    page = client.get(reverse("signup") + "?next=" + quote(unsafe)).content.decode()
    assert 'name="next"' not in signup_form(page)
    assert hrefs(page, reverse("login")) == [reverse("login")] * 2
    response = client.post(reverse("signup"), sign_up_data("newcomer", next=unsafe))
    assert response.status_code == 302 and response["Location"] == reverse("gang_list")
    login = Client().get(reverse("login") + "?next=" + quote(unsafe)).content.decode()
    assert hrefs(login, reverse("signup")) == [reverse("signup")] * 2


def test_the_address_confirmation_mailed_at_sign_up_leads_back_to_the_invite(club, background):
    invite = reverse("club_join", args=[club.invite_token])
    client = Client()
    client.post(reverse("signup"), sign_up_data("newcomer", email="new@example.org", next=invite))
    background.run_all()
    (message,) = mail.outbox
    link = re.search(r"http://testserver(/\S+)", message.body).group(1)
    assert next_of(link) == invite
    # opened later, maybe logged out: log in, confirm, and back to the invite
    later = Client()
    login = later.get(link)["Location"]
    assert next_of(login) == link
    logged_in = later.post(login, {"username": "newcomer", "password": PASSWORD, "next": link})
    assert logged_in["Location"] == link
    confirm = later.get(link).content.decode()
    assert 'data-testid="confirm-email"' in confirm
    response = later.post(link)
    assert response.status_code == 302 and response["Location"] == invite
    assert User.objects.get(username="newcomer").email == "new@example.org"


def test_a_confirmation_link_with_a_foreign_next_goes_to_the_account_page(owner, background):
    client = Client()
    client.force_login(owner)
    client.post(reverse("email_change"), {"email": "o@example.org", "password": PASSWORD})
    background.run_all()
    link = re.search(r"http://testserver(/\S+)", mail.outbox[0].body).group(1)
    assert "next" not in link  # (nothing to go back to from the account page)
    response = client.post(link + "?next=" + quote("https://evil.example/"))
    assert response["Location"] == reverse("account")


# --------------------------------------------------------------------------- throttling


def test_a_club_nights_players_all_log_in_from_the_clubs_wifi(db, settings):
    """Successful log-ins take themselves back off their address's count: the club's
    wifi (one address) is never blocked by its own players logging in."""
    players = settings.LOGIN_FAILURES_PER_ADDRESS + 5
    for n in range(players):
        User.objects.create_user(f"player{n}", password=PASSWORD)
    for n in range(players):
        response = Client(REMOTE_ADDR="203.0.113.9").post(
            reverse("login"), {"username": f"player{n}", "password": PASSWORD}
        )
        assert response.status_code == 302, n
    # and a typo after all of them is still a typo, not a block
    typo = Client(REMOTE_ADDR="203.0.113.9").post(
        reverse("login"), {"username": "player0", "password": "wrong"}
    )
    assert typo.status_code == 200


@pytest.fixture(autouse=True)
def _no_printing_ahead(no_printing_ahead):
    """This module runs background work for mail and counts, never for PDFs."""
