"""Play mode in a real browser at 375 px: two players track a Rivals encounter on their
own phones (each sees the other's taps without reloading) and it ends in a confirmed
record whose reputation is the book's (Sarah and James); a league game ends in a confirmed
match report; taps made with the network cut arrive in order once it returns, none lost,
none doubled, and a reload sends what was waiting."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from builder.services import import_gang
from campaigns import services as campaign_services
from campaigns.leagues import services as league_services
from campaigns.leagues.models import MatchReport, Pairing, Round
from play.models import Game, TapEvent
from rules.roster import read_roster
from tests.browser.builder import log_in, no_horizontal_scroll
from tests.browser.conftest import PHONE
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SHOTS = os.environ.get("PLAY_SCREENSHOTS")  # a folder: save a screenshot of each page
WAIT = 8_000  # ms: the other phone polls every 2 s


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def roster(name: str) -> dict:
    return read_roster((EXAMPLES / name).read_bytes())


@pytest.fixture
def phones(browser):
    """Two phones, each its own browser context (own cookies, own localStorage)."""
    contexts = [browser.new_context(viewport=PHONE, bypass_csp=True) for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    for p in pages:
        p.set_default_timeout(15_000)
    yield pages
    for c in contexts:
        c.close()


def tracker(page: Page, name: str):
    return page.locator(f'[data-testid="tracker"][data-member="{name}"]')


def value(page: Page, name: str, counter: str):
    return tracker(page, name).locator(f'[data-testid="value-{counter}"]')


def more(page: Page, name: str):
    """Open the member's "Wounds, out…" panel; returns the tracker."""
    row = tracker(page, name)
    details = row.locator("details.trk-more")
    if details.get_attribute("open") is None:
        row.locator('[data-testid="more"]').click()
    return row


def hit(page: Page, victim: str, amount: int, by: str) -> None:
    row = more(page, victim)
    row.locator('[data-testid="cause"]').select_option(label=by)
    row.locator(f'[data-testid="wound-{amount}"]').click()


def table_settled(page: Page, version: int) -> None:
    expect(page.locator("#play-table")).to_have_attribute("data-version", str(version))


def test_two_phones_track_a_rivals_encounter_to_a_confirmed_record(phones, live_server):
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
    encounter_url = f"{live_server.url}/campaigns/{campaign.pk}/encounters/{enc}/"
    alice, bob = phones
    log_in(alice, live_server.url, "alice")
    log_in(bob, live_server.url, "bob")

    # Alice starts the game from the encounter's page; Bob follows it from his.
    alice.goto(encounter_url)
    alice.click('[data-testid="play-link"]')
    # the location was rolled when the encounter began: shown, not asked again
    expect(alice.locator('[data-testid="start-location"]')).to_be_visible()
    expect(alice.locator("#id_scenario")).to_have_count(0)
    alice.click('[data-testid="start"]')
    expect(alice.locator('[data-testid="play-title"]')).to_contain_text("Red Jack's Gang v")
    bob.goto(encounter_url)
    bob.click('[data-testid="play-link"]')
    expect(tracker(bob, "James")).to_have_count(1)
    assert bob.url == alice.url  # one game, one log
    assert no_horizontal_scroll(alice) and no_horizontal_scroll(bob)
    shot(bob, "play-table-375")
    if SHOTS:
        bob.set_viewport_size({"width": 1280, "height": 900})
        shot(bob, "play-table-1280")
        bob.set_viewport_size(PHONE)

    # James wounds Red Jack and Jesse for 3 actions each (a Drifter now); Alice sees it.
    hit(bob, "Red Jack", 3, "James")
    table_settled(bob, 1)
    # the cause chosen stays chosen (wounded by James, then put out by James)
    expect(tracker(bob, "Red Jack").locator('[data-testid="cause"]')).to_have_value(
        tracker(bob, "Red Jack")
        .locator('[data-testid="cause"] option', has_text="James")
        .get_attribute("value")
    )
    hit(bob, "Jesse", 3, "James")
    table_settled(bob, 2)
    expect(value(alice, "Red Jack", "actions")).to_have_text("1", timeout=WAIT)
    expect(value(alice, "Jesse", "actions")).to_have_text("1", timeout=WAIT)
    # Sarah's Belly Wound (2 actions), its counter turned to the red side, then the kill.
    # The minus button stays where the thumb left it when the first wound counter
    # appears, and every row's minus is at the same x.
    minus = tracker(alice, "James").locator('[data-testid="minus-actions"]')
    where = (
        "b => { const r = b.getBoundingClientRect();"
        " return [r.x, r.y + scrollY, r.width, r.height]; }"
    )
    before = minus.evaluate(where)
    xs = {
        round(b.bounding_box()["x"]) for b in alice.locator('[data-testid="minus-actions"]').all()
    }
    assert len(xs) == 1, xs
    hit(alice, "James", 2, "Sarah")
    table_settled(alice, 3)
    expect(tracker(alice, "James").locator('[data-testid="wound"]')).to_have_count(1)
    more(alice, "James").locator('[data-testid="more"]').click()  # closed again
    assert minus.evaluate(where) == before
    tracker(alice, "James").locator('[data-testid="wound"]').click()
    expect(tracker(alice, "James").locator('[data-testid="wound"]')).to_have_class("wound red")
    row = more(alice, "James")
    row.locator('[data-testid="cause"]').select_option(label="Sarah")
    row.locator('[data-testid="status-dead"]').click()
    expect(tracker(alice, "James").locator('[data-testid="status"]')).to_have_text("Killed · Sarah")
    expect(tracker(bob, "James").locator('[data-testid="status"]')).to_have_text(
        "Killed · Sarah", timeout=WAIT
    )
    # A mistaken tap, undone with one tap.
    tracker(alice, "Clay").locator('[data-testid="minus-actions"]').click()
    table_settled(alice, 6)
    alice.click('[data-testid="undo"]')
    table_settled(alice, 7)
    expect(value(alice, "Clay", "actions")).to_have_text("5")  # Built like an outhouse
    alice.click('[data-testid="end-game"]')
    alice.click('[data-testid="winner-a"]')
    expect(alice.locator('[data-testid="ended"]')).to_contain_text("Red Jack's Gang won")
    # the result shows where the button was, not only at the top of the page
    expect(alice.locator('[data-testid="ended-here"]')).to_be_in_viewport()
    expect(alice.locator('[data-testid="review-record-here"]')).to_be_in_viewport()
    shot(alice, "play-ended-375")

    # After the game: the draft of the record, reputation computed as the book says.
    alice.click('[data-testid="review-record"]')
    awards = alice.locator('[data-testid="draft-awards"]')
    expect(awards).to_contain_text(
        "Killed James: 4 actions (toughness) + Drifter notoriety bonus 2"
    )
    expect(alice.locator('[data-testid="draft-lines"]')).to_contain_text(
        "Sarah wounded James (2 actions lost)."
    )
    assert no_horizontal_scroll(alice)
    shot(alice, "play-record-375")
    if SHOTS:
        alice.set_viewport_size({"width": 1280, "height": 900})
        shot(alice, "play-record-1280")
        alice.set_viewport_size(PHONE)
    alice.click('[data-testid="submit-record"]')
    expect(alice.locator('[data-testid="status"]').first).to_contain_text("Provisional")

    # Bob confirms it on the encounter's page, as any record.
    bob.goto(encounter_url)
    bob.click('[data-testid="confirm"]')
    expect(bob.locator('[data-testid="steps"]')).to_have_attribute(
        "data-status", "confirmed", timeout=WAIT
    )
    state = campaign_services.state_of(campaign)
    sarah = [a.amount for a in state.encounter(enc).awards if a.member == f"{red.pk}/2"]
    assert sarah == [2, 6, 2]  # Belly Wound, the kill (4 + Drifter 2), the win
    assert Game.objects.count() == 1


def test_a_league_game_ends_in_a_confirmed_match_report(phones, live_server):
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
    side_b = b.locator("#side-b")
    leader = side_b.locator('[data-testid="tracker"]').first
    # Ben's leader loses every Health box and goes out of action: Ann scores him (5 VP).
    for n in range(4):
        leader.locator('[data-testid="minus-hp"]').click()
        table_settled(b, n + 1)
    leader.locator('[data-testid="more"]').click()
    leader.locator('[data-testid="status-out"]').click()
    table_settled(b, 5)
    expect(leader.locator('[data-testid="status"]')).to_contain_text("Out of action")
    b.click('[data-testid="vp-plus-b"]')  # an objective
    table_settled(b, 6)
    expect(a.locator('[data-testid="vp-b"] b')).to_have_text("1", timeout=WAIT)
    assert no_horizontal_scroll(a) and no_horizontal_scroll(b)
    a.click('[data-testid="end-game"]')
    a.click('[data-testid="winner-a"]')
    a.click('[data-testid="review-record"]')
    expect(a.locator("#id_vp_a")).to_have_value("5")
    expect(a.locator("#id_vp_b")).to_have_value("1")
    expect(a.locator("#id_casualties")).to_contain_text("out of action")
    assert no_horizontal_scroll(a)
    shot(a, "play-match-record-375")
    a.click('[data-testid="submit-record"]')
    b.goto(match_url)
    b.click('[data-testid="confirm"]')
    report = MatchReport.objects.get(pairing=pairing)
    expect(b.locator("body")).to_contain_text("Result confirmed")
    report.refresh_from_db()
    assert (report.vp_a, report.vp_b, report.winner, report.status) == (5, 1, "a", "confirmed")


def test_taps_made_offline_arrive_in_order_none_lost_none_doubled(page: Page, live_server):
    User.objects.create_user("rider", password=PASSWORD)
    rider = User.objects.get(username="rider")
    gang = import_gang(rider, roster("rivals-legal-red-jacks-gang.json"))
    log_in(page, live_server.url, "rider")
    page.goto(f"{live_server.url}/play/start/gang/{gang.pk}/")
    page.click('[data-testid="start"]')
    expect(tracker(page, "Sarah")).to_have_count(1)

    page.context.set_offline(True)
    offline = page.locator('[data-testid="offline"]')
    expect(offline).to_contain_text("Offline: the other player", timeout=WAIT)  # the poll
    tracker(page, "Sarah").locator('[data-testid="minus-actions"]').click()
    tracker(page, "Jesse").locator('[data-testid="minus-actions"]').click()
    page.click('[data-testid="next-turn"]')
    expect(offline).to_have_text(
        "Offline: 3 taps waiting. They are sent in order when the network returns."
    )
    assert no_horizontal_scroll(page)
    shot(page, "play-offline-375")
    assert TapEvent.objects.count() == 0
    page.context.set_offline(False)
    expect(offline).to_be_hidden(timeout=WAIT)
    table_settled(page, 3)
    taps = list(TapEvent.objects.order_by("seq").values_list("kind", "data"))
    assert taps == [
        ("wound", {"member": "a/2", "amount": 1, "by": ""}),
        ("wound", {"member": "a/3", "amount": 1, "by": ""}),
        ("turn", {"delta": 1}),
    ]
    expect(value(page, "Sarah", "actions")).to_have_text("3")

    # A tap whose sending fails stays in the browser; a reload sends it, once.
    page.route("**/tap/", lambda route: route.abort())
    tracker(page, "Luke").locator('[data-testid="minus-actions"]').click()
    expect(offline).to_contain_text("1 tap waiting")
    page.unroute("**/tap/")
    page.reload()
    table_settled(page, 4)
    expect(value(page, "Luke", "actions")).to_have_text("3")
    page.reload()
    table_settled(page, 4)
    assert TapEvent.objects.count() == 4
