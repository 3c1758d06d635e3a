"""The league pages (campaigns/leagues/views/leagues.py): standings, match reports, a player's
history, the public page and the CSV exports; who may see and do what; query counts."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import F
from django.test import Client
from django.urls import reverse

from builder.models import Gang
from builder.services import import_gang
from campaigns.leagues import services
from campaigns.leagues.models import (
    Club,
    League,
    MatchReport,
    Pairing,
    Registration,
    Round,
)
from rules import get_system
from rules.roster import read_roster
from tests.factories import recruit, touch
from tests.helpers.pages import html_of
from tests.helpers.users import client_for, make_user

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
DALTONS = "bwg1-legal-dalton-boys.json"  # 361 Fame, legal under 400
HOSTILE = "<img src=x onerror=alert(1)>"
D = "\u2013"  # an en dash, as in "12-8"


# --------------------------------------------------------------------------- helpers


def builder_gang(user: User, name: str | None = None, example: str = DALTONS):
    roster = read_roster((EXAMPLES / example).read_bytes())
    if name is not None:
        roster["name"] = name
    return import_gang(user, roster)


def new_league(club: Club, **fields) -> League:
    values = {
        "name": "Spring League",
        "system": "bwg1",
        "cap": 400,
        "pairing": League.ROUND_ROBIN,
        "rounds": 3,
    }
    values.update(fields)
    return services.create_league(club, **values)


def pairing_of(league: League, number: int, a: Registration, b: Registration) -> Pairing:
    return Pairing.objects.get(round__league=league, round__number=number, a=a, b=b)


def play(
    league: League, number: int, results: dict[tuple[Registration, Registration], tuple]
) -> Round:
    """Make round ``number`` by hand with the given confirmed results
    ``{(a, b): (vp_a, vp_b, winner)}``; a ``(a, None)`` key is a bye."""
    rnd = Round.objects.create(league=league, number=number)
    for table, ((a, b), result) in enumerate(results.items(), start=1):
        pairing = Pairing.objects.create(round=rnd, table=table, a=a, b=b)
        if b is not None and result is not None:
            vp_a, vp_b, winner = result
            MatchReport.objects.create(
                pairing=pairing,
                submitted_by=a.player,
                vp_a=vp_a,
                vp_b=vp_b,
                winner=winner,
                status=MatchReport.CONFIRMED,
            )
    if league.status != League.RUNNING:
        league.status = League.RUNNING
        league.save(update_fields=["status"])
    return rnd


def register(league: League, user: User, name: str | None = None) -> Registration:
    return services.register(league, user, builder_gang(user, name or f"{user.username}'s Boys"))


def report_data(**overrides) -> dict[str, str]:
    data = {
        "scenario": "Bank Job",
        "deployment": "Opposite corners",
        "vp_a": "12",
        "vp_b": "8",
        "winner": "a",
        "casualties": "",
        "notes": "",
    }
    data.update({k: str(v) for k, v in overrides.items()})
    return data


def settle_data(**overrides) -> dict[str, str]:
    return {f"settle-{k}": v for k, v in report_data(**overrides).items()}


def standing(response, registration: Registration) -> str:
    """The standings row of a registration, as HTML."""
    html = html_of(response)
    start = html.index(f'data-player="{registration.pk}"')
    return html[start : html.index("</tr>", start)]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def ann(db) -> User:
    return make_user("ann")


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
def league(club) -> League:
    return new_league(club)


@pytest.fixture
def regs(league, ann, bob, cy) -> dict[str, Registration]:
    return {u.username: register(league, u) for u in (ann, bob, cy)}


@pytest.fixture
def running(league, regs) -> League:
    """Round 1 paired: ann v bob (table 1, not reported), cy has a bye (table 2)."""
    play(league, 1, {(regs["ann"], regs["bob"]): None, (regs["cy"], None): None})
    league.refresh_from_db()
    return league


@pytest.fixture
def match(running, regs) -> Pairing:
    pairing = Pairing.objects.get(round__league=running, b__isnull=False)
    assert {pairing.a_id, pairing.b_id} == {regs["ann"].pk, regs["bob"].pk}
    return pairing


def sides(match: Pairing, regs) -> tuple[User, User]:
    """The players at sides a and b of ``match``."""
    by_id = {r.pk: r.player for r in regs.values()}
    return by_id[match.a_id], by_id[match.b_id]


def step_url(match: Pairing, step: str) -> str:
    return reverse("match_step", args=[match.round.league_id, match.pk, step])


def match_url(match: Pairing) -> str:
    return reverse("match_detail", args=[match.round.league_id, match.pk])


# --------------------------------------------------------------------------- who may see what


def page_urls(league: League, match: Pairing, reg: Registration) -> dict[str, str]:
    return {
        "detail": reverse("league_detail", args=[league.pk]),
        "player": reverse("league_player", args=[league.pk, reg.pk]),
        "match": reverse("match_detail", args=[league.pk, match.pk]),
        "standings_csv": reverse("league_standings_csv", args=[league.pk]),
        "matches_csv": reverse("league_matches_csv", args=[league.pk]),
    }


PAGES = ["detail", "player", "match", "standings_csv", "matches_csv"]


@pytest.mark.parametrize("page", PAGES)
def test_organiser_and_members_see_every_page(running, match, regs, organiser, ann, cy, page):
    url = page_urls(running, match, regs["ann"])[page]
    for user in (organiser, ann, cy):  # cy does not play at this table
        assert client_for(user).get(url).status_code == 200, (user, page)


@pytest.mark.parametrize("page", PAGES)
def test_an_outsider_gets_404(running, match, regs, stranger, page):
    url = page_urls(running, match, regs["ann"])[page]
    assert client_for(stranger).get(url).status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_goes_to_login(running, match, regs, client, page):
    response = client.get(page_urls(running, match, regs["ann"])[page])
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("step", ["report", "confirm", "dispute", "settle"])
def test_steps_for_anonymous_go_to_login_and_outsiders_get_404(match, client, stranger, step):
    response = client.post(step_url(match, step), report_data())
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client_for(stranger).post(step_url(match, step), report_data()).status_code == 404
    assert not MatchReport.objects.exists()


def test_a_step_url_opened_by_get_goes_to_the_match(match, ann):
    response = client_for(ann).get(step_url(match, "report"))
    assert response.status_code == 302 and response["Location"] == match_url(match)
    assert client_for(ann).get(step_url(match, "nonsense")).status_code == 404
    assert client_for(ann).post(step_url(match, "nonsense")).status_code == 404


def test_unknown_league_player_or_match_is_404(running, match, regs, ann, club):
    client = client_for(ann)
    other = new_league(club, name="Other")
    assert client.get(reverse("league_detail", args=[999])).status_code == 404
    assert client.get(reverse("league_player", args=[running.pk, 999])).status_code == 404
    assert client.get(reverse("league_player", args=[other.pk, regs["ann"].pk])).status_code == 404
    assert client.get(reverse("match_detail", args=[other.pk, match.pk])).status_code == 404


def test_a_member_cannot_report_someone_elses_match(match, cy):
    response = client_for(cy).post(step_url(match, "report"), report_data())
    assert response.status_code == 403
    assert not MatchReport.objects.exists()


def test_a_member_cannot_confirm_dispute_or_settle_someone_elses_match(match, regs, cy):
    a, _b = sides(match, regs)
    services.submit_report(match, a, {"vp_a": 3, "vp_b": 1, "winner": "a"})
    client = client_for(cy)
    assert client.post(step_url(match, "confirm")).status_code == 403
    assert client.post(step_url(match, "dispute"), {"reason": "no"}).status_code == 403
    assert client.post(step_url(match, "settle"), settle_data()).status_code == 403
    assert MatchReport.objects.get().status == MatchReport.SUBMITTED


def test_settling_is_for_organisers_only(match, regs):
    a, b = sides(match, regs)
    services.submit_report(match, a, {"vp_a": 3, "vp_b": 1, "winner": "a"})
    services.dispute_report(match.report, b, "It was 1-3.")
    for player in (a, b):  # even the players at the table
        response = client_for(player).post(step_url(match, "settle"), settle_data())
        assert response.status_code == 403
    assert MatchReport.objects.get().status == MatchReport.DISPUTED


# --------------------------------------------------------------------------- reporting


def test_report_then_confirm_changes_the_standings(running, match, regs):
    a, b = sides(match, regs)
    reg_a = Registration.objects.get(pk=match.a_id)
    detail = reverse("league_detail", args=[running.pk])

    page = client_for(a).get(match_url(match))
    assert 'data-testid="report-form"' in html_of(page)
    response = client_for(a).post(step_url(match, "report"), report_data(vp_a=12, vp_b=8))
    assert response.status_code == 302 and response["Location"] == match_url(match)
    report = MatchReport.objects.get()
    assert (report.status, report.vp_a, report.vp_b, report.winner) == ("submitted", 12, 8, "a")

    before = client_for(a).get(detail)
    assert "<strong>0</strong>" in standing(before, reg_a)  # not counted yet
    waiting = client_for(a).get(match_url(match))
    assert f"Waiting for {b.username} to confirm" in html_of(waiting)

    page = client_for(b).get(match_url(match))
    assert 'data-testid="confirm"' in html_of(page)
    response = client_for(b).post(step_url(match, "confirm"), follow=True)
    assert "Result confirmed" in html_of(response)
    assert MatchReport.objects.get().status == MatchReport.CONFIRMED

    after = client_for(a).get(detail)
    row = standing(after, reg_a)
    assert "<strong>3</strong>" in row and '<td class="rank">1</td>' in row
    assert f"W 12{D}8" in html_of(after)  # the head-to-head matrix
    done = client_for(a).get(match_url(match))
    assert 'data-testid="report-form"' not in html_of(done)
    assert 'data-testid="confirm"' not in html_of(done)


def test_the_reporter_cannot_confirm_their_own_report(match, regs):
    a, _b = sides(match, regs)
    services.submit_report(match, a, {"vp_a": 3, "vp_b": 1, "winner": "a"})
    response = client_for(a).post(step_url(match, "confirm"))
    assert response.status_code == 200
    assert 'data-testid="match-error"' in html_of(response)
    assert MatchReport.objects.get().status == MatchReport.SUBMITTED


def test_report_dispute_then_the_organiser_settles(running, match, regs, organiser):
    a, b = sides(match, regs)
    client_for(a).post(step_url(match, "report"), report_data(vp_a=12, vp_b=8))

    empty = client_for(b).post(step_url(match, "dispute"), {"reason": "  "})
    assert empty.status_code == 200
    assert "Say what is wrong" in html_of(empty)
    assert MatchReport.objects.get().status == MatchReport.SUBMITTED

    response = client_for(b).post(step_url(match, "dispute"), {"reason": "It was 8-12 <b>!</b>"})
    assert response.status_code == 302
    assert MatchReport.objects.get().status == MatchReport.DISPUTED

    for player in (a, b):
        page = html_of(client_for(player).get(match_url(match)))
        assert "The organiser settles it." in page
        assert "It was 8-12 &lt;b&gt;!&lt;/b&gt;" in page
        assert 'data-testid="settle-form"' not in page and 'data-testid="report-form"' not in page
    page = html_of(client_for(organiser).get(match_url(match)))
    assert "Settle the dispute" in page and 'name="settle-vp_a" value="12"' in page

    response = client_for(organiser).post(
        step_url(match, "settle"),
        {**settle_data(vp_a=8, vp_b=12, winner="b"), "settle-note": "Photos"},
    )
    assert response.status_code == 302
    report = MatchReport.objects.get()
    assert (report.status, report.vp_a, report.vp_b, report.winner) == ("settled", 8, 12, "b")
    assert report.settled_note == "Photos"
    reg_b = Registration.objects.get(pk=match.b_id)
    assert "<strong>3</strong>" in standing(
        client_for(a).get(reverse("league_detail", args=[running.pk])), reg_b
    )


def test_the_reporter_may_correct_before_confirmation(match, regs):
    a, b = sides(match, regs)
    client_for(a).post(step_url(match, "report"), report_data(vp_a=12, vp_b=8))
    page = html_of(client_for(a).get(match_url(match)))
    assert "Correct your report" in page and 'name="vp_a" value="12"' in page
    response = client_for(a).post(
        step_url(match, "report"), report_data(vp_a=5, vp_b=5, winner="draw")
    )
    assert response.status_code == 302
    report = MatchReport.objects.get()
    assert (report.vp_a, report.vp_b, report.winner, report.status) == (5, 5, "draw", "submitted")
    client_for(b).post(step_url(match, "confirm"))
    assert MatchReport.objects.get().status == MatchReport.CONFIRMED
    refused = client_for(a).post(step_url(match, "report"), report_data())
    assert refused.status_code == 200 and "ask the organiser" in html_of(refused)
    assert MatchReport.objects.get().winner == "draw"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"winner": ""}, "Choose the winner, or a draw."),
        ({"winner": "c"}, "Choose the winner, or a draw."),
        ({"vp_a": -1}, "greater than or equal to 0"),
        ({"vp_b": "lots"}, "Enter a whole number."),
    ],
)
def test_bad_input_shows_the_page_with_errors(match, regs, overrides, message):
    a, _b = sides(match, regs)
    response = client_for(a).post(step_url(match, "report"), report_data(**overrides))
    assert response.status_code == 200
    assert message in html_of(response)
    assert 'data-testid="field-error"' in html_of(response)
    assert not MatchReport.objects.exists()


def test_bad_settlement_shows_the_errors(match, organiser):
    response = client_for(organiser).post(step_url(match, "settle"), settle_data(vp_b=-3))
    assert response.status_code == 200
    assert "greater than or equal to 0" in html_of(response)
    assert not MatchReport.objects.exists()


def test_the_organiser_may_enter_a_result_nobody_reported(running, match, organiser):
    page = html_of(client_for(organiser).get(match_url(match)))
    assert "Enter the result (organiser)" in page
    response = client_for(organiser).post(step_url(match, "settle"), settle_data())
    assert response.status_code == 302
    report = MatchReport.objects.get()
    assert report.status == MatchReport.SETTLED and report.submitted_by is None
    assert "Reported by</dt><dd>the organiser" in html_of(
        client_for(organiser).get(match_url(match))
    )


def test_a_bye_has_nothing_to_report(running, regs, cy, organiser):
    bye = Pairing.objects.get(round__league=running, b__isnull=True)
    assert bye.a_id == regs["cy"].pk
    page = html_of(client_for(cy).get(match_url(bye)))
    assert "a bye" in page and "<form" not in page.split("<main")[1]
    response = client_for(cy).post(step_url(bye, "report"), report_data())
    assert response.status_code == 200 and "A bye has no match to report." in html_of(response)
    response = client_for(organiser).post(step_url(bye, "settle"), settle_data())
    assert response.status_code == 200 and "A bye has no result to settle." in html_of(response)
    assert not MatchReport.objects.exists()


def test_a_winner_with_fewer_victory_points_is_allowed_and_shown(match, regs):
    a, _b = sides(match, regs)
    client_for(a).post(step_url(match, "report"), report_data(vp_a=2, vp_b=9, winner="a"))
    page = html_of(client_for(a).get(match_url(match)))
    assert f"2{D}9" in page and "The winner has fewer Victory Points" in page


def test_the_campaign_note_is_shown_as_a_message(match, regs, monkeypatch):
    monkeypatch.setattr(
        services, "feed_campaign", lambda report, user: "Fed to the campaign as encounter 4."
    )
    a, b = sides(match, regs)
    services.submit_report(match, a, {"vp_a": 3, "vp_b": 1, "winner": "a"})
    response = client_for(b).post(step_url(match, "confirm"), follow=True)
    assert "Fed to the campaign as encounter 4." in html_of(response)


# --------------------------------------------------------------------------- the league's home


def test_the_league_page_shows_its_facts_links_and_the_users_next_match(
    running, match, regs, organiser, ann, cy
):
    page = html_of(client_for(ann).get(reverse("league_detail", args=[running.pk])))
    assert f"<dd>{get_system('bwg1').name}</dd>" in page.replace("&amp;", "&")
    assert "400 Fame" in page
    assert "3 / 1 / 0" in page
    assert "points, then Victory Point difference, then head-to-head, then strength of" in page
    assert "1 of 3" in page and "Round robin" in page
    assert 'data-testid="next-match-link"' in page and "Report the result" in page
    assert reverse("league_rounds", args=[running.pk]) in page
    assert reverse("league_standings_csv", args=[running.pk]) in page
    assert reverse("league_settings", args=[running.pk]) not in page
    assert running.public_token not in page  # the public link is for organisers

    bye = html_of(client_for(cy).get(reverse("league_detail", args=[running.pk])))
    assert "You have a bye" in bye

    page = html_of(client_for(organiser).get(reverse("league_detail", args=[running.pk])))
    assert reverse("league_settings", args=[running.pk]) in page
    assert "http://testserver" + reverse("league_public", args=[running.public_token]) in page
    assert 'data-testid="round-state"' in page and "1 not reported" in page
    assert 'data-testid="next-match"' not in page  # the organiser does not play


def test_the_matrix_shows_who_is_still_to_play_and_the_chart(running, match, regs):
    a, b = sides(match, regs)
    services.submit_report(match, a, {"vp_a": 10, "vp_b": 4, "winner": "a"})
    services.confirm_report(MatchReport.objects.get(), b)
    page = html_of(client_for(a).get(reverse("league_detail", args=[running.pk])))
    matrix = page[page.index('data-testid="h2h-matrix"') :]
    matrix = matrix[: matrix.index("</table>")]
    assert f"W 10{D}4" in matrix and f"L 4{D}10" in matrix
    # cy has met nobody: 2 cells in his row, 2 in his column
    assert matrix.count('class="h2h-none">to play') == 4
    assert matrix.count("—") == 3  # the diagonal
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page
    assert "Points after each round" in page and "The figures" in page


def test_no_chart_before_the_first_result(league, regs, ann):
    page = html_of(client_for(ann).get(reverse("league_detail", args=[league.pk])))
    assert "<svg" not in page and "the chart starts with the first confirmed result" in page


def test_a_tiebreak_is_shown_on_a_worked_example(club, ann, bob, cy, organiser):
    """Ann and Cy both win their match (3 points); Ann by 8, Cy by 2: Ann is first on
    Victory Point difference. Bob (-8) and Dee (-2): Dee third, Bob fourth."""
    dee = make_user("dee")
    services.join_club(club, dee)
    league = new_league(club, pairing=League.SWISS)
    r = {u.username: register(league, u) for u in (ann, bob, cy, dee)}
    play(league, 1, {(r["ann"], r["bob"]): (10, 2, "a"), (r["cy"], r["dee"]): (5, 3, "a")})
    response = client_for(ann).get(reverse("league_detail", args=[league.pk]))
    html = html_of(response)
    order = [html.index(f'data-player="{r[n].pk}"') for n in ("ann", "cy", "dee", "bob")]
    assert order == sorted(order)
    assert "on Victory Point difference" in standing(response, r["cy"])
    assert "on Victory Point difference" in standing(response, r["bob"])
    assert "tiebreak-note" not in standing(response, r["ann"])
    assert '<td class="rank">2</td>' in standing(response, r["cy"])


def test_a_shared_rank_is_shown_with_an_equals_sign(club, ann, bob):
    league = new_league(club)
    r = {u.username: register(league, u) for u in (ann, bob)}
    play(league, 1, {(r["ann"], r["bob"]): (4, 4, "draw")})
    response = client_for(ann).get(reverse("league_detail", args=[league.pk]))
    assert '<td class="rank">=1</td>' in standing(response, r["ann"])
    assert '<td class="rank">=1</td>' in standing(response, r["bob"])


def test_a_gang_made_illegal_after_registering_is_flagged(running, regs, ann, bob):
    detail = reverse("league_detail", args=[running.pk])
    assert 'data-testid="illegal"' not in html_of(client_for(bob).get(detail))
    gang = regs["ann"].gang
    for n in range(3):  # three more Leaders: too many, and over 400 Fame
        recruit(gang, f"Extra {n}", "leader")
    response = client_for(bob).get(detail)
    row = standing(response, regs["ann"])
    assert "Illegal now" in row
    reg = Registration.objects.get(pk=regs["ann"].pk)
    assert not reg.legal and reg.problems and reg.checked_version == gang.version
    assert reg.problems.splitlines()[0] in row.replace("&#x27;", "'")
    player = html_of(client_for(bob).get(reverse("league_player", args=[running.pk, reg.pk])))
    assert "Illegal now" in player and 'data-testid="player-problems"' in player
    rows = list(
        csv.reader(
            io.StringIO(
                client_for(bob)
                .get(reverse("league_standings_csv", args=[running.pk]))
                .content.decode("utf-8-sig")
            )
        )
    )
    assert {row[1]: row[-1] for row in rows[1:]} == {"ann": "no", "bob": "yes", "cy": "yes"}


def test_dropped_players_are_marked(running, regs, ann):
    services.withdraw(regs["cy"])
    response = client_for(ann).get(reverse("league_detail", args=[running.pk]))
    assert "dropped" in standing(response, regs["cy"])


def test_user_text_is_escaped(club, ann, bob):
    league = new_league(club, name=HOSTILE)
    ra = register(league, ann, HOSTILE)
    rb = register(league, bob)
    play(league, 1, {(ra, rb): (3, 1, "a")})
    for url in (
        reverse("league_detail", args=[league.pk]),
        reverse("league_player", args=[league.pk, ra.pk]),
        reverse("league_public", args=[league.public_token]),
    ):
        page = html_of(client_for(bob).get(url))
        assert HOSTILE not in page and "&lt;img src=x onerror=alert(1)&gt;" in page, url
    match = Pairing.objects.get(round__league=league)
    page = html_of(client_for(bob).get(match_url(match)))
    assert HOSTILE not in page


# --------------------------------------------------------------------------- a player's page


def test_a_players_history_round_by_round(club, ann, bob, cy):
    league = new_league(club, pairing=League.SWISS)
    r = {u.username: register(league, u) for u in (ann, bob, cy)}
    play(league, 1, {(r["ann"], r["bob"]): (10, 2, "a"), (r["cy"], None): None})
    play(league, 2, {(r["cy"], r["ann"]): (6, 6, "draw"), (r["bob"], None): None})
    rnd = Round.objects.create(league=league, number=3)
    Pairing.objects.create(round=rnd, table=1, a=r["ann"], b=r["bob"])  # not played yet
    Pairing.objects.create(round=rnd, table=2, a=r["cy"], b=None)

    url = reverse("league_player", args=[league.pk, r["ann"].pk])
    page = html_of(client_for(ann).get(url))
    history = page[page.index('data-testid="player-history"') :]
    rows = history.split("<tr")[2:]  # after the header row
    assert len(rows) == 3
    assert "Won" in rows[0] and f"10{D}2" in rows[0] and "<strong>3</strong>" in rows[0]
    assert "Draw" in rows[1] and f"6{D}6" in rows[1] and "<strong>4</strong>" in rows[1]
    assert "Not reported" in rows[2] and "<strong>4</strong>" in rows[2]
    assert reverse("gang_detail", args=[r["ann"].gang_id]) in page  # her own gang

    others = html_of(client_for(bob).get(url))
    assert reverse("gang_detail", args=[r["ann"].gang_id]) not in others
    assert r["ann"].gang.name.replace("'", "&#x27;") in others
    bob_page = html_of(client_for(ann).get(reverse("league_player", args=[league.pk, r["bob"].pk])))
    assert "Bye" in bob_page


# --------------------------------------------------------------------------- public page


def test_the_public_page_needs_no_login_and_has_no_forms(running, match, regs, client):
    a, b = sides(match, regs)
    services.submit_report(match, a, {"vp_a": 7, "vp_b": 3, "winner": "a", "scenario": "Ambush"})
    services.confirm_report(MatchReport.objects.get(), b)
    response = client.get(reverse("league_public", args=[running.public_token]))
    assert response.status_code == 200
    page = html_of(response)
    assert 'data-testid="standings"' in page and 'data-testid="h2h-matrix"' in page
    assert "<svg" in page and f"7{D}3" in page
    for reg in regs.values():
        assert reg.gang_name.replace("'", "&#x27;") in page
    assert "<form" not in page and 'method="post"' not in page
    assert "/leagues/" not in page and "/clubs/" not in page  # no links to private pages
    assert "@" not in page.split("<main")[1]  # no e-mail addresses


def test_the_public_page_is_404_on_a_bad_token(running, client):
    assert client.get(reverse("league_public", args=["nope"])).status_code == 404


# --------------------------------------------------------------------------- CSV


def test_standings_csv(running, match, regs, ann):
    a, b = sides(match, regs)
    services.submit_report(match, a, {"vp_a": 7, "vp_b": 3, "winner": "a"})
    services.confirm_report(MatchReport.objects.get(), b)
    response = client_for(ann).get(reverse("league_standings_csv", args=[running.pk]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="spring-league-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "rank", "player", "gang", "played", "won", "drawn", "lost", "byes", "points",
        "vp_for", "vp_against", "vp_diff", "head_to_head", "sos", "legal",
    ]  # fmt: skip
    by_player = {row[1]: row for row in rows[1:]}
    assert by_player[a.username][3:12] == ["1", "1", "0", "0", "0", "3", "7", "3", "4"]
    assert by_player[b.username][11] == "-4"  # a number, not neutralised
    assert by_player["cy"][7:9] == ["1", "3"]  # the bye


def test_matches_csv_and_formula_names_are_neutralised(club, ann, bob):
    league = new_league(club, name="Autumn, 2026")
    ra = register(league, ann, '=HYPERLINK("http://evil")')
    rb = register(league, bob, "@SUM(A1)")
    play(league, 1, {(ra, rb): (3, 1, "a")})
    MatchReport.objects.update(scenario="-2+3", deployment="+1")
    response = client_for(ann).get(reverse("league_matches_csv", args=[league.pk]))
    assert 'filename="autumn-2026-matches.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "round", "table", "player_a", "gang_a", "player_b", "gang_b", "vp_a", "vp_b",
        "winner", "status", "scenario", "deployment",
    ]  # fmt: skip
    assert rows[1] == [
        "1", "1", "ann", "'=HYPERLINK(\"http://evil\")", "bob", "'@SUM(A1)", "3", "1",
        "ann", "confirmed", "'-2+3", "'+1",
    ]  # fmt: skip
    standings = client_for(ann).get(reverse("league_standings_csv", args=[league.pk]))
    gangs = [row[2] for row in csv.reader(io.StringIO(standings.content.decode("utf-8-sig")))]
    assert gangs[1:] == ['\'=HYPERLINK("http://evil")', "'@SUM(A1)"]


def test_matches_csv_has_byes_and_unreported_matches(running, ann):
    response = client_for(ann).get(reverse("league_matches_csv", args=[running.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [row[9] for row in rows[1:]] == ["not reported", "bye"]
    bye = rows[2]
    assert bye[4:6] == ["", ""] and bye[8] == "cy"


# --------------------------------------------------------------------------- query counts


def big_league(club: Club, players: int, gang) -> League:
    """A league of ``players`` members sharing one builder gang, two rounds confirmed."""
    league = new_league(club, name=f"League of {players}", pairing=League.SWISS, rounds=5)
    regs = []
    for n in range(players):
        user = make_user(f"p{players}-{n}")
        services.join_club(club, user)
        regs.append(
            Registration.objects.create(
                league=league,
                player=user,
                gang=gang,
                gang_name=f"Gang {n}",
                checked_version=gang.version,
            )
        )
    for number in (1, 2):
        shift = regs[number:] + regs[:number]
        pairs = {
            (regs[i], shift[i]): (i % 7, (i * 3) % 5, "a" if i % 2 else "b")
            for i in range(0, players, 2)
        }
        play(league, number, pairs)
    return league


#: session, user, the league (with the user's role and the last round), its registrations
#: (with player and gang), every pairing with its round and report
DETAIL_QUERIES = 5


@pytest.mark.parametrize("players", [4, 40])
def test_the_league_page_costs_the_same_for_4_and_40_players(
    club, organiser, django_assert_num_queries, players
):
    gang = builder_gang(organiser, "Shared")
    league = big_league(club, players, gang)
    client = client_for(organiser)
    url = reverse("league_detail", args=[league.pk])
    with django_assert_num_queries(DETAIL_QUERIES):
        response = client.get(url)
    assert response.status_code == 200
    assert html_of(response).count('data-testid="standing"') == players
    if players > 24:
        assert 'data-testid="h2h-too-big"' in html_of(response)
    else:
        assert 'data-testid="h2h-matrix"' in html_of(response)


@pytest.mark.parametrize("players", [4, 40])
def test_the_other_pages_cost_the_same_for_4_and_40_players(
    club, organiser, django_assert_num_queries, players
):
    gang = builder_gang(organiser, "Shared")
    league = big_league(club, players, gang)
    reg = league.registrations.first()
    client = client_for(organiser)
    urls = {
        reverse("league_player", args=[league.pk, reg.pk]): 5,
        # no pairing read: the standings come from the registrations' tallies (issue 31)
        reverse("league_standings_csv", args=[league.pk]): 4,
        reverse("league_matches_csv", args=[league.pk]): 5,
    }
    for url, queries in urls.items():
        with django_assert_num_queries(queries):
            assert client.get(url).status_code == 200
    with django_assert_num_queries(3):  # the league, registrations, pairings
        assert Client().get(reverse("league_public", args=[league.public_token])).status_code == 200


@pytest.mark.parametrize("changed", [1, 5])
def test_a_page_never_writes_and_costs_the_same_however_many_gangs_changed(
    club, organiser, django_assert_num_queries, changed
):
    """The league page reads the legality stored when each gang last changed (issue 28:
    no write during a GET), whatever changed behind its back."""
    league = new_league(club, name="Checked")
    gangs = []
    for n in range(changed):
        user = make_user(f"changed-{n}")
        services.join_club(club, user)
        registration = register(league, user)
        gangs.append(registration.gang_id)
    Gang.objects.filter(pk__in=gangs).update(version=F("version") + 1)  # no builder change
    client = client_for(organiser)
    url = reverse("league_detail", args=[league.pk])
    # + 1: the organiser is not playing and the league takes registrations, so the page
    # offers her own gangs to join with
    with django_assert_num_queries(DETAIL_QUERIES + 1):
        assert client.get(url).status_code == 200
    assert set(Registration.objects.values_list("checked_version", flat=True)) == {1}


@pytest.mark.parametrize("leagues", [1, 3])
def test_a_builder_change_rechecks_the_gangs_registrations_in_a_fixed_cost(
    club, organiser, django_assert_num_queries, leagues
):
    """A registered gang changed in the builder is checked again against every open or
    running league it is in, as it changes: its registrations, and for each league its
    members and their items and one update."""
    user = make_user("changer")
    services.join_club(club, user)
    gang = builder_gang(user, "Changer's Boys")
    for n in range(leagues):
        services.register(new_league(club, name=f"League {n}"), user, gang)
    # the new version (an update, read back), the registrations, the gang's members and
    # their items (once); for each league, one update
    with django_assert_num_queries(2 + 1 + 3 + leagues):
        touch(gang)
    assert set(Registration.objects.values_list("checked_version", flat=True)) == {gang.version}


def test_every_step_needs_the_csrf_token(match, regs):
    a, _b = sides(match, regs)
    client = Client(enforce_csrf_checks=True)
    client.force_login(a)
    assert client.post(step_url(match, "report"), report_data()).status_code == 403
    assert not MatchReport.objects.exists()
    page = html_of(client.get(match_url(match)))
    assert page.count('name="csrfmiddlewaretoken"') == page.count('method="post"')


# --------------------------------------------------------------------------- issue 15


def test_strength_of_schedule_is_the_opponents_average_with_decimals(club, ann, bob, cy):
    """Item 18: Ann beat Bob while Cy had a bye; Cy beat Ann while Bob had a bye. Ann's
    strength of schedule is the average of Bob's 3 and Cy's 6 points: 4.5; Bob's and
    Cy's is Ann's 3 (their byes are left out, not counted as 0). The CSV agrees."""
    league = new_league(club, pairing=League.SWISS)
    r = {u.username: register(league, u) for u in (ann, bob, cy)}
    play(league, 1, {(r["ann"], r["bob"]): (5, 1, "a"), (r["cy"], None): None})
    play(league, 2, {(r["cy"], r["ann"]): (4, 2, "a"), (r["bob"], None): None})
    response = client_for(ann).get(reverse("league_detail", args=[league.pk]))
    assert standing(response, r["ann"]).endswith("<td>4.5</td>")
    assert standing(response, r["bob"]).endswith("<td>3</td>")
    assert standing(response, r["cy"]).endswith("<td>3</td>")
    rows = list(
        csv.reader(
            io.StringIO(
                client_for(ann)
                .get(reverse("league_standings_csv", args=[league.pk]))
                .content.decode("utf-8-sig")
            )
        )
    )
    assert {row[1]: row[13] for row in rows[1:]} == {"ann": "4.5", "bob": "3", "cy": "3"}


# --------------------------------------------------------------------------- issue 19


def test_a_disputed_result_stays_disputed_until_the_organiser_settles_it(match, regs, organiser):
    """Item 5: a direct POST can't report over the opponent's dispute, nor over the
    opponent's pending report; the report keeps its history, shown on its page."""
    a, b = sides(match, regs)
    assert client_for(a).post(step_url(match, "report"), report_data()).status_code == 302
    # b can't overwrite a's pending report: he confirms or disputes it.
    response = client_for(b).post(step_url(match, "report"), report_data(vp_a=0, winner="b"))
    assert "Your opponent reported this result" in html_of(response)
    report = MatchReport.objects.get(pairing=match)
    assert (report.vp_a, report.winner, report.submitted_by) == (12, "a", a)
    # a may correct his own report until it is answered.
    client_for(a).post(step_url(match, "report"), report_data(vp_a=11))
    response = client_for(b).post(step_url(match, "dispute"), {"reason": "It was 10-8"})
    assert response.status_code == 302
    for player in (a, b):
        response = client_for(player).post(step_url(match, "report"), report_data(vp_a=1))
        assert "disputed: the organiser settles it" in html_of(response)
    report.refresh_from_db()
    assert (report.status, report.vp_a, report.dispute) == ("disputed", 11, "It was 10-8")
    client_for(organiser).post(step_url(match, "settle"), settle_data(vp_a=10, note="Photos"))
    report.refresh_from_db()
    assert (report.status, report.vp_a, report.dispute) == ("settled", 10, "It was 10-8")
    kinds = [(e.kind, e.by, e.values["vp_a"]) for e in report.history.all()]
    assert kinds == [
        ("submitted", a, 12),
        ("corrected", a, 11),
        ("disputed", b, 11),
        ("settled", organiser, 10),
    ]
    page = html_of(client_for(b).get(match_url(match)))
    assert 'data-testid="report-history"' in page and "“It was 10-8”" in page


def test_one_player_plays_one_side_of_a_league_match(league, ann):
    """Item 6: a player has one registration in a league, so he is never on both sides."""
    first = register(league, ann)
    second = register(league, ann, "Another gang")
    assert first.pk == second.pk and league.registrations.count() == 1
