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
touch and every round after it are undone (each period keeps what it changed) and rated
again; a result in the last round costs that round alone. The Django side (reading the
matches, a cache per process, the pages' data) is at the end of this module.
"""

from __future__ import annotations

import bisect
import gc
import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SCALE = 173.7178
MU0, RD0, VOL0 = 1500.0, 350.0, 0.06
TAU, EPS = 0.5, 0.000001
PHI0 = RD0 / SCALE
_PI2 = math.pi**2
_TAU2 = TAU * TAU


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


def _volatility(sigma: float, phi2: float, v: float, delta2: float) -> float:
    """Glickman's step 5 (the Illinois algorithm), on the Glicko-2 scale:
    f(x) = eˣ(Δ² - φ² - v - eˣ) / 2(φ² + v + eˣ)² - (x - a) / τ²."""
    exp = math.exp
    a = math.log(sigma * sigma)
    pv = phi2 + v
    d2 = delta2 - pv
    A = a
    ex = sigma * sigma
    d = pv + ex
    fA = ex * (d2 - ex) / (2.0 * d * d)  # f(a): (x - a) is 0
    if d2 > 0:
        B = math.log(d2)
    else:
        k = 1
        while True:
            B = a - k * TAU
            ex = exp(B)
            d = pv + ex
            fB = ex * (d2 - ex) / (2.0 * d * d) + k * TAU / _TAU2
            if fB >= 0:
                break
            k += 1
    if d2 > 0:
        ex = exp(B)
        d = pv + ex
        fB = ex * (d2 - ex) / (2.0 * d * d) - (B - a) / _TAU2
    while abs(B - A) > EPS:
        C = A + (A - B) * fA / (fB - fA)
        ex = exp(C)
        d = pv + ex
        fC = ex * (d2 - ex) / (2.0 * d * d) - (C - a) / _TAU2
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
    Glicko-2 scale; ``history``: {player: [Point, …]}; ``periods``: the period keys in
    order, ``games``: each period's games (a sorted tuple), ``undo``: each period's
    players as they were before it (None: new)."""

    def __init__(self, games: Iterable[Game] = ()):
        self.players: dict[int, list] = {}
        #: {player: [(period index, key, opponent, score, μ after, φ after), …]}
        self.history: dict[int, list[tuple]] = {}
        self.periods: list[Any] = []
        self.games: list[tuple[Game, ...]] = []
        self.undo: list[list[tuple[int, list | None]]] = []
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
        changed: dict[Any, dict[int, Game | None]] = {}
        for game in games:
            old = self._by_key.get(game.key)
            if old == game:
                continue
            if old is not None:
                changed.setdefault(old.period, {})[old.key] = None
            changed.setdefault(game.period, {})[game.key] = game
        for key in removed:
            old = self._by_key.get(key)
            if old is not None:
                changed.setdefault(old.period, {}).setdefault(key, None)
        if not changed:
            return None
        paused = gc.isenabled()
        if paused:  # millions of small tuples, none in a cycle: no collection midway
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
            current = {g.key: g for g in self.games[index]} if index is not None else {}
            for key, game in edits.items():
                if game is None:
                    if current.get(key) is not None and current[key].period == period:
                        del current[key]
                else:
                    current[key] = game
            new_sets[period] = current
        first_period = min(changed)
        start = bisect.bisect_left(self.periods, first_period)
        kept = [(p, g) for p, g in zip(self.periods[start:], self.games[start:], strict=True)]
        self._rollback(start)
        later = {p: {g.key: g for g in gs} for p, gs in kept}
        later.update(new_sets)
        for period in sorted(later):
            games_now = tuple(sorted(later[period].values()))
            if games_now:
                self._apply(period, games_now)
        return start

    def _rollback(self, start: int) -> None:
        """Undo every period from ``start`` on, the last first."""
        players, history = self.players, self.history
        for index in range(len(self.periods) - 1, start - 1, -1):
            for game in self.games[index]:
                del self._by_key[game.key]
            for player, before in reversed(self.undo[index]):
                if before is None:
                    del players[player]
                    del history[player]
                else:
                    players[player] = before
                    points = history[player]
                    while points and points[-1][0] == index:
                        points.pop()
            del self._index[self.periods[index]]
        del self.periods[start:], self.games[start:], self.undo[start:]

    def _apply(self, period: Any, games: tuple[Game, ...]) -> None:
        """Rate one period: every game against the ratings before it."""
        index = len(self.periods)
        players, history = self.players, self.history
        sq, exp = math.sqrt, math.exp
        pre: dict[int, tuple[float, float, float, int]] = {}
        undo: list[tuple[int, list | None]] = []
        for game in games:
            for player in (game.a, game.b):
                if player in pre:
                    continue
                state = players.get(player)
                undo.append((player, state))
                if state is None:
                    pre[player] = (0.0, PHI0, VOL0, 0)
                    history[player] = []
                else:
                    mu, phi, sigma, last, count = state
                    idle = index - last - 1
                    if idle > 0:
                        phi = min(sq(phi * phi + idle * sigma * sigma), PHI0)
                    pre[player] = (mu, phi, sigma, count)
        series: dict[int, list[tuple[float, float, float, int, int]]] = {}
        for game in games:
            a, b = pre[game.a], pre[game.b]
            series.setdefault(game.a, []).append((b[0], b[1], game.score, game.key, game.b))
            series.setdefault(game.b, []).append((a[0], a[1], 1.0 - game.score, game.key, game.a))
        for player, played in series.items():
            mu, phi, sigma, count = pre[player]
            # Glickman's steps 3-8, inlined (``rate`` is the same arithmetic)
            v_inv = total = 0.0
            for mu_j, phi_j, score, _, _ in played:
                g = 1.0 / sq(1.0 + 3.0 * phi_j * phi_j / _PI2)
                e = 1.0 / (1.0 + exp(-g * (mu - mu_j)))
                v_inv += g * g * e * (1.0 - e)
                total += g * (score - e)
            v = 1.0 / v_inv
            delta = v * total
            sigma = _volatility(sigma, phi * phi, v, delta * delta)
            phi = 1.0 / sq(1.0 / (phi * phi + sigma * sigma) + v_inv)
            mu += phi * phi * total
            players[player] = [mu, phi, sigma, index, count + len(played)]
            points = history[player]
            for _, _, score, key, opponent in played:
                points.append((index, key, opponent, score, mu, phi))
        self.periods.append(period)
        self.games.append(games)
        self.undo.append(undo)
        self._index[period] = index
        by_key = self._by_key
        for game in games:
            by_key[game.key] = game

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

    def points(self, player: int) -> list[Point]:
        """The player's history: the rating after each of their matches, in order."""
        return [
            Point(index, key, opponent, score, mu * SCALE + MU0, phi * SCALE)
            for index, key, opponent, score, mu, phi in self.history.get(player, ())
        ]

    def ladder(self) -> list[Rating]:
        """Every rated player, best first (rating, then fewer... then id: stable)."""
        rows = [self.rating(p) for p in self.players]
        return sorted(rows, key=lambda r: (-r.rating, r.player))

    def snapshot(self) -> tuple:
        """Everything the engine computed, comparable with ``==`` (for the tests)."""
        return (
            {p: tuple(s) for p, s in self.players.items()},
            {p: tuple(h) for p, h in self.history.items()},
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
