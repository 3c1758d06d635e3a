"""Benchmark a campaign's replay: the state is computed from the log on every page.

    python3 -m uv run python benchmarks/bench_campaign.py [--iterations 30]
    python3 -m uv run python benchmarks/bench_campaign.py --quick      # tiny, for CI

Pure Python, no Django and no database. A Rivals campaign of 12 gangs and 10 encounters
each is played through ``rules.campaign.prepare`` with seeded dice (random wounds, kills,
death rolls, CCP spent), about 485 events; its first 100, 200 and 400 events are then
timed (``--sizes``):

- **cold replay**: ``replay`` of the whole log, from nothing (a page in a process that
  has not seen the campaign yet: what every campaign page cost before checkpoints);
- **new event, warm**: the engine's share of ``campaigns.services.record`` for one more
  event in a process that has seen the log (a ``Checkpoints`` book): the state before
  (to check the event), ``prepare``, and the state after; without checkpoints (the code
  before issue 31), two full replays and ``prepare``;
- **build one by one**: every event of the log recorded in turn that way, from the
  first (the whole life of the campaign in one process);
- **undo, warm**: the state after an undo of the last encounter, recorded as a new event
  (the encounter's events and its gangs' since are struck out and the state rebuilt).

Each figure is printed as a ratio to the ``loop`` calibration measured in the same run
(``benchmarks/figures.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rules.campaign as engine  # noqa: E402
from benchmarks.figures import Figures, calibrate_loop, median, timed  # noqa: E402
from rules.campaign import Event, prepare, replay  # noqa: E402
from rules.dice import Dice  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"
#: the engine's checkpoints (issue 31); None in the code before them
Checkpoints = getattr(engine, "Checkpoints", None)


def roster(name: str) -> dict:
    return json.loads((EXAMPLES / f"rivals-legal-{name}.json").read_text())


class Campaign:
    """A log being written, with the raw data each event was prepared from."""

    def __init__(self, agreed: int):
        self.agreed = agreed
        self.events: list[Event] = []
        self.raw: list[tuple[str, dict]] = []
        self.book = Checkpoints("rivals", None, agreed) if Checkpoints else None

    def state(self, events: list[Event] | None = None):
        events = self.events if events is None else events
        if self.book is not None:
            return self.book.replay(events)
        return replay("rivals", events, agreed=self.agreed)


def play(gangs: int, encounters: int, seed: int = 1) -> Campaign:
    rng = random.Random(seed)
    campaign = Campaign(encounters)
    events = campaign.events

    def do(kind: str, data: dict) -> None:
        out = prepare(campaign.state(), kind, data, Dice(rng))
        events.append(Event(len(events) + 1, kind, out, at=f"t{len(events) + 1}"))
        campaign.raw.append((kind, data))

    for g in range(1, gangs + 1):
        name = "red-jacks-gang" if g % 2 else "six-outlaws"
        do("gang_joined", {"gang": str(g), "player": f"p{g}", "roster": roster(name)})
    do("campaign_started", {})
    for _ in range(encounters * gangs // 2):
        state = campaign.state()
        riding = [g for g in state.active_gangs if state.played(g.id) < encounters and g.alive]
        if len(riding) < 2:
            break
        a, b = rng.sample(riding, 2)
        for gang in (a, b):  # full strength: this benchmark fights short-handed
            for fallen in gang.waiting:
                do("recruit_declined", {"gang": gang.id, "replaces": fallen.ref})
        do("encounter_begun", {"gangs": [a.id, b.id]})
        state = campaign.state()
        enc = state.last_encounter
        a, b = state.gangs[a.id], state.gangs[b.id]
        up = [m.ref for m in a.alive + b.alive]
        lines, down = [], set()
        left = {r: state.progression.actions(state.member(r)) for r in up}
        for _ in range(rng.randint(2, 8)):
            pairs = [
                (x, y) for x in up for y in up if x[0] != y[0] and x not in down and y not in down
            ]
            if not pairs:
                break
            x, y = rng.choice(pairs)
            if rng.random() < 0.3 or not left[y]:
                lines.append({"kind": "kill", "by": x, "to": y})  # worth his toughness
                down.add(y)
            else:
                lost = rng.randint(1, min(3, left[y]))
                left[y] -= lost
                lines.append({"kind": "wound", "by": x, "to": y, "amount": lost})
        do(
            "encounter_recorded",
            {"encounter": enc.id, "gang": a.id, "winner": a.id, "happenings": lines},
        )
        do("encounter_confirmed", {"encounter": enc.id, "gang": b.id})
        for ref in campaign.state().last_encounter.dead:
            do("death_rolled", {"encounter": enc.id, "member": ref})
        state = campaign.state()
        for gang in (state.gangs[a.id], state.gangs[b.id]):
            for m in gang.alive:
                options = state.progression.advance_options(m)
                if options:
                    do("advance_taken", {"member": m.ref, "choice": options[0][0]})
                    state = campaign.state()
    return campaign


def record_like(book, log: list[Event], raw: list[tuple[str, dict]], i: int, rng) -> None:
    """What ``campaigns.services.record`` asks of the engine for the log's event ``i``
    (from 0): the state before it, ``prepare``, the state after it."""
    before = book.replay(log[:i]) if book else replay("rivals", log[:i], agreed=10)
    kind, data = raw[i]
    # (an advance the log took differently: still timed)
    with contextlib.suppress(engine.CampaignError):
        prepare(before, kind, data, Dice(rng))
    if book:
        book.replay(log[: i + 1])
    else:
        replay("rivals", log[: i + 1], agreed=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    args = parser.parse_args()
    gangs, encounters = 12, 10
    if args.quick:
        args.sizes, args.iterations, gangs, encounters = [20, 40], 2, 4, 3

    figures = Figures("loop", calibrate_loop())
    campaign = play(gangs, encounters)
    log, raw = campaign.events, campaign.raw
    print(
        f"Python {platform.python_version()}, {platform.machine()}; a Rivals campaign of "
        f"{gangs} gangs x {encounters} encounters, {len(log)} events; "
        f"checkpoints: {'yes' if Checkpoints else 'no'}; {figures.header()}\n"
    )
    print("| what | events | runs | median ms | ratio |")
    print("|---|---|---|---|---|")
    rng = random.Random(5)

    def line(label: str, name: str, n: int, runs: int, ms: float) -> None:
        ratio = figures.figure(name, ms, events=n)
        print(f"| {label} | {n} | {runs} | {ms:.2f} | {ratio:.3f} |")

    for n in args.sizes:
        prefix = log[:n]
        ms = median(
            timed(lambda prefix=prefix: replay("rivals", prefix, agreed=10), args.iterations)
        )
        line("cold replay", f"campaign.replay_cold.{n}", n, args.iterations, ms)

    for n in args.sizes:
        samples = []
        for _ in range(args.iterations):
            book = Checkpoints("rivals", None, 10) if Checkpoints else None
            if book:
                book.replay(log[: n - 1])  # the process has seen the log so far
            samples += timed(lambda book=book, n=n: record_like(book, log, raw, n - 1, rng), 1)
        line("new event, warm", f"campaign.event_warm.{n}", n, len(samples), median(samples))

    for n in args.sizes:
        runs = max(1, args.iterations // 10)

        def build(n=n):
            book = Checkpoints("rivals", None, 10) if Checkpoints else None
            for i in range(n):
                record_like(book, log, raw, i, rng)

        line("build one by one", f"campaign.build.{n}", n, runs, median(timed(build, runs)))

    # an undo of the last encounter begun before event n, recorded as event n + 1
    for n in args.sizes:
        prefix = log[:n]
        last = max(e.seq for e in prefix if e.kind == "encounter_begun")
        undo = Event(n + 1, "encounter_undone", {"encounter": last, "number": 0, "reason": ""})
        samples = []
        for _ in range(args.iterations):
            book = Checkpoints("rivals", None, 10) if Checkpoints else None
            if book:
                for i in range(n):  # recorded one by one in this process
                    book.replay(log[: i + 1])
            full = [*prefix, undo]
            samples += timed(
                lambda book=book, full=full: (
                    book.replay(full) if book else replay("rivals", full, agreed=10)
                ),
                1,
            )
        line("undo, warm", f"campaign.undo_warm.{n}", n + 1, len(samples), median(samples))


if __name__ == "__main__":
    main()
