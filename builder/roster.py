"""Turn stored gangs into rosters for the rules engine, and evaluate them.

This is the only place that knows both the models and the roster shape the engine reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from builder.models import Gang, Member, MemberItem
from rules import GameSystem, Report, get_system
from rules.roster import make_roster


def members_with_items(gang: Gang) -> QuerySet[Member]:
    """The gang's members in recruitment order, with their items, in two queries."""
    return gang.members.prefetch_related(
        Prefetch("member_items", queryset=MemberItem.objects.select_related("item"))
    )


def member_data(system: GameSystem, member: Member) -> dict[str, Any]:
    """The member's system-specific part, with its catalogue items written in by value."""
    data: dict[str, Any] = dict(member.data)
    slots = getattr(system, "item_slots", {})
    for key, many in slots.values():
        data[key] = [] if many else None
    for member_item in member.member_items.all():
        slot = slots.get(member_item.item.category)
        if slot is None:
            continue
        key, many = slot
        if many:
            data[key].append(member_item.item.roster_entry())
        else:
            data[key] = member_item.item.roster_entry()
    return data


def gang_roster(gang: Gang, members: Sequence[Member]) -> dict[str, Any]:
    """The gang in the roster file's shape, each member keyed by its id (for findings)."""
    system = get_system(gang.system)
    roster = make_roster(gang.system, gang.name, gang.limit, [], gang.data)
    roster["members"] = [
        {"key": str(m.pk), "name": m.name, "data": member_data(system, m)} for m in members
    ]
    return roster


def export_roster(gang: Gang) -> dict[str, Any]:
    """The roster file of a saved gang: members keyed 1, 2, ... in recruitment order."""
    system = get_system(gang.system)
    members = members_with_items(gang)
    return make_roster(
        gang.system,
        gang.name,
        gang.limit,
        [(m.name, member_data(system, m)) for m in members],
        gang.data,
    )


@dataclass
class EvaluatedGang:
    gang: Gang
    system: GameSystem
    members: list[Member]
    report: Report

    def rows(self) -> list[tuple[Member, Any]]:
        """Each stored member beside its figures from the rules engine."""
        return [(m, self.report.members[str(m.pk)]) for m in self.members]

    def finding_rows(self) -> list[dict[str, Any]]:
        """Findings with the name of the member each concerns, for templates."""
        rows = []
        for finding in self.report.findings:
            member = self.report.members.get(finding.member) if finding.member else None
            rows.append({"finding": finding, "member": member})
        return rows

    def item_rows(self) -> list[dict[str, Any]]:
        """Per member: the stored member, its figures, and its items by category."""
        rows = []
        for member, figures in self.rows():
            by_category: dict[str, list[MemberItem]] = {}
            for member_item in member.member_items.all():
                by_category.setdefault(member_item.item.category, []).append(member_item)
            rows.append({"member": member, "r": figures, "items": by_category})
        return rows


def evaluate_gang(gang: Gang, members: Sequence[Member] | None = None) -> EvaluatedGang:
    if members is None:
        members = list(members_with_items(gang))
    system = get_system(gang.system)
    report = system.evaluate(gang_roster(gang, members))
    return EvaluatedGang(gang=gang, system=system, members=list(members), report=report)
