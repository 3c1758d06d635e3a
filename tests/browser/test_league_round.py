"""A four-player club league through one full round in a real browser, 375 px wide.

Only the users and their gangs are made in Python (gang building has its own browser
tests); the rest happens in the browser, each player in their own browser context: the
organiser creates a club and copies its invite link; the three others join by it; the
organiser sets up a Swiss league (bwg2, 700 Fame, 3 rounds); all four register a gang;
the organiser pairs round 1. At one table a player reports and the opponent confirms; at
the other the opponent disputes and the organiser settles. The standings then read
3 / 3 / 0 / 0 with the Victory Point tiebreak noted, round 2 pairs no rematch, and the
public link shows the standings without logging in. No page scrolls sideways at 375 px.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from builder.services import import_gang
from campaigns.leagues.models import League, MatchReport
from rules.roster import read_roster
from tests.browser.builder import log_in
from tests.browser.conftest import PHONE
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
EXAMPLE = (
    Path(__file__).resolve().parents[2]
    / "docs"
    / "examples"
    / "bwg2-legal-tranquility-crew-700.json"
)
ORGANISER = "ada"
GANGS = {
    "ada": "Ada's Regulators",
    "bo": "Bo's Drifters",
    "cy": "Cy's Lawmen",
    "di": "Di's Outlaws",
}


def fits(page: Page) -> None:
    """The page itself does not scroll sideways at 375 px: wide tables scroll inside
    their .table-wrap, and the visually hidden text in a table is positioned inside that
    scroller (not against the page, where it could widen it). Callers wait for what the
    page they expect shows first: measured mid-navigation, the document is not there."""
    page.wait_for_load_state()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"
    escaped = page.evaluate(
        """() => [...document.querySelectorAll('.table-wrap *')]
            .filter(e => getComputedStyle(e).position === 'absolute')
            .filter(e => !(e.offsetParent && e.offsetParent.closest('.table-wrap')))
            .map(e => e.textContent.trim())"""
    )
    assert not escaped, f"{page.url}: positioned outside its .table-wrap: {escaped}"


def new_page(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def flash(page: Page):
    return page.locator("ul.messages")


def result(page: Page):
    return page.locator('[data-testid="match-result"]')


def round_pairs(page: Page, number: int) -> list[tuple[str, str]]:
    """The (side a, side b) usernames at each table of a round on the rounds page."""
    rows = page.locator(f'[data-testid="round-{number}"] [data-testid="table"]')
    pairs = []
    for i in range(rows.count()):
        names = rows.nth(i).locator(".player-name").all_inner_texts()
        assert len(names) == 2, names
        pairs.append((names[0].strip(), names[1].strip()))
    return pairs


def standings(page: Page) -> list[dict[str, str]]:
    """Each standings row: rank, player, points and tiebreak note, in order."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="standing"]')].map(row => ({
            rank: row.querySelector('td.rank').textContent.trim(),
            player: row.querySelector('th.who > span.muted').textContent.trim(),
            points: row.querySelector('td.points').textContent.trim(),
            note: (row.querySelector('[data-testid="tiebreak-note"]') || {textContent: ''})
                .textContent.trim(),
        }))"""
    )


def open_my_match(page: Page, league_url: str) -> None:
    """From the league page, the player's own match of the last round."""
    page.goto(league_url)
    fits(page)
    page.click('[data-testid="next-match-link"]')
    expect(page.locator('[data-testid="match-title"]')).to_contain_text("Round")
    fits(page)


def report(page: Page, *, vp_a: int, vp_b: int, winner: str, scenario: str) -> None:
    page.fill("#id_scenario", scenario)
    page.fill("#id_vp_a", str(vp_a))
    page.fill("#id_vp_b", str(vp_b))
    page.check(f'input[name="winner"][value="{winner}"]')
    fits(page)
    page.click('[data-testid="submit-report"]')
    expect(flash(page)).to_contain_text("Result reported: waiting for")
    expect(result(page)).to_have_attribute("data-status", "submitted")
    fits(page)


@pytest.fixture
def pages(browser):
    """One logged-out page per player, each in its own browser context."""
    made: dict[str, Page] = {}

    def page_of(name: str) -> Page:
        if name not in made:
            made[name] = new_page(browser)
        return made[name]

    yield page_of
    for page in made.values():
        page.context.close()


def test_a_four_player_league_through_a_round(pages, live_server):
    base = live_server.url
    roster = read_roster(EXAMPLE.read_bytes())
    for username, gang_name in GANGS.items():
        user = User.objects.create_user(username, password=PASSWORD)
        import_gang(user, {**roster, "name": gang_name})

    # The organiser creates the club and copies its invite link.
    ada = pages(ORGANISER)
    log_in(ada, base, ORGANISER)
    ada.click("nav >> text=Clubs")
    expect(ada.locator('[data-testid="new-club"]')).to_be_visible()
    fits(ada)
    ada.click('[data-testid="new-club"]')
    ada.fill("#id_name", "Deadwood Irregulars")
    ada.fill("#id_about", "Thursday nights at the Bella Union.")
    fits(ada)
    ada.click("button:has-text('Create club')")
    expect(ada.locator("h1")).to_have_text("Deadwood Irregulars")
    fits(ada)
    invite = ada.locator('[data-testid="invite-link"]').input_value()
    assert "/clubs/join/" in invite
    club_url = ada.url

    # The three others join by the link.
    for name in ("bo", "cy", "di"):
        player = pages(name)
        log_in(player, base, name)
        player.goto(invite)
        expect(player.locator("h1")).to_have_text("Join “Deadwood Irregulars”")
        fits(player)
        player.click('[data-testid="join-club"]')
        expect(flash(player)).to_contain_text("You joined “Deadwood Irregulars”.")
        expect(player.locator(".club-facts")).to_contain_text("you are a member")
        fits(player)
    ada.goto(club_url)
    expect(ada.locator('[data-testid="club-members"] > li')).to_have_count(4)
    fits(ada)

    # The organiser sets up a Swiss league: bwg2, 700 Fame, 3 rounds.
    ada.click('[data-testid="new-league"]')
    ada.fill("#id_name", "Spring Season")
    ada.select_option("#id_system", "bwg2")
    ada.fill("#id_cap", "700")
    ada.check('input[name="pairing"][value="swiss"]')
    ada.fill("#id_rounds", "3")
    fits(ada)
    ada.click("button:has-text('Create league')")
    expect(ada.locator('[data-testid="league-name"]')).to_have_text("Spring Season")
    facts = ada.locator('[data-testid="league-facts"]')
    expect(facts).to_contain_text("700 Fame")
    expect(facts).to_contain_text("Swiss")
    expect(facts).to_contain_text("not started (3 planned)")
    fits(ada)
    league_url = ada.url
    league = League.objects.get(name="Spring Season")
    assert (league.system, league.cap, league.rounds) == ("bwg2", 700, 3)

    # Each of the four registers their gang, from the club page.
    for name, gang_name in GANGS.items():
        player = pages(name)
        player.goto(club_url)
        fits(player)
        player.click('[data-testid="club-leagues"] >> text=Spring Season')
        player.click(".league-links >> text=Register")
        expect(player.locator("h1")).to_have_text("Register for “Spring Season”")
        expect(player.locator('[data-testid="register-gangs"]')).to_contain_text("legal")
        fits(player)
        option = player.locator("#id_gang option", has_text=gang_name)
        expect(option).to_contain_text("Fame, legal")
        player.select_option("#id_gang", option.get_attribute("value"))
        player.click('[data-testid="register"]')
        expect(flash(player)).to_contain_text(f"You registered “{gang_name}” in “Spring Season”.")
        expect(player.locator('[data-testid="standing"]')).to_have_count(
            list(GANGS).index(name) + 1
        )
        fits(player)

    # The organiser pairs round 1 on the rounds page.
    ada.goto(league_url)
    ada.click(".league-links >> text=Rounds")
    expect(ada.locator("h1")).to_have_text("Rounds of “Spring Season”")
    fits(ada)
    ada.click('[data-testid="pair-round"]')
    expect(flash(ada)).to_contain_text("Round 1 is paired: 2 tables.")
    expect(ada.locator('[data-testid="round-1"] [data-testid="table"]')).to_have_count(2)
    fits(ada)  # the rounds page with a round: the table-header bug (H9) showed here
    round1 = round_pairs(ada, 1)
    assert sorted(p for pair in round1 for p in pair) == sorted(GANGS)
    # Ada plays at one table; the other is the one she settles as the organiser.
    (ada_table,) = [pair for pair in round1 if ORGANISER in pair]
    (other_table,) = [pair for pair in round1 if ORGANISER not in pair]

    # Ada's table: her opponent reports (side a wins 12-4), Ada confirms.
    a, b = ada_table
    reporter = b if a == ORGANISER else a
    open_my_match(pages(reporter), league_url)
    report(pages(reporter), vp_a=12, vp_b=4, winner="a", scenario="Bank job")
    open_my_match(ada, league_url)
    expect(result(ada)).to_have_attribute("data-status", "submitted")
    ada.click('[data-testid="confirm"]')
    expect(flash(ada)).to_contain_text("Result confirmed: it counts in the standings.")
    expect(result(ada)).to_have_attribute("data-status", "confirmed")
    fits(ada)

    # The other table: side a reports 6-9 (side b wins); side b disputes the score; the
    # organiser settles it at 6-10.
    c, d = other_table
    open_my_match(pages(c), league_url)
    report(pages(c), vp_a=6, vp_b=9, winner="b", scenario="Stagecoach")
    disputer = pages(d)
    open_my_match(disputer, league_url)
    disputer.fill("#id_reason", "I scored 10 Victory Points, not 9: the strongbox counts 4.")
    fits(disputer)
    disputer.click('[data-testid="dispute"]')
    expect(flash(disputer)).to_contain_text("Result disputed: the organiser settles it.")
    expect(result(disputer)).to_have_attribute("data-status", "disputed")
    fits(disputer)

    ada.goto(league_url)
    expect(ada.locator('[data-testid="round-state"]')).to_contain_text("1 disputed")
    fits(ada)
    ada.click(".league-links >> text=Rounds")
    ada.click(
        f'[data-testid="round-1"] [data-testid="table"]:has-text("{GANGS[c]}") >> '
        '[data-testid="match-link"]'
    )
    expect(ada.locator('[data-testid="dispute-reason"]')).to_contain_text("the strongbox")
    expect(ada.locator('[data-testid="settle-form"]')).to_be_visible()
    fits(ada)
    ada.fill("#id_settle-vp_b", "10")
    ada.check('input[name="settle-winner"][value="b"]')
    ada.fill("#id_settle-note", "The strongbox is worth 4: 10 it is.")
    ada.click('[data-testid="settle"]')
    expect(flash(ada)).to_contain_text("Result settled: it counts in the standings.")
    expect(result(ada)).to_have_attribute("data-status", "settled")
    expect(ada.locator(".match-score .score")).to_have_text("6\u201310")
    fits(ada)
    statuses = dict(
        MatchReport.objects.filter(pairing__round__league=league).values_list(
            "pairing__table", "status"
        )
    )
    assert sorted(statuses.values()) == [MatchReport.CONFIRMED, MatchReport.SETTLED]

    # The standings: the two winners on 3 points, split by Victory Point difference (+8
    # over +4), then the two losers on 0 (-4 over -8), split the same way.
    ada.goto(league_url)
    fits(ada)
    rows = standings(ada)
    assert [(r["rank"], r["player"], r["points"]) for r in rows] == [
        ("1", a, "3"),
        ("2", d, "3"),
        ("3", c, "0"),
        ("4", b, "0"),
    ]
    assert [r["note"] for r in rows] == [
        "",
        "on Victory Point difference",
        "",
        "on Victory Point difference",
    ]
    expect(ada.locator('[data-testid="h2h-matrix"]')).to_contain_text("W 12\u20134")
    expect(ada.locator('[data-testid="league-chart"]')).to_be_visible()
    public_url = ada.locator('[data-testid="public-link"]').input_value()

    # A player's page (the history table), from the standings.
    ada.click(f'[data-testid="standing"] >> text={GANGS[d]}')
    expect(ada.locator('[data-testid="player-points"]')).to_have_text("3")
    expect(ada.locator('[data-testid="player-rank"]')).to_contain_text(
        "on Victory Point difference"
    )
    expect(ada.locator('[data-testid="player-history"]')).to_contain_text("Won")
    fits(ada)

    # Round 2: winners meet, losers meet; nobody meets their round-1 opponent.
    ada.goto(league_url)
    ada.click(".league-links >> text=Rounds")
    expect(ada.locator("h1")).to_have_text("Rounds of “Spring Season”")
    fits(ada)
    ada.click('[data-testid="pair-round"]')
    expect(flash(ada)).to_contain_text("Round 2 is paired: 2 tables.")
    expect(ada.locator('[data-testid="round-2"] [data-testid="table"]')).to_have_count(2)
    fits(ada)
    round2 = round_pairs(ada, 2)
    assert not {frozenset(p) for p in round2} & {frozenset(p) for p in round1}
    assert {frozenset(p) for p in round2} == {frozenset((a, d)), frozenset((b, c))}
    expect(ada.locator('[data-testid="league-status"]')).to_have_text("Running")

    # The public page: the standings, for anyone with the link.
    anonymous = pages("anonymous")
    anonymous.goto(public_url)
    expect(anonymous.locator('[data-testid="league-name"]')).to_have_text("Spring Season")
    expect(anonymous.locator("nav.nav")).to_contain_text("Log in")
    rows = standings(anonymous)
    assert [(r["player"], r["points"]) for r in rows] == [(a, "3"), (d, "3"), (c, "0"), (b, "0")]
    assert rows[1]["note"] == "on Victory Point difference"
    expect(anonymous.locator('[data-testid="standing"] a')).to_have_count(0)
    expect(anonymous.locator('[data-testid="public-round"]')).to_have_count(2)
    fits(anonymous)
