"""What every builder test in the browser does: open a member, change something, and check
that the page neither jumped nor lost the focus."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Locator, Page

from tests.browser.test_journey import (  # noqa: F401  (one place to import them from)
    new_gang,
    no_horizontal_scroll,
    settled,
    visitor_page,
)


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


def keeps_place(page: Page, control: Locator, act: Callable[[], None]) -> None:
    """Do ``act`` (a change made with ``control``) and wait for its answer; then the page has
    not jumped (the control is where it was on the screen, and so is the scroll) and the
    keyboard focus is still on the control."""
    control.scroll_into_view_if_needed()
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
