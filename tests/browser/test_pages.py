"""Every page a person can reach, looked at in chromium: logged out, as a player and as an
organiser, in English and in French, at 375 and at 1280 px.

The pages are found by following links from each role's start pages (the test client's
crawl of tests/test_i18n_pages.py, over a seeded world: a gang of every game, a Rivals
campaign with an encounter, a club with a league and a reported match, a game at the
table), one page of each shape (one copy form of the fifty entries, but every gang's own
builder page and one open member of each). Each is loaded in chromium and fails on what a
person would see wrong (tests/browser/look.js):

- template code in the text (``{%``, ``{{``, ``%}``, ``}}``);
- a page wider than the window; an element sticking out of the window or of its panel;
- at 375 px, a table whose first column (the rank or the name) or points are off screen;
- a control smaller than 24 by 24 px with another within its 24 px circle (WCAG 2.5.8);
- a number in a style or a data- value written in the reader's format (French "2,5");
- a console error or an uncaught script error;
- an accessibility violation found by axe-core (static/vendor/axe-core), at 375 px;
- in French, an English message of the catalogue outside ``lang="en"``.

A screenshot of every page at both widths is saved in test-artifacts/pages/.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from play import services as play_services
from tests.browser.conftest import CHROMIUM_ARGS  # noqa: F401 (the browser fixture's flags)
from tests.test_i18n_pages import (
    DATA_WORDS,
    crawl,
    english_left,
    english_messages,
    pair_round,
    seeded,  # noqa: F401 (a fixture)
    start_encounter,
)

pytestmark = pytest.mark.browser

ROOT = Path(settings.BASE_DIR)
LOOK = (Path(__file__).parent / "look.js").read_text()
AXE = ROOT / "static" / "vendor" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts" / "pages"
WIDTHS = (375, 1280)
LANGUAGES = ("en-gb", "fr")


def shape(url: str) -> str:
    """What makes two pages the same kind of page: the path with its numbers taken out
    (but a gang's own builder page, one per game, and its open member), and the names of
    its query's fields."""
    path, _, query = url.partition("?")
    key = re.sub(r"\d+", "N", path)
    if re.fullmatch(r"/gangs/\d+/", path):
        key = path  # each gang is another game's builder
    if query:
        key += "?" + ",".join(sorted(part.split("=")[0] for part in query.split("&")))
    return key


def one_of_each(urls) -> list[str]:
    chosen: dict[str, str] = {}
    for url in sorted(urls, key=lambda u: (len(u), u)):
        chosen.setdefault(shape(url), url)
    return sorted(chosen.values())


@pytest.fixture
def world(seeded):  # noqa: F811 (seeded: a fixture)
    """The seeded world with an encounter begun, a league match reported and a game at
    the table."""
    start_encounter(seeded)
    pair_round(seeded)
    play_services.start_from_gang(seeded.users["olive"], seeded.gangs[-1])
    return seeded


def pages_for(role: str, world) -> tuple[Client, list[str]]:
    """The role's client (logged in, or not) and one page of each shape it reaches."""
    client = Client()
    starts = ["/", reverse("rules"), reverse("roster_format")]
    starts += [reverse("league_public", args=[world.league.public_token])]
    starts += [reverse("gang_shared", args=[g.share_token]) for g in world.gangs]
    if role == "visitor":
        starts += [reverse("login"), reverse("signup"), reverse("password_reset")]
    else:
        client.force_login(world.users["olive" if role == "organiser" else "bram"])
        starts += [
            reverse("gang_list"),
            reverse("campaign_list"),
            reverse("club_list"),
            reverse("account"),
            reverse("pack_list"),
            reverse("play_list"),
            reverse("campaign_detail", args=[world.campaign.pk]),
            reverse("club_detail", args=[world.club.pk]),
            reverse("league_detail", args=[world.league.pk]),
            reverse("league_rounds", args=[world.league.pk]),
        ]
    return client, one_of_each(crawl(client, starts))


def slug(url: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", url).strip("-") or "home"


def french_left(html: str, url: str, messages, world) -> set[str]:
    whole, stretches = messages
    found = english_left(html, whole, stretches)
    bwg1 = {reverse("gang_detail", args=[g.pk]) for g in world.gangs if g.system == "bwg1"}
    if urlsplit(url).path not in bwg1:
        found -= DATA_WORDS
    return found


def axe_violations(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map(v => `${v.id} (${v.impact}): ${v.help}: ` +
                v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | "));
        }"""
    )
    return list(found)


def look_at(browser, live_server, world, client, urls, role: str, language: str) -> dict:
    """Each page in ``language`` as the role sees it: {url: what is wrong}."""
    context = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True)
    host = urlsplit(live_server.url).hostname
    cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language}]
    if role != "visitor":
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": session})
    context.add_cookies([{**c, "domain": host, "path": "/"} for c in cookies])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    messages = english_messages() if language == "fr" else None
    folder = ARTIFACTS / f"{role}-{language}"
    folder.mkdir(parents=True, exist_ok=True)
    lang = "fr" if language == "fr" else "en-gb"
    problems: dict[str, list[str]] = {}
    for url in urls:
        found: list[str] = []
        errors.clear()
        page.set_viewport_size({"width": 375, "height": 812})
        response = page.goto(live_server.url + url, wait_until="load")
        expected = 404 if url == "/no/such/page/" else 200
        if response is None or response.status != expected:
            found.append(f"answered {response and response.status}, not {expected}")
        if not page.locator("main").inner_text().strip():
            found.append("the page shows nothing in <main>")
        if page.evaluate("document.documentElement.lang") != lang:
            found.append(f"<html lang> is {page.evaluate('document.documentElement.lang')}")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 812})
            found += [f"at {width} px: {p}" for p in page.evaluate(LOOK)]
            page.screenshot(path=str(folder / f"{slug(url)}-{width}.png"))
        page.set_viewport_size({"width": 375, "height": 812})
        found += [f"axe: {v}" for v in axe_violations(page)]
        if language == "fr":
            left = french_left(page.content(), url, messages, world)
            found += [f"English in French: {sorted(left)}"] if left else []
        status_404 = "the server responded with a status of 404"
        found += [f"console: {e}" for e in errors if not (expected == 404 and status_404 in e)]
        if found:
            problems[f"{url} ({language})"] = found
    context.close()
    return problems


@pytest.mark.parametrize("role", ["visitor", "player", "organiser"])
def test_every_page_looks_right(browser, live_server, world, role):
    client, urls = pages_for(role, world)
    urls.append("/no/such/page/")  # the 404 page is a page too
    assert len(urls) >= (8 if role == "visitor" else 40), urls
    problems = {}
    for language in LANGUAGES:
        problems |= look_at(browser, live_server, world, client, urls, role, language)
    assert not problems, "\n".join(
        f"{url}:\n  " + "\n  ".join(found) for url, found in sorted(problems.items())
    )
