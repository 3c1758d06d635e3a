"""Every page works at 375 px: no sideways scrolling of the page itself."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Page

from builder.editors import get_editor
from builder.models import ContentPack, DiceRoll, Item
from builder.services import import_gang, my_weapons_pack
from campaigns.leagues import services as leagues
from rules import all_systems
from rules.roster import read_roster
from tests.conftest import PASSWORD
from tests.factories import build_gang
from tests.test_roster_files import EXAMPLES

pytestmark = pytest.mark.browser

LONG = "Wolfeschlegelsteinhausenbergerdorff-the-Unpronounceable-Outlaw"


def bwg2_kinds():
    return get_editor("bwg2").content_kinds


def loaded(page: Page, url: str, status: int = 200) -> None:
    """Open ``url`` and check it is the page asked for, drawn (a 404 page "fits" too)."""
    response = page.goto(url)
    assert response is not None and response.status == status, (url, response and response.status)
    assert page.locator("main").inner_text().strip(), f"{url}: nothing in <main>"


def overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_every_page_fits_a_phone(page: Page, live_server):
    call_command("load_content", verbosity=0)
    user = User.objects.create_user("phone", password=PASSWORD)
    gang = build_gang(user, name=LONG)
    member = gang.members.order_by("position").first()
    member.name = LONG
    member.save()
    weapon = Item.objects.create(
        owner=user,
        pack=my_weapons_pack(user),
        system="bwg1",
        category="weapon",
        name="Long-barrelled Buntline Special with a name that goes on",
        stats={"kind": "ranged", "hands": 2, "level": 5, "strength": "4", "traits": ["longarm"]},
    )
    # One gang of every example file: the builder page of each other system.
    imported = [import_gang(user, read_roster(path.read_bytes())) for path in EXAMPLES]
    pack = ContentPack.objects.create(
        owner=user, system="bwg2", name=LONG, description=LONG * 3, is_public=True
    )
    DiceRoll.objects.create(
        gang=gang, user=user, action=LONG, purpose=LONG, sides=6, dice=[1, 2, 3, 4, 5, 6], total=21
    )

    # A club with two leagues, every name long: one with a round paired and a result
    # reported (the match page, the standings), one just paired (the swap form).
    bwg2 = read_roster(next(p for p in EXAMPLES if p.name.startswith("bwg2-legal")).read_bytes())
    club = leagues.create_club(user, name=LONG, about=LONG * 3)
    players = [user] + [User.objects.create_user(f"{LONG[:40]}{i}") for i in (1, 2)]
    gangs = []
    for player in players:
        leagues.join_club(club, player)
        gangs.append(import_gang(player, {**bwg2, "name": f"{LONG} {player.pk}"}))
    league, paired = (
        leagues.create_league(club, name=f"{LONG} {n}", system="bwg2", cap=700, rounds=3)
        for n in (1, 2)
    )
    for one in (league, paired):
        for player, their_gang in zip(players, gangs, strict=True):
            leagues.register(one, player, their_gang)
        leagues.next_round(one)
    match = league.round_set.get().pairings.get(b__isnull=False)
    bye = league.round_set.get().pairings.get(b__isnull=True)
    leagues.submit_report(
        match, match.a.player, {"vp_a": 12, "vp_b": 9, "winner": "b", "casualties": LONG}
    )

    anonymous_pages = [
        reverse("home"),
        reverse("signup"),
        reverse("login"),
        reverse("rules"),
        reverse("roster_format"),
        reverse("gang_shared", args=[gang.share_token]),
        *(reverse("gang_shared", args=[g.share_token]) for g in imported),
        reverse("league_public", args=[league.public_token]),
    ]
    for url in anonymous_pages:
        loaded(page, live_server.url + url)
        assert overflow(page) <= 0, url

    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "phone")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button")
    page.wait_for_url(live_server.url + reverse("home"))  # log-in lands on what waits
    user_pages = [
        reverse("gang_list"),
        reverse("gang_create"),
        reverse("gang_import"),
        reverse("gang_detail", args=[gang.pk]),
        reverse("gang_detail", args=[gang.pk]) + f"?open={member.pk}",
        *(reverse("gang_detail", args=[g.pk]) for g in imported),
        *(reverse("gang_detail", args=[g.pk]) + f"?open={g.members.first().pk}" for g in imported),
        reverse("gang_delete", args=[gang.pk]),
        reverse("weapon_list"),
        reverse("weapon_update", args=[weapon.pk]),
        reverse("weapon_delete", args=[weapon.pk]),
        reverse("pack_list"),
        reverse("pack_detail", args=[pack.pk]),
        reverse("pack_delete", args=[pack.pk]),
        *(reverse("entry_add", args=[pack.pk, kind.category]) for kind in bwg2_kinds()),
        reverse("entry_update", args=[weapon.pk]),
        *(reverse("library", args=[system.id]) for system in all_systems()),
        reverse("gang_history", args=[gang.pk]),
        reverse("gang_clone", args=[gang.pk]),
        reverse("password_change"),
        reverse("club_list"),
        reverse("club_create"),
        reverse("club_detail", args=[club.pk]),
        reverse("club_join", args=[club.invite_token]),
        reverse("league_create", args=[club.pk]),
        reverse("league_settings", args=[league.pk]),
        reverse("league_register", args=[league.pk]),
        reverse("league_rounds", args=[league.pk]),
        reverse("league_rounds", args=[paired.pk]),
        reverse("league_detail", args=[league.pk]),
        reverse("match_detail", args=[league.pk, match.pk]),
        reverse("match_detail", args=[league.pk, bye.pk]),
        *(reverse("league_player", args=[league.pk, r.pk]) for r in league.registrations.all()),
        "/no/such/page/",
    ]
    for url in user_pages:
        loaded(page, live_server.url + url, 404 if url == "/no/such/page/" else 200)
        assert overflow(page) <= 0, url
