"""The home page (what waits on you, when signed in) and the notification settings page.

The home page lives here, with what it shows: a signed-in user's list is this app's
(waiting.py); a visitor's page lists the game systems and those the builder edits in the
browser (the builder is below this app: tests/test_layers.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from builder.forms import browser_systems
from notifications import services, waiting
from notifications.forms import NotificationSettingsForm
from notifications.models import Notice
from rules import all_systems


def home(request: HttpRequest) -> HttpResponse:
    """Signed in: what waits on the user (waiting.py), grouped; the header's count is
    refreshed from the same list. Otherwise: what Gangfight is."""
    if request.user.is_authenticated:
        items = waiting.waiting_for(request.user)
        services.remember_count(request.user, items)
        return render(request, "home.html", {"groups": waiting.grouped(items)})
    return render(
        request, "home.html", {"systems": all_systems(), "builder_systems": browser_systems()}
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def notification_settings(request: HttpRequest) -> HttpResponse:
    muted = services.muted_kinds(request.user)
    form = NotificationSettingsForm(request.POST or None, muted=muted)
    if request.method == "POST" and form.is_valid():
        services.set_muted(request.user, form.muted())
        messages.success(request, _("Your email choices are saved."))
        return redirect("notification_settings")
    return render(request, "notifications/settings.html", {"form": form})


@login_required
@require_http_methods(["POST"])
def notice_dismiss(request: HttpRequest, notice_id: int) -> HttpResponse:
    """The "Got it" button: the notice goes from the list (only one's own: another's is a 404)."""
    services.dismiss_notice(get_object_or_404(Notice, pk=notice_id, user=request.user))
    return redirect("home")
