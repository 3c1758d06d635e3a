"""Print a roster: character cards on A4 or Letter sheets, the gang sheet, a quick reference.

- ``layout``: the paper sizes, a card's geometry and faces, measuring a laid-out card and
  cutting a member's text into cards;
- ``render``: HTML to PDF with WeasyPrint (fetching nothing but our static files), fonts,
  the QR code, the warm-up;
- ``printed``: a roster evaluated for printing, and what every template is given;
- ``cards``: fitting the character cards (the loop, the remembered cuts, two CPUs);
- ``documents``: what goes into each document, and ``print_pdf`` (any of them, with a
  deadline);
- ``cache``: the PDF cache's keys and limits, and ``cached_pdf``.

The HTTP side (the client a render is for, the error page, the file name) is in the print
views, ``builder/views/printing.py``. Other modules use the names below; a test replaces a
function where it is defined (``documents.print_pdf``, ``render.document``), since the
modules call each other there.
"""

from builder.printing.cache import PdfTooBig, cache_key, cached_pdf
from builder.printing.documents import (
    KINDS,
    cards_pdf,
    print_pdf,
    reference_pdf,
    sheet_pdf,
    site_origin,
)
from builder.printing.layout import PAPERS
from builder.printing.printed import prepare
from builder.printing.render import needs_fallback_font, warm_up
from rules.pdf import PdfError, PdfTimeout, PdfUnavailable

__all__ = [
    "KINDS",
    "PAPERS",
    "PdfError",
    "PdfTimeout",
    "PdfTooBig",
    "PdfUnavailable",
    "cache_key",
    "cached_pdf",
    "cards_pdf",
    "needs_fallback_font",
    "prepare",
    "print_pdf",
    "reference_pdf",
    "sheet_pdf",
    "site_origin",
    "warm_up",
]
