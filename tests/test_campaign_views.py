"""The campaign pages: who may see and do what, set-up, joining, the campaign's home,
history, finishing, leaving and printing a campaign gang."""

from __future__ import annotations

import html
import io
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.urls import reverse
from pypdf import PdfReader

from builder import printing
from builder.printing import documents
from builder.services import import_gang
from campaigns import chronicle, services
from campaigns.models import Campaign, CampaignEvent, CampaignGang
from rules.roster import read_roster
from tests.helpers.pages import html_of
from tests.helpers.users import client_for, make_user

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
RED_JACKS = "rivals-legal-red-jacks-gang.json"
SIX_OUTLAWS = "rivals-legal-six-outlaws.json"
ILLEGAL = "rivals-illegal-three-outlaws-31-ccp.json"
HOSTILE = "<img src=file:///etc/passwd>"


# --------------------------------------------------------------------------- helpers


def builder_gang(user: User, example: str = RED_JACKS, name: str | None = None):
    roster = read_roster((EXAMPLES / example).read_bytes())
    if name is not None:
        roster["name"] = name
    return import_gang(user, roster)


def new_campaign(organiser: User, *, system: str = "rivals", encounters: int = 5, name="Deadrock"):
    return services.create_campaign(
        organiser, system=system, name=name, encounters=encounters, house_rules={}
    )


def join(campaign: Campaign, user: User, example: str = RED_JACKS, name: str | None = None):
    return services.join_campaign(campaign, user, builder_gang(user, example, name))


def play(campaign: Campaign, seed: int = 2, *, winner_first: bool = True):
    """One whole Rivals encounter between the first two riding gangs: the first gang's
    first outlaw wounds then kills the other's first outlaw; both confirm; death rolls
    (seed 2: the location is 1, the death roll 1, Dead). A gang with a dead outlaw not yet
    replaced fights short-handed (the player declines the recruit)."""
    rng = random.Random(seed)
    state = services.state_of(campaign)
    a, b = list(state.active_gangs)[:2]
    for gang in (a, b):
        for fallen in gang.waiting:
            data = {"gang": gang.id, "replaces": fallen.ref}
            state = services.record(campaign, None, "recruit_declined", data)
    state = services.record(campaign, None, "encounter_begun", {"gangs": [a.id, b.id]}, rng=rng)
    enc = state.encounters[-1]
    by, to = a.alive[0], b.alive[0]
    happenings = [
        {"kind": "wound", "by": by.ref, "to": to.ref, "amount": 2},
        {"kind": "kill", "by": by.ref, "to": to.ref},  # worth his toughness, 4, + his bonus
    ]
    data = {"encounter": enc.id, "gang": a.id, "happenings": happenings}
    data["winner"] = a.id if winner_first else b.id
    services.record(campaign, None, "encounter_recorded", data, rng=rng)
    state = services.record(
        campaign, None, "encounter_confirmed", {"encounter": enc.id, "gang": b.id}, rng=rng
    )
    for ref in state.encounters[-1].death_rolls_left:
        state = services.record(
            campaign, None, "death_rolled", {"encounter": enc.id, "member": ref}, rng=rng
        )
    return state


@pytest.fixture
def player(db) -> User:
    return make_user("player")


@pytest.fixture
def rival(db) -> User:
    return make_user("rival")


@pytest.fixture
def campaign(organiser, player, rival) -> Campaign:
    """A Rivals campaign, set up, with two gangs of two players (the organiser plays none)."""
    campaign = new_campaign(organiser)
    join(campaign, player, RED_JACKS)
    join(campaign, rival, SIX_OUTLAWS)
    return campaign


@pytest.fixture
def running(campaign) -> Campaign:
    services.record(campaign, None, "campaign_started", {})
    return campaign


def gang_ids(campaign: Campaign) -> list[int]:
    return list(CampaignGang.objects.filter(campaign=campaign).values_list("pk", flat=True))


# --------------------------------------------------------------------------- who may do what


def page_urls(campaign: Campaign) -> dict[str, str]:
    gang = gang_ids(campaign)[0]
    return {
        "detail": reverse("campaign_detail", args=[campaign.pk]),
        "history": reverse("campaign_history", args=[campaign.pk]),
        "chronicle": reverse("campaign_chronicle", args=[campaign.pk]),
        "print": reverse("campaign_gang_print", args=[campaign.pk, gang]) + "?kind=sheet",
    }


@pytest.fixture
def fake_pdfs(monkeypatch):
    monkeypatch.setattr(chronicle, "render", lambda html, **kw: b"%PDF-1.7 chronicle")
    monkeypatch.setattr(documents, "print_pdf", lambda *a, **kw: b"%PDF-1.7 roster")


@pytest.mark.parametrize("page", ["detail", "history", "chronicle", "print"])
def test_participants_see_every_page(campaign, organiser, player, rival, fake_pdfs, page):
    url = page_urls(campaign)[page]
    for user in (organiser, player, rival):
        response = client_for(user).get(url)
        assert response.status_code == 200, (user, page)


@pytest.mark.parametrize("page", ["detail", "history", "chronicle", "print"])
def test_a_stranger_gets_404(campaign, stranger, fake_pdfs, page):
    assert client_for(stranger).get(page_urls(campaign)[page]).status_code == 404


@pytest.mark.parametrize("page", ["detail", "history", "chronicle", "print"])
def test_anonymous_goes_to_login(campaign, client, page):
    url = page_urls(campaign)[page]
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    "name", ["campaign_list", "campaign_create", "campaign_settings", "campaign_start"]
)
def test_anonymous_goes_to_login_everywhere(campaign, client, name):
    args = [] if name in ("campaign_list", "campaign_create") else [campaign.pk]
    url = reverse(name, args=args)
    response = client.get(url) if name != "campaign_start" else client.post(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    if name == "campaign_start":  # after logging in, back to the campaign, not a POST URL
        assert (
            "next=" + reverse("campaign_detail", args=[campaign.pk]).replace("/", "%2F")
            in (response["Location"])
        )


def test_anonymous_join_goes_to_login(campaign, client):
    url = reverse("campaign_join", args=[campaign.invite_token])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_organiser_actions_are_403_for_a_player_and_404_for_a_stranger(campaign, player, stranger):
    for name in ("campaign_settings", "campaign_start", "campaign_finish"):
        url = reverse(name, args=[campaign.pk])
        method = "get" if name == "campaign_settings" else "post"
        assert getattr(client_for(player), method)(url).status_code == 403, name
        assert getattr(client_for(stranger), method)(url).status_code == 404, name
    assert services.state_of(campaign).status == "setup"


def test_unknown_campaign_or_gang_is_404(campaign, organiser, fake_pdfs):
    client = client_for(organiser)
    assert client.get(reverse("campaign_detail", args=[campaign.pk + 99])).status_code == 404
    other = new_campaign(make_user("someone"), name="Elsewhere")
    foreign = join(other, make_user("elsewhere"))
    url = reverse("campaign_gang_print", args=[campaign.pk, foreign.pk])
    assert client.get(url + "?kind=sheet").status_code == 404
    leave = reverse("campaign_leave", args=[campaign.pk, foreign.pk])
    assert client.post(leave).status_code == 404
    assert client.get(reverse("campaign_join", args=["no-such-token"])).status_code == 404


# --------------------------------------------------------------------------- the list


def test_the_list_shows_my_campaigns_and_my_role(campaign, organiser, player, stranger):
    make_user("x")
    response = client_for(player).get(reverse("campaign_list"))
    html = html_of(response)
    assert "Deadrock" in html
    assert "Playing “Red Jack&#x27;s Gang”" in html or "Playing “Red Jack's Gang”" in html
    assert "organised by orla" in html
    html = html_of(client_for(organiser).get(reverse("campaign_list")))
    assert "Organiser" in html and "2 gangs" in html
    html = html_of(client_for(stranger).get(reverse("campaign_list")))
    assert "Deadrock" not in html
    assert "invite link" in html  # the empty state says how to join
    assert reverse("campaign_create") in html


def test_the_list_counts_played_encounters(running, organiser):
    play(running)
    html = html_of(client_for(organiser).get(reverse("campaign_list")))
    assert "1 encounter played" in html
    assert "5 agreed per gang" in html


# --------------------------------------------------------------------------- set-up


def test_create_a_campaign_with_house_rules(organiser):
    client = client_for(organiser)
    response = client.post(
        reverse("campaign_create"),
        {
            "system": "bwg1",
            "name": "Gulch",
            "encounters": "4",
            "bwg1-limit": "",
            "bwg1-win_xp": "3",
            "bwg1-left_xp": "-1",
            "bwg1-per_advance": "6",
            "bwg1-purse_per_game": "0",
            "bwg1-death_roll": "on",
            # another game's fields are in the page too, and are ignored
            "gf26-win_xp": "not a number",
        },
    )
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert campaign.organiser == organiser and campaign.encounters == 4
    assert campaign.house_rules == {
        "limit": None,
        "win_xp": 3,
        "left_xp": -1,
        "per_advance": 6,
        "purse_per_game": 0,
        "death_roll": True,
    }


def test_the_create_page_offers_every_game_and_its_rules(organiser):
    html = html_of(client_for(organiser).get(reverse("campaign_create")))
    for system in ("rivals", "bwg1", "bwg2", "gf26", "gunfight"):
        assert f'value="{system}"' in html
        assert f'data-system="{system}"' in html
    assert "Rivals uses the book&#x27;s rules" in html or "Rivals uses the book's rules" in html
    assert "Rivals recommends 4 to 6" in html
    assert 'name="encounters"' in html and 'value="5"' in html
    assert 'name="gunfight-veteran_xp"' in html


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"encounters": "0"}, "encounters", "greater than or equal to 1"),
        ({"encounters": "abc"}, "encounters", "whole number"),
        ({"bwg1-win_xp": "-2"}, "bwg1-win_xp", "greater than or equal to 0"),
        ({"bwg1-per_advance": "0"}, "bwg1-per_advance", "greater than or equal to 1"),
        # docs/campaigns.md: left_xp is "0 or less" (leaving early is never a gain)
        ({"bwg1-left_xp": "2"}, "bwg1-left_xp", "less than or equal to 0"),
        ({"bwg1-limit": "2.5"}, "bwg1-limit", "whole number"),
        ({"name": "   "}, "name", "required"),
    ],
)
def test_create_with_bad_numbers_shows_the_error_beside_the_field(organiser, data, field, message):
    good = {
        "system": "bwg1",
        "name": "Gulch",
        "encounters": "5",
        "bwg1-win_xp": "2",
        "bwg1-left_xp": "0",
        "bwg1-per_advance": "5",
        "bwg1-purse_per_game": "10",
    }
    response = client_for(organiser).post(reverse("campaign_create"), {**good, **data})
    assert response.status_code == 200
    assert not Campaign.objects.exists()
    form = response.context["form"]
    assert field in form.errors
    assert message in " ".join(form.errors[field])
    assert message in html_of(response)


def test_create_a_rivals_campaign_takes_the_books_rules(organiser):
    client_for(organiser).post(
        reverse("campaign_create"), {"system": "rivals", "name": "R", "encounters": "6"}
    )
    assert Campaign.objects.get().house_rules == {"limit": 30}


def test_settings_change_name_and_encounters_and_rules_while_setting_up(campaign, organiser):
    client = client_for(organiser)
    url = reverse("campaign_settings", args=[campaign.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "Deadrock 1876", "encounters": "6"})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.name, campaign.encounters) == ("Deadrock 1876", 6)
    bad = client.post(url, {"name": "X", "encounters": "31"})
    assert bad.status_code == 200 and "encounters" in bad.context["form"].errors


def test_house_rules_are_read_only_once_started(organiser, player, rival):
    campaign = new_campaign(organiser, system="gf26", name="Iron")
    join(campaign, player, "gf26-legal-iron-company.json")
    join(campaign, rival, "gf26-legal-iron-company.json", name="Second Company")
    client = client_for(organiser)
    url = reverse("campaign_settings", args=[campaign.pk])
    client.post(
        url,
        {
            "name": "Iron",
            "encounters": "5",
            "gf26-limit": "600",
            "gf26-win_xp": "3",
            "gf26-left_xp": "0",
            "gf26-per_advance": "5",
            "gf26-purse_per_game": "10",
        },
    )
    campaign.refresh_from_db()
    assert campaign.house_rules["limit"] == 600 and campaign.house_rules["win_xp"] == 3
    client.post(reverse("campaign_start", args=[campaign.pk]))
    page = client.get(url)
    assert page.context["form"].fields["gf26-win_xp"].disabled
    assert "Fixed once the campaign has started" in html_of(page)
    response = client.post(url, {"name": "Iron II", "encounters": "5", "gf26-win_xp": "9"})
    assert response.status_code == 302, response.context["form"].errors
    campaign.refresh_from_db()
    assert campaign.name == "Iron II" and campaign.house_rules["win_xp"] == 3


# --------------------------------------------------------------------------- joining


def test_the_join_page_shows_the_campaign_and_my_gangs_of_its_game(campaign, stranger):
    builder_gang(stranger, SIX_OUTLAWS, name="Outlaws of mine")
    import_gang(stranger, read_roster((EXAMPLES / "bwg1-legal-dalton-boys.json").read_bytes()))
    response = client_for(stranger).get(reverse("campaign_join", args=[campaign.invite_token]))
    html = html_of(response)
    assert response.status_code == 200
    assert "<h1>Join “Deadrock”</h1>" in html
    assert "organised by <strong>orla</strong>" in html
    assert "Outlaws: Rivals" in html
    assert "Red Jack" in html and "The O&#x27;Neil Gang" in html
    assert "Outlaws of mine" in html
    assert "The Dalton Boys" not in html  # another game's gang is not offered


def test_join_without_a_gang_of_the_game_links_to_the_builder(campaign, stranger):
    html = html_of(client_for(stranger).get(reverse("campaign_join", args=[campaign.invite_token])))
    assert "You have no" in html
    assert reverse("gang_create") in html


def test_join_with_a_legal_gang_takes_a_copy(campaign, stranger):
    gang = builder_gang(stranger, SIX_OUTLAWS, name="Latecomers")
    url = reverse("campaign_join", args=[campaign.invite_token])
    before = CampaignEvent.objects.filter(campaign=campaign).count()
    response = client_for(stranger).post(url, {"gang": gang.pk})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert CampaignEvent.objects.filter(campaign=campaign).count() == before + 1
    entry = CampaignGang.objects.get(campaign=campaign, player=stranger)
    state = services.state_of(campaign)
    joined = state.gangs[str(entry.pk)]
    names = [m.name for m in joined.members.values()]
    # editing the builder gang later doesn't change the campaign's copy
    first = gang.members.order_by("position").first()
    first.name = "Renamed in the builder"
    first.save()
    gang.members.order_by("position").last().delete()
    gang.name = "Renamed gang"
    gang.save()
    again = services.state_of(campaign).gangs[str(entry.pk)]
    assert [m.name for m in again.members.values()] == names
    assert again.name == "Latecomers"
    assert again.roster == joined.roster
    # and the stranger is now a participant
    assert (
        client_for(stranger).get(reverse("campaign_detail", args=[campaign.pk])).status_code == 200
    )


def test_join_with_an_illegal_gang_shows_why_and_writes_nothing(campaign, stranger):
    gang = builder_gang(stranger, ILLEGAL)
    url = reverse("campaign_join", args=[campaign.invite_token])
    events = CampaignEvent.objects.count()
    rows = CampaignGang.objects.count()
    response = client_for(stranger).post(url, {"gang": gang.pk})
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors["gang"])
    assert "breaks the rules" in errors
    assert "breaks the rules" in html_of(response)
    assert CampaignEvent.objects.count() == events
    assert CampaignGang.objects.count() == rows


def test_join_twice_with_the_same_gang_is_refused_but_another_gang_may_join(campaign, player):
    url = reverse("campaign_join", args=[campaign.invite_token])
    same = CampaignGang.objects.get(campaign=campaign, player=player).source
    client = client_for(player)
    response = client.post(url, {"gang": same.pk})
    assert response.status_code == 200
    assert "has already joined" in " ".join(response.context["form"].errors["gang"])
    assert CampaignGang.objects.filter(campaign=campaign, player=player).count() == 1
    second = builder_gang(player, SIX_OUTLAWS, name="Second string")
    assert client.post(url, {"gang": second.pk}).status_code == 302
    assert len(services.state_of(campaign).gangs) == 3


def test_join_with_someone_elses_gang_is_refused(campaign, stranger, rival):
    theirs = builder_gang(rival, SIX_OUTLAWS, name="Not yours")
    url = reverse("campaign_join", args=[campaign.invite_token])
    response = client_for(stranger).post(url, {"gang": theirs.pk})
    assert response.status_code == 200
    assert "gang" in response.context["form"].errors
    assert not CampaignGang.objects.filter(player=stranger).exists()


def test_join_after_the_start_is_refused(running, stranger):
    gang = builder_gang(stranger, SIX_OUTLAWS)
    url = reverse("campaign_join", args=[running.invite_token])
    client = client_for(stranger)
    page = client.get(url)
    assert page.status_code == 200 and "already started" in html_of(page)
    assert 'data-testid="join-form"' not in html_of(page)
    response = client.post(url, {"gang": gang.pk})
    assert response.status_code == 200
    assert not CampaignGang.objects.filter(player=stranger).exists()


# --------------------------------------------------------------------------- start, finish, leave


def test_start_with_one_gang_is_refused(organiser, player):
    campaign = new_campaign(organiser)
    join(campaign, player)
    client = client_for(organiser)
    detail = html_of(client.get(reverse("campaign_detail", args=[campaign.pk])))
    assert 'data-testid="start"' not in detail
    response = client.post(reverse("campaign_start", args=[campaign.pk]), follow=True)
    assert response.status_code == 200
    assert "at least two gangs" in html_of(response)
    assert services.state_of(campaign).status == "setup"


def test_start_with_two_gangs(campaign, organiser):
    client = client_for(organiser)
    assert 'data-testid="start"' in html_of(
        client.get(reverse("campaign_detail", args=[campaign.pk]))
    )
    response = client.post(reverse("campaign_start", args=[campaign.pk]))
    assert response.status_code == 302
    assert services.state_of(campaign).status == "running"
    campaign.refresh_from_db()
    assert campaign.status == "running"
    # a second start is refused with a message, not a 500
    again = client.post(reverse("campaign_start", args=[campaign.pk]), follow=True)
    assert again.status_code == 200 and "You can&#x27;t start it" in html_of(again)


def test_a_get_on_an_action_goes_to_the_campaign(campaign, organiser):
    response = client_for(organiser).get(reverse("campaign_start", args=[campaign.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert services.state_of(campaign).status == "setup"


def test_finish_early_asks_first(running, organiser):
    play(running)
    client = client_for(organiser)
    url = reverse("campaign_finish", args=[running.pk])
    response = client.post(url)
    assert response.status_code == 200
    assert 'data-testid="finish-confirm"' in html_of(response)
    assert services.state_of(running).status == "running"
    response = client.post(url, {"confirm": "on"})
    assert response.status_code == 302
    state = services.state_of(running)
    assert state.status == "finished"
    html = html_of(client.get(reverse("campaign_detail", args=[running.pk])))
    assert 'data-testid="title-banner"' in html
    assert "Red Jack&#x27;s Gang" in html
    assert "The Most Wanted Outlaws in the Old West" in html


def test_finish_when_every_gang_played_needs_no_confirmation(organiser, player, rival):
    campaign = new_campaign(organiser, encounters=1)
    join(campaign, player, RED_JACKS)
    join(campaign, rival, SIX_OUTLAWS)
    services.record(campaign, None, "campaign_started", {})
    play(campaign)
    response = client_for(organiser).post(reverse("campaign_finish", args=[campaign.pk]))
    assert response.status_code == 302
    assert services.state_of(campaign).status == "finished"


def test_finish_with_an_open_encounter_is_refused_with_a_message(running, organiser):
    state = services.state_of(running)
    services.record(
        running, None, "encounter_begun", {"gangs": list(state.gangs)}, rng=random.Random(1)
    )
    client = client_for(organiser)
    response = client.post(
        reverse("campaign_finish", args=[running.pk]), {"confirm": "on"}, follow=True
    )
    assert response.status_code == 200
    assert "Finish the open encounter first" in html_of(response)
    assert services.state_of(running).status == "running"


def test_a_player_leaves_during_set_up(campaign, player, rival):
    mine = CampaignGang.objects.get(campaign=campaign, player=player)
    theirs = CampaignGang.objects.get(campaign=campaign, player=rival)
    client = client_for(player)
    forbidden = client.post(reverse("campaign_leave", args=[campaign.pk, theirs.pk]))
    assert forbidden.status_code == 403
    response = client.post(reverse("campaign_leave", args=[campaign.pk, mine.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_list")  # no longer in the campaign
    state = services.state_of(campaign)
    assert str(mine.pk) not in state.gangs
    assert CampaignGang.objects.filter(pk=mine.pk).exists()  # the log refers to it
    assert CampaignEvent.objects.filter(campaign=campaign, kind="gang_left").count() == 1


def test_the_organiser_may_remove_a_gang_during_set_up_but_not_after(campaign, organiser, rival):
    theirs = CampaignGang.objects.get(campaign=campaign, player=rival)
    client = client_for(organiser)
    html = html_of(client.get(reverse("campaign_detail", args=[campaign.pk])))
    assert 'data-testid="leave"' in html
    join(campaign, make_user("third"), SIX_OUTLAWS, name="Third")
    client.post(reverse("campaign_start", args=[campaign.pk]))
    response = client.post(reverse("campaign_leave", args=[campaign.pk, theirs.pk]), follow=True)
    assert response.status_code == 200
    assert "the campaign is running" in html_of(response)
    assert str(theirs.pk) in services.state_of(campaign).gangs


# --------------------------------------------------------------------------- the campaign's home


def test_detail_while_setting_up_shows_the_invite_link(campaign, player):
    html = html_of(client_for(player).get(reverse("campaign_detail", args=[campaign.pk])))
    invite = "http://testserver" + reverse("campaign_join", args=[campaign.invite_token])
    assert invite in html
    assert "Red Jack&#x27;s Gang" in html and "The O&#x27;Neil Gang" in html
    assert "The organiser starts the campaign" in html
    assert "<svg" not in html  # no charts before the start


def test_detail_when_running_shows_encounters_standings_members_and_charts(running, player):
    play(running)
    html = html_of(client_for(player).get(reverse("campaign_detail", args=[running.pk])))
    assert reverse("encounter_begin", args=[running.pk]) in html
    state = services.state_of(running)
    enc = state.encounters[0]
    assert reverse("encounter_detail", args=[running.pk, enc.id]) in html
    assert 'data-testid="last-encounter"' in html
    assert 'data-testid="standings"' in html
    assert "Deadrock - centre of town (rolled 1)" in html
    # standings: Red Jack's gang first with 14 reputation (6 + 4 x 2)
    standings = re.search(r'data-testid="standings".*?</table>', html, re.S).group(0)
    assert standings.index("Red Jack") < standings.index("O&#x27;Neil")
    assert "<strong>17</strong>" in standings
    # members, notoriety and the dead
    assert "Sarah" in html and "Loafer (+1)" in html
    assert 'badge error">dead' in html
    # the two charts, with headings and the figures
    assert html.count("<svg") == 2
    assert "Outlaw reputation after each encounter" in html
    assert "A gang's total is the reputation of its surviving outlaws." in html
    assert "Gang totals" in html
    assert "Red Jack (Red Jack&#x27;s Gang)" in html
    assert '<details class="chart-figures">' in html


def test_detail_highlights_an_open_encounter(running, player):
    state = services.state_of(running)
    services.record(
        running, None, "encounter_begun", {"gangs": list(state.gangs)}, rng=random.Random(2)
    )
    html = html_of(client_for(player).get(reverse("campaign_detail", args=[running.pk])))
    assert 'data-testid="open-encounters"' in html
    assert 'class="is-open"' in html
    assert "Being played" in html


def test_detail_escapes_user_text(organiser, player, rival):
    campaign = new_campaign(organiser, name=HOSTILE)
    join(campaign, player, RED_JACKS, name=HOSTILE)
    join(campaign, rival, SIX_OUTLAWS)
    services.record(campaign, None, "campaign_started", {})
    play(campaign)
    for url in (
        reverse("campaign_detail", args=[campaign.pk]),
        reverse("campaign_history", args=[campaign.pk]),
        reverse("campaign_list"),
    ):
        html = html_of(client_for(organiser).get(url))
        assert HOSTILE not in html, url
        assert "&lt;img src=file:///etc/passwd&gt;" in html, url


# --------------------------------------------------------------------------- history


def test_history_shows_every_line_with_dice_and_strikes_undone_ones(running, player):
    play(running, seed=3)
    state = services.state_of(running)
    services.record(
        running, None, "encounter_undone", {"encounter": state.encounters[0].id, "reason": "oops"}
    )
    response = client_for(player).get(reverse("campaign_history", args=[running.pk]))
    html = html_of(response)
    assert response.status_code == 200
    assert "joined with 5 members" in html
    assert "The campaign began with 2 gangs" in html
    assert "<del>Encounter 1: " in html  # struck out, as it was recorded
    assert "undid encounter 1 (oops)" in html
    assert "Rivals: encounter location" in html  # the dice, struck out with their line
    assert 'data-testid="die"' in html
    assert html.count('class="history-line undone"') >= 4
    assert "An encounter that was undone" in html


# --------------------------------------------------------------------------- query counts


def _count(client, url, django_assert_num_queries, expected):
    with django_assert_num_queries(expected):
        response = client.get(url)
    assert response.status_code == 200


# session, user, the campaign, its log (replayed), the user's gangs in it
DETAIL_QUERIES = 5
# session, user, the campaign, its log
HISTORY_QUERIES = 4
# session, user, the campaigns, all their logs, the user's gangs in them
LIST_QUERIES = 5


@pytest.mark.parametrize(("gangs", "encounters"), [(2, 0), (4, 3)])
def test_detail_and_history_cost_the_same_for_few_or_many_events(
    organiser, player, rival, django_assert_num_queries, gangs, encounters
):
    campaign = new_campaign(organiser)
    join(campaign, player, RED_JACKS)
    join(campaign, rival, SIX_OUTLAWS)
    for i in range(gangs - 2):
        join(campaign, make_user(f"extra{i}"), SIX_OUTLAWS, name=f"Extra {i}")
    services.record(campaign, None, "campaign_started", {})
    for n in range(encounters):
        play(campaign, seed=[2, 4, 6][n])
    if encounters:
        assert len(services.state_of(campaign).log) > 15
    for user in (player, organiser):
        client = client_for(user)
        detail = reverse("campaign_detail", args=[campaign.pk])
        _count(client, detail, django_assert_num_queries, DETAIL_QUERIES)
        history = reverse("campaign_history", args=[campaign.pk])
        _count(client, history, django_assert_num_queries, HISTORY_QUERIES)


@pytest.mark.parametrize("campaigns", [1, 4])
def test_the_list_costs_the_same_for_one_or_many_campaigns(
    organiser, player, rival, django_assert_num_queries, campaigns
):
    for i in range(campaigns):
        campaign = new_campaign(organiser, name=f"Campaign {i}")
        join(campaign, player, RED_JACKS)
        join(campaign, rival, SIX_OUTLAWS)
        services.record(campaign, None, "campaign_started", {})
        play(campaign, seed=i)
    _count(client_for(player), reverse("campaign_list"), django_assert_num_queries, LIST_QUERIES)


# --------------------------------------------------------------------------- printing


def test_print_the_campaign_gangs_current_roster(running, player):
    play(running)
    gang = CampaignGang.objects.get(campaign=running, player=player)
    url = reverse("campaign_gang_print", args=[running.pk, gang.pk]) + "?kind=sheet&paper=a4"
    response = client_for(player).get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="red-jacks-gang-sheet.pdf"'
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert "Red Jack" in text and "Sarah" in text


def test_print_one_members_card_of_the_opponent(running, player, fake_pdfs):
    play(running)
    state = services.state_of(running)
    theirs = CampaignGang.objects.get(campaign=running, player__username="rival")
    alive = state.gangs[str(theirs.pk)].alive[0]
    url = reverse("campaign_gang_print", args=[running.pk, theirs.pk])
    response = client_for(player).get(url + f"?kind=cards&member={alive.key}")
    assert response.status_code == 200
    assert "-card-" in response["Content-Disposition"]
    dead = next(m for m in state.gangs[str(theirs.pk)].members.values() if not m.alive)
    bad = client_for(player).get(url + f"?kind=cards&member={dead.key}")
    assert bad.status_code == 400  # a dead outlaw is no longer on the roster
    assert client_for(player).get(url + "?kind=poster").status_code == 400


def test_print_errors_show_the_pdf_error_page(running, player, monkeypatch):
    def broken(*args, **kwargs):
        raise printing.PdfTimeout("Making this PDF took too long.")

    monkeypatch.setattr(documents, "print_pdf", broken)
    gang = CampaignGang.objects.get(campaign=running, player=player)
    url = reverse("campaign_gang_print", args=[running.pk, gang.pk]) + "?kind=sheet"
    response = client_for(player).get(url)
    assert response.status_code == 504
    assert "took too long" in html_of(response)


# --------------------------------------------------------------------------- issue 19


def test_one_player_cannot_play_both_sides_unless_solo_play_is_on(organiser, player):
    """Item 6: a player with two gangs in a campaign can't begin an encounter between
    them (he would record, confirm and roll for both sides) unless the organiser allows
    solo play; the page says which."""
    campaign = new_campaign(organiser)
    join(campaign, player, RED_JACKS)
    join(campaign, player, SIX_OUTLAWS)
    services.record(campaign, None, "campaign_started", {})
    a, b = gang_ids(campaign)
    begin = reverse("encounter_begin", args=[campaign.pk])
    page = html_of(client_for(player).get(begin))
    assert "one player's gangs don't fight each other" in html.unescape(page)
    response = client_for(player).post(begin, {"gang": a, "against": b})
    assert response.status_code == 200
    assert "one player can't play both sides" in html.unescape(html_of(response))
    assert not services.state_of(campaign).encounters
    settings_url = reverse("campaign_settings", args=[campaign.pk])
    response = client_for(organiser).post(
        settings_url, {"name": campaign.name, "encounters": "5", "solo_play": "on"}
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.solo_play
    detail = reverse("campaign_detail", args=[campaign.pk])
    assert "solo play allowed" in html_of(client_for(player).get(detail))
    response = client_for(player).post(begin, {"gang": a, "against": b})
    assert response.status_code == 302
    assert len(services.state_of(campaign).encounters) == 1


def test_the_same_gang_joins_once(campaign, player):
    gang = CampaignGang.objects.get(campaign=campaign, player=player).source
    with pytest.raises(services.CampaignError, match="already joined"):
        services.join_campaign(campaign, player, gang)
    assert campaign.gangs.count() == 2


@pytest.mark.django_db(transaction=True)
def test_simultaneous_joins_put_a_gang_in_once():
    """Item 4: ten joins of one gang at the same moment (parallel threads, each its own
    database connection): one copy joins."""
    from tests.parallel import in_parallel

    organiser, player = make_user("organiser"), make_user("player")
    campaign = new_campaign(organiser)
    gang = builder_gang(player)
    results = in_parallel(lambda i: services.join_campaign(campaign, player, gang), 10)
    joined = [r for r in results if isinstance(r, CampaignGang)]
    # On PostgreSQL the joins wait for each other and one goes in; the in-memory SQLite
    # test database may refuse the ones that come while another writes (table locked).
    expected = 1 if connection.vendor == "postgresql" else len(joined)
    assert len(joined) == expected <= 1, results
    assert CampaignGang.objects.filter(campaign=campaign).count() == expected
    assert CampaignEvent.objects.filter(campaign=campaign, kind="gang_joined").count() == expected
