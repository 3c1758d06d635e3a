"""The play mode's forms. A tap is one button of a member's (or the game's) form: the
button's value says what it does (``do``), the form says to whom and, optionally, who
caused it. Forms check types; the play engine checks what makes sense."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.play import STATUSES

TABLE_SIZES = ["2' x 2'", "3' x 3'", "4' x 4'", "6' x 4'"]


class StartForm(forms.Form):
    scenario = forms.CharField(label=_("Scenario"), max_length=120, required=False)
    table_size = forms.CharField(
        label=_("Table size"),
        max_length=40,
        required=False,
        help_text=_("For example 3' x 3'."),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["table_size"].widget.attrs["list"] = "table-sizes"
        self.fields["scenario"].widget.attrs["list"] = "scenarios"  # the book's, when it has any
        for field in self.fields.values():
            field.widget.attrs["autocomplete"] = "off"


def _number(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


class TapForm(forms.Form):
    """One tap. ``do`` is the button's value:

    ``wound/N``, ``adjust/<counter>/<delta>``, ``flip/<index>``, ``status/<status>``,
    ``turn/<±1>``, ``ap/<side>/<delta>``, ``vp/<side>/<delta>``, ``end/<a|b|draw>``,
    ``undo`` or ``undo/<seq>``, ``loot``, ``settle/<seq>/<keep|drop|instead|both>``.
    """

    do = forms.CharField(max_length=40)
    member = forms.CharField(max_length=40, required=False)
    by = forms.CharField(max_length=40, required=False)
    cash = forms.IntegerField(min_value=0, max_value=100_000, required=False)
    items = forms.CharField(max_length=200, required=False)
    client_id = forms.CharField(max_length=64, required=False)
    #: when the phone made the tap (ms since 1970, the phone's clock): offline taps
    made_at = forms.IntegerField(min_value=0, max_value=10**14, required=False)
    #: the phone (a random id its browser keeps), the tap's number on it, the table's
    #: version the phone showed when the tap was made, and when the phone sent it (ms)
    phone = forms.RegexField(regex=r"^[A-Za-z0-9_-]{1,32}$", required=False)
    phone_seq = forms.IntegerField(min_value=0, max_value=10**9, required=False)
    seen = forms.IntegerField(min_value=0, max_value=10**9, required=False)
    sent = forms.IntegerField(min_value=0, max_value=10**14, required=False)

    def made(self, offset: timedelta = timedelta(0)) -> datetime | None:
        """When the phone made the tap, on the server's clock (the phone's time plus its
        ``offset``); None if it did not say."""
        ms = self.cleaned_data.get("made_at")
        if ms is None:
            return None
        try:
            return datetime.fromtimestamp(ms / 1000, tz=UTC) + offset
        except (OverflowError, OSError, ValueError):
            return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        do = data.get("do", "")
        parts = do.split("/")
        kind, rest = parts[0], parts[1:]
        member, by = data.get("member", ""), data.get("by", "")
        tap: dict[str, Any] | None = None
        if kind == "wound" and len(rest) == 1:
            tap = {"member": member, "amount": _number(rest[0]), "by": by}
        elif kind == "adjust" and len(rest) == 2:
            tap = {"member": member, "counter": rest[0], "delta": _number(rest[1])}
        elif kind == "flip" and len(rest) == 1:
            tap = {"member": member, "index": _number(rest[0])}
        elif kind == "status" and len(rest) == 1 and rest[0] in STATUSES:
            tap = {"member": member, "status": rest[0], "by": by}
        elif kind == "turn" and len(rest) == 1:
            tap = {"delta": _number(rest[0])}
        elif kind in ("ap", "vp") and len(rest) == 2:
            tap = {"side": rest[0], "delta": _number(rest[1])}
        elif kind == "end" and len(rest) == 1:
            tap = {"winner": rest[0]}
        elif kind == "undo" and len(rest) <= 1:
            tap = {"target": _number(rest[0]) if rest else None}
        elif kind == "loot" and not rest:
            # items: ticked from the victim's list (several "items"), or typed, comma between
            picked = self.data.getlist("items") if hasattr(self.data, "getlist") else []
            items: Any = [i[:60] for i in picked if i.strip()][:10]
            if len(items) <= 1:
                items = data.get("items", "")
            tap = {"by": by, "from": member, "cash": data.get("cash") or 0, "items": items}
        elif kind == "blame" and len(rest) == 1:
            tap = {"target": _number(rest[0]), "by": by}
        elif kind == "settle" and len(rest) == 2:
            tap = {"target": _number(rest[0]), "choice": rest[1]}
        if tap is None:
            raise forms.ValidationError(_("That button does nothing: reload the page."))
        data["kind"], data["tap"] = kind, tap
        return data


class EncounterRecordForm(forms.Form):
    """The player's review of the encounter record drafted from the game."""

    winner = forms.ChoiceField(label=_("Who won the encounter"), widget=forms.RadioSelect)
    notes = forms.CharField(
        label=_("Notes"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args: Any, sides: list[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [*sides, ("draw", _("Nobody: a draw"))]
