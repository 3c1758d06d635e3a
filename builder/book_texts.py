"""Which texts on a page are a book's own words in English (``lang="en"`` on a French
page): the system's book texts (``rules.base.book_texts``) and the sample cards' texts of
ours that stand in for the book's (the editor's ``samples_file``), longest first."""

from __future__ import annotations

import json
from functools import cache

from django.utils import translation

from builder.editors import get_editor
from rules import get_system
from rules.base import _strings, book_texts, text_language


@cache
def quoted(system_id: str) -> tuple[str, ...]:
    texts = set(book_texts(system_id))
    samples = get_editor(system_id).samples_file
    if samples is not None:
        found = _strings(json.loads(samples.read_text("utf-8")))
        texts.update(t.strip() for t in found if len(t.split()) >= 3)
    return tuple(sorted(texts, key=len, reverse=True))


def book_language(system_id: str) -> str:
    """The language ``system_id``'s book texts are shown in for the active language, or ""
    when that is the reader's own (nothing to mark)."""
    language = (translation.get_language() or "en").split("-")[0]
    try:
        book = text_language(get_system(system_id), language)
    except KeyError:
        return ""
    return "" if book == language else book


def language_of(text: object, system_id: str) -> str:
    """``book_language`` when ``text`` (whole, or the part of it that fits) holds a book
    text, else ""."""
    if not text:
        return ""
    book = book_language(system_id)
    if not book:
        return ""
    text = " ".join(str(text).split())
    for q in quoted(system_id):
        if q in text or (len(text.split()) >= 3 and text in q):
            return book
    return ""
