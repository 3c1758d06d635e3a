"""Every change to a gang, each in one transaction, each bumping the gang's version.

Views read the request, call one of these, and render. Nothing here reads a request.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from builder import models, signals
from builder.models import (
    ContentPack,
    DiceRoll,
    Gang,
    Item,
    Member,
    MemberItem,
    new_share_token,
)
from builder.packs import PackFileError, make_pack
from builder.tasks import schedule_prerender
from rules import get_system
from rules.roster import Problem, RosterFileError

#: the catalogue page's pack, found by this name (a key; shown in the reader's language:
#: ContentPack.shown_name)
MY_WEAPONS = models.MY_WEAPONS
# A copy's name ("Copy of …"), an imported gang without a name and the pack an imported
# roster's content goes to ("<the gang's name> content") are written in the language of
# whoever makes them: messages in copy_gang and import_gang.


def _touch(gang: Gang) -> None:
    """Mark the gang changed: a new version and a new 'updated' time.

    The version orders the builder's answers: the page ignores an answer older than the
    one it shows. Read back inside the transaction, after the UPDATE locked the row, it
    is exactly this change's version.
    """
    now = timezone.now()
    Gang.objects.filter(pk=gang.pk).update(version=F("version") + 1, updated=now)
    gang.version = Gang.objects.filter(pk=gang.pk).values_list("version", flat=True).get()
    gang.updated = now
    schedule_prerender(gang.pk, gang.version)  # its PDFs made ahead, once this commits
    signals.gang_changed.send(Gang, gang=gang)


@transaction.atomic
def create_gang(owner, *, system: str, name: str, limit: int | None) -> Gang:
    get_system(system)  # unknown systems fail here, before anything is saved
    gang = Gang.objects.create(owner=owner, system=system, name=name, limit=limit)
    _pick_own_packs(gang)
    return gang


def _pick_own_packs(gang: Gang) -> None:
    """A new gang starts with its owner's own packs for the system picked."""
    gang.packs.add(*ContentPack.objects.filter(owner=gang.owner_id, system=gang.system))


@transaction.atomic
def clone_gang(gang: Gang) -> Gang:
    """A copy of the gang for its owner: members, items, packs; a new share link.

    The dice log stays with the original: the copy's history starts empty.
    """
    members = list(gang.members.prefetch_related("member_items"))
    copy = Gang.objects.create(
        owner=gang.owner,
        system=gang.system,
        name=(_("Copy of %(name)s") % {"name": gang.name})[
            : Gang._meta.get_field("name").max_length
        ],
        limit=gang.limit,
        data=gang.data,
    )
    copy.packs.set(gang.packs.all())
    new_members = Member.objects.bulk_create(
        [Member(gang=copy, position=m.position, name=m.name, data=m.data) for m in members]
    )
    MemberItem.objects.bulk_create(
        [
            MemberItem(member=new, item_id=mi.item_id, position=mi.position)
            for old, new in zip(members, new_members, strict=True)
            for mi in old.member_items.all()
        ]
    )
    return copy


@transaction.atomic
def set_gang_packs(gang: Gang, packs) -> Gang:
    gang.packs.set(packs)
    _touch(gang)
    return gang


# --------------------------------------------------------------------------- builder actions


def next_position(gang: Gang) -> int:
    last = gang.members.aggregate(last=Max("position"))["last"]
    return 0 if last is None else last + 1


def append_member(gang: Gang, *, name: str, data: Mapping[str, Any]) -> Member:
    """A new member at the end of the gang (for actions, inside their transaction)."""
    return Member.objects.create(
        gang=gang, name=name, position=next_position(gang), data=dict(data)
    )


def remove_member(member: Member) -> dict[str, Any]:
    """Remove a member (for actions, inside their transaction) and say what it was, so
    ``restore_member`` can bring it back exactly: its id, name, data, carried items and
    place in the recruitment order. Plain JSON (it waits in the player's session)."""
    order = list(member.gang.members.order_by("position", "id").values_list("pk", flat=True))
    removed = {
        "pk": member.pk,
        "name": member.name,
        "data": member.data,
        "position": member.position,
        "index": order.index(member.pk),
        "items": [
            [mi.item_id, mi.position] for mi in member.member_items.order_by("position", "id")
        ],
    }
    member.delete()
    return removed


@transaction.atomic
def restore_member(gang: Gang, removed: Mapping[str, Any]) -> Member:
    """Undo ``remove_member``: the same member (same id, name, data and items) back at its
    place in the order. The others keep their positions if it fits between them, else
    they are numbered again in the same order. A member already back is left as it is."""
    Gang.objects.select_for_update().filter(pk=gang.pk).get()
    back = gang.members.filter(pk=removed["pk"]).first()
    if back is not None:
        return back
    others = list(gang.members.select_for_update().order_by("position", "id"))
    index = max(0, min(int(removed["index"]), len(others)))
    member = Member(
        pk=removed["pk"],
        gang=gang,
        name=removed["name"],
        data=removed["data"],
        position=int(removed["position"]),
    )
    order = [*others[:index], member, *others[index:]]
    if sorted(order, key=lambda m: (m.position, m.pk)) != order:
        moved = []
        for position, other in enumerate(order):
            if other.position != position:
                other.position = position
                if other is not member:
                    moved.append(other)
        Member.objects.bulk_update(moved, ["position"])
    member.save(force_insert=True)
    carried = [(int(pk), int(position)) for pk, position in removed.get("items") or []]
    # (an entry of the player's own deleted meanwhile cannot come back)
    still = set(Item.objects.filter(pk__in=[pk for pk, _ in carried]).values_list("pk", flat=True))
    MemberItem.objects.bulk_create(
        [MemberItem(member=member, item_id=pk, position=p) for pk, p in carried if pk in still]
    )
    _touch(gang)
    return member


class ActionRefused(Exception):
    """The action was valid when asked, but not against the gang as it is now (another
    request changed it in between): ``form`` is the action checked again, with its errors."""

    def __init__(self, form=None, message: str = ""):
        super().__init__(message or _("The action no longer fits the gang: try again."))
        self.form = form
        self.message = message


def _checked_again(form, gang: Gang, member: Member | None):
    """The action's form bound to the same data, checked against the locked gang."""
    from builder.roster import evaluate_gang

    figures = None
    if member is not None and form.figures is not None:
        figures = evaluate_gang(gang).report.members.get(str(member.pk))
    fresh = type(form)(
        form.data,
        gang=gang,
        member=member,
        figures=figures,
        catalogue=form.catalogue,
        prefix=form.prefix,
    )
    if not fresh.is_valid():
        raise ActionRefused(fresh)
    return fresh


def run_action(form, *, user) -> Any:
    """Do one builder action (a valid ``ActionForm``) in one transaction.

    The gang's row is locked first (and the member re-read under the lock), so clicks
    made at the same moment are applied one after the other. The form was checked against
    the gang as the request read it; if another request changed the gang since (its
    version moved on), the action is checked again against the locked gang, so 50 "+Str"
    at once stop at the most the rules allow (:class:`ActionRefused` when it no longer
    fits). Every die the action rolls is stored in the dice log in the same transaction
    as its result. Returns the action's context (its ``opened`` is a member the action
    made, for the page to open).
    """
    from builder.editors import ActionContext

    shown = form.gang
    with transaction.atomic():
        gang = Gang.objects.select_for_update().get(pk=form.gang.pk)
        member = None
        if form.member is not None:
            member = Member.objects.select_for_update().filter(pk=form.member.pk, gang=gang).first()
            if member is None:
                raise ActionRefused(message=_("That member is no longer in the gang."))
        if gang.version != shown.version:
            form = _checked_again(form, gang, member)
        ctx = ActionContext(gang=gang, user=user, catalogue=form.catalogue, member=member)
        form.apply(ctx)
        record_rolls(ctx, action=form.label)
        # The row is locked: its version is this change's, plus one (no read-back needed).
        gang.version += 1
        gang.updated = timezone.now()
        Gang.objects.filter(pk=gang.pk).update(version=gang.version, updated=gang.updated)
        schedule_prerender(gang.pk, gang.version)  # its PDFs made ahead, once this commits
        signals.gang_changed.send(Gang, gang=gang)
        # The page is drawn from the caller's gang: give it what the action changed.
        for field in ("name", "limit", "data", "version", "updated"):
            setattr(shown, field, getattr(gang, field))
    return ctx


def record_rolls(ctx, *, action: str) -> list[DiceRoll]:
    member_name = ctx.member.name if ctx.member is not None else ""
    return DiceRoll.objects.bulk_create(
        [
            DiceRoll(
                gang=ctx.gang,
                user=ctx.user if getattr(ctx.user, "is_authenticated", False) else None,
                action=action[:100],
                member_name=member_name[:100],
                purpose=roll.purpose[:200],
                sides=roll.sides,
                dice=list(roll.dice),
                total=roll.total,
                outcome=ctx.outcome[:300],
            )
            for roll in ctx.dice.log
        ]
    )


@transaction.atomic
def update_gang(gang: Gang, *, name: str, limit: int | None) -> Gang:
    gang.name = name
    gang.limit = limit
    gang.save(update_fields=["name", "limit"])
    _touch(gang)
    return gang


@transaction.atomic
def delete_gang(gang: Gang) -> None:
    gang.delete()


@transaction.atomic
def reset_share_token(gang: Gang) -> Gang:
    gang.share_token = new_share_token()
    gang.save(update_fields=["share_token", "updated"])
    return gang


@transaction.atomic
def save_own_item(item: Item) -> Item:
    item.save()
    for gang in Gang.objects.filter(members__member_items__item=item).distinct():
        _touch(gang)
    return item


@transaction.atomic
def delete_own_item(item: Item) -> None:
    item.delete()


# --------------------------------------------------------------------------- content packs


@transaction.atomic
def my_weapons_pack(owner, system: str | None = None) -> ContentPack:
    """The pack the catalogue page adds weapons to (in ``system``, by default the one whose
    editor keeps a weapon catalogue); made (and picked for the owner's gangs of that
    system) the first time it is needed."""
    if system is None:
        from builder.editors import catalogue_system

        system = catalogue_system()
    pack, created = ContentPack.objects.get_or_create(
        owner=owner,
        system=system,
        name=MY_WEAPONS,
        defaults={"description": models.MY_WEAPONS_DESCRIPTION},
    )
    if created:
        for gang in Gang.objects.filter(owner=owner, system=system):
            gang.packs.add(pack)
    return pack


@transaction.atomic
def save_pack(pack: ContentPack, *, use_in_my_gangs: bool = False) -> ContentPack:
    created = pack.pk is None
    pack.save()
    if created and use_in_my_gangs:
        for gang in Gang.objects.filter(owner=pack.owner, system=pack.system):
            gang.packs.add(pack)
    else:
        for gang in pack.gangs.all():
            _touch(gang)
    return pack


@transaction.atomic
def delete_pack(pack: ContentPack) -> None:
    """Raises ProtectedError while a member still carries one of its entries."""
    gangs = list(pack.gangs.all())
    pack.delete()
    for gang in gangs:
        _touch(gang)


@transaction.atomic
def save_entry(form, instance: Item | None = None) -> Item:
    """A pack's entry from a valid ``EntryForm``."""
    pack = form.pack
    item = instance or Item(owner=pack.owner, pack=pack, system=pack.system, category=form.category)
    item.name = form.cleaned_data["name"]
    item.stats = form.stats()
    return save_own_item(item)


# --------------------------------------------------------------------------- roster files


@transaction.atomic
def import_gang(owner, roster: Mapping[str, Any]) -> Gang:
    """A new gang owned by ``owner`` from a checked roster (see ``rules.roster.read_roster``).

    All or nothing: a problem raises RosterFileError and the transaction leaves no trace.
    Items carried by value (bwg1 weapons and horses) are matched to the catalogue the owner
    sees, by name and stats; one that matches nothing becomes the owner's own item.
    """
    system = get_system(roster["system"])
    gang = Gang.objects.create(
        owner=owner,
        system=system.id,
        name=free_name(owner, roster["name"].strip() or _("Imported gang")),
        limit=roster.get("limit"),
        data=dict(roster.get("gang") or {}),
    )
    _pick_own_packs(gang)
    problems: list[Problem] = []
    carried: list[Item] = []
    if roster.get("content"):
        # The pack entries the file carries: a pack of the importer's own, used by the gang.
        try:
            entries = check_entries(system.id, roster["content"], "content")
        except PackFileError as error:
            problems.extend(error.problems)
        else:
            pack = ContentPack.objects.create(
                owner=owner,
                system=system.id,
                name=free_pack_name(owner, system.id, _("%(gang)s content") % {"gang": gang.name}),
                description=_("What the roster file of “%(gang)s” carried.") % {"gang": gang.name},
            )
            carried = add_entries(pack, entries)
            gang.packs.add(pack)
    slots = getattr(system, "item_slots", {})
    # What the file carried first: its members' items are matched to it before the rest.
    catalogue = carried + list(
        Item.objects.available_to(owner)
        .filter(system=system.id)
        .exclude(pk__in=[i.pk for i in carried])
    )
    member_items: list[tuple[Member, list[Item]]] = []
    for index, entry in enumerate(roster["members"]):
        data = dict(entry["data"])
        items: list[Item] = []
        for category, (key, many) in slots.items():
            value = data.pop(key, None)
            values = (value or []) if many else ([value] if value else [])
            for j, item_entry in enumerate(values):
                where = f"members[{index}].data.{key}" + (f"[{j}]" if many else "")
                item = _catalogue_item(
                    owner, system.id, category, item_entry, catalogue, {i.pk for i in carried}
                )
                if isinstance(item, Problem):
                    problems.append(Problem(where, item.message))
                else:
                    items.append(item)
        member = Member(gang=gang, position=index + 1, name=entry["name"], data=data)
        member_items.append((member, items))
    if problems:
        raise RosterFileError(problems)
    Member.objects.bulk_create([m for m, _ in member_items])
    MemberItem.objects.bulk_create(
        [
            MemberItem(member=m, item=item, position=p)
            for m, items in member_items
            for p, item in enumerate(items, 1)
        ]
    )
    schedule_prerender(gang.pk, gang.version)  # an imported gang is often printed next
    return gang


def numbered_name(
    taken: Iterable[str], name: str, form: str = "{name} {n}", longest: int | None = None
) -> str:
    """``name``, or "name 2", "name 3"… (``form``) when it is taken, whatever the case.

    Never longer than ``longest`` (the field's length): a long name is cut to leave room
    for its number.
    """
    taken = {t.casefold() for t in taken}
    name = name[:longest]
    if name.casefold() not in taken:
        return name
    n = 2
    while True:
        numbered = form.format(name=name, n=n)
        if longest is not None and len(numbered) > longest:
            numbered = form.format(name=name[: longest - (len(numbered) - len(name))], n=n)
        if numbered.casefold() not in taken:
            return numbered
        n += 1


def member_name(gang: Gang, name: str) -> str:
    """A new member's name: ``name``, numbered when a member of the gang has it already."""
    longest = Member._meta.get_field("name").max_length
    return numbered_name(gang.members.values_list("name", flat=True), name, longest=longest)


def free_name(owner, name: str) -> str:
    """A gang's name for ``owner``: ``name``, or "name (2)", "name (3)"… if it is taken."""
    longest = Gang._meta.get_field("name").max_length
    # A numbered name may cut a long one: look among every name it may then start with.
    start = name[: longest - 12]
    taken = Gang.objects.filter(owner=owner, name__istartswith=start).values_list("name", flat=True)
    return numbered_name(taken, name, "{name} ({n})", longest)


def _catalogue_item(
    owner,
    system: str,
    category: str,
    entry: Mapping[str, Any],
    catalogue: list[Item],
    carried: set[int] = frozenset(),
) -> Item | Problem:
    name = entry["name"]
    stats = {k: v for k, v in entry.items() if k != "name"}
    same_name = [i for i in catalogue if i.category == category and i.name == name]
    for item in same_name:
        if item.stats == stats:
            return item
    # (an entry the file carried itself, written differently, is no reason to refuse)
    if any(i.owner_id == owner.pk and i.pk not in carried for i in same_name):
        return Problem(
            "",
            _(
                "you already have your own %(kind)s called “%(name)s” with other figures: "
                "rename it in the file or in your catalogue, then import again"
            )
            % {"kind": category, "name": name},
        )
    pack = my_weapons_pack(owner, system)
    item = Item.objects.create(
        system=system,
        category=category,
        name=name,
        stats=stats,
        owner=owner,
        pack=pack,
        source="imported from a roster file",
    )
    catalogue.append(item)
    return item


# --------------------------------------------------------------------------- pack files


def entry_form_data(kind, name: str, stats: Mapping[str, Any]) -> dict[str, Any]:
    """What a kind's form would be sent to make this entry (its name and stats)."""
    data_from = getattr(kind, "data_from", None)
    if data_from is not None:
        return data_from(name, stats)
    return {"name": name, **kind.initial_from(dict(stats))}


_LINE = re.compile(r"^Line (\d+): (.*)$", re.S)
_ROW = re.compile(r"^(\w+?)-(\d+)-(\w+)$")


def _field_problem(kind, where: str, field: str, message: str) -> Problem:
    """A form's error as a problem in the file: ``entries[3].stats.str: ...``."""
    if field == "name":
        return Problem(f"{where}.name", message)
    if field == "__all__":
        return Problem(f"{where}.stats", message)
    paths = getattr(kind, "stats_paths", {})
    row = _ROW.match(field)
    if field in paths:
        path = paths[field]
    elif row:
        path = f"{row[1]}[{row[2]}].{paths.get(row[3], row[3])}"
    else:
        path = field.rstrip("_")
    line = _LINE.match(message)
    if line:  # a line of a text field: the entry of that list
        return Problem(f"{where}.stats.{path}[{int(line[1]) - 1}]", line[2])
    return Problem(f"{where}.stats.{path}", message)


def check_entry(kind, entry: Mapping[str, Any], where: str) -> dict[str, Any] | list[Problem]:
    """One entry of a file, checked by its kind's form as if typed in: the entry as the
    form makes it (name and stats), or the problems, each naming its field."""
    probe = ContentPack(system="", name="")  # unsaved: names are numbered, not refused
    form = kind(entry_form_data(kind, entry["name"], entry["stats"]), pack=probe)
    if form.is_valid():
        return {"category": kind.category, "name": form.cleaned_data["name"], "stats": form.stats()}
    return [
        _field_problem(kind, where, field, str(message))
        for field, errors in form.errors.items()
        for message in errors
    ]


def check_entries(
    system_id: str, entries: Iterable[Mapping[str, Any]], where: str
) -> list[dict[str, Any]]:
    """Every entry checked by its kind's form (``where`` names the list in the file);
    raises PackFileError with every problem, each naming the field at fault."""
    from builder.editors import get_editor

    editor = get_editor(system_id)
    checked: list[dict[str, Any]] = []
    problems: list[Problem] = []
    for index, entry in enumerate(entries):
        at = f"{where}[{index}]"
        kind = editor.kind(entry["category"])
        if kind is None:
            message = _("%(system)s packs hold no %(category)r") % {
                "system": system_id,
                "category": entry["category"],
            }
            problems.append(Problem(f"{at}.category", message))
            continue
        result = check_entry(kind, entry, at)
        if isinstance(result, list):
            problems.extend(result)
        else:
            checked.append(result)
    if problems:
        raise PackFileError(problems)
    return checked


def add_entries(pack: ContentPack, entries: Iterable[Mapping[str, Any]]) -> list[Item]:
    """Checked entries into a pack (inside the caller's transaction); a name the pack
    already has for that kind becomes "Name (2)", "Name (3)"…"""
    longest = Item._meta.get_field("name").max_length
    taken: dict[str, list[str]] = {}
    for category, name in pack.items.values_list("category", "name"):
        taken.setdefault(category, []).append(name)
    items = []
    for entry in entries:
        names = taken.setdefault(entry["category"], [])
        name = numbered_name(names, entry["name"], "{name} ({n})", longest)
        names.append(name)
        items.append(
            Item(
                owner_id=pack.owner_id,
                pack=pack,
                system=pack.system,
                category=entry["category"],
                name=name,
                stats=dict(entry["stats"]),
            )
        )
    return Item.objects.bulk_create(items)


def free_pack_name(owner, system: str, name: str) -> str:
    """A pack's name for ``owner`` and ``system``: ``name``, or "name (2)"… if taken."""
    longest = ContentPack._meta.get_field("name").max_length
    taken = ContentPack.objects.filter(owner=owner, system=system).values_list("name", flat=True)
    return numbered_name(taken, name, "{name} ({n})", longest)


@transaction.atomic
def import_pack(
    owner, data: Mapping[str, Any], *, into: ContentPack | None = None, use_in_my_gangs=False
) -> tuple[ContentPack, list[Item]]:
    """A pack file (checked by ``builder.packs.read_pack``) as a new pack of ``owner``'s,
    or added to one of theirs (``into``, of the same system). All or nothing: each entry
    is checked by its kind's form first, and PackFileError names every field at fault."""
    system = data["system"]
    if into is not None and into.system != system:
        raise PackFileError(
            [
                Problem(
                    "system",
                    _("the file is a %(file)s pack; this pack is %(pack)s")
                    % {"file": get_system(system).name, "pack": get_system(into.system).name},
                )
            ]
        )
    entries = check_entries(system, data["entries"], "entries")
    if into is None:
        pack = ContentPack.objects.create(
            owner=owner,
            system=system,
            name=free_pack_name(owner, system, data["name"].strip()),
            description=data.get("description", "").strip(),
        )
        if use_in_my_gangs:
            for gang in Gang.objects.filter(owner=owner, system=system):
                gang.packs.add(pack)
    else:
        pack = ContentPack.objects.select_for_update().get(pk=into.pk)
    items = add_entries(pack, entries)
    if into is not None:
        for gang in pack.gangs.all():
            _touch(gang)
    return pack, items


def export_pack(pack: ContentPack) -> dict[str, Any]:
    """The pack file of a pack: every entry, by kind then name."""
    items = pack.items.order_by("category", "name", "pk")
    return make_pack(
        pack.system,
        pack.name,
        pack.description,
        [{"category": i.category, "name": i.name, "stats": i.stats} for i in items],
    )


def _names_in(value: Any) -> set[str]:
    """Every ``name`` of an object anywhere in a member's data (a card, a weapon...)."""
    names: set[str] = set()
    stack = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("name"), str):
                names.add(value["name"])
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return names


def used_content(gang: Gang) -> list[Item]:
    """The pack entries the gang's members use: the items they carry (a bwg1 weapon) and
    the entries of the gang's packs whose names they carry by value (a bwg2 card, a gf26
    profile or equipment, a Gunfight weapon). Only entries their kind's form accepts as
    they are: the members carry everything by value anyway."""
    from builder.editors import get_editor

    members = list(gang.members.prefetch_related("member_items__item"))
    carried = {
        mi.item.pk: mi.item
        for m in members
        for mi in m.member_items.all()
        if mi.item.pack_id is not None
    }
    names: set[str] = set()
    for member in members:
        names |= _names_in(member.data)
    picked = Item.objects.for_gang(gang).filter(pack__isnull=False, name__in=names)
    used = {**carried, **{i.pk: i for i in picked}}
    editor = get_editor(gang.system)
    entries = []
    for item in sorted(used.values(), key=lambda i: (i.category, i.name, i.pk)):
        kind = editor.kind(item.category)
        entry = {"category": item.category, "name": item.name, "stats": item.stats}
        if kind is not None and not isinstance(check_entry(kind, entry, ""), list):
            entries.append(item)
    return entries


def roster_file(gang: Gang) -> dict[str, Any]:
    """The gang's roster file: its roster, and the pack entries its members use
    (``content``), so whoever imports it gets them too."""
    from builder.roster import export_roster

    roster = export_roster(gang)
    content = used_content(gang)
    if content:
        roster["content"] = [
            {"category": i.category, "name": i.name, "stats": i.stats} for i in content
        ]
    return roster
