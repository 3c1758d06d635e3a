"""Dates, numbers and sorting follow the reader's language in pages (Django's localisation;
names sorted in Python with common.sorting.name_key), while CSV files stay
machine-friendly (docs/csv.md)."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaigns.leagues import services
from common.sorting import name_key
from tests.conftest import PASSWORD
from tests.test_league_views import new_league, play, register


def client_in(language: str, user: User) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(user)
    return client


def test_names_sort_as_a_dictionary_does():
    names = ["Zoé", "eve", "Élodie", "Adam", "édouard", "Eve", "de Vries", "Dalton"]
    assert sorted(names, key=name_key) == [
        "Adam",
        "Dalton",
        "de Vries",
        "édouard",
        "Élodie",
        "Eve",
        "eve",
        "Zoé",
    ]
    assert sorted(["b", "B", "a"], key=name_key) == ["a", "B", "b"]  # total and stable


def test_the_club_list_is_in_dictionary_order(organiser):
    for name in ("Zèbre", "Éclair", "Alamo", "eldorado"):
        services.create_club(organiser, name=name)
    page = client_in("fr", organiser).get(reverse("club_list")).content.decode()
    places = [page.index(name) for name in ("Alamo", "Éclair", "eldorado", "Zèbre")]
    assert places == sorted(places)


@pytest.fixture
def league_with_results(organiser, content):
    """Four players, two rounds: Bram's strength of schedule is 3.5 (opponents on 4 and 3)."""
    club = services.create_club(organiser, name="Zorro Club")
    players = {
        n: User.objects.create_user(n, password=PASSWORD) for n in ("ann", "bram", "cy", "di")
    }
    for user in players.values():
        services.join_club(club, user)
    league = new_league(club)
    league.starts, league.ends = datetime.date(2026, 11, 24), datetime.date(2027, 2, 1)
    league.save(update_fields=["starts", "ends"])
    regs = {n: register(league, u) for n, u in players.items()}
    play(
        league,
        1,
        {(regs["ann"], regs["bram"]): (10, 2, "a"), (regs["cy"], regs["di"]): (9, 1, "a")},
    )
    play(
        league,
        2,
        {(regs["ann"], regs["di"]): (5, 5, "draw"), (regs["bram"], regs["cy"]): (8, 4, "a")},
    )
    return league


def test_league_dates_and_decimals_follow_the_language(organiser, league_with_results):
    url = reverse("league_detail", args=[league_with_results.pk])
    french = client_in("fr", organiser).get(url).content.decode()
    english = client_in("en-gb", organiser).get(url).content.decode()
    assert "24 novembre 2026" in french and "1 février 2027" in french
    assert "24 Nov 2026" in english and "1 Feb 2027" in english
    assert "<td>3,5</td>" in french and "<td>3.5</td>" in english


def test_the_csv_stays_machine_friendly_in_french(organiser, league_with_results):
    url = reverse("league_standings_csv", args=[league_with_results.pk])
    response = client_in("fr", organiser).get(url)
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header = rows[0]
    assert "sos" in header and "vp_diff" in header  # the documented ids, never translated
    sos = [row[header.index("sos")] for row in rows[1:]]
    assert "3.5" in sos  # a dot whatever the language: spreadsheets and scripts read it
