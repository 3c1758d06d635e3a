"""Issue 30, "the evening as it is", in a real browser at 375 px: every page changed for
it fits a phone's width (no horizontal scroll), and what the organiser and a player need
on the evening is on screen: the disabled "Pair round" with the results missing, the
gang that breaks the cap, the players not paired any more with "Bring back", Withdraw
where a registered player looks, the club's hand over and leave, the builder's note on
the leagues a gang plays in.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import expect

from builder.services import import_gang
from campaigns.leagues import services
from campaigns.leagues.models import League, Pairing, Registration
from rules.roster import read_roster
from tests.browser.test_league_phone import SMALL_TARGETS, fits, phone
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
EXAMPLE = (
    Path(__file__).resolve().parents[2]
    / "docs"
    / "examples"
    / "bwg2-legal-tranquility-crew-700.json"
)
PLAYERS = {
    "ada": "The Magnificent Seven Deadly Sinners of Tombstone Territory",
    "bo": "Bo's Drifters",
    "cy": "Cy's Lawmen",
    "di": "Wolfeschlegelsteinhausenbergerdorff's Outlaws",
    "ed": "Ed's Regulators",
    "flo": "Flo's Cattle Barons and Their Hired Guns",
    "gus": "Gus's Gunhands",
    "hal": "Hal's Homesteaders",
}


#: what sticks out of the window (outside the tables that scroll inside their wrap)
WIDE = """() => [...document.querySelectorAll('main *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5
    && !e.closest('.table-wrap'))
  .map(e => `${e.tagName}.${e.className} ${(e.textContent || '').trim().slice(0, 40)}`)"""


@pytest.fixture
def evening(db) -> League:
    """Eight players, Swiss, three rounds at 700 Fame: round 1 confirmed, round 2 paired
    with one result reported; Hal dropped by the organiser; then the cap falls to 600,
    so every gang breaks it (the long names and messages, on a phone)."""
    roster = read_roster(EXAMPLE.read_bytes())
    users = {name: User.objects.create_user(name, password=PASSWORD) for name in PLAYERS}
    club = services.create_club(users["ada"], name="Deadwood Irregulars")
    league = services.create_league(
        club, name="Spring Season", system="bwg2", cap=700, pairing=League.SWISS, rounds=3
    )
    for name, gang_name in PLAYERS.items():
        if name != "ada":
            services.join_club(club, users[name])
        gang = import_gang(users[name], {**roster, "name": gang_name})
        services.register(league, users[name], gang)
    services.next_round(league)
    for p in Pairing.objects.filter(round__league=league).select_related("a__player", "b__player"):
        report = services.submit_report(p, p.a.player, {"vp_a": 7, "vp_b": 4, "winner": "a"})
        services.confirm_report(report, p.b.player)
    services.next_round(league)
    first = (
        Pairing.objects.filter(round__league=league, round__number=2)
        .select_related("a__player")
        .first()
    )
    services.submit_report(first, first.a.player, {"vp_a": 5, "vp_b": 4, "winner": "a"})
    services.drop(Registration.objects.get(league=league, player=users["hal"]), users["ada"])
    services.update_league(League.objects.get(pk=league.pk), cap=600)
    return league


def test_the_evenings_pages_fit_a_phone(browser, live_server, evening):
    league = evening
    bo = Registration.objects.get(league=league, player__username="bo")
    with phone(browser, live_server.url, "ada") as page:
        page.goto(live_server.url + reverse("league_rounds", args=[league.pk]))
        pair = page.get_by_test_id("pair-round")
        expect(pair).to_be_disabled()
        expect(page.get_by_test_id("results-missing")).to_have_text("4 results missing")
        expect(page.get_by_test_id("illegal-before-pairing")).to_be_visible()
        expect(page.get_by_test_id("dropped-players")).to_contain_text("Hal's Homesteaders")
        # the round under way comes first
        first = page.locator(".league-round").first
        expect(first).to_have_attribute("id", "round-2")
        assert page.evaluate(WIDE) == []
        for url in (
            reverse("league_detail", args=[league.pk]),
            reverse("league_player", args=[league.pk, bo.pk]),
            reverse("club_detail", args=[league.club_id]),
            reverse("league_settings", args=[league.pk]),
        ):
            page.goto(live_server.url + url)
            assert page.evaluate(WIDE) == [], url
            fits(page)
            assert page.evaluate(SMALL_TARGETS) == [], url
        expect(page.get_by_text("leaves byes out")).to_be_visible()
    with phone(browser, live_server.url, "bo") as page:
        page.goto(live_server.url + reverse("league_detail", args=[league.pk]))
        expect(page.get_by_test_id("my-gang-illegal")).to_be_visible()
        expect(page.get_by_test_id("withdraw-link")).to_be_visible()
        fits(page)
        page.get_by_test_id("withdraw-link").click()
        expect(page.get_by_test_id("withdraw-button")).to_be_visible()
        fits(page)
        page.goto(live_server.url + reverse("club_detail", args=[league.club_id]))
        expect(page.get_by_test_id("leave")).to_be_visible()
        fits(page)
        page.goto(live_server.url + reverse("gang_detail", args=[bo.gang_id]))
        expect(page.get_by_test_id("gang-leagues")).to_contain_text("cap 600 Fame")
        fits(page)
