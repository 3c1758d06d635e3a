"""Duel at Dawn's browser builder (a test-only game; see ``tests/systems/__init__.py``).

Three actions, as the real editors have them: add a gunhand (one tap, grit 1, named
"Gunhand N" unless a name is posted; it opens in its panel), set its grit, remove it
(with the page's Undo). The grit form takes any small number: the rules engine, not the
form, says what is legal (DUEL-GRIT). The gang's controls are drawn by this package's own
template; the member's panel is the generic one.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from builder import services
from builder.editors.base import ActionContext, ActionForm, Editor
from builder.models import Member
from tests.systems.rules.duel import SYSTEM

NAME_MAX = Member._meta.get_field("name").max_length


class AddGunhandForm(ActionForm):
    label = _("Add gunhand")

    name = forms.CharField(max_length=NAME_MAX, required=False, label=_("New gunhand's name"))

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())

    def apply(self, ctx: ActionContext) -> None:
        count = ctx.gang.members.count()
        name = self.cleaned_data["name"] or f"Gunhand {count + 1}"
        name = services.member_name(ctx.gang, name)
        ctx.opened = services.append_member(ctx.gang, name=name, data=SYSTEM.new_member())


class GritForm(ActionForm):
    label = _("Set grit")

    grit = forms.IntegerField(min_value=0, max_value=9, label=_("Grit"))

    @classmethod
    def initial_for(cls, *, gang, member, figures) -> dict[str, Any]:
        return {"grit": (member.data or {}).get("grit")}

    def apply(self, ctx: ActionContext) -> None:
        data = dict(ctx.member.data or {})
        data.update(type="gunhand", grit=self.cleaned_data["grit"])
        ctx.member.data = data
        ctx.member.save(update_fields=["data"])


class RemoveGunhandForm(ActionForm):
    label = _("Remove gunhand")

    def apply(self, ctx: ActionContext) -> None:
        ctx.removed = services.remove_member(ctx.member)  # the page offers Undo


class DuelEditor(Editor):
    system_id = "duel"
    gang_template = "editors/duel/_gang.html"
    roster_title = _("Gunhands")
    empty_roster = _("No gunhands yet: add the first below.")
    key_stats = ("Grit",)
    add_action = "add_gunhand"
    gang_actions = {"add_gunhand": AddGunhandForm}
    member_actions = {"grit": GritForm, "remove": RemoveGunhandForm}


EDITOR = DuelEditor()
