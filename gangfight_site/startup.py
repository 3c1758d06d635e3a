"""What a server process does once, before its first request."""

from __future__ import annotations

import gc


def settle() -> None:
    """Load what every request uses (every view, form and game system through the URLs;
    the builder's templates), then freeze it out of the garbage collector's sight.

    All of it lives as long as the process, yet Python's full collections walk it again
    and again: with a large gang they were the builder's slowest answers (one change in
    twenty took 70-160 ms instead of 20; ``benchmarks/bench_editors.py``).
    """
    from django.template.loader import get_template
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (imports every view and what it uses)
    from builder.editors import all_editors

    for editor in all_editors():
        for name in (editor.gang_template, editor.panel_template, editor.readonly_template):
            get_template(name)
    get_template("builder/gang_build.html")
    from django.conf import settings

    if getattr(settings, "PDF_WARM_UP", True):
        from builder.printing import warm_up

        warm_up()  # the first Print is then as fast as the next (builder/printing/)
    gc.collect()
    gc.freeze()
    # A request makes and drops thousands of objects (rows, figures, template nodes), and
    # a full collection walks every object the process holds: make full ones rarer (a
    # change's p95 with a 50-member gang: 42 ms at Python's default, 21 ms here), leaving
    # the young generations as they are (raising those slowed every answer instead).
    gc.set_threshold(700, 10, 100)
