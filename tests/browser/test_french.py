"""A French-speaking club's player, in a real browser: switches the site to French from the
header, logs in, builds a bwg1 gang from a roster file, reads a finding in French with the
French book's terms, and prints the cards: the PDF (read with pdftotext, from
poppler-utils) uses the French terms too. The language stays after logging out and in."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Page, expect

from accounts.models import Profile
from tests.browser.builder import no_horizontal_scroll, print_from_menu
from tests.conftest import PASSWORD
from tests.helpers.pdf import pdftotext

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/gangfight-shots")


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"french-{name}.png"), full_page=False)


def test_a_french_club_player_builds_reads_and_prints_in_french(page: Page, live_server, tmp_path):
    call_command("load_content", verbosity=0)
    User.objects.create_user("jeanne", password=PASSWORD)
    base = live_server.url

    # An English browser: the site is in English until the player picks French.
    page.goto(f"{base}/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "en-gb")
    switcher = page.locator('[data-testid="language-switcher"]')
    expect(switcher.locator('button[value="fr"]')).to_be_visible()
    assert no_horizontal_scroll(page)
    shoot(page, "login-en-375")
    switcher.locator('button[value="fr"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page).to_have_url(f"{base}/accounts/login/")  # back where it was
    expect(switcher.locator('button[value="fr"]')).to_be_disabled()  # the one in use
    assert no_horizontal_scroll(page)
    shoot(page, "login-fr-375")

    page.fill("#id_username", "jeanne")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    expect(page.locator('[data-testid="nav-user"]')).to_have_text("jeanne")
    expect(page.locator("nav.nav").get_by_role("link", name="Mes gangs")).to_be_visible()
    assert Profile.objects.get(user__username="jeanne").language == "fr"

    # A bwg1 gang from a roster file: the import page, then the builder, in French.
    page.goto(f"{base}/gangs/import/")
    expect(page.locator("h1")).to_have_text("Importer une liste")
    page.set_input_files('input[type="file"]', "docs/examples/bwg1-illegal-too-many-chiefs.json")
    page.click('[data-testid="import"]')
    expect(page.locator('[data-testid="print-menu"]').first).to_be_attached()
    findings = page.locator('[data-code="bwg1.too_many_leaders"]').first
    expect(findings).to_contain_text("Slick Sam est un second Chef")
    expect(findings).to_contain_text("Professionnel ou un Homme de main")
    expect(page.locator('[data-code="bwg1.too_many_leaders"] .sev').first).to_have_text("erreur")
    expect(page.locator("body")).to_contain_text("Illégal")
    assert no_horizontal_scroll(page)
    shoot(page, "builder-fr-375")
    page.set_viewport_size({"width": 1280, "height": 900})
    shoot(page, "builder-fr-1280")
    page.set_viewport_size({"width": 375, "height": 812})

    # The cards, printed: the French book's terms.
    text = pdftotext(print_from_menu(page, "cards"))
    assert "Big Jim" in text
    assert "Chef" in text
    assert "Homme de main" in text or "Professionnel" in text

    # Logging out keeps the cookie; on another browser, logging in brings French back.
    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "en-gb")
    page.fill("#id_username", "jeanne")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("nav.nav").get_by_role("link", name="Mes gangs")).to_be_visible()
