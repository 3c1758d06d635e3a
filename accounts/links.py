"""Where a log-in or a sign-up goes afterwards: ``next``, the page that sent the visitor
there (a club or campaign invite, a league link), kept on every way between the log-in
and sign-up pages and through the confirmation mailed to the address typed at sign-up.

``next`` is only ever a path of this site (``url_has_allowed_host_and_scheme``, and a
single leading slash): anything else is dropped, so no link of ours sends anyone away."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

FIELD = "next"


def is_safe(url: str, request: HttpRequest) -> bool:
    """Whether ``url`` is a path of this site (``/clubs/join/…``), never another site's
    address, a scheme (``javascript:``) or a protocol-relative ``//host``."""
    if not url or not url.startswith("/") or url.startswith(("//", "/\\")):
        return False
    return url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


def safe_next(request: HttpRequest | None) -> str:
    """The request's ``next`` (posted, else in the query string) when it is safe, else ""."""
    if request is None:
        return ""
    url = request.POST.get(FIELD) or request.GET.get(FIELD) or ""
    return url if is_safe(url, request) else ""


def with_next(url: str, next_url: str) -> str:
    """``url`` with ``?next=`` (when there is one to keep)."""
    return f"{url}?{urlencode({FIELD: next_url})}" if next_url else url
