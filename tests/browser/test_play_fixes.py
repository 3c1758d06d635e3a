"""Play mode at 375 px as a new user found it (issue 20 review): every row's minus at the
same x; a tap made offline shows at once, marked waiting, with the banner in sight wherever
the page is scrolled; a refused tap says it was not counted, where the user is."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from builder.services import import_gang
from play import services
from play.models import Game, TapEvent
from tests.browser.builder import log_in, no_horizontal_scroll
from tests.browser.test_play import WAIT, roster, shot, table_settled, tracker, value
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def start(page: Page, live_server, file: str) -> Game:
    User.objects.create_user("rider", password=PASSWORD)
    rider = User.objects.get(username="rider")
    gang = import_gang(rider, roster(file))
    log_in(page, live_server.url, "rider")
    page.goto(f"{live_server.url}/play/start/gang/{gang.pk}/")
    page.click('[data-testid="start"]')
    expect(page.locator('[data-testid="tracker"]').first).to_be_visible()
    return Game.objects.get()


def test_every_rows_minus_is_at_the_same_x(page: Page, live_server):
    start(page, live_server, "gf26-legal-iron-company.json")
    xs = [round(b.bounding_box()["x"]) for b in page.locator('[data-testid="minus-en"]').all()]
    assert len(xs) > 3 and len(set(xs)) == 1, xs
    # "Wounds, out…" is read whole, not cut
    for summary in page.locator('[data-testid="more"]').all():
        assert summary.evaluate("s => s.scrollWidth <= s.clientWidth")
        assert summary.inner_text().strip().endswith("out…")
    assert no_horizontal_scroll(page)
    shot(page, "play-gf26-375")


def test_an_offline_tap_shows_at_once_and_the_banner_follows_the_scroll(page: Page, live_server):
    game = start(page, live_server, "rivals-legal-red-jacks-gang.json")
    clay = tracker(page, "Clay")
    clay.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.context.set_offline(True)
    clay.locator('[data-testid="minus-actions"]').click()
    # shown at once, marked waiting, before the server has it
    expect(value(page, "Clay", "actions")).to_have_text("4")
    expect(clay.locator('[data-testid="waiting"]')).to_have_text("waiting")
    banner = page.locator('[data-testid="offline"]')
    expect(banner).to_contain_text("1 tap waiting", timeout=WAIT)
    expect(banner).to_be_in_viewport()
    assert no_horizontal_scroll(page)
    shot(page, "play-offline-scrolled-375")
    assert TapEvent.objects.count() == 0
    page.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=WAIT)
    table_settled(page, 1)
    expect(value(page, "Clay", "actions")).to_have_text("4")
    expect(clay.locator('[data-testid="waiting"]')).to_have_count(0)
    event = TapEvent.objects.get()
    assert event.made_at <= event.at  # the time the phone made it is kept

    # A tap made offline after the other phone's kill (this phone had not seen it): kept in
    # conflict, not counted, and said where the user is (issue 29: never dropped silently).
    page.context.set_offline(True)
    rider = User.objects.get(username="rider")
    services.tap(game, rider, "status", {"member": "a/5", "status": "dead"}, "elsewhere")
    clay.locator('[data-testid="minus-actions"]').click()
    expect(value(page, "Clay", "actions")).to_have_text("3")
    page.context.set_offline(False)
    error = page.locator('[data-testid="tap-error"]')
    expect(error).to_contain_text(
        "That tap no longer fits where it was made: Clay is killed.", timeout=WAIT
    )
    expect(error).to_be_in_viewport()
    expect(value(page, "Clay", "actions")).to_have_text("4")  # the waiting change is gone
    expect(page.locator('[data-testid="held-conflict"]')).to_contain_text("Clay is killed.")
    assert TapEvent.objects.count() == 3  # kept in the log
    shot(page, "play-refused-375")


def test_a_wound_with_nobody_named_is_named_from_the_review(page: Page, live_server):
    import random

    from campaigns import services as campaign_services

    alice = User.objects.create_user("alice", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    campaign = campaign_services.create_campaign(
        alice, system="rivals", name="Deadrock", encounters=4, house_rules={}
    )
    red = campaign_services.join_campaign(
        campaign, alice, import_gang(alice, roster("rivals-legal-red-jacks-gang.json"))
    )
    oneils = campaign_services.join_campaign(
        campaign, bob, import_gang(bob, roster("rivals-legal-six-outlaws.json"))
    )
    campaign_services.record(campaign, alice, "campaign_started", {})
    state = campaign_services.record(
        campaign,
        alice,
        "encounter_begun",
        {"gangs": [str(red.pk), str(oneils.pk)]},
        rng=random.Random(1),
    )
    game = services.start_from_encounter(alice, campaign, state.last_encounter.id)
    services.tap(game, alice, "wound", {"member": "b/2", "amount": 2}, "w1")
    services.tap(game, alice, "end", {"winner": "a"}, "end")
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/play/{game.pk}/")
    expect(page.locator('[data-testid="ended-here"]')).to_be_visible()
    page.click('[data-testid="review-record-here"]')
    unnamed = page.locator('[data-testid="unnamed"]')
    expect(unnamed).to_contain_text("1 wound has nobody named as its cause")
    assert no_horizontal_scroll(page)
    shot(page, "play-review-unnamed-375")
    unnamed.locator('[data-testid="blame-by"]').select_option(label="Sarah")
    unnamed.locator('[data-testid="blame"]').click()
    expect(page.locator('[data-testid="unnamed"]')).to_have_count(0)
    expect(page.locator('[data-testid="draft-lines"]')).to_contain_text(
        "Sarah wounded Mark (2 actions lost)."
    )
    expect(page.locator('[data-testid="draft-awards"]')).to_contain_text("Wounded Mark")
