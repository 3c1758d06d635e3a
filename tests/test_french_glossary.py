"""The French glossary (rules/glossary.py: rules/systems/bwg1/data/book_fr.json and
glossary_fr.json; docs/glossary-fr.md) holds: one English game term has one French
translation in the catalogue; every shipped bwg1 weapon and horse has its French name;
and a French bwg1 player's pages and cards use the glossary's French, never the English
term it replaces.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from builder import printing
from builder.models import Item
from builder.roster import gang_roster, members_with_items
from builder.services import import_gang
from rules import glossary
from rules.roster import read_roster
from rules.systems import bwg1
from tests.helpers.english import squeezed
from tests.helpers.pdf import pdf_words
from tests.helpers.users import client_for, make_user
from tests.test_french import read_po, translations
from tests.test_i18n_pages import read

ROOT = Path(settings.BASE_DIR)
CATALOGUE = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|\{[^{}]*\}")
DALTONS = ROOT / "docs" / "examples" / "bwg1-legal-dalton-boys.json"
CHIEFS = ROOT / "docs" / "examples" / "bwg1-illegal-too-many-chiefs.json"


# --------------------------------------------------------------------------- the glossary


def test_the_glossary_doc_is_made_from_the_data():
    made = glossary.markdown()
    assert (ROOT / "docs" / "glossary-fr.md").read_text("utf-8") == made, (
        "python -m rules.glossary > docs/glossary-fr.md"
    )


def test_every_term_has_both_languages_and_bwg1_book_terms_their_page():
    terms = glossary.terms()
    assert len(terms) > 100
    for term in terms:
        assert term.en.strip() and term.fr.strip(), term
        if term.game == "bwg1" and term.source == "book":
            assert isinstance(term.page, int) and 5 <= term.page <= 34, term
    english = [(t.game, t.en) for t in terms]
    assert len(english) == len(set(english)), "a term is listed twice"


def test_one_english_term_has_one_french_translation_in_the_catalogue():
    """Every message whose English uses a glossary term (its ``check``) says it with the
    glossary's French: no "rang" for a tier, "lot" for an equipment pack, "Minion" for a
    Sbire, "Infos vitales" for L'essentiel..."""
    entries = [e for e in read_po(CATALOGUE) if e["msgid"]]
    checked = [t for t in glossary.terms() if t.check]
    assert len(checked) >= 40
    wrong = []
    for term in checked:
        english = re.compile(term.check["en"], re.I)
        french = re.compile(term.check["fr"], re.I)
        matched = 0
        for entry in entries:
            pairs = [(entry["msgid"], translations(entry)[0])]
            if "msgid_plural" in entry:
                pairs.append((entry["msgid_plural"], translations(entry)[-1]))
            for msgid, msgstr in pairs:
                if msgid in term.exceptions or not english.search(PLACEHOLDERS.sub(" ", msgid)):
                    continue
                matched += 1
                if not french.search(msgstr):
                    wrong.append(f"{term.en} → {term.fr}: {msgid!r} is {msgstr!r}")
        assert matched, f"the check of {term.en!r} matches no message: is it right?"
    assert not wrong, "\n".join(wrong)


def test_the_consistency_check_finds_a_second_translation():
    """ "tier" translated "rang" in one message is found."""
    term = next(t for t in glossary.terms() if t.en.startswith("tier"))
    english, french = re.compile(term.check["en"], re.I), re.compile(term.check["fr"], re.I)
    assert english.search("Save tiers") and not french.search("Enregistrer les rangs")
    assert french.search("Enregistrer les paliers")


# --------------------------------------------------------------------------- fixtures


def test_every_shipped_bwg1_weapon_and_horse_has_its_french_name():
    fixture = json.loads((ROOT / "fixtures" / "bwg1_content.json").read_text("utf-8"))
    names = {t.en: t for t in glossary.book_terms() if t.kind.startswith(("weapon", "horse"))}
    for row in fixture:
        fields = row["fields"]
        term = names.get(fields["name"])
        assert term is not None, f"{fields['name']} has no French name in the glossary"
        assert term.source == ("ours" if fields["is_sample"] else "book"), fields["name"]
        section = "horses" if fields["category"] == "horse" else "weapons"
        with translation.override("fr"):
            assert bwg1.item_name(fields["name"], section) == term.fr
        with translation.override("en"):
            assert bwg1.item_name(fields["name"], section) == fields["name"]


def test_the_catalogue_page_shows_shipped_items_by_their_french_names(db, content):
    user = make_user("fabienne")
    client = client_for(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    text = " ".join(read(client.get(reverse("weapon_list")).content.decode()).texts)
    for item in Item.objects.filter(system="bwg1", owner__isnull=True):
        with translation.override("fr"):
            french = item.shown_name
        assert french in text, french
        if french != item.name:
            assert not re.search(rf"\b{re.escape(item.name)}\b", text), item.name


# --------------------------------------------------------------------------- pages and cards


def bwg1_english_terms() -> dict[str, str]:
    """{English: French} of the bwg1 book's words (and every game's) whose English is not
    French too nor kept by the book ("Gunslinger", the skills, the abbreviations)."""
    found = {}
    for term in glossary.terms():
        if term.game not in ("bwg1", "all"):
            continue
        english = re.sub(r" \(.*\)$", "", term.en)
        french = re.sub(r" \(.*\)$", "", term.fr)
        if english.casefold() == french.casefold() or term.kind == "skill":
            continue
        found[english] = french
    return found


@pytest.fixture
def daltons(db, content):
    user = make_user("fabienne")
    gangs = [import_gang(user, read_roster(p.read_bytes())) for p in (DALTONS, CHIEFS)]
    client = client_for(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    return user, gangs, client


def french_pages(gangs, client) -> dict[str, str]:
    urls = [reverse("weapon_list"), reverse("library", args=["bwg1"])]
    for gang in gangs:
        urls.append(reverse("gang_detail", args=[gang.pk]))
        urls += [
            f"{reverse('gang_detail', args=[gang.pk])}?open={m.pk}" for m in gang.members.all()
        ]
        urls.append(reverse("gang_shared", args=[gang.share_token]))
    pages = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        pages[url] = squeezed(" \n ".join(read(response.content.decode()).texts))
    return pages


def french_cards(gangs) -> dict[str, str]:
    made = {}
    for gang in gangs:
        roster = gang_roster(gang, list(members_with_items(gang)))
        with translation.override("fr"):
            made[f"{gang.name} cards"] = pdf_words(printing.cards_pdf(roster, parallel=False))
            made[f"{gang.name} reference"] = pdf_words(printing.reference_pdf(roster))
            made[f"{gang.name} sheet"] = pdf_words(printing.sheet_pdf(roster))
    return made


def test_a_french_bwg1_player_reads_the_glossary_french_never_the_english(daltons):
    """On the builder (every member open), the shared page, the library and the catalogue
    and on the cards, sheet and quick reference in French: no English term the glossary
    gives in French; and the French of the terms the gangs use is there."""
    _user, gangs, client = daltons
    texts = french_pages(gangs, client) | french_cards(gangs)
    terms = bwg1_english_terms()
    assert len(terms) > 40
    # the book's own names that hold an English word: "Repeater Winchester" (p. 12)
    names = [t.fr for t in glossary.book_terms() if t.kind in ("weapon", "horse")]
    found = {}
    for where, text in texts.items():
        for name in names:
            text = text.replace(name, " ")
        for english in terms:
            if re.search(rf"(?<!\w){re.escape(english)}(?!\w)", text):
                found.setdefault(where, []).append(english)
    assert not found, found
    everything = "\n".join(texts.values())
    used = ["Chef", "Homme de main", "Professionnel", "Docteur", "Gunslinger", "Couteau Bowie",
            "Remington Army Revolver", "Repeater Winchester", "Mule", "Cheval de guerre",
            "Pistolet", "Fusil à répétition", "à distance", "corps à corps", "à une main",
            "à deux mains", "niveau", "Renommée", "Magasin général", "Chance du chef",
            "nombre cible", "Petit cheval", "Fusil Sharps", "Couteau de lancer",
            "Sabre de cavalerie", "Parer", "Enflammé", "Arme de jet", "Canon long",
            "Fusil de chasse"]  # fmt: skip
    missing = [w for w in used if w not in everything]
    assert not missing, missing
