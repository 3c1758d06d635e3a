"""One Redis and a Celery worker for the tests of the Celery path, shared by every module
that uses them (tests/test_background_celery.py, tests/test_notification_timing.py): a
fixture imported into two modules would be two session fixtures, two Redis servers, and
the second module's tasks sent to the first one's broker. tests/conftest.py loads this as
a plugin.

``redis_url``: ``REDIS_URL`` if set, else a Redis server of the session's own (Debian's
``redis-server``) on a free port; ``redis_settings``: Celery on, the caches in that Redis
under a key prefix of the test's own; ``worker``: Celery's own test worker, consuming from
that Redis in a thread of the test process (so that it sees the test database).
"""

from __future__ import annotations

import os
import time
import uuid

import pytest

REDIS_URL = ""  # set by the ``redis_url`` fixture: the Redis the tests use


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """``REDIS_URL`` if set, else a Redis server of the session's own on a free port."""
    import shutil
    import subprocess

    import redis

    global REDIS_URL
    url = os.environ.get("REDIS_URL", "").strip()
    server = None
    if not url:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail(
                "The Celery tests need a Redis: install Debian's redis-server "
                "(apt-get install redis-server) or set REDIS_URL."
            )
        port = _free_port()
        server = subprocess.Popen(
            [
                binary,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(tmp_path_factory.mktemp("redis")),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(url, socket_connect_timeout=1).ping()
                break
            except redis.RedisError as error:
                if time.monotonic() > deadline:
                    pytest.fail(f"No Redis answers at {url}: {error}")
                time.sleep(0.1)
        REDIS_URL = url
        yield url
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)


@pytest.fixture
def redis_settings(settings, redis_url):
    """Celery on, the default and PDF caches in Redis (a key prefix of this test's own)."""
    import redis

    prefix = f"test-{uuid.uuid4().hex[:8]}"
    settings.REDIS_URL = REDIS_URL
    settings.BACKGROUND_TASKS = "celery"
    settings.SITE_URL = "http://testserver"
    settings.PDF_PRERENDER_DELAY = 2
    redis_cache = "django.core.cache.backends.redis.RedisCache"
    settings.CACHES = {
        "default": {"BACKEND": redis_cache, "LOCATION": REDIS_URL, "KEY_PREFIX": prefix},
        "pdf": {"BACKEND": redis_cache, "LOCATION": REDIS_URL, "KEY_PREFIX": prefix + "-pdf"},
    }
    yield settings
    client = redis.Redis.from_url(REDIS_URL)
    for key in client.scan_iter(f"{prefix}*"):  # this test's keys, no one else's
        client.delete(key)


@pytest.fixture
def worker(redis_settings):
    from celery.contrib.testing.worker import start_worker

    from gangfight_site.celery import app

    app.conf.broker_url = REDIS_URL
    app.control.purge()  # nothing left over from an earlier run
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        yield app
