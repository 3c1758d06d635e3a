"""Beginning an encounter, its record, and undoing the last one.

Thin views: read the request, check who is asking (``campaigns.access``), call
``services.record`` with one event (``base.record``), render. The engine's refusal
(:class:`CampaignError`) is shown beside the field it names, with status 200.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from campaigns import access
from campaigns.access import PAGE_METHODS, login_required
from campaigns.encounter_forms import (
    DRAW,
    KIND_HELP,
    KIND_HELP_LEFT_OTHER,
    START_LINES,
    BeginForm,
    RecordForm,
    UndoForm,
    add_engine_error,
    line_formset,
    line_initial,
    with_more_lines,
)
from campaigns.encounter_views.base import (
    Seat,
    detail_url,
    encounter_of,
    last_text,
    record,
    renumber,
    seat_of,
)
from common.engine_words import shown
from rules.campaign import (
    CONFIRMED,
    RUNNING,
    CampaignError,
    CampaignState,
    EncounterState,
)

# --------------------------------------------------------------------------- beginning


@login_required
@require_http_methods(PAGE_METHODS)
def encounter_begin(request: HttpRequest, campaign_id: int) -> HttpResponse:
    seat = seat_of(request, campaign_id)
    state = seat.state
    form = BeginForm(request.POST or None, state=state, own=seat.mine, organiser=seat.organiser)
    if request.method == "POST" and form.is_valid():
        data = {
            "gangs": [form.cleaned_data["gang"], form.cleaned_data["against"]],
            "scenario": form.cleaned_data.get("scenario", ""),
        }
        try:
            new = record(request, seat, "encounter_begun", data)
        except CampaignError as error:
            add_engine_error(form, error)
        else:
            enc = new.last_encounter
            messages.success(request, last_text(new))
            return redirect(detail_url(seat.campaign.pk, enc.id))
    return render(
        request,
        "campaigns/encounter_begin.html",
        {
            "campaign": seat.campaign,
            "state": state,
            "form": form,
            "running": state.status == RUNNING,
            "rolls_location": state.progression.uses_location,
            "can_begin": len(form.fields["gang"].choices) > 1,
        },
    )


# --------------------------------------------------------------------------- the record


def _recorder_gang(seat: Seat, enc: EncounterState) -> str:
    """The gang the record is made for: the user's gang in the encounter (it counts as
    that gang's confirmation), or none for the organiser."""
    return next((g for g in enc.gangs if seat.plays(g)), "")


def _kind_help(state: CampaignState) -> list[tuple[str, str]]:
    kinds = state.progression.happening_kinds
    out = []
    for kind, label in kinds.items():
        text = KIND_HELP.get(kind, "")
        if kind == "left" and not state.progression.has_showdown:
            text = KIND_HELP_LEFT_OTHER
        out.append((shown(label), text))
    return out


@login_required
@require_http_methods(PAGE_METHODS)
def encounter_record(request: HttpRequest, campaign_id: int, encounter_id: int) -> HttpResponse:
    seat = seat_of(request, campaign_id)
    state = seat.state
    enc = encounter_of(state, encounter_id)
    if not (seat.organiser or any(seat.plays(g) for g in enc.gangs)):
        raise PermissionDenied("Only the players of the two gangs or the organiser record it.")
    if enc.status == CONFIRMED:
        messages.info(
            request,
            gettext_lazy("Encounter %(number)s's record is confirmed: it stands.")
            % {"number": enc.number},
        )
        return redirect(detail_url(seat.campaign.pk, enc.id))
    if request.method == "POST" and "more" in request.POST:
        formset = line_formset(state, enc, with_more_lines(request.POST))
        form = RecordForm(
            initial={k: request.POST.get(k, "") for k in ("winner", "notes")}, state=state, enc=enc
        )
    elif request.method == "POST":
        formset = line_formset(state, enc, request.POST)
        form = RecordForm(request.POST, state=state, enc=enc)
        lines_ok = formset.is_valid()
        if form.is_valid() and lines_ok:
            happenings, where = formset.happenings()
            data = {
                "encounter": enc.id,
                "gang": _recorder_gang(seat, enc),
                "happenings": happenings,
                "winner": form.cleaned_data["winner"],
                "notes": form.cleaned_data["notes"],
            }
            try:
                new = record(request, seat, "encounter_recorded", data)
            except CampaignError as error:
                _line_error(formset, form, where, error)
            else:
                messages.success(request, last_text(new))
                return redirect(detail_url(seat.campaign.pk, enc.id))
    else:
        initial = [line_initial(h) for h in enc.happenings]
        initial += [{}] * max(2, START_LINES - len(initial))
        formset = line_formset(state, enc, initial=initial)
        winner = enc.winner if enc.winner else (DRAW if enc.winner == "" else "")
        notes = enc.notes
        form = RecordForm(initial={"winner": winner, "notes": notes}, state=state, enc=enc)
    return render(
        request,
        "campaigns/encounter_record.html",
        {
            "campaign": seat.campaign,
            "state": state,
            "enc": enc,
            "gangs": [state.gangs[g] for g in enc.gangs],
            "formset": formset,
            "form": form,
            "kind_help": _kind_help(state),
            "showdown": state.progression.has_showdown,
        },
    )


def _line_error(formset, form, where: list[int], error: CampaignError) -> None:
    """An engine refusal of the record: beside line N ("line-N"), the winner, or on top."""
    field_name = error.field or ""
    if field_name.startswith("line-"):
        try:
            n = int(field_name.removeprefix("line-"))
            line = formset.forms[where[n - 1]]
        except (ValueError, IndexError):
            line = None
        if line is not None:
            line.add_error(
                None, renumber(error.message, gettext("Line {number}"), n, where[n - 1] + 1)
            )
            return
    add_engine_error(form, error)


@login_required
@require_http_methods(PAGE_METHODS)
def encounter_undo(request: HttpRequest, campaign_id: int) -> HttpResponse:
    seat = seat_of(request, campaign_id)
    access.require_organiser(seat.campaign, request.user)
    last = seat.state.last_encounter
    form = UndoForm(request.POST or None, initial={"encounter": last.id if last else ""})
    if request.method == "POST" and form.is_valid():
        data = {"encounter": form.cleaned_data["encounter"], "reason": form.cleaned_data["reason"]}
        try:
            new = record(request, seat, "encounter_undone", data)
        except CampaignError as error:
            add_engine_error(form, error)
        else:
            messages.success(request, last_text(new))
            return redirect("campaign_detail", campaign_id=seat.campaign.pk)
    gangs = [seat.state.gangs[g] for g in last.gangs] if last else []
    return render(
        request,
        "campaigns/encounter_undo.html",
        {"campaign": seat.campaign, "state": seat.state, "enc": last, "gangs": gangs, "form": form},
    )
