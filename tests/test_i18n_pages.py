"""Every page in French: a test-client crawl of what a signed-in player and a visitor can
reach (links followed from the home page, plus the pages of a seeded gang of every game, a
Rivals campaign with an encounter, a club and a league with a round), in French, with the
visible text (and the titles, labels and messages that scripts show) compared against the
English catalogue: no message of the app's own may be left in English.

What is allowed to stay English, on purpose:

- text inside an element marked ``lang="en"``: rules texts of the books that have no French
  edition (rules.base.text_language) and the rules' summaries and decisions (docs);
- game data and what users wrote: gang, member, club, league and pack names, card, weapon
  and skill names, faction and troop names (they are data, not messages; the seed's names
  are chosen so none is an English message);
- a message whose French is the same word ("Code", "Gangfight", "Str", "XP"...: its
  translation equals its msgid, so it is never looked for);
- EXCEPTIONS below, each with its reason.
"""

from __future__ import annotations

import re
from collections import deque
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urldefrag, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from builder.services import import_gang
from campaigns import services as campaign_services
from campaigns.leagues import services as league_services
from campaigns.leagues.models import League, Pairing
from rules.roster import read_roster
from tests.test_french import read_po, translations

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
PAGES_MAX = 400

#: English text a French page may show, and why.
EXCEPTIONS = {
    # the site's name is a name
    "Gangfight",
}

#: Game data of the books without a French edition (their names stay as the English books
#: print them) that happen to be messages too: allowed on every page but a bwg1 gang's,
#: where the French book's terms must show.
DATA_WORDS = {
    "Outlaw",  # Gunfight's character type, bwg2's faction "Outlaws"
    "Outlaws",
    "Leader",  # a Gunfight special ability
    "Skill",  # Rivals: the skill rows of a Wanted Poster
    "Speed",
    "Horse",  # Rivals: an item of an equipment pack
    "Lawman",
}

#: Paths not crawled: they change state on GET-free views, are downloads, or are not ours.
SKIP = re.compile(
    r"^/(admin/|language/|accounts/logout/|static/)"
    r"|/(export|download|print|pdf|chronicle|csv|schema)"
    r"|\.(json|csv|pdf|zip)$"
)

PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sd]|\{\w*\}|<[^>]+>")


# --------------------------------------------------------------------------- the catalogue


def english_messages() -> tuple[set[str], list[str]]:
    """The catalogue's English messages whose French differs: (whole messages, for text
    nodes that are exactly one; long literal stretches of messages, for any text)."""
    whole: set[str] = set()
    stretches: set[str] = set()
    catalogue = Path(settings.LOCALE_PATHS[0]) / "fr" / "LC_MESSAGES" / "django.po"
    for entry in read_po(catalogue):
        if not entry["msgid"]:
            continue
        french = translations(entry)
        for english in filter(None, (entry["msgid"], entry.get("msgid_plural"))):
            if english in french or english in EXCEPTIONS:
                continue
            text = " ".join(english.split())
            if not PLACEHOLDER.search(text) and re.search(r"[A-Za-z]{2}", text):
                whole.add(text)
            for part in PLACEHOLDER.split(text):
                part = part.strip(" .,:;·—()")
                if len(part) >= 18 and part.count(" ") >= 2 and part not in french[0]:
                    stretches.add(part)
    return whole, sorted(stretches, key=len, reverse=True)


# --------------------------------------------------------------------------- the pages


class Visible(HTMLParser):
    """A page's text nodes as a reader meets them (and the attribute texts a screen reader
    or a script shows), leaving out scripts, styles and elements marked lang="en"."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}  # fmt: skip
    ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "hx-confirm")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []
        self.links: list[str] = []

    @property
    def hidden(self) -> bool:
        return any(h for _t, h in self.stack)

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        hidden = tag in ("script", "style", "template") or values.get("lang") == "en"
        if tag == "a" and values.get("href"):
            self.links.append(values["href"])
        if not hidden and not self.hidden:
            for name, value in attrs:
                if value and (
                    name in self.ATTRIBUTES or (name.startswith("data-") and " " in value)
                ):
                    self.texts.append(value)
            if (
                tag == "input"
                and values.get("type") in ("submit", "button")
                and values.get("value")
            ):
                self.texts.append(values["value"])
        if tag not in self.VOID:
            self.stack.append((tag, hidden))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data)


def read(html: str) -> Visible:
    page = Visible()
    page.feed(html)
    return page


def english_left(html: str, whole: set[str], stretches: list[str]) -> set[str]:
    page = read(html)
    texts = [" ".join(t.split()) for t in page.texts]
    found = {t for t in texts if t in whole}
    everything = "\n".join(texts)
    found |= {s for s in stretches if s in everything}
    return found - EXCEPTIONS


def crawl(client: Client, starts: list[str]) -> dict[str, str]:
    """GET every page reachable from ``starts`` by links (our own paths, no downloads):
    {path: html} of the pages answered 200 with HTML."""
    seen: set[str] = set()
    pages: dict[str, str] = {}
    queue = deque(starts)
    while queue and len(seen) < PAGES_MAX:
        url = urldefrag(queue.popleft())[0]
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path.startswith("/"):
            continue
        if url in seen or SKIP.search(parts.path):
            continue
        seen.add(url)
        response = client.get(url)
        assert response.status_code in (200, 302, 403, 404), (url, response.status_code)
        if response.status_code == 302:
            queue.append(response["Location"])
            continue
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        pages[url] = html
        queue.extend(read(html).links)
    return pages


def french(user: User | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")  # the cookie wins over the browser
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    if user is not None:
        client.force_login(user)
    return client


# --------------------------------------------------------------------------- the seed


def example(user: User, name: str, gang_name: str):
    roster = read_roster((EXAMPLES / name).read_bytes())
    roster["name"] = gang_name
    return import_gang(user, roster)


@pytest.fixture
def seeded(db, content):
    """Olive's gang of every game; a running Rivals campaign (Olive organises; Olive and
    Bram play); a club of Olive, Bram and Cleo with a bwg1 league. (The tests then begin an
    encounter, pair round 1 and report a result, through the views and services.)"""
    users = {
        n: User.objects.create_user(n, password="x-long-enough-1")
        for n in ("olive", "bram", "cleo")
    }
    olive, bram, cleo = users["olive"], users["bram"], users["cleo"]
    gangs = [
        example(olive, "bwg1-legal-dalton-boys.json", "Zorro Uno"),
        example(olive, "bwg1-illegal-too-many-chiefs.json", "Zorro Duo"),
        example(olive, "bwg2-legal-switch-sides-325.json", "Zorro Tres"),
        example(olive, "gf26-legal-iron-company.json", "Zorro Quatro"),
        example(olive, "gunfight-legal-lawman-posse.json", "Zorro Cinco"),
        example(olive, "rivals-legal-red-jacks-gang.json", "Zorro Seis"),
    ]
    campaign = campaign_services.create_campaign(
        olive, system="rivals", name="Zorro Campaña", encounters=5, house_rules={}
    )
    mine = campaign_services.join_campaign(campaign, olive, gangs[-1])
    theirs = campaign_services.join_campaign(
        campaign, bram, example(bram, "rivals-legal-six-outlaws.json", "Zorro Siete")
    )
    campaign_services.record(campaign, olive, "campaign_started", {})
    club = league_services.create_club(olive, name="Zorro Club")
    for user in (bram, cleo):
        league_services.join_club(club, user)
    league = league_services.create_league(
        club, name="Zorro Liga", system="bwg1", cap=400, pairing=League.ROUND_ROBIN, rounds=3
    )
    for user, name in ((olive, None), (bram, "Zorro Ocho"), (cleo, "Zorro Nueve")):
        gang = gangs[0] if name is None else example(user, "bwg1-legal-dalton-boys.json", name)
        league_services.register(league, user, gang)
    return SimpleNamespace(
        users=users, gangs=gangs, campaign=campaign, a=mine, b=theirs, club=club, league=league
    )


def start_encounter(seeded) -> None:
    """Begin a Rivals encounter (Olive v Bram) through its view, as a player would."""
    client = french(seeded.users["olive"])
    response = client.post(
        reverse("encounter_begin", args=[seeded.campaign.pk]),
        {"gang": str(seeded.a.pk), "against": str(seeded.b.pk)},
    )
    assert response.status_code == 302, response.content[:300]


def pair_round(seeded) -> None:
    """Pair round 1 through its view, and report the result of its match."""
    client = french(seeded.users["olive"])
    response = client.post(reverse("league_next_round", args=[seeded.league.pk]))
    assert response.status_code == 302, response.content[:300]
    pairing = Pairing.objects.get(round__league=seeded.league, b__isnull=False)
    league_services.submit_report(
        pairing, pairing.a.player, {"vp_a": 7, "vp_b": 3, "winner": "a", "scenario": "Zorro"}
    )


# --------------------------------------------------------------------------- the tests


def test_every_page_a_player_reaches_is_in_french(seeded):
    start_encounter(seeded)
    pair_round(seeded)
    whole, stretches = english_messages()
    assert len(whole) > 500 and len(stretches) > 300  # the catalogue is there
    olive = seeded.users["olive"]
    starts = ["/", reverse("gang_list"), reverse("campaign_list"), reverse("club_list")]
    starts += [reverse("gang_detail", args=[g.pk]) for g in seeded.gangs]
    starts += [
        reverse("campaign_detail", args=[seeded.campaign.pk]),
        reverse("club_detail", args=[seeded.club.pk]),
        reverse("league_detail", args=[seeded.league.pk]),
        reverse("league_rounds", args=[seeded.league.pk]),
        reverse("account"),
        reverse("pack_list"),
        reverse("rules"),
    ]
    pages = crawl(french(olive), starts)
    assert len(pages) >= 60, sorted(pages)
    for must in starts:
        assert must in pages, must
    bwg1 = {reverse("gang_detail", args=[g.pk]) for g in seeded.gangs if g.system == "bwg1"}
    left = {}
    for url, html in pages.items():
        found = english_left(html, whole, stretches)
        if urlsplit(url).path not in bwg1:
            found -= DATA_WORDS
        if found:
            left[url] = found
    assert left == {}, "English left in French pages (translate, or mark lang=en): " + "\n".join(
        f"{url}: {sorted(found)}" for url, found in sorted(left.items())
    )
    for url, html in pages.items():
        assert '<html lang="fr"' in html, url


def test_every_page_a_visitor_reaches_is_in_french(seeded):
    whole, stretches = english_messages()
    starts = [
        "/",
        reverse("login"),
        reverse("signup"),
        reverse("password_reset"),
        reverse("rules"),
        reverse("roster_format"),
        reverse("league_public", args=[seeded.league.public_token]),
        "/no/such/page/",
    ]
    pages = crawl(french(), starts)
    assert len(pages) >= 6, sorted(pages)
    left = {url: english_left(html, whole, stretches) - DATA_WORDS for url, html in pages.items()}
    left = {url: found for url, found in left.items() if found}
    assert left == {}, "\n".join(f"{url}: {sorted(found)}" for url, found in sorted(left.items()))


def test_the_check_finds_english_when_there_is_some(seeded):
    """The comparison is not blind: the same page in English is caught."""
    whole, stretches = english_messages()
    client = Client()
    client.force_login(seeded.users["olive"])
    html = client.get(reverse("gang_list")).content.decode()
    assert english_left(html, whole, stretches) >= {"My gangs", "New gang"}
    hidden = '<p lang="en">Delete the gang</p><p>Supprimer</p>'
    assert english_left(hidden, whole, stretches) == set()
