"""Shared fixtures: users, clients, content, and a legal five-member gang."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from builder.models import Gang
from common import background as background_tasks
from tests.factories import build_gang
from tests.helpers.users import PASSWORD, make_user

# The Celery path's Redis and worker, one for the whole session (tests/helpers/celery_redis.py)
pytest_plugins = ["tests.helpers.celery_redis"]

# The fixtures through which a test reaches the database (pytest-django's, and so every
# fixture built on them, which pytest lists in a test's fixture closure).
DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}


#: Modules whose tests take seconds each (pages in chromium, PDFs rasterised, real Celery
#: workers): run first, so that no worker is left with one of them at the end of the run.
SLOW_FIRST = ("test_pages.py", "test_pdf_pictures.py")
SLOW = ("browser", "test_background_celery.py", "test_notification_timing.py")


def pytest_collection_modifyitems(config, items) -> None:
    """Mark each test that touches the database ``database`` (and a browser test
    ``browser``; the tests that look at every page and PDF ``looks``): CI runs each test
    once (.ci/run): the ``database`` tests but the ``looks`` ones on PostgreSQL, and the
    others on SQLite, since they never meet a database or what they draw does not depend
    on it. The slowest tests go first (pytest-xdist then spreads them)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & DATABASE_FIXTURES or item.get_closest_marker("django_db"):
            item.add_marker(pytest.mark.database)
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
        if item.path.name in SLOW_FIRST:
            item.add_marker(pytest.mark.looks)

    def weight(item) -> int:
        if item.path.name in SLOW_FIRST:
            return 0
        if any(part in SLOW for part in item.path.parts) or "print" in item.path.name:
            return 1
        return 2

    items.sort(key=weight)


@pytest.fixture(autouse=True)
def default_language_after_each_test():
    """A test that reads a page in French (its request or an override left active) must
    not leave the next test's thread in French."""
    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """On PostgreSQL, the test databases don't wait for the disk at each commit
    (``synchronous_commit=off``: a crash could lose the last transactions, which a test
    database never minds); the live-server and thread tests commit thousands of times."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("postgresql"):
        options = database.setdefault("OPTIONS", {})
        options["options"] = (options.get("options", "") + " -c synchronous_commit=off").strip()


@pytest.fixture(autouse=True)
def empty_default_cache():
    """The default cache (local memory, without REDIS_URL) lives as long as the process:
    each test starts with it empty, so no count, throttle or answer a test left behind
    changes the next one (whichever tests pytest-xdist gives the same worker)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):  # never flush a shared Redis
        caches["default"].clear()
    yield


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    """Real hashing is slow by design; tests only need it to work."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def pdf_cache(settings, tmp_path) -> None:
    """Each test starts with an empty PDF cache of its own, never the project's var/."""
    settings.CACHES = {
        **settings.CACHES,
        "pdf": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "pdf-cache"),
        },
    }
    # ... and its own render gate (builder/pdf_gate.py), never shared with another run
    settings.PDF_LOCK_DIR = tmp_path / "pdf-locks"
    # A render is stopped after 20 s on a server; tests run side by side on every CPU, so a
    # busy machine gets longer (the tests of the limit itself set their own).
    settings.PDF_TIMEOUT_SECONDS = 120


class Background:
    """Background work submitted during a test (common/background.py, "record")."""

    @property
    def submitted(self) -> list:
        """Each ``Submission`` (task, kwargs, key, delay) whose transaction committed."""
        return background_tasks.recorded()

    def tasks(self, name: str) -> list:
        return [s for s in self.submitted if s.task == name]

    def run_all(self) -> int:
        """Run what was submitted, inline (a debounced one replaced by a later one with
        the same key does nothing); returns how many ran."""
        return background_tasks.run_recorded()

    def clear(self) -> None:
        background_tasks.reset_recorded()


PRINT_AHEAD = "builder.tasks.prerender_gang"


@pytest.fixture
def no_printing_ahead(monkeypatch) -> None:
    """For tests that run the background work for something else (mail, counts): the PDFs
    each builder change makes ahead (tested in tests/test_print_background.py) are not
    made, which saves seconds of rendering a test."""
    monkeypatch.setattr(PRINT_AHEAD, lambda **kwargs: None)


@pytest.fixture(autouse=True)
def background(settings) -> Background:
    """Nothing runs in the background during tests: submissions are recorded."""
    settings.BACKGROUND_TASKS = "record"
    background_tasks.reset_recorded()
    yield Background()
    background_tasks.reset_recorded()


@pytest.fixture
def content(db) -> None:
    """The shipped content fixtures (weapons and horses)."""
    call_command("load_content", verbosity=0)


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_user("owner", password=PASSWORD)


@pytest.fixture
def stranger(db) -> User:
    return User.objects.create_user("stranger", password=PASSWORD)


@pytest.fixture
def owner_client(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def stranger_client(stranger) -> Client:
    client = Client()
    client.force_login(stranger)
    return client


@pytest.fixture
def gang(owner, content) -> Gang:
    return build_gang(owner)


@pytest.fixture
def organiser(db) -> User:
    """Orla, who organises the club, its leagues and the campaigns (she has an address)."""
    return make_user("orla", "orla@example.com")


@pytest.fixture
def members() -> list[User]:
    """Who joins the ``club`` besides its organiser: nobody, unless a module says so
    (by a ``members`` fixture of its own)."""
    return []


@pytest.fixture
def club_details() -> dict:
    """The ``club``'s name and about text (a module may name its club otherwise)."""
    return {"name": "Deadrock Gamers"}


@pytest.fixture
def club(organiser, members, club_details):
    """A club that ``organiser`` runs, with ``members`` in it."""
    from campaigns.leagues import services as league_services

    club = league_services.create_club(organiser, **club_details)
    for user in members:
        league_services.join_club(club, user)
    return club
