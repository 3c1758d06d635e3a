"""Shared fixtures: users, clients, content, and a legal five-member gang."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from builder.models import Gang
from tests.factories import build_gang

PASSWORD = "Long-enough-pa55word"


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
