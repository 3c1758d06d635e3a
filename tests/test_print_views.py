"""The Print menu's downloads: who may print, what comes back, the cache and the errors."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from builder import printing
from builder.models import Gang
from builder.printing import documents
from builder.views import printing as print_views
from tests.factories import build_gang
from tests.helpers.pdf import pdf_text


def print_url(gang: Gang, **params) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"{reverse('gang_print', args=[gang.pk])}?{query}"


@pytest.mark.parametrize(
    ("kind", "filename"),
    [
        ("cards", "the-dalton-boys-cards-a4.pdf"),
        ("sheet", "the-dalton-boys-sheet.pdf"),
        ("reference", "the-dalton-boys-reference.pdf"),
    ],
)
def test_the_owner_downloads_each_kind(owner_client, gang, kind, filename):
    response = owner_client.get(print_url(gang, kind=kind, paper="a4"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    text = pdf_text(response.content)
    assert "The Dalton Boys" in text
    for member in gang.members.all():
        assert member.name in text or kind == "reference"


def test_letter_fronts_only_and_a_single_card(owner_client, gang):
    leader = gang.members.order_by("position").first()
    response = owner_client.get(
        print_url(gang, kind="cards", paper="letter", fronts_only="on", member=leader.pk)
    )
    assert response.status_code == 200
    assert (
        response["Content-Disposition"]
        == 'attachment; filename="the-dalton-boys-card-bill-dalton.pdf"'
    )
    pages = PdfReader(io.BytesIO(response.content)).pages
    assert len(pages) == 1
    assert float(pages[0].mediabox.height) == pytest.approx(279.4 * 72 / 25.4, abs=0.05)
    text = pdf_text(response.content)
    assert leader.name in text
    for other in gang.members.exclude(pk=leader.pk):
        assert other.name not in text


def test_the_old_gang_sheet_address_still_gives_the_sheet(owner_client, gang):
    response = owner_client.get(reverse("gang_sheet_pdf", args=[gang.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="the-dalton-boys-sheet.pdf"'


def test_a_stranger_gets_404_and_an_anonymous_visitor_must_log_in(stranger_client, client, gang):
    url = print_url(gang, kind="cards")
    assert stranger_client.get(url).status_code == 404
    assert client.get(url).status_code == 302
    assert stranger_client.get(reverse("gang_sheet_pdf", args=[gang.pk])).status_code == 404


def test_anyone_with_the_share_link_can_print_and_nobody_else(client, gang):
    url = reverse("gang_shared_print", args=[gang.share_token]) + "?kind=sheet&paper=a4"
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert (
        client.get(reverse("gang_shared_print", args=["nope"]) + "?kind=sheet").status_code == 404
    )


def test_the_pdf_carries_a_qr_code_of_the_share_page(owner_client, gang, monkeypatch):
    seen = {}
    real = print_views.cached_pdf

    def spy(roster, kind, **options):
        seen.update(options)
        return real(roster, kind, **options)

    monkeypatch.setattr(print_views, "cached_pdf", spy)
    owner_client.get(print_url(gang, kind="sheet"))
    assert seen["share_url"] == f"http://testserver/s/{gang.share_token}/"


def test_a_bad_choice_comes_back_as_a_clear_page_not_a_pdf(owner_client, gang):
    response = owner_client.get(print_url(gang, kind="poster", paper="a5"))
    assert response.status_code == 400
    body = response.content.decode()
    assert "That can't be printed as asked" in body
    assert "Select a valid choice. poster is not one of the available choices." in body
    assert "a5 is not one of the available choices" in body
    other = build_gang(gang.owner, name="Other")
    response = owner_client.get(print_url(gang, kind="cards", member=other.members.first().pk))
    assert response.status_code == 400


def test_a_second_download_comes_from_the_cache_until_the_gang_changes(
    owner_client, gang, monkeypatch
):
    made = []
    real = documents.print_pdf

    def counting(*args, **kwargs):
        made.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(documents, "print_pdf", counting)
    url = print_url(gang, kind="sheet", paper="a4")
    first = owner_client.get(url).content
    second = owner_client.get(url).content
    assert first == second and made == ["sheet"]
    owner_client.get(print_url(gang, kind="sheet", paper="letter"))
    assert made == ["sheet", "sheet"]  # another paper is another PDF
    member = gang.members.order_by("position").first()
    member.name = "Robert Dalton"
    member.save()
    Gang.objects.filter(pk=gang.pk).update(version=gang.version + 1)
    third = owner_client.get(url).content
    assert len(made) == 3 and "Robert Dalton" in pdf_text(third)


def test_when_weasyprint_cannot_load_the_user_gets_a_clear_page(owner_client, gang, monkeypatch):
    def broken(*args, **kwargs):
        raise printing.PdfUnavailable("WeasyPrint can't load: cannot load library 'libpango-1.0-0'")

    monkeypatch.setattr(documents, "print_pdf", broken)
    response = owner_client.get(print_url(gang, kind="cards"))
    assert response.status_code == 503
    body = response.content.decode()
    assert "The PDF can't be made right now" in body and "libpango" in body
    assert "Your gang is safe" in body


def test_a_render_stopped_after_its_time_says_so(owner_client, gang, settings, monkeypatch):
    import time

    settings.PDF_TIMEOUT_SECONDS = 0.3

    def slow(*args, **kwargs):
        time.sleep(20)

    monkeypatch.setattr(documents, "sheet_pdf", slow)
    response = owner_client.get(print_url(gang, kind="sheet"))
    assert response.status_code == 504
    assert "took longer than 0.3 seconds, so it was stopped" in response.content.decode()


@pytest.mark.parametrize("page", ["gang_detail", "gang_shared"])
def test_the_gang_pages_have_the_print_menu(owner_client, gang, page):
    arg = gang.pk if page == "gang_detail" else gang.share_token
    html = owner_client.get(reverse(page, args=[arg])).content.decode()
    assert 'data-testid="print-menu"' in html
    assert 'name="kind" value="cards"' in html and 'name="paper" value="letter"' in html
    assert 'name="fronts_only"' in html and "Making your PDF" in html
    members = list(gang.members.all())
    if page == "gang_shared":
        for member in members:
            assert f'<option value="{member.pk}">{member.name}</option>' in html
        return
    # In the builder, one member's card is printed from its panel.
    for member in members:
        url = reverse(page, args=[arg])
        html = owner_client.get(url, {"open": member.pk}).content.decode()
        assert f"print/?kind=cards&amp;member={member.pk}" in html
        assert f"Print {member.name}\u2019s card" in html
