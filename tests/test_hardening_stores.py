"""Issue 27, findings 7 and 8: every store is bounded.

7. The PDF cache in Redis (shared with the Celery queue and the log-in counts) keeps only
   the latest version of each gang's PDFs and a bounded number of cards' fits, and every
   key it writes expires.
8. A game's tap log is bounded: a generous limit, and a clear message at it.
"""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from builder import services
from builder.printing import cards, documents, layout
from tests.conftest import PASSWORD
from tests.factories import build_gang

FAKE_PDF = b"%PDF-1.7 " + b"x" * 70_000  # about what a change made ahead cost (70 KB)


@pytest.fixture
def redis_pdf_cache(redis_url, settings):
    """The PDF cache in a real Redis, under a prefix of this test's own."""
    import redis

    prefix = f"test27-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        **settings.CACHES,
        "pdf": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
            "TIMEOUT": 7 * 24 * 3600,
        },
    }
    client = redis.Redis.from_url(redis_url)
    yield client, prefix
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)


def keys_of(client, prefix: str) -> dict[str, int]:
    """Each key under ``prefix`` and its time to live (-1: none)."""
    return {k.decode(): client.ttl(k) for k in client.scan_iter(f"{prefix}:*")}


def test_fifty_changes_leave_one_versions_pdfs_and_every_key_expires(
    redis_pdf_cache, owner, content, settings, background, monkeypatch
):
    client, prefix = redis_pdf_cache
    settings.SITE_URL = "http://testserver"
    monkeypatch.setattr(documents, "print_pdf", lambda *a, **k: FAKE_PDF)
    gang = build_gang(owner)
    for n in range(50):
        services.update_gang(gang, name=f"Change {n}", limit=None)
        background.run_all()  # its cards, sheet and reference made ahead
    keys = keys_of(client, prefix)
    pdfs = [k for k in keys if ":pdf:" in k]
    assert len(pdfs) == 3, sorted(keys)  # the latest version's cards, sheet, reference
    assert len(keys) <= 5, sorted(keys)  # and what bookkeeping it needs
    assert all(0 < ttl <= 2 * 24 * 3600 for ttl in keys.values()), keys
    # the latest version's PDFs are the ones kept: a click finds them
    gang.refresh_from_db()
    from tests.helpers.users import client_for

    response = client_for(owner).get(reverse("gang_print", args=[gang.pk]) + "?kind=sheet&paper=a4")
    assert response.status_code == 200 and response.content == FAKE_PDF
    assert len([k for k in keys_of(client, prefix) if ":pdf:" in k]) == 3


def test_the_cards_fits_are_bounded_and_expire(redis_pdf_cache, settings):
    from rules.printing import Card

    client, prefix = redis_pdf_cache
    settings.PDF_FIT_ENTRIES = 40
    for n in range(300):
        card = Card(key=str(n), name=f"Member {n}", kind="Henchman", mark="star", stats=[])
        cards._remember([layout.Face(card=card, groups=[])])
    keys = keys_of(client, prefix)
    fits = [k for k in keys if ":fit:" in k]
    assert 0 < len(fits) <= 40
    assert len(keys) <= 45
    assert all(ttl > 0 for ttl in keys.values())


def test_the_file_cache_keeps_its_bound(settings):
    assert settings.CACHES["pdf"]["BACKEND"].endswith("FileBasedCache")
    from gangfight_site import settings as site_settings

    if not site_settings.REDIS_URL:
        assert site_settings.CACHES["pdf"]["OPTIONS"]["MAX_ENTRIES"] == 2000


# --------------------------------------------------------------------------- finding 8


@pytest.fixture
def game(db):
    from django.contrib.auth.models import User

    from tests.test_play_views import roster

    alice = User.objects.create_user("alice", password=PASSWORD)
    gang = services.import_gang(alice, roster("rivals-legal-red-jacks-gang.json"))
    from play import services as play

    return alice, play.start_from_gang(alice, gang)


def test_a_game_at_its_tap_limit_says_so_and_keeps_its_log(game, settings):
    from play import services as play
    from play.models import TapEvent
    from rules.play import PlayError

    alice, started = game
    settings.PLAY_MAX_TAPS = 6
    for n in range(6):
        if n % 2 == 0:
            play.tap(started, alice, "wound", {"member": "a/1", "amount": 1})
        else:
            play.tap(started, alice, "undo", {})
    with pytest.raises(PlayError, match="6 taps"):
        play.tap(started, alice, "wound", {"member": "a/1", "amount": 1})
    assert TapEvent.objects.filter(game=started).count() == 6
    # through the table: the reason, on top of the table as it is
    from tests.helpers.users import client_for

    response = client_for(alice).post(
        reverse("play_tap", args=[started.pk]),
        {"do": "wound/1", "member": "a/1"},
        HTTP_HX_REQUEST="true",
    )
    assert "6 taps" in response.content.decode()
    assert TapEvent.objects.filter(game=started).count() == 6


def test_the_default_limit_is_generous(settings):
    assert settings.PLAY_MAX_TAPS >= 1000
