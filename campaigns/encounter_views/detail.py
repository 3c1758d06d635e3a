"""An encounter's page: its record, then each step after it (confirmation, death rolls,
awards, the showdown, between encounters), built from the campaign's replayed state.

htmx: the steps are one partial (``encounter_detail.html#steps``), rendered again after
each step's POST (``steps.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from campaigns.access import login_required
from campaigns.chronicle import happening_text, without_settlement
from campaigns.encounter_forms import (
    AnswerForm,
    ChallengeForm,
    DeathForm,
    DisputeForm,
    GangForm,
    SettleForm,
    ShowdownForm,
)
from campaigns.encounter_views.base import (
    Failed,
    Seat,
    encounter_of,
    seat_of,
    signed,
    stray_errors,
)
from rules.campaign import (
    CONFIRMED,
    DISPUTED,
    IN_PLAY,
    PROVISIONAL,
    SHOWDOWN_FATES,
    CampaignState,
    EncounterState,
)
from rules.campaign.showdown import showdown_chance
from rules.i18n import punctuate

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

    def form_for(step: str, make: Callable[[], Any]) -> Any:
        if failed is not None and failed.step == step:
            return failed.form
        return make()

    if sd is None:
        chance = showdown_chance(state, enc)  # the rule: rules/campaign/showdown.py
        if not chance.open:
            out["why"] = chance.why_not
            return out
        pairs = chance.pairs
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
        "stray_errors": stray_errors(failed, placed),
        "death_results": _death_results(state, enc),
        "reputation": _reputation_rows(state, enc) if enc.awarded else [],
        "showdown": showdown,
        "log": [line for line in state.log if line.encounter == enc.id],
        "flash": flash,
        "purse": [(names[g], n) for g, n in enc.purse.items()],
    }


def render_detail(
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
    seat = seat_of(request, campaign_id)
    return render_detail(request, seat, encounter_of(seat.state, encounter_id))
