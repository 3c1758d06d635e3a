"""The main journey in a real browser: sign up, build a legal five-member gang while the
Fame and the findings update live, fix what the panel says, download the gang sheet."""

from __future__ import annotations

import io
import re
from contextlib import contextmanager

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def settled(page: Page) -> None:
    """Wait until the builder on screen is live: swapped in and its forms wired up."""
    page.wait_for_function(
        "document.getElementById('builder') && document.documentElement.dataset"
        ".settledVersion === document.getElementById('builder').dataset.version"
    )


def member_card(page: Page, name: str):
    return page.locator(f'[data-testid="member"][data-member-name="{name}"]')


def recruit(page: Page, name: str, member_type: str, *, live: bool = True) -> None:
    page.fill("#id_new-name", name)
    page.select_option("#id_new-member_type", member_type)
    page.click('[data-testid="recruit"]')
    expect(member_card(page, name)).to_have_count(1)
    if live:
        settled(page)


@contextmanager
def visitor_page(browser, url: str):
    """``url`` opened by a visitor who is not logged in, in a phone-sized browser."""
    visitor = browser.new_context(viewport={"width": 375, "height": 812})
    try:
        page = visitor.new_page()
        page.goto(url)
        yield page
    finally:
        visitor.close()


def print_from_menu(
    page: Page, kind: str, *, paper: str = "a4", fronts_only: bool = False, member: str = ""
) -> bytes:
    """Make a PDF with the gang page's Print menu; return the downloaded file's bytes."""
    menu = page.locator('[data-testid="print-menu"]')
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    menu.locator(f'input[name="kind"][value="{kind}"]').check()
    menu.locator(f'input[name="paper"][value="{paper}"]').check()
    menu.locator('input[name="fronts_only"]').set_checked(fronts_only)
    if member:
        menu.locator('select[name="member"]').select_option(label=member)
    with page.expect_download() as download_info:
        menu.locator('[data-testid="print-submit"]').click()
    download = download_info.value
    expect(menu.locator("[data-pdf-progress]")).to_be_hidden()
    with open(download.path(), "rb") as pdf:
        return pdf.read()


def sign_up(page: Page, base_url: str, username: str) -> None:
    page.goto(base_url + "/")
    page.click("text=Sign up — it's free")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button:has-text('Create my account')")
    expect(page.locator('[data-testid="nav-user"]')).to_have_text(username)


def new_gang(
    page: Page,
    base_url: str,
    username: str,
    gang_name: str,
    system: str = "bwg1",
    limit: int | None = None,
) -> None:
    """From an empty browser: sign up, create a gang, and land on its builder.

    Afterwards ``window.__noReload`` is set: a test checks it is still there to show the
    page never reloaded (every change came through htmx).
    """
    call_command("load_content", verbosity=0)
    sign_up(page, base_url, username)
    page.click("text=New gang")
    page.fill("#id_name", gang_name)
    page.select_option("#id_system", system)
    if limit is not None:
        page.fill("#id_limit", str(limit))
    page.click("button:has-text('Create gang')")
    expect(page.locator('[data-testid="gang-name"]')).to_have_text(gang_name)
    page.evaluate("window.__noReload = 'still here'")


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

    recruit(page, "Butch", "leader")
    expect(fame).to_have_text("100")
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
    expect(member_card(page, "Butch")).to_have_class(re.compile(r"\bhas-errors\b"))

    # Fix it: choosing a profession submits on change, and the finding goes.
    member_card(page, "Butch").locator("select[name=profession]").select_option("gunslinger")
    expect(butch_missing).to_have_count(0)
    expect(member_card(page, "Butch")).not_to_have_class(re.compile(r"\bhas-errors\b"))
    settled(page)
    member_card(page, "Sundance").locator("select[name=profession]").select_option("bounty_hunter")
    expect(member_card(page, "Sundance").locator(".member-role")).to_contain_text("Bounty")
    settled(page)
    member_card(page, "Etta").locator("select[name=profession]").select_option("gambler")
    expect(page.locator('[data-testid="status"]')).to_have_text(re.compile("^\\s*Legal"))
    settled(page)

    # A weapon adds its level to XP and Fame; too high for RC, it warns with the penalty.
    butch = member_card(page, "Butch")
    butch.locator("select[name=item]").first.select_option(
        label="Winchester Repeater (level 5, ranged)"
    )
    butch.locator("button:has-text('Add')").click()
    expect(fame).to_have_text("355")
    expect(butch.locator('[data-testid="member-xp"]')).to_have_text("105")
    penalty = findings.locator('li[data-code="bwg1.weapon_above_skill"]')
    expect(penalty).to_contain_text("+3 to the to-hit target number")
    settled(page)

    # Spend points with + and watch the points left and the warning follow.
    points_left = butch.locator('[data-testid="points-left"] strong')
    expect(points_left).to_have_text("20")
    for expected_left in ("19", "18", "17"):
        butch.locator('[data-testid="plus-rc"]').click()
        expect(points_left).to_have_text(expected_left)
        settled(page)
    expect(butch.locator('[data-testid="attr-rc"]')).to_have_text("5")
    expect(penalty).to_have_count(0)
    butch.locator('[data-testid="minus-rc"]').click()
    expect(penalty).to_contain_text("+1 to the to-hit target number")
    settled(page)
    butch.locator('[data-testid="plus-rc"]').click()
    expect(penalty).to_have_count(0)
    assert page.evaluate("window.__noReload") == "still here"
    assert no_horizontal_scroll(page)

    # The gang sheet: every member's name and XP, and the Fame.
    content = print_from_menu(page, "sheet")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)
    assert "The Wild Bunch" in text
    assert re.search(r"FAME\s*355\s*/\s*400", text), "the Fame and its limit head the sheet"
    for name, xp in [("Butch", 105), ("Sundance", 75), ("Kid", 50), ("Joe", 50), ("Etta", 75)]:
        assert name in text
        assert re.search(rf"XP:\s*{xp}\b", text), f"{name}'s XP {xp} is not on the sheet"


def test_reorder_and_remove_members_live(page: Page, live_server):
    new_gang(page, live_server.url, "sundance", "Hole in the Wall")
    recruit(page, "Ann", "professional")
    recruit(page, "Bea", "professional")
    for name in ("Ann", "Bea"):
        member_card(page, name).locator("select[name=profession]").select_option("doctor")
        expect(member_card(page, name).locator(".member-role")).to_contain_text("Doctor")
        settled(page)
    # The first Doctor recruited gets +1 Int; moving Bea up moves the bonus to her.
    expect(page.locator('[data-testid="bonuses"]')).to_contain_text("Doctor +1 Int → Ann")
    member_card(page, "Bea").locator("button:has-text('Earlier')").click()
    expect(page.locator('[data-testid="bonuses"]')).to_contain_text("Doctor +1 Int → Bea")
    settled(page)
    expect(member_card(page, "Bea").locator('[data-testid="attr-int"]')).to_have_text("2")
    expect(member_card(page, "Ann").locator('[data-testid="attr-int"]')).to_have_text("1")

    page.once("dialog", lambda dialog: dialog.accept())
    member_card(page, "Ann").locator("button:has-text('Remove')").click()
    expect(member_card(page, "Ann")).to_have_count(0)
    expect(page.locator('[data-testid="fame"]')).to_have_text("75")


def test_with_javascript_off_the_same_forms_post_and_reload(page_without_js: Page, live_server):
    page = page_without_js
    new_gang(page, live_server.url, "etta", "No Script Gang")
    recruit(page, "Etta", "leader", live=False)
    expect(page.locator('[data-testid="fame"]')).to_have_text("100")
    card = member_card(page, "Etta")
    card.locator("select[name=profession]").select_option("gambler")
    card.locator("button:has-text('Save')").click()
    expect(member_card(page, "Etta").locator(".member-role")).to_contain_text("Gambler")
    member_card(page, "Etta").locator('[data-testid="plus-str"]').click()
    expect(member_card(page, "Etta").locator('[data-testid="attr-str"]')).to_have_text("2")
    expect(member_card(page, "Etta").locator('[data-testid="points-left"] strong')).to_have_text(
        "19"
    )
    # Bad input comes back on the page, beside the form, in view, and nothing is lost.
    page.fill("#id_new-name", "")
    page.click('[data-testid="recruit"]')
    expect(page.locator(".add-member .errorlist")).to_contain_text("This field is required.")
    expect(page.locator(".add-member .errorlist")).to_be_in_viewport()
    expect(member_card(page, "Etta")).to_have_count(1)
    etta = member_card(page, "Etta")
    etta.locator("button:has-text('Add')").click()  # no weapon chosen
    error = member_card(page, "Etta").locator(".field-error")
    expect(error).to_contain_text("Choose one from the list first.")
    expect(error).to_be_in_viewport()


def test_share_link_opens_read_only_for_a_visitor(page: Page, browser, live_server):
    new_gang(page, live_server.url, "cassidy", "Shared Gang")
    recruit(page, "Cassidy", "leader")
    share_url = page.input_value("#share-url")
    with visitor_page(browser, share_url) as other:
        expect(other.locator('[data-testid="gang-name"]')).to_have_text("Shared Gang")
        expect(other.locator("text=Cassidy >> visible=true").first).to_be_visible()
        expect(other.locator("button[name=change]")).to_have_count(0)


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
    page.evaluate("htmx.ajax('GET', '/late-answer/', {target: '#builder-root', swap: 'innerHTML'})")
    page.wait_for_timeout(300)
    expect(member_card(page, "Logan")).to_have_count(1)
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
    page.evaluate(
        "htmx.ajax('GET', '/same-version/', {target: '#builder-root', swap: 'innerHTML'})"
    )
    expect(member_card(page, "Logan Jr")).to_have_count(1)
