"""No English on a French page or PDF, found without the catalogue.

tests/test_i18n_pages.py holds the French pages to the catalogue: it finds a message left
untranslated, but not a word that never reached the catalogue (built in Python, written in
a template without ``{% translate %}``, a game term kept in English). Here every text node
of every page of the French crawl (a signed-in organiser's and a visitor's, over a world
with a gang of every game, a Rivals and a bwg1 campaign each with an encounter, a bwg1
league with a reported match and games at the table) outside the elements marked
``lang="en"``, and every French PDF, is read for English words that are never French
(tests/helpers/english.py: a short list of stop words), and for French typography (a
non-breaking space before ``: ; ! ?``).

What may stay English, and why:

- bwg1's French book's own English terms (Gunslinger, Wrassler, the skill names...):
  ``tests.helpers.english.ALLOWED``;
- what the seed's players wrote (gang, member and weapon names of docs/examples);
- on a page that is not a bwg1 player's, the names of the other four games' things (cards,
  weapons, factions, skills...: their books have no French edition, so their data keep
  the English books' names) and the titles of the books; their rules *texts* must be
  marked ``lang="en"`` on pages. In their PDFs the books' texts (every string of their
  data and of their engine's constants) are allowed as well.

A bwg1 page (the gang's builder, shared page, library and catalogue, the bwg1 campaign,
league and game) and a bwg1 PDF allow nothing but the book's own terms and the players'
names: there the French player meets only French.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from builder import printing
from builder.models import Item
from builder.printing import render as printing_render
from builder.roster import gang_roster, members_with_items
from campaigns import services as campaign_services
from campaigns.leagues.models import Pairing
from play import services as play_services
from tests.helpers.english import english_words, squeezed, without_allowed
from tests.helpers.pdf import pdf_text
from tests.test_i18n_pages import (
    crawl,
    french,
    pair_round,
    read,
    seeded,  # noqa: F401 (a fixture)
    start_encounter,
)

ROOT = Path(settings.BASE_DIR)
EXAMPLES = ROOT / "docs" / "examples"
ENGLISH_BOOKS = ("bwg2", "gf26", "gunfight", "rivals")

#: French typography: a letter, figure or closing mark, then ``: ; ! ?`` with no space or
#: an ordinary one before it (French puts a non-breaking space there), then a space or the
#: end. (``10:30`` and ``https://`` have no space after their colon.)
BAD_SPACING = re.compile(r"[\w)\]»”'](?: ?)[:;!?](?=\s|$)")
#: a time of day ("23:11"), never a French colon: taken out before the spacing is read
# (an allowed name taken out of "23:11" would leave "23:" behind)
TIME_OF_DAY = re.compile(r"\b\d{1,2}:\d{2}\b")


# --------------------------------------------------------------------------- allowed


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def players_names() -> set[str]:
    """What the seed's players wrote: gang, member and own weapon names (not the bwg1
    book's weapons and horses, which French pages name in French), and their own notes on
    a card (an English player's words stay theirs)."""
    from rules.systems import bwg1

    names = set()
    for path in EXAMPLES.glob("*.json"):
        roster = json.loads(path.read_text("utf-8"))
        names.add(roster.get("name") or "")
        for member in roster.get("members", []):
            names.add(member.get("name") or "")
            data = member.get("data") if isinstance(member.get("data"), dict) else {}
            card = data.get("card") if isinstance(data.get("card"), dict) else {}
            names.add(card.get("notes") or "")
            if roster["system"] == "bwg1":
                data = member.get("bwg1") or member.get("data") or member
                for weapon in data.get("weapons", []) if isinstance(data, dict) else []:
                    with translation.override("fr"):
                        french = bwg1.item_name(weapon.get("name", ""), "weapons")
                    if french == weapon.get("name"):  # the book's would show in French
                        names.add(french)
    names.add("My weapons")  # the seed imports in English: that pack's name is its data now
    return {n for n in names if n}


def _constants(module: Path) -> list[str]:
    """The string constants of an engine module (its rules texts), not its messages."""
    tree = ast.parse(module.read_text("utf-8"))
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("_", "ngettext"):
            inside |= {id(n) for n in ast.walk(node)}
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in inside
    ]


def _books_data() -> list:
    """The four English-only games' data: their books' (rules/data/) and our sample cards."""
    data = [
        json.loads(
            (ROOT / "rules" / "systems" / system / "data" / "content.json").read_text("utf-8")
        )
        for system in ENGLISH_BOOKS
    ]
    data.append(json.loads((ROOT / "builder" / "editors" / "bwg2" / "samples.json").read_text()))
    return data


def titles() -> set[str]:
    """The books' titles (names, on every page)."""
    from rules import all_systems

    return {s.name for s in all_systems()}


def books_names() -> set[str]:
    """The names in the four English-only games' data (a card, a weapon, a faction, a
    skill, a tier: short strings, not sentences)."""
    return {
        s for data in _books_data() for s in _strings(data)
        if len(s.split()) <= 8 and not s.endswith((".", ":"))
    }  # fmt: skip


def books_texts() -> set[str]:
    """Every string of the four English-only games' data and engine constants: what their
    PDFs print of their books."""
    texts = {s for data in _books_data() for s in _strings(data)}
    for system in ENGLISH_BOOKS:
        texts |= set(_constants(ROOT / "rules" / "systems" / system / "__init__.py"))
    return {t for t in texts if len(t) > 2}


def english_left(texts, *, allowed) -> dict[str, list[str]]:
    """{text: its English words and bad spacing} for each text node that has any."""
    found = {}
    allowed = frozenset(allowed)
    for text in texts:
        text = squeezed(text)
        words = sorted(english_words(text, also_allowed=allowed))
        bare = without_allowed(TIME_OF_DAY.sub(" ", text), allowed)
        spacing = [m.group(0) for m in BAD_SPACING.finditer(bare)]
        if words or spacing:
            found[text] = words + [f"spacing {s!r}" for s in spacing]
    return found


# --------------------------------------------------------------------------- the world


@pytest.fixture
def world(seeded, client):  # noqa: F811 (seeded: a fixture)
    """The seeded world, and more of bwg1: a bwg1 campaign with an encounter begun, the
    league's match reported, and bwg1 games at the table (from a gang and from the
    league's match)."""
    start_encounter(seeded)
    pair_round(seeded)
    olive, bram = seeded.users["olive"], seeded.users["bram"]
    bwg1 = [g for g in seeded.gangs if g.system == "bwg1"]
    campaign = campaign_services.create_campaign(
        olive, system="bwg1", name="Zorro Gulch", encounters=3, house_rules={}
    )
    mine = campaign_services.join_campaign(campaign, olive, bwg1[0])
    theirs_gang = seeded.league.registrations.get(player=bram).gang
    theirs = campaign_services.join_campaign(campaign, bram, theirs_gang)
    campaign_services.record(campaign, olive, "campaign_started", {})
    response = french(olive).post(
        reverse("encounter_begin", args=[campaign.pk]),
        {"gang": str(mine.pk), "against": str(theirs.pk)},
    )
    assert response.status_code == 302, response.content[:300]
    play_services.start_from_gang(olive, bwg1[0])
    pairing = Pairing.objects.filter(round__league=seeded.league, b__isnull=False).first()
    player = pairing.a.player
    play_services.start_from_pairing(player, pairing)
    play_services.start_from_gang(olive, seeded.gangs[-1])  # a Rivals game too
    seeded.bwg1_campaign = campaign
    return seeded


def bwg1_paths(world) -> re.Pattern:
    """The pages a bwg1 player reads."""
    from play.models import Game

    gangs = [g for g in world.gangs if g.system == "bwg1"]
    gangs += [r.gang for r in world.league.registrations.all() if r.gang]
    items = Item.objects.filter(system="bwg1").values_list("pk", flat=True)
    games = Game.objects.filter(system="bwg1").values_list("pk", flat=True)
    parts = [rf"/gangs/{g.pk}/" for g in gangs] + [rf"/s/{g.share_token}/" for g in gangs]
    parts += [r"/library/bwg1/", r"/weapons/"] + [rf"/(entries|weapons)/{i}/" for i in items]
    parts += [rf"/campaigns/{world.bwg1_campaign.pk}/", rf"/leagues/{world.league.pk}/"]
    parts += [rf"/play/{g}/" for g in games]
    return re.compile("^(" + "|".join(parts) + ")")


def starts_for(world) -> list[str]:
    starts = ["/", reverse("gang_list"), reverse("campaign_list"), reverse("club_list")]
    starts += [reverse("gang_detail", args=[g.pk]) for g in world.gangs]
    starts += [reverse("gang_shared", args=[g.share_token]) for g in world.gangs]
    starts += [
        reverse("campaign_detail", args=[world.campaign.pk]),
        reverse("campaign_detail", args=[world.bwg1_campaign.pk]),
        reverse("club_detail", args=[world.club.pk]),
        reverse("league_detail", args=[world.league.pk]),
        reverse("league_rounds", args=[world.league.pk]),
        reverse("league_public", args=[world.league.public_token]),
        reverse("account"),
        reverse("pack_list"),
        reverse("play_list"),
        reverse("rules"),
        reverse("weapon_list"),
    ]
    return starts


def problems_in(pages: dict[str, str], world) -> dict[str, dict[str, list[str]]]:
    bwg1 = bwg1_paths(world)
    people = players_names() | titles()
    books = books_names()
    left = {}
    for url, html in sorted(pages.items()):
        allowed = people if bwg1.match(urlsplit(url).path) else people | books
        found = english_left(read(html).texts, allowed=allowed)
        if found:
            left[url] = found
    return left


def report(left: dict) -> str:
    lines = []
    for url, found in left.items():
        lines.append(url)
        lines += [f"    {words}: {text[:160]}" for text, words in found.items()]
    return "English (or English spacing) in French:\n" + "\n".join(lines)


# --------------------------------------------------------------------------- pages


def test_no_page_of_the_french_crawl_has_english_outside_lang_en(world):
    pages = crawl(french(world.users["olive"]), starts_for(world))
    assert len(pages) >= 80, sorted(pages)
    bwg1 = bwg1_paths(world)
    assert sum(1 for url in pages if bwg1.match(urlsplit(url).path)) >= 25
    left = problems_in(pages, world)
    assert not left, report(left)


def test_no_page_a_visitor_reaches_in_french_has_english(world):
    starts = ["/", reverse("login"), reverse("signup"), reverse("password_reset")]
    starts += [reverse("rules"), reverse("roster_format"), "/no/such/page/"]
    starts += [reverse("league_public", args=[world.league.public_token])]
    starts += [reverse("gang_shared", args=[g.share_token]) for g in world.gangs]
    pages = crawl(french(), starts)
    assert len(pages) >= 10, sorted(pages)
    left = problems_in(pages, world)
    assert not left, report(left)


# --------------------------------------------------------------------------- PDFs


def _htmls_and_pdfs(gang, monkeypatch) -> list[tuple[str, str, bytes]]:
    """The gang's cards, sheet and quick reference in French: (what, the HTML WeasyPrint
    laid out, the PDF)."""
    laid_out: list[str] = []
    render = printing_render.document

    def keep(html: str):
        laid_out.append(html)
        return render(html)

    monkeypatch.setattr(printing_render, "document", keep)
    roster = gang_roster(gang, list(members_with_items(gang)))
    made = []
    with translation.override("fr"):
        for kind, make in (
            ("cards", lambda: printing.cards_pdf(roster, parallel=False)),
            ("sheet", lambda: printing.sheet_pdf(roster)),
            ("reference", lambda: printing.reference_pdf(roster)),
        ):
            laid_out.clear()
            content = make()
            made.append((kind, laid_out[-1], content))
    return made


def test_no_french_pdf_has_english_outside_lang_en(world, monkeypatch):
    """Every PDF of every game in French: the HTML laid out has no English outside
    ``lang="en"`` but the books' own names and texts; a bwg1 PDF's very text (what
    pypdf reads off the pages) has none but the book's own terms."""
    people = players_names() | titles()
    books = books_names() | books_texts()
    left = {}
    for gang in world.gangs:
        for kind, html, content in _htmls_and_pdfs(gang, monkeypatch):
            what = f"{gang.system} {kind}"
            assert '<html lang="fr">' in html, what
            allowed = people if gang.system == "bwg1" else people | books
            found = english_left(read(html).texts, allowed=allowed)
            if gang.system == "bwg1":
                words = english_left([pdf_text(content)], allowed=people)  # NBSP kept
                found |= {f"(the PDF's text) {t[:80]}…": w for t, w in words.items()}
            if found:
                left[what] = found
    assert not left, report(left)


def test_the_french_chronicle_of_a_bwg1_campaign_has_no_english(world):
    from campaigns import chronicle
    from campaigns.services import state_of

    with translation.override("fr"):
        html = chronicle.chronicle_html(world.bwg1_campaign, state_of(world.bwg1_campaign))
        content = chronicle.render(html)
    assert english_left(read(html).texts, allowed=players_names()) == {}
    left = english_left([pdf_text(content)], allowed=players_names())
    assert not left, report({"bwg1 chronicle": left})


# --------------------------------------------------------------------------- the check


def test_the_check_finds_english_the_catalogue_does_not_know():
    """A word built in Python ("In play"), English spacing ("Str: 4"), an untranslated
    game term ("melee") are found; the book's own terms, a player's name and text marked
    lang="en" are not."""
    html = (
        "<p>Équipement</p><h3>In play</h3><p>Str: 4</p><p>niveau 3 · melee</p>"
        "<p>Gunslinger · Duck &amp; Cover · Run &amp; Gun</p><p>Big Jim</p>"
        '<p lang="en">Roll one D6 per point of RC.</p><p>Force\u00a0: 4</p>'
    )
    found = english_left(read(html).texts, allowed={"Big Jim"})
    assert found == {
        "In play": ["In", "play"],
        "Str: 4": ["spacing 'r:'"],
        "niveau 3 · melee": ["melee"],
    }
