"""Encounters, the steps after them, and a campaign gang's page.

Thin views: read the request, check who is asking (``campaigns.access``), call
``services.record`` with one event, render. The rules engine (``rules.campaign``) says
whether an event is allowed; its refusal (:class:`CampaignError`) is shown beside the
field it names, with status 200. Every page is computed from the campaign's log, replayed
in one query, so it costs the same whatever the size of the gangs.

htmx: the encounter page's steps are one partial (``encounter_detail.html#steps``), the
gang page's body another (``campaign_gang.html#gang``); every form also works as a plain
POST, redirected after success.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from builder.models import Member, MemberItem
from builder.roster import member_data
from campaigns import access, services
from campaigns.access import PAGE_METHODS, login_required
from campaigns.chronicle import happening_text, without_settlement
from campaigns.encounter_forms import (
    DRAW,
    KIND_HELP,
    KIND_HELP_LEFT_OTHER,
    START_LINES,
    AdvanceForm,
    AnswerForm,
    BeginForm,
    ChallengeForm,
    DeathForm,
    DisputeForm,
    GangForm,
    LeaderForm,
    PurseBuyForm,
    RecordForm,
    RecruitForm,
    RivalsBuyForm,
    SettleForm,
    ShowdownForm,
    UndoForm,
    add_engine_error,
    line_formset,
    line_initial,
    with_more_lines,
)
from campaigns.models import Campaign
from gangfight_site.engine_words import shown
from rules import get_system
from rules.campaign import (
    CONFIRMED,
    DEAD,
    DISPUTED,
    IN_PLAY,
    PROVISIONAL,
    RUNNING,
    SHOWDOWN_FATES,
    CampaignError,
    CampaignState,
    EncounterState,
    GangState,
    MemberState,
    member_cost,
    showdown_gone,
    showdown_pairs,
)
from rules.i18n import punctuate

#: The dice the views roll with: None is the system's random. Tests set a seeded
#: ``random.Random`` here for predictable rolls.
RNG: random.Random | None = None

TIMES = "\u00d7 "  # "2 times Handgun reload"
MINUS = "\u2212"


# --------------------------------------------------------------------------- plumbing


@dataclass
class Seat:
    """Who is looking at which campaign: its state and what the user plays in it."""

    campaign: Campaign
    state: CampaignState
    mine: set[str]  # the user's gang ids in the campaign
    organiser: bool

    def plays(self, gang_id: str) -> bool:
        return str(gang_id) in self.mine


def _seat(request: HttpRequest, campaign_id: int) -> Seat:
    campaign = services.get_campaign_for_user(request.user, campaign_id)
    return Seat(
        campaign,
        services.state_of(campaign),
        services.acting_gang_ids(campaign, request.user),  # (a former member's: organiser)
        access.is_organiser(campaign, request.user),
    )


def _encounter(state: CampaignState, encounter_id: int) -> EncounterState:
    try:
        return state.encounter(encounter_id)
    except CampaignError:
        raise Http404("No such encounter in this campaign (it may have been undone).") from None


def _gang(state: CampaignState, gang_id: int) -> GangState:
    gang = state.gangs.get(str(gang_id))
    if gang is None:
        raise Http404("No such gang in this campaign.")
    return gang


def _record(request: HttpRequest, seat: Seat, kind: str, data: dict[str, Any]) -> CampaignState:
    return services.record(seat.campaign, request.user, kind, data, rng=RNG)


def _require_player_or_organiser(seat: Seat, gang_id: str) -> None:
    if not (seat.organiser or seat.plays(gang_id)):
        raise PermissionDenied("Only that gang's player or the organiser can do that.")


def _last_text(state: CampaignState) -> str:
    return state.log[-1].text if state.log else ""


def _detail_url(campaign_id: int, encounter_id: int) -> str:
    return reverse("encounter_detail", args=[campaign_id, encounter_id])


def _gang_url(campaign_id: int, gang_id: str) -> str:
    return reverse("campaign_gang", args=[campaign_id, gang_id])


def grouped(items: list[str]) -> list[str]:
    """["Handgun reload", "Handgun reload", "Horse"] -> ["2\u00d7 Handgun reload", "Horse"]."""
    counts = Counter(items)
    return [f"{n}{TIMES}{item}" if n > 1 else item for item, n in counts.items()]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (MINUS + str(-n) if n < 0 else "0")


# --------------------------------------------------------------------------- beginning


@login_required
@require_http_methods(PAGE_METHODS)
def encounter_begin(request: HttpRequest, campaign_id: int) -> HttpResponse:
    seat = _seat(request, campaign_id)
    state = seat.state
    form = BeginForm(request.POST or None, state=state, own=seat.mine, organiser=seat.organiser)
    if request.method == "POST" and form.is_valid():
        data = {
            "gangs": [form.cleaned_data["gang"], form.cleaned_data["against"]],
            "scenario": form.cleaned_data.get("scenario", ""),
        }
        try:
            new = _record(request, seat, "encounter_begun", data)
        except CampaignError as error:
            add_engine_error(form, error)
        else:
            enc = new.last_encounter
            messages.success(request, _last_text(new))
            return redirect(_detail_url(seat.campaign.pk, enc.id))
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
    seat = _seat(request, campaign_id)
    state = seat.state
    enc = _encounter(state, encounter_id)
    if not (seat.organiser or any(seat.plays(g) for g in enc.gangs)):
        raise PermissionDenied("Only the players of the two gangs or the organiser record it.")
    if enc.status == CONFIRMED:
        messages.info(
            request,
            gettext_lazy("Encounter %(number)s's record is confirmed: it stands.")
            % {"number": enc.number},
        )
        return redirect(_detail_url(seat.campaign.pk, enc.id))
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
                new = _record(request, seat, "encounter_recorded", data)
            except CampaignError as error:
                _line_error(formset, form, where, error)
            else:
                messages.success(request, _last_text(new))
                return redirect(_detail_url(seat.campaign.pk, enc.id))
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
            "rivals": state.progression.has_showdown,
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
                None, _renumber(error.message, gettext("Line {number}"), n, where[n - 1] + 1)
            )
            return
    add_engine_error(form, error)


def _renumber(message: str, word: str, engine_n: int, shown_n: int) -> str:
    """The engine counts only the filled-in lines; the page counts them all. ``word`` is
    the message's start as the engine writes it, in the reader's language ("Line {number}",
    "Ligne {number}"), followed by a colon (with French spacing or not)."""
    prefix = word.format(number=engine_n)
    if message.startswith(prefix) and message[len(prefix) :].lstrip("\u00a0 ").startswith(":"):
        return word.format(number=shown_n) + message.removeprefix(prefix)
    return message


# --------------------------------------------------------------------------- the steps


def _death_lines(state: CampaignState, enc: EncounterState) -> dict[str, Any]:
    """The log's line (with its dice) for each death roll of the encounter, by member: the
    engine keeps the seq of each member's latest roll."""
    by_seq = {line.seq: line for line in state.log if line.kind == "death_rolled"}
    return {ref: by_seq[d["seq"]] for ref, d in enc.deaths.items() if d.get("seq") in by_seq}


@dataclass
class Step:
    id: str
    title: str
    state: str = "later"  # done / now / later
    note: str = ""


@dataclass
class Failed:
    """A step's form that the engine or the form refused, to show instead of a fresh one."""

    step: str
    form: Any
    key: str = ""


def _steps(state: CampaignState, enc: EncounterState, showdown: dict[str, Any]) -> list[Step]:
    p = state.progression
    steps = [
        Step("record", gettext("The record")),
        Step("confirm", gettext("Both players confirm")),
        Step("deaths", gettext("Death rolls")),
        Step("awards", gettext("%(score)s awarded") % {"score": p.score_label}),
    ]
    if p.has_showdown:
        steps.append(Step("showdown", gettext("Showdown")))
    steps.append(Step("between", gettext("Between encounters")))
    by = {s.id: s for s in steps}
    by["record"].state = "now" if enc.status == IN_PLAY else "done"
    if enc.status in (PROVISIONAL, DISPUTED):
        by["confirm"].state = "now"
    elif enc.status == CONFIRMED:
        by["confirm"].state = "done"
    loser = (enc.showdown or {}).get("loser")
    left = [r for r in enc.death_rolls_left if r != loser]
    if enc.status == CONFIRMED:
        by["deaths"].state = "now" if left else "done"
    if enc.awarded:
        by["awards"].state = "done"
        by["between"].state = "now"
        if "showdown" in by:
            by["showdown"].state = "now" if showdown.get("open") else "done"
    return steps


def _showdown(
    state: CampaignState, enc: EncounterState, seat: Seat, failed: Failed | None
) -> dict[str, Any]:
    """What the showdown step shows and which of its forms the user may use."""
    p = state.progression
    out: dict[str, Any] = {"open": False}
    if not p.has_showdown or not enc.awarded:
        return out
    sd = enc.showdown
    gone = showdown_gone(state, enc)
    a, b = (state.gangs[g] for g in enc.gangs)

    def form_for(step: str, make: Callable[[], Any]) -> Any:
        if failed is not None and failed.step == step:
            return failed.form
        return make()

    if sd is None:
        if gone:
            out["why"] = gone
            return out
        pairs = showdown_pairs(state, enc)
        if not pairs:
            if a.retired or b.retired:
                out["why"] = gettext("A gang rode to Mexico: no showdown.")
            elif a.total == b.total:
                out["why"] = gettext(
                    "Both gangs have %(total)s %(score)s: neither is lower, "
                    "so nobody may challenge."
                ) % {"total": a.total, "score": p.score_word}
            else:
                low, high = (a, b) if a.total < b.total else (b, a)
                out["why"] = gettext(
                    "No outlaw of %(low)s (the gang with less %(score)s) "
                    "shares a notoriety with an outlaw of %(high)s."
                ) % {"low": low.name, "score": p.score_word, "high": high.name}
            return out
        low = state.gangs[state.member(pairs[0][0]).gang]
        out.update(open=True, low=low, pairs=len(pairs))
        if seat.plays(low.id):
            out["challenge_form"] = form_for(
                "challenge", lambda: ChallengeForm(state=state, pairs=pairs)
            )
        return out
    x, y = state.member(sd["challenger"]), state.member(sd["challenged"])
    out.update(challenger=x, challenged=y, status=sd["status"])
    if sd["status"] == "challenged":
        out["open"] = True
        if seat.plays(y.gang):
            out["answer_form"] = form_for("answer", AnswerForm)
        out["penalty"] = p.decline_penalty
    elif sd["status"] == "accepted":
        out["open"] = True
        if seat.organiser or seat.plays(x.gang) or seat.plays(y.gang):
            fighters = [(x.ref, x.name), (y.ref, y.name)]
            out["result_form"] = form_for("showdown", lambda: ShowdownForm(fighters=fighters))
    elif sd["status"] == "fought":
        winner, loser = state.member(sd["winner"]), state.member(sd["loser"])
        out.update(winner=winner, loser=loser, fate=SHOWDOWN_FATES.get(sd["fate"], sd["fate"]))
        out["awards"] = [
            {
                "member": state.member(aw["member"]),
                "reason": aw["reason"],
                "amount": signed(aw["amount"]),
            }
            for aw in sd.get("awards", [])
        ]
        if loser.ref in enc.death_rolls_left:
            out["open"] = True
    return out


def _death_rows(
    state: CampaignState, enc: EncounterState, seat: Seat, refs: list[str], failed: Failed | None
) -> list[dict[str, Any]]:
    rows = []
    for ref in refs:
        m = state.member(ref)
        form = None
        if seat.organiser or seat.plays(m.gang):
            form = DeathForm(initial={"member": ref}, refs=[ref])
            if failed is not None and failed.step == "death" and failed.key == ref:
                form = failed.form
        rows.append({"member": m, "gang": state.gangs[m.gang], "form": form})
    return rows


#: What a death roll's result means under the house rules of the games other than Rivals
#: (the book's death table speaks of skill rows and reputation).
HOUSE_DEATH_TEXT = {
    "dead": gettext_lazy("Dead! Removed from the gang."),
    "badly_wounded": gettext_lazy(
        "Loses one point from a random attribute above 1 and earns no {score} this encounter."
    ),
    "playing_dead": gettext_lazy(
        "Not really hurt that bad, just playing dead. Earns no {score} this encounter."
    ),
}


def _death_results(state: CampaignState, enc: EncounterState) -> list[dict[str, Any]]:
    lines = _death_lines(state, enc)
    p = state.progression
    rows = []
    for ref, d in enc.deaths.items():
        m = state.member(ref)
        try:
            text = p.death_result(d["roll"]).get("text", "")
        except (KeyError, ValueError):
            text = ""
        if not p.has_showdown and d["result"] in HOUSE_DEATH_TEXT:
            text = str(HOUSE_DEATH_TEXT[d["result"]]).format(score=p.score_label)
        line = lines.get(ref)
        said = without_settlement(line.text, enc.number) if line else ""
        rows.append(
            {
                "member": m,
                "roll": d["roll"],
                "name": d["name"],
                "result": d["result"],
                "text": text,
                "log": said,
                "dice": list(line.dice) if line else [],
            }
        )
    return rows


def _reputation_rows(state: CampaignState, enc: EncounterState) -> list[dict[str, Any]]:
    """After the awards: each member of the two gangs (by gang), what the encounter earned
    them, and where they stand now."""
    p = state.progression
    groups = []
    for gid in enc.gangs:
        gang = state.gangs[gid]
        rows: list[dict[str, Any]] = []
        groups.append({"gang": gang, "rows": rows})
        for m in gang.members.values():
            if m.joined_after >= enc.number:
                continue  # recruited after this encounter
            title, bonus = p.notoriety(m.score)
            awards = enc.awards_for(m.ref)
            rows.append(
                {
                    "member": m,
                    "gang": gang,
                    "earned": signed(enc.earned_by(m.ref)),
                    "advanced": enc.advanced.get(m.ref, 0),
                    "why_not": punctuate(";").join(
                        sorted({a.why_not for a in awards if a.why_not})
                    ),
                    "title": title,
                    "bonus": bonus,
                }
            )
    return groups


def _detail_context(
    request: HttpRequest, seat: Seat, enc: EncounterState, failed: Failed | None = None, flash=""
) -> dict[str, Any]:
    state = seat.state
    p = state.progression
    a, b = (state.gangs[g] for g in enc.gangs)
    mine = [g for g in enc.gangs if seat.plays(g)]
    is_last = enc is state.last_encounter

    def form_for(step: str, make: Callable[[], Any]) -> Any:
        if failed is not None and failed.step == step:
            return failed.form
        return make()

    names = {g: state.gangs[g].name for g in enc.gangs}
    unconfirmed = [(g, names[g]) for g in mine if g not in enc.confirmed]
    if enc.status == DISPUTED:  # only the gang that disputed it may confirm it after all
        unconfirmed = [(g, n) for g, n in unconfirmed if g == getattr(enc, "disputed_by", g)]
    forms: dict[str, Any] = {}
    if enc.status in (PROVISIONAL, DISPUTED) and unconfirmed:
        forms["confirm"] = form_for(
            "confirm", lambda: GangForm(initial={"gang": unconfirmed[0][0]}, gangs=unconfirmed)
        )
    if enc.status == PROVISIONAL and mine:
        choices = [(g, names[g]) for g in mine]
        forms["dispute"] = form_for(
            "dispute", lambda: DisputeForm(initial={"gang": mine[0]}, gangs=choices)
        )
    if enc.status in (PROVISIONAL, DISPUTED) and seat.organiser:
        forms["settle"] = form_for("settle", SettleForm)
    showdown = _showdown(state, enc, seat, failed)
    loser = (enc.showdown or {}).get("loser")
    death_left = [r for r in enc.death_rolls_left if r != loser]
    death_rows = _death_rows(state, enc, seat, death_left, failed)
    showdown_deaths = _death_rows(
        state, enc, seat, [r for r in enc.death_rolls_left if r == loser], failed
    )
    placed = [
        *forms.values(),
        *(r["form"] for r in death_rows + showdown_deaths),
        *(showdown.get(k) for k in ("challenge_form", "answer_form", "result_form")),
    ]
    return {
        "campaign": seat.campaign,
        "state": state,
        "progression": p,
        "enc": enc,
        "gang_a": a,
        "gang_b": b,
        "is_last": is_last,
        "is_organiser": seat.organiser,
        "is_player": bool(mine),
        "can_record": bool(mine) or seat.organiser,
        "steps": _steps(state, enc, showdown),
        "happenings": [happening_text(state, h) for h in enc.happenings],
        "winner": state.gangs[enc.winner] if enc.winner else None,
        "recorded_by": state.gangs[enc.recorded_by] if enc.recorded_by else None,
        "notes": enc.notes,
        "confirmed": [names[g] for g in enc.gangs if g in enc.confirmed],
        "waiting": [names[g] for g in enc.gangs if g not in enc.confirmed],
        "awards": [
            {
                "a": aw,
                "member": state.member(aw.member),
                "gang": names[state.member(aw.member).gang],
                "amount": signed(aw.amount),
            }
            for aw in enc.awards
        ],
        "forms": forms,
        "death_rows": death_rows,
        "showdown_deaths": showdown_deaths,
        "stray_errors": _stray_errors(failed, placed),
        "death_results": _death_results(state, enc),
        "reputation": _reputation_rows(state, enc) if enc.awarded else [],
        "showdown": showdown,
        "log": [line for line in state.log if line.encounter == enc.id],
        "flash": flash,
        "purse": [(names[g], n) for g, n in enc.purse.items()],
    }


def _stray_errors(failed: Failed | None, placed: list[Any]) -> list[str]:
    """The errors of a refused form the page has no place for any more (the state moved
    on, say): shown at the top so nothing is lost silently."""
    if failed is None or any(f is failed.form for f in placed if f is not None):
        return []
    errors = [str(e) for errs in failed.form.errors.values() for e in errs]
    hits = getattr(failed.form, "hits", None)
    if hits is not None:
        errors += [str(e) for f in hits.forms for errs in f.errors.values() for e in errs]
    return errors or [gettext("That can't be done now: the page below is up to date.")]


def _render_detail(
    request: HttpRequest,
    seat: Seat,
    enc: EncounterState,
    failed: Failed | None = None,
    flash: str = "",
) -> HttpResponse:
    template = "campaigns/encounter_detail.html"
    if request.htmx:
        template += "#steps"
    return render(request, template, _detail_context(request, seat, enc, failed, flash))


@login_required
@require_http_methods(["GET", "HEAD"])
def encounter_detail(request: HttpRequest, campaign_id: int, encounter_id: int) -> HttpResponse:
    seat = _seat(request, campaign_id)
    return _render_detail(request, seat, _encounter(seat.state, encounter_id))


# -- one function per step: check who asks, read the form, say what to record


@dataclass
class Action:
    form: Any
    kind: str = ""  # "" while the form is invalid: nothing to record
    data: dict[str, Any] = field(default_factory=dict)
    key: str = ""
    on_error: Callable[[CampaignError], None] | None = None


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
    _require_player_or_organiser(seat, member.gang)
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
        return Action(form, "showdown_challenged", data, on_error=_into(form, "pair"))
    if not form.is_valid():
        return Action(form)
    x, y = form.refs()
    data = {"encounter": enc.id, "challenger": x, "challenged": y}
    return Action(form, "showdown_challenged", data, on_error=_into(form, "pair"))


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
                    None, _renumber(error.message, gettext("Hit {number}"), n, i + 1)
                )
                return
        add_engine_error(form, error)

    return Action(form, "showdown_fought", data, on_error=on_error)


def _into(form, field_name: str) -> Callable[[CampaignError], None]:
    def on_error(error: CampaignError) -> None:
        add_engine_error(form, error, field_name)

    return on_error


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
        return redirect(_detail_url(campaign_id, encounter_id))
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    seat = _seat(request, campaign_id)
    enc = _encounter(seat.state, encounter_id)
    handler = STEPS.get(step)
    if handler is None:
        raise Http404("No such step.")
    action = handler(request, seat, enc)
    if action.kind:
        try:
            new = _record(request, seat, action.kind, action.data)
        except CampaignError as error:
            (action.on_error or _into(action.form, ""))(error)
        else:
            text = _last_text(new)
            if request.htmx:
                seat.state = new
                return _render_detail(request, seat, _encounter(new, enc.id), flash=text)
            messages.success(request, text)
            return redirect(_detail_url(seat.campaign.pk, enc.id) + "#steps")
    return _render_detail(request, seat, enc, Failed(step, action.form, action.key))


@login_required
@require_http_methods(PAGE_METHODS)
def encounter_undo(request: HttpRequest, campaign_id: int) -> HttpResponse:
    seat = _seat(request, campaign_id)
    access.require_organiser(seat.campaign, request.user)
    last = seat.state.last_encounter
    form = UndoForm(request.POST or None, initial={"encounter": last.id if last else ""})
    if request.method == "POST" and form.is_valid():
        data = {"encounter": form.cleaned_data["encounter"], "reason": form.cleaned_data["reason"]}
        try:
            new = _record(request, seat, "encounter_undone", data)
        except CampaignError as error:
            add_engine_error(form, error)
        else:
            messages.success(request, _last_text(new))
            return redirect("campaign_detail", campaign_id=seat.campaign.pk)
    gangs = [seat.state.gangs[g] for g in last.gangs] if last else []
    return render(
        request,
        "campaigns/encounter_undo.html",
        {"campaign": seat.campaign, "state": seat.state, "enc": last, "gangs": gangs, "form": form},
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
    rivals = p.has_showdown
    can_act = is_player and state.status == RUNNING and not gang.retired
    price_list = p.r.CONTENT["price_list"] if rivals else []

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
            if rivals:
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
    if can_act and not rivals:
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
        "rivals": rivals,
        "purse_form": purse_form,
        "leader_form": leader_form,
        "open_encounter": state.open_encounter(gang.id),
        "played": state.played(gang.id),
        "flash": flash,
        "stray_errors": _stray_errors(failed, placed),
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
    seat = _seat(request, campaign_id)
    return _render_gang(request, seat, _gang(seat.state, gang_id))


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
        return Action(form, "leader_chosen", data, on_error=_into(form, "member"))
    if step == "advance":
        m = _member_of(gang, request.POST.get("member", ""))
        form = AdvanceForm(
            request.POST, options=p.advance_options(m), auto_id=f"id_m{m.key}_%s_adv"
        )
        if not form.is_valid():
            return Action(form, key=m.ref)
        data = {"member": m.ref, "choice": form.cleaned_data["choice"]}
        return Action(form, "advance_taken", data, m.ref, _into(form, "choice"))
    if p.has_showdown:
        m = _member_of(gang, request.POST.get("member", ""))
        form = RivalsBuyForm(
            request.POST, price_list=p.r.CONTENT["price_list"], auto_id=f"id_m{m.key}_%s_buy"
        )
        if not form.is_valid():
            return Action(form, key=m.ref)
        data = {"member": m.ref, **{k: form.cleaned_data[k] for k in ("item", "quantity")}}
        return Action(form, "item_bought", data, m.ref, _into(form, "item"))
    form = PurseBuyForm(request.POST, members=[(m.ref, m.name) for m in gang.alive])
    if not form.is_valid():
        return Action(form)
    data = {"gang": gang.id, **form.cleaned_data}
    return Action(form, "item_bought", data, on_error=_into(form, "item"))


@login_required
def gang_step(request: HttpRequest, campaign_id: int, gang_id: int, step: str) -> HttpResponse:
    if step not in ("advance", "buy", "leader", "mexico"):
        raise Http404("No such step.")
    if step == "mexico":
        return _mexico(request, campaign_id, gang_id)
    if request.method in ("GET", "HEAD"):
        return redirect(_gang_url(campaign_id, gang_id))
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    seat = _seat(request, campaign_id)
    gang = _gang(seat.state, gang_id)
    access.require_player(seat.mine, gang.id)
    action = _gang_action(request, seat, gang, step)
    if action.kind:
        try:
            new = _record(request, seat, action.kind, action.data)
        except CampaignError as error:
            (action.on_error or _into(action.form, ""))(error)
        else:
            text = _last_text(new)
            if request.htmx:
                seat.state = new
                return _render_gang(request, seat, new.gangs[gang.id], flash=text)
            messages.success(request, text)
            anchor = f"#member-{action.key.partition('/')[2]}" if action.key else "#purse"
            return redirect(_gang_url(seat.campaign.pk, gang.id) + anchor)
    return _render_gang(request, seat, gang, Failed(step, action.form, action.key))


def _mexico(request: HttpRequest, campaign_id: int, gang_id: int) -> HttpResponse:
    if request.method not in PAGE_METHODS:
        return HttpResponseNotAllowed(PAGE_METHODS)
    seat = _seat(request, campaign_id)
    gang = _gang(seat.state, gang_id)
    access.require_player(seat.mine, gang.id)
    error = ""
    if request.method == "POST":
        try:
            new = _record(request, seat, "rode_to_mexico", {"gang": gang.id})
        except CampaignError as refused:
            error = refused.message
        else:
            messages.success(request, _last_text(new))
            return redirect(_gang_url(seat.campaign.pk, gang.id))
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
    seat = _seat(request, campaign_id)
    gang = _gang(seat.state, gang_id)
    access.require_player(seat.mine, gang.id)
    candidates = _candidates(request.user, seat.state.system)
    choices = [(c.value, c.label) for c in candidates]
    failed: RecruitForm | None = None
    failed_ref = ""
    declined_error: dict[str, str] = {}
    if request.method == "POST" and "decline" in request.POST:
        fallen = _member_of(gang, request.POST.get("decline", ""))
        try:
            new = _record(
                request, seat, "recruit_declined", {"gang": gang.id, "replaces": fallen.ref}
            )
        except CampaignError as error:
            declined_error[fallen.ref] = error.message
        else:
            messages.success(request, _last_text(new))
            return redirect(_gang_url(seat.campaign.pk, gang.id))
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
                new = _record(request, seat, "member_recruited", data)
            except CampaignError as error:
                add_engine_error(form, error, "recruit")
            else:
                messages.success(request, _last_text(new))
                return redirect(_gang_url(seat.campaign.pk, gang.id))
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
