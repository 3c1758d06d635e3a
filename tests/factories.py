"""Gangs made straight in the database, for tests and benchmarks.

Members and their items are rows as the builder's actions leave them (member data from
``rules.systems.bwg1``); each change bumps the gang's version, as every real change does.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import F, Max
from django.utils import timezone

from builder import services, signals
from builder.models import Gang, Item, Member, MemberItem
from rules.systems import bwg1


def weapon(name: str) -> Item:
    return Item.objects.get(owner__isnull=True, system="bwg1", category="weapon", name=name)


def horse(name: str) -> Item:
    return Item.objects.get(owner__isnull=True, system="bwg1", category="horse", name=name)


def touch(gang: Gang) -> Gang:
    """A new version for the gang, as after any change made in the builder (which says so:
    the leagues re-check the gang's registrations)."""
    Gang.objects.filter(pk=gang.pk).update(version=F("version") + 1, updated=timezone.now())
    gang.version = Gang.objects.filter(pk=gang.pk).values_list("version", flat=True).get()
    signals.gang_changed.send(Gang, gang=gang)
    return gang


def recruit(
    gang: Gang, name: str, member_type: str = "henchman", profession: str = "", **points: int
) -> Member:
    """A bwg1 member at the end of the gang, with a profession and attribute points."""
    data = bwg1.SYSTEM.new_member(member_type)
    data["profession"] = profession
    data["points"] = {**data["points"], **points}
    member = services.append_member(gang, name=name, data=data)
    touch(gang)
    return member


def give(member: Member, *items: Item) -> list[MemberItem]:
    """Catalogue items (weapons, a horse) carried by the member, after what it has."""
    last = member.member_items.aggregate(last=Max("position"))["last"]
    start = 0 if last is None else last + 1
    made = MemberItem.objects.bulk_create(
        [MemberItem(member=member, item=item, position=start + i) for i, item in enumerate(items)]
    )
    touch(member.gang)
    return made


def set_points(member: Member, **points: int) -> Member:
    data = dict(member.data)
    data["points"] = {**data["points"], **points}
    member.data = data
    member.save()
    return member


def build_gang(owner: User, size: int = 5, name: str = "The Dalton Boys", limit=None) -> Gang:
    """A legal bwg1 gang: a Leader, then alternately Henchmen and Professionals.

    Every point is spent, every member is armed within Str and skill, and at least half
    the non-leaders are Henchmen.
    """
    gang = services.create_gang(owner, system="bwg1", name=name, limit=limit)
    # 20 points; the first Bounty Hunter's +1 Str: Str 4, Qui 4, Sta 6, Int 4, RC 4, MC 5.
    leader = recruit(
        gang, "Bill Dalton", "leader", "bounty_hunter", str=2, qui=3, sta=5, int=3, rc=3, mc=4
    )
    give(
        leader,
        *(weapon(w) for w in ("Bowie knife", "Remington Army revolver", "Winchester Repeater")),
    )
    others = size - 1
    henchmen = (others + 1) // 2
    for i in range(others):
        if i < henchmen:
            m = recruit(gang, f"Henchman {i + 1}", str=1, qui=2, sta=2, int=1, rc=2, mc=2)
            give(m, weapon("Bowie knife"))
        else:
            m = recruit(
                gang,
                f"Gun {i + 1}",
                "professional",
                "gunslinger",
                str=2,
                qui=3,
                sta=2,
                int=2,
                rc=3,
                mc=3,
            )
            give(m, weapon("Remington Army revolver"))
    gang.refresh_from_db()
    return gang
