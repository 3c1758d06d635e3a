"""Each registration's running totals, kept up to date as results count (issue 31).

A registration stores its :class:`~campaigns.leagues.standings.Tally` (won, drawn, lost,
byes, Victory Points for and against, and the sums of its opponents' won, drawn, lost
and byes) and ``meetings``, the counted matches it played (",17w,23d,45l,": each
opponent's registration id and this player's outcome, in round order). From those, the
league's pages rank every player without reading a single result
(``standings.standings_from_tallies``): the cost of a page no longer grows with the
matches played.

They change only here, always inside a transaction with the league row locked (so two
results confirmed at the same moment are counted one after the other):

- :func:`changed` after a pairing or its report changed (``Pairing.save``,
  ``MatchReport.save``, and ``services.next_round`` for the byes it creates in bulk):
  the two players' tallies are computed again from their own matches, and their
  opponents' sums moved by the difference: a handful of queries, whatever the league's
  size;
- :func:`rebuild` computes every tally of a league from all its results, the way
  ``standings.standings`` does, and writes the ones that differ (the ``league_tallies``
  management command: ``--check`` only says which).

Anything that changes results without ``save()`` (``QuerySet.update``, ``bulk_create``,
SQL by hand) must call one of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import astuple

from django.db import transaction
from django.db.models import Q

from campaigns.leagues import standings as arithmetic
from campaigns.leagues.standings import TALLY_FIELDS, Meeting, MeetingsAmong, Result, Tally

#: what a registration stores: the tally's fields and its counted matches
FIELDS = (*TALLY_FIELDS, "meetings")
COUNTED = ("confirmed", "settled")
OUTCOME = {"w": "won", "d": "drawn", "l": "lost"}
PAIRING_FIELDS = ("pk", "round__number", "table", "a_id", "b_id", "report__status")
RESULT_FIELDS = ("report__vp_a", "report__vp_b", "report__winner")


def result_of(values: Sequence) -> Result | None:
    """The standings' result of a pairing read as ``PAIRING_FIELDS + RESULT_FIELDS``
    values: a bye, a confirmed or settled match, else None."""
    _pk, number, _table, a, b, status, vp_a, vp_b, winner = values
    if b is None:
        return Result(number, a, None)
    if status not in COUNTED:
        return None
    return Result(number, a, b, vp_a or 0, vp_b or 0, {"a": a, "b": b}.get(winner or ""))


def _pairings(league_id: int, players: Iterable[int] | None = None):
    from campaigns.leagues.models import Pairing

    pairings = Pairing.objects.filter(round__league_id=league_id)
    if players is not None:
        players = list(players)
        pairings = pairings.filter(Q(a_id__in=players) | Q(b_id__in=players))
    return pairings.order_by("round__number", "table", "pk").values_list(
        *PAIRING_FIELDS, *RESULT_FIELDS
    )


def meetings_text(player: int, results: Iterable[Result]) -> str:
    """The counted matches ``player`` played, as stored: ",17w,23d," (in the order given)."""
    parts = []
    for r in results:
        if r.b is None or player not in (r.a, r.b):
            continue
        other = r.b if r.a == player else r.a
        outcome = "d" if r.winner is None else ("w" if r.winner == player else "l")
        parts.append(f"{other}{outcome}")
    return f",{','.join(parts)}," if parts else ""


def meetings_among(texts: dict[int, str]) -> MeetingsAmong:
    """Head-to-head's matches among a group, from each player's stored ``meetings``
    (``texts``: registration id to text): None at the first two who have not met (a
    search in one short text, nothing parsed); else every match among them, each once."""

    def among(group: Sequence[int]) -> list[Meeting] | None:
        players = list(dict.fromkeys(group))
        for x, p in enumerate(players):
            text = texts.get(p, "")
            for q in players[x + 1 :]:
                if f",{q}w," not in text and f",{q}d," not in text and f",{q}l," not in text:
                    return None
        wanted = set(players)
        out: list[Meeting] = []
        for p in players:
            for entry in texts.get(p, "").strip(",").split(","):
                if not entry:
                    continue
                q, outcome = int(entry[:-1]), entry[-1]
                if q in wanted and p < q:  # each match once: from its lower id's side
                    out.append((p, q, p if outcome == "w" else (None if outcome == "d" else q)))
        return out

    return among


def own_tally(player: int, results: Iterable[Result]) -> Tally:
    """``player``'s own counts and Victory Points (not the opponents' sums) from
    results that include every counted match of theirs."""
    t = Tally()
    for r in results:
        if r.b is None:
            t.byes += r.a == player
            continue
        if r.a == player:
            t.vp_for += r.vp_a
            t.vp_against += r.vp_b
        elif r.b == player:
            t.vp_for += r.vp_b
            t.vp_against += r.vp_a
        else:
            continue
        if r.winner is None:
            t.drawn += 1
        elif r.winner == player:
            t.won += 1
        else:
            t.lost += 1
    return t


def full(league_id: int) -> dict[int, tuple[Tally, str]]:
    """Every registration's tally and meetings from all the league's results."""
    from campaigns.leagues.models import Registration

    ids = list(Registration.objects.filter(league_id=league_id).values_list("pk", flat=True))
    results = [r for r in map(result_of, _pairings(league_id)) if r is not None]
    tallies = arithmetic.tally([(pk, "") for pk in ids], results)
    by_player: dict[int, list[Result]] = {pk: [] for pk in ids}
    for r in results:
        if r.b is not None and r.a in by_player and r.b in by_player:
            by_player[r.a].append(r)
            by_player[r.b].append(r)
    return {pk: (tallies[pk], meetings_text(pk, by_player[pk])) for pk in ids}


def stored(league_id: int) -> dict[int, tuple[Tally, str]]:
    """Every registration's tally and meetings as stored."""
    from campaigns.leagues.models import Registration

    rows = Registration.objects.filter(league_id=league_id).values_list("pk", *FIELDS)
    return {pk: (Tally(*values[:-1]), values[-1]) for pk, *values in rows}


def differences(league_id: int) -> dict[int, tuple[tuple[Tally, str], tuple[Tally, str]]]:
    """{registration: (stored, computed)} for every registration whose stored tallies
    differ from what all the results give."""
    computed, kept = full(league_id), stored(league_id)
    return {pk: (kept[pk], computed[pk]) for pk in computed if kept.get(pk) != computed[pk]}


@transaction.atomic
def rebuild(league_id: int) -> int:
    """Write every registration's tallies computed from all the results; returns how
    many differed."""
    from campaigns.leagues.models import League, Registration

    League.objects.select_for_update().filter(pk=league_id).first()
    wrong = differences(league_id)
    rows = []
    for pk, (_kept, (t, text)) in wrong.items():
        row = Registration(pk=pk)
        for name, value in zip(FIELDS, (*astuple(t), text), strict=True):
            setattr(row, name, value)
        rows.append(row)
    Registration.objects.bulk_update(rows, FIELDS, batch_size=500)
    return len(rows)


@transaction.atomic
def changed(league_id: int, players: Iterable[int | None]) -> None:
    """Bring the tallies up to date after a change to matches among ``players`` only
    (the two of a pairing; the old and new players of a swapped one).

    Their own counts and meetings are computed again from their matches; each of their
    opponents' sums moves by the difference in their counts, once per match between
    them (the multiplicity of those matches did not change: only matches among
    ``players`` did); their own sums are computed again from their opponents' counts."""
    from campaigns.leagues.models import League, Registration

    changed_ids = {p for p in players if p is not None}
    if not changed_ids:
        return
    League.objects.select_for_update().filter(pk=league_id).first()
    results = [r for r in map(result_of, _pairings(league_id, changed_ids)) if r is not None]
    mine: dict[int, list[Result]] = {p: [] for p in changed_ids}
    opponents: set[int] = set()
    for r in results:
        for p in (r.a, r.b):
            if p in mine:
                mine[p].append(r)
        if r.b is not None:
            opponents.update((r.a, r.b))
    involved = changed_ids | opponents
    rows = {
        row.pk: row
        for row in Registration.objects.filter(league_id=league_id, pk__in=involved).only(
            "pk", *FIELDS
        )
    }
    changed_ids &= rows.keys()
    delta = {}
    for p in changed_ids:
        # (a result with a registration of another league counts for nobody)
        own = [r for r in mine[p] if r.b is None or (r.a in rows and r.b in rows)]
        new, row = own_tally(p, own), rows[p]
        delta[p] = (
            new.won - row.won,
            new.drawn - row.drawn,
            new.lost - row.lost,
            new.byes - row.byes,
        )
        for name in ("won", "drawn", "lost", "byes", "vp_for", "vp_against"):
            setattr(row, name, getattr(new, name))
        row.meetings = meetings_text(p, own)

    def counts(q: int) -> tuple[int, int, int, int]:
        row = rows[q]
        return row.won, row.drawn, row.lost, row.byes

    touched = set(changed_ids)
    # each opponent outside the change: its sums move by the change in ours
    for r in results:
        if r.b is None or r.a not in rows or r.b not in rows:
            continue
        for p, q in ((r.a, r.b), (r.b, r.a)):
            if p in changed_ids and q not in changed_ids:
                row = rows[q]
                dw, dd, dl, db = delta[p]
                row.opp_won += dw
                row.opp_drawn += dd
                row.opp_lost += dl
                row.opp_byes += db
                touched.add(q)
    # our own sums, from scratch: every opponent's counts as they are now
    for p in changed_ids:
        sums = [0, 0, 0, 0]
        for r in mine[p]:
            if r.b is None or r.a not in rows or r.b not in rows:
                continue
            for i, value in enumerate(counts(r.b if r.a == p else r.a)):
                sums[i] += value
        row = rows[p]
        row.opp_won, row.opp_drawn, row.opp_lost, row.opp_byes = sums
    Registration.objects.bulk_update([rows[q] for q in touched], FIELDS, batch_size=500)
