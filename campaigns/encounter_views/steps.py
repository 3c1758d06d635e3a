"""The steps after an encounter, one function each: check who asks, read the form, say
what to record (an :class:`~campaigns.encounter_views.base.Action`); ``encounter_step``
records it and renders the encounter's page (or its steps, for htmx) again.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.utils.translation import gettext

from campaigns import access
from campaigns.access import login_required
from campaigns.encounter_forms import (
    AnswerForm,
    ChallengeForm,
    DeathForm,
    DisputeForm,
    GangForm,
    SettleForm,
    ShowdownForm,
    add_engine_error,
)
from campaigns.encounter_views.base import (
    Action,
    Failed,
    Seat,
    detail_url,
    encounter_of,
    into,
    last_text,
    record,
    renumber,
    require_player_or_organiser,
    seat_of,
)
from campaigns.encounter_views.detail import render_detail
from rules.campaign import (
    CampaignError,
    EncounterState,
    showdown_pairs,
)

# -- one function per step: check who asks, read the form, say what to record


def _own_gangs(request: HttpRequest, seat: Seat, enc: EncounterState) -> list[tuple[str, str]]:
    """The user's gangs in the encounter, after checking the posted gang is one of them:
    acting for the other gang is a 403."""
    posted = request.POST.get("gang", "")
    if posted in enc.gangs:
        access.require_player(seat.mine, posted)
    mine = [(g, seat.state.gangs[g].name) for g in enc.gangs if seat.plays(g)]
    if not mine:
        raise PermissionDenied("Only the players of the two gangs can do that.")
    return mine


def _step_confirm(request: HttpRequest, seat: Seat, enc: EncounterState) -> Action:
    form = GangForm(request.POST, gangs=_own_gangs(request, seat, enc))
    if not form.is_valid():
        return Action(form)
    gang = form.cleaned_data["gang"]
    return Action(form, "encounter_confirmed", {"encounter": enc.id, "gang": gang})


def _step_dispute(request: HttpRequest, seat: Seat, enc: EncounterState) -> Action:
    form = DisputeForm(request.POST, gangs=_own_gangs(request, seat, enc))
    gang = request.POST.get("gang", "")
    if not form.is_valid():
        return Action(form)
    data = {"encounter": enc.id, "gang": gang, "reason": form.cleaned_data["reason"]}
    return Action(form, "encounter_disputed", data)


def _step_settle(request: HttpRequest, seat: Seat, enc: EncounterState) -> Action:
    access.require_organiser(seat.campaign, request.user)
    form = SettleForm(request.POST)
    if not form.is_valid():
        return Action(form)
    return Action(form, "encounter_settled", {"encounter": enc.id, **form.cleaned_data})


def _step_death(request: HttpRequest, seat: Seat, enc: EncounterState) -> Action:
    ref = request.POST.get("member", "")
    try:
        member = seat.state.member(ref)
    except CampaignError:
        raise Http404("No such member in this campaign.") from None
    require_player_or_organiser(seat, member.gang)
    form = DeathForm(request.POST, refs=[member.ref])
    if not form.is_valid():
        return Action(form, key=member.ref)
    return Action(form, "death_rolled", {"encounter": enc.id, "member": member.ref}, member.ref)


def _step_challenge(request: HttpRequest, seat: Seat, enc: EncounterState) -> Action:
    state = seat.state
    pairs = showdown_pairs(state, enc) if enc.awarded else []
    if pairs and not seat.plays(state.member(pairs[0][0]).gang):
        raise PermissionDenied("Only the player of the gang with less reputation challenges.")
    form = ChallengeForm(request.POST, state=state, pairs=pairs)
    if not pairs:
        # Nothing to choose from: let the engine say why (not awarded, no match...).
        if not (seat.organiser or any(seat.plays(g) for g in enc.gangs)):
            raise PermissionDenied("Only the two gangs' players challenge.")
        x, _, y = request.POST.get("pair", "").partition("|")
        data = {"encounter": enc.id, "challenger": x, "challenged": y}
        form = ChallengeForm(state=state, pairs=pairs)  # unbound: only the engine's word
        return Action(form, "showdown_challenged", data, on_error=into(form, "pair"))
    if not form.is_valid():
        return Action(form)
    x, y = form.refs()
    data = {"encounter": enc.id, "challenger": x, "challenged": y}
    return Action(form, "showdown_challenged", data, on_error=into(form, "pair"))


def _step_answer(request: HttpRequest, seat: Seat, enc: EncounterState) -> Action:
    sd = enc.showdown
    if sd:
        challenged = seat.state.member(sd["challenged"])
        access.require_player(seat.mine, challenged.gang)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        return Action(form)
    accepted = form.cleaned_data["answer"] == "accept"
    return Action(form, "showdown_answered", {"encounter": enc.id, "accepted": accepted})


def _step_showdown(request: HttpRequest, seat: Seat, enc: EncounterState) -> Action:
    sd = enc.showdown or {}
    refs = [r for r in (sd.get("challenger"), sd.get("challenged")) if r]
    fighters = [(r, seat.state.member(r).name) for r in refs]
    if not (seat.organiser or any(seat.plays(seat.state.member(r).gang) for r in refs)):
        raise PermissionDenied("Only the two players or the organiser record the showdown.")
    form = ShowdownForm(request.POST, fighters=fighters)
    if not form.is_valid():
        return Action(form)
    hits, where = form.hit_list()
    data = {
        "encounter": enc.id,
        "winner": form.cleaned_data["winner"],
        "fate": form.cleaned_data["fate"],
        "hits": hits,
    }

    def on_error(error: CampaignError) -> None:
        name = error.field or ""
        if name.startswith("hits-"):
            try:
                n = int(name.removeprefix("hits-"))
                i = where[n - 1]
            except (ValueError, IndexError):
                pass
            else:
                form.hits.forms[i].add_error(
                    None, renumber(error.message, gettext("Hit {number}"), n, i + 1)
                )
                return
        add_engine_error(form, error)

    return Action(form, "showdown_fought", data, on_error=on_error)


STEPS: dict[str, Callable[[HttpRequest, Seat, EncounterState], Action]] = {
    "confirm": _step_confirm,
    "dispute": _step_dispute,
    "settle": _step_settle,
    "death": _step_death,
    "challenge": _step_challenge,
    "answer": _step_answer,
    "showdown": _step_showdown,
}


@login_required
def encounter_step(
    request: HttpRequest, campaign_id: int, encounter_id: int, step: str
) -> HttpResponse:
    if request.method in ("GET", "HEAD"):
        return redirect(detail_url(campaign_id, encounter_id))
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    seat = seat_of(request, campaign_id)
    enc = encounter_of(seat.state, encounter_id)
    handler = STEPS.get(step)
    if handler is None:
        raise Http404("No such step.")
    action = handler(request, seat, enc)
    if action.kind:
        try:
            new = record(request, seat, action.kind, action.data)
        except CampaignError as error:
            (action.on_error or into(action.form, ""))(error)
        else:
            text = last_text(new)
            if request.htmx:
                seat.state = new
                return render_detail(request, seat, encounter_of(new, enc.id), flash=text)
            messages.success(request, text)
            return redirect(detail_url(seat.campaign.pk, enc.id) + "#steps")
    return render_detail(request, seat, enc, Failed(step, action.form, action.key))
