"""A league's pages: standings, a player's history, the public page, CSV.

Thin views: read the request, read the league's board (``campaigns/leagues/board.py``, the
read model: standings, matrix, chart, results, from three queries whatever the league's
size), render. A match's page and its report steps are in ``views/matches.py``.

Who sees what: every page but the public one is for the club's members, found by a query
that starts from the user (anyone else gets a 404). The public page (``/l/<token>/``) is
read-only for anyone with its link.
"""

from __future__ import annotations

import csv
import unicodedata
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from builder.models import Gang
from campaigns.access import login_required
from campaigns.leagues.board import (
    MATRIX_MAX,
    NONE,
    PAGE,
    PLAYER,
    Board,
    h2h_matrix,
    is_organiser,
    league_facts,
    member_league,
    next_match,
    player_history,
    points_chart,
    public_league,
    read_board,
    results,
    round_state,
    standings_rows,
)
from campaigns.leagues.models import League
from campaigns.views import link_gone
from common import links  # SITE_URL's links, never the Host's

READ_METHODS = ["GET", "HEAD"]


# --------------------------------------------------------------------------- league home


@login_required
@require_http_methods(READ_METHODS)
def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = member_league(request.user, league_id)
    board = read_board(league, request.user, matches=PAGE)
    organiser = is_organiser(league)
    facts = league_facts(league, len(board.registrations))
    context = {
        "league": league,
        "facts": facts,
        "board": board,
        "is_organiser": organiser,
        "next_match": next_match(board, request.user),
        "round_state": round_state(board),
        "matrix": h2h_matrix(board),
        "matrix_max": MATRIX_MAX,
        "chart": points_chart(board),
        "standings_rows": standings_rows(
            board,
            uses_h2h=facts["uses_h2h"],
            public=False,
            player_url=reverse("league_player", args=[league.pk, 0])[:-2],
        ),
        "public_url": links.absolute(reverse("league_public", args=[league.public_token]), request)
        if organiser
        else "",
        "own_join": _own_join(league, board, request.user),
        "own_registration": any(e.player_id == request.user.pk for e in board.registrations),
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
    league = member_league(request.user, league_id)
    board = read_board(league, request.user, matches=PLAYER, player=registration_id)
    reg = board.by_id.get(registration_id)
    if reg is None:
        raise Http404("No such player in this league.")
    context = {
        "league": league,
        "facts": league_facts(league, len(board.registrations)),
        "reg": reg,
        "line": next(line for line in board.lines if line.reg.pk == reg.pk),
        "history": player_history(board, reg),
        "own_gang": reg.gang_id is not None and reg.gang_owner_id == request.user.pk,
        "is_organiser": is_organiser(league),
    }
    return render(request, "leagues/league_player.html", context)


# --------------------------------------------------------------------------- public page


@require_http_methods(READ_METHODS)
def league_public(request: HttpRequest, token: str) -> HttpResponse:
    league = public_league(token)
    if league is None:
        return link_gone(request, _("public link"))
    board = read_board(league)
    facts = league_facts(league, len(board.registrations))
    context = {
        "league": league,
        "facts": facts,
        "board": board,
        "matrix": h2h_matrix(board),
        "matrix_max": MATRIX_MAX,
        "chart": points_chart(board),
        "standings_rows": standings_rows(board, uses_h2h=facts["uses_h2h"], public=True),
        "results": results(board),
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
    league = member_league(request.user, league_id)
    board = read_board(league, matches=NONE)
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
    league = member_league(request.user, league_id)
    board = read_board(league)
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
