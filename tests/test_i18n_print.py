"""PDFs in the reader's language: cards, sheets, quick references and the campaign
chronicle in French when French is active (the page's language, `render_pdf --lang fr`, a
prerender in the owner's language), with `<html lang>` set for French hyphenation, French
dates, and the language in the PDF cache's key."""

from __future__ import annotations

import datetime
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from builder import printing, tasks
from builder.models import Gang
from builder.printing import documents
from builder.roster import gang_roster, members_with_items
from builder.services import import_gang
from rules.roster import read_roster
from tests.helpers.pdf import pdf_text

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
CHIEFS = EXAMPLES / "bwg1-illegal-too-many-chiefs.json"


@pytest.fixture
def chiefs(owner, content) -> Gang:
    return import_gang(owner, read_roster(CHIEFS.read_bytes()))


def french_client(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(user)
    return client


def test_the_sheet_and_reference_are_french_with_their_html_lang(chiefs):
    roster = gang_roster(chiefs, list(members_with_items(chiefs)))
    printed = printing.prepare(roster)
    paper = printing.PAPERS["a4"]
    with translation.override("fr"):
        sheet = documents.sheet_html(printed, paper)
        reference = documents.reference_html(printing.prepare(roster), paper)
    assert '<html lang="fr">' in sheet and '<html lang="fr">' in reference
    assert "Chef" in sheet and "Homme de main" in sheet
    with translation.override("en-gb"):
        english = documents.sheet_html(printing.prepare(roster), paper)
    assert '<html lang="en-gb">' in english and "Henchman" in english


def test_the_language_is_in_the_pdf_cache_key(chiefs):
    roster = gang_roster(chiefs, list(members_with_items(chiefs)))
    with translation.override("fr"):
        french = printing.cache_key(roster, "cards", paper="a4")
    with translation.override("en-gb"):
        english = printing.cache_key(roster, "cards", paper="a4")
    assert french != english


def test_the_print_menu_gives_french_cards_to_a_french_reader(owner, chiefs):
    client = french_client(owner)
    response = client.get(reverse("gang_print", args=[chiefs.pk]), {"kind": "cards"})
    assert response.status_code == 200, response.content[:300]
    text = pdf_text(response.content)
    assert "Chef" in text and "Big Jim" in text
    english = Client()
    english.force_login(owner)
    response = english.get(reverse("gang_print", args=[chiefs.pk]), {"kind": "cards"})
    assert "Leader" in pdf_text(response.content)


def test_render_pdf_prints_in_the_language_asked(tmp_path):
    out = tmp_path / "cards.pdf"
    call_command("render_pdf", str(CHIEFS), "--kind", "sheet", "--lang", "fr", "-o", str(out))
    french = pdf_text(out.read_bytes())
    assert "Chef" in french and "Homme de main" in french
    call_command("render_pdf", str(CHIEFS), "--kind", "sheet", "-o", str(out))
    english = pdf_text(out.read_bytes())
    assert "Henchman" in english and "Homme de main" not in english


@pytest.mark.parametrize("typed", ["en", "EN", "en_US", "en-gb"])
def test_render_pdf_takes_english_as_a_person_types_it(tmp_path, typed):
    out = tmp_path / "sheet.pdf"
    call_command("render_pdf", str(CHIEFS), "--kind", "sheet", "--lang", typed, "-o", str(out))
    english = pdf_text(out.read_bytes())
    assert "Henchman" in english and "Homme de main" not in english


def test_render_pdf_refuses_a_language_the_site_has_not(tmp_path):
    with pytest.raises(CommandError, match="'xx' is not a language we print in"):
        call_command("render_pdf", str(CHIEFS), "--lang", "xx", "-o", str(tmp_path / "x.pdf"))


def test_the_background_render_is_in_the_owners_language(owner, chiefs, settings):
    settings.SITE_URL = "http://testserver"
    Profile.objects.create(user=owner, language="fr")
    roster = gang_roster(chiefs, list(members_with_items(chiefs)))
    options = tasks.default_options(
        "http://testserver" + reverse("gang_shared", args=[chiefs.share_token])
    )
    assert tasks.prerender_gang(gang_id=chiefs.pk, version=chiefs.version)
    with translation.override("fr"):
        content, cached = printing.cached_pdf(roster, "sheet", **options)
    assert cached, "the French click finds the French PDF made ahead"
    assert "Homme de main" in pdf_text(content)


def test_the_pdf_dates_are_french(chiefs, monkeypatch):
    """The footer's date in the reader's language, on a day whose month name is in no
    game word ("mai" is inside "Homme de main")."""
    from django.utils import timezone

    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: datetime.date(2026, 2, 3))
    roster = gang_roster(chiefs, list(members_with_items(chiefs)))
    for language, day in (("fr", "3 février 2026"), ("en-gb", "3 February 2026")):
        with translation.override(language):
            html = documents.sheet_html(printing.prepare(roster), printing.PAPERS["a4"])
            content = printing.sheet_pdf(roster)
        assert day in html, language
        assert day in " ".join(pdf_text(content).split()), language
    assert "février" not in documents.sheet_html(printing.prepare(roster), printing.PAPERS["a4"])


def test_pdftotext_reads_the_french_terms_off_the_cards(tmp_path):
    """The issue's check, with poppler's pdftotext (apt-get install poppler-utils)."""
    assert shutil.which("pdftotext"), "apt-get install poppler-utils"
    out = tmp_path / "cards.pdf"
    call_command("render_pdf", str(CHIEFS), "--kind", "cards", "--lang", "fr", "-o", str(out))
    text = subprocess.run(
        ["pdftotext", str(out), "-"], check=True, capture_output=True, text=True
    ).stdout
    assert "Chef" in text
    roster = json.loads(CHIEFS.read_text("utf-8"))
    assert all(m["name"] in text for m in roster["members"] if m.get("name"))
