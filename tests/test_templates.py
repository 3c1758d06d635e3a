"""Every template, read as Django reads it, for the two mistakes that print wrongly with no
error: a tag split over two lines (Django's lexer matches ``{% … %}``, ``{{ … }}`` and
``{# … #}`` within one line, so a split tag is printed as text), and a number written into
CSS in the reader's format (French writes ``296,9``, which CSS drops or misreads: the
French cards were blank pages)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

TEMPLATES = Path(settings.BASE_DIR) / "templates"
ALL = sorted(TEMPLATES.rglob("*.html")) + sorted(TEMPLATES.rglob("*.txt"))
TAG = re.compile(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}")
OPENERS = ("{%", "{{", "{#")
BLOCK = re.compile(r"\{%\s*(comment|verbatim)\b.*?%\}.*?\{%\s*end\1\s*%\}", re.S)


def relative(path: Path) -> str:
    return str(path.relative_to(TEMPLATES))


def split_tags(source: str) -> list[tuple[int, str]]:
    """The lines (numbered from 1) where a tag opens and does not close."""
    source = BLOCK.sub(lambda m: "\n" * m.group(0).count("\n"), source)
    found = []
    for n, line in enumerate(source.splitlines(), 1):
        rest = TAG.sub("", line)
        if any(opener in rest for opener in OPENERS):
            found.append((n, line.strip()[:90]))
    return found


def test_the_check_finds_a_split_tag():
    assert split_tags('<p>{% translate "one\ntwo" %}</p>') == [(1, '<p>{% translate "one')]
    assert split_tags("{{ a }} {% b %} {# c #}\n{% comment %}{% x\n{% endcomment %}") == []


@pytest.mark.parametrize("path", ALL, ids=relative)
def test_no_tag_spans_two_lines(path):
    split = split_tags(path.read_text())
    assert not split, (
        f"{relative(path)}: a tag split over lines is printed as text "
        f"(use {{% blocktranslate trimmed %}}): {split}"
    )


# --------------------------------------------------------------------------- numbers in CSS

STYLE_BLOCK = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
STYLE_ATTRIBUTE = re.compile(r"""\sstyle=("[^"]*"|'[^']*')""")
UNLOCALIZED = re.compile(r"\|\s*(unlocalize|stringformat)\b")
LOCALIZE_OFF = re.compile(r"\{%\s*localize\s+off\s*%\}(.*?)\{%\s*endlocalize\s*%\}", re.S)
VARIABLE = re.compile(r"\{\{(.*?)\}\}")


def localized_numbers_in_css(source: str) -> list[str]:
    """The variables written into a <style> block or a style attribute that Django would
    format in the reader's language: neither inside ``{% localize off %}`` nor passed
    through ``|unlocalize`` (or ``|stringformat``, which is Python's own formatting)."""
    source = LOCALIZE_OFF.sub("", source)
    places = [m.group(1) for m in STYLE_BLOCK.finditer(source)]
    places += [m.group(1) for m in STYLE_ATTRIBUTE.finditer(source)]
    return [
        v.group(0)
        for place in places
        for v in VARIABLE.finditer(place)
        if not UNLOCALIZED.search(v.group(1))
    ]


def test_the_check_finds_a_localized_number():
    assert localized_numbers_in_css("<style>.a { width: {{ w }}mm; }</style>") == ["{{ w }}"]
    assert localized_numbers_in_css('<b style="width: {{ w }}mm">') == ["{{ w }}"]
    assert localized_numbers_in_css('<b style="width: {{ w|unlocalize }}mm">') == []
    assert (
        localized_numbers_in_css(
            "<style>{% localize off %}.a { width: {{ w }}mm; }{% endlocalize %}</style>"
        )
        == []
    )


@pytest.mark.parametrize("path", ALL, ids=relative)
def test_numbers_in_css_are_never_localized(path):
    found = localized_numbers_in_css(path.read_text())
    assert not found, (
        f"{relative(path)} writes {found} into CSS in the reader's format (French: 2,5): "
        "wrap the <style> in {% localize off %} or use |unlocalize"
    )


def test_what_the_checks_guard_against_is_real():
    """Why: French formats a decimal with a comma, and CSS reads ``296,9mm`` as nothing."""
    template = Template("{% load l10n %}{{ h }}|{{ h|unlocalize }}")
    with translation.override("fr"):
        assert template.render(Context({"h": 296.9})) == "296,9|296.9"
