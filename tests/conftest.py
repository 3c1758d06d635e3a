"""Shared fixtures: users, clients, content, and a legal five-member gang."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from builder.models import Gang
from gangfight_site import background as background_tasks
from tests.factories import build_gang

PASSWORD = "Long-enough-pa55word"

# The fixtures through which a test reaches the database (pytest-django's, and so every
# fixture built on them, which pytest lists in a test's fixture closure).
DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}


def pytest_collection_modifyitems(config, items) -> None:
    """Mark each test that touches the database ``database`` (and a browser test
    ``browser``): CI runs the whole suite on SQLite, and again on PostgreSQL only the
    ``database`` tests (.ci/run), since the others never meet a database."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & DATABASE_FIXTURES or item.get_closest_marker("django_db"):
            item.add_marker(pytest.mark.database)
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def default_language_after_each_test():
    """A test that reads a page in French (its request or an override left active) must
    not leave the next test's thread in French."""
    yield
    translation.deactivate()


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
    """Background work submitted during a test (gangfight_site/background.py, "record")."""

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
