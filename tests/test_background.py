"""Background work (common/background.py): after commit, debounced, off the request."""

from __future__ import annotations

import logging
import threading

import pytest
from django.db import transaction

from common import background as bg

RAN: list[dict] = []
STARTED = threading.Event()
RELEASE = threading.Event()


def note(**kwargs) -> None:
    """A task: remembers its arguments and the thread it ran on."""
    RAN.append({**kwargs, "thread": threading.current_thread().name})


def slow(**kwargs) -> None:
    """A task that holds its thread until the test lets it go."""
    STARTED.set()
    RELEASE.wait(5)
    note(**kwargs)


def fails(**kwargs) -> None:
    raise RuntimeError("boom")


def resubmits(**kwargs) -> None:
    bg.submit("tests.test_background.note", step="second")


@pytest.fixture(autouse=True)
def _clean():
    RAN.clear()
    STARTED.clear()
    RELEASE.clear()
    yield
    RELEASE.set()


NOTE = "tests.test_background.note"


def test_a_submission_waits_for_its_transaction_to_commit(db, background):
    with transaction.atomic():
        bg.submit(NOTE, value=1)
    assert [(s.task, s.kwargs) for s in background.submitted] == [(NOTE, {"value": 1})]
    assert RAN == []  # recorded, not run
    assert background.run_all() == 1
    assert [r["value"] for r in RAN] == [1]


def test_nothing_is_submitted_when_the_transaction_rolls_back(db, background):
    with pytest.raises(LookupError), transaction.atomic():
        bg.submit(NOTE, value=1)
        raise LookupError("the change failed")
    assert background.submitted == []
    assert background.run_all() == 0
    assert RAN == []


def test_only_the_latest_submission_for_a_key_runs(db, background):
    for version in (1, 2, 3):
        with transaction.atomic():
            bg.submit(NOTE, key="gang:1", version=version)
    bg.submit(NOTE, key="gang:2", version=10)
    bg.submit(NOTE, version=20)  # no key: always runs
    assert len(background.submitted) == 5
    assert background.run_all() == 3
    assert sorted(r["version"] for r in RAN) == [3, 10, 20]


def test_work_submitted_by_a_task_runs_too(db, background):
    bg.submit("tests.test_background.resubmits")
    assert background.run_all() == 2
    assert [r["step"] for r in RAN] == ["second"]


def test_arguments_must_be_json(db):
    with pytest.raises(TypeError):
        bg.submit(NOTE, when=object())


def test_an_unknown_backend_is_refused(db, settings):
    settings.BACKGROUND_TASKS = "carrier-pigeon"
    with pytest.raises(ValueError, match="BACKGROUND_TASKS"):
        bg.backend()


def test_the_default_backend_is_celery_with_redis_and_a_thread_without(settings):
    settings.BACKGROUND_TASKS = ""
    settings.REDIS_URL = ""
    assert bg.backend() == "thread"
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert bg.backend() == "celery"


# ----------------------------------------------------------------- the thread backend


def test_the_thread_backend_runs_off_the_request_thread(
    db, settings, django_capture_on_commit_callbacks
):
    settings.BACKGROUND_TASKS = "thread"
    with django_capture_on_commit_callbacks(execute=True):
        bg.submit("tests.test_background.slow", value=1)
    # submit() has returned while the task still waits on its own thread
    assert STARTED.wait(5)
    assert RAN == []
    RELEASE.set()
    assert bg.wait_idle(5)
    assert RAN == [{"value": 1, "thread": "gangfight-background"}]
    assert threading.current_thread().name != "gangfight-background"


def test_the_thread_backend_debounces_by_key(db, settings, django_capture_on_commit_callbacks):
    settings.BACKGROUND_TASKS = "thread"
    with django_capture_on_commit_callbacks(execute=True):
        for version in (1, 2, 3):
            bg.submit(NOTE, key="prerender:thread", delay=0.2, version=version)
    assert RAN == []  # not before its delay
    assert bg.wait_idle(5)
    assert [r["version"] for r in RAN] == [3]


def test_a_failing_task_is_logged_and_the_worker_goes_on(
    db, settings, django_capture_on_commit_callbacks, caplog
):
    settings.BACKGROUND_TASKS = "thread"
    with caplog.at_level(logging.ERROR, logger="common.background"):
        with django_capture_on_commit_callbacks(execute=True):
            bg.submit("tests.test_background.fails")
            bg.submit(NOTE, value=2)
        assert bg.wait_idle(5)
    assert "Background task tests.test_background.fails failed" in caplog.text
    assert [r["value"] for r in RAN] == [2]


# ----------------------------------------------------------------- the celery backend


def test_a_broker_that_cannot_be_reached_never_fails_the_request(
    db, settings, django_capture_on_commit_callbacks, caplog, monkeypatch
):
    from kombu.exceptions import OperationalError

    from gangfight_site.celery import run_task

    def down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    settings.BACKGROUND_TASKS = "celery"
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    monkeypatch.setattr(run_task, "apply_async", down)
    with (
        caplog.at_level(logging.ERROR, logger="common.background"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        bg.submit(NOTE, key="prerender:1", delay=2, value=1)
    assert "Could not queue background task tests.test_background.note" in caplog.text


def test_the_celery_backend_queues_the_generic_task_with_its_countdown(
    db, settings, django_capture_on_commit_callbacks, monkeypatch
):
    from gangfight_site.celery import app, run_task

    sent = []
    monkeypatch.setattr(run_task, "apply_async", lambda **kw: sent.append(kw))
    settings.BACKGROUND_TASKS = "celery"
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    with django_capture_on_commit_callbacks(execute=True):
        bg.submit(NOTE, key="prerender:1", delay=2, value=1)
        bg.submit(NOTE, key="prerender:1", delay=2, value=2)
    assert [s["countdown"] for s in sent] == [2.0, 2.0]
    # what the worker does with each: the first was replaced by the second
    assert [run_task(*s["args"]) for s in sent] == [False, True]
    assert [r["value"] for r in RAN] == [2]
    assert app.conf.task_time_limit == settings.PDF_TIMEOUT_SECONDS + 30


def test_with_redis_the_pdf_cache_and_the_tasks_go_to_redis():
    import subprocess
    import sys

    code = (
        "from django.conf import settings;"
        "print(settings.BACKGROUND_TASKS, settings.CACHES['pdf']['BACKEND'],"
        " settings.CACHES['pdf']['KEY_PREFIX'])"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "REDIS_URL": "redis://127.0.0.1:6379/3",
        "DJANGO_SETTINGS_MODULE": "gangfight_site.settings",
    }
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup();" + code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == ["celery", "django.core.cache.backends.redis.RedisCache", "pdf"]


def test_the_default_run_holds_the_celery_tests_and_ci_installs_redis():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    script = (root / ".ci" / "run").read_text()
    assert "redis-server" in script  # installed when missing, like chromium
    options = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["pytest"]
    assert "celery" not in options["ini_options"]["addopts"]  # the README's command runs all
    assert any(m.startswith("celery:") for m in options["ini_options"]["markers"])
