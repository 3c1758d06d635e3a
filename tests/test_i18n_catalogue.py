"""The French catalogue covers the whole project (templates, forms, views, mails, the rules
engine): makemessages run on a copy of the tree finds no string the catalogue lacks, and
the catalogue keeps no string the project no longer has; every message is translated,
with the same placeholders as its English. (tests/test_french.py holds the .mo to the .po.)

Update the catalogue with the README's command (“Adding or changing a message”)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command

from tests.test_french import messages, read_po, translations

ROOT = Path(__file__).resolve().parents[1]
#: What makemessages reads: every app, the templates and the engine (not the tests,
#: benchmarks, docs, fixtures or static files: the same --ignore list as the README's).
SOURCES = (
    "accounts",
    "builder",
    "campaigns",
    "common",
    "gangfight_site",
    "notifications",
    "play",
    "rules",
    "templates",
)


def catalogue_path() -> Path:
    """locale/fr/LC_MESSAGES/django.po (of the settings' first locale path)."""
    return Path(django_settings.LOCALE_PATHS[0]) / "fr" / "LC_MESSAGES" / "django.po"


PLACEHOLDERS = re.compile(r"%\(\w+\)[sdir]|\{\w*\}")


def test_makemessages_on_a_copy_of_the_tree_finds_nothing_missing(tmp_path, settings):
    catalogue = messages(read_po(catalogue_path()))
    assert shutil.which("xgettext") and shutil.which("msgmerge"), (
        "makemessages needs GNU gettext: apt-get install gettext"
    )
    for name in SOURCES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        call_command("makemessages", locale=["fr"], verbosity=0)
    extracted = messages(read_po(tmp_path / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    assert len(extracted) > 1500
    missing = sorted(m for _c, m in extracted - catalogue)
    assert missing == [], "new strings: run makemessages, translate them, compilemessages"
    gone = sorted(m for _c, m in catalogue - extracted)
    assert gone == [], "strings no longer in the project: makemessages --no-obsolete"


def test_every_message_is_translated_with_its_placeholders():
    entries = [e for e in read_po(catalogue_path()) if e["msgid"]]
    assert len(entries) > 1500
    problems = []
    for entry in entries:
        french = translations(entry)
        if "fuzzy" in entry["flags"] or not all(french):
            problems.append(("untranslated or fuzzy", entry["msgid"]))
            continue
        if "msgid_plural" in entry:
            pairs = [(entry["msgid"], french[0]), (entry["msgid_plural"], french[1])]
        else:
            pairs = [(entry["msgid"], french[0])]
        for index, (english, text) in enumerate(pairs):
            wanted, got = set(PLACEHOLDERS.findall(english)), set(PLACEHOLDERS.findall(text))
            # a plural's first form may leave the count out ("Votre gang est supprimé.")
            if got != wanted and not (len(pairs) == 2 and index == 0 and got <= wanted):
                problems.append(("placeholders differ", english, text))
    assert problems == []


def test_the_catalogue_is_french_and_plural_aware():
    header = read_po(catalogue_path())[0]
    assert header["msgid"] == ""
    assert "Language: fr\n" in header["msgstr"]
    assert "Plural-Forms: nplurals=2; plural=(n > 1);" in header["msgstr"]


#: Messages whose French is their English, on purpose. Anything else left as its English
#: is a message nobody translated (the page crawls skip such entries, so this check is
#: what finds them): translate it, or add it here with its reason.
SAME_IN_FRENCH = {
    # the same word in French
    **dict.fromkeys(
        [
            "Type",
            "Place",
            "Description",
            "Profession",
            "Professions",
            "Table",
            "Actions",
            "Notes",
            "Note",
            "Points",
            "points",
            "promotion",
            "promotions",
            "Endurance",
            "Faction",
            "Unique",
            "Total",
            "public",
            "Catalogue",
            "Gains",
            "Dates",
            "Code",
            "Source",
            "Traits",
            "Gang",
            "Gangs",
            "Clubs",
            "Packs",
            "action",
            "minute",
            "point",
            "pt",
            "gang",
        ],
        "the same word in French",
    ),
    # names
    **dict.fromkeys(
        ["Gangfight", "· Gangfight", "Tuwa (Brave)", "Qui", "Catalogue · Blackwater Gulch v1.1.2"],
        "a name",
    ),
    # a game's own abbreviations and terms, as its English book prints them (no French
    # edition: rules.base.text_language); bwg1's French terms are data
    # (rules/systems/bwg1/data/book_fr.json)
    **dict.fromkeys(
        [
            "Str",
            "HP",
            "DP",
            "XP",
            "Spd",
            "Sta",
            "Int",
            "RC",
            "MC",
            "MOV",
            "ATT",
            "MRK",
            "DEF",
            "IV",
            "WP",
            "ARM",
            "EN",
            "DAM",
            "CCP",
            "BD",
            "Body",
            "Willpower",
            "Fear",
            "WANTED",
            "Cons.",
            "Act.",
            "pts",
        ],
        "a game's own term, as its English book prints it",
    ),
}
LETTERS = re.compile(r"[A-Za-z]{2,}")


def test_no_message_is_left_in_english_unless_it_is_the_same_in_french():
    """A message whose French equals its English is either listed above with its reason
    or is only placeholders and figures ("%(points)s pts" counts as its words: "pts")."""
    left = []
    for entry in read_po(catalogue_path()):
        english = entry["msgid"]
        if not english or english not in translations(entry):
            continue
        words = PLACEHOLDERS.sub(" ", re.sub(r"%\(\w+\)[sd]|&nbsp;", " ", english))
        if not LETTERS.search(words) or english in SAME_IN_FRENCH:
            continue
        if all(w in SAME_IN_FRENCH for w in LETTERS.findall(words)):
            continue  # "%(points)s pts", "Table %(table)s": words already listed
        left.append(english)
    assert not left, f"left in English (translate, or list in SAME_IN_FRENCH with why): {left}"


def test_the_check_finds_a_message_left_in_english(tmp_path, monkeypatch):
    """The landing page's title left in English is caught."""
    import tests.test_i18n_catalogue as this

    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        'msgid "Build your gang. Print it. Play."\nmsgstr "Build your gang. Print it. Play."\n'
    )
    monkeypatch.setattr(this, "catalogue_path", lambda: po)
    with pytest.raises(AssertionError, match="left in English"):
        test_no_message_is_left_in_english_unless_it_is_the_same_in_french()
