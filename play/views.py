"""Play mode's pages: start a game, the table (one tap per change), the record after it.

Plain typed function views: read the request, validate with a form, call one function of
``play/services.py``, render. Games are found from the user (``games_for``): strangers
get a 404. The table page polls its own URL every 2 s with the version it shows
(``?v=``): while the game is unchanged the answer is an empty 204.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from builder.models import Gang
from campaigns import services as campaign_services
from campaigns.chronicle import happening_text
from campaigns.leagues.forms import ReportForm
from campaigns.leagues.models import Pairing
from campaigns.leagues.services import LeagueError
from common.links import absolute
from play import services
from play.forms import TABLE_SIZES, EncounterRecordForm, StartForm, TapForm
from play.models import Game
from rules import scenarios
from rules.campaign import CampaignError
from rules.play import STATUSES, GameState, MemberTrack, PlayError, match_draft, unnamed_wounds

PAGE_METHODS = ["GET", "HEAD", "POST"]
POLL_SECONDS = 2
LOG_LINES = 12
MAX_BOXES = 8


def _posted(request: HttpRequest):
    """The posted data (even empty: a bound form), or None for a GET."""
    return request.POST if request.method == "POST" else None


def _table_url(game: Game) -> str:
    return reverse("play_game", args=[game.pk])


# --------------------------------------------------------------------------- starting


def _start_page(
    request: HttpRequest,
    what: str,
    form: StartForm,
    existing: Game | None,
    *,
    system: str = "",
    one_side: bool = False,
    location: str = "",
    rolled: str = "",
):
    return render(
        request,
        "play/game_start.html",
        {
            "what": what,
            "form": form,
            "existing": existing,
            "table_sizes": TABLE_SIZES,
            "scenarios": [
                scenarios.lists_for(system).shown(c) for c in scenarios.lists_for(system).scenarios
            ],
            "one_side": one_side,
            "location": location,
            "rolled": rolled,
        },
    )


def _started(request: HttpRequest, form: StartForm, start) -> HttpResponse | None:
    """Run ``start`` with the form's values; the game's table, or None (error on the form)."""
    try:
        game = start(
            scenario=form.cleaned_data["scenario"].strip(),
            table_size=form.cleaned_data["table_size"].strip(),
        )
    except (PlayError, CampaignError) as error:
        form.add_error(None, error.message)
        return None
    return redirect(_table_url(game))


@login_required
@require_http_methods(PAGE_METHODS)
def start_from_gang(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = get_object_or_404(Gang.objects.filter(owner=request.user), pk=gang_id)
    if request.method != "POST" and not request.GET.get("another"):
        # a game with this gang not ended yet: open it (its table offers to start another)
        going = services.games_for(request.user).filter(gang=gang, ended=False).first()
        if going is not None:
            return redirect(_table_url(going))
    form = StartForm(_posted(request))
    if request.method == "POST" and form.is_valid():

        def start(**kw: Any) -> Game:
            return services.start_from_gang(request.user, gang, **kw)

        done = _started(request, form, start)
        if done is not None:
            return done
    return _start_page(request, gang.name, form, None, system=gang.system, one_side=True)


@login_required
@require_http_methods(PAGE_METHODS)
def start_from_encounter(request: HttpRequest, campaign_id: int, encounter_id: int) -> HttpResponse:
    campaign = campaign_services.get_campaign_for_user(request.user, campaign_id)
    try:
        state, enc = services.encounter_of(campaign, encounter_id)
    except CampaignError:
        raise Http404("No such encounter in this campaign.") from None
    existing = services.game_for_encounter(campaign, enc.id)
    if existing is not None and existing.players.filter(pk=request.user.pk).exists():
        return redirect(_table_url(existing))
    form = StartForm(_posted(request), initial={"scenario": enc.scenario})
    if request.method == "POST" and form.is_valid():

        def start(**kw: Any) -> Game:
            return services.start_from_encounter(request.user, campaign, enc.id, **kw)

        done = _started(request, form, start)
        if done is not None:
            return done
    a, b = (state.gangs[g].name for g in enc.gangs)
    what = _("Encounter %(n)d: %(a)s v %(b)s") % {"n": enc.number, "a": a, "b": b}
    location = ""
    if enc.location:  # rolled when the encounter began: shown, not asked again
        location = str(enc.location.get("name") or enc.location.get("label") or "")
    return _start_page(
        request,
        what,
        form,
        existing,
        system=campaign.system,
        location=location,
        rolled=enc.scenario,
    )


@login_required
@require_http_methods(PAGE_METHODS)
def start_from_match(request: HttpRequest, pairing_id: int) -> HttpResponse:
    pairing = get_object_or_404(
        Pairing.objects.select_related("a__player", "b__player", "round__league"),
        pk=pairing_id,
    )
    if pairing.is_bye or request.user.pk not in (pairing.a.player_id, pairing.b.player_id):
        raise Http404("No such match of yours.")
    existing = services.game_for_pairing(pairing)
    if existing is not None and existing.players.filter(pk=request.user.pk).exists():
        return redirect(_table_url(existing))
    form = StartForm(_posted(request))
    if request.method == "POST" and form.is_valid():

        def start(**kw: Any) -> Game:
            return services.start_from_pairing(request.user, pairing, **kw)

        done = _started(request, form, start)
        if done is not None:
            return done
    what = f"{pairing.a.gang_name} v {pairing.b.gang_name}"
    system = pairing.round.league.system
    return _start_page(request, what, form, existing, system=system)


@login_required
@require_http_methods(["GET", "HEAD"])
def game_list(request: HttpRequest) -> HttpResponse:
    games = services.games_for(request.user).only(
        "pk", "name", "source", "snapshot", "system", "version", "updated", "ended", "submitted"
    )
    return render(request, "play/game_list.html", {"games": list(games)})


# --------------------------------------------------------------------------- the table


def _choices(state: GameState, side_id: str) -> list[tuple[str, str]]:
    """Who can have caused a wound to a member of ``side_id``: the other side, in the fight."""
    return [
        (m.ref, m.name)
        for s in state.sides.values()
        if s.id != side_id
        for m in s.members.values()
        if m.in_fight
    ]


def _row_key(state: GameState, m: MemberTrack, causes: list[tuple[str, str]]) -> tuple:
    """Everything a member's tracker draws: equal keys, equal trackers."""
    return (
        m.status,
        tuple(sorted(m.counters.items())),
        tuple((w["amount"], w["red"]) for w in m.wounds),
        m.cause and state.member(m.cause).name,
        m.cash,
        tuple(m.items or ()),
        tuple(causes),
    )


def _row(state: GameState, m: MemberTrack) -> dict[str, Any]:
    tracker = state.tracker
    counters = [
        {
            "spec": c,
            "label": _(c.label),
            "short": m.counter_names.get(c.id) or _(c.short),
            "value": m.counters[c.id],
            "start": m.start[c.id],
            # Health boxes, as on the card's life meter (a handful at most)
            "boxes": [i < m.counters[c.id] for i in range(m.start[c.id])]
            if c.harm and m.start[c.id] <= MAX_BOXES
            else None,
        }
        for c in tracker.counters
        if c.id in m.counters
    ]
    return {
        "m": m,
        "counters": counters,
        "harm_left": m.counters.get(tracker.harm.id, 0),
        "cause": state.member(m.cause).name if m.cause else "",
        "status": _(m.status_label),
        "statuses": [(s, _(STATUSES[s])) for s in tracker.statuses if s != m.status],
    }


def _table_context(
    request: HttpRequest,
    game: Game,
    state: GameState,
    shown: GameState | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The table's context. ``shown``: the state the phone shows; a tracker it already
    shows as it is comes as an empty ``data-keep`` placeholder (app.js's morph keeps it),
    so a tap's answer carries the trackers it changed, not every member's."""
    tracker = state.tracker
    me = request.user.get_username()
    sides = []
    for side in state.sides.values():
        causes = _choices(state, side.id)
        shown_causes = _choices(shown, side.id) if shown is not None else []
        members = []
        for m in side.members.values():
            if shown is not None:
                before = shown.sides[side.id].members[m.key]
                if _row_key(shown, before, shown_causes) == _row_key(state, m, causes):
                    members.append({"m": m, "keep": True})
                    continue
            members.append(_row(state, m))
        sides.append(
            {"side": side, "members": members, "causes": causes, "mine": side.player == me}
        )
    # my side first: the thumb reaches it without scrolling past the enemy
    sides.sort(key=lambda s: not s["mine"])
    return {
        "game": game,
        "state": state,
        "tracker": tracker,
        "sides": sides,
        "log": list(reversed(state.log[-LOG_LINES:])),
        "poll": POLL_SECONDS,
        "turn_word": _(tracker.turn_word),
        "amounts": range(1, 4),
        **extra,
    }


def _shown(request: HttpRequest) -> int | None:
    """The version of the table the phone shows (``v``, sent by the poll and play.js)."""
    try:
        return int(request.POST.get("v") or request.GET.get("v") or "")
    except ValueError:
        return None


def _render_table(
    request: HttpRequest,
    game: Game,
    states: tuple[GameState, GameState | None] | None = None,
    *,
    status: int = 200,
    **extra: Any,
):
    """The table page, or its ``table`` partial for htmx and play.js (``states``: the
    game's state and the one the phone shows, when the caller has them)."""
    if request.htmx:
        state, shown = states or services.states_of(game, _shown(request))
        template = "play/game_table.html#table"
    else:
        state, shown = services.state_of(game), None
        template = "play/game_table.html"
        if game.watch_token:  # the read-only link, shown to this player alone
            extra["watch_url"] = absolute(reverse("play_watch", args=[game.watch_token]), request)
    context = _table_context(request, game, state, shown, **extra)
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET", "HEAD"])
def game_table(request: HttpRequest, game_id: int) -> HttpResponse:
    game = services.get_game_for_user(request.user, game_id)
    sent = request.GET.get("sent", "")
    if request.htmx and sent.isdigit() and len(sent) <= 14:  # the phone's clock, measured
        services.phone_offset(request.user, request.GET.get("phone", ""), int(sent))
    if request.htmx and _shown(request) == game.version:
        return HttpResponse(status=204)  # nothing new: the poll costs one query
    return _render_table(request, game)


def _tap(request: HttpRequest, game: Game, form: TapForm, shown: int | None = None):
    """The form's tap, made when the phone says on the server's clock (services.tap)."""
    cleaned = form.cleaned_data
    phone = cleaned.get("phone") or ""
    offset = services.phone_offset(request.user, phone, cleaned.get("sent"))
    return services.tap(
        game,
        request.user,
        cleaned["kind"],
        cleaned["tap"],
        cleaned.get("client_id", ""),
        shown=shown,
        made_at=form.made(offset),
        phone=phone,
        phone_seq=cleaned.get("phone_seq") or 0,
        seen=cleaned.get("seen"),
    )


def _tap_from_the_record(request: HttpRequest, game: Game, form: TapForm) -> HttpResponse:
    """A tap made from the review of the record (name a wound's cause, leave a line out):
    back to the review, with what was refused said there."""
    if form.is_valid():
        try:
            _tap(request, game, form)
        except PlayError as refused:
            messages.error(request, refused.message)
    else:
        messages.error(request, _("That button does nothing: reload the page."))
    return redirect("play_finish", game.pk)


def _anchor(cleaned: dict[str, Any]) -> str:
    """Where on the table a plain-post tap was made: its member's tracker, the end."""
    member = cleaned.get("member") or ""
    side, _slash, key = member.partition("/")
    if not re.fullmatch(r"[\w-]{1,40}", f"{side}-{key}"):
        return ""
    if side and key and cleaned["kind"] not in ("turn", "ap", "vp", "end", "undo"):
        return f"#trk-{side}-{key}"
    if cleaned["kind"] == "end":
        return "#play-end"
    return ""


@login_required
@require_POST
def game_tap(request: HttpRequest, game_id: int) -> HttpResponse:
    game = services.get_game_for_user(request.user, game_id)
    form = TapForm(request.POST)
    error = ""
    if request.POST.get("back") == "record" and not request.htmx:
        return _tap_from_the_record(request, game, form)
    if form.is_valid():
        try:
            state, shown, _new = _tap(request, game, form, _shown(request))
        except PlayError as refused:
            error = refused.message
        else:
            if not request.htmx:
                # without JavaScript: the page comes back where the tap was made
                return redirect(_table_url(game) + _anchor(form.cleaned_data))
            held = state.held_tap(game.version) if _new else None
            if held is not None:  # kept, not counted: said where the player is
                error = _(
                    "That tap no longer fits where it was made: %(reason)s It waits on top "
                    "of the table, to keep or drop."
                ) % {"reason": held.reason}
                return _render_table(request, game, (state, shown), error=error)
            return _render_table(request, game, (state, shown))
    else:
        error = " ".join(str(e) for errors in form.errors.values() for e in errors)
    error = _("That tap was not counted: %(reason)s") % {"reason": error}
    # refused: the table as it is, the reason on top (status 200, as an invalid form)
    return _render_table(request, game, error=error)


# --------------------------------------------------------------------------- after the game


def _finish_context(game: Game, state: GameState) -> dict[str, Any]:
    return {"game": game, "state": state, "log": state.log}


@login_required
@require_http_methods(PAGE_METHODS)
def game_finish(request: HttpRequest, game_id: int) -> HttpResponse:
    """The record the game drafts, to review and submit (the opponent confirms it where
    such records are confirmed: the encounter's page, the match's page)."""
    game = services.get_game_for_user(request.user, game_id)
    state = services.state_of(game)
    context = _finish_context(game, state)
    if game.source == Game.ENCOUNTER:
        return _finish_encounter(request, game, state, context)
    if game.source == Game.MATCH:
        return _finish_match(request, game, state, context)
    return render(request, "play/game_finish.html", context)


def _finish_encounter(request, game: Game, state: GameState, context) -> HttpResponse:
    gangs = services.sides_gangs(game)
    sides = [(gangs[s.id], s.name) for s in state.sides.values()]
    initial = {"winner": gangs.get(state.winner, "draw") if state.winner else ""}
    form = EncounterRecordForm(request.POST or None, sides=sides, initial=initial)
    error = ""
    if request.method == "POST" and form.is_valid():
        winner = form.cleaned_data["winner"]
        try:
            services.submit_encounter(
                game,
                request.user,
                winner="" if winner == "draw" else winner,
                notes=form.cleaned_data["notes"],
            )
        except (CampaignError, PlayError) as refused:
            error = refused.message
        else:
            messages.success(
                request,
                _("Record submitted: your opponent confirms it on the encounter's page."),
            )
            return redirect("encounter_detail", game.campaign_id, game.encounter)
    lines: list[str] = []
    awards: list[tuple[str, int, str]] = []
    refused_lines: list[services.RefusedLine] = []
    try:
        campaign_state, enc = services.encounter_of(game.campaign, game.encounter)
        winner = initial["winner"] if initial["winner"] in gangs.values() else ""
        _data, checked, refused_lines = services.checked_encounter_record(
            game, state, request.user, winner, ""
        )
        if checked is not None:
            lines = [happening_text(campaign_state, h) for h in checked["happenings"]]
            # what the campaign will make of it (reputation, experience): computed, not typed
            enc.happenings, enc.winner = checked["happenings"], checked["winner"]
            awards = [
                (campaign_state.member(a.member).name, a.amount, a.reason)
                for a in campaign_state.progression.awards(campaign_state, enc)
            ]
    except CampaignError as refused:
        error = error or refused.message
    context.update(
        form=form,
        lines=lines,
        awards=awards,
        error=error,
        kind="encounter",
        refused_lines=refused_lines,
        unnamed=_unnamed(state),
    )
    return render(request, "play/game_finish.html", context)


def _unnamed(state: GameState) -> list[dict[str, Any]]:
    """The wounds with nobody named as their cause, each with who could have caused it
    (to name them from the review)."""
    out = []
    for h in unnamed_wounds(state):
        victim = state.member(h["to"])
        causes = [
            (m.ref, m.name)
            for s in state.sides.values()
            if s.id != victim.side
            for m in s.members.values()
        ]
        text = next((line.text for line in state.log if line.seq == h.get("seq")), victim.name)
        out.append({"seq": h.get("seq"), "text": text, "causes": causes})
    return out


def _finish_match(request, game: Game, state: GameState, context) -> HttpResponse:
    pairing = game.pairing
    draft = match_draft(state)
    initial = {**draft, "scenario": game.scenario[:80]}
    form = ReportForm(request.POST or None, pairing=pairing, initial=initial)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            services.submit_match(game, request.user, form.values())
        except (LeagueError, PlayError) as refused:
            error = refused.message
        else:
            messages.success(
                request, _("Result reported: your opponent confirms it on the match's page.")
            )
            return redirect("match_detail", pairing.round.league_id, pairing.pk)
    context.update(form=form, error=error, kind="match")
    return render(request, "play/game_finish.html", context)
