"""Issue 25, in a real browser: an organiser runs a three-round Swiss season for eight
players, on phones.

- The standings at 375 px show every row's rank, gang and points without scrolling
  (the other columns scroll inside the table, with a hint), on the league page and the
  public page, in English and in French; at 1280 px every column shows.
- Links and controls are at least 24 by 24 CSS px (WCAG 2.2, 2.5.8) on the rounds page,
  the match page with its report form, and the other league and club pages.
- A member who has not registered registers from the league page: her only gang is
  chosen already.

The season is made in Python (the league's journey has its own browser test,
test_league_round.py); the tests look at what a player sees.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from builder.services import import_gang
from campaigns import services as campaign_services
from campaigns.leagues import services
from campaigns.leagues.models import League, Pairing, Registration
from rules.roster import read_roster
from tests.browser.conftest import PHONE
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
EXAMPLE = (
    Path(__file__).resolve().parents[2]
    / "docs"
    / "examples"
    / "bwg2-legal-tranquility-crew-700.json"
)
DESKTOP = {"width": 1280, "height": 900}
#: eight players; some gang names are long, as clubs' are
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
ORGANISER = "ada"


@pytest.fixture
def season(db) -> League:
    """Eight players in a Swiss league of three rounds (bwg2, 700 Fame), the organiser
    among them: round 1 confirmed, round 2 paired with nothing reported yet. A ninth
    member, "ivy", has joined the club with one gang and not registered."""
    roster = read_roster(EXAMPLE.read_bytes())
    users = {name: User.objects.create_user(name, password=PASSWORD) for name in PLAYERS}
    club = services.create_club(users[ORGANISER], name="Deadwood Irregulars")
    league = services.create_league(
        club, name="Spring Season", system="bwg2", cap=700, pairing=League.SWISS, rounds=3
    )
    for name, gang_name in PLAYERS.items():
        if name != ORGANISER:
            services.join_club(club, users[name])
        gang = import_gang(users[name], {**roster, "name": gang_name})
        services.register(league, users[name], gang)
    services.next_round(league)
    pairings = Pairing.objects.filter(round__league=league, round__number=1)
    for i, p in enumerate(pairings.select_related("a__player", "b__player").order_by("table")):
        report = services.submit_report(
            p, p.a.player, {"vp_a": 6 + i, "vp_b": 4, "winner": "a" if i % 2 else "b"}
        )
        services.confirm_report(report, p.b.player)
    services.next_round(league)
    ivy = User.objects.create_user("ivy", password=PASSWORD)
    services.join_club(club, ivy)
    import_gang(ivy, {**roster, "name": "Ivy's Lone Riders"})
    league.refresh_from_db()
    return league


@contextmanager
def phone(browser: Browser, base_url: str, username: str | None = None, locale: str = "en-GB"):
    """A phone-sized page whose browser asks for ``locale``, logged in as ``username``."""
    context = browser.new_context(viewport=PHONE, locale=locale)
    if username is not None:
        client = Client()
        client.force_login(User.objects.get(username=username))
        session = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": session, "url": base_url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield page
    finally:
        context.close()


def fits(page: Page) -> None:
    page.wait_for_load_state()
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.evaluate("window.innerWidth")
    assert width <= viewport, f"{page.url} is {width} px wide in a {viewport} px window"


# --------------------------------------------------------------------------- standings

SEEN = """pointsWord => {
  const rows = [...document.querySelectorAll('[data-testid="standing"]')];
  const wrap = document.querySelector('[data-testid="standings"]').closest('.table-wrap');
  const box = wrap.getBoundingClientRect();
  const right = Math.min(box.right, window.innerWidth), left = Math.max(box.left, 0);
  const seen = el => { const r = el.getBoundingClientRect();
    return {text: el.textContent.trim(), shown: r.left >= left - 0.5 && r.right <= right + 0.5
      && r.width > 0 && r.height > 0}; };
  return {
    scrolls: wrap.scrollWidth > wrap.clientWidth,
    header: seen([...document.querySelectorAll('[data-testid="standings"] thead th')]
      .find(th => th.textContent.trim() === pointsWord)),
    rows: rows.map(row => ({
      rank: seen(row.querySelector('td.rank')),
      gang: seen(row.querySelector('.gang-name')),
      points: seen(row.querySelector('td.points')),
      last: seen(row.lastElementChild),
    })),
  };
}"""


def assert_standings_seen(page: Page, *, phone_sized: bool, points_word: str) -> None:
    seen = page.evaluate(SEEN, points_word)
    assert len(seen["rows"]) == len(PLAYERS)
    assert seen["header"] == {"text": points_word, "shown": True}
    for row in seen["rows"]:
        for cell in ("rank", "gang", "points"):
            assert row[cell]["shown"], f"{page.url}: {cell} hidden in {row}"
    assert sorted(row["gang"]["text"] for row in seen["rows"]) == sorted(PLAYERS.values())
    assert [int(row["points"]["text"]) for row in seen["rows"]] == [3] * 4 + [0] * 4
    hint = page.locator(".swipe-hint")
    if phone_sized:
        # the last columns are there to scroll to, and the page says so
        assert seen["scrolls"] and not any(row["last"]["shown"] for row in seen["rows"])
        expect(hint).to_be_visible()
    else:
        assert not seen["scrolls"] and all(row["last"]["shown"] for row in seen["rows"])
        expect(hint).to_be_hidden()
    fits(page)


@pytest.mark.parametrize("locale,points_word", [("en-GB", "Points"), ("fr-FR", "Points")])
def test_the_standings_show_rank_gang_and_points_on_a_phone(
    browser, live_server, season, locale, points_word
):
    language = locale[:2].lower()
    urls = {
        "league page": (live_server.url + reverse("league_detail", args=[season.pk]), "bo"),
        "public page": (
            live_server.url + reverse("league_public", args=[season.public_token]),
            None,
        ),
    }
    for url, username in urls.values():
        with phone(browser, live_server.url, username, locale) as page:
            page.goto(url)
            expect(page.locator("html")).to_have_attribute(
                "lang", "fr" if language == "fr" else "en-gb"
            )
            assert_standings_seen(page, phone_sized=True, points_word=points_word)
            page.set_viewport_size(DESKTOP)
            assert_standings_seen(page, phone_sized=False, points_word=points_word)


# --------------------------------------------------------------------------- target sizes

SMALL_TARGETS = """() => {
  for (const d of document.querySelectorAll('main details')) d.open = true;
  const small = [];
  const targets = 'main a[href], main button, main input:not([type=hidden]), main select, '
    + 'main textarea, main summary, main label:has(input[type=radio]), '
    + 'main label:has(input[type=checkbox])';
  for (const el of document.querySelectorAll(targets)) {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;  // not shown
    if (getComputedStyle(el).visibility === 'hidden') continue;
    if (r.width < 24 || r.height < 24) {
      const what = (el.textContent || '').trim().slice(0, 40) || el.name || el.type || '';
      const size = `${r.width.toFixed(1)} x ${r.height.toFixed(1)}`;
      small.push(`${el.tagName.toLowerCase()} "${what}" ${size}`);
    }
  }
  return small;
}"""


def assert_targets(page: Page) -> None:
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"{page.url}: targets under 24 by 24 px: {small}"


def test_links_and_controls_are_at_least_24_px_on_the_rounds_page_and_report_form(
    browser, live_server, season
):
    base = live_server.url
    rounds = base + reverse("league_rounds", args=[season.pk])
    mine = Pairing.objects.get(
        Q(a__player__username=ORGANISER) | Q(b__player__username=ORGANISER),
        round__league=season,
        round__number=2,
    )
    with phone(browser, base, ORGANISER) as page:
        page.goto(rounds)
        # the round tables' links ("Confirmed", "Report", "Not reported"), breadcrumbs
        # and buttons, the swap form of round 2 (nothing reported yet)
        round1 = page.locator('[data-testid="round-1"] [data-testid="match-link"]')
        expect(round1.first).to_have_text("Confirmed")
        expect(page.locator('[data-testid="swap-2"]')).to_be_attached()
        href = reverse("match_detail", args=[season.pk, mine.pk])
        mine_link = page.locator(f'[data-testid="round-2"] a[href="{href}"]')
        expect(mine_link).to_have_text("Report")
        box = mine_link.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box
        assert_targets(page)
        fits(page)

        # the report form: the winner's radio buttons, the book's scenario chips, the
        # organiser's settle form, the breadcrumbs
        mine_link.click()
        expect(page.locator('[data-testid="report-form"]')).to_be_visible()
        radio = page.locator('[data-testid="report-form"] input[name="winner"]').first
        box = radio.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box
        crumb = page.locator("nav.crumbs a").first
        box = crumb.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box
        assert_targets(page)
        fits(page)
        # the radio buttons still work as such: a tap on a label checks its button
        page.locator('label[for="id_winner_1"]').click()
        expect(page.locator("#id_winner_1")).to_be_checked()
        expect(page.locator("#id_winner_0")).not_to_be_checked()


def test_links_and_controls_are_at_least_24_px_on_the_other_league_and_club_pages(
    browser, live_server, season
):
    base = live_server.url
    reg = Registration.objects.get(league=season, player__username="bo")
    pages = {
        ORGANISER: [
            reverse("league_detail", args=[season.pk]),
            reverse("league_player", args=[season.pk, reg.pk]),
            reverse("league_register", args=[season.pk]),
            reverse("league_settings", args=[season.pk]),
            reverse("club_detail", args=[season.club_id]),
            reverse("club_list"),
        ],
        "ivy": [reverse("league_detail", args=[season.pk])],
        None: [reverse("league_public", args=[season.public_token])],
    }
    for username, urls in pages.items():
        with phone(browser, base, username) as page:
            for url in urls:
                page.goto(base + url)
                assert_targets(page)
                fits(page)


# --------------------------------------------------------------------------- registering


def test_a_member_registers_from_the_league_page_with_her_only_gang_chosen(
    browser, live_server, season
):
    """Ivy joined the club and has one Blackwater Gulch gang. The spring season runs (a
    late entry to a Swiss league goes through the Register page): its page offers her
    nothing. The autumn season takes registrations: its page offers her to play, her
    gang already chosen; one tap registers her."""
    autumn = services.create_league(
        season.club, name="Autumn Season", system="bwg2", cap=700, pairing=League.SWISS
    )
    base = live_server.url
    with phone(browser, base, "ivy") as page:
        page.goto(base + reverse("league_detail", args=[season.pk]))
        expect(page.locator('[data-testid="own-join"]')).to_have_count(0)
        page.goto(base + reverse("league_detail", args=[autumn.pk]))
        offer = page.locator('[data-testid="own-join"]')
        expect(offer).to_be_visible()
        select = offer.locator("select")
        expect(select).to_have_value(str(User.objects.get(username="ivy").gangs.get().pk))
        shown = select.evaluate("s => s.options[s.selectedIndex].textContent")
        assert shown == "Ivy's Lone Riders"
        expect(offer.locator('[data-testid="only-gang"]')).to_contain_text(
            "“Ivy's Lone Riders” is your only Blackwater Gulch 2nd edition gang"
        )
        fits(page)
        offer.locator('[data-testid="own-join-submit"]').click()
        expect(page.locator("ul.messages")).to_contain_text(
            "You registered “Ivy's Lone Riders” in “Autumn Season”."
        )
        expect(page.locator('[data-testid="standing"]')).to_have_count(1)
        expect(page.locator('[data-testid="own-join"]')).to_have_count(0)


def test_links_and_controls_are_at_least_24_px_on_the_campaign_pages(browser, live_server):
    """A campaign being set up (its join page, for a player who joined and for one who
    has not) and one running, with the organiser's pages: list, home, history, a gang's
    page with its Print menu, and the set-up form."""
    examples = EXAMPLE.parent
    rider = User.objects.create_user("rider", password=PASSWORD)
    other = User.objects.create_user("other", password=PASSWORD)
    User.objects.create_user("newcomer", password=PASSWORD)
    outlaws = read_roster((examples / "rivals-legal-six-outlaws.json").read_bytes())
    red_jacks = read_roster((examples / "rivals-legal-red-jacks-gang.json").read_bytes())
    setup = campaign_services.create_campaign(
        rider, system="rivals", name="Setting up", encounters=4, house_rules={}
    )
    campaign_services.join_campaign(setup, other, import_gang(other, outlaws))
    running = campaign_services.create_campaign(
        rider, system="rivals", name="Deadrock", encounters=4, house_rules={}, solo_play=True
    )
    red = campaign_services.join_campaign(running, rider, import_gang(rider, red_jacks))
    campaign_services.join_campaign(running, rider, import_gang(rider, outlaws))
    campaign_services.record(running, rider, "campaign_started", {})
    join = reverse("campaign_join", args=[setup.invite_token])
    pages = {
        "rider": [
            reverse("campaign_list"),
            reverse("campaign_create"),
            reverse("campaign_detail", args=[setup.pk]),
            reverse("campaign_detail", args=[running.pk]),
            reverse("campaign_history", args=[running.pk]),
            reverse("campaign_gang", args=[running.pk, red.pk]),
        ],
        "other": [join],
        "newcomer": [join],
    }
    base = live_server.url
    for username, urls in pages.items():
        with phone(browser, base, username) as page:
            for url in urls:
                page.goto(base + url)
                assert_targets(page)
                fits(page)
