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
    the rules in this module's docstring, found score group by score group
    (``_by_score_groups``) or, when that can't prove its pairing the best, over the
    whole field at once (``_whole_field``)."""
    players = list(dict.fromkeys(ranked))
    if len(players) < 2:
        return [(p, None) for p in players]
    position = {p: i for i, p in enumerate(players)}
    score = {p: (scores or {}).get(p, 0) for p in players}
    met_pairs = _pairs(met)
    byes = Counter(had_bye)
    fewest = min(byes[p] for p in players)
    can_sit = [p for p in players if byes[p] == fewest]
    pairs = _by_score_groups(players, score, met_pairs, can_sit)
    if pairs is None:
        pairs = _whole_field(players, position, score, met_pairs, can_sit)
    return _ordered(pairs, position)


def _whole_field(
    players: list[int],
    position: dict[int, int],
    score: dict[int, int | float],
    met_pairs: set[frozenset[int]],
    can_sit: list[int],
) -> list[Pair]:
    """The best pairing by one maximum-weight matching over the pairs of the field that
    can be in it (exact whatever the round; its time grows as the cube of the players,
    less when ``_gap_limit`` can leave pairs out)."""
    n = len(players)
    gaps = sorted({abs(score[a] - score[b]) for a, b in combinations(players, 2)} - {0})
    gap_tier = {g: len(gaps) - 1 - i for i, g in enumerate(gaps)}  # the largest gap first
    limit, sitter = _gap_limit(players, score, met_pairs, can_sit)
    if limit is not None and sitter is not None:
        can_sit = [sitter]

    def edge(a: int, b: int) -> Cost | None:
        at_gap = [0] * len(gaps)
        gap = abs(score[a] - score[b])
        rematch = 1 if frozenset((a, b)) in met_pairs else 0
        if limit is not None and (rematch or gap > limit):
            return None  # no best pairing has it (``_gap_limit``)
        if gap:
            at_gap[gap_tier[gap]] = 1
        return (rematch, 0, *at_gap, (position[a] - position[b]) ** 2)

    def bye(p: int) -> Cost:
        # (1. only players with the fewest byes may sit out: ``can_sit``)
        return (0, n - 1 - position[p], *([0] * len(gaps)), 0)

    pairs = _best(players, edge, bye, can_sit, one_bye=True)
    assert pairs is not None  # a perfect matching exists (every pair, or ``_gap_limit``'s)
    return pairs


def _gap_limit(
    players: list[int],
    score: dict[int, int | float],
    met_pairs: set[frozenset[int]],
    can_sit: list[int],
) -> tuple[int | float | None, int | None]:
    """The largest score gap a best pairing can have, and who sits out (odd fields), when
    the field can be paired without a rematch; else (None, None).

    The costs are compared rematches first, then the bye (the lowest-ranked player who
    may sit out and whose sitting out leaves a pairing without rematch), then the gaps,
    largest first. So when a pairing without rematch has no gap above g, no best pairing
    has one either (it would lose on the largest gap's count), nor a rematch: the pairs
    a best pairing can hold are those not met and at most the smallest such g apart."""
    index = {p: i for i, p in enumerate(players)}
    met_of = _met_of(index, met_pairs)
    sitter = None
    everyone = list(range(len(players)))
    if len(players) % 2:
        for p in sorted(can_sit, key=index.__getitem__, reverse=True):
            rest = [i for i in everyone if i != index[p]]
            if _fresh_matching(rest, met_of) * 2 == len(rest):
                sitter = p
                break
        else:
            return None, None
    rest = [i for i in everyone if sitter is None or i != index[sitter]]
    if _fresh_matching(rest, met_of) * 2 != len(rest):
        return None, None
    points = [score[p] for p in players]
    candidates = sorted({abs(points[i] - points[j]) for i, j in combinations(rest, 2)})

    def fits(limit: int | float) -> bool:
        banned = [
            met_of[i] | {j for j in rest if abs(points[i] - points[j]) > limit} for i in everyone
        ]
        return _fresh_matching(rest, banned) * 2 == len(rest)

    low, high = 0, len(candidates) - 1  # the largest always fits: the check above
    while low < high:
        middle = (low + high) // 2
        if fits(candidates[middle]):
            high = middle
        else:
            low = middle + 1
    return candidates[low], sitter


def _by_score_groups(
    players: list[int],
    score: dict[int, int | float],
    met_pairs: set[frozenset[int]],
    can_sit: list[int],
) -> list[Pair] | None:
    """The best pairing, score group by score group, or None when it can't be shown to
    be the best that way (then ``_whole_field`` pairs the round).

    1. **Rematches and the bye.** Whether the field can be paired without a rematch is
       a question of maximum matchings among pairs who have not met
       (``_fresh_matching``). The bye goes to the lowest-ranked player of ``can_sit``
       whose sitting out leaves such a pairing; if there is none (or, with an even
       number, no such pairing at all), the round needs a rematch: None.
    2. **Score gaps.** Between two neighbouring score groups (by points), call the
       difference of their points a *step*, and *cut* the line between them. Any
       pairing crosses each cut some number of times; a table of players k score
       groups apart has a gap equal to the sum of the k steps between them, so
       replacing it by k tables of one step each, or leaving out a crossing, only
       makes the round's gaps smaller (largest first). So if every pairing must cross
       cut i at least ``low[i]`` times, the round's gaps can be no smaller than
       ``low[i]`` tables of step i for every cut, and a pairing that has exactly these
       gaps is the best on point 4; every best pairing then has only tables within a
       score group or one step apart, each cut crossed exactly ``low[i]`` times.
       ``low[i]`` starts as the parity of the players above the cut (an odd number
       must send one of them down), and is raised to what maximum matchings on each
       side of the cut show (``_must_cross``) where a score group can't be paired
       that way.
    3. **Groups and floaters.** Cuts with ``low[i] = 0`` are not crossed by any best
       pairing: they split the field into independent *brackets* (a run of score
       groups joined by cuts that must be crossed), each paired on its own by one
       maximum-weight matching over its pairs one step apart at most (points 4 and 5:
       ``_best``), or, for a single score group whose neighbours in the standings
       have not met, by pairing them off as they stand (1 v 2, 3 v 4...: the fewest
       places between opponents). The union is the best pairing when every bracket
       crosses each of its cuts exactly ``low[i]`` times; else ``low`` is raised where
       it falls short and the brackets paired again, and if it can't be raised, None.
    """
    n = len(players)
    index = {p: i for i, p in enumerate(players)}  # the standings' order
    met_of = _met_of(index, met_pairs)
    bye: int | None = None
    if n % 2:
        for p in sorted(can_sit, key=index.__getitem__, reverse=True):
            rest = [i for i in range(n) if i != index[p]]
            if _fresh_matching(rest, met_of) * 2 == len(rest):
                bye = index[p]
                break
        else:
            return None
    elif _fresh_matching(list(range(n)), met_of) * 2 != n:
        return None
    rest = [i for i in range(n) if i != bye]
    levels = sorted({score[players[i]] for i in rest}, reverse=True)
    level_of = {v: g for g, v in enumerate(levels)}
    groups: list[list[int]] = [[] for _ in levels]
    for i in rest:
        groups[level_of[score[players[i]]]].append(i)
    steps = [levels[g] - levels[g + 1] for g in range(len(levels) - 1)]
    short = [len(group) - 2 * _fresh_matching(group, met_of) for group in groups]
    low, above = [], 0
    for g in range(len(steps)):
        above += len(groups[g])
        low.append(above % 2)
    checked: set[int] = set()  # cuts whose ``low`` came from maximum matchings
    while True:
        plan = _crossings(steps, low, short)
        if plan is None:  # pragma: no cover - a pairing without rematch exists
            return None
        joined, portion = plan
        pairs: list[tuple[int, int]] = []
        failed: list[int] = []
        first = 0
        for g in range(len(groups)):
            if g < len(steps) and joined[g]:
                continue  # the bracket goes on below this cut
            found = _bracket(groups, first, g, steps, met_of)
            if found is None or _profile(found, groups, first, g, steps) != portion[first]:
                failed += range(max(first - 1, 0), min(g + 1, len(steps)))
            else:
                pairs += found
            first = g + 1
        if not failed:
            break
        raised = False
        for cut in dict.fromkeys(failed):
            if cut in checked:
                continue
            checked.add(cut)
            upper = [i for group in groups[: cut + 1] for i in group]
            lower = [i for group in groups[cut + 1 :] for i in group]
            need = _must_cross(upper, lower, met_of)
            if need > low[cut]:
                low[cut], raised = need, True
        if not raised:
            return None
    out: list[Pair] = [(players[a], players[b]) for a, b in pairs]
    if bye is not None:
        out.append((players[bye], None))
    return out


Profile = tuple[int, ...]


def _crossings(
    steps: list[int | float], low: list[int], short: list[int]
) -> tuple[list[bool], dict[int, Profile]] | None:
    """The fewest crossings the cuts between score groups need, as score gaps.

    Every pairing without a rematch crosses cut ``i`` (between score groups i and i + 1,
    ``steps[i]`` points apart) ``c[i]`` times, at least ``low[i]`` and of the same
    parity, and sends at least ``short[g]`` players of group g (those its own best
    matching leaves over) across the cuts on either side of it: ``c[g-1] + c[g] >=
    short[g]``. Of the crossing counts that obey this, the best are those whose tables
    of one step each (``c[i]`` tables of ``steps[i]`` points) make the smallest gaps,
    largest first: found along the chain of cuts by dynamic programming, forward and
    back. Returns, for each cut, whether some best count crosses it (``joined``), and
    for the first group of each run of joined cuts, the gaps of that run (the same for
    every best count); None if no count obeys."""
    k = len(steps)
    sizes = sorted(set(steps), reverse=True)
    slot = {step: t for t, step in enumerate(sizes)}
    zero: Profile = (0,) * len(sizes)

    def cost(cut: int, c: int) -> Profile:
        out = list(zero)
        out[slot[steps[cut]]] = c
        return tuple(out)

    def add(x: Profile, y: Profile) -> Profile:
        return tuple(a + b for a, b in zip(x, y, strict=True))

    def values(cut: int) -> range:
        top = max(low[cut], short[cut], short[cut + 1])
        top += (top - low[cut]) % 2
        return range(low[cut], top + 1, 2)

    if k == 0:
        return ([], {0: zero}) if short[0] == 0 else None
    forward: list[dict[int, Profile]] = []
    for cut in range(k):
        here: dict[int, Profile] = {}
        for c in values(cut):
            if cut == 0:
                if c >= short[0]:
                    here[c] = cost(0, c)
                continue
            before = [v for c0, v in forward[-1].items() if c0 + c >= short[cut]]
            if before:
                here[c] = add(min(before), cost(cut, c))
        forward.append(here)
    backward: list[dict[int, Profile]] = [{} for _ in range(k)]
    backward[-1] = {c: zero for c in values(k - 1) if c >= short[k]}
    for cut in range(k - 2, -1, -1):
        for c in values(cut):
            after = [
                add(v, cost(cut + 1, c1))
                for c1, v in backward[cut + 1].items()
                if c + c1 >= short[cut + 1]
            ]
            if after:
                backward[cut][c] = min(after)
    ends = [v for c, v in forward[-1].items() if c in backward[-1]]
    if not ends:
        return None
    best = min(ends)
    joined = []
    chosen: list[int] = []  # one best count, to measure each run's gaps
    for cut in range(k):
        options = [
            c
            for c, v in forward[cut].items()
            if c in backward[cut] and add(v, backward[cut][c]) == best
        ]
        joined.append(any(c > 0 for c in options))
        chosen.append(min(options) if options else 0)
    portion: dict[int, Profile] = {}
    first = 0
    total = zero
    for g in range(k + 1):
        if g < k and joined[g]:
            total = add(total, cost(g, chosen[g]))
            continue
        portion[first] = total
        first, total = g + 1, zero
    return joined, portion


def _profile(
    pairs: list[tuple[int, int]], groups: list[list[int]], first: int, last: int, steps: list
) -> Profile:
    """The score gaps of a bracket's pairing, as ``_crossings`` counts them."""
    sizes = sorted(set(steps), reverse=True)
    slot = {step: t for t, step in enumerate(sizes)}
    level = {i: g for g in range(first, last + 1) for i in groups[g]}
    out = [0] * len(sizes)
    for a, b in pairs:
        if level[a] != level[b]:
            out[slot[steps[min(level[a], level[b])]]] += 1
    return tuple(out)


def _bracket(
    groups: list[list[int]],
    first: int,
    last: int,
    steps: list[int | float],
    met_of: list[set[int]],
) -> list[tuple[int, int]] | None:
    """The best pairing of score groups ``first`` to ``last`` (players by their place in
    the standings) with tables within a group or one step apart and no rematch: the
    smallest gaps (largest first), then the fewest places between opponents; None if
    no such pairing seats everyone."""
    if first == last and len(groups[first]) % 2 == 0:
        group = groups[first]
        neighbours = list(zip(group[::2], group[1::2], strict=True))
        if all(b not in met_of[a] for a, b in neighbours):
            return neighbours  # the fewest places between opponents, and no rematch
    members = [i for group in groups[first : last + 1] for i in group]
    level = {i: g for g in range(first, last + 1) for i in groups[g]}
    cuts = sorted({steps[g] for g in range(first, last)}, reverse=True)
    tier = {step: t for t, step in enumerate(cuts)}

    def edge(a: int, b: int) -> Cost | None:
        if b in met_of[a]:
            return None
        apart = abs(level[a] - level[b])
        if apart > 1:
            return None
        at_step = [0] * len(cuts)
        if apart:
            at_step[tier[steps[min(level[a], level[b])]]] = 1
        return (*at_step, (a - b) ** 2)

    found = _best(members, edge, lambda p: (), [], one_bye=True, perfect=False)
    if found is None or any(b is None for _a, b in found):
        return None
    return [(a, b) for a, b in found if b is not None]


def _must_cross(upper: list[int], lower: list[int], met_of: list[set[int]]) -> int:
    """The fewest tables any pairing without a rematch has across the cut between
    ``upper`` and ``lower``: each side's players left over by its own maximum matching
    must cross (and the two sides' numbers crossing are equal)."""
    return max(
        len(upper) - 2 * _fresh_matching(upper, met_of),
        len(lower) - 2 * _fresh_matching(lower, met_of),
    )


def _met_of(index: dict[int, int], met_pairs: set[frozenset[int]]) -> list[set[int]]:
    """Whom each player has met, by place (``index``: each player's place)."""
    met_of: list[set[int]] = [set() for _ in index]
    for pair in met_pairs:
        a, b = tuple(pair)
        if a in index and b in index:
            met_of[index[a]].add(index[b])
            met_of[index[b]].add(index[a])
    return met_of


def _fresh_matching(vertices: list[int], met_of: list[set[int]]) -> int:
    """The size of a maximum matching among ``vertices`` of pairs who have not met
    (``met_of[i]``: whom i has met): Edmonds' blossom algorithm for matchings of most
    pairs (no weights), starting from a greedy matching of neighbours in the standings.
    Who has not met is nearly everyone, so a player's partners are found by scanning."""
    k = len(vertices)
    mate = [-1] * k
    where = {v: x for x, v in enumerate(vertices)}
    met_local = [{where[j] for j in met_of[v] if j in where} for v in vertices]
    for x in range(k):  # greedy: each free player with the next free one not met
        if mate[x] != -1:
            continue
        for y in range(x + 1, k):
            if mate[y] == -1 and y not in met_local[x]:
                mate[x], mate[y] = y, x
                break
    size = sum(1 for x in range(k) if mate[x] != -1) // 2
    for root in range(k):
        if size * 2 >= k - 1:
            break
        if mate[root] == -1 and _augment(root, mate, met_local):
            size += 1
    return size


def _augment(root: int, mate: list[int], met: list[set[int]]) -> bool:
    """Look for an augmenting path from the free vertex ``root`` (breadth first, odd
    cycles shrunk into their base) and flip it: True if the matching grew."""
    k = len(mate)
    parent = [-1] * k
    base = list(range(k))
    used = [False] * k
    used[root] = True
    queue = [root]
    head = 0

    def lowest_common_base(a: int, b: int) -> int:
        seen = [False] * k
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, in_blossom: list[bool]) -> None:
        while base[v] != b:
            in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while head < len(queue):
        v = queue[head]
        head += 1
        for u in range(k):
            if u == v or base[v] == base[u] or mate[v] == u or u in met[v]:
                continue
            if u == root or (mate[u] != -1 and parent[mate[u]] != -1):
                b = lowest_common_base(v, u)
                in_blossom = [False] * k
                mark(v, b, u, in_blossom)
                mark(u, b, v, in_blossom)
                for x in range(k):
                    if in_blossom[base[x]]:
                        base[x] = b
                        if not used[x]:
                            used[x] = True
                            queue.append(x)
            elif parent[u] == -1:
                parent[u] = v
                if mate[u] == -1:
                    while u != -1:  # flip the path back to the root
                        v = parent[u]
                        after = mate[v]
                        mate[u], mate[v] = v, u
                        u = after
                    return True
                used[mate[u]] = True
                queue.append(mate[u])
    return False


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
    perfect: bool = True,
) -> list[Pair] | None:
    """The pairing whose summed costs are the smallest, compared tier by tier (the
    first tier first): a maximum-weight perfect matching, each cost tuple read as the
    digits of a number in a base larger than any sum of the lower tiers can reach.

    ``edge_cost(a, b)`` None: a and b may not play. ``one_bye``: exactly one player of
    ``can_sit`` sits out when the number is odd, nobody when it is even; else any player
    may sit out (each has their own "sit" node, and the unused ones pair up with each
    other at no cost). ``perfect`` False: None when no pairing seats everyone."""
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
    if seated != set(players):
        if not perfect:
            return None  # (a bracket of Swiss with no pairing of everyone)
        raise RuntimeError("the matching left a player out")  # pragma: no cover
    return pairs
