"""Forms for the encounter pages and a campaign gang's page (campaigns/encounter_views/).

The forms only read the request; the rules engine (``rules.campaign``) decides. Choices
come from the campaign's state, so a form never offers a member or a gang that isn't
there. An engine refusal is put beside the field it names with :func:`add_engine_error`.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from common.engine_words import shown
from rules.campaign import (
    MAX_HAPPENINGS,
    SHOWDOWN_FATES,
    CampaignError,
    CampaignState,
    EncounterState,
    GangState,
    MemberState,
)

NOBODY = ("", "—")
DRAW = "draw"
MORE_LINES = 4
START_LINES = 6

# What each kind of happening means, in the book's words where it has them.
KIND_HELP = {
    "wound": gettext_lazy(
        "An outlaw of another gang lost actions to a hit: the one who hit earns the number "
        "of actions the wound costs. One of wound or kill per hit: for the hit that kills, "
        "record only the kill. Give the actions lost: at most what the victim has left of "
        "their toughness."
    ),
    "kill": gettext_lazy(
        "An outlaw was killed: the killer earns the victim's toughness in actions + their "
        "notoriety bonus at that moment (the app fills both in: leave the number empty). "
        "Leave “Who” empty if nobody of the other gang did it."
    ),
    "left": gettext_lazy(
        "An outlaw left the board before the end of the fight: −5 reputation. Choose him in “Who”."  # noqa: RUF001 (the book prints a minus sign; xgettext reads no \u escapes)
    ),
    "loot": gettext_lazy(
        "Outlaws may take cash or weapons from dead outlaws during the encounter (not give "
        "them to friends). “Who” took it, “To whom” is the dead outlaw (killed on an earlier "
        "line); give the dollars and/or the items, comma separated."
    ),
    "out": gettext_lazy(
        "A member was taken out of the game: the member who did it gains experience (see the "
        "campaign's house rules). Leave “Who” empty if nobody of the other gang did it."
    ),
}
KIND_HELP_LEFT_OTHER = gettext_lazy(
    "A member left the table before the end of the game. Choose him in “Who”."
)


def add_engine_error(form: forms.Form, error: CampaignError, *fields: str) -> None:
    """Show the engine's message beside ``error.field`` if the form has that field (or
    one of ``fields`` it stands for), else at the top of the form."""
    target = error.field if error.field in form.fields else None
    if target is None and fields and error.field:
        target = next((f for f in fields if f in form.fields), None)
    if target is not None and form.fields[target].widget.is_hidden:
        target = None  # a hidden field's error would show nowhere: put it at the top
    if not hasattr(form, "cleaned_data"):
        form.cleaned_data = {}
    form.add_error(target, error.message)


def member_label(state: CampaignState, m: MemberState) -> str:
    return f"{m.name} ({state.gangs[m.gang].name})"


def member_choices(state: CampaignState, gang_ids, *, blank: bool = True) -> list[Any]:
    """The surviving members of the gangs, grouped by gang: value = member ref."""
    choices: list[Any] = [NOBODY] if blank else []
    for gid in gang_ids:
        gang = state.gangs[gid]
        choices.append((gang.name, [(m.ref, member_label(state, m)) for m in gang.alive]))
    return choices


# --------------------------------------------------------------------------- beginning


class BeginForm(forms.Form):
    gang = forms.ChoiceField(label=gettext_lazy("Your gang"))
    against = forms.ChoiceField(label=gettext_lazy("Against"))
    scenario = forms.CharField(
        label=gettext_lazy("Scenario"),
        required=False,
        max_length=120,
        help_text=gettext_lazy(
            "Optional: what the two gangs play (a scenario's name, the table...)."
        ),
    )

    def __init__(self, *args, state: CampaignState, own: set[str], organiser: bool, **kwargs):
        super().__init__(*args, **kwargs)
        riding = state.active_gangs

        def label(g: GangState) -> str:
            played = state.played(g.id)
            return gettext("%(gang)s (%(player)s, %(played)s of %(agreed)s played)") % {
                "gang": g.name,
                "player": g.player or gettext("no player"),
                "played": played,
                "agreed": state.agreed,
            }

        everyone = [(g.id, label(g)) for g in riding]
        if organiser:
            self.fields["gang"].label = gettext("One gang")
            self.fields["gang"].choices = [NOBODY, *everyone]
        else:
            self.fields["gang"].choices = [NOBODY, *[c for c in everyone if c[0] in own]]
        self.fields["against"].choices = [NOBODY, *everyone]
        if state.progression.uses_location:
            del self.fields["scenario"]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("gang") and cleaned.get("gang") == cleaned.get("against"):
            self.add_error("against", gettext_lazy("A gang can't fight itself: pick another gang."))
        return cleaned


# --------------------------------------------------------------------------- the record


class LineForm(forms.Form):
    """One line of an encounter's record: what happened, in order."""

    # (What each kind means is explained once, above the lines: not on every line.)
    kind = forms.ChoiceField(label=gettext_lazy("What happened"), required=False)
    by = forms.ChoiceField(label=gettext_lazy("Who (did it, left, took)"), required=False)
    to = forms.ChoiceField(label=gettext_lazy("To whom (hit, killed, robbed)"), required=False)
    amount = forms.IntegerField(
        label=gettext_lazy("Actions lost (a wound; a kill fills in itself)"),
        required=False,
        min_value=0,
        max_value=10,
    )
    cash = forms.IntegerField(
        label=gettext_lazy("Dollars taken"), required=False, min_value=0, max_value=10_000
    )
    items = forms.CharField(
        label=gettext_lazy("Items taken (comma separated)"), required=False, max_length=300
    )

    def __init__(self, *args, kinds: dict[str, str], members: list[Any], showdown: bool, **kw):
        super().__init__(*args, **kw)
        self.fields["kind"].choices = [NOBODY, *kinds.items()]
        self.fields["by"].choices = members
        self.fields["to"].choices = members
        if not showdown:
            for name in ("amount", "cash", "items"):
                del self.fields[name]
            self.fields["by"].label = gettext("Who (did it, or left)")
            self.fields["to"].label = gettext("To whom (taken out)")

    @property
    def is_blank(self) -> bool:
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        return not any(data.get(f) not in (None, "") for f in self.fields)

    def happening(self) -> dict[str, Any]:
        d = self.cleaned_data
        kind = d.get("kind") or ""
        by, to = d.get("by") or "", d.get("to") or ""
        if kind == "left":
            return {"kind": kind, "who": by or to}
        if kind == "loot":
            return {
                "kind": kind,
                "by": by,
                "from": to,
                "cash": d.get("cash") or 0,
                "items": d.get("items") or "",
            }
        out: dict[str, Any] = {"kind": kind, "by": by, "to": to}
        if "amount" in self.fields:
            out["amount"] = d.get("amount")
        return out


class BaseLineFormSet(forms.BaseFormSet):
    def happenings(self) -> tuple[list[dict[str, Any]], list[int]]:
        """The filled-in lines as the engine reads them, and each one's form index."""
        out, where = [], []
        for i, form in enumerate(self.forms):
            if form.is_blank:
                continue
            out.append(form.happening())
            where.append(i)
        return out, where


LineFormSet = forms.formset_factory(
    LineForm,
    formset=BaseLineFormSet,
    extra=0,
    max_num=MAX_HAPPENINGS,
    validate_max=True,
    absolute_max=MAX_HAPPENINGS,
)


def line_initial(h: dict[str, Any]) -> dict[str, Any]:
    """A stored happening as a line's initial values."""
    kind = h.get("kind", "")
    if kind == "left":
        return {"kind": kind, "by": h.get("who", "")}
    if kind == "loot":
        return {
            "kind": kind,
            "by": h.get("by", ""),
            "to": h.get("from", ""),
            "cash": h.get("cash") or None,
            "items": ", ".join(h.get("items") or []),
        }
    return {"kind": kind, "by": h.get("by", ""), "to": h.get("to", ""), "amount": h.get("amount")}


def line_formset(
    state: CampaignState, enc: EncounterState, data=None, *, initial=None
) -> BaseLineFormSet:
    kwargs = {
        "kinds": {k: shown(v) for k, v in state.progression.happening_kinds.items()},
        "members": member_choices(state, enc.gangs),
        "showdown": state.progression.has_showdown,
    }
    if data is not None:
        return LineFormSet(data, prefix="lines", form_kwargs=kwargs)
    return LineFormSet(prefix="lines", initial=initial, form_kwargs=kwargs)


def with_more_lines(data, prefix: str = "lines", more: int = MORE_LINES):
    """The posted data with ``more`` empty lines at the end (the "More lines" button)."""
    data = data.copy()
    key = f"{prefix}-TOTAL_FORMS"
    try:
        total = int(data.get(key, 0))
    except (TypeError, ValueError):
        total = 0
    data[key] = str(min(MAX_HAPPENINGS, max(0, total) + more))
    return data


class RecordForm(forms.Form):
    winner = forms.ChoiceField(label=gettext_lazy("Who won"))
    notes = forms.CharField(
        label=gettext_lazy("Notes"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Anything the players want remembered about this encounter."),
    )

    def __init__(self, *args, state: CampaignState, enc: EncounterState, **kwargs):
        super().__init__(*args, **kwargs)
        a, b = (state.gangs[g] for g in enc.gangs)
        self.fields["winner"].choices = [
            ("", gettext("— choose —")),
            (a.id, a.name),
            (b.id, b.name),
            (DRAW, gettext("A draw: nobody won")),
        ]


# --------------------------------------------------------------------------- after it


class GangForm(forms.Form):
    """Confirm the record for one of the player's gangs."""

    gang = forms.ChoiceField(widget=forms.HiddenInput)

    def __init__(self, *args, gangs: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["gang"].choices = gangs
        if len(gangs) > 1:
            self.fields["gang"].widget = forms.Select(choices=gangs)
            self.fields["gang"].label = gettext("For")


class DisputeForm(GangForm):
    reason = forms.CharField(
        label=gettext_lazy("What is wrong with the record"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("The organiser reads this and settles it."),
    )


class SettleForm(forms.Form):
    note = forms.CharField(label=gettext_lazy("Note (optional)"), required=False, max_length=500)


class DeathForm(forms.Form):
    member = forms.ChoiceField(widget=forms.HiddenInput)

    def __init__(self, *args, refs: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].choices = [(r, r) for r in refs]


class ChallengeForm(forms.Form):
    pair = forms.ChoiceField(label=gettext_lazy("Challenge"))

    def __init__(self, *args, state: CampaignState, pairs: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)

        def label(x: str, y: str) -> str:
            a, b = state.member(x), state.member(y)
            title = state.progression.notoriety(a.score)[0]
            return gettext("%(a)s challenges %(b)s (both %(title)s)") % {
                "a": a.name,
                "b": b.name,
                "title": title,
            }

        self.fields["pair"].choices = [NOBODY, *[(f"{x}|{y}", label(x, y)) for x, y in pairs]]

    def refs(self) -> tuple[str, str]:
        x, _, y = self.cleaned_data["pair"].partition("|")
        return x, y


class AnswerForm(forms.Form):
    answer = forms.ChoiceField(
        choices=[("accept", gettext_lazy("Accept")), ("decline", gettext_lazy("Decline"))]
    )


class HitForm(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("Hit"),
        required=False,
        choices=[NOBODY, ("wound", gettext_lazy("Wounded")), ("kill", gettext_lazy("Killed"))],
    )
    by = forms.ChoiceField(label=gettext_lazy("By"), required=False)
    amount = forms.IntegerField(
        label=gettext_lazy("Actions lost (a wound; empty for the kill)"),
        required=False,
        min_value=0,
        max_value=20,
    )

    def __init__(self, *args, fighters: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["by"].choices = [NOBODY, *fighters]

    @property
    def is_blank(self) -> bool:
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        return not any(data.get(f) not in (None, "") for f in self.fields)


HitFormSet = forms.formset_factory(HitForm, extra=3, max_num=20, absolute_max=20)


class ShowdownForm(forms.Form):
    winner = forms.ChoiceField(label=gettext_lazy("Who won"))
    fate = forms.ChoiceField(
        label=gettext_lazy("How the loser ended"), choices=[NOBODY, *SHOWDOWN_FATES.items()]
    )

    def __init__(self, *args, fighters: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [NOBODY, *fighters]
        self.fighters = fighters
        data = args[0] if args else None
        self.hits = HitFormSet(data, prefix="hits", form_kwargs={"fighters": fighters})

    def is_valid(self) -> bool:
        ok = super().is_valid()
        return self.hits.is_valid() and ok

    def hit_list(self) -> tuple[list[dict[str, Any]], list[int]]:
        """The filled-in hits (each names both outlaws) and each one's form index."""
        refs = [r for r, _ in self.fighters]
        out, where = [], []
        for i, form in enumerate(self.hits.forms):
            if form.is_blank:
                continue
            d = form.cleaned_data
            by = d.get("by") or ""
            to = next((r for r in refs if r != by), "") if by else ""
            out.append({"kind": d.get("kind") or "", "by": by, "to": to, "amount": d.get("amount")})
            where.append(i)
        return out, where


class UndoForm(forms.Form):
    encounter = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=gettext_lazy("Why (optional, for the log)"), required=False, max_length=300
    )


# --------------------------------------------------------------------------- a gang's page


class AdvanceForm(forms.Form):
    member = forms.CharField(widget=forms.HiddenInput)
    choice = forms.ChoiceField(label=gettext_lazy("Spend on"))

    def __init__(self, *args, options: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["choice"].choices = [NOBODY, *options]


def price_label(entry: dict[str, Any]) -> str:
    many = f" ({entry['quantity']})" if entry.get("quantity", 1) > 1 else ""
    return f"{entry['item']}{many} — ${entry['price']}"


class RivalsBuyForm(forms.Form):
    member = forms.CharField(widget=forms.HiddenInput)
    item = forms.ChoiceField(label=gettext_lazy("Buy"))
    quantity = forms.IntegerField(
        label=gettext_lazy("How many"), min_value=1, max_value=20, initial=1
    )

    def __init__(self, *args, price_list: list[dict[str, Any]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["item"].choices = [NOBODY, *[(p["item"], price_label(p)) for p in price_list]]


class PurseBuyForm(forms.Form):
    item = forms.CharField(label=gettext_lazy("Item"), max_length=80)
    price = forms.IntegerField(label=gettext_lazy("Price ($)"), min_value=0, max_value=10_000)
    member = forms.ChoiceField(label=gettext_lazy("For"), required=False)

    def __init__(self, *args, members: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].choices = [
            ("", gettext("The gang (nobody in particular)")),
            *members,
        ]


class LeaderForm(forms.Form):
    member = forms.ChoiceField(label=gettext_lazy("New leader"))

    def __init__(self, *args, members: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].choices = [NOBODY, *members]


class RecruitForm(forms.Form):
    replaces = forms.CharField(widget=forms.HiddenInput)
    recruit = forms.ChoiceField(label=gettext_lazy("Recruit"))

    def __init__(self, *args, candidates: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["recruit"].choices = [NOBODY, *candidates]
