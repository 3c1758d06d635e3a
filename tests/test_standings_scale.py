"""Standings in linear time (issue 31, item 1): the same rows as the rules say, however
they are computed (campaigns/leagues/standings.py).

``naive`` below is the rules of docs/leagues.md written the plain way (every pair of tied
players looked at, each tiebreaker computed again for every group, strength of schedule
as a fraction): the code as it was before the issue. Thousands of small random leagues,
made to tie (few Victory Points, many draws, rematches, byes, odd scorings, every order
of tiebreakers) are ranked by it and by ``standings``, and by ``standings_from_tallies``
from each player's ``tally``: every row must be the same, field by field.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from itertools import combinations, permutations

import pytest

from campaigns.leagues.standings import (
    TIEBREAKS,
    Meetings,
    Result,
    Scoring,
    Tally,
    standings,
    standings_from_tallies,
    tally,
)
from common.sorting import name_key
from tests.helpers.properties import examples

# --------------------------------------------------------------------------- the oracle


def naive(players, results, scoring, tiebreaks):
    """The rules, plainly: a dict per player, every pair of a group compared."""
    rows = {pid: {"player": pid, "name": name} for pid, name in players}
    for row in rows.values():
        row.update(played=0, won=0, drawn=0, lost=0, byes=0, points=0, vp_for=0, vp_against=0)
        row.update(opponents=[], head_to_head=None, gained=defaultdict(int))
    results = [r for r in results if r.a in rows and (r.b is None or r.b in rows)]
    meetings = defaultdict(list)

    def points_of(r, me):
        if r.winner is None:
            return scoring.draw
        return scoring.win if r.winner == me else scoring.loss

    for r in results:
        if r.b is None:
            rows[r.a]["byes"] += 1
            rows[r.a]["points"] += scoring.win
            rows[r.a]["gained"][r.round] += scoring.win
            continue
        meetings[frozenset((r.a, r.b))].append(r)
        for me, them, vp_me, vp_them in ((r.a, r.b, r.vp_a, r.vp_b), (r.b, r.a, r.vp_b, r.vp_a)):
            row = rows[me]
            row["played"] += 1
            row["vp_for"] += vp_me
            row["vp_against"] += vp_them
            row["opponents"].append(them)
            gain = points_of(r, me)
            row["points"] += gain
            row["gained"][r.round] += gain
            key = "drawn" if r.winner is None else ("won" if r.winner == me else "lost")
            row[key] += 1
    for row in rows.values():
        opp = [rows[o]["points"] for o in row["opponents"]]
        row["sos"] = Fraction(sum(opp), len(opp)) if opp else Fraction(0)
        total, row["points_by_round"] = 0, {}
        for n in sorted({r.round for r in results}):
            total += row["gained"].get(n, 0)
            row["points_by_round"][n] = total

    def values(tiebreak, group):
        if tiebreak == "vp_diff":
            return {r["player"]: r["vp_for"] - r["vp_against"] for r in group}
        if tiebreak == "sos":
            return {r["player"]: r["sos"] for r in group}
        ids = [r["player"] for r in group]
        if any(frozenset(pair) not in meetings for pair in combinations(ids, 2)):
            return None
        out = {}
        for row in group:
            out[row["player"]] = sum(
                points_of(m, row["player"])
                for other in ids
                if other != row["player"]
                for m in meetings[frozenset((row["player"], other))]
            )
            if row["head_to_head"] is None:
                row["head_to_head"] = out[row["player"]]
        return out

    def split(group, decided=""):
        if len(group) <= 1:
            return [(group, decided)]
        for tiebreak in chosen:
            value = values(tiebreak, group)
            if value is None:
                continue
            levels = sorted(set(value.values()), reverse=True)
            if len(levels) == 1:
                continue
            out = []
            for i, level in enumerate(levels):
                tied = [r for r in group if value[r["player"]] == level]
                out += split(tied, decided if i == 0 else TIEBREAKS[tiebreak])
            return out
        return [(group, decided)]

    chosen = [t for t in dict.fromkeys(tiebreaks) if t in TIEBREAKS]
    by_points = defaultdict(list)
    for row in sorted(rows.values(), key=lambda r: (name_key(r["name"]), r["player"])):
        by_points[row["points"]].append(row)
    ordered = []
    for pts in sorted(by_points, reverse=True):
        for group, decided in split(by_points[pts]):
            place = len(ordered) + 1
            for row in group:
                row.update(rank=place, tied=len(group) > 1, decided_by=decided)
                ordered.append(row)
    return ordered


FIELDS = (
    "player",
    "name",
    "played",
    "won",
    "drawn",
    "lost",
    "byes",
    "points",
    "vp_for",
    "vp_against",
    "sos",
    "head_to_head",
    "rank",
    "tied",
    "decided_by",
)


def shown(row) -> tuple:
    """A row's every figure (a dict from ``naive`` or a ``Row``)."""
    if isinstance(row, dict):
        return tuple(row[f] for f in FIELDS)
    return tuple(getattr(row, f) for f in FIELDS)


# --------------------------------------------------------------------------- leagues


ORDERS = [order for n in range(4) for order in permutations(("vp_diff", "head_to_head", "sos"), n)]
SCORINGS = [
    Scoring(3, 1, 0),
    Scoring(2, 1, 0),
    Scoring(1, 0, 0),
    Scoring(3, 2, 1),
    Scoring(1, 1, 1),
]


def random_league(rng: random.Random):
    """Players and results made to tie: few VP, many draws, rematches and byes."""
    n = rng.randint(1, 12)
    names = ["Ann", "ann", "Bob", "Élodie", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ivy"]
    players = [(pid, rng.choice(names) + rng.choice(["", "", " X"])) for pid in range(1, n + 1)]
    results = []
    vp_top = rng.choice([0, 1, 3, 10])
    draws = rng.random()
    for number in range(1, rng.randint(0, 8) + 1):
        ids = [pid for pid, _name in players]
        rng.shuffle(ids)
        if rng.random() < 0.3:  # a player not in the standings now and then
            ids.append(99)
        while len(ids) >= 2:
            a, b = ids.pop(), ids.pop()
            if rng.random() < 0.15:
                continue  # not reported: it counts for nothing
            winner = None if rng.random() < draws else rng.choice([a, b])
            results.append(
                Result(number, a, b, rng.randint(0, vp_top), rng.randint(0, vp_top), winner)
            )
        if ids:
            results.append(Result(number, ids.pop(), None))
    return players, results


def round_robin_league(n: int, rng: random.Random):
    """Everyone meets everyone (twice, sometimes): head-to-head applies to every group."""
    players = [(pid, f"P{pid}") for pid in range(1, n + 1)]
    results = []
    for legs in range(rng.choice([1, 2])):
        for a, b in combinations(range(1, n + 1), 2):
            winner = rng.choice([a, b, None])
            results.append(Result(legs + 1, a, b, rng.randint(0, 2), rng.randint(0, 2), winner))
    return players, results


# --------------------------------------------------------------------------- the tests


def check(players, results, scoring, order):
    expected = [shown(r) for r in naive(players, results, scoring, order)]
    rows = standings(players, results, scoring, order)
    assert [shown(r) for r in rows] == expected
    wanted = {r["player"]: r["points_by_round"] for r in naive(players, results, scoring, order)}
    assert {r.player: r.points_by_round for r in rows} == wanted
    tallies = tally(players, results)
    entries = [(pid, name, tallies[pid]) for pid, name in players]
    meetings = Meetings(results).among
    from_tallies = standings_from_tallies(entries, scoring, order, meetings)
    assert [shown(r) for r in from_tallies] == expected
    assert all(r.points_by_round == {} for r in from_tallies)


def test_the_same_rows_as_the_rules_over_random_leagues():
    rng = random.Random(31)
    for _ in range(examples(3000)):
        players, results = random_league(rng)
        check(players, results, rng.choice(SCORINGS), rng.choice(ORDERS))


def test_the_same_rows_when_everyone_has_met_everyone():
    rng = random.Random(131)
    for _ in range(examples(400)):
        players, results = round_robin_league(rng.randint(2, 7), rng)
        check(players, results, rng.choice(SCORINGS), rng.choice(ORDERS))


def test_head_to_head_is_asked_only_of_groups_that_can_have_all_met():
    """Ties everywhere: 40 players all drawing 10-10 over 3 rounds share one rank; a group
    of 40 can't have all met in 3 games each, so the matches among them are never read."""
    players = [(pid, f"P{pid:02}") for pid in range(1, 41)]
    results = [Result(n, a, a + 1, 10, 10) for n in (1, 2, 3) for a in range(1, 41, 2)]
    asked = []

    def meetings(ids):
        asked.append(list(ids))
        return Meetings(results).among(ids)

    entries = [
        (pid, name, t)
        for (pid, name), t in zip(players, tally(players, results).values(), strict=True)
    ]
    rows = standings_from_tallies(entries, Scoring(), ("vp_diff", "head_to_head", "sos"), meetings)
    assert {r.rank for r in rows} == {1} and all(r.tied for r in rows)
    assert asked == []


def test_a_tally_holds_counts_not_points():
    """The opponents' results are summed as counts, so a change of scoring needs nothing
    recomputed: Ann beat Bob, who then had a bye and drew with Cy."""
    players = [(1, "Ann"), (2, "Bob"), (3, "Cy")]
    results = [Result(1, 1, 2, 5, 1, winner=1), Result(2, 2, None), Result(2, 3, 1, 2, 2)]
    ann = tally(players, results)[1]
    assert ann == Tally(won=1, drawn=1, vp_for=7, vp_against=3, opp_drawn=1, opp_lost=1, opp_byes=1)
    assert ann.played == 2
    for scoring in SCORINGS:
        bob = scoring.loss + scoring.win  # lost to Ann, then a bye

        cy = scoring.draw
        assert ann.opponents_points(scoring) == bob + cy
        assert ann.points(scoring) == scoring.win + scoring.draw


@pytest.mark.parametrize("value", [Fraction(9, 2), Fraction(10, 3), Fraction(4), Fraction(0)])
def test_strength_of_schedule_is_shown_as_before(value):
    from campaigns.leagues.standings import Row, number_text

    row = Row(1, "Ann", played=value.denominator * 2, opponents_points=value.numerator * 2)
    assert row.sos == value and row.sos_text == number_text(value)
