"""The ratings pages at 375 px (a phone): the club's ladder and a player's page, with
its chart, fit the width (no horizontal scroll) and axe finds nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import include, path, reverse

from campaigns.leagues import ratings
from tests.browser.conftest import PHONE
from tests.browser.test_pages import axe_violations
from tests.helpers.users import make_user
from tests.test_league_ratings import season

pytestmark = [pytest.mark.browser, pytest.mark.urls(__name__)]
urlpatterns = [
    path("", include("campaigns.leagues.ratings_urls")),
    path("", include("gangfight_site.urls")),
]


def test_the_ladder_and_a_players_page_fit_a_phone(browser, live_server, club, gang):
    from campaigns.leagues import services

    ratings.forget_cache()
    people = [make_user(f"player-with-a-long-name-{n}") for n in range(6)]
    for user in people:
        services.join_club(club, user)
    season(club, gang, people, name="Spring season with a long name", rounds=3)
    season(club, gang, people, name="Summer", rounds=3, seed=9)
    client = Client()
    client.force_login(User.objects.get(pk=people[0].pk))
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    try:
        for url, testid in (
            (reverse("ratings_ladder", args=[club.pk, "bwg1"]), "ladder"),
            (reverse("ratings_player", args=[club.pk, "bwg1", people[0].pk]), "rating-chart"),
        ):
            page.goto(live_server.url + url)
            assert page.get_by_test_id(testid).is_visible()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= page.evaluate("window.innerWidth"), f"{url}: {width} px wide"
            assert axe_violations(page) == [], url
    finally:
        context.close()
