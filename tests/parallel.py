"""Run the same request or service call in parallel threads, as simultaneous clicks do.

Each thread uses its own database connection (closed at the end) and starts at the same
moment (a barrier). Use with ``@pytest.mark.django_db(transaction=True)``: the threads must
see each other's commits. What each call returned or raised comes back in a list."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def in_parallel(call: Callable[[int], Any], n: int = 10) -> list[Any]:
    barrier = threading.Barrier(n)
    out: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            out[i] = call(i)
        except BaseException as error:  # the test looks at what happened
            out[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return out
