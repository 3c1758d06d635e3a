"""Issue 25 (an organiser running a three-round Swiss season for eight players on phones):
the head-to-head column shows the head-to-head docs/leagues.md defines; counts in
sentences agree with their number ("All 1 round is paired"); the join forms preselect the
only gang that can join and offer joining only to whoever has not joined; and every
table and chart the league and club pages build in Python shows hostile gang and user
names as text, never as markup. The pages at 375 px: tests/browser/test_league_phone.py.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from builder.services import import_gang
from campaigns import services as campaign_services
from campaigns.leagues import board, services
from campaigns.leagues.models import (
    Club,
    ClubMember,
    League,
    MatchReport,
    Pairing,
    Registration,
    Round,
)
from campaigns.leagues.standings import Result, standings
from campaigns.models import CampaignGang
from rules import get_system
from rules.roster import read_roster
from tests.conftest import PASSWORD

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
DALTONS = "bwg1-legal-dalton-boys.json"  # bwg1, 361 Fame: legal under 400
CREW = "bwg2-legal-tranquility-crew-700.json"  # bwg2, 700 Fame
SWITCH = "bwg2-legal-switch-sides-325.json"  # bwg2, 325 Fame
RED_JACKS = "rivals-legal-red-jacks-gang.json"
SIX_OUTLAWS = "rivals-legal-six-outlaws.json"


# --------------------------------------------------------------------------- helpers


def make_user(name: str) -> User:
    return User.objects.create_user(name, password=PASSWORD)


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def builder_gang(user: User, example: str = DALTONS, name: str | None = None):
    roster = read_roster((EXAMPLES / example).read_bytes())
    if name is not None:
        roster["name"] = name
    return import_gang(user, roster)


def text_of(response) -> str:
    """The page's text with entities decoded (apostrophes are escaped in HTML)."""
    return html.unescape(response.content.decode())


def by_name(rows):
    return {r.name: r for r in rows}


# --------------------------------------------------------------------------- head-to-head


def test_the_h2h_column_shows_the_three_way_head_to_head_not_the_last_pairs():
    """docs/leagues.md: head-to-head is "the points each tied player scored in the
    matches between the tied players only". Ann, Bob and Cy are level on points (5) and
    Victory Point difference (+1), and drew each other: each scored 2 among the three,
    which separates nobody. Strength of schedule puts Cy first; Ann and Bob, still level,
    are ranked again among themselves (their one draw: 1 each, still level). The column
    shows each one's head-to-head among the three tied players, 2; it showed 1 for Ann
    and Bob, the value of the last smaller group ranked."""
    players = [(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Xan"), (5, "Yo"), (6, "Zed")]
    players.append((7, "Wu"))
    results = [
        Result(1, 1, 2, 5, 5, None),  # Ann draws Bob
        Result(2, 1, 3, 5, 5, None),  # Ann draws Cy
        Result(3, 2, 3, 5, 5, None),  # Bob draws Cy
        Result(4, 1, 4, 1, 0, 1),  # Ann beats Xan (0 points)
        Result(4, 2, 5, 1, 0, 2),  # Bob beats Yo (0 points)
        Result(4, 3, 6, 1, 0, 3),  # Cy beats Zed (3 points: he beat Wu)
        Result(1, 6, 7, 1, 0, 6),  # Zed beats Wu
    ]
    rows = standings(players, results, tiebreaks=("vp_diff", "head_to_head", "sos"))
    by = by_name(rows)
    assert {(by[n].points, by[n].vp_diff) for n in ("Ann", "Bob", "Cy")} == {(5, 1)}
    assert [r.name for r in rows[:3]] == ["Cy", "Ann", "Bob"]
    assert by["Ann"].decided_by == "Strength of schedule" and by["Ann"].rank == 2
    assert by["Bob"].rank == 2 and by["Ann"].tied and by["Bob"].tied  # level on everything
    assert (by["Cy"].head_to_head, by["Ann"].head_to_head, by["Bob"].head_to_head) == (2, 2, 2)


def test_after_head_to_head_splits_a_tie_the_column_keeps_the_whole_ties_figures():
    """Ann, Bob, Cy and Dee are level on 6 points and on Victory Point difference (0),
    and all met: head-to-head among the four gives Ann 6, Bob 6, Cy 3, Dee 3, which splits
    them in two. Each pair, still level, is ranked again from the first tiebreaker, and
    head-to-head between the two of them separates it (Ann beat Bob, Cy beat Dee: "on
    head-to-head"). The column shows the head-to-head among the four tied players; it
    showed the last pair's (3 and 0)."""
    players = [(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")]
    players += [(5, "Out1"), (6, "Out2"), (7, "Out3"), (8, "Out4")]
    results = [
        Result(1, 1, 2, 1, 0, 1),  # Ann beats Bob
        Result(1, 3, 4, 1, 0, 3),  # Cy beats Dee
        Result(2, 1, 3, 1, 0, 1),  # Ann beats Cy
        Result(2, 2, 4, 1, 0, 2),  # Bob beats Dee
        Result(3, 4, 1, 1, 0, 4),  # Dee beats Ann
        Result(3, 2, 3, 1, 0, 2),  # Bob beats Cy
        Result(4, 5, 1, 1, 0, 5),  # Ann loses to Out1
        Result(4, 6, 2, 1, 0, 6),  # Bob loses to Out2
        Result(4, 3, 7, 1, 0, 3),  # Cy beats Out3
        Result(4, 4, 8, 1, 0, 4),  # Dee beats Out4
    ]
    rows = standings(players, results, tiebreaks=("vp_diff", "head_to_head", "sos"))
    by = by_name(rows)
    tied = ["Ann", "Bob", "Cy", "Dee"]
    assert {(by[n].points, by[n].vp_diff) for n in tied} == {(6, 0)}
    assert [r.name for r in rows[:4]] == tied
    assert [by[n].rank for n in tied] == [1, 2, 3, 4]
    assert [by[n].decided_by for n in tied[1:]] == ["Head-to-head"] * 3
    assert [by[n].head_to_head for n in tied] == [6, 6, 3, 3]
    assert by["Out1"].head_to_head is None  # Out1 and Out2 never met: it doesn't count


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def member(db) -> User:
    return make_user("mae")


@pytest.fixture
def members(member) -> list[User]:
    return [member]


@pytest.fixture
def club_details() -> dict:
    return {"name": "Tombstone Wargamers"}


def new_league(club: Club, **fields) -> League:
    values = {"name": "Spring", "system": "bwg2", "cap": 700, "pairing": League.SWISS}
    values["rounds"] = 3
    values.update(fields)
    return services.create_league(club, **values)


def add_players(league: League, n: int) -> list[Registration]:
    """``n`` club members registered directly (no builder gang: pairing needs none)."""
    out = []
    for i in range(n):
        user = make_user(f"player{i:02d}")
        ClubMember.objects.create(club=league.club, user=user)
        out.append(
            Registration.objects.create(league=league, player=user, gang_name=f"Gang {i:02d}")
        )
    return out


def confirm_round(league: League, number: int) -> None:
    pairings = Pairing.objects.filter(round__league=league, round__number=number, b__isnull=False)
    for p in pairings.select_related("a__player", "b__player"):
        report = services.submit_report(p, p.a.player, {"vp_a": 10, "vp_b": 4, "winner": "a"})
        services.confirm_report(report, p.b.player)


# --------------------------------------------------------------------------- counts


def test_a_one_round_league_is_all_paired_in_the_singular(club, organiser):
    """ "All 1 rounds are paired": with one round planned, the sentence is singular."""
    league = new_league(club, rounds=1)
    add_players(league, 2)
    services.next_round(league)
    page = text_of(client_for(organiser).get(reverse("league_rounds", args=[league.pk])))
    assert "The 1 round planned is paired." in page
    assert "1 rounds" not in page
    confirm_round(league, 1)
    with pytest.raises(services.LeagueError) as refused:
        services.next_round(league)
    assert refused.value.message == "The 1 round planned is played: finish the league."


def test_three_rounds_are_still_all_paired_in_the_plural(club, organiser):
    league = new_league(club, rounds=2)
    add_players(league, 2)
    for number in (1, 2):
        services.next_round(league)
        confirm_round(league, number)
    page = text_of(client_for(organiser).get(reverse("league_rounds", args=[league.pk])))
    assert "All 2 rounds are paired." in page
    with pytest.raises(services.LeagueError, match=r"All 2 rounds are played: finish the league\."):
        services.next_round(league)


def test_fewer_rounds_than_one_paired_is_refused_in_the_singular(club, organiser):
    """(The settings form takes 1 round at least: only the service meets 0.)"""
    league = new_league(club)
    add_players(league, 2)
    services.next_round(league)
    with pytest.raises(services.LeagueError) as refused:
        services.update_league(league, rounds=0)
    assert refused.value.message == "1 round is already paired: at least that many."


def test_finishing_early_says_only_1_of_3_rounds_is_paired(club, organiser):
    league = new_league(club)
    add_players(league, 2)
    services.next_round(league)
    confirm_round(league, 1)
    response = client_for(organiser).post(reverse("league_finish", args=[league.pk]))
    assert "Only 1 of the 3 rounds is paired." in text_of(response)


# --------------------------------------------------------------------------- joining a league


def register_url(league: League) -> str:
    return reverse("league_register", args=[league.pk])


def selected_options(page: str, name: str) -> list[str]:
    """The values of the selected options of the select named ``name``."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, f"no select {name}"
    return re.findall(r'<option value="([^"]*)"[^>]*\bselected\b', select[1])


def test_the_register_page_chooses_the_only_gang_that_can_play(club, member):
    league = new_league(club, cap=500)
    illegal = builder_gang(member, CREW)  # 675 Fame: over the cap
    legal = builder_gang(member, SWITCH)  # 325 Fame
    page = text_of(client_for(member).get(register_url(league)))
    assert selected_options(page, "gang") == [str(legal.pk)]
    assert "the only one of your gangs that can play in this league: it is chosen." in page
    assert f"“{legal.name}” is the only one" in page
    assert illegal.name in page  # still listed, with why it can't play
    response = client_for(member).post(register_url(league), {"gang": legal.pk})
    assert response.status_code == 302
    assert Registration.objects.get(league=league, player=member).gang == legal


def test_the_register_page_lets_the_player_choose_among_several(club, member):
    league = new_league(club)  # 700 Fame: both gangs are legal
    builder_gang(member, CREW)
    builder_gang(member, SWITCH)
    page = text_of(client_for(member).get(register_url(league)))
    assert selected_options(page, "gang") == [""]  # "Choose one of your gangs"
    assert '<option value="" selected>Choose one of your gangs</option>' in page
    assert 'data-testid="only-gang"' not in page


def test_a_member_who_has_not_registered_is_offered_it_on_the_league_page(club, member, organiser):
    league = new_league(club)
    gang = builder_gang(member, CREW)
    client = client_for(member)
    detail = reverse("league_detail", args=[league.pk])
    page = text_of(client.get(detail))
    assert 'data-testid="own-join"' in page and "Play in this league" in page
    assert selected_options(page, "gang") == [str(gang.pk)]
    assert f"“{gang.name}” is your only Blackwater Gulch 2nd edition gang: it is chosen." in page
    form = re.search(r'<form method="post" action="([^"]+)" novalidate>', page)
    assert form and form[1] == register_url(league)
    assert client.post(form[1], {"gang": gang.pk}).status_code == 302
    assert Registration.objects.filter(league=league, player=member, gang=gang).exists()
    assert 'data-testid="own-join"' not in text_of(client.get(detail))  # she plays now


def test_a_member_with_several_gangs_chooses_on_the_league_page(club, member):
    league = new_league(club)
    builder_gang(member, CREW)
    builder_gang(member, SWITCH)
    page = text_of(client_for(member).get(reverse("league_detail", args=[league.pk])))
    assert selected_options(page, "gang") == []
    assert '<option value="">Choose one of your gangs</option>' in page
    assert 'data-testid="only-gang"' not in page


def test_no_registration_is_offered_once_the_league_runs(club, member, organiser):
    league = new_league(club)
    builder_gang(member, CREW)
    add_players(league, 2)
    services.next_round(league)
    for user in (member, organiser):
        page = text_of(client_for(user).get(reverse("league_detail", args=[league.pk])))
        assert 'data-testid="own-join"' not in page


# --------------------------------------------------------------------------- joining a campaign


@pytest.fixture
def campaign(organiser, member):
    campaign = campaign_services.create_campaign(
        organiser, system="rivals", name="Deadrock", encounters=5, house_rules={}
    )
    campaign_services.join_campaign(campaign, member, builder_gang(member, RED_JACKS))
    return campaign


def join_url(campaign) -> str:
    return reverse("campaign_join", args=[campaign.invite_token])


def test_the_campaign_invite_chooses_the_only_gang(campaign):
    player = make_user("pat")
    gang = builder_gang(player, SIX_OUTLAWS)
    page = text_of(client_for(player).get(join_url(campaign)))
    assert selected_options(page, "gang") == [str(gang.pk)]
    assert f"“{gang.name}” is the only one of your gangs that can join: it is chosen." in page
    assert 'data-testid="joined"' not in page


def test_the_campaign_invite_lets_the_player_choose_among_several(campaign):
    player = make_user("pat")
    builder_gang(player, SIX_OUTLAWS)
    builder_gang(player, RED_JACKS)
    page = text_of(client_for(player).get(join_url(campaign)))
    assert selected_options(page, "gang") == [""]
    assert 'data-testid="only-gang"' not in page
    assert "Choose one of your gangs" in page


def test_a_player_who_joined_is_told_so_and_not_asked_to_join_again(campaign, member):
    """Bea joined with the Red Jacks. Opening the invite again says so, with the way to
    the campaign; joining with another gang is still possible, behind a "Join with
    another of your gangs…" that chooses her only gang not in the campaign."""
    joined = CampaignGang.objects.get(campaign=campaign, player=member).source
    client = client_for(member)
    page = text_of(client.get(join_url(campaign)))
    assert f"You play in this campaign with <strong>{joined.name}</strong>." in page
    assert "Join with one of your gangs" not in page
    assert 'data-testid="join-another"' not in page  # no other gang of the game
    other = builder_gang(member, SIX_OUTLAWS, name="Second string")
    page = text_of(client.get(join_url(campaign)))
    another = page[page.index('data-testid="join-another"') :]
    assert another.index("Join with another of your gangs…") < another.index("<form")
    assert selected_options(page, "gang") == [str(other.pk)]
    assert client.post(join_url(campaign), {"gang": other.pk}).status_code == 302
    assert CampaignGang.objects.filter(campaign=campaign, player=member).count() == 2


def test_the_organiser_is_not_offered_to_join_once_she_has(campaign, organiser):
    gang = builder_gang(organiser, SIX_OUTLAWS, name="Ada's Outlaws")
    builder_gang(organiser, RED_JACKS, name="Ada's spare gang")
    client = client_for(organiser)
    detail = reverse("campaign_detail", args=[campaign.pk])
    page = text_of(client.get(detail))
    assert 'data-testid="own-join"' in page and "Join with one of my gangs" in page
    assert client.post(join_url(campaign), {"gang": gang.pk}).status_code == 302
    page = text_of(client.get(detail))
    assert 'data-testid="own-join"' not in page and "Join with one of my gangs" not in page
    assert "Ada's Outlaws" in page  # she plays, and the campaign is still being set up
    assert 'data-testid="start"' in page


def test_the_organiser_chooses_among_several_gangs(campaign, organiser):
    builder_gang(organiser, SIX_OUTLAWS)
    builder_gang(organiser, RED_JACKS)
    page = text_of(client_for(organiser).get(reverse("campaign_detail", args=[campaign.pk])))
    assert selected_options(page, "gang") == []
    assert '<option value="">Choose one of your gangs</option>' in page


def test_the_organisers_only_gang_is_chosen(campaign, organiser):
    gang = builder_gang(organiser, SIX_OUTLAWS, name="Ada's Outlaws")
    page = text_of(client_for(organiser).get(reverse("campaign_detail", args=[campaign.pk])))
    assert selected_options(page, "gang") == [str(gang.pk)]
    game = get_system("rivals").name
    assert f"“Ada's Outlaws” is your only {game} gang: it is chosen." in page


# --------------------------------------------------------------------------- hostile names

#: user names and gang names that are markup; each must be shown as the text it is
HOSTILE_USERS = [
    "<script>alert(1)</script>",
    "<b>x</b>",
    '"><img src=x onerror=alert(1)>',
    "<b onclick=alert(3)>u</b>",
    "'><script src=//evil.example/u.js></script>",
]
HOSTILE_GANGS = [
    "<script>alert(2)</script>",
    "<b>y</b>",
    "'><img src=y onerror=alert(2)>",
    '"><b>g</b>',
    "<img src=z onerror=alert(4)>",
]
HOSTILE_PROBLEM = "<b>Raise</b> <img src=p onerror=alert(5)> Str"


class Markup(HTMLParser):
    """The elements of a page, and its text (entities decoded, as a reader sees it)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def assert_shown_as_text(page: str, names: list[str], where: str) -> None:
    """No element or event handler came from user text: no <b> or <img>, no script but
    the site's own files, no on… attribute; and each name is in the text, as typed."""
    parsed = Markup()
    parsed.feed(page)
    parsed.close()
    for tag, attrs in parsed.tags:
        assert tag not in ("b", "img"), f"{where}: a <{tag}> element from user text"
        if tag == "script":
            assert (attrs.get("src") or "").startswith("/static/"), f"{where}: {attrs}"
        handlers = [a for a in attrs if a.startswith("on")]
        assert not handlers, f"{where}: <{tag}> has {handlers}"
    text = "".join(parsed.text)
    for name in names:
        assert name in text, f"{where}: {name!r} is not shown as text"


@pytest.fixture
def hostile_league(club, organiser):
    """Five players whose names and gangs' names are markup, in a Swiss league of three
    rounds: every gang plays on side a and on side b, wins on each side, draws, has a
    bye; the last round has a report waiting and a match not reported. One gang is
    illegal, with a problem that is markup too."""
    league = new_league(club, name="Hostile League")
    regs = []
    for i, (username, gang_name) in enumerate(zip(HOSTILE_USERS, HOSTILE_GANGS, strict=True)):
        user = make_user(username)
        ClubMember.objects.create(club=club, user=user)
        regs.append(
            Registration.objects.create(
                league=league,
                player=user,
                gang_name=gang_name,
                legal=i != 3,
                problems=HOSTILE_PROBLEM if i == 3 else "",
            )
        )
    a, b, c, d, e = regs
    rounds = {
        1: [(a, b, "a"), (c, d, "b"), (e, None, None)],
        2: [(b, c, "a"), (d, e, "b"), (a, None, None)],
        3: [(e, a, "submitted"), (c, b, "draw"), (d, None, None)],
        4: [(b, e, None), (a, d, "a"), (c, None, None)],
    }
    for number, tables in rounds.items():
        rnd = Round.objects.create(league=league, number=number)
        for table, (x, y, outcome) in enumerate(tables, start=1):
            pairing = Pairing.objects.create(round=rnd, table=table, a=x, b=y)
            if y is None or outcome is None:
                continue
            MatchReport.objects.create(
                pairing=pairing,
                submitted_by=x.player,
                vp_a=7,
                vp_b=7 if outcome == "draw" else 3,
                winner="a" if outcome == "submitted" else outcome,
                status=MatchReport.SUBMITTED if outcome == "submitted" else MatchReport.CONFIRMED,
                scenario="<b>Bank</b> <img src=s onerror=alert(6)>",
            )
    League.objects.filter(pk=league.pk).update(status=League.RUNNING, rounds=4)
    league.refresh_from_db()
    return league


def test_the_public_page_shows_hostile_names_as_text(hostile_league):
    """The public page's standings (built in Python: board.py standings_rows) and each
    round's results (rendered by leagues/_result_rows.html): every gang and player, on
    either side of a table, winning on either side, and the chart's titles."""
    page = Client().get(reverse("league_public", args=[hostile_league.public_token]))
    assert page.status_code == 200
    html_page = page.content.decode()
    assert_shown_as_text(html_page, HOSTILE_USERS + HOSTILE_GANGS + [HOSTILE_PROBLEM], "public")
    text = html.unescape(re.sub(r"<[^>]+>", "", html_page))
    for gang in (HOSTILE_GANGS[0], HOSTILE_GANGS[3]):  # won on side a, and on side b
        assert f"{gang} won" in text
    # each round's results: every gang on side b of some table, shown as text
    results = html_page[html_page.index('data-testid="public-round"') :]
    for gang in HOSTILE_GANGS[1:]:  # b of some table in rounds 1-4
        assert html.escape(gang) in results


def test_the_board_renders_each_rounds_results_with_the_template(hostile_league, monkeypatch):
    """campaigns/leagues/board.py results: each round's rows come from the template
    (leagues/_result_rows.html), which escapes every name, once; a round is kept in the
    cache under a digest of what it shows, so a new result renders only its own round
    again, and another language renders every round in its words."""
    rendered: list[str] = []
    render = board.render_to_string

    def counted(name, context):
        rendered.append(name)
        return render(name, context)

    monkeypatch.setattr(board, "render_to_string", counted)
    rounds = board.results(board.read_board(hostile_league))
    assert [r.number for r in rounds] == [4, 3, 2, 1]
    assert rendered == [board.RESULT_ROWS] * 4
    rows = "".join(r.rows for r in rounds)
    assert_shown_as_text(rows, HOSTILE_USERS + HOSTILE_GANGS, "results")
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in rows
    assert "<script" not in rows and "&amp;lt;" not in rows
    assert rows.count("<tr>") == 12
    assert "Not reported yet" in rows and "Waiting for the opponent" in rows
    # read again: every round from the cache, the same rows
    rendered.clear()
    again = board.results(board.read_board(hostile_league))
    assert rendered == [] and [r.rows for r in again] == [r.rows for r in rounds]
    # round 3's waiting report confirmed: round 3 alone is rendered again
    MatchReport.objects.filter(
        pairing__round__league=hostile_league, status=MatchReport.SUBMITTED
    ).update(status=MatchReport.CONFIRMED)
    after = board.results(board.read_board(hostile_league))
    assert rendered == [board.RESULT_ROWS]
    assert "Waiting for the opponent" not in after[1].rows
    assert html.escape(f"{HOSTILE_GANGS[4]} won") in after[1].rows
    assert [r.rows for r in after[::2]] == [r.rows for r in rounds[::2]]
    rendered.clear()
    with translation.override("fr"):
        french = board.results(board.read_board(hostile_league))
    assert rendered == [board.RESULT_ROWS] * 4
    assert "Pas encore" in "".join(r.rows for r in french)


def test_the_league_pages_show_hostile_names_as_text(hostile_league, organiser):
    client = client_for(organiser)
    league = hostile_league
    everyone = HOSTILE_USERS + HOSTILE_GANGS
    detail = client.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert_shown_as_text(detail, [*everyone, HOSTILE_PROBLEM], "league page")
    assert 'data-testid="h2h-matrix"' in detail and 'data-testid="league-chart"' in detail
    assert_shown_as_text(
        client.get(reverse("league_rounds", args=[league.pk])).content.decode(),
        everyone,
        "rounds",
    )
    for reg in league.registrations.select_related("player"):
        history = client.get(reverse("league_player", args=[league.pk, reg.pk]))
        assert_shown_as_text(
            history.content.decode(), [reg.gang_name, reg.player.username], f"history {reg}"
        )
    for pairing in Pairing.objects.filter(round__league=league, b__isnull=False).select_related(
        "a__player", "b__player"
    ):
        match = client.get(reverse("match_detail", args=[league.pk, pairing.pk]))
        names = [pairing.a.gang_name, pairing.b.gang_name]
        assert_shown_as_text(match.content.decode(), names, f"match {pairing.pk}")
    club = client.get(reverse("club_detail", args=[league.club_id])).content.decode()
    assert_shown_as_text(club, HOSTILE_USERS, "club")


def test_the_standings_rows_escape_each_piece_of_user_text(hostile_league, organiser):
    """The rows are HTML built in Python: the gang (a link, and on the public page a
    span), the player, and an illegal gang's problems each come out escaped, once (not
    twice: "&amp;lt;" would show the entity to the reader)."""
    detail = client_for(organiser).get(reverse("league_detail", args=[hostile_league.pk]))
    public = Client().get(reverse("league_public", args=[hostile_league.public_token]))
    for response in (detail, public):
        page = response.content.decode()
        rows = page[page.index("<tbody>", page.index('data-testid="standings"')) :]
        rows = rows[: rows.index("</tbody>")]
        for name in HOSTILE_GANGS + HOSTILE_USERS + [HOSTILE_PROBLEM]:
            assert html.escape(name) in rows
            assert "&amp;lt;" not in rows
        assert_shown_as_text(rows, HOSTILE_GANGS + HOSTILE_USERS, "standings rows")


def test_the_register_page_chooses_the_only_gang_in_the_leagues_campaign(club, organiser, member):
    """A league that feeds a campaign: the member's one gang in it is chosen (with
    "None" still there to pick: results are then not fed to the campaign)."""
    campaign = campaign_services.create_campaign(
        organiser, system="bwg2", name="Gulch run", encounters=5, house_rules={}
    )
    league = new_league(club, campaign=campaign)
    builder_gang(member, CREW)
    in_campaign = campaign_services.join_campaign(campaign, member, builder_gang(member, SWITCH))
    page = text_of(client_for(member).get(register_url(league)))
    assert selected_options(page, "campaign_gang") == [str(in_campaign.pk)]
    assert "None (results are not fed to the campaign)" in page
    assert f"“{in_campaign.name}” is your only gang in the campaign “Gulch run”" in page


def test_a_confirmed_result_renders_the_public_rows_before_anyone_asks(
    hostile_league, background, monkeypatch, django_capture_on_commit_callbacks
):
    """A report confirmed (league_changed) submits the render of the league's result rows
    (campaigns/leagues/tasks.py), debounced by the league; run, it fills the cache in
    every language the site offers, so the public page's next reader renders nothing."""
    from campaigns.leagues import tasks

    report = MatchReport.objects.get(
        pairing__round__league=hostile_league, status=MatchReport.SUBMITTED
    )
    pairing = report.pairing
    side_a = report.submitted_by_id == pairing.a.player_id
    opponent = pairing.b.player if side_a else pairing.a.player
    background.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.confirm_report(report, opponent)
    submitted = background.tasks("campaigns.leagues.tasks.render_results")
    # (one per change the confirmation makes: the key runs only the last)
    assert submitted and {s.key for s in submitted} == {f"league-results:{hostile_league.pk}"}
    assert all(s.kwargs == {"league_id": hostile_league.pk} for s in submitted)
    assert background.run_all() >= 1

    rendered: list[str] = []
    render = board.render_to_string
    monkeypatch.setattr(
        board,
        "render_to_string",
        lambda name, context: rendered.append(name) or render(name, context),
    )
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            rounds = board.results(board.read_board(hostile_league))
        assert len(rounds) == 4
    assert rendered == []
    assert tasks.render_results(hostile_league.pk + 999) == 0  # a league gone: nothing
