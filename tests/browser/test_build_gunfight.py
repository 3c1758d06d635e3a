"""Gunfight v2 in a real browser, phone-sized: roll characters (every die in the panel and
in the dice log), add troopers and rabble with one button, arm them from the list, enter a
character by hand, break a rule and fix it, share the side; the page never jumps, the
focus stays, the summary bar stays in view. And the same with JavaScript off."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from builder.editors import gunfight as editor
from builder.models import DiceRoll, Gang, Item
from builder.roster import evaluate_gang, export_roster
from rules.roster import check_roster
from tests.browser.builder import (
    keeps_place,
    member_row,
    new_gang,
    no_horizontal_scroll,
    open_member,
    panel,
    settled,
    visitor_page,
)

pytestmark = pytest.mark.browser

IS_OPEN = re.compile(r"\bis-open\b")

SEED = 2003


def total_is(page: Page, gang: Gang) -> None:
    expect(page.locator('[data-testid="fame"]')).to_have_text(str(evaluate_gang(gang).report.total))


def weapon_pk(name: str) -> str:
    return str(Item.objects.get(system="gunfight", owner=None, category="weapon", name=name).pk)


def roll(page: Page, character_type: str, experience: str, name: str) -> None:
    """Roll a character: two selects and the Roll button; it opens in the panel."""
    page.select_option("#id_roll-character_type", character_type)
    page.select_option("#id_roll-experience", experience)
    page.click('[data-testid="roll"]')
    expect(member_row(page, name)).to_have_class(IS_OPEN)
    settled(page)


def idle(page: Page) -> None:
    """Settled, with no change still on its way (Enter in a field both changes and submits
    its form: two posts)."""
    settled(page)
    page.wait_for_function("!document.querySelector('.htmx-request')")
    settled(page)


def rename(page: Page, member, name: str) -> None:
    """Type a new name in the open panel: it applies when the field is left."""
    field = panel(page).locator(f"#id_m{member.pk}-rename-name")
    field.fill(name)
    field.press("Tab")
    expect(member_row(page, name)).to_have_count(1)
    idle(page)


def test_build_a_legal_gunfight_side(page: Page, browser, live_server, monkeypatch):
    # The live server runs in this process: a seeded source makes every roll repeatable.
    monkeypatch.setattr(editor, "random_source", lambda: random.Random(SEED))
    new_gang(page, live_server.url, "wyatt", "The Earps", "gunfight")
    gang = Gang.objects.get(name="The Earps")
    expect(page.locator('[data-testid="fame"]')).to_have_text("0")
    expect(page.locator('.finding[data-code="gunfight.no_figures"]')).to_have_count(1)

    # 1. Roll a character: named after its type, open, with every die it rolled.
    roll(page, "gunfighter", "old_hand", "Gunfighter")
    member = gang.members.get(name="Gunfighter")
    rolls = member.data["rolls"]
    assert member.data["source"] == "rolled" and len(rolls) >= 7
    doc = panel(page)
    expect(doc.locator('[data-testid="die"]')).to_have_text([str(r["rolled"][0]) for r in rolls])
    expect(doc.locator('[data-testid="member-roll"]').first).to_contain_text(
        f"BD D6 {rolls[0]['rolled'][0]} +4 = {rolls[0]['rolled'][0] + 4}"
    )
    expect(doc.locator('[data-testid="ability"]')).to_have_count(2)
    expect(doc.locator('[data-testid="source"]')).to_have_text("rolled")
    expect(page.locator('[data-testid="status"]')).to_contain_text("Legal")
    total_is(page, gang)
    rename(page, member, "Doc")
    expect(member_row(page, "Doc").locator(".row-kind")).to_have_text("Gunfighter · Old Hand")
    expect(member_row(page, "Doc").locator(".row-stat")).to_have_text(
        [re.compile(rf"^{label} \d+$") for label in ("SK", "SP", "WP")]
    )

    # Picking a weapon adds it: the page does not move and the select keeps the focus.
    add_weapon = panel(page).locator(f"#id_m{member.pk}-add_weapon-weapon")
    keeps_place(page, add_weapon, lambda: add_weapon.select_option(weapon_pk("Pistol")))
    expect(panel(page).locator('[data-testid="weapon"]')).to_contain_text(["Pistol"])
    expect(add_weapon).to_have_value("")

    # Re-roll by keyboard (the seeded source rolls the same dice): nothing moves either.
    reroll = panel(page).locator('[data-testid="reroll"]')
    page.once("dialog", lambda dialog: dialog.accept())
    keeps_place(page, reroll, lambda: (reroll.focus(), page.keyboard.press("Enter")))
    expect(panel(page).locator('[data-testid="weapon"]')).to_contain_text(["Pistol"])

    # 2. and 3. Two more characters.
    roll(page, "lawman", "veteran", "Lawman")
    wyatt = gang.members.get(name="Lawman")
    expect(panel(page).locator('[data-testid="ability"]')).to_have_count(3)
    rename(page, wyatt, "Wyatt")
    panel(page).locator(f"#id_m{wyatt.pk}-add_weapon-weapon").select_option(
        weapon_pk("Winchester rifle")
    )
    expect(panel(page).locator('[data-testid="weapon"]')).to_contain_text(["Winchester rifle"])
    settled(page)
    roll(page, "lawman", "greenhorn", "Lawman")
    expect(member_row(page, "Lawman").locator(".row-kind")).to_have_text("Lawman · Greenhorn")

    # 4. Troopers: one button, then how many, what they are and their carbines, live.
    page.click('[data-testid="add-troopers"]')
    expect(member_row(page, "Trooper")).to_have_class(IS_OPEN)
    settled(page)
    trooper = gang.members.get(name="Trooper")
    count = panel(page).locator(f"#id_m{trooper.pk}-figures-count")
    count.fill("4")
    count.press("Tab")
    expect(member_row(page, "Trooper").locator(".row-kind")).to_have_text("Troopers \u00d74")
    settled(page)
    kind = panel(page).locator(f"#id_m{trooper.pk}-figures-character_type")
    keeps_place(page, kind, lambda: kind.select_option("soldier"))
    expect(member_row(page, "Trooper").locator(".row-kind")).to_have_text(
        "Troopers \u00d74 · Soldier"
    )
    panel(page).locator(f"#id_m{trooper.pk}-add_weapon-weapon").select_option(weapon_pk("Carbine"))
    expect(panel(page).locator('[data-testid="weapon"]')).to_contain_text(["Carbine"])
    settled(page)

    # 5. Rabble: another action. What was set on the troopers is still there.
    page.click('[data-testid="add-rabble"]')
    expect(member_row(page, "Rabble")).to_have_class(IS_OPEN)
    settled(page)
    expect(member_row(page, "Trooper").locator(".row-kind")).to_have_text(
        "Troopers \u00d74 · Soldier"
    )
    rabble = gang.members.get(name="Rabble")
    rabble_count = panel(page).locator(f"#id_m{rabble.pk}-figures-count")
    rabble_count.fill("6")
    rabble_count.press("Enter")
    expect(member_row(page, "Rabble").locator(".row-kind")).to_have_text("Rabble \u00d76")
    idle(page)
    open_member(page, "Trooper")
    expect(panel(page).locator(f"#id_m{trooper.pk}-figures-count")).to_have_value("4")
    expect(panel(page).locator(f"#id_m{trooper.pk}-figures-character_type")).to_have_value(
        "soldier"
    )
    expect(panel(page).locator('[data-testid="weapon"]')).to_contain_text(["Carbine"])

    # A legal side of five entries; the total is the figure count.
    expect(page.locator('[data-testid="member"]')).to_have_count(5)
    expect(page.locator('[data-testid="status"]')).to_contain_text("Legal")
    expect(page.locator(".all-good")).to_have_text("Nothing to fix: the gang is legal.")
    total_is(page, gang)
    assert evaluate_gang(gang).report.is_legal
    assert evaluate_gang(gang).report.total >= 13

    # Break a rule in Wyatt's numbers (BD 11), live; then fix it.
    open_member(page, "Wyatt")
    panel(page).locator('[data-testid="change"]').click()
    bd = panel(page).locator(f"#id_m{wyatt.pk}-edit-bd")
    code = '.finding[data-code="gunfight.characteristic_out_of_range"]'
    bd.fill("11")
    bd.press("Enter")
    expect(panel(page).locator(code)).to_have_count(1)
    idle(page)
    expect(page.locator(f"#findings {code}")).to_have_count(1)
    expect(page.locator('[data-testid="status"]')).to_contain_text("Illegal")
    expect(panel(page).locator('[data-testid="source"]')).to_have_text("entered")
    expect(bd).to_be_focused()
    bd.fill("7")
    bd.press("Enter")
    expect(page.locator(code)).to_have_count(0)
    idle(page)
    expect(page.locator('[data-testid="status"]')).to_contain_text("Legal")

    # The summary bar stays in view at the bottom of the page; nothing is wider than it.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(page.locator('[data-testid="summary-bar"]')).to_be_in_viewport()
    assert no_horizontal_scroll(page)
    assert page.evaluate("window.__noReload") == "still here"
    assert check_roster(export_roster(gang)) == []

    # The history page lists every roll with its dice.
    share_url = page.input_value("#share-url")
    page.click('[data-testid="history"]')
    rows = page.locator('[data-testid="roll"]')
    # Doc's roll and re-roll, Wyatt's and the third character's: every die is kept.
    expect(rows).to_have_count(DiceRoll.objects.filter(gang=gang).count())
    for r in rolls:
        row = rows.filter(has_text=r["purpose"])
        expect(row.first.locator('[data-testid="die"]')).to_have_text(str(r["rolled"][0]))
    # Each says what came of its roll, under the name the character had then.
    expect(rows.filter(has_text="Gunfighter — Gunfighter (Old Hand)")).to_have_count(len(rolls))
    expect(rows.filter(has_text="Doc — Gunfighter (Old Hand)")).to_have_count(len(rolls))

    # Anyone with the share link sees the side, read-only.
    with visitor_page(browser, share_url) as other:
        expect(other.locator('[data-testid="gang-name"]')).to_have_text("The Earps")
        expect(other.locator('[data-testid="member"]')).to_have_count(5)
        expect(member_row(other, "Wyatt")).to_be_visible()
        expect(other.locator('[data-testid="roll"]')).to_have_count(0)


def test_enter_a_character_by_hand(page: Page, live_server):
    new_gang(page, live_server.url, "virgil", "Lawmen", "gunfight")
    gang = Gang.objects.get(name="Lawmen")
    page.click('[data-testid="enter-open"]')
    page.fill("#id_enter-name", "Virgil")
    page.select_option("#id_enter-character_type", "lawman")
    page.select_option("#id_enter-experience", "greenhorn")
    page.click('[data-testid="enter"]')
    expect(member_row(page, "Virgil")).to_have_class(IS_OPEN)
    idle(page)
    virgil = gang.members.get()
    expect(panel(page).locator('[data-testid="source"]')).to_have_text("entered")
    expect(panel(page).locator('[data-testid="member-roll"]')).to_have_count(0)
    code = '.finding[data-code="gunfight.ability_count"]'
    expect(panel(page).locator(code)).to_have_count(1)  # a Greenhorn has one: pick it

    # Its numbers, typed in the panel (open for an entered character), each applied as
    # the field is left; then its ability, picked from the list.
    for field, value in {"bd": "7", "sk": "9", "sp": "6", "ag": "8", "wp": "8"}.items():
        box = panel(page).locator(f"#id_m{virgil.pk}-edit-{field}")
        box.fill(value)
        box.press("Tab")
        idle(page)
    expect(member_row(page, "Virgil").locator(".row-stat")).to_have_text(["SK 9", "SP 6", "WP 8"])
    ability = panel(page).locator(f"#id_m{virgil.pk}-add_ability-ability")
    ability.focus()
    ability.select_option("leader")
    expect(panel(page).locator('[data-testid="ability"]')).to_contain_text(["Leader"])
    idle(page)
    expect(panel(page).locator(code)).to_have_count(0)
    expect(ability).to_have_count(0)  # it has its one ability: the list goes
    expect(page.locator('[data-testid="status"]')).to_contain_text("Legal")
    total_is(page, gang)

    # Old Hand: the rules ask for a second ability, and the list comes back.
    experience = panel(page).locator(f"#id_m{virgil.pk}-edit-experience")
    experience.focus()  # as a tap does
    experience.select_option("old_hand")
    expect(panel(page).locator(code)).to_have_count(1)
    idle(page)
    expect(experience).to_be_focused()
    expect(ability).to_have_count(1)
    ability.select_option("cool")
    expect(panel(page).locator(code)).to_have_count(0)
    idle(page)
    expect(member_row(page, "Virgil").locator(".row-kind")).to_have_text("Lawman · Old Hand")
    assert gang.members.get().data["abilities"] == ["leader", "cool"]
    assert gang.members.get().data["characteristics"] == {
        "bd": 7,
        "sk": 9,
        "sp": 6,
        "ag": 8,
        "wp": 8,
    }
    # Take one off with its button: the list is back for another.
    panel(page).locator('[data-testid="remove_ability"]').last.click()
    expect(panel(page).locator('[data-testid="ability"]')).to_have_count(1)
    expect(ability).to_have_count(1)
    assert no_horizontal_scroll(page)


def test_build_with_javascript_off(page_without_js: Page, live_server, monkeypatch):
    page = page_without_js
    monkeypatch.setattr(editor, "random_source", lambda: random.Random(SEED))
    new_gang(page, live_server.url, "morgan", "Cowboys", "gunfight")
    gang = Gang.objects.get(name="Cowboys")

    page.select_option("#id_roll-character_type", "outlaw")
    page.select_option("#id_roll-experience", "greenhorn")
    page.click('[data-testid="roll"]')
    expect(member_row(page, "Outlaw")).to_have_class(IS_OPEN)
    member = gang.members.get()
    assert f"?open={member.pk}" in page.url
    expect(panel(page).locator('[data-testid="die"]')).to_have_count(len(member.data["rolls"]))

    # Without JavaScript each live form has its button.
    page.fill(f"#id_m{member.pk}-rename-name", "Ike")
    panel(page).locator('[data-testid="rename"]').click()
    expect(member_row(page, "Ike")).to_have_count(1)
    panel(page).locator(f"#id_m{member.pk}-add_weapon-weapon").select_option(weapon_pk("Shotgun"))
    panel(page).locator('[data-testid="add_weapon"]').click()
    expect(panel(page).locator('[data-testid="weapon"]')).to_contain_text(["Shotgun"])

    page.click('[data-testid="add-rabble"]')
    expect(member_row(page, "Rabble")).to_have_class(IS_OPEN)
    rabble = gang.members.get(name="Rabble")
    page.fill(f"#id_m{rabble.pk}-figures-count", "3")
    panel(page).locator('[data-testid="figures"]').click()
    expect(member_row(page, "Rabble").locator(".row-kind")).to_have_text("Rabble \u00d73")

    expect(page.locator('[data-testid="fame"]')).to_have_text("4")
    expect(page.locator('[data-testid="status"]')).to_contain_text("Legal")
    assert [m.name for m in gang.members.all()] == ["Ike", "Rabble"]
    assert gang.members.get(name="Ike").data["weapons"][0]["name"] == "Shotgun"
