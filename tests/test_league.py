"""League arithmetic (campaigns/league.py): scoring, every tiebreaker on worked examples,
round-robin schedules, and Swiss pairings (no rematch while one can be avoided, byes
rotate) checked over random standings."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.league import (
    Result,
    Scoring,
    rematches,
    round_robin,
    standings,
    swiss,
)

PLAYERS = [(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")]


def table(rows):
    return [(r.rank, r.name, r.points) for r in rows]


def test_scoring_three_one_nothing_and_a_bye_is_a_win():
    rows = standings(
        [*PLAYERS, (5, "Eve")],
        [
            Result(1, 1, 2, 10, 4, winner=1),
            Result(1, 3, 4, 6, 6, winner=None),
            Result(1, 5, None),
        ],
    )
    by = {r.name: r for r in rows}
    assert (by["Ann"].points, by["Ann"].won, by["Ann"].vp_diff) == (3, 1, 6)
    assert (by["Bob"].points, by["Bob"].lost) == (0, 1)
    assert (by["Cy"].points, by["Dee"].points, by["Cy"].drawn) == (1, 1, 1)
    assert (by["Eve"].points, by["Eve"].byes, by["Eve"].played) == (3, 1, 0)


def test_the_league_sets_the_points():
    rows = standings(PLAYERS[:2], [Result(1, 1, 2, 1, 1, None)], Scoring(win=2, draw=1, loss=0))
    assert [r.points for r in rows] == [1, 1]
    rows = standings(PLAYERS[:2], [Result(1, 1, 2, 3, 1, 1)], Scoring(win=5, draw=2, loss=1))
    assert [(r.name, r.points) for r in rows] == [("Ann", 5), ("Bob", 1)]


def test_points_first_then_victory_point_difference():
    # Ann and Cy both win once; Ann by 8, Cy by 2.
    rows = standings(PLAYERS, [Result(1, 1, 2, 10, 2, 1), Result(1, 3, 4, 5, 3, 3)])
    assert table(rows) == [(1, "Ann", 3), (2, "Cy", 3), (3, "Dee", 0), (4, "Bob", 0)]
    assert rows[1].decided_by == "Victory Point difference"
    assert rows[3].decided_by == "Victory Point difference"  # Dee -2 beats Bob -8


def test_head_to_head_between_the_tied_players():
    # Ann and Bob: 6 points each, same VP difference (+2); Bob beat Ann.
    results = [
        Result(1, 1, 2, 4, 5, 2),  # Bob beats Ann by 1
        Result(1, 3, 4, 5, 5, None),
        Result(2, 1, 3, 6, 4, 1),  # Ann +2
        Result(2, 2, 4, 4, 5, 4),  # Bob -1
        Result(3, 1, 4, 6, 5, 1),  # Ann +1
        Result(3, 2, 3, 7, 5, 2),  # Bob +2
    ]
    rows = standings(PLAYERS, results)
    ann, bob = (next(r for r in rows if r.name == n) for n in ("Ann", "Bob"))
    assert (ann.points, bob.points) == (6, 6)
    assert ann.vp_diff == bob.vp_diff == 2
    assert [r.name for r in rows[:2]] == ["Bob", "Ann"]
    assert (bob.head_to_head, ann.head_to_head) == (3, 0)
    assert ann.decided_by == "Head-to-head" and not ann.tied


def test_strength_of_schedule_when_head_to_head_is_level():
    # Ann and Bob never met; both 3 points, both +1. Ann beat Cy (who then won twice),
    # Bob beat Dee (who lost everything): Ann's opponents scored more.
    players = [*PLAYERS, (5, "Eve"), (6, "Fay")]
    results = [
        Result(1, 1, 3, 2, 1, 1),
        Result(1, 2, 4, 2, 1, 2),
        Result(2, 3, 5, 3, 1, 3),
        Result(2, 4, 6, 1, 3, 6),
        Result(3, 3, 6, 3, 1, 3),
        Result(3, 4, 5, 1, 3, 5),
        Result(4, 5, 6, 2, 2, None),
    ]
    rows = standings(players, results)
    ann, bob = (next(r for r in rows if r.name == n) for n in ("Ann", "Bob"))
    assert (ann.points, ann.vp_diff, bob.points, bob.vp_diff) == (3, 1, 3, 1)
    assert ann.head_to_head == bob.head_to_head == 0
    assert ann.sos > bob.sos
    assert ann.rank < bob.rank and bob.decided_by == "Strength of schedule"


def test_players_equal_on_everything_share_a_rank():
    rows = standings(PLAYERS, [Result(1, 1, 2, 3, 3, None), Result(1, 3, 4, 3, 3, None)])
    assert {r.rank for r in rows} == {1} and all(r.tied for r in rows)


def test_the_tiebreak_order_is_the_leagues():
    # Ann has the better VP difference, Bob won their meeting.
    results = [
        Result(1, 1, 2, 1, 2, 2),
        Result(2, 1, 3, 9, 0, 1),
        Result(2, 2, 4, 1, 0, 2),
        Result(3, 1, 4, 5, 4, 1),
        Result(3, 2, 3, 0, 1, 3),
    ]
    by_vp = standings(PLAYERS, results, tiebreaks=("vp_diff", "head_to_head", "sos"))
    by_h2h = standings(PLAYERS, results, tiebreaks=("head_to_head", "vp_diff", "sos"))
    top = lambda rows: [r.name for r in rows if r.name in ("Ann", "Bob")]  # noqa: E731
    assert top(by_vp) == ["Ann", "Bob"] and top(by_h2h) == ["Bob", "Ann"]


def test_points_by_round_for_the_chart():
    rows = standings(PLAYERS[:2], [Result(1, 1, 2, 5, 1, 1), Result(2, 1, 2, 1, 5, 2)])
    ann = next(r for r in rows if r.name == "Ann")
    assert ann.points_by_round == {1: 3, 2: 3}


# --------------------------------------------------------------------------- round robin


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 9])
def test_round_robin_everyone_meets_everyone_once(n):
    rounds = round_robin(list(range(1, n + 1)))
    assert len(rounds) == (n if n % 2 else n - 1)
    pairs = [frozenset(p) for r in rounds for p in r if p[1] is not None]
    assert Counter(pairs) == Counter(frozenset(p) for p in combinations(range(1, n + 1), 2))
    for r in rounds:
        seated = [x for p in r for x in p if x is not None]
        assert len(seated) == len(set(seated)) == n
    byes = [p[0] for r in rounds for p in r if p[1] is None]
    assert sorted(byes) == (list(range(1, n + 1)) if n % 2 else [])


# --------------------------------------------------------------------------- swiss


def test_swiss_pairs_neighbours_in_the_standings():
    assert swiss([1, 2, 3, 4]) == [(1, 2), (3, 4)]


def test_swiss_avoids_a_rematch_a_greedy_pass_would_make():
    # Greedy top-down: 1-2 (fresh), then 3-4 have met -> rematch. The matching finds
    # 1-3 / 2-4 or similar with none.
    pairs = swiss([1, 2, 3, 4], met=[(3, 4), (1, 4)])
    assert rematches(pairs, [(3, 4), (1, 4)]) == 0


def test_swiss_rematches_only_when_unavoidable():
    everyone = list(combinations([1, 2, 3, 4], 2))
    pairs = swiss([1, 2, 3, 4], met=everyone)
    assert len(pairs) == 2 and rematches(pairs, everyone) == 2


def test_swiss_bye_goes_to_the_lowest_player_without_one():
    assert swiss([1, 2, 3, 4, 5])[-1] == (5, None)
    assert swiss([1, 2, 3, 4, 5], had_bye=[5])[-1] == (4, None)
    assert swiss([1, 2, 3], had_bye=[1, 2, 3])[-1] == (3, None)  # everyone had one


def perfect_without_rematch_exists(players, met, had_bye):
    g = nx.Graph()
    g.add_nodes_from(players)
    g.add_edges_from((a, b) for a, b in combinations(players, 2) if frozenset((a, b)) not in met)
    if len(players) % 2:
        g.add_node("bye")
        g.add_edges_from((p, "bye") for p in players if p not in had_bye or set(players) <= had_bye)
    matching = nx.max_weight_matching(g, maxcardinality=True)
    return len(matching) * 2 == g.number_of_nodes()


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=12),
    seed=st.integers(min_value=0, max_value=10_000),
    density=st.floats(min_value=0, max_value=0.9),
)
def test_swiss_properties_over_random_standings(n, seed, density):
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    rng.shuffle(players)
    met = {frozenset(p) for p in combinations(players, 2) if rng.random() < density}
    had_bye = {p for p in players if rng.random() < 0.3}
    pairs = swiss(players, met=met, had_bye=had_bye)
    seated = [x for p in pairs for x in p if x is not None]
    assert sorted(seated) == sorted(players)  # everyone exactly once
    byes = [a for a, b in pairs if b is None]
    assert len(byes) == n % 2
    if byes and not set(players) <= had_bye:
        assert byes[0] not in had_bye  # at most one bye each while others have none
    if perfect_without_rematch_exists(players, met, had_bye):
        assert rematches(pairs, met) == 0


def test_byes_rotate_over_a_swiss_season():
    players = [1, 2, 3, 4, 5]
    met, byes = set(), []
    for _ in range(5):
        pairs = swiss(players, met=met, had_bye=byes)
        byes += [a for a, b in pairs if b is None]
        met |= {frozenset(p) for p in pairs if p[1] is not None}
    assert sorted(byes) == players
