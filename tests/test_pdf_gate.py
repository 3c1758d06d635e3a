"""PDFs can't starve the site (issue 19, item 1): the render gate (builder/pdf_gate.py)
bounds the renders running at once, gives a client one at a time, makes the same PDF once,
and a gang too big for one PDF is told so plainly."""

from __future__ import annotations

import threading
import time

import pytest
from django.urls import reverse

from builder import pdf_gate, printing
from builder.printing import documents
from builder.roster import export_roster
from tests.factories import build_gang

ROSTER = {"format": "gangfight-roster", "version": 1, "system": "bwg1", "name": "G", "members": []}


@pytest.fixture(autouse=True)
def own_locks(settings, tmp_path):
    """Each test has its own lock files, and short waits."""
    settings.PDF_LOCK_DIR = tmp_path / "locks"
    settings.PDF_WAIT_SECONDS = 0.2
    settings.PDF_RENDERS = 1


@pytest.fixture
def counted(monkeypatch):
    """print_pdf made slow and counted: (calls, how long each takes)."""
    calls: list[str] = []

    def fake(roster, kind, **options):
        calls.append(kind)
        time.sleep(0.4)
        return b"%PDF-1.7 fake"

    monkeypatch.setattr(documents, "print_pdf", fake)
    return calls


def hold(path):
    fd = pdf_gate._try(path)
    assert fd is not None
    return fd


def test_every_render_place_taken_means_busy_with_a_time_to_come_back(settings, counted, db):
    settings.PDF_RENDERS = 2
    where = pdf_gate._lock_dir()
    held = [hold(where / f"render-{i}.lock") for i in range(2)]
    try:
        started = time.monotonic()
        with pytest.raises(pdf_gate.PdfBusy, match="try again in a few seconds"):
            printing.cached_pdf(ROSTER, "sheet", paper="a4")
        assert time.monotonic() - started < 1.5  # it waited PDF_WAIT_SECONDS, no more
    finally:
        for fd in held:
            pdf_gate._release(fd)
    content, cached = printing.cached_pdf(ROSTER, "sheet", paper="a4")
    assert (content, cached, counted) == (b"%PDF-1.7 fake", False, ["sheet"])


def test_one_client_one_render_at_a_time(counted, db):
    fd = hold(pdf_gate._lock_dir() / f"client-{pdf_gate._name('10.0.0.7')}.lock")
    try:
        with pytest.raises(pdf_gate.PdfTooMany, match="still being made"):
            printing.cached_pdf(ROSTER, "sheet", paper="a4", client="10.0.0.7")
        # another client is not held back
        printing.cached_pdf(ROSTER, "sheet", paper="a4", client="10.0.0.8")
    finally:
        pdf_gate._release(fd)
    assert counted == ["sheet"]


def test_the_same_pdf_asked_twice_at_once_is_made_once(settings, counted, db):
    settings.PDF_RENDERS = 2
    settings.PDF_WAIT_SECONDS = 2  # longer than the render: the second finds it made
    results = []

    def ask(client):
        results.append(printing.cached_pdf(ROSTER, "reference", paper="a4", client=client))

    threads = [threading.Thread(target=ask, args=(f"10.0.0.{i}",)) for i in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counted == ["reference"]
    assert sorted(cached for _content, cached in results) == [False, True]


def test_a_gang_too_big_for_one_pdf_is_told_what_to_print_instead(counted, db):
    roster = {**ROSTER, "members": [{"key": str(i), "name": f"M{i}"} for i in range(61)]}
    with pytest.raises(printing.PdfTooBig, match=r"61 members.*at most 60"):
        printing.cached_pdf(roster, "cards", paper="a4")
    printing.cached_pdf(roster, "cards", paper="a4", member_key="3")  # one card is fine
    printing.cached_pdf(roster, "sheet", paper="a4")
    assert counted == ["cards", "sheet"]


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (pdf_gate.PdfBusy("busy"), 503),
        (pdf_gate.PdfTooMany("one at a time"), 429),
        (printing.PdfTooBig("too big"), 413),
        (printing.PdfTimeout("slow"), 504),
    ],
)
def test_each_refusal_has_its_status_and_says_when_to_come_back(
    owner, content, client, monkeypatch, error, status
):
    """Through the campaign gang's Print (the builder's Print shares the same path)."""
    from tests.test_campaign_views import join, new_campaign

    campaign = new_campaign(owner)
    entry = join(campaign, owner)

    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(documents, "print_pdf", refuse)
    client.force_login(owner)
    url = reverse("campaign_gang_print", args=[campaign.pk, entry.pk]) + "?kind=sheet&paper=a4"
    response = client.get(url)
    assert response.status_code == status
    assert str(error) in response.content.decode()
    assert ("Retry-After" in response) == (status in (503, 429))


def test_the_site_answers_while_every_render_place_is_taken(owner, content, client, settings):
    """A page of the site is not held up by PDFs being made: it doesn't go through the
    gate at all."""
    gang = build_gang(owner)
    held = hold(pdf_gate._lock_dir() / "render-0.lock")
    try:
        client.force_login(owner)
        started = time.monotonic()
        assert client.get(reverse("gang_detail", args=[gang.pk])).status_code == 200
        assert client.get(reverse("rules")).status_code == 200
        assert time.monotonic() - started < 2
        with pytest.raises(pdf_gate.PdfBusy):
            printing.cached_pdf(export_roster(gang), "sheet", paper="a4")
    finally:
        pdf_gate._release(held)


def test_a_share_link_visitor_is_told_to_wait_for_the_pdf_already_being_made(
    owner, content, client
):
    """The builder's Print goes through the gate too, by the visitor's address (an
    anonymous visitor without a session: the last resort) and the gang (issue 27)."""
    gang = build_gang(owner)
    visitor = f"address:127.0.0.1|gang:{gang.pk}"
    fd = hold(pdf_gate._lock_dir() / f"client-{pdf_gate._name(visitor)}.lock")
    try:
        url = reverse("gang_shared_print", args=[gang.share_token]) + "?kind=sheet&paper=a4"
        response = client.get(url)
    finally:
        pdf_gate._release(fd)
    assert response.status_code == 429 and response["Retry-After"] == "5"
    assert "still being made" in response.content.decode()
