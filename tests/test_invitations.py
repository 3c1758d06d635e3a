"""Invitations easy to pass on (issue 18, item 3): a Copy button beside every invite and
share link (and the link in a read-only field without JavaScript), the organiser joining
her own campaign or league with one button, and invite links revoked and replaced.

Every view for the organiser (or owner), another member, a stranger and an anonymous
visitor."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse

from builder.services import import_gang
from campaigns import services as campaign_services
from campaigns.leagues import services as league_services
from campaigns.leagues.models import Club, League, Registration
from campaigns.models import Campaign
from rules.roster import read_roster
from tests.helpers.users import client_for, make_user

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
RED_JACKS = "rivals-legal-red-jacks-gang.json"
SIX_OUTLAWS = "rivals-legal-six-outlaws.json"
DALTONS = "bwg1-legal-dalton-boys.json"


def builder_gang(user: User, example: str = RED_JACKS, name: str | None = None):
    roster = read_roster((EXAMPLES / example).read_bytes())
    if name is not None:
        roster["name"] = name
    return import_gang(user, roster)


@pytest.fixture
def player(db) -> User:
    return make_user("bea")


@pytest.fixture
def stranger(db) -> User:
    return make_user("cid")


@pytest.fixture
def campaign(organiser, player) -> Campaign:
    campaign = campaign_services.create_campaign(
        organiser, system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    campaign_services.join_campaign(campaign, player, builder_gang(player))
    return campaign


@pytest.fixture
def members(player) -> list[User]:
    return [player]


@pytest.fixture
def club_details() -> dict:
    return {"name": "Dusty Dice"}


@pytest.fixture
def league(club) -> League:
    return league_services.create_league(
        club, name="Spring", system="bwg1", cap=400, pairing=League.SWISS, rounds=3
    )


def copy_field(page: str, field_id: str) -> str:
    """The link in its read-only field, with its Copy button: the field's value."""
    field = re.search(rf'<input type="text" id="{field_id}" value="([^"]+)" readonly[^>]*>', page)
    assert field, f"no read-only field #{field_id}"
    assert f'data-copy="{field_id}"' in page, "a Copy button for it"
    assert f'data-copy-status="{field_id}"' in page and 'aria-live="polite"' in page
    assert re.search(r'<script src="/static/js/copy\.js" defer></script>', page)
    return field[1]


def no_inline_script(page: str) -> None:
    for tag in re.findall(r"<script\b[^>]*>", page):
        assert "src=" in tag, f"an inline script: {tag}"


# --------------------------------------------------------------------------- the script


def test_copy_js_uses_the_clipboard_and_says_copied():
    script = (Path(settings.BASE_DIR) / "static" / "js" / "copy.js").read_text()
    assert "navigator.clipboard" in script and "writeText" in script
    assert "data-copied" in script and "aria-live" in script
    assert "execCommand" in script, "a fallback when the clipboard is refused"
    css = (Path(settings.BASE_DIR) / "static" / "css" / "invites.css").read_text()
    assert "html:not(.js) .copy-button { display: none; }" in css


# --------------------------------------------------------------------------- campaigns


def test_the_campaign_invite_link_has_a_copy_button(campaign, organiser, player, stranger):
    for user in (organiser, player):
        page = client_for(user).get(reverse("campaign_detail", args=[campaign.pk]))
        assert page.status_code == 200
        text = page.content.decode()
        url = copy_field(text, "invite-link")
        assert url == f"http://testserver/campaigns/join/{campaign.invite_token}/"
        no_inline_script(text)
    assert (
        client_for(stranger).get(reverse("campaign_detail", args=[campaign.pk])).status_code == 404
    )
    anonymous = client_for(None).get(reverse("campaign_detail", args=[campaign.pk]))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login")


def test_the_organiser_replaces_the_invite_link(campaign, organiser):
    old = campaign.invite_token
    client = client_for(organiser)
    url = reverse("campaign_invite_reset", args=[campaign.pk])
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk]) + "#next"
    campaign.refresh_from_db()
    assert campaign.invite_token != old
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert campaign.invite_token in page and old not in page
    assert "The old invite link no longer works" in page
    gone = client.get(reverse("campaign_join", args=[old]))
    assert gone.status_code == 404
    assert "This link is no longer valid" in gone.content.decode()
    assert client.get(reverse("campaign_join", args=[campaign.invite_token])).status_code == 200
    # A GET (a reload, a typed address) changes nothing.
    assert client.get(url).status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).invite_token == campaign.invite_token


def test_only_the_organiser_replaces_the_invite_link(campaign, player, stranger):
    old = campaign.invite_token
    url = reverse("campaign_invite_reset", args=[campaign.pk])
    assert client_for(player).post(url).status_code == 403
    assert client_for(stranger).post(url).status_code == 404
    anonymous = client_for(None).post(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login")
    assert Campaign.objects.get(pk=campaign.pk).invite_token == old
    page = client_for(player).get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert 'data-testid="invite-reset"' not in page


def test_the_organiser_joins_her_own_campaign_with_one_button(campaign, organiser, player):
    builder_gang(organiser, SIX_OUTLAWS, name="Ada's Outlaws")
    client = client_for(organiser)
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert 'data-testid="own-join"' in page
    form = re.search(
        r'<form method="post" action="([^"]+)" novalidate>\s*<input',
        page[page.index('data-testid="own-join"') :],
    )
    assert form and form[1] == reverse("campaign_join", args=[campaign.invite_token])
    gang = organiser.gangs.get()
    response = client.post(form[1], {"gang": gang.pk})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    state = campaign_services.state_of(campaign)
    assert "Ada's Outlaws" in [g.name for g in state.gangs.values()]
    assert len(state.gangs) == 2
    assert campaign_services.user_gang_ids(campaign, organiser)
    # A player is not offered it (the invite link is theirs), nor anyone once it runs.
    other = client_for(player).get(reverse("campaign_detail", args=[campaign.pk]))
    assert 'data-testid="own-join"' not in other.content.decode()
    campaign_services.record(campaign, organiser, "campaign_started", {})
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert 'data-testid="own-join"' not in page


def test_an_organiser_without_a_gang_of_the_game_is_told_so(campaign, organiser):
    page = client_for(organiser).get(reverse("campaign_detail", args=[campaign.pk]))
    assert "gang to join with." in page.content.decode()
    assert 'data-testid="own-join-submit"' not in page.content.decode()


# --------------------------------------------------------------------------- clubs


def test_the_club_invite_link_has_a_copy_button_for_organisers(club, organiser, player, stranger):
    page = client_for(organiser).get(reverse("club_detail", args=[club.pk])).content.decode()
    assert copy_field(page, "invite-link").endswith(f"/clubs/join/{club.invite_token}/")
    no_inline_script(page)
    member_page = client_for(player).get(reverse("club_detail", args=[club.pk])).content.decode()
    assert 'id="invite-link"' not in member_page
    assert client_for(stranger).get(reverse("club_detail", args=[club.pk])).status_code == 404


def test_a_club_organiser_replaces_the_invite_link(club, organiser, player, stranger):
    old = club.invite_token
    url = reverse("club_invite_reset", args=[club.pk])
    assert client_for(player).post(url).status_code == 403
    assert client_for(stranger).post(url).status_code == 404
    assert client_for(None).post(url)["Location"].startswith("/accounts/login")
    assert Club.objects.get(pk=club.pk).invite_token == old
    response = client_for(organiser).post(url)
    assert response["Location"] == reverse("club_detail", args=[club.pk]) + "#invite"
    club.refresh_from_db()
    assert club.invite_token != old
    gone = client_for(stranger).get(reverse("club_join", args=[old]))
    assert gone.status_code == 404 and "This link is no longer valid" in gone.content.decode()
    joined = client_for(stranger).post(reverse("club_join", args=[club.invite_token]))
    assert joined.status_code == 302
    assert club.members.filter(user=stranger).exists()


# --------------------------------------------------------------------------- leagues


def test_the_league_public_link_has_a_copy_button_and_is_replaced(
    league, organiser, player, stranger
):
    page = client_for(organiser).get(reverse("league_detail", args=[league.pk])).content.decode()
    old_url = copy_field(page, "public-link")
    assert old_url.endswith(f"/l/{league.public_token}/")
    no_inline_script(page)
    assert (
        'id="public-link"'
        not in client_for(player).get(reverse("league_detail", args=[league.pk])).content.decode()
    )
    url = reverse("league_public_reset", args=[league.pk])
    old = league.public_token
    assert client_for(player).post(url).status_code == 403
    assert client_for(stranger).post(url).status_code == 404
    assert client_for(None).post(url)["Location"].startswith("/accounts/login")
    assert League.objects.get(pk=league.pk).public_token == old
    response = client_for(organiser).post(url)
    assert response["Location"] == reverse("league_detail", args=[league.pk]) + "#organiser"
    league.refresh_from_db()
    gone = client_for(None).get(reverse("league_public", args=[old]))
    assert gone.status_code == 404 and "This link is no longer valid" in gone.content.decode()
    assert (
        client_for(None).get(reverse("league_public", args=[league.public_token])).status_code
        == 200
    )


def test_the_organiser_joins_her_own_league_with_one_button(league, organiser, player):
    gang = builder_gang(organiser, DALTONS)
    client = client_for(organiser)
    page = client.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert 'data-testid="own-join"' in page
    assert f'<option value="{gang.pk}" selected>{gang.name}</option>' in page  # her only one
    response = client.post(reverse("league_register", args=[league.pk]), {"gang": gang.pk})
    assert response.status_code == 302
    assert Registration.objects.filter(league=league, player=organiser, gang=gang).exists()
    page = client.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert 'data-testid="own-join"' not in page, "she plays now"
    # a member not playing yet is offered it too (issue 25), with no gang of the game
    other = client_for(player).get(reverse("league_detail", args=[league.pk])).content.decode()
    assert 'data-testid="own-join"' in other and 'data-testid="own-join-submit"' not in other


# --------------------------------------------------------------------------- gangs


def test_the_gang_share_link_has_a_copy_button(owner_client, gang, client):
    page = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    assert copy_field(page, "share-url").endswith(f"/s/{gang.share_token}/")
    assert "New link (the old one stops working)" in page
    shared = client.get(reverse("gang_shared", args=[gang.share_token])).content.decode()
    assert copy_field(shared, "share-url").endswith(f"/s/{gang.share_token}/")
    no_inline_script(shared)
