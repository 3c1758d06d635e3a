"""Forms for the club and league pages: a club, a league's settings, registering a gang,
swapping players (``views/clubs.py``); a match report, a dispute, a settlement
(``views/matches.py``).

Errors are shown beside the field; what the league's rules refuse
(``services.LeagueError``) is added to the field it names by the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.leagues import services as league_services
from campaigns.leagues import standings as arithmetic
from campaigns.leagues.models import ClubMember, League, MatchReport, Pairing
from campaigns.models import Campaign, CampaignGang
from rules import all_systems, get_system
from rules.scenarios import canonical
from rules.scenarios import lists_for as scenario_lists

ROUNDS_HELP = gettext_lazy(
    "Round robin: leave it empty and everyone plays everyone once (players − 1 "  # noqa: RUF001 (a minus sign, written out: xgettext reads no \u escapes)
    "rounds, or players if odd), or give fewer rounds to shorten it. Swiss: as many "
    "rounds as you like (with n players, about log₂ n rounds find a winner); empty, "
    "5."
)
FIRST_ROUND_HELP = gettext_lazy(
    "At random: drawn from a seed shown on the league page, so anyone can check the draw. "
    "Top half against bottom half: in the order players registered (with 8: 1st v 5th, "
    "2nd v 6th, 3rd v 7th, 4th v 8th). With an odd number, the last of the order has "
    "the bye."
)
TIEBREAK_ORDER = (
    gettext_lazy("First tiebreaker"),
    gettext_lazy("Second tiebreaker"),
    gettext_lazy("Third tiebreaker"),
)


def cap_refused(system_id: str | None) -> str | None:
    """Why a league of this game takes no cap (a ``gettext_noop`` message: the rules fix
    it, or there is none); None where a cap can be set, or for no game."""
    if not system_id:
        return None
    try:
        return get_system(system_id).cap_refused
    except KeyError:
        return None


def system_choices() -> list[tuple[str, str]]:
    return [(s.id, s.name) for s in all_systems()]


class ClubForm(forms.Form):
    name = forms.CharField(
        max_length=80,
        label=gettext_lazy("Club name"),
        error_messages={"required": gettext_lazy("Give the club a name.")},
    )
    about = forms.CharField(
        label=gettext_lazy("About"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("Where and when you play, and anything members should know."),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(gettext_lazy("Give the club a name."))
        return name


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=ClubMember.ROLES, label=gettext_lazy("Role"))


# --------------------------------------------------------------------------- leagues


class TiebreakWidget(forms.MultiWidget):
    """Three selects, the first tiebreaker first."""

    def __init__(self, attrs: dict[str, Any] | None = None):
        choices = [("", "—"), *((k, gettext_lazy(v)) for k, v in arithmetic.TIEBREAKS.items())]
        widgets = [forms.Select(choices=choices, attrs={"aria-label": n}) for n in TIEBREAK_ORDER]
        super().__init__(widgets, attrs)

    def decompress(self, value: Any) -> list[str]:
        if not value:
            return ["", "", ""]
        if isinstance(value, str):
            value = value.split(",")
        value = list(value)[: len(TIEBREAK_ORDER)]
        return value + [""] * (len(TIEBREAK_ORDER) - len(value))


class TiebreakField(forms.MultiValueField):
    """The tiebreakers after points, in order; empty selects are skipped."""

    widget = TiebreakWidget

    def __init__(self, **kwargs: Any):
        choices = [("", "—"), *((k, gettext_lazy(v)) for k, v in arithmetic.TIEBREAKS.items())]
        fields = [forms.ChoiceField(choices=choices, required=False) for _ in TIEBREAK_ORDER]
        super().__init__(fields, require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list: Sequence[str]) -> list[str]:
        try:
            return league_services.check_tiebreaks(list(data_list or []))
        except league_services.LeagueError as error:
            raise forms.ValidationError(error.message) from error


class LeagueForm(forms.Form):
    """A new league, or a league's settings (``league`` given)."""

    name = forms.CharField(
        max_length=80,
        label=gettext_lazy("League name"),
        error_messages={"required": gettext_lazy("Give the league a name.")},
    )
    system = forms.ChoiceField(label=gettext_lazy("Game"))
    cap = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=100_000,
        label=gettext_lazy("Cap"),
        help_text=gettext_lazy("Empty: each gang's own limit."),
    )
    starts = forms.DateField(
        required=False, label=gettext_lazy("Starts"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends = forms.DateField(
        required=False, label=gettext_lazy("Ends"), widget=forms.DateInput(attrs={"type": "date"})
    )
    win_points = forms.IntegerField(
        min_value=0, max_value=100, initial=3, label=gettext_lazy("Win")
    )
    draw_points = forms.IntegerField(
        min_value=0, max_value=100, initial=1, label=gettext_lazy("Draw")
    )
    loss_points = forms.IntegerField(
        min_value=0, max_value=100, initial=0, label=gettext_lazy("Loss")
    )
    tiebreaks = TiebreakField(
        label=gettext_lazy("Tiebreakers after points, in order"),
        initial=list(arithmetic.DEFAULT_TIEBREAKS),
        help_text=gettext_lazy(
            "Players equal on points are split by the first; still equal, by the "
            "second; and so on. Equal on all of them, they share a rank. Strength of "
            "schedule is the average of the opponents' points and leaves byes out: a "
            "player with a bye, a win and a loss can finish above one with two wins in "
            "three games, when the opponents they played have more points."
        ),
    )
    pairing = forms.ChoiceField(
        choices=League.PAIRINGS,
        initial=League.SWISS,
        widget=forms.RadioSelect,
        label=gettext_lazy("Pairing"),
        help_text=gettext_lazy(
            "Swiss: each round pairs players on the same points (or as close as can "
            "be) who have not met. Round robin: everyone plays everyone once."
        ),
    )
    first_round = forms.ChoiceField(
        choices=League.FIRST_ROUNDS,
        initial=League.RANDOM,
        required=False,  # none chosen: at random
        widget=forms.RadioSelect,
        label=gettext_lazy("Round 1"),
        help_text=FIRST_ROUND_HELP,
    )
    rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=50,
        label=gettext_lazy("Number of rounds"),
        help_text=ROUNDS_HELP,
    )
    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.none(),
        required=False,
        label=gettext_lazy("Campaign to feed"),
        empty_label=gettext_lazy("None"),
        help_text=gettext_lazy(
            "A campaign of the same game that you organise: each confirmed result "
            "begins an encounter there between the two players' campaign gangs."
        ),
    )

    def __init__(self, *args: Any, user, league: League | None = None, **kwargs: Any):
        self.league = league
        self.played_rounds = 0
        self.has_players = False
        if league is not None:
            self.has_players = league.registrations.exists()
            self.played_rounds = league.round_set.count()
            kwargs.setdefault("initial", initial_of(league))
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["autocomplete"] = "off"
        self.fields["system"].choices = system_choices()
        campaigns = user.organised_campaigns.exclude(status="finished")
        if league is not None and league.campaign_id:
            campaigns = campaigns | Campaign.objects.filter(pk=league.campaign_id)
        self.fields["campaign"].queryset = campaigns.order_by("name")
        self.fields["campaign"].label_from_instance = campaign_label
        if self.has_players:
            self.fields["system"].disabled = True
            self.fields["system"].help_text = _(
                "Fixed: players have registered gangs of this game."
            )
        if self.played_rounds:
            self.fields["pairing"].disabled = True
            self.fields["pairing"].help_text = _("Fixed once the first round is paired.")
            self.fields["first_round"].disabled = True
            self.fields["first_round"].help_text = _("Fixed: round 1 is drawn.")
        self.cap_help = [(s.id, s.name, _(s.cap_help) if s.cap_help else "") for s in all_systems()]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(gettext_lazy("Give the league a name."))
        return name

    def clean_rounds(self) -> int | None:
        rounds = self.cleaned_data["rounds"]
        if rounds is not None and rounds < self.played_rounds:
            raise forms.ValidationError(
                ngettext(
                    "%(count)s round is already paired: at least that many.",
                    "%(count)s rounds are already paired: at least that many.",
                    self.played_rounds,
                )
                % {"count": self.played_rounds}
            )
        return rounds

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        starts, ends = data.get("starts"), data.get("ends")
        if starts and ends and ends < starts:
            self.add_error("ends", gettext_lazy("The league can't end before it starts."))
        system = data.get("system")
        refused = cap_refused(system)
        if refused and data.get("cap") is not None:
            self.add_error("cap", _(refused))
        campaign = data.get("campaign")
        if campaign is not None and system and campaign.system != system:
            self.add_error("campaign", gettext_lazy("Choose a campaign of the league's game."))
        return data

    def league_fields(self) -> dict[str, Any]:
        """What the services take."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "system": data["system"],
            "cap": None if cap_refused(data["system"]) else data["cap"],
            "starts": data["starts"],
            "ends": data["ends"],
            "win_points": data["win_points"],
            "draw_points": data["draw_points"],
            "loss_points": data["loss_points"],
            "tiebreaks": data["tiebreaks"],
            "pairing": data["pairing"],
            "first_round": data["first_round"] or League.RANDOM,
            "rounds": data["rounds"],
            "campaign": data["campaign"],
        }


def initial_of(league: League) -> dict[str, Any]:
    return {
        "name": league.name,
        "system": league.system,
        "cap": league.cap,
        "starts": league.starts,
        "ends": league.ends,
        "win_points": league.win_points,
        "draw_points": league.draw_points,
        "loss_points": league.loss_points,
        "tiebreaks": league.tiebreak_list,
        "pairing": league.pairing,
        "first_round": league.first_round,
        "rounds": league.rounds,
        "campaign": league.campaign_id,
    }


def campaign_label(campaign: Campaign) -> str:
    return f"{campaign.name} ({campaign.get_system_display()}, {campaign.get_status_display()})"


# --------------------------------------------------------------------------- registering


class RegisterForm(forms.Form):
    """One of the user's own gangs of the league's game, and (in a league that runs a
    campaign) the user's gang in that campaign. ``gangs``: (gang, label) pairs."""

    gang = forms.TypedChoiceField(
        coerce=int,
        label=gettext_lazy("Your gang"),
        error_messages={
            "required": gettext_lazy("Choose the gang you play with."),
            "invalid_choice": gettext_lazy("Choose one of your own gangs of the league's game."),
        },
    )
    campaign_gang = forms.ModelChoiceField(
        queryset=CampaignGang.objects.none(),
        required=False,
        label=gettext_lazy("Your gang in the league's campaign"),
        empty_label=gettext_lazy("None (results are not fed to the campaign)"),
        error_messages={
            "invalid_choice": gettext_lazy("Choose one of your own gangs in the campaign.")
        },
        help_text=gettext_lazy(
            "Confirmed results begin an encounter in the campaign between the two "
            "players' campaign gangs."
        ),
    )

    def __init__(
        self,
        *args: Any,
        league: League,
        user,
        gangs: Sequence[tuple[int, str]],
        eligible: Sequence[tuple[int, str]] = (),
        **kw,
    ):
        """``eligible``: the (gang, name) pairs that can play (legal under the cap). When
        exactly one can, it is ``only`` and is chosen to begin with (unless the player is
        registered with another); with several, the player chooses. Likewise the
        player's gang in the league's campaign (``campaign_gangs``, ``only_campaign_gang``)."""
        super().__init__(*args, **kw)
        self.fields["gang"].choices = [("", gettext_lazy("Choose one of your gangs")), *gangs]
        self.only = eligible[0] if len(eligible) == 1 else None
        if self.only is not None and not self.is_bound and not self.initial.get("gang"):
            self.initial["gang"] = self.only[0]
        self.campaign_gangs: list[CampaignGang] = []
        self.only_campaign_gang: CampaignGang | None = None
        if league.campaign_id:
            in_campaign = CampaignGang.objects.filter(
                campaign_id=league.campaign_id, player=user
            ).order_by("name", "pk")
            self.fields["campaign_gang"].queryset = in_campaign
            self.campaign_gangs = list(in_campaign)
            if len(self.campaign_gangs) == 1:
                self.only_campaign_gang = self.campaign_gangs[0]
                if not self.is_bound and not self.initial.get("campaign_gang"):
                    self.initial["campaign_gang"] = self.only_campaign_gang.pk
        else:
            del self.fields["campaign_gang"]


class ConfirmForm(forms.Form):
    """An action that needs a second yes."""

    confirm = forms.BooleanField(required=False)


# --------------------------------------------------------------------------- rounds


class SwapForm(forms.Form):
    """Two players of one round, at different tables, trade places. Each choice is
    ``"<table>:<side>"`` (side ``a`` or ``b``)."""

    first = forms.ChoiceField(
        label=gettext_lazy("Move this player"),
        error_messages={
            "required": gettext_lazy("Choose a player."),
            "invalid_choice": gettext_lazy("Choose a player."),
        },
    )
    second = forms.ChoiceField(
        label=gettext_lazy("…to the place of"),
        error_messages={
            "required": gettext_lazy("Choose a player."),
            "invalid_choice": gettext_lazy("Choose a player."),
        },
    )

    def __init__(self, *args: Any, players: Sequence[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [("", _("Choose a player")), *players]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first, second = data.get("first"), data.get("second")
        if first and second and first.split(":")[0] == second.split(":")[0]:
            self.add_error("second", gettext_lazy("Choose a player at another table."))
        return data

    @staticmethod
    def split(value: str) -> tuple[int, str]:
        table, side = value.split(":")
        return int(table), side


def swap_choices(pairings: Sequence[Any]) -> list[tuple[str, str]]:
    """Every player of a round, as the swap form offers them."""
    out = []
    for p in pairings:
        out.append(
            (
                f"{p.table}:a",
                _("Table %(table)s: %(gang)s (%(player)s)")
                % {"table": p.table, "gang": p.a.gang_name, "player": p.a.player.username},
            )
        )
        if p.b_id is not None:
            out.append(
                (
                    f"{p.table}:b",
                    _("Table %(table)s: %(gang)s (%(player)s)")
                    % {"table": p.table, "gang": p.b.gang_name, "player": p.b.player.username},
                )
            )
    return out


# --------------------------------------------------------------------------- reports

MAX_VP = 100_000
WINNER_REQUIRED = gettext_lazy("Choose the winner, or a draw.")


class ReportForm(forms.Form):
    """What happened at a table: the same fields for the player's report and the
    organiser's settlement (which adds a note)."""

    scenario = forms.CharField(label=gettext_lazy("Scenario"), max_length=80, required=False)
    deployment = forms.CharField(label=gettext_lazy("Deployment"), max_length=80, required=False)
    vp_a = forms.IntegerField(label=gettext_lazy("Victory Points"), min_value=0, max_value=MAX_VP)
    vp_b = forms.IntegerField(label=gettext_lazy("Victory Points"), min_value=0, max_value=MAX_VP)
    winner = forms.ChoiceField(
        label=gettext_lazy("Winner"),
        widget=forms.RadioSelect,
        error_messages={"required": WINNER_REQUIRED, "invalid_choice": WINNER_REQUIRED},
        help_text=gettext_lazy(
            "The scenario decides who wins: it may be the side with fewer Victory Points."
        ),
    )
    casualties = forms.CharField(
        label=gettext_lazy("Casualties"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Who was wounded, taken out or killed."),
    )
    notes = forms.CharField(
        label=gettext_lazy("Notes"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, pairing: Pairing, scenarios: list[str] | None = None, **kw):
        super().__init__(*args, **kw)
        a, b = pairing.a, pairing.b
        name_a = f"{a.gang_name} ({a.player.get_username()})"
        name_b = f"{b.gang_name} ({b.player.get_username()})" if b is not None else "—"
        self.fields["vp_a"].label = _("Victory Points: %(player)s") % {"player": name_a}
        self.fields["vp_b"].label = _("Victory Points: %(player)s") % {"player": name_b}
        self.fields["winner"].choices = [("a", name_a), ("b", name_b), ("draw", _("Draw"))]
        for name in ("scenario", "deployment"):
            self.fields[name].widget.attrs["autocomplete"] = "off"
        # The book's lists (rules/scenarios.py), offered in a datalist beside each field:
        # pick one or type anything (no JavaScript needed). Scenarios already played in
        # the league come after the book's.
        self.book = scenario_lists(pairing.round.league.system)
        played = [s for s in scenarios or [] if s not in {c.name for c in self.book.scenarios}]
        self.scenarios = [c.name for c in self.book.scenarios] + played
        self.choices = {
            "scenario": [self._choice(c) for c in self.book.scenarios] + [(s, "") for s in played],
            "deployment": [self._choice(c) for c in self.book.deployments],
        }
        for name, choices in self.choices.items():
            if choices:
                field = self.fields[name]
                field.widget.attrs["list"] = self.datalist_id(name)
                from_book = self.book.scenarios if name == "scenario" else self.book.deployments
                where = getattr(self.book, f"{name}s_where")
                # where in the book, unless the words already say it
                where = "" if where.casefold() in ("", "starting positions") else where
                if not from_book:
                    help_text = _("Pick one played before here, or type your own.")
                elif name == "scenario" and where:
                    help_text = _(
                        "Pick one of the book's scenarios (%(where)s) or type your own."
                    ) % {"where": where}
                elif name == "scenario":
                    help_text = _("Pick one of the book's scenarios or type your own.")
                elif where:
                    help_text = _(
                        "Pick one of the book's starting positions (%(where)s) or type your own."
                    ) % {"where": where}
                else:
                    help_text = _("Pick one of the book's starting positions or type your own.")
                field.help_text = help_text

    def _choice(self, choice) -> tuple[str, str]:
        """(the value offered, the book's other title): a French reader of bwg1 is offered
        the French book's title (which the report stores as its name: ``canonical``)."""
        shown = self.book.shown(choice)
        return (shown, "" if shown != choice.name else choice.book_name)

    def datalist_id(self, name: str) -> str:
        return f"{self.add_prefix(name)}-choices"

    def choice_fields(self) -> list[tuple[Any, list[str]]]:
        """(bound field, the book's names) for scenario and deployment: the names are shown
        under the field, as buttons that fill it (static/js/fill_choice.js), so the list
        is seen without opening it."""
        return [
            (self["scenario"], [self.book.shown(c) for c in self.book.scenarios]),
            (self["deployment"], [self.book.shown(c) for c in self.book.deployments]),
        ]

    def datalists(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """(id, [(value, the book's own title)]) of each field's datalist."""
        return [(self.datalist_id(n), c) for n, c in self.choices.items() if c]

    def clean_scenario(self) -> str:
        return canonical(self.book.scenarios, self.cleaned_data["scenario"].strip())

    def clean_deployment(self) -> str:
        return canonical(self.book.deployments, self.cleaned_data["deployment"].strip())

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
    book = scenario_lists(report.pairing.round.league.system)
    return {
        "scenario": book.shown_name(report.scenario),
        "deployment": book.shown_name(report.deployment),
        "vp_a": report.vp_a,
        "vp_b": report.vp_b,
        "winner": report.winner,
        "casualties": report.casualties,
        "notes": report.notes,
    }


class SettleForm(ReportForm):
    """The organiser's decision: the result that stands, and why."""

    note = forms.CharField(
        label=gettext_lazy("Organiser's note"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Shown to both players with the result."),
    )


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("What is wrong?"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": gettext_lazy("Say what is wrong, for the organiser.")},
        help_text=gettext_lazy("The organiser reads this and settles the result."),
    )
