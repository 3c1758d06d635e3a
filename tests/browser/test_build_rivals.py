"""Outlaws: Rivals in a real browser (375 px): from an empty account, build a legal gang of
five outlaws with every one of the 30 CCP spent: one tap adds an outlaw (opened, renamed in
its panel), tiers apply as they are picked (or all Regular in one tap) and survive the next
action, a special skill is rolled in one tap; break the budget and fix it, remove an outlaw,
share the gang. And the same page without JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from rules.systems import rivals
from tests.browser.builder import (
    answered,
    keeps_place,
    member_row,
    new_gang,
    no_horizontal_scroll,
    open_member,
    panel,
    visitor_page,
)

pytestmark = pytest.mark.browser

ROWS = tuple(rivals.ROWS)


def add_outlaw(page: Page, name: str, number: int) -> None:
    """One tap on "Add outlaw": "Outlaw N" opens; rename it in its panel."""
    answered(page, lambda: page.click('[data-testid="add_outlaw"]'))
    expect(member_row(page, f"Outlaw {number}")).to_have_class(re.compile(r"\bis-open\b"))
    field = panel(page).locator('input[name$="-poster-name"]')
    expect(field).to_have_value(f"Outlaw {number}")
    field.fill(name)
    answered(page, lambda: field.press("Enter"))
    expect(member_row(page, name)).to_have_class(re.compile(r"\bis-open\b"))


def tier(page: Page, row: str):
    return panel(page).locator(f'select[name$="-tiers-{row}"]')


def set_tiers(page: Page, name: str, tiers: dict[str, int]) -> None:
    """Pick each tier in the open panel: each applies on its own, no Save button."""
    open_member(page, name)
    for row in ROWS:
        select = tier(page, row)
        if select.input_value() != str(tiers.get(row, 0)):
            answered(page, lambda s=select, r=row: s.select_option(str(tiers.get(r, 0))))
    cost = sum(rivals.ROWS[row].get(tiers.get(row, 0)).cost for row in ROWS)
    expect(panel(page).locator('[data-testid="tier-cost"]')).to_have_text(f"{cost} CCP")


def test_build_a_legal_rivals_gang_of_five(page: Page, browser, live_server):
    new_gang(page, live_server.url, "redjack", "Deadrock Boys", "rivals")
    fame = page.locator('[data-testid="fame"]')
    status = page.locator('[data-testid="status"]')
    left = page.locator('[data-testid="ccp-left"]')
    expect(fame).to_have_text("0")
    expect(left).to_have_text("30 CCP left")
    expect(page.locator('[data-testid="member-panel"]')).to_have_count(0)

    # The first outlaw is the leader; its tiers, picked one by one, apply as they change.
    add_outlaw(page, "Red Jack", 1)
    expect(panel(page).locator('[data-testid="leader-badge"]')).to_be_visible()
    # Red Jack: Regular toughness, Straight-shooter, Regular shotgun and brawl: 5 CCP.
    jack = {"toughness": 1, "handgun": 2, "shotgun": 1, "brawl": 1}
    set_tiers(page, "Red Jack", {k: v for k, v in jack.items() if k != "shotgun"})
    shotgun = tier(page, "shotgun")
    keeps_place(page, shotgun, lambda: shotgun.select_option("1"))
    expect(fame).to_have_text("5")
    expect(member_row(page, "Red Jack").locator('[data-testid="member-cost"]')).to_have_text("5")

    # The bug this page fixes: a tier picked, then "Add outlaw": the tier is still there.
    add_outlaw(page, "Sarah", 2)
    open_member(page, "Red Jack")
    expect(tier(page, "shotgun")).to_have_value("1")
    expect(tier(page, "handgun")).to_have_value("2")
    expect(member_row(page, "Red Jack").locator('[data-testid="member-cost"]')).to_have_text("5")

    # A special skill in one tap: the app pays Table A and rolls 1D6 (the page stays put).
    roll = panel(page).locator('[data-testid="roll-A"]')
    keeps_place(page, roll, lambda: roll.click())
    die = panel(page).locator('[data-testid="skill-die"]')
    expect(die).to_have_text(re.compile(r"^[1-6]$"))
    rolled = die.inner_text()
    skill = panel(page).locator('[data-testid="skill-name"]').inner_text()
    assert skill
    expect(member_row(page, "Red Jack")).to_contain_text(f"Leader · {skill}")
    expect(fame).to_have_text("6")

    # Four more outlaws, every row Regular in one tap: 6 CCP each (the page stays put).
    open_member(page, "Sarah")
    regular = panel(page).locator('[data-testid="regular"]')
    keeps_place(page, regular, lambda: regular.click())
    expect(panel(page).locator('[data-testid="tier-cost"]')).to_have_text("6 CCP")
    for number, name in enumerate(("James", "Etta", "Butch"), start=3):
        add_outlaw(page, name, number)
        answered(page, lambda: panel(page).locator('[data-testid="regular"]').click())
        for row in ROWS:
            expect(tier(page, row)).to_have_value("1")
    expect(page.locator('[data-testid="member"]')).to_have_count(5)
    expect(page.locator('[data-testid="outlaw-count"]')).to_have_text("5 outlaws (4\u20136)")
    expect(fame).to_have_text("30")
    expect(left).to_have_text("0 CCP left")

    # The gang named after its leader in one tap.
    expect(page.locator('[data-testid="suggested-name"]')).to_have_text("Red Jack's Gang")
    answered(page, lambda: page.click('[data-testid="use_name"]'))
    expect(page.locator('[data-testid="gang-name"]')).to_have_text("Red Jack's Gang")
    expect(status).to_contain_text("Legal")
    expect(status.locator(".badge.error")).to_have_count(0)
    expect(page.locator(".all-good")).to_have_text(
        "Nothing to fix: the gang is legal, and all 30 CCP are spent."
    )

    # Break the budget (Built like an outhouse! costs 4, not 1) and fix it.
    open_member(page, "Etta")
    answered(page, lambda: tier(page, "toughness").select_option("2"))
    over = page.locator('.finding[data-code="rivals.ccp_over_budget"]')
    expect(over).to_have_count(1)
    expect(status).to_contain_text("Illegal")
    expect(left).to_have_text("3 CCP over")
    expect(page.locator('[data-testid="summary-bar"]')).to_have_class(re.compile(r"\bover\b"))
    answered(page, lambda: tier(page, "toughness").select_option("1"))
    expect(over).to_have_count(0)
    expect(status).to_contain_text("Legal")

    # The sticky bar stays in view at the bottom of the page; nothing is wider than the phone.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(page.locator('[data-testid="summary-bar"]')).to_be_in_viewport()
    assert no_horizontal_scroll(page)

    # Remove an outlaw (after a confirmation): four are still a gang; its panel closes.
    page.once("dialog", lambda dialog: dialog.accept())
    answered(page, lambda: panel(page).locator('[data-testid="remove"]').click())
    expect(member_row(page, "Etta")).to_have_count(0)
    expect(page.locator('[data-testid="member-panel"]')).to_have_count(0)
    expect(page.locator('.finding[data-code="rivals.too_few_outlaws"]')).to_have_count(0)
    expect(left).to_have_text("6 CCP left")
    assert page.evaluate("window.__noReload") == "still here"

    # The roll is in the gang's history with its die.
    share_url = page.input_value("#share-url")
    page.click('[data-testid="history"]')
    entry = page.locator('[data-testid="roll"]')
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text(f"Table A (1 CCP): {rolled} → {skill}")
    expect(entry.locator('[data-testid="die"]')).to_have_text(rolled)

    # Anyone with the link sees the gang, read-only.
    with visitor_page(browser, share_url) as other:
        expect(other.locator('[data-testid="gang-name"]')).to_have_text("Red Jack's Gang")
        expect(other.locator("text=Red Jack").first).to_be_visible()
        expect(other.locator('[data-testid="member"]')).to_have_count(4)
        expect(other.locator('[data-testid="roll-A"]')).to_have_count(0)


def test_the_builder_works_without_javascript(page_without_js: Page, live_server):
    page = page_without_js
    new_gang(page, live_server.url, "nojs", "Plain Gang", "rivals")

    # Add: the page comes back with "Outlaw 1" open; rename it with the poster's button.
    page.click('[data-testid="add_outlaw"]')
    expect(member_row(page, "Outlaw 1")).to_have_class(re.compile(r"\bis-open\b"))
    page.locator('[data-testid="member-panel"] input[name$="-poster-name"]').fill("James")
    page.locator('[data-testid="member-panel"] select[name$="-poster-pack"]').select_option("C")
    page.click('[data-testid="poster"]')
    expect(member_row(page, "James")).to_have_count(1)
    expect(panel(page).locator('[data-testid="pack"]')).to_contain_text("Winchester Carbine")

    # Tiers with their Save button, shown when there is no JavaScript.
    tier(page, "rifle").select_option("3")
    tier(page, "toughness").select_option("1")
    page.click('[data-testid="tiers"]')
    expect(member_row(page, "James").locator('[data-testid="member-cost"]')).to_have_text("5")
    expect(tier(page, "rifle")).to_have_value("3")

    # Roll on Table B, and add a second outlaw: James keeps all of it.
    page.click('[data-testid="roll-B"]')
    expect(panel(page).locator('[data-testid="skill-die"]')).to_have_text(re.compile(r"^[1-6]$"))
    expect(page.locator('[data-testid="fame"]')).to_have_text("7")
    page.click('[data-testid="add_outlaw"]')
    expect(member_row(page, "Outlaw 2")).to_have_class(re.compile(r"\bis-open\b"))
    member_row(page, "James").locator('[data-testid="open-member"]').click()
    expect(tier(page, "rifle")).to_have_value("3")
    expect(page.locator('[data-testid="fame"]')).to_have_text("7")
