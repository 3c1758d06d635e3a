"""Outlaws: Rivals' campaign, as the book (seed 003) and RULES.md say: reputation,
notoriety, CCP, dollars and loot, showdowns, Riding to Mexico (the engine's part)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rules.base import as_int, as_str
from rules.campaign.progression import Happenings, Progression
from rules.campaign.state import (
    TIMES,
    Award,
    CampaignError,
    CampaignState,
    EncounterState,
    MemberState,
    whole_number,
)
from rules.dice import Dice
from rules.i18n import _, gettext_noop, ngettext


class RivalsProgression(Progression):
    """Outlaws: Rivals, as the book and RULES.md say: reputation, notoriety, CCP."""

    score_label = gettext_noop("Reputation")
    score_word = gettext_noop("reputation")
    earned_label = gettext_noop("CCP")
    title = gettext_noop("The Most Wanted Outlaws in the Old West")
    happening_kinds = {
        "wound": gettext_noop("Wounded"),
        "kill": gettext_noop("Killed"),
        "left": gettext_noop("Left the board early"),
        "loot": gettext_noop("Took from a dead outlaw"),
    }
    defaults: dict[str, Any] = {"limit": 30}
    rule_help: dict[str, str] = {}
    uses_location = True
    has_showdown = True
    members_are_outlaws = True
    no_house_rules = gettext_noop("Rivals uses the book's rules: there are no house rules to set.")
    campaign_ignores = frozenset({"rivals.ccp_unspent"})  # spent or lost at creation
    full_strength = True  # "Before the start of each encounter ... killed ... are replaced"
    leader_key = "leader"
    no_gain_reason = gettext_noop("earns no reputation")
    SKILL_ROWS = ("handgun", "rifle", "shotgun", "brawl", "riding")

    def __init__(self, system_id: str = "rivals"):
        super().__init__(system_id)
        from rules.systems import rivals

        self.r = rivals
        self.decline_penalty = rivals.DECLINING_A_SHOWDOWN

    def house_rules(self, given=None) -> dict[str, Any]:
        return {"limit": self.r.CCP_BUDGET}  # the book's rules: nothing to change

    def notoriety(self, score: int) -> tuple[str, int]:
        return self.r.notoriety(score)

    def death_result(self, roll: int) -> dict[str, Any]:
        """The book's own death roll (seed 003, "After the encounter")."""
        return self.r.death_result(roll)

    def roll_location(self, dice: Dice) -> dict[str, Any]:
        return self.r.roll_encounter_location(dice)

    def advances_for(self, member, old_best, new_best, rules) -> int:
        return self.r.ccp_earned(old_best, new_best)

    def advance_room(self, member: MemberState) -> int | None:
        """The book: every 5 reputation gives 1 CCP, spent or saved; nothing caps them."""
        return None

    def start(self, member: MemberState, rules) -> None:
        data = member.data
        for key in ("reputation", "ccp", "ccp_spent"):
            data.pop(key, None)
        pack = self.r.PACKS.get(as_str(data.get("pack")).upper())
        items = [c["item"] for c in pack["contents"] for _ in range(c["quantity"])] if pack else []
        member.equipment = list(data.pop("equipment", None) or items)
        cash = as_int(data.pop("cash", None))
        member.cash = cash if cash is not None else (pack["cash"] if pack else 0)

    def member_data(self, member: MemberState) -> dict[str, Any]:
        data = copy.deepcopy(member.data)
        data.update(
            reputation=member.score,
            cash=member.cash,
            ccp=member.saved,
            ccp_spent=member.spent,
            equipment=list(member.equipment),
        )
        return data

    def member_summary(self, member: MemberState) -> str:
        title, bonus = self.notoriety(member.score)
        return _("Reputation {score} · {title} (+{bonus}) · {ccp} CCP · ${cash}").format(
            score=member.score, title=title, bonus=bonus, ccp=member.saved, cash=member.cash
        )

    # -- the record
    def actions(self, member: MemberState) -> int:
        """The outlaw's toughness: the actions he starts an encounter with (Regular, 4, when
        the poster does not say)."""
        row = self.r.ROWS["toughness"]
        tier = row.get(as_int((member.data.get("tiers") or {}).get("toughness")))
        return (tier or row.get(1)).actions

    def hit_amount(
        self,
        kind: str,
        given: Any,
        victim: MemberState,
        left: dict[str, int],
        line: str,
        where: str,
    ) -> int:
        """The actions a hit is worth, checked against what the victim can still give.

        A wound costs the actions it takes, never more than the victim has left this fight
        (``left``: actions left by ref, updated here). A kill is worth the victim's
        toughness in actions, whatever earlier wounds took (the book: Sarah kills James,
        Regular toughness 4, already belly-wounded for 2, and gains 4 + his bonus 2 = 6);
        the engine fills it in, and refuses any other number.
        """
        toughness = self.actions(victim)
        remaining = left.setdefault(victim.ref, toughness)
        if kind == "kill":
            if given is not None and str(given).strip() != "" and as_int(given) != toughness:
                raise CampaignError(
                    ngettext(
                        "{line}: a kill is worth {name}'s toughness, {count} action (plus the "
                        "notoriety bonus), whatever earlier wounds took: leave the number empty "
                        "or give {count}.",
                        "{line}: a kill is worth {name}'s toughness, {count} actions (plus the "
                        "notoriety bonus), whatever earlier wounds took: leave the number empty "
                        "or give {count}.",
                        toughness,
                    ).format(line=line, name=victim.name, count=toughness),
                    where,
                )
            left[victim.ref] = 0
            return toughness
        if remaining <= 0:
            raise CampaignError(
                _(
                    "{line}: {name} has no actions left to lose (toughness {toughness}, all "
                    "taken by earlier wounds): record the hit that finished the outlaw as a "
                    "kill, or check the earlier lines."
                ).format(line=line, name=victim.name, toughness=toughness),
                where,
            )
        amount = whole_number(
            given, _("{line}: actions lost").format(line=line), where, low=1, high=10
        )
        if amount > remaining:
            if remaining < toughness:
                message = ngettext(
                    "{line}: {name} has {count} action left (toughness {toughness}, less "
                    "earlier wounds): a wound takes at most {count}.",
                    "{line}: {name} has {count} actions left (toughness {toughness}, less "
                    "earlier wounds): a wound takes at most {count}.",
                    remaining,
                )
            else:
                message = ngettext(
                    "{line}: {name} has {count} action left (toughness {toughness}): a wound "
                    "takes at most {count}.",
                    "{line}: {name} has {count} actions left (toughness {toughness}): a wound "
                    "takes at most {count}.",
                    remaining,
                )
            raise CampaignError(
                message.format(line=line, name=victim.name, count=remaining, toughness=toughness),
                where,
            )
        left[victim.ref] = remaining - amount
        return amount

    def _check_wound(self, check: Happenings, i: int, h: Mapping) -> dict[str, Any]:
        to = check.victim(i, h.get("to"))
        by = check.attacker(i, h.get("by"), to)
        amount = self.hit_amount(
            "wound",
            h.get("amount"),
            to,
            check.actions_left,
            _("Line {number}").format(number=i),
            f"line-{i}",
        )
        return {"kind": "wound", "by": by.ref, "to": to.ref, "amount": amount}

    def _check_kill(self, check: Happenings, i: int, h: Mapping) -> dict[str, Any]:
        to = check.victim(i, h.get("to"))
        by = check.attacker(i, h.get("by"), to, optional=True)
        amount = self.hit_amount(
            "kill",
            h.get("amount"),
            to,
            check.actions_left,
            _("Line {number}").format(number=i),
            f"line-{i}",
        )
        check.down.add(to.ref)
        return {"kind": "kill", "by": by.ref if by else "", "to": to.ref, "amount": amount}

    def _check_loot(self, check: Happenings, i: int, h: Mapping) -> dict[str, Any]:
        by = check.member(i, h.get("by"), gettext_noop("who took it"))
        victim = check.member(i, h.get("from") or h.get("to"), gettext_noop("the dead outlaw"))
        if victim.ref not in check.down:
            raise CampaignError(
                _(
                    "Line {number}: only a dead outlaw can be robbed; record {name}'s death on "
                    "an earlier line."
                ).format(number=i, name=victim.name),
                f"line-{i}",
            )
        if by.ref in check.down or by.ref in check.left:
            raise CampaignError(
                _("Line {number}: {name} was out of the fight by then.").format(
                    number=i, name=by.name
                ),
                f"line-{i}",
            )
        purse = getattr(check, "cash", {})
        goods = getattr(check, "goods", {})
        check.cash, check.goods = purse, goods
        left_cash = purse.setdefault(victim.ref, victim.cash)
        left_goods = goods.setdefault(victim.ref, list(victim.equipment))
        cash = whole_number(
            h.get("cash") or 0,
            _("Line {number}: dollars taken").format(number=i),
            f"line-{i}",
            low=0,
        )
        if cash > left_cash:
            raise CampaignError(
                _("Line {number}: {name} has only ${cash}.").format(
                    number=i, name=victim.name, cash=left_cash
                ),
                f"line-{i}",
            )
        items = h.get("items") or []
        if isinstance(items, str):
            items = [t.strip() for t in items.split(",") if t.strip()]
        taken = []
        for item in items:
            match = next((g for g in left_goods if g.lower() == as_str(item).lower()), None)
            if match is None:
                raise CampaignError(
                    _("Line {number}: {name} has no {item} (has: {goods}).").format(
                        number=i,
                        name=victim.name,
                        item=as_str(item) or _("such item"),
                        goods=", ".join(left_goods) or _("nothing"),
                    ),
                    f"line-{i}",
                )
            left_goods.remove(match)
            taken.append(match)
        if not cash and not taken:
            raise CampaignError(
                _("Line {number}: say what was taken (dollars or items).").format(number=i),
                f"line-{i}",
            )
        purse[victim.ref] = left_cash - cash
        return {"kind": "loot", "by": by.ref, "from": victim.ref, "cash": cash, "items": taken}

    def awards(self, state: CampaignState, enc: EncounterState) -> list[Award]:
        """Reputation as each thing happened: one of wound or kill per hit, a kill worth the
        victim's notoriety bonus at that moment (their total so far, this encounter too)."""
        running = {m.ref: m.score for g in enc.gangs for m in state.gangs[g].alive}
        awards = []
        for h in enc.happenings:
            if h["kind"] == "wound" or (h["kind"] == "kill" and h["by"]):
                to = state.member(h["to"])
                amount, why = self.hit_award(h["kind"], h["amount"], to, running[to.ref])
            elif h["kind"] == "left":
                amount, why = self.r.LEAVING_THE_BOARD, _("Left the board early")
                h = {**h, "by": h["who"]}
            else:
                continue
            running[h["by"]] += amount
            awards.append(Award(h["by"], why, amount))
        return awards + self.win_awards(state, enc, self.r.WIN_PER_OUTLAW)

    def hit_award(
        self, kind: str, amount: int, victim: MemberState, victim_score: int
    ) -> tuple[int, str]:
        """Reputation for one hit: a wound's actions lost, or a kill's actions (the victim's
        toughness) plus the victim's notoriety bonus at that moment (``victim_score``)."""
        if kind == "wound":
            gained = self.r.reputation_for_wound(amount)
            return gained, ngettext(
                "Wounded {name} ({count} action lost)",
                "Wounded {name} ({count} actions lost)",
                amount,
            ).format(name=victim.name, count=amount)
        title, bonus = self.notoriety(victim_score)
        gained = self.r.reputation_for_kill(amount, bonus)
        return gained, ngettext(
            "Killed {name}: {count} action (toughness) + {title} notoriety bonus {bonus}",
            "Killed {name}: {count} actions (toughness) + {title} notoriety bonus {bonus}",
            amount,
        ).format(name=victim.name, count=amount, title=title, bonus=bonus)

    @property
    def left_penalty(self) -> int:
        return self.r.LEAVING_THE_BOARD

    def after_award(self, state: CampaignState, enc: EncounterState) -> None:
        for h in enc.happenings:
            if h["kind"] != "loot":
                continue
            by, victim = state.member(h["by"]), state.member(h["from"])
            victim.cash -= h["cash"]
            by.cash += h["cash"]
            for item in h["items"]:
                if item in victim.equipment:
                    victim.equipment.remove(item)
                by.equipment.append(item)
            what = ", ".join(([f"${h['cash']}"] if h["cash"] else []) + h["items"])
            by.notes.append(
                _("Took {what} from {name} in encounter {number}.").format(
                    what=what, name=victim.name, number=enc.number
                )
            )

    # -- injuries and CCP
    def injury_choices(self, member: MemberState) -> list[str]:
        tiers = member.data.get("tiers") or {}
        return [row for row in self.SKILL_ROWS if (as_int(tiers.get(row)) or 0) > 0]

    def injure(self, member: MemberState, stat: str) -> str:
        tiers = member.data.setdefault("tiers", {})
        row = self.r.ROWS[stat]
        before = row.get(as_int(tiers.get(stat)))
        tiers[stat] = (as_int(tiers.get(stat)) or 0) - 1
        after = row.get(tiers[stat])
        if before is None or after is None:
            return _("{row} down one tier").format(row=row.label)
        return f"{row.label} {before.name} {before.value} → {after.name} {after.value}"

    def advance_options(self, member: MemberState) -> list[tuple[str, str]]:
        options = []
        tiers = member.data.get("tiers") or {}
        for row in self.r.ROWS.values():
            now = row.get(as_int(tiers.get(row.id)))
            for tier in row.tiers:
                if now is None or tier.tier <= now.tier:
                    continue
                cost = tier.cost - (now.cost if now else 0)
                if cost <= member.saved:
                    label = _("{row}: {tier} {value} ({cost} CCP)").format(
                        row=row.label, tier=tier.name, value=tier.value, cost=cost
                    )
                    options.append((f"{row.id}:{tier.tier}", label))
        for table in self.r.SKILL_TABLES.values():
            if table.cost <= member.saved and self._skills_left(member, table.id):
                options.append(
                    (
                        f"table:{table.id}",
                        _("Special skill: roll on {table} ({cost} CCP)").format(
                            table=table.label, cost=table.cost
                        ),
                    )
                )
        return options

    def _held(self, member: MemberState) -> list[dict[str, Any]]:
        data = member.data
        skills = [data.get("special_skill"), *(data.get("extra_skills") or [])]
        return [s for s in skills if isinstance(s, Mapping)]

    def _skills_left(self, member: MemberState, table_id: str) -> list[int]:
        table = self.r.SKILL_TABLES[table_id]
        held = {
            self.r.skill_for(s.get("table"), s.get("roll")).name
            for s in self._held(member)
            if self.r.skill_for(s.get("table"), s.get("roll"))
        }
        return [roll for roll in range(1, 7) if table.result(roll).name not in held]

    def prepare_advance(self, state, member, data, dice) -> dict[str, Any]:
        choice = as_str(data.get("choice"))
        what, _sep, value = choice.partition(":")
        if what == "table":
            table = self.r.SKILL_TABLES.get(value)
            if table is None:
                raise CampaignError(_("Choose table A, B or C."), "choice")
            if table.cost > member.saved:
                raise CampaignError(
                    _("{name} has {ccp} CCP; {table} costs {cost}.").format(
                        name=member.name, ccp=member.saved, table=table.label, cost=table.cost
                    ),
                    "choice",
                )
            left = self._skills_left(member, table.id)
            if not left:
                raise CampaignError(
                    _("{name} has every skill of {table}.").format(
                        name=member.name, table=table.label
                    ),
                    "choice",
                )
            while True:
                skill = self.r.roll_special_skill(dice, table.id)
                if skill["roll"] in left:
                    break
            return {"choice": choice, "cost": table.cost, "skill": skill}
        row = self.r.ROWS.get(what)
        tier = row.get(as_int(value)) if row else None
        if row is None or tier is None:
            raise CampaignError(_("Choose a row and a tier, or a special-skill table."), "choice")
        now = row.get(as_int((member.data.get("tiers") or {}).get(row.id)))
        if now is not None and tier.tier <= now.tier:
            raise CampaignError(
                _("{name} is already {tier} at {row}.").format(
                    name=member.name, tier=now.name, row=row.label
                ),
                "choice",
            )
        cost = tier.cost - (now.cost if now else 0)
        if cost > member.saved:
            raise CampaignError(
                _("{tier} costs {name} {cost} CCP; {saved} saved.").format(
                    tier=tier.name, name=member.name, cost=cost, saved=member.saved
                ),
                "choice",
            )
        return {"choice": choice, "cost": cost, "row": row.id, "tier": tier.tier}

    def apply_advance(self, member: MemberState, data: Mapping[str, Any]) -> str:
        member.spent += data["cost"]
        if "skill" in data:
            skill = dict(data["skill"])
            if isinstance(member.data.get("special_skill"), Mapping):
                member.data.setdefault("extra_skills", []).append(skill)
            else:
                member.data["special_skill"] = skill
            return _(
                "Spent {cost} CCP on a special-skill roll (table {table}): rolled {roll}, {skill}."
            ).format(
                cost=data["cost"],
                table=skill["table"],
                roll=skill["roll"],
                skill=skill.get("skill", ""),
            )
        row = self.r.ROWS[data["row"]]
        member.data.setdefault("tiers", {})[row.id] = data["tier"]
        tier = row.get(data["tier"])
        return _("Spent {cost} CCP: {row} is now {tier} {value}.").format(
            cost=data["cost"], row=row.label, tier=tier.name, value=tier.value
        )

    # -- dollars and recruits
    def prepare_purchase(self, state: CampaignState, data: dict[str, Any]) -> dict[str, Any]:
        member = state.member(data.get("member"))
        if not member.alive:
            raise CampaignError(_("{name} is dead.").format(name=member.name), "member")
        wanted = as_str(data.get("item")).lower()
        entry = next((p for p in self.r.CONTENT["price_list"] if p["item"].lower() == wanted), None)
        if entry is None:
            raise CampaignError(_("Choose an item from the price list."), "item")
        given = data.get("quantity")
        given = 1 if given is None or as_str(str(given)) == "" else given
        count = whole_number(given, _("How many"), "quantity", low=1, high=20)
        price = entry["price"] * count
        what = f"{count}{TIMES}{entry['item']}" if count > 1 else entry["item"]
        if price > member.cash:
            raise CampaignError(
                _("{name} has ${cash}; {item} costs ${price}.").format(
                    name=member.name, cash=member.cash, item=what, price=price
                ),
                "item",
            )
        return {
            "gang": member.gang,
            "member": member.ref,
            "item": entry["item"],
            "quantity": count,
            "price": price,
        }

    def apply_purchase(self, state: CampaignState, data: Mapping[str, Any]) -> str:
        member = state.member(data["member"])
        member.cash -= data["price"]
        entry = next(p for p in self.r.CONTENT["price_list"] if p["item"] == data["item"])
        name = (
            entry["item"][:-1]
            if entry["quantity"] > 1 and entry["item"].endswith("s")
            else entry["item"]
        )
        member.equipment += [name] * (entry["quantity"] * data["quantity"])
        count = f"{data['quantity']}{TIMES}" if data["quantity"] > 1 else ""
        item = f"{count}{entry['item']}"
        member.notes.append(_("Bought {item} for ${price}.").format(item=item, price=data["price"]))
        return _("{name} bought {item} for ${price} (${cash} left).").format(
            name=member.name, item=item, price=data["price"], cash=member.cash
        )

    def check_recruit(self, state, replaced, data) -> str:
        for key in ("reputation", "cash", "ccp", "ccp_spent", "equipment", "extra_skills"):
            data.pop(key, None)
        return super().check_recruit(state, replaced, data)


PROGRESSION = RivalsProgression
