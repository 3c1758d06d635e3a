"""Background work for the builder: a gang's PDFs made before anyone asks for them.

After a change to a gang commits, :func:`schedule_prerender` submits
:func:`prerender_gang` (``common/background.py``), debounced by the gang: a burst
of clicks makes the PDFs once, ``PDF_PRERENDER_DELAY`` seconds after the last. The task
makes what the Print menu gives by default (the cards on A4, the gang sheet and the quick
reference) through the same :func:`builder.printing.cached_pdf` a click uses, so the click
finds it in the cache; as a background client of the render gate, so a click goes first.
A gang that has moved on since (a newer version) is left to the newer submission.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import translation

from accounts.language import language_of
from common.background import submit

log = logging.getLogger(__name__)

#: what a Print click asks for without changing the menu's choices, in the order made
PRERENDERED = ("cards", "sheet", "reference")


def schedule_prerender(gang_id: int, version: int) -> None:
    """Make the gang's PDFs once this change commits and the gang stays still a moment."""
    if not getattr(settings, "PDF_PRERENDER", True):
        return
    submit(
        "builder.tasks.prerender_gang",
        key=f"prerender:{gang_id}",
        delay=float(getattr(settings, "PDF_PRERENDER_DELAY", 2.0)),
        gang_id=gang_id,
        version=version,
    )


def default_options(share_url: str) -> dict:
    """The options of a Print click that changes nothing in the menu (so the same cache
    key as the click's: ``builder.views.printing._print_response``)."""
    return {"paper": "a4", "fronts_only": False, "member_key": None, "share_url": share_url}


def prerender_gang(*, gang_id: int, version: int) -> list[str]:
    """Make the gang's PDFs at ``version`` into the PDF cache, unless it has moved on.

    Returns the kinds made now (not those already in the cache)."""
    from builder import printing
    from builder.models import Gang

    gang = Gang.objects.filter(pk=gang_id).first()
    if gang is None or gang.version != version:
        return []
    origin = printing.site_origin()  # SITE_URL (never a request's Host)
    # In the owner's language, as their Print click asks for it (the language is in the
    # PDF's cache key).
    with translation.override(language_of(gang.owner)):
        return _prerender(gang, gang_id, version, origin)


def _prerender(gang, gang_id: int, version: int, origin: str) -> list[str]:
    from django.urls import reverse

    from builder import printing
    from builder.models import Gang
    from builder.roster import gang_roster, members_with_items

    roster = gang_roster(gang, list(members_with_items(gang)))
    options = default_options(origin + reverse("gang_shared", args=[gang.share_token]))
    made = []
    for kind in PRERENDERED:
        if not Gang.objects.filter(pk=gang_id, version=version).exists():
            break  # changed meanwhile: the newer submission makes the rest
        try:
            _content, cached = printing.cached_pdf(
                roster, kind, background=True, owner=f"gang:{gang_id}", version=version, **options
            )
        except printing.PdfError as error:  # too big, busy, too slow: the click makes it
            log.info("Gang %s %s not made ahead: %s", gang_id, kind, error)
            continue
        if not cached:
            made.append(kind)
    return made
