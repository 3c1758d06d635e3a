"""A gang's PDFs made ahead, in the background, after a change (issue 17, item 1).

The ``background`` fixture records what is submitted (nothing runs by itself: that is
the worker being down); ``run_all()`` runs it as the worker would.
"""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from builder import pdf_gate, printing, tasks
from builder.models import Gang
from builder.printing import documents
from builder.views import printing as print_views
from tests.factories import build_gang
from tests.helpers.pdf import pdf_text

PRERENDER = "builder.tasks.prerender_gang"


def print_url(gang: Gang, **params) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"{reverse('gang_print', args=[gang.pk])}?{query}"


def rename(client, gang: Gang, name: str) -> None:
    """A change through the gang's settings form (``services.update_gang``)."""
    response = client.post(
        reverse("gang_update", args=[gang.pk]), {"gang-name": name, "gang-limit": ""}
    )
    assert response.status_code == 302


def recruit(client, gang: Gang, name: str) -> None:
    """A change through a builder action (``services.run_action``)."""
    response = client.post(
        reverse("gang_action", args=[gang.pk, "recruit"]),
        {"recruit-name": name, "recruit-member_type": "henchman"},
    )
    assert response.status_code == 302


@pytest.fixture
def made(monkeypatch):
    """print_pdf replaced by a fast fake whose bytes name the gang and its members, and
    which remembers each render's kind and CPU priority."""
    calls: list[tuple[str, int]] = []

    def fake(roster, kind, *, nice=10, **options):
        calls.append((kind, nice))
        names = ",".join(m["name"] for m in roster["members"])
        return f"%PDF-1.7 {kind} {roster['name']}: {names}".encode()

    monkeypatch.setattr(documents, "print_pdf", fake)
    return calls


@pytest.fixture
def site(settings):
    settings.SITE_URL = "http://testserver"


def test_every_kind_of_change_submits_a_debounced_prerender(
    owner_client, gang, background, settings
):
    settings.PDF_PRERENDER_DELAY = 2.5
    background.clear()
    rename(owner_client, gang, "The Younger Gang")
    recruit(owner_client, gang, "Kid")
    submitted = background.tasks(PRERENDER)
    gang.refresh_from_db()
    assert [s.kwargs for s in submitted] == [
        {"gang_id": gang.pk, "version": gang.version - 1},
        {"gang_id": gang.pk, "version": gang.version},
    ]
    assert {s.key for s in submitted} == {f"prerender:{gang.pk}"}
    assert {s.delay for s in submitted} == {2.5}


def test_a_burst_of_changes_makes_the_pdfs_once_for_the_latest_version(
    owner_client, gang, background, made, site
):
    for name in ("One", "Two", "Three"):
        rename(owner_client, gang, name)
    assert len(background.tasks(PRERENDER)) == 3
    background.run_all()
    assert made == [("cards", 19), ("sheet", 19), ("reference", 19)]  # low priority


def test_the_click_after_the_background_render_is_served_from_the_cache(
    owner_client, gang, background, made, site
):
    rename(owner_client, gang, "The Younger Gang")
    background.run_all()
    assert len(made) == 3
    for kind in ("cards", "sheet", "reference"):
        started = time.perf_counter()
        response = owner_client.get(print_url(gang, kind=kind, paper="a4"))
        assert response.status_code == 200
        assert response.content.startswith(f"%PDF-1.7 {kind} The Younger Gang".encode())
        assert time.perf_counter() - started < 1.0  # measured in benchmarks/bench_pdf.py
    assert len(made) == 3  # nothing made in the request


def test_a_change_followed_at_once_by_print_never_serves_the_previous_version(
    owner_client, gang, background, site
):
    """Real renders: the PDF made ahead for one version, then a change, then Print at
    once (before the worker has made the new one) gives the new gang, made in the request."""
    rename(owner_client, gang, "The Younger Gang")
    background.run_all()
    before = owner_client.get(print_url(gang, kind="cards", paper="a4")).content
    assert "The Younger Gang" in pdf_text(before)
    recruit(owner_client, gang, "Johnny Ringo")
    after = owner_client.get(print_url(gang, kind="cards", paper="a4"))
    assert after.status_code == 200
    text = pdf_text(after.content)
    assert "Johnny Ringo" in text
    assert after.content != before
    rename(owner_client, gang, "The Older Gang")
    sheet = pdf_text(owner_client.get(print_url(gang, kind="sheet", paper="a4")).content)
    assert "The Older Gang" in sheet and "The Younger Gang" not in sheet


def test_the_cache_key_is_the_roster_not_the_version(gang):
    from builder.roster import gang_roster, members_with_items

    roster = gang_roster(gang, list(members_with_items(gang)))
    changed = {
        **roster,
        "members": [{**roster["members"][0], "name": "Other"}, *roster["members"][1:]],
    }
    options = tasks.default_options("http://testserver/s/x/")
    assert printing.cache_key(roster, "cards", **options) != printing.cache_key(
        changed, "cards", **options
    )
    assert printing.cache_key(roster, "cards", **options) == printing.cache_key(
        dict(roster), "cards", **options
    )


def test_the_worker_being_down_still_gives_a_pdf_with_the_progress_indicator(
    owner_client, gang, background, made, site
):
    rename(owner_client, gang, "The Younger Gang")
    assert background.tasks(PRERENDER)  # submitted, never run: no worker
    page = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    assert "data-pdf-progress" in page and "Making your PDF" in page
    response = owner_client.get(print_url(gang, kind="cards", paper="a4"))
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF-1.7 cards The Younger Gang")
    assert made == [("cards", 10)]  # made in the request, at the clicks' priority


def test_a_submission_for_an_older_version_makes_nothing(owner_client, gang, made, site):
    version = gang.version
    rename(owner_client, gang, "Moved on")
    assert tasks.prerender_gang(gang_id=gang.pk, version=version) == []
    assert made == []
    gang.refresh_from_db()
    assert tasks.prerender_gang(gang_id=gang.pk, version=gang.version) == [
        "cards",
        "sheet",
        "reference",
    ]
    assert tasks.prerender_gang(gang_id=gang.pk, version=gang.version) == []  # all cached
    assert len(made) == 3


def test_a_deleted_gang_makes_nothing(owner_client, gang, made, site, background):
    rename(owner_client, gang, "Soon gone")
    gang.delete()
    background.run_all()
    assert made == []


def test_prerendering_can_be_turned_off(owner_client, gang, background, settings):
    settings.PDF_PRERENDER = False
    background.clear()
    rename(owner_client, gang, "Quiet")
    assert background.tasks(PRERENDER) == []


def test_the_qr_address_never_comes_from_a_print_request(owner_client, gang, made, settings):
    """Without SITE_URL (development only), a PDF made ahead carries the development
    server's address; a print request's Host is that PDF's alone, never kept for others
    (issue 27: it was, so one request could bend every later QR code)."""
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["gangs.example.org", "127.0.0.1"]
    owner_client.get(print_url(gang, kind="sheet"), HTTP_HOST="gangs.example.org")
    assert printing.site_origin() == "http://127.0.0.1:8000"
    made.clear()
    assert tasks.prerender_gang(gang_id=gang.pk, version=gang.version) == [
        "cards",
        "sheet",
        "reference",
    ]
    # a click at the development server's own address finds them made
    made.clear()
    owner_client.get(print_url(gang, kind="sheet"), HTTP_HOST="127.0.0.1:8000")
    assert made == []


def test_site_url_sets_the_qr_address(owner_client, gang, settings, monkeypatch):
    settings.SITE_URL = "https://gangfight.example/"
    seen = {}
    real = print_views.cached_pdf

    def spy(roster, kind, **options):
        seen.update(options)
        return real(roster, kind, **options)

    monkeypatch.setattr(print_views, "cached_pdf", spy)
    monkeypatch.setattr(documents, "print_pdf", lambda *a, **k: b"%PDF-1.7")
    owner_client.get(print_url(gang, kind="sheet"))
    assert seen["share_url"] == f"https://gangfight.example/s/{gang.share_token}/"


def test_a_gang_too_big_to_print_is_left_to_the_click(owner, content, made, site, settings):
    settings.PDF_MAX_MEMBERS = {"cards": 2, "sheet": 2, "reference": 200}
    gang = build_gang(owner, size=3)
    assert tasks.prerender_gang(gang_id=gang.pk, version=gang.version) == ["reference"]


# ----------------------------------------------------------------- the gate


def test_a_background_render_takes_its_own_place_never_a_clicks(settings, made, db):
    settings.PDF_RENDERS = 1
    roster = {
        "format": "gangfight-roster",
        "version": 1,
        "system": "bwg1",
        "name": "G",
        "members": [],
    }
    where = pdf_gate._lock_dir()
    click_place = pdf_gate._try(where / "render-0.lock")
    try:  # every click's place taken: a background render still goes
        printing.cached_pdf(roster, "sheet", paper="a4", background=True)
    finally:
        pdf_gate._release(click_place)
    background_place = pdf_gate._try(where / "background-render-0.lock")
    try:  # the background's place taken: a click still goes
        printing.cached_pdf(roster, "reference", paper="a4")
    finally:
        pdf_gate._release(background_place)
    assert made == [("sheet", 19), ("reference", 10)]


def test_a_background_render_gives_way_to_a_click_making_the_same_pdf(settings, made, db):
    roster = {
        "format": "gangfight-roster",
        "version": 1,
        "system": "bwg1",
        "name": "G",
        "members": [],
    }
    key = printing.cache_key(roster, "sheet", paper="a4")
    fd = pdf_gate._try(pdf_gate._lock_dir() / f"pdf-{pdf_gate._name(key)}.lock")
    try:
        with pytest.raises(pdf_gate.PdfBusy):
            printing.cached_pdf(roster, "sheet", paper="a4", background=True)
    finally:
        pdf_gate._release(fd)
    assert made == []


def test_a_click_waits_for_the_same_pdf_being_made_in_the_background(settings, db):
    """A click finding its PDF being made in the background waits for it (longer than
    its usual half second) and is served it, rather than being told to come back."""
    import threading

    settings.PDF_WAIT_SECONDS = 0.1
    roster = {
        "format": "gangfight-roster",
        "version": 1,
        "system": "bwg1",
        "name": "G",
        "members": [],
    }
    calls = []

    def slow(roster, kind, *, nice=10, **options):
        calls.append(nice)
        time.sleep(0.8)
        return b"%PDF-1.7 made ahead"

    printing_print_pdf = documents.print_pdf
    documents.print_pdf = slow
    try:
        worker = threading.Thread(
            target=printing.cached_pdf,
            args=(roster, "sheet"),
            kwargs={"paper": "a4", "background": True},
        )
        worker.start()
        time.sleep(0.3)  # the background render is under way
        content, cached = printing.cached_pdf(roster, "sheet", paper="a4", client="10.0.0.1")
        worker.join()
    finally:
        documents.print_pdf = printing_print_pdf
    assert (content, cached, calls) == (b"%PDF-1.7 made ahead", True, [19])


def test_an_imported_gang_is_printed_ahead(owner, content, background, made, site):
    from builder.services import import_gang
    from tests.test_print_speed import example

    gang = import_gang(owner, example("bwg1", members=4))
    (submission,) = background.tasks(PRERENDER)
    assert submission.kwargs == {"gang_id": gang.pk, "version": gang.version}
    background.run_all()
    assert [kind for kind, _nice in made] == ["cards", "sheet", "reference"]


@pytest.mark.django_db(transaction=True)
def test_without_redis_a_thread_of_the_app_makes_them_after_the_request(
    owner_client, gang, made, site, settings
):
    """The embedded default: no worker to start, the PDFs are made by a thread of the
    app's own process, after the request has its answer."""
    from common import background as tasks_in_background

    settings.BACKGROUND_TASKS = "thread"
    settings.PDF_PRERENDER_DELAY = 0.2
    rename(owner_client, gang, "The Thread Gang")
    assert made == []  # not in the request
    assert tasks_in_background.wait_idle(30)
    assert made == [("cards", 19), ("sheet", 19), ("reference", 19)]
    response = owner_client.get(print_url(gang, kind="sheet", paper="a4"))
    assert response.content.startswith(b"%PDF-1.7 sheet The Thread Gang")
    assert len(made) == 3
