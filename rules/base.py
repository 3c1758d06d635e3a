"""The small interface every game system implements, and what it returns."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any, Protocol


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    """One thing the rules say about a gang.

    ``code`` is stable (it appears in docs/rules.md and in exported files), ``member``
    is the key of the member it concerns (``None`` for the gang as a whole) and
    ``message`` says what to change.
    """

    code: str
    severity: Severity
    message: str
    member: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


@dataclass(frozen=True)
class RuleDoc:
    """A rule as documented: its code, severity, a one-line summary and its source."""

    code: str
    severity: Severity
    summary: str
    source: str
    decision: str = ""


@dataclass
class Report:
    """The result of evaluating a roster: totals, per-member figures and findings."""

    system: str
    total_label: str
    total: int
    limit: int | None
    findings: list[Finding]
    members: dict[str, Any] = field(default_factory=dict)
    gang: dict[str, Any] = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.WARNING]

    @property
    def is_legal(self) -> bool:
        return not self.errors

    @property
    def gang_findings(self) -> list[Finding]:
        return [f for f in self.findings if f.member is None]

    def findings_for(self, member_key: str) -> list[Finding]:
        return [f for f in self.findings if f.member == member_key]

    def codes(self) -> list[str]:
        return [f.code for f in self.findings]


DATA_DIR = Path(__file__).parent / "data"  # what is not one system's: scenarios, glossary
_SEED = re.compile(r"\bseed \d{3}\b")


def book_name(system: Any) -> str:
    """The system's book as a sentence names it, in the active language ("the Blackwater
    Gulch v1.1.2 rulebook"). A system may name its book with ``book``; otherwise it is the
    rulebook of the system's name."""
    from rules.i18n import _

    return getattr(system, "book", "") or _("the {name} rulebook").format(name=system.name)


def cite(system: Any, source: str) -> str:
    """A rule's source as a player reads it: the book's name, not our seed file's number
    ("seed 002, p. 12" is "the Blackwater Gulch v1.1.2 rulebook, p. 12")."""
    return _SEED.sub(lambda _m: book_name(system), source)


def cite_parts(system: Any, source: str) -> list[tuple[str, bool]]:
    """``cite`` in parts, (text, is the book's name): the rest is where in the book, as our
    docs say it (English, like the rule's summary)."""
    parts: list[tuple[str, bool]] = []
    for i, part in enumerate(_SEED.split(source)):
        if i:
            parts.append((book_name(system), True))
        if part:
            parts.append((part, False))
    return parts


def text_language(system: Any, language: str) -> str:
    """The language a system's book texts (rules, skills, traits) are shown in when
    ``language`` is active: that language if the book exists in it (``book_languages``),
    else English, so that a page can mark English text in a French page (``lang="en"``)
    rather than show a translation of ours."""
    books = getattr(system, "book_languages", ("en",))
    return language if language in books else "en"


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


@cache
def book_texts(system_id: str) -> tuple[str, ...]:
    """The texts a system quotes from its book, longest first: every string of three words
    or more in its data (``<its package>/data/content.json``) and in its package's constants
    (its rules texts), so that a page can mark the English ones where a message quotes them
    (``lang="en"``) when the book has no edition in the reader's language."""
    from rules.registry import data_dir, package_of

    found: set[str] = set()
    with contextlib.suppress(OSError):
        found.update(_strings(load_content(data_dir(system_id) / "content.json")))
    for name, value in vars(package_of(system_id)).items():
        if name.isupper() and isinstance(value, Mapping | list | tuple):
            found.update(_strings(value))
    texts = {t.strip() for t in found if len(t.split()) >= 3}
    return tuple(sorted(texts, key=len, reverse=True))


def load_content(path: Path | str) -> dict[str, Any]:
    """A JSON file of content: a path, or the name of one of ``rules/data/`` (without
    ``.json``). A system reads its own with ``load_content(DATA / "content.json")``."""
    if isinstance(path, str):
        path = DATA_DIR / f"{path}.json"
    return json.loads(path.read_text("utf-8"))


def as_int(value: Any) -> int | None:
    """A whole number from an int, an integral float or a string of digits; else None.

    Booleans are not numbers here, whatever Python says.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return None
    return None


def as_str(value: Any) -> str:
    """A string with its ends stripped, or "" for anything that is not a string."""
    return value.strip() if isinstance(value, str) else ""


def member_keys(raw_members: list[Any]) -> list[str]:
    """Each member's key: its own if written and not taken by an earlier member, else its
    position ("#3") made unique, so that no two members ever share a key."""
    written = []
    for raw in raw_members:
        key = raw.get("key") if isinstance(raw, Mapping) else None
        ok = isinstance(key, str | int) and not isinstance(key, bool)
        written.append(str(key).strip() if ok else "")
    taken: set[str] = set()
    own = []
    for key in written:
        own.append(key if key and key not in taken else "")
        taken.add(key)
    keys = []
    for position, key in enumerate(own, start=1):
        if not key:
            key, n = f"#{position}", 1
            while key in taken:
                n += 1
                key = f"#{position}-{n}"
            taken.add(key)
        keys.append(key)
    return keys


class GameSystem(Protocol):
    """What a game system module offers the rest of the app."""

    id: str
    name: str
    short_name: str
    total_label: str  # what the total is called: Fame, Points, CCP, Figures
    seed: str
    rules: tuple[RuleDoc, ...]  # every code the system can report
    decisions: tuple[str, ...]  # readings we chose where the book is unclear
    limit_presets: tuple[int, ...]
    default_limit: int | None
    member_schema: dict[str, Any]  # JSON Schema of a member's ``data`` in a roster file
    gang_schema: dict[str, Any]  # JSON Schema of the roster's ``gang`` part
    #: what its content packs hold: category → the JSON Schema of an entry (empty: none)
    content_entry_schemas: Mapping[str, Mapping[str, Any]]
    #: what a league's cap means (a ``gettext_noop`` message, translated where shown)
    cap_help: str
    #: the refusal of a cap set where the game fixes it or has none; None: a cap can be set
    cap_refused: str | None
    #: the builder's help beside the limit; None: built from the presets
    limit_help: str | None
    #: an empty limit stays empty (the player's choice) rather than the game's default
    limit_optional: bool

    def evaluate(self, roster: Mapping[str, Any]) -> Report:
        """Compute totals and findings for a roster. Never raises on bad values.

        ``report.total`` is the sum of ``member.cost`` over ``report.members``; every
        member report also has ``key``, ``name``, ``position``, ``summary``, ``stats``
        (label, value pairs), ``notes``, ``findings`` and ``has_errors``, and
        ``report.gang["facts"]`` lists the gang's derived numbers as (label, value).
        """
        ...

    def print_cards(self, roster: Mapping[str, Any], report: Report) -> list[Any]:
        """One ``rules.printing.Card`` per member, in roster order, keyed like the report:
        the front's stat line and tracks, the back's weapons and full rules text."""
        ...

    def print_sheet(self, roster: Mapping[str, Any], report: Report) -> dict[str, Any]:
        """Extra figures for the gang sheet (plain data); ``{}`` when there are none."""
        ...

    def quick_reference(self, roster: Mapping[str, Any], report: Report) -> list[Any]:
        """``rules.printing.Section`` objects: only the rules, skills, traits and weapons
        this gang uses, with their full text, each term once."""
        ...
