"""My data: everything a user owns in one zip; deleting the account: gangs and packs go,
results stay (a former member's), campaigns and clubs pass to someone who plays."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts import services as accounts
from builder.models import ContentPack, Gang, Item
from builder.packs import read_pack
from campaigns import services as campaign_services
from campaigns.leagues import services as league_services
from campaigns.leagues.models import Club, ClubMember, League, Registration
from campaigns.models import Campaign, CampaignGang
from rules.roster import read_roster
from tests.conftest import PASSWORD
from tests.factories import build_gang, give, recruit
from tests.helpers.users import client_for, make_user
from tests.test_campaign_views import RED_JACKS, SIX_OUTLAWS
from tests.test_campaign_views import builder_gang as rivals_gang
from tests.test_campaign_views import play as play_encounter
from tests.test_league_views import play as play_round
from tests.test_league_views import register


@pytest.fixture(autouse=True)
def empty_cache():
    """Password checks are counted in the cache (throttling): each test starts afresh."""
    cache.clear()
    yield
    cache.clear()


# --------------------------------------------------------------------------- helpers


def archive_of(response) -> zipfile.ZipFile:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    return zipfile.ZipFile(io.BytesIO(response.content))


def rows(html: str) -> list[str]:
    """The standings table's rows, as text (tags gone, spaces squeezed)."""
    start = html.index('data-testid="standings"')
    table = html[start : html.index("</table>", start)]
    body = table[table.index("<tbody>") :]
    found = []
    for row in re.findall(r"<tr\b.*?</tr>", body, flags=re.S):
        text = re.sub(r"<[^>]+>", " ", row)
        found.append(" ".join(text.split()))
    return found


def pack_with_weapon(owner: User, name: str = "Ann's Guns") -> tuple[ContentPack, Item]:
    pack = ContentPack.objects.create(owner=owner, system="bwg1", name=name, is_public=True)
    model = Item.objects.filter(owner__isnull=True, system="bwg1", category="weapon").first()
    item = Item.objects.create(
        owner=owner,
        pack=pack,
        system="bwg1",
        category="weapon",
        name="Buntline Special",
        stats=dict(model.stats),
    )
    return pack, item


@pytest.fixture
def ann(db) -> User:
    return make_user("ann", "ann@example.org")


@pytest.fixture
def bob(db) -> User:
    return make_user("bob")


@pytest.fixture
def cy(db) -> User:
    return make_user("cy")


@pytest.fixture
def members(ann, bob, cy) -> list[User]:
    return [ann, bob, cy]


@pytest.fixture
def club_details() -> dict:
    return {"name": "Tombstone Wargamers"}


@pytest.fixture
def finished(club, ann, bob, cy) -> League:
    """A finished round robin: ann beat bob, drew cy; bob beat cy."""
    league = league_services.create_league(
        club, name="Spring", system="bwg1", cap=400, pairing=League.ROUND_ROBIN, rounds=3
    )
    r = {u.username: register(league, u) for u in (ann, bob, cy)}
    play_round(league, 1, {(r["ann"], r["bob"]): (12, 8, "a"), (r["cy"], None): None})
    play_round(league, 2, {(r["ann"], r["cy"]): (5, 5, "draw"), (r["bob"], None): None})
    play_round(league, 3, {(r["bob"], r["cy"]): (9, 3, "a"), (r["ann"], None): None})
    league.status = League.FINISHED
    league.save(update_fields=["status"])
    return league


@pytest.fixture
def running(club, ann, bob, cy) -> League:
    league = league_services.create_league(
        club, name="Summer", system="bwg1", cap=400, pairing=League.ROUND_ROBIN, rounds=3
    )
    r = {u.username: register(league, u, f"{u.username}'s Summer Boys") for u in (ann, bob, cy)}
    play_round(league, 1, {(r["ann"], r["bob"]): (3, 10, "b"), (r["cy"], None): None})
    return league


@pytest.fixture
def theirs(organiser, ann, bob) -> Campaign:
    """orla's Rivals campaign: ann and bob play an encounter."""
    campaign = campaign_services.create_campaign(
        organiser, system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    campaign_services.join_campaign(campaign, ann, rivals_gang(ann, RED_JACKS))
    campaign_services.join_campaign(campaign, bob, rivals_gang(bob, SIX_OUTLAWS))
    campaign_services.record(campaign, None, "campaign_started", {})
    play_encounter(campaign)
    return campaign


@pytest.fixture
def hers(ann, bob, cy) -> Campaign:
    """ann's own campaign: cy joined first, then bob; both play."""
    campaign = campaign_services.create_campaign(
        ann, system="rivals", name="Ann's Rivals", encounters=5, house_rules={}
    )
    campaign_services.join_campaign(campaign, cy, rivals_gang(cy, RED_JACKS))
    campaign_services.join_campaign(campaign, bob, rivals_gang(bob, SIX_OUTLAWS))
    campaign_services.record(campaign, None, "campaign_started", {})
    play_encounter(campaign)
    return campaign


def delete(user: User, password: str = PASSWORD):
    return client_for(user).post(reverse("account_delete"), {"password": password})


# --------------------------------------------------------------------------- my data


def test_my_data_holds_every_gang_and_pack_as_files_that_import_back(ann, content):
    build_gang(ann, name="The Dalton Boys")
    build_gang(ann, name="The Dalton Boys")  # the same name twice: two files
    rivals_gang(ann, RED_JACKS)
    pack_with_weapon(ann)
    other = make_user("other")
    build_gang(other, name="Not Ann's")

    archive = archive_of(client_for(ann).get(reverse("my_data_download")))
    names = archive.namelist()
    rosters = [n for n in names if n.startswith("gangs/")]
    packs = [n for n in names if n.startswith("packs/")]
    assert len(rosters) == 3 and len(set(rosters)) == 3
    assert len(packs) == 1
    assert sorted(read_roster(archive.read(n))["name"] for n in rosters) == [
        "Red Jack's Gang",
        "The Dalton Boys",
        "The Dalton Boys",
    ]
    pack = read_pack(archive.read(packs[0]))
    assert pack["name"] == "Ann's Guns" and pack["entries"][0]["name"] == "Buntline Special"
    account = json.loads(archive.read("account.json"))
    assert account["username"] == "ann" and account["email"] == "ann@example.org"
    assert "roster file" in archive.read("README.txt").decode()
    assert "Not Ann's" not in archive.read(rosters[0]).decode()


def test_my_data_holds_my_league_matches_and_campaign_events(ann, finished, theirs, bob):
    archive = archive_of(client_for(ann).get(reverse("my_data_download")))
    leagues = json.loads(archive.read("leagues.json"))
    assert [(entry["league"], entry["gang"]) for entry in leagues] == [("Spring", "ann's Boys")]
    matches = leagues[0]["matches"]
    assert [m["round"] for m in matches] == [1, 2, 3]
    assert matches[0]["opponent"] == {"gang": "bob's Boys", "player": "bob"}
    assert matches[0]["report"]["vp_a"] == 12 and matches[0]["report"]["status"] == "confirmed"
    assert matches[2]["opponent"] is None  # the bye
    campaigns = json.loads(archive.read("campaigns.json"))
    assert [c["name"] for c in campaigns] == ["Deadrock"]
    assert campaigns[0]["organiser"] is False
    assert [g["name"] for g in campaigns[0]["gangs"]] == ["Red Jack's Gang"]
    kinds = [e["kind"] for e in campaigns[0]["events"]]
    assert "encounter_begun" in kinds and "gang_joined" in kinds
    # bob's own joining is not ann's
    mine = {g["id"] for g in campaigns[0]["gangs"]}
    joins = [e for e in campaigns[0]["events"] if e["kind"] == "gang_joined"]
    assert {str(e["data"]["gang"]) for e in joins} == {str(pk) for pk in mine}
    # bob's archive has none of ann's gang's files
    bobs = archive_of(client_for(bob).get(reverse("my_data_download")))
    assert json.loads(bobs.read("leagues.json"))[0]["gang"] == "bob's Boys"


def test_my_data_page_and_download_need_a_log_in(client, db):
    for name in ("my_data", "my_data_download"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_my_data_page_says_what_the_zip_holds(ann, content):
    build_gang(ann)
    page = client_for(ann).get(reverse("my_data")).content.decode()
    assert "your gang, as a roster file" in page
    assert f'href="{reverse("my_data_download")}"' in page


def test_my_data_of_a_new_user_is_an_archive_with_empty_history(ann):
    archive = archive_of(client_for(ann).get(reverse("my_data_download")))
    assert json.loads(archive.read("campaigns.json")) == []
    assert json.loads(archive.read("leagues.json")) == []
    assert json.loads(archive.read("games.json")) == []


def test_my_data_holds_the_games_i_played_at_the_table_and_their_taps(ann, bob, content):
    from play import services as play_services

    game = play_services.start_from_gang(ann, build_gang(ann))
    play_services.tap(game, ann, "wound", {"member": "a/1", "amount": 1}, "one")
    play_services.tap(game, ann, "undo", {}, "two")
    archive = archive_of(client_for(ann).get(reverse("my_data_download")))
    games = json.loads(archive.read("games.json"))
    assert [g["name"] for g in games] == [game.name]
    taps = games[0]["taps"]
    assert [(t["kind"], t["undone"], t["by"]) for t in taps] == [
        ("wound", True, ann.username),
        ("undo", False, ann.username),
    ]
    assert taps[0]["made_at"] and taps[0]["received_at"]
    other = archive_of(client_for(bob).get(reverse("my_data_download")))
    assert json.loads(other.read("games.json")) == []  # not a game Bob played in


# --------------------------------------------------------------------------- delete


def test_the_delete_page_says_what_happens(ann, bob, cy, club, hers):
    solo = campaign_services.create_campaign(
        ann, system="rivals", name="Solo", encounters=5, house_rules={}
    )
    assert solo.pk
    page = client_for(ann).get(reverse("account_delete")).content.decode()
    assert "Your campaign “Ann&#x27;s Rivals” passes to cy, who joined it first." in page
    assert "Your campaign “Solo” is deleted: no one else plays in it." in page
    assert 'name="password"' in page


def test_a_wrong_password_deletes_nothing(ann):
    response = delete(ann, "wrong")
    assert response.status_code == 200
    assert "This is not your password." in response.content.decode()
    ann.refresh_from_db()
    assert ann.is_active and ann.username == "ann"


def test_deleting_needs_a_post_with_the_password_of_the_user_logged_in(client, ann, bob):
    response = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    # bob typing ann's password (the same here) deletes bob, never ann
    delete(bob)
    ann.refresh_from_db()
    assert ann.username == "ann" and ann.is_active


def test_deleting_removes_gangs_and_packs_and_logs_out(ann, content):
    client = client_for(ann)
    build_gang(ann)
    pack_with_weapon(ann)
    response = client.post(reverse("account_delete"), {"password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "Your account was deleted" in response.content.decode()
    assert not Gang.objects.filter(owner=ann).exists()
    assert not ContentPack.objects.filter(owner=ann).exists()
    assert not Item.objects.filter(owner=ann).exists()
    ann.refresh_from_db()
    assert ann.username == f"former member #{ann.pk}"
    assert (ann.email, ann.is_active, ann.has_usable_password()) == ("", False, False)
    assert accounts.is_former_member(ann)
    assert client.get(reverse("gang_list")).status_code == 302  # logged out
    # nobody can log in as the former member, nor sign up under the name
    assert not Client().login(username=ann.username, password=PASSWORD)
    signup = Client().post(
        reverse("signup"),
        {"username": ann.username, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert signup.status_code == 200
    # the address is free again
    assert not User.objects.filter(email__iexact="ann@example.org").exists()


def test_a_pack_entry_another_players_gang_carries_stays(ann, bob, content):
    pack, item = pack_with_weapon(ann)
    spare = Item.objects.create(
        owner=ann, pack=pack, system="bwg1", category="weapon", name="Spare", stats=item.stats
    )
    gang = build_gang(bob, name="Bob's")
    gang.packs.add(pack)
    give(recruit(gang, "Bo"), item)
    delete(ann)
    assert Item.objects.filter(pk=item.pk).exists()
    assert not Item.objects.filter(pk=spare.pk).exists()
    page = client_for(bob).get(reverse("gang_detail", args=[gang.pk]))
    assert page.status_code == 200 and "Buntline Special" in page.content.decode()


def test_league_standings_stay_the_same_with_a_former_member(
    ann, organiser, bob, finished, running
):
    pages = {
        league.pk: rows(
            client_for(organiser).get(reverse("league_detail", args=[league.pk])).content.decode()
        )
        for league in (finished, running)
    }
    public = rows(
        Client().get(reverse("league_public", args=[finished.public_token])).content.decode()
    )
    assert len(pages[finished.pk]) == len(pages[running.pk]) == 3
    assert any(" ann " in f" {row} " for row in pages[finished.pk])

    delete(ann)
    ann.refresh_from_db()
    former = ann.username

    def as_before(row: str) -> str:
        """The row as it was: the name back, and without the note the league adds to a
        registration whose gang is gone from the builder (the results are unchanged)."""
        return row.replace(former, "ann").replace(" The gang is no longer in the builder.", "")

    for league in (finished, running):
        html = (
            client_for(organiser).get(reverse("league_detail", args=[league.pk])).content.decode()
        )
        after = rows(html)
        if league == running:  # she is shown as having left: paired no more
            assert any(former in r and " dropped " in r for r in after)
            after = [r.replace(" dropped ", " ") for r in after]
        assert [as_before(r) for r in after] == pages[league.pk], league.name
        assert any(former in r for r in after)
    public_after = rows(
        Client().get(reverse("league_public", args=[finished.public_token])).content.decode()
    )
    assert [as_before(r) for r in public_after] == public
    # the running league pairs her no more; the finished one is as it was
    assert Registration.objects.get(league=running, player=ann).dropped
    assert not Registration.objects.get(league=finished, player=ann).dropped
    # her gang went; the registration keeps its name
    assert Registration.objects.get(league=finished, player=ann).gang_id is None


def test_campaign_standings_stay_the_same_when_a_player_leaves(ann, organiser, theirs):
    url = reverse("campaign_detail", args=[theirs.pk])
    before = rows(client_for(organiser).get(url).content.decode())
    assert len(before) == 2 and any(" ann " in f" {row} " for row in before)
    delete(ann)
    ann.refresh_from_db()
    page = client_for(organiser).get(url).content.decode()
    after = rows(page)
    # the same rows, the player now "former member #N" (the log's name is not shown)
    assert [row.replace(ann.username, "ann") for row in after] == before
    assert any(ann.username in row for row in after)
    assert ">ann<" not in page and " ann " not in " ".join(after)
    assert CampaignGang.objects.filter(campaign=theirs, player=ann).exists()


def test_a_campaign_she_organises_passes_to_the_first_player_who_joined(ann, bob, cy, hers):
    url = reverse("campaign_detail", args=[hers.pk])
    before = rows(client_for(cy).get(url).content.decode())
    delete(ann)
    hers.refresh_from_db()
    assert hers.organiser == cy
    assert rows(client_for(cy).get(url).content.decode()) == before  # ann played no gang
    assert client_for(bob).get(url).status_code == 200
    # cy now runs it: the settings page is hers
    assert client_for(cy).get(reverse("campaign_settings", args=[hers.pk])).status_code == 200


def test_a_campaign_only_she_plays_in_goes(ann):
    solo = campaign_services.create_campaign(
        ann, system="rivals", name="Solo", encounters=5, house_rules={}
    )
    campaign_services.join_campaign(solo, ann, rivals_gang(ann, RED_JACKS))
    delete(ann)
    assert not Campaign.objects.filter(pk=solo.pk).exists()


def test_a_club_she_organises_alone_passes_to_its_longest_standing_member(ann, bob, cy):
    club = league_services.create_club(ann, name="Ann's Club")
    league_services.join_club(club, cy)
    league_services.join_club(club, bob)
    delete(ann)
    roles = dict(ClubMember.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"cy": ClubMember.ORGANISER, "bob": ClubMember.MEMBER}


def test_she_leaves_a_club_someone_else_organises(ann, club, organiser):
    delete(ann)
    assert not ClubMember.objects.filter(club=club, user=ann).exists()
    assert ClubMember.objects.get(club=club, user=organiser).role == ClubMember.ORGANISER


def test_a_club_with_no_one_else_goes(ann):
    club = league_services.create_club(ann, name="Ann alone")
    delete(ann)
    assert not Club.objects.filter(pk=club.pk).exists()


def test_the_former_member_is_named_so_on_a_match_she_reported(ann, organiser, finished):
    from campaigns.leagues.models import Pairing

    pairing = Pairing.objects.filter(round__league=finished, a__player=ann).first()
    delete(ann)
    ann.refresh_from_db()
    page = client_for(organiser).get(reverse("match_detail", args=[finished.pk, pairing.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert ann.username in text and ">ann<" not in text


def test_guessing_the_password_on_the_delete_page_is_throttled(ann, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 2
    client = client_for(ann)
    for _ in range(2):
        assert (
            "This is not your password."
            in client.post(reverse("account_delete"), {"password": "guess"}).content.decode()
        )
    blocked = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert "Too many wrong passwords" in blocked.content.decode()
    ann.refresh_from_db()
    assert ann.is_active  # the right password, once throttled, deletes nothing


def test_a_pack_another_gang_picked_but_carries_nothing_from_goes(ann, bob, content):
    pack, _item = pack_with_weapon(ann)
    gang = build_gang(bob, name="Bob's")
    gang.packs.add(pack)
    delete(ann)
    assert not ContentPack.objects.filter(pk=pack.pk).exists()
    assert client_for(bob).get(reverse("gang_detail", args=[gang.pk])).status_code == 200


def test_a_club_left_with_only_others_results_stays_under_the_former_member(ann, bob):
    club = league_services.create_club(ann, name="Ann's Club")
    league_services.join_club(club, bob)
    league = league_services.create_league(
        club, name="Old", system="bwg1", cap=400, pairing=League.ROUND_ROBIN, rounds=1
    )
    register(league, ann)
    register(league, bob)
    ClubMember.objects.filter(club=club, user=bob).delete()  # bob left the club since
    plan = client_for(ann).get(reverse("account_delete")).content.decode()
    assert "Your club “Ann&#x27;s Club” stays, with its results, under the former member." in plan
    delete(ann)
    assert Club.objects.filter(pk=club.pk).exists()
    assert Registration.objects.filter(league=league, player=bob).exists()
    assert ClubMember.objects.get(club=club).user == ann  # the former member


def test_the_new_organisers_are_told_by_mail(ann, bob, cy, hers, background):
    from django.core import mail

    cy.email = "cy@example.org"
    cy.save()
    club = league_services.create_club(ann, name="Ann's Club")
    league_services.join_club(club, bob)  # bob has no address: no mail
    delete(ann)
    background.run_all()
    handed = [m for m in mail.outbox if "now organise" in m.subject]
    assert [(m.to, m.subject) for m in handed] == [
        (["cy@example.org"], "Gangfight: you now organise “Ann's Rivals”")
    ]
    assert "Ann's Rivals" in handed[0].body
    # the notice on the home page is not mailed again in a batch (the other mail: CCP)
    assert all("now organise" not in m.body for m in mail.outbox if m not in handed)
    assert all(m.to == ["cy@example.org"] for m in mail.outbox)


@pytest.fixture(autouse=True)
def _no_printing_ahead(no_printing_ahead):
    """This module runs background work for mail and counts, never for PDFs."""
