"""Club ratings across seasons: Glicko-2 (Glickman, "Example of the Glicko-2 system",
2012), one rating per player, per club and game system (docs/leagues.md, "Ratings").

The engine (:class:`Ratings`) is plain Python: no Django. Its input is the club's
counted matches of one system (:class:`Game`: confirmed or settled, byes left out), its
output each player's rating, deviation and volatility, and their history (the rating
after each match).

- **A rating period is a league round.** Every match of one round is rated at once
  against the ratings before the round (Glickman's steps 3-8), so the order in which a
  round's results are confirmed changes nothing. Rounds are taken in the order they
  were paired (the round's creation time, then its id), whichever league they belong
  to; a result confirmed late, or corrected by the organiser, is rated in its own round
  and every round after it is rated again.
- **A draw scores ½**; **a bye is not a game** and does not rate (the player sits the
  period out). A player who sits out a period has their deviation grow by Glickman's
  step 6 (φ² + sigma² each period), worked out when they next play or are shown, and never
  above a new player's 350.
- The system constant τ is 0.5, the convergence tolerance 0.000001, a new player 1500,
  RD 350, volatility 0.06: the paper's values, and the ``glicko2`` package's
  (the reference the tests compare with).

:meth:`Ratings.update` takes the matches that are new or changed: the first round they
touch and every round after it are undone (their players' histories cut back: the last
match left holds each one's state before) and rated again; a result in the last round
costs that round alone. A full computation costs a fixed amount a match (one pass over
the rounds; nothing per player who sits a round out), and a player's history is one
``array`` of doubles (no Python object a match): docs/benchmarks.md, "Ratings at ladder
scale". The Django side (reading the matches, a cache per process, the pages' data) is at
the end of this module.
"""

from __future__ import annotations

import bisect
import gc
import math
import struct
import threading
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Any

SCALE = 173.7178
MU0, RD0, VOL0 = 1500.0, 350.0, 0.06
TAU, EPS = 0.5, 0.000001
PHI0 = RD0 / SCALE
_PI2 = math.pi**2
_TAU2 = TAU * TAU
_PAIR = attrgetter("a", "b")  # a game's two players
#: numbers a match in a player's history (``Ratings.history``): period index, key,
#: opponent, score, μ, φ, sigma after it, as doubles (keys and players are ints < 2**53)
WIDTH = 7
_PACK = struct.Struct(f"{WIDTH}d").pack


def _history() -> array:
    return array("d")


@dataclass(frozen=True, order=True)
class Game:
    """A counted match: ``period`` orders the rounds (``(created, round id)`` from the
    database; any sortable value), ``key`` names the match (the pairing's id), ``score``
    is ``a``'s: 1 a win, 0.5 a draw, 0 a loss."""

    period: Any
    key: int
    a: int
    b: int
    score: float


@dataclass(frozen=True)
class Point:
    """One match in a player's history: the rating after it (after its round)."""

    period: int  # the period's index (0, 1, …)
    key: int
    opponent: int
    score: float
    rating: float
    rd: float


@dataclass(frozen=True)
class Rating:
    player: int
    rating: float
    rd: float  # as of the last period (grown for the periods sat out)
    volatility: float
    played: int


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / _PI2)


def _volatility(
    sigma: float,
    phi2: float,
    v: float,
    delta2: float,
    exp=math.exp,
    log=math.log,
    tau=TAU,
    tau2=_TAU2,
    eps=EPS,
) -> float:
    """Glickman's step 5 (the Illinois algorithm), on the Glicko-2 scale:
    f(x) = eˣ(Δ² - φ² - v - eˣ) / 2(φ² + v + eˣ)² - (x - a) / τ².
    (The functions and constants are bound as defaults: locals in the loop.)"""
    ex = sigma * sigma
    a = log(ex)
    pv = phi2 + v
    d2 = delta2 - pv
    A = a
    d = pv + ex
    fA = ex * (d2 - ex) / (2.0 * d * d)  # f(a): (x - a) is 0
    if d2 > 0:
        B = log(d2)
        ex = exp(B)
        d = pv + ex
        fB = ex * (d2 - ex) / (2.0 * d * d) - (B - a) / tau2
    else:
        k = 1
        while True:
            B = a - k * tau
            ex = exp(B)
            d = pv + ex
            fB = ex * (d2 - ex) / (2.0 * d * d) + k * tau / tau2
            if fB >= 0:
                break
            k += 1
    while B - A > eps or A - B > eps:  # noqa: SIM300 (|B - A| > ε, no abs call)
        C = A + (A - B) * fA / (fB - fA)
        ex = exp(C)
        d = pv + ex
        fC = ex * (d2 - ex) / (2.0 * d * d) - (C - a) / tau2
        if fC * fB <= 0:
            A, fA = B, fB
        else:
            fA /= 2.0
        B, fB = C, fC
    return exp(A / 2.0)


def rate(
    mu: float, phi: float, sigma: float, games: list[tuple[float, float, float]]
) -> tuple[float, float, float]:
    """One player's period (Glickman's steps 3-8): ``games`` are (opponent's μ, opponent's
    φ, score), all on the Glicko-2 scale, as they were before the period."""
    v_inv = 0.0
    total = 0.0
    for mu_j, phi_j, score in games:
        g = _g(phi_j)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    sigma2 = _volatility(sigma, phi * phi, v, delta * delta)
    phi_star2 = phi * phi + sigma2 * sigma2
    phi_new = 1.0 / math.sqrt(1.0 / phi_star2 + v_inv)
    return mu + phi_new * phi_new * total, phi_new, sigma2


class Ratings:
    """The ratings of one club and system, kept in step with its matches.

    ``players``: {player: [mu, phi, sigma, index of the last period played, games]} on the
    Glicko-2 scale; ``history``: {player: the rating after each of their matches, flat,
    ``WIDTH`` numbers a match: period index, key, opponent, score, μ, φ, sigma after it};
    ``periods``: the period keys in order, ``games``: each period's games (sorted).

    Nothing is kept per period but its games: a player's state before a period is the
    last match of their history before it, so undoing a period truncates its players'
    histories (one match each a game) and reads their state back from what is left.
    """

    def __init__(self, games: Iterable[Game] = ()):
        self.players: dict[int, list] = {}
        self.history: dict[int, array] = {}
        self.periods: list[Any] = []
        self.games: list[tuple[Game, ...]] = []
        self._index: dict[Any, int] = {}
        self._by_key: dict[int, Game] = {}
        self.update(games)

    def __len__(self) -> int:
        return len(self._by_key)

    # -- feeding ----------------------------------------------------------------------

    def update(self, games: Iterable[Game], removed: Iterable[int] = ()) -> int | None:
        """Take ``games`` (new, changed or unchanged) and drop the matches keyed
        ``removed``; rate again from the first period that changed. Returns that
        period's index, or None when nothing changed."""
        by_key = self._by_key
        changed: dict[Any, dict[int, Game | None]] = {}
        for game in games:
            old = by_key.get(game.key)
            if old is not None:
                if old is game or old == game:
                    continue
                changed.setdefault(old.period, {})[old.key] = None
            edits = changed.get(game.period)
            if edits is None:
                edits = changed[game.period] = {}
            edits[game.key] = game
        for key in removed:
            old = by_key.get(key)
            if old is not None:
                changed.setdefault(old.period, {}).setdefault(key, None)
        if not changed:
            return None
        paused = gc.isenabled()
        if paused:  # many small objects, none in a cycle: no collection midway
            gc.disable()
        try:
            return self._redo(changed)
        finally:
            if paused:
                gc.enable()

    def _redo(self, changed: dict[Any, dict[int, Game | None]]) -> int:
        # each changed period's games, as they are now
        new_sets: dict[Any, dict[int, Game]] = {}
        for period, edits in changed.items():
            index = self._index.get(period)
            if index is None:
                current = {key: game for key, game in edits.items() if game is not None}
            else:
                current = {g.key: g for g in self.games[index]}
                for key, game in edits.items():
                    if game is None:
                        current.pop(key, None)
                    else:
                        current[key] = game
            new_sets[period] = current
        start = bisect.bisect_left(self.periods, min(changed))
        if start < len(self.periods):
            kept = zip(self.periods[start:], self.games[start:], strict=True)
            later = {p: {g.key: g for g in gs} for p, gs in kept}
            self._rollback(start)
            later.update(new_sets)
        else:  # only periods after the last one: nothing to undo
            later = new_sets
        for period in sorted(later):
            current = later[period]
            if current:  # in the order of their keys (in one period: a Game's order)
                self._apply(period, tuple([current[key] for key in sorted(current)]))
        return start

    def _rollback(self, start: int) -> None:
        """Undo every period from ``start`` on, the last first."""
        players, history, by_key = self.players, self.history, self._by_key
        width = WIDTH
        for index in range(len(self.periods) - 1, start - 1, -1):
            games = self.games[index]
            for game in games:  # each game is one match of each player's, their last
                del by_key[game.key]
                del history[game.a][-width:]
                del history[game.b][-width:]
            for player in dict.fromkeys(chain.from_iterable(map(_PAIR, games))):
                points = history[player]
                if points:  # as they were after the last match they have left
                    last, _, _, _, mu, phi, sigma = points[-width:]
                    players[player] = [mu, phi, sigma, int(last), len(points) // width]
                else:
                    del players[player], history[player]
            del self._index[self.periods[index]]
        del self.periods[start:], self.games[start:]

    def _apply(self, period: Any, games: tuple[Game, ...]) -> None:
        """Rate one period: every game against the ratings before it."""
        index = len(self.periods)
        players = dict.fromkeys(chain.from_iterable(map(_PAIR, games)))
        if len(players) == 2 * len(games):  # one game each (a league round): the usual
            self._rate_pairs(index, games)
        else:
            self._rate_any(index, games, players)
        self.periods.append(period)
        self.games.append(games)
        self._index[period] = index
        by_key = self._by_key
        for game in games:
            by_key[game.key] = game

    def _rate_pairs(self, index: int, games: tuple[Game, ...]) -> None:
        """A period in which nobody plays twice: each game rates its two players
        (Glickman's steps 3-8 against one opponent, ``rate``'s arithmetic inlined) in one
        pass, as neither player's state before the period is read after it changed."""
        players, history = self.players, self.history
        sq, exp, log, pack = math.sqrt, math.exp, math.log, _PACK
        pi2, phi0, vol0, tau, tau2, eps = _PI2, PHI0, VOL0, TAU, _TAU2, EPS
        grown = index - 1  # the last period of a player who sat none out
        for game in games:
            a, b, score, key = game.a, game.b, game.score, game.key
            state = players.get(a)
            if state is None:
                mu_a, phi_a, sigma_a, count_a = 0.0, phi0, vol0, 0
                points_a = history[a] = _history()
            else:
                mu_a, phi_a, sigma_a, last, count_a = state
                if last < grown:  # RD grown for the periods sat out (step 6 each)
                    phi_a = sq(phi_a * phi_a + (index - last - 1) * sigma_a * sigma_a)
                    if phi_a > phi0:
                        phi_a = phi0
                points_a = history[a]
            state = players.get(b)
            if state is None:
                mu_b, phi_b, sigma_b, count_b = 0.0, phi0, vol0, 0
                points_b = history[b] = _history()
            else:
                mu_b, phi_b, sigma_b, last, count_b = state
                if last < grown:
                    phi_b = sq(phi_b * phi_b + (index - last - 1) * sigma_b * sigma_b)
                    if phi_b > phi0:
                        phi_b = phi0
                points_b = history[b]
            g_a = 1.0 / sq(1.0 + 3.0 * phi_a * phi_a / pi2)
            g_b = 1.0 / sq(1.0 + 3.0 * phi_b * phi_b / pi2)
            # a against b
            e = 1.0 / (1.0 + exp(-g_b * (mu_a - mu_b)))
            v_inv = g_b * g_b * e * (1.0 - e)
            total = g_b * (score - e)
            v = 1.0 / v_inv
            delta = v * total
            # step 5 (``_volatility`` inlined)
            ex = sigma_a * sigma_a
            a0 = log(ex)
            pv = phi_a * phi_a + v
            d2 = delta * delta - pv
            d = pv + ex
            A = a0
            fA = ex * (d2 - ex) / (2.0 * d * d)
            if d2 > 0:
                B = log(d2)
                ex = exp(B)
                d = pv + ex
                fB = ex * (d2 - ex) / (2.0 * d * d) - (B - a0) / tau2
            else:
                k = 1
                while True:
                    B = a0 - k * tau
                    ex = exp(B)
                    d = pv + ex
                    fB = ex * (d2 - ex) / (2.0 * d * d) + k * tau / tau2
                    if fB >= 0:
                        break
                    k += 1
            while B - A > eps or A - B > eps:  # noqa: SIM300
                C = A + (A - B) * fA / (fB - fA)
                ex = exp(C)
                d = pv + ex
                fC = ex * (d2 - ex) / (2.0 * d * d) - (C - a0) / tau2
                if fC * fB <= 0:
                    A, fA = B, fB
                else:
                    fA /= 2.0
                B, fB = C, fC
            sigma = exp(A / 2.0)
            phi = 1.0 / sq(1.0 / (phi_a * phi_a + sigma * sigma) + v_inv)
            mu = mu_a + phi * phi * total
            players[a] = [mu, phi, sigma, index, count_a + 1]
            points_a.frombytes(pack(index, key, b, score, mu, phi, sigma))
            # b against a
            score = 1.0 - score
            e = 1.0 / (1.0 + exp(-g_a * (mu_b - mu_a)))
            v_inv = g_a * g_a * e * (1.0 - e)
            total = g_a * (score - e)
            v = 1.0 / v_inv
            delta = v * total
            # step 5 (``_volatility`` inlined)
            ex = sigma_b * sigma_b
            a0 = log(ex)
            pv = phi_b * phi_b + v
            d2 = delta * delta - pv
            d = pv + ex
            A = a0
            fA = ex * (d2 - ex) / (2.0 * d * d)
            if d2 > 0:
                B = log(d2)
                ex = exp(B)
                d = pv + ex
                fB = ex * (d2 - ex) / (2.0 * d * d) - (B - a0) / tau2
            else:
                k = 1
                while True:
                    B = a0 - k * tau
                    ex = exp(B)
                    d = pv + ex
                    fB = ex * (d2 - ex) / (2.0 * d * d) + k * tau / tau2
                    if fB >= 0:
                        break
                    k += 1
            while B - A > eps or A - B > eps:  # noqa: SIM300
                C = A + (A - B) * fA / (fB - fA)
                ex = exp(C)
                d = pv + ex
                fC = ex * (d2 - ex) / (2.0 * d * d) - (C - a0) / tau2
                if fC * fB <= 0:
                    A, fA = B, fB
                else:
                    fA /= 2.0
                B, fB = C, fC
            sigma = exp(A / 2.0)
            phi = 1.0 / sq(1.0 / (phi_b * phi_b + sigma * sigma) + v_inv)
            mu = mu_b + phi * phi * total
            players[b] = [mu, phi, sigma, index, count_b + 1]
            points_b.frombytes(pack(index, key, a, score, mu, phi, sigma))

    def _rate_any(self, index: int, games: tuple[Game, ...], playing: dict[int, None]) -> None:
        """Any period (a player may play several games in it): the ratings before it of
        everyone ``playing``, each player's sums over their games in the games' order,
        then their new ratings (Glickman's steps 3-8, as ``rate``)."""
        players, history = self.players, self.history
        sq, exp, volatility = math.sqrt, math.exp, _volatility
        pi2, phi0, vol0 = _PI2, PHI0, VOL0
        mus: dict[int, float] = {}
        gees: dict[int, float] = {}
        pre: dict[int, tuple[float, float, int]] = {}
        for player in playing:
            state = players.get(player)
            if state is None:
                mu, phi, sigma, count = 0.0, phi0, vol0, 0
                history[player] = _history()
            else:
                mu, phi, sigma, last, count = state
                if last < index - 1:  # RD grown for the periods sat out (step 6 each)
                    phi = sq(phi * phi + (index - last - 1) * sigma * sigma)
                    if phi > phi0:
                        phi = phi0
            mus[player] = mu
            gees[player] = 1.0 / sq(1.0 + 3.0 * phi * phi / pi2)
            pre[player] = (phi, sigma, count)
        v_invs: dict[int, float] = {}
        totals: dict[int, float] = {}
        played: dict[int, int] = {}
        for game in games:
            a, b, score = game.a, game.b, game.score
            mu_a, mu_b, g_a, g_b = mus[a], mus[b], gees[a], gees[b]
            e = 1.0 / (1.0 + exp(-g_b * (mu_a - mu_b)))
            v_invs[a] = v_invs.get(a, 0.0) + g_b * g_b * e * (1.0 - e)
            totals[a] = totals.get(a, 0.0) + g_b * (score - e)
            played[a] = played.get(a, 0) + 1
            e = 1.0 / (1.0 + exp(-g_a * (mu_b - mu_a)))
            v_invs[b] = v_invs.get(b, 0.0) + g_a * g_a * e * (1.0 - e)
            totals[b] = totals.get(b, 0.0) + g_a * ((1.0 - score) - e)
            played[b] = played.get(b, 0) + 1
        for player, v_inv in v_invs.items():
            total = totals[player]
            phi, sigma, count = pre[player]
            v = 1.0 / v_inv
            delta = v * total
            sigma = volatility(sigma, phi * phi, v, delta * delta)
            phi = 1.0 / sq(1.0 / (phi * phi + sigma * sigma) + v_inv)
            mu = mus[player] + phi * phi * total
            players[player] = [mu, phi, sigma, index, count + played[player]]
        for game in games:
            a, b, key, score = game.a, game.b, game.key, game.score
            mu, phi, sigma = players[a][:3]
            history[a].frombytes(_PACK(index, key, b, score, mu, phi, sigma))
            mu, phi, sigma = players[b][:3]
            history[b].frombytes(_PACK(index, key, a, 1.0 - score, mu, phi, sigma))

    # -- reading ----------------------------------------------------------------------

    def rating(self, player: int) -> Rating | None:
        state = self.players.get(player)
        if state is None:
            return None
        mu, phi, sigma, last, played = state
        idle = len(self.periods) - 1 - last
        if idle > 0:
            phi = min(math.sqrt(phi * phi + idle * sigma * sigma), PHI0)
        return Rating(player, mu * SCALE + MU0, phi * SCALE, sigma, played)

    def _matches(self, player: int) -> list[tuple]:
        """The player's history, a tuple a match: (period index, key, opponent, score,
        μ, φ, sigma after it) on the Glicko-2 scale."""
        it = iter(self.history.get(player, ()))
        return list(zip(*[it] * WIDTH, strict=True))

    def points(self, player: int) -> list[Point]:
        """The player's history: the rating after each of their matches, in order."""
        return [
            Point(int(index), int(key), int(opponent), score, mu * SCALE + MU0, phi * SCALE)
            for index, key, opponent, score, mu, phi, _ in self._matches(player)
        ]

    def ladder(self) -> list[Rating]:
        """Every rated player, best first (rating, then fewer... then id: stable)."""
        rows = [self.rating(p) for p in self.players]
        return sorted(rows, key=lambda r: (-r.rating, r.player))

    def snapshot(self) -> tuple:
        """Everything the engine computed, comparable with ``==`` (for the tests)."""
        return (
            {p: tuple(s) for p, s in self.players.items()},
            {p: tuple(self._matches(p)) for p in self.history},
            tuple(self.periods),
            tuple(self.games),
        )


def full(games: Iterable[Game]) -> Ratings:
    """The ratings computed from scratch."""
    return Ratings(games)


# =========================================================================== Django side
# Reading a club's matches, the per-process cache, and what the pages show. Django is
# imported in the functions, so the engine above stays importable without it.

#: {(club id, system): (fingerprint, Ratings)}: each process keeps the ratings it
#: computed; a read checks the fingerprint (one aggregate query) and feeds the engine
#: the matches changed since (recomputing from the first round they touch)
_CACHE: dict[tuple[int, str], tuple[tuple, Ratings]] = {}
_CACHE_MAX = 32
_LOCK = threading.RLock()
#: a changed match is looked for this far back from the last one seen (a transaction that
#: commits after a later one)
_MARGIN_SECONDS = 120


def _counted(club_id: int, system: str):
    from campaigns.leagues.models import MatchReport

    return MatchReport.objects.filter(
        pairing__round__league__club_id=club_id,
        pairing__round__league__system=system,
        pairing__b__isnull=False,
        status__in=(MatchReport.CONFIRMED, MatchReport.SETTLED),
    )


def _fingerprint(club_id: int, system: str) -> tuple:
    from django.db.models import Count, Max

    got = _counted(club_id, system).aggregate(n=Count("pk"), last=Max("updated"))
    return (got["n"], got["last"])


def _games(queryset) -> list[Game]:
    out = []
    rows = queryset.values_list(
        "pairing__round__created",
        "pairing__round_id",
        "pairing_id",
        "pairing__a__player_id",
        "pairing__b__player_id",
        "winner",
    )
    for created, round_id, key, a, b, winner in rows:
        score = 1.0 if winner == "a" else 0.0 if winner == "b" else 0.5
        out.append(Game((created, round_id), key, a, b, score))
    return out


def club_ratings(club_id: int, system: str) -> Ratings:
    """The club's ratings in ``system``, in step with its counted matches: from this
    process's cache when nothing changed, else the cache fed what changed since its
    fingerprint (a match confirmed, or settled again by the organiser), else computed
    from every match."""
    from datetime import timedelta

    fingerprint = _fingerprint(club_id, system)
    key = (club_id, system)
    with _LOCK:  # the caller reads the ratings under the lock too (``read``)
        cached = _CACHE.pop(key, None)
        if cached is not None and cached[0] == fingerprint:
            _CACHE[key] = cached  # the most recently used last
            return cached[1]
        ratings = None
        if cached is not None and cached[0][1] is not None and fingerprint[0] >= cached[0][0]:
            ratings = cached[1]
            since = cached[0][1] - timedelta(seconds=_MARGIN_SECONDS)
            ratings.update(_games(_counted(club_id, system).filter(updated__gte=since)))
            if len(ratings) != fingerprint[0]:  # a match went (a league deleted): again
                ratings = None
        if ratings is None:
            ratings = Ratings(_games(_counted(club_id, system)))
        while len(_CACHE) >= _CACHE_MAX:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (fingerprint, ratings)
        return ratings


def forget_cache() -> None:
    with _LOCK:
        _CACHE.clear()


# --------------------------------------------------------------------------- the pages


def club_systems(club) -> list[tuple[str, str]]:
    """The game systems the club has leagues of: (id, name), in the registry's order."""
    from rules import system_choices

    used = set(club.leagues.values_list("system", flat=True))
    return [(sid, name) for sid, name in system_choices() if sid in used]


def _names(user_ids) -> dict[int, str]:
    from django.contrib.auth import get_user_model

    from common.names import shown_username

    users = get_user_model().objects.filter(pk__in=set(user_ids))
    return {pk: shown_username(name, pk) for pk, name in users.values_list("pk", "username")}


def season_winners(club, system: str) -> list[dict]:
    """Each finished league's first place (several when they share it), newest first."""
    from campaigns.leagues import services

    out = []
    for league in club.leagues.filter(system=system, status="finished").order_by("-created"):
        registrations = list(league.registrations.select_related("player"))
        by_id = {r.pk: r for r in registrations}
        rows = services.standings(league, registrations)
        firsts = [by_id[row.player] for row in rows if row.rank == 1 and row.played]
        out.append({"league": league, "winners": firsts})
    return out


def ladder_page(club, system: str) -> dict:
    """What the ladder page shows: every rated player best first, and the season winners."""
    with _LOCK:
        ratings = club_ratings(club.pk, system)
        rows = ratings.ladder()
    names = _names(r.player for r in rows)
    ladder, rank = [], 0
    for position, row in enumerate(rows, 1):
        if position == 1 or round(row.rating) != round(rows[position - 2].rating):
            rank = position
        ladder.append({"rank": rank, "row": row, "name": names.get(row.player, "")})
    return {"ladder": ladder, "winners": season_winners(club, system)}


#: the chart's drawing box (the SVG scales to its container)
CHART_W, CHART_H, CHART_PAD = 600, 220, 36


def chart(points: list[Point]) -> dict | None:
    """An inline SVG line of the rating after each match (x: the matches in order), its
    y axis' labels, and the figures its text alternative says."""
    if not points:
        return None
    values = [MU0] + [p.rating for p in points]
    low, high = min(values), max(values)
    low, high = math.floor(low / 50) * 50, math.ceil(high / 50) * 50
    if high == low:
        high = low + 50
    width, height, pad = CHART_W, CHART_H, CHART_PAD
    step = (width - 2 * pad) / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return round(height - pad - (value - low) / (high - low) * (height - 2 * pad), 1)

    line = " ".join(f"{round(pad + i * step, 1)},{y(v)}" for i, v in enumerate(values))
    ticks = [{"value": v, "y": y(v)} for v in sorted({low, round((low + high) / 2), high})]
    return {
        "width": width,
        "height": height,
        "pad": pad,
        "line": line,
        "ticks": ticks,
        "last": {"x": round(pad + (len(values) - 1) * step, 1), "y": y(values[-1])},
        "first": round(values[0]),
        "now": round(values[-1]),
        "high": round(max(values)),
        "low": round(min(values)),
        "matches": len(points),
    }


def player_page(club, system: str, user_id: int) -> dict | None:
    """What a player's rating page shows, or None when they never played in the club's
    leagues of ``system``: their rating (and in the club's other systems), its history,
    their seasons with their final place, their record against each opponent, the gangs
    they played."""
    from campaigns.leagues import services
    from campaigns.leagues.models import Pairing, Registration

    registrations = list(
        Registration.objects.filter(
            league__club=club, league__system=system, player_id=user_id
        ).select_related("league")
    )
    if not registrations:
        return None
    with _LOCK:
        ratings = club_ratings(club.pk, system)
        rating = ratings.rating(user_id)
        points = ratings.points(user_id)
    others = []
    for sid, name in club_systems(club):
        if (
            sid == system
            or not Registration.objects.filter(
                league__club=club, league__system=sid, player_id=user_id
            ).exists()
        ):
            continue
        with _LOCK:
            other = club_ratings(club.pk, sid).rating(user_id)
        others.append({"system": sid, "name": name, "rating": other})
    names = _names([user_id, *(p.opponent for p in points)])
    where = {
        pk: (league_id, number)
        for pk, league_id, number in Pairing.objects.filter(
            pk__in=[p.key for p in points]
        ).values_list("pk", "round__league_id", "round__number")
    }
    leagues = {r.league_id: r.league for r in registrations}
    history, record = [], {}
    for point in points:
        league_id, number = where.get(point.key, (None, None))
        history.append(
            {
                "point": point,
                "opponent": names.get(point.opponent, ""),
                "league": leagues.get(league_id),
                "league_id": league_id,
                "round": number,
            }
        )
        mine = record.setdefault(
            point.opponent,
            {
                "opponent": point.opponent,
                "name": names.get(point.opponent, ""),
                "w": 0,
                "d": 0,
                "l": 0,
            },
        )
        mine["w" if point.score == 1 else "d" if point.score == 0.5 else "l"] += 1
    seasons = []
    for registration in sorted(registrations, key=lambda r: (r.league.created, r.pk)):
        league = registration.league
        rows = services.standings(league)
        row = next((r for r in rows if r.player == registration.pk), None)
        place = f"={row.rank}" if row is not None and row.tied else str(row.rank) if row else ""
        seasons.append(
            {
                "league": league,
                "registration": registration,
                "place": place,
                "of": len(rows),
                "finished": league.status == league.FINISHED,
            }
        )
    gangs = sorted({r.gang_name for r in registrations})
    return {
        "name": names.get(user_id, ""),
        "rating": rating,
        "others": others,
        "history": history[::-1],  # the latest first
        "chart": chart(points),
        "record": sorted(record.values(), key=lambda r: r["name"].casefold()),
        "seasons": seasons,
        "gangs": gangs,
    }
