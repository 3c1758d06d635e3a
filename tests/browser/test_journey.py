"""The main journey in a real browser: sign up, build a legal five-member gang while the
Fame and the findings update live, fix what the panel says, download the gang sheet."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.browser.builder import (
    keeps_place,
    member_row,
    new_gang,
    no_horizontal_scroll,
    open_member,
    print_from_menu,
    recruit,
    settled,
    sign_up,
    visitor_page,
)

pytestmark = pytest.mark.browser


def test_build_a_legal_gang_live_and_download_its_sheet(page: Page, live_server, tmp_path):
    call_command("load_content", verbosity=0)
    sign_up(page, live_server.url, "butch")
    assert no_horizontal_scroll(page)

    page.click("text=New gang")
    page.fill("#id_name", "The Wild Bunch")
    page.fill("#id_limit", "400")
    page.click("button:has-text('Create gang')")
    expect(page.locator('[data-testid="gang-name"]')).to_have_text("The Wild Bunch")

    # From here on nothing reloads the page: this marker would vanish if it did.
    page.evaluate("window.__noReload = 'still here'")
    fame = page.locator('[data-testid="fame"]')
    expect(fame).to_have_text("0")

    # The first recruit is the Leader unless the player says otherwise.
    expect(page.locator("#id_recruit-member_type")).to_have_value("leader")
    page.fill("#id_recruit-name", "Butch")
    page.click('[data-testid="recruit"]')
    expect(member_row(page, "Butch")).to_have_class(re.compile(r"\bis-open\b"))
    settled(page)
    expect(fame).to_have_text("100")
    expect(page.locator("#id_recruit-member_type")).to_have_value("henchman")
    recruit(page, "Sundance", "professional")
    expect(fame).to_have_text("175")
    recruit(page, "Kid", "henchman")
    recruit(page, "Joe", "henchman")
    recruit(page, "Etta", "professional")
    expect(fame).to_have_text("350")
    assert page.evaluate("window.__noReload") == "still here"

    # The panel says what to fix, and the members with errors are marked.
    findings = page.locator('[data-testid="findings"]')
    butch_missing = findings.locator('li[data-code="bwg1.profession_missing"]', has_text="Butch")
    expect(butch_missing).to_have_count(1)
    expect(member_row(page, "Butch")).to_have_class(re.compile(r"\bhas-errors\b"))
    badge = member_row(page, "Butch").locator('[data-testid="member-badge"]')
    expect(badge).to_have_class(re.compile(r"\berror\b"))
    expect(badge).to_have_text(re.compile(r"^\s*[1-9]\s*$"))

    # The finding's name opens the member it concerns.
    butch_missing.locator("a.finding-member").click()
    expect(member_row(page, "Butch")).to_have_class(re.compile(r"\bis-open\b"))
    settled(page)
    assert "open=" in page.url

    # Fix it: choosing a profession applies on change, the focus stays on the select and
    # the page does not move.
    panel = page.locator('[data-testid="member-panel"]')
    profession = panel.locator("select[name$='-profession']")
    keeps_place(page, profession, lambda: profession.select_option("gunslinger"))
    expect(butch_missing).to_have_count(0)
    expect(member_row(page, "Butch")).not_to_have_class(re.compile(r"\bhas-errors\b"))
    panel = open_member(page, "Sundance")
    panel.locator("select[name$='-profession']").select_option("bounty_hunter")
    expect(member_row(page, "Sundance").locator(".row-kind")).to_contain_text("Bounty")
    settled(page)
    panel = open_member(page, "Etta")
    panel.locator("select[name$='-profession']").select_option("gambler")
    expect(page.locator('[data-testid="status"]')).to_have_text(re.compile("^\\s*Legal"))
    settled(page)

    # A weapon is added as it is picked; too high for RC, it warns with the penalty.
    panel = open_member(page, "Butch")
    weapon = panel.locator("select[name$='add_weapon-item']")
    keeps_place(
        page, weapon, lambda: weapon.select_option(label="Winchester Repeater (level 5, ranged)")
    )
    expect(fame).to_have_text("355")
    expect(panel.locator('[data-testid="member-xp"]')).to_have_text("105")
    expect(weapon).to_have_value("")  # ready for the next one
    penalty = findings.locator('li[data-code="bwg1.weapon_above_skill"]')
    expect(penalty).to_contain_text("+3 to the to-hit target number")

    # Spend points with + by keyboard: Enter three times is three points, the focus stays
    # on "+" and the page does not move.
    points_left = panel.locator('[data-testid="points-left"] strong')
    expect(points_left).to_have_text("20")
    plus = panel.locator('button[value="rc:+"]')
    plus.focus()
    keeps_place(page, plus, lambda: [page.keyboard.press("Enter") for _ in range(3)])
    expect(points_left).to_have_text("17")
    expect(panel.locator('input[name$="-points-rc"]')).to_have_value("5")
    expect(penalty).to_have_count(0)
    minus = panel.locator('button[value="rc:-"]')
    keeps_place(page, minus, lambda: minus.click())
    expect(penalty).to_contain_text("+1 to the to-hit target number")
    # ...or type the value.
    rc = panel.locator('input[name$="-points-rc"]')
    rc.fill("5")
    rc.press("Tab")
    expect(penalty).to_have_count(0)
    expect(points_left).to_have_text("17")
    settled(page)

    # Typed and not yet left, a name survives another change made elsewhere.
    panel.locator("input[name$='-details-name']").fill("Butch Cassidy")
    panel.locator('button[value="str:+"]').click()
    expect(member_row(page, "Butch Cassidy")).to_have_count(1)
    settled(page)
    expect(panel.locator("input[name$='-details-name']")).to_have_value("Butch Cassidy")
    expect(panel.locator('input[name$="-points-str"]')).to_have_value("2")

    # The sticky bar stays in view at the bottom of the page.
    page.locator("#share").scroll_into_view_if_needed()
    expect(page.locator('[data-testid="summary-bar"]')).to_be_in_viewport()
    assert page.evaluate("window.__noReload") == "still here"
    assert no_horizontal_scroll(page)

    # A reload keeps the member open.
    page.reload()
    expect(member_row(page, "Butch Cassidy")).to_have_class(re.compile(r"\bis-open\b"))

    # The gang sheet: every member's name and XP, and the Fame.
    content = print_from_menu(page, "sheet")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)
    assert "The Wild Bunch" in text
    assert re.search(r"FAME\s*355\s*/\s*400", text), "the Fame and its limit head the sheet"
    for name, xp in [
        ("Butch Cassidy", 105),
        ("Sundance", 75),
        ("Kid", 50),
        ("Joe", 50),
        ("Etta", 75),
    ]:
        assert name in text
        assert re.search(rf"XP:\s*{xp}\b", text), f"{name}'s XP {xp} is not on the sheet"


def test_reorder_and_remove_members_live(page: Page, live_server):
    new_gang(page, live_server.url, "sundance", "Hole in the Wall")
    recruit(page, "Ann", "professional")
    recruit(page, "Bea", "professional")
    for name in ("Ann", "Bea"):
        panel = open_member(page, name)
        panel.locator("select[name$='-profession']").select_option("doctor")
        expect(member_row(page, name).locator(".row-kind")).to_contain_text("Doctor")
        settled(page)
    # The first Doctor recruited gets +1 Int; moving Bea up moves the bonus to her.
    expect(page.locator('[data-testid="bonuses"]')).to_contain_text("Doctor +1 Int → Ann")
    panel = open_member(page, "Bea")
    panel.locator("button:has-text('Earlier')").click()
    expect(page.locator('[data-testid="bonuses"]')).to_contain_text("Doctor +1 Int → Bea")
    settled(page)
    expect(panel.locator('input[name$="-points-int"]')).to_have_value("2")
    expect(open_member(page, "Ann").locator('input[name$="-points-int"]')).to_have_value("1")

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator('[data-testid="member-panel"]').locator("button:has-text('Remove')").click()
    expect(member_row(page, "Ann")).to_have_count(0)
    expect(page.locator('[data-testid="member-panel"]')).to_have_count(0)
    expect(page.locator('[data-testid="fame"]')).to_have_text("75")


def test_with_javascript_off_the_same_forms_post_and_reload(page_without_js: Page, live_server):
    page = page_without_js
    new_gang(page, live_server.url, "etta", "No Script Gang")
    recruit(page, "Etta", "leader", live=False)
    expect(page.locator('[data-testid="fame"]')).to_have_text("100")
    panel = page.locator('[data-testid="member-panel"]')
    panel.locator("select[name$='-profession']").select_option("gambler")
    panel.locator("button:has-text('Save')").click()
    expect(member_row(page, "Etta").locator(".row-kind")).to_contain_text("Gambler")
    panel.locator('button[value="str:+"]').click()
    expect(panel.locator('input[name$="-points-str"]')).to_have_value("2")
    expect(panel.locator('[data-testid="points-left"] strong')).to_have_text("19")
    # A typed value and the form's own button.
    panel.locator('input[name$="-points-str"]').fill("4")
    panel.locator("button:has-text('Set attributes')").click()
    expect(panel.locator('input[name$="-points-str"]')).to_have_value("4")
    expect(panel.locator('[data-testid="points-left"] strong')).to_have_text("17")
    # A weapon and a horse with their buttons.
    panel.locator("select[name$='add_weapon-item']").select_option(
        label="Bowie knife (level 3, melee)"
    )
    panel.locator('[data-testid="add_weapon"]').click()
    expect(panel.locator(".weapon-name")).to_have_text(["Bowie knife"])
    # Bad input comes back on the page, beside the form, in view, and nothing is lost.
    page.fill("#id_recruit-name", "")
    page.click('[data-testid="recruit"]')
    expect(page.locator(".recruit .errorlist")).to_contain_text("This field is required.")
    expect(page.locator(".recruit .errorlist")).to_be_in_viewport()
    expect(member_row(page, "Etta")).to_have_count(1)
    panel = page.locator('[data-testid="member-panel"]')
    panel.locator('[data-testid="add_weapon"]').click()  # no weapon chosen
    error = panel.locator(".action-add_weapon .errorlist")
    expect(error).to_contain_text("Choose a weapon from the list first.")
    expect(error).to_be_in_viewport()


def test_share_link_opens_read_only_for_a_visitor(page: Page, browser, live_server):
    new_gang(page, live_server.url, "cassidy", "Shared Gang")
    recruit(page, "Cassidy", "leader")
    share_url = page.input_value("#share-url")
    with visitor_page(browser, share_url) as other:
        expect(other.locator('[data-testid="gang-name"]')).to_have_text("Shared Gang")
        expect(other.locator("text=Cassidy >> visible=true").first).to_be_visible()
        expect(other.locator("button[name$=change]")).to_have_count(0)


def test_an_answer_older_than_the_page_is_ignored(page: Page, live_server):
    """Two changes can cross on the wire; the page keeps the newest state it has seen."""
    new_gang(page, live_server.url, "harvey", "Crossed Wires")
    gang_url = page.url
    recruit(page, "Harvey", "leader")
    stale = page.evaluate(
        "url => fetch(url, {headers: {'HX-Request': 'true'}}).then(r => r.text())", gang_url
    )
    assert "Harvey" in stale and "Logan" not in stale
    recruit(page, "Logan", "henchman")
    expect(page.locator('[data-testid="fame"]')).to_have_text("150")

    # A late answer carrying the older version arrives: it must not undo Logan.
    page.route(
        "**/late-answer/",
        lambda route: route.fulfill(status=200, content_type="text/html", body=stale),
    )
    page.evaluate("htmx.ajax('GET', '/late-answer/', {target: '#builder-root', swap: 'morph'})")
    page.wait_for_timeout(300)
    expect(member_row(page, "Logan")).to_have_count(1)
    expect(page.locator('[data-testid="fame"]')).to_have_text("150")

    # While an answer as new as the page (a form error, say) is shown.
    current = page.evaluate(
        "url => fetch(url, {headers: {'HX-Request': 'true'}}).then(r => r.text())", gang_url
    )
    page.route(
        "**/same-version/",
        lambda route: route.fulfill(
            status=200, content_type="text/html", body=current.replace("Logan", "Logan Jr")
        ),
    )
    page.evaluate("htmx.ajax('GET', '/same-version/', {target: '#builder-root', swap: 'morph'})")
    expect(member_row(page, "Logan Jr")).to_have_count(1)
