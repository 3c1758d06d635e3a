"""Site-wide middleware: the security headers every answer carries, and a polite 503 while
the database is down."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers

# who the client is behind the named proxies: common/proxies.py
from common.proxies import ProxyHeadersMiddleware  # noqa: F401

logger = logging.getLogger(__name__)

#: seconds a client is asked to wait before trying again while the database is down
OUTAGE_RETRY_AFTER = 30


class SecurityHeadersMiddleware:
    """Content-Security-Policy (or its report-only form) and Permissions-Policy, from
    settings; a response that set its own keeps it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy:
            header = (
                "Content-Security-Policy-Report-Only"
                if settings.CSP_REPORT_ONLY
                else "Content-Security-Policy"
            )
            response.headers.setdefault(header, policy)
        if settings.PERMISSIONS_POLICY:
            response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


def is_database_outage(error: BaseException | None) -> bool:
    """Whether ``error`` (or what caused it) is the database not answering."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, OperationalError | InterfaceError):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def outage_response() -> HttpResponse:
    """A short page that says the site is back soon: drawn without a request, so nothing
    on it (no user, no messages, no context processor) touches the database."""
    response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = str(OUTAGE_RETRY_AFTER)
    add_never_cache_headers(response)
    return response


class DatabaseOutageMiddleware:
    """A view that fails because the database is unreachable answers 503 with a short
    page, not a bare 500. Django closes a connection that failed at the end of the request,
    so the next request connects afresh and the site recovers by itself. (Errors raised
    outside a view reach ``gangfight_site.views.server_error``, which does the same.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not is_database_outage(exception):
            return None
        logger.error(
            "The database is unreachable: answered %s with 503",
            request.path,
            exc_info=exception,
        )
        return outage_response()
