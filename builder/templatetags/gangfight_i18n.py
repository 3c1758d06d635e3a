"""Language helpers for templates.

- ``{% book_lang system %}``: the language a system's book texts are shown in under the
  active language ("fr" for bwg1 in French, "en" for a game whose book has no French
  edition), for a ``lang`` attribute on the element holding such a text
  (rules.base.text_language).
- ``{{ word|translated }}``: a word that comes from plain-Python data (the campaign engine's
  labels: campaigns/engine_words.py) in the reader's language, when the catalogue has it.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import translation

from campaigns.engine_words import shown
from rules import get_system
from rules.base import text_language

register = template.Library()


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
