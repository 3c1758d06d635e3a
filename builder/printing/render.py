"""HTML to PDF with WeasyPrint: the one place a print is laid out and written.

``document`` lays HTML out (``rules.pdf``: WeasyPrint, with a URL fetcher that fetches
nothing but our static files), ``write`` turns the laid-out document into PDF bytes, and
``pdf`` does both. Around them: the fonts a text needs, the QR code, joining PDFs made in
two processes, the digest of the code that decides how a PDF looks, and the warm-up a
server process does before it forks its renders.
"""

from __future__ import annotations

import contextlib
import os
from functools import cache

from django.conf import settings

from rules.pdf import PdfError, make_fetcher, render_document


def document(html: str):
    """``html`` laid out by WeasyPrint: the document, to measure or to write."""
    static = settings.PDF_STATIC_DIR
    return render_document(html, static, fetcher=make_fetcher(static))


def write(laid_out) -> bytes:
    return laid_out.write_pdf()


def pdf(html: str) -> bytes:
    """``html`` as PDF bytes."""
    return write(document(html))


def qr_data_uri(url: str) -> str:
    import segno

    return segno.make(url, error="l").svg_data_uri(border=2, dark="#000", light="#fff")


@cache
def _covered() -> frozenset[int]:
    from fontTools.ttLib import TTFont

    font = TTFont(settings.PDF_STATIC_DIR / "fonts" / "DejaVuSansCondensed.ttf", lazy=True)
    return frozenset(font.getBestCmap())


def needs_fallback_font(*texts: str) -> bool:
    """True when some letter is not in DejaVu (Chinese, Japanese, Korean…): then, and only
    then, the 4 MB fallback font is loaded."""
    covered = _covered()
    return any(ord(ch) not in covered for text in texts for ch in text if not ch.isspace())


def parallel_allowed() -> bool:
    setting = getattr(settings, "PDF_PARALLEL", None)
    if setting is not None:
        return bool(setting)
    return (os.cpu_count() or 1) >= 2 and hasattr(os, "fork")


def join_pdfs(parts: list[tuple[bytes, list[int]]]) -> bytes:
    """One PDF from several, each given with the positions its pages take in the whole."""
    import io

    from pypdf import PdfReader, PdfWriter

    if len(parts) == 1:
        return parts[0][0]
    placed = []
    readers = []
    for content, positions in parts:
        reader = PdfReader(io.BytesIO(content))
        readers.append(reader)
        placed.extend(zip(positions, reader.pages, strict=True))
    writer = PdfWriter()
    for _position, page in sorted(placed, key=lambda item: item[0]):
        writer.add_page(page)
    if readers[0].metadata:
        writer.add_metadata(dict(readers[0].metadata))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@cache
def code_digest() -> str:
    """A digest of everything that decides how a PDF looks, so a new release never serves
    a PDF cached by the old one."""
    import hashlib

    base = settings.BASE_DIR
    files = sorted(
        [
            *(base / "templates" / "pdf").glob("*.html"),
            *(base / "static" / "pdf").rglob("*.*"),
            *(base / "rules").rglob("*.py"),
            *(base / "rules").rglob("*.json"),  # rules/data and each system's data/
            *(base / "builder" / "printing").glob("*.py"),
            *(base / "builder" / "editors").rglob("sheet.html"),
        ]
    )
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


WARM_UP_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="pdf/fonts.css"><link rel="stylesheet" href="pdf/cards.css">
<link rel="stylesheet" href="pdf/sheet.css"><style>@page { size: A4; margin: 0; }</style>
</head><body><div class="card front"><img class="mark" src="pdf/marks/star.svg" alt="">
<p style="font-family: 'GF Sans'">Warm <b>up</b></p><p>Warm <b>up</b></p>
<p style="font-family: 'GF Display'; font-weight: bold">Warm up</p>
<table class="stats"><tr><th>Str</th><td>3</td></tr></table></div></body></html>"""


def warm_up() -> bool:
    """Do once, in a server or worker process before it forks its renders, what the first
    PDF of a process would otherwise pay for (about a second): import WeasyPrint, load
    Pango and the fonts, compile the print templates, write one small PDF. Renders then
    start warm, in forked children that inherit all of it. Returns whether it could (a
    machine without Pango prints nothing, and says so when asked)."""
    from django.template.loader import get_template

    for path in sorted((settings.BASE_DIR / "templates" / "pdf").glob("*.html")):
        with contextlib.suppress(Exception):
            get_template(f"pdf/{path.name}")
    code_digest()
    try:
        document(WARM_UP_HTML).write_pdf()
    except (PdfError, ImportError, OSError):
        return False
    return True
