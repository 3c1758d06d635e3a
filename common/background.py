"""Work done after a request, never inside it: one small interface, three backends.

``submit("builder.tasks.prerender_gang", key="prerender:12", delay=2, gang_id=12, version=7)``
runs the plain function at that dotted path with those keyword arguments (JSON values
only) once the current transaction commits (nothing is submitted when it rolls back).
With a ``key`` the work is debounced: when its turn comes, a submission that a later one
with the same key has replaced does nothing, so a burst of changes costs one run.
``max_wait`` bounds that wait: the work runs at most ``max_wait`` seconds after the first
submission of its key not yet run, however often later ones come (each later one's
``delay`` is cut to what is left of that time). Without it, changes that keep coming
closer together than ``delay`` would put the work off for as long as they come.

``settings.BACKGROUND_TASKS`` picks the backend:

- ``"celery"`` (the default when ``REDIS_URL`` is set): one generic Celery task
  (:func:`common.celery_app.run_task`) runs the dotted path in a worker started with
  ``celery -A gangfight_site worker``; ``delay`` is its countdown, and the latest
  submission of each key (and when its first one not yet run came, for ``max_wait``) is
  kept in the default cache (Redis), which every worker sees.
  A broker that cannot be reached is logged, never raised: the request has its answer.
- ``"thread"`` (the default without Redis): a daemon thread in this process, with a timer
  per submission, so the README's first command still does everything, and the request
  that submitted never waits for the work.
- ``"record"`` (tests): nothing runs by itself; the ``background`` fixture of
  ``tests/conftest.py`` lists the submissions and runs them inline with ``run_all()``
  (``run_recorded(until=t)``: only those due by the time ``t``, for a simulated clock).

A task that fails is logged and forgotten: background work is an optimisation (a PDF made
before it is asked for), and whoever needs the result makes it when it is missing.
"""

from __future__ import annotations

import dataclasses
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
FIRST_PREFIX = "background:first:"


@dataclass(frozen=True)
class Submission:
    task: str
    kwargs: dict[str, Any]
    key: str | None = None
    #: seconds from ``at`` until it runs (with ``max_wait``: as cut when it was handed over)
    delay: float = 0.0
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    max_wait: float | None = None
    #: when it was handed to its backend (``time.time()``; 0 until then)
    at: float = 0.0


def backend() -> str:
    name = getattr(settings, "BACKGROUND_TASKS", None) or (
        "celery" if getattr(settings, "REDIS_URL", "") else "thread"
    )
    if name not in BACKENDS:
        raise ValueError(f"BACKGROUND_TASKS must be one of {', '.join(BACKENDS)}, not {name!r}")
    return name


def submit(
    task: str,
    *,
    key: str | None = None,
    delay: float = 0.0,
    max_wait: float | None = None,
    **kwargs: Any,
) -> None:
    """Run ``task(**kwargs)`` in the background after the current transaction commits
    (debounced by ``key``, at most ``max_wait`` seconds after its key's first submission
    not yet run)."""
    json.dumps(kwargs)  # JSON values only (a Celery message carries them): fail here, not there
    wait = None if max_wait is None or key is None else max(0.0, float(max_wait))
    submission = Submission(task, dict(kwargs), key, max(0.0, float(delay)), max_wait=wait)
    transaction.on_commit(_Dispatch(submission))


class _Dispatch:
    """The on-commit callback that hands a submission to the backend (a class, so the
    ``record`` backend can find its own callbacks among the pending ones)."""

    def __init__(self, submission: Submission):
        self.submission = submission

    def __call__(self) -> None:
        name = backend()
        if name == "record":
            submission = _bounded(self.submission)
            _recorded.append(submission)
            _remember(submission)
        elif name == "thread":
            submission = _bounded(self.submission)
            _remember(submission)
            _worker().put(submission)
        else:
            _submit_celery(self.submission)


# --------------------------------------------------------------------------- debouncing

_latest: dict[str, str] = {}  # key -> token of its latest submission (thread, record)
_first: dict[str, float] = {}  # key -> when its first submission not yet run came
_latest_lock = threading.Lock()


def _first_pending(key: str, now: float, max_wait: float) -> float:
    """When the first submission of ``key`` not yet run came (``now`` if this is it)."""
    if backend() == "celery":
        from django.core.cache import cache

        name = FIRST_PREFIX + key
        # kept past any wait it bounds; a run forgets it (``run``)
        cache.add(name, now, int(max_wait * 2) + 60)
        first = cache.get(name)
        return now if first is None else min(float(first), now)
    with _latest_lock:
        return _first.setdefault(key, now)


def _forget_first(key: str) -> None:
    """A submission of ``key`` runs: the next one starts a new wait."""
    if backend() == "celery":
        from django.core.cache import cache

        cache.delete(FIRST_PREFIX + key)
    else:
        with _latest_lock:
            _first.pop(key, None)


def _bounded(submission: Submission) -> Submission:
    """The submission as handed over now: stamped with the time, and with ``max_wait``,
    its delay cut so it runs by its key's first waiting submission's time + max_wait."""
    now = time.time()
    delay = submission.delay
    if submission.key is not None and submission.max_wait is not None:
        first = _first_pending(submission.key, now, submission.max_wait)
        delay = max(0.0, min(delay, first + submission.max_wait - now))
    return dataclasses.replace(submission, delay=delay, at=now)


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
    if key is not None:
        _forget_first(key)  # (before it runs: a change made meanwhile waits anew)
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


def run_recorded(until: float | None = None) -> int:
    """Run every recorded submission inline, in order (the debounced ones that a later
    submission replaced do nothing); returns how many ran. Work they submit is run too.
    ``until``: only those due by then (``at + delay``, on ``time.time()``'s clock, which
    a test may simulate); the others stay recorded."""
    ran = 0
    while True:
        pending = recorded()
        due = [s for s in pending if until is None or s.at + s.delay <= until]
        if not due:
            return ran
        done = {id(s) for s in due}
        _recorded[:] = [s for s in _recorded if id(s) not in done]
        for submission in due:
            ran += run(submission.task, submission.kwargs, submission.key, submission.token)


def reset_recorded() -> None:
    _recorded.clear()
    with _latest_lock:
        _latest.clear()
        _first.clear()


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
        submission = _bounded(submission)
        _remember(submission)
        from common.celery_app import run_task

        run_task.apply_async(
            args=(submission.task, submission.kwargs, submission.key, submission.token),
            countdown=submission.delay or None,
            retry=False,
        )
    except Exception:
        # The broker (or the cache) is down: the work is not done ahead, and whoever needs
        # its result makes it when asked (a Print click renders in the request).
        log.exception("Could not queue background task %s", submission.task)
