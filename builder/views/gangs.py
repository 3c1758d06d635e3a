"""A player's gangs: the list, a new gang, a copy, deleting one, its history of dice rolls,
the share link and the shared page, and roster files (export, import).
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from builder import services
from builder.forms import GangCreateForm, RosterImportForm
from builder.models import Gang, Member, MemberItem
from builder.roster import evaluate_gang
from builder.views.common import (
    PAGE_METHODS,
    get_gang_for_user,
    login_required,
    post_only,
    readonly_context,
)
from builder.views.printing import share_url
from rules.roster import RosterFileError, write_roster


@login_required
def gang_list(request: HttpRequest) -> HttpResponse:
    gangs = list(request.user.gangs.all())
    members = {}
    for member in Member.objects.filter(gang__in=gangs).prefetch_related(
        Prefetch("member_items", queryset=MemberItem.objects.select_related("item"))
    ):
        members.setdefault(member.gang_id, []).append(member)
    entries = [evaluate_gang(g, members.get(g.pk, [])) for g in gangs]
    return render(request, "builder/gang_list.html", {"entries": entries})


@login_required
@require_http_methods(PAGE_METHODS)
def gang_create(request: HttpRequest) -> HttpResponse:
    form = GangCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        gang = services.create_gang(
            request.user,
            system=form.cleaned_data["system"],
            name=form.cleaned_data["name"],
            limit=form.cleaned_data["limit"],
        )
        return redirect("gang_detail", gang_id=gang.pk)
    return render(request, "builder/gang_create.html", {"form": form})


@login_required
def gang_history(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = get_gang_for_user(request.user, gang_id)
    rolls = list(gang.dice_rolls.select_related("user"))
    return render(request, "builder/gang_history.html", {"gang": gang, "rolls": rolls})


@login_required
@require_http_methods(PAGE_METHODS)
def gang_clone(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = get_gang_for_user(request.user, gang_id)
    if request.method == "POST":
        copy = services.clone_gang(gang)
        messages.success(
            request, gettext("“%(name)s” was copied. This is the copy.") % {"name": gang.name}
        )
        return redirect("gang_detail", gang_id=copy.pk)
    return render(request, "builder/gang_confirm_clone.html", {"gang": gang})


@login_required
@require_http_methods(PAGE_METHODS)
def gang_delete(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = get_gang_for_user(request.user, gang_id)
    if request.method == "POST":
        name = gang.name
        services.delete_gang(gang)
        messages.success(request, gettext("“%(name)s” was deleted.") % {"name": name})
        return redirect("gang_list")
    return render(request, "builder/gang_confirm_delete.html", {"gang": gang})


@login_required
@post_only
def gang_share_reset(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = get_gang_for_user(request.user, gang_id)
    services.reset_share_token(gang)
    messages.success(
        request, gettext_lazy("The old share link no longer works; here is the new one.")
    )
    return redirect(reverse("gang_detail", args=[gang.pk]) + "#share")


def gang_shared(request: HttpRequest, token: str) -> HttpResponse:
    gang = get_object_or_404(Gang, share_token=token)
    context = readonly_context(gang)
    context["is_owner"] = request.user.is_authenticated and request.user.pk == gang.owner_id
    context["share_url"] = share_url(request, gang.share_token)
    return render(request, "builder/gang_shared.html", context)


# --------------------------------------------------------------------------- roster files


def _roster_response(gang: Gang) -> HttpResponse:
    response = HttpResponse(
        write_roster(services.roster_file(gang)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(gang.name) or "gang"}-roster.json"'
    )
    return response


@login_required
def gang_export(request: HttpRequest, gang_id: int) -> HttpResponse:
    return _roster_response(get_gang_for_user(request.user, gang_id))


def gang_shared_export(request: HttpRequest, token: str) -> HttpResponse:
    return _roster_response(get_object_or_404(Gang, share_token=token))


@login_required
@require_http_methods(PAGE_METHODS)
def gang_import(request: HttpRequest) -> HttpResponse:
    form = RosterImportForm(request.POST, request.FILES) if request.method == "POST" else None
    form = form or RosterImportForm()
    if request.method == "POST" and form.is_valid():
        try:
            gang = services.import_gang(request.user, form.cleaned_data["roster"])
        except RosterFileError as error:
            form.add_problems("file" if form.cleaned_data.get("file") else "text", error)
        else:
            messages.success(request, gettext("“%(name)s” was imported.") % {"name": gang.name})
            return redirect("gang_detail", gang_id=gang.pk)
    return render(request, "builder/gang_import.html", {"form": form})
