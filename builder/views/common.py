"""What every view of the builder uses: its login and POST decorators, and how a view finds
the user's own gang or entry (a stranger's is a 404).

The builder's views are split by what they show: ``page`` (the builder page and its
actions), ``gangs`` (the list, creating, deleting, sharing, roster files), ``printing``
(the PDFs, and the HTTP side of printing other apps use too), ``packs`` (content packs,
their entries, the library) and ``catalogue`` (bwg1's weapon catalogue, bwg2's card
preview). Each reads the request, calls one service, renders.
"""

from __future__ import annotations

from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, resolve_url
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from builder.editors import get_editor
from builder.models import Gang, Item
from builder.roster import evaluate_gang


def login_required(view):
    """Django's ``login_required``, made right for the builder.

    An htmx request from someone logged out (say, a session expired) is sent to the
    login page with ``HX-Redirect`` instead of getting the login page swapped into the
    builder; and after a POST the user comes back to the gang's page, not to a URL that
    only takes POST.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.method in ("GET", "HEAD"):
            back = request.get_full_path()
        elif "gang_id" in kwargs:
            back = reverse("gang_detail", args=[kwargs["gang_id"]])
        else:
            back = request.path
        url = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': back})}"
        if request.htmx:
            return HttpResponseClientRedirect(url)
        return redirect(url)

    return wrapper


def post_only(view):
    """A builder action: POST does it; a GET (a reload, a typed URL) goes to the page."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST":
            return view(request, *args, **kwargs)
        if request.method in ("GET", "HEAD") and "gang_id" in kwargs:
            url = reverse("gang_detail", args=[kwargs["gang_id"]])
            if "member_id" in kwargs:
                url += f"?open={kwargs['member_id']}#member-{kwargs['member_id']}"
            return redirect(url)
        return HttpResponseNotAllowed(["POST"])

    return wrapper


PAGE_METHODS = ["GET", "HEAD", "POST"]


def get_gang_for_user(user, gang_id: int) -> Gang:
    """The user's own gang, or 404: nobody else's gang is ever found."""
    return get_object_or_404(user.gangs.all(), pk=gang_id)


def get_item_for_user(user, item_id: int) -> Item:
    """One entry of the user's own packs, or 404 (built-in content is nobody's)."""
    return get_object_or_404(user.items.select_related("pack"), pk=item_id)


def readonly_context(gang: Gang) -> dict[str, Any]:
    """What the read-only pages show: the gang, its figures and how its members look."""
    evaluated = evaluate_gang(gang)
    return {
        "gang": gang,
        "system": evaluated.system,
        "report": evaluated.report,
        "evaluated": evaluated,
        "rows": evaluated.item_rows(),
        "member_template": get_editor(gang.system).readonly_template,
    }
