"""The PDF cache: what a PDF is keyed by, how big a PDF may be, and ``cached_pdf``, the way
every Print click and every render made ahead gets its PDF.

A PDF is kept by a digest of what it is made from (the roster itself, the options, the
date, the language and the code that prints it), through the render gate
(``builder/pdf_gate.py``) and the PDF store (``builder/pdf_store.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from builder.printing import documents, render
from rules.pdf import PdfError


def cache_key(roster: Mapping[str, Any], kind: str, **options: Any) -> str:
    """What a PDF is made from, hashed: the roster (so the gang's version and every value
    it shows), the options, the QR's address, the date in the footer and the language it
    is printed in (the reader's: its words, dates and the book's terms)."""
    import hashlib
    import json

    made_from = {
        "roster": roster,
        "kind": kind,
        "options": options,
        "date": timezone.localdate().isoformat(),
        "language": get_language(),
        "code": render.code_digest(),
    }
    digest = hashlib.sha256(json.dumps(made_from, sort_keys=True, default=str).encode())
    return f"pdf:{kind}:{digest.hexdigest()}"


class PdfTooBig(PdfError):
    """More members than one PDF may hold: the message says what to print instead (413)."""


#: the most members one PDF of each kind holds (a 200-member gang's cards take over 20 s)
MAX_MEMBERS = {"cards": 60, "sheet": 120, "reference": 200}


def check_size(roster: Mapping[str, Any], kind: str, member_key: str | None = None) -> None:
    """Refuse, in words, a PDF too big to make within the time a render may take."""
    if kind == "cards" and member_key:
        return
    count = len(roster.get("members") or [])
    most = getattr(settings, "PDF_MAX_MEMBERS", MAX_MEMBERS).get(kind)
    if most is not None and count > most:
        what = {
            "cards": _("cards"),
            "sheet": _("a gang sheet"),
            "reference": _("a quick reference"),
        }
        raise PdfTooBig(
            _(
                "This gang has %(count)s members, and %(what)s can be printed for at most "
                "%(most)s: print members' cards one at a time from their panels, or split "
                "the gang."
            )
            % {"count": count, "what": what[kind], "most": most}
        )


def cached_pdf(
    roster: Mapping[str, Any],
    kind: str,
    *,
    client: str | None = None,
    background: bool = False,
    owner: str | None = None,
    version: Any = None,
    **options: Any,
) -> tuple[bytes, bool]:
    """The PDF from the cache if made before from the same roster and options, else made
    now (and kept), through the render gate (``builder/pdf_gate.py``): ``client`` is the
    address that asked; ``background``, a render made ahead (``builder/tasks.py``), at a
    lower priority than any click. Returns the bytes and whether they came from the cache.
    ``owner`` and ``version`` (a gang's ``gang:12`` and its version): the cache keeps only
    the owner's latest version's PDFs (``builder/pdf_store.py``).

    The key is a digest of the roster itself (so of every value the PDF shows), never of
    a version number alone: a Print click right after a change can only find the PDF of
    the gang as it now is, or make it."""
    from django.core.cache import caches

    from builder import pdf_gate

    check_size(roster, kind, options.get("member_key"))
    cache = caches["pdf"]
    key = cache_key(roster, kind, **options)

    def cached() -> bytes | None:
        try:
            return cache.get(key)
        except OSError:  # an unreadable cache is only slower, never an error page
            return None

    content = cached()
    if content is not None:
        return content, True
    with pdf_gate.gate(key, client, background=background):
        content = cached()  # made meanwhile by the request this one waited for
        if content is not None:
            return content, True
        content = documents.print_pdf(roster, kind, nice=19 if background else 10, **options)
        from builder.pdf_store import store_pdf

        store_pdf(key, content, owner, version)
    return content, False
