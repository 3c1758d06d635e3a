"""Blackwater Gulch 2 in a real browser, phone-sized: a legal five-member gang in five picks
from the card library, then the open member's live controls (a consumable, the Leader box,
the name, the team, the card), none of which moves the page or loses the focus; a rule
broken and fixed; the share link; and the same builder with JavaScript off."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

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

REINHOLDT = "Captain Nathan Reinholdt"
REINHOLDT_OPTION = "Captain Nathan Reinholdt (Outlaws Hero, 150 XP) · sample"
GUNHAND = "Tranquility Gunhand"
GUNHAND_OPTION = "Tranquility Gunhand (Outlaws Minion, 40 XP) · sample"
SNAKE_OIL = "Snake Oil (10 Fame) · sample"


def pick_card(page: Page, option: str, name: str) -> None:
    """One pick in the card library: the member is in the roster, and open."""
    answered(page, lambda: page.select_option("#id_add_card-card", label=option))
    expect(member_row(page, name)).to_have_count(1)
    expect(member_row(page, name)).to_have_class(re.compile(r"\bis-open\b"))
    expect(panel(page).locator(".member-name")).to_have_text(name)
    # The select is ready for the next pick.
    expect(page.locator("#id_add_card-card")).to_have_value("")


def test_a_legal_gang_in_five_picks_and_live_controls_that_keep_their_place(
    page: Page, browser, live_server
):
    new_gang(page, live_server.url, "reinholdt", "Tranquility Crew", "bwg2", 325)
    fame = page.locator('[data-testid="fame"]')
    status = page.locator('[data-testid="status"]')
    findings = page.locator('[data-testid="findings"]')
    expect(fame).to_have_text("0")

    # Five picks: a Hero (the first Hero leads the gang) and four minions.
    pick_card(page, REINHOLDT_OPTION, REINHOLDT)
    expect(panel(page).locator("input[name$='-leader-on']")).to_be_checked()
    expect(member_row(page, REINHOLDT).locator(".row-kind")).to_have_text("Hero · Leader")
    gunhands = [GUNHAND, f"{GUNHAND} 2", f"{GUNHAND} 3", f"{GUNHAND} 4"]
    for name in gunhands:
        pick_card(page, GUNHAND_OPTION, name)
    expect(page.locator('[data-testid="member"]')).to_have_count(5)
    expect(fame).to_have_text("310")
    expect(status).to_contain_text("Legal")
    expect(findings).to_contain_text("Nothing to fix: the gang is legal, 15 Fame under the limit.")
    assert page.evaluate("window.__noReload") == "still here"

    # A consumable for the Leader: picked in the open panel's select, it is given at once,
    # and the page neither jumps nor loses the focus.
    leader = open_member(page, REINHOLDT)
    extra = leader.locator("select[name$='-add_extra-extra']")
    keeps_place(page, extra, lambda: extra.select_option(label=SNAKE_OIL))
    expect(leader.locator('[data-testid="extra"]')).to_have_count(1)
    expect(leader.locator('[data-testid="extra"]')).to_contain_text("Snake Oil")
    expect(extra).to_have_value("")
    expect(fame).to_have_text("320")
    expect(findings).to_contain_text("Nothing to fix: the gang is legal, 5 Fame under the limit.")

    # A name is sent when the field is left (no Save button); the focus moves on with Tab.
    name = leader.locator("input[name$='-rename-name']")
    name.fill("Mal")
    answered(page, lambda: name.press("Tab"))
    expect(member_row(page, "Mal")).to_have_count(1)
    expect(panel(page).locator(".member-name")).to_have_text("Mal")
    expect(panel(page).locator(".bwg2-card-name")).to_have_text(f"Card: {REINHOLDT}")
    # Another member added: what was chosen for the Leader is still there.
    pick_card(page, GUNHAND_OPTION, f"{GUNHAND} 5")
    mal = open_member(page, "Mal")
    expect(mal.locator("input[name$='-rename-name']")).to_have_value("Mal")
    expect(mal.locator('[data-testid="extra"]')).to_contain_text("Snake Oil")
    expect(fame).to_have_text("360")
    expect(page.locator('.finding[data-code="bwg2.fame_over_limit"]')).to_have_count(1)
    expect(status).to_contain_text("Illegal")

    # One tap for the standard limit: a button, and again nothing moves.
    limit = page.locator('[data-testid="limit-700"]')
    keeps_place(page, limit, limit.click)
    expect(page.locator(".total-label")).to_contain_text("/ 700")
    expect(status).to_contain_text("Legal")
    expect(limit).to_have_attribute("aria-pressed", "true")
    # The gang's settings say so too (the form for any other limit).
    expect(page.locator("#settings input[name='gang-limit']")).to_have_value("700")

    # The Leader box: cleared, the gang has no Leader; ticked, it has.
    box = mal.locator("input[name$='-leader-on']")
    keeps_place(page, box, box.uncheck)
    expect(page.locator('.finding[data-code="bwg2.no_leader"]')).to_have_count(1)
    expect(status).to_contain_text("Illegal")
    keeps_place(page, box, box.check)
    expect(page.locator('.finding[data-code="bwg2.no_leader"]')).to_have_count(0)
    expect(status).to_contain_text("Legal")

    # A team for the minions, typed in each one's panel (applied when the field is left).
    for minion in gunhands[:3]:
        team = open_member(page, minion).locator("input[name$='-team-team']")
        team.fill("Gunhands")
        answered(page, lambda team=team: team.press("Tab"))
        expect(member_row(page, minion).locator(".row-kind")).to_have_text("Minion · Team Gunhands")
    expect(page.locator('.finding[data-code="bwg2.team_of_one"]')).to_have_count(0)

    # Break a rule: a second copy of a one-per-gang card; then remove it.
    pick_card(page, REINHOLDT_OPTION, REINHOLDT)  # the first copy is called Mal now
    duplicate = panel(page).locator('.finding[data-code="bwg2.duplicate_character"]')
    expect(duplicate).to_be_visible()
    expect(duplicate).to_contain_text("already in it as Mal")
    expect(duplicate).not_to_contain_text("key")
    expect(status).to_contain_text("Illegal")
    page.once("dialog", lambda dialog: dialog.accept())  # "Remove … from the gang?"
    answered(page, panel(page).locator('[data-testid="remove"]').click)
    expect(member_row(page, REINHOLDT)).to_have_count(0)
    expect(status).to_contain_text("Legal")

    # Edit a card: the form is closed until asked for, and saves with its one button.
    card_panel = open_member(page, gunhands[2])
    card_panel.locator('[data-testid="edit"]').click()
    card_panel.locator("input[name$='-edit_card-xp']").fill("45")
    answered(page, card_panel.locator('[data-testid="edit_card"]').click)
    expect(fame).to_have_text("365")
    expect(panel(page).locator('.finding[data-code="bwg2.team_mismatch"]')).to_be_visible()

    # The sticky bar stays in view at the bottom of the page; nothing is wider than the phone.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(page.locator('[data-testid="summary-bar"]')).to_be_in_viewport()
    assert no_horizontal_scroll(page)
    assert page.evaluate("window.__noReload") == "still here"

    # The share link, for a visitor who is not logged in.
    share_url = page.input_value("#share-url")
    with visitor_page(browser, share_url) as other:
        expect(other.locator('[data-testid="gang-name"]')).to_have_text("Tranquility Crew")
        expect(other.locator("text=Mal").first).to_be_visible()
        expect(other.locator('[data-testid="add_card"]')).to_have_count(0)


def test_the_builder_works_without_javascript(page_without_js: Page, live_server):
    page = page_without_js
    new_gang(page, live_server.url, "nojs", "Plain Crew", "bwg2", 325)
    # Without JavaScript the select has its button.
    page.select_option("#id_add_card-card", label=REINHOLDT_OPTION)
    page.click('[data-testid="add_card"]')
    expect(member_row(page, REINHOLDT)).to_have_count(1)
    expect(page.locator('[data-testid="fame"]')).to_have_text("150")
    the_panel = panel(page)
    expect(the_panel.locator(".member-name")).to_have_text(REINHOLDT)
    expect(the_panel.locator("input[name$='-leader-on']")).to_be_checked()
    # Rename with the field's own button.
    the_panel.locator("input[name$='-rename-name']").fill("Mal")
    the_panel.locator('[data-testid="rename"]').click()
    expect(member_row(page, "Mal")).to_have_count(1)
    # A consumable, with its button.
    panel(page).locator("select[name$='-add_extra-extra']").select_option(label=SNAKE_OIL)
    panel(page).locator('[data-testid="add_extra"]').click()
    expect(panel(page).locator('[data-testid="extra"]')).to_contain_text("Snake Oil")
    expect(page.locator('[data-testid="fame"]')).to_have_text("160")
    # The Leader box and its button.
    panel(page).locator("input[name$='-leader-on']").uncheck()
    panel(page).locator('[data-testid="leader"]').click()
    expect(page.locator('.finding[data-code="bwg2.no_leader"]')).to_have_count(1)
    # A bad pick comes back beside the select, and nothing is lost.
    page.click('[data-testid="add_card"]')
    error = page.locator(".action-add_card .field-error")
    expect(error).to_contain_text("Choose a card from the library.")
    expect(member_row(page, "Mal")).to_have_count(1)
    # Another member, then the first one removed.
    page.select_option("#id_add_card-card", label=GUNHAND_OPTION)
    page.click('[data-testid="add_card"]')
    expect(page.locator('[data-testid="member"]')).to_have_count(2)
    open_no_js = member_row(page, "Mal").locator('[data-testid="open-member"]')
    open_no_js.click()
    panel(page).locator('[data-testid="remove"]').click()
    expect(member_row(page, "Mal")).to_have_count(0)
    expect(page.locator('[data-testid="fame"]')).to_have_text("40")
