"""Gangs built through the services, for tests and benchmarks."""

from __future__ import annotations

from django.contrib.auth.models import User

from builder import services
from builder.models import Gang, Item, Member


def weapon(name: str) -> Item:
    return Item.objects.get(owner__isnull=True, system="bwg1", category="weapon", name=name)


def horse(name: str) -> Item:
    return Item.objects.get(owner__isnull=True, system="bwg1", category="horse", name=name)


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
    leader = services.add_member(gang, name="Bill Dalton", member_type="leader")
    services.update_member(
        leader, name="Bill Dalton", member_type="leader", profession="bounty_hunter"
    )
    # 20 points; the first Bounty Hunter's +1 Str: Str 4, Qui 4, Sta 6, Int 4, RC 4, MC 5.
    set_points(leader, str=2, qui=3, sta=5, int=3, rc=3, mc=4)
    for w in ("Bowie knife", "Remington Army revolver", "Winchester Repeater"):
        services.add_item(leader, weapon(w))
    others = size - 1
    henchmen = (others + 1) // 2
    for i in range(others):
        if i < henchmen:
            m = services.add_member(gang, name=f"Henchman {i + 1}", member_type="henchman")
            set_points(m, str=1, qui=2, sta=2, int=1, rc=2, mc=2)
            services.add_item(m, weapon("Bowie knife"))
        else:
            m = services.add_member(gang, name=f"Gun {i + 1}", member_type="professional")
            services.update_member(
                m, name=f"Gun {i + 1}", member_type="professional", profession="gunslinger"
            )
            set_points(m, str=2, qui=3, sta=2, int=2, rc=3, mc=3)
            services.add_item(m, weapon("Remington Army revolver"))
    gang.refresh_from_db()
    return gang
