"""Site-wide pages: the home page, sign-up, log-in, the rules page, the health check and
the answer given while the database is down."""

from __future__ import annotations

import json
import logging
import secrets
import sys
from functools import cache

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.cache import cache as default_cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts import language
from accounts.forms import SignUpForm
from accounts.links import safe_next, with_next
from builder.forms import browser_systems
from gangfight_site import links
from gangfight_site.middleware import is_database_outage, outage_response
from gangfight_site.throttle import ThrottledAuthenticationForm, remember_device
from rules import all_systems
from rules.base import cite
from rules.roster import roster_schema

logger = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    """Signed in: what waits on the user (notifications/waiting.py), grouped; the header's
    count is refreshed from the same list. Otherwise: what Gangfight is."""
    if request.user.is_authenticated:
        from notifications import services as notifications
        from notifications import waiting

        items = waiting.waiting_for(request.user)
        notifications.remember_count(request.user, items)
        return render(request, "home.html", {"groups": waiting.grouped(items)})
    return render(
        request, "home.html", {"systems": all_systems(), "builder_systems": browser_systems()}
    )


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


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Sign up, then go back to ``next`` (an invite followed while logged out; a path of
    this site only: accounts/links.py), which the address's confirmation link keeps too."""
    back = safe_next(request)
    if request.user.is_authenticated:
        return redirect(back or "gang_list")
    form = SignUpForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        email = form.cleaned_data.get("email", "")
        if email:
            from django.contrib import messages
            from django.urls import reverse
            from django.utils.translation import gettext

            from accounts.services import offer_address

            offer_address(
                user,
                email,
                lambda token: links.absolute(
                    with_next(reverse("email_confirm", args=[token]), back), request
                ),
            )
            messages.success(
                request,
                gettext(
                    "We sent a link to %(email)s: open it (logged in as %(user)s) to make it "
                    "your account's address."
                )
                % {"email": email, "user": user.get_username()},
            )
        return language.restore(request, redirect(back or "gang_list"))
    return render(request, "registration/signup.html", {"form": form, "next": back})


class LoginView(auth_views.LoginView):
    """Django's log-in, throttled (gangfight_site/throttle.py): one attempt too many is
    answered 429 with the form and how long to wait, and its password is not checked."""

    authentication_form = ThrottledAuthenticationForm

    def form_valid(self, form):
        response = language.restore(self.request, super().form_valid(form))
        # this browser has logged in to this account: its right password is never refused
        remember_device(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.throttled is not None:
            response.status_code = 429
            response["Retry-After"] = str(form.throttled.wait_seconds)
        return response


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
