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

**Cost** (issue 31): linear in players and results, but for sorting. :func:`standings`
reads each result twice; :func:`tally` gives each player's totals as a league keeps them
on its registrations, updated when a result counts, and :func:`standings_from_tallies`
ranks from those without reading a result (the league's pages). Each tiebreaker is
computed once per group of tied players: Victory Point difference and strength of
schedule are each player's own (strength of schedule compared exactly as integers, not
fractions), and head-to-head asks for the matches among a group only when each of its
players has played enough games to have met all the others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from operator import attrgetter
from typing import Any, NamedTuple

from common.sorting import name_key
from rules.i18n import gettext_noop

TIEBREAKS = {  # shown through gettext
    "vp_diff": gettext_noop("Victory Point difference"),
    "head_to_head": gettext_noop("Head-to-head"),
    "sos": gettext_noop("Strength of schedule"),
}
DEFAULT_TIEBREAKS = ("vp_diff", "head_to_head", "sos")


@dataclass(frozen=True)
class Scoring:
    win: int = 3
    draw: int = 1
    loss: int = 0


class Result(NamedTuple):
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


#: a counted match between two players, for head-to-head: (a, b, the winner or None)
Meeting = tuple[int, int, int | None]
#: the counted matches among the given players (both players of each among them), or
#: None as soon as it is clear that two of them have not met (head-to-head then does not
#: apply, and the matches are not needed)
MeetingsAmong = Callable[[Sequence[int]], Iterable[Meeting] | None]


@dataclass(slots=True)
class Tally:
    """A player's totals over every counted result: what a league keeps on each
    registration (``campaigns.leagues.tallies``) and updates when a result counts.

    They hold no points: points follow from the league's scoring (which the organiser
    may change), so the opponents' results are summed too, as counts (``opp_*``: the sum,
    over every match the player played, of that opponent's own won, drawn, lost and
    byes; an opponent met twice counts twice)."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    vp_for: int = 0
    vp_against: int = 0
    opp_won: int = 0
    opp_drawn: int = 0
    opp_lost: int = 0
    opp_byes: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    def points(self, scoring: Scoring) -> int:
        return (
            (self.won + self.byes) * scoring.win
            + self.drawn * scoring.draw
            + (self.lost * scoring.loss)
        )

    def opponents_points(self, scoring: Scoring) -> int:
        """The sum of the points of the opponents played (strength of schedule's sum)."""
        return (
            (self.opp_won + self.opp_byes) * scoring.win
            + self.opp_drawn * scoring.draw
            + self.opp_lost * scoring.loss
        )


#: Tally's fields, in order (a registration stores each as a column of the same name)
TALLY_FIELDS = tuple(Tally.__dataclass_fields__)


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
    #: the sum of the points of the opponents played (``sos`` is its average)
    opponents_points: int = 0
    #: points against the players tied with, when head-to-head counted for the tie: the
    #: largest group it was applied to (a smaller group ranked again keeps this figure)
    head_to_head: int | None = None
    rank: int = 0
    tied: bool = False  # shares its rank with another player
    decided_by: str = ""  # the tiebreaker that separated it from the row above
    #: points after each round (``standings`` fills it for every row; from tallies, the
    #: caller fills it for the rows it charts)
    points_by_round: dict[int, int] = field(default_factory=dict)

    @property
    def vp_diff(self) -> int:
        return self.vp_for - self.vp_against

    @property
    def sos(self) -> Fraction:
        """The average of the opponents' points (exact; ``sos_text`` shows it)."""
        return strength_of_schedule_of(self.opponents_points, self.played)

    @property
    def sos_text(self) -> str:
        if not self.played or self.opponents_points % self.played == 0:
            return str(self.opponents_points // self.played if self.played else 0)
        return f"{self.opponents_points / self.played:.2f}".rstrip("0").rstrip(".")


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


def strength_of_schedule_of(total: int, opponents: int) -> Fraction:
    """The same from the sum of the opponents' points and how many were played."""
    return Fraction(total, opponents) if opponents else Fraction(0)


# --------------------------------------------------------------------------- from results


class _Counts:
    """Every player's counts from the results, in lists by the player's place in ``ids``
    (list items, not attributes: this loop is most of the standings' time). A result
    with a player not in ``ids`` counts for nobody."""

    def __init__(self, ids: Sequence[int], results: Iterable[Result], scoring: Scoring):
        index = {pid: i for i, pid in enumerate(ids)}
        n = len(ids)
        won, drawn, lost, byes = [0] * n, [0] * n, [0] * n, [0] * n
        vp_for, vp_against = [0] * n, [0] * n
        #: every counted match: (i, j, the winner's place or -1 for a draw)
        games: list[tuple[int, int, int]] = []
        #: each round's points gained, by place: {round: [points]}
        gained: dict[int, list[int]] = {}
        win, draw, loss = scoring.win, scoring.draw, scoring.loss
        for number, a, b, vp_a, vp_b, winner in results:
            i = index.get(a)
            if i is None:
                continue
            column = gained.get(number)
            if column is None:
                column = gained[number] = [0] * n
            if b is None:
                byes[i] += 1
                column[i] += win
                continue
            j = index.get(b)
            if j is None:
                continue
            vp_for[i] += vp_a
            vp_against[i] += vp_b
            vp_for[j] += vp_b
            vp_against[j] += vp_a
            if winner is None:
                drawn[i] += 1
                drawn[j] += 1
                column[i] += draw
                column[j] += draw
                games.append((i, j, -1))
            elif winner == a:
                won[i] += 1
                lost[j] += 1
                column[i] += win
                column[j] += loss
                games.append((i, j, i))
            else:
                lost[i] += 1
                won[j] += 1
                column[i] += loss
                column[j] += win
                games.append((i, j, j))
        self.ids, self.index = list(ids), index
        self.won, self.drawn, self.lost, self.byes = won, drawn, lost, byes
        self.vp_for, self.vp_against = vp_for, vp_against
        self.games, self.gained = games, gained

    def opponents(self, value: list[int]) -> list[int]:
        """For each player, the sum of ``value`` over the opponents of every match."""
        out = [0] * len(value)
        for i, j, _winner in self.games:
            out[i] += value[j]
            out[j] += value[i]
        return out

    def meetings(self) -> MeetingsAmong:
        """The counted matches among a group (for head-to-head), or None when two of them
        have not met: every pair that met and each player's matches are indexed on
        first use."""
        n = len(self.ids)
        ids, index, games = self.ids, self.index, self.games
        met: set[int] | None = None
        by_place: list[list[tuple[int, int, int]]] | None = None

        def among(group: Sequence[int]) -> list[Meeting] | None:
            nonlocal met, by_place
            if met is None:
                met = {i * n + j if i < j else j * n + i for i, j, _w in games}
            places = sorted({index[p] for p in group if p in index})
            for x, i in enumerate(places):
                for j in places[x + 1 :]:
                    if i * n + j not in met:
                        return None
            if by_place is None:
                by_place = [[] for _ in ids]
                for game in games:
                    by_place[game[0]].append(game)
            chosen = set(places)
            return [
                (ids[i], ids[j], None if w < 0 else ids[w])
                for i in places
                for _i, j, w in by_place[i]
                if j in chosen
            ]

        return among


def tally(players: Iterable[tuple[int, str]], results: Iterable[Result]) -> dict[int, Tally]:
    """Every player's :class:`Tally` from the counted results (a result with anyone not
    in ``players`` counts for nobody): one pass for each player's own counts, one for
    the opponents'. What a league's stored tallies must equal (the rebuild command)."""
    ids = [pid for pid, _name in players]
    c = _Counts(ids, results, Scoring())
    sums = [c.opponents(values) for values in (c.won, c.drawn, c.lost, c.byes)]
    return {
        pid: Tally(
            c.won[i],
            c.drawn[i],
            c.lost[i],
            c.byes[i],
            c.vp_for[i],
            c.vp_against[i],
            sums[0][i],
            sums[1][i],
            sums[2][i],
            sums[3][i],
        )
        for i, pid in enumerate(ids)
    }


class Meetings:
    """The counted matches between players, found by player (for head-to-head, which
    asks only about small groups of tied players). Indexed on first use. ``among``
    returns them all, even when two of the group have not met."""

    def __init__(self, results: Iterable[Result]):
        self._results = results
        self._by_player: dict[int, list[Meeting]] | None = None

    def among(self, ids: Sequence[int]) -> list[Meeting]:
        if self._by_player is None:
            found: dict[int, list[Meeting]] = defaultdict(list)
            for _number, a, b, _vp_a, _vp_b, winner in self._results:
                if b is not None:
                    found[a].append((a, b, winner))
            self._by_player = found
        wanted = set(ids)
        by_player = self._by_player
        return [m for p in wanted for m in by_player.get(p, ()) if m[1] in wanted]


def standings(
    players: Iterable[tuple[int, str]],
    results: Iterable[Result],
    scoring: Scoring = Scoring(),
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[Row]:
    """Every player's row, best first, with ranks (shared when every tiebreaker is equal).

    Linear in players and results (plus sorting them by name): each result is read
    once, each match once more for the opponents' points, each tiebreaker computed once
    per group of tied players, head-to-head only for groups small enough to have all
    met."""
    players = list(players)
    ids = [pid for pid, _name in players]
    c = _Counts(ids, results, scoring)
    win, draw, loss = scoring.win, scoring.draw, scoring.loss
    points = [
        (w + b) * win + d * draw + lo * loss
        for w, d, lo, b in zip(c.won, c.drawn, c.lost, c.byes, strict=True)
    ]
    opponents = c.opponents(points)
    rounds = sorted(c.gained)
    running = [0] * len(ids)
    after: list[list[int]] = []  # points after each round, by place
    for number in rounds:
        running = [x + y for x, y in zip(running, c.gained[number], strict=True)]
        after.append(running)
    rows = []
    for i, (pid, name) in enumerate(players):
        w, d, lo = c.won[i], c.drawn[i], c.lost[i]
        row = Row(
            pid,
            name,
            w + d + lo,
            w,
            d,
            lo,
            c.byes[i],
            points[i],
            c.vp_for[i],
            c.vp_against[i],
            opponents[i],
        )
        row.points_by_round = {n: column[i] for n, column in zip(rounds, after, strict=True)}
        rows.append(row)
    return rank(rows, scoring, tiebreaks, c.meetings())


# --------------------------------------------------------------------------- from tallies


def standings_from_tallies(
    entries: Iterable[tuple[int, str, Tally]],
    scoring: Scoring = Scoring(),
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    meetings: MeetingsAmong | None = None,
) -> list[Row]:
    """The same rows as :func:`standings` from each player's stored :class:`Tally`
    (``entries``: id, name, tally), in time linear in players: what the league's pages
    read. ``meetings`` gives the counted matches among a group of players, asked only
    when head-to-head is among the tiebreakers and a group of tied players is small
    enough to have all met (without it, head-to-head never applies). ``points_by_round``
    is left empty."""
    rows = []
    for pid, name, t in entries:
        played = t.won + t.drawn + t.lost
        rows.append(
            Row(
                pid,
                name,
                played,
                t.won,
                t.drawn,
                t.lost,
                t.byes,
                t.points(scoring),
                t.vp_for,
                t.vp_against,
                t.opponents_points(scoring) if played else 0,
            )
        )
    return rank(rows, scoring, tiebreaks, meetings)


# --------------------------------------------------------------------------- ranking


def rank(
    rows: list[Row],
    scoring: Scoring,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    meetings: MeetingsAmong | None = None,
) -> list[Row]:
    """``rows`` (their totals filled in) best first, with ranks, ties and what decided
    them: by points, then the league's tiebreakers in its order (the module's docstring).
    Players still tied are listed by name."""
    chosen = [t for t in dict.fromkeys(tiebreaks) if t in TIEBREAKS]
    rows = sorted(rows, key=_by_name)
    by_points: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        by_points[row.points].append(row)
    values: dict[str, Callable[[Row], Any]] = {}
    if "vp_diff" in chosen:
        values["vp_diff"] = attrgetter("vp_diff")
    if "sos" in chosen:
        # Exact and without fractions: every average times one common multiple of the
        # numbers of opponents played (each a whole number), compared as integers.
        common = 1
        for played in {row.played for row in rows if row.played}:
            common = common * played // gcd(common, played)
        values["sos"] = lambda r: r.opponents_points * (common // r.played) if r.played else 0
    h2h = _HeadToHead(scoring, meetings) if "head_to_head" in chosen else None
    ordered: list[Row] = []
    for points in sorted(by_points, reverse=True):
        for group, decided in _split(by_points[points], chosen, values, h2h, "", frozenset()):
            place = len(ordered) + 1
            tied = len(group) > 1
            for row in group:
                row.rank = place
                row.tied = tied
                row.decided_by = decided
                ordered.append(row)
    return ordered


def _by_name(row: Row) -> tuple:
    """``name_key``'s order (then the id), its Unicode decomposition skipped for a name
    in ASCII, where it changes nothing: the same key, in a fifth of the time."""
    name = row.name or ""
    if name.isascii():
        folded = name.casefold()
        return ((folded, folded, name), row.player)
    return (name_key(name), row.player)


class _HeadToHead:
    """Head-to-head among a group of tied players: each one's points in the matches
    between them, or None when they have not all met each other."""

    def __init__(self, scoring: Scoring, meetings: MeetingsAmong | None):
        self.scoring = scoring
        self.meetings = meetings

    def __call__(self, group: list[Row]) -> dict[int, int] | None:
        needed = len(group) - 1
        if self.meetings is None or any(row.played < needed for row in group):
            return None  # someone has not played enough games to have met all the others
        points = {row.player: 0 for row in group}
        pairs = set()
        win, draw, loss = self.scoring.win, self.scoring.draw, self.scoring.loss
        found = self.meetings([row.player for row in group])
        if found is None:
            return None
        for a, b, winner in found:
            if a not in points or b not in points or a == b:
                continue
            pairs.add((a, b) if a < b else (b, a))
            if winner is None:
                points[a] += draw
                points[b] += draw
            elif winner == a:
                points[a] += win
                points[b] += loss
            else:
                points[a] += loss
                points[b] += win
        if len(pairs) < len(group) * needed // 2:
            return None
        for row in group:
            if row.head_to_head is None:
                # The column shows the head-to-head among the largest group it counted for
                # (the first: groups only shrink), not a smaller group's ranked again later.
                row.head_to_head = points[row.player]
        return points


def _split(
    group: list[Row],
    tiebreaks: list[str],
    values: dict[str, Callable[[Row], Any]],
    h2h: _HeadToHead | None,
    decided: str,
    constant: frozenset[str],
) -> list[tuple[list[Row], str]]:
    """Order players equal on points: the first tiebreaker (in the league's order) that
    gives them different values splits them, best first; each smaller group still tied
    is ranked again from the first tiebreaker, among its own players only (this is what
    re-applies head-to-head after a later tiebreaker separated someone). Returns the
    groups that stay tied, each with the tiebreaker that separated it from the one above
    (the first keeps ``decided``, what separated the whole group).

    A tiebreaker that does not depend on who else is tied (VP difference, strength of
    schedule) and gave one value to a group gives one value to every part of it:
    ``constant`` names those, so each is computed once per group, never again for its
    parts. Head-to-head depends on the group, and is computed again for each."""
    if len(group) <= 1:
        return [(group, decided)]
    for tiebreak in tiebreaks:
        if tiebreak in constant:
            continue
        if tiebreak == "head_to_head":
            found = h2h(group) if h2h is not None else None
            if found is None:
                continue
            buckets: dict[Any, list[Row]] = defaultdict(list)
            for row in group:
                buckets[found[row.player]].append(row)
        else:
            of = values[tiebreak]
            buckets = defaultdict(list)
            for row in group:
                buckets[of(row)].append(row)
        if len(buckets) == 1:
            if tiebreak != "head_to_head":
                constant = constant | {tiebreak}
            continue
        parts = constant if tiebreak == "head_to_head" else constant | {tiebreak}
        out: list[tuple[list[Row], str]] = []
        for i, level in enumerate(sorted(buckets, reverse=True)):
            out += _split(
                buckets[level],
                tiebreaks,
                values,
                h2h,
                decided if i == 0 else TIEBREAKS[tiebreak],
                parts,
            )
        return out
    return [(group, decided)]
