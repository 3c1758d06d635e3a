"""Print from the gang page in a real browser: the menu, its progress indicator, the PDF."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from builder.models import Gang
from builder.roster import gang_roster, members_with_items
from rules.roster import read_roster
from tests.browser.builder import (
    no_horizontal_scroll,
    print_from_menu,
    recruit,
    settled,
    sign_up,
)

pytestmark = pytest.mark.browser
MM = 72 / 25.4


def import_example(page: Page, base_url: str, name: str) -> None:
    page.goto(f"{base_url}/gangs/import/")
    page.set_input_files('input[type="file"]', f"docs/examples/{name}")
    page.click('[data-testid="import"]')
    expect(page.locator('[data-testid="print-menu"]')).to_have_count(1)


def test_print_cards_with_progress_then_a_letter_sheet_and_one_card(page: Page, live_server):
    page.set_viewport_size({"width": 375, "height": 800})
    sign_up(page, live_server.url, "printer")
    import_example(page, live_server.url, "rivals-legal-red-jacks-gang.json")
    gang = Gang.objects.get(owner__username="printer")
    names = [m.name for m in gang.members.all()]

    menu = page.locator('[data-testid="print-menu"]')
    menu.locator("summary").click()
    assert no_horizontal_scroll(page)
    menu.locator('input[name="kind"][value="cards"]').check()
    with page.expect_download() as download_info:
        menu.locator('[data-testid="print-submit"]').click()
        expect(menu.locator("[data-pdf-progress]")).to_be_visible()  # while it is made
        expect(menu.locator('[data-testid="print-submit"]')).to_be_disabled()
    download = download_info.value
    assert download.suggested_filename == "red-jacks-gang-cards-a4.pdf"
    expect(menu.locator("[data-pdf-progress]")).to_be_hidden()
    expect(menu.locator('[data-testid="print-submit"]')).to_be_enabled()
    cards = PdfReader(io.BytesIO(Path(download.path()).read_bytes())).pages
    text = "\n".join(p.extract_text() for p in cards)
    assert all(name in text for name in names)
    assert float(cards[0].mediabox.height) == pytest.approx(297 * MM, abs=0.05)

    sheet = PdfReader(io.BytesIO(print_from_menu(page, "sheet", paper="letter"))).pages
    assert float(sheet[0].mediabox.height) == pytest.approx(279.4 * MM, abs=0.05)
    assert "WANTED" in "\n".join(p.extract_text() for p in sheet)

    one = print_from_menu(page, "cards", fronts_only=True, member=names[1])
    one_text = PdfReader(io.BytesIO(one)).pages[0].extract_text()
    assert names[1] in one_text
    assert all(n not in one_text for n in names[2:])  # (names[0] is in the gang's name)
    roster = read_roster(Path("docs/examples/rivals-legal-red-jacks-gang.json").read_bytes())
    saved = gang_roster(gang, list(members_with_items(gang)))
    assert len(saved["members"]) == len(roster["members"])  # printing changed nothing


def test_a_bad_print_address_shows_a_page_not_a_crash(page: Page, live_server):
    sign_up(page, live_server.url, "printer2")
    import_example(page, live_server.url, "gf26-legal-iron-company.json")
    gang = Gang.objects.get(owner__username="printer2")
    response = page.goto(f"{live_server.url}/gangs/{gang.pk}/print/?kind=poster")
    assert response.status == 400
    expect(page.locator("h1")).to_have_text("That can't be printed as asked")


def test_print_right_after_a_change_gives_the_new_gang_and_made_ahead_is_immediate(
    page: Page, live_server, settings, background
):
    """The cards made in the background come at once; a change, then Print at once
    (before any worker made the new ones: nothing runs here unless the test says so)
    gives the gang as changed, made in the request with the progress indicator."""
    settings.SITE_URL = live_server.url
    page.set_viewport_size({"width": 375, "height": 800})
    sign_up(page, live_server.url, "ahead")
    import_example(page, live_server.url, "bwg1-legal-dalton-boys.json")
    gang = Gang.objects.get(owner__username="ahead")
    assert background.tasks("builder.tasks.prerender_gang")  # the import asked for them
    background.run_all()  # the worker makes the cards, sheet and reference ahead
    names = [m.name for m in gang.members.all()]
    ahead = PdfReader(io.BytesIO(print_from_menu(page, "cards"))).pages
    assert all(name in "\n".join(p.extract_text() for p in ahead) for name in names)

    # The menu closed itself once its PDF was on its way (it covers the page on a phone).
    expect(page.locator('[data-testid="print-menu"]')).not_to_have_attribute("open", "")
    settled(page)
    recruit(page, "Johnny Ringo", "henchman")
    menu = page.locator('[data-testid="print-menu"]')
    menu.locator("summary").click()
    menu.locator('input[name="kind"][value="cards"]').check()
    with page.expect_download() as download_info:
        menu.locator('[data-testid="print-submit"]').click()
        expect(menu.locator("[data-pdf-progress]")).to_be_visible()  # made now
    fresh = PdfReader(io.BytesIO(Path(download_info.value.path()).read_bytes())).pages
    assert "Johnny Ringo" in "\n".join(p.extract_text() for p in fresh)
    assert [s.kwargs["version"] for s in background.tasks("builder.tasks.prerender_gang")] == [
        Gang.objects.get(pk=gang.pk).version
    ]
