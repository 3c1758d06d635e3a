"""Faster renders (issue 17, item 2): two CPUs lay out two halves of the cards at once,
and a server process loads WeasyPrint before its first Print.

Timings are in docs/benchmarks.md (benchmarks/bench_pdf.py), never asserted here: these
tests hold what the speed-ups must never change."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from builder import printing
from builder.printing import cards, documents, render
from rules.pdf import PdfError, run_in_parallel

ROOT = Path(__file__).resolve().parent.parent


def example(system: str, members: int = 12) -> dict:
    """A shipped example with its members repeated up to ``members`` (as the benchmark)."""
    name = {
        "bwg1": "bwg1-legal-dalton-boys.json",
        "bwg2": "bwg2-legal-tranquility-crew-700.json",
        "rivals": "rivals-legal-red-jacks-gang.json",
    }[system]
    roster = json.loads((ROOT / "docs" / "examples" / name).read_text())
    source = roster["members"]
    roster["members"] = []
    for n in range(members):
        member = json.loads(json.dumps(source[n % len(source)]))
        member.pop("key", None)
        member["name"] = f"{member.get('name') or 'Member'} {n + 1}"
        roster["members"].append(member)
    return roster


def page_texts(content: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(content)).pages]


@pytest.mark.parametrize("system", ["bwg2", "rivals"])
def test_two_processes_print_the_same_pages_as_one(system):
    roster = example(system)
    serial = printing.cards_pdf(roster, parallel=False)
    parallel = printing.cards_pdf(roster, parallel=True)
    assert len(page_texts(serial)) >= 4  # fronts and backs of two sheets at least
    assert page_texts(parallel) == page_texts(serial)
    sizes = {tuple(p.mediabox) for p in PdfReader(io.BytesIO(parallel)).pages}
    assert sizes == {tuple(PdfReader(io.BytesIO(serial)).pages[0].mediabox)}


def test_two_processes_with_fronts_only_and_letter_paper():
    roster = example("bwg2")
    serial = printing.cards_pdf(roster, parallel=False, fronts_only=True, paper="letter")
    parallel = printing.cards_pdf(roster, parallel=True, fronts_only=True, paper="letter")
    assert page_texts(parallel) == page_texts(serial)


def test_the_fitting_done_in_two_processes_is_remembered_like_in_one(monkeypatch):
    roster = example("bwg1")
    printing.cards_pdf(roster, parallel=True)
    layouts = []
    real = render.document

    def counting(html):
        layouts.append(html)
        return real(html)

    monkeypatch.setattr(render, "document", counting)
    # the same cards again: every fit known, one layout (per half: two processes, but
    # only this one's is counted here)
    printing.cards_pdf(roster, paper="letter", parallel=False)
    assert len(layouts) == 1


def test_the_halves_cost_about_the_same_and_keep_every_unit_once():
    costs = [900, 100, 300, 50, 620, 20]
    first, second = cards._halves(costs)
    assert sorted(first + second) == list(range(len(costs)))
    assert first == sorted(first) and second == sorted(second)
    loads = sum(costs[i] for i in first), sum(costs[i] for i in second)
    assert abs(loads[0] - loads[1]) <= max(costs)


def test_pdfs_are_joined_with_each_page_where_it_belongs():
    def pdf(*labels: str) -> bytes:
        writer = PdfWriter()
        for label in labels:
            writer.add_blank_page(width=72 * (1 + len(label)), height=72)
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()

    joined = render.join_pdfs([(pdf("a", "ccc"), [0, 2]), (pdf("bb", "dddd"), [1, 3])])
    widths = [float(p.mediabox.width) / 72 for p in PdfReader(io.BytesIO(joined)).pages]
    assert widths == [2, 3, 4, 5]


def test_helpers_run_in_their_own_process_and_answer_in_order():
    parent = os.getpid()
    results = run_in_parallel([os.getpid, os.getpid, lambda: "third"])
    assert results[0] == parent
    assert results[1] != parent and isinstance(results[1], int)
    assert results[2] == "third"


def test_a_helpers_failure_is_the_pdfs_error_not_a_hang():
    def fails():
        raise PdfError("The fonts are missing.")

    def crashes():
        raise ZeroDivisionError("boom")

    with pytest.raises(PdfError, match="The fonts are missing"):
        run_in_parallel([lambda: 1, fails])
    with pytest.raises(PdfError, match="ZeroDivisionError"):
        run_in_parallel([lambda: 1, crashes])


def test_parallel_follows_the_setting(settings):
    settings.PDF_PARALLEL = False
    assert not render.parallel_allowed()
    settings.PDF_PARALLEL = True
    assert render.parallel_allowed()


def test_a_render_made_ahead_uses_one_cpu_and_a_click_two(monkeypatch):
    seen = []
    monkeypatch.setattr(
        documents, "cards_pdf", lambda roster, **options: seen.append(options["parallel"])
    )
    monkeypatch.setattr(documents, "run_with_deadline", lambda job, seconds, nice: job())
    printing.print_pdf({}, "cards", nice=19)
    printing.print_pdf({}, "cards")
    assert seen == [False, None]  # None: the setting (two CPUs: two processes)


def test_warm_up_loads_weasyprint_and_the_print_templates():
    assert printing.warm_up() is True


def test_a_server_process_warms_up_printing_before_its_first_request(settings, monkeypatch):
    import gc

    from gangfight_site import startup

    calls = []
    monkeypatch.setattr(printing, "warm_up", lambda: calls.append("warm") or True)
    thresholds = gc.get_threshold()
    try:
        startup.settle()
        settings.PDF_WARM_UP = False
        startup.settle()
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    assert calls == ["warm"]


def _render_in_a_daemon(queue) -> None:
    from rules.pdf import run_with_deadline

    try:
        queue.put(run_with_deadline(lambda: b"%PDF-1.7 made", 10))
    except BaseException as error:  # reported to the test
        queue.put(repr(error))


def test_a_render_works_inside_a_daemonic_process_like_a_celery_pool_worker():
    """Celery's pool processes are daemonic; multiprocessing refuses them children, so
    the render's child is forked with os.fork (this failed in a real worker)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_render_in_a_daemon, args=(queue,), daemon=True)
    process.start()
    try:
        assert queue.get(timeout=30) == b"%PDF-1.7 made"
    finally:
        process.join(10)


def test_a_render_past_its_deadline_is_stopped_and_its_process_reaped(monkeypatch):
    import time

    from rules import pdf
    from rules.pdf import PdfTimeout, run_with_deadline

    reaped = []
    real = pdf._reap

    def spy(pid, *, kill=False):
        reaped.append((pid, kill))
        real(pid, kill=kill)

    monkeypatch.setattr(pdf, "_reap", spy)
    started = time.monotonic()
    with pytest.raises(PdfTimeout, match=r"longer than 0\.5 seconds"):
        run_with_deadline(lambda: time.sleep(30) or b"", 0.5)
    assert time.monotonic() - started < 5
    ((pid, killed),) = reaped
    assert killed
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # killed and waited for: not even a zombie is left
