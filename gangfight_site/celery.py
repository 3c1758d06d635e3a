"""The Celery worker's entry point (``celery -A gangfight_site worker``): the app and its
one task are ``common.celery_app``'s; this wiring adds the worker's warm-up, which loads
the printing (an app above ``common``)."""

from __future__ import annotations

from celery.signals import worker_init

from common.celery_app import TASK_MARGIN_SECONDS, app, run_task

__all__ = ["TASK_MARGIN_SECONDS", "app", "run_task"]


@worker_init.connect
def warm_up(**_kwargs) -> None:
    """Load WeasyPrint and the fonts once, before the pool's processes are forked."""
    from builder.printing import warm_up as warm_up_printing

    warm_up_printing()
