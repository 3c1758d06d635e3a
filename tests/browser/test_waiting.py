"""What waits on you, in a real browser at 375 px: player A reports a league result;
player B signs in, sees the count in the header and the result to confirm on the home
page, follows it, confirms, and the item is gone (and so is the count). The count is
made by the real background worker (the "thread" backend), never in a request."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from builder.services import import_gang
from campaigns.leagues import services as ls
from common import background
from tests.browser.builder import log_in, no_horizontal_scroll
from tests.browser.conftest import PHONE
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples"
ROSTER = "bwg2-legal-tranquility-crew-700.json"
#: set to a folder to keep screenshots of the pages at 375 and 1280 px
SHOTS = os.environ.get("GANGFIGHT_SHOTS", "")


def new_page(browser: Browser, width: int = PHONE["width"]) -> Page:
    context = browser.new_context(viewport={**PHONE, "width": width})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def shot(page: Page, name: str) -> None:
    assert no_horizontal_scroll(page), page.url
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.fixture
def threads(settings, no_printing_ahead):
    """The real background worker: the header's count is made by it, as in production
    (the gangs' PDFs are not printed ahead: they would hold the worker for seconds)."""
    settings.BACKGROUND_TASKS = "thread"
    cache.clear()
    yield
    assert background.wait_idle(10)
    cache.clear()


def test_a_result_to_confirm_waits_in_the_header_and_on_the_home_page(
    browser, live_server, threads
):
    base = live_server.url
    boss = User.objects.create_user("boss", password=PASSWORD)
    club = ls.create_club(boss, name="Deadwood Irregulars")
    roster = json.loads((EXAMPLE / ROSTER).read_text("utf-8"))
    gangs = {}
    for name in ("abe", "bea"):
        user = User.objects.create_user(name, password=PASSWORD)
        ls.join_club(club, user)
        gangs[name] = (user, import_gang(user, {**roster, "name": f"{name.title()}'s crew"}))
    league = ls.create_league(club, name="Spring Season", system="bwg2", cap=700)
    for user, gang in gangs.values():
        ls.register(league, user, gang)
    pairing = ls.next_round(league).pairings.get()
    abe = gangs["abe"][0]
    side = "a" if pairing.a.player == abe else "b"
    assert background.wait_idle(10)

    # Abe reports the match: he won 12-4.
    a = new_page(browser)
    log_in(a, base, "abe")
    a.goto(base + reverse("home"))
    expect(a.locator('[data-testid="waiting-item"]')).to_have_count(1)
    expect(a.locator('[data-testid="waiting-item"]')).to_contain_text("Play your round 1 match")
    shot(a, "home-abe-375")
    a.click('[data-testid="waiting-item"] a')
    a.fill("#id_vp_a", "12" if side == "a" else "4")
    a.fill("#id_vp_b", "4" if side == "a" else "12")
    a.check(f'input[name="winner"][value="{side}"]')
    a.click('[data-testid="submit-report"]')
    expect(a.locator('[data-testid="match-result"]')).to_have_attribute("data-status", "submitted")
    assert background.wait_idle(10)

    # Bea signs in: the count is in the header of the page she lands on.
    b = new_page(browser)
    log_in(b, base, "bea")
    badge = b.locator('[data-testid="waiting-count"]')
    expect(badge).to_be_visible()
    expect(badge).to_contain_text("1")
    shot(b, "gangs-bea-375")
    badge.click()
    item = b.locator('[data-testid="waiting-item"]')
    expect(item).to_have_count(1)
    expect(item).to_contain_text("abe reported your round 1 match in Spring Season")
    expect(b.locator(".waiting-kind")).to_contain_text("Results to confirm or dispute")
    shot(b, "home-bea-375")
    b.set_viewport_size({**PHONE, "width": 1280})
    shot(b, "home-bea-1280")
    b.set_viewport_size(PHONE)

    # She follows it, landing on the confirm button (#confirm), and confirms: the item and
    # the count are gone.
    item.locator("a").click()
    b.wait_for_url("**#confirm")
    expect(b.locator('[data-testid="confirm"]')).to_be_in_viewport()
    b.click('[data-testid="confirm"]')
    expect(b.locator('[data-testid="match-result"]')).to_have_attribute("data-status", "confirmed")
    b.goto(base + reverse("home"))
    expect(b.locator('[data-testid="nothing-waiting"]')).to_be_visible()
    expect(b.locator('[data-testid="waiting-item"]')).to_have_count(0)
    expect(b.locator('[data-testid="waiting-count"]')).to_have_count(0)
    shot(b, "home-nothing-375")

    # The email settings page, from the home page.
    b.click('[data-testid="notification-settings-link"]')
    expect(b.locator("h1")).to_contain_text("Email about what waits on you")
    shot(b, "settings-375")
    b.set_viewport_size({**PHONE, "width": 1280})
    shot(b, "settings-1280")
    for page in (a, b):
        page.context.close()
