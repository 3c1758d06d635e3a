"""The French glossary: every game term a player reads, in English and in French, with the
French book's page for Blackwater Gulch v1.1.2 (seed 002 is its French edition) or "ours"
for the other four games (no French edition: the catalogue's translation).

One list, from two files:

- ``rules/systems/bwg1/data/book_fr.json`` (read by ``rules/systems/bwg1/glossary.py``):
  the bwg1 book's own words the engine shows instead of a translation (member types,
  attributes, statistics, professions, skills, weapon traits, weapon kinds, hands, weapons
  and horses, the sample weapons' French names of ours included);
- ``rules/data/glossary_fr.json``: the other game words, with a ``check`` the French
  catalogue is held to (tests/test_french_glossary.py): one English term, one French
  translation.

Who uses it: the engine (``rules.systems.bwg1`` reads the book's words), the catalogue
(held to the checks), the fixtures (every shipped bwg1 weapon and horse has its French
name here) and ``docs/glossary-fr.md``, which is made from it::

    python -m rules.glossary > docs/glossary-fr.md
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.base import load_content
from rules.registry import all_systems, system_part

ALL = "all"  # a term of every game


def games() -> dict[str, str]:
    """The glossary's sections: every game, then each system by its name."""
    return {ALL: "every game", **{s.id: s.name for s in all_systems()}}


@dataclass(frozen=True)
class Term:
    en: str
    fr: str
    game: str  # a system's id, or "all"
    page: int | None  # the French book's page (bwg1), else None
    source: str  # "book": the French book's word; "ours": our translation
    kind: str = ""  # what it is: "member type", "weapon trait"...
    where: str = ""
    check: dict[str, str] = field(default_factory=dict)  # {"en": regex, "fr": regex}
    exceptions: tuple[str, ...] = ()


def other_terms() -> list[Term]:
    """The other game words, from glossary_fr.json."""
    return [
        Term(
            en=t["en"],
            fr=t["fr"],
            game=t["game"],
            page=t.get("page"),
            source=t["source"],
            where=t.get("where", ""),
            check=t.get("check", {}),
            exceptions=tuple(t.get("except", ())),
        )
        for t in load_content("glossary_fr")["terms"]
    ]


def book_terms() -> list[Term]:
    """The words of every book that has a French edition: each system's own
    ``glossary.py`` (``book_terms()``), when it has one."""
    found: list[Term] = []
    for system in all_systems():
        made = system_part(system.id, "glossary", "book_terms")
        if made is not None:
            found += made()
    return found


def terms() -> list[Term]:
    return book_terms() + other_terms()


def markdown() -> str:
    """docs/glossary-fr.md."""
    lines = [
        "# Glossary: English and French",
        "",
        "Every game term a player reads, in both languages. For Blackwater Gulch v1.1.2 the",
        "French is the French rulebook's own word (seed 002), with its page; the other four",
        "games have no French edition, so their French is ours, the catalogue's, one",
        "translation per term. Made from `rules/systems/bwg1/data/book_fr.json` and",
        "`rules/data/glossary_fr.json` by `python -m rules.glossary > docs/glossary-fr.md`;",
        "tests/test_french_glossary.py holds the catalogue, the pages and the cards to it.",
        "",
        "A bwg1 term marked *ours* is not in the book: the sample weapons Gangfight ships",
        "(the book's price list is missing from our copy) have French names of ours.",
    ]
    french_books = {s.id for s in all_systems() if "fr" in getattr(s, "book_languages", ())}
    for game, title in games().items():
        rows = [t for t in terms() if t.game == game]
        if not rows:
            continue
        lines += ["", f"## {title}", "", "| English | Français | Page | Kind |"]
        lines.append("|---|---|---|---|")
        for t in rows:
            page = f"p. {t.page}" if t.page else ("ours" if game in french_books else "")
            kind = t.kind or t.where
            lines.append(f"| {t.en} | {t.fr} | {page} | {kind} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
