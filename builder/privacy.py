"""The builder's part of a user's data (accounts/services.py finds this module by its
name; the interface is written there): their gangs and content packs.

- export: each gang as a roster file (``gangs/<name>-<system>-roster.json``, with the pack
  entries it uses) and each content pack as a pack file (``packs/<name>-<system>-pack.json``);
- forgetting: the gangs go; the packs go, but an entry another player's gang still carries
  stays, and so does its pack, with only such entries (that gang is not broken).
"""

from __future__ import annotations

from typing import Any

from django.utils.text import slugify

from builder import services
from builder.models import ContentPack, Gang, Item, MemberItem
from builder.packs import write_pack
from rules.roster import write_roster

#: first: what the user made goes before what they took part in is handed on
PRIVACY_ORDER = 10


def _unique(name: str, used: set[str]) -> str:
    stem, dot, ext = name.rpartition(".")
    candidate, n = name, 2
    while candidate in used:
        candidate = f"{stem}-{n}{dot}{ext}"
        n += 1
    used.add(candidate)
    return candidate


def export_user_data(user) -> dict[str, Any]:
    files: dict[str, Any] = {}
    used: set[str] = set()
    for gang in Gang.objects.filter(owner=user).order_by("pk"):
        name = f"gangs/{slugify(gang.name) or 'gang'}-{gang.system}-roster.json"
        files[_unique(name, used)] = write_roster(services.roster_file(gang))
    for pack in ContentPack.objects.filter(owner=user).order_by("pk"):
        name = f"packs/{slugify(pack.name) or 'pack'}-{pack.system}-pack.json"
        files[_unique(name, used)] = write_pack(services.export_pack(pack))
    return files


def forget_user(user) -> None:
    for gang in Gang.objects.filter(owner=user):
        services.delete_gang(gang)
    # Entries another player's gang still carries stay; so does their pack.
    carried = set(MemberItem.objects.filter(item__owner=user).values_list("item_id", flat=True))
    Item.objects.filter(owner=user).exclude(pk__in=carried).delete()
    for pack in ContentPack.objects.filter(owner=user):
        if not pack.items.exists():
            services.delete_pack(pack)


def owned_counts(user) -> dict[str, int]:
    return {
        "gangs": Gang.objects.filter(owner=user).count(),
        "packs": ContentPack.objects.filter(owner=user).count(),
    }
