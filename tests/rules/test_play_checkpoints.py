"""A game's checkpoints (rules.play.Checkpoints, issue 31) give the state a replay of the
whole log gives, at every tap of random games of each system, undos included."""

from __future__ import annotations

import random

import pytest

from rules.play import Checkpoints, PlayError, Tap, prepare, replay
from tests.rules.test_play import BWG1, BWG2, GF26, GUNFIGHT, RIVALS


def seen(state) -> str:
    fields = {k: v for k, v in vars(state).items() if k != "tracker"}
    return repr(sorted(fields.items()))


def random_taps(snapshot, rng: random.Random, count: int) -> list[Tap]:
    """A log as the app keeps it: each tap checked against the state before it, some
    refused (left out), a few undos of an earlier tap."""
    taps: list[Tap] = []
    members = [f"{s['id']}/{m['key']}" for s in snapshot["sides"] for m in s["members"]]
    while len(taps) < count:
        state = replay(snapshot, taps)
        kind = rng.choice(["wound", "wound", "vp", "turn", "undo", "adjust"])
        if kind == "wound":
            data = {"member": rng.choice(members), "amount": rng.randint(1, 2)}
        elif kind == "vp":
            data = {"side": rng.choice("ab"), "delta": rng.choice([1, -1])}
        elif kind == "turn":
            data = {"delta": 1}
        elif kind == "adjust":
            member = rng.choice(members)
            counters = list(state.member(member).counters) if hasattr(state, "member") else []
            if not counters:
                continue
            data = {"member": member, "counter": rng.choice(counters), "delta": -1}
        else:
            if not taps:
                continue
            data = {"target": rng.choice(taps).seq}
        try:
            prepared = prepare(state, kind, data)
        except (PlayError, KeyError, AttributeError):
            continue
        taps.append(Tap(len(taps) + 1, kind, prepared, "sarah", f"t{len(taps)}"))
    return taps


@pytest.mark.parametrize(
    "snapshot", [RIVALS, BWG2, GF26, GUNFIGHT, BWG1], ids=lambda s: s["system"]
)
def test_tap_by_tap_the_book_gives_the_whole_replay(snapshot):
    rng = random.Random(snapshot["system"])
    taps = random_taps(snapshot, rng, 40)
    assert any(t.kind == "undo" for t in taps)
    book = Checkpoints(snapshot)
    for i in range(len(taps) + 1):
        assert seen(book.replay(taps[:i])) == seen(replay(snapshot, taps[:i])), i
    shorter = taps[: len(taps) // 2]  # a shorter log: again from the start
    assert seen(book.replay(shorter)) == seen(replay(snapshot, shorter))


def test_a_book_says_which_snapshot_it_replays():
    book = Checkpoints(RIVALS)
    assert book.fits(RIVALS) and not book.fits(BWG2)
