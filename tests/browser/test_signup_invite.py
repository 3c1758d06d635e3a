"""Issue 25, in Debian's chromium at 375 px: a newcomer opens the club's invite logged out,
follows "Sign up" on the log-in page, signs up, lands on the invite and joins the club.

And every link and control of the log-in, sign-up and password pages is at least
24 x 24 CSS px on a phone (WCAG 2.5.8), as on the account pages
(tests/browser/test_account_delete_form.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from campaigns.leagues import services as leagues
from campaigns.leagues.models import ClubMember
from tests.browser.builder import no_horizontal_scroll
from tests.browser.conftest import PHONE
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

#: WCAG 2.5.8 (target size, minimum): 24 x 24 CSS px
TARGET = 24

#: every link and control a person can use, inside the page's own part (the header's are
#: base.html's), and each label of a box (the box and its label are one target)
SMALL_TARGETS = """min => [...document.querySelectorAll(
    'main a[href], main button, main input:not([type=hidden]), main select, main textarea,'
    + ' main summary, main label')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .filter(e => !(e.matches('label') && !e.querySelector('input, select, textarea')))
  .map(e => { const r = e.getBoundingClientRect();
              return {what: e.outerHTML.slice(0, 90), w: r.width, h: r.height}; })
  .filter(t => t.w < min - 0.01 || t.h < min - 0.01)"""


def small_targets(page: Page) -> list[dict]:
    """The links and controls on the page smaller than 24 x 24 CSS px."""
    return page.evaluate(SMALL_TARGETS, TARGET)


def test_a_newcomer_signs_up_from_a_club_invite_and_joins(page: Page, live_server):
    boss = User.objects.create_user("boss", password=PASSWORD)
    club = leagues.create_club(boss, name="Deadwood Irregulars")
    invite = live_server.url + reverse("club_join", args=[club.invite_token])

    page.goto(invite)  # logged out: the log-in page, which keeps where the link led
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    page.locator("main").get_by_role("link", name="Sign up").click()
    expect(page.locator("h1")).to_have_text("Sign up")
    expect(page.locator('[data-testid="signup-next"]')).to_be_visible()
    assert no_horizontal_scroll(page)
    page.fill("#id_username", "newcomer")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button:has-text('Create my account')")

    expect(page).to_have_url(invite)  # back on the invite, signed in
    expect(page.locator('[data-testid="nav-user"]')).to_have_text("newcomer")
    expect(page.locator("h1")).to_contain_text("Deadwood Irregulars")
    join = page.locator('[data-testid="join-club"]')
    expect(join).to_be_in_viewport()
    join.click()
    expect(page).to_have_url(live_server.url + reverse("club_detail", args=[club.pk]))
    expect(page.locator(".messages")).to_contain_text("You joined “Deadwood Irregulars”")
    newcomer = User.objects.get(username="newcomer")
    assert ClubMember.objects.filter(club=club, user=newcomer).exists()


def test_the_header_sign_up_button_keeps_the_invite_too(page: Page, live_server):
    boss = User.objects.create_user("boss", password=PASSWORD)
    club = leagues.create_club(boss, name="Deadwood Irregulars")
    invite = live_server.url + reverse("club_join", args=[club.invite_token])
    page.goto(invite)
    page.locator(".site-header").get_by_role("link", name="Sign up").click()
    page.fill("#id_username", "header-reader")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button:has-text('Create my account')")
    expect(page).to_have_url(invite)


@pytest.mark.parametrize("width", [PHONE["width"], 1280])
def test_the_log_in_and_sign_up_pages_targets_are_big_enough(page: Page, live_server, width):
    page.set_viewport_size({**PHONE, "width": width})
    urls = [
        reverse("login") + "?next=/clubs/",
        reverse("signup") + "?next=/clubs/",
        reverse("password_reset"),
        reverse("password_reset_done"),
        reverse("password_reset_complete"),
        reverse("password_reset_confirm", args=["bad", "link"]),
    ]
    for url in urls:
        page.goto(live_server.url + url)
        assert small_targets(page) == [], url
        assert no_horizontal_scroll(page), url
