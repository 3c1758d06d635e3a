"""A league's pages: standings, match reports, a player's history, the public page, CSV.

Thin views: read the request, validate with a form (``campaigns/leagues/forms.py``), call
one service (``campaigns/leagues/services.py``, each one transaction), render. A ``LeagueError`` is
shown beside the field it names (or at the top), with status 200.

Who sees what: every page but the public one is for the club's members, found by a query
that starts from the user (anyone else gets a 404); only organisers settle results
(403 for members); a player reports, confirms or disputes only their own matches (403).
The public page (``/l/<token>/``) is read-only for anyone with its link.

Cost: the standings, the head-to-head matrix, the chart and a player's history are all
built in memory from three queries whatever the league's size: the league (with the
user's role and the last round's number), its registrations (with player, gang and the
running tallies of their results: ``tallies.py``), and the pairings the page shows with
their round and report (as plain values, not model instances). The standings read no
result, so the league page reads only the last round's pairings and the charted
players' (every pairing up to MATRIX_MAX players, for the matrix): its cost grows with
the players, not with the matches played (issue 31).
"""

from __future__ import annotations

import csv
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from html import escape
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Max, OuterRef, Q, Subquery
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django.views.decorators.http import require_http_methods

from accounts.names import player_name, shown_username
from builder.models import Gang
from campaigns.access import login_required
from campaigns.charts import Series, chart_table, line_chart
from campaigns.leagues import services, tallies
from campaigns.leagues import standings as arithmetic
from campaigns.leagues.forms import DisputeForm, ReportForm, SettleForm, report_initial
from campaigns.leagues.models import (
    ClubMember,
    League,
    MatchReport,
    Pairing,
    Round,
)
from campaigns.views import link_gone
from gangfight_site import links  # SITE_URL's links, never the Host's
from rules import get_system

READ_METHODS = ["GET", "HEAD"]
#: the head-to-head matrix is drawn up to this many players (beyond: each player's page)
MATRIX_MAX = 24
#: the chart draws the leading players only (one line each)
CHART_MAX = 12
COUNTED = (MatchReport.CONFIRMED, MatchReport.SETTLED)
STATUS_LABELS = dict(MatchReport.STATUSES)
STEPS = ("report", "confirm", "dispute", "settle")
#: the settle form's fields are named "settle-…": an organiser who plays may see both forms
SETTLE_PREFIX = "settle"
DASH = "\u2013"
DASH_EM = "\u2014"


# --------------------------------------------------------------------------- loading


@dataclass(slots=True)
class Match:
    """One pairing with its round and report, read as plain values."""

    id: int
    round: int
    table: int
    a: int
    b: int | None
    status: str | None  # the report's status; None: nothing reported
    vp_a: int | None
    vp_b: int | None
    winner: str | None  # "a", "b" or "draw"
    scenario: str | None
    deployment: str | None
    submitted_by: int | None

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def counts(self) -> bool:
        return self.status in COUNTED

    def side(self, registration_id: int) -> str | None:
        if self.a == registration_id:
            return "a"
        if self.b == registration_id:
            return "b"
        return None

    def result(self) -> arithmetic.Result | None:
        """The result for the standings: a bye, or a confirmed or settled match."""
        if self.b is None:
            return arithmetic.Result(self.round, self.a, None)
        if not self.counts:
            return None
        winner = {"a": self.a, "b": self.b}.get(self.winner or "")
        return arithmetic.Result(self.round, self.a, self.b, self.vp_a or 0, self.vp_b or 0, winner)


MATCH_FIELDS = (
    "pk",
    "round__number",
    "table",
    "a_id",
    "b_id",
    "report__status",
    "report__vp_a",
    "report__vp_b",
    "report__winner",
    "report__scenario",
    "report__deployment",
    "report__submitted_by_id",
)


REG_FIELDS = (
    "pk",
    "player_id",
    "player__username",
    "gang_id",
    "gang_name",
    "dropped",
    "checked_version",
    "legal",
    "problems",
    "gang__version",
    "gang__name",
    "gang__owner_id",
)
#: the stored tallies read with them (``campaigns/leagues/tallies.py``)
TALLY_COLUMNS = (*arithmetic.TALLY_FIELDS, "meetings")


@dataclass(slots=True)
class Entry:
    """A registration as the league pages show it, read as plain values (500 model
    instances with their player and gang cost ten times as much to build)."""

    pk: int
    player_id: int
    username: str
    gang_id: int | None
    gang_name: str  # as registered
    dropped: bool
    checked_version: int
    legal: bool
    problems: str
    gang_version: int | None
    gang_live_name: str | None  # the builder gang's name now
    gang_owner_id: int | None
    tally: arithmetic.Tally = field(default_factory=arithmetic.Tally)  # as stored
    meetings: str = ""  # its counted matches, as stored (head-to-head)

    @property
    def problem_list(self) -> list[str]:
        return [p for p in self.problems.splitlines() if p.strip()]


@dataclass
class Line:
    """A row of the standings with its registration and how to show it."""

    row: arithmetic.Row
    reg: Entry
    rank_label: str
    note: str  # "on Victory Point difference": what separated it from the row above
    mine: bool


@dataclass
class Board:
    """Everything the league's pages show, from two queries (after the league's).

    ``matches`` holds what the page asked for (``_board``'s ``matches``): every pairing,
    or only the last round's and the charted players', or one player's, or none."""

    league: League
    registrations: list[Entry]
    by_id: dict[int, Entry]
    matches: list[Match]
    lines: list[Line]
    rounds: list[int] = field(default_factory=list)  # rounds with a counted result

    @property
    def played_rounds(self) -> int:
        return max((m.round for m in self.matches), default=0)


def _role_subquery(user) -> Subquery:
    return Subquery(ClubMember.objects.filter(club=OuterRef("club"), user=user).values("role")[:1])


def _last_round_subquery() -> Subquery:
    return Subquery(
        Round.objects.filter(league=OuterRef("pk")).order_by("-number").values("number")[:1]
    )


def _league(request: HttpRequest, league_id: int) -> League:
    """The league, if the user is a member of its club (else 404), with ``my_role`` and
    ``last_round`` annotated: one query."""
    leagues = (
        League.objects.filter(club__members__user=request.user)
        .select_related("club")
        .annotate(my_role=_role_subquery(request.user), last_round=_last_round_subquery())
    )
    return get_object_or_404(leagues, pk=league_id)


def _is_organiser(league: League) -> bool:
    return getattr(league, "my_role", None) == ClubMember.ORGANISER


#: which pairings a page reads (``_board``): every one; the league page's (the last
#: round and the charted players', or every one up to MATRIX_MAX players); one player's
#: (``player=``); none (the standings alone)
ALL, PAGE, PLAYER, NONE = "all", "page", "player", "none"


def _board(league: League, user=None, *, matches: str = ALL, player: int | None = None) -> Board:
    """The standings from the registrations' stored tallies (``tallies``: no result is
    read for them, so their cost grows with the players, not the matches), and the
    pairings the page shows (``matches``: ALL, PAGE, PLAYER with ``player``, or NONE)."""
    width = len(REG_FIELDS)
    entries = []
    for values in league.registrations.order_by("pk").values_list(*REG_FIELDS, *TALLY_COLUMNS):
        entry = Entry(*values[:width])
        entry.tally = arithmetic.Tally(*values[width:-1])
        entry.meetings = values[-1]
        entries.append(entry)
    for entry in entries:  # a former member's name in the reader's language
        entry.username = shown_username(entry.username, entry.player_id)
    rows = arithmetic.standings_from_tallies(
        [(e.pk, e.gang_name, e.tally) for e in entries],
        services.scoring_of(league),
        league.tiebreak_list,
        tallies.meetings_among({e.pk: e.meetings for e in entries}),
    )
    charted = [row.player for row in rows[:CHART_MAX]]
    if matches == PAGE and len(entries) <= MATRIX_MAX:
        matches = ALL  # the head-to-head matrix shows every result
    pairings = Pairing.objects.filter(round__league=league)
    last = getattr(league, "last_round", None)
    if matches == PAGE:
        if last is None:
            last = league.round_set.aggregate(last=Max("number"))["last"]
        pairings = pairings.filter(
            Q(round__number=last) | Q(a_id__in=charted) | Q(b_id__in=charted)
        )
    elif matches == PLAYER:
        pairings = pairings.filter(Q(a_id=player) | Q(b_id=player))
    loaded = (
        []
        if matches == NONE
        else [
            Match(*values)
            for values in pairings.order_by("round__number", "table", "pk").values_list(
                *MATCH_FIELDS
            )
        ]
    )
    results = [r for r in (m.result() for m in loaded) if r is not None]
    counted_rounds = {r.round for r in results}
    if matches == PAGE and last:
        # Only the last round and the charted players' are read: every round before the
        # last was complete when the next was paired (``services.next_round``), so each
        # has counted results; the last has them if any is in.
        counted_rounds |= set(range(1, last))
    rounds = sorted(counted_rounds)
    _points_by_round(rows[:CHART_MAX], results, rounds, services.scoring_of(league))
    by_id = {e.pk: e for e in entries}
    user_id = getattr(user, "pk", None)
    lines = []
    for row in rows:
        entry = by_id[row.player]
        lines.append(
            Line(
                row=row,
                reg=entry,
                rank_label=f"={row.rank}" if row.tied else str(row.rank),
                note=_tiebreak_note(row.decided_by),
                mine=user_id is not None and entry.player_id == user_id,
            )
        )
    return Board(league, entries, by_id, loaded, lines, rounds)


def _points_by_round(
    rows: list[arithmetic.Row],
    results: list[arithmetic.Result],
    rounds: list[int],
    scoring: arithmetic.Scoring,
) -> None:
    """Fill the charted rows' points after each round, from their results."""
    gained: dict[int, dict[int, int]] = {row.player: {} for row in rows}
    for r in results:
        sides = ((r.a, scoring.win),) if r.b is None else ((r.a, None), (r.b, None))
        for me, points in sides:
            if me not in gained:
                continue
            if points is None:
                points = (
                    scoring.draw
                    if r.winner is None
                    else (scoring.win if r.winner == me else scoring.loss)
                )
            gained[me][r.round] = gained[me].get(r.round, 0) + points
    for row in rows:
        total, after = 0, {}
        for n in rounds:
            total += gained[row.player].get(n, 0)
            after[n] = total
        row.points_by_round = after


# standings.py is plain Python: its tiebreakers' names are translated where shown.
TIEBREAK_NAMES = (
    gettext_noop("Victory Point difference"),
    gettext_noop("Head-to-head"),
    gettext_noop("Strength of schedule"),
)


def _in_words(label: str) -> str:
    """A tiebreaker's name mid-sentence: "head-to-head", but "Victory Point difference"."""
    shown = _(label)
    return shown if label.startswith("Victory") else shown[:1].lower() + shown[1:]


def _tiebreak_note(decided_by: str) -> str:
    return _("on %(tiebreaker)s") % {"tiebreaker": _in_words(decided_by)} if decided_by else ""


# --------------------------------------------------------------------------- page parts


def _first_round(league: League) -> str:
    """How round 1 is (or will be) drawn, with the seed of a random draw."""
    if league.first_round == League.FOLD:
        return _("top half against bottom half, in the order players registered")
    if league.draw_seed is None:
        return _("drawn at random (the seed is shown once it is drawn)")
    return _("drawn at random, seed %(seed)s") % {"seed": league.draw_seed}


def _facts(league: League, registered: int) -> dict[str, Any]:
    """The league's header: game, cap, scoring, tiebreak order, pairing, round 1's draw,
    round x of y (``registered``: every registration, dropped or not)."""
    system = get_system(league.system)
    order = [_("points")] + [
        _in_words(arithmetic.TIEBREAKS[t])
        for t in league.tiebreak_list
        if t in arithmetic.TIEBREAKS
    ]
    return {
        "system": system,
        "cap": f"{league.cap} {system.total_label}" if league.cap is not None else "",
        "scoring": f"{league.win_points} / {league.draw_points} / {league.loss_points}",
        "tiebreaks": _(", then ").join(order),
        "round_now": getattr(league, "last_round", None) or 0,
        "planned": league.planned_rounds(registered),
        "first_round": _first_round(league),
        "uses_h2h": "head_to_head" in league.tiebreak_list,
    }


@dataclass
class Cell:
    text: str
    kind: str  # "self", "none" (to play), "win", "draw", "loss", "mixed"


def _matrix(board: Board) -> dict[str, Any] | None:
    """Players by players in standings order: each counted result of the row player
    against the column player ("W 12-8", with an en dash), a dash on the diagonal,
    "to play" where they have not met. None beyond MATRIX_MAX players."""
    lines = board.lines
    if len(lines) > MATRIX_MAX or len(lines) < 2:
        return None
    met: dict[tuple[int, int], list[tuple[str, int, int]]] = defaultdict(list)
    for m in board.matches:
        if m.is_bye or not m.counts:
            continue
        for me, them, vp_me, vp_them, side in (
            (m.a, m.b, m.vp_a or 0, m.vp_b or 0, "a"),
            (m.b, m.a, m.vp_b or 0, m.vp_a or 0, "b"),
        ):
            outcome = "D" if m.winner == "draw" else ("W" if m.winner == side else "L")
            met[(me, them)].append((outcome, vp_me, vp_them))
    kinds = {"W": "win", "D": "draw", "L": "loss"}
    rows = []
    for line in lines:
        cells = []
        for other in lines:
            if other.reg.pk == line.reg.pk:
                cells.append(Cell("\u2014", "self"))
                continue
            found = met.get((line.reg.pk, other.reg.pk))
            if not found:
                cells.append(Cell(_("to play"), "none"))
                continue
            text = ", ".join(f"{o} {f}{DASH}{a}" for o, f, a in found)
            outcomes = {o for o, _f, _a in found}
            cells.append(Cell(text, kinds[outcomes.pop()] if len(outcomes) == 1 else "mixed"))
        rows.append({"line": line, "cells": cells})
    return {"columns": lines, "rows": rows}


@dataclass
class Chart:
    title: str
    svg: str  # escaped by campaigns.charts
    table: list[list[str]]
    shown: int
    total: int


def _chart(board: Board) -> Chart | None:
    """Points after each round, one line per player (the leading CHART_MAX)."""
    if not board.rounds or not board.lines:
        return None
    labels = [_("Round %(number)s") % {"number": n} for n in board.rounds]
    shown = board.lines[:CHART_MAX]
    series = [
        Series(
            f"{line.reg.gang_name} ({line.reg.username})",
            [line.row.points_by_round.get(n, 0) for n in board.rounds],
        )
        for line in shown
    ]
    title = _("Points after each round")
    return Chart(
        title,
        line_chart(title=title, x_labels=labels, series=series, y_label=_("Points")),
        chart_table(x_labels=labels, series=series),
        len(shown),
        len(board.lines),
    )


def _next_match(board: Board, user) -> dict[str, Any] | None:
    """The user's match in the last round, and what they should do about it."""
    mine = next((r for r in board.registrations if r.player_id == user.pk), None)
    if mine is None or not board.matches:
        return None
    last = board.played_rounds
    match = next(
        (m for m in board.matches if m.round == last and m.side(mine.pk) is not None), None
    )
    if match is None:
        return {"registration": mine, "match": None, "text": "", "round": last}
    side = match.side(mine.pk)
    other_id = match.b if side == "a" else match.a
    opponent = board.by_id.get(other_id) if other_id is not None else None
    if match.is_bye:
        text = _("You have a bye: it scores as a win.")
    elif match.status is None:
        text = _("Play it, then report the result.")
    elif match.status == MatchReport.SUBMITTED:
        text = (
            _("Reported: waiting for %(opponent)s to confirm.") % {"opponent": opponent.username}
            if match.submitted_by == user.pk
            else _("Your opponent reported the result: confirm or dispute it.")
        )
    elif match.status == MatchReport.DISPUTED:
        text = _("Disputed: the organiser settles it.")
    else:
        text = _("Played and confirmed. The organiser pairs the next round.")
    return {
        "registration": mine,
        "match": match,
        "opponent": opponent,
        "text": text,
        "round": last,
        "act": match.status is None
        or (match.status == MatchReport.SUBMITTED and match.submitted_by != user.pk),
    }


def _round_state(board: Board) -> dict[str, int] | None:
    """The last round's matches: how many wait for a report, a confirmation, a decision."""
    last = board.played_rounds
    if not last:
        return None
    games = [m for m in board.matches if m.round == last and not m.is_bye]
    return {
        "number": last,
        "games": len(games),
        "unreported": sum(1 for m in games if m.status is None),
        "waiting": sum(1 for m in games if m.status == MatchReport.SUBMITTED),
        "disputed": sum(1 for m in games if m.status == MatchReport.DISPUTED),
        "done": sum(1 for m in games if m.counts),
    }


# The standings and the public page's results are rendered here rather than by the
# template engine: 500 rows of 15 cells are 7,500 template variables (each localised and
# escaped), about 60 ms; here the user's text is escaped with ``escape`` and the numbers
# are ints, in a tenth of the time. Nothing else goes into these rows.


def _standings_rows(board: Board, *, uses_h2h: bool, public: bool, player_url: str = ""):
    """The standings' table rows (HTML; every piece of user text escaped). Rank, gang and
    points come first, so that a phone shows them without scrolling the table."""
    out = []
    url = escape(player_url)
    separator = formats.get_format("DECIMAL_SEPARATOR")
    for line in board.lines:
        r, e = line.row, line.reg
        classes = []
        notes = []
        if line.mine:
            classes.append("is-mine")
            notes.append(f' <span class="badge">{escape(_("you"))}</span>')
        if e.dropped:
            classes.append("is-dropped")
            notes.append(f' <span class="badge">{escape(_("dropped"))}</span>')
        if line.note:
            notes.append(
                f'<small class="tiebreak-note" data-testid="tiebreak-note">{escape(line.note)}'
                "</small>"
            )
        if not e.legal:
            classes.append("is-illegal")
            notes.append(
                '<small class="illegal-note" data-testid="illegal"><span class="badge error">'
                f"{escape(_('Illegal now'))}</span> {escape('; '.join(e.problem_list))}</small>"
            )
        elif e.gang_id is None:
            notes.append(
                '<small class="illegal-note">'
                f"{escape(_('The gang is no longer in the builder.'))}</small>"
            )
        decimal = r.sos_text.replace(".", separator)  # "4,5" in French (the CSV keeps "4.5")
        gang = escape(e.gang_name)
        if public:
            name = f'<span class="gang-name">{gang}</span>'
        else:
            name = f'<a class="gang-name" href="{url}{e.pk}/">{gang}</a>'
        h2h = ""
        if uses_h2h:
            h2h = f"<td>{DASH_EM if r.head_to_head is None else int(r.head_to_head)}</td>"
        out.append(
            f'<tr class="{" ".join(classes)}" data-testid="standing" data-player="{int(e.pk)}">'
            f'<td class="rank">{escape(line.rank_label)}</td>'
            f'<th scope="row" class="who">{name} <span class="muted">{escape(e.username)}'
            f"</span>{''.join(notes)}</th>"
            f'<td class="points"><strong>{int(r.points)}</strong></td>'
            f"<td>{int(r.played)}</td><td>{int(r.won)}</td><td>{int(r.drawn)}</td>"
            f"<td>{int(r.lost)}</td><td>{int(r.byes)}</td>"
            f"<td>{int(r.vp_for)}</td><td>{int(r.vp_against)}</td><td>{int(r.vp_diff)}</td>"
            f"{h2h}<td>{escape(decimal)}</td></tr>\n"
        )
    return mark_safe("".join(out))  # user text escaped above (html.escape)


def _result_row(m: Match, a: Entry, b: Entry | None) -> str:
    if m.counts:
        score = f"{int(m.vp_a or 0)}{DASH}{int(m.vp_b or 0)}"
        if m.winner == "draw":
            result = escape(_("Draw"))
        else:
            result = escape(_("%(gang)s won") % {"gang": (a if m.winner == "a" else b).gang_name})
    else:
        score = DASH_EM
        label = (
            _("Bye")
            if m.is_bye
            else (STATUS_LABELS.get(m.status, "") if m.status else _("Not reported yet"))
        )
        result = f'<span class="muted">{escape(label)}</span>'
    if b is None:
        other = escape(_("bye"))
    else:
        other = f'{escape(b.gang_name)} <span class="muted">{escape(b.username)}</span>'
    return (
        f'<tr><td>{int(m.table)}</td><td>{escape(a.gang_name)} <span class="muted">'
        f'{escape(a.username)}</span></td><td class="number">{score}</td>'
        f"<td>{other}</td><td>{result}</td></tr>\n"
    )


def _results(board: Board) -> list[dict[str, Any]]:
    """Each round's tables, last round first (for the public page): a score only once
    confirmed or settled; no links."""
    rounds: dict[int, list[str]] = defaultdict(list)
    for m in board.matches:
        b = board.by_id.get(m.b) if m.b is not None else None
        rounds[m.round].append(_result_row(m, board.by_id[m.a], b))
    return [
        {"number": n, "rows": mark_safe("".join(rows))}  # escaped in _result_row
        for n, rows in sorted(rounds.items(), reverse=True)
    ]


# --------------------------------------------------------------------------- league home


@login_required
@require_http_methods(READ_METHODS)
def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    board = _board(league, request.user, matches=PAGE)
    organiser = _is_organiser(league)
    facts = _facts(league, len(board.registrations))
    context = {
        "league": league,
        "facts": facts,
        "board": board,
        "is_organiser": organiser,
        "next_match": _next_match(board, request.user),
        "round_state": _round_state(board),
        "matrix": _matrix(board),
        "matrix_max": MATRIX_MAX,
        "chart": _chart(board),
        "standings_rows": _standings_rows(
            board,
            uses_h2h=facts["uses_h2h"],
            public=False,
            player_url=reverse("league_player", args=[league.pk, 0])[:-2],
        ),
        "public_url": links.absolute(reverse("league_public", args=[league.public_token]), request)
        if organiser
        else "",
        "own_join": _own_join(league, board, request.user),
    }
    return render(request, "leagues/league_detail.html", context)


def _own_join(league: League, board: Board, user) -> dict[str, Any] | None:
    """A member (the organiser too) who is not playing yet, while the league takes
    registrations: her gangs of the league's game, to register with one button (one
    query), the only one chosen to begin with; None otherwise (a late entry to a Swiss
    league goes through the Register page). Whether a gang is legal under the cap is
    checked when it registers (the Register page lists it for each gang)."""
    if league.status != League.REGISTRATION:
        return None
    if any(entry.player_id == user.pk for entry in board.registrations):
        return None
    gangs = Gang.objects.filter(owner=user, system=league.system).order_by("name", "pk")
    choices = list(gangs.values_list("pk", "name"))
    return {"gangs": choices, "only": choices[0] if len(choices) == 1 else None}


# --------------------------------------------------------------------------- a player


@login_required
@require_http_methods(READ_METHODS)
def league_player(request: HttpRequest, league_id: int, registration_id: int) -> HttpResponse:
    league = _league(request, league_id)
    board = _board(league, request.user, matches=PLAYER, player=registration_id)
    reg = board.by_id.get(registration_id)
    if reg is None:
        raise Http404("No such player in this league.")
    line = next(line for line in board.lines if line.reg.pk == reg.pk)
    scoring = services.scoring_of(league)
    history, total = [], 0
    for m in board.matches:
        side = m.side(reg.pk)
        if side is None:
            continue
        other = m.b if side == "a" else m.a
        entry: dict[str, Any] = {
            "m": m,
            "opponent": board.by_id.get(other) if other is not None else None,
            "points": None,
        }
        if m.is_bye:
            entry["outcome"] = gettext_noop("Bye")
            entry["points"] = scoring.win
        elif m.counts:
            vp_me, vp_them = (m.vp_a, m.vp_b) if side == "a" else (m.vp_b, m.vp_a)
            entry["vp"] = f"{vp_me}{DASH}{vp_them}"
            if m.winner == "draw":
                entry["outcome"], entry["points"] = gettext_noop("Draw"), scoring.draw
            elif m.winner == side:
                entry["outcome"], entry["points"] = gettext_noop("Won"), scoring.win
            else:
                entry["outcome"], entry["points"] = gettext_noop("Lost"), scoring.loss
        else:
            entry["outcome"] = ""
            entry["status"] = STATUS_LABELS.get(m.status, "") if m.status else _("Not reported")
        if entry["points"] is not None:
            total += entry["points"]
        entry["total"] = total
        history.append(entry)
    context = {
        "league": league,
        "facts": _facts(league, len(board.registrations)),
        "reg": reg,
        "line": line,
        "history": history,
        "own_gang": reg.gang_id is not None and reg.gang_owner_id == request.user.pk,
        "is_organiser": _is_organiser(league),
    }
    return render(request, "leagues/league_player.html", context)


# --------------------------------------------------------------------------- a match


@dataclass
class Seat:
    """Who looks at which table: their side ("a", "b" or None) and role."""

    league: League
    pairing: Pairing
    report: MatchReport | None
    side: str | None
    organiser: bool


def _seat(request: HttpRequest, league_id: int, pairing_id: int) -> Seat:
    league = _league(request, league_id)
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
        _is_organiser(league),
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


# --------------------------------------------------------------------------- public page


@require_http_methods(READ_METHODS)
def league_public(request: HttpRequest, token: str) -> HttpResponse:
    league = (
        League.objects.select_related("club")
        .annotate(last_round=_last_round_subquery())
        .filter(public_token=token)
        .first()
    )
    if league is None:
        return link_gone(request, _("public link"))
    board = _board(league)
    facts = _facts(league, len(board.registrations))
    context = {
        "league": league,
        "facts": facts,
        "board": board,
        "matrix": _matrix(board),
        "matrix_max": MATRIX_MAX,
        "chart": _chart(board),
        "standings_rows": _standings_rows(board, uses_h2h=facts["uses_h2h"], public=True),
        "results": _results(board),
        "public": True,
    }
    return render(request, "leagues/league_public.html", context)


# --------------------------------------------------------------------------- CSV

#: a spreadsheet reads a cell starting with one of these as a formula
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
#: signs that look like those and that a spreadsheet may take for them. The full-width and
#: small forms (U+FF1D U+FF0B U+FF0D U+FF20, U+FE66 U+FE62 U+FE63 U+FE6B) and super- and
#: subscript signs become = + - @ or a minus sign when the first character is
#: NFKC-normalised; these are what is left: the minus sign, heavy plus and minus, and
#: modifier-letter plus and minus
FORMULA_LOOKALIKES = frozenset("\u2212\u2795\u2796\u02d6\u02d7")


def safe_cell(value: Any) -> Any:
    """Text that a spreadsheet would run as a formula gets a leading apostrophe: one that
    starts with = + - @ (or tab, CR, LF), or with a look-alike of those (full-width U+FF1D...),
    even behind spaces or invisible characters. Numbers are left alone (a VP difference
    of -4 is a number, not a formula)."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_START):
        return "'" + value
    text = value
    while text and (text[0].isspace() or unicodedata.category(text[0]) == "Cf"):
        text = text[1:]
    if text:
        first = unicodedata.normalize("NFKC", text[0])
        if first.startswith(FORMULA_START[:4]) or first[:1] in FORMULA_LOOKALIKES:
            return "'" + value
    return value


def _csv(league: League, what: str, header: list[str], rows: list[list[Any]]) -> HttpResponse:
    name = slugify(league.name) or "league"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}-{what}.csv"'
    response.write("\ufeff")  # so that spreadsheets read the file as UTF-8
    writer = csv.writer(response)
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])
    return response


STANDINGS_HEADER = [
    "rank",
    "player",
    "gang",
    "played",
    "won",
    "drawn",
    "lost",
    "byes",
    "points",
    "vp_for",
    "vp_against",
    "vp_diff",
    "head_to_head",
    "sos",
    "legal",
]
MATCHES_HEADER = [
    "round",
    "table",
    "player_a",
    "gang_a",
    "player_b",
    "gang_b",
    "vp_a",
    "vp_b",
    "winner",
    "status",
    "scenario",
    "deployment",
]


@login_required
@require_http_methods(READ_METHODS)
def league_standings_csv(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    board = _board(league, matches=NONE)
    rows = []
    for line in board.lines:
        r = line.row
        rows.append(
            [
                r.rank,
                line.reg.username,
                line.reg.gang_name,
                r.played,
                r.won,
                r.drawn,
                r.lost,
                r.byes,
                r.points,
                r.vp_for,
                r.vp_against,
                r.vp_diff,
                "" if r.head_to_head is None else r.head_to_head,
                r.sos_text,
                "yes" if line.reg.legal else "no",
            ]
        )
    return _csv(league, "standings", STANDINGS_HEADER, rows)


@login_required
@require_http_methods(READ_METHODS)
def league_matches_csv(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    board = _board(league)
    rows = []
    for m in board.matches:
        a = board.by_id[m.a]
        b = board.by_id.get(m.b) if m.b is not None else None
        if m.is_bye:
            winner, status = a.username, "bye"
        else:
            winner = {"a": a.username, "b": b.username}.get(
                m.winner or "", "draw" if m.winner == "draw" else ""
            )
            status = m.status or "not reported"
        rows.append(
            [
                m.round,
                m.table,
                a.username,
                a.gang_name,
                b.username if b else "",
                b.gang_name if b else "",
                "" if m.vp_a is None else m.vp_a,
                "" if m.vp_b is None else m.vp_b,
                winner,
                status,
                m.scenario or "",
                m.deployment or "",
            ]
        )
    return _csv(league, "matches", MATCHES_HEADER, rows)
