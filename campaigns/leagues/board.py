"""A league's board: the read model its pages show (standings, head-to-head matrix, chart,
the round under way, each round's results, a player's history), read as plain values.

Not a view: the views (``views/leagues.py``, ``views/matches.py``) read the request, call
these, and render.

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

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache as default_cache
from django.db.models import Max, OuterRef, Q, Subquery
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils import formats
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from campaigns.charts import Series, chart_table, line_chart
from campaigns.leagues import services, tallies
from campaigns.leagues import standings as arithmetic
from campaigns.leagues.models import ClubMember, League, MatchReport, Pairing, Round
from common.names import shown_username
from rules import get_system

#: the head-to-head matrix is drawn up to this many players (beyond: each player's page)
MATRIX_MAX = 24
#: the chart draws the leading players only (one line each)
CHART_MAX = 12
COUNTED = (MatchReport.CONFIRMED, MatchReport.SETTLED)
STATUS_LABELS = dict(MatchReport.STATUSES)
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
    "disqualified",
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
    disqualified: bool
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
        """What makes the gang illegal, as readable sentences (each once)."""
        return services.problem_sentences(self.problems.splitlines())


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

    ``matches`` holds what the page asked for (``read_board``'s ``matches``): every pairing,
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


# --------------------------------------------------------------------------- the league


def role_subquery(user) -> Subquery:
    return Subquery(ClubMember.objects.filter(club=OuterRef("club"), user=user).values("role")[:1])


def last_round_subquery() -> Subquery:
    return Subquery(
        Round.objects.filter(league=OuterRef("pk")).order_by("-number").values("number")[:1]
    )


def member_league(user, league_id: int) -> League:
    """The league, if ``user`` is a member of its club (else 404), with ``my_role`` and
    ``last_round`` annotated: one query."""
    leagues = (
        League.objects.filter(club__members__user=user)
        .select_related("club")
        .annotate(my_role=role_subquery(user), last_round=last_round_subquery())
    )
    return get_object_or_404(leagues, pk=league_id)


def public_league(token: str) -> League | None:
    """The league of a public link, with ``last_round`` annotated (one query); None when
    the link is wrong or was reset."""
    return (
        League.objects.select_related("club")
        .annotate(last_round=last_round_subquery())
        .filter(public_token=token)
        .first()
    )


def is_organiser(league: League) -> bool:
    return getattr(league, "my_role", None) == ClubMember.ORGANISER


# --------------------------------------------------------------------------- the board


#: which pairings a page reads (``read_board``): every one; the league page's (the last
#: round and the charted players', or every one up to MATRIX_MAX players); one player's
#: (``player=``); none (the standings alone)
ALL, PAGE, PLAYER, NONE = "all", "page", "player", "none"


def read_board(
    league: League, user=None, *, matches: str = ALL, player: int | None = None
) -> Board:
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
    counted = [r for r in (m.result() for m in loaded) if r is not None]
    counted_rounds = {r.round for r in counted}
    if matches == PAGE and last:
        # Only the last round and the charted players' are read: every round before the
        # last was complete when the next was paired (``services.next_round``), so each
        # has counted results; the last has them if any is in.
        counted_rounds |= set(range(1, last))
    rounds = sorted(counted_rounds)
    points_by_round(rows[:CHART_MAX], counted, rounds, services.scoring_of(league))
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
                note=tiebreak_note(row.decided_by),
                mine=user_id is not None and entry.player_id == user_id,
            )
        )
    return Board(league, entries, by_id, loaded, lines, rounds)


def points_by_round(
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


def in_words(label: str) -> str:
    """A tiebreaker's name mid-sentence: "head-to-head", but "Victory Point difference"."""
    shown = _(label)
    return shown if label.startswith("Victory") else shown[:1].lower() + shown[1:]


def tiebreak_note(decided_by: str) -> str:
    return _("on %(tiebreaker)s") % {"tiebreaker": in_words(decided_by)} if decided_by else ""


# --------------------------------------------------------------------------- page parts


def first_round_text(league: League) -> str:
    """How round 1 is (or will be) drawn, with the seed of a random draw."""
    if league.first_round == League.FOLD:
        return _("top half against bottom half, in the order players registered")
    if league.draw_seed is None:
        return _("drawn at random (the seed is shown once it is drawn)")
    return _("drawn at random, seed %(seed)s") % {"seed": league.draw_seed}


def league_facts(league: League, registered: int) -> dict[str, Any]:
    """The league's header: game, cap, scoring, tiebreak order, pairing, round 1's draw,
    round x of y (``registered``: every registration, dropped or not)."""
    system = get_system(league.system)
    order = [_("points")] + [
        in_words(arithmetic.TIEBREAKS[t]) for t in league.tiebreak_list if t in arithmetic.TIEBREAKS
    ]
    return {
        "system": system,
        "cap": f"{league.cap} {system.total_label}" if league.cap is not None else "",
        "scoring": f"{league.win_points} / {league.draw_points} / {league.loss_points}",
        "tiebreaks": _(", then ").join(order),
        "round_now": getattr(league, "last_round", None) or 0,
        "planned": league.planned_rounds(registered),
        "first_round": first_round_text(league),
        "uses_h2h": "head_to_head" in league.tiebreak_list,
    }


@dataclass
class Cell:
    text: str
    kind: str  # "self", "none" (to play), "win", "draw", "loss", "mixed"


def h2h_matrix(board: Board) -> dict[str, Any] | None:
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


def points_chart(board: Board) -> Chart | None:
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


def next_match(board: Board, user) -> dict[str, Any] | None:
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
        text = (
            _("You have a bye: it scores as a win.")
            if board.league.pairing == League.ROUND_ROBIN
            else _(
                "You have a bye: it scores as a win. The bye goes to the lowest-ranked "
                "player who has not had one."
            )
        )
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


def round_state(board: Board) -> dict[str, int] | None:
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


# --------------------------------------------------------------------------- standings
# The standings' rows are built here rather than by the template engine: 500 rows of 15
# cells are 7,500 template variables (each localised and escaped), about 60 ms, and they
# change with every result; here the user's text is escaped with ``escape`` and the
# numbers are ints, in a tenth of the time. Nothing else goes into these rows.


def standings_rows(board: Board, *, uses_h2h: bool, public: bool, player_url: str = ""):
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
            word = _("disqualified") if e.disqualified else _("dropped")
            notes.append(f' <span class="badge">{escape(word)}</span>')
        if line.note:
            notes.append(
                f'<small class="tiebreak-note" data-testid="tiebreak-note">{escape(line.note)}'
                "</small>"
            )
        if not e.legal:
            classes.append("is-illegal")
            sentences = "".join(f"<li>{escape(p)}</li>" for p in e.problem_list)
            notes.append(
                '<small class="illegal-note" data-testid="illegal"><span class="badge error">'
                f"{escape(_('Illegal now'))}</span></small>"
                f'<ul class="finding-list compact illegal-problems">{sentences}</ul>'
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


# --------------------------------------------------------------------------- results
# Each round's results are rendered by a template (``leagues/_result_rows.html``), which
# escapes every name. 5,000 matches are 40,000 template variables (about 150 ms), so each
# round's rows are kept in the cache under a digest of what they are made from (each
# table's values and names, the reader's language, this module and the template): a
# finished round is rendered once, a new result renders its own round again, and
# nothing shown can be stale.

RESULT_ROWS = "leagues/_result_rows.html"
#: how long a round's rendered results are kept
RESULTS_SECONDS = 7 * 24 * 3600


@dataclass
class ResultRound:
    number: int
    rows: SafeString  # rendered by RESULT_ROWS (every name escaped there)


def result_row(m: Match, a: Entry, b: Entry | None) -> dict[str, Any]:
    """What a round's results show for one table: a score only once confirmed or settled;
    ``b`` None for a bye (``b_player`` then empty)."""
    if m.counts:
        score = f"{int(m.vp_a or 0)}{DASH}{int(m.vp_b or 0)}"
        if m.winner == "draw":
            result = _("Draw")
        else:
            result = _("%(gang)s won") % {"gang": (a if m.winner == "a" else b).gang_name}
        muted = False
    else:
        score = DASH_EM
        if m.is_bye:
            result = _("Bye")
        else:
            result = STATUS_LABELS.get(m.status, "") if m.status else _("Not reported yet")
        muted = True
    return {
        "table": m.table,
        "a": a.gang_name,
        "a_player": a.username,
        "score": score,
        "b": None if b is None else b.gang_name,
        "b_player": "" if b is None else b.username,
        "result": str(result),
        "muted": muted,
    }


@cache
def _code_digest() -> str:
    """This module and the results template: a new release never shows rows cached by the
    old one."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(Path(__file__).read_bytes())
    digest.update((settings.BASE_DIR / "templates" / RESULT_ROWS).read_bytes())
    return digest.hexdigest()


def _results_key(board: Board, number: int, matches: list[Match]) -> str:
    """What a round's rows are made from (everything ``result_row`` reads), hashed."""
    by_id = board.by_id
    made_from = [get_language(), _code_digest()]
    for m in matches:
        a = by_id[m.a]
        b = by_id.get(m.b) if m.b is not None else None
        made_from.append(
            (m.table, m.status, m.vp_a, m.vp_b, m.winner, a.gang_name, a.username)
            + (() if b is None else (b.gang_name, b.username))
        )
    digest = hashlib.blake2b(repr(made_from).encode(), digest_size=16).hexdigest()
    return f"league-results:{board.league.pk}:{number}:{digest}"


def results(board: Board) -> list[ResultRound]:
    """Each round's tables, last round first (for the public page): a score only once
    confirmed or settled; no links. One cache read for every round; only the rounds not
    in the cache are rendered."""
    rounds: dict[int, list[Match]] = defaultdict(list)
    for m in board.matches:
        rounds[m.round].append(m)
    numbers = sorted(rounds, reverse=True)
    keys = {n: _results_key(board, n, rounds[n]) for n in numbers}
    kept = default_cache.get_many(list(keys.values()))
    out, fresh = [], {}
    for n in numbers:
        html = kept.get(keys[n])
        if html is None:
            rows = [
                result_row(m, board.by_id[m.a], board.by_id.get(m.b) if m.b is not None else None)
                for m in rounds[n]
            ]
            html = fresh[keys[n]] = render_to_string(RESULT_ROWS, {"rows": rows})
        out.append(ResultRound(n, mark_safe(html)))  # the template's output
    if fresh:
        default_cache.set_many(fresh, RESULTS_SECONDS)
    return out


# --------------------------------------------------------------------------- a player


def player_history(board: Board, reg: Entry) -> list[dict[str, Any]]:
    """A player's matches (``board`` read with ``matches=PLAYER``), each with its outcome,
    the points it gave and the running total."""
    scoring = services.scoring_of(board.league)
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
    return history
