"""Standings: scoring, tiebreakers and ranks. Plain Python, no Django: views and services
hand in ids and confirmed results, and get back ordered rows. The rules in words, with
worked examples: docs/leagues.md.

**Scoring** (default 3 / 1 / 0 for a win, draw and loss; a bye scores as a win with no
Victory Points). Players are ranked by points, then by the league's **tiebreakers** in
its order:

- *Victory Point difference*: Victory Points scored minus conceded;
- *head-to-head*: the points scored in the matches between the tied players only. It
  counts only when every tied player has met every other (else it is skipped: it would
  favour whoever happened to meet whom). After any tiebreaker separates some of a tied
  group, the players still tied are ranked again from the first tiebreaker, so
  head-to-head is applied again among them alone. A row's ``head_to_head`` is its
  figure among the largest group head-to-head counted for (the first it was applied to);
- *strength of schedule*: the average of the points of the opponents played. A bye has
  no opponent and is left out of the average (a sum would make a bye cost SoS).

Players equal on points and every tiebreaker share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from gangfight_site.sorting import name_key

TIEBREAKS = {
    "vp_diff": "Victory Point difference",
    "head_to_head": "Head-to-head",
    "sos": "Strength of schedule",
}
DEFAULT_TIEBREAKS = ("vp_diff", "head_to_head", "sos")


@dataclass(frozen=True)
class Scoring:
    win: int = 3
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True)
class Result:
    """A confirmed match: ``b`` None is a bye for ``a``; ``winner`` None is a draw."""

    round: int
    a: int
    b: int | None
    vp_a: int = 0
    vp_b: int = 0
    winner: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass
class Row:
    player: int
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    points: int = 0
    vp_for: int = 0
    vp_against: int = 0
    #: the average of the opponents' points (exact; ``sos_text`` shows it)
    sos: Fraction = Fraction(0)
    #: points against the players tied with, when head-to-head counted for the tie: the
    #: largest group it was applied to (a smaller group ranked again keeps this figure)
    head_to_head: int | None = None
    rank: int = 0
    tied: bool = False  # shares its rank with another player
    decided_by: str = ""  # the tiebreaker that separated it from the row above
    opponents: list[int] = field(default_factory=list)
    points_by_round: dict[int, int] = field(default_factory=dict)  # points after each round

    @property
    def vp_diff(self) -> int:
        return self.vp_for - self.vp_against

    @property
    def sos_text(self) -> str:
        return number_text(self.sos)


def number_text(value: Fraction | int) -> str:
    """``4``, ``4.5``, ``3.33``: a whole number as such, else two decimals at most."""
    if Fraction(value).denominator == 1:
        return str(int(value))
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def strength_of_schedule(opponent_points: Sequence[int]) -> Fraction:
    """The average of the opponents' points; 0 with no opponent yet (byes only)."""
    if not opponent_points:
        return Fraction(0)
    return Fraction(sum(opponent_points), len(opponent_points))


def standings(
    players: Iterable[tuple[int, str]],
    results: Iterable[Result],
    scoring: Scoring = Scoring(),
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[Row]:
    """Every player's row, best first, with ranks (shared when every tiebreaker is equal)."""
    rows = {pid: Row(pid, name) for pid, name in players}
    results = [r for r in results if r.a in rows and (r.b is None or r.b in rows)]
    meetings: dict[frozenset[int], list[Result]] = defaultdict(list)
    gained_in_round: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for r in results:
        if r.is_bye:
            row = rows[r.a]
            row.byes += 1
            row.points += scoring.win
            gained_in_round[r.a][r.round] += scoring.win
            continue
        meetings[frozenset((r.a, r.b))].append(r)
        for me, them, vp_me, vp_them in ((r.a, r.b, r.vp_a, r.vp_b), (r.b, r.a, r.vp_b, r.vp_a)):
            row = rows[me]
            row.played += 1
            row.vp_for += vp_me
            row.vp_against += vp_them
            row.opponents.append(them)
            points = _points(r, me, scoring)
            row.points += points
            gained_in_round[me][r.round] += points
            if r.winner is None:
                row.drawn += 1
            elif r.winner == me:
                row.won += 1
            else:
                row.lost += 1
    for row in rows.values():
        row.sos = strength_of_schedule([rows[o].points for o in row.opponents])
    rounds = sorted({r.round for r in results})
    for row in rows.values():
        total = 0
        for n in rounds:
            total += gained_in_round[row.player].get(n, 0)
            row.points_by_round[n] = total
    ordered: list[Row] = []
    chosen = [t for t in dict.fromkeys(tiebreaks) if t in TIEBREAKS]
    by_points: dict[int, list[Row]] = defaultdict(list)
    for row in sorted(rows.values(), key=lambda r: (name_key(r.name), r.player)):
        by_points[row.points].append(row)
    for points in sorted(by_points, reverse=True):
        for group, decided in _split(by_points[points], chosen, meetings, scoring):
            rank = len(ordered) + 1
            for row in group:
                row.rank = rank
                row.tied = len(group) > 1
                row.decided_by = decided
                ordered.append(row)
    return ordered


def _points(r: Result, me: int, scoring: Scoring) -> int:
    if r.winner is None:
        return scoring.draw
    return scoring.win if r.winner == me else scoring.loss


def _split(
    group: list[Row],
    tiebreaks: list[str],
    meetings: dict[frozenset[int], list[Result]],
    scoring: Scoring,
    decided: str = "",
) -> list[tuple[list[Row], str]]:
    """Order players equal on points: the first tiebreaker (in the league's order) that
    gives them different values splits them, best first; each smaller group still tied
    is ranked again from the first tiebreaker, among its own players only (this is what
    re-applies head-to-head after a later tiebreaker separated someone). Returns the
    groups that stay tied, each with the tiebreaker that separated it from the one above
    (the first keeps ``decided``, what separated the whole group)."""
    if len(group) <= 1:
        return [(group, decided)]
    for tiebreak in tiebreaks:
        value = _values(tiebreak, group, meetings, scoring)
        if value is None:
            continue
        levels = sorted(set(value.values()), reverse=True)
        if len(levels) == 1:
            continue
        out: list[tuple[list[Row], str]] = []
        for i, level in enumerate(levels):
            tied = [r for r in group if value[r.player] == level]
            out += _split(
                tied, tiebreaks, meetings, scoring, decided if i == 0 else TIEBREAKS[tiebreak]
            )
        return out
    return [(group, decided)]


def _values(
    tiebreak: str,
    group: list[Row],
    meetings: dict[frozenset[int], list[Result]],
    scoring: Scoring,
) -> dict[int, Fraction | int] | None:
    """Each player's value for ``tiebreak`` (higher is better); None when it does not
    apply: head-to-head among players who have not all met each other."""
    if tiebreak == "vp_diff":
        return {r.player: r.vp_diff for r in group}
    if tiebreak == "sos":
        return {r.player: r.sos for r in group}
    ids = [r.player for r in group]
    if any(frozenset(pair) not in meetings for pair in combinations(ids, 2)):
        return None
    value = {}
    for row in group:
        value[row.player] = sum(
            _points(m, row.player, scoring)
            for other in ids
            if other != row.player
            for m in meetings[frozenset((row.player, other))]
        )
        if row.head_to_head is None:
            # The column shows the head-to-head among the largest group it counted for
            # (the first: groups only shrink), not a smaller group's ranked again later.
            row.head_to_head = value[row.player]
    return value
