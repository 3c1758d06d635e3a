"""Outlaws: Rivals in a real browser: from an empty account, build a legal gang of four
outlaws within 30 CCP, roll a special skill, break the budget and fix it, share the gang."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from rules.systems import rivals
from tests.browser.test_journey import (
    member_card,
    new_gang,
    no_horizontal_scroll,
    settled,
    sign_up,
    visitor_page,
)

pytestmark = pytest.mark.browser

ROWS = ("toughness", "handgun", "rifle", "shotgun", "brawl", "riding")


def add_outlaw(page: Page, name: str) -> None:
    page.fill("#id_add_outlaw-name", name)
    page.click('[data-testid="add_outlaw"]')
    expect(member_card(page, name)).to_have_count(1)
    settled(page)


def set_tiers(page: Page, name: str, **tiers: int) -> None:
    card = member_card(page, name)
    for row in ROWS:
        card.locator(f'select[name$="-tiers-{row}"]').select_option(str(tiers.get(row, 1)))
    card.locator('[data-testid="tiers"]').click()
    cost = sum(rivals.ROWS[row].get(tiers.get(row, 1)).cost for row in ROWS)
    expect(member_card(page, name).locator('[data-testid="outlaw-ccp"]')).to_have_text(
        f"{cost} CCP"
    )
    settled(page)


def test_build_a_legal_rivals_gang_roll_a_skill_break_and_fix_it(page: Page, browser, live_server):
    new_gang(page, live_server.url, "redjack", "Deadrock Boys", "rivals")

    fame = page.locator('[data-testid="fame"]')
    status = page.locator('[data-testid="status"]')
    expect(fame).to_have_text("0")
    expect(page.locator('[data-testid="ccp-left"]')).to_have_text("30 CCP left")

    for name in ("Red Jack", "Sarah", "James", "Etta"):
        add_outlaw(page, name)
    expect(page.locator('[data-testid="member"]')).to_have_count(4)
    expect(page.locator('.finding[data-code="rivals.too_few_outlaws"]')).to_have_count(0)

    # 9 + 7 + 6 + 6 = 28 CCP of tiers; a Table B skill (2 CCP) makes 30.
    set_tiers(page, "Red Jack", handgun=3)
    set_tiers(page, "Sarah", handgun=2)
    set_tiers(page, "James")
    set_tiers(page, "Etta")
    expect(fame).to_have_text("28")
    expect(page.locator('[data-testid="ccp-left"]')).to_have_text("2 CCP left")

    # The leader, and the gang named after him in one tap.
    expect(page.locator('.finding[data-code="rivals.no_leader"]')).to_have_count(1)
    jack = member_card(page, "Red Jack")
    jack.locator('[data-testid="leader"]').click()
    expect(member_card(page, "Red Jack").locator('[data-testid="leader-badge"]')).to_be_visible()
    expect(page.locator('[data-testid="suggested-name"]')).to_have_text("Red Jack's Gang")
    settled(page)
    page.click('[data-testid="use_name"]')
    expect(page.locator('[data-testid="gang-name"]')).to_have_text("Red Jack's Gang")
    settled(page)

    # Pay for Table B and let the app roll.
    jack = member_card(page, "Red Jack")
    jack.locator('select[name$="-roll_skill-table"]').select_option("B")
    jack.locator('[data-testid="roll_skill"]').click()
    die = member_card(page, "Red Jack").locator('[data-testid="skill-die"]')
    expect(die).to_have_text(re.compile(r"^[1-6]$"))
    rolled = die.inner_text()
    skill = member_card(page, "Red Jack").locator('[data-testid="skill-name"]').inner_text()
    assert skill
    settled(page)

    expect(fame).to_have_text("30")
    expect(page.locator('[data-testid="ccp-left"]')).to_have_text("0 CCP left")
    expect(status).to_contain_text("Legal")
    expect(status.locator(".badge.error")).to_have_count(0)

    # Break the budget: Built like an outhouse! (4 CCP instead of 1) makes 33.
    set_tiers(page, "Etta", toughness=2)
    over = page.locator('.finding[data-code="rivals.ccp_over_budget"]')
    expect(over).to_have_count(1)
    expect(status).to_contain_text("Illegal")
    expect(page.locator('[data-testid="ccp-left"]')).to_have_text("3 CCP over")
    # Fix it: back to Regular.
    set_tiers(page, "Etta", toughness=1)
    expect(over).to_have_count(0)
    expect(status).to_contain_text("Legal")
    expect(fame).to_have_text("30")

    # Remove an outlaw: three are too few; add one back at 0 CCP.
    etta = member_card(page, "Etta")
    etta.locator("details.remove-outlaw summary").click()
    etta.locator('[data-testid="remove"]').click()
    expect(member_card(page, "Etta")).to_have_count(0)
    few = page.locator('.finding[data-code="rivals.too_few_outlaws"]')
    expect(few).to_have_count(1)
    settled(page)
    add_outlaw(page, "Butch")
    expect(few).to_have_count(0)
    set_tiers(page, "Butch")
    expect(status).to_contain_text("Legal")
    assert page.evaluate("window.__noReload") == "still here"
    assert no_horizontal_scroll(page)

    # The roll is in the gang's history with its die.
    share_url = page.input_value("#share-url")
    page.click('[data-testid="history"]')
    roll = page.locator('[data-testid="roll"]')
    expect(roll).to_have_count(1)
    expect(roll).to_contain_text(f"Table B (2 CCP): {rolled} → {skill}")
    expect(roll.locator('[data-testid="die"]')).to_have_text(rolled)
    page.go_back()

    # Anyone with the link sees the gang, read-only.
    with visitor_page(browser, share_url) as other:
        expect(other.locator('[data-testid="gang-name"]')).to_have_text("Red Jack's Gang")
        expect(other.locator("text=Red Jack").first).to_be_visible()
        expect(other.locator('[data-testid="member"]')).to_have_count(4)
        expect(other.locator('[data-testid="roll_skill"]')).to_have_count(0)


def test_the_builder_works_without_javascript(page_without_js: Page, live_server):
    page = page_without_js
    call_command("load_content", verbosity=0)
    sign_up(page, live_server.url, "nojs")
    page.click("text=New gang")
    page.fill("#id_name", "Plain Gang")
    page.select_option("#id_system", "rivals")
    page.click("button:has-text('Create gang')")
    page.fill("#id_add_outlaw-name", "James")
    page.click('[data-testid="add_outlaw"]')
    card = member_card(page, "James")
    expect(card).to_have_count(1)
    card.locator('select[name$="-tiers-rifle"]').select_option("3")
    card.locator('[data-testid="tiers"]').click()
    expect(member_card(page, "James").locator('[data-testid="outlaw-ccp"]')).to_have_text("4 CCP")
    member_card(page, "James").locator('[data-testid="roll_skill"]').click()
    expect(member_card(page, "James").locator('[data-testid="skill-die"]')).to_have_text(
        re.compile(r"^[1-6]$")
    )
    expect(page.locator('[data-testid="fame"]')).to_have_text("5")
