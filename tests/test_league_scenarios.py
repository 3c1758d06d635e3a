# ruff: noqa: F811 - the fixtures imported from test_league_views are used by name
"""A match report's scenario and deployment: the game's lists from its book, offered in a
datalist beside each field, free text still taken."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.leagues.forms import ReportForm
from campaigns.leagues.models import MatchReport, Pairing
from tests.test_league_views import (  # noqa: F401 - fixtures
    ann,
    bob,
    client_for,
    club_details,
    cy,
    html_of,
    league,
    match,
    members,
    regs,
    report_data,
    running,
    sides,
    step_url,
)


def test_the_report_form_offers_the_books_scenarios_and_deployments(match, regs):
    a, _b = sides(match, regs)
    page = html_of(
        client_for(a).get(reverse("match_detail", args=[match.round.league_id, match.pk]))
    )
    assert 'list="scenario-choices"' in page and 'list="deployment-choices"' in page
    assert '<datalist id="scenario-choices"' in page
    assert '<option value="Manhunt" label="Manhunt (Chasse à l&#x27;homme)">' in page
    assert '<option value="Outnumbered &amp; Cornered"' in page
    assert "Pick one of the book&#x27;s scenarios (pp. 27\u201329) or type your own." in page
    assert "Pick one of the book&#x27;s starting positions (p. 25) or type your own." in page
    # the list is seen without opening it: the book's names, as buttons that fill the field
    assert 'data-testid="id_scenario-book"' in page and 'data-testid="id_deployment-book"' in page
    assert (
        '<button type="button" class="chip" data-fill="id_scenario" data-value="Manhunt">'
        "Manhunt</button>"
    ) in page
    assert "js/fill_choice.js" in page


def test_the_organisers_settle_form_has_lists_of_its_own(match, organiser):
    page = html_of(
        client_for(organiser).get(reverse("match_detail", args=[match.round.league_id, match.pk]))
    )
    assert '<datalist id="settle-scenario-choices"' in page
    assert 'list="settle-deployment-choices"' in page


def test_a_scenario_from_the_list_is_stored_as_the_book_spells_it(match, regs):
    a, _b = sides(match, regs)
    client_for(a).post(
        step_url(match, "report"), report_data(scenario="gold rush", deployment="MIDI PILE")
    )
    report = MatchReport.objects.get(pairing=match)
    assert (report.scenario, report.deployment) == ("Gold Rush", "High Noon")


def test_free_text_is_still_taken(match, regs):
    a, _b = sides(match, regs)
    client_for(a).post(
        step_url(match, "report"),
        report_data(scenario="Train robbery <b>", deployment="Along the rails"),
    )
    report = MatchReport.objects.get(pairing=match)
    assert (report.scenario, report.deployment) == ("Train robbery <b>", "Along the rails")
    page = html_of(
        client_for(a).get(reverse("match_detail", args=[match.round.league_id, match.pk]))
    )
    assert "Train robbery <b>" not in page and "Train robbery &lt;b&gt;" in page


def test_too_long_a_scenario_is_refused_beside_the_field(match, regs):
    a, _b = sides(match, regs)
    response = client_for(a).post(step_url(match, "report"), report_data(scenario="x" * 81))
    assert response.status_code == 200
    assert "Ensure this value has at most 80 characters" in html_of(response)
    assert not MatchReport.objects.filter(pairing=match).exists()


def test_scenarios_played_before_come_after_the_books(match, regs):
    form = ReportForm(pairing=match, scenarios=["Gold Rush", "Bank Job"])
    assert form.scenarios == [
        "This Town Ain't Big Enough",
        "Manhunt",
        "Stay of Execution",
        "Gold Rush",
        "Bank Job",
    ]


@pytest.mark.parametrize("system", ["gf26", "gunfight"])
def test_a_game_without_a_list_in_its_book_has_free_text_only(match, system):
    match.round.league.system = system
    form = ReportForm(pairing=match)
    assert form.datalists() == []
    assert "list" not in form.fields["scenario"].widget.attrs
    played = ReportForm(pairing=match, scenarios=["Bank Job"])
    assert played.datalists() == [("scenario-choices", [("Bank Job", "")])]
    assert "Pick one played before here" in str(played.fields["scenario"].help_text)
    assert played.choice_fields()[0][1] == []  # none from the book: no buttons


def test_the_form_asks_no_query(match, running, django_assert_num_queries):
    pairing = Pairing.objects.select_related("round", "a__player", "b__player").get(pk=match.pk)
    pairing.round.league = running  # as the view does
    with django_assert_num_queries(0):
        ReportForm(pairing=pairing).datalists()
