"""League arithmetic: standings with tiebreakers, round-robin schedules and Swiss pairings.

Plain Python (and networkx for the matching), no Django: views and services hand in ids
and confirmed results, and get back ordered rows and pairs.

**Scoring** (default 3 / 1 / 0 for a win, draw and loss; a bye scores as a win with no
Victory Points). **Tiebreakers**, in the league's order after points: Victory Point
difference, head-to-head (points scored in the matches between the tied players only),
strength of schedule (the sum of the points of every opponent played). Players equal on
every tiebreaker share a rank.

**Swiss pairing** is a maximum-weight matching over every possible pair: a pair that has
not met is worth more than any sum of "closeness" bonuses, so the matching avoids every
rematch that can be avoided, and among those prefers players close in the standings. With
an odd number of players, one sits out with a bye: never a player who already had one
while someone else has not, and preferably the lowest-ranked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

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
    sos: int = 0
    head_to_head: int | None = None  # only when the tie came down to it
    rank: int = 0
    tied: bool = False  # shares its rank with another player
    decided_by: str = ""  # the tiebreaker that separated it from the row above
    opponents: list[int] = field(default_factory=list)
    points_by_round: dict[int, int] = field(default_factory=dict)  # points after each round

    @property
    def vp_diff(self) -> int:
        return self.vp_for - self.vp_against


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
        row.sos = sum(rows[o].points for o in row.opponents)
    rounds = sorted({r.round for r in results})
    for row in rows.values():
        total = 0
        for n in rounds:
            total += gained_in_round[row.player].get(n, 0)
            row.points_by_round[n] = total
    ordered: list[Row] = []
    criteria = ["points", *[t for t in tiebreaks if t in TIEBREAKS]]
    start = sorted(rows.values(), key=lambda r: (r.name.lower(), r.player))
    for group, decided in _order(start, criteria, meetings, scoring):
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


def _order(
    group: list[Row],
    criteria: list[str],
    meetings: dict[frozenset[int], list[Result]],
    scoring: Scoring,
    decided: str = "",
) -> list[tuple[list[Row], str]]:
    """Split ``group`` by the first criterion (best first), then each tie by the next."""
    if len(group) <= 1 or not criteria:
        return [(group, decided)]
    criterion, rest = criteria[0], criteria[1:]
    if criterion == "head_to_head":
        ids = {r.player for r in group}
        for row in group:
            row.head_to_head = sum(
                _points(m, row.player, scoring)
                for other in ids - {row.player}
                for m in meetings.get(frozenset((row.player, other)), ())
            )
    value = {
        "points": lambda r: r.points,
        "vp_diff": lambda r: r.vp_diff,
        "head_to_head": lambda r: r.head_to_head or 0,
        "sos": lambda r: r.sos,
    }[criterion]
    out: list[tuple[list[Row], str]] = []
    levels = sorted({value(r) for r in group}, reverse=True)
    for i, level in enumerate(levels):
        tied = [r for r in group if value(r) == level]
        # the first subgroup keeps what separated the group; the others were split here
        why = decided if i == 0 else ("" if criterion == "points" else TIEBREAKS[criterion])
        out += _order(tied, rest, meetings, scoring, why)
    return out


# --------------------------------------------------------------------------- pairings


def round_robin(players: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """Every round of a round-robin (the circle method): each pair meets once; with an odd
    number of players each round has one bye (``None``), and everyone sits out once."""
    ring: list[int | None] = list(players)
    if len(ring) < 2:
        return []
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for _ in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None:
                a, b = b, a
            pairs.append((a, b))
        byes = [p for p in pairs if p[1] is None]
        rounds.append([p for p in pairs if p[1] is not None] + byes)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def swiss(
    ranked: Sequence[int],
    met: Iterable[Iterable[int]] = (),
    had_bye: Iterable[int] = (),
) -> list[tuple[int, int | None]]:
    """One Swiss round for ``ranked`` (best first): pairs of players, and ``(p, None)`` for
    a bye when the number is odd. Rematches only when no pairing without one exists; the
    bye to a player who has not had one (the lowest-ranked such player, all else equal)."""
    import networkx as nx

    players = list(dict.fromkeys(ranked))
    if len(players) < 2:
        return [(p, None) for p in players]
    met_pairs = {frozenset(pair) for pair in met}
    byes = set(had_bye)
    position = {p: i for i, p in enumerate(players)}
    n = len(players)
    close_max = n * n
    fresh = close_max * (n + 2)  # worth more than every closeness bonus together
    bye_node = "bye"
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for a, b in combinations(players, 2):
        closeness = close_max - (position[a] - position[b]) ** 2
        graph.add_edge(a, b, weight=closeness + (0 if frozenset((a, b)) in met_pairs else fresh))
    if n % 2:
        graph.add_node(bye_node)
        can_sit = [p for p in players if p not in byes] or players
        for p in can_sit:
            # the lowest-ranked sit out first: the bye is "close" to the bottom
            graph.add_edge(p, bye_node, weight=fresh + close_max - (n - position[p]) ** 2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int | None]] = []
    bye: tuple[int, None] | None = None
    for a, b in matching:
        if bye_node in (a, b):
            bye = (b if a == bye_node else a, None)
            continue
        pairs.append((a, b) if position[a] < position[b] else (b, a))
    pairs.sort(key=lambda p: position[p[0]])
    if len(pairs) * 2 + (1 if bye else 0) != n:  # pragma: no cover - maxcardinality
        raise RuntimeError("the matching left a player out")
    return pairs + ([bye] if bye else [])


def rematches(pairs: Iterable[tuple[int, int | None]], met: Iterable[Iterable[int]]) -> int:
    """How many of ``pairs`` have met before."""
    seen = {frozenset(p) for p in met}
    return sum(1 for a, b in pairs if b is not None and frozenset((a, b)) in seen)
