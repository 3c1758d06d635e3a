"""The play engine (rules/play): taps in, the table's state out."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.play import PlayError, Tap, encounter_draft, match_draft, prepare, replay, setup
from rules.play.engine import apply as apply_tap
from rules.play.engine import new_state, undone_by
from rules.play.tracker import Tracker
from tests.helpers.properties import examples

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def roster(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def two_sides(system: str, a: str, b: str) -> dict:
    return setup(
        system,
        [
            {"id": "a", "name": "Side A", "gang": "7", "player": "sarah", "roster": roster(a)},
            {"id": "b", "name": "Side B", "gang": "8", "player": "james", "roster": roster(b)},
        ],
    )


RIVALS = two_sides("rivals", "rivals-legal-red-jacks-gang.json", "rivals-legal-six-outlaws.json")
BWG2 = two_sides("bwg2", "bwg2-legal-tranquility-crew-700.json", "bwg2-legal-switch-sides-325.json")
GF26 = two_sides("gf26", "gf26-legal-iron-company.json", "gf26-legal-iron-company.json")
GUNFIGHT = two_sides(
    "gunfight", "gunfight-legal-lawman-posse.json", "gunfight-legal-indian-war-party.json"
)
BWG1 = two_sides("bwg1", "bwg1-legal-dalton-boys.json", "bwg1-legal-dalton-boys.json")


class Game:
    """A log kept like the app keeps it: each tap checked against the replayed state."""

    def __init__(self, snapshot):
        self.snapshot = snapshot
        self.taps: list[Tap] = []

    @property
    def state(self):
        return replay(self.snapshot, self.taps)

    def tap(self, kind: str, **data):
        prepared = prepare(self.state, kind, data)
        self.taps.append(Tap(len(self.taps) + 1, kind, prepared, "sarah", "2026-11-24T10:00"))
        return self.state


def test_each_system_tracks_members_in_its_own_terms():
    def first(snapshot, side="a"):
        return snapshot["sides"][0 if side == "a" else 1]["members"][0]

    assert first(RIVALS)["counters"] == {"actions": 4}  # Regular toughness
    bwg2 = first(BWG2)
    assert bwg2["counters"] == {"hp": 4, "consumables": 2}  # Throwing Knife, Snake Oil
    assert bwg2["vp"] == 5  # a Gang Leader is worth 5 Victory Points
    assert first(BWG1)["counters"] == {"hp": 3, "luck": 3}  # the Leader's Luck dice
    assert first(GF26)["counters"] == {"en": 5}
    assert GF26["sides"][0]["ap"] == 12  # the party's Action Points per turn
    assert first(GUNFIGHT)["counters"] == {"bd": 5, "wp": 6}
    assert RIVALS["sides"][0]["ap"] is None


def test_a_sixth_system_gets_the_generic_tracker():
    from rules.play import tracker_for

    assert type(tracker_for("no-such-system")) is Tracker
    assert tracker_for("rivals").turns == 10
    assert tracker_for("bwg2").turns == 6


def test_sarah_and_james_the_log_drafts_the_books_record():
    game = Game(RIVALS)
    # Sarah (a/2) belly-wounds James (b/2): 2 actions; later she kills him.
    game.tap("wound", member="b/2", amount=2, by="a/2")
    state = game.tap("flip", member="b/2")
    james = state.member("b/2")
    assert james.counters["actions"] == 2 and james.wounds[0]["red"] is True
    game.tap("status", member="b/2", status="dead", by="a/2")
    game.tap("status", member="a/3", status="left")
    state = game.tap("end", winner="a")
    draft = encounter_draft(state, {"a": "7", "b": "8"})
    assert draft == {
        "happenings": [
            {"kind": "wound", "by": "7/2", "to": "8/2", "amount": 2},
            {"kind": "kill", "by": "7/2", "to": "8/2"},
            {"kind": "left", "who": "7/3"},
        ],
        "winner": "7",
    }


def test_wounds_without_a_cause_are_tracked_but_not_drafted():
    game = Game(RIVALS)
    state = game.tap("wound", member="b/2", amount=1)
    assert state.member("b/2").counters["actions"] == 3
    assert encounter_draft(state, {"a": "7", "b": "8"})["happenings"] == []


@pytest.mark.parametrize(
    "kind, data, message",
    [
        ("wound", {"member": "b/2", "amount": 5}, "has 4 Actions left"),
        ("wound", {"member": "b/2", "by": "b/1"}, "same side"),
        ("wound", {"member": "z/9"}, "Choose a member"),
        ("adjust", {"member": "a/1", "counter": "actions", "delta": 1}, "no wound counter to"),
        ("turn", {"delta": -1}, "first round"),
        ("ap", {"side": "a", "delta": -1}, "no Action Point pool"),
        ("vp", {"side": "a", "delta": -1}, "has 0 Victory Points"),
        ("loot", {"by": "a/1", "from": "b/1", "cash": 3}, "not dead"),
        ("end", {"winner": "c"}, "winner"),
        ("undo", {}, "Nothing to undo"),
        ("flip", {"member": "a/1"}, "no wound counter"),
        ("nonsense", {}, "Unknown tap"),
    ],
)
def test_taps_that_make_no_sense_are_refused(kind, data, message):
    with pytest.raises(PlayError, match=message):
        prepare(replay(RIVALS, []), kind, data)


def test_a_member_out_of_the_fight_takes_no_more_wounds_and_a_game_ended_takes_no_taps():
    game = Game(RIVALS)
    game.tap("status", member="b/1", status="out")
    with pytest.raises(PlayError, match="out of action"):
        game.tap("wound", member="b/1")
    game.tap("end", winner="draw")
    with pytest.raises(PlayError, match="ended"):
        game.tap("turn", delta=1)
    state = game.tap("undo")
    assert not state.ended and state.log[-2].undone


def test_loot_moves_dollars_from_the_dead():
    game = Game(RIVALS)
    game.tap("status", member="b/2", status="dead", by="a/2")
    with pytest.raises(PlayError, match=r"has \$"):
        game.tap("loot", **{"by": "a/2", "from": "b/2", "cash": 999})
    with pytest.raises(PlayError, match="Mark carries no Knife"):
        game.tap("loot", **{"by": "a/2", "from": "b/2", "cash": 3, "items": "Knife"})
    state = game.tap("loot", **{"by": "a/2", "from": "b/2", "cash": 3, "items": ["Rifle reload"]})
    assert state.member("a/2").cash == 12 + 3
    assert "Rifle reload" not in state.member("b/2").items
    assert state.member("a/2").items.count("Rifle reload") == 1
    # loot can still be put right after the game ended (the end is not undone)
    game.tap("end", winner="a")
    state = game.tap("loot", **{"by": "a/2", "from": "b/2", "items": ["Horse"]})
    assert state.ended and state.happenings[-1]["items"] == ["Horse"]
    assert encounter_draft(state, {"a": "7", "b": "8"})["happenings"][-1] == {
        "kind": "loot",
        "by": "7/2",
        "from": "8/2",
        "cash": 0,
        "items": ["Horse"],
    }


def test_turns_refill_the_action_point_pool_and_stop_at_the_books_length():
    game = Game(GF26)
    game.tap("ap", side="a", delta=-3)
    assert game.state.sides["a"].ap == 9
    state = game.tap("turn", delta=1)
    assert state.turn == 2 and state.sides["a"].ap == 12
    rivals = Game(RIVALS)
    for _ in range(9):
        rivals.tap("turn", delta=1)
    with pytest.raises(PlayError, match="lasts 10 rounds"):
        rivals.tap("turn", delta=1)


def test_a_league_game_drafts_victory_points_and_casualties():
    game = Game(BWG2)
    game.tap("wound", member="b/1", amount=4, by="a/1")
    game.tap("status", member="b/1", status="out", by="a/1")  # a Gang Leader: 5 VP
    game.tap("vp", side="b", delta=2)  # an objective
    draft = match_draft(game.state)
    assert draft["vp_a"] == 5 and draft["vp_b"] == 2 and draft["winner"] == "a"
    assert (
        "Captain Nathan Reinholdt (out of action by Captain Nathan Reinholdt)"
        in (draft["casualties"])
    )


def test_undo_names_any_earlier_tap_and_replay_leaves_it_out():
    game = Game(BWG1)
    game.tap("wound", member="a/1", amount=1)
    game.tap("adjust", member="a/1", counter="luck", delta=-1)
    state = game.tap("undo", target=1)
    assert state.member("a/1").counters == {"hp": 3, "luck": 2}
    assert [line.undone for line in state.log] == [True, False, False]
    with pytest.raises(PlayError, match="already undone"):
        game.tap("undo", target=1)


def test_replay_never_raises_on_a_log_it_cannot_read():
    taps = [
        Tap(1, "wound", {"member": "nobody"}),
        Tap(2, "flip", {"member": "a/1", "index": 7}),
        Tap(3, "bogus", {}),
        Tap(4, "undo", {"target": 4}),
        Tap(5, "adjust", {"member": "a/1", "counter": "luck", "delta": "x"}),
    ]
    state = replay(BWG1, taps)
    assert state.effective == [] and "left out" in state.log[0].text
    assert undone_by(taps) == set()


# --------------------------------------------------------------------------- property

SNAPSHOTS = {"rivals": RIVALS, "bwg2": BWG2, "gf26": GF26, "gunfight": GUNFIGHT, "bwg1": BWG1}


def members_of(snapshot):
    return [f"{s['id']}/{m['key']}" for s in snapshot["sides"] for m in s["members"]]


def tap_strategy(snapshot):
    member = st.sampled_from(members_of(snapshot))
    counter = st.sampled_from(["hp", "luck", "consumables", "en", "bd", "wp", "actions"])
    side = st.sampled_from(["a", "b"])
    delta = st.sampled_from([-2, -1, 1, 2])
    return st.one_of(
        st.tuples(
            st.just("wound"),
            st.fixed_dictionaries(
                {
                    "member": member,
                    "amount": st.integers(1, 3),
                    "by": st.one_of(st.just(""), member),
                }
            ),
        ),
        st.tuples(
            st.just("adjust"),
            st.fixed_dictionaries({"member": member, "counter": counter, "delta": delta}),
        ),
        st.tuples(st.just("flip"), st.fixed_dictionaries({"member": member})),
        st.tuples(
            st.just("status"),
            st.fixed_dictionaries(
                {
                    "member": member,
                    "status": st.sampled_from(["active", "out", "dead", "playing_dead", "left"]),
                    "by": st.one_of(st.just(""), member),
                }
            ),
        ),
        st.tuples(st.just("turn"), st.fixed_dictionaries({"delta": st.sampled_from([1, -1])})),
        st.tuples(st.just("ap"), st.fixed_dictionaries({"side": side, "delta": delta})),
        st.tuples(st.just("vp"), st.fixed_dictionaries({"side": side, "delta": delta})),
        st.tuples(
            st.just("loot"),
            st.fixed_dictionaries({"by": member, "from": member, "cash": st.integers(0, 4)}),
        ),
        st.tuples(
            st.just("end"), st.fixed_dictionaries({"winner": st.sampled_from(["a", "b", "draw"])})
        ),
        st.tuples(st.just("undo"), st.just({})),
    )


@st.composite
def sessions(draw):
    system = draw(st.sampled_from(sorted(SNAPSHOTS)))
    snapshot = SNAPSHOTS[system]
    return snapshot, draw(st.lists(tap_strategy(snapshot), max_size=40))


@settings(max_examples=examples(150), deadline=None)
@given(sessions())
def test_random_taps_and_undos_give_the_state_of_replaying_the_log(session):
    """A phone's session, followed tap by tap on a live state (undo: back to the state
    before the tap it undoes), always equals replaying the stored log from the start."""
    snapshot, wanted = session
    live = new_state(snapshot)
    before: list[tuple[int, object]] = []  # (seq, the live state before that tap)
    log: list[Tap] = []
    for kind, data in wanted:
        try:
            prepared = prepare(live, kind, data)
        except PlayError:
            continue
        tap = Tap(len(log) + 1, kind, prepared)
        log.append(tap)
        if kind == "undo":
            seq, earlier = before.pop()
            assert seq == prepared["target"]  # one-tap undo: the latest tap that counts
            live = earlier
        else:
            before.append((tap.seq, copy.deepcopy(live)))
            apply_tap(live, tap)
        assert live.figures() == replay(snapshot, log).figures()
    # and the log without its undone taps (nor the undos) replays to the same state
    voided = undone_by(log)
    kept = [t for t in log if t.kind != "undo" and t.seq not in voided]
    assert replay(snapshot, kept).figures() == replay(snapshot, log).figures()


def test_rivals_plus_takes_the_last_wound_counter_off_so_counters_agree():
    game = Game(RIVALS)
    game.tap("wound", member="b/2", amount=1, by="a/2")
    game.tap("wound", member="b/2", amount=2, by="a/2")
    state = game.tap("adjust", member="b/2", counter="actions", delta=1)
    mark = state.member("b/2")
    assert mark.counters["actions"] == 3 and [w["amount"] for w in mark.wounds] == [1]
    assert "last wound taken off: 2 actions back" in state.log[-1].text
    # the wound taken off is out of the record too: only the first one earns anything
    assert encounter_draft(state, {"a": "7", "b": "8"})["happenings"] == [
        {"kind": "wound", "by": "7/2", "to": "8/2", "amount": 1}
    ]
    state = game.tap("adjust", member="b/2", counter="actions", delta=1)
    assert state.member("b/2").counters["actions"] == 4 and not state.member("b/2").wounds
    with pytest.raises(PlayError, match="no wound counter to take off"):
        game.tap("adjust", member="b/2", counter="actions", delta=1)


def test_the_log_counts_in_words_and_an_undo_says_what_it_undid():
    game = Game(RIVALS)
    state = game.tap("wound", member="b/2", amount=1, by="a/2")
    assert state.log[-1].text == "Sarah wounded Mark: 1 action lost."
    state = game.tap("wound", member="b/3", amount=2)
    assert state.log[-1].text == "David wounded: 2 actions lost."
    state = game.tap("undo", target=1)
    assert state.log[-1].text == "Undid: Sarah wounded Mark: 1 action lost."
    bwg2 = Game(BWG2)
    state = bwg2.tap("adjust", member="a/2", counter="consumables", delta=-1)
    assert "Gentleman Jim Doyle used or lost 1 Silver Bullets" in state.log[-1].text
    assert state.member("a/2").counter_names == {"consumables": "Silver Bullets"}


def test_a_wound_with_nobody_named_can_be_blamed_afterwards_even_after_the_end():
    from rules.play import unnamed_wounds

    game = Game(RIVALS)
    game.tap("wound", member="b/2", amount=2)
    state = game.tap("end", winner="a")
    assert [h["seq"] for h in unnamed_wounds(state)] == [1]
    with pytest.raises(PlayError, match="same side"):
        game.tap("blame", target=1, by="b/1")
    state = game.tap("blame", target=1, by="a/2")
    assert unnamed_wounds(state) == []
    assert encounter_draft(state, {"a": "7", "b": "8"})["happenings"] == [
        {"kind": "wound", "by": "7/2", "to": "8/2", "amount": 2}
    ]
    with pytest.raises(PlayError, match="already names Sarah"):
        game.tap("blame", target=1, by="a/1")


def test_a_tap_made_offline_keeps_its_time_and_says_it_was_sent_late():
    taps = [
        Tap(
            1,
            "turn",
            {"delta": 1},
            "sarah",
            "2026-11-24T10:05:00+00:00",
            "2026-11-24T10:00:00+00:00",
        ),
        Tap(
            2,
            "turn",
            {"delta": 1},
            "sarah",
            "2026-11-24T10:05:01+00:00",
            "2026-11-24T10:05:00+00:00",
        ),
    ]
    log = replay(RIVALS, taps).log
    assert log[0].when == "2026-11-24T10:00:00+00:00" and log[0].late
    assert not log[1].late


def test_an_outlaw_may_loot_his_own_gangs_dead_as_the_book_says():
    """Seed 003, "Playing an encounter": "Outlaws may take cash or weapons from any dead
    outlaw" — one of his own gang's too (the campaign engine allows it: so does the table)."""
    game = Game(RIVALS)
    game.tap("status", member="b/2", status="dead", by="a/2")
    state = game.tap("loot", **{"by": "b/1", "from": "b/2", "cash": 2})
    assert state.happenings[-1] == {
        "kind": "loot",
        "by": "b/1",
        "from": "b/2",
        "cash": 2,
        "items": [],
        "seq": 2,
    }
    assert state.member("b/2").cash == 5 - 2
    # still only the dead: a living friend keeps his dollars
    with pytest.raises(PlayError, match="Only the dead can be robbed"):
        game.tap("loot", **{"by": "b/1", "from": "b/3", "cash": 1})
