"""A player leaves, in a real browser at 375 px: the club's organiser deletes her account;
the member who inherits the club logs in, lands on What waits on you, reads "You now
organise …" and dismisses it. And the "this wasn't me" link mailed to an old address puts
it back. Screenshots at 375 and 1280 px with GANGFIGHT_SHOTS=folder."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from accounts import services as accounts
from campaigns.leagues import services as ls
from tests.browser.builder import log_in, no_horizontal_scroll
from tests.browser.conftest import PHONE
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("GANGFIGHT_SHOTS", "")


def new_page(browser: Browser) -> Page:
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    return page


def shot(page: Page, name: str) -> None:
    for width in (PHONE["width"], 1280):
        page.set_viewport_size({**PHONE, "width": width})
        assert no_horizontal_scroll(page), (page.url, width)
        if SHOTS:
            page.screenshot(path=str(Path(SHOTS) / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def test_the_new_organiser_lands_on_the_news_and_dismisses_it(browser, live_server):
    boss = User.objects.create_user("boss", password=PASSWORD)
    club = ls.create_club(boss, name="Deadwood Irregulars")
    cy = User.objects.create_user("cy", password=PASSWORD)
    ls.join_club(club, cy)
    accounts.delete_account(boss)

    page = new_page(browser)
    log_in(page, live_server.url, "cy")  # lands on the home page: what waits on her
    expect(page).to_have_url(live_server.url + reverse("home"))
    item = page.locator('[data-testid="waiting-item"]')
    expect(item).to_contain_text("You now organise Deadwood Irregulars")
    expect(page.locator(".waiting-kind")).to_contain_text("News for you")
    shot(page, "leaving-news")
    page.click('[data-testid="dismiss-notice"]')
    expect(page.locator('[data-testid="nothing-waiting"]')).to_be_visible()


def test_this_wasnt_me_puts_the_old_address_back_and_logs_everyone_out(browser, live_server):
    jane = User.objects.create_user("jane", "old@example.org", PASSWORD)
    intruder = new_page(browser)
    log_in(intruder, live_server.url, "jane")
    jane.email = "new@example.org"  # the intruder changed it (tests/test_account_email.py
    jane.save()  # checks that the mail to the old address carries this link)
    token = signing.dumps(
        {
            "u": jane.pk,
            "old": "old@example.org",
            "new": "new@example.org",
            "s": accounts._revert_stamp(jane),  # the account as the mailed link found it
        },
        salt=accounts.REVERT_SALT,
    )

    owner = new_page(browser)
    owner.goto(live_server.url + reverse("email_revert", args=[token]))
    expect(owner.locator("h1")).to_have_text("Take your account back")
    shot(owner, "email-revert")
    owner.click('[data-testid="revert-email"]')
    expect(owner.locator('[data-testid="reverted"]')).to_contain_text("old@example.org")
    shot(owner, "email-reverted")
    jane.refresh_from_db()
    assert jane.email == "old@example.org"
    intruder.goto(live_server.url + reverse("account"))
    expect(intruder).to_have_url(re.compile(r"/accounts/login/"))  # logged out
