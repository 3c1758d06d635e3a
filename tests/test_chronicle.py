"""The campaign chronicle: its story in words, and the PDF (text, escaping, fetching)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from pypdf import PdfReader

from builder import printing
from campaigns import chronicle, services
from campaigns.models import CampaignGang
from rules.pdf import make_fetcher
from tests.helpers.pdf import pdf_text
from tests.test_campaign_views import (
    HOSTILE,
    RED_JACKS,
    SIX_OUTLAWS,
    client_for,
    join,
    make_user,
    new_campaign,
    play,
)


@pytest.fixture
def player(db):
    return make_user("player")


@pytest.fixture
def rival(db):
    return make_user("rival")


@pytest.fixture
def played(organiser, player, rival):
    """A Rivals campaign of two encounters, the second followed by a purchase, finished."""
    campaign = new_campaign(organiser)
    join(campaign, player, RED_JACKS)
    join(campaign, rival, SIX_OUTLAWS)
    services.record(campaign, None, "campaign_started", {})
    play(campaign, seed=2)
    state = play(campaign, seed=4)
    buyer = state.gangs[str(CampaignGang.objects.get(player=player).pk)].alive[1]
    services.record(campaign, None, "item_bought", {"member": buyer.ref, "item": "Knife"})
    services.record(campaign, None, "campaign_finished", {})
    return campaign


# --------------------------------------------------------------------------- the story


def test_happenings_in_words(played):
    state = services.state_of(played)
    a, b = state.encounters[0].gangs
    jack, oneil = state.gangs[a].members["1"], state.gangs[b].members["1"]
    say = lambda h: chronicle.happening_text(state, h)  # noqa: E731
    assert say({"kind": "wound", "by": jack.ref, "to": oneil.ref, "amount": 2}) == (
        "Red Jack wounded Jack O'Neil (2 actions lost)."
    )
    assert say({"kind": "kill", "by": jack.ref, "to": oneil.ref, "amount": 4}) == (
        "Red Jack killed Jack O'Neil (toughness: 4 actions)."
    )
    assert say({"kind": "kill", "by": "", "to": oneil.ref, "amount": 0}).startswith(
        "Jack O'Neil was killed"
    )
    assert say({"kind": "left", "who": jack.ref}) == "Red Jack left the board early."
    assert say(
        {"kind": "loot", "by": jack.ref, "from": oneil.ref, "cash": 5, "items": ["Knife"]}
    ) == ("Red Jack took $5, Knife from Jack O'Neil.")
    assert say({"kind": "out", "by": jack.ref, "to": oneil.ref}) == "Red Jack took out Jack O'Neil."


def test_stories_in_order_with_deaths_awards_and_what_came_after(played):
    state = services.state_of(played)
    before, stories = chronicle.encounter_stories(state)
    assert before == []
    assert [s.number for s in stories] == [1, 2]
    first = stories[0]
    assert first.winner == "Red Jack's Gang won"
    assert first.where.startswith("Deadrock - centre of town (rolled 1)")
    assert first.happenings[0] == "Red Jack wounded Jack O'Neil (2 actions lost)."
    assert first.deaths == ["Death roll for Jack O'Neil: 1, Dead. Removed from the gang."]
    assert any(a.reason.startswith("Killed Jack O'Neil") and a.amount == 5 for a in first.awards)
    assert first.after == [  # the gang chose to fight encounter 2 short-handed
        "The O'Neil Gang fights on without replacing Jack O'Neil (a recruit may still take "
        "the place later)."
    ]
    assert any("bought" in line and "Knife" in line for line in stories[1].after)


def test_charts_name_each_member_with_their_gang(played):
    charts = chronicle.state_charts(services.state_of(played))
    assert [c.title for c in charts] == [
        "Outlaw reputation after each encounter",
        "Gang totals (reputation) after each encounter",
    ]
    assert "Red Jack (Red Jack&#x27;s Gang)" in charts[0].svg
    assert charts[0].table[0] == ["", "Start", "1", "2"]
    assert charts[1].table[1:] == [
        ["Red Jack's Gang", "0", "17", "34"],
        ["The O'Neil Gang", "0", "0", "0"],
    ]


# --------------------------------------------------------------------------- the PDF


def test_the_chronicle_pdf(played, player):
    response = client_for(player).get(reverse("campaign_chronicle", args=[played.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="deadrock-chronicle.pdf"'
    assert response.content.startswith(b"%PDF")
    text = pdf_text(response.content)
    flat = " ".join(text.split())
    for expected in (
        "Deadrock",
        "Campaign chronicle",
        "orla",
        "Red Jack's Gang",
        "The O'Neil Gang",
        "The Most Wanted Outlaws in the Old West",
        "Final standings",
        "Encounter 1: Red Jack's Gang v The O'Neil Gang",
        "Encounter 2",
        "Red Jack wounded Jack O'Neil (2 actions lost).",
        "Death roll for Jack O'Neil: 1, Dead.",
        "Won the encounter",
        "After the encounter",
        "Outlaw reputation after each encounter",
        "Page 1 of",
    ):
        assert expected in flat, expected
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert float(page.mediabox.height) == pytest.approx(297 * 72 / 25.4, abs=0.1)


def test_the_chronicle_on_letter_paper(played, organiser):
    url = reverse("campaign_chronicle", args=[played.pk]) + "?paper=letter"
    response = client_for(organiser).get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="deadrock-chronicle-letter.pdf"'
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert float(page.mediabox.height) == pytest.approx(279.4 * 72 / 25.4, abs=0.1)


def test_a_chronicle_while_setting_up(organiser, player):
    campaign = new_campaign(organiser)
    join(campaign, player, RED_JACKS)
    content = chronicle.chronicle_pdf(campaign, services.state_of(campaign))
    assert content.startswith(b"%PDF")
    assert "No encounter has been played yet." in " ".join(pdf_text(content).split())


def test_a_hostile_name_is_escaped_and_fetches_nothing(organiser, player, rival):
    campaign = new_campaign(organiser, name=HOSTILE)
    join(campaign, player, RED_JACKS, name=HOSTILE)
    join(campaign, rival, SIX_OUTLAWS, name='"><script>alert(1)</script>')
    services.record(campaign, None, "campaign_started", {})
    play(campaign)
    state = services.state_of(campaign)
    html = chronicle.chronicle_html(campaign, state)
    assert HOSTILE not in html and "<script>" not in html
    assert "&lt;img src=file:///etc/passwd&gt;" in html
    static = settings.PDF_STATIC_DIR
    fetcher = make_fetcher(static)
    content = chronicle.render(html, fetcher=fetcher)
    assert content.startswith(b"%PDF")
    assert fetcher.refused == []
    root = Path(static).resolve().as_uri()
    assert fetcher.served and all(url.startswith(root) for url in fetcher.served)
    assert HOSTILE in " ".join(pdf_text(content).split())  # shown as text, not fetched


def test_the_chronicle_is_cached_by_its_content(played, monkeypatch):
    calls = []

    def fake(html, **kwargs):
        calls.append(html)
        return b"%PDF-1.7 fake"

    monkeypatch.setattr(chronicle, "render", fake)
    monkeypatch.setattr(chronicle, "run_with_deadline", lambda job, seconds: job())
    state = services.state_of(played)
    assert chronicle.chronicle_pdf(played, state) == b"%PDF-1.7 fake"
    assert chronicle.chronicle_pdf(played, state) == b"%PDF-1.7 fake"
    assert len(calls) == 1
    services.record(played, None, "encounter_undone", {"reason": "a mistake"})
    chronicle.chronicle_pdf(played, services.state_of(played))
    assert len(calls) == 2


@pytest.mark.parametrize(
    ("error", "status"),
    [(printing.PdfTimeout("Too slow."), 504), (printing.PdfUnavailable("No WeasyPrint."), 503)],
)
def test_pdf_errors_show_the_error_page(played, player, monkeypatch, error, status):
    def broken(*args, **kwargs):
        raise error

    monkeypatch.setattr(chronicle, "run_with_deadline", broken)
    response = client_for(player).get(reverse("campaign_chronicle", args=[played.pk]))
    assert response.status_code == status
    assert str(error) in response.content.decode()


@pytest.mark.parametrize("encounters", [1, 3])
def test_the_chronicle_costs_the_same_queries(
    organiser, player, rival, monkeypatch, django_assert_num_queries, encounters
):
    monkeypatch.setattr(chronicle, "render", lambda html, **kw: b"%PDF-1.7")
    campaign = new_campaign(organiser)
    join(campaign, player, RED_JACKS)
    join(campaign, rival, SIX_OUTLAWS)
    services.record(campaign, None, "campaign_started", {})
    for n in range(encounters):
        play(campaign, seed=[2, 4, 6][n])
    client = client_for(player)
    # session, user, the campaign (with its organiser), its log
    with django_assert_num_queries(4):
        assert client.get(reverse("campaign_chronicle", args=[campaign.pk])).status_code == 200
