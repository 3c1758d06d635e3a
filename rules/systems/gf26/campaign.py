"""Gangfight Core 2.6 in a campaign: Rivals-style house rules (docs/campaigns.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import as_int, as_str
from rules.campaign.progression import Progression
from rules.campaign.state import (
    CampaignError,
    MemberState,
)
from rules.i18n import _, gettext_noop


class Gf26Progression(Progression):
    """Gangfight Core 2.6: campaigns start at 500 points; 5 XP promote a model one troop
    type (Regular → Veteran → Hero) with a new perk. A Hero, or a model whose saved
    promotions already make it one, earns no more."""

    earned_label = gettext_noop("promotions")
    defaults = {**Progression.defaults, "limit": 500}
    VP = {"regular": 1, "veteran": 2, "hero": 3}
    NEXT = {"regular": "veteran", "veteran": "hero"}
    injury_stats = ("mov", "att", "mrk", "def", "iv", "wp")
    leader_key = "leader"

    def _type(self, member: MemberState) -> str:
        profile = member.data.get("profile") or {}
        return as_str(profile.get("troop_type")).lower()

    def advance_room(self, member: MemberState) -> int | None:
        """The troop types above the model's (Core 2.6, "Troop Types": Regular 1 perk,
        Veteran 2, Hero 3), less the promotions it has saved: a Hero gains no more."""
        above, kind = 0, self._type(member)
        while kind in self.NEXT:
            above, kind = above + 1, self.NEXT[kind]
        return max(0, above - member.saved)

    def no_room_note(self, member: MemberState) -> str:
        return _("no more promotions: Hero is the highest troop type")

    def victory_points(self, state, victim) -> int:
        return self.VP.get(self._type(victim), 1)

    def injury_choices(self, member: MemberState) -> list[str]:
        profile = member.data.get("profile") or {}
        return [a for a in self.injury_stats if (as_int(profile.get(a)) or 0) > 1]

    def injure(self, member: MemberState, stat: str) -> str:
        profile = member.data["profile"]
        profile[stat] = (as_int(profile.get(stat)) or 0) - 1
        return f"{stat.upper()} {profile[stat] + 1} → {profile[stat]}"

    def advance_options(self, member: MemberState) -> list[tuple[str, str]]:
        from rules.systems import gf26

        if member.saved < 1 or self._type(member) not in self.NEXT:
            return []
        to = self.NEXT[self._type(member)]
        held = set(member.data.get("perks") or [])
        return [
            (pid, _("Become a {type} with {perk}").format(type=to.title(), perk=p["name"]))
            for pid, p in gf26.PERKS.items()
            if pid not in held
        ]

    def prepare_advance(self, state, member, data, dice) -> dict[str, Any]:
        if member.saved < 1:
            raise CampaignError(
                _("{name} has no promotion to take.").format(name=member.name), "choice"
            )
        if self._type(member) not in self.NEXT:
            raise CampaignError(_("{name} is a Hero already.").format(name=member.name), "choice")
        perk = as_str(data.get("choice"))
        if perk not in dict(self.advance_options(member)):
            raise CampaignError(_("Choose a perk the model doesn't have."), "choice")
        return {"choice": perk, "to": self.NEXT[self._type(member)]}

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        from rules.systems import gf26

        member.spent += 1
        member.data.setdefault("profile", {})["troop_type"] = data["to"]
        member.data.setdefault("perks", []).append(data["choice"])
        return _("Promoted to {type} with {perk}.").format(
            type=data["to"].title(), perk=gf26.PERKS[data["choice"]]["name"]
        )


PROGRESSION = Gf26Progression
