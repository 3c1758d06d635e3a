"""Each registration's stored tallies (campaigns/leagues/tallies.py, issue 31): kept up
to date as results count, always equal to a full recompute from every result, and the
standings they give equal to the standings from every result.

Leagues are played through the services (rounds paired, results reported, confirmed,
disputed, settled and settled again, players swapped between tables and byes moved,
players dropping out), and after every step the stored tallies are held to
``tallies.full`` and the standings to ``standings.standings`` over ``results_of``.
Then the ``league_tallies`` command: it finds tallies changed behind the services' back
and rebuilds them.
"""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.leagues import board as views
from campaigns.leagues import services, tallies
from campaigns.leagues import standings as arithmetic
from campaigns.leagues.models import League, MatchReport, Pairing, Registration
from tests.helpers.properties import examples
from tests.helpers.users import client_for, make_user

ORDERS = [
    "vp_diff,head_to_head,sos",
    "head_to_head,vp_diff,sos",
    "sos,head_to_head",
    "head_to_head",
    "",
]
FIELDS = ("player", "rank", "tied", "decided_by", "points", "played", "won", "drawn", "lost")
FIELDS += ("byes", "vp_for", "vp_against", "sos", "head_to_head")


def rows_of(rows) -> list[tuple]:
    return [tuple(getattr(r, f) for f in FIELDS) for r in rows]


def check(league: League) -> None:
    """The stored tallies are a full recompute's, and rank as every result does."""
    assert tallies.differences(league.pk) == {}
    league.refresh_from_db()
    registrations = list(league.registrations.order_by("pk"))
    players = [(r.pk, r.gang_name) for r in registrations]
    expected = arithmetic.standings(
        players, services.results_of(league), services.scoring_of(league), league.tiebreak_list
    )
    assert rows_of(services.standings(league, registrations)) == rows_of(expected)


def a_league(club, rng: random.Random, players: int, gang, pairing: str) -> League:
    win, draw, loss = rng.choice([(3, 1, 0), (2, 1, 0), (1, 0, 0), (3, 2, 1)])
    league = services.create_league(
        club,
        name=f"League {rng.random()}",
        system="bwg1",
        pairing=pairing,
        rounds=rng.randint(2, 5) if pairing == League.SWISS else None,
        win_points=win,
        draw_points=draw,
        loss_points=loss,
        tiebreaks=rng.choice(ORDERS),
    )
    for n in range(players):
        user = make_user(f"t{league.pk}-{n}")
        services.join_club(club, user)
        Registration.objects.create(
            league=league,
            player=user,
            gang=gang,
            gang_name=rng.choice(["Ann", "Bob", "Cy"]) + f" {n % 3}",
            checked_version=gang.version,
        )
    return league


def result(rng: random.Random) -> dict:
    vp_a, vp_b = rng.randint(0, 3), rng.randint(0, 3)
    return {"vp_a": vp_a, "vp_b": vp_b, "winner": rng.choice(["a", "b", "draw"])}


def play_out(league: League, rng: random.Random) -> None:
    organiser = league.club.members.get(role="organiser").user
    for _ in range(league.planned_rounds(league.registrations.count())):
        try:
            rnd = services.next_round(league)
        except services.LeagueError:
            break  # a round robin ended early after a drop
        check(league)
        pairings = list(rnd.pairings.select_related("round", "a__player", "b__player"))
        if len(pairings) >= 2 and rng.random() < 0.5:  # the organiser swaps, byes too
            first, second = rng.sample(pairings, 2)
            mine = "a" if first.b_id is None or rng.random() < 0.5 else "b"
            theirs = "a" if second.b_id is None or rng.random() < 0.5 else "b"
            services.swap(first, second, mine=mine, theirs=theirs)
            check(league)
        for pairing in rnd.pairings.select_related("round", "a__player", "b__player"):
            if pairing.b_id is None:
                continue
            a, b = pairing.a.player, pairing.b.player
            how = rng.choice(["confirm", "dispute", "settle", "correct", "settle again"])
            if how == "settle":
                report = MatchReport(pairing=pairing)
                services.settle_report(report, organiser, result(rng))
                check(league)
                continue
            report = services.submit_report(pairing, a, result(rng))
            if how == "correct":
                report = services.submit_report(pairing, a, result(rng))
            check(league)  # waiting for the opponent: counts for nothing yet
            if how == "dispute":
                services.dispute_report(report, b, "No, the other way round.")
                check(league)
                report = MatchReport.objects.get(pk=report.pk)
                services.settle_report(report, organiser, result(rng))
            else:
                services.confirm_report(report, b)
            check(league)
            if how == "settle again":  # a counted result changed by the organiser
                report = MatchReport.objects.select_related("pairing__round").get(pk=report.pk)
                services.settle_report(report, organiser, result(rng))
                check(league)
        if rng.random() < 0.3:
            leaving = rng.choice(list(league.registrations.filter(dropped=False)))
            services.withdraw(leaving)
            check(league)


@pytest.mark.parametrize("pairing", [League.SWISS, League.ROUND_ROBIN])
def test_stored_tallies_equal_a_full_recompute_after_every_step(club, organiser, gang, pairing):
    rng = random.Random(31 if pairing == League.SWISS else 131)
    for _ in range(examples(8)):
        league = a_league(club, rng, rng.randint(2, 9), gang, pairing)
        play_out(league, rng)


def test_a_result_saved_without_the_services_is_counted_too(club, organiser, gang):
    """Pairings and reports made directly (as tests and the admin do) are saved with the
    tallies: a bye counts as it is made, a confirmed report as it is saved."""
    rng = random.Random(7)
    league = a_league(club, rng, 3, gang, League.SWISS)
    ann, bob, cy = league.registrations.order_by("pk")
    rnd = league.round_set.create(number=1)
    Pairing.objects.create(round=rnd, table=2, a=cy, b=None)
    pairing = Pairing.objects.create(round=rnd, table=1, a=ann, b=bob)
    check(league)
    report = MatchReport.objects.create(
        pairing=pairing, vp_a=5, vp_b=2, winner="a", status=MatchReport.CONFIRMED
    )
    check(league)
    ann.refresh_from_db()
    assert (ann.won, ann.vp_for, ann.meetings) == (1, 5, f",{bob.pk}w,")
    report.winner = "draw"
    report.save()
    check(league)


def test_the_command_finds_and_rebuilds_tallies_changed_behind_its_back(club, organiser, gang):
    rng = random.Random(3)
    league = a_league(club, rng, 5, gang, League.SWISS)
    play_out(league, rng)
    out = StringIO()
    call_command("league_tallies", "--check", stdout=out)
    assert "all equal" in out.getvalue()
    victim = league.registrations.order_by("pk").first()
    Registration.objects.filter(pk=victim.pk).update(won=99, meetings="")
    out = StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command("league_tallies", "--check", stdout=out)
    assert stopped.value.code == 1
    assert (
        f"League {league.pk} (" in out.getvalue() and "1 registration(s) differ" in out.getvalue()
    )
    call_command("league_tallies", str(league.pk), stdout=StringIO())
    check(league)


def test_the_migration_fills_the_tallies_of_leagues_played_before_it(club, organiser, gang):
    """``0004_registration_tallies`` computes what the tallies would have been."""
    import importlib

    from django.apps import apps
    from django.db import connection

    rng = random.Random(5)
    league = a_league(club, rng, 6, gang, League.ROUND_ROBIN)
    play_out(league, rng)
    Registration.objects.filter(league=league).update(won=0, opp_won=0, meetings="")
    migration = importlib.import_module("campaigns.leagues.migrations.0004_registration_tallies")

    class Editor:
        pass

    editor = Editor()
    editor.connection = connection
    migration.fill(apps, editor)
    check(league)


def test_the_league_page_reads_only_what_it_shows_and_shows_the_same(club, organiser, gang):
    """Beyond MATRIX_MAX players, the league page reads the last round's pairings and
    the charted players' only: its standings and chart are those of every result."""
    rng = random.Random(11)
    league = a_league(club, rng, views.MATRIX_MAX + 6, gang, League.SWISS)
    league.rounds = 3
    league.save()
    play_out(league, rng)
    league.rounds = 4
    league.save()
    last = services.next_round(league)  # the last round under way: one result in
    pairing = last.pairings.filter(b__isnull=False).select_related("a__player", "b__player")[0]
    report = services.submit_report(pairing, pairing.a.player, result(rng))
    services.confirm_report(report, pairing.b.player)
    league = League.objects.annotate(last_round=views.last_round_subquery()).get(pk=league.pk)
    page = views.read_board(league, matches=views.PAGE)
    everything = views.read_board(league, matches=views.ALL)
    assert len(page.matches) < len(everything.matches)
    assert rows_of(line.row for line in page.lines) == rows_of(
        line.row for line in everything.lines
    )
    assert page.rounds == everything.rounds
    charted = [line.row.points_by_round for line in page.lines[: views.CHART_MAX]]
    assert charted == [line.row.points_by_round for line in everything.lines[: views.CHART_MAX]]
    expected = arithmetic.standings(
        [(r.pk, r.gang_name) for r in league.registrations.all()],
        services.results_of(league),
        services.scoring_of(league),
        league.tiebreak_list,
    )
    by_player = {r.player: r.points_by_round for r in expected}
    assert charted == [by_player[line.row.player] for line in page.lines[: views.CHART_MAX]]
    response = client_for(organiser).get(reverse("league_detail", args=[league.pk]))
    assert response.status_code == 200 and 'data-testid="league-chart"' in response.text
