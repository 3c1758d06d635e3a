"""What every benchmark shares: a calibration measured in the same run, and its figures
as ratios to it, printed for people (Markdown) and for ``benchmarks/check.py`` (one
``FIGURE {json}`` line each, also appended to the file named by ``BENCH_FIGURES``).

A millisecond on this machine is not a millisecond on the next one, nor on the same one
while another process runs: a figure is recorded as a **ratio** to a calibration timed in
the same process a moment before, so that a slower or busier machine slows both alike.
Three calibrations, one for each kind of work:

- ``loop``: a fixed pure-Python loop (dicts, lists, integer arithmetic, a sort), for what
  runs in Python alone (standings, Swiss pairing, the rules and campaign engines);
- ``view``: a trivial view through Django's test client (middleware, session, user,
  two queries), for pages (``benchmarks/trivial_urls.py``);
- ``render``: a plain WeasyPrint render of a one-page document, for PDFs.

Plain Python; ``view`` and ``render`` import Django and WeasyPrint only when called.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable

#: the figures printed so far in this process: {name: figure}
FIGURES: dict[str, dict] = {}


def timed(func: Callable[[], object], iterations: int) -> list[float]:
    """Each run's time in ms."""
    samples = []
    for _ in range(iterations):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def loop_work(n: int = 100_000) -> int:
    """The ``loop`` calibration's work: always the same, about 10 ms on a 2026 VM."""
    table: dict[int, list[int]] = {}
    total = 0
    for i in range(n):
        key = (i * 7919) % 1009
        bucket = table.setdefault(key, [])
        bucket.append(i)
        total += len(bucket) * (i & 15)
    for bucket in table.values():
        bucket.sort(reverse=True)
        total += bucket[0] - bucket[-1]
    return total


def calibrate_loop(runs: int = 11) -> float:
    """The median ms of ``loop_work`` (after one run to warm up)."""
    loop_work()
    return median(timed(loop_work, runs))


def calibrate_view(client, url: str, runs: int = 100) -> float:
    """The median ms of a trivial view answered through the test client ``client``."""
    for _ in range(5):
        client.get(url)
    return median(timed(lambda: client.get(url), runs))


PLAIN_HTML = (
    "<html><head><style>@page { size: A4; margin: 2cm } body { font: 10pt serif }</style>"
    "</head><body><h1>Calibration</h1>"
    + "".join(
        f"<p>Paragraph {i}: the quick brown fox jumps over the lazy dog.</p>" for i in range(40)
    )
    + "</body></html>"
)


def calibrate_render(runs: int = 5) -> float:
    """The median ms of a plain one-page WeasyPrint render (after one to warm up)."""
    from weasyprint import HTML

    def render() -> bytes:
        return HTML(string=PLAIN_HTML).write_pdf()

    render()
    return median(timed(render, runs))


def module_at(commit: str, path: str, name: str):
    """The module ``path`` (from the repository's root) as it was at ``commit``, loaded
    under ``name`` beside today's: a benchmark's ``--before`` times the code before a
    change in the same run as the code after it, against the same calibration."""
    import importlib.util
    import subprocess
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    text = subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="bench-before-"))
    file = folder / Path(path).name
    file.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Figures:
    """Figures of one benchmark run against one calibration.

    ``figure(name, ms)`` records ``ms / calibration`` under ``name`` (names are dotted,
    stable, and say the size: ``standings.results.5000``), prints the machine line and
    returns the ratio."""

    def __init__(self, calibration: str, ms: float):
        self.calibration = calibration
        self.calibration_ms = ms
        self._out = os.environ.get("BENCH_FIGURES")
        self.emit("calibration." + calibration, ms, ratio=1.0, note="calibration")

    def figure(self, name: str, ms: float, **extra: object) -> float:
        ratio = ms / self.calibration_ms if self.calibration_ms else 0.0
        self.emit(name, ms, ratio=ratio, **extra)
        return ratio

    def emit(self, name: str, ms: float, *, ratio: float, **extra: object) -> None:
        data = {
            "name": name,
            "ms": round(ms, 4),
            "ratio": round(ratio, 4),
            "calibration": self.calibration,
            "calibration_ms": round(self.calibration_ms, 4),
            **extra,
        }
        FIGURES[name] = data
        line = "FIGURE " + json.dumps(data, sort_keys=True)
        print(line, file=sys.stderr)
        if self._out:
            with open(self._out, "a", encoding="utf-8") as out:
                out.write(line + "\n")

    def header(self) -> str:
        return (
            f"calibration `{self.calibration}`: {self.calibration_ms:.3f} ms "
            "(ratios below are to it, measured in the same run)"
        )
