"""French: the catalogue (locale/fr) is complete, compiled and up to date with the engine's
messages, and the engine speaks French under Django's active language, with the bwg1 terms
of the French rulebook (seed 002); English is unchanged.

The makemessages test needs GNU gettext (xgettext, msgmerge: Debian's `gettext` package),
as Django's makemessages does. Update the catalogue with the README's commands ("Adding or
changing a message"): they leave out tests/, .venv*, mutants/ (a mutation run's copies of
rules/, with mutated strings) and the other folders that hold no message of the site's.
"""

from __future__ import annotations

import ast
import gettext
import json
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation

from rules import get_system
from rules.systems import bwg1

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
COMPILED = CATALOGUE.with_suffix(".mo")
EXAMPLES = ROOT / "docs" / "examples"
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file: flags, msgctxt, msgid, msgid_plural, msgstr(s)."""
    entries = []
    for block in path.read_text("utf-8").strip().split("\n\n"):
        entry: dict = {"flags": set()}
        key = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] |= {f.strip() for f in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                entry[key] += ast.literal_eval(line)
            else:
                key, _, value = line.partition(" ")
                entry[key] = ast.literal_eval(value)
        if "msgid" in entry:
            entries.append(entry)
    return entries


def messages(entries: list[dict]) -> set[tuple[str | None, str]]:
    return {(e.get("msgctxt"), e["msgid"]) for e in entries if e["msgid"]}


def translations(entry: dict) -> list[str]:
    if "msgid_plural" in entry:
        return [entry[k] for k in sorted(entry) if k.startswith("msgstr[")]
    return [entry["msgstr"]]


def evaluate(name: str, language: str):
    roster = json.loads((EXAMPLES / name).read_text("utf-8"))
    with translation.override(language):
        report = get_system(roster["system"]).evaluate(roster)
        # Everything a page shows is built under the language too.
        members = [(m.summary, m.stats, m.notes) for m in report.members.values()]
        return report, members, report.gang["facts"], report.total_label


def test_the_french_catalogue_is_complete_with_no_fuzzy_entry():
    entries = read_po(CATALOGUE)
    header = entries[0]
    assert header["msgid"] == "" and "Language: fr" in header["msgstr"]
    assert "nplurals=2; plural=(n > 1);" in header["msgstr"]
    assert len(entries) > 100
    for entry in entries:
        assert "fuzzy" not in entry["flags"], entry["msgid"]
        if not entry["msgid"]:
            continue
        wanted = set(PLACEHOLDER.findall(entry["msgid"] + entry.get("msgid_plural", "")))
        forms = translations(entry)
        assert len(forms) == (2 if "msgid_plural" in entry else 1)
        for text in forms:
            assert text.strip(), f"not translated: {entry['msgid']!r}"
            # The same named placeholders: a missing or misspelt one would lose a figure
            # or raise KeyError when the message is built.
            found = set(PLACEHOLDER.findall(text))
            assert found <= wanted and (found == wanted or "msgid_plural" in entry), (
                entry["msgid"],
                text,
            )


def test_the_compiled_catalogue_matches_the_po_file():
    """locale/fr/LC_MESSAGES/django.mo is committed (no gettext tools needed to run the
    app); it must be the compiled django.po: `manage.py compilemessages -l fr
    --ignore=.venv` after every change to it."""
    with COMPILED.open("rb") as f:
        compiled = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    expected = {}
    for entry in read_po(CATALOGUE):
        if not entry["msgid"]:
            continue
        key = entry["msgid"]
        if "msgctxt" in entry:
            key = f"{entry['msgctxt']}\x04{key}"
        if "msgid_plural" in entry:
            for n, text in enumerate(translations(entry)):
                expected[(key, n)] = text
        else:
            expected[key] = entry["msgstr"]
    compiled = {k: v for k, v in compiled.items() if k != ""}
    assert compiled == expected


def test_makemessages_finds_no_engine_string_missing_from_the_catalogue(tmp_path, settings):
    """Run makemessages on a copy of rules/ (the engine's messages): every string it
    extracts is in the French catalogue, and the catalogue has no message it doesn't."""
    assert shutil.which("xgettext") and shutil.which("msgmerge"), (
        "makemessages needs GNU gettext: apt-get install gettext"
    )
    shutil.copytree(
        ROOT / "rules", tmp_path / "rules", ignore=shutil.ignore_patterns("__pycache__")
    )
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        call_command("makemessages", locale=["fr"], verbosity=0)
    extracted = messages(read_po(tmp_path / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    catalogue = messages(read_po(CATALOGUE))
    assert len(extracted) > 100
    assert extracted - catalogue == set(), "new engine strings: run makemessages, translate"
    # The catalogue holds the whole project's messages, not only the engine's: that none
    # is stale is checked on a copy of the whole tree (tests/test_i18n_catalogue.py).


def test_bwg1_findings_in_french_with_the_books_terms():
    report, members, facts, total = evaluate("bwg1-illegal-too-many-chiefs.json", "fr")
    by_code = {f.code: f.message for f in report.findings}
    assert by_code["bwg1.too_many_leaders"] == (
        "Slick Sam est un second Chef, et un gang en a exactement un (le premier est Big "
        "Jim)\u00a0: faites de ce membre un Professionnel ou un Homme de main."
    )
    assert by_code["bwg1.weapons_over_strength"] == (
        "Porte 3 armes mais Str 2 n'en permet que 2\u00a0: montez Str à 3 ou retirez 1 arme."
    )
    assert by_code["bwg1.points_overspent"] == (
        "11 points dépensés sur les 10 points d'attribut d'un Homme de main\u00a0: retirez 1 point."
    )
    assert "Chasseur de primes, Joueur, Prospecteur, Docteur" in by_code["bwg1.profession_missing"]
    assert by_code["bwg1.fame_over_limit"].startswith("La Renommée 498 dépasse de 98")
    # Codes never change with the language.
    english, *_ = evaluate("bwg1-illegal-too-many-chiefs.json", "en")
    assert report.codes() == english.codes()
    # The member's line, stats and notes: the book's words (the French edition keeps the
    # English abbreviations: Str, Qui, RC, MC, XP, HP, DP).
    summary, stats, notes = members[0]
    assert summary == "Chef · Gunslinger"
    assert [label for label, _ in stats] == [
        "Str",
        "Qui",
        "Sta",
        "Int",
        "RC",
        "MC",
        "XP",
        "HP",
        "DP",
    ]
    assert "Premier Gunslinger recruté\u00a0: +1 RC" in notes
    assert "Couteau Bowie (niveau 3, corps à corps)" in notes
    assert "Cheval\u00a0: Cheval de guerre (80 XP)" in notes
    assert facts[0] == ("Chef", "Big Jim")
    assert ("Hommes de main", "1") in facts
    assert total == "Renommée"


def test_bwg1_cards_and_quick_reference_in_french():
    roster = json.loads((EXAMPLES / "bwg1-legal-dalton-boys.json").read_text("utf-8"))
    system = get_system("bwg1")
    with translation.override("fr"):
        report = system.evaluate(roster)
        cards = system.print_cards(roster, report)
        reference = system.quick_reference(roster, report)
        sheet = system.print_sheet(roster, report)
    leader = cards[0]
    assert leader.kind.startswith("Chef")
    titles = [s.title for s in leader.sections]
    assert titles[:2] == ["L'essentiel", "Profession"]
    assert "Chef" in titles and "Compétences" in titles
    assert [t.label for t in leader.tracks] == ["Santé", "Chance du chef"]
    texts = " ".join(e.text for s in reference for e in s.entries)
    assert "Une réserve de" in texts  # the Leader's Luck, in the book's words
    assert "Règles de base" in [s.title for s in reference]
    assert "Chef" in sheet["make_up"] and "Hommes de main" in sheet["make_up"]


def test_rivals_findings_in_french_with_their_placeholders_filled():
    report, members, facts, total = evaluate("rivals-illegal-bad-choices.json", "fr")
    messages_fr = [f.message for f in report.findings]
    english, *_ = evaluate("rivals-illegal-bad-choices.json", "en")
    assert report.codes() == english.codes()
    assert all("{" not in m and "}" not in m for m in messages_fr)
    assert messages_fr != [f.message for f in english.findings]
    # Each French message is the translation of its English one, figures filled the same.
    for fr, en in zip(report.findings, english.findings, strict=True):
        assert re.findall(r"\d+", fr.message) == re.findall(r"\d+", en.message), fr.code
    by_code = {f.code: f.message for f in report.findings}
    assert by_code["rivals.too_many_outlaws"] == (
        "Le gang compte 7 hors-la-loi\u00a0; un gang en compte de 4 à 6\u00a0: retirez-en 1."
    )
    assert by_code["rivals.no_leader"].startswith("Aucun hors-la-loi n'est le chef du gang")
    assert total == "CCP"
    assert facts[0][0] == "Hors-la-loi"
    assert any(" · " in s and ("Homme" in s or "Femme" in s or "Genre" in s) for s, *_ in members)


def test_rivals_messages_in_french():
    roster = {
        "system": "rivals",
        "name": "",
        "members": [{"key": "1", "name": "Ann", "data": {"gender": "female", "hand": "left"}}],
    }
    with translation.override("fr"):
        report = get_system("rivals").evaluate(roster)
        summary = report.members["1"].summary  # built when asked, in the active language
    by_code = {f.code: f.message for f in report.findings}
    assert by_code["rivals.too_few_outlaws"].startswith("Le gang compte 1 hors-la-loi")
    assert by_code["rivals.no_pack"].startswith("Ann n'a pas de paquetage d'équipement")
    assert summary == "Femme · Gaucher · 0 CCP"
    assert report.members["1"].summary == "Female · Left-handed · 0 CCP"


def test_rivals_campaign_messages_agree_with_the_outlaw_in_french():
    """Where English says his, her or their, each is its own message: French needs none."""
    data = {
        "gender": "female",
        "hand": "right",
        "tiers": dict.fromkeys(("toughness", "handgun", "rifle", "shotgun", "brawl", "riding"), 0),
        "pack": "A",
        "ccp_spent": 9,
    }
    roster = {"system": "rivals", "members": [{"key": "1", "name": "Ann", "data": data}]}
    system = get_system("rivals")
    english = system.evaluate(roster).findings_for("1")
    with translation.override("fr"):
        french = system.evaluate(roster).findings_for("1")
    spent = {f.code: f.message for f in english}["rivals.ccp_spent_too_high"]
    assert "but her tiers" in spent
    assert {f.code: f.message for f in french}["rivals.ccp_spent_too_high"] == (
        "Ann a 9 CCP dépensés en campagne, mais ses paliers et compétences spéciales "
        "coûtent 0 CCP en tout\u00a0: ramenez les CCP dépensés en campagne à 0 ou moins, ou "
        "notez les paliers supérieurs et les compétences supplémentaires qu'ils ont payés."
    )


def test_english_is_unchanged_and_the_default():
    report, members, _facts, total = evaluate("bwg1-illegal-too-many-chiefs.json", "en")
    by_code = {f.code: f.message for f in report.findings}
    assert by_code["bwg1.too_many_leaders"] == (
        "Slick Sam is a second Leader, and a gang has exactly one (the first is Big Jim): "
        "make this member a Professional or a Henchman."
    )
    assert members[0][0] == "Leader · Gunslinger" and total == "Fame"
    # No language activated: the default (LANGUAGE_CODE en-gb) is English too.
    plain = bwg1.SYSTEM.evaluate(
        json.loads((EXAMPLES / "bwg1-illegal-too-many-chiefs.json").read_text())
    )
    assert [f.message for f in plain.findings] == [f.message for f in report.findings]


def test_the_french_terms_are_the_french_rulebooks():
    """The French edition's terms (seed 002, checked against its text: the member types
    p. 12, attributes p. 10, professions pp. 13-15, weapon traits pp. 30-31, horses p. 32;
    it keeps the English skill names)."""
    with translation.override("fr"):
        types = [t.label for t in bwg1.MEMBER_TYPES.values()]
        professions = [p.label for p in bwg1.PROFESSIONS.values()]
        attributes = [bwg1.attribute_name(a) for a in bwg1.ATTRIBUTES]
        traits = [bwg1.trait_rule(t)[0] for t in bwg1.TRAIT_RULES if t != "melee-str"]
        horses = [bwg1.Horse.from_dict({"name": h["name"]}).name for h in bwg1.CONTENT["horses"]]
        skills = [s.name for s in bwg1.SKILLS]
    assert types == ["Chef", "Professionnel", "Homme de main"]
    assert professions == [
        "Chasseur de primes",
        "Joueur",
        "Prospecteur",
        "Docteur",
        "Wrassler",
        "Gunslinger",
    ]
    assert attributes == [
        "Force",
        "Rapidité",
        "Endurance",
        "Intelligence",
        "Combat à distance",
        "Combat en corps à corps",
    ]
    assert traits == [
        "Pistolet",
        "Canon long",
        "Fusil de chasse",
        "Fusil à répétition",
        "Arme de jet",
        "Parer",
        "Explosif",
        "Enflammé",
    ]
    assert horses == ["Mule", "Petit cheval", "Grand cheval", "Cheval de guerre"]
    assert skills[:4] == ["Brute Strength", "Strong Arms", "Bravery", "Duck & Cover"]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_every_example_evaluates_and_prints_in_french(path):
    """Every system, every shipped example: the findings are French (same codes, every
    placeholder filled), and the cards, sheet and quick reference build in French."""
    roster = json.loads(path.read_text("utf-8"))
    system = get_system(roster["system"])
    english = system.evaluate(roster)
    with translation.override("fr"):
        report = system.evaluate(roster)
        cards = system.print_cards(roster, report)
        system.print_sheet(roster, report)
        system.quick_reference(roster, report)
        summaries = [m.summary for m in report.members.values()]
        notes = [n for m in report.members.values() for n in m.notes]
    assert report.codes() == english.codes()
    assert report.total == english.total
    assert len(cards) == len(english.members)
    for finding in report.findings:
        assert not PLACEHOLDER.search(finding.message), finding.message
    for text in [*summaries, *notes]:
        assert not PLACEHOLDER.search(text), text
    if english.findings:  # translated, not English with French figures
        assert [f.message for f in report.findings] != [f.message for f in english.findings]


@pytest.mark.django_db
def test_the_builder_page_shows_the_engine_in_french(owner, owner_client, content):
    """Under the French cookie the builder page is 200 and its findings, member lines and
    total are the engine's French (the rest of the page is the interface's business)."""
    from django.conf import settings
    from django.urls import reverse

    from tests.factories import build_gang

    gang = build_gang(owner, size=4)
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = owner_client.get(reverse("gang_detail", args=[gang.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Le gang compte 4 membres" in page
    assert "Chef · Chasseur de primes" in page
    assert "Renommée" in page
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en-gb"
    page = owner_client.get(reverse("gang_detail", args=[gang.pk])).content.decode()
    assert "The gang has 4 members" in page and "Leader · Bounty Hunter" in page
