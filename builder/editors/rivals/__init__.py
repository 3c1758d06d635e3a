"""Outlaws: Rivals - Gangs of the Old West: the browser builder.

A gang is 4 to 6 outlaws bought from 30 Character Creation Points (CCP). Each outlaw
(a Wanted Poster) picks one tier in each of six rows, may pay for a special-skill table
and roll 1D6 on it (or enter a die rolled at the table), chooses a free equipment pack,
gender and handedness, and may use the optional Drunk / Tuwa statuses. One outlaw is the
leader, and the gang is named after him or her.

The content is the book's (tiers, tables, packs live in ``rules/systems/rivals/data/`` and the
engine reads them by id), so this editor has no content kinds: a pack entry could not be
read by the rules engine.

The page: under the roster, the gang's CCP (spent, left, outlaws), "Add outlaw" (one tap:
the outlaw is named "Outlaw N", opens, and is renamed in its panel; the gang's first
outlaw is its leader) and the gang name suggested from the leader's. The open outlaw's
panel: the poster (name, gender, hand, pack, optional statuses) and the six tiers, each
applied as it changes (or "Regular in every row" in one tap); the special skill (roll on a
table in one tap, enter a roll made at the table, remove it); make leader and remove.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext_lazy as _

from builder import services
from builder.editors.base import ActionContext, ActionForm, Editor
from builder.models import Member
from rules.i18n import punctuate
from rules.systems import rivals

ROWS = rivals.ROWS
TABLES = rivals.SKILL_TABLES
PACKS = rivals.PACKS
NAME_MAX = Member._meta.get_field("name").max_length


def tier_label(tier: rivals.Tier) -> str:
    """How a tier shows in its select: value and cost first (they stay readable in a
    narrow select), then the book's name: "+3 (4 CCP) · Gunslinger"."""
    if tier.actions is not None:
        value = ngettext("%(n)s action", "%(n)s actions", tier.actions) % {"n": tier.actions}
    else:
        value = f"+{tier.bonus}"
    return f"{value} ({tier.cost} CCP) · {tier.name}"


def table_label(table: rivals.SkillTable) -> str:
    return f"{table.label} — {table.cost} CCP"


def pack_label(pack_id: str) -> str:
    pack = PACKS[pack_id]
    contents = ", ".join(rivals._item(c) for c in pack["contents"])
    return f"{pack_id}{punctuate(':')}{contents}, ${pack['cash']}"


TABLE_CHOICES = [(t.id, table_label(t)) for t in TABLES.values()]


def pack_choices() -> list[tuple[str, str]]:
    """Drawn when the form is (French spacing after the pack's letter)."""
    return [(pid, pack_label(pid)) for pid in PACKS]


# The engine's plain words (marked there with gettext_noop), translated where shown.
GENDER_CHOICES = [(k, gettext_lazy(v)) for k, v in rivals.GENDERS.items()]
HAND_CHOICES = [(k, gettext_lazy(v)) for k, v in rivals.HANDS.items()]


NO_NAME = gettext_lazy("Give the outlaw a name (it goes on the Wanted Poster).")


def outlaw_name(value: str) -> str:
    """The name as typed, its spaces tidied; a name of only spaces is refused."""
    name = " ".join(value.split())
    if not name:
        raise forms.ValidationError(NO_NAME)
    return name


def outlaw_data(member: Member) -> dict[str, Any]:
    """A full copy of the member's data (a Wanted Poster), with defaults for what is
    missing, ready to change and save."""
    data = dict(rivals.SYSTEM.new_member())
    data.pop("leader")
    stored = member.data if isinstance(member.data, dict) else {}
    data.update(stored)
    tiers = stored.get("tiers")
    data["tiers"] = {**dict.fromkeys(ROWS, 0), **(tiers if isinstance(tiers, dict) else {})}
    return data


def save_data(ctx: ActionContext, data: dict[str, Any], *fields: str) -> None:
    ctx.member.data = data
    ctx.member.save(update_fields=["data", *fields])


# --------------------------------------------------------------------------- gang actions


class AddOutlawForm(ActionForm):
    """Add an outlaw in one tap: tier 0 everywhere (0 CCP), no special skill, pack A,
    named "Outlaw N" (renamed in the panel) unless a name is posted. The gang's first
    outlaw, while it has no leader, is the leader."""

    label = _("Add outlaw")

    name = forms.CharField(
        max_length=NAME_MAX,
        required=False,
        label=_("New outlaw's name"),
        help_text=_("Leave it empty for “Outlaw 1”, “Outlaw 2”…: rename them in their panel."),
    )

    def setup(self) -> None:
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())

    def apply(self, ctx: ActionContext) -> None:
        members = list(ctx.gang.members.all())
        name = self.cleaned_data["name"] or default_name(m.name for m in members)
        has_leader = any(isinstance(m.data, dict) and m.data.get("leader") for m in members)
        member = services.append_member(
            ctx.gang, name=name, data=rivals.SYSTEM.new_member(leader=not has_leader)
        )
        ctx.opened = member


def default_name(taken: Any) -> str:
    """ "Outlaw N": the first N from the number of outlaws + 1 that no outlaw is called."""
    taken = [n.casefold() for n in taken]
    number = len(taken) + 1
    while (gettext("Outlaw %(number)s") % {"number": number}).casefold() in taken:
        number += 1
    return gettext("Outlaw %(number)s") % {"number": number}


class UseSuggestedNameForm(ActionForm):
    """Rename the gang after its leader ("Red Jack" -> "Red Jack's Gang")."""

    label = _("Use this name")

    def clean(self):
        cleaned = super().clean()
        # Only on a post: read the leader as stored now (the page's suggestion may be old).
        leaders = [
            m for m in self.gang.members.all() if isinstance(m.data, dict) and m.data.get("leader")
        ]
        if not leaders or not leaders[0].name.strip():
            raise forms.ValidationError(
                gettext_lazy(
                    "Mark a named outlaw as the leader first: the gang is named after them."
                )
            )
        suggested = rivals.suggested_gang_name(leaders[0].name)
        cleaned["name"] = suggested[: self.gang._meta.get_field("name").max_length]
        return cleaned

    def apply(self, ctx: ActionContext) -> None:
        name = self.cleaned_data["name"]
        ctx.gang.name = name
        ctx.gang.save(update_fields=["name"])
        # The view draws the page from the gang it read before the action: keep it in step.
        self.gang.name = name


# --------------------------------------------------------------------------- member actions


class TiersForm(ActionForm):
    """The six rows of the Wanted Poster: one tier each, each with its CCP cost. Applies
    as a tier changes. A row left out of the post keeps its tier, so a post of one row
    changes that row alone."""

    label = _("Save tiers")
    live = True

    def setup(self) -> None:
        for row in ROWS.values():
            self.fields[row.id] = forms.TypedChoiceField(
                label=row.label,
                choices=[(t.tier, tier_label(t)) for t in row.tiers],
                coerce=int,
                required=False,
                empty_value=None,
                error_messages={
                    "invalid_choice": gettext("Pick one of the %(row)s tiers: %(choices)s.")
                    % {"row": row.label, "choices": row.choices}
                },
            )

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        tiers = (member.data or {}).get("tiers") or {}
        return {row: tiers.get(row, 0) for row in ROWS}

    def apply(self, ctx: ActionContext) -> None:
        data = outlaw_data(ctx.member)
        chosen = {row: self.cleaned_data[row] for row in ROWS}
        data["tiers"].update({row: tier for row, tier in chosen.items() if tier is not None})
        save_data(ctx, data)


REGULAR = {row.id: next(t for t in row.tiers if t.name == "Regular") for row in ROWS.values()}
REGULAR_COST = sum(t.cost for t in REGULAR.values())


class RegularTiersForm(ActionForm):
    """Every row at its Regular tier in one tap (6 CCP): the book's ordinary outlaw, a
    start to change from."""

    label = _("Regular in every row")

    def apply(self, ctx: ActionContext) -> None:
        data = outlaw_data(ctx.member)
        data["tiers"] = {row: tier.tier for row, tier in REGULAR.items()}
        save_data(ctx, data)


class PosterForm(ActionForm):
    """Name, gender, handedness, equipment pack and the optional statuses. Applies as a
    field changes."""

    label = _("Save")
    live = True

    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=NAME_MAX,
        error_messages={"required": NO_NAME},
    )
    gender = forms.ChoiceField(
        label=gettext_lazy("Gender"),
        choices=GENDER_CHOICES,
        error_messages={"invalid_choice": gettext_lazy("Choose male or female.")},
    )
    hand = forms.ChoiceField(
        choices=HAND_CHOICES,
        label=gettext_lazy("Handedness"),
        error_messages={"invalid_choice": gettext_lazy("Choose left- or right-handed.")},
    )
    pack = forms.ChoiceField(
        choices=pack_choices,
        label=gettext_lazy("Equipment pack (free)"),
        error_messages={
            "invalid_choice": format_lazy(
                gettext_lazy("Choose an equipment pack: {packs}."), packs=", ".join(PACKS)
            )
        },
    )
    drunk = forms.BooleanField(
        required=False,
        label=gettext_lazy("Drunk"),
        help_text=gettext_lazy("Optional rule: agree it with your opponent."),
    )
    tuwa = forms.BooleanField(
        required=False,
        label=gettext_lazy("Tuwa (Brave)"),
        help_text=gettext_lazy("Optional rule: agree it with your opponent."),
    )

    def setup(self) -> None:
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        data = member.data or {}
        return {
            "name": member.name,
            "gender": data.get("gender") or "",
            "hand": data.get("hand") or "",
            "pack": data.get("pack") or "",
            "drunk": data.get("drunk") is True,
            "tuwa": data.get("tuwa") is True,
        }

    def clean_name(self) -> str:
        return outlaw_name(self.cleaned_data["name"])

    def apply(self, ctx: ActionContext) -> None:
        data = outlaw_data(ctx.member)
        cleaned = self.cleaned_data
        data.update(gender=cleaned["gender"], hand=cleaned["hand"], pack=cleaned["pack"])
        for flag in ("drunk", "tuwa"):
            if cleaned[flag]:
                data[flag] = True
            else:
                data.pop(flag, None)
        ctx.member.name = cleaned["name"]
        save_data(ctx, data, "name")


class LeaderForm(ActionForm):
    """Make this outlaw the gang's leader (and nobody else)."""

    label = _("Make leader")

    def apply(self, ctx: ActionContext) -> None:
        for other in ctx.gang.members.exclude(pk=ctx.member.pk):
            if isinstance(other.data, dict) and "leader" in other.data:
                other.data = {k: v for k, v in other.data.items() if k != "leader"}
                other.save(update_fields=["data"])
        data = outlaw_data(ctx.member)
        data["leader"] = True
        save_data(ctx, data)


class RollSkillForm(ActionForm):
    """Pay for a special-skill table and let the app roll 1D6 on it."""

    label = _("Pay and roll 1D6")
    rolls = True

    table = forms.ChoiceField(
        choices=TABLE_CHOICES,
        label=gettext_lazy("Special-skill table"),
        error_messages={
            "invalid_choice": format_lazy(
                gettext_lazy("Choose a table: {tables}."), tables=rivals._TABLE_LIST
            )
        },
    )

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        skill = (member.data or {}).get("special_skill")
        return {"table": skill.get("table", "A")} if isinstance(skill, dict) else {"table": "A"}

    def apply(self, ctx: ActionContext) -> None:
        skill = rivals.roll_special_skill(ctx.dice, self.cleaned_data["table"])
        table = TABLES[skill["table"]]
        ctx.outcome = f"{table.label} ({table.cost} CCP): {skill['roll']} → {skill['skill']}"
        data = outlaw_data(ctx.member)
        data["special_skill"] = skill
        save_data(ctx, data)


class EnterSkillForm(ActionForm):
    """Record a special skill rolled with a real die at the table."""

    label = _("Enter roll")

    table = forms.ChoiceField(
        choices=TABLE_CHOICES,
        label=gettext_lazy("Table"),
        error_messages={
            "invalid_choice": format_lazy(
                gettext_lazy("Choose a table: {tables}."), tables=rivals._TABLE_LIST
            )
        },
    )
    roll = forms.IntegerField(
        min_value=1,
        max_value=6,
        label=gettext_lazy("1D6 rolled"),
        error_messages={
            "min_value": gettext_lazy("A 1D6 roll is 1 to 6."),
            "max_value": gettext_lazy("A 1D6 roll is 1 to 6."),
            "invalid": gettext_lazy("Enter the number rolled, 1 to 6."),
            "required": gettext_lazy("Enter the number rolled, 1 to 6."),
        },
    )

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        skill = (member.data or {}).get("special_skill")
        return {"table": skill.get("table", "A")} if isinstance(skill, dict) else {"table": "A"}

    def apply(self, ctx: ActionContext) -> None:
        table_id, roll = self.cleaned_data["table"], self.cleaned_data["roll"]
        result = rivals.skill_for(table_id, roll)
        data = outlaw_data(ctx.member)
        data["special_skill"] = {
            "table": table_id,
            "roll": roll,
            "source": "entered",
            "skill": result.name,
        }
        save_data(ctx, data)


class RemoveSkillForm(ActionForm):
    label = _("Remove special skill")

    def apply(self, ctx: ActionContext) -> None:
        data = outlaw_data(ctx.member)
        data["special_skill"] = None
        save_data(ctx, data)


class RemoveOutlawForm(ActionForm):
    label = _("Remove outlaw")

    def apply(self, ctx: ActionContext) -> None:
        ctx.removed = services.remove_member(ctx.member)  # Undo brings it back


class RivalsEditor(Editor):
    system_id = "rivals"
    gang_template = "editors/rivals/_gang.html"
    panel_template = "editors/rivals/_panel.html"
    stylesheet = "editors/rivals/editor.css"
    roster_title = _("Outlaws")
    empty_roster = _("No outlaws yet: a gang has 4 to 6. Add the first below: it is the leader.")
    add_action = "add_outlaw"
    gang_actions = {
        "add_outlaw": AddOutlawForm,
        "use_name": UseSuggestedNameForm,
    }
    member_actions = {
        "tiers": TiersForm,
        "regular": RegularTiersForm,
        "poster": PosterForm,
        "leader": LeaderForm,
        "roll_skill": RollSkillForm,
        "enter_skill": EnterSkillForm,
        "remove_skill": RemoveSkillForm,
        "remove": RemoveOutlawForm,
    }

    def row(self, member: Member, figures: Any) -> dict[str, Any]:
        """Leader or Outlaw (and the special skill), Actions and the two best rows."""
        kind = [_("Leader") if getattr(figures, "leader", False) else _("Outlaw")]
        skill = getattr(figures, "special_skill", None)
        if isinstance(skill, dict) and skill.get("name"):
            kind.append(skill["name"])
        tiers = getattr(figures, "tiers", {}) or {}
        stats = []
        toughness = tiers.get("toughness")
        if toughness is not None:
            stats.append((_("Actions"), toughness.value))
        best = sorted(
            (
                (t.tier, -i, row)
                for i, (row, t) in enumerate(tiers.items())
                if row != "toughness" and t is not None
            ),
            reverse=True,
        )
        for level, _order, row_id in best[:2]:
            if level > 0:
                stats.append((ROWS[row_id].label, tiers[row_id].value))
        return {"kind": " · ".join(str(k) for k in kind), "stats": stats}

    def all_good(self, evaluated: Any) -> str:
        left = evaluated.report.gang.get("ccp_left", 0)
        if left:
            return ngettext(
                "Nothing to fix: the gang is legal. %(left)d CCP is not spent yet.",
                "Nothing to fix: the gang is legal. %(left)d CCP are not spent yet.",
                left,
            ) % {"left": left}
        return _("Nothing to fix: the gang is legal, and all %(budget)d CCP are spent.") % {
            "budget": rivals.CCP_BUDGET
        }

    def extra_context(self, evaluated: Any, catalogue: Any) -> dict[str, Any]:
        report = evaluated.report
        facts = report.gang
        count = facts.get("outlaws", 0)
        return {
            "rivals": {
                "budget": rivals.CCP_BUDGET,
                "spent": facts.get("ccp_spent", 0),
                "left": facts.get("ccp_left", 0),
                "over": facts.get("ccp_over", 0),
                "outlaws": count,
                "min": rivals.MIN_OUTLAWS,
                "max": rivals.MAX_OUTLAWS,
                "count_ok": rivals.MIN_OUTLAWS <= count <= rivals.MAX_OUTLAWS,
                "suggested_name": facts.get("suggested_name", ""),
                "leader_name": facts.get("leader_name", ""),
                "tables": list(TABLES.values()),
                "regular_cost": REGULAR_COST,
            }
        }


EDITOR = RivalsEditor()
