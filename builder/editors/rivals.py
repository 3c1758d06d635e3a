"""Outlaws: Rivals - Gangs of the Old West: the browser builder.

A gang is 4 to 6 outlaws bought from 30 Character Creation Points (CCP). Each outlaw
(a Wanted Poster) picks one tier in each of six rows, may pay for a special-skill table
and roll 1D6 on it (or enter a die rolled at the table), chooses a free equipment pack,
gender and handedness, and may use the optional Drunk / Tuwa statuses. One outlaw is the
leader, and the gang is named after him or her.

The content is the book's (tiers, tables, packs live in ``rules/data/rivals.json`` and the
engine reads them by id), so this editor has no content kinds: a pack entry could not be
read by the rules engine.
"""

from __future__ import annotations

from typing import Any

from django import forms

from builder import services
from builder.editors.base import ActionContext, ActionForm, Editor
from builder.models import Member
from rules.systems import rivals

ROWS = rivals.ROWS
TABLES = rivals.SKILL_TABLES
PACKS = rivals.PACKS
NAME_MAX = Member._meta.get_field("name").max_length


def tier_label(tier: rivals.Tier) -> str:
    """How a tier shows in its select: value, name and cost."""
    value = f"{tier.actions} actions" if tier.actions is not None else f"+{tier.bonus}"
    return f"{value} · {tier.name} — {tier.cost} CCP"


def table_label(table: rivals.SkillTable) -> str:
    return f"{table.label} — {table.cost} CCP"


def pack_label(pack_id: str) -> str:
    pack = PACKS[pack_id]
    contents = ", ".join(rivals._item(c) for c in pack["contents"])
    return f"{pack_id}: {contents}, ${pack['cash']}"


TABLE_CHOICES = [(t.id, table_label(t)) for t in TABLES.values()]
PACK_CHOICES = [(pid, pack_label(pid)) for pid in PACKS]
GENDER_CHOICES = list(rivals.GENDERS.items())
HAND_CHOICES = list(rivals.HANDS.items())


NO_NAME = "Give the outlaw a name (it goes on the Wanted Poster)."


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
    """Add an outlaw: tier 0 everywhere (0 CCP), no special skill, pack A."""

    label = "Add outlaw"

    name = forms.CharField(
        max_length=NAME_MAX,
        label="New outlaw's name",
        error_messages={"required": NO_NAME},
    )

    def setup(self) -> None:
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    def clean_name(self) -> str:
        return outlaw_name(self.cleaned_data["name"])

    def apply(self, ctx: ActionContext) -> None:
        member = services.append_member(
            ctx.gang, name=self.cleaned_data["name"], data=rivals.SYSTEM.new_member()
        )
        ctx.opened = member


class UseSuggestedNameForm(ActionForm):
    """Rename the gang after its leader ("Red Jack" -> "Red Jack's Gang")."""

    label = "Use this name"

    def clean(self):
        cleaned = super().clean()
        # Only on a post: read the leader as stored now (the page's suggestion may be old).
        leaders = [
            m for m in self.gang.members.all() if isinstance(m.data, dict) and m.data.get("leader")
        ]
        if not leaders or not leaders[0].name.strip():
            raise forms.ValidationError(
                "Mark a named outlaw as the leader first: the gang is named after them."
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
    """The six rows of the Wanted Poster: one tier each, each with its CCP cost."""

    label = "Save tiers"

    def setup(self) -> None:
        for row in ROWS.values():
            self.fields[row.id] = forms.TypedChoiceField(
                label=row.label,
                choices=[(t.tier, tier_label(t)) for t in row.tiers],
                coerce=int,
                error_messages={
                    "invalid_choice": f"Pick one of the {row.label} tiers: {row.choices}."
                },
            )

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        tiers = (member.data or {}).get("tiers") or {}
        return {row: tiers.get(row, 0) for row in ROWS}

    def apply(self, ctx: ActionContext) -> None:
        data = outlaw_data(ctx.member)
        data["tiers"] = {row: self.cleaned_data[row] for row in ROWS}
        save_data(ctx, data)


class PosterForm(ActionForm):
    """Name, gender, handedness, equipment pack and the optional statuses."""

    label = "Save"

    name = forms.CharField(
        max_length=NAME_MAX,
        error_messages={"required": NO_NAME},
    )
    gender = forms.ChoiceField(
        choices=GENDER_CHOICES,
        error_messages={"invalid_choice": "Choose male or female."},
    )
    hand = forms.ChoiceField(
        choices=HAND_CHOICES,
        label="Handedness",
        error_messages={"invalid_choice": "Choose left- or right-handed."},
    )
    pack = forms.ChoiceField(
        choices=PACK_CHOICES,
        label="Equipment pack (free)",
        error_messages={"invalid_choice": f"Choose pack {', '.join(PACKS)}."},
    )
    drunk = forms.BooleanField(
        required=False, label="Drunk", help_text="Optional rule: agree it with your opponent."
    )
    tuwa = forms.BooleanField(
        required=False,
        label="Tuwa (Brave)",
        help_text="Optional rule: agree it with your opponent.",
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

    label = "Make leader"

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

    label = "Pay and roll 1D6"
    rolls = True

    table = forms.ChoiceField(
        choices=TABLE_CHOICES,
        label="Special-skill table",
        error_messages={"invalid_choice": f"Choose a table: {rivals._TABLE_LIST}."},
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

    label = "Enter roll"

    table = forms.ChoiceField(
        choices=TABLE_CHOICES,
        label="Table",
        error_messages={"invalid_choice": f"Choose a table: {rivals._TABLE_LIST}."},
    )
    roll = forms.IntegerField(
        min_value=1,
        max_value=6,
        label="1D6 rolled",
        error_messages={
            "min_value": "A 1D6 roll is 1 to 6.",
            "max_value": "A 1D6 roll is 1 to 6.",
            "invalid": "Enter the number rolled, 1 to 6.",
            "required": "Enter the number rolled, 1 to 6.",
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
    label = "Remove special skill"

    def apply(self, ctx: ActionContext) -> None:
        data = outlaw_data(ctx.member)
        data["special_skill"] = None
        save_data(ctx, data)


class RemoveOutlawForm(ActionForm):
    label = "Remove outlaw"

    def apply(self, ctx: ActionContext) -> None:
        ctx.member.delete()


class RivalsEditor(Editor):
    system_id = "rivals"
    template = "builder/rivals/_editor.html"
    gang_actions = {
        "add_outlaw": AddOutlawForm,
        "use_name": UseSuggestedNameForm,
    }
    member_actions = {
        "tiers": TiersForm,
        "poster": PosterForm,
        "leader": LeaderForm,
        "roll_skill": RollSkillForm,
        "enter_skill": EnterSkillForm,
        "remove_skill": RemoveSkillForm,
        "remove": RemoveOutlawForm,
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
            }
        }


EDITOR = RivalsEditor()
