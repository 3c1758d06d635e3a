"""A campaign's chronicle: what happened, in order, in words; and the printable PDF of it.

Everything here reads a replayed :class:`rules.campaign.CampaignState` (no queries), so
the campaign page, its history and the PDF tell the same story. The PDF goes through the
project's pipeline (``rules.pdf``): fonts and CSS from our static files only, rendered in
a child process stopped after ``PDF_TIMEOUT_SECONDS``. All user text is escaped by the
template; the charts' SVG from ``campaigns.charts`` is escaped there.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_noop, ngettext

from builder.printing import PAPERS, needs_fallback_font
from campaigns.charts import MISSING, Series, chart_table, line_chart
from common.engine_words import shown
from rules import get_system
from rules.campaign import SHOWDOWN_FATES, CampaignError, CampaignState, EncounterState
from rules.i18n import punctuate
from rules.pdf import PdfError, make_fetcher, render_pdf, run_with_deadline

__all__ = [
    "PdfError",
    "chronicle_html",
    "chronicle_pdf",
    "encounter_stories",
    "filename",
    "happening_text",
    "render",
    "state_charts",
]

#: log lines that happen between encounters; the chronicle tells them after the last one
AFTER_KINDS = frozenset(
    {"item_bought", "advance_taken", "member_recruited", "recruit_declined", "rode_to_mexico"}
)
SHOWDOWN_KINDS = frozenset({"showdown_challenged", "showdown_answered", "showdown_fought"})


def _actions(n: int) -> str:
    return ngettext("%(count)s action", "%(count)s actions", n) % {"count": n}


# --------------------------------------------------------------------------- charts


@dataclass
class Chart:
    title: str
    svg: str  # escaped by campaigns.charts: safe to mark safe
    table: list[list[str]]  # header row first; not escaped


def member_word(state: CampaignState) -> str:
    return gettext("outlaw") if state.progression.members_are_outlaws else gettext("member")


def state_charts(state: CampaignState) -> list[Chart]:
    """The two charts: every member's score after each encounter, and the gangs' totals."""
    label = shown(state.score_label)
    labels, by_ref = state.series()
    labels = [shown(x) for x in labels]  # "Start" (the engine's), then numbers
    members = []
    for gang in state.gangs.values():
        for m in gang.members.values():
            values = by_ref.get(m.ref) or [None] * len(labels)
            members.append(Series(f"{m.name} ({gang.name})", values))
    if state.progression.members_are_outlaws:
        title = gettext("Outlaw %(score)s after each encounter")
    else:
        title = gettext("Member %(score)s after each encounter")
    title = title % {"score": shown(state.progression.score_word)}
    gang_labels, by_gang = state.gang_series()
    gang_labels = [shown(x) for x in gang_labels]
    gangs = [
        Series(g.name, by_gang.get(g.id) or [None] * len(gang_labels)) for g in state.gangs.values()
    ]
    gang_title = gettext("Gang totals (%(score)s) after each encounter") % {
        "score": shown(state.progression.score_word)
    }
    return [
        Chart(
            title,
            line_chart(title=title, x_labels=labels, series=members, y_label=label),
            _table(labels, members),
        ),
        Chart(
            gang_title,
            line_chart(title=gang_title, x_labels=gang_labels, series=gangs, y_label=label),
            _table(gang_labels, gangs),
        ),
    ]


def _table(labels: list[str], series: list[Series]) -> list[list[str]]:
    rows = chart_table(x_labels=labels, series=series)
    return [rows[0]] + [row for row in rows[1:] if any(c != MISSING for c in row[1:])]


# --------------------------------------------------------------------------- encounters


def _name(state: CampaignState, ref: str) -> str:
    try:
        return state.member(ref).name
    except CampaignError:
        return gettext("someone")


def happening_text(state: CampaignState, h: dict[str, Any]) -> str:
    """One line of an encounter's record, in words, with the members' names."""
    kind = h.get("kind")
    by = _name(state, h["by"]) if h.get("by") else ""
    if kind == "wound":
        return gettext("%(by)s wounded %(to)s (%(actions)s lost).") % {
            "by": by,
            "to": _name(state, h["to"]),
            "actions": _actions(h["amount"]),
        }
    if kind == "kill":
        if by:
            return gettext("%(by)s killed %(to)s (toughness: %(actions)s).") % {
                "by": by,
                "to": _name(state, h["to"]),
                "actions": _actions(h.get("amount", 0)),
            }
        return gettext("%(to)s was killed (by nobody of the other gang).") % {
            "to": _name(state, h["to"])
        }
    if kind == "out":
        if by:
            return gettext("%(by)s took out %(to)s.") % {"by": by, "to": _name(state, h["to"])}
        return gettext("%(to)s was taken out.") % {"to": _name(state, h["to"])}
    if kind == "left":
        label = shown(
            state.progression.happening_kinds.get("left", gettext_noop("Left early"))
        ).lower()
        return f"{_name(state, h['who'])} {label}."
    if kind == "loot":
        what = ([f"${h['cash']}"] if h.get("cash") else []) + list(h.get("items") or [])
        return gettext("%(by)s took %(what)s from %(from)s.") % {
            "by": by,
            "what": ", ".join(what),
            "from": _name(state, h["from"]),
        }
    label = shown(state.progression.happening_kinds.get(kind, str(kind)))
    names = ", ".join(_name(state, h[k]) for k in ("by", "to", "who") if h.get(k))
    return f"{label}{punctuate(':')}{names}." if names else f"{label}."


@dataclass
class AwardRow:
    member: str
    reason: str
    amount: int
    counts: bool
    why_not: str


@dataclass
class Story:
    """One encounter as the chronicle tells it."""

    encounter: EncounterState
    gangs: list[Any]  # GangState, both
    where: str
    winner: str  # "" before it is recorded
    happenings: list[str]
    awards: list[AwardRow]
    deaths: list[str]
    showdown: list[str]
    after: list[str] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.encounter.number


def encounter_where(enc: EncounterState) -> str:
    parts = []
    if enc.location:
        parts.append(
            gettext("%(place)s (rolled %(roll)s)")
            % {"place": enc.location.get("name", ""), "roll": enc.location.get("roll", "?")}
        )
    if enc.scenario:
        parts.append(enc.scenario)
    return " · ".join(p for p in parts if p)


def encounter_winner(state: CampaignState, enc: EncounterState) -> str:
    if enc.winner is None:
        return ""
    if enc.winner == "":
        return gettext("A draw")
    gang = state.gangs.get(enc.winner)
    return gettext("%(gang)s won") % {"gang": gang.name} if gang else gettext("Won")


def _death_text(text: str, number: int) -> str:
    """A death roll's log line without the encounter's settlement that may follow it."""
    return without_settlement(text, number)


def without_settlement(text: str, number: int) -> str:
    """A log line without the "Encounter N settled: …" that may follow it, as the engine
    wrote it in the reader's language ("Rencontre N réglée : …" in French)."""
    start = gettext("Encounter {number} settled: {changes}.").split("{changes}")[0]
    cut = text.rfind(" " + start.format(number=number).rstrip())
    return text[:cut] if cut > 0 else text


def encounter_stories(state: CampaignState) -> tuple[list[str], list[Story]]:
    """(what happened before the first encounter, each encounter's story), in order.

    Undone encounters are left out (they are struck out in the history). Purchases,
    advances, recruits and rides to Mexico are told after the encounter that came last
    before them.
    """
    stories: dict[int, Story] = {}
    for enc in state.encounters:
        stories[enc.id] = Story(
            encounter=enc,
            gangs=[state.gangs[g] for g in enc.gangs if g in state.gangs],
            where=encounter_where(enc),
            winner=encounter_winner(state, enc),
            happenings=[happening_text(state, h) for h in enc.happenings],
            awards=[
                AwardRow(_name(state, a.member), a.reason, a.amount, a.counts, a.why_not)
                for a in enc.awards
            ],
            deaths=[],
            showdown=[],
        )
    before: list[str] = []
    current: Story | None = None
    for line in state.log:
        if line.undone:
            continue
        if line.kind == "encounter_begun" and line.seq in stories:
            current = stories[line.seq]
        story = stories.get(line.encounter) if line.encounter is not None else None
        if line.kind == "death_rolled" and story:
            story.deaths.append(_death_text(line.text, story.number))
        elif line.kind in SHOWDOWN_KINDS and story:
            story.showdown.append(line.text)
        elif line.kind in AFTER_KINDS:
            (current.after if current else before).append(line.text)
    return before, list(stories.values())


# --------------------------------------------------------------------------- the PDF


def members_table(state: CampaignState) -> list[dict[str, Any]]:
    """Each gang with its members' figures, in the standings' order."""
    p = state.progression
    rows = []
    for standing in state.standings():
        gang = standing.gang
        members = []
        for m in gang.members.values():
            title, bonus = p.notoriety(m.score)
            members.append(
                {
                    "m": m,
                    "notoriety": f"{title} (+{bonus})" if title else "",
                    "status": member_status(gang, m),
                }
            )
        rows.append({"standing": standing, "gang": gang, "members": members})
    return rows


def member_status(gang, m) -> str:
    if m.alive:
        return ""
    if m.replaced_by and m.replaced_by in gang.members:
        return gettext("dead (replaced by %(name)s)") % {"name": gang.members[m.replaced_by].name}
    return gettext("dead")


def _all_text(campaign, state: CampaignState) -> str:
    parts = [campaign.name, campaign.organiser.get_username()]
    for gang in state.gangs.values():
        parts += [gang.name, gang.player, *(m.name for m in gang.members.values())]
    parts += [line.text for line in state.log]
    return " ".join(parts)


def chronicle_context(campaign, state: CampaignState, paper: str = "a4") -> dict[str, Any]:
    before, stories = encounter_stories(state)
    return {
        "campaign": campaign,
        "state": state,
        "system": get_system(campaign.system),
        "paper": PAPERS.get(paper, PAPERS["a4"]),
        "printed": timezone.localdate(),
        "standings": state.standings(),
        "winners": state.winners,
        "gangs": members_table(state),
        "before": before,
        "stories": stories,
        "charts": state_charts(state),
        "member_word": member_word(state),
        "fates": SHOWDOWN_FATES,
        "fallback_font": needs_fallback_font(_all_text(campaign, state)),
    }


def chronicle_html(campaign, state: CampaignState, paper: str = "a4") -> str:
    return render_to_string("pdf/chronicle.html", chronicle_context(campaign, state, paper))


def render(html: str, *, fetcher=None) -> bytes:
    """The PDF of a chronicle's HTML, fetching nothing but our static files."""
    static = settings.PDF_STATIC_DIR
    return render_pdf(html, static, fetcher=fetcher or make_fetcher(static))


def chronicle_pdf(
    campaign,
    state: CampaignState,
    *,
    paper: str = "a4",
    timeout: float | None = None,
    client: str | None = None,
) -> bytes:
    """The chronicle as a PDF, made in a child process stopped after ``timeout`` seconds.

    The HTML is made here (it is quick); the PDF is kept in the PDF cache by a digest of
    the HTML, so the same chronicle on the same day is made once.
    """
    from django.core.cache import caches

    from builder import pdf_gate

    html = chronicle_html(campaign, state, paper)
    key = "pdf:chronicle:" + hashlib.sha256(html.encode("utf-8", "surrogatepass")).hexdigest()

    def cached() -> bytes | None:
        try:
            return caches["pdf"].get(key)
        except Exception:  # an unreadable cache only makes this slower
            return None

    content = cached()
    if content is not None:
        return content
    with pdf_gate.gate(key, client):  # PDFs never take every worker (builder/pdf_gate.py)
        content = cached()
        if content is not None:
            return content
        seconds = settings.PDF_TIMEOUT_SECONDS if timeout is None else timeout
        content = run_with_deadline(lambda: render(html), seconds)
        from builder.pdf_store import store_pdf  # bounded, with an expiry

        store_pdf(key, content, owner=f"chronicle:{campaign.pk}")
    return content


def filename(campaign, paper: str = "a4") -> str:
    stem = slugify(campaign.name) or "campaign"
    suffix = "-letter" if paper == "letter" else ""
    return f"{stem}-chronicle{suffix}.pdf"
