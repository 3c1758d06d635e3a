"""A forgotten password, end to end in a phone-sized browser: the log-in page's link, the
mail (caught in memory), the new password, logging in with it. And the account pages:
adding an address by its confirmation link, downloading my data, deleting the account."""

from __future__ import annotations

import re
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from playwright.sync_api import Page, expect

from tests.browser.builder import log_in, no_horizontal_scroll
from tests.browser.conftest import PHONE
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

NEW = "A-brand-new-pa55word"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def link_in(body: str) -> str:
    return re.search(r"https?://\S+", body).group(0)


def test_a_forgotten_password_is_a_two_minute_fix(page: Page, live_server, tmp_path, background):
    User.objects.create_user("calamity", "jane@example.org", PASSWORD)
    page.goto(f"{live_server.url}/accounts/login/")
    page.click('[data-testid="forgot-password"]')
    assert no_horizontal_scroll(page)
    page.screenshot(path=tmp_path / "reset-form-375.png", full_page=True)
    page.fill("#id_email", "Jane@Example.org")
    page.click('[data-testid="send-reset"]')
    expect(page.locator('[data-testid="reset-sent"]')).to_be_visible()
    assert no_horizontal_scroll(page)
    background.run_all()  # the mail goes in the background (accounts/tasks.py)
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["jane@example.org"]

    page.goto(link_in(mail.outbox[0].body))
    page.fill("#id_new_password1", NEW)
    page.fill("#id_new_password2", NEW)
    assert no_horizontal_scroll(page)
    page.screenshot(path=tmp_path / "reset-confirm-375.png", full_page=True)
    page.click('[data-testid="set-password"]')
    expect(page.locator('[data-testid="reset-complete"]')).to_be_visible()

    page.click("main >> text=Log in")
    page.fill("#id_username", "calamity")
    page.fill("#id_password", NEW)
    page.click("button:has-text('Log in')")
    expect(page.locator('[data-testid="nav-user"]')).to_have_text("calamity")

    # the link was for one use
    page.goto(link_in(mail.outbox[0].body))
    expect(page.locator('[data-testid="reset-link-invalid"]')).to_be_visible()


def test_add_an_address_then_download_my_data_then_delete_the_account(
    page: Page, live_server, tmp_path, background
):
    User.objects.create_user("calamity", password=PASSWORD)
    log_in(page, live_server.url, "calamity")
    page.click('[data-testid="nav-user"]')
    expect(page.locator('[data-testid="account-email"]')).to_contain_text("none yet")
    assert no_horizontal_scroll(page)
    page.screenshot(path=tmp_path / "account-375.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=tmp_path / "account-1280.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.click('[data-testid="email-change-link"]')
    page.fill("#id_email", "not an address")
    page.fill("#id_password", "wrong")
    page.click("button:has-text('Send the link')")
    expect(page.locator(".errorlist").first).to_be_visible()
    assert no_horizontal_scroll(page)
    page.screenshot(path=tmp_path / "email-375.png", full_page=True)
    page.fill("#id_email", "jane@example.org")
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Send the link')")
    expect(page.locator(".message")).to_contain_text("We sent a link to jane@example.org")
    background.run_all()
    page.goto(link_in(mail.outbox[0].body))
    assert no_horizontal_scroll(page)
    page.screenshot(path=tmp_path / "confirm-375.png", full_page=True)
    page.click('[data-testid="confirm-email"]')
    expect(page.locator('[data-testid="account-email"]')).to_have_text("jane@example.org")

    page.click("text=Download my data")
    assert no_horizontal_scroll(page)
    page.screenshot(path=tmp_path / "data-375.png", full_page=True)
    with page.expect_download() as download:
        page.click('[data-testid="download-my-data"]')
    path = tmp_path / "my-data.zip"
    download.value.save_as(path)
    with zipfile.ZipFile(path) as archive:
        assert {"README.txt", "account.json", "campaigns.json", "leagues.json"} <= set(
            archive.namelist()
        )

    page.goto(f"{live_server.url}/accounts/delete/")
    assert no_horizontal_scroll(page)
    page.screenshot(path=tmp_path / "delete-375.png", full_page=True)
    page.fill("#id_password", PASSWORD)
    page.click('[data-testid="delete-account"]')
    expect(page.locator(".message")).to_contain_text("Your account was deleted")
    expect(page.locator('[data-testid="nav-user"]')).to_have_count(0)
    assert not User.objects.filter(username="calamity").exists()
