"""Roster files in a real browser: import a broken file (nothing saved, the page says where),
import a good one of another system, see its findings, export it and import it back."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from builder.models import Gang
from tests.browser.builder import sign_up
from tests.test_roster_files import EXAMPLES

pytestmark = pytest.mark.browser

GF26_ILLEGAL = next(p for p in EXAMPLES if p.name.startswith("gf26-illegal-"))


def test_import_a_roster_see_its_findings_and_export_it(page: Page, live_server, tmp_path):
    sign_up(page, live_server.url, "importer")
    page.click("text=Import a roster")

    broken = tmp_path / "broken.json"
    roster = json.loads(GF26_ILLEGAL.read_text())
    roster["members"][0]["data"]["perks"] = "fast"
    broken.write_text(json.dumps(roster))
    page.set_input_files("#id_file", str(broken))
    page.click('[data-testid="import"]')
    expect(page.locator(".errorlist")).to_contain_text(
        "members[0].data.perks: 'fast' is not of type 'array'"
    )
    assert not Gang.objects.exists()

    page.set_input_files("#id_file", str(GF26_ILLEGAL))
    page.click('[data-testid="import"]')
    expect(page.locator('[data-testid="gang-name"]')).to_have_text(roster["name"])
    expect(page.locator('[data-testid="status"]')).to_contain_text("Illegal")
    expect(page.locator('.finding[data-code="gf26.too_many_leaders"]').first).to_be_visible()
    expect(page.locator('[data-testid="member"]')).to_have_count(len(roster["members"]))

    with page.expect_download() as download_info:
        page.click('[data-testid="export"]')
    exported = tmp_path / "exported.json"
    download_info.value.save_as(exported)
    assert json.loads(exported.read_text()) == json.loads(GF26_ILLEGAL.read_text())

    page.goto(live_server.url + "/gangs/import/")
    page.fill("#id_text", exported.read_text())
    page.click('[data-testid="import"]')
    # The name is taken by the gang it came from: the copy is "(2)".
    expect(page.locator('[data-testid="gang-name"]')).to_have_text(f"{roster['name']} (2)")
    assert Gang.objects.filter(system="gf26").count() == 2
    page.goto(live_server.url + "/gangs/")
    expect(page.locator('[data-testid="gang-list"] li')).to_have_count(2)
