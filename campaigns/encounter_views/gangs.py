"""A campaign gang's page: its members and what each may take between encounters
(advances, purchases, a new leader), riding to Mexico, and recruits for the fallen.

htmx: the page's body is one partial (``campaign_gang.html#gang``); every form also works
as a plain POST, redirected after success.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from builder.models import Member, MemberItem
from builder.roster import member_data
from campaigns import access
from campaigns.access import PAGE_METHODS, login_required
from campaigns.encounter_forms import (
    AdvanceForm,
    LeaderForm,
    PurseBuyForm,
    RecruitForm,
    RivalsBuyForm,
    add_engine_error,
)
from campaigns.encounter_views.base import (
    Action,
    Failed,
    Seat,
    gang_of,
    gang_url,
    grouped,
    into,
    last_text,
    record,
    seat_of,
    stray_errors,
)
from rules import get_system
from rules.campaign import (
    DEAD,
    RUNNING,
    CampaignError,
    CampaignState,
    GangState,
    MemberState,
    member_cost,
)

# --------------------------------------------------------------------------- a gang's page


def _killed_in(state: CampaignState, m: MemberState) -> int | None:
    for enc in state.encounters:
        death = enc.deaths.get(m.ref)
        if death and death.get("result") == "dead":
            return enc.number
    return None


def _gang_context(
    request: HttpRequest,
    seat: Seat,
    gang: GangState,
    failed: Failed | None = None,
    flash: str = "",
) -> dict[str, Any]:
    state = seat.state
    p = state.progression
    system = get_system(state.system)
    report = system.evaluate(gang.current_roster(p))
    is_player = seat.plays(gang.id)
    showdown = p.has_showdown
    can_act = is_player and state.status == RUNNING and not gang.retired
    price_list = p.r.CONTENT["price_list"] if showdown else []

    def form_for(step: str, key: str, make: Callable[[], Any]) -> Any:
        if failed is not None and failed.step == step and failed.key == key:
            return failed.form
        return make()

    rows = []
    for m in gang.alive:
        title, bonus = p.notoriety(m.score)
        row: dict[str, Any] = {
            "m": m,
            "r": report.members.get(m.key),
            "title": title,
            "bonus": bonus,
            "equipment": grouped(m.equipment),
            "findings": [f for f in report.findings_for(m.key) if f.code not in p.campaign_ignores],
        }
        if can_act:
            options = p.advance_options(m)
            auto = f"id_m{m.key}_%s"
            if options or (failed and failed.step == "advance" and failed.key == m.ref):
                row["advance_form"] = form_for(
                    "advance",
                    m.ref,
                    lambda m=m, options=options, auto=auto: AdvanceForm(
                        initial={"member": m.ref}, options=options, auto_id=auto + "_adv"
                    ),
                )
            if showdown:
                row["buy_form"] = form_for(
                    "buy",
                    m.ref,
                    lambda m=m, auto=auto: RivalsBuyForm(
                        initial={"member": m.ref}, price_list=price_list, auto_id=auto + "_buy"
                    ),
                )
        rows.append(row)
    dead = []
    for m in gang.members.values():
        if m.status != DEAD:
            continue
        replaced = gang.members.get(m.replaced_by) if m.replaced_by else None
        dead.append({"m": m, "killed_in": _killed_in(state, m), "replaced_by": replaced})
    purse_form = None
    if can_act and not showdown:
        members = [(m.ref, m.name) for m in gang.alive]
        purse_form = form_for("buy", "", lambda: PurseBuyForm(members=members))
    leader_form = None
    key = p.leader_key
    if can_act and key and not any(m.data.get(key) is True for m in gang.alive):
        members = [(m.ref, m.name) for m in gang.alive]
        leader_form = form_for("leader", "", lambda: LeaderForm(members=members))
    placed = [r.get(k) for r in rows for k in ("advance_form", "buy_form")] + [
        purse_form,
        leader_form,
    ]
    finding_rows = [
        {"finding": f, "member": report.members.get(f.member) if f.member else None}
        for f in report.findings
        if f.code not in p.campaign_ignores
    ]
    return {
        "campaign": seat.campaign,
        "state": state,
        "progression": p,
        "gang": gang,
        "report": report,
        "system": system,
        "rows": rows,
        "dead": dead,
        "finding_rows": finding_rows,
        "is_player": is_player,
        "can_act": can_act,
        "showdown": showdown,
        "purse_form": purse_form,
        "leader_form": leader_form,
        "open_encounter": state.open_encounter(gang.id),
        "played": state.played(gang.id),
        "flash": flash,
        "stray_errors": stray_errors(failed, placed),
        "print_url": reverse("campaign_gang_print", args=[seat.campaign.pk, gang.id]),
    }


def _render_gang(
    request: HttpRequest,
    seat: Seat,
    gang: GangState,
    failed: Failed | None = None,
    flash: str = "",
) -> HttpResponse:
    template = "campaigns/campaign_gang.html"
    if request.htmx:
        template += "#gang"
    return render(request, template, _gang_context(request, seat, gang, failed, flash))


@login_required
@require_http_methods(["GET", "HEAD"])
def campaign_gang(request: HttpRequest, campaign_id: int, gang_id: int) -> HttpResponse:
    seat = seat_of(request, campaign_id)
    return _render_gang(request, seat, gang_of(seat.state, gang_id))


def _member_of(gang: GangState, ref: str) -> MemberState:
    gang_id, _, key = ref.partition("/")
    member = gang.members.get(key) if gang_id == gang.id else None
    if member is None:
        raise Http404("No such member in this gang.")
    return member


def _gang_action(request: HttpRequest, seat: Seat, gang: GangState, step: str) -> Action:
    state = seat.state
    p = state.progression
    if step == "leader":
        form = LeaderForm(request.POST, members=[(m.ref, m.name) for m in gang.alive])
        if not form.is_valid():
            return Action(form)
        data = {"member": form.cleaned_data["member"]}
        return Action(form, "leader_chosen", data, on_error=into(form, "member"))
    if step == "advance":
        m = _member_of(gang, request.POST.get("member", ""))
        form = AdvanceForm(
            request.POST, options=p.advance_options(m), auto_id=f"id_m{m.key}_%s_adv"
        )
        if not form.is_valid():
            return Action(form, key=m.ref)
        data = {"member": m.ref, "choice": form.cleaned_data["choice"]}
        return Action(form, "advance_taken", data, m.ref, into(form, "choice"))
    if p.has_showdown:
        m = _member_of(gang, request.POST.get("member", ""))
        form = RivalsBuyForm(
            request.POST, price_list=p.r.CONTENT["price_list"], auto_id=f"id_m{m.key}_%s_buy"
        )
        if not form.is_valid():
            return Action(form, key=m.ref)
        data = {"member": m.ref, **{k: form.cleaned_data[k] for k in ("item", "quantity")}}
        return Action(form, "item_bought", data, m.ref, into(form, "item"))
    form = PurseBuyForm(request.POST, members=[(m.ref, m.name) for m in gang.alive])
    if not form.is_valid():
        return Action(form)
    data = {"gang": gang.id, **form.cleaned_data}
    return Action(form, "item_bought", data, on_error=into(form, "item"))


@login_required
def gang_step(request: HttpRequest, campaign_id: int, gang_id: int, step: str) -> HttpResponse:
    if step not in ("advance", "buy", "leader", "mexico"):
        raise Http404("No such step.")
    if step == "mexico":
        return _mexico(request, campaign_id, gang_id)
    if request.method in ("GET", "HEAD"):
        return redirect(gang_url(campaign_id, gang_id))
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    seat = seat_of(request, campaign_id)
    gang = gang_of(seat.state, gang_id)
    access.require_player(seat.mine, gang.id)
    action = _gang_action(request, seat, gang, step)
    if action.kind:
        try:
            new = record(request, seat, action.kind, action.data)
        except CampaignError as error:
            (action.on_error or into(action.form, ""))(error)
        else:
            text = last_text(new)
            if request.htmx:
                seat.state = new
                return _render_gang(request, seat, new.gangs[gang.id], flash=text)
            messages.success(request, text)
            anchor = f"#member-{action.key.partition('/')[2]}" if action.key else "#purse"
            return redirect(gang_url(seat.campaign.pk, gang.id) + anchor)
    return _render_gang(request, seat, gang, Failed(step, action.form, action.key))


def _mexico(request: HttpRequest, campaign_id: int, gang_id: int) -> HttpResponse:
    if request.method not in PAGE_METHODS:
        return HttpResponseNotAllowed(PAGE_METHODS)
    seat = seat_of(request, campaign_id)
    gang = gang_of(seat.state, gang_id)
    access.require_player(seat.mine, gang.id)
    error = ""
    if request.method == "POST":
        try:
            new = record(request, seat, "rode_to_mexico", {"gang": gang.id})
        except CampaignError as refused:
            error = refused.message
        else:
            messages.success(request, last_text(new))
            return redirect(gang_url(seat.campaign.pk, gang.id))
    others = [g for g in seat.state.active_gangs if g.id != gang.id]
    return render(
        request,
        "campaigns/campaign_gang_mexico.html",
        {
            "campaign": seat.campaign,
            "state": seat.state,
            "gang": gang,
            "others": others,
            "error": error,
            "open_encounter": seat.state.open_encounter(gang.id),
        },
    )


# -- recruits


@dataclass
class Candidate:
    value: str
    label: str
    name: str
    data: dict[str, Any]
    cost: int


def _candidates(user, system_id: str) -> list[Candidate]:
    """Every member of the user's own builder gangs of the campaign's game (2 queries)."""
    system = get_system(system_id)
    members = (
        Member.objects.filter(gang__owner=user, gang__system=system_id)
        .select_related("gang")
        .prefetch_related(
            Prefetch("member_items", queryset=MemberItem.objects.select_related("item"))
        )
        .order_by("gang__name", "gang_id", "position", "pk")
    )
    out = []
    for m in members:
        data = member_data(system, m)
        cost = member_cost(system_id, data)
        name = m.name or gettext("(no name)")
        label = f"{m.gang.name} — {name} ({cost} {system.total_label})"
        out.append(Candidate(str(m.pk), label, m.name, data, cost))
    return out


@login_required
@require_http_methods(PAGE_METHODS)
def gang_recruit(request: HttpRequest, campaign_id: int, gang_id: int) -> HttpResponse:
    seat = seat_of(request, campaign_id)
    gang = gang_of(seat.state, gang_id)
    access.require_player(seat.mine, gang.id)
    candidates = _candidates(request.user, seat.state.system)
    choices = [(c.value, c.label) for c in candidates]
    failed: RecruitForm | None = None
    failed_ref = ""
    declined_error: dict[str, str] = {}
    if request.method == "POST" and "decline" in request.POST:
        fallen = _member_of(gang, request.POST.get("decline", ""))
        try:
            new = record(
                request, seat, "recruit_declined", {"gang": gang.id, "replaces": fallen.ref}
            )
        except CampaignError as error:
            declined_error[fallen.ref] = error.message
        else:
            messages.success(request, last_text(new))
            return redirect(gang_url(seat.campaign.pk, gang.id))
    elif request.method == "POST":
        replaced = _member_of(gang, request.POST.get("replaces", ""))
        failed_ref = replaced.ref
        form = RecruitForm(request.POST, candidates=choices, auto_id=f"id_r{replaced.key}_%s")
        if form.is_valid():
            pick = next(c for c in candidates if c.value == form.cleaned_data["recruit"])
            data = {
                "gang": gang.id,
                "replaces": replaced.ref,
                "member": {"name": pick.name, "data": pick.data},
            }
            try:
                new = record(request, seat, "member_recruited", data)
            except CampaignError as error:
                add_engine_error(form, error, "recruit")
            else:
                messages.success(request, last_text(new))
                return redirect(gang_url(seat.campaign.pk, gang.id))
        failed = form
    label = get_system(seat.state.system).total_label
    rows = []
    for m in gang.fallen:
        form = failed if failed is not None and failed_ref == m.ref else None
        form = form or RecruitForm(
            initial={"replaces": m.ref}, candidates=choices, auto_id=f"id_r{m.key}_%s"
        )
        affordable = sum(1 for c in candidates if c.cost <= m.original_cost)
        rows.append(
            {
                "m": m,
                "form": form,
                "affordable": affordable,
                "decline_error": declined_error.get(m.ref, ""),
            }
        )
    return render(
        request,
        "campaigns/campaign_gang_recruit.html",
        {
            "campaign": seat.campaign,
            "state": seat.state,
            "gang": gang,
            "rows": rows,
            "candidates": candidates,
            "total_label": label,
            "full_strength": seat.state.progression.full_strength,
            "open_encounter": seat.state.open_encounter(gang.id),
        },
    )
