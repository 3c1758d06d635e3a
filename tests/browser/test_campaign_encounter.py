"""A whole Rivals encounter and its after-encounter steps in a real browser, 375 px wide:
begin (the location is rolled and shown), record a wound, a kill and the winner, confirm
as the other gang, roll the death roll, see the reputation awarded, decline a showdown,
and spend a CCP on a tier, with no horizontal scroll on any page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from builder.services import import_gang
from campaigns import services
from campaigns.encounter_views import base as encounter_views
from rules.roster import read_roster
from tests.browser.builder import (
    log_in,
    no_horizontal_scroll,
)
from tests.conftest import PASSWORD
from tests.test_encounter_views import Scripted

pytestmark = pytest.mark.browser
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SHOTS = os.environ.get("CAMPAIGN_SCREENSHOTS")  # a folder: save a screenshot of each page


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
        page.wait_for_timeout(200)  # a full-page shot resizes the page for a moment


def roster(name: str) -> dict:
    return read_roster((EXAMPLES / name).read_bytes())


def test_a_whole_encounter_at_phone_width(page: Page, live_server, monkeypatch):
    # One rider organises the campaign and plays both gangs (the simplest table: solo play).
    rider = User.objects.create_user("rider", password=PASSWORD)
    campaign = services.create_campaign(
        rider, system="rivals", name="Deadrock", encounters=4, house_rules={}, solo_play=True
    )
    red = services.join_campaign(
        campaign, rider, import_gang(rider, roster("rivals-legal-red-jacks-gang.json"))
    )
    oneil = services.join_campaign(
        campaign, rider, import_gang(rider, roster("rivals-legal-six-outlaws.json"))
    )
    services.record(campaign, rider, "campaign_started", {})
    # The location roll (2: centre of town), then Mark's death roll (1: dead).
    monkeypatch.setattr(encounter_views, "RNG", Scripted(2, 1))
    base = f"{live_server.url}/campaigns/{campaign.pk}"

    page.set_viewport_size({"width": 375, "height": 812})
    log_in(page, live_server.url, "rider")

    # Begin: the location is rolled and shown.
    page.goto(f"{base}/encounters/new/")
    page.select_option("#id_gang", str(red.pk))
    page.select_option("#id_against", str(oneil.pk))
    assert no_horizontal_scroll(page)
    page.click("button:has-text('Roll the location and begin')")
    expect(page.locator('[data-testid="location-name"]')).to_have_text("Deadrock - centre of town")
    expect(page.locator('[data-testid="location-roll"]')).to_have_text("2")
    assert no_horizontal_scroll(page)
    shot(page, "1-begun")

    # Record a wound, a kill and the winner.
    page.click('[data-testid="record-link"]')
    lines = page.locator('[data-testid="line"]')
    expect(lines).to_have_count(6)
    shot(page, "2-record")
    first, second = lines.nth(0), lines.nth(1)
    first.locator('select[name$="-kind"]').select_option("wound")
    first.locator('select[name$="-by"]').select_option(label="Red Jack (Red Jack's Gang)")
    first.locator('select[name$="-to"]').select_option(label="Jack O'Neil (The O'Neil Gang)")
    first.locator('input[name$="-amount"]').fill("2")
    second.locator('select[name$="-kind"]').select_option("kill")
    second.locator('select[name$="-by"]').select_option(label="Sarah (Red Jack's Gang)")
    second.locator('select[name$="-to"]').select_option(label="Mark (The O'Neil Gang)")
    page.select_option("#id_winner", label="Red Jack's Gang")
    assert no_horizontal_scroll(page)
    page.click('[data-testid="save-record"]')

    happenings = page.locator('[data-testid="happenings"]')
    expect(happenings).to_contain_text("Red Jack wounded Jack O'Neil (2 actions lost).")
    # The kill's worth is filled in: Mark's toughness (Regular, 4 actions).
    expect(happenings).to_contain_text("Sarah killed Mark (toughness: 4 actions).")
    expect(page.locator('[data-testid="status"]')).to_contain_text("Provisional")
    assert no_horizontal_scroll(page)
    shot(page, "3-recorded")

    # Confirm as the other gang (htmx swaps the steps in place).
    confirm = page.locator('[data-testid="confirm"]')
    expect(confirm).to_have_text("Confirm the record for The O'Neil Gang")
    confirm.click()
    expect(page.locator('[data-testid="status"]')).to_have_text("Confirmed")

    # The death roll.
    page.click("button:has-text('Roll for Mark')")
    result = page.locator('[data-testid="death-result"]')
    expect(result).to_contain_text("Mark: Dead")
    expect(result).to_contain_text("rolled 1")

    # Reputation awarded: Sarah has 4 + Loafer's 1 + 2 for the win = 7, a Drifter.
    sarah = page.locator('[data-testid="reputation-row"][data-member="Sarah"]')
    expect(sarah.locator('[data-testid="total"]')).to_have_text("7")
    expect(sarah).to_contain_text("Drifter (+2)")
    assert no_horizontal_scroll(page)
    shot(page, "4-awarded")

    # The showdown: the O'Neil Gang is lower; Jack O'Neil challenges Red Jack, who
    # declines and loses 5.
    challenge = page.locator('[data-testid="challenge-form"]')
    challenge.locator("select").select_option(label="Jack O'Neil challenges Red Jack (both Loafer)")
    challenge.locator("button").click()
    decline = page.locator('[data-testid="decline"]')
    expect(decline).to_have_text("Decline (-5 reputation for Red Jack)")
    decline.click()
    expect(page.locator('[data-testid="showdown-status"]')).to_contain_text("Red Jack declined")
    assert no_horizontal_scroll(page)
    shot(page, "5-showdown")

    # Between encounters: spend Sarah's CCP on a tier on the gang's page.
    page.click('[data-testid="gang-link"]:has-text("Red Jack\'s Gang")')
    card = page.locator('[data-testid="member"][data-member-name="Sarah"]')
    expect(card.locator('[data-testid="saved"]')).to_contain_text("1 CCP saved")
    card.locator('select[name="choice"]').select_option(label="Rifle: Regular +2 (1 CCP)")
    assert no_horizontal_scroll(page)
    card.locator('[data-testid="advance"]').click()
    expect(page.locator('[data-testid="flash"]')).to_contain_text(
        "Sarah: Spent 1 CCP: Rifle is now Regular +2."
    )
    card = page.locator('[data-testid="member"][data-member-name="Sarah"]')
    expect(card.locator('[data-testid="saved"]')).to_contain_text("0 CCP saved")
    assert no_horizontal_scroll(page)
    shot(page, "6-gang")

    state = services.state_of(campaign)
    assert state.member(f"{red.pk}/2").data["tiers"]["rifle"] == 1
    assert state.member(f"{red.pk}/1").score == 4 - 5


def test_a_gang_with_a_dead_outlaw_recruits_or_fights_short_handed(page: Page, live_server):
    """Rivals gangs fight at full strength (003, "Recruiting new gang members"): after
    Mark dies, his player is told so on the gang page, and chooses to fight on without a
    replacement from the recruit page, at 375 px."""
    ann = User.objects.create_user("ann", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    campaign = services.create_campaign(
        ann, system="rivals", name="Deadrock", encounters=4, house_rules={}
    )
    red = services.join_campaign(
        campaign, ann, import_gang(ann, roster("rivals-legal-red-jacks-gang.json"))
    )
    oneil = services.join_campaign(
        campaign, bob, import_gang(bob, roster("rivals-legal-six-outlaws.json"))
    )
    services.record(campaign, ann, "campaign_started", {})
    a, b = str(red.pk), str(oneil.pk)
    state = services.record(campaign, ann, "encounter_begun", {"gangs": [a, b]}, rng=Scripted(2))
    enc = state.last_encounter.id
    kill = {"kind": "kill", "by": f"{a}/2", "to": f"{b}/2"}
    data = {"encounter": enc, "gang": a, "happenings": [kill], "winner": a}
    services.record(campaign, ann, "encounter_recorded", data)
    services.record(campaign, bob, "encounter_confirmed", {"encounter": enc, "gang": b})
    services.record(
        campaign, bob, "death_rolled", {"encounter": enc, "member": f"{b}/2"}, rng=Scripted(1)
    )

    page.set_viewport_size({"width": 375, "height": 812})
    log_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/gangs/{b}/")
    notice = page.locator('[data-testid="full-strength"]')
    expect(notice).to_contain_text("Before its next encounter the gang replaces its fallen outlaw")
    assert no_horizontal_scroll(page)
    shot(page, "5-full-strength")
    notice.locator("a").click()
    expect(page.locator('[data-testid="recruit-for"]')).to_have_attribute(
        "data-member-name", "Mark"
    )
    assert no_horizontal_scroll(page)
    shot(page, "6-recruit-or-decline")
    page.click('[data-testid="decline"]')
    expect(page.locator('[data-testid="full-strength"]')).to_have_count(0)
    expect(page.locator(".messages")).to_contain_text("fights on without replacing Mark")
    # The recruit page still offers a recruit for later.
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/gangs/{b}/recruit/")
    expect(page.locator('[data-testid="short-handed"]')).to_be_visible()
    assert no_horizontal_scroll(page)
