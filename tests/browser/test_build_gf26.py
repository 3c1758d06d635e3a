"""Build a legal Gangfight Core 2.6 party in a real browser, on a phone: pick profiles (each
is a model at once, open in its panel), tick perks, buy kit, band a unit, make the Party
Leader; break the limit and fix it with a preset; and the same with JavaScript off."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from builder.models import Gang
from builder.roster import evaluate_gang, export_roster
from rules.roster import check_roster
from tests.browser.builder import (
    answered,
    keeps_place,
    member_row,
    new_gang,
    no_horizontal_scroll,
    open_member,
    panel,
    settled,
    visitor_page,
)

pytestmark = pytest.mark.browser

CAPTAIN = "Human Captain (Hero) · 120 pts · sample"
VETERAN = "Human Veteran (Veteran) · 65 pts · sample"
BOWMAN = "Human Bowman (Regular) · 45 pts · sample"
ORC = "Orc Brave (Regular) · 50 pts · sample"
TROLL = "Troll (Veteran) · 150 pts · sample"


def add_model(page: Page, profile_label: str, name: str) -> None:
    """Pick a profile: the model joins (named after it) and its panel opens."""
    picker = page.locator("#id_add_member-profile")
    picker.focus()  # as a tap does: a field being typed in is left, and applies
    picker.select_option(label=profile_label)
    expect(member_row(page, name)).to_have_class(re.compile(r"\bis-open\b"))
    settled(page)


def rename(page: Page, name: str) -> None:
    field = panel(page).locator('input[name$="-rename-name"]')
    field.fill(name)
    answered(page, lambda: field.press("Tab"))  # leaving the field applies it
    expect(member_row(page, name)).to_have_class(re.compile(r"\bis-open\b"))
    settled(page)


def tick(page: Page, *perks: str, count: str) -> None:
    """Tick (or untick) perks in the open panel, each applied as it is ticked."""
    for perk in perks:
        box = panel(page).locator(f'input[type="checkbox"][value="{perk}"]')
        answered(page, box.click)
    expect(panel(page).locator('[data-testid="perk-count"]')).to_have_text(count)
    settled(page)


def test_build_a_legal_gf26_party_on_a_phone(page: Page, live_server, browser):
    new_gang(page, live_server.url, "warlord", "Iron Company", "gf26", 500)
    settled(page)
    total = page.locator('[data-testid="fame"]')
    status = page.locator('[data-testid="status"]')
    expect(total).to_have_text("0")

    # The Captain: picked from the list (priced with its kit), renamed, three perks.
    add_model(page, CAPTAIN, "Human Captain")
    expect(total).to_have_text("120")
    expect(member_row(page, "Human Captain").locator('[data-testid="member-cost"]')).to_have_text(
        "120"
    )
    captain = panel(page)
    expect(captain.locator('.finding[data-code="gf26.too_few_perks"]')).to_be_visible()
    expect(captain.locator('[data-testid="perk-count"]')).to_have_text("0 of 3")
    expect(captain).to_contain_text("This model's Movement (MOV) is increased by 1.")
    rename(page, "Aldric")
    tick(page, "fast", "stubborn", "healer", count="3 of 3")
    expect(panel(page).locator('[data-testid="perk-names"]')).to_have_text("Fast, Stubborn, Healer")
    expect(panel(page).locator(".finding")).to_have_count(0)

    # Make Party Leader is a button: the page stays put and keeps the focus on it.
    leader = panel(page).locator('[data-testid="leader"]')
    keeps_place(page, leader, leader.click)
    expect(panel(page).locator('[data-testid="party-leader"]')).to_be_visible()
    expect(leader).to_have_text("Not the Party Leader")
    expect(member_row(page, "Aldric")).to_contain_text("Party Leader")

    # Buying kit is a select, applied as it is picked: nothing moves either.
    buy = panel(page).locator('select[name$="-add_equipment-item"]')
    keeps_place(page, buy, lambda: buy.select_option(label="Shield (5 pts) · sample"))
    expect(panel(page).locator('[data-testid="bought"]')).to_contain_text("Shield")
    expect(buy).to_have_value("")  # back at its prompt, for the next piece
    expect(total).to_have_text("125")

    # A Veteran and three Regulars, each named after its profile (a number for a second).
    add_model(page, VETERAN, "Human Veteran")
    tick(page, "true_grit", "solid", count="2 of 2")
    add_model(page, BOWMAN, "Human Bowman")
    tick(page, "marksman", count="1 of 1")
    # A choice made in the panel survives the next action: a unit typed (applied as the
    # field is left), then another model added; its panel opens instead.
    unit = panel(page).locator('input[name$="-unit-unit"]')
    unit.fill("Archers")
    answered(page, lambda: unit.press("Tab"))
    add_model(page, BOWMAN, "Human Bowman 2")
    tick(page, "marksman", count="1 of 1")
    unit = panel(page).locator('input[name$="-unit-unit"]')
    unit.fill("Archers")
    answered(page, lambda: unit.press("Tab"))
    answered(page, panel(page).locator('input[name$="-unit-unit_leader"]').check)
    expect(panel(page).locator('[data-testid="unit-status"]')).to_have_text("(leads it)")
    add_model(page, ORC, "Orc Brave")
    tick(page, "fearless", count="1 of 1")

    first_bowman = open_member(page, "Human Bowman")
    expect(first_bowman.locator('input[name$="-unit-unit"]')).to_have_value("Archers")
    expect(first_bowman.locator('input[value="marksman"]')).to_be_checked()
    expect(member_row(page, "Human Bowman")).to_contain_text("Unit Archers")

    expect(page.locator('[data-testid="member"]')).to_have_count(5)
    expect(total).to_have_text("330")
    expect(status).to_contain_text("Legal")
    expect(page.locator("#findings .all-good")).to_have_text(
        "Nothing to fix: the gang is legal. 170 of the 500 points are left to spend."
    )
    expect(page.locator('[data-testid="facts"]')).to_contain_text("Unit Archers")

    # Break the limit with two Trolls, then fix it with the 1000-point preset, in one tap.
    add_model(page, TROLL, "Troll")
    tick(page, "fast", "solid", count="2 of 2")
    add_model(page, TROLL, "Troll 2")
    tick(page, "fast", "solid", count="2 of 2")
    expect(total).to_have_text("630")
    over = page.locator('#findings .finding[data-code="gf26.points_over_limit"]')
    expect(over).to_be_visible()
    expect(status).to_contain_text("Illegal")
    preset = page.locator('[data-testid="set_limit-1000"]')
    keeps_place(page, preset, preset.click)
    expect(page.locator(".total-label")).to_contain_text("1000")
    expect(over).to_have_count(0)
    expect(status).to_contain_text("Legal")

    # The setting select is live too.
    page.select_option("#id_set_setting-setting", "chronicle")
    expect(page.locator('[data-testid="facts"]')).to_contain_text("Setting: Chronicle")
    settled(page)

    # The bar stays in view at the bottom of the page; nothing is wider than the phone.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(page.locator('[data-testid="summary-bar"]')).to_be_in_viewport()
    assert no_horizontal_scroll(page)
    assert page.evaluate("window.__noReload") == "still here"

    gang = Gang.objects.get(name="Iron Company")
    assert check_roster(export_roster(gang)) == []
    assert evaluate_gang(gang).report.is_legal
    aldric = gang.members.get(name="Aldric")
    assert aldric.data["perks"] == ["fast", "stubborn", "healer"] and aldric.data["leader"]

    share_url = page.locator("#share-url").input_value()
    with visitor_page(browser, share_url) as anonymous:
        expect(anonymous.locator('[data-testid="gang-name"]')).to_have_text("Iron Company")
        expect(anonymous.locator('[data-testid="member"]')).to_have_count(7)
        expect(anonymous.locator('[data-testid="status"]')).to_contain_text("Legal")


def test_the_profiles_list_adds_a_model_in_one_tap(page: Page, live_server):
    new_gang(page, live_server.url, "lister", "List Party", "gf26", 500)
    settled(page)
    library = page.locator("#gf26-library")
    expect(library).to_have_attribute("open", "")
    troll = library.locator('[data-testid="library-profile"]', has_text="Troll")
    expect(troll.locator('[data-testid="add-profile"]')).to_have_text("+ 150 pts")
    troll.locator('[data-testid="add-profile"]').click()
    expect(member_row(page, "Troll")).to_have_class(re.compile(r"\bis-open\b"))
    expect(page.locator('[data-testid="fame"]')).to_have_text("150")
    settled(page)
    # Homebrew: the model's own profile, each number applied as it changes.
    profile = panel(page).locator("details.gf26-profile")
    profile.locator("summary").click()
    points = profile.locator('input[name$="-edit_profile-points"]')
    points.fill("120")
    points.press("Tab")
    expect(page.locator('[data-testid="fame"]')).to_have_text("120")
    settled(page)
    expect(profile).to_have_attribute("open", "")  # still open after the answer
    assert no_horizontal_scroll(page)


def test_the_builder_works_without_javascript(page_without_js: Page, live_server):
    page = page_without_js
    new_gang(page, live_server.url, "plain", "Plain Party", "gf26", 500)

    page.select_option("#id_add_member-profile", label=BOWMAN)
    page.click('[data-testid="add_member"]')
    expect(member_row(page, "Human Bowman")).to_have_class(re.compile(r"\bis-open\b"))
    assert re.search(r"\?open=\d+", page.url)
    expect(page.locator('[data-testid="fame"]')).to_have_text("45")

    open_panel = panel(page)
    open_panel.locator('input[name$="-rename-name"]').fill("Wat")
    open_panel.locator('[data-testid="rename"]').click()
    expect(member_row(page, "Wat")).to_have_count(1)

    panel(page).locator('input[value="marksman"]').check()
    panel(page).locator('[data-testid="perks"]').click()
    expect(panel(page).locator('[data-testid="perk-count"]')).to_have_text("1 of 1")

    panel(page).locator('select[name$="-add_equipment-item"]').select_option(
        label="Sword (5 pts) · sample"
    )
    panel(page).locator('[data-testid="add_equipment"]').click()
    expect(page.locator('[data-testid="fame"]')).to_have_text("50")
    panel(page).locator('[data-testid="remove_equipment"]').click()
    expect(page.locator('[data-testid="fame"]')).to_have_text("45")

    page.click('[data-testid="set_limit-1000"]')
    expect(page.locator(".total-label")).to_contain_text("1000")
    # Bad input comes back beside its field, and nothing is lost.
    panel(page).locator('input[name$="-rename-name"]').fill("")
    panel(page).locator('[data-testid="rename"]').click()
    expect(panel(page).locator(".errorlist")).to_contain_text("This field is required.")
    expect(member_row(page, "Wat")).to_have_count(1)
