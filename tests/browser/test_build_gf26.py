"""Build a legal Gangfight Core 2.6 party in a real browser, break it, fix it, share it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from builder.models import Gang
from builder.roster import export_roster
from rules.roster import check_roster
from tests.browser.test_journey import new_gang, no_horizontal_scroll, settled, visitor_page

pytestmark = pytest.mark.browser


def card(page: Page, name: str):
    return page.locator(f'[data-testid="member"][data-member-name="{name}"]')


def add_model(page: Page, name: str, profile_label: str) -> None:
    page.select_option("#id_add_member-profile", label=profile_label)
    page.fill("#id_add_member-name", name)
    page.click('[data-testid="add_member"]')
    expect(card(page, name)).to_have_count(1)
    settled(page)


def pick_perks(page: Page, name: str, *perks: str, expect_count: str) -> None:
    member = card(page, name)
    details = member.locator("details.gf26-perks")
    if details.get_attribute("open") is None:
        member.locator('[data-testid="perks-summary"]').click()
    for perk in perks:
        member.get_by_label(perk, exact=True).click()
    member.locator('[data-testid="perks"]').click()
    expect(card(page, name).locator('[data-testid="perk-count"]')).to_have_text(expect_count)
    settled(page)


def test_build_a_legal_gf26_party_break_it_fix_it_and_share_it(page: Page, live_server, browser):
    new_gang(page, live_server.url, "warlord", "Iron Company", "gf26", 500)
    settled(page)

    total = page.locator('[data-testid="fame"]')
    status = page.locator('[data-testid="status"]')
    expect(total).to_have_text("0")
    expect(page.locator(".total-label")).to_contain_text("of 500")

    add_model(page, "Aldric", "Human Captain (Hero, 110 pts) · sample")
    expect(total).to_have_text("120")
    expect(card(page, "Aldric").locator('[data-testid="member-cost"]')).to_have_text("120 pts")
    expect(card(page, "Aldric").locator('.finding[data-code="gf26.too_few_perks"]')).to_be_visible()
    add_model(page, "Wat", "Human Bowman (Regular, 35 pts) · sample")
    add_model(page, "Bors", "Human Veteran (Veteran, 60 pts) · sample")
    expect(total).to_have_text("230")

    pick_perks(page, "Aldric", "Fast", "Stubborn", "Healer", expect_count="3 of 3")
    pick_perks(page, "Wat", "Marksman", expect_count="1 of 1")
    pick_perks(page, "Bors", "True Grit", "Solid", expect_count="2 of 2")
    expect(status).to_contain_text("Illegal")
    expect(page.locator('#findings .finding[data-code="gf26.no_leader"]')).to_be_visible()

    card(page, "Aldric").locator('[data-testid="leader"]').click()
    expect(card(page, "Aldric").locator('[data-testid="party-leader"]')).to_be_visible()
    expect(page.locator('.finding[data-code="gf26.no_leader"]')).to_have_count(0)
    expect(status).to_contain_text("Legal")
    expect(total).to_have_text("230")
    settled(page)

    # Break a rule: the Regular drops its perk.
    pick_perks(page, "Wat", "Marksman", expect_count="0 of 1")
    too_few = card(page, "Wat").locator('.finding[data-code="gf26.too_few_perks"]')
    expect(too_few).to_be_visible()
    expect(status).to_contain_text("Illegal")
    # Fix it.
    pick_perks(page, "Wat", "Marksman", expect_count="1 of 1")
    expect(page.locator('.finding[data-code="gf26.too_few_perks"]')).to_have_count(0)
    expect(status).to_contain_text("Legal")

    # Break the limit with a Troll, then fix it with the 1000-point preset.
    add_model(page, "Grok", "Troll (Veteran, 150 pts) · sample")
    pick_perks(page, "Grok", "Fast", "Solid", expect_count="2 of 2")
    add_model(page, "Grak", "Troll (Veteran, 150 pts) · sample")
    pick_perks(page, "Grak", "Fast", "Solid", expect_count="2 of 2")
    expect(total).to_have_text("530")
    over = page.locator('.finding[data-code="gf26.points_over_limit"]')
    expect(over).to_be_visible()
    expect(status).to_contain_text("Illegal")
    page.click('[data-testid="set_limit-1000"]')
    expect(page.locator(".total-label")).to_contain_text("of 1000")
    expect(over).to_have_count(0)
    expect(status).to_contain_text("Legal")
    settled(page)

    # Units: the two Trolls band together.
    for name in ("Grok", "Grak"):
        member = card(page, name)
        member.locator("details.gf26-unit summary").click()
        member.locator('input[name$="-unit-unit"]').fill("Rock Wall")
        member.locator('[data-testid="unit"]').click()
        expect(card(page, name).locator("details.gf26-unit summary")).to_contain_text("Rock Wall")
        settled(page)
    expect(page.locator('[data-testid="facts"]')).to_contain_text("Unit Rock Wall")
    expect(status).to_contain_text("Legal")

    assert page.evaluate("window.__noReload") == "still here"
    assert no_horizontal_scroll(page)
    gang = Gang.objects.get(name="Iron Company")
    assert check_roster(export_roster(gang)) == []

    share_url = page.locator("#share-url").input_value()
    with visitor_page(browser, share_url) as anonymous:
        expect(anonymous.locator('[data-testid="gang-name"]')).to_have_text("Iron Company")
        expect(anonymous.locator('[data-testid="member"]')).to_have_count(5)
        expect(anonymous.locator('[data-testid="status"]')).to_contain_text("Legal")
        expect(anonymous.locator('[data-testid="nav-user"]')).to_have_count(0)
