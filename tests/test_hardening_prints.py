"""Issue 27, finding 3: behind a proxy every print came from one address, so a player
printing his own gang was told "a PDF you asked for is still being made" while a
stranger's print ran. The render gate's one-at-a-time is per user (or per anonymous
visitor's session) and per gang; an address is the last resort, and it is the client's
(the hop the trusted proxy names), never the proxy's."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from builder.printing import documents
from tests.conftest import PASSWORD
from tests.factories import build_gang

PROXY = "127.0.0.1"


@pytest.fixture(autouse=True)
def gate(settings, tmp_path):
    settings.TRUSTED_PROXIES = [PROXY]
    settings.PDF_LOCK_DIR = tmp_path / "locks"
    settings.PDF_RENDERS = 3  # room for every render here: only one-at-a-time may refuse
    settings.PDF_WAIT_SECONDS = 0.2
    settings.PDF_PRERENDER = False


class SlowPrinter:
    """print_pdf, held until released: a render in progress."""

    def __init__(self):
        self.started = threading.Event()
        self.release = threading.Event()
        self.made: list[str] = []

    def __call__(self, roster, kind, **options):
        self.started.set()
        self.release.wait(10)
        self.made.append(roster.get("name", ""))
        return b"%PDF-1.7 fake"


@pytest.fixture
def printer(monkeypatch) -> SlowPrinter:
    slow = SlowPrinter()
    monkeypatch.setattr(documents, "print_pdf", slow)
    return slow


def browser(user: User | None, address: str) -> Client:
    client = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address)
    if user is not None:
        client.force_login(user)
    return client


def print_url(gang, *, shared: bool = False) -> str:
    if shared:
        return reverse("gang_shared_print", args=[gang.share_token]) + "?kind=sheet&paper=a4"
    return reverse("gang_print", args=[gang.pk]) + "?kind=sheet&paper=a4"


def in_progress(printer: SlowPrinter, client: Client, url: str) -> threading.Thread:
    """Start ``client``'s print and return once its render is under way."""
    answers = []
    thread = threading.Thread(target=lambda: answers.append(client.get(url)), daemon=True)
    thread.answers = answers
    thread.start()
    assert printer.started.wait(10)
    return thread


def finish(printer: SlowPrinter, thread: threading.Thread) -> int:
    printer.release.set()
    thread.join(10)
    return thread.answers[0].status_code


@pytest.mark.django_db(transaction=True)
def test_a_player_prints_his_gang_while_a_stranger_prints_behind_the_same_proxy(printer, content):
    owner = User.objects.create_user("owner", password=PASSWORD)
    stranger = User.objects.create_user("stranger", password=PASSWORD)
    mine, theirs = build_gang(owner, name="Mine"), build_gang(stranger, name="Theirs")
    running = in_progress(printer, browser(stranger, "198.51.100.2"), print_url(theirs))
    try:
        response = browser(owner, "198.51.100.1").get(print_url(mine))
        assert response.status_code == 200, response.content.decode()[:300]
    finally:
        assert finish(printer, running) == 200


@pytest.mark.django_db(transaction=True)
def test_two_players_behind_one_address_print_at_once(printer, content):
    """A club's network (one address for everyone): still one render per player."""
    owner = User.objects.create_user("owner", password=PASSWORD)
    friend = User.objects.create_user("friend", password=PASSWORD)
    mine, theirs = build_gang(owner, name="Mine"), build_gang(friend, name="Theirs")
    running = in_progress(printer, browser(friend, "198.51.100.7"), print_url(theirs))
    try:
        assert browser(owner, "198.51.100.7").get(print_url(mine)).status_code == 200
    finally:
        finish(printer, running)


@pytest.mark.django_db(transaction=True)
def test_share_link_visitors_at_other_addresses_print_at_once(printer, content):
    owner = User.objects.create_user("owner", password=PASSWORD)
    one, two = build_gang(owner, name="One"), build_gang(owner, name="Two")
    running = in_progress(printer, browser(None, "198.51.100.8"), print_url(one, shared=True))
    try:
        assert browser(None, "198.51.100.9").get(print_url(two, shared=True)).status_code == 200
    finally:
        finish(printer, running)


@pytest.mark.django_db(transaction=True)
def test_one_player_still_has_one_render_at_a_time_per_gang(printer, content):
    owner = User.objects.create_user("owner", password=PASSWORD)
    mine = build_gang(owner, name="Mine")
    running = in_progress(printer, browser(owner, "198.51.100.1"), print_url(mine))
    try:
        url = reverse("gang_print", args=[mine.pk]) + "?kind=reference&paper=a4"
        started = time.monotonic()
        response = browser(owner, "198.51.100.1").get(url)
        assert response.status_code == 429 and "still being made" in response.content.decode()
        assert time.monotonic() - started < 2
    finally:
        finish(printer, running)
