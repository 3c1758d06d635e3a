"""Everything that changes a club or a league, each inside one transaction.

Views call these. The arithmetic (standings, tiebreakers, pairings) is plain Python in
``standings.py`` and ``pairing.py`` (the rules in words: docs/leagues.md); the rules of
each game (is a gang legal under the cap?) come from the rules engine.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from builder.models import Gang, Member, MemberItem
from builder.roster import gang_roster
from campaigns import services as campaign_services
from campaigns import signals
from campaigns.leagues import standings as arithmetic
from campaigns.leagues import tallies
from campaigns.leagues.models import (
    Club,
    ClubMember,
    League,
    MatchReport,
    Pairing,
    Registration,
    ReportEvent,
    Round,
    new_public_token,
)
from campaigns.leagues.pairing import (
    RANDOM,
    first_round,
    games_to_play,
    round_robin,
    round_robin_round,
    seeded_order,
    swiss,
)
from campaigns.models import CampaignGang, new_invite_token
from rules import get_system
from rules.campaign import CampaignError
from rules.i18n import punctuate

logger = logging.getLogger(__name__)


class LeagueError(ValueError):
    """A change the league's rules refuse; ``field`` names the form field it belongs to."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


# --------------------------------------------------------------------------- clubs


def clubs_for(user) -> QuerySet[Club]:
    return Club.objects.filter(members__user=user).distinct()


def get_club_for_user(user, club_id: int) -> Club:
    """A club the user belongs to; anyone else gets a 404."""
    return get_object_or_404(clubs_for(user), pk=club_id)


def role_of(club: Club, user) -> str | None:
    if not user.is_authenticated:
        return None
    return ClubMember.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def is_organiser(club: Club, user) -> bool:
    return role_of(club, user) == ClubMember.ORGANISER


@transaction.atomic
def create_club(user, *, name: str, about: str = "") -> Club:
    club = Club.objects.create(name=name, about=about)
    ClubMember.objects.create(club=club, user=user, role=ClubMember.ORGANISER)
    return club


@transaction.atomic
def join_club(club: Club, user) -> ClubMember:
    member, _created = ClubMember.objects.get_or_create(club=club, user=user)
    if club.leagues.filter(status=League.REGISTRATION).exists():  # they wait on the member
        signals.people_changed.send(League, user_ids=[user.pk], emails={user.pk: user.email})
    return member


def reset_invite(club: Club) -> Club:
    """A new invite link for the club: the old one no longer finds it."""
    return campaign_services.replace_token(club, "invite_token", new_invite_token)


def reset_public_link(league: League) -> League:
    """A new public link for the league: the old one no longer finds it."""
    return campaign_services.replace_token(league, "public_token", new_public_token)


@transaction.atomic
def set_role(club: Club, member: ClubMember, role: str, by=None) -> ClubMember:
    """Make a member an organiser or a member; a club always keeps one organiser.

    The club row is locked first, so two organisers changing roles at the same moment
    are put in order: the second change is checked against the first (``by``, when given,
    must still be an organiser then)."""
    if role not in dict(ClubMember.ROLES):
        raise LeagueError(gettext_lazy("Choose organiser or member."), "role")
    Club.objects.select_for_update().filter(pk=club.pk).first()
    if by is not None and not club.members.filter(user=by, role=ClubMember.ORGANISER).exists():
        raise LeagueError(_("Only the club's organisers change roles."), "role")
    member = ClubMember.objects.get(pk=member.pk)  # as it is now, under the lock
    organisers = club.members.filter(role=ClubMember.ORGANISER).count()
    if member.role == ClubMember.ORGANISER and role != ClubMember.ORGANISER and organisers <= 1:
        raise LeagueError(gettext_lazy("A club needs at least one organiser."), "role")
    was = member.role
    member.role = role
    member.save(update_fields=["role"])
    if role == ClubMember.ORGANISER and was != ClubMember.ORGANISER:
        # (the new organiser is told)
        signals.organiser_made.send(League, user=member.user, club=club, by=by)
    return member


def _leave_leagues(club: Club, user) -> None:
    """``user`` leaves ``club``: a registration in a league still taking registrations
    is removed; in a running league they are dropped (paired no more); every result
    played stands, in running and finished leagues alike."""
    registrations = Registration.objects.filter(
        league__club=club, player=user, league__status__in=[League.REGISTRATION, League.RUNNING]
    ).select_related("league")
    for registration in registrations:
        if registration.league.status == League.REGISTRATION:
            registration.delete()
        elif not registration.dropped:
            registration.dropped = True
            registration.save(update_fields=["dropped"])
        signals.league_changed.send(League, league_id=registration.league_id)


@transaction.atomic
def remove_member(club: Club, member: ClubMember, by) -> None:
    """An organiser removes a member from the club (never the last organiser): they no
    longer see its pages; their results stay in its leagues' standings."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    if not club.members.filter(user=by, role=ClubMember.ORGANISER).exists():
        raise LeagueError(_("Only the club's organisers remove a member."))
    member = ClubMember.objects.select_related("user").get(pk=member.pk)
    if member.user_id == getattr(by, "pk", None):
        raise LeagueError(_("To leave the club yourself, use “Leave the club”."))
    organisers = club.members.filter(role=ClubMember.ORGANISER).count()
    if member.role == ClubMember.ORGANISER and organisers <= 1:  # pragma: no cover - by is one
        raise LeagueError(gettext_lazy("A club needs at least one organiser."))
    _leave_leagues(club, member.user)
    member.delete()
    signals.people_changed.send(
        League, user_ids=[member.user_id], emails={member.user_id: member.user.email}
    )


@transaction.atomic
def leave_club(club: Club, user) -> None:
    """A member leaves the club; the last organiser hands it over first."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    member = ClubMember.objects.filter(club=club, user=user).first()
    if member is None:
        raise LeagueError(_("You are not a member of this club."))
    organisers = club.members.filter(role=ClubMember.ORGANISER).count()
    if member.role == ClubMember.ORGANISER and organisers <= 1:
        raise LeagueError(
            _(
                "You are the club's only organiser: hand the club over to another member "
                "first (they become its organiser), then leave."
            )
        )
    _leave_leagues(club, user)
    member.delete()
    signals.people_changed.send(League, user_ids=[user.pk], emails={user.pk: user.email})


@transaction.atomic
def hand_over(club: Club, to: ClubMember, by) -> ClubMember:
    """``by`` hands the club to the member ``to``: ``to`` becomes an organiser (and is
    told: ``signals.organiser_made``), ``by`` becomes a member, in one transaction."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    mine = club.members.filter(user=by, role=ClubMember.ORGANISER).first()
    if mine is None:
        raise LeagueError(_("Only the club's organisers hand it over."), "member")
    to = ClubMember.objects.select_related("user").get(pk=to.pk)
    if to.pk == mine.pk:
        raise LeagueError(_("Choose another member to hand the club over to."), "member")
    if not to.user.is_active:
        raise LeagueError(_("A former member can't organise the club."), "member")
    if to.role != ClubMember.ORGANISER:
        set_role(club, to, ClubMember.ORGANISER, by=by)
    mine.role = ClubMember.MEMBER
    mine.save(update_fields=["role"])
    signals.people_changed.send(League, user_ids=[by.pk], emails={by.pk: by.email})
    for league_id in club.leagues.exclude(status=League.FINISHED).values_list("pk", flat=True):
        signals.league_changed.send(League, league_id=league_id)  # what waits moves too
    return to


# --------------------------------------------------------------------------- leagues


@transaction.atomic
def create_league(club: Club, **fields: Any) -> League:
    tiebreaks = fields.pop("tiebreaks", arithmetic.DEFAULT_TIEBREAKS)
    if isinstance(tiebreaks, str):
        tiebreaks = tiebreaks.split(",")
    fields["tiebreaks"] = ",".join(check_tiebreaks(tiebreaks))
    campaign = fields.get("campaign")
    if campaign is not None and campaign.system != fields.get("system"):
        raise LeagueError(gettext_lazy("The campaign must be of the league's game."), "campaign")
    if fields.get("rounds") is None and fields.get("pairing", League.SWISS) == League.SWISS:
        fields["rounds"] = League.SWISS_ROUNDS  # a round robin's empty: everyone once
    league = League.objects.create(club=club, **fields)
    # (open for registration: the members are told)
    signals.club_changed.send(League, club_id=club.pk)
    return league


@transaction.atomic
def update_league(league: League, **fields: Any) -> League:
    """Change a league's settings. The game can't change once a player registered, nor
    the pairing or round 1's draw once a round is paired, nor the rounds be fewer than
    those paired; a new cap (or game) re-checks every registered gang at once; a new
    campaign forgets campaign gangs that are not in it."""
    locked = League.objects.select_for_update().get(pk=league.pk)
    system = fields.get("system", locked.system)
    if system != locked.system and locked.registrations.exists():
        raise LeagueError(
            gettext_lazy("The game can't change once players have registered."), "system"
        )
    paired = locked.round_set.count()
    if fields.get("pairing", locked.pairing) != locked.pairing and paired:
        raise LeagueError(
            gettext_lazy("The pairing can't change once a round is paired."), "pairing"
        )
    if fields.get("first_round", locked.first_round) != locked.first_round and paired:
        raise LeagueError(_("Round 1 is drawn: its draw can't change."), "first_round")
    rounds = fields.get("rounds", locked.rounds)
    if rounds is None and fields.get("pairing", locked.pairing) == League.SWISS:
        rounds = fields["rounds"] = League.SWISS_ROUNDS
    if rounds is not None and rounds < paired:
        raise LeagueError(
            ngettext(
                "%(count)s round is already paired: at least that many.",
                "%(count)s rounds are already paired: at least that many.",
                paired,
            )
            % {"count": paired},
            "rounds",
        )
    tiebreaks = fields.pop("tiebreaks", locked.tiebreak_list)
    fields["tiebreaks"] = ",".join(check_tiebreaks(tiebreaks))
    campaign = fields.get("campaign", locked.campaign)
    if campaign is not None and campaign.system != system:
        raise LeagueError(gettext_lazy("The campaign must be of the league's game."), "campaign")
    recheck = system != locked.system or fields.get("cap", locked.cap) != locked.cap
    new_campaign = (campaign.pk if campaign else None) != locked.campaign_id
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.save()
    if recheck:  # every registered gang against the new cap, now (never while read)
        registrations = list(
            locked.registrations.filter(dropped=False, gang__isnull=False).select_related("gang")
        )
        for registration in registrations:
            registration.checked_version = -1  # out of date whatever the gang's version
        refresh_legality(locked, registrations)
    if new_campaign:
        stale = locked.registrations.exclude(campaign_gang__campaign=campaign)
        stale.filter(campaign_gang__isnull=False).update(campaign_gang=None)
    # (fewer rounds: the last one may be played)
    signals.league_changed.send(League, league_id=locked.pk)
    return locked


def check_tiebreaks(tiebreaks: Sequence[str]) -> list[str]:
    chosen = [t for t in tiebreaks if t]
    unknown = [t for t in chosen if t not in arithmetic.TIEBREAKS]
    if unknown or len(set(chosen)) != len(chosen):
        raise LeagueError(
            _("Tiebreakers are each used once, from: %(tiebreakers)s.")
            % {"tiebreakers": ", ".join(_(t) for t in arithmetic.TIEBREAKS.values())},
            "tiebreaks",
        )
    return chosen


def check_gang(league: League, gang: Gang, members: Sequence[Member] | None = None) -> list[str]:
    """What makes ``gang`` illegal under the league's cap (empty: it is legal)."""
    if members is None:
        members = list(_members(Gang.objects.filter(pk=gang.pk))[gang.pk])
    roster = gang_roster(gang, members)
    if league.cap is not None:  # else the gang's own limit
        roster["limit"] = league.cap
    report = get_system(gang.system).evaluate(roster)
    return [f.message for f in report.errors]


def problem_sentences(problems: Iterable[str]) -> list[str]:
    """What makes a gang illegal as readable sentences: each message once, in the order
    the rules engine gave them, each ending with one full stop (the engine's messages
    end with one or not; joined by ";" they read ".;")."""
    out: list[str] = []
    for problem in problems:
        text = " ".join(str(problem).split()).rstrip(" .;:,")
        if not text:
            continue
        sentence = text[:1].upper() + text[1:]
        if text[-1] not in "!?…":
            sentence += "."
        if sentence not in out:
            out.append(sentence)
    return out


def problems_text(problems: Iterable[str]) -> str:
    """The sentences of :func:`problem_sentences` in one line, for a message or a mail."""
    return " ".join(problem_sentences(problems))


def _members(gangs: QuerySet[Gang]) -> dict[int, list[Member]]:
    found: dict[int, list[Member]] = {g: [] for g in gangs.values_list("pk", flat=True)}
    members = (
        Member.objects.filter(gang__in=gangs)
        .prefetch_related(
            Prefetch("member_items", queryset=MemberItem.objects.select_related("item"))
        )
        .order_by("gang_id", "position", "pk")
    )
    for member in members:
        found[member.gang_id].append(member)
    return found


@transaction.atomic
def register(
    league: League, user, gang: Gang, campaign_gang: CampaignGang | None = None
) -> Registration:
    """Enter the user's gang: it must be of the league's game and legal under its cap.
    In a league that feeds a campaign, ``campaign_gang`` is the player's gang in it."""
    if league.status == League.FINISHED:
        raise LeagueError(gettext_lazy("The league is finished."), "gang")
    if (
        league.status == League.RUNNING
        and league.pairing == League.ROUND_ROBIN
        and not league.registrations.filter(player=user).exists()
    ):
        raise LeagueError(
            gettext_lazy("The round robin has started: nobody can join it now."), "gang"
        )
    if campaign_gang is not None and (
        league.campaign_id is None
        or campaign_gang.campaign_id != league.campaign_id
        or campaign_gang.player_id != user.pk
    ):
        raise LeagueError(
            gettext_lazy("Choose one of your own gangs in the campaign."), "campaign_gang"
        )
    if not ClubMember.objects.filter(club=league.club, user=user).exists():
        raise LeagueError(gettext_lazy("Join the club first."), "gang")
    if gang.owner_id != user.pk:
        raise LeagueError(gettext_lazy("Register one of your own gangs."), "gang")
    if gang.system != league.system:
        raise LeagueError(gettext_lazy("Register a gang of the league's game."), "gang")
    problems = check_gang(league, gang)
    if problems:
        raise LeagueError(
            _("This gang breaks the rules under the league's cap: %(problems)s")
            % {"problems": problems_text(problems[:3])},
            "gang",
        )
    registration, created = Registration.objects.get_or_create(
        league=league,
        player=user,
        defaults={"gang": gang, "gang_name": gang.name, "checked_version": gang.version},
    )
    if not created:
        if league.status != League.REGISTRATION:
            raise LeagueError(
                gettext_lazy("You are registered; the gang can't change once play starts.")
            )
        registration.gang = gang
        registration.gang_name = gang.name
        registration.checked_version = gang.version
        registration.legal, registration.problems = True, ""
        registration.save()
    if league.campaign_id is not None and registration.campaign_gang_id != (
        campaign_gang.pk if campaign_gang else None
    ):
        registration.campaign_gang = campaign_gang
        registration.save(update_fields=["campaign_gang"])
    signals.league_changed.send(League, league_id=league.pk)
    return registration


@transaction.atomic
def withdraw(registration: Registration) -> None:
    """Before play: leave the league. After: dropped, paired no more, results kept."""
    # (the player's items go too)
    signals.league_changed.send(League, league_id=registration.league_id)
    if registration.league.status == League.REGISTRATION:
        registration.delete()
    else:
        registration.dropped = True
        registration.save(update_fields=["dropped"])


@transaction.atomic
def drop(registration: Registration, by, *, disqualify: bool = False) -> Registration:
    """The organiser drops a player (or disqualifies them) from a running league: they
    are paired no more, their results played stand (as a player who withdraws). Before
    play, a player's registration is removed instead (``withdraw``)."""
    league = League.objects.select_for_update().get(pk=registration.league_id)
    if not is_organiser(league.club, by):
        raise LeagueError(_("Only the club's organisers drop a player."))
    if league.status == League.FINISHED:
        raise LeagueError(_("The league is finished: its standings stay as they are."))
    registration = Registration.objects.get(pk=registration.pk)
    if registration.dropped and registration.disqualified == disqualify:
        return registration
    registration.dropped = True
    registration.disqualified = disqualify
    registration.save(update_fields=["dropped", "disqualified"])
    logger.info(
        "League %s: registration %s %s by user %s",
        league.pk,
        registration.pk,
        "disqualified" if disqualify else "dropped",
        getattr(by, "pk", None),
    )
    signals.league_changed.send(League, league_id=league.pk)
    return registration


@transaction.atomic
def reinstate(registration: Registration, by) -> Registration:
    """The organiser brings a dropped (or disqualified) player back: paired again from the
    next round paired. A player who left the club must join it again first."""
    league = League.objects.select_for_update().get(pk=registration.league_id)
    if not is_organiser(league.club, by):
        raise LeagueError(_("Only the club's organisers bring a player back."))
    if league.status == League.FINISHED:
        raise LeagueError(_("The league is finished: its standings stay as they are."))
    registration = Registration.objects.select_related("player").get(pk=registration.pk)
    if not registration.player.is_active:
        raise LeagueError(_("A former member can't be brought back."))
    if not ClubMember.objects.filter(club=league.club, user=registration.player).exists():
        raise LeagueError(_("This player left the club: they must join it again first."))
    registration.dropped = False
    registration.disqualified = False
    registration.save(update_fields=["dropped", "disqualified"])
    signals.league_changed.send(League, league_id=league.pk)
    return registration


def refresh_legality(
    league: League,
    registrations: Sequence[Registration],
    members: Mapping[int, list[Member]] | None = None,
) -> None:
    """Re-check, in a fixed number of queries, the gangs changed since last checked
    (``members``: the gangs' members with their items, when the caller has them)."""
    stale = [r for r in registrations if r.gang is not None and r.gang.version != r.checked_version]
    if not stale:
        return
    if members is None:
        members = _members(Gang.objects.filter(pk__in=[r.gang_id for r in stale]))
    was = {r.pk: r.legal for r in stale}
    for r in stale:
        problems = check_gang(league, r.gang, members.get(r.gang_id, []))
        r.legal, r.problems = not problems, "\n".join(problems)
        r.checked_version = r.gang.version
    Registration.objects.bulk_update(stale, ["legal", "problems", "checked_version"])
    if any(r.legal != was[r.pk] for r in stale):  # a gang broke the cap, or fits it again
        signals.league_changed.send(League, league_id=league.pk)


def gang_changed(gang: Gang) -> None:
    """``gang`` changed: its registrations in leagues still open or running are checked
    again against their leagues (one query when it has none)."""
    registrations = list(
        Registration.objects.filter(
            gang_id=gang.pk,
            dropped=False,
            league__status__in=[League.REGISTRATION, League.RUNNING],
        ).select_related("league", "gang")
    )
    if not registrations:
        return
    members = _members(Gang.objects.filter(pk=gang.pk))  # read once for every league
    by_league: dict[int, list[Registration]] = {}
    for registration in registrations:
        by_league.setdefault(registration.league_id, []).append(registration)
    for regs in by_league.values():
        refresh_legality(regs[0].league, regs, members)


# --------------------------------------------------------------------------- rounds


def results_of(league: League) -> list[arithmetic.Result]:
    """Every counted result and bye of the league, in one query."""
    out = []
    pairings = Pairing.objects.filter(round__league=league).select_related("round", "report")
    for p in pairings:
        if p.b_id is None:
            out.append(arithmetic.Result(p.round.number, p.a_id, None))
            continue
        report = getattr(p, "report", None)
        if report is None or not report.counts:
            continue
        winner = {"a": p.a_id, "b": p.b_id}.get(report.winner)
        out.append(
            arithmetic.Result(p.round.number, p.a_id, p.b_id, report.vp_a, report.vp_b, winner)
        )
    return out


def scoring_of(league: League) -> arithmetic.Scoring:
    return arithmetic.Scoring(league.win_points, league.draw_points, league.loss_points)


def standings(
    league: League, registrations: Sequence[Registration] | None = None
) -> list[arithmetic.Row]:
    """The league's standings from its registrations' stored tallies (no result read:
    ``tallies``); ``arithmetic.standings(players, results_of(league), …)`` gives the
    same rows from every result."""
    if registrations is None:
        registrations = list(league.registrations.all())
    entries = [
        (r.pk, r.gang_name, arithmetic.Tally(*(getattr(r, f) for f in arithmetic.TALLY_FIELDS)))
        for r in registrations
    ]
    return arithmetic.standings_from_tallies(
        entries,
        scoring_of(league),
        league.tiebreak_list,
        tallies.meetings_among({r.pk: r.meetings for r in registrations}),
    )


@dataclass
class RoundStatus:
    round: Round | None
    pairings: int
    reported: int
    counted: int
    #: of the matches without a counted result: not reported, waiting for the
    #: opponent's confirmation, disputed
    unreported: int = 0
    waiting: int = 0
    disputed: int = 0

    @property
    def complete(self) -> bool:
        return self.round is None or self.counted == self.pairings

    @property
    def missing(self) -> int:
        return self.pairings - self.counted


def current_round(league: League) -> RoundStatus:
    last = league.round_set.order_by("-number").first()
    if last is None:
        return RoundStatus(None, 0, 0, 0)
    pairings = list(last.pairings.select_related("report").filter(b__isnull=False))
    reported = [p for p in pairings if getattr(p, "report", None)]
    counted = [p for p in reported if p.report.counts]
    statuses = [p.report.status for p in reported]
    return RoundStatus(
        last,
        len(pairings),
        len(reported),
        len(counted),
        unreported=len(pairings) - len(reported),
        waiting=statuses.count(MatchReport.SUBMITTED),
        disputed=statuses.count(MatchReport.DISPUTED),
    )


def missing_text(number: int, unreported: int, waiting: int, disputed: int) -> str:
    """Why round ``number`` can't be followed yet, in words that tell an unreported match
    (the players report it, or the organiser enters it) from one waiting for the
    opponent's confirmation and from a disputed one (the organiser settles it)."""
    missing = unreported + waiting + disputed
    parts = []
    if unreported:
        parts.append(
            ngettext("%(count)s not reported yet", "%(count)s not reported yet", unreported)
            % {"count": unreported}
        )
    if waiting:
        parts.append(
            ngettext(
                "%(count)s waiting for the opponent's confirmation",
                "%(count)s waiting for the opponent's confirmation",
                waiting,
            )
            % {"count": waiting}
        )
    if disputed:
        parts.append(
            ngettext(
                "%(count)s disputed: settle it on its match page",
                "%(count)s disputed: settle them on their match pages",
                disputed,
            )
            % {"count": disputed}
        )
    return ngettext(
        "Round %(number)s has %(count)s result missing (%(details)s): pair the next round "
        "once it is confirmed or settled.",
        "Round %(number)s has %(count)s results missing (%(details)s): pair the next round "
        "once they are confirmed or settled.",
        missing,
    ) % {"number": number, "count": missing, "details": punctuate(";").join(parts)}


def new_seed() -> int:
    return 1 + secrets.randbelow(999_999_999)


def round_robin_done(
    league: League,
    everyone: Sequence[tuple[int, bool]] | None = None,
    met: Iterable[tuple[int, int | None]] | None = None,
) -> bool:
    """A round robin in which everyone still in has played every game of its rounds (it
    may end before its planned rounds after a drop): only the finish is left.
    ``everyone``: (registration id, dropped) by id; ``met``: every pairing's (a, b) ids
    (read here when not given)."""
    if league.pairing != League.ROUND_ROBIN:
        return False
    if everyone is None:
        everyone = list(league.registrations.order_by("pk").values_list("pk", "dropped"))
    if met is None:
        met = Pairing.objects.filter(round__league=league).values_list("a_id", "b_id")
    ids = [pk for pk, dropped in everyone if not dropped]
    order = [pk for pk, _dropped in everyone]
    if league.first_round == RANDOM and league.draw_seed is not None:
        order = seeded_order(order, league.draw_seed)
    planned = league.planned_rounds(len(everyone))
    games = [(a, b) for a, b in met if b is not None]
    return len(ids) >= 2 and not games_to_play(round_robin(order), planned, ids, games)


@transaction.atomic
def next_round(league: League) -> Round:
    """Pair the next round (docs/leagues.md): round 1 drawn at random (from a seed kept on
    the league) or top half against bottom half; then the next round of the round-robin
    schedule, or a Swiss round by score group (no rematch while one can be avoided, at
    most one bye each, the bye to the lowest-ranked player without one)."""
    league = League.objects.select_for_update().get(pk=league.pk)
    if league.status == League.FINISHED:
        raise LeagueError(gettext_lazy("The league is finished."))
    status = current_round(league)
    if not status.complete:
        raise LeagueError(
            missing_text(status.round.number, status.unreported, status.waiting, status.disputed)
        )
    number = (status.round.number if status.round else 0) + 1
    everyone = list(league.registrations.order_by("pk").values_list("pk", "dropped"))
    ids = [pk for pk, dropped in everyone if not dropped]
    if len(ids) < 2:
        raise LeagueError(gettext_lazy("A round needs at least two registered players."))
    planned = league.planned_rounds(len(everyone))
    if number > planned:
        raise LeagueError(
            ngettext(
                "The %(count)s round planned is played: finish the league.",
                "All %(count)s rounds are played: finish the league.",
                planned,
            )
            % {"count": planned}
        )
    earlier = list(Pairing.objects.filter(round__league=league).values_list("a_id", "b_id"))
    met = [(a, b) for a, b in earlier if b is not None]
    byes = [a for a, b in earlier if b is None]
    if number == 1 and league.first_round == RANDOM:
        league.draw_seed = new_seed()
        league.save(update_fields=["draw_seed"])
        logger.info(
            "League %s: round 1 drawn at random, seed %s, registrations %s",
            league.pk,
            league.draw_seed,
            ids,
        )
    if league.pairing == League.ROUND_ROBIN:
        order = [pk for pk, _dropped in everyone]
        if league.first_round == RANDOM and league.draw_seed is not None:
            order = seeded_order(order, league.draw_seed)
        schedule = round_robin(order)
        if not games_to_play(schedule, planned, ids, met):
            raise LeagueError(
                _("Everyone still in has played every game of the round robin: finish the league.")
            )
        pairs = round_robin_round(schedule, number, ids, met, byes, planned)
    elif number == 1:
        pairs = first_round(ids, league.first_round, league.draw_seed)
    else:
        rows = [row for row in standings(league) if row.player in ids]  # all results count
        scores = {row.player: row.points for row in rows}
        pairs = swiss([row.player for row in rows], met, byes, scores)
    new = Round.objects.create(league=league, number=number)
    Pairing.objects.bulk_create(
        Pairing(round=new, table=i, a_id=a, b_id=b) for i, (a, b) in enumerate(pairs, start=1)
    )
    tallies.changed(league.pk, [a for a, b in pairs if b is None])  # a bye counts at once
    if league.status == League.REGISTRATION:
        league.status = League.RUNNING
        league.save(update_fields=["status"])
        # (registration is over for the members)
        signals.club_changed.send(League, club_id=league.club_id)
    signals.league_changed.send(League, league_id=league.pk)
    return new


@transaction.atomic
def swap(pairing: Pairing, other: Pairing, *, mine: str = "b", theirs: str = "b") -> None:
    """The organiser swaps one player of ``pairing`` with one of ``other`` (same round,
    nothing reported yet)."""
    if pairing.round_id != other.round_id or pairing.pk == other.pk:
        raise LeagueError(
            gettext_lazy("Swap players between two tables of the same round."), "other"
        )
    if MatchReport.objects.filter(pairing__in=[pairing, other]).exists():
        raise LeagueError(
            gettext_lazy("A result is already reported at one of those tables."), "other"
        )
    if mine not in ("a", "b") or theirs not in ("a", "b"):
        raise LeagueError(gettext_lazy("Choose which player of each table moves."), "other")
    x, y = getattr(pairing, f"{mine}_id"), getattr(other, f"{theirs}_id")
    if x is None or y is None:
        raise LeagueError(gettext_lazy("A bye has nobody to swap on that side."), "other")
    setattr(pairing, f"{mine}_id", y)
    setattr(other, f"{theirs}_id", x)
    for p in (pairing, other):
        if p.a_id == p.b_id:  # pragma: no cover - different tables hold different players
            raise LeagueError(gettext_lazy("A player can't play himself."), "other")
    pairing.save(update_fields=["a", "b"])
    other.save(update_fields=["a", "b"])
    signals.league_changed.send(League, league_id=pairing.round.league_id)


@transaction.atomic
def finish(league: League) -> League:
    status = current_round(league)
    if not status.complete:
        raise LeagueError(
            gettext_lazy("The last round still has matches without a confirmed result.")
        )
    league.status = League.FINISHED
    league.save(update_fields=["status"])
    signals.league_changed.send(League, league_id=league.pk)
    return league


# --------------------------------------------------------------------------- reports


def side_of(pairing: Pairing, user) -> str | None:
    """ "a" or "b" when the user plays at this table, else None."""
    if pairing.a.player_id == user.pk:
        return "a"
    if pairing.b_id is not None and pairing.b.player_id == user.pk:
        return "b"
    return None


REPORT_FIELDS = ("scenario", "deployment", "vp_a", "vp_b", "winner", "casualties", "notes")


def _log(report: MatchReport, kind: str, user, **extra: Any) -> None:
    values = {k: getattr(report, k) for k in REPORT_FIELDS}
    ReportEvent.objects.create(report=report, kind=kind, by=user, values={**values, **extra})
    signals.league_changed.send(League, league_id=report.pairing.round.league_id)


@transaction.atomic
def submit_report(pairing: Pairing, user, data: Mapping[str, Any]) -> MatchReport:
    """A player reports their own match; it waits for the opponent's confirmation. The
    player who reported may correct it until it is answered; the opponent confirms or
    disputes it (never reports over it), and only the organiser settles a dispute."""
    if pairing.is_bye:
        raise LeagueError(gettext_lazy("A bye has no match to report."))
    if side_of(pairing, user) is None:
        raise LeagueError(gettext_lazy("You can only report your own matches."))
    Pairing.objects.select_for_update().filter(pk=pairing.pk).first()
    report = MatchReport.objects.filter(pairing=pairing).first()
    if report is not None and report.counts:
        raise LeagueError(gettext_lazy("This result is confirmed; ask the organiser to change it."))
    if report is not None and report.status == MatchReport.DISPUTED:
        raise LeagueError(_("This result is disputed: the organiser settles it."))
    if report is not None and report.submitted_by_id != user.pk:
        raise LeagueError(
            _("Your opponent reported this result: confirm it, or dispute it for the organiser.")
        )
    values = {k: data[k] for k in REPORT_FIELDS if k in data}
    _check_winner(values)
    kind = "submitted" if report is None else "corrected"
    if report is None:
        report = MatchReport(pairing=pairing)
    for key, value in values.items():
        setattr(report, key, value)
    report.submitted_by = user
    report.status = MatchReport.SUBMITTED
    report.save()
    _log(report, kind, user)
    return report


def _check_winner(values: Mapping[str, Any]) -> None:
    if values.get("winner") not in ("a", "b", "draw"):
        raise LeagueError(gettext_lazy("Choose the winner, or a draw."), "winner")


def _answerable(report: MatchReport, user, what: str) -> MatchReport:
    """The report as it is now (its pairing locked): the opponent of the player who
    reported it answers it, once."""
    Pairing.objects.select_for_update().filter(pk=report.pairing_id).first()
    pairing = report.pairing
    report = MatchReport.objects.get(pk=report.pk)
    report.pairing = pairing
    if side_of(pairing, user) is None or report.submitted_by_id == user.pk:
        raise LeagueError(
            (
                _("The opponent of the player who reported confirms the result.")
                if what == "confirms"
                else _("The opponent of the player who reported disputes the result.")
                if what == "disputes"
                else _("The opponent of the player who reported %(what)s the result.")
            )
            % {"what": what}
        )
    if report.status != MatchReport.SUBMITTED:
        raise LeagueError(
            _("This result is %(status)s.") % {"status": str(report.get_status_display()).lower()}
        )
    return report


@transaction.atomic
def confirm_report(report: MatchReport, user) -> str:
    """The opponent confirms; the result then counts (and feeds a linked campaign).
    Returns a note about the campaign, or ""."""
    report = _answerable(report, user, "confirms")
    report.status = MatchReport.CONFIRMED
    report.save(update_fields=["status", "updated"])
    _log(report, "confirmed", user)
    return feed_campaign(report, user)


@transaction.atomic
def dispute_report(report: MatchReport, user, reason: str) -> MatchReport:
    report = _answerable(report, user, "disputes")
    if not reason.strip():
        raise LeagueError(gettext_lazy("Say what is wrong, for the organiser."), "reason")
    report.status = MatchReport.DISPUTED
    report.dispute = reason.strip()
    report.save(update_fields=["status", "dispute", "updated"])
    _log(report, "disputed", user, reason=report.dispute)
    return report


@transaction.atomic
def settle_report(
    report: MatchReport, user, data: Mapping[str, Any], note: str = ""
) -> tuple[MatchReport, str]:
    """The organiser decides a disputed (or any) result: the values given stand. The
    dispute's reason stays on the report and in its history."""
    values = {k: data[k] for k in REPORT_FIELDS if k in data}
    _check_winner({"winner": values.get("winner", report.winner)})
    was_counted = report.counts
    for key, value in values.items():
        setattr(report, key, value)
    report.status = MatchReport.SETTLED
    report.settled_note = note.strip()
    report.save()
    _log(report, "settled", user, note=report.settled_note)
    return report, ("" if was_counted else feed_campaign(report, user))


def feed_campaign(report: MatchReport, user) -> str:
    """In a league that runs a campaign, a counted result begins and records the
    encounter between the two players' campaign gangs (the winner; the players add what
    happened and confirm it in the campaign). Returns what happened, in words."""
    pairing = report.pairing
    campaign = pairing.round.league.campaign
    if campaign is None:
        return ""
    a, b = pairing.a, pairing.b
    if a.campaign_gang_id is None or b.campaign_gang_id is None:
        return _("Not fed to the campaign: a player has no gang in it.")
    gangs = [str(a.campaign_gang_id), str(b.campaign_gang_id)]
    try:
        with transaction.atomic():  # both events, or neither
            state = _feed(campaign, user, gangs, report)
    except CampaignError as error:
        return _("Not fed to the campaign: %(reason)s") % {"reason": error.message}
    return _(
        "Fed to the campaign as encounter %(number)s: record what happened there and confirm it."
    ) % {"number": state.last_encounter.number}


def _feed(campaign, user, gangs: list[str], report: MatchReport):
    state = campaign_services.record(campaign, user, "encounter_begun", {"gangs": gangs})
    winner = {"a": gangs[0], "b": gangs[1]}.get(report.winner, "")
    campaign_services.record(
        campaign,
        user,
        "encounter_recorded",
        {
            "encounter": state.last_encounter.id,
            "gang": "",
            "winner": winner,
            "happenings": [],
            "notes": _("From the league match: %(vp_a)s-%(vp_b)s. %(notes)s")
            % {"vp_a": report.vp_a, "vp_b": report.vp_b, "notes": report.notes},
        },
    )
    return state
