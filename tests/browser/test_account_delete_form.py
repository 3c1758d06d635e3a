"""Issue 25, in Debian's chromium at 375 px: a player deletes their account through its
form, as a person does (types their password, presses the button): the account is gone
and the visitor logged out. (tests/test_account_leaving.py deletes through the service.)

And every link and control of the account and notification pages is at least 24 x 24
CSS px, at 375 and 1280 px (WCAG 2.5.8)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.urls import reverse
from playwright.sync_api import Page, expect

from accounts import services as accounts
from builder.models import Gang
from notifications import services as notifications
from tests.browser.builder import log_in, no_horizontal_scroll
from tests.browser.conftest import PHONE
from tests.browser.test_signup_invite import small_targets
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("GANGFIGHT_SHOTS", "")


def test_a_player_deletes_their_account_through_the_form(page: Page, live_server):
    calamity = User.objects.create_user("calamity", "jane@example.org", PASSWORD)
    Gang.objects.create(owner=calamity, system="bwg2", name="Tranquility Crew")
    log_in(page, live_server.url, "calamity")
    page.goto(live_server.url + reverse("account"))
    page.click("text=Delete my account")
    expect(page.locator("h1")).to_have_text("Delete your account?")
    expect(page.locator('[data-testid="deletion-plan"]')).to_contain_text("Your gang is deleted")
    button = page.locator('[data-testid="delete-account"]')
    password = page.locator("#id_password")
    password.fill(PASSWORD)
    assert no_horizontal_scroll(page)
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "account-delete-375.png"), full_page=True)
    button.click()

    expect(page).to_have_url(live_server.url + reverse("home"))
    expect(page.locator(".messages")).to_contain_text("Your account was deleted")
    expect(page.locator('[data-testid="nav-user"]')).to_have_count(0)  # logged out
    expect(page.locator(".site-header").get_by_role("link", name="Log in")).to_be_visible()
    calamity.refresh_from_db()
    assert not calamity.is_active and accounts.is_former_member(calamity)
    assert calamity.email == "" and not calamity.has_usable_password()
    assert not Gang.objects.filter(owner=calamity).exists()
    page.goto(live_server.url + reverse("account"))  # the session is gone too
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))


def test_a_wrong_password_deletes_nothing_and_says_so(page: Page, live_server):
    User.objects.create_user("calamity", password=PASSWORD)
    log_in(page, live_server.url, "calamity")
    page.goto(live_server.url + reverse("account_delete"))
    page.fill("#id_password", "not-my-password")
    page.click('[data-testid="delete-account"]')
    expect(page.locator(".errorlist")).to_contain_text("This is not your password.")
    expect(page.locator('[data-testid="nav-user"]')).to_have_text("calamity")
    assert User.objects.get(username="calamity").is_active


@pytest.mark.parametrize("width", [PHONE["width"], 1280])
def test_the_account_pages_targets_are_big_enough(page: Page, live_server, width):
    page.set_viewport_size({**PHONE, "width": width})
    jane = User.objects.create_user("jane", "old@example.org", PASSWORD)
    notifications.notify(jane, "You now organise Deadwood Irregulars", reverse("club_list"))
    confirm = accounts.email_change_token(jane, "new@example.org")
    revert = signing.dumps(
        {"u": jane.pk, "old": "other@example.org", "new": "old@example.org"},
        salt=accounts.REVERT_SALT,
    )
    log_in(page, live_server.url, "jane")
    urls = [
        reverse("home"),  # what waits on you, with a notice and its "Got it"
        reverse("account"),
        reverse("email_change"),
        reverse("email_confirm", args=[confirm]),
        reverse("email_confirm", args=["not-a-token"]),
        reverse("password_change"),
        reverse("password_change_done"),
        reverse("my_data"),
        reverse("account_delete"),
        reverse("notification_settings"),
        reverse("email_revert", args=[revert]),
        reverse("email_revert", args=["not-a-token"]),
    ]
    for url in urls:
        page.goto(live_server.url + url)
        assert small_targets(page) == [], url
        assert no_horizontal_scroll(page), url
        if SHOTS:
            name = url.strip("/").replace("/", "-")[:40] or "home"
            page.screenshot(path=str(Path(SHOTS) / f"targets-{name}-{width}.png"), full_page=True)
