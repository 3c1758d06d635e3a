"""The weapon catalogue (the built-in weapons and horses, and the player's own "My
weapons" pack) of the game whose editor keeps one (``Editor.weapon_catalogue``), and the
live preview of a card being typed in a pack's entry form (an entry kind with ``preview``).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from builder import services
from builder.editors import catalogue_system
from builder.models import ContentPack, Item
from builder.views.common import PAGE_METHODS, get_item_for_user, login_required, post_only
from builder.views.packs import entry_delete, entry_form_class


def _weapon_form_class(system_id: str):
    if not system_id:
        raise Http404("No game keeps a weapon catalogue.")
    return entry_form_class(system_id, Item.Category.WEAPON)


@login_required
@require_http_methods(PAGE_METHODS)
def weapon_list(request: HttpRequest) -> HttpResponse:
    """The catalogue: built-in weapons and horses, and the player's "My weapons" pack."""
    system = catalogue_system()
    form_class = _weapon_form_class(system)
    pack = request.user.packs.filter(system=system, name=services.MY_WEAPONS).first()
    form = form_class(
        request.POST or None, pack=pack or ContentPack(owner=request.user, system=system)
    )
    if request.method == "POST" and form.is_valid():
        form.pack = services.my_weapons_pack(request.user, system)
        item = services.save_entry(form)
        messages.success(request, gettext("“%(name)s” is in your catalogue.") % {"name": item.name})
        return redirect("weapon_list")
    weapons = (
        Item.objects.available_to(request.user)
        .filter(system=system, category=Item.Category.WEAPON)
        .select_related("pack")
    )
    horses = Item.objects.filter(owner__isnull=True, system=system, category=Item.Category.HORSE)
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
    item = get_item_for_user(request.user, item_id)
    form_class = _weapon_form_class(item.system)
    form = form_class(request.POST or None, pack=item.pack, instance=item)
    if request.method == "POST" and form.is_valid():
        services.save_entry(form, item)
        messages.success(request, gettext("“%(name)s” was saved.") % {"name": item.name})
        return redirect("weapon_list")
    return render(request, "builder/weapon_form.html", {"form": form, "item": item})


weapon_delete = entry_delete


@login_required
@post_only
def card_preview(request: HttpRequest, system: str, category: str) -> HttpResponse:
    """The card being typed in the pack's entry form, as it will print (the live preview)."""
    kind = entry_form_class(system, category)
    form = kind(request.POST, pack=ContentPack(owner=request.user, system=system))
    if not hasattr(form, "preview"):
        raise Http404("This kind of entry has no preview.")
    return render(request, "builder/_card_preview.html", {"card": form.preview})
