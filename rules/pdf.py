"""Render HTML to PDF with WeasyPrint, fetching nothing but our own static files.

No Django here: callers render their template to a string and pass the folder of static
files the document may use (fonts, print CSS, images). WeasyPrint is imported only when a
PDF is made, so the app starts (and serves everything else) without it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import traceback
from collections.abc import Callable
from pathlib import Path
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


def run_with_deadline(job: Callable[[], bytes], seconds: float, *, nice: int = 10) -> bytes:
    """Run ``job`` in a forked child and return its bytes; stop it after ``seconds``.

    A layout cannot be interrupted from inside, so the render runs in its own process,
    which is killed when time is up. The child inherits everything already imported
    (WeasyPrint, the templates), so it starts at once. ``nice`` lowers the child's CPU
    priority, so that on a busy machine the pages being served go first and the render
    takes what is left. Where ``fork`` does not exist the job runs here, without a deadline.
    """
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return job()
    reader, writer = context.Pipe(duplex=False)

    def child() -> None:
        if nice:
            with contextlib.suppress(OSError):
                os.nice(nice)
        try:
            result = ("ok", job())
        except PdfError as error:
            result = ("pdf-error", f"{type(error).__name__}: {error}")
        except BaseException as error:  # reported to the parent
            result = ("error", "".join(traceback.format_exception(error)))
        writer.send(result)
        writer.close()

    process = context.Process(target=child, daemon=True)
    process.start()
    writer.close()
    try:
        if not reader.poll(seconds):
            process.kill()
            raise PdfTimeout(
                f"Making this PDF took longer than {seconds:g} seconds, so it was stopped. "
                "Try fewer cards at a time (a single card, or fronts only), or try again later."
            )
        try:
            status, value = reader.recv()
        except EOFError:
            raise PdfError("The PDF renderer stopped without an answer.") from None
    finally:
        reader.close()
        process.join(timeout=5)
    if status == "ok":
        return value
    if status == "pdf-error":
        kind, _, message = value.partition(": ")
        raise (PdfUnavailable if kind == "PdfUnavailable" else PdfError)(message)
    raise PdfError(f"The PDF renderer failed:\n{value}")
