"""PDFs of gangs: render the system's print template, then ``rules.pdf.render_pdf``."""

from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify

from builder.models import Gang
from builder.roster import EvaluatedGang
from rules.pdf import PdfUnavailable, render_pdf

__all__ = ["PdfUnavailable", "filename", "gang_sheet", "gang_sheet_html"]


def filename(gang: Gang, kind: str, extension: str = "pdf") -> str:
    return f"{slugify(gang.name) or 'gang'}-{kind}.{extension}"


def gang_sheet_html(evaluated: EvaluatedGang) -> str:
    gang = evaluated.gang
    return render_to_string(
        f"pdf/{gang.system}_sheet.html",
        {
            "gang": gang,
            "system": evaluated.system,
            "report": evaluated.report,
            "rows": [{"member": m, "r": r} for m, r in evaluated.rows()],
            "printed": timezone.now(),
        },
    )


def gang_sheet(evaluated: EvaluatedGang, *, fetcher=None) -> bytes:
    return render_pdf(gang_sheet_html(evaluated), settings.PDF_STATIC_DIR, fetcher=fetcher)
