"""Two phones tracking one game (issue 29): the log in the order taps were made, late taps
put where they belong, the same event from both players counted once, disagreements and
conflicts held for one tap to settle, never dropped silently; the phones' clocks measured."""

# ruff: noqa: F811 (the fixtures are imported from test_play_views)

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns import services as campaign_services
from play import services
from play.models import Game, PhoneClock, TapEvent
from tests.test_play_views import (  # noqa: F401 (fixtures)
    encounter,
    own_game,
    people,
    tap,
)

FINISH = "play_finish"


def ms(when) -> str:
    return str(int(when.timestamp() * 1000))


@pytest.fixture
def game(people, encounter):
    """The encounter's game, begun an hour ago, both players at the table."""
    start = reverse("play_start_encounter", args=[encounter.campaign.pk, encounter.id])
    people.clients["alice"].post(start, {"scenario": "Midday Deadrock"})
    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(created=timezone.now() - timedelta(hours=1))
    game.refresh_from_db()
    return game


def at(game, minutes: float) -> str:
    """A phone's time for ``minutes`` after the game began (its clock right)."""
    return ms(game.created + timedelta(minutes=minutes))


def phone_tap(client, game, do, *, made, phone, n, seen=None, sent=None, **data):
    body = {"made_at": made, "phone": phone, "phone_seq": n, **data}
    if seen is not None:
        body["seen"] = seen
    if sent is not None:
        body["sent"] = sent
    return tap(client, game, do, **body)


def refused(html: str) -> str:
    """The refusal the table shows (empty when the tap counted or was kept)."""
    found = re.search(r'data-testid="tap-error"[^>]*>([^<]*)<', html)
    return found.group(1) if found else ""


def sarah_awards(encounter):
    state = campaign_services.state_of(encounter.campaign)
    enc = state.encounter(encounter.id)
    return enc, [a.amount for a in enc.awards if a.member == f"{encounter.a}/2"]


def test_a_wound_sent_late_counts_where_it_was_made_and_the_kill_is_worth_the_books_six(
    people, encounter, game
):
    """Seed 003's Sarah and James: James (b/2) earns 6 reputation wounding Red Jack and
    Jesse (a Drifter). Alice's phone is offline when Sarah belly-wounds him; Bob's phone
    then records the kill, which reaches the server first. Alice's wound, sent 20 minutes
    later, counts before the kill: Sarah earns 2 + 6 (toughness 4 + Drifter bonus 2) + 2."""
    alice, bob = people.clients["alice"], people.clients["bob"]
    phone_tap(bob, game, "wound/3", member="a/1", by="b/2", made=at(game, 1), phone="bob", n=1)
    phone_tap(bob, game, "wound/3", member="a/3", by="b/2", made=at(game, 2), phone="bob", n=2)
    seen = Game.objects.get().version  # what Alice's phone showed when the signal went
    # Bob: "James killed by Sarah" at minute 5, received at once
    phone_tap(bob, game, "status/dead", member="b/2", by="a/2", made=at(game, 5), phone="bob", n=3)
    # Alice's taps of minutes 3 and 4, sent when her signal returns
    response = phone_tap(
        alice,
        game,
        "wound/2",
        member="b/2",
        by="a/2",
        made=at(game, 3),
        phone="ali",
        n=1,
        seen=seen,
    )
    assert refused(response.content.decode()) == ""
    phone_tap(alice, game, "flip/0", member="b/2", made=at(game, 4), phone="ali", n=2, seen=seen)
    phone_tap(alice, game, "end/a", made=at(game, 6), phone="ali", n=3)
    state = services.state_of(Game.objects.get())
    assert state.held == [] and state.duplicates == {}
    assert [line.kind for line in state.log] == ["wound", "wound", "wound", "flip", "status", "end"]
    assert [line.by for line in state.log] == ["bob", "bob", "alice", "alice", "bob", "alice"]
    page = alice.get(reverse(FINISH, args=[game.pk])).content.decode()
    assert "Killed James: 4 actions (toughness) + Drifter notoriety bonus 2" in page
    assert alice.post(reverse(FINISH, args=[game.pk]), {"winner": encounter.a}).status_code == 302
    enc, sarah = sarah_awards(encounter)
    assert sarah == [2, 6, 2]  # the wound, the kill, the win
    james = [a.amount for a in enc.awards if a.member == f"{encounter.b}/2"]
    assert sum(james) == 6  # his own wounds on Red Jack and Jesse, kept


def test_the_same_wound_tapped_on_both_phones_counts_once(people, game):
    alice, bob = people.clients["alice"], people.clients["bob"]
    phone_tap(alice, game, "wound/2", member="b/3", by="a/2", made=at(game, 1), phone="ali", n=1)
    html = phone_tap(
        bob,
        game,
        "wound/2",
        member="b/3",
        by="a/2",
        made=ms(game.created + timedelta(minutes=1, seconds=3)),
        phone="bob",
        n=1,
        seen=0,
    ).content.decode()
    assert refused(html) == ""
    state = services.state_of(Game.objects.get())
    david = state.member("b/3")
    assert david.counters["actions"] == david.start["actions"] - 2  # once, not 4
    assert [h["kind"] for h in state.happenings] == ["wound"]
    assert state.duplicates == {2: 1} and TapEvent.objects.count() == 2  # both kept in the log
    assert "Recorded by both players" in html
    # either player's undo takes the event back, copies and all
    tap(bob, game, "undo")
    state = services.state_of(Game.objects.get())
    assert state.member("b/3").counters["actions"] == david.start["actions"]
    assert state.happenings == []


def test_the_same_wound_a_minute_apart_is_two_wounds(people, game):
    alice, bob = people.clients["alice"], people.clients["bob"]
    phone_tap(alice, game, "wound/1", member="b/3", by="a/2", made=at(game, 1), phone="ali", n=1)
    phone_tap(bob, game, "wound/1", member="b/3", by="a/2", made=at(game, 2), phone="bob", n=1)
    state = services.state_of(Game.objects.get())
    assert [h["kind"] for h in state.happenings] == ["wound", "wound"]
    assert state.duplicates == {}


def test_a_disagreement_is_held_until_one_tap_settles_it_and_the_record_waits(
    people, encounter, game
):
    alice, bob = people.clients["alice"], people.clients["bob"]
    phone_tap(alice, game, "wound/2", member="b/3", by="a/2", made=at(game, 1), phone="ali", n=1)
    later = ms(game.created + timedelta(minutes=1, seconds=4))
    phone_tap(bob, game, "wound/1", member="b/3", by="a/2", made=later, phone="bob", n=1, seen=0)
    state = services.state_of(Game.objects.get())
    assert [(h.what, h.seq, h.partner) for h in state.held] == [("disagreement", 2, 1)]
    assert [h["amount"] for h in state.happenings] == [2]  # Alice's stands meanwhile
    table = bob.get(reverse("play_game", args=[game.pk])).content.decode()
    assert 'data-testid="held-disagreement"' in table and "alice and bob recorded this" in table
    # the record waits
    phone_tap(alice, game, "end/a", made=at(game, 5), phone="ali", n=2)
    response = alice.post(reverse(FINISH, args=[game.pk]), {"winner": encounter.a})
    assert response.status_code == 200
    assert "1 tap waits to be settled" in response.content.decode()
    # Bob's is right: Alice's two wounds go, his one counts
    tap(alice, game, "settle/2/instead")
    state = services.state_of(Game.objects.get())
    assert state.held == [] and [h["amount"] for h in state.happenings] == [1]
    assert alice.post(reverse(FINISH, args=[game.pk]), {"winner": encounter.a}).status_code == 302


def test_both_happened_counts_both(people, game):
    alice, bob = people.clients["alice"], people.clients["bob"]
    phone_tap(alice, game, "wound/2", member="b/3", by="a/2", made=at(game, 1), phone="ali", n=1)
    phone_tap(bob, game, "wound/1", member="b/3", by="a/2", made=at(game, 1.05), phone="bob", n=1)
    tap(bob, game, "settle/2/both")
    state = services.state_of(Game.objects.get())
    assert state.held == [] and [h["amount"] for h in state.happenings] == [2, 1]


def test_a_late_tap_that_no_longer_fits_is_kept_in_conflict_for_either_player(people, game):
    alice, bob = people.clients["alice"], people.clients["bob"]
    seen = Game.objects.get().version
    # Bob: James killed at minute 2. Alice, offline, wounded him at minute 3 (a tap that
    # can't be: he was dead), sent late.
    phone_tap(bob, game, "status/dead", member="b/2", by="a/2", made=at(game, 2), phone="b", n=1)
    html = phone_tap(
        alice, game, "wound/1", member="b/2", by="a/2", made=at(game, 3), phone="a", n=1, seen=seen
    ).content.decode()
    # kept, not refused: the tapper is told where they look
    assert refused(html) == (
        "That tap no longer fits where it was made: James is killed. It waits on top of the "
        "table, to keep or drop."
    )
    state = services.state_of(Game.objects.get())
    assert [(h.what, h.seq) for h in state.held] == [("conflict", 2)]
    assert state.held[0].reason == "James is killed."
    for client in (alice, bob):  # shown to both players
        page = client.get(reverse("play_game", args=[game.pk])).content.decode()
        assert 'data-testid="held-conflict"' in page and "James is killed." in page
    # keeping it can't make it fit: said, nothing written
    html = tap(bob, game, "settle/2/keep").content.decode()
    assert "It still does not fit: James is killed." in html
    assert TapEvent.objects.count() == 2
    tap(bob, game, "settle/2/drop")
    state = services.state_of(Game.objects.get())
    assert state.held == [] and state.member("b/2").status == "dead"


def test_a_conflict_kept_counts_after_the_tap_it_conflicted_with(people, game):
    """Bob marks James out at minute 2 and back in the fight at minute 4; Alice's wound of
    minute 3 arrives late: James was out then. Kept, it counts after Bob's taps."""
    alice, bob = people.clients["alice"], people.clients["bob"]
    phone_tap(bob, game, "status/out", member="b/2", made=at(game, 2), phone="b", n=1)
    phone_tap(bob, game, "status/active", member="b/2", made=at(game, 4), phone="b", n=2)
    phone_tap(alice, game, "wound/1", member="b/2", made=at(game, 3), phone="a", n=1, seen=0)
    state = services.state_of(Game.objects.get())
    assert [h.what for h in state.held] == ["conflict"]
    tap(alice, game, "settle/3/keep")
    state = services.state_of(Game.objects.get())
    james = state.member("b/2")
    assert state.held == [] and james.counters["actions"] == james.start["actions"] - 1
    assert [line.kind for line in state.log] == ["status", "status", "wound", "settle"]


def test_a_tap_made_on_a_phone_that_saw_everything_is_still_refused_at_once(people, game):
    alice = people.clients["alice"]
    tap(alice, game, "status/dead", member="b/2", by="a/2")
    version = Game.objects.get().version
    html = phone_tap(
        alice, game, "wound/1", member="b/2", made=ms(timezone.now()), phone="a", n=1, seen=version
    ).content.decode()
    assert "That tap was not counted: James is killed." in html
    assert TapEvent.objects.count() == 1


def test_a_phones_clock_is_corrected_by_its_offset(people, game):
    """Alice's phone runs 5 minutes slow: every request says when it left, by her clock;
    the smallest (received - sent) is the offset, and a tap's time is put right by it."""
    alice = people.clients["alice"]
    slow = timedelta(minutes=5)
    now = timezone.now()
    alice.get(
        reverse("play_game", args=[game.pk]),
        {"v": "0", "phone": "ali", "sent": ms(now - slow)},
        HTTP_HX_REQUEST="true",
    )
    clock = PhoneClock.objects.get()
    assert abs(clock.offset_ms - slow.total_seconds() * 1000) < 2000
    made = timezone.now() - timedelta(seconds=30)  # the tap's true time
    phone_tap(
        alice,
        game,
        "turn/1",
        made=ms(made - slow),
        sent=ms(timezone.now() - slow),
        phone="ali",
        n=1,
    )
    event = TapEvent.objects.get()
    assert abs((event.made_at - made).total_seconds()) < 2


def test_a_phones_clock_keeps_the_smallest_offset_and_a_player_keeps_few_clocks(people):
    alice = people.users["alice"]
    now = timezone.now()
    services.phone_offset(alice, "p", int(now.timestamp() * 1000) - 800, now)
    services.phone_offset(alice, "p", int(now.timestamp() * 1000) - 300, now)  # less delay
    services.phone_offset(alice, "p", int(now.timestamp() * 1000) - 900, now)
    assert PhoneClock.objects.get(phone="p").offset_ms == 300
    later = now + timedelta(minutes=11)  # stale: measured again
    services.phone_offset(alice, "p", int(later.timestamp() * 1000) - 700, later)
    assert PhoneClock.objects.get(phone="p").offset_ms == 700
    for i in range(12):
        then = now + timedelta(seconds=i)
        services.phone_offset(alice, f"q{i}", int(now.timestamp() * 1000), then)
    assert PhoneClock.objects.filter(user=alice).count() == services.CLOCKS_PER_PLAYER
    # nonsense is not believed: a bad id, a clock a week out
    assert services.phone_offset(alice, "<script>", 0) == timedelta(0)
    services.phone_offset(alice, "far", int(now.timestamp() * 1000) - 7 * 86400 * 1000, now)
    assert not PhoneClock.objects.filter(phone="far").exists()


def test_a_phones_taps_keep_their_order_when_its_clock_jumps_back(people, own_game):
    alice = people.clients["alice"]
    Game.objects.filter(pk=own_game.pk).update(created=timezone.now() - timedelta(hours=1))
    now = timezone.now()
    phone_tap(alice, own_game, "turn/1", made=ms(now - timedelta(minutes=2)), phone="p", n=1)
    phone_tap(alice, own_game, "turn/1", made=ms(now - timedelta(minutes=9)), phone="p", n=2)
    first, second = TapEvent.objects.order_by("seq")
    assert second.made_at >= first.made_at
    state = services.state_of(Game.objects.get())
    assert [line.seq for line in state.log] == [1, 2]
