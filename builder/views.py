"""The gang builder's views: read the request, call one service, render.

Every gang URL goes through ``_get_gang_for_user``, which starts from the user, so a
stranger's gang is a 404. An htmx request gets the ``#builder`` fragment of the same
template; a plain form post is redirected back to the page (or, when the form is
invalid, gets the whole page with the errors beside the field, status 200).
"""

from __future__ import annotations

import json
import re
from functools import cache as cache_function
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db.models import Count, Prefetch, ProtectedError, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from builder import printing, services
from builder.editors import Catalogue, get_editor
from builder.editors.bwg1 import WeaponForm
from builder.forms import (
    GangCreateForm,
    GangSettingsForm,
    PackForm,
    PackImportForm,
    PacksForm,
    PrintForm,
    RosterImportForm,
)
from builder.models import ContentPack, Gang, Item, Member, MemberItem
from builder.packs import PackFileError, pack_schema, write_pack
from builder.roster import evaluate_gang, gang_roster, members_with_items
from builder.rows import parse_known, row_html
from builder.templatetags.builder_fields import Ledger
from rules import all_systems, get_system
from rules.roster import RosterFileError, write_roster


def login_required(view):
    """Django's ``login_required``, made right for the builder.

    An htmx request from someone logged out (say, a session expired) is sent to the
    login page with ``HX-Redirect`` instead of getting the login page swapped into the
    builder; and after a POST the user comes back to the gang's page, not to a URL that
    only takes POST.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.method in ("GET", "HEAD"):
            back = request.get_full_path()
        elif "gang_id" in kwargs:
            back = reverse("gang_detail", args=[kwargs["gang_id"]])
        else:
            back = request.path
        url = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': back})}"
        if request.htmx:
            return HttpResponseClientRedirect(url)
        return redirect(url)

    return wrapper


def post_only(view):
    """A builder action: POST does it; a GET (a reload, a typed URL) goes to the page."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST":
            return view(request, *args, **kwargs)
        if request.method in ("GET", "HEAD") and "gang_id" in kwargs:
            url = reverse("gang_detail", args=[kwargs["gang_id"]])
            if "member_id" in kwargs:
                url += f"?open={kwargs['member_id']}#member-{kwargs['member_id']}"
            return redirect(url)
        return HttpResponseNotAllowed(["POST"])

    return wrapper


PAGE_METHODS = ["GET", "HEAD", "POST"]


def _get_gang_for_user(user, gang_id: int) -> Gang:
    """The user's own gang, or 404: nobody else's gang is ever found."""
    return get_object_or_404(user.gangs.all(), pk=gang_id)


# --------------------------------------------------------------------------- the builder


def _open_id(request: HttpRequest) -> int | None:
    """The member whose panel is open: ``?open=<id>`` on the page; ``open`` in a post
    (or the page's ``X-Builder-Open`` header when the form has no such field)."""
    raw = request.POST.get("open") if request.method == "POST" else None
    raw = raw if raw is not None else request.GET.get("open")
    if raw is None and request.method == "POST":
        raw = request.headers.get("X-Builder-Open")
    try:
        return int(raw) if raw else None
    except ValueError:
        return None


def _rows(editor, evaluated) -> list[dict[str, Any]]:
    rows = []
    for member, figures in evaluated.rows():
        row = {"member": member, "r": figures, **editor.row(member, figures)}
        row["findings"] = len(figures.findings)
        rows.append(row)
    return rows


def _row_keys(rows: list[dict[str, Any]], open_id: int | None) -> dict[int, tuple]:
    """What each row shows (its HTML is drawn from exactly this), to tell a changed row."""
    return {
        row["member"].pk: (
            n,
            row["member"].name,
            row["kind"],
            tuple(row["stats"]),
            row["r"].cost,
            row["findings"],
            row["r"].has_errors,
            row["member"].pk == open_id,
        )
        for n, row in enumerate(rows, start=1)
    }


#: The gang action that undoes a removal (no editor has an action of that name).
RESTORE = "restore"
#: Where the session keeps each gang's last removal (``services.remove_member``), for Undo.
REMOVED_KEY = "builder-removed"


def _removal(request: HttpRequest, gang: Gang) -> dict[str, Any] | None:
    """The member last removed from the gang in this session, if it can still come back."""
    removed = (request.session.get(REMOVED_KEY) or {}).get(str(gang.pk))
    return removed if isinstance(removed, dict) else None


def _remember_removal(request: HttpRequest, gang: Gang, removed: dict[str, Any]) -> None:
    """Keep a removal for Undo (the last one of each gang, a few gangs at most); the gang's
    version says until when the page offers it."""
    others = {
        k: v for k, v in (request.session.get(REMOVED_KEY) or {}).items() if k != str(gang.pk)
    }
    request.session[REMOVED_KEY] = {
        **dict(list(others.items())[-4:]),
        str(gang.pk): {**removed, "version": gang.version},
    }


def _forget_removal(request: HttpRequest, gang: Gang) -> None:
    removals = dict(request.session.get(REMOVED_KEY) or {})
    if removals.pop(str(gang.pk), None) is not None:
        request.session[REMOVED_KEY] = removals


def _undo_notice(request: HttpRequest, gang: Gang, rows: list[dict[str, Any]]) -> dict | None:
    """The Undo of a removal, shown in the roster where the member was until the gang
    changes again; ``rows`` are marked with where it goes."""
    removed = _removal(request, gang)
    if removed is None or removed.get("version") != gang.version:
        return None
    undo = {
        "name": removed.get("name") or "",
        "pk": removed["pk"],
        "url": reverse("gang_action", args=[gang.pk, RESTORE]),
        "at_end": True,
    }
    index = removed.get("index")
    if isinstance(index, int) and 0 <= index < len(rows):
        rows[index]["undo_before"] = True
        undo["at_end"] = False
    return undo


def _builder_context(
    request: HttpRequest,
    gang: Gang,
    *,
    open_id: int | None = None,
    failed: Any = None,
    before: tuple[int, Any] | None = None,
    catalogue: Catalogue | None = None,
    settings_form: GangSettingsForm | None = None,
    packs_form: PacksForm | None = None,
    focus: str = "",
) -> dict[str, Any]:
    """The builder page: the summary, the compact roster, one open member's panel.

    Only the open member's forms are built, so the page costs the same for 1 or 50
    members. ``failed`` is a bound, invalid action form: it replaces the fresh one of the
    same action (and member), so the player's input and the errors beside it come back.
    For htmx, a row the page already shows as it is comes as a placeholder: ``before`` is
    (version, evaluated gang) as a change found them; without it, the gang as it is now.
    """
    editor = get_editor(gang.system)
    evaluated = evaluate_gang(gang)
    catalogue = catalogue or Catalogue.for_gang(gang)
    if failed is not None and failed.member is not None:
        open_id = failed.member.pk
    page_url = reverse("gang_detail", args=[gang.pk])
    rows = _rows(editor, evaluated)
    keys = _row_keys(rows, open_id)
    known: dict[int, tuple] = {}
    if request.htmx and not request.htmx.history_restore_request:
        shown_version, shown_open = parse_known(request)
        start_version, start = before if before is not None else (gang.version, None)
        if shown_version is not None and shown_version == start_version:
            known = _row_keys(rows if start is None else _rows(editor, start), shown_open)
    open_row = None
    for position, row in enumerate(rows, start=1):
        member, figures = row["member"], row["r"]
        pk = member.pk
        row["keep"] = known.get(pk) == keys[pk]
        if not row["keep"]:
            row["html"] = row_html(row, position, page_url, pk == open_id)
        if pk == open_id:
            forms = editor.member_forms(gang, member, figures, catalogue)
            if failed is not None and failed.member is not None:
                forms[failed.action] = failed
            row["forms"] = forms
            row["open"] = True
            row.update(editor.panel_context(member, figures))
            open_row = row
    if rows:
        rows[0]["first"] = rows[-1]["last"] = True
    undo = _undo_notice(request, gang, rows)
    gang_forms = editor.gang_forms(gang, catalogue, evaluated.report)
    if failed is not None and failed.member is None:
        gang_forms[failed.action] = failed
    return {
        "gang": gang,
        "system": evaluated.system,
        "editor": editor,
        "report": evaluated.report,
        "evaluated": evaluated,
        "rows": rows,
        "roster_items": len(rows) + (1 if undo else 0),
        "undo": undo,
        # What gets the focus when the answer takes away the control that had it.
        "focus_id": focus,
        "open_row": open_row,
        "open_id": open_row["member"].pk if open_row else "",
        "page_url": page_url,
        "gang_forms": gang_forms,
        "catalogue": catalogue,
        "all_good": editor.all_good(evaluated),
        "settings_form": settings_form or GangSettingsForm.for_gang(gang),
        "packs_form": packs_form or PacksForm(gang=gang),
        "share_url": _share_url(request, gang),
        **editor.extra_context(evaluated, catalogue),
    }


_INDENT = re.compile(r"\n\s+")
_VERBATIM = re.compile(r"(<textarea\b.*?</textarea>|<pre\b.*?</pre>)", re.S)


_CSRF_FIELD = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')


def _compact(html: str) -> str:
    """An htmx answer without the templates' indentation (a quarter of its bytes) and
    without a CSRF field in every form (htmx sends the token in a header, from
    ``hx-headers`` on the page's body); the text of textareas and pre blocks is kept."""
    parts = _VERBATIM.split(html)
    return "".join(
        p if i % 2 else _CSRF_FIELD.sub("", _INDENT.sub("\n", p)) for i, p in enumerate(parts)
    )


PARTS_SECONDS = 3600


def _parts_key(gang_id: int, version: int, open_id: Any) -> str:
    # The parts' digests hold their words: a page drawn in another language shows none as is.
    return f"builder-parts:{gang_id}:{version}:{open_id or ''}:{get_language()}"


def _shown_parts(request: HttpRequest, gang: Gang) -> dict[str, str]:
    """What the page that asked shows of each {% keep %} part (its digests), if known."""
    if not request.htmx or request.htmx.history_restore_request:
        return {}
    shown_version, shown_open = parse_known(request)
    if shown_version is None:
        return {}
    return cache.get(_parts_key(gang.pk, shown_version, shown_open)) or {}


def _page_url(gang: Gang, open_id: int | None) -> str:
    url = reverse("gang_detail", args=[gang.pk])
    return f"{url}?open={open_id}#member-{open_id}" if open_id else url


def _render_builder(
    request: HttpRequest, gang: Gang, *, open_id: int | None = None, **kwargs: Any
) -> HttpResponse:
    """The builder page, or for htmx its ``builder`` fragment (morphed into the page)."""
    editor = get_editor(gang.system)
    if not editor.edits_in_browser:
        return _render_gang_view(request, gang, **kwargs)
    template = "builder/gang_build.html"
    if request.htmx:
        template += "#builder"
    context = _builder_context(request, gang, open_id=open_id, **kwargs)
    # The parts of the page drawn in {% keep %}: what the page shows of them is recorded
    # when they are drawn, and an answer leaves out those it shows as they are.
    context["fragments"] = ledger = Ledger(_shown_parts(request, gang))
    response = render(request, template, context)
    cache.set(_parts_key(gang.pk, gang.version, context["open_id"]), ledger.seen, PARTS_SECONDS)
    if request.htmx:
        response.content = _compact(response.content.decode())
    if request.htmx and request.method == "POST":
        # The address bar follows the open member, so a reload keeps it open.
        response["HX-Replace-Url"] = _page_url(gang, context["open_id"] or None).split("#")[0]
    return response


def _get_editor_gang(user, gang_id: int) -> Gang:
    """The user's own gang, if its system is edited in the browser; otherwise 404."""
    gang = _get_gang_for_user(user, gang_id)
    if not get_editor(gang.system).edits_in_browser:
        raise Http404("This game system has no such action.")
    return gang


def _do_action(
    request: HttpRequest, gang: Gang, form, before: tuple[int, Any] | None = None
) -> HttpResponse:
    """Apply a valid action and answer with the builder; an invalid one comes back with
    its errors. ``before`` is (version, evaluated gang) when the view evaluated it first."""
    if not form.is_valid():
        return _render_builder(
            request, gang, open_id=_open_id(request), failed=form, catalogue=form.catalogue
        )
    try:
        ctx = services.run_action(form, user=request.user)
    except services.ActionRefused as refused:
        # Another request changed the gang first: the page as it is now, with the
        # action's errors beside it (or the reason at the top).
        gang.refresh_from_db()
        if refused.form is None:
            messages.error(request, refused.message)
            return _render_builder(request, gang, catalogue=form.catalogue)
        return _render_builder(
            request, gang, open_id=_open_id(request), failed=refused.form, catalogue=form.catalogue
        )
    if ctx.opened is not None:
        open_id = ctx.opened.pk
    elif ctx.member is not None:
        open_id = ctx.member.pk  # None once the action removed it
    else:
        open_id = _open_id(request)
    if ctx.removed is not None:
        # No "are you sure?": the roster offers Undo where the member was.
        _remember_removal(request, gang, ctx.removed)
    if request.htmx:
        return _render_builder(
            request,
            gang,
            open_id=open_id,
            before=before,
            catalogue=form.catalogue,
            focus="undo-button" if ctx.removed is not None else "",
        )
    if ctx.removed is not None:
        return redirect(_page_url(gang, None) + "#undo-notice")
    return redirect(_page_url(gang, open_id))


@login_required
@post_only
def gang_action(request: HttpRequest, gang_id: int, action: str) -> HttpResponse:
    gang = _get_editor_gang(request.user, gang_id)
    if action == RESTORE:
        return _restore_member(request, gang, request.POST.get("member", ""))
    form_class = get_editor(gang.system).gang_actions.get(action)
    if form_class is None:
        raise Http404("No such action.")
    form = form_class(request.POST, gang=gang, catalogue=Catalogue.for_gang(gang))
    return _do_action(request, gang, form)


@login_required
@post_only
def member_action(request: HttpRequest, gang_id: int, member_id: int, action: str) -> HttpResponse:
    gang = _get_editor_gang(request.user, gang_id)
    member = get_object_or_404(gang.members.all(), pk=member_id)
    form_class = get_editor(gang.system).member_actions.get(action)
    if form_class is None:
        raise Http404("No such action.")
    evaluated = evaluate_gang(gang)
    figures = evaluated.report.members[str(member.pk)]
    form = form_class(
        request.POST, gang=gang, member=member, figures=figures, catalogue=Catalogue.for_gang(gang)
    )
    return _do_action(request, gang, form, before=(gang.version, evaluated))


def _restore_member(request: HttpRequest, gang: Gang, raw_id: str) -> HttpResponse:
    """Undo: the member this session removed last from the gang comes back, exactly, and
    opens. Pressed twice, the second press just shows it."""
    try:
        member_id = int(raw_id)
    except ValueError:
        raise Http404("Nothing to undo.") from None
    removed = _removal(request, gang)
    if not gang.members.filter(pk=member_id).exists():
        if removed is None or removed.get("pk") != member_id:
            raise Http404("Nothing to undo.")
        services.restore_member(gang, removed)
        _forget_removal(request, gang)
    if request.htmx:
        return _render_builder(request, gang, open_id=member_id, focus=f"row-link-{member_id}")
    return redirect(_page_url(gang, member_id))


@login_required
@post_only
def gang_packs(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = _get_gang_for_user(request.user, gang_id)
    form = PacksForm(request.POST, gang=gang)
    if not form.is_valid():
        return _render_builder(request, gang, open_id=_open_id(request), packs_form=form)
    services.set_gang_packs(gang, form.cleaned_data["packs"])
    return _changed(request, gang, "#packs")


@login_required
def gang_history(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = _get_gang_for_user(request.user, gang_id)
    rolls = list(gang.dice_rolls.select_related("user"))
    return render(request, "builder/gang_history.html", {"gang": gang, "rolls": rolls})


@login_required
@require_http_methods(PAGE_METHODS)
def gang_clone(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = _get_gang_for_user(request.user, gang_id)
    if request.method == "POST":
        copy = services.clone_gang(gang)
        messages.success(
            request, gettext("“%(name)s” was copied. This is the copy.") % {"name": gang.name}
        )
        return redirect("gang_detail", gang_id=copy.pk)
    return render(request, "builder/gang_confirm_clone.html", {"gang": gang})


def _changed(request: HttpRequest, gang: Gang, anchor: str = "") -> HttpResponse:
    """After a successful change: the fresh fragment for htmx, a redirect otherwise."""
    open_id = _open_id(request)
    if request.htmx:
        return _render_builder(request, gang, open_id=open_id)
    url = _page_url(gang, open_id)
    return redirect(url if open_id else url + anchor)


def _share_url(request: HttpRequest, gang: Gang) -> str:
    return printing.share_url(request, gang.share_token)  # SITE_URL's, never the Host's


def _readonly_context(gang: Gang) -> dict[str, Any]:
    """What the read-only pages show: the gang, its figures and how its members look."""
    evaluated = evaluate_gang(gang)
    return {
        "gang": gang,
        "system": evaluated.system,
        "report": evaluated.report,
        "evaluated": evaluated,
        "rows": evaluated.item_rows(),
        "member_template": get_editor(gang.system).readonly_template,
    }


def _render_gang_view(
    request: HttpRequest, gang: Gang, *, settings_form: GangSettingsForm | None = None, **_: Any
) -> HttpResponse:
    """The owner's page of a gang the browser builder does not edit yet."""
    context = _readonly_context(gang)
    context["settings_form"] = settings_form or GangSettingsForm.for_gang(gang)
    context["share_url"] = _share_url(request, gang)
    return render(request, "builder/gang_view.html", context)


@login_required
def gang_list(request: HttpRequest) -> HttpResponse:
    gangs = list(request.user.gangs.all())
    members = {}
    for member in Member.objects.filter(gang__in=gangs).prefetch_related(
        Prefetch("member_items", queryset=MemberItem.objects.select_related("item"))
    ):
        members.setdefault(member.gang_id, []).append(member)
    entries = [evaluate_gang(g, members.get(g.pk, [])) for g in gangs]
    return render(request, "builder/gang_list.html", {"entries": entries})


@login_required
@require_http_methods(PAGE_METHODS)
def gang_create(request: HttpRequest) -> HttpResponse:
    form = GangCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        gang = services.create_gang(
            request.user,
            system=form.cleaned_data["system"],
            name=form.cleaned_data["name"],
            limit=form.cleaned_data["limit"],
        )
        return redirect("gang_detail", gang_id=gang.pk)
    return render(request, "builder/gang_create.html", {"form": form})


@login_required
def gang_detail(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = _get_gang_for_user(request.user, gang_id)
    return _render_builder(request, gang, open_id=_open_id(request))


@login_required
@post_only
def gang_update(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = _get_gang_for_user(request.user, gang_id)
    form = GangSettingsForm(request.POST, total_label=get_system(gang.system).total_label)
    if not form.is_valid():
        return _render_builder(request, gang, open_id=_open_id(request), settings_form=form)
    services.update_gang(gang, name=form.cleaned_data["name"], limit=form.cleaned_data["limit"])
    return _changed(request, gang)


@login_required
@require_http_methods(PAGE_METHODS)
def gang_delete(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = _get_gang_for_user(request.user, gang_id)
    if request.method == "POST":
        name = gang.name
        services.delete_gang(gang)
        messages.success(request, gettext("“%(name)s” was deleted.") % {"name": name})
        return redirect("gang_list")
    return render(request, "builder/gang_confirm_delete.html", {"gang": gang})


@login_required
@post_only
def gang_share_reset(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = _get_gang_for_user(request.user, gang_id)
    services.reset_share_token(gang)
    messages.success(
        request, gettext_lazy("The old share link no longer works; here is the new one.")
    )
    return redirect(reverse("gang_detail", args=[gang.pk]) + "#share")


# --------------------------------------------------------------------------- PDF and sharing


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
    share_url = printing.share_url(request, gang.share_token)
    try:
        content, _cached = printing.cached_pdf(
            gang_roster(gang, members),
            options["kind"],
            paper=options["paper"],
            fronts_only=options["fronts_only"],
            member_key=member or None,
            share_url=share_url,
            client=printing.client_of(request, f"gang:{gang.pk}"),
            owner=f"gang:{gang.pk}",  # only the latest version's PDFs are kept
            version=gang.version,
        )
    except printing.PdfError as error:
        return printing.pdf_error_page(request, error, gang=gang, back=back)
    name = next((m.name for m in members if str(m.pk) == member), "") if member else ""
    response = HttpResponse(content, content_type="application/pdf")
    filename = printing.filename(gang.name, options["kind"], paper=options["paper"], member=name)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _gang_page_url(request: HttpRequest, gang: Gang) -> str:
    if request.user.is_authenticated and request.user.pk == gang.owner_id:
        return reverse("gang_detail", args=[gang.pk])
    return reverse("gang_shared", args=[gang.share_token])


@login_required
def gang_print(request: HttpRequest, gang_id: int) -> HttpResponse:
    return _print_response(request, _get_gang_for_user(request.user, gang_id))


def gang_shared_print(request: HttpRequest, token: str) -> HttpResponse:
    return _print_response(request, get_object_or_404(Gang, share_token=token))


@login_required
def gang_sheet_pdf(request: HttpRequest, gang_id: int) -> HttpResponse:
    """The gang sheet on A4: the address of the first Print button, kept working."""
    gang = _get_gang_for_user(request.user, gang_id)
    return _print_response(request, gang, {"kind": "sheet", "paper": "a4"})


def gang_shared(request: HttpRequest, token: str) -> HttpResponse:
    gang = get_object_or_404(Gang, share_token=token)
    context = _readonly_context(gang)
    context["is_owner"] = request.user.is_authenticated and request.user.pk == gang.owner_id
    context["share_url"] = _share_url(request, gang)
    return render(request, "builder/gang_shared.html", context)


def gang_shared_pdf(request: HttpRequest, token: str) -> HttpResponse:
    gang = get_object_or_404(Gang, share_token=token)
    return _print_response(request, gang, {"kind": "sheet", "paper": "a4"})


# --------------------------------------------------------------------------- roster files


def _roster_response(gang: Gang) -> HttpResponse:
    response = HttpResponse(
        write_roster(services.roster_file(gang)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(gang.name) or "gang"}-roster.json"'
    )
    return response


@login_required
def gang_export(request: HttpRequest, gang_id: int) -> HttpResponse:
    return _roster_response(_get_gang_for_user(request.user, gang_id))


def gang_shared_export(request: HttpRequest, token: str) -> HttpResponse:
    return _roster_response(get_object_or_404(Gang, share_token=token))


@login_required
@require_http_methods(PAGE_METHODS)
def gang_import(request: HttpRequest) -> HttpResponse:
    form = RosterImportForm(request.POST, request.FILES) if request.method == "POST" else None
    form = form or RosterImportForm()
    if request.method == "POST" and form.is_valid():
        try:
            gang = services.import_gang(request.user, form.cleaned_data["roster"])
        except RosterFileError as error:
            form.add_problems("file" if form.cleaned_data.get("file") else "text", error)
        else:
            messages.success(request, gettext("“%(name)s” was imported.") % {"name": gang.name})
            return redirect("gang_detail", gang_id=gang.pk)
    return render(request, "builder/gang_import.html", {"form": form})


# --------------------------------------------------------------------------- content packs


def _get_item_for_user(user, item_id: int) -> Item:
    """One entry of the user's own packs, or 404 (built-in content is nobody's)."""
    return get_object_or_404(user.items.select_related("pack"), pk=item_id)


def _get_pack_for_user(user, pack_id: int) -> ContentPack:
    """The user's own pack, or 404."""
    return get_object_or_404(user.packs.all(), pk=pack_id)


def _entry_form_class(system_id: str, category: str):
    kind = get_editor(system_id).kind(category)
    if kind is None:
        raise Http404("Packs of this system hold no such content.")
    return kind


def _library_sections(system_id: str, items: list[Item]) -> list[dict[str, Any]]:
    """Entries grouped by kind, each with its one-line description."""
    sections = []
    for kind in get_editor(system_id).content_kinds:
        entries = [
            {"item": i, "text": kind.describe(i.stats)}
            for i in items
            if i.category == kind.category
        ]
        sections.append({"kind": kind, "entries": entries})
    return sections


def _visible_pack(user, pack_id: int) -> ContentPack:
    """A pack the user may see (their own, or a public one), or 404."""
    return get_object_or_404(
        ContentPack.objects.visible_to(user).select_related("owner"), pk=pack_id
    )


@login_required
@require_http_methods(PAGE_METHODS)
def pack_list(request: HttpRequest) -> HttpResponse:
    form = PackForm(request.POST or None, owner=request.user)
    if request.method == "POST" and form.is_valid():
        pack = services.save_pack(
            form.instance, use_in_my_gangs=form.cleaned_data["use_in_my_gangs"]
        )
        messages.success(
            request,
            gettext("The pack “%(name)s” was made. Add its content here.") % {"name": pack.name},
        )
        return redirect("pack_detail", pack_id=pack.pk)
    packs = ContentPack.objects.visible_to(request.user).select_related("owner")
    packs = packs.annotate(entries=Count("items"))
    return render(
        request,
        "builder/pack_list.html",
        {
            "form": form,
            "mine": [p for p in packs if p.owner_id == request.user.pk],
            "public": [p for p in packs if p.owner_id != request.user.pk],
            "libraries": [s for s in all_systems() if get_editor(s.id).content_kinds],
            "import_form": PackImportForm(),
        },
    )


@cache_function
def _pack_format_text() -> str:
    return (settings.BASE_DIR / "docs" / "pack-format.md").read_text("utf-8")


def pack_format(request: HttpRequest) -> HttpResponse:
    """The pack file's documentation, as written in docs/pack-format.md."""
    return render(request, "builder/pack_format.html", {"text": _pack_format_text()})


def pack_schema_file(request: HttpRequest) -> HttpResponse:
    return HttpResponse(
        json.dumps(pack_schema(), indent=2, ensure_ascii=False),
        content_type="application/schema+json; charset=utf-8",
    )


@login_required
@require_http_methods(PAGE_METHODS)
def pack_export(request: HttpRequest, pack_id: int) -> HttpResponse:
    """A pack as a file (its owner's, or a public one): to share a club's library."""
    pack = _visible_pack(request.user, pack_id)
    response = HttpResponse(
        write_pack(services.export_pack(pack)), content_type="application/json; charset=utf-8"
    )
    filename = f"{slugify(pack.name) or 'pack'}-{pack.system}-pack.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(PAGE_METHODS)
def pack_import(request: HttpRequest, pack_id: int | None = None) -> HttpResponse:
    """A pack file becomes a new pack of the user's (or, with ``pack_id``, is added to
    one of theirs). All or nothing: a problem anywhere and nothing is saved, and the page
    says where (``entries[3].stats.str: ...``)."""
    into = _get_pack_for_user(request.user, pack_id) if pack_id is not None else None
    form = PackImportForm(
        request.POST if request.method == "POST" else None, request.FILES or None, into=into
    )
    if request.method == "POST" and form.is_valid():
        try:
            pack, items = services.import_pack(
                request.user,
                form.cleaned_data["pack"],
                into=into,
                use_in_my_gangs=form.cleaned_data.get("use_in_my_gangs", False),
            )
        except PackFileError as error:
            form.add_problems(error)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)s entry was imported into “%(pack)s”.",
                    "%(count)s entries were imported into “%(pack)s”.",
                    len(items),
                )
                % {"count": len(items), "pack": pack.name},
            )
            return redirect("pack_detail", pack_id=pack.pk)
    return render(request, "builder/pack_import.html", {"form": form, "into": into})


@login_required
@require_http_methods(PAGE_METHODS)
def pack_detail(request: HttpRequest, pack_id: int) -> HttpResponse:
    pack = _visible_pack(request.user, pack_id)
    is_owner = pack.owner_id == request.user.pk
    form = None
    if is_owner:
        form = PackForm(request.POST or None, owner=request.user, instance=pack)
        if request.method == "POST" and form.is_valid():
            services.save_pack(form.instance)
            messages.success(request, gettext("“%(name)s” was saved.") % {"name": pack.name})
            return redirect("pack_detail", pack_id=pack.pk)
    elif request.method == "POST":
        raise Http404("Only the pack's owner changes it.")
    return render(
        request,
        "builder/pack_detail.html",
        {
            "pack": pack,
            "is_owner": is_owner,
            "form": form,
            "system": get_system(pack.system),
            "sections": _library_sections(pack.system, list(pack.items.all())),
            "import_form": PackImportForm(into=pack) if is_owner else None,
        },
    )


@login_required
@require_http_methods(PAGE_METHODS)
def pack_delete(request: HttpRequest, pack_id: int) -> HttpResponse:
    pack = _get_pack_for_user(request.user, pack_id)
    if request.method == "POST":
        try:
            services.delete_pack(pack)
        except ProtectedError:
            messages.error(
                request,
                gettext("Something in “%(name)s” is still carried: take it off first.")
                % {"name": pack.name},
            )
            return redirect("pack_detail", pack_id=pack.pk)
        messages.success(request, gettext("The pack “%(name)s” was deleted.") % {"name": pack.name})
        return redirect("pack_list")
    return render(request, "builder/pack_confirm_delete.html", {"pack": pack})


def _adding_row(request: HttpRequest, kind) -> str:
    """The section a + button (without JavaScript) asks another row for, if any."""
    if request.method != "POST" or not hasattr(kind, "with_another_row"):
        return ""
    return request.POST.get("add_row", "")


def _entry_form(request: HttpRequest, kind, pack: ContentPack, instance: Item | None = None):
    """The entry's form: as posted, or (after a + without JavaScript) as typed with one
    more row, nothing checked or saved yet."""
    section = _adding_row(request, kind)
    if section:
        return kind.with_another_row(request.POST, section, pack=pack, instance=instance)
    return kind(request.POST or None, pack=pack, instance=instance)


@login_required
@post_only
def card_preview(request: HttpRequest) -> HttpResponse:
    """The card being typed in the pack's card form, as it will print (the live preview)."""
    kind = _entry_form_class("bwg2", Item.Category.CARD)
    form = kind(request.POST, pack=ContentPack(owner=request.user, system="bwg2"))
    return render(request, "builder/_card_preview.html", {"card": form.preview})


@login_required
@require_http_methods(PAGE_METHODS)
def entry_add(request: HttpRequest, pack_id: int, category: str) -> HttpResponse:
    pack = _get_pack_for_user(request.user, pack_id)
    kind = _entry_form_class(pack.system, category)
    form = _entry_form(request, kind, pack)
    if request.method == "POST" and not _adding_row(request, kind) and form.is_valid():
        item = services.save_entry(form)
        messages.success(
            request,
            gettext("“%(item)s” is in “%(pack)s”.") % {"item": item.name, "pack": pack.name},
        )
        return redirect(reverse("pack_detail", args=[pack.pk]) + f"#entry-{item.pk}")
    return render(request, "builder/entry_form.html", {"form": form, "pack": pack, "kind": kind})


@login_required
@require_http_methods(PAGE_METHODS)
def entry_update(request: HttpRequest, item_id: int) -> HttpResponse:
    item = _get_item_for_user(request.user, item_id)
    kind = _entry_form_class(item.system, item.category)
    form = _entry_form(request, kind, item.pack, item)
    if request.method == "POST" and not _adding_row(request, kind) and form.is_valid():
        services.save_entry(form, item)
        messages.success(request, gettext("“%(name)s” was saved.") % {"name": item.name})
        return redirect(reverse("pack_detail", args=[item.pack_id]) + f"#entry-{item.pk}")
    return render(
        request,
        "builder/entry_form.html",
        {"form": form, "pack": item.pack, "kind": kind, "item": item},
    )


def _visible_item(user, item_id: int) -> Item:
    """An entry the user may see: built-in, or in their own or a public pack; else 404."""
    visible = Q(owner__isnull=True) | Q(pack__in=ContentPack.objects.visible_to(user).values("pk"))
    return get_object_or_404(Item.objects.filter(visible).select_related("pack"), pk=item_id)


@login_required
@require_http_methods(PAGE_METHODS)
def entry_copy(request: HttpRequest, item_id: int) -> HttpResponse:
    """A new entry made from an existing one (a book card, a public pack's, your own):
    the entry's form, filled in with it, saved as a new entry of one of the user's packs.
    Change what differs and save; the original is not touched."""
    item = _visible_item(request.user, item_id)
    kind = _entry_form_class(item.system, item.category)
    packs = list(request.user.packs.filter(system=item.system).order_by("name", "pk"))
    system = get_system(item.system)
    if not packs:
        return render(request, "builder/entry_copy_nowhere.html", {"item": item, "system": system})
    wanted = request.POST.get("into") if request.method == "POST" else request.GET.get("into")
    default = item.pack_id if item.pack_id in {p.pk for p in packs} else packs[0].pk
    pack = next((p for p in packs if str(p.pk) == str(wanted)), None)
    pack = pack or next(p for p in packs if p.pk == default)
    if request.method == "POST":
        form = _entry_form(request, kind, pack)
        if not _adding_row(request, kind) and form.is_valid():
            copy = services.save_entry(form)
            messages.success(
                request,
                gettext("“%(name)s” is in “%(pack)s”.") % {"name": copy.name, "pack": pack.name},
            )
            return redirect(reverse("pack_detail", args=[pack.pk]) + f"#entry-{copy.pk}")
    else:
        taken = pack.items.filter(category=item.category).values_list("name", flat=True)
        name = services.numbered_name(
            taken, item.name, "{name} ({n})", Item._meta.get_field("name").max_length
        )
        form = kind(initial={"name": name, **kind.initial_from(item.stats)}, pack=pack)
    return render(
        request,
        "builder/entry_form.html",
        {"form": form, "pack": pack, "kind": kind, "original": item, "packs": packs},
    )


@login_required
@require_http_methods(PAGE_METHODS)
def entry_delete(request: HttpRequest, item_id: int) -> HttpResponse:
    item = _get_item_for_user(request.user, item_id)
    used_by = list(
        MemberItem.objects.filter(item=item)
        .select_related("member__gang")
        .order_by("member__gang__name", "member__position")
    )
    if item.system == "bwg1" and item.pack.name == services.MY_WEAPONS:
        back = reverse("weapon_list")
    else:
        back = reverse("pack_detail", args=[item.pack_id])
    if request.method == "POST":
        try:
            services.delete_own_item(item)
        except ProtectedError:
            messages.error(
                request,
                gettext("“%(name)s” is still carried: remove it first.") % {"name": item.name},
            )
            return redirect("entry_delete", item_id=item.pk)
        messages.success(request, gettext("“%(name)s” was deleted.") % {"name": item.name})
        return redirect(back)
    return render(
        request,
        "builder/entry_confirm_delete.html",
        {"item": item, "used_by": used_by, "back": back},
    )


@login_required
def library(request: HttpRequest, system_id: str) -> HttpResponse:
    """Everything a player of a system can build with: built-in content and the packs
    they can see (their own and public ones), each entry marked with where it is from."""
    try:
        system = get_system(system_id)
    except KeyError:
        raise Http404("No such game system.") from None
    items = list(
        Item.objects.filter(system=system.id)
        .filter(
            Q(owner__isnull=True)
            | Q(pack__in=ContentPack.objects.visible_to(request.user).values("pk"))
        )
        .select_related("pack__owner")
    )
    return render(
        request,
        "builder/library.html",
        {"system": system, "sections": _library_sections(system.id, items)},
    )


# --------------------------------------------------------------------------- own weapons


@login_required
@require_http_methods(PAGE_METHODS)
def weapon_list(request: HttpRequest) -> HttpResponse:
    """bwg1's catalogue: built-in weapons and horses, and the player's "My weapons" pack."""
    pack = request.user.packs.filter(system="bwg1", name=services.MY_WEAPONS).first()
    form = WeaponForm(request.POST or None, pack=pack or ContentPack(owner=request.user))
    if request.method == "POST" and form.is_valid():
        form.pack = services.my_weapons_pack(request.user)
        item = services.save_entry(form)
        messages.success(request, gettext("“%(name)s” is in your catalogue.") % {"name": item.name})
        return redirect("weapon_list")
    weapons = (
        Item.objects.available_to(request.user)
        .filter(system="bwg1", category=Item.Category.WEAPON)
        .select_related("pack")
    )
    horses = Item.objects.filter(owner__isnull=True, system="bwg1", category=Item.Category.HORSE)
    return render(
        request,
        "builder/weapon_list.html",
        {
            "form": form,
            "builtin": [w for w in weapons if w.is_builtin],
            "own": [w for w in weapons if not w.is_builtin],
            "horses": horses,
        },
    )


@login_required
@require_http_methods(PAGE_METHODS)
def weapon_update(request: HttpRequest, item_id: int) -> HttpResponse:
    item = _get_item_for_user(request.user, item_id)
    form = WeaponForm(request.POST or None, pack=item.pack, instance=item)
    if request.method == "POST" and form.is_valid():
        services.save_entry(form, item)
        messages.success(request, gettext("“%(name)s” was saved.") % {"name": item.name})
        return redirect("weapon_list")
    return render(request, "builder/weapon_form.html", {"form": form, "item": item})


weapon_delete = entry_delete
