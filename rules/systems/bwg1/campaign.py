"""Blackwater Gulch v1.1.2 in a campaign: Rivals-style house rules (docs/campaigns.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import as_str
from rules.campaign.progression import Progression
from rules.campaign.state import (
    CampaignError,
    MemberState,
)
from rules.i18n import _, gettext_noop
from rules.registry import get_system


class Bwg1Progression(Progression):
    """Blackwater Gulch v1.1.2: every 5 XP is an attribute point, while some attribute is
    below 6; skills at 4 and 6 follow."""

    title = gettext_noop("The Most Famous Gang in Blackwater Gulch")
    earned_label = gettext_noop("attribute points")
    VP = {"leader": 5, "professional": 3, "henchman": 2}
    injury_stats = ("str", "qui", "sta", "int", "rc", "mc")

    def is_leader(self, data) -> bool:
        return as_str(data.get("type")) == "leader"

    def victory_points(self, state, victim) -> int:
        return self.VP.get(as_str(victim.data.get("type")), 2)

    def _attributes(self, member: MemberState) -> dict[str, int]:
        report = get_system(self.system_id).evaluate(
            {
                "system": self.system_id,
                "name": "",
                "limit": None,
                "gang": {},
                "members": [{"key": "1", "name": member.name, "data": member.data}],
            }
        )
        return dict(report.members["1"].attributes)

    def injury_choices(self, member: MemberState) -> list[str]:
        values = self._attributes(member)
        return [a for a in self.injury_stats if values.get(a, 1) > 1]

    def injure(self, member: MemberState, stat: str) -> str:
        advances = member.data.setdefault("advances", {})
        advances[stat] = advances.get(stat, 0) - 1
        return f"{stat.upper()} -1"

    def advance_room(self, member: MemberState) -> int | None:
        """The points the attributes can still take below 6 (the book's most), less those
        saved."""
        values = self._attributes(member)
        room = sum(max(0, 6 - values.get(a, 6)) for a in self.injury_stats)
        return max(0, room - member.saved)

    def no_room_note(self, member: MemberState) -> str:
        return _("no more attribute points: every attribute is 6, or will be with the points saved")

    def advance_options(self, member: MemberState) -> list[tuple[str, str]]:
        if member.saved < 1:
            return []
        values = self._attributes(member)
        return [
            (a, f"{a.upper()} {values[a]} → {values[a] + 1}")
            for a in self.injury_stats
            if values.get(a, 6) < 6
        ]

    def prepare_advance(self, state, member, data, dice) -> dict[str, Any]:
        attribute = as_str(data.get("choice"))
        if member.saved < 1:
            raise CampaignError(
                _("{name} has no attribute point to spend.").format(name=member.name), "choice"
            )
        if attribute not in dict(self.advance_options(member)):
            raise CampaignError(_("Choose an attribute below 6."), "choice")
        return {"choice": attribute}

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        member.spent += 1
        advances = member.data.setdefault("advances", {})
        advances[data["choice"]] = advances.get(data["choice"], 0) + 1
        return _("Spent an attribute point: {attribute} +1.").format(
            attribute=data["choice"].upper()
        )


PROGRESSION = Bwg1Progression
