# ruff: noqa: F811 - the fixtures imported from test_league_views are used by name
"""A match report at 375 px: the scenario and deployment offered from the book's lists in
a datalist, free text still possible, with and without JavaScript."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from campaigns.leagues.models import MatchReport
from tests.browser.builder import log_in, no_horizontal_scroll
from tests.test_league_views import (  # noqa: F401 - fixtures
    ann,
    bob,
    club_details,
    cy,
    league,
    match,
    members,
    regs,
    running,
    sides,
)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("js", [True, False])
def test_report_a_match_with_the_books_scenario(
    page: Page, page_without_js: Page, live_server, match, regs, js, tmp_path
):
    browser_page = page if js else page_without_js
    a, _b = sides(match, regs)
    log_in(browser_page, live_server.url, a.username)
    browser_page.goto(
        live_server.url + reverse("match_detail", args=[match.round.league_id, match.pk])
    )
    scenario = browser_page.locator("#id_scenario")
    expect(scenario).to_have_attribute("list", "scenario-choices")
    options = browser_page.locator("#scenario-choices option")
    expect(options).to_have_count(4)
    assert no_horizontal_scroll(browser_page)
    # Scenario and Deployment side by side, their boxes at the same height
    boxes = [browser_page.locator(f"#id_{n}").bounding_box() for n in ("scenario", "deployment")]
    assert (
        abs(boxes[0]["y"] - boxes[1]["y"]) < 1 and abs(boxes[0]["height"] - boxes[1]["height"]) < 1
    )
    browser_page.screenshot(path=tmp_path / f"report-375-{js}.png", full_page=True)
    book = browser_page.locator('[data-testid="id_scenario-book"]')
    if js:  # the book's names under the field: one click fills it
        expect(book).to_be_visible()
        book.get_by_role("button", name="Manhunt").click()
        expect(scenario).to_have_value("Manhunt")
        expect(scenario).to_be_focused()
        # Enter in the field does not send the form half-filled: it goes to the next field
        scenario.press("Enter")
        expect(browser_page.locator("#id_deployment")).to_be_focused()
        assert not MatchReport.objects.filter(pairing=match).exists()
    else:  # without JavaScript: the datalist only (buttons that do nothing are hidden)
        expect(book).to_be_hidden()
        scenario.fill("Manhunt")
    browser_page.fill("#id_deployment", "Our own: along the railway")
    browser_page.fill("#id_vp_a", "10")
    browser_page.fill("#id_vp_b", "4")
    browser_page.locator('input[name="winner"][value="a"]').check()
    browser_page.locator("form:has(#id_scenario) button[type=submit]").first.click()
    expect(browser_page.locator('[data-testid="waiting"]')).to_be_visible()
    report = MatchReport.objects.get(pairing=match)
    assert (report.scenario, report.deployment) == ("Manhunt", "Our own: along the railway")
