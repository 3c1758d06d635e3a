"""The PDFs of a gang (the Print menu, the sheet's old address, the shared page's Print),
and the HTTP side of printing, which the campaigns' print views use too: who a render is
for (``client_of``), the page a PDF that could not be made answers (``pdf_error_page``),
the address printed as the QR code (``share_url``) and the file's name (``filename``).

What goes into a PDF, and its cache, are in ``builder/printing/``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import slugify

from builder import pdf_gate
from builder.forms import PrintForm
from builder.models import Gang
from builder.printing import PdfError, PdfTimeout, PdfTooBig, cached_pdf
from builder.roster import gang_roster, members_with_items
from builder.views.common import get_gang_for_user, login_required
from common import links
from common.throttle import client_address

#: the HTTP helpers other apps' print views use too (campaigns/views.py)
__all__ = ["client_of", "filename", "pdf_error_page", "pdf_error_status", "share_url"]

# --------------------------------------------------------------------------- HTTP helpers


def client_of(request: HttpRequest, what: str = "") -> str:
    """Who asked, for the render gate's one PDF at a time per client and per ``what`` (a
    gang: ``gang:12``): the signed-in user, else the visitor's session (one that exists),
    else, as a last resort, the client's address as the trusted proxies tell it (never the
    proxy's own: common/proxies.py)."""
    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    if user is not None and user.is_authenticated:
        who = f"user:{user.pk}"
    elif session is not None and session.session_key and session.exists(session.session_key):
        who = f"session:{session.session_key}"
    else:
        who = f"address:{client_address(request)}"
    return f"{who}|{what}" if what else who


def share_url(request: HttpRequest, token: str) -> str:
    """The address of a gang's shared page, printed as the QR code on every PDF: made
    from ``SITE_URL`` (required in production), never from the request's Host, which the
    client chooses; without it (development) the request's own address, for this PDF
    alone: nothing a request says is kept for others (common/links.py)."""
    return links.absolute(reverse("gang_shared", args=[token]), request)


def filename(gang_name: str, kind: str, *, paper: str = "a4", member: str = "") -> str:
    stem = slugify(gang_name) or "gang"
    if kind == "cards" and member:
        return f"{stem}-card-{slugify(member) or 'member'}.pdf"
    if kind == "cards":
        return f"{stem}-cards-{paper}.pdf"
    return f"{stem}-{kind}.pdf"


def pdf_error_status(error: PdfError) -> int:
    """The HTTP status a view answers for a PDF that could not be made."""
    if isinstance(error, PdfTimeout):
        return 504
    if isinstance(error, PdfTooBig):
        return 413
    if isinstance(error, pdf_gate.PdfTooMany):
        return 429
    return 503


def pdf_error_page(request: HttpRequest, error: PdfError, **context: Any) -> HttpResponse:
    """The page a view answers when a PDF could not be made: what happened, in words, with
    the status that says it (busy and too many say when to try again)."""
    response = render(
        request,
        "builder/pdf_error.html",
        {**context, "error": error},
        status=pdf_error_status(error),
    )
    retry = getattr(error, "retry_after", None)
    if retry:
        response["Retry-After"] = str(retry)
    return response


# --------------------------------------------------------------------------- PDF views


def _print_response(request: HttpRequest, gang: Gang, data: Any = None) -> HttpResponse:
    """A PDF of the gang as the Print menu asks (cached by what it is made from)."""
    members = list(members_with_items(gang))
    form = PrintForm(
        request.GET if data is None else data, members=[(m.pk, m.name) for m in members]
    )
    back = _gang_page_url(request, gang)
    if not form.is_valid():
        context = {"gang": gang, "form": form, "back": back}
        return render(request, "builder/print_error.html", context, status=400)
    options = form.cleaned_data
    member = options["member"]
    address = share_url(request, gang.share_token)  # SITE_URL's, never the Host's
    try:
        content, _cached = cached_pdf(
            gang_roster(gang, members),
            options["kind"],
            paper=options["paper"],
            fronts_only=options["fronts_only"],
            member_key=member or None,
            share_url=address,
            client=client_of(request, f"gang:{gang.pk}"),
            owner=f"gang:{gang.pk}",  # only the latest version's PDFs are kept
            version=gang.version,
        )
    except PdfError as error:
        return pdf_error_page(request, error, gang=gang, back=back)
    name = next((m.name for m in members if str(m.pk) == member), "") if member else ""
    response = HttpResponse(content, content_type="application/pdf")
    attached = filename(gang.name, options["kind"], paper=options["paper"], member=name)
    response["Content-Disposition"] = f'attachment; filename="{attached}"'
    return response


def _gang_page_url(request: HttpRequest, gang: Gang) -> str:
    if request.user.is_authenticated and request.user.pk == gang.owner_id:
        return reverse("gang_detail", args=[gang.pk])
    return reverse("gang_shared", args=[gang.share_token])


@login_required
def gang_print(request: HttpRequest, gang_id: int) -> HttpResponse:
    return _print_response(request, get_gang_for_user(request.user, gang_id))


def gang_shared_print(request: HttpRequest, token: str) -> HttpResponse:
    return _print_response(request, get_object_or_404(Gang, share_token=token))


@login_required
def gang_sheet_pdf(request: HttpRequest, gang_id: int) -> HttpResponse:
    """The gang sheet on A4: the address of the first Print button, kept working."""
    gang = get_gang_for_user(request.user, gang_id)
    return _print_response(request, gang, {"kind": "sheet", "paper": "a4"})


def gang_shared_pdf(request: HttpRequest, token: str) -> HttpResponse:
    gang = get_object_or_404(Gang, share_token=token)
    return _print_response(request, gang, {"kind": "sheet", "paper": "a4"})
