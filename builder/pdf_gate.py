"""Renders are let in through a gate, so PDFs never take every worker of the site.

A render blocks the worker that asked for it (WeasyPrint runs in a forked child, up to
``PDF_TIMEOUT_SECONDS``). Without a limit, a few print requests at once (three anonymous
visitors on a share link are enough) hold all the workers, and every other page waits.
The gate:

- lets at most ``PDF_RENDERS`` renders run at once on this machine, across every worker
  process (by default one fewer than the CPUs, at least one), so at least one worker is
  always free for the rest of the site; a request that finds no free place waits up to
  ``PDF_WAIT_SECONDS`` (half a second) for one, then is told plainly to try again (503,
  ``Retry-After``): a request that waits holds a worker, so it waits little;
- lets one client (by address) have one render at a time: a second one at the same moment
  is told to wait for the first (429);
- makes the same PDF once: a second request for it at the same moment waits as briefly,
  then reads it from the cache or is told to come back for it.

The places are ``flock`` locks on small files in ``PDF_LOCK_DIR``: the kernel releases them
when a process dies, so a killed worker never leaves a place taken. They are per machine;
each app server has its own gate, sized to its own CPUs.

**Background renders** (a gang's PDFs made ahead, ``builder/tasks.py``) come in with
``background=True``: they hold no request, so they take a place of their own
(``PDF_BACKGROUND_RENDERS``, one by default), never one of the places the clicks use, and
they render at a lower CPU priority (nice 19 against the clicks' 10), so that a user's
click goes first. A background render gives way to a click already making the same PDF;
a click that finds the same PDF being made in the background waits for it (up to
``PDF_TIMEOUT_SECONDS``) rather than making it twice: it would take longer to make it
again than to wait for the one nearly done.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _

from rules.pdf import PdfError


class PdfBusy(PdfError):
    """Every render place is taken: try again in a few seconds (503)."""

    retry_after = 5


class PdfTooMany(PdfError):
    """This client already has a PDF being made (429)."""

    retry_after = 5


def _setting(name: str, default):
    return getattr(settings, name, default)


def renders() -> int:
    default = max(1, (os.cpu_count() or 2) - 1)
    return max(1, int(_setting("PDF_RENDERS", default)))


def _lock_dir() -> Path:
    where = Path(_setting("PDF_LOCK_DIR", Path(tempfile.gettempdir()) / "gangfight-pdf-locks"))
    where.mkdir(parents=True, exist_ok=True)
    return where


def _try(path: Path) -> int | None:
    """The file descriptor holding ``path``'s lock, or None if another holds it."""
    fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _release(fd: int) -> None:
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _name(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _wait_for(paths: list[Path], seconds: float) -> int | None:
    """Hold the first of ``paths`` that comes free within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        for path in paths:
            fd = _try(path)
            if fd is not None:
                return fd
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def background_renders() -> int:
    return max(1, int(_setting("PDF_BACKGROUND_RENDERS", 1)))


def _held(path: Path) -> bool:
    """Whether another process holds ``path``'s lock (a render in the background)."""
    fd = _try(path)
    if fd is None:
        return True
    _release(fd)
    return False


@contextlib.contextmanager
def gate(pdf_key: str, client: str | None = None, *, background: bool = False) -> Iterator[None]:
    """Hold a render place for the PDF ``pdf_key`` asked for by ``client`` (an address),
    or raise :class:`PdfBusy` / :class:`PdfTooMany`. Enter it, then look in the cache
    again: a request that waited may find the PDF made by the one it waited for.
    ``background``: a render made ahead, which takes a place of its own (see above)."""
    if background:
        with _background_gate(pdf_key):
            yield
        return
    where = _lock_dir()
    held: list[int] = []
    try:
        if client:
            fd = _try(where / f"client-{_name(client)}.lock")
            if fd is None:
                raise PdfTooMany(
                    _(
                        "A PDF you asked for is still being made: wait for it to download, "
                        "then ask for the next one."
                    )
                )
            held.append(fd)
        wait = float(_setting("PDF_WAIT_SECONDS", 0.5))
        # The same PDF, asked for twice: the second waits a moment for the first (then
        # finds it in the cache), else is told to come back: a waiting request holds a
        # worker, and the rest of the site needs them.
        pdf_lock = where / f"pdf-{_name(pdf_key)}.lock"
        fd = _wait_for([pdf_lock], wait)
        if fd is None and _held(where / f"background-{_name(pdf_key)}.lock"):
            # made in the background right now: waiting for it is quicker than making it
            fd = _wait_for([pdf_lock], float(_setting("PDF_TIMEOUT_SECONDS", 20)))
        if fd is None:
            raise PdfBusy(_("This PDF is still being made: try again in a few seconds."))
        held.append(fd)
        places = [where / f"render-{i}.lock" for i in range(renders())]
        fd = _wait_for(places, wait)
        if fd is None:
            raise PdfBusy(
                _(
                    "Many PDFs are being made right now: try again in a few seconds. "
                    "(The rest of the site keeps working meanwhile.)"
                )
            )
        held.append(fd)
        yield
    finally:
        for fd in reversed(held):
            _release(fd)


@contextlib.contextmanager
def _background_gate(pdf_key: str) -> Iterator[None]:
    where = _lock_dir()
    held: list[int] = []
    try:
        places = [where / f"background-render-{i}.lock" for i in range(background_renders())]
        # nobody waits for a background render: it may wait its turn as long as a render takes
        fd = _wait_for(places, float(_setting("PDF_TIMEOUT_SECONDS", 20)))
        if fd is None:
            raise PdfBusy(_("Every background render place stayed taken."))
        held.append(fd)
        # the same PDF being made for a click: it will be in the cache, nothing to do
        for lock in (f"pdf-{_name(pdf_key)}.lock", f"background-{_name(pdf_key)}.lock"):
            fd = _try(where / lock)
            if fd is None:
                raise PdfBusy(_("This PDF is already being made."))
            held.append(fd)
        yield
    finally:
        for fd in reversed(held):
            _release(fd)
