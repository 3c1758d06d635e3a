"""The Celery app: background work on a real queue when ``REDIS_URL`` is set.

Start a worker beside the app servers (same code, same environment)::

    uv run celery -A gangfight_site worker -l info

(``gangfight_site/celery.py`` is that entry point: it adds the worker's warm-up.)

It runs one generic task, :func:`run_task`, which runs the dotted path given to
``common.background.submit()``: the tasks themselves are plain functions
(``builder.tasks``), so the thread backend and the tests run exactly the same code.
A task may take ``PDF_TIMEOUT_SECONDS`` plus a margin: a PDF render keeps its own
deadline (it goes through the same print function, in a forked child, with the same
restricted fetcher), and the time limit only stops a worker that is stuck anyway.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gangfight_site.settings")

import django
from django.apps import apps
from django.conf import settings

if not apps.ready:  # a worker starting; in the app, Django is set up already
    django.setup()

TASK_MARGIN_SECONDS = 30

app = Celery("gangfight")
app.conf.update(
    broker_url=settings.REDIS_URL or "redis://127.0.0.1:6379/0",
    broker_connection_retry_on_startup=True,
    # a submission is lost, not queued twice, when Redis restarts: the work is optional
    task_acks_late=False,
    task_ignore_result=True,
    task_serializer="json",
    accept_content=["json"],
    task_time_limit=settings.PDF_TIMEOUT_SECONDS + TASK_MARGIN_SECONDS,
    task_soft_time_limit=settings.PDF_TIMEOUT_SECONDS + TASK_MARGIN_SECONDS / 2,
    worker_prefetch_multiplier=1,
    # a request never waits on a broker that does not answer
    broker_transport_options={"socket_connect_timeout": 2, "socket_timeout": 5},
    task_publish_retry=False,
    broker_connection_timeout=2,
    timezone=settings.TIME_ZONE,
)


@app.task(name="gangfight.run_task")
def run_task(task: str, kwargs: dict, key: str | None = None, token: str = "") -> bool:
    """Run one submission (unless a later one with the same key replaced it)."""
    from common.background import run

    return run(task, kwargs, key, token)
