"""League standings and pairing, rule by rule (campaigns/leagues/standings.py, pairing.py).

Written for the mutation run (docs/benchmarks.md, "Mutation testing"): each test pins a
rule of docs/leagues.md or of the modules' docstrings that the other league tests reach
only as a whole. Plain Python, no database.
"""

from __future__ import annotations

from fractions import Fraction

from campaigns.leagues.pairing import round_robin, round_robin_length, round_robin_round, swiss
from campaigns.leagues.standings import Result, number_text, standings

# ------------------------------------------------------------------------- standings


def test_every_result_of_a_season_adds_up_in_a_players_row():
    """Ann's season: two wins, two draws, two losses and two byes (a bye scores as a win
    with no Victory Points)."""
    players = [(1, "Ann"), (2, "Bob"), (3, "Cy")]
    results = [
        Result(1, 1, 2, 5, 1, winner=1),
        Result(2, 1, 3, 4, 2, winner=1),
        Result(3, 1, 2, 3, 3),
        Result(4, 1, 3, 2, 2),
        Result(5, 1, 2, 0, 6, winner=2),
        Result(6, 1, 3, 1, 4, winner=3),
        Result(7, 1, None),
        Result(8, 1, None),
    ]
    ann = next(r for r in standings(players, results) if r.player == 1)
    assert (ann.played, ann.won, ann.drawn, ann.lost, ann.byes) == (6, 2, 2, 2, 2)
    assert ann.points == 2 * 3 + 2 * 1 + 2 * 3
    assert (ann.vp_for, ann.vp_against) == (15, 18)
    assert ann.points_by_round == {1: 3, 2: 6, 3: 7, 4: 8, 5: 8, 6: 8, 7: 11, 8: 14}
    # a round without a result of theirs adds nothing to a player's points
    bob = next(r for r in standings(players, results) if r.player == 2)
    assert bob.points_by_round == {1: 0, 2: 0, 3: 1, 4: 1, 5: 4, 6: 4, 7: 4, 8: 4}


def test_a_result_against_someone_not_in_the_standings_is_left_out():
    """Standings are of the players handed in; a result with anyone else counts for
    nobody (and breaks nothing)."""
    rows = standings(
        [(1, "Ann"), (2, "Bob")],
        [Result(1, 1, 9, 5, 0, winner=1), Result(1, 9, 2, 5, 0, winner=9)],
    )
    assert [(r.name, r.played, r.points) for r in rows] == [("Ann", 0, 0), ("Bob", 0, 0)]


def test_players_sharing_a_rank_are_marked_tied_and_listed_by_name():
    rows = standings([(1, "Zed"), (2, "Amy"), (3, "Max")], [Result(1, 3, None)])
    assert [(r.name, r.rank, r.tied) for r in rows] == [
        ("Max", 1, False),
        ("Amy", 2, True),
        ("Zed", 2, True),
    ]
    # the first row of each group on equal points is separated from the one above by
    # points, not by a tiebreaker
    assert [r.decided_by for r in rows] == ["", "", ""]


def test_a_fraction_that_rounds_to_a_whole_number_shows_as_one():
    """ "4, 4.5, 3.33: a whole number as such, else two decimals at most": 4.001 at two
    decimals is 4."""
    assert number_text(Fraction(4001, 1000)) == "4"
    assert number_text(Fraction(-7999, 1000)) == "-8"
    assert number_text(Fraction(9, 2)) == "4.5"


# ------------------------------------------------------------------------- pairing


def test_a_round_robin_of_fewer_than_two_players_has_no_round():
    assert round_robin_length(0) == round_robin_length(1) == 0
    assert round_robin([]) == round_robin([7]) == []


def test_after_a_drop_the_bye_goes_to_someone_who_has_not_had_one():
    """Five players; 1 and 2 drop before round 3. Round 3 has three players, one sits
    out: 4 has had a bye (round 2), 3 has not, and 4 v 5 is not a rematch, so 3 sits out
    ("nobody sits out a second time while a pairing avoids it")."""
    schedule = round_robin([1, 2, 3, 4, 5])
    met = [p for rnd in schedule[:2] for p in rnd if p[1] is not None]
    had_bye = [p for rnd in schedule[:2] for p, other in rnd if other is None]
    assert sorted(had_bye) == [1, 4] and {4, 5} not in [set(p) for p in met]
    assert round_robin_round(schedule, 3, [3, 4, 5], met, had_bye) == [(4, 5), (3, None)]


def test_a_shortened_round_robin_plays_the_games_of_its_own_rounds():
    """A round robin of five players cut to two rounds; 2 drops before round 2. The games
    left to play are those of the two rounds the league has: 1 v 5 (round 2's) is played
    in round 2, not put off to a round 3 the league will never have."""
    schedule = round_robin([1, 2, 3, 4, 5])
    met = [p for p in schedule[0] if p[1] is not None]
    had_bye = [p for p, other in schedule[0] if other is None]
    pairs = round_robin_round(schedule, 2, [1, 3, 4, 5], met, had_bye, rounds=2)
    assert (1, 5) in pairs


def test_pairs_list_the_best_placed_first_by_place_not_by_id():
    """ "Pairs, best-placed first" (and each pair's best-placed player first), whatever
    the players' ids; several byes are listed in the standings' order too."""
    assert swiss([40, 30, 20, 10]) == [(40, 30), (20, 10)]
    # 1 v 2, 3 v 4 and 1 v 3 were played: 1 v 4 and 2 v 3 is the only pairing left
    assert swiss([1, 2, 3, 4], met=[(1, 2), (3, 4), (1, 3)]) == [(1, 4), (2, 3)]
    schedule = round_robin([50, 40, 30, 20, 10])
    met = [p for p in schedule[0] if p[1] is not None]
    had_bye = [p for p, other in schedule[0] if other is None]
    pairs = round_robin_round(schedule, 2, [50, 30, 20, 10], met, had_bye, rounds=2)
    assert pairs == [(50, 10), (30, None), (20, None)]


def test_a_player_missing_from_the_scores_has_none():
    """``scores``: "each player's points (missing: 0)": 1 and 3 have a point, 2 and 4
    none, so 1 meets 3 and 2 meets 4 (players meet within their score group)."""
    assert swiss([1, 2, 3, 4], scores={1: 1, 3: 1}) == [(1, 3), (2, 4)]


def test_after_two_drops_the_fewest_sit_out():
    """Seven players in a league of three rounds; 2 and 3 drop before round 2. Round 2
    keeps its scheduled 1 v 7; of 4, 5 and 6 (4 and 5 have met) two can still play each
    other, so one player sits out, not three ("the fewest sit out")."""
    schedule = round_robin([1, 2, 3, 4, 5, 6, 7])
    met = [p for p in schedule[0] if p[1] is not None]
    had_bye = [p for p, other in schedule[0] if other is None]
    for rounds in (3, 2):  # in a league of three rounds, and of two
        pairs = round_robin_round(schedule, 2, [1, 4, 5, 6, 7], met, had_bye, rounds=rounds)
        games = [set(p) for p in pairs if p[1] is not None]
        assert {1, 7} in games and {4, 5} not in games
        assert sum(1 for p in pairs if p[1] is None) == 1


def test_after_a_drop_everyone_left_plays_when_they_can():
    """A drop before round 2 leaves an even number with opponents they have not met:
    nobody sits out ("the fewest sit out"), in a league cut short as in a full one."""
    five = round_robin([1, 2, 3, 4, 5])
    met = [p for p in five[0] if p[1] is not None]  # 2 v 5, 3 v 4 (1 sat out)
    assert round_robin_round(five, 2, [2, 3, 4, 5], met, [1], rounds=2) == [(2, 3), (4, 5)]
    seven = round_robin([1, 2, 3, 4, 5, 6, 7])
    met = [p for p in seven[0] if p[1] is not None]  # 2 v 7, 3 v 6, 4 v 5 (1 sat out)
    pairs = round_robin_round(seven, 2, [1, 2, 4, 5, 6, 7], met, [1], rounds=3)
    assert pairs == [(1, 7), (2, 5), (4, 6)]  # the schedule's 1 v 7 and 2 v 5 kept


def test_no_rematch_however_the_score_gaps_compare():
    """ "None whenever a pairing without one exists" outweighs any score gap: 3 and 4 (3
    points) and 1 and 2 (1 point); 4 v 2 and 1 v 2 were played. The only pairing
    without a rematch floats both leaders down."""
    pairs = swiss([3, 4, 1, 2], met=[(4, 2), (1, 2)], scores={3: 3, 4: 3, 1: 1, 2: 1})
    assert pairs == [(3, 2), (4, 1)]
