"""Forms for the league pages (campaigns/league_views.py): a match report, a dispute, a
settlement. Errors are shown beside the field; the services (``league_services``) check
the rules again and their ``LeagueError`` goes beside the field it names."""

from __future__ import annotations

from typing import Any

from django import forms

from campaigns.models import MatchReport, Pairing

MAX_VP = 100_000
WINNER_REQUIRED = "Choose the winner, or a draw."


class ReportForm(forms.Form):
    """What happened at a table: the same fields for the player's report and the
    organiser's settlement (which adds a note)."""

    scenario = forms.CharField(label="Scenario", max_length=80, required=False)
    deployment = forms.CharField(label="Deployment", max_length=80, required=False)
    vp_a = forms.IntegerField(label="Victory Points", min_value=0, max_value=MAX_VP)
    vp_b = forms.IntegerField(label="Victory Points", min_value=0, max_value=MAX_VP)
    winner = forms.ChoiceField(
        label="Winner",
        widget=forms.RadioSelect,
        error_messages={"required": WINNER_REQUIRED, "invalid_choice": WINNER_REQUIRED},
        help_text="The scenario decides who wins: it may be the side with fewer Victory Points.",
    )
    casualties = forms.CharField(
        label="Casualties",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Who was wounded, taken out or killed.",
    )
    notes = forms.CharField(
        label="Notes", required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args: Any, pairing: Pairing, scenarios: list[str] | None = None, **kw):
        super().__init__(*args, **kw)
        a, b = pairing.a, pairing.b
        name_a = f"{a.gang_name} ({a.player.get_username()})"
        name_b = f"{b.gang_name} ({b.player.get_username()})" if b is not None else "—"
        self.fields["vp_a"].label = f"Victory Points: {name_a}"
        self.fields["vp_b"].label = f"Victory Points: {name_b}"
        self.fields["winner"].choices = [("a", name_a), ("b", name_b), ("draw", "Draw")]
        for name in ("scenario", "deployment"):
            self.fields[name].widget.attrs["autocomplete"] = "off"
        self.scenarios = scenarios or []
        if self.scenarios:
            self.fields["scenario"].widget.attrs["list"] = "scenarios"

    def values(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "scenario": data["scenario"].strip(),
            "deployment": data["deployment"].strip(),
            "vp_a": data["vp_a"],
            "vp_b": data["vp_b"],
            "winner": data["winner"],
            "casualties": data["casualties"].strip(),
            "notes": data["notes"].strip(),
        }


def report_initial(report: MatchReport | None) -> dict[str, Any]:
    """A report's values, to prefill a correction or a settlement."""
    if report is None:
        return {}
    return {
        "scenario": report.scenario,
        "deployment": report.deployment,
        "vp_a": report.vp_a,
        "vp_b": report.vp_b,
        "winner": report.winner,
        "casualties": report.casualties,
        "notes": report.notes,
    }


class SettleForm(ReportForm):
    """The organiser's decision: the result that stands, and why."""

    note = forms.CharField(
        label="Organiser's note",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Shown to both players with the result.",
    )


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label="What is wrong?",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": "Say what is wrong, for the organiser."},
        help_text="The organiser reads this and settles the result.",
    )
