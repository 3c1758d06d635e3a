"""Absolute links for mail and PDFs: made from ``SITE_URL``, never from a request's Host.

A request's Host is whatever the client sent (``ALLOWED_HOSTS`` ignores the port, so
``Host: gangfight.example.org:6666`` passes), and a link built from it in a mail or a
PDF sends its reader wherever the sender chose. ``SITE_URL`` is required when DEBUG is off
(settings.py). Without it (development, tests) a link written for a request uses that
request's own address, which is shown to that request alone and never stored; one written
without a request (a mail sent by a background job, a PDF made ahead) uses
``DEFAULT_SITE_URL``, the address of ``manage.py serve``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest

DEFAULT_SITE_URL = "http://127.0.0.1:8000"


def site_origin(request: HttpRequest | None = None) -> str:
    """``SITE_URL``; without it, the request's own address, else ``DEFAULT_SITE_URL``."""
    configured = (getattr(settings, "SITE_URL", "") or "").rstrip("/")
    if configured:
        return configured
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return DEFAULT_SITE_URL


def absolute(path: str, request: HttpRequest | None = None) -> str:
    """``path`` (``/accounts/...``) as a full link (see :func:`site_origin`)."""
    return site_origin(request) + path


def protocol_and_domain(request: HttpRequest | None = None) -> dict[str, str]:
    """``{"protocol": "https", "domain": "gangfight.example.org"}`` for templates that write
    ``{{ protocol }}://{{ domain }}{% url … %}`` (Django's password reset mail)."""
    parts = urlsplit(site_origin(request))
    return {"protocol": parts.scheme or "http", "domain": parts.netloc + parts.path}
