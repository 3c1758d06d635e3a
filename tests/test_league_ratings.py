"""The ratings pages (campaigns/leagues/views/ratings.py) and the ratings following the
results: a confirmed match, a settled one, a correction by the organiser."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import include, path, reverse

from campaigns.leagues import ratings, services
from campaigns.leagues.models import MatchReport, Registration
from tests.helpers.users import client_for, make_user

# the pages' addresses, until campaigns/leagues/urls.py includes ratings_urls
urlpatterns = [
    path("", include("campaigns.leagues.ratings_urls")),
    path("", include("gangfight_site.urls")),
]
pytestmark = pytest.mark.urls(__name__)


@pytest.fixture(autouse=True)
def fresh_cache():
    ratings.forget_cache()
    yield
    ratings.forget_cache()


def season(club, gang, players, name="Season", rounds=2, seed=3, finish=True, play=None):
    rng = random.Random(seed)
    league = services.create_league(club, name=name, system="bwg1", rounds=rounds)
    for n, user in enumerate(players):
        Registration.objects.create(
            league=league,
            player=user,
            gang=gang,
            gang_name=f"{user.username}'s gang {n}",
            checked_version=gang.version,
        )
    for _ in range(rounds if play is None else play):
        rnd = services.next_round(league)
        for pairing in rnd.pairings.select_related("a__player", "b__player", "round"):
            if pairing.b_id is None:
                continue
            winner = rng.choice(["a", "b", "draw"])
            report = services.submit_report(pairing, pairing.a.player, {"winner": winner})
            services.confirm_report(report, pairing.b.player)
    if finish:
        services.finish(league)
    return league


@pytest.fixture
def players(club):
    people = [make_user(f"p{n}") for n in range(4)]
    for user in people:
        services.join_club(club, user)
    return people


def computed_now(club) -> ratings.Ratings:
    games = ratings._games(ratings._counted(club.pk, "bwg1"))
    return ratings.Ratings(games)


def test_ladder_and_player_page_for_a_member_and_the_organiser(club, organiser, gang, players):
    league = season(club, gang, players)
    ladder_url = reverse("ratings_ladder", args=[club.pk, "bwg1"])
    for user in (organiser, players[0]):
        page = client_for(user).get(ladder_url)
        assert page.status_code == 200
        body = page.content.decode()
        assert 'data-testid="ladder"' in body
        assert league.name in body  # the season winner
        for p in players:
            assert p.username in body
    assert client_for(players[0]).get(reverse("club_ratings", args=[club.pk])).url == ladder_url
    player = client_for(players[1]).get(
        reverse("ratings_player", args=[club.pk, "bwg1", players[0].pk])
    )
    assert player.status_code == 200
    body = player.content.decode()
    for testid in ("rating-chart", "chart-text", "rating-seasons", "rating-record", "rating-gangs"):
        assert f'data-testid="{testid}"' in body
    rated = computed_now(club).rating(players[0].pk)
    assert f"{rated.rating:.0f}" in body


def test_another_clubs_member_and_a_stranger_get_404_and_anonymous_logs_in(
    club, organiser, gang, players
):
    season(club, gang, players)
    other_club_member = make_user("elsewhere")
    services.create_club(other_club_member, name="Other club")
    urls = [
        reverse("club_ratings", args=[club.pk]),
        reverse("ratings_ladder", args=[club.pk, "bwg1"]),
        reverse("ratings_player", args=[club.pk, "bwg1", players[0].pk]),
    ]
    for url in urls:
        assert client_for(other_club_member).get(url).status_code == 404
        anonymous = Client().get(url)
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous.url
    member = client_for(players[0])
    # a system the club has no league of, and someone who never played in it
    assert member.get(reverse("ratings_ladder", args=[club.pk, "gf26"])).status_code == 404
    assert (
        member.get(reverse("ratings_player", args=[club.pk, "bwg1", organiser.pk])).status_code
        == 404
    )


def test_ratings_follow_a_confirmation_and_an_organisers_correction(club, organiser, gang, players):
    league = season(club, gang, players, rounds=3, finish=False, play=2)
    cached = ratings.club_ratings(club.pk, "bwg1")
    assert cached.snapshot() == computed_now(club).snapshot()
    # the organiser corrects a result of round 1: the ratings after it change
    report = (
        MatchReport.objects.filter(pairing__round__league=league, pairing__round__number=1)
        .select_related("pairing__round")
        .first()
    )
    before = ratings.club_ratings(club.pk, "bwg1").snapshot()
    flipped = {"a": "b", "b": "a", "draw": "a"}[report.winner]
    services.settle_report(report, organiser, {"winner": flipped})
    after = ratings.club_ratings(club.pk, "bwg1")
    assert after.snapshot() != before
    assert after.snapshot() == computed_now(club).snapshot()
    # a new round, confirmed: the cache follows it, equal to a full recompute
    rnd = services.next_round(league)
    for pairing in rnd.pairings.select_related("a__player", "b__player", "round"):
        if pairing.b_id:
            report = services.submit_report(pairing, pairing.a.player, {"winner": "a"})
            services.confirm_report(report, pairing.b.player)
            assert ratings.club_ratings(club.pk, "bwg1").snapshot() == (
                computed_now(club).snapshot()
            )
