"""The bwg1 book's own French words for the glossary (``rules.glossary``): member types,
attributes, statistics, professions, skills, weapon traits, weapon kinds, hands, weapons and
horses, from ``data/book_fr.json`` with the French book's pages."""

from __future__ import annotations

from typing import Any

from rules.glossary import Term
from rules.systems import bwg1

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
    book = bwg1.BOOK_FR
    terms = []
    for section, kind in _BOOK_SECTIONS.items():
        for key, entry in book[section].items():
            ours = bool(entry.get("ours"))
            terms.append(
                Term(
                    en=_english(section, key, entry),
                    fr=_french(section, entry),
                    game=bwg1.SYSTEM.id,
                    page=entry.get("page"),
                    source="ours" if ours else "book",
                    kind=kind + (" (a Gangfight sample: not in the book)" if ours else ""),
                )
            )
    return terms
