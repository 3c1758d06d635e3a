"""League arithmetic (campaigns/leagues/standings.py and pairing.py): scoring, every
tiebreaker on worked examples, round 1's draw, round-robin schedules (and drops), and
Swiss pairings (by score group, no rematch while one can be avoided, the bye to the
lowest-ranked player without one) checked over random standings. The seeded leagues of
tests/test_league_swiss_property.py play thousands of Swiss rounds."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.leagues.pairing import (
    FOLD,
    RANDOM,
    first_round,
    fold,
    games_to_play,
    rematches,
    round_robin,
    round_robin_length,
    round_robin_round,
    seeded_order,
    swiss,
)
from campaigns.leagues.standings import Result, Scoring, number_text, standings
from tests.helpers.properties import examples

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
    assert ann.head_to_head is bob.head_to_head is None  # they never met: it doesn't count
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


@settings(max_examples=examples(150), deadline=None)
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


# --------------------------------------------------------------------------- issue 15


def test_swiss_pairs_the_unbeaten_together_when_they_have_not_met():
    """Item 13: players are paired within their score group first. Players 2 and 3 are
    unbeaten (6 points), the others on 0; 1 and 4 have met. Pairing by closeness in the
    standings (1-2, 3-4, 5-6 is "closer" than 2-3, 1-5, 4-6) kept the two unbeaten apart."""
    ranked = [2, 3, 1, 4, 5, 6]
    scores = {2: 6, 3: 6, 1: 0, 4: 0, 5: 0, 6: 0}
    pairs = swiss(ranked, met=[(1, 4)], had_bye=[3, 4, 6], scores=scores)
    assert (2, 3) in pairs
    assert rematches(pairs, [(1, 4)]) == 0
    assert all(scores[a] == scores[b] for a, b in pairs)  # nobody floats


def test_swiss_floats_down_only_as_far_and_as_often_as_needed():
    """Item 13: the leader (6 points) floats to the 3-point group, and one 3-point player
    to the last (0): two gaps of 3, rather than one of 6 (the leader against the last)."""
    scores = {1: 6, 2: 3, 3: 3, 4: 3, 5: 3, 6: 0}
    pairs = swiss([1, 2, 3, 4, 5, 6], scores=scores, met=[(1, 2)])
    gaps = sorted(abs(scores[a] - scores[b]) for a, b in pairs)
    assert gaps == [0, 3, 3]
    assert (1, 3) in pairs  # the leader meets the best-placed of the next group he can


def test_the_bye_goes_to_the_lowest_ranked_player_who_has_not_had_one():
    """Item 14: 4 and 5 have had a bye, so the bye goes to 3, the lowest-ranked of the
    others, even though 2 sitting out would leave smaller score gaps (a preference
    before, which gave it to 2)."""
    scores = {1: 6, 2: 6, 3: 6, 4: 3, 5: 0}
    pairs = swiss([1, 2, 3, 4, 5], met=[(1, 2)], had_bye=[4, 5], scores=scores)
    assert pairs[-1] == (3, None)
    assert rematches(pairs, [(1, 2)]) == 0
    # the lowest-ranked without a bye, unless only a rematch would pair the others
    pairs = swiss([1, 2, 3, 4, 5], met=[(1, 2), (1, 4), (2, 4)], had_bye=[5], scores=scores)
    assert pairs[-1] == (4, None)
    pairs = swiss([1, 2, 3, 4, 5], met=[(1, 2), (1, 3), (2, 3)], had_bye=[5], scores=scores)
    assert pairs[-1] == (3, None)  # 4 sitting out would leave 1, 2, 3: a rematch
    assert rematches(pairs, [(1, 2), (1, 3), (2, 3)]) == 0


def test_round_one_top_half_against_bottom_half():
    """Item 15: 1-5, 2-6, 3-7, 4-8 in registration order, not neighbours; with an odd
    number, the last has the bye."""
    assert first_round([1, 2, 3, 4, 5, 6, 7, 8], FOLD) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert first_round([1, 2, 3, 4, 5], FOLD) == [(1, 3), (2, 4), (5, None)]


def test_round_one_at_random_is_drawn_again_from_its_seed():
    """Item 15: the same seed gives the same draw (so a stored seed re-derives it);
    seeds give different draws; everyone is seated once."""
    players = list(range(1, 11))
    draw = first_round(players, RANDOM, seed=1234)
    assert draw == first_round(players, RANDOM, seed=1234)
    assert draw == fold(seeded_order(players, 1234))
    assert sorted(p for pair in draw for p in pair) == players
    draws = {tuple(first_round(players, RANDOM, seed=s)) for s in range(20)}
    assert len(draws) > 15
    with pytest.raises(ValueError, match="seed"):
        first_round(players, RANDOM)


@pytest.mark.parametrize("n", [2, 3, 4, 7, 8])
def test_a_round_robin_has_n_minus_one_rounds_or_n_if_odd(n):
    """Item 16."""
    assert round_robin_length(n) == len(round_robin(list(range(n)))) == n - 1 + n % 2


def robin_season(n, drops, pair_round):
    """Play a round robin of ``n`` players; ``drops``: {player: round before which they
    drop}. Returns every round's pairs and the players still in."""
    schedule = round_robin(list(range(1, n + 1)))
    active, met, byes, played = list(range(1, n + 1)), set(), [], []
    for number in range(1, len(schedule) + 1):
        active = [p for p in active if drops.get(p, 99) > number]
        if not games_to_play(schedule, len(schedule), active, met):
            break
        pairs = pair_round(schedule, number, active, met, byes)
        played.append(pairs)
        byes += [a for a, b in pairs if b is None]
        met |= {frozenset(p) for p in pairs if p[1] is not None}
    return played, active


def keep_to_the_schedule(schedule, number, active, met, byes):
    """What pairing a round robin did before: the schedule; a player whose opponent
    dropped sits out."""
    out = []
    for a, b in schedule[number - 1]:
        if a in active and b in active:
            out.append((a, b))
        elif a in active or b in active:
            out.append((a if a in active else b, None))
    return out


def test_after_a_drop_nobody_sits_out_a_second_time_when_a_pairing_avoids_it():
    """Item 16: five players, one drops after round 1. Keeping to the schedule, three
    players sit out twice (their scheduled bye, and the round against the one who
    dropped); the four left can play every game with one bye each and no rematch."""
    before, _ = robin_season(5, {5: 2}, keep_to_the_schedule)
    sat_out = Counter(a for pairs in before for a, b in pairs if b is None)
    assert max(sat_out.values()) == 2
    after, active = robin_season(5, {5: 2}, round_robin_round)
    sat_out = Counter(a for pairs in after for a, b in pairs if b is None)
    assert max(sat_out.values()) == 1
    games = [frozenset(p) for pairs in after for p in pairs if p[1] is not None]
    assert len(games) == len(set(games))  # no rematch
    assert set(games) >= {frozenset(p) for p in combinations(active, 2)}  # all played
    assert len(after) == 4  # the round robin ends a round early: nothing left to play


def test_a_round_robin_without_a_drop_keeps_its_schedule():
    for n in (4, 5, 8, 9):
        schedule = round_robin(list(range(1, n + 1)))
        played, _ = robin_season(n, {}, round_robin_round)
        assert [set(map(frozenset, r)) for r in played] == [
            set(map(frozenset, r)) for r in schedule
        ]


def test_drops_in_round_robins_never_cost_a_game_or_bring_a_rematch():
    """Item 16, over every drop of one or two players in round robins of 3 to 8: never
    a rematch, every game between players still in is played, and players sit out a
    second time less often than keeping to the schedule made them."""
    second_before = second_after = 0
    for n in range(3, 9):
        length = round_robin_length(n)
        cases = [{d: r} for d in range(1, n + 1) for r in range(2, length + 1)]
        cases += [{1: r, n: s} for r in range(2, length + 1) for s in range(r, length + 1)]
        for drops in cases:
            before, _ = robin_season(n, drops, keep_to_the_schedule)
            after, active = robin_season(n, drops, round_robin_round)
            games = [frozenset(p) for pairs in after for p in pairs if p[1] is not None]
            assert len(games) == len(set(games)), (n, drops)
            assert set(games) >= {frozenset(p) for p in combinations(active, 2)}, (n, drops)
            for played, total in ((before, "before"), (after, "after")):
                sat = Counter(a for pairs in played for a, b in pairs if b is None)
                extra = sum(c - 1 for c in sat.values() if c > 1)
                if total == "before":
                    second_before += extra
                else:
                    second_after += extra
    assert second_after < second_before / 2


def test_head_to_head_counts_only_when_every_tied_player_met_every_other():
    """Item 17: Ann, Bob, Cy and Dee are on 3 points; Ann beat Bob, Cy beat Dee, Dee
    beat Ann, but Bob never met Cy or Dee. Head-to-head would put Bob last for meeting
    only Ann: it doesn't count, and the four share a rank."""
    players = [*PLAYERS, (5, "Eve"), (6, "Fay")]
    results = [
        Result(1, 1, 2, 1, 0, 1),  # Ann beats Bob
        Result(1, 3, 4, 1, 0, 3),  # Cy beats Dee
        Result(1, 5, 6, 0, 0, None),
        Result(2, 2, 5, 1, 0, 2),  # Bob beats Eve
        Result(2, 3, 6, 0, 1, 6),  # Fay beats Cy
        Result(2, 4, 1, 1, 0, 4),  # Dee beats Ann
    ]
    rows = standings(players, results, tiebreaks=("head_to_head",))
    tied = [r for r in rows if r.points == 3]
    assert {r.name for r in tied} == {"Ann", "Bob", "Cy", "Dee"}
    assert {r.rank for r in tied} == {2} and all(r.tied for r in tied)
    assert all(r.head_to_head is None for r in tied)


def test_head_to_head_is_applied_again_after_a_later_tiebreaker_separates_one():
    """Item 17: Ann, Bob and Cy are level on points and Victory Point difference; Cy met
    neither, so head-to-head is skipped and strength of schedule puts Cy first; Ann and
    Bob, still level, are ranked by head-to-head between the two of them: Bob beat Ann."""
    players = [(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Xan"), (5, "Xu"), (6, "Yo"), (7, "Yu")]
    players.append((8, "Zed"))
    results = [
        Result(1, 2, 1, 1, 0, 2),  # Bob beats Ann
        Result(1, 3, 6, 1, 0, 3),  # Cy beats Yo
        Result(1, 4, 5, 5, 0, 4),  # Xan beats Xu
        Result(1, 7, 8, 1, 0, 7),  # Yu beats Zed
        Result(2, 1, 4, 1, 0, 1),  # Ann beats Xan
        Result(2, 5, 2, 1, 0, 5),  # Xu beats Bob
        Result(2, 7, 3, 1, 0, 7),  # Yu beats Cy
        Result(2, 6, 8, 7, 0, 6),  # Yo beats Zed
    ]
    rows = standings(players, results, tiebreaks=("vp_diff", "head_to_head", "sos"))
    names = [r.name for r in rows]
    assert names.index("Cy") < names.index("Bob") < names.index("Ann")
    by = {r.name: r for r in rows}
    assert (by["Ann"].sos, by["Bob"].sos, by["Cy"].sos) == (3, 3, Fraction(9, 2))
    assert by["Cy"].decided_by == "Victory Point difference"  # below Xan, on VP
    assert by["Bob"].decided_by == "Strength of schedule"
    assert by["Ann"].decided_by == "Head-to-head"
    assert (by["Bob"].head_to_head, by["Ann"].head_to_head) == (3, 0)


def test_strength_of_schedule_does_not_punish_a_bye():
    """Item 18: strength of schedule is the average of the opponents' points. Ann had a
    bye and beat Xan (3 points); Bob beat Yo and Zed (3 points each): the same strength
    of schedule, 3. (As a sum, Ann's bye cost her 3.)"""
    players = [(1, "Ann"), (2, "Bob"), (3, "Xan"), (4, "Yo"), (5, "Zed"), (6, "Wes"), (7, "Vi")]
    results = [
        Result(1, 1, None),
        Result(1, 2, 4, 1, 0, 2),
        Result(1, 3, 6, 1, 0, 3),
        Result(1, 5, 7, 1, 0, 5),
        Result(2, 1, 3, 1, 0, 1),
        Result(2, 2, 5, 1, 0, 2),
        Result(2, 4, 6, 1, 0, 4),
        Result(2, 7, None),
    ]
    rows = standings(players, results, tiebreaks=("sos",))
    ann, bob = rows[0], rows[1]
    assert {ann.name, bob.name} == {"Ann", "Bob"}
    assert ann.sos == bob.sos == 3 and ann.rank == bob.rank == 1
    assert standings(players[:1], [Result(1, 1, None)])[0].sos == 0  # byes only


def test_strength_of_schedule_is_shown_with_two_decimals_at_most():
    assert [number_text(v) for v in (Fraction(3), Fraction(9, 2), Fraction(10, 3))] == [
        "3",
        "4.5",
        "3.33",
    ]
