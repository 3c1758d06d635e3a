"""rules/i18n.py: the engine translates through functions the app installs, and without
them it is English, exactly as before. These tests install their own fake functions (no
Django), and put back whatever was installed before."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from rules import get_system, i18n
from rules.systems import bwg1

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"


@pytest.fixture
def restore():
    """Whatever the app installed (Django's functions, under pytest-django), put back."""
    saved = (i18n._gettext, i18n._ngettext, i18n._pgettext, i18n._language)
    yield
    i18n.install(gettext=saved[0], ngettext=saved[1], pgettext=saved[2], language=saved[3])


def test_without_an_app_the_engine_speaks_english(restore):
    i18n.uninstall()
    assert i18n.gettext("Fame") == "Fame"
    assert i18n._("Fame") == "Fame"
    assert i18n.ngettext("{count} weapon", "{count} weapons", 1) == "{count} weapon"
    assert i18n.ngettext("{count} weapon", "{count} weapons", 0) == "{count} weapons"
    assert i18n.ngettext("{count} weapon", "{count} weapons", 2) == "{count} weapons"
    assert i18n.pgettext("weapon kind", "melee") == "melee"
    assert i18n.gettext_noop("Male") == "Male"
    assert i18n.language() == "en"


def test_installed_functions_are_used_when_a_message_is_built(restore):
    active = {"language": "en"}
    french = {"Fame": "Renommée", "{count} weapon": "{count} arme"}

    def gettext(message: str) -> str:
        return french.get(message, message) if active["language"].startswith("fr") else message

    def ngettext(singular: str, plural: str, n: int) -> str:
        chosen = singular if n <= 1 else plural  # French: 0 and 1 are singular
        return (
            french.get(singular, chosen)
            if n <= 1 and active["language"].startswith("fr")
            else chosen
        )

    i18n.install(gettext=gettext, ngettext=ngettext, language=lambda: active["language"])
    system = get_system("bwg1")
    assert system.total_label == "Fame"
    active["language"] = "fr-ca"
    assert i18n.language() == "fr"  # the base language of a regional variant
    assert system.total_label == "Renommée"  # translated when asked, not at import
    assert i18n.ngettext("{count} weapon", "{count} weapons", 0) == "{count} arme"
    assert i18n.pgettext("weapon kind", "melee") == "melee"  # not installed: unchanged
    active["language"] = "en"
    assert system.total_label == "Fame"


def test_install_keeps_the_functions_not_given(restore):
    i18n.uninstall()
    i18n.install(language=lambda: "fr")
    assert i18n.language() == "fr"
    assert i18n.gettext("Fame") == "Fame"
    i18n.install(language=lambda: None)  # no active language: the default, English
    assert i18n.language() == "en"


def test_bwg1_uses_the_french_books_words_when_french_is_active(restore):
    """Not a translation of ours: the French edition's own terms and texts, from data."""
    i18n.uninstall()
    i18n.install(language=lambda: "fr")
    roster = json.loads((EXAMPLES / "bwg1-legal-dalton-boys.json").read_text("utf-8"))
    report = bwg1.SYSTEM.evaluate(roster)
    labels = {m.type_id: m.type_label for m in report.members.values()}
    assert labels == {
        "leader": "Chef",
        "professional": "Professionnel",
        "henchman": "Homme de main",
    }
    assert bwg1.PROFESSIONS["bounty_hunter"].label == "Chasseur de primes"
    assert bwg1.PROFESSIONS["gambler"].label == "Joueur"
    assert bwg1.attribute_name("sta") == "Endurance"
    assert bwg1.trait_rule("thrown")[0] == "Arme de jet"
    assert "portée" in bwg1.trait_rule("thrown")[1]
    assert bwg1.SKILLS[0].name == "Brute Strength"  # the French book keeps the names
    assert bwg1.SKILLS[0].text.startswith("Au corps à corps")
    assert bwg1.leaders_luck(4).startswith("Une réserve de 4D6")
    assert bwg1.core_rules()[0].text.endswith("4+.")
    weapon = bwg1.Weapon.from_dict({"name": "Bowie knife", "kind": "melee", "level": 3})
    horse = bwg1.Horse.from_dict({"name": "war horse"})
    assert (weapon.name, horse.name) == ("Couteau Bowie", "Cheval de guerre")
    i18n.install(language=lambda: "en")
    assert bwg1.PROFESSIONS["bounty_hunter"].label == "Bounty Hunter"
    assert bwg1.SKILLS[0].text == bwg1.SKILLS[0].text_en
    assert bwg1.Weapon.from_dict({"name": "Couteau Bowie", "level": 3}).name == "Couteau Bowie"


def test_every_french_book_text_has_its_page_and_covers_the_english_data():
    book = json.loads(
        (ROOT / "rules" / "systems" / "bwg1" / "data" / "book_fr.json").read_text("utf-8")
    )
    assert book["language"] == "fr" and "seed 002" in book["source"]
    sections = {
        "member_types": bwg1.MEMBER_TYPES,
        "attributes": bwg1.ATTRIBUTES,
        "professions": bwg1.PROFESSIONS,
        "skills": [s.name for s in bwg1.SKILLS],
        "traits": bwg1.TRAIT_RULES,
        "weapons": [w["name"] for w in bwg1.CONTENT["weapons"]],
        "horses": [h["name"] for h in bwg1.CONTENT["horses"]],
    }
    for section, english in sections.items():
        assert set(book[section]) == set(english), section
        for key, entry in book[section].items():
            assert isinstance(entry["page"], int) and 1 <= entry["page"] <= 35, (section, key)
    for profession in book["professions"].values():
        assert len(profession["rules"]) == 2  # in play, and as the Leader
    for rule in book["core_rules"]:
        assert isinstance(rule["page"], int)
    assert isinstance(book["leaders_luck"]["page"], int)
    assert "{dice}" in book["leaders_luck"]["text"]


def test_systems_say_which_languages_their_books_exist_in():
    from rules.base import text_language

    assert text_language(get_system("bwg1"), "fr") == "fr"
    assert text_language(get_system("rivals"), "fr") == "en"  # no French edition
    assert text_language(get_system("gf26"), "fr") == "en"
    assert text_language(get_system("rivals"), "en") == "en"


def test_messages_are_never_translated_at_import_time():
    """A message built at import time would be stuck in the language active then: every
    translation call in the engine is inside a function (or marked gettext_noop)."""
    calls = {"_", "gettext", "ngettext", "pgettext"}

    def run_at_import(body):
        """The statements run when the module loads: module and class bodies, not the
        bodies of functions (nor their decorators' arguments, which are rare here)."""
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if isinstance(node, ast.ClassDef):
                yield from run_at_import(node.body)
                continue
            yield node

    def calls_run_now(node):
        """The calls in ``node`` made when it runs: not those inside a lambda (a lambda at
        module level is called later, like a function)."""
        stack = [node]
        while stack:
            item = stack.pop()
            if isinstance(item, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if isinstance(item, ast.Call):
                yield item
            stack.extend(ast.iter_child_nodes(item))

    checked = 0
    for path in sorted((ROOT / "rules").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in run_at_import(tree.body):
            checked += 1
            for sub in calls_run_now(node):
                name = getattr(sub.func, "id", None) or getattr(sub.func, "attr", None)
                assert name not in calls, f"{path.name}:{sub.lineno} translates at import"
    assert checked > 100
