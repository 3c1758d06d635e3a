"""Render HTML to PDF with WeasyPrint, fetching nothing but our own static files.

No Django here: callers render their template to a string and pass the folder of static
files the document may use (fonts, print CSS, images). WeasyPrint is imported only when a
PDF is made, so the app starts (and serves everything else) without it.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit


class PdfUnavailable(RuntimeError):
    """WeasyPrint (or the Pango library it needs) is not installed on this machine."""


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


def render_pdf(html: str, static_dir: Path, *, fetcher=None) -> bytes:
    """Make a PDF from an HTML string whose relative URLs point into ``static_dir``."""
    fetcher = fetcher or make_fetcher(static_dir)
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as error:
        raise PdfUnavailable(f"WeasyPrint can't load: {error}") from error
    base_url = Path(static_dir).resolve().as_uri() + "/"
    return HTML(string=html, base_url=base_url, url_fetcher=fetcher).write_pdf()
