"""Blackwater Gulch 2 in a real browser: build a legal gang from the sample card library,
break a rule and fix it, and open the share link as a visitor."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_journey import (
    member_card,
    new_gang,
    no_horizontal_scroll,
    settled,
    visitor_page,
)

pytestmark = pytest.mark.browser

REINHOLDT = "Captain Nathan Reinholdt"
REINHOLDT_OPTION = "Captain Nathan Reinholdt (Outlaws Hero, 150 XP) · sample"
GUNHAND_OPTION = "Tranquility Gunhand (Outlaws Minion, 40 XP) · sample"


def changed(page: Page, click) -> None:
    """Do a change and wait for the builder of the next version to be live."""
    version = page.get_attribute("#builder", "data-version")
    click()
    page.wait_for_function(
        "v => document.getElementById('builder').dataset.version !== v", arg=version
    )
    settled(page)


def add_card(page: Page, option: str, name: str) -> None:
    page.select_option("#id_add_card-card", label=option)
    changed(page, lambda: page.click('[data-testid="add_card"]'))
    expect(member_card(page, name)).to_have_count(1)


def click_in(page: Page, name: str, testid: str) -> None:
    changed(page, member_card(page, name).locator(f'[data-testid="{testid}"]').click)


def test_build_a_legal_bwg2_gang_break_it_fix_it_and_share_it(page: Page, browser, live_server):
    new_gang(page, live_server.url, "reinholdt", "Tranquility Crew", "bwg2", 325)

    fame = page.locator('[data-testid="fame"]')
    status = page.locator('[data-testid="status"]')
    expect(fame).to_have_text("0")

    # A Hero from the library, made Leader with one click.
    add_card(page, REINHOLDT_OPTION, REINHOLDT)
    expect(fame).to_have_text("150")
    expect(page.locator('.finding[data-code="bwg2.no_leader"]')).to_have_count(1)
    click_in(page, REINHOLDT, "leader")
    expect(member_card(page, REINHOLDT).locator('[data-testid="leader-badge"]')).to_be_visible()
    expect(page.locator('.finding[data-code="bwg2.no_leader"]')).to_have_count(0)
    expect(page.locator('[data-testid="leader"]').first).to_have_text(REINHOLDT)

    # Three sample minions, grouped in a team.
    names = ["Tranquility Gunhand", "Tranquility Gunhand 2", "Tranquility Gunhand 3"]
    for name in names:
        add_card(page, GUNHAND_OPTION, name)
    for name in names:
        card = member_card(page, name)
        card.locator('input[name$="-team-team"]').fill("Gunhands")
        changed(page, card.locator('[data-testid="team"]').click)
    expect(page.locator('.finding[data-code="bwg2.team_of_one"]')).to_have_count(0)

    # A consumable for the Leader, with its Fame.
    member_card(page, REINHOLDT).locator("select[name$='-add_extra-extra']").select_option(
        label="Snake Oil (10 Fame) · sample"
    )
    click_in(page, REINHOLDT, "add_extra")
    expect(member_card(page, REINHOLDT).locator('[data-testid="extra"]')).to_have_count(1)
    expect(fame).to_have_text("280")
    expect(status).to_contain_text("Legal")
    expect(page.locator('[data-testid="objectives"]')).to_have_text("1")
    expect(member_card(page, REINHOLDT).locator('[data-testid="member-vp"]')).to_have_text("5 VP")
    expect(member_card(page, names[0]).locator('[data-testid="member-vp"]')).to_have_text("1 VP")

    # One tap for the standard limit, and back.
    changed(page, lambda: page.click('[data-testid="limit-700"]'))
    expect(page.locator(".total-label")).to_have_text("Fame of 700")
    expect(page.locator('[data-testid="heroes"]')).to_have_text("1 of 2")
    changed(page, lambda: page.click('[data-testid="limit-325"]'))
    expect(page.locator(".total-label")).to_have_text("Fame of 325")

    # Break a rule: a second copy of a one-per-gang card.
    add_card(page, REINHOLDT_OPTION, f"{REINHOLDT} 2")
    duplicate = member_card(page, f"{REINHOLDT} 2").locator(
        '.finding[data-code="bwg2.duplicate_character"]'
    )
    expect(duplicate).to_be_visible()
    expect(status).to_contain_text("Illegal")
    # ... and fix it.
    page.once("dialog", lambda dialog: dialog.accept())  # "Remove … from the gang?"
    click_in(page, f"{REINHOLDT} 2", "remove")
    expect(member_card(page, f"{REINHOLDT} 2")).to_have_count(0)
    expect(page.locator('.finding[data-code="bwg2.duplicate_character"]')).to_have_count(0)
    expect(status).to_contain_text("Legal")

    # Another: no Leader, then the Leader again.
    click_in(page, REINHOLDT, "unleader")
    expect(page.locator('.finding[data-code="bwg2.no_leader"]')).to_be_visible()
    expect(status).to_contain_text("Illegal")
    click_in(page, REINHOLDT, "leader")
    expect(page.locator('.finding[data-code="bwg2.no_leader"]')).to_have_count(0)
    expect(status).to_contain_text("Legal")
    expect(fame).to_have_text("280")

    # Edit a card in place: the edit form opens and saves.
    card = member_card(page, names[2])
    card.locator('[data-testid="edit"]').click()
    card.locator('input[name$="-edit_card-xp"]').fill("45")
    changed(page, card.locator('[data-testid="edit_card"]').click)
    expect(fame).to_have_text("285")
    expect(
        member_card(page, names[2]).locator('.finding[data-code="bwg2.team_mismatch"]')
    ).to_be_visible()

    assert page.evaluate("window.__noReload") == "still here"
    assert no_horizontal_scroll(page)

    # The share link, for a visitor who is not logged in.
    share_url = page.input_value("#share-url")
    with visitor_page(browser, share_url) as other:
        expect(other.locator('[data-testid="gang-name"]')).to_have_text("Tranquility Crew")
        expect(other.locator(f"text={REINHOLDT}").first).to_be_visible()
        expect(other.locator('[data-testid="add_card"]')).to_have_count(0)
