"""Benchmark a campaign's replay: the state is computed from the log on every page.

    python3 -m uv run python benchmarks/bench_campaign.py [--iterations 50]

Pure Python, no Django and no database. For each size, a Rivals campaign is played
through ``rules.campaign.prepare`` with seeded dice (random wounds, kills, death rolls,
CCP spent and dollars), then ``replay`` is timed over its whole log. The app replays once
per campaign page, so this is the engine's share of every campaign request.

It prints a Markdown table; copy it into docs/benchmarks.md with the date and machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.campaign import Event, prepare, replay  # noqa: E402
from rules.dice import Dice  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"


def roster(name: str) -> dict:
    return json.loads((EXAMPLES / f"rivals-legal-{name}.json").read_text())


def play(gangs: int, encounters: int, seed: int = 1) -> list[Event]:
    rng = random.Random(seed)
    events: list[Event] = []

    def do(kind: str, data: dict) -> None:
        state = replay("rivals", events, agreed=encounters)
        out = prepare(state, kind, data, Dice(rng))
        events.append(Event(len(events) + 1, kind, out))

    for g in range(1, gangs + 1):
        name = "red-jacks-gang" if g % 2 else "six-outlaws"
        do("gang_joined", {"gang": str(g), "player": f"p{g}", "roster": roster(name)})
    do("campaign_started", {})
    for _ in range(encounters * gangs // 2):
        state = replay("rivals", events, agreed=encounters)
        riding = [g for g in state.active_gangs if state.played(g.id) < encounters and g.alive]
        if len(riding) < 2:
            break
        a, b = rng.sample(riding, 2)
        for gang in (a, b):  # full strength: this benchmark fights short-handed
            for fallen in gang.waiting:
                do("recruit_declined", {"gang": gang.id, "replaces": fallen.ref})
        do("encounter_begun", {"gangs": [a.id, b.id]})
        enc = replay("rivals", events, agreed=encounters).last_encounter
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
        for ref in replay("rivals", events, agreed=encounters).last_encounter.dead:
            do("death_rolled", {"encounter": enc.id, "member": ref})
        state = replay("rivals", events, agreed=encounters)
        for gang in (state.gangs[a.id], state.gangs[b.id]):
            for m in gang.alive:
                options = state.progression.advance_options(m)
                if options:
                    do("advance_taken", {"member": m.ref, "choice": options[0][0]})
                    state = replay("rivals", events, agreed=encounters)
    return events


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=50)
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, {platform.machine()}\n")
    print("| campaign | events | runs | median ms | p95 ms | min ms |")
    print("|---|---|---|---|---|---|")
    for gangs, encounters in ((2, 6), (6, 6), (12, 10)):
        events = play(gangs, encounters)
        samples = []
        for _ in range(args.iterations):
            start = time.perf_counter()
            replay("rivals", events, agreed=encounters)
            samples.append((time.perf_counter() - start) * 1000)
        samples.sort()
        p95 = samples[int(len(samples) * 0.95) - 1]
        print(
            f"| {gangs} gangs x {encounters} encounters | {len(events)} | {len(samples)} | "
            f"{statistics.median(samples):.2f} | {p95:.2f} | {samples[0]:.2f} |"
        )


if __name__ == "__main__":
    main()
