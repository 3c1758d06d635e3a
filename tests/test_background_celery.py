"""The Celery path, against a real Redis and a real Celery worker (``-m celery``).

They run in the README's test command like every other test: against ``REDIS_URL`` when it
is set, else against a Redis server of their own (Debian's ``redis-server``, started on a
free port for the session and stopped after it; ``.ci/run`` installs the package when it is
missing, as it does chromium). With neither, they fail, loudly: never skipped.

The worker is Celery's own (``celery.contrib.testing.worker.start_worker``), consuming
from Redis in a thread of the test process, so that it sees the test database.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from django.core.cache import caches
from django.urls import reverse

from builder import printing
from builder.models import Gang
from builder.printing import documents
from builder.roster import gang_roster, members_with_items
from builder.tasks import default_options
from common import background
from tests.helpers import celery_redis

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def wait_for(check, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not done within {seconds} s")


def cached_kinds(gang: Gang) -> list[str]:
    gang.refresh_from_db()
    roster = gang_roster(gang, list(members_with_items(gang)))
    options = default_options(f"http://testserver/s/{gang.share_token}/")
    pdfs = caches["pdf"]
    return [
        kind
        for kind in ("cards", "sheet", "reference")
        if pdfs.get(printing.cache_key(roster, kind, **options)) is not None
    ]


def test_a_change_is_printed_ahead_by_the_celery_worker(worker, owner_client, gang, monkeypatch):
    ran = []
    real = background.run

    def counting(task, kwargs, key=None, token=""):
        done = real(task, kwargs, key, token)
        ran.append((kwargs.get("version"), done))
        return done

    monkeypatch.setattr(background, "run", counting)
    url = reverse("gang_update", args=[gang.pk])
    for name in ("One", "Two", "The Younger Gang"):
        assert owner_client.post(url, {"gang-name": name, "gang-limit": ""}).status_code == 302
    # (this thread keeps off Redis meanwhile: a render forks, and a fork must not find
    # a connection pool's lock held by another thread)
    wait_for(lambda: len(ran) == 3)
    assert cached_kinds(gang) == ["cards", "sheet", "reference"]
    gang.refresh_from_db()
    # debounced through Redis: the first two found a later submission and did nothing
    assert ran == [(gang.version - 2, False), (gang.version - 1, False), (gang.version, True)]

    def no_render(*args, **kwargs):
        raise AssertionError("the click should find the PDF made ahead")

    monkeypatch.setattr(documents, "print_pdf", no_render)
    started = time.perf_counter()
    response = owner_client.get(reverse("gang_print", args=[gang.pk]) + "?kind=cards&paper=a4")
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")
    assert time.perf_counter() - started < 1.0


def test_the_worker_down_the_click_still_gets_its_pdf(redis_settings, owner_client, gang):
    """Submissions queue in Redis with no worker to take them: Print makes the PDF."""
    from gangfight_site.celery import app

    app.conf.broker_url = celery_redis.REDIS_URL
    app.control.purge()
    url = reverse("gang_update", args=[gang.pk])
    assert owner_client.post(url, {"gang-name": "Nobody home", "gang-limit": ""}).status_code == 302
    assert cached_kinds(gang) == []
    response = owner_client.get(reverse("gang_print", args=[gang.pk]) + "?kind=sheet&paper=a4")
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert cached_kinds(gang) == ["sheet"]
    app.control.purge()


def test_the_pdf_cache_is_shared_through_redis(redis_settings):
    """Another app server (another connection) finds what this one stored."""
    import redis

    caches["pdf"].set("shared-check", b"%PDF-1.7 x")
    client = redis.Redis.from_url(celery_redis.REDIS_URL)
    keys = client.keys(f"{caches['pdf'].key_prefix}:*shared-check")
    assert len(keys) == 1
    started = time.perf_counter()
    assert caches["pdf"].get("shared-check") == b"%PDF-1.7 x"
    assert time.perf_counter() - started < 0.05
    caches["pdf"].delete("shared-check")


E2E = """
import time
from django.contrib.auth.models import User
from django.core.cache import caches
from builder import printing, services
from builder.roster import gang_roster, members_with_items
from builder.tasks import default_options
from tests.factories import build_gang

gang = build_gang(User.objects.create_user("e2e", password="x" * 12), size=12)
for n in range(3):
    services.update_gang(gang, name=f"E2E Gang {n}", limit=None)
gang.refresh_from_db()
roster = gang_roster(gang, list(members_with_items(gang)))
options = default_options(f"http://example.org/s/{gang.share_token}/")
keys = [printing.cache_key(roster, kind, **options) for kind in ("cards", "sheet", "reference")]
start = time.time()
while time.time() - start < 90 and not all(caches["pdf"].get(k) for k in keys):
    time.sleep(0.2)
print("MADE", [caches["pdf"].get(k) is not None for k in keys])
"""


#: the README's command (``uv run celery -A gangfight_site worker -l info``), in this venv
CELERY_WORKER = ["-m", "celery", "-A", "gangfight_site", "worker", "-l", "info"]


def test_a_real_worker_process_makes_the_pdfs_ahead(redis_settings, tmp_path):
    """The documented command, `celery -A gangfight_site worker`, as its own process
    (prefork pool: daemonic processes, which may not use multiprocessing's children),
    on a database of its own; the app's side submits from three changes in a row."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'e2e.sqlite3'}",
        "REDIS_URL": celery_redis.REDIS_URL,
        "SITE_URL": "http://example.org",
        "DJANGO_SETTINGS_MODULE": "gangfight_site.settings",
    }
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "-v0"], ["load_content", "-v0"]):
        subprocess.run([*manage, *command], cwd=root, env=env, check=True, timeout=300)
    worker = subprocess.Popen(
        [sys.executable, *CELERY_WORKER, "--concurrency", "1"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        out = subprocess.run(
            [*manage, "shell", "-c", E2E],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        worker.terminate()
        log = worker.communicate(timeout=60)[0]
    assert "MADE [True, True, True]" in out.stdout, out.stdout + out.stderr + log
    assert log.count("succeeded") >= 3 and "Traceback" not in log, log
