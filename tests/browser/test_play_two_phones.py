"""Two phones, one of them offline for part of the game (issue 29), in a real browser at
375 px: the Sarah/James encounter with Alice's phone offline through Bob's kill ends in a
confirmed record with the book's figures; the same wound tapped on both phones counts
once; a league game with an offline phone, the same Victory Point tapped on both, ends in
a confirmed report counted once; a conflict is settled by keyboard; a third phone follows
the game read-only through its link. Pages pass axe."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from builder.services import import_gang
from campaigns import services as campaign_services
from campaigns.leagues import services as league_services
from campaigns.leagues.models import MatchReport, Pairing, Round
from play import services as play_services
from play.models import Game, TapEvent
from tests.browser.builder import log_in, no_horizontal_scroll
from tests.browser.conftest import PHONE
from tests.browser.test_pages import axe_violations
from tests.browser.test_play import WAIT, hit, more, roster, shot, table_settled, tracker, value
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


@pytest.fixture
def phones(browser):
    """Two phones, each its own browser context (CSP bypassed to inject axe-core; the
    policy itself is tested in test_csp.py)."""
    contexts = [browser.new_context(viewport=PHONE, bypass_csp=True) for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    for p in pages:
        p.set_default_timeout(15_000)
    yield pages
    for c in contexts:
        c.close()


def encounter_game(live_server, alice: Page, bob: Page):
    alice_user = User.objects.create_user("alice", password=PASSWORD)
    bob_user = User.objects.create_user("bob", password=PASSWORD)
    campaign = campaign_services.create_campaign(
        alice_user, system="rivals", name="Deadrock", encounters=4, house_rules={}
    )
    oneils = roster("rivals-legal-six-outlaws.json")
    oneils["members"][1]["name"] = "James"
    red = campaign_services.join_campaign(
        campaign, alice_user, import_gang(alice_user, roster("rivals-legal-red-jacks-gang.json"))
    )
    campaign_services.join_campaign(campaign, bob_user, import_gang(bob_user, oneils))
    campaign_services.record(campaign, alice_user, "campaign_started", {})
    state = campaign_services.record(
        campaign,
        alice_user,
        "encounter_begun",
        {"gangs": [str(red.pk), str(red.pk + 1)]},
        rng=random.Random(1),
    )
    enc = state.last_encounter.id
    url = f"{live_server.url}/campaigns/{campaign.pk}/encounters/{enc}/"
    log_in(alice, live_server.url, "alice")
    log_in(bob, live_server.url, "bob")
    alice.goto(url)
    alice.click('[data-testid="play-link"]')
    alice.click('[data-testid="start"]')
    bob.goto(url)
    bob.click('[data-testid="play-link"]')
    expect(tracker(bob, "James")).to_have_count(1)
    return campaign, enc, red, url


def test_alice_offline_through_the_kill_and_the_record_has_the_books_figures(phones, live_server):
    alice, bob = phones
    campaign, enc, red, url = encounter_game(live_server, alice, bob)
    # James wounds Red Jack and Jesse for 3 actions each (6 reputation: a Drifter).
    hit(bob, "Red Jack", 3, "James")
    table_settled(bob, 1)
    hit(bob, "Jesse", 3, "James")
    table_settled(bob, 2)
    expect(value(alice, "Jesse", "actions")).to_have_text("1", timeout=WAIT)
    table_settled(alice, 2)

    # Alice's signal goes: Sarah's wound on James waits in her phone...
    alice.context.set_offline(True)
    hit(alice, "James", 2, "Sarah")
    expect(alice.locator('[data-testid="offline"]')).to_contain_text("1 tap waiting")
    # ... while Bob records the kill, which reaches the server first.
    row = more(bob, "James")
    row.locator('[data-testid="cause"]').select_option(label="Sarah")
    row.locator('[data-testid="status-dead"]').click()
    table_settled(bob, 3)
    assert TapEvent.objects.count() == 3
    alice.context.set_offline(False)
    expect(alice.locator('[data-testid="offline"]')).to_be_hidden(timeout=WAIT)
    table_settled(alice, 4)
    # counted where it was made: before the kill, nothing held, nothing refused
    expect(alice.locator('[data-testid="tap-error"]')).to_be_hidden()
    expect(alice.locator('[data-testid="held"]')).to_have_count(0)
    log = alice.locator('[data-testid="play-log"] [data-testid="log-line"]')
    expect(log.nth(0)).to_contain_text("killed, by Sarah")  # newest first: the kill last
    expect(log.nth(1)).to_contain_text("Sarah wounded James")
    expect(tracker(bob, "James").locator('[data-testid="status"]')).to_have_text("Killed · Sarah")
    assert no_horizontal_scroll(alice) and no_horizontal_scroll(bob)

    alice.click('[data-testid="end-game"]')
    alice.click('[data-testid="winner-a"]')
    alice.click('[data-testid="review-record"]')
    expect(alice.locator('[data-testid="draft-awards"]')).to_contain_text(
        "Killed James: 4 actions (toughness) + Drifter notoriety bonus 2"
    )
    alice.click('[data-testid="submit-record"]')
    expect(alice.locator('[data-testid="status"]').first).to_contain_text("Provisional")
    bob.goto(url)
    bob.click('[data-testid="confirm"]')
    expect(bob.locator('[data-testid="steps"]')).to_have_attribute(
        "data-status", "confirmed", timeout=WAIT
    )
    state = campaign_services.state_of(campaign)
    sarah = [a.amount for a in state.encounter(enc).awards if a.member == f"{red.pk}/2"]
    assert sarah == [2, 6, 2]  # the Belly Wound, the kill (4 + Drifter 2), the win


def test_the_same_wound_on_both_phones_counts_once_and_a_conflict_is_settled_by_keyboard(
    phones, live_server
):
    alice, bob = phones
    encounter_game(live_server, alice, bob)
    # both players tap Sarah's 1-action wound on David, within the same poll
    hit(alice, "David", 1, "Sarah")
    hit(bob, "David", 1, "Sarah")
    table_settled(alice, 2)
    expect(value(alice, "David", "actions")).to_have_text("3", timeout=WAIT)  # 4 - 1, once
    expect(value(bob, "David", "actions")).to_have_text("3", timeout=WAIT)
    expect(alice.locator('[data-testid="play-log"]')).to_contain_text("Recorded by both players")
    game = Game.objects.get()
    assert [h["kind"] for h in play_services.state_of(game).happenings] == ["wound"]

    # Bob goes offline and wounds James; Alice kills James meanwhile: Bob's wound, made
    # after the kill on a phone that had not seen it, is kept in conflict for both.
    table_settled(bob, 2)
    bob.context.set_offline(True)
    row = more(alice, "James")
    row.locator('[data-testid="cause"]').select_option(label="Sarah")
    row.locator('[data-testid="status-dead"]').click()
    table_settled(alice, 3)
    hit(bob, "James", 1, "Sarah")
    bob.context.set_offline(False)
    held = alice.locator('[data-testid="held-conflict"]')
    expect(held).to_contain_text("James is killed.", timeout=WAIT)
    expect(bob.locator('[data-testid="held-conflict"]')).to_be_visible(timeout=WAIT)
    assert axe_violations(alice) == []
    assert no_horizontal_scroll(alice)
    held.scroll_into_view_if_needed()
    shot(alice, "play-held-conflict-375")
    # Alice drops it with the keyboard: Tab to "Drop it", Shift+Tab back and forth, Enter
    keep = held.locator('[data-testid="settle-keep"]')
    keep.focus()
    alice.keyboard.press("Tab")
    expect(held.locator('[data-testid="settle-drop"]')).to_be_focused()
    alice.keyboard.press("Shift+Tab")
    expect(keep).to_be_focused()
    alice.keyboard.press("Tab")
    alice.keyboard.press("Enter")
    expect(alice.locator('[data-testid="held"]')).to_have_count(0, timeout=WAIT)
    expect(bob.locator('[data-testid="held"]')).to_have_count(0, timeout=WAIT)
    expect(alice.locator('[data-testid="play-log"]')).to_contain_text("Dropped: ")
    assert play_services.state_of(Game.objects.get()).held == []


def test_a_league_game_with_an_offline_phone_counts_a_victory_point_once(phones, live_server):
    ann = User.objects.create_user("ann", password=PASSWORD)
    ben = User.objects.create_user("ben", password=PASSWORD)
    club = league_services.create_club(ann, name="Tombstone Wargamers")
    league_services.join_club(club, ben)
    league = league_services.create_league(
        club, name="Spring League", system="bwg2", cap=700, pairing="round_robin", rounds=1
    )
    crew = roster("bwg2-legal-tranquility-crew-700.json")
    reg_a = league_services.register(league, ann, import_gang(ann, crew))
    reg_b = league_services.register(league, ben, import_gang(ben, crew))
    rnd = Round.objects.create(league=league, number=1)
    pairing = Pairing.objects.create(round=rnd, table=1, a=reg_a, b=reg_b)
    match_url = f"{live_server.url}/leagues/{league.pk}/matches/{pairing.pk}/"
    a, b = phones
    log_in(a, live_server.url, "ann")
    log_in(b, live_server.url, "ben")
    a.goto(match_url)
    a.click('[data-testid="play-link"]')
    a.click('[data-testid="start"]')
    b.goto(match_url)
    b.click('[data-testid="play-link"]')
    expect(b.locator("#side-b")).to_be_visible()
    # Ben is offline; both players tap Ann's objective (+1 VP), and Ben puts his own
    # leader out of action on his phone meanwhile.
    b.context.set_offline(True)
    a.click('[data-testid="vp-plus-a"]')
    table_settled(a, 1)
    b.click('[data-testid="vp-plus-a"]')
    leader = b.locator("#side-b [data-testid='tracker']").first
    leader.locator('[data-testid="more"]').click()
    leader.locator('[data-testid="status-out"]').click()
    expect(b.locator('[data-testid="offline"]')).to_contain_text("2 taps waiting")
    b.context.set_offline(False)
    expect(b.locator('[data-testid="offline"]')).to_be_hidden(timeout=WAIT)
    table_settled(b, 3)
    expect(a.locator('[data-testid="vp-a"] b')).to_have_text("1", timeout=WAIT)  # once
    expect(b.locator('[data-testid="vp-a"] b')).to_have_text("1")
    a.click('[data-testid="end-game"]')
    a.click('[data-testid="winner-a"]')
    a.click('[data-testid="review-record"]')
    expect(a.locator("#id_vp_a")).to_have_value("6")  # the objective 1 + Ben's leader 5
    a.click('[data-testid="submit-record"]')
    b.goto(match_url)
    b.click('[data-testid="confirm"]')
    expect(b.locator("body")).to_contain_text("Result confirmed")
    report = MatchReport.objects.get(pairing=pairing)
    assert (report.vp_a, report.winner, report.status) == (6, "a", "confirmed")


def test_a_third_phone_follows_the_game_read_only(phones, browser, live_server):
    alice, bob = phones
    encounter_game(live_server, alice, bob)
    alice.click('[data-testid="watch-summary"]')
    alice.click('[data-testid="watch-on"]')
    link = alice.locator('[data-testid="watch-url"]').input_value()
    assert "/play/watch/" in link
    spectator = browser.new_context(viewport=PHONE, bypass_csp=True).new_page()  # no account
    try:
        spectator.goto(link)
        expect(spectator.locator('[data-testid="watch-table"]')).to_be_visible()
        expect(spectator.locator("#watch-root button")).to_have_count(0)
        hit(bob, "Jesse", 2, "James")
        expect(
            spectator.locator(
                '#watch-b-2 [data-testid="value-actions"], [data-testid="watch-member"]'
            ).first
        ).to_be_visible()
        expect(spectator.locator('[data-testid="play-log"]')).to_contain_text(
            "James wounded Jesse", timeout=12_000
        )
        assert no_horizontal_scroll(spectator)
        assert axe_violations(spectator) == []
        shot(spectator, "play-watch-375")
        spectator.set_viewport_size({"width": 1280, "height": 900})
        assert axe_violations(spectator) == []
        shot(spectator, "play-watch-1280")
    finally:
        spectator.context.close()
