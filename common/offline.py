"""The installable app and its pages offline (issue 29, docs/offline.md).

- ``manifest``: the web app manifest (``/manifest.webmanifest``), in the reader's language;
- ``service_worker``: ``static/js/sw.js`` served at ``/sw.js``, so its scope is the whole
  site (a static file's would be ``/static/js/``);
- ``OfflineMiddleware``: says which answers the worker may keep for a logged-in user
  (``Gangfight-Offline: <user key>``), which gang they belong to and at which version (so a
  stale PDF is fetched again), who the reader is on every other page
  (``Gangfight-Offline-User``), and on logging out clears what the browser kept
  (``Clear-Site-Data``).

The worker keeps nothing the server did not mark, so what is cached is decided here only.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

#: an answer the worker may keep, in the cache of this user key
HEADER = "Gangfight-Offline"
#: on every other page: who reads it (a user key, or ANONYMOUS): the worker forgets the
#: pages of anyone else
USER_HEADER = "Gangfight-Offline-User"
ANONYMOUS = "anonymous"
#: the gang an answer shows (an opaque name) and its version: a kept PDF of that gang at
#: another version is fetched again
GROUP_HEADER = "Gangfight-Offline-Group"
VERSION_HEADER = "Gangfight-Offline-Version"

#: pages kept for offline reading (url names), for GET answers 200 of a logged-in user
PAGES = frozenset({"home", "gang_detail", "gang_shared", "play_list", "play_game"})
#: files printed before: the PDFs and the shared roster file
FILES = frozenset(
    {"gang_print", "gang_sheet_pdf", "gang_shared_print", "gang_shared_pdf", "gang_shared_export"}
)
#: of those, the ones naming a gang (by id or by share token)
GANG_PAGES = frozenset({"gang_detail", "gang_print", "gang_sheet_pdf"})
SHARED_PAGES = frozenset(
    {"gang_shared", "gang_shared_pdf", "gang_shared_print", "gang_shared_export"}
)

# The site's colours (static/css/app.css: --ink, the header; --paper, the page).
THEME_COLOR = "#2b2118"
BACKGROUND_COLOR = "#f6f0e4"
ICONS = [
    ("img/icons/icon-192.png", "192x192", "any"),
    ("img/icons/icon-512.png", "512x512", "any"),
    ("img/icons/icon-maskable-512.png", "512x512", "maskable"),
]
SW_FILE = "js/sw.js"


def user_key(user) -> str:
    """The name of a user's cache in the browser: an HMAC of the user's pk with the
    SECRET_KEY (never the pk itself, and another user's can't be guessed)."""
    return salted_hmac("common.offline.user", str(user.pk), algorithm="sha256").hexdigest()[:32]


def group_of(gang_id: int) -> str:
    """An opaque name for a gang's answers (a share page must not tell the gang's id)."""
    digest = salted_hmac("common.offline.gang", str(gang_id), algorithm="sha256").hexdigest()
    return "gang-" + digest[:16]


def _gang_of(request: HttpRequest, url_name: str, kwargs: dict):
    # The builder is above this app (tests/test_layers.py): its model through the registry.
    gangs = apps.get_model("builder.gang").objects.only("pk", "version", "updated")
    if url_name in GANG_PAGES and "gang_id" in kwargs:
        return gangs.filter(pk=kwargs["gang_id"], owner=request.user).first()
    if url_name in SHARED_PAGES and "token" in kwargs:
        return gangs.filter(share_token=kwargs["token"]).first()
    return None


def gang_version(gang) -> str:
    """What a gang's PDFs are made from, changed by every change: the version the builder
    bumps (and the printing cache keys by) and the time of the last save."""
    return f"{gang.version}-{int(gang.updated.timestamp() * 1000)}"


def mark_gang(response: HttpResponse, gang) -> HttpResponse:
    """Say which gang an answer shows and at which version, for a view that has the gang
    at hand (the builder page: the middleware then reads nothing more)."""
    response[GROUP_HEADER] = group_of(gang.pk)
    response[VERSION_HEADER] = gang_version(gang)
    return response


class OfflineMiddleware:
    """Marks the answers the service worker may keep (see the module's docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        url_name = match.url_name if match else None
        if url_name == "logout" and request.method == "POST":
            # The browser forgets every page, PDF and queue it kept for whoever this was.
            response["Clear-Site-Data"] = '"cache", "storage"'
            return response
        if request.method != "GET" or response.status_code != 200:
            return response
        user = getattr(request, "user", None)
        logged_in = bool(user and user.is_authenticated)
        htmx = request.headers.get("HX-Request") == "true"
        if logged_in and not htmx and (url_name in PAGES or url_name in FILES):
            response[HEADER] = user_key(user)
            gang = None if VERSION_HEADER in response else _gang_of(request, url_name, match.kwargs)
            if gang is not None:
                response[GROUP_HEADER] = group_of(gang.pk)
                response[VERSION_HEADER] = gang_version(gang)
        elif not htmx and response.get("Content-Type", "").startswith("text/html"):
            response[USER_HEADER] = user_key(user) if logged_in else ANONYMOUS
        return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: Gangfight installs as an app that opens on the player's
    to-do list (the home page, signed in), in the reader's language."""
    data = {
        "id": reverse("home"),
        "name": _("Gangfight"),
        "short_name": _("Gangfight"),
        "description": _(
            "Build your gang, print it, and play at the table: your gangs, their cards and "
            "your games open without a signal."
        ),
        "lang": get_language() or settings.LANGUAGE_CODE,
        "dir": "ltr",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    body = json.dumps(data, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/manifest+json; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@cache
def _worker_source() -> bytes:
    found = finders.find(SW_FILE)
    if found:
        return Path(found).read_bytes()
    from django.contrib.staticfiles.storage import staticfiles_storage

    with staticfiles_storage.open(SW_FILE) as handle:  # a deployment without the sources
        return handle.read()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that it controls every page."""
    source = _worker_source() if not settings.DEBUG else _read_fresh()
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


def _read_fresh() -> bytes:
    _worker_source.cache_clear()  # DEBUG: an edit of sw.js shows at the next load
    return _worker_source()
