"""What the browser tests share: signing up, making a gang, and in the builder opening a
member, changing something, and checking that the page neither jumped nor lost the focus."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import contextmanager

from django.core.management import call_command
from playwright.sync_api import Locator, Page, expect

from tests.conftest import PASSWORD


def member_row(page: Page, name: str) -> Locator:
    """A member's row in the roster."""
    return page.locator(f'[data-testid="member"][data-member-name="{name}"]')


def panel(page: Page) -> Locator:
    """The open member's panel."""
    return page.locator('[data-testid="member-panel"]')


def open_member(page: Page, name: str) -> Locator:
    """Open a member's panel (if it is not open already) and return the panel."""
    row = member_row(page, name)
    if row.get_attribute("class") is None or "is-open" not in row.get_attribute("class"):
        row.locator('[data-testid="open-member"]').click()
        page.wait_for_function(
            "name => { const r = [...document.querySelectorAll('[data-testid=member]')]"
            ".find(e => e.dataset.memberName === name); return r && r.classList.contains('is-open')"
            " && document.getElementById('member-panel'); }",
            arg=name,
        )
        settled(page)
    return panel(page)


def version(page: Page) -> int:
    return int(page.evaluate("document.getElementById('builder').dataset.version"))


def answered(page: Page, act: Callable[[], None]) -> None:
    """Do ``act`` (one change) and wait until its answer is on the page, live."""
    settled(page)
    before = version(page)
    act()
    page.wait_for_function(
        "v => Number(document.getElementById('builder').dataset.version) > v", arg=before
    )
    settled(page)


def keeps_place(page: Page, control: Locator, act: Callable[[], None]) -> None:
    """Do ``act`` (a change made with ``control``) and wait for its answer; then the page has
    not jumped (the control is where it was on the screen, and so is the scroll) and the
    keyboard focus is still on the control."""
    control.scroll_into_view_if_needed()
    control.focus()  # as a player's tap or Tab does (Playwright's select_option does not)
    settled(page)
    before = version(page)
    top = control.bounding_box()["y"]
    scroll = page.evaluate("window.scrollY")
    act()
    page.wait_for_function(
        "v => Number(document.getElementById('builder').dataset.version) > v", arg=before
    )
    settled(page)
    assert abs(control.bounding_box()["y"] - top) <= 4, "the control moved on the screen"
    assert abs(page.evaluate("window.scrollY") - scroll) <= 4, "the page scrolled"
    focused = control.evaluate("el => el === document.activeElement")
    assert focused, "the focus left the control that was used"


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def settled(page: Page) -> None:
    """Wait until the builder on screen is live: swapped in and its forms wired up."""
    page.wait_for_function(
        "document.getElementById('builder') && document.documentElement.dataset"
        ".settledVersion === document.getElementById('builder').dataset.version"
    )


def recruit(page: Page, name: str, member_type: str, *, live: bool = True) -> None:
    """Recruit a member; it opens in the panel."""
    page.fill("#id_recruit-name", name)
    page.select_option("#id_recruit-member_type", member_type)
    page.click('[data-testid="recruit"]')
    expect(member_row(page, name)).to_have_count(1)
    expect(member_row(page, name)).to_have_class(re.compile(r"\bis-open\b"))
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


#: how long a print may take: on a busy CI machine the render gate may ask the page to
#: come back after a few seconds (Retry-After), and the page does so before the download
PRINT_WAIT = 60_000


def print_from_menu(
    page: Page, kind: str, *, paper: str = "a4", fronts_only: bool = False, member: str = ""
) -> bytes:
    """Make a PDF with the gang page's Print menu; return the downloaded file's bytes.

    ``member``: one member's cards instead, from the "Print … card" link in the member's
    panel (on a share page, the menu's own "Cards of" list)."""
    menu = page.locator('[data-testid="print-menu"]')
    if member and page.locator('[data-testid="summary-bar"]').count():
        if menu.get_attribute("open") is not None:
            menu.locator("summary").click()  # close the menu: it covers the roster
        open_member(page, member)
        with page.expect_download(timeout=PRINT_WAIT) as download_info:
            page.locator('[data-testid="print-member"]').click()
        with open(download_info.value.path(), "rb") as pdf:
            return pdf.read()
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    menu.locator(f'input[name="kind"][value="{kind}"]').check()
    menu.locator(f'input[name="paper"][value="{paper}"]').check()
    menu.locator('input[name="fronts_only"]').set_checked(fronts_only)
    if member:
        menu.locator('select[name="member"]').select_option(label=member)
    with page.expect_download(timeout=PRINT_WAIT) as download_info:
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


def log_in(page: Page, base_url: str, username: str) -> None:
    """Log in through the log-in page, as a player does."""
    from tests.conftest import PASSWORD

    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")
    expect(page.locator('[data-testid="nav-user"]')).to_have_text(username)
