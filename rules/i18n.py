"""Translation for the rules engine, without Django.

The engine's messages are translatable templates with named placeholders::

    from rules.i18n import _, ngettext

    _("Raise {stat} to {needed}.").format(stat=label, needed=3)
    ngettext("{count} weapon", "{count} weapons", n).format(count=n)

By default nothing is translated (English, with English plurals), so the engine runs on its
own exactly as it always has. The app installs its translation functions once at start-up
(``builder.apps.BuilderConfig.ready`` installs Django's), and from then on every message is
translated *when it is built*, that is, under the language active at that moment (Django's
per-request language). Build messages inside functions, never at import time; a constant
that must be translated later is marked with :func:`gettext_noop` and passed through
:func:`gettext` when it is shown.

:func:`language` says which language is active ("en", "fr"...), for what is not a message:
a book's own words, kept as data (``rules/systems/bwg1/data/book_fr.json``), used instead of a
translation when the book exists in that language.
"""

from __future__ import annotations

from collections.abc import Callable


def _identity(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, number: int) -> str:
    return singular if number == 1 else plural


def _no_context(context: str, message: str) -> str:
    return message


def _english() -> str:
    return "en"


_gettext: Callable[[str], str] = _identity
_ngettext: Callable[[str, str, int], str] = _english_plural
_pgettext: Callable[[str, str], str] = _no_context
_language: Callable[[], str | None] = _english


def install(
    *,
    gettext: Callable[[str], str] | None = None,
    ngettext: Callable[[str, str, int], str] | None = None,
    pgettext: Callable[[str, str], str] | None = None,
    language: Callable[[], str | None] | None = None,
) -> None:
    """Use these functions from now on (those not given stay as they are)."""
    global _gettext, _ngettext, _pgettext, _language
    if gettext is not None:
        _gettext = gettext
    if ngettext is not None:
        _ngettext = ngettext
    if pgettext is not None:
        _pgettext = pgettext
    if language is not None:
        _language = language


def uninstall() -> None:
    """Back to English, untranslated (the engine's default)."""
    install(gettext=_identity, ngettext=_english_plural, pgettext=_no_context, language=_english)


def gettext(message: str) -> str:
    """``message`` in the active language."""
    return str(_gettext(message))


_ = gettext


def ngettext(singular: str, plural: str, number: int) -> str:
    """The singular or plural form (as the active language counts) for ``number``."""
    return str(_ngettext(singular, plural, number))


def pgettext(context: str, message: str) -> str:
    """``message`` in the active language, where ``context`` tells apart two meanings."""
    return str(_pgettext(context, message))


def gettext_noop(message: str) -> str:
    """Marks a constant for the catalogue; it is translated where it is shown."""
    return message


#: The marks French sets off with a non-breaking space before them (and « » inside).
_SPACED_MARKS = frozenset(":;!?")


def punctuate(mark: str) -> str:
    """A separator as the active language writes it, with the space after it: "; " and
    ": " in English, "\u00a0; " and "\u00a0: " in French (a non-breaking space before
    : ; ! ?), for text joined in code ("niveau 4\u00a0; Pistolet")."""
    if mark in _SPACED_MARKS and language() == "fr":
        return f"\u00a0{mark} "
    return f"{mark} "


def language() -> str:
    """The active language's base code: "en", "fr" ("fr-ca" is "fr")."""
    code = _language() or "en"
    return code.split("-")[0].split("_")[0].lower()
