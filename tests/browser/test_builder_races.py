"""Changes made faster than the server answers: none is lost, none is applied twice.

The server is slowed down (an action sleeps) so that a second change is made while the
first one's answer is still on its way: the second waits in htmx's queue, and the first
answer is morphed into the page before the second is sent."""

from __future__ import annotations

import time

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from builder.editors import bwg1 as bwg1_editor
from builder.models import Gang, Item
from tests.browser.builder import member_row, new_gang, panel, recruit, settled
from tests.factories import recruit as recruit_member

pytestmark = pytest.mark.browser


@pytest.fixture
def slow_details(monkeypatch):
    """Renaming a bwg1 member takes 0.6 s on the server."""
    apply = bwg1_editor.DetailsForm.apply

    def slow(self, ctx):
        time.sleep(0.6)
        apply(self, ctx)

    monkeypatch.setattr(bwg1_editor.DetailsForm, "apply", slow)


def test_a_weapon_picked_while_a_rename_is_on_its_way_is_kept(
    page: Page, live_server, slow_details
):
    new_gang(page, live_server.url, "racer", "Racing Gang")
    recruit(page, "Jesse", "leader")
    gang = Gang.objects.get(name="Racing Gang")
    jesse = gang.members.get()
    box = panel(page)
    name = box.locator("input[name$='-details-name']")
    name.fill("Jesse James")
    weapon = box.locator("select[name$='-add_weapon-item']")
    weapon.focus()  # the tap on the select: the name's change is sent first, and is slow
    weapon.select_option(label="Bowie knife (level 3, melee)")
    expect(member_row(page, "Jesse James")).to_have_count(1, timeout=10_000)
    expect(box.locator(".weapon-name")).to_have_text(["Bowie knife"], timeout=10_000)
    settled(page)
    jesse.refresh_from_db()
    assert jesse.name == "Jesse James"
    assert [mi.item.name for mi in jesse.member_items.all()] == ["Bowie knife"]


def test_three_quick_changes_behind_a_slow_one_all_arrive_once(
    page: Page, live_server, slow_details
):
    call_command("load_content", verbosity=0)
    new_gang(page, live_server.url, "quick", "Quick Gang")
    gang = Gang.objects.get(name="Quick Gang")
    jesse = recruit_member(gang, "Jesse", "leader")
    gang.refresh_from_db()
    before = gang.version
    page.goto(f"{live_server.url}/gangs/{gang.pk}/?open={jesse.pk}")
    settled(page)
    box = panel(page)
    box.locator("input[name$='-details-name']").fill("Frank")
    plus = box.locator('button[value="str:+"]')
    plus.focus()
    for _ in range(3):
        page.keyboard.press("Enter")
    horse = box.locator("select[name$='-horse-item']")
    horse.select_option(label='Mule (10 XP, 7")')
    expect(horse).to_have_value(str(Item.objects.get(name="Mule").pk))  # not undone meanwhile
    expect(box.locator('input[name$="-points-str"]')).to_have_value("4", timeout=10_000)
    expect(member_row(page, "Frank")).to_have_count(1, timeout=10_000)
    # Every change was one version: the rename, three points, the horse (the page waits
    # for the last answer: the horse's may still be on its way when the points show).
    expect(page.locator("#builder")).to_have_attribute(
        "data-version", str(before + 5), timeout=10_000
    )
    settled(page)
    jesse.refresh_from_db()
    assert jesse.name == "Frank"
    assert jesse.data["points"]["str"] == 3
    assert [mi.item.name for mi in jesse.member_items.all()] == ["Mule"]
    gang.refresh_from_db()
    assert gang.version == before + 5
