"""Content packs: a player's own and public ones, their entries (added, edited, copied,
deleted), pack files (export, import, their format and schema), and a system's library.
"""

from __future__ import annotations

import json
from functools import cache as cache_function
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import Count, ProtectedError, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from builder import services
from builder.editors import get_editor
from builder.forms import PackForm, PackImportForm
from builder.models import ContentPack, Item, MemberItem
from builder.packs import PackFileError, pack_schema, write_pack
from builder.views.common import PAGE_METHODS, get_item_for_user, login_required
from rules import all_systems, get_system


def _get_pack_for_user(user, pack_id: int) -> ContentPack:
    """The user's own pack, or 404."""
    return get_object_or_404(user.packs.all(), pk=pack_id)


def entry_form_class(system_id: str, category: str):
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
@require_http_methods(PAGE_METHODS)
def entry_add(request: HttpRequest, pack_id: int, category: str) -> HttpResponse:
    pack = _get_pack_for_user(request.user, pack_id)
    kind = entry_form_class(pack.system, category)
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
    item = get_item_for_user(request.user, item_id)
    kind = entry_form_class(item.system, item.category)
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
    kind = entry_form_class(item.system, item.category)
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
    item = get_item_for_user(request.user, item_id)
    used_by = list(
        MemberItem.objects.filter(item=item)
        .select_related("member__gang")
        .order_by("member__gang__name", "member__position")
    )
    if item.pack.is_my_weapons:
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
