"""Site-wide pages: the home page, sign-up, and the rules page."""

from __future__ import annotations

import json
from functools import cache

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from builder.forms import browser_systems
from rules import all_systems
from rules.base import cite
from rules.roster import roster_schema


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("gang_list")
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
    if request.user.is_authenticated:
        return redirect("gang_list")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("gang_list")
    return render(request, "registration/signup.html", {"form": form})
