"""A sixth game, end to end: Duel at Dawn (``tests/systems``), a game made for the tests.

It has one member type (the gunhand), one stat (grit, 1 to 3), a points limit (50), two
rules (DUEL-OVER-LIMIT, DUEL-GRIT), a card and a tracker, and it lives in its own folders
alone: ``tests/systems/rules/duel`` (its rules, and ``play.py``'s tracker; no
``campaign.py``, so the generic progression serves) and ``tests/systems/editors/duel``
(its builder). ``conftest.py`` registers both packages for these tests.

Each journey goes through the app's real pages with Django's test client, as a player
does, and checks what the player reads: the builder (create the gang, add, set and remove
gunhands), the rules' verdict, the cards, sheet and reference PDFs, the roster file out
and back in, a campaign with one encounter, a league, and a game in play mode. The last
tests check that the five real games' code never names this one.
"""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from builder import editors, services
from builder.models import Gang, Member
from campaigns import services as campaign_services
from campaigns.leagues.models import Club, League, Registration
from campaigns.models import Campaign, CampaignGang
from play.models import Game, TapEvent
from rules import all_systems, get_system, registry
from rules.campaign import XPProgression, progression_for
from rules.play import tracker_for
from rules.roster import check_roster
from tests.helpers.pages import text_of
from tests.helpers.pdf import blank_pages, pdftotext, rasterise
from tests.helpers.users import client_for, make_user
from tests.systems.conftest import EDITORS_PACKAGE, RULES_PACKAGE

pytestmark = pytest.mark.django_db

REAL_GAMES = {"bwg1", "bwg2", "gf26", "rivals", "gunfight"}


# --------------------------------------------------------------------------- helpers


def gang_page(client: Client, gang: Gang, member: Member | None = None) -> str:
    url = reverse("gang_detail", args=[gang.pk])
    if member is not None:
        url += f"?open={member.pk}"
    response = client.get(url)
    assert response.status_code == 200
    return text_of(response)


def gang_action(client: Client, gang: Gang, action: str, **fields: str):
    """A gang action posted as the page's form does (its fields carry the action's prefix)."""
    data = {f"{action}-{name}": value for name, value in fields.items()}
    return client.post(reverse("gang_action", args=[gang.pk, action]), data)


def member_action(client: Client, member: Member, action: str, **fields: str):
    data = {f"m{member.pk}-{action}-{name}": value for name, value in fields.items()}
    data["open"] = str(member.pk)
    return client.post(reverse("member_action", args=[member.gang_id, member.pk, action]), data)


def status_of(html: str) -> str:
    """The sticky bar's verdict: "Legal" or "Illegal · N error(s)"."""
    found = re.search(r'data-testid="status"[^>]*>(.*?)</a>', html, re.S)
    assert found, "no status on the page"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def finding_codes(html: str) -> list[str]:
    """The codes in the page's "What the rules say" panel."""
    start = html.index('data-testid="findings"')
    panel = html[start : html.index("</section>", start)]
    return re.findall(r'data-code="([^"]+)"', panel)


def words(html: str) -> str:
    """A page's text as a reader sees it: tags gone, white space squeezed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def member(gang: Gang, name: str) -> Member:
    return gang.members.get(name=name)


def dawn_gang(owner: User, name: str, grits: dict[str, int], limit: int | None = 50) -> Gang:
    """A Duel at Dawn gang made by the builder's services (for the journeys after the
    builder's own): one gunhand per name, with its grit."""
    gang = services.create_gang(owner, system="duel", name=name, limit=limit)
    for gunhand, grit in grits.items():
        services.append_member(gang, name=gunhand, data={"type": "gunhand", "grit": grit})
    return gang


@pytest.fixture
def wyatt(db) -> User:
    return make_user("wyatt")


@pytest.fixture
def ike(db) -> User:
    return make_user("ike")


# --------------------------------------------------------------------------- the registry


def test_the_sixth_game_is_registered_for_these_tests_and_for_them_alone():
    assert {s.id for s in all_systems()} == REAL_GAMES | {"duel"}
    system = get_system("duel")
    assert (system.name, system.limit_presets, system.default_limit) == (
        "Duel at Dawn",
        (50,),
        50,
    )
    assert [r.code for r in system.rules] == ["DUEL-OVER-LIMIT", "DUEL-GRIT"]
    editor = editors.get_editor("duel")
    assert editor.edits_in_browser and editor.add_action == "add_gunhand"
    # its parts are found by the registry: its own tracker, the generic progression
    assert type(tracker_for("duel")).__name__ == "DuelTracker"
    assert registry.progression_class("duel") is None
    assert type(progression_for("duel")) is XPProgression
    # taken away (as after each test here), the app knows the five real games again
    editors.remove_package(EDITORS_PACKAGE)
    registry.remove_package(RULES_PACKAGE)
    try:
        assert {s.id for s in all_systems()} == REAL_GAMES
        assert not editors.get_editor("duel").edits_in_browser
        with pytest.raises(KeyError):
            get_system("duel")
    finally:
        registry.add_package(RULES_PACKAGE)
        editors.add_package(EDITORS_PACKAGE)


def test_the_rules_page_lists_its_two_rules(client):
    html = text_of(client.get(reverse("rules")))
    assert "Duel at Dawn" in html
    assert "DUEL-OVER-LIMIT" in html and "DUEL-GRIT" in html


# --------------------------------------------------------------------------- the builder


def test_build_a_gang_in_the_browser_and_see_the_rules_verdict(wyatt):
    client = client_for(wyatt)
    # The new-gang form offers the game, with its limit's help.
    form = text_of(client.get(reverse("gang_create")))
    assert '<option value="duel">Duel at Dawn</option>' in form
    assert "Duel at Dawn: usually 50." in form
    response = client.post(
        reverse("gang_create"), {"name": "Dawn Patrol", "system": "duel", "limit": ""}
    )
    gang = Gang.objects.get(name="Dawn Patrol")
    assert response.status_code == 302
    assert response["Location"] == reverse("gang_detail", args=[gang.pk])
    assert (gang.system, gang.limit) == ("duel", 50)  # the game's usual limit

    # An empty gang: the editor's own controls (its package's template), legal at 0 of 50.
    html = gang_page(client, gang)
    assert "Duel at Dawn" in html
    assert 'data-testid="duel-add"' in html and 'data-testid="add_gunhand"' in html
    assert "No gunhands yet: add the first below." in html
    assert status_of(html) == "Legal"

    # Add two gunhands: each opens in its panel, with grit 1 (10 points).
    for name in ("Doc", "Kid"):
        response = gang_action(client, gang, "add_gunhand", name=name)
        assert response.status_code == 302
        added = member(gang, name)
        assert f"?open={added.pk}" in response["Location"]
        assert added.data == {"type": "gunhand", "grit": 1}
    doc, kid = member(gang, "Doc"), member(gang, "Kid")
    html = gang_page(client, gang, doc)
    assert 'data-testid="grit"' in html and 'data-testid="remove"' in html  # Doc's panel
    assert re.search(r'data-testid="fame">20<', html)

    # Grit 3 and 2: 50 points, exactly the limit: legal, nothing to fix.
    assert member_action(client, doc, "grit", grit="3").status_code == 302
    assert member_action(client, kid, "grit", grit="2").status_code == 302
    html = gang_page(client, gang)
    assert re.search(r'data-testid="fame">50<', html)
    assert status_of(html) == "Legal"
    assert finding_codes(html) == []
    assert "Nothing to fix: the gang is legal." in html

    # A third gunhand: 60 points, over the limit.
    gang_action(client, gang, "add_gunhand", name="Ringo")
    ringo = member(gang, "Ringo")
    html = gang_page(client, gang)
    assert re.search(r'data-testid="fame">60<', html)
    assert status_of(html) == "Illegal · 1 error"
    assert finding_codes(html) == ["DUEL-OVER-LIMIT"]
    assert (
        "The gang costs 60 points, 10 over its limit of 50: lower a gunhand's grit or "
        "remove a gunhand." in html
    )

    # A grit the rules refuse (the form takes it; the engine says what is wrong, by name).
    assert member_action(client, ringo, "grit", grit="5").status_code == 302
    html = gang_page(client, gang)
    assert finding_codes(html) == ["DUEL-GRIT"]  # Ringo counts for nothing: 50 points
    assert "Ringo's grit is 5: set it to 1, 2 or 3." in html
    # What the form itself refuses comes back beside the field, and changes nothing.
    response = member_action(client, ringo, "grit", grit="many")
    assert response.status_code == 200
    assert "Enter a whole number." in text_of(response)
    assert member(gang, "Ringo").data["grit"] == 5

    # Remove Ringo: legal again, and the page offers to undo it.
    response = member_action(client, ringo, "remove")
    assert response.status_code == 302
    assert not gang.members.filter(name="Ringo").exists()
    html = gang_page(client, gang)
    assert status_of(html) == "Legal"
    assert "Ringo" in html and "Undo" in html
    assert list(gang.members.order_by("position").values_list("name", "data__grit")) == [
        ("Doc", 3),
        ("Kid", 2),
    ]


# --------------------------------------------------------------------------- printing


@pytest.mark.parametrize(
    ("kind", "filename", "words"),
    [
        ("cards", "dawn-patrol-cards-a4.pdf", ["Doc", "Kid", "Gunhand", "Grit"]),
        ("sheet", "dawn-patrol-sheet.pdf", ["Dawn Patrol", "Doc", "Kid", "Gunhands"]),
        ("reference", "dawn-patrol-reference.pdf", ["Dawn Patrol", "Grit", "The shot"]),
    ],
)
def test_the_cards_the_sheet_and_the_reference_print(wyatt, kind, filename, words):
    gang = dawn_gang(wyatt, "Dawn Patrol", {"Doc": 3, "Kid": 2})
    response = client_for(wyatt).get(
        reverse("gang_print", args=[gang.pk]) + f"?kind={kind}&paper=a4"
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    text = pdftotext(response.content)
    for word in words:
        assert word in text, (kind, word)
    first_page = rasterise(response.content, 30, first=1, last=1)
    assert len(first_page) == 1 and blank_pages(first_page) == []


def test_the_cards_say_what_is_not_legal_and_the_old_sheet_address_works(wyatt):
    gang = dawn_gang(wyatt, "Dawn Patrol", {"Doc": 3, "Ringo": 7})
    client = client_for(wyatt)
    cards = client.get(reverse("gang_print", args=[gang.pk]) + "?kind=cards&paper=a4")
    assert cards.status_code == 200
    text = " ".join(pdftotext(cards.content, layout=False).split())
    assert "Not legal: Ringo's grit is 7: set it to 1, 2 or 3." in text
    sheet = client.get(reverse("gang_sheet_pdf", args=[gang.pk]))
    assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"
    assert "DUEL-GRIT" in pdftotext(sheet.content)


# --------------------------------------------------------------------------- roster files


def test_the_roster_file_goes_out_and_comes_back_in(wyatt):
    gang = dawn_gang(wyatt, "Dawn Patrol", {"Doc": 3, "Kid": 2})
    client = client_for(wyatt)
    response = client.get(reverse("gang_export", args=[gang.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    roster = json.loads(response.content)
    assert check_roster(roster) == []
    assert (roster["system"], roster["name"], roster["limit"]) == ("duel", "Dawn Patrol", 50)
    assert [(m["name"], m["data"]) for m in roster["members"]] == [
        ("Doc", {"type": "gunhand", "grit": 3}),
        ("Kid", {"type": "gunhand", "grit": 2}),
    ]

    response = client.post(reverse("gang_import"), {"text": response.content.decode()})
    copy = Gang.objects.exclude(pk=gang.pk).get()
    assert response.status_code == 302
    assert response["Location"] == reverse("gang_detail", args=[copy.pk])
    assert (copy.system, copy.name, copy.limit) == ("duel", "Dawn Patrol (2)", 50)
    assert list(copy.members.order_by("position").values_list("name", "data")) == [
        ("Doc", {"type": "gunhand", "grit": 3}),
        ("Kid", {"type": "gunhand", "grit": 2}),
    ]
    html = gang_page(client, copy)
    assert status_of(html) == "Legal" and re.search(r'data-testid="fame">50<', html)


def test_an_imported_file_is_checked_by_the_games_schema_then_by_its_rules(wyatt):
    client = client_for(wyatt)
    roster = {
        "format": "gangfight-roster",
        "version": 1,
        "system": "duel",
        "name": "Bad Grit",
        "limit": 50,
        "gang": {},
        "members": [{"key": "1", "name": "Ringo", "data": {"type": "gunhand", "grit": "lots"}}],
    }
    # What the schema refuses (grit is a number) is said beside the field; nothing is made.
    response = client.post(reverse("gang_import"), {"text": json.dumps(roster)})
    assert response.status_code == 200
    assert "members[0].data.grit" in text_of(response)
    assert not Gang.objects.exists()
    # A number the rules refuse comes in, and the builder says what is wrong with it.
    roster["members"][0]["data"]["grit"] = 4
    response = client.post(reverse("gang_import"), {"text": json.dumps(roster)})
    assert response.status_code == 302
    html = gang_page(client, Gang.objects.get())
    assert finding_codes(html) == ["DUEL-GRIT"]
    assert "Ringo's grit is 4: set it to 1, 2 or 3." in html


# --------------------------------------------------------------------------- a campaign


def campaign_form(**overrides: str) -> dict[str, str]:
    """The new-campaign form as the page fills it in, Duel at Dawn chosen: the generic
    progression's house rules at their defaults."""
    data = {"system": "duel", "name": "Dawn Campaign", "encounters": "3"}
    defaults = XPProgression("duel").defaults
    for name, value in defaults.items():
        if isinstance(value, bool):
            if value:
                data[f"duel-{name}"] = "on"
        else:
            data[f"duel-{name}"] = "" if value is None else str(value)
    data.update(overrides)
    return data


def test_a_campaign_with_the_generic_progression(organiser, wyatt, ike):
    # The organiser sets it up: the form offers the game with the generic house rules.
    boss = client_for(organiser)
    page = text_of(boss.get(reverse("campaign_create")))
    assert '<option value="duel">Duel at Dawn</option>' in page
    assert 'name="duel-win_xp"' in page
    response = boss.post(reverse("campaign_create"), campaign_form())
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert (campaign.system, campaign.house_rules["win_xp"]) == ("duel", 2)

    # Two players join with their gangs through the invite link.
    dawn_gang(wyatt, "Dawn Patrol", {"Doc": 3, "Kid": 2})
    dawn_gang(ike, "Clanton Boys", {"Ike": 2, "Billy": 2})
    for player in (wyatt, ike):
        client = client_for(player)
        url = reverse("campaign_join", args=[campaign.invite_token])
        gang = Gang.objects.get(owner=player)
        assert gang.name in text_of(client.get(url))  # offered
        response = client.post(url, {"gang": gang.pk})
        assert response.status_code == 302
    dawn, clantons = (
        CampaignGang.objects.get(campaign=campaign, player=p).pk for p in (wyatt, ike)
    )
    assert boss.post(reverse("campaign_start", args=[campaign.pk])).status_code == 302
    html = text_of(boss.get(reverse("campaign_detail", args=[campaign.pk])))
    assert "Duel at Dawn" in html and "Dawn Patrol" in html and "Clanton Boys" in html

    # Wyatt begins an encounter against the Clantons on the campaign's page...
    response = client_for(wyatt).post(
        reverse("encounter_begin", args=[campaign.pk]),
        {"gang": str(dawn), "against": str(clantons), "scenario": "Sunrise"},
    )
    assert response.status_code == 302
    # ... and the record goes in through the services: Doc took Billy out, Wyatt's side won.
    state = campaign_services.state_of(campaign)
    enc = state.last_encounter
    doc = next(m for m in state.gangs[str(dawn)].alive if m.name == "Doc")
    billy = next(m for m in state.gangs[str(clantons)].alive if m.name == "Billy")
    happenings = [{"kind": "out", "by": doc.ref, "to": billy.ref}]
    data = {"encounter": enc.id, "gang": str(dawn), "happenings": happenings}
    campaign_services.record(campaign, wyatt, "encounter_recorded", {**data, "winner": str(dawn)})
    rng = random.Random(3)
    state = campaign_services.record(
        campaign, ike, "encounter_confirmed", {"encounter": enc.id, "gang": str(clantons)}, rng=rng
    )
    for ref in state.encounters[-1].death_rolls_left:  # the generic rules' death roll
        state = campaign_services.record(
            campaign, ike, "death_rolled", {"encounter": enc.id, "member": ref}, rng=rng
        )
    assert state.encounters[-1].status == "confirmed"

    # Wyatt's gang page: Doc has 1 XP for Billy + 2 for the win, Kid 2 for the win.
    html = text_of(client_for(wyatt).get(reverse("campaign_gang", args=[campaign.pk, dawn])))
    scores = dict(
        re.findall(r'data-member-name="([^"]+)".*?data-testid="score">(\d+)<', html, re.S)
    )
    assert scores == {"Doc": "3", "Kid": "2"}
    assert "Grit 3" in words(html)  # the member's stat line, from the game's report
    # The log says what the encounter settled, and Billy's death roll (the generic rules).
    log = words(text_of(boss.get(reverse("campaign_history", args=[campaign.pk]))))
    assert "Encounter 1 settled: Doc +3 XP (now 3); Kid +2 XP (now 2)." in log
    assert "Death roll for Billy: 2, Dead. Removed from the gang." in log


# --------------------------------------------------------------------------- a league


def test_a_league_for_the_game(organiser, wyatt):
    boss = client_for(organiser)
    response = boss.post(reverse("club_create"), {"name": "Tombstone Duellists", "about": ""})
    club = Club.objects.get()
    assert response.status_code == 302
    page = text_of(boss.get(reverse("league_create", args=[club.pk])))
    assert '<option value="duel">Duel at Dawn</option>' in page
    assert "Points: each gang may cost at most this many points (usually 50)." in page
    response = boss.post(
        reverse("league_create", args=[club.pk]),
        {
            "name": "Dawn League",
            "system": "duel",
            "cap": "50",
            "starts": "",
            "ends": "",
            "win_points": "3",
            "draw_points": "1",
            "loss_points": "0",
            "tiebreaks_0": "vp_diff",
            "tiebreaks_1": "",
            "tiebreaks_2": "",
            "pairing": "round_robin",
            "first_round": "random",
            "rounds": "",
            "campaign": "",
        },
    )
    league = League.objects.get()
    assert response.status_code == 302, text_of(response)
    assert (league.system, league.cap) == ("duel", 50)

    # Wyatt joins the club and registers: his legal gang is offered, the one over the cap
    # is marked so and refused.
    client = client_for(wyatt)
    client.post(reverse("club_join", args=[club.invite_token]))
    legal = dawn_gang(wyatt, "Dawn Patrol", {"Doc": 3, "Kid": 2})
    heavy = dawn_gang(wyatt, "Heavy Boys", {"Big": 3, "Bigger": 3}, limit=None)
    url = reverse("league_register", args=[league.pk])
    page = text_of(client.get(url))
    assert "Dawn Patrol — 50 points, legal" in page
    assert "Heavy Boys — 60 points, illegal under the cap" in page
    response = client.post(url, {"gang": heavy.pk})
    assert response.status_code == 200
    assert not Registration.objects.exists()
    response = client.post(url, {"gang": legal.pk})
    assert response.status_code == 302
    registration = Registration.objects.get()
    assert (registration.gang, registration.legal) == (legal, True)
    html = text_of(client.get(reverse("league_detail", args=[league.pk])))
    assert "Dawn League" in html and "Dawn Patrol" in html


# --------------------------------------------------------------------------- play mode


def test_play_a_game_with_the_gang(wyatt):
    gang = dawn_gang(wyatt, "Dawn Patrol", {"Doc": 3, "Kid": 2})
    client = client_for(wyatt)
    page = gang_page(client, gang)
    start = reverse("play_start_gang", args=[gang.pk])
    assert start in page  # the gang page's Play link
    response = client.post(start, {"scenario": "Sunrise", "table_size": ""})
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("play_game", args=[game.pk])
    table = text_of(client.get(reverse("play_game", args=[game.pk])))
    assert "Doc" in table and "Kid" in table and "Sunrise" in table
    assert 'data-testid="counter-grit"' in table  # the game's own tracker: Grit, not Health
    assert game.snapshot["sides"][0]["members"][0]["counters"] == {"grit": 3}

    # One tap: a hit on Doc takes a point of grit.
    response = client.post(
        reverse("play_tap", args=[game.pk]),
        {"do": "wound/1", "member": "a/1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    event = TapEvent.objects.get()
    assert (event.kind, event.data["member"], event.data["amount"]) == ("wound", "a/1", 1)
    html = text_of(response)
    assert "Doc" in html and "1 Grit" in html


# --------------------------------------------------------------------------- its own folders


ROOT = Path(settings.BASE_DIR)
#: the app's code: every app, the site, the shared templates and static files (not
#: locale/: French has the word "duel", for Rivals' showdowns)
APP_FOLDERS = (
    "accounts",
    "builder",
    "campaigns",
    "common",
    "gangfight_site",
    "notifications",
    "play",
    "rules",
    "static",
    "templates",
)
CODE = {".py", ".html", ".js", ".css", ".txt"}
#: how the app would name this game: its id as a word, its name, its rule codes
NAMED = re.compile(r"\bduel\b|Duel at Dawn|DUEL-")
#: in data files, only its name and codes: the French glossary (rules/data/glossary_fr.json)
#: has the French word "duel", for Rivals' showdowns
NAMED_IN_DATA = re.compile(r"Duel at Dawn|DUEL-")


def app_files():
    for folder in APP_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path


def test_the_real_games_code_never_names_the_sixth():
    named = []
    for path in app_files():
        if path.suffix in CODE:
            pattern = NAMED
        elif path.suffix == ".json":
            pattern = NAMED_IN_DATA
        else:
            continue
        text = path.read_text("utf-8", errors="replace")
        named += [
            f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
            for n, line in enumerate(text.splitlines(), 1)
            if pattern.search(line)
        ]
    assert named == []


def test_the_app_never_imports_the_tests():
    """The app reaches the sixth game only through the registries' packages."""
    importing = []
    for path in app_files():
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            importing += [
                f"{path.relative_to(ROOT)}:{node.lineno}: {m}"
                for m in modules
                if m == "tests" or m.startswith("tests.")
            ]
    assert importing == []


def test_the_game_lives_in_its_own_folders_alone():
    """Its rules, tracker and editor are modules of its two packages, and nothing else."""
    assert type(get_system("duel")).__module__ == "tests.systems.rules.duel"
    assert type(tracker_for("duel")).__module__ == "tests.systems.rules.duel.play"
    assert type(editors.get_editor("duel")).__module__ == "tests.systems.editors.duel"
    assert registry.data_dir("duel") == Path(__file__).parent / "rules" / "duel" / "data"


def test_a_french_reader_builds_it_too_with_its_messages_in_english(wyatt):
    """The game's own messages have no French translation (a test-only game): the page is
    French around them."""
    gang = dawn_gang(wyatt, "Dawn Patrol", {"Doc": 3, "Ringo": 5})
    client = client_for(wyatt)
    response = client.get(reverse("gang_detail", args=[gang.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    html = text_of(response)
    assert response.status_code == 200 and '<html lang="fr"' in html
    assert "Ce que disent les règles" in html
    assert finding_codes(html) == ["DUEL-GRIT"]
    assert "Ringo's grit is 5: set it to 1, 2 or 3." in html
