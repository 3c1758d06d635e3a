"""The club pages and a league's set-up: clubs, members and roles, joining by link, a
league's settings, registering a gang, and the rounds (pairing, swapping, finishing).

Thin views: read the request, validate with a form, call one service (one transaction),
render. Every club and league URL starts from the user's own memberships (anyone else
gets a 404), except the join page, reached by its invite link. Only organisers manage
(403 for members). A refusal (``LeagueError``) is shown beside the field it names, or at
the top of the page: status 200, never a 500. The standings are in ``views/leagues.py``,
a match's page in ``views/matches.py``.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, F, Max, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from builder.models import Gang, Member, MemberItem
from builder.roster import gang_roster
from campaigns.access import PAGE_METHODS, login_required, post_only
from campaigns.leagues import services
from campaigns.leagues.forms import (
    ClubForm,
    ConfirmForm,
    LeagueForm,
    RegisterForm,
    RoleForm,
    SwapForm,
    swap_choices,
)
from campaigns.leagues.models import (
    Club,
    ClubMember,
    League,
    MatchReport,
    Pairing,
    Registration,
)
from campaigns.leagues.services import LeagueError
from campaigns.views import link_gone
from common import links  # SITE_URL's links, never the Host's
from common.sorting import name_key
from rules import get_system


def _league(request: HttpRequest, league_id: int) -> League:
    """A league of one of the user's clubs (anyone else: 404), with the user's role in the
    club as ``my_role``, in one query."""
    leagues = (
        League.objects.filter(club__members__user=request.user)
        .select_related("club", "campaign")
        .annotate(my_role=F("club__members__role"))
    )
    return get_object_or_404(leagues, pk=league_id)


def _require_organiser(role: str | None) -> None:
    if role != ClubMember.ORGANISER:
        raise PermissionDenied("Only the club's organisers can do that.")


def _field(form, error: LeagueError) -> str | None:
    return error.field if error.field in form.fields else None


# --------------------------------------------------------------------------- clubs


@login_required
def club_list(request: HttpRequest) -> HttpResponse:
    memberships = (
        ClubMember.objects.filter(user=request.user)
        .select_related("club")
        .annotate(
            member_count=Count("club__members", distinct=True),
            running=Count(
                "club__leagues", filter=Q(club__leagues__status=League.RUNNING), distinct=True
            ),
            open=Count(
                "club__leagues",
                filter=Q(club__leagues__status=League.REGISTRATION),
                distinct=True,
            ),
        )
        .order_by("club__name", "club_id")
    )
    memberships = sorted(memberships, key=lambda m: name_key(m.club.name))  # "Éclair" by E
    return render(request, "leagues/club_list.html", {"memberships": memberships})


@login_required
@require_http_methods(PAGE_METHODS)
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.create_club(
            request.user, name=form.cleaned_data["name"], about=form.cleaned_data["about"]
        )
        messages.success(
            request,
            _("“%(name)s” is set up. Send the invite link to members.") % {"name": club.name},
        )
        return redirect("club_detail", club_id=club.pk)
    return render(request, "leagues/club_form.html", {"form": form})


def _club_page(
    request: HttpRequest,
    club: Club,
    *,
    role_error: tuple[int, str] | None = None,
    leave_error: str = "",
    status: int = 200,
) -> HttpResponse:
    members = sorted(
        club.members.select_related("user").order_by("-role", "user__username"),
        key=lambda m: (m.role != ClubMember.ORGANISER, name_key(m.user.get_username())),
    )
    me = next((m for m in members if m.user_id == request.user.pk), None)
    organiser = me is not None and me.role == ClubMember.ORGANISER
    # every player entered, dropped, withdrawn or gone from the club too (a withdrawal
    # before play removes the registration: they never played)
    leagues = club.leagues.annotate(
        registered=Count("registrations", distinct=True),
        last_round=Max("round_set__number"),
    ).order_by("-created", "-pk")
    rows = []
    for league in leagues:
        rows.append(
            {
                "league": league,
                "system": get_system(league.system),
                "round": league.last_round or 0,
                "planned": league.planned_rounds(league.registered),
            }
        )
    context = {
        "club": club,
        "members": members,
        "me": me,
        "is_organiser": organiser,
        "organisers": sum(1 for m in members if m.role == ClubMember.ORGANISER),
        "leagues": rows,
        "roles": ClubMember.ROLES,
        "role_error": role_error,
        "leave_error": leave_error,
        "others": [m for m in members if m.user_id != request.user.pk and m.user.is_active],
        "invite_url": links.absolute(reverse("club_join", args=[club.invite_token]), request)
        if organiser
        else "",
    }
    return render(request, "leagues/club_detail.html", context, status=status)


@login_required
def club_detail(request: HttpRequest, club_id: int) -> HttpResponse:
    club = services.get_club_for_user(request.user, club_id)
    return _club_page(request, club)


@login_required
@post_only("club_detail")
def club_member_role(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    club = services.get_club_for_user(request.user, club_id)
    _require_organiser(services.role_of(club, request.user))
    member = get_object_or_404(club.members.select_related("user"), pk=member_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _club_page(request, club, role_error=(member.pk, _("Choose organiser or member.")))
    try:
        member = services.set_role(club, member, form.cleaned_data["role"], by=request.user)
    except LeagueError as error:
        return _club_page(request, club, role_error=(member.pk, error.message))
    messages.success(
        request,
        _("%(user)s is now %(role)s.")
        % {"user": member.user.get_username(), "role": str(member.get_role_display()).lower()},
    )
    return redirect(reverse("club_detail", args=[club.pk]) + "#members")


@login_required
@post_only("club_detail")
def club_member_remove(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    """An organiser removes a member (not themselves: they leave; not the last
    organiser). The member's results stay in the standings."""
    club = services.get_club_for_user(request.user, club_id)
    _require_organiser(services.role_of(club, request.user))
    member = get_object_or_404(club.members.select_related("user"), pk=member_id)
    try:
        services.remove_member(club, member, request.user)
    except LeagueError as error:
        return _club_page(request, club, role_error=(member.pk, error.message))
    messages.success(
        request,
        _(
            "%(user)s is no longer a member of the club; their results stay in the "
            "leagues' standings."
        )
        % {"user": member.user.get_username()},
    )
    return redirect(reverse("club_detail", args=[club.pk]) + "#members")


@login_required
@post_only("club_detail")
def club_leave(request: HttpRequest, club_id: int) -> HttpResponse:
    """Any member leaves the club; the last organiser is told to hand it over first."""
    club = services.get_club_for_user(request.user, club_id)
    try:
        services.leave_club(club, request.user)
    except LeagueError as error:
        return _club_page(request, club, leave_error=error.message)
    messages.success(
        request,
        _("You left “%(name)s”; your results stay in its leagues' standings.")
        % {"name": club.name},
    )
    return redirect("club_list")


@login_required
@post_only("club_detail")
def club_hand_over(request: HttpRequest, club_id: int) -> HttpResponse:
    """An organiser hands the club over to a member: they organise it, and the one who
    handed it over is a member from then on."""
    club = services.get_club_for_user(request.user, club_id)
    _require_organiser(services.role_of(club, request.user))
    try:
        member_id = int(request.POST.get("member", ""))
    except ValueError:
        member_id = 0
    member = club.members.select_related("user").filter(pk=member_id).first()
    if member is None:
        return _club_page(request, club, leave_error=_("Choose the member to hand the club to."))
    try:
        services.hand_over(club, member, request.user)
    except LeagueError as error:
        return _club_page(request, club, leave_error=error.message)
    messages.success(
        request,
        _("%(user)s now organises “%(name)s” and has been told; you are a member.")
        % {"user": member.user.get_username(), "name": club.name},
    )
    return redirect(reverse("club_detail", args=[club.pk]) + "#members")


@login_required
@post_only("club_detail")
def club_invite_reset(request: HttpRequest, club_id: int) -> HttpResponse:
    """A new invite link (an organiser's): the old one says it is no longer valid."""
    club = services.get_club_for_user(request.user, club_id)
    _require_organiser(services.role_of(club, request.user))
    services.reset_invite(club)
    messages.success(request, _("The old invite link no longer works; here is the new one."))
    return redirect(reverse("club_detail", args=[club.pk]) + "#invite")


@login_required
@require_http_methods(PAGE_METHODS)
def club_join(request: HttpRequest, token: str) -> HttpResponse:
    club = Club.objects.filter(invite_token=token).first()
    if club is None:
        return link_gone(request, _("invite link"))
    membership = ClubMember.objects.filter(club=club, user=request.user).first()
    if request.method == "POST":
        if membership is None:
            services.join_club(club, request.user)
            messages.success(request, _("You joined “%(name)s”.") % {"name": club.name})
        else:
            messages.info(
                request, _("You are already a member of “%(name)s”.") % {"name": club.name}
            )
        return redirect("club_detail", club_id=club.pk)
    context = {
        "club": club,
        "membership": membership,
        "member_count": club.members.count(),
        "organisers": club.members.filter(role=ClubMember.ORGANISER)
        .select_related("user")
        .order_by("user__username"),
    }
    return render(request, "leagues/club_join.html", context)


# --------------------------------------------------------------------------- league set-up


def _league_form_page(request, form, *, club: Club, league: League | None = None):
    context = {"form": form, "club": club, "league": league}
    return render(request, "leagues/league_form.html", context)


@login_required
@require_http_methods(PAGE_METHODS)
def league_create(request: HttpRequest, club_id: int) -> HttpResponse:
    club = services.get_club_for_user(request.user, club_id)
    _require_organiser(services.role_of(club, request.user))
    form = LeagueForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.create_league(club, **form.league_fields())
        except LeagueError as error:
            form.add_error(_field(form, error), error.message)
        else:
            messages.success(
                request,
                _("“%(name)s” is open for registration: tell the club's members.")
                % {"name": league.name},
            )
            return redirect("league_detail", league_id=league.pk)
    return _league_form_page(request, form, club=club)


@login_required
@require_http_methods(PAGE_METHODS)
def league_settings(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    _require_organiser(league.my_role)
    form = LeagueForm(request.POST or None, user=request.user, league=league)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_league(league, **form.league_fields())
        except LeagueError as error:
            form.add_error(_field(form, error), error.message)
        else:
            messages.success(request, gettext_lazy("The league's settings are saved."))
            return redirect("league_detail", league_id=league.pk)
    return _league_form_page(request, form, club=league.club, league=league)


@login_required
@post_only("league_detail")
def league_public_reset(request: HttpRequest, league_id: int) -> HttpResponse:
    """A new public link (an organiser's): the old one says it is no longer valid."""
    league = _league(request, league_id)
    _require_organiser(league.my_role)
    services.reset_public_link(league)
    messages.success(request, _("The old public link no longer works; here is the new one."))
    return redirect(reverse("league_detail", args=[league.pk]) + "#organiser")


# --------------------------------------------------------------------------- registering


def _score_words(total: int, label: str) -> str:
    return _("%(total)s %(label)s") % {
        "total": total,
        "label": label if label in ("Fame", "CCP") else label.lower(),
    }


def _gang_choices(league: League, user) -> list[dict[str, Any]]:
    """The user's gangs of the league's game, each with its total and what (if anything)
    makes it illegal under the league's cap; three queries however many gangs."""
    members = Member.objects.prefetch_related(
        Prefetch("member_items", queryset=MemberItem.objects.select_related("item"))
    ).order_by("position", "pk")
    gangs = (
        Gang.objects.filter(owner=user, system=league.system)
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("name", "pk")
    )
    system = get_system(league.system)
    out = []
    for gang in gangs:
        roster_members = list(gang.members.all())
        problems = services.check_gang(league, gang, roster_members)
        total = system.evaluate(gang_roster(gang, roster_members)).total
        score = _score_words(total, system.total_label)
        label = (
            _("%(gang)s — %(score)s, legal")
            if not problems
            else _("%(gang)s — %(score)s, illegal under the cap")
        ) % {"gang": gang.name, "score": score}
        out.append(
            {"gang": gang, "score": score, "problems": problems, "label": label, "pk": gang.pk}
        )
    return out


def _closed(league: League, registration: Registration | None) -> str:
    """Why the user can't register (or change gang) now."""
    if league.status == League.FINISHED:
        return _("The league is finished.")
    if registration is not None:
        return _("You are registered; the gang can't change once play starts.")
    return _("The round robin has started: nobody can join it now.")


@login_required
@require_http_methods(PAGE_METHODS)
def league_register(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    registration = (
        Registration.objects.filter(league=league, player=request.user)
        .select_related("gang", "campaign_gang")
        .first()
    )
    gangs = _gang_choices(league, request.user)
    # late entries join a Swiss league; a round robin's schedule is set by its first round
    late = league.status == League.RUNNING and registration is None
    can_register = league.status == League.REGISTRATION or (late and league.pairing == League.SWISS)
    initial = {}
    if registration is not None:
        initial = {"gang": registration.gang_id, "campaign_gang": registration.campaign_gang_id}
    form = RegisterForm(
        request.POST if request.method == "POST" else None,
        initial=initial,
        league=league,
        user=request.user,
        gangs=[(g["pk"], g["label"]) for g in gangs],
        eligible=[(g["pk"], g["gang"].name) for g in gangs if not g["problems"]],
    )
    if request.method == "POST" and can_register and form.is_valid():
        gang = next(g["gang"] for g in gangs if g["pk"] == form.cleaned_data["gang"])
        try:
            services.register(league, request.user, gang, form.cleaned_data.get("campaign_gang"))
        except LeagueError as error:
            form.add_error(_field(form, error), error.message)
        else:
            if registration is not None:
                message = _("You now play with “%(gang)s” in “%(league)s”.")
            else:
                message = _("You registered “%(gang)s” in “%(league)s”.")
            messages.success(request, message % {"gang": gang.name, "league": league.name})
            return redirect("league_detail", league_id=league.pk)
    elif request.method == "POST" and not can_register:
        form.add_error(None, _closed(league, registration))
    system = get_system(league.system)
    context = {
        "league": league,
        "system": system,
        "registration": registration,
        "gangs": gangs,
        "form": form,
        "can_register": can_register,
        "closed": "" if can_register else _closed(league, registration),
        "has_campaign_gangs": bool(form.campaign_gangs),
        "cap_help": _(system.cap_help) if system.cap_help else "",
        "problems": services.problem_sentences(registration.problems.splitlines())
        if registration is not None
        else [],
    }
    return render(request, "leagues/league_register.html", context)


@login_required
@post_only("league_register")
def league_withdraw(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    registration = get_object_or_404(
        Registration.objects.select_related("league"), league=league, player=request.user
    )
    if league.status == League.FINISHED:
        messages.error(
            request, gettext_lazy("The league is finished: its standings stay as they are.")
        )
    elif registration.dropped:
        messages.info(request, gettext_lazy("You have already withdrawn."))
    else:
        before_play = league.status == League.REGISTRATION
        services.withdraw(registration)
        messages.success(
            request,
            gettext_lazy("You left the league.")
            if before_play
            else gettext_lazy(
                "You withdrew: you are paired no more; your results stay in the standings."
            ),
        )
    return redirect("league_detail", league_id=league.pk)


@login_required
@post_only("league_detail")
def league_drop(request: HttpRequest, league_id: int, registration_id: int) -> HttpResponse:
    """The organiser drops a player (``how=drop``) or disqualifies them
    (``how=disqualify``): paired no more, their results stand."""
    league = _league(request, league_id)
    _require_organiser(league.my_role)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), league=league, pk=registration_id
    )
    disqualify = request.POST.get("how") == "disqualify"
    try:
        services.drop(registration, request.user, disqualify=disqualify)
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        what = {"gang": registration.gang_name, "player": registration.player.get_username()}
        messages.success(
            request,
            (
                _(
                    "%(gang)s (%(player)s) is disqualified: paired no more; the results "
                    "played stand."
                )
                if disqualify
                else _(
                    "%(gang)s (%(player)s) is dropped: paired no more; the results played "
                    "stand. You can bring them back before the next pairing."
                )
            )
            % what,
        )
    return redirect("league_player", league_id=league.pk, registration_id=registration.pk)


@login_required
@post_only("league_detail")
def league_reinstate(request: HttpRequest, league_id: int, registration_id: int) -> HttpResponse:
    """The organiser brings a dropped player back: paired from the next round on."""
    league = _league(request, league_id)
    _require_organiser(league.my_role)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), league=league, pk=registration_id
    )
    try:
        services.reinstate(registration, request.user)
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("%(gang)s is back: paired again from the next round.")
            % {"gang": registration.gang_name},
        )
    back = request.POST.get("back")
    if back == "rounds":
        return redirect(reverse("league_rounds", args=[league.pk]) + "#next-title")
    return redirect("league_player", league_id=league.pk, registration_id=registration.pk)


# --------------------------------------------------------------------------- rounds


def _rounds_page(
    request: HttpRequest,
    league: League,
    *,
    error: str = "",
    swap_form: tuple[int, SwapForm] | None = None,
    confirm_finish: bool = False,
) -> HttpResponse:
    pairings = list(
        Pairing.objects.filter(round__league=league)
        .select_related("round", "a__player", "b__player", "report")
        .order_by("round__number", "table")
    )
    organiser = league.my_role == ClubMember.ORGANISER
    running = league.status != League.FINISHED
    rounds = []
    for number, group in groupby(pairings, key=lambda p: p.round.number):
        tables = []
        for p in group:
            report = getattr(p, "report", None)
            tables.append(
                {
                    "p": p,
                    "report": report,
                    "counts": report is not None and report.counts,
                    "mine": request.user.pk in (p.a.player_id, p.b.player_id if p.b else None),
                }
            )
        matches = [t for t in tables if not t["p"].is_bye]
        reported = sum(1 for t in matches if t["report"] is not None)
        form = None
        if swap_form is not None and swap_form[0] == number:
            form = swap_form[1]  # as posted, with its errors
        elif organiser and running and reported == 0 and len(tables) > 1:
            form = SwapForm(
                players=swap_choices([t["p"] for t in tables]), auto_id=f"swap-{number}-%s"
            )
        rounds.append(
            {
                "number": number,
                "tables": tables,
                "matches": len(matches),
                "counted": sum(1 for t in matches if t["counts"]),
                "reported": reported,
                "swap_form": form,
            }
        )
    last = rounds[-1] if rounds else None
    registrations = list(league.registrations.order_by("pk").select_related("player", "gang"))
    everyone = [(r.pk, r.dropped) for r in registrations]
    active = sum(1 for _pk, dropped in everyone if not dropped)
    planned = league.planned_rounds(len(everyone))
    met = [(p.a_id, p.b_id) for p in pairings]
    missing = None
    if last is not None and last["counted"] < last["matches"]:
        games = [t for t in last["tables"] if not t["p"].is_bye]
        statuses = [t["report"].status for t in games if t["report"] is not None]
        missing = {
            "count": last["matches"] - last["counted"],
            "text": services.missing_text(
                last["number"],
                sum(1 for t in games if t["report"] is None),
                statuses.count(MatchReport.SUBMITTED),
                statuses.count(MatchReport.DISPUTED),
            ),
        }
    illegal = [
        {"reg": r, "problems": services.problem_sentences(r.problems.splitlines())}
        for r in registrations
        if not r.dropped and not r.legal
    ]
    mine = next((r for r in registrations if r.player_id == request.user.pk), None)
    context = {
        "league": league,
        "system": get_system(league.system),
        # the round under way first, then the earlier ones, newest first
        "rounds": rounds[::-1],
        "played": len(rounds),
        "is_organiser": organiser,
        "next_number": (last["number"] if last else 0) + 1,
        "last_complete": last is None or last["counted"] == last["matches"],
        "missing": missing,
        "illegal": illegal,
        "illegal_ids": {i["reg"].pk for i in illegal},
        "dropped": [r for r in registrations if r.dropped],
        "registration": mine,
        "all_paired": last is not None
        and (last["number"] >= planned or services.round_robin_done(league, everyone, met)),
        "planned": planned,
        "active": active,
        "error": error,
        "confirm_finish": confirm_finish,
    }
    return render(request, "leagues/league_rounds.html", context)


@login_required
def league_rounds(request: HttpRequest, league_id: int) -> HttpResponse:
    return _rounds_page(request, _league(request, league_id))


@login_required
@post_only("league_rounds")
def league_next_round(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    _require_organiser(league.my_role)
    try:
        new = services.next_round(league)
    except LeagueError as error:
        # back to the rounds page with why (a reload shows it, and posts nothing again)
        messages.error(request, error.message)
        return redirect(reverse("league_rounds", args=[league.pk]) + "#next-title")
    tables = new.pairings.count()
    messages.success(
        request,
        ngettext(
            "Round %(number)s is paired: %(count)s table.",
            "Round %(number)s is paired: %(count)s tables.",
            tables,
        )
        % {"number": new.number, "count": tables},
    )
    return redirect(reverse("league_rounds", args=[league.pk]) + f"#round-{new.number}")


@login_required
@post_only("league_rounds")
def league_swap(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    league = _league(request, league_id)
    _require_organiser(league.my_role)
    pairings = list(
        Pairing.objects.filter(round__league=league, round__number=number).select_related(
            "a__player", "b__player"
        )
    )
    if not pairings:
        raise Http404("No such round.")
    form = SwapForm(request.POST, players=swap_choices(pairings), auto_id=f"swap-{number}-%s")
    if form.is_valid():
        by_table = {p.table: p for p in pairings}
        (t1, side1), (t2, side2) = (
            SwapForm.split(form.cleaned_data["first"]),
            SwapForm.split(form.cleaned_data["second"]),
        )
        try:
            services.swap(by_table[t1], by_table[t2], mine=side1, theirs=side2)
        except LeagueError as error:
            form.add_error(_field(form, error) or "second", error.message)
        else:
            messages.success(
                request, _("Round %(number)s: the two players swapped tables.") % {"number": number}
            )
            return redirect(reverse("league_rounds", args=[league.pk]) + f"#round-{number}")
    return _rounds_page(request, league, swap_form=(number, form))


@login_required
@post_only("league_rounds")
def league_finish(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    _require_organiser(league.my_role)
    if league.status == League.FINISHED:
        messages.info(request, gettext_lazy("The league is already finished."))
        return redirect("league_detail", league_id=league.pk)
    form = ConfirmForm(request.POST)
    if not (form.is_valid() and form.cleaned_data["confirm"]):
        return _rounds_page(request, league, confirm_finish=True)
    try:
        services.finish(league)
    except LeagueError as error:
        return _rounds_page(request, league, error=error.message)
    messages.success(
        request, _("“%(name)s” is finished: the standings are final.") % {"name": league.name}
    )
    return redirect("league_detail", league_id=league.pk)
