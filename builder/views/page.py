"""The builder page: one gang, its compact roster and one open member's panel, and the
actions that change it from there (gang and member actions, Undo, packs, settings).

An htmx request gets the ``#builder`` fragment of the same template (a row the page
already shows as it is comes as a placeholder); a plain form post is redirected back to
the page (or, when the form is invalid, gets the whole page with the errors beside the
field, status 200).
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language

from builder import services
from builder.editors import Catalogue, get_editor
from builder.forms import GangSettingsForm, PacksForm
from builder.models import Gang
from builder.roster import evaluate_gang
from builder.rows import parse_known, row_html
from builder.templatetags.builder_fields import Ledger
from builder.views.common import get_gang_for_user, login_required, post_only, readonly_context
from builder.views.printing import share_url
from common import offline
from rules import get_system


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
        "share_url": share_url(request, gang.share_token),
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
    gang = get_gang_for_user(user, gang_id)
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
    gang = get_gang_for_user(request.user, gang_id)
    form = PacksForm(request.POST, gang=gang)
    if not form.is_valid():
        return _render_builder(request, gang, open_id=_open_id(request), packs_form=form)
    services.set_gang_packs(gang, form.cleaned_data["packs"])
    return _changed(request, gang, "#packs")


def _changed(request: HttpRequest, gang: Gang, anchor: str = "") -> HttpResponse:
    """After a successful change: the fresh fragment for htmx, a redirect otherwise."""
    open_id = _open_id(request)
    if request.htmx:
        return _render_builder(request, gang, open_id=open_id)
    url = _page_url(gang, open_id)
    return redirect(url if open_id else url + anchor)


def _render_gang_view(
    request: HttpRequest, gang: Gang, *, settings_form: GangSettingsForm | None = None, **_: Any
) -> HttpResponse:
    """The owner's page of a gang the browser builder does not edit yet."""
    context = readonly_context(gang)
    context["settings_form"] = settings_form or GangSettingsForm.for_gang(gang)
    context["share_url"] = share_url(request, gang.share_token)
    return render(request, "builder/gang_view.html", context)


@login_required
def gang_detail(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = get_gang_for_user(request.user, gang_id)
    # the gang's version for the offline app, from the gang read here (no second query)
    return offline.mark_gang(_render_builder(request, gang, open_id=_open_id(request)), gang)


@login_required
@post_only
def gang_update(request: HttpRequest, gang_id: int) -> HttpResponse:
    gang = get_gang_for_user(request.user, gang_id)
    form = GangSettingsForm(request.POST, total_label=get_system(gang.system).total_label)
    if not form.is_valid():
        return _render_builder(request, gang, open_id=_open_id(request), settings_form=form)
    services.update_gang(gang, name=form.cleaned_data["name"], limit=form.cleaned_data["limit"])
    return _changed(request, gang)
