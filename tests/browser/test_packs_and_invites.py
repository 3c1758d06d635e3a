"""At 375 px in Debian's chromium: a card added by copying a book card (the grouped card
form, its + rows and its live preview), and the Copy button of an invite link (with the
link selected in a read-only field when there is no JavaScript)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Page, expect

from builder.models import ContentPack, Item
from campaigns import services as campaign_services
from tests.browser.builder import log_in
from tests.browser.conftest import PHONE
from tests.browser.test_csp import Watch
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def fits(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_card_made_by_copying_a_book_card(strict_page: Page, live_server):
    page = strict_page
    call_command("load_content", verbosity=0)
    User.objects.create_user("clubber", password=PASSWORD)
    user = User.objects.get(username="clubber")
    pack = ContentPack.objects.create(owner=user, system="bwg2", name="Club cards")
    book = Item.objects.get(owner=None, system="bwg2", name="Captain Nathan Reinholdt")
    watch = Watch(page)
    log_in(page, live_server.url, "clubber")

    # The library lists the book's cards, each with Copy.
    page.goto(f"{live_server.url}/library/bwg2/")
    entry = page.locator(f"#entry-{book.pk}")
    entry.get_by_role("link", name="Copy Captain Nathan Reinholdt").click()
    expect(page.locator("h1")).to_contain_text("Captain Nathan Reinholdt")
    page.evaluate("window.__noReload = 'still here'")
    form = page.locator('[data-testid="entry-form"]')
    for group in ("identity", "attributes", "equipment", "skills", "more"):
        expect(form.locator(f'[data-testid="group-{group}"]')).to_be_visible()
    expect(page.locator("#id_name")).to_have_value("Captain Nathan Reinholdt")
    expect(page.locator("#id_equipment-0-name")).to_have_value("Hand Cannon")
    preview = page.locator('[data-testid="card-preview"]')
    expect(preview).to_contain_text("Captain Nathan Reinholdt")
    assert fits(page), "the card form fits a phone"

    # Change what differs: the name, the HP, one more item (the + adds a row here).
    page.fill("#id_name", "Deputy Reinholdt")
    page.fill("#id_hp", "2")
    expect(preview.locator('[data-testid="preview-front"]')).to_contain_text("Deputy Reinholdt")
    rows = form.locator('[data-rows="equipment"] [data-row]')
    before = rows.count()
    page.click('[data-testid="add-equipment-row"]')
    expect(rows).to_have_count(before + 1)
    assert page.evaluate("window.__noReload") == "still here", "+ added the row in place"
    new_name = page.locator(f"#id_equipment-{before}-name")
    expect(new_name).to_be_focused()
    new_name.fill("Tin Star")
    page.fill(f"#id_equipment-{before}-traits", "Badge")
    page.check(f"#id_equipment-{before}-weightless")
    expect(preview.locator('[data-testid="preview-back"]')).to_contain_text("Tin Star")
    page.screenshot(path="/tmp/card-copy-375.png", full_page=True)
    assert fits(page)

    page.click('[data-testid="save-entry"]')
    expect(page.locator("h1")).to_have_text("Club cards")
    copy = pack.items.get()
    assert copy.name == "Deputy Reinholdt" and copy.stats["hp"] == 2
    names = [e["name"] for e in copy.stats["equipment"]]
    assert names == [*(e["name"] for e in book.stats["equipment"]), "Tin Star"]
    assert copy.stats["equipment"][-1]["weightless"] is True
    assert Item.objects.get(pk=book.pk).stats == book.stats, "the book's card is unchanged"
    expect(page.locator(f"#entry-{copy.pk}")).to_contain_text("Deputy Reinholdt")
    assert watch.violations() == []


def test_the_copy_button_copies_the_invite_link(browser, live_server):
    ada = User.objects.create_user("ada", password=PASSWORD)
    campaign = campaign_services.create_campaign(
        ada, system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        watch = Watch(page)
        log_in(page, live_server.url, "ada")
        page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
        link = page.locator('[data-testid="invite-link"]')
        url = link.input_value()
        assert url.endswith(f"/campaigns/join/{campaign.invite_token}/")
        button = page.locator('[data-testid="invite-link-copy"]')
        expect(button).to_be_visible()
        box, field = button.bounding_box(), link.bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"], "the button is on the screen"
        assert abs(box["y"] - field["y"]) < field["height"], "beside the link"
        button.click()
        status = page.locator('[data-copy-status="invite-link"]')
        expect(status).to_have_text("Copied")
        assert status.get_attribute("aria-live") == "polite"
        assert page.evaluate("navigator.clipboard.readText()") == url
        page.screenshot(path="/tmp/invite-copy-375.png", full_page=True)
        assert fits(page)

        # A new link: the old one says it is no longer valid.
        page.click('[data-testid="invite-reset"]')
        expect(page.locator(".messages")).to_contain_text("The old invite link no longer works")
        new_url = page.locator('[data-testid="invite-link"]').input_value()
        assert new_url != url
        response = page.goto(url)
        assert response.status == 404
        expect(page.locator('[data-testid="link-gone"]')).to_contain_text("no longer valid")
        assert watch.violations() == []
    finally:
        context.close()


def test_without_javascript_the_link_is_in_a_read_only_field(page_without_js: Page, live_server):
    ada = User.objects.create_user("ada", password=PASSWORD)
    campaign = campaign_services.create_campaign(
        ada, system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    page = page_without_js
    log_in(page, live_server.url, "ada")
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    link = page.locator('[data-testid="invite-link"]')
    expect(link).to_be_visible()
    assert link.get_attribute("readonly") is not None
    expect(page.locator('[data-testid="invite-link-copy"]')).to_be_hidden()
    link.focus()
    page.keyboard.press("Control+a")  # the field's text, selected by hand
    selected = link.evaluate("el => el.selectionEnd - el.selectionStart")
    assert selected == len(link.input_value())
    assert fits(page)
