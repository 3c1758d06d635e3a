"""Swiss pairing played out: thousands of seeded leagues of 8, 9 and 24 players
(campaigns/leagues/pairing.py ``swiss``, ranked by campaigns/leagues/standings.py).

Every round of every league is checked:

- nobody has a second bye while someone has had none (so, over these leagues, at most
  one bye each), and the bye goes to the lowest-ranked player it can go to;
- no rematch that could be avoided;
- no round whose score gaps could be smaller without a rematch: for 8 and 9 players
  the round is compared with every possible pairing (105 of 8 players; 945 with a bye
  among 9); for 24 players (too many pairings to list), the largest gap is the smallest
  any pairing without more rematches can have, and no two tables can swap opponents to
  make the gaps smaller.

Plain seeded loops (no hypothesis): the same leagues every run, about 15 s in all (a
quarter of them in CI's quick profile: tests/helpers/properties.py).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import networkx as nx
import pytest

from campaigns.leagues.pairing import swiss
from campaigns.leagues.standings import Result, Scoring, standings
from tests.helpers.properties import examples

SCORINGS = [Scoring(3, 1, 0), Scoring(2, 1, 0), Scoring(1, 0, 0), Scoring(3, 2, 1)]


def perfect_matchings(items: list[int]) -> list[list[tuple[int, int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            out.append([(first, other), *tail])
    return out


#: every pairing of 8 places in the standings (105), and of 9 with place ``b`` sitting out
MATCHINGS_OF_8 = perfect_matchings(list(range(8)))
MATCHINGS_WITHOUT = {b: perfect_matchings([i for i in range(9) if i != b]) for b in range(9)}
assert len(MATCHINGS_OF_8) == 105 and all(len(m) == 105 for m in MATCHINGS_WITHOUT.values())


class Round:
    """One round to check: the standings before it and what was paired."""

    def __init__(self, ranked, scores, met, byes, pairs):
        self.ranked = ranked
        self.position = {p: i for i, p in enumerate(ranked)}
        self.scores = scores
        self.met = met
        self.byes = byes
        self.games = [(a, b) for a, b in pairs if b is not None]
        self.bye = next((a for a, b in pairs if b is None), None)
        fewest = min(byes[p] for p in ranked)
        self.can_sit = [p for p in ranked if byes[p] == fewest]
        gaps = {abs(scores[a] - scores[b]) for a, b in combinations(ranked, 2)} - {0}
        self.levels = sorted(gaps, reverse=True)

    def gap(self, a, b) -> int:
        return abs(self.scores[a] - self.scores[b])

    def gap_counts(self, games) -> tuple[int, ...]:
        """How many games at each gap, the largest gap first: smaller is better."""
        counts = Counter(self.gap(a, b) for a, b in games)
        return tuple(counts[level] for level in self.levels)

    def rematches(self, games) -> int:
        return sum(1 for a, b in games if frozenset((a, b)) in self.met)

    def key(self, bye, games):
        bye_cost = len(self.ranked) - 1 - self.position[bye] if bye is not None else 0
        return (self.rematches(games), bye_cost, self.gap_counts(games))


def play_league(n: int, rounds: int, seed: int):
    """A Swiss league of ``n`` players over ``rounds`` rounds with random results;
    yields each round to check."""
    rng = random.Random(seed)
    scoring = rng.choice(SCORINGS)
    players = [(p, f"P{p:02}") for p in range(1, n + 1)]
    results: list[Result] = []
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for number in range(1, rounds + 1):
        rows = standings(players, results, scoring)
        ranked = [row.player for row in rows]
        scores = {row.player: row.points for row in rows}
        had_bye = [p for p, count in byes.items() for _ in range(count)]
        pairs = swiss(ranked, met=met, had_bye=had_bye, scores=scores)
        yield Round(ranked, scores, set(met), Counter(byes), pairs)
        for a, b in pairs:
            if b is None:
                byes[a] += 1
                results.append(Result(number, a, None))
                continue
            met.add(frozenset((a, b)))
            outcome = rng.random()
            winner = None if outcome < 0.15 else (a if outcome < 0.6 else b)
            results.append(Result(number, a, b, rng.randint(0, 15), rng.randint(0, 15), winner))


def check_common(rnd: Round) -> None:
    seated = [p for game in rnd.games for p in game] + ([rnd.bye] if rnd.bye else [])
    assert sorted(seated) == sorted(rnd.ranked)  # everyone once
    assert (rnd.bye is not None) == (len(rnd.ranked) % 2 == 1)
    if rnd.bye is not None:
        assert rnd.bye in rnd.can_sit  # never a second bye while someone has none


def check_against_every_pairing(rnd: Round) -> None:
    """8 or 9 players: the round is as good as the best of all possible pairings.

    Each pairing's (rematches, bye's place from the bottom, games at each gap from the
    largest) is read as one number, in base 5 for the gap counts (4 games at most: no
    carry), so that comparing numbers compares the tuples."""
    n, levels = len(rnd.ranked), len(rnd.levels)
    level_of = {gap: i for i, gap in enumerate(rnd.levels)}
    gaps_top = 5**levels
    value = [[0] * n for _ in range(n)]
    for i, j in combinations(range(n), 2):
        a, b = rnd.ranked[i], rnd.ranked[j]
        gap = rnd.gap(a, b)
        v = 5 ** (levels - 1 - level_of[gap]) if gap else 0
        if frozenset((a, b)) in rnd.met:
            v += gaps_top * (n + 1)
        value[i][j] = value[j][i] = v

    def worth(bye: int | None, games) -> int:
        bye_cost = (n - 1 - bye) * gaps_top if bye is not None else 0
        return bye_cost + sum(value[i][j] for i, j in games)

    if n % 2:
        sitters = [rnd.position[p] for p in rnd.can_sit]
        best = min(worth(b, m) for b in sitters for m in MATCHINGS_WITHOUT[b])
    else:
        best = min(worth(None, m) for m in MATCHINGS_OF_8)
    mine = [(rnd.position[a], rnd.position[b]) for a, b in rnd.games]
    bye = rnd.position[rnd.bye] if rnd.bye is not None else None
    assert worth(bye, mine) == best, (rnd.key(rnd.bye, rnd.games), rnd.scores)


def fresh_perfect_matching(players, met, allowed=lambda a, b: True) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from(
        (a, b)
        for a, b in combinations(players, 2)
        if frozenset((a, b)) not in met and allowed(a, b)
    )
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(players)


def check_checkable_conditions(rnd: Round) -> None:
    """24 players: conditions that every best pairing meets."""
    rest = [p for p in rnd.ranked if p != rnd.bye]
    rematches = rnd.rematches(rnd.games)
    if rematches:
        # no rematch-free pairing with any bye a player without one could take
        for bye in rnd.can_sit if rnd.bye is not None else [None]:
            others = [p for p in rnd.ranked if p != bye]
            assert not fresh_perfect_matching(others, rnd.met)
        return  # (the leagues below never need a rematch: rounds < players / 2)
    if rnd.bye is not None:
        # the bye to the lowest-ranked player without one who leaves a rematch-free rest
        below = [p for p in rnd.can_sit if rnd.position[p] > rnd.position[rnd.bye]]
        for bye in below:
            others = [p for p in rnd.ranked if p != bye]
            assert not fresh_perfect_matching(others, rnd.met)
    largest = max((rnd.gap(a, b) for a, b in rnd.games), default=0)
    if largest:  # no rematch-free pairing whose every gap is smaller
        assert not fresh_perfect_matching(rest, rnd.met, lambda a, b: rnd.gap(a, b) < largest)
    mine = rnd.gap_counts(rnd.games)
    for (a, b), (c, d) in combinations(rnd.games, 2):
        for swapped in (((a, c), (b, d)), ((a, d), (b, c))):
            if rnd.rematches(swapped):
                continue
            before = rnd.gap_counts([(a, b), (c, d)])
            after = rnd.gap_counts(list(swapped))
            if after < before:  # the swap alone would make the round's gaps smaller
                pytest.fail(f"swap {(a, b), (c, d)} -> {swapped}: {mine}")


@pytest.mark.parametrize(
    ("players", "leagues", "rounds", "check"),
    [
        (8, examples(1200), 5, check_against_every_pairing),
        (9, examples(1200), 5, check_against_every_pairing),
        (24, examples(250), 6, check_checkable_conditions),
    ],
)
def test_seeded_swiss_leagues(players, leagues, rounds, check):
    byes_seen = 0
    floats = 0
    for seed in range(leagues):
        byes: Counter[int] = Counter()
        for rnd in play_league(players, rounds, seed=players * 100_000 + seed):
            check_common(rnd)
            check(rnd)
            if rnd.bye is not None:
                byes[rnd.bye] += 1
            floats += sum(1 for a, b in rnd.games if rnd.gap(a, b))
        assert max(byes.values(), default=0) <= 1  # at most one bye each
        byes_seen += sum(byes.values())
    assert byes_seen == (leagues * rounds if players % 2 else 0)
    assert floats  # the leagues did make players float down
