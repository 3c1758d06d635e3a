"""Play mode as a new user found it (issue 20 review): what a tap made offline keeps, what
a refused tap says, loot picked from what the dead carried, wounds with nobody named, how
games are found again, the record's review that keeps the rest of the draft."""

# ruff: noqa: F811 (the fixtures are imported from test_play_views)

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from campaigns import services as campaign_services
from play import services
from play.models import Game, TapEvent
from tests.test_play_views import (  # noqa: F401 (fixtures)
    HX,
    encounter,
    match,
    own_game,
    people,
    table_url,
    tap,
    tap_url,
)


def ms(when) -> str:
    return str(int(when.timestamp() * 1000))


# --------------------------------------------------------------------------- offline taps


def test_a_tap_keeps_the_time_the_phone_made_it_and_the_log_says_it_was_sent_late(people, own_game):
    client = people.clients["alice"]
    Game.objects.filter(pk=own_game.pk).update(created=timezone.now() - timedelta(hours=1))
    made = timezone.now() - timedelta(minutes=3)
    html = tap(client, own_game, "wound/1", member="a/1", made_at=ms(made)).content.decode()
    event = TapEvent.objects.get()
    assert abs((event.made_at - made).total_seconds()) < 1
    assert event.at - event.made_at > timedelta(minutes=2)
    assert 'data-testid="sent-late"' in html and "sent late, at" in html
    # the log shows the time it was made
    assert f'datetime="{event.made_at.isoformat()}"' in html


def test_a_phones_tap_time_is_kept_sane(people, own_game):
    client = people.clients["alice"]
    now = timezone.now()
    tap(client, own_game, "turn/1", made_at=ms(now + timedelta(days=2)))  # a clock ahead
    tap(client, own_game, "turn/1", made_at="0")  # 1970
    tap(client, own_game, "turn/1")  # said nothing
    first, second, third = TapEvent.objects.order_by("seq")
    assert first.made_at <= first.at  # never after it was received
    assert second.made_at >= own_game.created  # never before the game began
    assert third.made_at == third.at
    assert 'data-testid="sent-late"' not in client.get(table_url(own_game)).content.decode()


def test_a_refused_tap_says_it_was_not_counted(people, own_game):
    html = tap(people.clients["alice"], own_game, "wound/9", member="a/1").content.decode()
    assert "That tap was not counted: Red Jack has 4 Actions left." in html
    assert TapEvent.objects.count() == 0


# --------------------------------------------------------------------------- the tracker


def test_the_first_wound_keeps_the_trackers_one_line_layout(people, own_game):
    html = tap(people.clients["alice"], own_game, "wound/1", member="a/2").content.decode()
    row = html.split('id="trk-a-2"')[0].rsplit("<li", 1)[1]
    assert "trk-one" in row  # the counter keeps its place: wounds go under it
    assert 'data-testid="wounds"' in html


def test_rivals_plus_takes_a_wound_counter_off(people, own_game):
    client = people.clients["alice"]
    tap(client, own_game, "wound/2", member="a/2")
    html = tap(client, own_game, "adjust/actions/1", member="a/2").content.decode()
    state = services.state_of(own_game)
    assert state.member("a/2").counters["actions"] == 4 and state.member("a/2").wounds == []
    assert "last wound taken off: 2 actions back" in html
    html = tap(client, own_game, "adjust/actions/1", member="a/2").content.decode()
    assert "Sarah has no wound counter to take off." in html


def test_the_undo_line_says_what_was_undone(people, own_game):
    client = people.clients["alice"]
    tap(client, own_game, "wound/1", member="a/2")
    html = tap(client, own_game, "undo").content.decode()
    assert "Undid: Sarah wounded: 1 action lost." in html


# --------------------------------------------------------------------------- loot


def _killed_mark(people, encounter):
    alice = people.clients["alice"]
    start = reverse("play_start_encounter", args=[encounter.campaign.pk, encounter.id])
    alice.post(start)
    game = Game.objects.get()
    tap(alice, game, "status/dead", member="b/2", by="a/2")
    return alice, game


def test_loot_is_picked_from_what_the_dead_carried_and_who_took_it_is_chosen(people, encounter):
    alice, game = _killed_mark(people, encounter)
    page = alice.get(table_url(game)).content.decode()
    assert 'data-testid="loot-items"' in page and 'value="Rifle reload"' in page
    assert '<option value="">choose…</option>' in page  # nobody chosen for the player
    html = tap(alice, game, "loot", member="b/2", cash="", items="Rifle reload").content.decode()
    assert "Choose a member" in html and "not counted" in html
    data = {"do": "loot", "member": "b/2", "by": "a/2", "items": ["Rifle reload", "Horse"]}
    alice.post(tap_url(game), data, **HX)
    loot = TapEvent.objects.get(kind="loot")
    assert loot.data["items"] == ["Rifle reload", "Horse"]
    html = tap(alice, game, "loot", member="b/2", by="a/2", items="Pocket watch").content.decode()
    assert "James carries no Pocket watch." in html


def test_loot_can_be_put_right_after_the_end_without_undoing_it(people, encounter):
    alice, game = _killed_mark(people, encounter)
    tap(alice, game, "end/a")
    tap(alice, game, "loot", member="b/2", by="a/2", cash="2")
    state = services.state_of(game)
    assert state.ended and state.happenings[-1]["kind"] == "loot"


def test_a_tap_that_no_longer_fits_is_held_and_the_rest_of_the_draft_stands(people, encounter):
    """A loot line from an older phone (typed, not picked) names what James never carried:
    the replay holds it in conflict (issue 29: never dropped silently), the review says so
    in words beside the rest of the draft, submitting waits for it, and one tap drops it."""
    alice, game = _killed_mark(people, encounter)
    TapEvent.objects.create(
        game=game,
        seq=2,
        client_id="old",
        kind="loot",
        data={"by": "a/2", "from": "b/2", "cash": 0, "items": ["Pocket watch"]},
        user=people.users["alice"],
    )
    Game.objects.filter(pk=game.pk).update(version=2)
    finish = reverse("play_finish", args=[game.pk])
    page = alice.get(finish).content.decode()
    assert 'data-testid="held-conflict"' in page
    assert "James carries no Pocket watch." in page
    assert "Killed James" in page  # the rest of the draft stands, with what it earns
    response = alice.post(finish, {"winner": "draw"})
    assert "1 tap waits to be settled on the table" in response.content.decode()
    # drop it from the review: back to the review, the tap gone
    response = alice.post(tap_url(game), {"do": "settle/2/drop", "back": "record"})
    assert response["Location"] == finish
    page = alice.get(finish).content.decode()
    assert 'data-testid="held-conflict"' not in page and "Dropped: " in page


# ----------------------------------------------------------------- wounds with nobody named


def test_the_review_counts_wounds_with_nobody_named_and_names_them(people, encounter):
    alice = people.clients["alice"]
    alice.post(reverse("play_start_encounter", args=[encounter.campaign.pk, encounter.id]))
    game = Game.objects.get()
    tap(alice, game, "wound/2", member="b/2")
    tap(alice, game, "wound/1", member="b/3")
    finish = reverse("play_finish", args=[game.pk])
    page = alice.get(finish).content.decode()
    assert "2 wounds have nobody named as their cause: they earn nobody any reputation." in page
    response = alice.post(tap_url(game), {"do": "blame/1", "by": "a/2", "back": "record"})
    assert response["Location"] == finish
    page = alice.get(finish).content.decode()
    assert "1 wound has nobody named as its cause" in page
    assert "Sarah wounded James (2 actions lost)." in page


# --------------------------------------------------------------------------- finding games


def test_play_on_a_gang_with_a_game_going_opens_it_and_offers_another(people, own_game):
    client = people.clients["alice"]
    start = reverse("play_start_gang", args=[own_game.gang_id])
    assert client.get(start)["Location"] == table_url(own_game)
    page = client.get(table_url(own_game)).content.decode()
    assert f"{start}?another=1" in page
    page = client.get(start, {"another": "1"}).content.decode()
    assert 'data-testid="start-form"' in page
    assert "Your opponent follows the same game" not in page  # one gang: no opponent here
    assert 'list="scenarios"' in page and '<datalist id="scenarios">' in page
    tap(client, own_game, "end/a")
    page = client.get(start).content.decode()  # ended: a new one is started
    assert 'data-testid="start-form"' in page


def test_the_list_says_which_games_ended_and_the_menu_links_it(people, own_game):
    client = people.clients["alice"]
    page = client.get(reverse("play_list")).content.decode()
    assert 'data-testid="game-going"' in page and 'data-testid="nav-games"' in page
    tap(client, own_game, "end/a")
    page = client.get(reverse("play_list")).content.decode()
    assert 'data-testid="game-ended"' in page and "ended" in page


def test_an_encounter_start_shows_the_location_rolled_instead_of_asking(people, encounter):
    state = campaign_services.state_of(encounter.campaign)
    location = state.encounter(encounter.id).location
    start = reverse("play_start_encounter", args=[encounter.campaign.pk, encounter.id])
    page = people.clients["alice"].get(start).content.decode()
    assert 'data-testid="start-location"' in page and location["name"] in page
    assert 'name="scenario"' not in page


def test_the_encounter_page_links_the_table_beside_record(people, encounter):
    alice = people.clients["alice"]
    url = reverse("encounter_detail", args=[encounter.campaign.pk, encounter.id])
    page = alice.get(url).content.decode()
    record = page.index('data-testid="record-link"')
    assert 0 < page.index('data-testid="play-link"') - record < 400  # beside it
    assert page.count('data-testid="play-link"') == 1  # not again at the bottom


def test_the_match_page_keeps_a_link_to_its_game_after_the_report(people, match):
    alice = people.clients["alice"]
    alice.post(reverse("play_start_match", args=[match.pk]))
    game = Game.objects.get()
    tap(alice, game, "end/a")
    data = {"scenario": "", "deployment": "", "vp_a": "1", "vp_b": "0", "winner": "a"}
    alice.post(reverse("play_finish", args=[game.pk]), {**data, "casualties": "", "notes": ""})
    page = alice.get(reverse("match_detail", args=[match.round.league_id, match.pk]))
    assert f'href="{table_url(game)}" data-testid="played-game"' in page.content.decode()
    # not for someone who does not play it
    page = people.clients["sam"].get(
        reverse("match_detail", args=[match.round.league_id, match.pk])
    )
    assert 'data-testid="played-game"' not in page.content.decode()


def test_the_end_shows_its_result_where_the_button_was(people, own_game):
    html = tap(people.clients["alice"], own_game, "end/a").content.decode()
    assert 'id="play-end" data-testid="ended-here"' in html


def test_loot_of_items_alone_redraws_the_victims_list(people, encounter):
    alice, game = _killed_mark(people, encounter)
    data = {"do": "loot", "member": "b/2", "by": "a/2", "items": ["Horse", "Rifle reload"]}
    html = alice.post(tap_url(game), {**data, "v": "1"}, **HX).content.decode()
    victim = html.split('id="trk-b-2"')[1].split("</li>")[0]
    assert 'value="Winchester Carbine"' in victim and 'value="Horse"' not in victim
