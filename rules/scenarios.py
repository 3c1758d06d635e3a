"""The scenarios and deployments a system's rulebook lists, for match reports.

Read from ``rules/data/scenarios.json`` (each entry with the page or section it comes from).
A system whose book has no list gets empty tuples: its reports take free text only.
Plain Python, no Django.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rules import i18n

DATA = Path(__file__).parent / "data" / "scenarios.json"


@dataclass(frozen=True)
class Choice:
    """One scenario or deployment: the name a report stores, the book's own title (when
    the book is not in English), where it is in the book, and what it is in a line."""

    name: str
    source: str
    summary: str = ""
    book_name: str = ""


@dataclass(frozen=True)
class Lists:
    system: str
    source: str = ""
    scenarios: tuple[Choice, ...] = ()
    deployments: tuple[Choice, ...] = ()
    #: where in the book each list is, in a few words ("pp. 27-29")
    scenarios_where: str = ""
    deployments_where: str = ""
    #: the language of the book's own titles (``Choice.book_name``): "fr" for bwg1
    book_language: str = ""

    def shown(self, choice: Choice) -> str:
        """A choice as the reader's book names it: the French book's own title for a
        French reader of bwg1 ("Sursis à l'exécution"), else the name reports store."""
        if choice.book_name and self.book_language and i18n.language() == self.book_language:
            return choice.book_name
        return choice.name

    def shown_name(self, name: str) -> str:
        """A report's stored scenario or deployment as the reader's book names it (a name
        not in the book's lists as typed)."""
        for choice in (*self.scenarios, *self.deployments):
            if choice.name == name:
                return self.shown(choice)
        return name


def _choices(entries: list[dict]) -> tuple[Choice, ...]:
    return tuple(
        Choice(e["name"], e["source"], e.get("summary", ""), e.get("book_name", ""))
        for e in entries
    )


@cache
def _all() -> dict[str, Lists]:
    data = json.loads(DATA.read_text("utf-8"))["systems"]
    return {
        system: Lists(
            system,
            entry.get("source", ""),
            _choices(entry.get("scenarios", [])),
            _choices(entry.get("deployments", [])),
            entry.get("scenarios_where", ""),
            entry.get("deployments_where", ""),
            entry.get("book_language", ""),
        )
        for system, entry in data.items()
    }


def lists_for(system_id: str) -> Lists:
    """The system's lists (empty when its book has none, or the system is unknown)."""
    return _all().get(system_id, Lists(system_id))


def canonical(choices: tuple[Choice, ...], text: str) -> str:
    """``text`` as the book spells it when it names one of ``choices`` (in any case, or by
    the book's own title); otherwise ``text`` as typed."""
    key = " ".join(text.split()).casefold()
    if not key:
        return text
    for choice in choices:
        if key in (choice.name.casefold(), choice.book_name.casefold()):
            return choice.name
    return text
