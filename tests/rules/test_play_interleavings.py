"""Two phones, one log (issue 29): whatever order two phones' taps reach the server in
(delays, offline bursts, a tap sent twice), the game's state is the state of the same taps
received in the order they were made; the same event tapped by both players counts once;
a tap that does not fit is held, never lost; and the server's checkpoints agree with a
whole replay after every arrival.

Each phone's taps are fed through ``rules.play.engine.admit`` as ``play.services.tap``
does: the stored taps' state from the game's ``Checkpoints``, ``admit``, the tap stored
with the next seq; a tap whose client id (phone, number) is stored already is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.play import Checkpoints, PlayError, Tap, replay
from rules.play.engine import (
    ABOUT_TAPS,
    SAME_EVENT_SECONDS,
    admit,
    classify,
    order_key,
    tracker_for,
    undone_by,
)
from tests.helpers.properties import examples
from tests.rules.test_play import BWG1, BWG2, GF26, GUNFIGHT, RIVALS

SNAPSHOTS = {"rivals": RIVALS, "bwg2": BWG2, "gf26": GF26, "gunfight": GUNFIGHT, "bwg1": BWG1}
PLAYERS = {"pa": "alice", "pb": "bob"}
START = datetime(2026, 11, 24, 19, 0, tzinfo=UTC)
#: a phone's taps are this many seconds apart, or the two phones' taps (0: the same second)
GAPS = [0, 1, 2, 3, 5, 8, 12, 20]


def iso(seconds: float) -> str:
    return (START + timedelta(seconds=seconds)).isoformat()


@dataclass(frozen=True)
class Made:
    """A tap as a phone made it: its client id is (phone, number)."""

    phone: str
    number: int
    kind: str
    data: dict[str, Any]
    t: float  # seconds after the start, the server's clock
    undoes: int | None = None  # an undo: the number of the phone's own tap it takes back
    echo_of: tuple[str, int] | None = None  # the other player's tap this one repeats

    @property
    def ident(self) -> tuple[str, int]:
        return (self.phone, self.number)


# --------------------------------------------------------------------------- strategies


def members(snapshot: dict, side: str) -> list[str]:
    s = next(s for s in snapshot["sides"] if s["id"] == side)
    return [f"{side}/{m['key']}" for m in s["members"]][:4]  # a few: more taps meet


def counters(snapshot: dict, ref: str) -> list[str]:
    side, _slash, key = ref.partition("/")
    s = next(s for s in snapshot["sides"] if s["id"] == side)
    return sorted(next(m for m in s["members"] if m["key"] == key)["counters"])


@st.composite
def one_tap(draw, snapshot: dict, undo: bool) -> tuple[str, dict]:
    """A tap's kind and data, as ``prepare`` would store it (so the data kept does not
    depend on whether it arrived in order, then checked, or late, then kept as sent)."""
    tracker = tracker_for(snapshot["system"])
    side = draw(st.sampled_from("ab"))
    member = draw(st.sampled_from(members(snapshot, side)))
    enemy = members(snapshot, "b" if side == "a" else "a")
    by = draw(st.sampled_from(["", *enemy]))
    kinds = ["wound"] * 4 + ["status", "adjust", "turn"]
    if any(s.get("ap") is not None for s in snapshot["sides"]):
        kinds.append("ap")
    if any(m.get("vp") for s in snapshot["sides"] for m in s["members"]):
        kinds.append("vp")
    if undo:
        kinds += ["undo"]
    kind = draw(st.sampled_from(kinds))
    if kind == "wound":
        return kind, {"member": member, "amount": draw(st.integers(1, 2)), "by": by}
    if kind == "status":
        status = draw(st.sampled_from(["active", *tracker.statuses]))
        return kind, {
            "member": member,
            "status": status,
            "by": by if status in ("out", "dead") else "",
        }
    if kind == "adjust":
        counter = draw(st.sampled_from(counters(snapshot, member)))
        return kind, {
            "member": member,
            "counter": counter,
            "delta": draw(st.sampled_from([-1, -2, 1])),
        }
    if kind == "turn":
        return kind, {"delta": draw(st.sampled_from([1, 1, -1]))}
    if kind in ("ap", "vp"):
        return kind, {"side": side, "delta": draw(st.sampled_from([-2, -1, 1, 2]))}
    return "undo", {}


@st.composite
def table(draw, undo: bool = True, size: int = 20):
    """Two phones' taps, in the order they were made: the phones' times interleaved, some
    a phone's own copy of the other player's tap a few seconds later (the same event), or
    the same subject otherwise (a disagreement)."""
    system = draw(st.sampled_from(sorted(SNAPSHOTS)))
    snapshot = SNAPSHOTS[system]
    made: list[Made] = []
    numbers = {"pa": 0, "pb": 0}
    t = 0.0
    for _ in range(draw(st.integers(1, size))):
        phone = draw(st.sampled_from(["pa", "pb"]))
        t += draw(st.sampled_from(GAPS))
        other = [m for m in made if m.phone != phone and m.kind != "undo"]
        echo = draw(st.sampled_from(["no", "no", "no", "same", "other"])) if other else "no"
        if echo != "no":  # the other player's latest tap, recorded here too
            first = other[-1]
            t = max(t, first.t + draw(st.integers(1, SAME_EVENT_SECONDS - 1)))
            data = dict(first.data)
            if echo == "other":  # the same subject, another effect
                if first.kind == "wound":
                    data["amount"] = 3 - data["amount"]
                elif "delta" in data:
                    data["delta"] = -data["delta"]
                elif first.kind == "status":
                    statuses = ["active", *tracker_for(snapshot["system"]).statuses]
                    data["status"] = statuses[(statuses.index(data["status"]) + 1) % len(statuses)]
                    data["by"] = data["by"] if data["status"] in ("out", "dead") else ""
            numbers[phone] += 1
            made.append(Made(phone, numbers[phone], first.kind, data, t, echo_of=first.ident))
            continue
        kind, data = draw(one_tap(snapshot, undo))
        undoes = None
        if kind == "undo":
            undone = {m.undoes for m in made if m.phone == phone}
            mine = [m.number for m in made if m.phone == phone and m.kind != "undo"]
            mine = [n for n in mine if n not in undone]
            if not mine:
                continue
            undoes = draw(st.sampled_from(mine))
        numbers[phone] += 1
        made.append(Made(phone, numbers[phone], kind, data, t, undoes=undoes))
    return snapshot, made


@st.composite
def arrivals(draw, made: list[Made]) -> list[Made]:
    """The order the server receives the taps in: each a few seconds after it was made,
    some phone offline for a while (its taps from then on arrive together, later), a few
    sent twice (the answer was lost); a phone sends its queue in order."""
    arrive: dict[tuple[str, int], float] = {}
    last = {"pa": 0.0, "pb": 0.0}
    offline = {
        phone: draw(st.one_of(st.none(), st.tuples(st.integers(1, 30), st.integers(0, 30))))
        for phone in ("pa", "pb")
    }
    for m in made:
        delay = draw(st.sampled_from([0.1, 0.5, 1, 3, 15]))
        burst = offline[m.phone]
        if burst and burst[0] <= m.number <= burst[0] + burst[1]:
            delay += draw(st.sampled_from([60, 600, 3600]))  # sent when the signal came back
        at = max(last[m.phone] + 0.001, m.t + delay)  # (a phone's queue: in order)
        last[m.phone] = at
        arrive[m.ident] = at
    sends = [(arrive[m.ident], draw(st.integers(0, 3)), m) for m in made]
    again = draw(st.lists(st.sampled_from(made), max_size=3)) if made else []
    sends += [(arrive[m.ident] + draw(st.sampled_from([0.5, 30])), 9, m) for m in again]
    sends.sort(key=lambda s: (s[0], s[1], s[2].phone, s[2].number))
    return [m for _at, _tie, m in sends]


def made_order(made: list[Made]) -> list[Made]:
    """The taps arriving in the order they were made (the reference)."""
    return sorted(made, key=lambda m: (m.t, m.phone, m.number))


# --------------------------------------------------------------------------- the server


@dataclass
class Server:
    """One game's log kept as ``play.services.tap`` keeps it."""

    snapshot: dict
    offline: bool = True  # seen=-1 (never refused) or None (saw everything: may be refused)
    taps: list[Tap] = field(default_factory=list)
    seqs: dict[tuple[str, int], int] = field(default_factory=dict)
    refused: list[Made] = field(default_factory=list)
    book: Checkpoints = None  # type: ignore[assignment]

    def __post_init__(self):
        self.book = Checkpoints(self.snapshot)

    def receive(self, m: Made) -> None:
        if m.ident in self.seqs:  # its client id is stored: ignored
            return
        before = self.book.replay(self.taps)  # (equal to a whole replay: (d), below)
        data = dict(m.data)
        if m.kind == "undo":
            target = self.seqs.get((m.phone, m.undoes))
            if target is None:  # (its tap was refused: nothing to undo)
                self.refused.append(m)
                return
            data["target"] = target
        seq = len(self.taps) + 1
        new = Tap(seq, m.kind, data, PLAYERS[m.phone], iso(m.t + 1), iso(m.t), m.phone, m.number)
        in_order = all(order_key(t) < order_key(new) for t in self.taps)
        outcome = classify(before, new) if m.kind not in ABOUT_TAPS else None
        try:
            stored = admit(self.snapshot, self.taps, before, new, -1 if self.offline else None)
        except PlayError:
            # refused only when made after the whole log and it does not fit there, or an
            # undo or a settle that does not fit the log as it is
            assert m.kind in ABOUT_TAPS or (
                not self.offline and in_order and outcome.what == "conflict"
            ), m
            self.refused.append(m)
            return
        self.taps.append(replace(new, data=stored))
        self.seqs[m.ident] = seq
        after = self.book.replay(self.taps)
        assert after.figures() == replay(self.snapshot, self.taps).figures()  # (d)

    def settle(self, ident: tuple[str, int], choice: str, by: str = "pa") -> None:
        """A player settles a held tap (named by its client id) with one tap."""
        state = self.book.replay(self.taps)
        seq = len(self.taps) + 1
        t = 10_000 + seq
        new = Tap(
            seq,
            "settle",
            {"target": self.seqs[ident], "choice": choice},
            PLAYERS[by],
            iso(t),
            iso(t),
            by,
            1000 + seq,
        )
        try:
            stored = admit(self.snapshot, self.taps, state, new, -1)
        except PlayError:
            return
        self.taps.append(replace(new, data=stored))
        after = self.book.replay(self.taps)
        assert after.figures() == replay(self.snapshot, self.taps).figures()  # (d)


def feed(snapshot: dict, order: list[Made], offline: bool = True) -> Server:
    server = Server(snapshot, offline)
    for m in order:
        server.receive(m)
    return server


# --------------------------------------------------------------------------- comparing


def without_seqs(server: Server) -> dict[str, Any]:
    """The state's figures, each tap named by its client id instead of its seq (the seq
    numbers arrivals, which differ from one arrival order to another)."""
    names = {seq: ident for ident, seq in server.seqs.items()}
    for t in server.taps:
        names.setdefault(t.seq, ("settle", t.seq))
    figures = replay(server.snapshot, server.taps).figures()
    out = dict(figures)
    out["happenings"] = [
        {**h, "seq": names[h["seq"]]} if "seq" in h else h for h in figures["happenings"]
    ]
    out["effective"] = [names[s] for s in figures["effective"]]
    out["held"] = sorted((names[s], what) for s, what in figures["held"])
    out["duplicates"] = sorted((names[k], names[v]) for k, v in figures["duplicates"].items())
    out["voided"] = sorted(names[s] for s in undone_by(server.taps))
    return out


def check_nothing_lost(server: Server) -> None:
    """(c) every stored tap is exactly one of: counted, a repeat of a tap that counts, held,
    voided by an undo or a settle (or is itself an undo or a settle)."""
    state = replay(server.snapshot, server.taps)
    voided = undone_by(server.taps)
    about = {t.seq for t in server.taps if t.kind in ABOUT_TAPS}
    groups = [
        set(state.effective),
        set(state.duplicates),
        {h.seq for h in state.held},
        voided,
        about,
    ]
    assert len(state.effective) == len(groups[0])
    assert sum(len(g) for g in groups) == len(server.taps), (groups, server.taps)
    assert set().union(*groups) == {t.seq for t in server.taps}
    for repeat, original in state.duplicates.items():
        assert original in groups[0], (repeat, original)


def check_counted_once(server: Server, made: list[Made]) -> None:
    """(b) a tap of one player and the other's copy of it a few seconds later (nothing
    else about that subject between them) is one event: the copy repeats it, and only the
    first is in the game's happenings."""
    state = replay(server.snapshot, server.taps)
    voided = undone_by(server.taps)
    held = {h.seq for h in state.held}
    seq_of = server.seqs
    counted = [h["seq"] for h in state.happenings if "seq" in h]
    for copy in made:
        if (
            copy.echo_of is None
            or copy.data != next(m for m in made if m.ident == copy.echo_of).data
        ):
            continue
        first = next(m for m in made if m.ident == copy.echo_of)
        a, b = seq_of.get(first.ident), seq_of.get(copy.ident)
        if a is None or b is None or {a, b} & voided or a not in state.effective:
            continue
        if copy.t - first.t > SAME_EVENT_SECONDS:
            continue  # (too late to be the same event: a second one)
        between = [
            m
            for m in made
            if first.t <= m.t <= copy.t
            and m not in (first, copy)
            and seq_of.get(m.ident) not in voided | held
            and m.kind == first.kind
            and all(m.data.get(k) == first.data.get(k) for k in ("member", "counter", "side"))
        ]
        if between:
            continue
        assert state.duplicates.get(b) == a, (first, copy, state.duplicates)
        assert b not in counted and b not in state.effective


# --------------------------------------------------------------------------- properties


@settings(max_examples=examples(120), deadline=None)
@given(st.data())
def test_any_arrival_order_gives_the_state_of_the_made_order(data):
    """(a)-(d) with phones that were offline (``seen`` = -1: a tap that does not fit is
    kept in conflict, never refused)."""
    snapshot, made = data.draw(table())
    reference = feed(snapshot, made_order(made))
    order = data.draw(arrivals(made))
    server = feed(snapshot, order)
    assert without_seqs(server) == without_seqs(reference)  # (a)
    for s in (reference, server):
        check_nothing_lost(s)  # (c)
        check_counted_once(s, made)  # (b)
    # either player settles what is held: the same taps settled the same way agree too
    state = replay(snapshot, reference.taps)
    names = {seq: ident for ident, seq in reference.seqs.items()}
    for h in sorted(state.held, key=lambda h: names[h.seq]):
        choices = {"conflict": ["keep", "drop"], "disagreement": ["drop", "instead", "both"]}
        choice = data.draw(st.sampled_from(choices[h.what]))
        for s in (reference, server):
            s.settle(names[h.seq], choice)
    assert without_seqs(server) == without_seqs(reference)  # (a), settled
    for s in (reference, server):
        check_nothing_lost(s)  # (c)


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_a_phone_that_saw_everything_is_refused_and_nothing_is_stored(data):
    """A phone that shows the whole log is refused a tap that does not fit (its player is
    told at once): nothing stored; what it had been, kept, is exactly the held conflict."""
    snapshot, made = data.draw(table(undo=False))
    order = made_order(made)
    kept = feed(snapshot, order, offline=True)
    strict = feed(snapshot, order, offline=False)
    assert {t.seq for t in strict.taps} == set(strict.seqs.values())  # (refused: no seq)
    refused = sorted(m.ident for m in strict.refused)
    k, s = without_seqs(kept), without_seqs(strict)
    assert refused == sorted(i for i, what in k["held"] if what == "conflict")
    assert s["held"] == [h for h in k["held"] if h[1] != "conflict"]
    for key in ("turn", "sides", "happenings", "effective", "duplicates"):
        assert s[key] == k[key], key
    check_nothing_lost(strict)
    # and in any arrival order, a refused tap is one made after the whole log that did
    # not fit (Server.receive asserts it), and nothing is lost
    check_nothing_lost(feed(snapshot, data.draw(arrivals(made)), offline=False))


# --------------------------------------------------------------------------- examples

WOUND = {"member": "b/2", "amount": 1, "by": "a/2"}  # Sarah wounds Mark


def test_an_undo_made_before_the_other_players_copy_leaves_the_copy_counting():
    """Alice taps the wound, takes it back 2 s later; Bob taps the same wound 3 s after
    that. In made order Bob's tap is a new record of the event (Alice's is undone): it
    counts, whether or not Bob's copy reached the server before Alice's undo."""
    a1 = Made("pa", 1, "wound", WOUND, 0.0)
    undo = Made("pa", 2, "undo", {}, 2.0, undoes=1)
    b1 = Made("pb", 1, "wound", WOUND, 5.0, echo_of=("pa", 1))
    reference = feed(RIVALS, [a1, undo, b1])
    assert without_seqs(reference)["effective"] == [("pb", 1)]
    copy_first = feed(RIVALS, [a1, b1, undo])  # Alice's undo sent after Bob's copy arrived
    assert without_seqs(copy_first) == without_seqs(reference)


def test_an_undo_takes_back_the_other_players_copy_even_when_it_arrives_later():
    """Alice taps the wound, Bob (offline) taps it too 3 s later, Alice undoes it at 5 s:
    in made order the undo takes the event back, copies included ("either player's undo
    takes the event back"); Bob's copy arriving after the undo must not bring it back."""
    a1 = Made("pa", 1, "wound", WOUND, 0.0)
    b1 = Made("pb", 1, "wound", WOUND, 3.0, echo_of=("pa", 1))
    undo = Made("pa", 2, "undo", {}, 5.0, undoes=1)
    reference = feed(RIVALS, [a1, b1, undo])
    assert without_seqs(reference)["effective"] == []
    copy_late = feed(RIVALS, [a1, undo, b1])  # Bob's phone was offline
    assert without_seqs(copy_late) == without_seqs(reference)
