"""Blackwater Gulch 2nd edition in a campaign: Rivals-style house rules (docs/campaigns.md)."""

from __future__ import annotations

from rules.base import as_int
from rules.campaign.progression import Progression
from rules.campaign.state import (
    MemberState,
)
from rules.i18n import _, gettext_noop
from rules.registry import get_system


class Bwg2Progression(Progression):
    """Blackwater Gulch 2nd edition: earned XP is added to the character, so to Fame."""

    title = gettext_noop("The Most Famous Gang in Blackwater Gulch")
    earned_label = gettext_noop("advances")
    injury_stats = ("str", "spd", "sta", "int", "rc", "mc")
    leader_key = "leader"

    def victory_points(self, state, victim) -> int:
        report = get_system(self.system_id).evaluate(
            {
                "system": self.system_id,
                "name": "",
                "limit": None,
                "gang": {},
                "members": [{"key": "1", "name": victim.name, "data": victim.data}],
            }
        )
        return int(report.members["1"].victory_points)

    def gain_reason(self, victim, amount) -> str:
        return _("Took out {name} ({amount} Victory Points)").format(
            name=victim.name, amount=amount
        )

    def advances_for(self, member, old_best, new_best, rules) -> int:
        return 0

    def on_gain(self, member: MemberState, delta: int, rules) -> None:
        card = member.data.get("card")
        if isinstance(card, dict):
            card["xp"] = max(0, (as_int(card.get("xp")) or 0) + delta)

    def injury_choices(self, member: MemberState) -> list[str]:
        card = member.data.get("card") or {}
        return [a for a in self.injury_stats if (as_int(card.get(a)) or 0) > 1]

    def injure(self, member: MemberState, stat: str) -> str:
        card = member.data["card"]
        card[stat] = (as_int(card.get(stat)) or 0) - 1
        return f"{stat.upper()} {card[stat] + 1} → {card[stat]}"


PROGRESSION = Bwg2Progression
