"""Site-wide pages: the rules page, the roster file's format, the health check and the
answer given while the database is down. (The home page is notifications/views.py's: what
waits on you; sign-up and log-in are accounts/views.py's.) This module imports no app:
only the rules engine and the site's own services (tests/test_layers.py)."""

from __future__ import annotations

import json
import logging
import secrets
import sys
from functools import cache

from django.conf import settings
from django.core.cache import cache as default_cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from gangfight_site.middleware import is_database_outage, outage_response
from rules import all_systems
from rules.base import cite
from rules.roster import roster_schema

logger = logging.getLogger(__name__)


def rules_page(request: HttpRequest) -> HttpResponse:
    systems = [
        {"system": s, "rules": [(r, cite(s, r.source)) for r in s.rules]} for s in all_systems()
    ]
    return render(request, "rules.html", {"systems": systems})


@cache
def _roster_format_text() -> str:
    return (settings.BASE_DIR / "docs" / "roster-format.md").read_text("utf-8")


def roster_format(request: HttpRequest) -> HttpResponse:
    """The roster file's documentation, as written in docs/roster-format.md."""
    return render(request, "roster_format.html", {"text": _roster_format_text()})


def roster_schema_file(request: HttpRequest) -> HttpResponse:
    return HttpResponse(
        json.dumps(roster_schema(), indent=2, ensure_ascii=False),
        content_type="application/schema+json; charset=utf-8",
    )


@never_cache
@require_http_methods(["GET", "HEAD"])
def healthz(request: HttpRequest) -> HttpResponse:
    """Whether the database and the cache answer: 200 when both do, else 503. No login,
    never cached; for a load balancer or a monitor."""
    checks = {"database": "ok", "cache": "ok"}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        logger.warning("Health check: the database did not answer", exc_info=True)
        checks["database"] = "error"
    try:
        key, token = f"healthz:{secrets.token_hex(8)}", secrets.token_hex(8)
        default_cache.set(key, token, timeout=30)
        if default_cache.get(key) != token:
            raise RuntimeError("the cache did not give back what was put in it")
        default_cache.delete(key)
    except Exception:
        logger.warning("Health check: the cache did not answer", exc_info=True)
        checks["cache"] = "error"
    healthy = all(v == "ok" for v in checks.values())
    return JsonResponse(checks, status=200 if healthy else 503)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: an error that is the database being unreachable (raised outside a view,
    say while drawing the 404 page) is a polite 503; anything else the usual 500 page."""
    if is_database_outage(sys.exc_info()[1]):
        return outage_response()
    return defaults.server_error(request)
