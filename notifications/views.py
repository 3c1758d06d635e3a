"""The notification settings page (the list itself is the home page:
gangfight_site/views.py ``home``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from notifications import services
from notifications.forms import NotificationSettingsForm
from notifications.models import Notice


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
