"""Language helpers for templates, site-wide (``{% load gangfight_i18n %}`` on any page).
This module is in ``common``, below every app: it imports no app. What only an app knows
comes through an interface: which texts are quoted from a system's book
(``book_marked``, ``book_lang_of``) is told by the apps that offer a ``book_texts`` module
(``common/discovery.py``; the builder's ``builder/book_texts.py``: the book's own texts
and the sample cards that stand in for them).

- ``{% book_lang system %}``: the language a system's book texts are shown in under the
  active language ("fr" for bwg1 in French, "en" for a game whose book has no French
  edition), for a ``lang`` attribute on the element holding such a text
  (rules.base.text_language).
- ``{{ word|translated }}``: a word that comes from plain-Python data (the campaign engine's
  labels: common/engine_words.py) in the reader's language, when the catalogue has it.
- ``{{ report.scenario|book_choice:system }}``: a scenario or deployment a report stores,
  as the reader's book names it ("Sursis à l'exécution" for a French reader of bwg1).
- ``{{ note|book_marked:system }}``: a text that quotes a book without a French edition
  (a note built of our words and a rule's English text) with each quoted English text in
  ``<span lang="en">``, on a French page (rules.base.book_texts).
- ``{% colon %}``, ``{% punct ";" %}``: a colon (a mark) as the reader's language writes it
  (":" in English, "\u00a0:" in French, a non-breaking space before : ; ! ?), for a
  label built in a template: ``{{ label }}{% colon %} {{ value }}``.
- ``{{ list|joined:";" }}``: a list joined by a mark with the reader's spacing ("a ; b").
- ``{{ roll.purpose|dice_purpose }}``: a dice log's line (the engines write it in English)
  in the reader's language (common/engine_words.py).
- ``{{ user|player_name }}``: a player's name, a deleted account's ("former member #N") in
  the reader's language.
- ``{{ item|item_word:"kind" }}``: a catalogue entry's figure in the words of the reader's
  book, as its system says it (bwg1's "corps à corps", "à une main", "Pistolet, Parer":
  seed 002, p. 30).
"""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from common.discovery import app_modules
from common.engine_words import purpose, shown
from common.names import player_name as _player_name
from rules import get_system
from rules.base import cite_parts, text_language
from rules.i18n import punctuate
from rules.scenarios import lists_for

register = template.Library()


def book_texts_of(system_id: str) -> tuple[str, ...]:
    """The texts quoted from ``system_id``'s book, longest first: every ``quoted(system_id)``
    of the apps' ``book_texts`` modules (each gives a tuple of texts)."""
    modules = app_modules("book_texts")
    if len(modules) == 1:
        return tuple(modules[0].quoted(system_id))
    texts: set[str] = set()
    for module in modules:
        texts.update(module.quoted(system_id))
    return tuple(sorted(texts, key=len, reverse=True))


def language_of(text: Any, system_id: str) -> str:
    """The language of the book ``text`` is quoted from, or "": the first answer of the apps'
    ``book_texts.language_of(text, system_id)`` that is not ""."""
    for module in app_modules("book_texts"):
        language = module.language_of(text, system_id)
        if language:
            return language
    return ""


@register.simple_tag
def book_lang(system: Any) -> str:
    if isinstance(system, str):
        try:
            system = get_system(system)
        except KeyError:
            return "en"
    language = (translation.get_language() or "en").split("-")[0]
    return text_language(system, language)


@register.filter
def translated(value: Any) -> Any:
    return shown(str(value)) if value else value


@register.filter
def item_word(item: Any, field: str) -> Any:
    """One of a catalogue entry's figures as its game's book says it (its system's
    optional ``item_word``: bwg1's weapon kind, hands and traits in the French book's words
    for a French reader); the figure as it is stored otherwise."""
    value = (getattr(item, "stats", None) or {}).get(field)
    try:
        words = getattr(get_system(item.system), "item_word", None)
    except KeyError:
        words = None
    return words(field, value) if words else value


@register.filter
def player_name(user: Any) -> str:
    return _player_name(user)


@register.filter
def book_choice(name: Any, system: Any) -> Any:
    return lists_for(str(system)).shown_name(name) if name else name


@register.simple_tag
def punct(mark: str) -> str:
    return punctuate(mark)[:-1]  # without the space after it: the template has its own


@register.simple_tag
def colon() -> str:
    return punct(":")


@register.filter
def joined(values: Any, mark: str) -> str:
    return punctuate(mark).join(str(v) for v in (values or ()))


@register.filter
def book_marked(text: Any, system: Any) -> Any:
    if not text:
        return text
    system_id = getattr(system, "id", system)
    language = (translation.get_language() or "en").split("-")[0]
    try:
        book = text_language(get_system(str(system_id)), language)
    except KeyError:
        return text
    if book == language:
        return text
    text = str(text)
    spans = []
    for quoted in book_texts_of(str(system_id)):
        start = text.find(quoted)
        while start >= 0:
            end = start + len(quoted)
            if not any(a < end and start < b for a, b in spans):
                spans.append((start, end))
            start = text.find(quoted, end)
    if not spans:
        return text
    out, at = [], 0
    for start, end in sorted(spans):
        out.append(escape(text[at:start]))
        out.append(f'<span lang="{book}">{escape(text[start:end])}</span>')
        at = end
    out.append(escape(text[at:]))
    return mark_safe("".join(out))


@register.filter
def dice_purpose(text: Any) -> Any:
    return purpose(str(text)) if text else text


@register.simple_tag
def page_of_pages() -> str:
    """The PDF footer's page numbers as a CSS ``content`` value, in the reader's language:
    ``"Page " counter(page) " sur " counter(pages)`` (one message, its placeholders made
    into the counters)."""
    text = translation.gettext("Page {page} of {pages}")
    parts = []
    for part in re.split(r"(\{page\}|\{pages\})", text):
        if part in ("{page}", "{pages}"):
            parts.append(f"counter({part[1:-1]})")
        elif part:
            parts.append('"' + part.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return mark_safe(" ".join(parts))


@register.filter
def cited(source: Any, system: Any) -> Any:
    """A rule's source on a page: the book named in the reader's language ("livre de règles
    de Blackwater Gulch v1.1.2"), the rest (where in the book, as our English docs say it,
    like the rule's summary beside it) marked ``lang="en"`` on a page in another language."""
    if not source:
        return source
    english = (translation.get_language() or "en").split("-")[0] == "en"
    out = []
    for text, is_book in cite_parts(system, str(source)):
        if is_book or english or not text.strip(" ,.;"):
            out.append(escape(text))
        else:
            out.append(f'<span lang="en">{escape(text)}</span>')
    return mark_safe("".join(out))


@register.filter
def book_lang_of(text: Any, system: Any) -> str:
    """``"en"`` when ``text`` (a card's rules text, whole or the part of it that fits) is a
    text of a book without an edition in the reader's language, else ``""``: for a
    ``lang`` attribute on the element holding it (rules.base.book_texts)."""
    return language_of(text, str(getattr(system, "id", system)))
