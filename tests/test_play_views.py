"""Play mode through its views (play/views.py): starting a game from a gang, a campaign
encounter or a league match; tapping (htmx and plain posts, a resent tap counted once,
refusals shown); the poll's cheap "no change"; the record drafted after the game and
submitted through the campaign's and the league's services; who may see what."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from builder.services import import_gang
from campaigns import services as campaign_services
from campaigns.leagues import services as league_services
from campaigns.leagues.models import MatchReport, Pairing, Round
from play import services
from play.models import Game, TapEvent
from rules.roster import read_roster
from tests.conftest import PASSWORD

HX = {"HTTP_HX_REQUEST": "true"}
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def roster(name: str) -> dict:
    return read_roster((EXAMPLES / name).read_bytes())


def login(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def tap_url(game: Game) -> str:
    return reverse("play_tap", args=[game.pk])


def table_url(game: Game) -> str:
    return reverse("play_game", args=[game.pk])


@pytest.fixture
def people(db):
    users = {n: User.objects.create_user(n, password=PASSWORD) for n in ("alice", "bob", "sam")}
    clients = {n: login(u) for n, u in users.items()}
    clients["anon"] = Client()
    return SimpleNamespace(users=users, clients=clients)


@pytest.fixture
def own_game(people):
    gang = import_gang(people.users["alice"], roster("rivals-legal-red-jacks-gang.json"))
    return services.start_from_gang(people.users["alice"], gang, scenario="Midday Deadrock")


@pytest.fixture
def encounter(people):
    """A running Rivals campaign, encounter 1 begun: Alice's Red Jack's Gang (side a) v
    Bob's O'Neil Gang, whose Mark is called James here (side b)."""
    alice, bob = people.users["alice"], people.users["bob"]
    campaign = campaign_services.create_campaign(
        alice, system="rivals", name="Deadrock", encounters=4, house_rules={}
    )
    oneils = roster("rivals-legal-six-outlaws.json")
    oneils["members"][1]["name"] = "James"
    a = campaign_services.join_campaign(
        campaign, alice, import_gang(alice, roster("rivals-legal-red-jacks-gang.json"))
    )
    b = campaign_services.join_campaign(campaign, bob, import_gang(bob, oneils))
    campaign_services.record(campaign, alice, "campaign_started", {})
    state = campaign_services.record(
        campaign, alice, "encounter_begun", {"gangs": [str(a.pk), str(b.pk)]}, rng=random.Random(1)
    )
    return SimpleNamespace(campaign=campaign, id=state.last_encounter.id, a=str(a.pk), b=str(b.pk))


@pytest.fixture
def match(people):
    """A league round: Alice (a) v Bob (b), bwg1 gangs."""
    alice, bob = people.users["alice"], people.users["bob"]
    club = league_services.create_club(alice, name="Tombstone Wargamers")
    league_services.join_club(club, bob)
    league = league_services.create_league(
        club, name="Spring League", system="bwg1", cap=400, pairing="round_robin", rounds=1
    )
    daltons = roster("bwg1-legal-dalton-boys.json")
    reg_a = league_services.register(league, alice, import_gang(alice, daltons))
    reg_b = league_services.register(league, bob, import_gang(bob, daltons))
    rnd = Round.objects.create(league=league, number=1)
    return Pairing.objects.create(round=rnd, table=1, a=reg_a, b=reg_b)


def tap(client: Client, game: Game, do: str, **data):
    return client.post(tap_url(game), {"do": do, **data}, **HX)


# --------------------------------------------------------------------------- who may see what


@pytest.mark.parametrize("page", ["play_game", "play_finish"])
def test_a_game_is_its_players_alone(people, own_game, page):
    url = reverse(page, args=[own_game.pk])
    assert people.clients["alice"].get(url).status_code == 200
    assert people.clients["sam"].get(url).status_code == 404
    response = people.clients["anon"].get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_stranger_cannot_tap_nor_start_with_anothers_gang(people, own_game):
    assert tap(people.clients["sam"], own_game, "wound/1", member="a/1").status_code == 404
    assert people.clients["anon"].post(tap_url(own_game), {"do": "wound/1"}).status_code == 302
    url = reverse("play_start_gang", args=[own_game.gang_id])
    assert people.clients["sam"].post(url).status_code == 404
    assert TapEvent.objects.count() == 0


def test_strangers_cannot_start_an_encounter_or_a_match(people, encounter, match):
    url = reverse("play_start_encounter", args=[encounter.campaign.pk, encounter.id])
    assert people.clients["sam"].get(url).status_code == 404
    url = reverse("play_start_match", args=[match.pk])
    assert people.clients["sam"].get(url).status_code == 404
    assert people.clients["anon"].get(url).status_code == 302
    assert Game.objects.count() == 0


def test_the_game_list_shows_only_the_users_games(people, own_game):
    name = escape(own_game.name)
    assert name in people.clients["alice"].get(reverse("play_list")).content.decode()
    assert name not in people.clients["sam"].get(reverse("play_list")).content.decode()


def test_the_game_list_costs_the_same_for_one_or_many_games(
    people, own_game, django_assert_num_queries
):
    client = people.clients["alice"]
    client.get(reverse("play_list"))
    with django_assert_num_queries(3):  # session, user, games
        client.get(reverse("play_list"))
    for _ in range(5):
        services.start_from_gang(people.users["alice"], own_game.gang)
    with django_assert_num_queries(3):
        client.get(reverse("play_list"))


# --------------------------------------------------------------------------- starting and tapping


def test_starting_from_a_gang_page_opens_the_table(people):
    gang = import_gang(people.users["alice"], roster("bwg2-legal-tranquility-crew-700.json"))
    client = people.clients["alice"]
    page = client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    start = reverse("play_start_gang", args=[gang.pk])
    assert start in page  # the gang page's link
    response = client.post(start, {"scenario": "Gold Rush", "table_size": "3' x 3'"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == table_url(game)
    page = client.get(table_url(game)).content.decode()
    assert "Captain Nathan Reinholdt" in page and "Gold Rush" in page
    assert 'data-testid="counter-hp"' in page and 'data-testid="counter-consumables"' in page


def test_a_tap_changes_the_table_and_is_logged_with_its_time(people, own_game):
    client = people.clients["alice"]
    response = tap(client, own_game, "wound/2", member="a/2")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="play-table"' in html and "<html" not in html  # the partial
    assert "Sarah wounded: 2 actions lost." in html
    event = TapEvent.objects.get()
    assert (event.seq, event.kind, event.user.username) == (1, "wound", "alice")
    assert event.data == {"member": "a/2", "amount": 2, "by": ""} and event.at is not None
    own_game.refresh_from_db()
    assert own_game.version == 1


def test_a_plain_post_works_without_javascript(people, own_game):
    client = people.clients["alice"]
    response = client.post(tap_url(own_game), {"do": "status/left", "member": "a/3"})
    # the page comes back where the tap was made: the member's tracker
    assert response.status_code == 302
    assert response["Location"] == table_url(own_game) + "#trk-a-3"
    assert 'id="trk-a-3"' in client.get(table_url(own_game)).content.decode()
    response = client.post(tap_url(own_game), {"do": "turn/1"})
    assert response["Location"] == table_url(own_game)
    response = client.post(tap_url(own_game), {"do": "end/a"})
    assert response["Location"] == table_url(own_game) + "#play-end"
    assert "Left the board" in client.get(table_url(own_game)).content.decode()


def test_a_tap_sent_twice_is_counted_once(people, own_game):
    client = people.clients["alice"]
    for _ in range(3):
        assert tap(client, own_game, "wound/1", member="a/1", client_id="abc123").status_code == 200
    assert TapEvent.objects.count() == 1
    state = services.state_of(own_game)
    assert state.member("a/1").counters["actions"] == 3


def test_a_refused_tap_says_why_and_changes_nothing(people, own_game):
    client = people.clients["alice"]
    response = tap(client, own_game, "wound/9", member="a/1")
    assert response.status_code == 200
    assert "has 4 Actions left" in response.content.decode()
    response = tap(client, own_game, "nonsense/1/2/3")
    assert "That button does nothing" in response.content.decode()
    response = tap(client, own_game, "wound/1", member="<script>alert(1)</script>")
    assert "<script>alert(1)" not in response.content.decode()
    assert TapEvent.objects.count() == 0


def test_one_tap_undoes_my_last_tap(people, own_game):
    client = people.clients["alice"]
    tap(client, own_game, "wound/1", member="a/1")
    tap(client, own_game, "wound/1", member="a/2")
    html = tap(client, own_game, "undo").content.decode()
    state = services.state_of(own_game)
    assert state.member("a/2").counters["actions"] == 4
    assert state.member("a/1").counters["actions"] == 3
    assert TapEvent.objects.filter(kind="undo").get().data == {"target": 2}
    assert 'class="undone"' in html


def test_the_poll_answers_no_change_cheaply(people, own_game, django_assert_num_queries):
    client = people.clients["alice"]
    with django_assert_num_queries(3):  # session, user, the game
        response = client.get(table_url(own_game), {"v": "0"}, **HX)
    assert response.status_code == 204
    tap(client, own_game, "wound/1", member="a/1")
    response = client.get(table_url(own_game), {"v": "0"}, **HX)
    assert response.status_code == 200 and 'data-version="1"' in response.content.decode()


def test_the_table_costs_the_same_queries_for_a_short_or_a_long_log(
    people, own_game, django_assert_num_queries
):
    client = people.clients["alice"]
    tap(client, own_game, "wound/1", member="a/1")
    with django_assert_num_queries(4):  # session, user, the game, its taps
        client.get(table_url(own_game), **HX)
    for i in range(10):
        tap(client, own_game, f"turn/{1 if i % 2 == 0 else -1}")
    with django_assert_num_queries(4):
        client.get(table_url(own_game), **HX)


# --------------------------------------------------------------------------- an encounter


def test_both_players_follow_one_game_and_the_record_matches_the_book(people, encounter):
    """Sarah and James, as the book tells it: James (a Drifter by now) takes a Belly Wound
    from Sarah (2 actions: +2), then she kills him: his toughness 4 + his bonus 2 = 6."""
    alice, bob = people.clients["alice"], people.clients["bob"]
    start = reverse("play_start_encounter", args=[encounter.campaign.pk, encounter.id])
    assert alice.post(start, {"scenario": "Midday Deadrock"}).status_code == 302
    game = Game.objects.get()
    assert set(game.players.values_list("username", flat=True)) == {"alice", "bob"}
    assert bob.get(start)["Location"] == table_url(game)  # Bob's link: straight to the table
    assert bob.post(start)["Location"] == table_url(game)  # and never a second game
    # James (b/2) wounds Red Jack and Jesse for 3 actions each: 6 reputation, a Drifter.
    tap(bob, game, "wound/3", member="a/1", by="b/2")
    tap(bob, game, "wound/3", member="a/3", by="b/2")
    tap(alice, game, "wound/2", member="b/2", by="a/2")
    tap(alice, game, "flip/0", member="b/2")
    tap(alice, game, "status/dead", member="b/2", by="a/2")
    tap(alice, game, "end/a")
    page = alice.get(reverse("play_finish", args=[game.pk])).content.decode()
    assert "Sarah wounded James (2 actions lost)." in page
    assert "Killed James: 4 actions (toughness) + Drifter notoriety bonus 2" in page
    response = alice.post(reverse("play_finish", args=[game.pk]), {"winner": encounter.a})
    assert response.status_code == 302
    state = campaign_services.state_of(encounter.campaign)
    enc = state.encounter(encounter.id)
    assert enc.status == "provisional" and enc.winner == encounter.a
    assert enc.confirmed == {encounter.a}  # submitting it counts as Alice's confirmation
    sarah = [a.amount for a in enc.awards if a.member == f"{encounter.a}/2"]
    assert sarah == [2, 6, 2]  # the wound, the kill, the win
    # Bob confirms it on the encounter's page, as any record
    confirm = reverse("encounter_step", args=[encounter.campaign.pk, encounter.id, "confirm"])
    bob.post(confirm, {"gang": encounter.b})
    state = campaign_services.state_of(encounter.campaign)
    assert state.encounter(encounter.id).status == "confirmed"
    # both players tracked one log: the record was made once
    assert Game.objects.count() == 1


def test_the_encounter_page_links_to_the_game(people, encounter):
    url = reverse("encounter_detail", args=[encounter.campaign.pk, encounter.id])
    page = people.clients["alice"].get(url).content.decode()
    assert reverse("play_start_encounter", args=[encounter.campaign.pk, encounter.id]) in page


# --------------------------------------------------------------------------- a league match


def test_a_league_match_ends_in_a_report_the_opponent_confirms(people, match):
    alice, bob = people.clients["alice"], people.clients["bob"]
    start = reverse("play_start_match", args=[match.pk])
    page = alice.get(reverse("match_detail", args=[match.round.league_id, match.pk]))
    assert start in page.content.decode()
    alice.post(start, {"scenario": "Gold Rush"})
    game = Game.objects.get()
    tap(alice, game, "status/out", member="b/1", by="a/2")
    tap(alice, game, "vp/a/3")
    tap(bob, game, "vp/b/1")
    page = alice.get(reverse("play_finish", args=[game.pk])).content.decode()
    assert 'value="3"' in page and "Bob Dalton (out of action by" in page
    data = {
        "scenario": "Gold Rush",
        "deployment": "",
        "vp_a": "3",
        "vp_b": "1",
        "winner": "a",
        "casualties": "Bob Dalton",
        "notes": "",
    }
    response = alice.post(reverse("play_finish", args=[game.pk]), data)
    assert response.status_code == 302
    report = MatchReport.objects.get(pairing=match)
    assert (report.vp_a, report.vp_b, report.winner, report.status) == (3, 1, "a", "submitted")
    step = reverse("match_step", args=[match.round.league_id, match.pk, "confirm"])
    bob.post(step)
    report.refresh_from_db()
    assert report.status == MatchReport.CONFIRMED


def test_a_taps_answer_leaves_out_the_trackers_the_phone_already_shows(people, own_game):
    client = people.clients["alice"]
    tap(client, own_game, "wound/1", member="a/1")
    html = tap(client, own_game, "wound/1", member="a/2", v="1").content.decode()
    assert html.count("data-keep") == 4  # Red Jack, Jesse, Luke, Clay: as the phone has them
    assert 'data-member="Sarah"' in html and 'data-member="Jesse"' not in html
    # a phone that shows nothing this log had gets everything
    html = client.get(table_url(own_game), {"v": "99"}, **HX).content.decode()
    assert "data-keep" not in html and 'data-member="Jesse"' in html


def test_undo_is_for_ones_own_taps(people, encounter):
    start = reverse("play_start_encounter", args=[encounter.campaign.pk, encounter.id])
    people.clients["alice"].post(start)
    game = Game.objects.get()
    tap(people.clients["alice"], game, "wound/1", member="b/1", by="a/1")
    response = tap(people.clients["bob"], game, "undo")
    assert "You have no tap left to undo." in response.content.decode()
    assert TapEvent.objects.count() == 1
