"""The gang sheet PDF: its content, its safety, and the fetcher that guards it."""

from __future__ import annotations

import io
import re

import pytest
from django.conf import settings
from django.urls import reverse
from pypdf import PdfReader

from builder import pdf
from builder.roster import evaluate_gang
from rules.pdf import make_fetcher, render_pdf
from tests.factories import build_gang


def pdf_text(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_download_gang_sheet_has_every_member_name_xp_and_the_fame(owner_client, gang):
    response = owner_client.get(reverse("gang_sheet_pdf", args=[gang.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="the-dalton-boys-sheet.pdf"'
    text = pdf_text(response.content)
    assert "The Dalton Boys" in text
    assert re.search(r"FAME\s*376\b", text)
    for member, figures in evaluate_gang(gang).rows():
        assert member.name in text
        assert str(figures.xp) in text


def test_sheet_lays_out_the_books_fields_and_the_findings(owner, content):
    gang = build_gang(owner)
    henchman = gang.members.order_by("position")[1]
    henchman.data["points"]["qui"] = 0
    henchman.save()  # one point unspent: a warning to print under that member
    text = pdf_text(pdf.gang_sheet(evaluate_gang(gang)))
    for label in ("GANG NAME:", "FAME", "NAME:", "PROFESSION:", "WEAPONS:"):
        assert label in text  # the book's labels, printed in capitals
    for label in ("Str:", "Qui:", "Sta:", "Int:", "RC:", "MC:", "XP:", "HP:", "DP:"):
        assert label in text
    assert "Bounty Hunter" in text and "+1 first Bounty Hunter" in text
    assert "bwg1.points_unspent" in text
    assert "Winchester Repeater (level 5" in text


def test_an_illegal_gang_prints_its_errors(owner, content):
    gang = build_gang(owner, limit=300)
    text = pdf_text(pdf.gang_sheet(evaluate_gang(gang)))
    assert "Not legal" in text
    assert "bwg1.fame_over_limit" in text


def test_a_member_named_like_an_image_tag_prints_as_text_and_fetches_nothing(owner, content):
    gang = build_gang(owner, name="file:///etc/hostname")
    leader = gang.members.order_by("position").first()
    leader.name = '<img src="file:///etc/passwd">'
    leader.save()
    second = gang.members.order_by("position")[1]
    second.name = "http://169.254.169.254/latest/meta-data/"
    second.save()
    fetcher = make_fetcher(settings.PDF_STATIC_DIR)
    text = pdf_text(pdf.gang_sheet(evaluate_gang(gang), fetcher=fetcher))
    assert '<img src="file:///etc/passwd">' in text
    assert "file:///etc/hostname" in text
    assert "http://169.254.169.254/latest/meta-data/" in text
    assert fetcher.refused == []  # escaped text: nothing even tried to fetch it
    assert all(url.startswith(settings.PDF_STATIC_DIR.resolve().as_uri()) for url in fetcher.served)
    assert any(url.endswith(".ttf") for url in fetcher.served)  # fonts come from static/


def test_fetcher_refuses_files_outside_static_and_any_network_url(tmp_path):
    html = """<html><head><link rel="stylesheet" href="http://169.254.169.254/x.css"></head>
    <body><img src="file:///etc/passwd"><img src="../../../../etc/passwd">
    <img src="https://example.com/a.png"><p>hello</p>
    <img src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1'/%3E">
    </body></html>"""
    fetcher = make_fetcher(settings.PDF_STATIC_DIR)
    content = render_pdf(html, settings.PDF_STATIC_DIR, fetcher=fetcher)
    assert content.startswith(b"%PDF")
    assert "hello" in pdf_text(content)
    refused = " ".join(fetcher.refused)
    assert "169.254.169.254" in refused
    assert "/etc/passwd" in refused
    assert "example.com" in refused
    assert fetcher.served == []  # data: is allowed but is not a file


def test_fetcher_serves_our_static_files(tmp_path):
    fetcher = make_fetcher(settings.PDF_STATIC_DIR)
    response = fetcher.fetch((settings.PDF_STATIC_DIR / "pdf" / "sheet.css").resolve().as_uri())
    assert b"@font-face" in response.read()
    response.close()
    with pytest.raises(ValueError, match="only our static files"):
        fetcher.fetch((settings.BASE_DIR / "pyproject.toml").resolve().as_uri())


def test_pdf_for_another_user_is_404_and_anonymous_must_log_in(stranger_client, client, gang):
    url = reverse("gang_sheet_pdf", args=[gang.pk])
    assert stranger_client.get(url).status_code == 404
    assert client.get(url).status_code == 302


def test_when_weasyprint_cannot_load_the_user_gets_a_clear_page(owner_client, gang, monkeypatch):
    def broken(*args, **kwargs):
        raise pdf.PdfUnavailable("cannot load library 'libpango-1.0-0'")

    monkeypatch.setattr(pdf, "gang_sheet", broken)
    response = owner_client.get(reverse("gang_sheet_pdf", args=[gang.pk]))
    assert response.status_code == 503
    body = response.content.decode()
    assert "The PDF can't be made right now" in body and "libpango" in body
