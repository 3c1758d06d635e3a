"""What waits on a user (notifications/): each waiting action appears for the right user
only, disappears when done, and is mailed once; batching; the settings page; the header's
count (cached: no query on a normal page); the home page's pinned query count."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builder.services import import_gang
from campaigns import services as cs
from campaigns.leagues import services as ls
from notifications import context as notify_context
from notifications import services as ns
from notifications.models import Mailed
from notifications.waiting import KINDS, waiting_for
from rules.roster import read_roster
from tests.helpers.users import client_for

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
RED_JACK = "rivals-legal-red-jacks-gang.json"
SIX = "rivals-legal-six-outlaws.json"
BWG2 = "bwg2-legal-tranquility-crew-700.json"
TASK = "notifications.tasks.send_batch"
COUNT_TASK = "notifications.tasks.refresh_count"


@pytest.fixture(autouse=True)
def fresh_cache():
    """The header's counts live in the default (local memory) cache: none from another test."""
    cache.clear()
    yield
    cache.clear()


class Scripted(random.Random):
    """Dice that roll what the test says, in order (then seeded ones)."""

    def __init__(self, *rolls: int):
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        return self.rolls.pop(0) if self.rolls else super().randint(a, b)


def user(name: str, email: str = "") -> User:
    return User.objects.create_user(name, email=email, password="x-long-enough-1")


def kinds(who: User) -> list[str]:
    return [item.kind for item in waiting_for(who)]


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


# --------------------------------------------------------------------------- campaigns


@pytest.fixture
def world(db):
    """A running Rivals campaign: Olive organises, Alice plays Red Jack's Gang, Bob the
    O'Neil Gang; Sam is a stranger."""
    olive, alice, bob, sam = (user(n, f"{n}@example.com") for n in ("olive", "alice", "bob", "sam"))
    campaign = cs.create_campaign(
        olive, system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    a = cs.join_campaign(campaign, alice, import_gang(alice, read_roster_file(RED_JACK)))
    b = cs.join_campaign(campaign, bob, import_gang(bob, read_roster_file(SIX)))
    cs.record(campaign, olive, "campaign_started", {})
    return campaign, olive, alice, bob, sam, str(a.pk), str(b.pk)


def read_roster_file(name: str) -> dict:
    return read_roster((EXAMPLES / name).read_bytes())


def test_each_campaign_action_waits_on_the_right_player_and_goes_when_done(world):
    campaign, olive, alice, bob, sam, a, b = world
    everyone = (olive, alice, bob, sam)

    def only(who: User | None, kind: str | None) -> None:
        for person in everyone:
            expected = [kind] if person == who else []
            assert kinds(person) == expected, (person, kinds(person))

    def rec(by, kind, data, rng=None):
        return cs.record(campaign, by, kind, data, rng=rng)

    only(None, None)
    enc = rec(alice, "encounter_begun", {"gangs": [a, b]}, Scripted(2)).last_encounter.id
    # Both players may record it: each has it, nobody else.
    assert kinds(alice) == ["record"] and kinds(bob) == ["record"]
    assert kinds(olive) == [] and kinds(sam) == []
    item = waiting_for(bob)[0]
    assert item.url == reverse("encounter_record", args=[campaign.pk, enc])
    assert "Record encounter 1 of Deadrock" in item.text and item.since is not None

    happenings = [{"kind": "kill", "by": f"{a}/2", "to": f"{b}/2", "amount": 4}]
    rec(
        alice,
        "encounter_recorded",
        {"encounter": enc, "gang": a, "happenings": happenings, "winner": a},
    )
    only(bob, "confirm")
    assert waiting_for(bob)[0].url == reverse("encounter_detail", args=[campaign.pk, enc]) + (
        "#step-confirm"  # lands on the confirm step
    )

    rec(bob, "encounter_disputed", {"encounter": enc, "gang": b, "reason": "Mark ducked"})
    only(olive, "dispute")
    assert "disputed the record of encounter 1 of Deadrock" in waiting_for(olive)[0].text

    rec(olive, "encounter_settled", {"encounter": enc})
    only(bob, "death_roll")
    assert "Make the death roll for Mark" in waiting_for(bob)[0].text

    rec(bob, "death_rolled", {"encounter": enc, "member": f"{b}/2"}, Scripted(1))  # dead
    # Sarah has CCP to spend; Bob replaces Mark (Rivals: a gang fights at full strength).
    assert kinds(alice) == ["advance"] and kinds(bob) == ["recruit"]
    assert kinds(olive) == [] and kinds(sam) == []
    assert "Red Jack" in waiting_for(alice)[0].text and "CCP" in waiting_for(alice)[0].text
    assert waiting_for(bob)[0].url == reverse("campaign_gang_recruit", args=[campaign.pk, b])

    # A showdown challenge keeps the encounter open: only the answer waits, on Alice.
    rec(
        bob,
        "showdown_challenged",
        {"encounter": enc, "challenger": f"{b}/1", "challenged": f"{a}/1"},
    )
    only(alice, "showdown")
    assert "accept or decline" in waiting_for(alice)[0].text
    rec(alice, "showdown_answered", {"encounter": enc, "accepted": True})
    assert kinds(alice) == ["showdown"] and kinds(bob) == ["showdown"]
    assert "Record how the showdown" in waiting_for(bob)[0].text
    rec(
        alice,
        "showdown_fought",
        {"encounter": enc, "winner": f"{a}/1", "fate": "unconscious", "hits": []},
    )
    assert kinds(alice) == ["advance"] and kinds(bob) == ["recruit"]

    advance = cs.progression_for("rivals").advance_options(cs.state_of(campaign).member(f"{a}/2"))
    rec(alice, "advance_taken", {"member": f"{a}/2", "choice": advance[0][0]})
    rec(bob, "recruit_declined", {"gang": b, "replaces": f"{b}/2"})
    only(None, None)


def test_a_league_fed_encounter_waits_on_both_players_to_confirm(world):
    """A record made by nobody's gang (a league's result fed in) waits on both players."""
    campaign, olive, alice, bob, _sam, a, b = world
    enc = cs.record(campaign, olive, "encounter_begun", {"gangs": [a, b]}, rng=Scripted(2))
    enc_id = enc.last_encounter.id
    data = {"encounter": enc_id, "gang": "", "happenings": [], "winner": a}
    cs.record(campaign, olive, "encounter_recorded", data)
    assert kinds(alice) == ["confirm"] and kinds(bob) == ["confirm"] and kinds(olive) == []
    cs.record(campaign, alice, "encounter_confirmed", {"encounter": enc_id, "gang": a})
    assert kinds(alice) == [] and kinds(bob) == ["confirm"]


# --------------------------------------------------------------------------- leagues


def player(club, name: str, email: str = ""):
    who = user(name, email)
    ls.join_club(club, who)
    gang = import_gang(who, json.loads((EXAMPLES / BWG2).read_text("utf-8")))
    return who, gang


def league(club, name="Autumn", **fields):
    return ls.create_league(club, name=name, system="bwg2", cap=700, **fields)


def test_each_league_action_waits_on_the_right_user_and_goes_when_done(club):
    boss = club.members.get().user
    ann, ann_gang = player(club, "ann", "ann@example.com")
    bob, bob_gang = player(club, "bob", "bob@example.com")
    sam, _ = player(club, "sam")
    autumn = league(club, rounds=1)
    everyone = (boss, ann, bob, sam)

    def only(who: User | None, kind: str | None) -> None:
        for person in everyone:
            assert kinds(person) == ([kind] if person == who else []), person

    ls.register(autumn, ann, ann_gang)
    assert kinds(boss) == ["registration"] and kinds(ann) == []
    assert kinds(bob) == kinds(sam) == ["register"]  # open: the others are asked to register
    first = waiting_for(boss)[0]
    assert first.text.startswith("1 player registered for Autumn")
    assert first.url == reverse("league_rounds", args=[autumn.pk])
    ls.register(autumn, bob, bob_gang)
    second = waiting_for(boss)[0]
    assert second.text.startswith("2 players registered") and second.key != first.key

    rnd = ls.next_round(autumn)
    match = rnd.pairings.get()
    assert kinds(ann) == ["record"] and kinds(bob) == ["record"]
    assert kinds(boss) == [] and kinds(sam) == []
    assert waiting_for(ann)[0].url == reverse("match_detail", args=[autumn.pk, match.pk]) + (
        "#report"  # lands on the report form
    )

    reporter = match.a.player
    opponent = match.b.player
    report = ls.submit_report(match, reporter, {"vp_a": 12, "vp_b": 9, "winner": "a"})
    only(opponent, "confirm")
    assert (
        f"{reporter.username} reported your round 1 match in Autumn"
        in waiting_for(opponent)[0].text
    )
    assert "12\u20139" in waiting_for(opponent)[0].text

    ls.dispute_report(report, opponent, "It was 9-12")
    only(boss, "dispute")
    ls.settle_report(report, boss, {"winner": "b", "vp_a": 9, "vp_b": 12})
    # Every match of the only round is in: the league is to be finished.
    only(boss, "round")
    assert "finish the league" in waiting_for(boss)[0].text
    ls.finish(autumn)
    only(None, None)


def test_a_confirmed_round_asks_for_the_next_one(club):
    boss = club.members.get().user
    ann, ann_gang = player(club, "ann")
    bob, bob_gang = player(club, "bob")
    spring = league(club, name="Spring", rounds=3)
    ls.register(spring, ann, ann_gang)
    ls.register(spring, bob, bob_gang)
    match = ls.next_round(spring).pairings.get()
    report = ls.submit_report(match, match.a.player, {"vp_a": 1, "vp_b": 2, "winner": "b"})
    assert kinds(boss) == []  # a round waiting for a result is not to pair yet
    ls.confirm_report(report, match.b.player)
    assert kinds(boss) == ["round"] and kinds(ann) == [] and kinds(bob) == []
    assert waiting_for(boss)[0].text == "Every match of round 1 of Spring is in: pair round 2."
    ls.next_round(spring)
    assert kinds(boss) == [] and kinds(ann) == ["record"]


# --------------------------------------------------------------------------- mail


def test_each_waiting_action_is_mailed_once(club, background, settings):
    settings.SITE_URL = "https://gangs.example.org"
    ann, ann_gang = player(club, "ann", "ann@example.com")
    bob, bob_gang = player(club, "bob", "bob@example.com")
    autumn = league(club)
    ls.register(autumn, ann, ann_gang)
    ls.register(autumn, bob, bob_gang)
    match = ls.next_round(autumn).pairings.get()
    background.run_all()
    mail.outbox.clear()
    Mailed.objects.all().delete()

    reporter, opponent = match.a.player, match.b.player
    ls.submit_report(match, reporter, {"vp_a": 12, "vp_b": 9, "winner": "a"})
    jobs = background.tasks(TASK)
    assert {s.key for s in jobs} >= {f"notify:{opponent.pk}", f"notify:{reporter.pk}"}
    assert all(s.delay == settings.NOTIFICATIONS_BATCH_SECONDS for s in jobs)
    background.run_all()
    to_opponent = [m for m in mail.outbox if m.to == [opponent.email]]
    assert len(to_opponent) == 1
    message = to_opponent[0]
    assert "confirm or dispute it" in message.body
    link = "https://gangs.example.org" + reverse("match_detail", args=[autumn.pk, match.pk])
    assert link in message.body
    assert "https://gangs.example.org" + reverse("notification_settings") in message.body
    assert message.subject == "Gangfight: 1 thing waits on you"  # (the match is reported)

    # Nothing new: no second mail, however often the job or the sweep runs.
    mail.outbox.clear()
    assert ns.send_batch(opponent.pk) == 0
    call_command("send_notifications", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert [m for m in mail.outbox if m.to == [opponent.email]] == []


def test_events_within_the_window_go_out_as_one_mail(club, background):
    boss = club.members.get().user
    ann, ann_gang = player(club, "ann", "ann@example.com")
    bob, bob_gang = player(club, "bob", "bob@example.com")
    matches = []
    for name in ("Autumn", "Winter", "Spring"):
        one = league(club, name=name)
        ls.register(one, ann, ann_gang)
        ls.register(one, bob, bob_gang)
        matches.append(ls.next_round(one).pairings.get())
    background.run_all()  # (the matches to play: mailed)
    background.clear()
    mail.outbox.clear()
    for match in matches:  # three results reported for Bob to confirm, within minutes
        ls.submit_report(
            match, ann, {"vp_a": 3, "vp_b": 2, "winner": "a" if match.a.player == ann else "b"}
        )
    for_bob = [s for s in background.tasks(TASK) if s.kwargs == {"user_id": bob.pk}]
    assert len(for_bob) == 3 and {s.key for s in for_bob} == {f"notify:{bob.pk}"}
    background.run_all()
    to_bob = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    assert len(to_bob) == 1  # one mail, not three
    assert to_bob[0].body.count("confirm or dispute it") == 3
    assert boss.email and not [m for m in mail.outbox if m.to == [boss.email]]


def test_no_mail_without_an_address_and_none_for_a_kind_turned_off(club, background):
    ann, ann_gang = player(club, "ann", "ann@example.com")
    bob, bob_gang = player(club, "bob")  # no address
    autumn = league(club)
    ls.register(autumn, ann, ann_gang)
    ls.register(autumn, bob, bob_gang)
    match = ls.next_round(autumn).pairings.get()
    assert not [s for s in background.tasks(TASK) if s.kwargs["user_id"] == bob.pk]
    assert ns.send_batch(bob.pk) == 0

    ns.set_muted(ann, ["record", "confirm"])
    background.run_all()
    assert not [m for m in mail.outbox if m.to == [ann.email]]
    assert kinds(ann) == ["record"]  # still listed
    page = text(client_for(ann).get(reverse("home")))
    assert "Play your round 1 match in Autumn" in page
    ns.set_muted(ann, ["confirm"])  # matches mailed again: the one waiting goes out now
    assert ns.send_batch(ann.pk) == 1
    assert match.pk


# --------------------------------------------------------------------------- the pages


def test_the_settings_page_for_its_owner_another_user_and_a_visitor(db):
    owner, other = user("owner", "o@example.com"), user("other")
    url = reverse("notification_settings")
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert Client().post(url, {}).status_code == 302

    page = client_for(owner).get(url)
    assert page.status_code == 200
    assert "o@example.com" in text(page)
    assert text(page).count("checked") == len(KINDS)  # everything mailed to start with
    response = client_for(owner).post(url, {k: "on" for k in KINDS if k != "death_roll"})
    assert response.status_code == 302
    assert ns.muted_kinds(owner) == {"death_roll"}
    again = text(client_for(owner).get(url))
    assert again.count("checked") == len(KINDS) - 1

    # The other user's page is their own, untouched by the owner's choice.
    theirs = text(client_for(other).get(url))
    assert theirs.count("checked") == len(KINDS) and "has no email address" in theirs
    assert ns.muted_kinds(other) == set()


def test_the_home_page_lists_what_waits_grouped_with_links_and_escapes_names(world):
    campaign, _olive, alice, bob, sam, a, b = world
    cs.update_settings(campaign, name="<b>Dead</b>rock", encounters=5, house_rules={})
    enc = cs.record(campaign, alice, "encounter_begun", {"gangs": [a, b]}, rng=Scripted(2))
    page = client_for(bob).get(reverse("home"))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Encounters and matches to record" in body
    link = reverse("encounter_record", args=[campaign.pk, enc.last_encounter.id])
    assert f'href="{link}"' in body
    assert "&lt;b&gt;Dead&lt;/b&gt;rock" in body and "<b>Dead</b>" not in body
    assert 'data-testid="waiting-count"' in body
    nothing = text(client_for(sam).get(reverse("home")))
    assert (
        'data-testid="nothing-waiting"' in nothing and 'data-testid="waiting-count"' not in nothing
    )
    anonymous = text(Client().get(reverse("home")))
    assert "Build your gang. Print it. Play." in anonymous and "What waits on you" not in anonymous


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_home_page_costs_the_same_for_one_or_many_campaigns_and_leagues(club):
    boss = club.members.get().user
    players = [player(club, f"p{i}") for i in range(2)]

    def add(n: int) -> None:
        for i in range(n):
            one = league(club, name=f"L{n}-{i}")
            for who, gang in players:
                ls.register(one, who, gang)
            match = ls.next_round(one).pairings.get()
            report = ls.submit_report(match, match.a.player, {"vp_a": 1, "vp_b": 0, "winner": "a"})
            ls.confirm_report(report, match.b.player)  # the boss: round 2 to pair
            campaign = cs.create_campaign(
                boss, system="rivals", name=f"C{n}-{i}", encounters=5, house_rules={}
            )
            mine = cs.join_campaign(campaign, boss, import_gang(boss, read_roster_file(RED_JACK)))
            theirs = cs.join_campaign(
                campaign, players[0][0], import_gang(players[0][0], read_roster_file(SIX))
            )
            cs.record(campaign, boss, "campaign_started", {})
            gangs = {"gangs": [str(mine.pk), str(theirs.pk)]}
            cs.record(campaign, boss, "encounter_begun", gangs, rng=Scripted(2))  # to record

    client = client_for(boss)
    add(1)
    one = count_queries(client, reverse("home"))
    assert kinds(boss) == ["record", "round"]
    add(4)
    assert kinds(boss) == ["record"] * 5 + ["round"] * 5
    many = count_queries(client, reverse("home"))
    assert one == many
    second = players[1][0]
    assert count_queries(client_for(second), reverse("home")) == count_queries(
        client_for(second), reverse("home")
    )


class CacheSpy:
    """The default cache, noting each key read."""

    def __init__(self):
        self.reads: list[str] = []

    def get(self, key, *args, **kwargs):
        self.reads.append(key)
        return cache.get(key, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(cache, name)


def test_the_header_count_is_one_cache_read_and_no_query(club, monkeypatch, background):
    ann, ann_gang = player(club, "ann")
    bob, bob_gang = player(club, "bob")
    autumn = league(club)
    ls.register(autumn, ann, ann_gang)
    ls.register(autumn, bob, bob_gang)
    ls.next_round(autumn)
    client = client_for(ann)
    assert 'data-testid="waiting-count"' in client.get(reverse("home")).content.decode()

    # Warm: a normal page costs exactly what it costs without the count, and one cache read.
    spy = CacheSpy()
    monkeypatch.setattr(ns, "cache", spy)
    page = reverse("club_list")
    with CaptureQueriesContext(connection) as with_count:
        body = client.get(page).content.decode()
    assert re.search(r'data-testid="waiting-count"[^>]*><span aria-hidden="true">1<', body)
    assert spy.reads == [f"notifications:count:{ann.pk}"]
    with monkeypatch.context() as patched, CaptureQueriesContext(connection) as without:
        patched.setattr(notify_context, "count_for", lambda user: 0)
        assert 'data-testid="waiting-count"' not in client.get(page).content.decode()
    assert len(with_count) == len(without)

    # A report touching Ann forgets her count: the next page recomputes it.
    match = autumn.round_set.get().pairings.get()
    other = match.b.player if match.a.player == ann else match.a.player
    ls.submit_report(match, other, {"vp_a": 1, "vp_b": 0, "winner": "a"})
    assert cache.get(f"notifications:count:{ann.pk}") is None
    # ... and counts it again in the background, never in a page's request
    assert [s.key for s in background.tasks(COUNT_TASK)].count(f"count:{ann.pk}") >= 1
    with CaptureQueriesContext(connection) as unknown:
        body = client.get(page).content.decode()
    assert len(unknown) == len(without) and 'data-testid="waiting-count"' not in body
    background.run_all()
    body = client.get(page).content.decode()
    # the match to report became a result to confirm: still one
    assert re.search(r'data-testid="waiting-count"[^>]*><span aria-hidden="true">1<', body)
    assert kinds(ann) == ["confirm"]


def test_a_count_missing_or_old_is_made_in_the_background(club, background, settings):
    ann, _gang = player(club, "ann")
    client = client_for(ann)
    background.clear()
    with CaptureQueriesContext(connection) as queries:
        body = client.get(reverse("club_list")).content.decode()
        client.get(reverse("club_list"))  # asked twice: counted once
    assert 'data-testid="waiting-count"' not in body
    assert [s.kwargs for s in background.tasks(COUNT_TASK)] == [{"user_id": ann.pk}]
    background.run_all()
    assert cache.get(f"notifications:count:{ann.pk}")[0] == 0
    assert not [q for q in queries.captured_queries if "campaignevent" in q["sql"].lower()]
    settings.NOTIFICATIONS_COUNT_SECONDS = -1  # every count is old
    background.clear()
    client.get(reverse("club_list"))
    assert [s.kwargs for s in background.tasks(COUNT_TASK)] == [{"user_id": ann.pk}]


def test_a_visitor_gets_no_count_and_no_cache_read(db, monkeypatch):
    spy = CacheSpy()
    monkeypatch.setattr(ns, "cache", spy)
    body = Client().get(reverse("rules")).content.decode()
    assert 'data-testid="waiting-count"' not in body and spy.reads == []


def test_a_campaign_action_is_mailed_once_and_the_sweep_catches_a_lost_job(world, background):
    campaign, _olive, alice, bob, _sam, a, b = world
    background.run_all()
    mail.outbox.clear()
    enc = cs.record(campaign, alice, "encounter_begun", {"gangs": [a, b]}, rng=Scripted(2))
    enc_id = enc.last_encounter.id
    happenings = [{"kind": "kill", "by": f"{a}/2", "to": f"{b}/2", "amount": 4}]
    data = {"encounter": enc_id, "gang": a, "happenings": happenings, "winner": a}
    cs.record(campaign, alice, "encounter_recorded", data)
    cs.record(campaign, bob, "encounter_confirmed", {"encounter": enc_id, "gang": b})
    background.clear()  # the jobs are lost (a worker restarted): the cron sweep mails
    out = []

    class Out:
        def write(self, text: str) -> None:
            out.append(text)

    call_command("send_notifications", stdout=Out())
    to_bob = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    assert len(to_bob) == 1 and "Make the death roll for Mark" in to_bob[0].body
    link = "http://127.0.0.1:8000" + reverse("encounter_detail", args=[campaign.pk, enc_id])
    assert link + "#step-deaths" in to_bob[0].body  # no SITE_URL, no page seen: manage.py serve
    assert "Mailed" in "".join(out)
    mail.outbox.clear()
    call_command("send_notifications", stdout=Out())
    assert not [m for m in mail.outbox if m.to == ["bob@example.com"]]
    # Once rolled, nothing waits on Bob but his recruit: mailed once, by itself.
    cs.record(
        campaign, bob, "death_rolled", {"encounter": enc_id, "member": f"{b}/2"}, rng=Scripted(1)
    )
    background.run_all()
    to_bob = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    assert len(to_bob) == 1 and "Recruit an outlaw to replace Mark" in to_bob[0].body
    assert "death roll" not in to_bob[0].body


def test_a_hook_that_fails_never_stops_the_record(world, monkeypatch, caplog):
    campaign, _olive, alice, _bob, _sam, a, b = world

    class Down:
        def __getattr__(self, name):
            raise ConnectionError("the cache is down")

    monkeypatch.setattr(ns, "cache", Down())
    state = cs.record(campaign, alice, "encounter_begun", {"gangs": [a, b]}, rng=Scripted(2))
    assert state.last_encounter.number == 1
    assert "Could not note a change" in caplog.text


def test_since_reads_in_words(db):
    from datetime import timedelta

    from django.utils import timezone

    from notifications.waiting import Waiting

    assert Waiting("confirm", "k", "t", "/", timezone.now()).ago == "just now"
    old = Waiting("confirm", "k", "t", "/", timezone.now() - timedelta(hours=3))
    assert old.ago == "3\xa0hours ago"
    assert Waiting("confirm", "k", "t", "/").ago == ""


def test_mail_links_never_use_the_address_the_site_was_asked_at(world, background, settings):
    """No SITE_URL (development only: production requires it): the links in a mail use
    the development server's address, never a Host a page was asked at (issue 27: that was
    kept for every later mail, so anyone could bend everyone's links)."""
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "gangs.example.net"]
    campaign, _olive, alice, _bob, _sam, a, b = world
    Client().get(reverse("home"), HTTP_HOST="gangs.example.net", secure=True)
    background.run_all()
    mail.outbox.clear()
    cs.record(campaign, alice, "encounter_begun", {"gangs": [a, b]}, rng=Scripted(2))
    background.run_all()
    (to_bob,) = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    assert "http://127.0.0.1:8000/campaigns/" in to_bob.body
    assert "gangs.example.net" not in to_bob.body
    # SITE_URL, when set, wins
    settings.SITE_URL = "https://club.example.org"
    assert ns.site_url("/x/") == "https://club.example.org/x/"


@pytest.fixture(autouse=True)
def _no_printing_ahead(no_printing_ahead):
    """This module runs background work for mail and counts, never for PDFs."""
