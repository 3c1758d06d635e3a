"""The club pages and a league's set-up (campaigns/leagues/views/clubs.py): who may see and do what,
clubs and roles, joining by link, creating a league and its settings, registering a gang,
withdrawing, pairing rounds (round robin and Swiss), swapping tables, finishing, and the
query counts of the pages that list things."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from builder.services import import_gang
from campaigns import services as campaign_services
from campaigns.leagues import services as league_services
from campaigns.leagues.models import (
    Club,
    ClubMember,
    League,
    MatchReport,
    Pairing,
    Registration,
    Round,
)
from campaigns.models import CampaignGang
from rules.roster import read_roster
from tests.helpers.pages import text_of
from tests.helpers.users import client_for, make_user

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
CREW = "bwg2-legal-tranquility-crew-700.json"  # 700 Fame
SWITCH = "bwg2-legal-switch-sides-325.json"  # 325 Fame
DALTONS = "bwg1-legal-dalton-boys.json"
HOSTILE = "<script>alert(1)</script>"


# --------------------------------------------------------------------------- helpers


def builder_gang(user: User, example: str = CREW, name: str | None = None):
    roster = read_roster((EXAMPLES / example).read_bytes())
    if name is not None:
        roster["name"] = name
    return import_gang(user, roster)


def new_league(club: Club, **fields) -> League:
    values = {"name": "Spring season", "system": "bwg2", "pairing": League.SWISS, "rounds": 3}
    values.update(fields)
    return league_services.create_league(club, **values)


def add_players(league: League, n: int, start: int = 0) -> list[Registration]:
    """``n`` club members registered directly (no builder gang: pairing needs none)."""
    out = []
    for i in range(start, start + n):
        user = make_user(f"player{i:02d}")
        ClubMember.objects.create(club=league.club, user=user)
        out.append(
            Registration.objects.create(league=league, player=user, gang_name=f"Gang {i:02d}")
        )
    return out


def confirm_round(league: League, number: int, winner: str = "a") -> None:
    """Every match of round ``number`` reported by player A and confirmed by player B."""
    pairings = Pairing.objects.filter(round__league=league, round__number=number, b__isnull=False)
    for p in pairings.select_related("a__player", "b__player"):
        report = league_services.submit_report(
            p, p.a.player, {"vp_a": 10, "vp_b": 4, "winner": winner}
        )
        league_services.confirm_report(report, p.b.player)


def pairs_of(league: League, number: int) -> list[tuple[int, int | None]]:
    return list(
        Pairing.objects.filter(round__league=league, round__number=number)
        .order_by("table")
        .values_list("a_id", "b_id")
    )


def assert_login(response) -> None:
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.fixture
def member(db) -> User:
    return make_user("member")


@pytest.fixture
def outsider(db) -> User:
    return make_user("outsider")


@pytest.fixture
def members(member) -> list[User]:
    return [member]


@pytest.fixture
def club_details() -> dict:
    return {"name": "Deadrock Irregulars", "about": "Tuesdays."}


@pytest.fixture
def league(club) -> League:
    return new_league(club)


def post_next(league: League, user: User):
    return client_for(user).post(reverse("league_next_round", args=[league.pk]))


def post_next_refused(league: League, user: User):
    """A refused pairing redirects back to the rounds page (issue 30: no error page that a
    reload posts again), which says why: the page followed."""
    client = client_for(user)
    response = client.post(reverse("league_next_round", args=[league.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("league_rounds", args=[league.pk]))
    return client.get(response["Location"])


# --------------------------------------------------------------------------- who may do what


def page_urls(club: Club, league: League) -> dict[str, str]:
    return {
        "club_list": reverse("club_list"),
        "club_create": reverse("club_create"),
        "club_join": reverse("club_join", args=[club.invite_token]),
        "club_detail": reverse("club_detail", args=[club.pk]),
        "league_create": reverse("league_create", args=[club.pk]),
        "league_settings": reverse("league_settings", args=[league.pk]),
        "league_register": reverse("league_register", args=[league.pk]),
        "league_rounds": reverse("league_rounds", args=[league.pk]),
    }


ORGANISER_PAGES = {"league_create", "league_settings"}
OPEN_PAGES = {"club_list", "club_create", "club_join"}  # any logged-in user


PAGES = [
    "club_list",
    "club_create",
    "club_join",
    "club_detail",
    "league_create",
    "league_settings",
    "league_register",
    "league_rounds",
]


@pytest.mark.parametrize("page", PAGES)
def test_the_organiser_sees_every_page(club, league, organiser, page):
    response = client_for(organiser).get(page_urls(club, league)[page])
    assert response.status_code == 200, page


@pytest.mark.parametrize("page", PAGES)
def test_a_member_sees_the_pages_but_not_the_organisers(club, league, member, page):
    response = client_for(member).get(page_urls(club, league)[page])
    assert response.status_code == (403 if page in ORGANISER_PAGES else 200), page


@pytest.mark.parametrize("page", PAGES)
def test_an_outsider_gets_404_except_for_the_open_pages(club, league, outsider, page):
    response = client_for(outsider).get(page_urls(club, league)[page])
    assert response.status_code == (200 if page in OPEN_PAGES else 404), page


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_goes_to_login(club, league, client, page):
    assert_login(client.get(page_urls(club, league)[page]))


def action_urls(club: Club, league: League, organiser_membership: ClubMember) -> dict[str, str]:
    return {
        "club_member_role": reverse("club_member_role", args=[club.pk, organiser_membership.pk]),
        "league_next_round": reverse("league_next_round", args=[league.pk]),
        "league_swap": reverse("league_swap", args=[league.pk, 1]),
        "league_finish": reverse("league_finish", args=[league.pk]),
        "league_withdraw": reverse("league_withdraw", args=[league.pk]),
    }


@pytest.fixture
def running_league(league, organiser, member) -> League:
    """The fixture league with four players (the member among them), round 1 paired."""
    Registration.objects.create(league=league, player=member, gang_name="Member's gang")
    add_players(league, 3)
    league_services.next_round(league)
    return league


ACTIONS = [
    "club_member_role",
    "league_next_round",
    "league_swap",
    "league_finish",
    "league_withdraw",
]


@pytest.mark.parametrize("action", ACTIONS[:4])
def test_organiser_actions_are_403_for_a_member(club, running_league, member, action):
    mine = club.members.get(role=ClubMember.ORGANISER)
    url = action_urls(club, running_league, mine)[action]
    data = {"role": "member", "first": "1:a", "second": "2:a", "confirm": "on"}
    assert client_for(member).post(url, data).status_code == 403
    assert ClubMember.objects.get(pk=mine.pk).role == ClubMember.ORGANISER
    assert Round.objects.filter(league=running_league).count() == 1
    assert League.objects.get(pk=running_league.pk).status == League.RUNNING
    assert pairs_of(running_league, 1) == pairs_of(League.objects.get(pk=running_league.pk), 1)


@pytest.mark.parametrize("action", ACTIONS)
def test_actions_are_404_for_an_outsider(club, running_league, outsider, action):
    mine = club.members.get(role=ClubMember.ORGANISER)
    url = action_urls(club, running_league, mine)[action]
    assert client_for(outsider).post(url, {"role": "member", "confirm": "on"}).status_code == 404


@pytest.mark.parametrize("action", ACTIONS)
def test_actions_send_anonymous_to_login_and_back_to_a_page(
    club, running_league, client, organiser, action
):
    mine = club.members.get(role=ClubMember.ORGANISER)
    url = action_urls(club, running_league, mine)[action]
    response = client.post(url, {"confirm": "on"})
    assert_login(response)
    assert League.objects.get(pk=running_league.pk).status == League.RUNNING
    # after logging in the browser comes back to the action URL with a GET: a page
    back = client_for(organiser).get(url)
    assert back.status_code == 302
    page = back["Location"]
    assert page in (
        reverse("club_detail", args=[club.pk]),
        reverse("league_rounds", args=[running_league.pk]),
        reverse("league_register", args=[running_league.pk]),
    )


def test_unknown_club_league_or_token_is_404(club, league, organiser):
    client = client_for(organiser)
    assert client.get(reverse("club_detail", args=[club.pk + 99])).status_code == 404
    assert client.get(reverse("league_rounds", args=[league.pk + 99])).status_code == 404
    assert client.get(reverse("league_settings", args=[league.pk + 99])).status_code == 404
    assert client.get(reverse("club_join", args=["not-a-token"])).status_code == 404
    url = reverse("club_member_role", args=[club.pk, 9999])
    assert client.post(url, {"role": "member"}).status_code == 404


def test_a_league_of_another_club_is_404_even_for_an_organiser(league, outsider):
    other = league_services.create_club(outsider, name="Other club")
    assert other.pk != league.club_id
    client = client_for(outsider)
    assert client.get(reverse("league_settings", args=[league.pk])).status_code == 404
    assert client.post(reverse("league_next_round", args=[league.pk])).status_code == 404


# --------------------------------------------------------------------------- clubs


def test_create_a_club(organiser):
    client = client_for(organiser)
    response = client.post(reverse("club_create"), {"name": "  Tombstone Club ", "about": "Hi"})
    club = Club.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("club_detail", args=[club.pk])
    assert club.name == "Tombstone Club"
    assert club.members.get().role == ClubMember.ORGANISER
    page = text_of(client.get(response["Location"]))
    assert "Tombstone Club" in page
    assert reverse("club_join", args=[club.invite_token]) in page  # the invite link
    assert "http://testserver/clubs/join/" in page  # absolute


def test_a_club_needs_a_name(organiser):
    response = client_for(organiser).post(reverse("club_create"), {"name": "   "})
    assert response.status_code == 200
    assert "Give the club a name." in text_of(response)
    assert not Club.objects.exists()


def test_club_list_shows_my_role_members_and_running_leagues(club, league, member, outsider):
    add_players(league, 2)
    league_services.next_round(league)
    new_league(club, name="Summer")
    page = text_of(client_for(member).get(reverse("club_list")))
    assert "Deadrock Irregulars" in page
    assert "Member" in page
    assert "4 members" in page  # organiser, member, two players
    assert "1 league running" in page
    assert "1 open for registration" in page
    empty = text_of(client_for(outsider).get(reverse("club_list")))
    assert "You are in no club yet." in empty


def test_club_page_shows_members_leagues_and_escapes_user_text(club, organiser, member):
    Club.objects.filter(pk=club.pk).update(about=HOSTILE)
    league = new_league(club, name=HOSTILE)
    add_players(league, 3)
    league_services.next_round(league)
    for user in (organiser, member):
        page = client_for(user).get(reverse("club_detail", args=[club.pk])).content.decode()
        assert HOSTILE not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "Round 1 of 3" in page
        assert reverse("league_detail", args=[league.pk]) in page
        assert "Blackwater Gulch 2nd edition" in page
    organiser_page = text_of(client_for(organiser).get(reverse("club_detail", args=[club.pk])))
    member_page = text_of(client_for(member).get(reverse("club_detail", args=[club.pk])))
    for marker in ('data-testid="invite-link"', 'data-testid="new-league"', 'name="role"'):
        assert marker in organiser_page
        assert marker not in member_page


def test_an_organiser_changes_roles_but_the_last_organiser_stays(club, organiser, member):
    client = client_for(organiser)
    mine = club.members.get(user=organiser)
    theirs = club.members.get(user=member)
    # the only organiser can't step down: the error shows beside the role
    response = client.post(reverse("club_member_role", args=[club.pk, mine.pk]), {"role": "member"})
    assert response.status_code == 200
    assert "A club needs at least one organiser." in text_of(response)
    assert 'data-testid="role-error"' in text_of(response)
    assert ClubMember.objects.get(pk=mine.pk).role == ClubMember.ORGANISER
    # make the member an organiser; then the first may step down
    response = client.post(
        reverse("club_member_role", args=[club.pk, theirs.pk]), {"role": "organiser"}
    )
    assert response.status_code == 302
    assert ClubMember.objects.get(pk=theirs.pk).role == ClubMember.ORGANISER
    response = client.post(reverse("club_member_role", args=[club.pk, mine.pk]), {"role": "member"})
    assert response.status_code == 302
    assert ClubMember.objects.get(pk=mine.pk).role == ClubMember.MEMBER
    # no longer an organiser: 403
    response = client.post(
        reverse("club_member_role", args=[club.pk, theirs.pk]), {"role": "member"}
    )
    assert response.status_code == 403


def test_a_bad_role_is_an_error_not_a_500(club, organiser, member):
    theirs = club.members.get(user=member)
    url = reverse("club_member_role", args=[club.pk, theirs.pk])
    response = client_for(organiser).post(url, {"role": "sheriff"})
    assert response.status_code == 200
    assert "Choose organiser or member." in text_of(response)
    assert ClubMember.objects.get(pk=theirs.pk).role == ClubMember.MEMBER


def test_join_by_link_twice_is_fine(club, outsider):
    client = client_for(outsider)
    url = reverse("club_join", args=[club.invite_token])
    page = text_of(client.get(url))
    assert "Join “Deadrock Irregulars”" in page
    assert 'data-testid="join-club"' in page
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("club_detail", args=[club.pk])
    assert club.members.get(user=outsider).role == ClubMember.MEMBER
    again = client.post(url, follow=True)
    assert again.status_code == 200
    assert "already a member" in text_of(again)
    assert club.members.filter(user=outsider).count() == 1
    page = text_of(client.get(url))
    assert 'data-testid="already-member"' in page
    assert reverse("club_detail", args=[club.pk]) in page


def test_anonymous_join_goes_to_login_and_back(club, client):
    url = reverse("club_join", args=[club.invite_token])
    response = client.post(url)
    assert_login(response)
    assert not club.members.filter(user__username="").exists()


# --------------------------------------------------------------------------- leagues


def league_data(**overrides) -> dict[str, str]:
    data = {
        "name": "Autumn season",
        "system": "bwg2",
        "cap": "700",
        "starts": "2026-09-01",
        "ends": "2026-11-30",
        "win_points": "3",
        "draw_points": "1",
        "loss_points": "0",
        "tiebreaks_0": "vp_diff",
        "tiebreaks_1": "head_to_head",
        "tiebreaks_2": "sos",
        "pairing": "swiss",
        "rounds": "4",
        "campaign": "",
    }
    data.update(overrides)
    return data


def test_create_a_league(club, organiser):
    response = client_for(organiser).post(
        reverse("league_create", args=[club.pk]),
        league_data(tiebreaks_0="sos", tiebreaks_1="vp_diff", tiebreaks_2=""),
    )
    league = League.objects.get(name="Autumn season")
    assert response.status_code == 302
    assert response["Location"] == reverse("league_detail", args=[league.pk])
    assert (league.club, league.system, league.cap, league.rounds) == (club, "bwg2", 700, 4)
    assert (league.win_points, league.draw_points, league.loss_points) == (3, 1, 0)
    assert league.tiebreak_list == ["sos", "vp_diff"]
    assert str(league.starts) == "2026-09-01"
    assert league.status == League.REGISTRATION


def test_the_new_league_form_offers_defaults_and_help(club, organiser, member):
    campaign_services.create_campaign(
        organiser, system="bwg2", name="Deadrock campaign", encounters=5, house_rules={}
    )
    page = text_of(client_for(organiser).get(reverse("league_create", args=[club.pk])))
    assert 'name="win_points" value="3"' in page
    assert 'name="draw_points" value="1"' in page
    assert 'name="loss_points" value="0"' in page
    assert '<option value="vp_diff" selected>' in page
    assert "everyone plays everyone once (players \u2212 1 rounds, or players if odd)" in page
    assert '<input type="number" name="rounds" min="1"' in page  # empty: everyone once
    assert 'name="first_round" value="random" id="id_first_round_0" checked>' in page
    assert "always built with 30 CCP" in page  # the cap's help per game
    assert "Deadrock campaign" in page
    for system in ("bwg1", "bwg2", "gf26", "rivals", "gunfight"):
        assert f'<option value="{system}"' in page


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"starts": "2026-09-02", "ends": "2026-09-01"}, "ends", "can't end before it starts"),
        ({"tiebreaks_1": "vp_diff"}, "tiebreaks", "Tiebreakers are each used once"),
        ({"tiebreaks_0": "coin_toss"}, "tiebreaks", "Select a valid choice"),
        ({"name": " "}, "name", "Give the league a name."),
        ({"rounds": "0"}, "rounds", "greater than or equal to 1"),
        ({"win_points": "-1"}, "win_points", "greater than or equal to 0"),
        ({"system": "rivals", "cap": "30"}, "cap", "Leave it empty"),
        ({"system": "gunfight", "cap": "10"}, "cap", "Leave it empty: Gunfight has no points"),
        ({"system": "chess"}, "system", "Select a valid choice"),
        ({"starts": "yesterday"}, "starts", "Enter a valid date."),
    ],
)
def test_bad_league_settings_show_an_error_and_save_nothing(
    club, organiser, overrides, field, message
):
    response = client_for(organiser).post(
        reverse("league_create", args=[club.pk]), league_data(**overrides)
    )
    assert response.status_code == 200
    assert message in text_of(response)
    assert field in response.context["form"].errors
    assert not League.objects.exists()


def test_a_campaign_of_another_game_is_refused_and_of_the_same_game_kept(club, organiser):
    rivals = campaign_services.create_campaign(
        organiser, system="rivals", name="Rivals run", encounters=5, house_rules={}
    )
    bwg2 = campaign_services.create_campaign(
        organiser, system="bwg2", name="Gulch run", encounters=5, house_rules={}
    )
    url = reverse("league_create", args=[club.pk])
    client = client_for(organiser)
    response = client.post(url, league_data(campaign=str(rivals.pk)))
    assert response.status_code == 200
    assert "Choose a campaign of the league's game." in text_of(response)
    response = client.post(url, league_data(campaign=str(bwg2.pk)))
    assert response.status_code == 302
    assert League.objects.get().campaign == bwg2


def test_someone_elses_campaign_is_not_offered(club, organiser, member):
    theirs = campaign_services.create_campaign(
        member, system="bwg2", name="Member's run", encounters=5, house_rules={}
    )
    response = client_for(organiser).post(
        reverse("league_create", args=[club.pk]), league_data(campaign=str(theirs.pk))
    )
    assert response.status_code == 200
    assert "campaign" in response.context["form"].errors
    assert not League.objects.exists()


def test_settings_change_scoring_and_recheck_gangs_on_a_new_cap(league, organiser, member):
    gang = builder_gang(member)
    registration = league_services.register(league, member, gang)
    assert registration.checked_version == gang.version
    url = reverse("league_settings", args=[league.pk])
    client = client_for(organiser)
    page = text_of(client.get(url))
    assert 'name="system"' in page and "disabled" in page  # the game is fixed
    response = client.post(
        url,
        league_data(name="Spring season", system="gf26", cap="500", win_points="2", tiebreaks_2=""),
    )
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.system == "bwg2"  # a disabled field keeps its value
    assert (league.cap, league.win_points, league.tiebreak_list) == (
        500,
        2,
        ["vp_diff", "head_to_head"],
    )
    registration.refresh_from_db()  # re-checked against the new cap at once
    assert registration.checked_version == gang.version
    assert not registration.legal and "over the limit of 500" in registration.problems


def test_settings_keep_the_pairing_and_enough_rounds_once_paired(running_league, organiser):
    url = reverse("league_settings", args=[running_league.pk])
    client = client_for(organiser)
    response = client.post(url, league_data(pairing="round_robin", rounds="2", cap=""))
    assert response.status_code == 302
    running_league.refresh_from_db()
    assert running_league.pairing == League.SWISS
    assert running_league.rounds == 2
    response = client.post(url, league_data(rounds="0", cap=""))
    assert response.status_code == 200


def test_settings_refuse_fewer_rounds_than_paired(running_league, organiser):
    confirm_round(running_league, 1)
    league_services.next_round(running_league)
    url = reverse("league_settings", args=[running_league.pk])
    response = client_for(organiser).post(url, league_data(rounds="1", cap=""))
    assert response.status_code == 200
    assert "2 rounds are already paired" in text_of(response)


def test_the_game_may_change_while_nobody_registered(league, organiser):
    url = reverse("league_settings", args=[league.pk])
    response = client_for(organiser).post(url, league_data(system="gf26", cap="500"))
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.system, league.cap) == ("gf26", 500)


# --------------------------------------------------------------------------- registering


def register_url(league: League) -> str:
    return reverse("league_register", args=[league.pk])


def test_register_a_legal_gang(league, member):
    gang = builder_gang(member)
    client = client_for(member)
    page = text_of(client.get(register_url(league)))
    assert "Tranquility" in page and "675 Fame" in page and "legal" in page
    assert "may cost at most this much Fame (325 or 700 are usual)." in page  # the game's
    response = client.post(register_url(league), {"gang": gang.pk})
    assert response.status_code == 302
    assert response["Location"] == reverse("league_detail", args=[league.pk])
    registration = Registration.objects.get(league=league)
    assert (registration.player, registration.gang, registration.gang_name) == (
        member,
        gang,
        gang.name,
    )
    assert 'data-testid="registered"' in text_of(client.get(register_url(league)))


def test_an_illegal_gang_under_the_cap_is_refused_with_its_problems(club, member):
    league = new_league(club, cap=500)
    gang = builder_gang(member)
    client = client_for(member)
    page = text_of(client.get(register_url(league)))
    assert "illegal under the cap" in page
    response = client.post(register_url(league), {"gang": gang.pk})
    assert response.status_code == 200
    html = text_of(response)
    assert "breaks the rules under the league's cap" in html
    assert "Fame 675 is over the limit of 500" in html
    assert "gang" in response.context["form"].errors
    assert not Registration.objects.exists()


def test_someone_elses_gang_or_a_gang_of_another_game_is_refused(league, member, organiser):
    theirs = builder_gang(organiser)
    other_game = builder_gang(member, DALTONS)
    client = client_for(member)
    for gang in (theirs, other_game):  # the member has no gang of the game
        response = client.post(register_url(league), {"gang": gang.pk})
        assert response.status_code == 200
        assert "Choose one of your own gangs of the league's game." in text_of(response)
    builder_gang(member, SWITCH)
    for gang in (theirs, other_game):  # nor with one
        response = client.post(register_url(league), {"gang": gang.pk})
        assert response.status_code == 200
        assert "Choose one of your own gangs of the league's game." in text_of(response)
        assert 'class="field has-error"' in text_of(response)
    response = client.post(register_url(league), {"gang": ""})
    assert "Choose the gang you play with." in text_of(response)
    assert not Registration.objects.exists()


def test_no_gang_of_the_game_says_how_to_get_one(league, member):
    page = text_of(client_for(member).get(register_url(league)))
    assert "You have no Blackwater Gulch 2nd edition gang yet." in page
    assert reverse("gang_import") in page


def test_re_registering_before_play_changes_the_gang(league, member):
    first = builder_gang(member)
    second = builder_gang(member, SWITCH)
    client = client_for(member)
    client.post(register_url(league), {"gang": first.pk})
    response = client.post(register_url(league), {"gang": second.pk})
    assert response.status_code == 302
    registration = Registration.objects.get()
    assert registration.gang == second
    assert registration.gang_name == second.name


def test_once_play_starts_a_registered_player_cant_change(running_league, member):
    gang = builder_gang(member)
    response = client_for(member).post(register_url(running_league), {"gang": gang.pk})
    assert response.status_code == 200
    assert "can't change once play starts" in text_of(response)
    assert Registration.objects.get(league=running_league, player=member).gang is None


def test_register_with_a_campaign_gang(club, organiser, member):
    campaign = campaign_services.create_campaign(
        organiser, system="bwg2", name="Gulch run", encounters=5, house_rules={}
    )
    league = new_league(club, campaign=campaign)
    gang = builder_gang(member)
    in_campaign = campaign_services.join_campaign(campaign, member, builder_gang(member, SWITCH))
    someone_else = campaign_services.join_campaign(campaign, organiser, builder_gang(organiser))
    client = client_for(member)
    page = text_of(client.get(register_url(league)))
    assert 'name="campaign_gang"' in page
    assert in_campaign.name in page
    response = client.post(
        register_url(league), {"gang": gang.pk, "campaign_gang": someone_else.pk}
    )
    assert response.status_code == 200
    assert "Choose one of your own gangs in the campaign." in text_of(response)
    assert not Registration.objects.exists()
    response = client.post(register_url(league), {"gang": gang.pk, "campaign_gang": in_campaign.pk})
    assert response.status_code == 302
    registration = Registration.objects.get()
    assert registration.campaign_gang == in_campaign
    assert CampaignGang.objects.filter(campaign=campaign).count() == 2


def test_a_new_campaign_forgets_campaign_gangs_of_the_old_one(club, organiser, member):
    first = campaign_services.create_campaign(
        organiser, system="bwg2", name="First run", encounters=5, house_rules={}
    )
    second = campaign_services.create_campaign(
        organiser, system="bwg2", name="Second run", encounters=5, house_rules={}
    )
    league = new_league(club, campaign=first)
    in_first = campaign_services.join_campaign(first, member, builder_gang(member, SWITCH))
    registration = league_services.register(league, member, builder_gang(member))
    Registration.objects.filter(pk=registration.pk).update(campaign_gang=in_first)
    url = reverse("league_settings", args=[league.pk])
    response = client_for(organiser).post(url, league_data(campaign=str(second.pk)))
    assert response.status_code == 302
    registration.refresh_from_db()
    assert registration.campaign_gang is None
    assert League.objects.get(pk=league.pk).campaign == second


def test_late_entries_join_a_swiss_league_but_not_a_round_robin(club, organiser, member):
    swiss = new_league(club)
    robin = new_league(club, name="Robin", pairing=League.ROUND_ROBIN)
    for league in (swiss, robin):
        add_players(league, 2, start=0 if league is swiss else 2)
        league_services.next_round(league)
    gang = builder_gang(member)
    client = client_for(member)
    page = text_of(client.get(register_url(robin)))
    assert "The round robin has started: nobody can join it now." in page
    assert 'data-testid="register-form"' not in page
    response = client.post(register_url(robin), {"gang": gang.pk})
    assert response.status_code == 200
    assert "The round robin has started" in text_of(response)
    assert not Registration.objects.filter(league=robin, player=member).exists()
    response = client.post(register_url(swiss), {"gang": gang.pk})
    assert response.status_code == 302
    assert Registration.objects.filter(league=swiss, player=member).exists()


def test_a_league_without_a_campaign_asks_for_no_campaign_gang(league, member):
    builder_gang(member)
    page = text_of(client_for(member).get(register_url(league)))
    assert 'name="campaign_gang"' not in page


def test_withdraw_before_play_removes_the_registration(league, member):
    league_services.register(league, member, builder_gang(member))
    response = client_for(member).post(reverse("league_withdraw", args=[league.pk]))
    assert response.status_code == 302
    assert not Registration.objects.exists()


def test_withdraw_after_play_drops_the_player_and_keeps_results(running_league, member):
    confirm_round(running_league, 1)
    response = client_for(member).post(reverse("league_withdraw", args=[running_league.pk]))
    assert response.status_code == 302
    registration = Registration.objects.get(league=running_league, player=member)
    assert registration.dropped
    assert MatchReport.objects.count() == 2  # the results stay
    league_services.next_round(running_league)
    round_two = [p for pair in pairs_of(running_league, 2) for p in pair]
    assert registration.pk not in round_two  # paired no more
    assert None in round_two  # three players: a bye


def test_withdraw_without_a_registration_is_404(league, member):
    assert client_for(member).post(reverse("league_withdraw", args=[league.pk])).status_code == 404


# --------------------------------------------------------------------------- rounds


def test_round_robin_with_four_players(club, organiser):
    league = new_league(club, pairing=League.ROUND_ROBIN, rounds=3)
    players = add_players(league, 4)
    met = []
    for number in (1, 2, 3):
        response = post_next(league, organiser)
        assert response.status_code == 302
        assert response["Location"].endswith(f"#round-{number}")
        pairs = pairs_of(league, number)
        assert len(pairs) == 2 and all(b is not None for _, b in pairs)
        met += [frozenset(p) for p in pairs]
        confirm_round(league, number)
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations([r.pk for r in players], 2)), key=sorted
    )
    response = post_next_refused(league, organiser)
    assert response.status_code == 200
    assert "All 3 rounds are played" in text_of(response)


def test_round_robin_with_five_players_gives_each_one_bye(club, organiser, member):
    league = new_league(club, pairing=League.ROUND_ROBIN, rounds=5)
    players = add_players(league, 5)
    byes, met = [], set()
    for number in range(1, 6):
        assert post_next(league, organiser).status_code == 302
        pairs = pairs_of(league, number)
        assert len(pairs) == 3
        byes += [a for a, b in pairs if b is None]
        met |= {frozenset(p) for p in pairs if p[1] is not None}
        confirm_round(league, number)
    assert sorted(byes) == sorted(r.pk for r in players)
    assert len(met) == 10
    page = text_of(client_for(member).get(reverse("league_rounds", args=[league.pk])))
    assert page.count("<em>bye</em>") == 5
    assert 'data-testid="pair-round"' not in page  # members see the rounds read-only


def test_swiss_second_round_avoids_rematches(club, organiser):
    league = new_league(club, rounds=3)
    add_players(league, 6)
    assert post_next(league, organiser).status_code == 302
    first = {frozenset(p) for p in pairs_of(league, 1)}
    confirm_round(league, 1)
    assert post_next(league, organiser).status_code == 302
    second = {frozenset(p) for p in pairs_of(league, 2)}
    assert len(second) == 3
    assert not first & second


def test_next_round_is_refused_while_a_match_has_no_confirmed_result(running_league, organiser):
    p = Pairing.objects.filter(round__league=running_league).select_related("a__player").first()
    league_services.submit_report(p, p.a.player, {"vp_a": 3, "vp_b": 1, "winner": "a"})
    response = post_next_refused(running_league, organiser)
    assert response.status_code == 200
    html = text_of(response)
    assert "Round 1 has 2 results missing (1 not reported yet; 1 waiting for the opp" in html
    assert Round.objects.filter(league=running_league).count() == 1


def test_the_first_round_needs_two_players(league, organiser):
    response = post_next_refused(league, organiser)
    assert response.status_code == 200
    assert "at least two registered players" in text_of(response)
    assert not Round.objects.exists()


def test_rounds_page_shows_tables_status_and_score(running_league, organiser, member):
    confirm_round(running_league, 1)
    page = text_of(client_for(member).get(reverse("league_rounds", args=[running_league.pk])))
    assert "Round 1" in page
    assert page.count('data-testid="table"') == 2
    assert "10\u20134" in page
    assert "Confirmed" in page
    pairing = Pairing.objects.filter(round__league=running_league).first()
    assert reverse("match_detail", args=[running_league.pk, pairing.pk]) in page
    assert "Member's gang" in page


def test_swap_two_tables(running_league, organiser):
    before = pairs_of(running_league, 1)
    url = reverse("league_swap", args=[running_league.pk, 1])
    client = client_for(organiser)
    page = text_of(client.get(reverse("league_rounds", args=[running_league.pk])))
    assert 'data-testid="swap-1"' in page
    response = client.post(url, {"first": "1:b", "second": "2:a"})
    assert response.status_code == 302
    after = pairs_of(running_league, 1)
    assert after[0] == (before[0][0], before[1][0])
    assert after[1] == (before[0][1], before[1][1])


def test_swap_needs_two_tables_and_no_report(running_league, organiser):
    url = reverse("league_swap", args=[running_league.pk, 1])
    client = client_for(organiser)
    before = pairs_of(running_league, 1)
    response = client.post(url, {"first": "1:a", "second": "1:b"})
    assert response.status_code == 200
    assert "Choose a player at another table." in text_of(response)
    response = client.post(url, {"first": "1:a", "second": "9:b"})
    assert response.status_code == 200
    assert "Choose a player." in text_of(response)
    p = Pairing.objects.filter(round__league=running_league, table=2).select_related("a__player")
    p = p.get()
    league_services.submit_report(p, p.a.player, {"vp_a": 3, "vp_b": 1, "winner": "a"})
    page = text_of(client.get(reverse("league_rounds", args=[running_league.pk])))
    assert 'data-testid="swap-1"' not in page
    response = client.post(url, {"first": "1:a", "second": "2:a"})
    assert response.status_code == 200
    assert "A result is already reported" in text_of(response)
    assert pairs_of(running_league, 1) == before
    assert client.post(reverse("league_swap", args=[running_league.pk, 7])).status_code == 404


def test_finish_asks_first_then_finishes(running_league, organiser):
    confirm_round(running_league, 1)
    url = reverse("league_finish", args=[running_league.pk])
    client = client_for(organiser)
    response = client.post(url)
    assert response.status_code == 200
    html = text_of(response)
    assert 'data-testid="finish-confirm"' in html
    assert "Only 1 of the 3 rounds is paired." in html
    assert League.objects.get(pk=running_league.pk).status == League.RUNNING
    response = client.post(url, {"confirm": "on"})
    assert response.status_code == 302
    assert response["Location"] == reverse("league_detail", args=[running_league.pk])
    assert League.objects.get(pk=running_league.pk).status == League.FINISHED
    page = text_of(client.get(reverse("league_rounds", args=[running_league.pk])))
    assert 'data-testid="pair-round"' not in page and 'data-testid="finish"' not in page


def test_finish_is_refused_while_the_last_round_is_open(running_league, organiser):
    response = client_for(organiser).post(
        reverse("league_finish", args=[running_league.pk]), {"confirm": "on"}
    )
    assert response.status_code == 200
    assert "without a confirmed result" in text_of(response)
    assert League.objects.get(pk=running_league.pk).status == League.RUNNING


# --------------------------------------------------------------------------- query counts


# session, user, the club, its members, its leagues (with players and rounds)
CLUB_DETAIL_QUERIES = 5
# session, user, the league (with club, campaign and role), its pairings (with players
# and reports), how many players are active
ROUNDS_QUERIES = 5


# session, user, the user's memberships (with clubs, member and league counts)
CLUB_LIST_QUERIES = 3


@pytest.mark.parametrize("clubs", [1, 5])
def test_club_list_costs_the_same_for_few_or_many(member, django_assert_num_queries, clubs):
    for n in range(clubs):
        club = league_services.create_club(make_user(f"boss{n}"), name=f"Club {n}")
        league_services.join_club(club, member)
        add_players(new_league(club), 2, start=2 * n)
    client = client_for(member)
    with django_assert_num_queries(CLUB_LIST_QUERIES):
        response = client.get(reverse("club_list"))
    assert response.status_code == 200
    assert text_of(response).count('class="gang-card club-card"') == clubs


@pytest.mark.parametrize("players", [2, 12])
def test_club_detail_costs_the_same_for_few_or_many(
    club, organiser, member, django_assert_num_queries, players
):
    for n in range(2):
        league = new_league(club, name=f"League {n}")
        add_players(league, players, start=n * players)
        league_services.next_round(league)
    for user in (organiser, member):
        client = client_for(user)
        with django_assert_num_queries(CLUB_DETAIL_QUERIES):
            response = client.get(reverse("club_detail", args=[club.pk]))
        assert response.status_code == 200


@pytest.mark.parametrize("players", [2, 12])
def test_league_rounds_costs_the_same_for_few_or_many(
    league, organiser, member, django_assert_num_queries, players
):
    add_players(league, players)
    league_services.next_round(league)
    confirm_round(league, 1)
    league_services.next_round(league)
    for user in (organiser, member):
        client = client_for(user)
        with django_assert_num_queries(ROUNDS_QUERIES):
            response = client.get(reverse("league_rounds", args=[league.pk]))
        assert response.status_code == 200


# --------------------------------------------------------------------------- issue 15


def test_a_round_robin_left_without_rounds_plays_everyone_and_shows_its_draw(
    club, organiser, member
):
    """Items 15 and 16: the organiser chooses round 1's draw; a round robin with no
    number of rounds plays everyone once, n - 1 rounds (n if odd), and says so."""
    response = client_for(organiser).post(
        reverse("league_create", args=[club.pk]),
        league_data(pairing="round_robin", rounds="", first_round="fold"),
    )
    assert response.status_code == 302
    league = League.objects.get(name="Autumn season")
    assert (league.pairing, league.rounds, league.first_round) == (
        League.ROUND_ROBIN,
        None,
        League.FOLD,
    )
    detail = reverse("league_detail", args=[league.pk])
    page = text_of(client_for(member).get(detail))
    assert "not started (everyone plays everyone once)" in page
    assert "top half against bottom half, in the order players registered" in page
    add_players(league, 5)
    page = text_of(client_for(member).get(detail))
    assert "not started (5 planned)" in page
    club_page = text_of(client_for(member).get(reverse("club_detail", args=[club.pk])))
    assert "Not paired (5 rounds)" in club_page
    for number in range(1, 6):
        assert post_next(league, organiser).status_code == 302
        confirm_round(league, number)
    response = post_next_refused(league, organiser)
    assert "All 5 rounds are played" in text_of(response)


def test_a_swiss_league_left_without_rounds_plays_five(club, organiser):
    response = client_for(organiser).post(
        reverse("league_create", args=[club.pk]), league_data(rounds="")
    )
    assert response.status_code == 302
    league = League.objects.get(name="Autumn season")
    assert (league.rounds, league.first_round) == (League.SWISS_ROUNDS, League.RANDOM)


def test_round_one_at_random_shows_its_seed_and_the_draw_is_then_fixed(league, organiser):
    add_players(league, 4)
    detail = reverse("league_detail", args=[league.pk])
    page = text_of(client_for(organiser).get(detail))
    assert "drawn at random (the seed is shown once it is drawn)" in page
    assert post_next(league, organiser).status_code == 302
    league.refresh_from_db()
    assert league.draw_seed is not None
    page = text_of(client_for(organiser).get(detail))
    assert f"drawn at random, seed {league.draw_seed}" in page
    public = text_of(Client().get(reverse("league_public", args=[league.public_token])))
    assert f"seed {league.draw_seed}" in public
    settings_url = reverse("league_settings", args=[league.pk])
    form = text_of(client_for(organiser).get(settings_url))
    assert 'name="first_round" value="fold" disabled' in form.replace('id="id_first_round_1" ', "")
    response = client_for(organiser).post(settings_url, league_data(first_round="fold"))
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.first_round == League.RANDOM  # a disabled field keeps its value
