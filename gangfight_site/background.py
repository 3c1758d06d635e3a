"""Work done after a request, never inside it: one small interface, three backends.

``submit("builder.tasks.prerender_gang", key="prerender:12", delay=2, gang_id=12, version=7)``
runs the plain function at that dotted path with those keyword arguments (JSON values
only) once the current transaction commits (nothing is submitted when it rolls back).
With a ``key`` the work is debounced: when its turn comes, a submission that a later one
with the same key has replaced does nothing, so a burst of changes costs one run.

``settings.BACKGROUND_TASKS`` picks the backend:

- ``"celery"`` (the default when ``REDIS_URL`` is set): one generic Celery task
  (:func:`gangfight_site.celery.run_task`) runs the dotted path in a worker started with
  ``celery -A gangfight_site worker``; ``delay`` is its countdown, and the latest
  submission of each key is kept in the default cache (Redis), which every worker sees.
  A broker that cannot be reached is logged, never raised: the request has its answer.
- ``"thread"`` (the default without Redis): a daemon thread in this process, with a timer
  per submission, so the README's first command still does everything, and the request
  that submitted never waits for the work.
- ``"record"`` (tests): nothing runs by itself; the ``background`` fixture of
  ``tests/conftest.py`` lists the submissions and runs them inline with ``run_all()``.

A task that fails is logged and forgotten: background work is an optimisation (a PDF made
before it is asked for), and whoever needs the result makes it when it is missing.
"""

from __future__ import annotations

import heapq
import itertools
import json
import logging
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections, transaction
from django.utils.module_loading import import_string

__all__ = ["Submission", "backend", "run", "submit"]

log = logging.getLogger(__name__)

BACKENDS = ("celery", "thread", "record")
LATEST_PREFIX = "background:latest:"


@dataclass(frozen=True)
class Submission:
    task: str
    kwargs: dict[str, Any]
    key: str | None = None
    delay: float = 0.0
    token: str = field(default_factory=lambda: uuid.uuid4().hex)


def backend() -> str:
    name = getattr(settings, "BACKGROUND_TASKS", None) or (
        "celery" if getattr(settings, "REDIS_URL", "") else "thread"
    )
    if name not in BACKENDS:
        raise ValueError(f"BACKGROUND_TASKS must be one of {', '.join(BACKENDS)}, not {name!r}")
    return name


def submit(task: str, *, key: str | None = None, delay: float = 0.0, **kwargs: Any) -> None:
    """Run ``task(**kwargs)`` in the background after the current transaction commits."""
    json.dumps(kwargs)  # JSON values only (a Celery message carries them): fail here, not there
    submission = Submission(task, dict(kwargs), key, max(0.0, float(delay)))
    transaction.on_commit(_Dispatch(submission))


class _Dispatch:
    """The on-commit callback that hands a submission to the backend (a class, so the
    ``record`` backend can find its own callbacks among the pending ones)."""

    def __init__(self, submission: Submission):
        self.submission = submission

    def __call__(self) -> None:
        name = backend()
        if name == "record":
            _recorded.append(self.submission)
            _remember(self.submission)
        elif name == "thread":
            _remember(self.submission)
            _worker().put(self.submission)
        else:
            _submit_celery(self.submission)


# --------------------------------------------------------------------------- debouncing

_latest: dict[str, str] = {}  # key -> token of its latest submission (thread, record)
_latest_lock = threading.Lock()


def _remember(submission: Submission) -> None:
    if submission.key is None:
        return
    if backend() == "celery":
        from django.core.cache import cache

        cache.set(LATEST_PREFIX + submission.key, submission.token, 3600)
    else:
        with _latest_lock:
            _latest[submission.key] = submission.token


def is_latest(key: str | None, token: str) -> bool:
    """Whether the submission ``token`` is still the latest for ``key``."""
    if key is None:
        return True
    if backend() == "celery":
        from django.core.cache import cache

        latest = cache.get(LATEST_PREFIX + key)
        return latest is None or latest == token
    with _latest_lock:
        return _latest.get(key, token) == token


def run(task: str, kwargs: dict[str, Any], key: str | None = None, token: str = "") -> bool:
    """Run one submission now, unless a later one with its key replaced it.

    Returns whether it ran. Used by every backend (the Celery task calls it too)."""
    if not is_latest(key, token):
        return False
    import_string(task)(**kwargs)
    return True


# --------------------------------------------------------------------------- record

_recorded: list[Submission] = []


def recorded() -> list[Submission]:
    """The submissions made so far (``record`` backend), including those whose
    transaction committed as far as a test can tell: work submitted inside a test's own
    transaction is taken from the pending on-commit callbacks (those of a rolled-back
    block are already gone)."""
    for alias in connections:
        conn = connections[alias]
        pending = getattr(conn, "run_on_commit", None)
        if not pending:
            continue
        ours = [entry for entry in pending if isinstance(entry[1], _Dispatch)]
        conn.run_on_commit = [entry for entry in pending if not isinstance(entry[1], _Dispatch)]
        for entry in ours:
            entry[1]()
    return list(_recorded)


def run_recorded() -> int:
    """Run every recorded submission inline, in order (the debounced ones that a later
    submission replaced do nothing); returns how many ran. Work they submit is run too."""
    ran = 0
    while True:
        pending = recorded()
        if not pending:
            return ran
        _recorded.clear()
        for submission in pending:
            ran += run(submission.task, submission.kwargs, submission.key, submission.token)


def reset_recorded() -> None:
    _recorded.clear()
    with _latest_lock:
        _latest.clear()


# --------------------------------------------------------------------------- thread


class _Worker:
    """One daemon thread per process running submissions when they are due."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.queue: list[tuple[float, int, Submission]] = []
        self.counter = itertools.count()
        self.ready = threading.Condition()
        self.busy = 0  # submissions queued or running (for tests and benchmarks)
        self.thread = threading.Thread(target=self.loop, name="gangfight-background", daemon=True)
        self.thread.start()

    def put(self, submission: Submission) -> None:
        with self.ready:
            due = time.monotonic() + submission.delay
            heapq.heappush(self.queue, (due, next(self.counter), submission))
            self.busy += 1
            self.ready.notify()

    def loop(self) -> None:
        while True:
            with self.ready:
                while not self.queue or self.queue[0][0] > time.monotonic():
                    wait = self.queue[0][0] - time.monotonic() if self.queue else None
                    self.ready.wait(wait)
                _, _, submission = heapq.heappop(self.queue)
            try:
                close_old_connections()
                run(submission.task, submission.kwargs, submission.key, submission.token)
            except Exception:
                log.exception("Background task %s failed", submission.task)
            finally:
                connections.close_all()
                with self.ready:
                    self.busy -= 1
                    self.ready.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is queued or running; whether that happened in time."""
        deadline = time.monotonic() + timeout
        with self.ready:
            while self.busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.ready.wait(left)
        return True


_thread_worker: _Worker | None = None
_thread_lock = threading.Lock()


def _worker() -> _Worker:
    """This process's worker thread (a forked process, like a gunicorn worker, starts its
    own: threads do not survive a fork)."""
    global _thread_worker
    with _thread_lock:
        if _thread_worker is None or _thread_worker.pid != os.getpid():
            _thread_worker = _Worker()
        return _thread_worker


def wait_idle(timeout: float = 30.0) -> bool:
    """Wait for this process's worker thread to finish what it has (tests, benchmarks)."""
    return _thread_worker is None or _worker().wait_idle(timeout)


# --------------------------------------------------------------------------- celery


def _submit_celery(submission: Submission) -> None:
    try:
        _remember(submission)
        from gangfight_site.celery import run_task

        run_task.apply_async(
            args=(submission.task, submission.kwargs, submission.key, submission.token),
            countdown=submission.delay or None,
            retry=False,
        )
    except Exception:
        # The broker (or the cache) is down: the work is not done ahead, and whoever needs
        # its result makes it when asked (a Print click renders in the request).
        log.exception("Could not queue background task %s", submission.task)
