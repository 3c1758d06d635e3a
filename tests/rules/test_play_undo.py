"""Undoing an early tap in the middle of a game's log (rules/play/engine.py).

A counter's later "+" was legal when it was tapped, because an earlier tap had lowered the
counter. Once that earlier tap is undone, replaying the "+" would carry the counter past
what the member started with: the replay holds it as *in conflict* (shown to both players,
to keep or drop; issue 29: never dropped silently), so the game is exactly what the table
would have had without the undone tap (where that "+" would have been refused). Each
system's tracker is played: its own counters, and gf26's Action Point pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from rules.play import PlayError, Tap, prepare, replay
from tests.rules.test_play import BWG1, BWG2, GF26, GUNFIGHT, RIVALS, Game

# A sixth system: no tracker module of its own, so the generic one (a Health counter).
SIXTH = {
    "system": "sixth",
    "sides": [
        {
            "id": side,
            "name": f"Side {side.upper()}",
            "gang": "",
            "player": "",
            "ap": None,
            "members": [
                {"key": "1", "name": f"{side.upper()} one", "counters": {"health": 3}},
                {"key": "2", "name": f"{side.upper()} two", "counters": {"health": 3}},
            ],
        }
        for side in ("a", "b")
    ],
}


def figures(state) -> dict[str, Any]:
    """The table's state. ``effective`` and ``held`` are left out: the "+" that no longer
    fits is held in the log, where a table without the undone tap never had it."""
    out = state.figures()
    del out["effective"], out["held"]
    return out


def held(state) -> list[str]:
    return [h.what for h in state.held]


def without(snapshot, taps: Sequence[Tap], seq: int):
    """The state of the log as the table would have made it without tap ``seq``: every
    other tap checked again, in order, against the state before it (keeping its place in
    the log), and left out if the rules would have refused it then."""
    kept: list[Tap] = []
    for tap in taps:
        if tap.seq == seq:
            continue
        try:
            data = prepare(replay(snapshot, kept), tap.kind, dict(tap.data))
        except PlayError:
            continue
        kept.append(Tap(tap.seq, tap.kind, data, tap.by, tap.at))
    return replay(snapshot, kept)


def lower(game: Game, member: str, counter: str, harm: bool) -> int:
    """Take 2 off the counter (a wound for the harm counter): the tap to undo later."""
    if harm:
        game.tap("wound", member=member, amount=2)
    else:
        game.tap("adjust", member=member, counter=counter, delta=-2)
    return game.taps[-1].seq


# (snapshot, member, counter, whether it is the counter a wound lowers)
COUNTERS = [
    pytest.param(BWG1, "a/1", "hp", True, id="bwg1-hp"),
    pytest.param(BWG1, "a/1", "luck", False, id="bwg1-leaders-luck"),
    pytest.param(BWG2, "a/1", "hp", True, id="bwg2-hp"),
    pytest.param(BWG2, "a/1", "consumables", False, id="bwg2-consumables"),
    pytest.param(GF26, "a/1", "en", True, id="gf26-en"),
    pytest.param(GUNFIGHT, "a/1", "bd", True, id="gunfight-bd"),
    pytest.param(GUNFIGHT, "a/1", "wp", False, id="gunfight-wp"),
    pytest.param(SIXTH, "a/1", "health", True, id="generic-health"),
]


@pytest.mark.parametrize("snapshot, member, counter, harm", COUNTERS)
def test_undoing_an_early_tap_keeps_a_later_plus_within_what_the_member_started_with(
    snapshot, member, counter, harm
):
    game = Game(snapshot)
    start = game.state.member(member).start[counter]
    game.tap("wound", member="b/1", amount=1)
    early = lower(game, member, counter, harm)
    game.tap("vp", side="a", delta=1)
    state = game.tap("adjust", member=member, counter=counter, delta=2)  # back to the start
    assert state.member(member).counters[counter] == start
    game.tap("wound", member="b/2", amount=1)
    state = game.tap("adjust", member=member, counter=counter, delta=-1)
    assert state.member(member).counters[counter] == start - 1

    state = game.tap("undo", target=early)

    # the "+2" now finds the counter full: it stays at the start, and the later "-1" counts
    assert state.member(member).counters[counter] == start - 1
    assert all(v <= m.start[k] for m in state.members() for k, v in m.counters.items())
    assert figures(state) == figures(without(snapshot, game.taps[:-1], early))
    assert [line.seq for line in state.log if line.undone] == [early]
    assert held(state) == ["conflict"]  # the "+2", to keep or drop: not lost


@pytest.mark.parametrize("snapshot, member, counter, harm", COUNTERS)
def test_undoing_the_tap_that_made_room_for_two_pluses_keeps_the_counter_full(
    snapshot, member, counter, harm
):
    """Two "+1" after a "-2": undone, neither may lift the counter above its start."""
    game = Game(snapshot)
    start = game.state.member(member).start[counter]
    early = lower(game, member, counter, harm)
    game.tap("adjust", member=member, counter=counter, delta=1)
    game.tap("turn", delta=1)
    game.tap("adjust", member=member, counter=counter, delta=1)

    state = game.tap("undo", target=early)

    assert state.member(member).counters[counter] == start
    assert figures(state) == figures(without(snapshot, game.taps[:-1], early))


def test_gf26_undoing_an_early_spend_keeps_the_action_point_pool_at_most_full():
    game = Game(GF26)
    full = game.state.sides["a"].ap_max
    game.tap("wound", member="b/1", amount=1)
    early = game.taps[-1].seq + 1
    game.tap("ap", side="a", delta=-3)
    game.tap("vp", side="b", delta=1)
    state = game.tap("ap", side="a", delta=3)
    assert state.sides["a"].ap == full
    state = game.tap("ap", side="a", delta=-2)
    assert state.sides["a"].ap == full - 2

    state = game.tap("undo", target=early)

    assert state.sides["a"].ap == full - 2  # the "+3" finds the pool full
    assert state.sides["b"].ap == full
    assert figures(state) == figures(without(GF26, game.taps[:-1], early))


def test_rivals_undoing_a_wound_leaves_out_the_later_plus_that_took_it_off():
    """In Rivals a "+" takes the last wound counter off: once the wound is undone, that
    "+" has no wound to take off, and is left out, so the outlaw has all his actions and
    no wound counter, as if neither tap had been made."""
    game = Game(RIVALS)
    start = game.state.member("b/2").start["actions"]
    game.tap("wound", member="b/1", amount=1, by="a/1")
    game.tap("wound", member="b/2", amount=2, by="a/2")
    early = game.taps[-1].seq
    game.tap("turn", delta=1)
    game.tap("adjust", member="b/2", counter="actions", delta=1)  # the wound taken off
    state = game.tap("wound", member="b/2", amount=1, by="a/3")
    assert state.member("b/2").counters["actions"] == start - 1

    state = game.tap("undo", target=early)

    james = state.member("b/2")
    assert james.counters["actions"] == start - 1
    assert [w["amount"] for w in james.wounds] == [1]
    assert figures(state) == figures(without(RIVALS, game.taps[:-1], early))
    assert state.log[3].held == "conflict" and held(state) == ["conflict"]
    assert "no wound counter" in state.held[0].reason
