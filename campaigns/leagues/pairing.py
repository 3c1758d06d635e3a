"""Pairings: round 1, Swiss rounds and round robins. Plain Python (networkx for the
matching), no Django. The rules in words, with the conventions they follow: docs/leagues.md.

**Round 1** (``first_round``) is the organiser's choice: drawn at random from a seed that
is stored, so the draw can be made again (``seeded_order``), or top half against bottom
half in registration order (``fold``: with 8 players, 1-5, 2-6, 3-7, 4-8). With an odd
number, the last of the order sits out with a bye. (A round robin's schedule is made from
the registration order, shuffled by the same seed when round 1 is drawn at random.)

**A Swiss round** (``swiss``) is the best of every possible pairing, compared on these
points in turn (the first that differs decides):

1. the bye goes to a player with the fewest byes so far: never a second bye while
   someone has had none;
2. the fewest rematches: none whenever a pairing without one exists;
3. the bye goes to the lowest-ranked player it can go to;
4. the score gaps: players meet within their score group, and float down only when
   needed: the largest gap between two opponents' points as small as possible, then as
   few pairs with that gap as possible, then the same for the next largest gap, and so on;
5. the fewest places between opponents in the standings (neighbours meet).

A round is one maximum-weight matching over every possible pair (networkx), with each
pair's weight built from these points so that any difference in a point outweighs every
difference in the points after it: the matching is exactly the best pairing, not an
approximation.

**A round robin** (``round_robin``) is the circle method: n - 1 rounds for n players (n
if odd, each player sitting out once). ``round_robin_round`` pairs a round for the players
still in: the schedule's round while nobody has dropped; after a drop, never a rematch,
no game left unplayed, nobody sitting out a second time while a pairing avoids it, and
the schedule otherwise.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations

#: round 1's draw: at random (from a stored seed), or top half against bottom half
RANDOM, FOLD = "random", "fold"

Pair = tuple[int, int | None]
Cost = tuple[int, ...]


# --------------------------------------------------------------------------- round 1


def seeded_order(players: Sequence[int], seed: int) -> list[int]:
    """``players`` shuffled by ``random.Random(seed)``: the same seed, the same order."""
    order = list(players)
    random.Random(seed).shuffle(order)
    return order


def fold(order: Sequence[int]) -> list[Pair]:
    """Top half against bottom half: of 2h players, the i-th plays the (h + i)-th; with
    an odd number, the last sits out (a bye, listed last)."""
    order = list(order)
    bye = order.pop() if len(order) % 2 else None
    half = len(order) // 2
    pairs: list[Pair] = [(order[i], order[half + i]) for i in range(half)]
    return pairs + ([(bye, None)] if bye is not None else [])


def first_round(players: Sequence[int], method: str, seed: int | None = None) -> list[Pair]:
    """Round 1 for ``players`` in registration order: ``RANDOM`` folds the order
    shuffled by ``seed``; ``FOLD`` folds the registration order itself."""
    if method == RANDOM:
        if seed is None:
            raise ValueError("a random draw needs its seed")
        return fold(seeded_order(players, seed))
    return fold(players)


# --------------------------------------------------------------------------- Swiss


def swiss(
    ranked: Sequence[int],
    met: Iterable[Iterable[int]] = (),
    had_bye: Iterable[int] = (),
    scores: Mapping[int, int | float] | None = None,
) -> list[Pair]:
    """One Swiss round for ``ranked`` (best first, as the standings order them): pairs,
    best-placed first, then ``(p, None)`` for the bye when the number is odd.

    ``met``: pairs who have played each other; ``had_bye``: every bye so far (a player
    once per bye); ``scores``: each player's points (missing: 0). The best pairing by
    the rules in this module's docstring."""
    players = list(dict.fromkeys(ranked))
    if len(players) < 2:
        return [(p, None) for p in players]
    position = {p: i for i, p in enumerate(players)}
    score = {p: (scores or {}).get(p, 0) for p in players}
    met_pairs = _pairs(met)
    byes = Counter(had_bye)
    n = len(players)
    gaps = sorted({abs(score[a] - score[b]) for a, b in combinations(players, 2)} - {0})
    gap_tier = {g: len(gaps) - 1 - i for i, g in enumerate(gaps)}  # the largest gap first

    def edge(a: int, b: int) -> Cost:
        at_gap = [0] * len(gaps)
        gap = abs(score[a] - score[b])
        if gap:
            at_gap[gap_tier[gap]] = 1
        rematch = 1 if frozenset((a, b)) in met_pairs else 0
        return (rematch, 0, *at_gap, (position[a] - position[b]) ** 2)

    def bye(p: int) -> Cost:
        # (1. only players with the fewest byes may sit out: ``can_sit``)
        return (0, n - 1 - position[p], *([0] * len(gaps)), 0)

    fewest = min(byes[p] for p in players)
    can_sit = [p for p in players if byes[p] == fewest]
    pairs = _best(players, edge, bye, can_sit, one_bye=True)
    return _ordered(pairs, position)


# --------------------------------------------------------------------------- round robin


def round_robin(players: Sequence[int]) -> list[list[Pair]]:
    """Every round of a round robin (the circle method): each pair meets once; with an
    odd number of players each round has one bye (``None``), and everyone sits out once.
    Round 1 pairs the first of ``players`` with the last, the second with the last but
    one, and so on (top half against bottom half)."""
    if len(players) < 2:
        return []
    ring: list[int | None] = list(players)
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


def round_robin_length(players: int) -> int:
    """A full round robin's rounds: n - 1 for n players, n if n is odd."""
    return 0 if players < 2 else players - 1 + players % 2


def games_to_play(
    schedule: Sequence[Sequence[Pair]],
    rounds: int,
    active: Iterable[int],
    met: Iterable[Iterable[int]] = (),
) -> set[frozenset[int]]:
    """The games of the schedule's first ``rounds`` rounds between players still in that
    have not been played (whatever round they were planned for)."""
    players = set(active)
    played = _pairs(met)
    return {
        frozenset(pair)
        for planned in schedule[:rounds]
        for pair in planned
        if pair[1] is not None and set(pair) <= players and frozenset(pair) not in played
    }


def round_robin_round(
    schedule: Sequence[Sequence[Pair]],
    number: int,
    active: Sequence[int],
    met: Iterable[Iterable[int]] = (),
    had_bye: Iterable[int] = (),
    rounds: int | None = None,
) -> list[Pair]:
    """Round ``number`` (from 1) of a round robin of ``rounds`` rounds (the schedule's
    length if None) for the players still in (``active``, in registration order).

    With everyone still in, it is the schedule's round. After a drop, the round is paired
    so that: never a rematch; every game still to play (``games_to_play``) can still be
    played in the rounds left; nobody sits out a second time (or a third) while a
    pairing avoids it; the fewest sit out; the fewest changes to the schedule. The
    pairing is checked by playing the rest of the league out with the same rule; if a
    game would be left unplayed, the round keeps to the schedule instead (the games it
    plans, the others sit out), which never leaves a game unplayed.
    """
    rounds = len(schedule) if rounds is None else min(rounds, len(schedule))
    players = list(dict.fromkeys(active))
    met_pairs = _pairs(met)
    byes = Counter(had_bye)
    pairs = _robin_candidate(schedule, number, players, met_pairs, byes, rounds)
    if not _leaves_games_unplayed(schedule, number, players, met_pairs, byes, rounds, pairs):
        return pairs
    planned = schedule[number - 1] if number <= len(schedule) else []
    kept: list[Pair] = []
    for a, b in planned:
        if b is not None and a in players and b in players and frozenset((a, b)) not in met_pairs:
            kept.append((a, b))
    seated = {p for pair in kept for p in pair}
    position = {p: i for i, p in enumerate(players)}
    return _ordered(kept + [(p, None) for p in players if p not in seated], position)


def _robin_candidate(
    schedule: Sequence[Sequence[Pair]],
    number: int,
    players: list[int],
    met_pairs: set[frozenset[int]],
    byes: Counter[int],
    rounds: int,
) -> list[Pair]:
    position = {p: i for i, p in enumerate(players)}
    planned = (
        {frozenset(p) for p in schedule[number - 1] if p[1] is not None}
        if number <= len(schedule)
        else set()
    )
    todo = games_to_play(schedule, rounds, players, met_pairs)
    left = Counter(p for pair in todo for p in pair)  # games each still has to play
    rounds_left = max(rounds - number + 1, 1)
    has_game = {p for pair in planned & todo for p in pair}

    def edge(a: int, b: int) -> Cost | None:
        if frozenset((a, b)) in met_pairs:
            return None  # never a rematch in a round robin
        changed = 0 if frozenset((a, b)) in planned else 1
        return (0, 0, 0, 0, changed, (position[a] - position[b]) ** 2)

    def bye(p: int) -> Cost:
        must_play = 1 if left[p] >= rounds_left else 0  # else a game of theirs is lost
        return (must_play, byes[p], 1, left[p], 1 if p in has_game else 0, 0)

    return _ordered(_best(players, edge, bye, players, one_bye=False), position)


def _leaves_games_unplayed(
    schedule: Sequence[Sequence[Pair]],
    number: int,
    players: list[int],
    met_pairs: set[frozenset[int]],
    byes: Counter[int],
    rounds: int,
    pairs: list[Pair],
) -> bool:
    """Would the league, from this round on, leave a game to play unplayed?"""
    met_pairs, byes = set(met_pairs), Counter(byes)
    todo = games_to_play(schedule, rounds, players, met_pairs)
    for later in range(number, rounds + 1):
        for a, b in pairs:
            if b is None:
                byes[a] += 1
            else:
                met_pairs.add(frozenset((a, b)))
        if todo <= met_pairs:
            return False
        if later < rounds:
            pairs = _robin_candidate(schedule, later + 1, players, met_pairs, byes, rounds)
    return not todo <= met_pairs


# --------------------------------------------------------------------------- shared


def rematches(pairs: Iterable[Pair], met: Iterable[Iterable[int]]) -> int:
    """How many of ``pairs`` have met before."""
    seen = _pairs(met)
    return sum(1 for a, b in pairs if b is not None and frozenset((a, b)) in seen)


def _pairs(met: Iterable[Iterable[int]]) -> set[frozenset[int]]:
    return {frozenset(p) for p in met if None not in p and len(set(p)) == 2}


def _ordered(pairs: list[Pair], position: dict[int, int]) -> list[Pair]:
    """Each pair best-placed player first, the pairs by their first player, byes last."""
    games = sorted(
        ((a, b) if position[a] < position[b] else (b, a) for a, b in pairs if b is not None),
        key=lambda p: position[p[0]],
    )
    return games + sorted(((a, None) for a, b in pairs if b is None), key=lambda p: position[p[0]])


class _Sit:
    """A node for sitting out: one shared by everyone (Swiss: exactly one bye when the
    number is odd), or one per player (round robin: any number may sit out)."""

    def __init__(self, player: int | None = None):
        self.player = player


def _best(
    players: list[int],
    edge_cost: Callable[[int, int], Cost | None],
    bye_cost: Callable[[int], Cost],
    can_sit: Sequence[int],
    *,
    one_bye: bool,
) -> list[Pair]:
    """The pairing whose summed costs are the smallest, compared tier by tier (the
    first tier first): a maximum-weight perfect matching, each cost tuple read as the
    digits of a number in a base larger than any sum of the lower tiers can reach.

    ``edge_cost(a, b)`` None: a and b may not play. ``one_bye``: exactly one player of
    ``can_sit`` sits out when the number is odd, nobody when it is even; else any player
    may sit out (each has their own "sit" node, and the unused ones pair up with each
    other at no cost)."""
    import networkx as nx

    edges: dict[tuple[object, object], Cost] = {}
    for a, b in combinations(players, 2):
        cost = edge_cost(a, b)
        if cost is not None:
            edges[(a, b)] = cost
    if one_bye:
        if len(players) % 2:
            sit = _Sit()
            for p in can_sit:
                edges[(p, sit)] = bye_cost(p)
    else:
        sits = {p: _Sit(p) for p in players}
        for p in players:
            edges[(p, sits[p])] = bye_cost(p)
        zero = tuple(0 for _ in next(iter(edges.values())))
        for x, y in combinations(sits.values(), 2):
            edges[(x, y)] = zero
    if not edges:
        return [(p, None) for p in players]
    tiers = len(next(iter(edges.values())))
    slots = (len(players) + 1) // 2 if one_bye else len(players)  # edges in a matching
    scale = [1] * tiers
    for t in range(tiers - 2, -1, -1):
        top = max(cost[t + 1] for cost in edges.values())
        scale[t] = scale[t + 1] * (top * slots + 1)
    ceiling = 1 + sum(max(cost[t] for cost in edges.values()) * scale[t] for t in range(tiers))
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for (x, y), cost in edges.items():
        graph.add_edge(x, y, weight=ceiling - sum(c * s for c, s in zip(cost, scale, strict=True)))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[Pair] = []
    seated: set[int] = set()
    for x, y in matching:
        if isinstance(x, _Sit) and isinstance(y, _Sit):
            continue
        if isinstance(x, _Sit) or isinstance(y, _Sit):
            p = y if isinstance(x, _Sit) else x
            pairs.append((p, None))
            seated.add(p)
        else:
            pairs.append((x, y))
            seated |= {x, y}
    if seated != set(players):  # pragma: no cover - a perfect matching seats everyone
        raise RuntimeError("the matching left a player out")
    return pairs
