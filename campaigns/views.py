"""The campaign pages: list, set-up, joining, the campaign's home, history and printing.

Thin views: read the request, call one service, render. Every campaign URL starts from
``services.get_campaign_for_user`` (a stranger gets a 404), except the join page, reached
by its invite link. The rules engine says what an event means; a refusal
(``CampaignError``) is shown beside the field it concerns, or as a message, never a 500.
The encounter pages and a gang's page are in ``campaigns/encounter_views/``.
"""

from __future__ import annotations

import datetime
from itertools import groupby
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from builder.forms import PrintForm
from builder.printing import PAPERS, PdfError, cached_pdf
from builder.views.printing import client_of, filename, pdf_error_page
from campaigns import access, chronicle, services
from campaigns.access import PAGE_METHODS, login_required, post_only
from campaigns.forms import CampaignForm, CampaignSettingsForm, FinishForm, JoinForm
from campaigns.models import Campaign, CampaignEvent, CampaignGang
from common import links
from rules import get_system
from rules.campaign import RUNNING, SETUP, CampaignError, CampaignState, replay


def _campaign(request: HttpRequest, campaign_id: int) -> Campaign:
    return services.get_campaign_for_user(request.user, campaign_id)


def _detail(campaign: Campaign, anchor: str = "") -> HttpResponse:
    return redirect(reverse("campaign_detail", args=[campaign.pk]) + anchor)


def _record(request: HttpRequest, campaign: Campaign, kind: str, data: dict, done: str) -> bool:
    """Record one event; say what happened (or why not) as a message."""
    try:
        services.record(campaign, request.user, kind, data)
    except CampaignError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, done)
    return True


# --------------------------------------------------------------------------- the list


def _states(campaigns: list[Campaign]) -> dict[int, CampaignState]:
    """Every campaign's state, replayed from one query of all their events."""
    events = (
        CampaignEvent.objects.filter(campaign__in=campaigns)
        .select_related("user")
        .order_by("campaign_id", "seq")
    )
    by_campaign = {
        pk: [e.as_event(e.user.username if e.user else "") for e in group]
        for pk, group in groupby(events, key=lambda e: e.campaign_id)
    }
    return {
        c.pk: replay(c.system, by_campaign.get(c.pk, []), c.house_rules, c.encounters)
        for c in campaigns
    }


@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    campaigns = list(services.campaigns_for(request.user))
    states = _states(campaigns) if campaigns else {}
    mine: dict[int, list[tuple[str, str]]] = {}
    if campaigns:
        for campaign_id, pk, name in CampaignGang.objects.filter(
            campaign__in=campaigns, player=request.user
        ).values_list("campaign_id", "pk", "name"):
            mine.setdefault(campaign_id, []).append((str(pk), name))
    entries = []
    for campaign in campaigns:
        state = states[campaign.pk]
        gangs = [name for gang_id, name in mine.get(campaign.pk, []) if gang_id in state.gangs]
        roles = []
        if campaign.organiser_id == request.user.pk:
            roles.append(_("Organiser"))
        if gangs:
            roles.append(_("Playing %(gangs)s") % {"gangs": ", ".join(f"“{g}”" for g in gangs)})
        entries.append(
            {
                "campaign": campaign,
                "state": state,
                "system": get_system(campaign.system),
                "played": sum(1 for e in state.encounters if e.awarded),
                "open": sum(1 for e in state.encounters if e.open),
                "role": " · ".join(roles) or _("Left"),
            }
        )
    return render(request, "campaigns/campaign_list.html", {"entries": entries})


# --------------------------------------------------------------------------- set-up


@login_required
@require_http_methods(PAGE_METHODS)
def campaign_create(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        system = form.cleaned_data["system"]
        campaign = services.create_campaign(
            request.user,
            system=system,
            name=form.cleaned_data["name"],
            encounters=form.cleaned_data["encounters"],
            house_rules=form.house_rules(system),
            solo_play=form.cleaned_data["solo_play"],
        )
        messages.success(
            request,
            _("“%(name)s” is set up. Send the invite link to the players.")
            % {"name": campaign.name},
        )
        return _detail(campaign)
    return render(request, "campaigns/campaign_form.html", {"form": form, "creating": True})


@login_required
@require_http_methods(PAGE_METHODS)
def campaign_settings(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign(request, campaign_id)
    access.require_organiser(campaign, request.user)
    if request.method == "POST":
        form = CampaignSettingsForm(request.POST, campaign=campaign)
        if form.is_valid():
            rules = {} if form.rules_locked else form.house_rules(campaign.system)
            try:
                services.update_settings(
                    campaign,
                    name=form.cleaned_data["name"],
                    encounters=form.cleaned_data["encounters"],
                    house_rules=rules,
                    solo_play=form.cleaned_data["solo_play"],
                )
            except CampaignError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
            else:
                messages.success(request, gettext_lazy("The campaign's settings are saved."))
                return _detail(campaign)
    else:
        form = CampaignSettingsForm(campaign=campaign)
    context = {"form": form, "campaign": campaign, "system": get_system(campaign.system)}
    return render(request, "campaigns/campaign_form.html", context)


@login_required
@post_only("campaign_detail")
def campaign_invite_reset(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """A new invite link (the organiser's): the old one says it is no longer valid."""
    campaign = _campaign(request, campaign_id)
    access.require_organiser(campaign, request.user)
    services.reset_invite(campaign)
    messages.success(request, _("The old invite link no longer works; here is the new one."))
    return _detail(campaign, "#next")


def link_gone(request: HttpRequest, what: str) -> HttpResponse:
    """A link that finds nothing (never was, or was replaced): 404, saying so."""
    return render(request, "campaigns/link_gone.html", {"what": what}, status=404)


@login_required
@require_http_methods(PAGE_METHODS)
def campaign_join(request: HttpRequest, token: str) -> HttpResponse:
    campaign = Campaign.objects.select_related("organiser").filter(invite_token=token).first()
    if campaign is None:
        return link_gone(request, _("invite link"))
    state = services.state_of(campaign)
    mine = list(
        campaign.gangs.filter(player=request.user)
        .order_by("pk")
        .values_list("pk", "source_id", "name")
    )
    form = JoinForm(
        request.POST or None,
        user=request.user,
        campaign=campaign,
        taken={source for _pk, source, _name in mine if source is not None},
    )
    setting_up = state.status == SETUP
    if request.method == "POST" and setting_up and form.is_valid():
        gang = form.cleaned_data["gang"]
        joined = CampaignGang.objects.filter(
            campaign=campaign, source=gang, pk__in=[int(g) for g in state.gangs]
        )
        if joined.exists():
            form.add_error(
                "gang",
                _(
                    "“%(name)s” has already joined this campaign. You may join with another "
                    "of your gangs."
                )
                % {"name": gang.name},
            )
        else:
            try:
                services.join_campaign(campaign, request.user, gang)
            except CampaignError as error:
                form.add_error("gang" if error.field in (None, "gang") else None, error.message)
            else:
                messages.success(
                    request,
                    _("“%(gang)s” joined “%(campaign)s”.")
                    % {"gang": gang.name, "campaign": campaign.name},
                )
                return _detail(campaign)
    context = {
        "campaign": campaign,
        "state": state,
        "system": get_system(campaign.system),
        "form": form,
        "setting_up": setting_up,
        "has_gangs": bool(form.gangs) if setting_up else False,
        # the user's gangs in the campaign now (one that left is no longer in it)
        "joined": ", ".join(name for pk, _source, name in mine if str(pk) in state.gangs),
        "is_member": campaign.organiser_id == request.user.pk or bool(mine),
    }
    return render(request, "campaigns/campaign_join.html", context)


@login_required
@post_only("campaign_detail")
def campaign_leave(request: HttpRequest, campaign_id: int, gang_id: int) -> HttpResponse:
    campaign = _campaign(request, campaign_id)
    state = services.state_of(campaign)
    gang = state.gangs.get(str(gang_id))
    if gang is None:
        raise Http404("That gang is not in this campaign.")
    mine = services.user_gang_ids(campaign, request.user)
    if not access.is_organiser(campaign, request.user):
        access.require_player(mine, str(gang_id))
    if not _record(
        request,
        campaign,
        "gang_left",
        {"gang": gang.id},
        _("“%(name)s” left the campaign.") % {"name": gang.name},
    ):
        return _detail(campaign)
    if access.is_organiser(campaign, request.user) or mine - {gang.id}:
        return _detail(campaign)
    return redirect("campaign_list")


@login_required
@post_only("campaign_detail")
def campaign_start(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign(request, campaign_id)
    access.require_organiser(campaign, request.user)
    _record(request, campaign, "campaign_started", {}, _("The campaign has started."))
    return _detail(campaign)


@login_required
@post_only("campaign_detail")
def campaign_finish(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign(request, campaign_id)
    access.require_organiser(campaign, request.user)
    state = services.state_of(campaign)
    form = FinishForm(request.POST)
    confirmed = form.is_valid() and form.cleaned_data["confirm"]
    if state.status == RUNNING and not state.all_played and not confirmed:
        behind = [
            (g, state.played(g.id)) for g in state.active_gangs if state.played(g.id) < state.agreed
        ]
        context = {"campaign": campaign, "state": state, "behind": behind}
        return render(request, "campaigns/campaign_finish.html", context)
    _record(request, campaign, "campaign_finished", {}, _("The campaign is finished."))
    return _detail(campaign)


# --------------------------------------------------------------------------- the campaign


@login_required
def campaign_detail(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign(request, campaign_id)
    state = services.state_of(campaign)
    mine = services.user_gang_ids(campaign, request.user)
    organiser = access.is_organiser(campaign, request.user)
    gangs = chronicle.members_table(state)
    for row in gangs:
        gang = row["gang"]
        row.update(
            mine=gang.id in mine,
            open=state.open_encounter(gang.id),
            played=state.played(gang.id),
        )
    encounters = [
        {
            "enc": enc,
            "gangs": [state.gangs[g] for g in enc.gangs if g in state.gangs],
            "where": chronicle.encounter_where(enc),
            "winner": chronicle.encounter_winner(state, enc),
            "mine": bool(set(enc.gangs) & mine),
        }
        for enc in state.encounters
    ]
    context = {
        "campaign": campaign,
        "state": state,
        "system": get_system(campaign.system),
        "is_organiser": organiser,
        "mine": mine,
        "standings": [row["standing"] for row in gangs],
        "gangs": gangs,
        "encounters": encounters,
        "open_encounters": [e for e in encounters if e["enc"].open],
        "last_encounter": state.last_encounter,
        "invite_url": links.absolute(
            reverse("campaign_join", args=[campaign.invite_token]), request
        ),
        "own_join": _own_join(campaign, state, request.user, mine) if organiser else None,
        "can_start": organiser and state.status == SETUP and len(state.gangs) >= 2,
        "charts": chronicle.state_charts(state) if state.status != SETUP else [],
        "member_word": chronicle.member_word(state),
    }
    return render(request, "campaigns/campaign_detail.html", context)


def _own_join(campaign: Campaign, state: CampaignState, user, mine: set[str]) -> JoinForm | None:
    """The organiser plays too: her own gangs, one button away (no invite link needed),
    while the campaign is being set up and until she has joined (a gang of hers that left
    can't join again, so it is not offered)."""
    if state.status != SETUP or mine & set(state.gangs):
        return None
    taken = set()
    if mine:
        gangs = campaign.gangs.filter(player=user, source__isnull=False)
        taken = set(gangs.values_list("source_id", flat=True))
    return JoinForm(user=user, campaign=campaign, taken=taken)


def _when(at: str) -> datetime.datetime | None:
    try:
        moment = datetime.datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return None
    if timezone.is_naive(moment):
        return moment
    return timezone.localtime(moment)


@login_required
def campaign_history(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign(request, campaign_id)
    state = services.state_of(campaign)
    numbers = {e.id: e.number for e in state.encounters}
    groups: list[dict[str, Any]] = []
    for key, lines in groupby(state.log, key=lambda line: line.encounter):
        lines = list(lines)
        if key is None:
            title = _("The campaign")
        elif key in numbers:
            title = _("Encounter %(number)s") % {"number": numbers[key]}
        else:
            title = _("An encounter that was undone")
        groups.append(
            {
                "title": title,
                "encounter": key if key in numbers else None,
                "lines": [{"line": line, "when": _when(line.at)} for line in lines],
            }
        )
    context = {"campaign": campaign, "state": state, "groups": groups}
    return render(request, "campaigns/campaign_history.html", context)


# --------------------------------------------------------------------------- printing


@login_required
def campaign_chronicle(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign(request, campaign_id)
    state = services.state_of(campaign)
    paper = request.GET.get("paper", "a4")
    if paper not in PAPERS:
        paper = "a4"
    try:
        content = chronicle.chronicle_pdf(
            campaign,
            state,
            paper=paper,
            client=client_of(request, f"campaign:{campaign.pk}"),
        )
    except PdfError as error:
        back = reverse("campaign_detail", args=[campaign.pk])
        return pdf_error_page(request, error, gang=campaign, back=back)
    response = HttpResponse(content, content_type="application/pdf")
    name = chronicle.filename(campaign, paper)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def campaign_gang_print(request: HttpRequest, campaign_id: int, gang_id: int) -> HttpResponse:
    """The campaign gang as it stands now: cards, sheet or quick reference."""
    campaign = _campaign(request, campaign_id)
    state = services.state_of(campaign)
    gang = state.gangs.get(str(gang_id))
    if gang is None:
        raise Http404("That gang is not in this campaign.")
    roster = gang.current_roster(state.progression)
    members = [(m["key"], m["name"]) for m in roster["members"]]
    form = PrintForm(request.GET, members=members)
    back = reverse("campaign_gang", args=[campaign.pk, gang.id])
    if not form.is_valid():
        context = {"gang": gang, "form": form, "back": back}
        return render(request, "builder/print_error.html", context, status=400)
    options = form.cleaned_data
    member = options["member"]
    try:
        content, _cached = cached_pdf(
            roster,
            options["kind"],
            paper=options["paper"],
            fronts_only=options["fronts_only"],
            member_key=member or None,
            share_url=links.absolute(back, request),  # SITE_URL's, never the Host's
            client=client_of(request, f"campaign:{campaign.pk}"),
            owner=f"campaign:{campaign.pk}:gang:{gang.id}",
        )
    except PdfError as error:
        return pdf_error_page(request, error, gang=gang, back=back)
    name = dict(members).get(member, "") if member else ""
    response = HttpResponse(content, content_type="application/pdf")
    name_of_file = filename(gang.name, options["kind"], paper=options["paper"], member=name)
    response["Content-Disposition"] = f'attachment; filename="{name_of_file}"'
    return response
