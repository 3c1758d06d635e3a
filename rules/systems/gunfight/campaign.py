"""Gunfight v2 in a campaign: Rivals-style house rules (docs/campaigns.md)."""

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


class GunfightProgression(Progression):
    """Gunfight v2: characters move from Greenhorn to Old Hand (5 XP) to Veteran (15 XP),
    each step rolling a new special ability on their type's D20 table. A mark counts only
    above the character's level: an Old Hand is promoted at 15, a Veteran never."""

    earned_label = gettext_noop("promotions")
    death_roll_note = gettext_noop("Troopers and rabble make no death roll.")
    defaults = {**Progression.defaults, "old_hand_xp": 5, "veteran_xp": 15}
    rule_help = {
        **Progression.rule_help,
        "old_hand_xp": gettext_noop("Experience at which a Greenhorn becomes an Old Hand."),
        "veteran_xp": gettext_noop("Experience at which an Old Hand becomes a Veteran."),
    }
    VP = {"greenhorn": 1, "old_hand": 2, "veteran": 3}
    NEXT = {"greenhorn": "old_hand", "old_hand": "veteran"}
    LEVELS = {"greenhorn": 0, "old_hand": 1, "veteran": 2}
    injury_stats = ("bd", "sk", "sp", "ag", "wp")
    no_gain_reason = gettext_noop("troopers and rabble gain no experience")

    def _character(self, member: MemberState) -> bool:
        return as_str(member.data.get("figure")) == "character"

    def victory_points(self, state, victim) -> int:
        return self.VP.get(as_str(victim.data.get("experience")), 1)

    def earns(self, member: MemberState) -> bool:
        return self._character(member)

    def rolls_death(self, member: MemberState) -> bool:
        return self._character(member)

    def _marks(self, best: int, rules: Mapping[str, Any]) -> int:
        """How many levels above Greenhorn a best score of ``best`` reaches."""
        marks = [as_int(rules.get("old_hand_xp")) or 5, as_int(rules.get("veteran_xp")) or 15]
        return sum(1 for mark in marks if mark <= best)

    def _level(self, member: MemberState) -> int:
        """The character's level (Greenhorn 0, Old Hand 1, Veteran 2) once the promotions
        it has saved are taken."""
        level = self.LEVELS.get(as_str(member.data.get("experience")), len(self.NEXT))
        return level + member.saved

    def advances_for(self, member, old_best, new_best, rules) -> int:
        """The marks newly reached above the character's level: an Old Hand passing the Old
        Hand mark gains nothing, and is promoted at the Veteran mark."""
        reached = self._marks(new_best, rules)
        return max(0, reached - max(self._marks(old_best, rules), self._level(member)))

    def advance_room(self, member: MemberState) -> int | None:
        """Gunfight v2, "Characters": a greenhorn, an old hand, a veteran (one, two, three
        abilities); a Veteran goes no higher."""
        return max(0, len(self.NEXT) - self._level(member))

    def earn(self, member, old_best, new_best, rules) -> tuple[int, str]:
        earned = min(
            self.advances_for(member, old_best, new_best, rules), self.advance_room(member)
        )
        if earned or self._marks(new_best, rules) <= self._marks(old_best, rules):
            return earned, ""
        # a mark passed that makes the character nothing new
        if self._level(member) >= len(self.NEXT):
            return 0, _("no more promotions: Veteran is the highest level")
        return 0, _("no promotion: already an Old Hand")

    def injury_choices(self, member: MemberState) -> list[str]:
        values = member.data.get("characteristics") or {}
        return [c for c in self.injury_stats if (as_int(values.get(c)) or 0) > 1]

    def injure(self, member: MemberState, stat: str) -> str:
        values = member.data["characteristics"]
        values[stat] = (as_int(values.get(stat)) or 0) - 1
        return f"{stat.upper()} {values[stat] + 1} → {values[stat]}"

    def advance_options(self, member: MemberState) -> list[tuple[str, str]]:
        level = as_str(member.data.get("experience"))
        if member.saved < 1 or not self._character(member) or level not in self.NEXT:
            return []
        to = self.NEXT[level].replace("_", " ").title()
        return [("promote", _("Become {level} and roll a new ability").format(level=to))]

    def prepare_advance(self, state, member, data, dice) -> dict[str, Any]:
        from rules.systems import gunfight

        if not self.advance_options(member):
            raise CampaignError(
                _("{name} has no promotion to take.").format(name=member.name), "choice"
            )
        table = gunfight.table_for(as_str(member.data.get("character_type")))
        if table is None:
            raise CampaignError(
                _("{name} has no ability table (character type).").format(name=member.name),
                "choice",
            )
        held = set(member.data.get("abilities") or [])
        if not set(gunfight.table_abilities(table)) - held:
            raise CampaignError(
                _("{name} has every ability on the table.").format(name=member.name), "choice"
            )
        while True:
            roll = dice.d20(f"{member.name}: new ability ({table.get('name', 'table')})")
            ability = gunfight.table_result(table, roll)
            if ability not in held:  # RULES.md: a repeated ability is re-rolled
                break
        rolled = dice.log[-1].to_dict()
        to = self.NEXT[as_str(member.data.get("experience"))]
        return {"choice": "promote", "to": to, "ability": ability, "roll": roll, "rolled": rolled}

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        from rules.systems import gunfight

        member.spent += 1
        member.data["experience"] = data["to"]
        member.data.setdefault("abilities", []).append(data["ability"])
        member.data.setdefault("rolls", []).append(dict(data["rolled"]))
        name = gunfight.ABILITIES.get(data["ability"], {}).get("name", data["ability"])
        level = data["to"].replace("_", " ").title()
        return _("Became {level}: rolled {roll}, {ability}.").format(
            level=level, roll=data["roll"], ability=name
        )


PROGRESSION = GunfightProgression
