"""A match's page and the steps of its report: report, confirm, dispute, settle.

Thin views: read the request, validate with a form (``campaigns/leagues/forms.py``), call
one service (``campaigns/leagues/services.py``, each one transaction), render. A
``LeagueError`` is shown beside the field it names (or at the top), with status 200.

Who does what: only the club's members see a match (404 for anyone else); only organisers
settle results (403 for members); a player reports, confirms or disputes only their own
matches (403).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from campaigns.access import login_required
from campaigns.leagues import services
from campaigns.leagues.board import STATUS_LABELS, is_organiser, member_league
from campaigns.leagues.forms import DisputeForm, ReportForm, SettleForm, report_initial
from campaigns.leagues.models import League, MatchReport, Pairing
from common.names import player_name

READ_METHODS = ["GET", "HEAD"]
STEPS = ("report", "confirm", "dispute", "settle")
#: the settle form's fields are named "settle-…": an organiser who plays may see both forms
SETTLE_PREFIX = "settle"


@dataclass
class Seat:
    """Who looks at which table: their side ("a", "b" or None) and role."""

    league: League
    pairing: Pairing
    report: MatchReport | None
    side: str | None
    organiser: bool


def _seat(request: HttpRequest, league_id: int, pairing_id: int) -> Seat:
    league = member_league(request.user, league_id)
    pairing = get_object_or_404(
        Pairing.objects.select_related("round", "a__player", "b__player", "report__submitted_by"),
        pk=pairing_id,
        round__league=league,
    )
    pairing.round.league = league
    report = getattr(pairing, "report", None)
    return Seat(
        league,
        pairing,
        report,
        services.side_of(pairing, request.user),
        is_organiser(league),
    )


def _scenarios(league: League) -> list[str]:
    """Scenarios already played in this league, to suggest."""
    return list(
        MatchReport.objects.filter(pairing__round__league=league)
        .exclude(scenario="")
        .order_by("scenario")
        .values_list("scenario", flat=True)
        .distinct()[:40]
    )


def _match_page(
    request: HttpRequest,
    seat: Seat,
    *,
    report_form: ReportForm | None = None,
    dispute_form: DisputeForm | None = None,
    settle_form: SettleForm | None = None,
    error: str = "",
) -> HttpResponse:
    pairing, report, user = seat.pairing, seat.report, request.user
    status = report.status if report else None
    mine = report is not None and report.submitted_by_id == user.pk
    bye = pairing.is_bye
    can_report = (
        seat.side is not None
        and not bye
        and (status is None or (status == MatchReport.SUBMITTED and mine))
    )
    can_answer = seat.side is not None and status == MatchReport.SUBMITTED and not mine
    can_settle = seat.organiser and not bye
    scenarios = _scenarios(seat.league) if (can_report or can_settle) else []
    if can_report and report_form is None:
        report_form = ReportForm(
            pairing=pairing, scenarios=scenarios, initial=report_initial(report)
        )
    if can_answer and dispute_form is None:
        dispute_form = DisputeForm()
    if can_settle and settle_form is None:
        initial = report_initial(report)
        if report is not None:
            initial["note"] = report.settled_note
        settle_form = SettleForm(
            pairing=pairing, scenarios=scenarios, initial=initial, prefix=SETTLE_PREFIX
        )
    opponent = None
    if seat.side == "a" and not bye:
        opponent = pairing.b
    elif seat.side == "b":
        opponent = pairing.a
    waiting_for = None
    if status == MatchReport.SUBMITTED and not bye:
        submitter_is_a = report.submitted_by_id == pairing.a.player_id
        waiting_for = (pairing.b if submitter_is_a else pairing.a).player
    # a match that waits on a former member (a result for them to confirm, or nothing
    # reported) is the organiser's to settle: the to-do list links here, the form open
    left = not bye and not (pairing.a.player.is_active and pairing.b.player.is_active)
    settle_open = left and (
        status is None or (status == MatchReport.SUBMITTED and not waiting_for.is_active)
    )
    winner_fewer_vp = report is not None and (
        (report.winner == "a" and report.vp_a < report.vp_b)
        or (report.winner == "b" and report.vp_b < report.vp_a)
        or (report.winner == "draw" and report.vp_a != report.vp_b)
    )
    context = {
        "league": seat.league,
        "pairing": pairing,
        "report": report,
        "side": seat.side,
        "opponent": opponent,
        "is_organiser": seat.organiser,
        "mine": mine,
        "report_form": report_form if can_report else None,
        "dispute_form": dispute_form if can_answer else None,
        "settle_form": settle_form if can_settle else None,
        "scenarios": scenarios,
        "winner_fewer_vp": winner_fewer_vp,
        "settle_open": settle_open,
        "waiting_for": waiting_for,
        "winner_name": _winner_name(pairing, report),
        "error": error,
        "status_label": STATUS_LABELS.get(status, "") if status else "",
        "history": list(report.history.select_related("by")) if report is not None else [],
    }
    return render(request, "leagues/match_detail.html", context)


def _winner_name(pairing: Pairing, report: MatchReport | None) -> str:
    if report is None:
        return ""
    if report.winner == "draw":
        return _("Draw")
    reg = pairing.a if report.winner == "a" else pairing.b
    if reg is None:
        return ""
    return _("%(gang)s (%(player)s) won") % {
        "gang": reg.gang_name,
        "player": player_name(reg.player),
    }


@login_required
@require_http_methods(READ_METHODS)
def match_detail(request: HttpRequest, league_id: int, pairing_id: int) -> HttpResponse:
    return _match_page(request, _seat(request, league_id, pairing_id))


def _to_match(seat: Seat) -> HttpResponse:
    return redirect("match_detail", league_id=seat.league.pk, pairing_id=seat.pairing.pk)


def _field_error(form, error: services.LeagueError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


@login_required
def match_step(request: HttpRequest, league_id: int, pairing_id: int, step: str) -> HttpResponse:
    """POST one step of a match report: report, confirm, dispute or settle. A GET (a
    reload, or back from the login page) goes to the match."""
    if request.method in READ_METHODS:
        if step not in STEPS:
            raise Http404("No such step.")
        return redirect("match_detail", league_id=league_id, pairing_id=pairing_id)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if step not in STEPS:
        raise Http404("No such step.")
    seat = _seat(request, league_id, pairing_id)
    return {
        "report": _step_report,
        "confirm": _step_confirm,
        "dispute": _step_dispute,
        "settle": _step_settle,
    }[step](request, seat)


def _step_report(request: HttpRequest, seat: Seat) -> HttpResponse:
    if seat.side is None:
        raise PermissionDenied("You can only report your own matches.")
    form = ReportForm(request.POST, pairing=seat.pairing, scenarios=_scenarios(seat.league))
    if not form.is_valid():
        return _match_page(request, seat, report_form=form)
    try:
        services.submit_report(seat.pairing, request.user, form.values())
    except services.LeagueError as error:
        report = seat.report
        if seat.pairing.is_bye or (
            report is not None
            and (
                report.status != MatchReport.SUBMITTED or report.submitted_by_id != request.user.pk
            )
        ):  # no report form on the page: the message goes at the top
            return _match_page(request, seat, error=error.message)
        _field_error(form, error)
        return _match_page(request, seat, report_form=form)
    opponent = seat.pairing.b if seat.side == "a" else seat.pairing.a
    messages.success(
        request,
        _("Result reported: waiting for %(opponent)s to confirm it.")
        % {"opponent": player_name(opponent.player)},
    )
    return _to_match(seat)


def _step_confirm(request: HttpRequest, seat: Seat) -> HttpResponse:
    if seat.side is None:
        raise PermissionDenied("Only the players of this match confirm its result.")
    if seat.report is None:
        return _match_page(request, seat, error=_("Nothing is reported yet."))
    try:
        note = services.confirm_report(seat.report, request.user)
    except services.LeagueError as error:
        return _match_page(request, seat, error=error.message)
    messages.success(request, gettext_lazy("Result confirmed: it counts in the standings."))
    if note:
        messages.info(request, note)
    return _to_match(seat)


def _step_dispute(request: HttpRequest, seat: Seat) -> HttpResponse:
    if seat.side is None:
        raise PermissionDenied("Only the players of this match dispute its result.")
    form = DisputeForm(request.POST)
    if seat.report is None:
        return _match_page(request, seat, error=_("Nothing is reported yet."))
    if not form.is_valid():
        return _match_page(request, seat, dispute_form=form)
    try:
        services.dispute_report(seat.report, request.user, form.cleaned_data["reason"])
    except services.LeagueError as error:
        if error.field == "reason":
            _field_error(form, error)
            return _match_page(request, seat, dispute_form=form)
        return _match_page(request, seat, error=error.message)
    messages.success(request, gettext_lazy("Result disputed: the organiser settles it."))
    return _to_match(seat)


def _step_settle(request: HttpRequest, seat: Seat) -> HttpResponse:
    if not seat.organiser:
        raise PermissionDenied("Only the club's organisers settle results.")
    if seat.pairing.is_bye:
        return _match_page(request, seat, error=_("A bye has no result to settle."))
    form = SettleForm(
        request.POST, pairing=seat.pairing, scenarios=_scenarios(seat.league), prefix=SETTLE_PREFIX
    )
    if not form.is_valid():
        return _match_page(request, seat, settle_form=form)
    report = seat.report or MatchReport(pairing=seat.pairing)
    try:
        _report, note = services.settle_report(
            report, request.user, form.values(), form.cleaned_data["note"]
        )
    except services.LeagueError as error:
        _field_error(form, error)
        return _match_page(request, seat, settle_form=form)
    messages.success(request, gettext_lazy("Result settled: it counts in the standings."))
    if note:
        messages.info(request, note)
    return _to_match(seat)
