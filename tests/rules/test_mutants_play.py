"""The play engine's snapshot and refusals, case by case (rules/play/engine.py).

Written for the mutation run (docs/benchmarks.md, "Mutation testing"). test_play.py makes
its games' snapshots once, when the module is imported; here ``setup`` runs inside the
tests, so what it builds is checked as it is built. A refused tap says what to change
(``message``, the English text that locale/fr translates) and beside which field of the
tap's form (``field``): both are pinned here for each refusal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.play import PlayError, Tap, prepare, replay, setup

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

GANGS = {
    "rivals": ("rivals-legal-red-jacks-gang.json", "rivals-legal-six-outlaws.json"),
    "bwg1": ("bwg1-legal-dalton-boys.json", "bwg1-legal-dalton-boys.json"),
    "bwg2": ("bwg2-legal-tranquility-crew-700.json", "bwg2-legal-switch-sides-325.json"),
    "gf26": ("gf26-legal-iron-company.json", "gf26-legal-iron-company.json"),
    "gunfight": ("gunfight-legal-lawman-posse.json", "gunfight-legal-indian-war-party.json"),
}


def roster(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text("utf-8"))


def two_sides(system: str) -> dict:
    a, b = GANGS[system]
    return setup(
        system,
        [
            {"id": "a", "name": "Side A", "gang": 7, "player": "sarah", "roster": roster(a)},
            {"id": "b", "name": "Side B", "gang": "8", "player": "james", "roster": roster(b)},
        ],
    )


@pytest.mark.parametrize("system", sorted(GANGS))
def test_setup_gives_each_side_and_member_from_its_roster(system):
    snapshot = two_sides(system)
    assert snapshot["system"] == system
    assert [s["id"] for s in snapshot["sides"]] == ["a", "b"]
    for side, (name, gang, player), file in zip(
        snapshot["sides"],
        [("Side A", "7", "sarah"), ("Side B", "8", "james")],
        GANGS[system],
        strict=True,
    ):
        assert (side["name"], side["gang"], side["player"]) == (name, gang, player)
        # only a game with an Action Point pool (gf26) has one, full at the start
        assert (side["ap"] is not None) == (system == "gf26")
        members = roster(file)["members"]
        assert [(m["key"], m["name"]) for m in side["members"]] == [
            (str(m["key"]), m["name"]) for m in members
        ]
        for member in side["members"]:
            assert member["counters"] and all(
                isinstance(n, int) and n > 0 for n in member["counters"].values()
            )
            assert member["summary"]
        assert sum(1 for m in side["members"] if m.get("leader")) <= 1
    assert any(m.get("leader") for m in snapshot["sides"][0]["members"])
    state = replay(snapshot, [])
    assert len(list(state.members())) == sum(len(s["members"]) for s in snapshot["sides"])


def test_a_roster_without_members_gives_a_side_without_members():
    snapshot = setup("rivals", [{"id": "a", "roster": {"system": "rivals", "name": "Empty"}}])
    assert snapshot["sides"][0]["members"] == []
    assert (snapshot["sides"][0]["name"], snapshot["sides"][0]["player"]) == ("", "")


def game(snapshot: dict, taps: list[tuple[str, dict]]) -> list[Tap]:
    log: list[Tap] = []
    for kind, data in taps:
        prepared = prepare(replay(snapshot, log), kind, data)
        log.append(Tap(len(log) + 1, kind, prepared, "sarah", "2026-11-24T10:00"))
    return log


MARK_DEAD = [("status", {"member": "b/2", "status": "dead"})]

REFUSALS = [
    # (system, taps first, kind, data, message, field)
    ("rivals", [], "wound", {"member": "b/2", "amount": 0},
     "Wounds: give a whole number from 1 to 10.", "amount"),
    ("rivals", [], "wound", {"member": "b/2", "amount": "x"},
     "Wounds: give a whole number from 1 to 10.", "amount"),
    ("rivals", [], "wound", {"member": "b/2", "by": "zz"},
     "Choose a member from the game's gangs.", "by"),
    ("rivals", [], "adjust", {"member": "a/1", "counter": "nope", "delta": 1},
     "Red Jack has no such counter.", "counter"),
    ("rivals", [], "adjust", {"member": "a/1", "counter": "actions", "delta": 0},
     "Actions: give a whole number from 1 to 10.", "delta"),
    ("rivals", [], "adjust", {"member": "a/1", "counter": "actions", "delta": -9},
     "Red Jack has no Actions left.", "delta"),
    ("rivals", [], "status", {"member": "a/1", "status": "nope"},
     "Choose what happened to the member.", "status"),
    ("rivals", [], "turn", {"delta": 2}, "A turn goes one forward or one back.", "delta"),
    ("rivals", [], "ap", {"side": "z", "delta": 1}, "Choose one of the game's sides.", "side"),
    ("rivals", [], "vp", {"side": "z", "delta": 1}, "Choose one of the game's sides.", "side"),
    ("rivals", [], "vp", {"side": "a", "delta": 0},
     "Victory Points: give a whole number from 1 to 10.", "delta"),
    ("rivals", [], "loot", {"by": "a/1", "from": "a/2"},
     "Only the dead can be robbed: Sarah is not dead.", "from"),
    ("rivals", [], "end", {"winner": "zz"}, "Choose the winner, or a draw.", "winner"),
    ("rivals", [], "blame", {"target": 99, "by": "a/1"},
     "That wound is not in the game's log.", "target"),
    ("rivals", MARK_DEAD, "loot", {"by": "a/1", "from": "b/2", "cash": -1},
     "Dollars taken: a whole number, 0 or more.", "cash"),
    ("rivals", MARK_DEAD, "loot", {"by": "a/1", "from": "b/2", "cash": 6}, "Mark has $5.", "cash"),
    ("rivals", MARK_DEAD, "loot", {"by": "a/1", "from": "b/2", "items": "Knife"},
     "Mark carries no Knife.", "items"),
    ("rivals", MARK_DEAD, "loot", {"by": "a/1", "from": "b/2"},
     "Say what was taken (dollars or items).", "cash"),
    ("rivals", MARK_DEAD, "status", {"member": "b/2", "status": "dead"},
     "Mark is already killed.", "status"),
    ("rivals", MARK_DEAD, "wound", {"member": "b/2"}, "Mark is killed.", "member"),
    ("rivals", MARK_DEAD, "flip", {"member": "b/2"},
     "Mark has no wound counter to turn.", "member"),
    ("rivals", MARK_DEAD, "undo", {"target": 7},
     "That tap is already undone, or can't be undone.", "target"),
    ("rivals", MARK_DEAD, "blame", {"target": 1, "by": "a/1"},
     "That wound is not in the game's log.", "target"),
    ("gf26", [], "ap", {"side": "a", "delta": 0},
     "Action Points: give a whole number from 1 to 10.", "delta"),
    ("gf26", [], "ap", {"side": "a", "delta": "x"},
     "Action Points: give a whole number from 1 to 10.", "delta"),
    ("gf26", [], "ap", {"side": "a", "delta": 5}, "Side A's pool holds 0 to 12 Action Points.",
     "delta"),
    ("gf26", [], "turn", {"delta": -1}, "This is the first turn.", "delta"),
]  # fmt: skip


@pytest.mark.parametrize(("system", "before", "kind", "data", "message", "field"), REFUSALS)
def test_a_refused_tap_says_what_to_change_and_where(system, before, kind, data, message, field):
    snapshot = two_sides(system)
    log = game(snapshot, before)
    with pytest.raises(PlayError) as refused:
        prepare(replay(snapshot, log), kind, data)
    assert (refused.value.message, refused.value.field) == (message, field)
    assert str(refused.value) == message


def test_the_state_at_the_start_is_the_snapshot_read_back():
    """``replay`` of no taps: each side and member as ``setup`` made them, counters full."""
    snapshot = two_sides("rivals")
    state = replay(snapshot, [])
    assert state.system == "rivals" and state.version == 0 and state.log == []
    for side in snapshot["sides"]:
        got = state.sides[side["id"]]
        assert (got.id, got.name, got.gang, got.player) == (
            side["id"],
            side["name"],
            side["gang"],
            side["player"],
        )
        for member in side["members"]:
            track = state.member(f"{side['id']}/{member['key']}")
            assert (track.side, track.key, track.name, track.summary) == (
                side["id"],
                member["key"],
                member["name"],
                member["summary"],
            )
            assert track.leader == bool(member.get("leader"))
            assert track.vp == member.get("vp", 0)
            assert track.cash == member.get("cash", 0)
            assert track.items == member.get("items")
            assert track.counters == track.start == member["counters"]
            assert track.status == "active"
    jack = state.member("a/1")
    assert (jack.name, jack.leader, jack.cash) == ("Red Jack", True, 10)
    assert jack.items == ["Colt '41", "Handgun reload", "Handgun reload", "Horse"]


def test_a_snapshot_with_missing_parts_reads_as_nothing():
    """A member without vp, cash, items or a summary: 0, 0, no list kept, no summary."""
    snapshot = {
        "system": "rivals",
        "sides": [{"id": "a", "members": [{"key": 1, "name": "Ann", "counters": {"actions": 4}}]}],
    }
    ann = replay(snapshot, []).member("a/1")
    assert (ann.key, ann.vp, ann.cash, ann.items, ann.summary, ann.leader) == (
        "1",
        0,
        0,
        None,
        "",
        False,
    )
    side = replay(snapshot, []).sides["a"]
    assert (side.name, side.gang, side.player, side.ap) == ("", "", "", None)


SPENT = [("ap", {"side": "a", "delta": -10}), ("ap", {"side": "a", "delta": -2})]

ALLOWED = [
    # (system, taps first, kind, data, what prepare keeps): the limits themselves are allowed
    ("rivals", MARK_DEAD, "loot", {"by": "a/1", "from": "b/2", "cash": 5},
     {"by": "a/1", "from": "b/2", "cash": 5, "items": []}),  # every dollar Mark has
    ("rivals", MARK_DEAD, "loot", {"by": "a/1", "from": "b/2", "items": "Horse, Rifle reload"},
     {"by": "a/1", "from": "b/2", "cash": 0, "items": ["Horse", "Rifle reload"]}),
    ("rivals", [("vp", {"side": "a", "delta": 1})], "vp", {"side": "a", "delta": -1},
     {"side": "a", "delta": -1}),  # down to 0 Victory Points
    ("rivals", [], "vp", {"side": "a", "delta": 10}, {"side": "a", "delta": 10}),
    ("rivals", [("turn", {"delta": 1})], "turn", {"delta": -1}, {"delta": -1}),  # back to 1
    ("gf26", SPENT[:1], "ap", {"side": "a", "delta": -2}, {"side": "a", "delta": -2}),  # to 0
    ("gf26", SPENT, "ap", {"side": "a", "delta": 1}, {"side": "a", "delta": 1}),
]  # fmt: skip


@pytest.mark.parametrize(("system", "before", "kind", "data", "kept"), ALLOWED)
def test_a_tap_at_the_limit_is_allowed(system, before, kind, data, kept):
    snapshot = two_sides(system)
    assert prepare(replay(snapshot, game(snapshot, before)), kind, data) == kept


@pytest.mark.parametrize(
    ("system", "before", "kind", "data", "message"),
    [
        ("rivals", [], "vp", {"side": "a", "delta": 11},
         "Victory Points: give a whole number from 1 to 10."),
        ("rivals", [], "vp", {"side": "a", "delta": -1}, "Side A has 0 Victory Points."),
        ("gf26", SPENT, "ap", {"side": "a", "delta": -1},
         "Side A's pool holds 0 to 12 Action Points."),
    ],
)  # fmt: skip
def test_a_tap_past_the_limit_is_refused(system, before, kind, data, message):
    snapshot = two_sides(system)
    with pytest.raises(PlayError) as refused:
        prepare(replay(snapshot, game(snapshot, before)), kind, data)
    assert (refused.value.message, refused.value.field) == (message, "delta")


def test_the_log_says_what_each_tap_did_and_loot_moves_what_was_taken():
    """Sarah's side kills Mark, Red Jack loots him, a wound is named afterwards, Bill is
    out and back, and the game ends: the log's words, the dollars and items that moved,
    and the happenings the after-game record is drafted from."""
    snapshot = two_sides("rivals")
    taps = [
        ("status", {"member": "b/2", "status": "dead", "by": "a/2"}),
        ("loot", {"by": "a/1", "from": "b/2", "cash": 3, "items": ["Horse"]}),
        ("vp", {"side": "a", "delta": 2}),
        ("vp", {"side": "a", "delta": -1}),
        ("wound", {"member": "b/3", "amount": 2}),
        ("blame", {"target": 5, "by": "a/3"}),
        ("status", {"member": "b/4", "status": "out"}),
        ("status", {"member": "b/4", "status": "active"}),
        ("end", {"winner": "a"}),
    ]
    state = replay(snapshot, game(snapshot, taps))
    assert [(line.seq, line.kind, line.text, line.by) for line in state.log] == [
        (1, "status", "Mark: killed, by Sarah.", "sarah"),
        (2, "loot", "Red Jack took $3, Horse from Mark.", "sarah"),
        (3, "vp", "Side A: +2 Victory Points (2).", "sarah"),
        (4, "vp", "Side A: -1 Victory Points (1).", "sarah"),
        (5, "wound", "David wounded: 2 actions lost.", "sarah"),
        (6, "blame", "Jesse wounded David (named afterwards).", "sarah"),
        (7, "status", "Bill: out of action.", "sarah"),
        (8, "status", "Bill: in the fight.", "sarah"),
        (9, "end", "The game ended: Side A won.", "sarah"),
    ]
    jack, mark = state.member("a/1"), state.member("b/2")
    assert (jack.cash, mark.cash) == (13, 2)
    assert jack.items == ["Colt '41", "Handgun reload", "Handgun reload", "Horse", "Horse"]
    assert mark.items == ["Winchester Carbine", "Rifle reload"]
    assert state.sides["a"].vp == 1 and state.ended and state.winner == "a"
    assert state.version == 9
    assert state.happenings == [
        {"kind": "kill", "to": "b/2", "by": "a/2", "seq": 1},
        {"kind": "loot", "by": "a/1", "from": "b/2", "cash": 3, "items": ["Horse"], "seq": 2},
        {"kind": "wound", "to": "b/3", "by": "a/3", "amount": 2, "seq": 5},
        {"kind": "out", "to": "b/4", "by": "", "seq": 7},
        {"kind": "back", "who": "b/4", "seq": 8},
    ]


def test_the_action_point_pool_says_what_was_spent_and_got_back():
    snapshot = two_sides("gf26")
    taps = [
        ("ap", {"side": "a", "delta": -3}),
        ("ap", {"side": "a", "delta": 1}),
        ("ap", {"side": "a", "delta": -1}),
    ]
    state = replay(snapshot, game(snapshot, taps))
    assert [line.text for line in state.log] == [
        "Side A spent 3 Action Points (9 left).",
        "Side A got 1 Action Point back (10 left).",
        "Side A spent 1 Action Point (9 left).",
    ]
    assert state.sides["a"].ap == 9
