"""Gunfight v2 in a real browser: roll a character (every die on the card and in the dice
log), add troopers, enter a character by hand, break a rule and fix it, share the side."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from builder.editors import gunfight as editor
from builder.models import Gang, Item
from builder.roster import evaluate_gang, export_roster
from rules.roster import check_roster
from tests.browser.test_journey import new_gang, no_horizontal_scroll, settled, visitor_page

pytestmark = pytest.mark.browser


def card(page: Page, name: str):
    return page.locator(f'[data-testid="member"][data-member-name="{name}"]')


def total_is(page: Page, gang: Gang) -> None:
    expect(page.locator('[data-testid="fame"]')).to_have_text(str(evaluate_gang(gang).report.total))


def test_build_a_gunfight_side(page: Page, browser, live_server, monkeypatch):
    # The live server runs in this process: a seeded source makes the roll repeatable.
    monkeypatch.setattr(editor, "random_source", lambda: random.Random(2003))
    new_gang(page, live_server.url, "wyatt", "The Earps", "gunfight")
    gang = Gang.objects.get(name="The Earps")
    expect(page.locator('[data-testid="fame"]')).to_have_text("0")
    expect(page.locator('.finding[data-code="gunfight.no_figures"]')).to_have_count(1)

    # Roll a character: every die it rolled shows on its card.
    page.fill("#id_roll-name", "Doc")
    page.select_option("#id_roll-character_type", "gunfighter")
    page.select_option("#id_roll-experience", "old_hand")
    page.click('[data-testid="roll"]')
    doc = card(page, "Doc")
    expect(doc).to_have_count(1)
    settled(page)
    member = gang.members.get(name="Doc")
    rolls = member.data["rolls"]
    assert member.data["source"] == "rolled" and len(rolls) >= 7
    dice = doc.locator('[data-testid="die"]')
    expect(dice).to_have_text([str(r["rolled"][0]) for r in rolls])
    expect(doc.locator('[data-testid="member-roll"]').first).to_contain_text(rolls[0]["purpose"])
    expect(doc.locator('[data-testid="ability"]')).to_have_count(2)
    expect(page.locator('[data-testid="status"]')).to_contain_text("Legal")
    total_is(page, gang)

    # Troopers: four of them with carbines.
    page.click("#gf-figures summary")
    page.select_option("#id_add_figures-figure", "trooper")
    page.fill("#id_add_figures-count", "4")
    carbine = Item.objects.get(system="gunfight", owner=None, name="Carbine")
    page.select_option("#id_add_figures-weapon", str(carbine.pk))
    page.click('[data-testid="add_figures"]')
    troopers = card(page, "Trooper")
    expect(troopers).to_have_count(1)
    settled(page)
    expect(troopers.locator('[data-testid="member-summary"]')).to_contain_text("Trooper \u00d74")
    expect(troopers.locator('[data-testid="weapon"]')).to_contain_text("Carbine")
    total_is(page, gang)

    # A character entered by hand.
    page.click("#gf-enter summary")
    page.fill("#id_enter-name", "Wyatt")
    page.select_option("#id_enter-character_type", "lawman")
    page.select_option("#id_enter-experience", "greenhorn")
    for field, value in {"bd": "7", "sk": "9", "sp": "6", "ag": "8", "wp": "8"}.items():
        page.fill(f"#id_enter-{field}", value)
    page.select_option("#id_enter-ability_1", "leader")
    page.click('[data-testid="enter"]')
    wyatt = card(page, "Wyatt")
    expect(wyatt).to_have_count(1)
    settled(page)
    expect(wyatt.locator('[data-testid="source"]')).to_have_text("entered")
    expect(wyatt.locator('[data-testid="ability"]')).to_contain_text("Leader")
    expect(page.locator('[data-testid="status"]')).to_contain_text("Legal")
    total_is(page, gang)
    pk = gang.members.get(name="Wyatt").pk

    # Break a rule: BD 11 is out of range; the engine says so beside Wyatt.
    code = '.finding[data-code="gunfight.characteristic_out_of_range"]'
    wyatt.locator('[data-testid="change"]').click()
    page.fill(f"#id_m{pk}-edit-bd", "11")
    wyatt.locator('[data-testid="edit"]').click()
    expect(wyatt.locator(code)).to_have_count(1)
    settled(page)
    expect(page.locator(f"#findings {code}")).to_have_count(1)
    expect(page.locator('[data-testid="status"]')).to_contain_text("Illegal")

    # Fix it: the error vanishes.
    wyatt.locator('[data-testid="change"]').click()
    page.fill(f"#id_m{pk}-edit-bd", "7")
    wyatt.locator('[data-testid="edit"]').click()
    expect(page.locator(code)).to_have_count(0)
    settled(page)
    expect(page.locator('[data-testid="status"]')).to_contain_text("Legal")
    assert page.evaluate("window.__noReload") == "still here"
    assert no_horizontal_scroll(page)
    assert check_roster(export_roster(gang)) == []

    # The history page lists every roll with its dice.
    share_url = page.input_value("#share-url")
    page.click('[data-testid="history"]')
    rows = page.locator('[data-testid="roll"]')
    expect(rows).to_have_count(len(rolls))
    for r in rolls:
        row = rows.filter(has_text=r["purpose"])
        expect(row.first.locator('[data-testid="die"]')).to_have_text(str(r["rolled"][0]))
    expect(rows.first).to_contain_text("Gunfighter (Old Hand)")

    # Anyone with the share link sees the side, read-only.
    with visitor_page(browser, share_url) as other:
        expect(other.locator('[data-testid="gang-name"]')).to_have_text("The Earps")
        expect(other.locator('[data-testid="member"]')).to_have_count(3)
        expect(other.locator("text=Wyatt").first).to_be_visible()
        expect(other.locator('[data-testid="roll"]')).to_have_count(0)
