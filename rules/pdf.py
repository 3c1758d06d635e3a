"""Render HTML to PDF with WeasyPrint, fetching nothing but our own static files.

No Django here: callers render their template to a string and pass the folder of static
files the document may use (fonts, print CSS, images). WeasyPrint is imported only when a
PDF is made, so the app starts (and serves everything else) without it.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit


class PdfError(RuntimeError):
    """A PDF could not be made; the message says why, in words for the user."""


class PdfUnavailable(PdfError):
    """WeasyPrint (or the Pango library it needs) is not installed on this machine."""


class PdfTimeout(PdfError):
    """The render took longer than it may and was stopped."""


def _fetcher_class():
    from weasyprint.urls import URLFetcher

    class StaticOnlyURLFetcher(URLFetcher):
        """Serves ``data:`` URIs and files inside one static folder; refuses the rest.

        Refused URLs raise, and WeasyPrint then leaves the resource out: a ``file://`` or
        ``http://`` reference written by a user fetches nothing.
        """

        def __init__(self, static_dir: Path, **kwargs):
            super().__init__(allowed_protocols={"file", "data"}, allow_redirects=False, **kwargs)
            self.static_dir = Path(static_dir).resolve()
            self.refused: list[str] = []
            self.served: list[str] = []

        def fetch(self, url, headers=None):
            scheme = urlsplit(url).scheme.lower()
            if scheme == "data":
                return super().fetch(url, headers)
            if scheme == "file":
                path = Path(unquote(urlsplit(url).path)).resolve()
                if path.is_relative_to(self.static_dir) and path.is_file():
                    self.served.append(url)
                    return super().fetch(path.as_uri(), headers)
            self.refused.append(url)
            raise ValueError(f"Refused to fetch {url!r}: only our static files are allowed")

    return StaticOnlyURLFetcher


def make_fetcher(static_dir: Path):
    """A fetcher limited to ``static_dir`` (and ``data:``); exposes ``served``/``refused``."""
    try:
        return _fetcher_class()(static_dir)
    except (ImportError, OSError) as error:  # OSError: Pango missing
        raise PdfUnavailable(f"WeasyPrint can't load: {error}") from error


def render_document(html: str, static_dir: Path, *, fetcher=None):
    """Lay out an HTML string whose relative URLs point into ``static_dir``.

    Returns WeasyPrint's document, whose boxes can be measured before ``write_pdf()``.
    """
    fetcher = fetcher or make_fetcher(static_dir)
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as error:
        raise PdfUnavailable(f"WeasyPrint can't load: {error}") from error
    base_url = Path(static_dir).resolve().as_uri() + "/"
    return HTML(string=html, base_url=base_url, url_fetcher=fetcher).render()


def render_pdf(html: str, static_dir: Path, *, fetcher=None) -> bytes:
    """Make a PDF from an HTML string whose relative URLs point into ``static_dir``."""
    return render_document(html, static_dir, fetcher=fetcher).write_pdf()


def _die_with_parent() -> None:
    """Linux: be killed when the parent dies (a render stopped at its deadline takes its
    helper with it). Elsewhere nothing: the helper ends with its own job."""
    with contextlib.suppress(Exception):
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)


def _fork(job: Callable[[], Any], *, nice: int = 0) -> tuple[int, int]:
    """Run ``job`` in a forked child; return its pid and the pipe its pickled answer comes
    down. ``os.fork`` itself, not ``multiprocessing``: a Celery worker's pool processes
    are daemonic, and multiprocessing refuses children to those. The child inherits
    everything already imported (WeasyPrint, the fonts, the templates), so it starts at
    once, and it leaves with ``os._exit`` (nothing of the parent's is cleaned up twice)."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid:
        os.close(writer)
        return pid, reader
    status = 0
    try:
        os.close(reader)
        _die_with_parent()
        if nice:
            with contextlib.suppress(OSError):
                os.nice(nice)
        try:
            result = ("ok", job())
        except PdfError as error:
            result = ("pdf-error", f"{type(error).__name__}: {error}")
        except BaseException as error:  # reported to the parent
            result = ("error", "".join(traceback.format_exception(error)))
        with os.fdopen(writer, "wb") as out:
            pickle.dump(result, out, protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def _answer(data: bytes) -> Any:
    """The child's result, or its error raised here."""
    if not data:
        raise PdfError("The PDF renderer stopped without an answer.")
    status, value = pickle.loads(data)
    if status == "ok":
        return value
    if status == "pdf-error":
        kind, _, message = value.partition(": ")
        raise (PdfUnavailable if kind == "PdfUnavailable" else PdfError)(message)
    raise PdfError(f"The PDF renderer failed:\n{value}")


def _read_all(fd: int, deadline: float | None = None) -> bytes | None:
    """Everything down the pipe until the child closes it; None if ``deadline`` (a
    ``time.monotonic()``) passes first."""
    chunks = []
    with os.fdopen(fd, "rb", buffering=0) as incoming:
        while True:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([incoming], [], [], left)[0]:
                    return None
            chunk = incoming.read(1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _reap(pid: int, *, kill: bool = False) -> None:
    with contextlib.suppress(OSError):
        if kill:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def run_in_parallel(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run the first job here and each other one in a forked helper process, at once
    (two CPUs lay out two halves of a PDF in about half the time); return their results
    in order. Where ``fork`` does not exist, the jobs run one by one."""
    if len(jobs) < 2 or not hasattr(os, "fork"):
        return [job() for job in jobs]
    helpers = [_fork(job) for job in jobs[1:]]
    answers = []
    try:
        results = [jobs[0]()]
    finally:
        for pid, reader in helpers:
            answers.append(_read_all(reader))
            _reap(pid)
    return results + [_answer(data) for data in answers]


def run_with_deadline(job: Callable[[], bytes], seconds: float, *, nice: int = 10) -> bytes:
    """Run ``job`` in a forked child and return its bytes; stop it after ``seconds``.

    A layout cannot be interrupted from inside, so the render runs in its own process,
    which is killed when time is up. ``nice`` lowers the child's CPU priority, so that on
    a busy machine the pages being served go first and the render takes what is left.
    Where ``fork`` does not exist the job runs here, without a deadline.
    """
    if not hasattr(os, "fork"):
        return job()
    pid, reader = _fork(job, nice=nice)
    data = None
    try:
        data = _read_all(reader, time.monotonic() + seconds)
    finally:
        _reap(pid, kill=data is None)
    if data is None:
        raise PdfTimeout(
            f"Making this PDF took longer than {seconds:g} seconds, so it was stopped. "
            "Try fewer cards at a time (a single card, or fronts only), or try again later."
        )
    return _answer(data)
