"""Names in the order a reader expects, whatever their language (plain Python: the pure
modules such as campaigns/leagues/standings.py use it too).

``name_key`` sorts as a dictionary does at its first level: letters without their accents
and case ("Élodie" with the Es, "de Vries" with the Ds), then, for names equal that way, by
accents and case, so the order is total and stable. It needs no system locale (a server's
``fr_FR.UTF-8`` may not be installed), and it is the same for English, where accents are
rare, and for French."""

from __future__ import annotations

import unicodedata


def _base(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def name_key(text: str) -> tuple[str, str, str]:
    text = text or ""
    return (_base(text), text.casefold(), text)
