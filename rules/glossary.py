"""The French glossary: every game term a player reads, in English and in French, with the
French book's page for Blackwater Gulch v1.1.2 (seed 002 is its French edition) or "ours"
for the other four games (no French edition: the catalogue's translation).

One list, from two files of ``rules/data/``:

- ``bwg1_fr.json``: the bwg1 book's own words the engine shows instead of a translation
  (member types, attributes, statistics, professions, skills, weapon traits, weapon kinds,
  hands, weapons and horses, the sample weapons' French names of ours included);
- ``glossary_fr.json``: the other game words, with a ``check`` the French catalogue is held
  to (tests/test_french_glossary.py): one English term, one French translation.

Who uses it: the engine (``rules.systems.bwg1`` reads the book's words), the catalogue
(held to the checks), the fixtures (every shipped bwg1 weapon and horse has its French
name here) and ``docs/glossary-fr.md``, which is made from it::

    python -m rules.glossary > docs/glossary-fr.md
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.base import load_content

GAMES = {
    "all": "every game",
    "bwg1": "Blackwater Gulch v1.1.2",
    "bwg2": "Blackwater Gulch 2nd edition",
    "gf26": "Gangfight Core Rules 2.6",
    "gunfight": "Gunfight v2",
    "rivals": "Outlaws: Rivals",
}


@dataclass(frozen=True)
class Term:
    en: str
    fr: str
    game: str  # "bwg1", another system's id, or "all"
    page: int | None  # the French book's page (bwg1), else None
    source: str  # "book": the French book's word; "ours": our translation
    kind: str = ""  # what it is: "member type", "weapon trait"...
    where: str = ""
    check: dict[str, str] = field(default_factory=dict)  # {"en": regex, "fr": regex}
    exceptions: tuple[str, ...] = ()


STAT_NAMES = {
    "xp": "XP (Experience Points)",
    "hp": "HP (Health Points)",
    "dp": "DP (Defense Points)",
}

#: bwg1_fr.json's sections of terms, what each holds, and the English of each key
_BOOK_SECTIONS = {
    "member_types": "member type",
    "attributes": "attribute",
    "stats": "statistic",
    "professions": "profession",
    "skills": "skill",
    "traits": "weapon trait",
    "weapon_kinds": "weapon kind",
    "hands": "hands",
    "weapons": "weapon",
    "sample_weapons": "weapon",
    "horses": "horse",
}


def _english(section: str, key: str, entry: dict[str, Any]) -> str:
    from rules.systems import bwg1

    if section == "member_types":
        return bwg1.MEMBER_TYPES[key].label_en
    if section == "attributes":
        return f"{bwg1.ATTRIBUTE_LABELS[key]} ({bwg1.ATTRIBUTE_NAMES[key]})"
    if section == "stats":
        return STAT_NAMES[key]
    if section == "professions":
        return bwg1.PROFESSIONS[key].label_en
    if section == "traits":
        return bwg1.TRAIT_RULES[key][0]
    if section == "weapon_kinds":
        return {"ranged": "ranged (weapon)", "melee": "melee (weapon)"}[key]
    if section == "hands":
        return {"1": "1-handed", "2": "2-handed"}[key]
    return key  # skills, weapons (samples too) and horses are keyed by their English name


def _french(section: str, entry: dict[str, Any]) -> str:
    if section == "attributes":
        return f"{entry['label']} ({entry['name']})"
    if section == "stats":
        return f"{entry['label']} ({entry['name']})"
    if section in ("weapon_kinds",):
        return f"{entry['label']} ({entry['name']})"
    return entry.get("label") or entry["name"]


def book_terms() -> list[Term]:
    """The bwg1 book's own words, from bwg1_fr.json."""
    book = load_content("bwg1_fr")
    terms = []
    for section, kind in _BOOK_SECTIONS.items():
        for key, entry in book[section].items():
            ours = bool(entry.get("ours"))
            terms.append(
                Term(
                    en=_english(section, key, entry),
                    fr=_french(section, entry),
                    game="bwg1",
                    page=entry.get("page"),
                    source="ours" if ours else "book",
                    kind=kind + (" (a Gangfight sample: not in the book)" if ours else ""),
                )
            )
    return terms


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
        "translation per term. Made from `rules/data/bwg1_fr.json` and",
        "`rules/data/glossary_fr.json` by `python -m rules.glossary > docs/glossary-fr.md`;",
        "tests/test_french_glossary.py holds the catalogue, the pages and the cards to it.",
        "",
        "A bwg1 term marked *ours* is not in the book: the sample weapons Gangfight ships",
        "(the book's price list is missing from our copy) have French names of ours.",
    ]
    for game, title in GAMES.items():
        rows = [t for t in terms() if t.game == game]
        if not rows:
            continue
        lines += ["", f"## {title}", "", "| English | Français | Page | Kind |"]
        lines.append("|---|---|---|---|")
        for t in rows:
            page = f"p. {t.page}" if t.page else ("ours" if game == "bwg1" else "")
            kind = t.kind or t.where
            lines.append(f"| {t.en} | {t.fr} | {page} | {kind} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
