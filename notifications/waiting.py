"""What waits on a user: every action someone is waiting for them to take.

:func:`waiting_for` answers, for one user, with a list of :class:`Waiting` items, each
with a kind (one of :data:`KINDS`, which the settings page turns on and off for email), a
stable key (the same while the same thing waits; a new one when it waits again, so it is
mailed once per occurrence), a sentence in the game's words, the link to where it is done
and since when. Nothing is stored: an item disappears as soon as what it asks is done.

Campaigns (``rules.campaign``: the state replayed from the log knows what each gang waits
on; who may do what is ``campaigns/access.py``):

- an encounter begun and not recorded: its two gangs' players record it;
- a record to confirm or dispute: the player of each gang that has not confirmed it;
- a disputed record: the organiser settles it;
- death rolls: the player of the member's gang;
- a showdown challenge: the challenged outlaw's player accepts or declines; an accepted
  showdown: both players record how it went;
- CCP (or advances, promotions...) to spend, between encounters: the gang's player;
- recruits (Rivals: a gang fights at full strength): the gang's player.

Leagues (``campaigns/leagues/services.py``):

- a result the opponent reported: confirm or dispute it;
- a match of the current round not reported yet: play it and report it;
- a disputed result: the club's organisers settle it;
- every match of the current round in: the organisers pair the next round (or finish
  the league when every round is played);
- players registered for a league not started: the organisers pair round 1 once
  everyone is in (the code has no step that accepts a registration: a registration is in
  as soon as it is legal, and pairing round 1 is the organiser's answer to it);
- a league open for registration: each member of its club (not its organisers, who
  opened it) who has not registered, until they do or play starts;
- a registered gang that breaks its league's cap (changed in the builder since it was
  registered, or a lower cap): its owner fixes it, and it is on the organisers' list
  (re-checked by the leagues when the gang changes:
  ``campaigns.leagues.services.gang_changed``, never while a page is read).

A player who deleted their account (an inactive "former member") owes nothing: what they
owed waits on the organiser instead (a campaign encounter's steps for their gang; a league
result they were to confirm, or a match not reported: "settle"). News stored for a user
(``Notice``: "You now organise ...") is listed first until dismissed. Links land on the
exact control (``#confirm``, ``#settle``, ``#step-deaths`` ...).

Costs a fixed number of queries whatever the number of campaigns and leagues (every
running campaign is replayed from one query of all their events).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.db.models import OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.leagues.models import ClubMember, League, MatchReport, Pairing, Registration, Round
from campaigns.leagues.services import problem_sentences, round_robin_done
from campaigns.models import Campaign, CampaignEvent, CampaignGang
from notifications.models import Notice
from rules.campaign import (
    CONFIRMED,
    DISPUTED,
    IN_PLAY,
    PROVISIONAL,
    RUNNING,
    CampaignState,
    EncounterState,
    replay,
)

__all__ = ["KINDS", "Waiting", "grouped", "waiting_for"]

#: every kind of waiting action, in the order the home page lists them (id: heading)
KINDS: dict[str, Any] = {
    "notice": gettext_lazy("News for you"),
    "confirm": gettext_lazy("Results to confirm or dispute"),
    "record": gettext_lazy("Encounters and matches to record"),
    "death_roll": gettext_lazy("Death rolls to make"),
    "showdown": gettext_lazy("Showdowns to answer or record"),
    "advance": gettext_lazy("CCP and advances to spend"),
    "recruit": gettext_lazy("Recruits to make"),
    "illegal": gettext_lazy("Registered gangs that break a league's cap"),
    "dispute": gettext_lazy("Disputes to settle"),
    "round": gettext_lazy("Rounds to pair"),
    "registration": gettext_lazy("Registrations for your leagues"),
    "register": gettext_lazy("Leagues open for registration"),
}


@dataclass(frozen=True)
class Waiting:
    kind: str
    key: str
    text: str
    url: str  # a path on this site
    since: datetime.datetime | None = None

    @property
    def heading(self) -> str:
        return str(KINDS[self.kind])

    @property
    def ago(self) -> str:
        """Since when, in words: "just now", "3 hours ago"."""
        if self.since is None:
            return ""
        if (timezone.now() - self.since).total_seconds() < 60:
            return _("just now")
        return _("%(time)s ago") % {"time": timesince(self.since)}


def grouped(items: Iterable[Waiting]) -> list[tuple[str, str, list[Waiting]]]:
    """(kind, heading, items) for each kind that has items, in the order of KINDS."""
    by_kind: dict[str, list[Waiting]] = {}
    for item in items:
        by_kind.setdefault(item.kind, []).append(item)
    return [(kind, str(KINDS[kind]), by_kind[kind]) for kind in KINDS if kind in by_kind]


def waiting_for(user) -> list[Waiting]:
    """Every action waiting on ``user``, oldest first within each kind."""
    if not getattr(user, "is_authenticated", False):
        return []
    items = [*_notices(user), *_campaign_items(user), *_league_items(user)]
    order = {kind: i for i, kind in enumerate(KINDS)}
    far = datetime.datetime.max.replace(tzinfo=datetime.UTC)
    items.sort(key=lambda w: (order[w.kind], w.since or far, w.key))
    return items


def _notices(user) -> list[Waiting]:
    """News stored for the user (``notifications.models.Notice``) until dismissed."""
    return [
        Waiting("notice", f"n{n.pk}", n.text, n.url, n.created)
        for n in Notice.objects.filter(user=user)
    ]


# --------------------------------------------------------------------------- campaigns


def _when(at: str) -> datetime.datetime | None:
    try:
        return datetime.datetime.fromisoformat(at) if at else None
    except ValueError:
        return None


def _campaign_items(user) -> list[Waiting]:
    campaigns = list(
        Campaign.objects.filter(Q(organiser=user) | Q(gangs__player=user))
        .filter(status="running")  # (nothing waits while it is set up, or once finished)
        .distinct()
    )
    if not campaigns:
        return []
    events = (
        CampaignEvent.objects.filter(campaign__in=campaigns)
        .select_related("user")
        .order_by("campaign_id", "seq")
    )
    by_campaign = {
        pk: [e.as_event(e.user.username if e.user else "") for e in group]
        for pk, group in groupby(events, key=lambda e: e.campaign_id)
    }
    mine: dict[int, set[str]] = {}
    left: dict[int, set[str]] = {}  # the gangs of players who deleted their account
    organised = [c.pk for c in campaigns if c.organiser_id == user.pk]
    for campaign_id, pk, player_id in CampaignGang.objects.filter(
        Q(player=user) | Q(campaign__in=organised, player__is_active=False),
        campaign__in=campaigns,
    ).values_list("campaign_id", "pk", "player_id"):
        (mine if player_id == user.pk else left).setdefault(campaign_id, set()).add(str(pk))
    items: list[Waiting] = []
    for campaign in campaigns:
        state = replay(
            campaign.system,
            by_campaign.get(campaign.pk, []),
            campaign.house_rules,
            campaign.encounters,
        )
        items += campaign_items(
            campaign,
            state,
            mine.get(campaign.pk, set()),
            campaign.organiser_id == user.pk,
            left.get(campaign.pk, set()),
        )
    return items


def campaign_items(
    campaign: Campaign,
    state: CampaignState,
    mine: set[str],
    organiser: bool,
    left: set[str] = frozenset(),
) -> list[Waiting]:
    """What waits, in one campaign, on a user who plays the gangs ``mine`` (ids as the log
    names them) and is its organiser or not. ``left``: the gangs whose player deleted their
    account; what they owed in an encounter (recording, confirming, death rolls, showdown
    answers) waits on the organiser instead."""
    cid = campaign.pk
    spend = mine  # (CCP, advances and recruits: only one's own gangs)
    mine = mine | left
    name = campaign.name
    last_at: dict[int, tuple[int, str]] = {}  # encounter id: (seq, at) of its latest event
    recorded: dict[int, int] = {}  # encounter id: seq of its latest record
    gang_at: dict[str, str] = {}  # gang id: when the latest event concerning it happened
    for line in state.log:
        if line.undone:
            continue
        if line.encounter is not None:
            last_at[line.encounter] = (line.seq, line.at)
            if line.kind == "encounter_recorded":
                recorded[line.encounter] = line.seq
        for gang in line.gangs:
            gang_at[gang] = line.at
    items: list[Waiting] = []

    def add(kind: str, key: str, text: str, url: str, at: str) -> None:
        items.append(Waiting(kind, f"c{cid}:{key}", text, url, _when(at)))

    for enc in state.encounters:
        url = reverse("encounter_detail", args=[cid, enc.id])
        seq, at = last_at.get(enc.id, (enc.id, ""))
        a, b = (state.gangs[g].name for g in enc.gangs)
        what = {"n": enc.number, "a": a, "b": b, "campaign": name}
        if enc.status == IN_PLAY:
            for gang in enc.gangs:
                if gang in mine:
                    add(
                        "record",
                        f"e{enc.id}:record:{gang}",
                        _("Record encounter %(n)s of %(campaign)s: %(a)s v %(b)s.") % what,
                        reverse("encounter_record", args=[cid, enc.id]),
                        at,
                    )
                    break
        elif enc.status == PROVISIONAL:
            for gang in enc.gangs:
                if gang in mine and gang not in enc.confirmed:
                    add(
                        "confirm",
                        f"e{enc.id}:confirm:{gang}:{recorded.get(enc.id, seq)}",
                        _(
                            "Confirm or dispute the record of encounter %(n)s of "
                            "%(campaign)s (%(gang)s): %(a)s v %(b)s."
                        )
                        % {**what, "gang": state.gangs[gang].name},
                        url + "#step-confirm",
                        at,
                    )
        elif enc.status == DISPUTED and organiser:
            add(
                "dispute",
                f"e{enc.id}:dispute:{seq}",
                _("%(gang)s disputed the record of encounter %(n)s of %(campaign)s: settle it.")
                % {**what, "gang": state.gangs[enc.disputed_by].name if enc.disputed_by else a},
                url + "#step-confirm",
                at,
            )
        if enc.status == CONFIRMED:
            items += _after_encounter(cid, name, state, enc, mine, url, at)
    if state.status == RUNNING:
        for gang_id in sorted(spend):
            gang = state.gangs.get(gang_id)
            if gang is None or gang.retired or state.open_encounter(gang_id) is not None:
                continue
            at = gang_at.get(gang_id, "")
            url = reverse("campaign_gang", args=[cid, gang_id])
            p = state.progression
            ready = [m for m in gang.alive if m.saved > 0 and p.advance_options(m)]
            if ready:
                earned = sum(m.earned for m in gang.members.values())
                names = ", ".join(f"{m.name} ({m.saved})" for m in ready)
                add(
                    "advance",
                    f"g{gang_id}:advance:{earned}",
                    _("%(gang)s has %(what)s to spend in %(campaign)s: %(names)s.")
                    % {"gang": gang.name, "what": p.earned_label, "campaign": name, "names": names},
                    url,
                    at,
                )
            if p.full_strength:
                for fallen in gang.waiting:
                    add(
                        "recruit",
                        f"g{gang_id}:recruit:{fallen.key}",
                        _(
                            "Recruit an outlaw to replace %(name)s in %(gang)s (%(campaign)s), "
                            "or fight on without one."
                        )
                        % {"name": fallen.name, "gang": gang.name, "campaign": name},
                        reverse("campaign_gang_recruit", args=[cid, gang_id]),
                        at,
                    )
    return items


def _after_encounter(
    cid: int,
    name: str,
    state: CampaignState,
    enc: EncounterState,
    mine: set[str],
    url: str,
    at: str,
) -> list[Waiting]:
    items: list[Waiting] = []
    sd = enc.showdown or {}
    for ref in enc.death_rolls_left:
        member = state.member(ref)
        if member.gang not in mine:
            continue
        again = ":showdown" if sd.get("status") == "fought" and sd.get("loser") == ref else ""
        items.append(
            Waiting(
                "death_roll",
                f"c{cid}:e{enc.id}:death:{ref}{again}",
                _("Make the death roll for %(member)s (%(gang)s, encounter %(n)s of %(campaign)s).")
                % {
                    "member": member.name,
                    "gang": state.gangs[member.gang].name,
                    "n": enc.number,
                    "campaign": name,
                },
                url + "#step-deaths",
                _when(at),
            )
        )
    if sd.get("status") in ("challenged", "accepted"):
        x, y = state.member(sd["challenger"]), state.member(sd["challenged"])
        fighters = {"challenger": x.name, "challenged": y.name, "n": enc.number, "campaign": name}
    if sd.get("status") == "challenged":
        if y.gang in mine:
            items.append(
                Waiting(
                    "showdown",
                    f"c{cid}:e{enc.id}:showdown:answer",
                    _(
                        "%(challenger)s challenged %(challenged)s to a showdown after "
                        "encounter %(n)s of %(campaign)s: accept or decline."
                    )
                    % fighters,
                    url + "#step-showdown",
                    _when(at),
                )
            )
    elif sd.get("status") == "accepted" and (x.gang in mine or y.gang in mine):
        items.append(
            Waiting(
                "showdown",
                f"c{cid}:e{enc.id}:showdown:fight",
                _(
                    "Record how the showdown between %(challenger)s and %(challenged)s "
                    "went (encounter %(n)s of %(campaign)s)."
                )
                % fighters,
                url + "#step-showdown",
                _when(at),
            )
        )
    return items


# --------------------------------------------------------------------------- leagues


def player_name(user) -> str:
    """A player as a sentence names them: "a former member" once they deleted their
    account (the number in their stored name is noise here)."""
    if user is None or not user.is_active:
        return _("a former member")
    return user.get_username()


def _stamp(when: datetime.datetime | None) -> int:
    return int(when.timestamp()) if when else 0


def _result(report: MatchReport) -> str:
    pairing = report.pairing
    if report.winner == "draw":
        who = _("a draw")
    else:
        side = pairing.a if report.winner == "a" else pairing.b
        who = _("%(gang)s won") % {"gang": side.gang_name}
    return f"{report.vp_a}\u2013{report.vp_b}, {who}"


def _league_items(user) -> list[Waiting]:
    items: list[Waiting] = []
    mine = Q(pairing__a__player=user) | Q(pairing__b__player=user)
    reports = (
        MatchReport.objects.filter(mine, status=MatchReport.SUBMITTED)
        .exclude(submitted_by=user)
        .select_related(
            "pairing__round__league", "pairing__a__player", "pairing__b__player", "submitted_by"
        )
    )
    for report in reports:
        pairing = report.pairing
        league = pairing.round.league
        opponent = pairing.b if pairing.a.player_id == user.pk else pairing.a
        items.append(
            Waiting(
                "confirm",
                f"l{league.pk}:m{pairing.pk}:confirm:{_stamp(report.updated)}",
                _(
                    "%(player)s reported your round %(round)s match in %(league)s "
                    "(%(result)s): confirm or dispute it."
                )
                % {
                    "player": player_name(opponent.player),
                    "round": pairing.round.number,
                    "league": league.name,
                    "result": _result(report),
                },
                reverse("match_detail", args=[league.pk, pairing.pk]) + "#confirm",
                report.updated,
            )
        )
    last_round = Round.objects.filter(league=OuterRef("round__league")).order_by("-number")
    unreported = (
        Pairing.objects.filter(Q(a__player=user) | Q(b__player=user))
        .filter(b__isnull=False, report__isnull=True, round__league__status=League.RUNNING)
        .annotate(last=Subquery(last_round.values("number")[:1]))
        .select_related("round__league", "a__player", "b__player")
    )
    for pairing in unreported:
        if pairing.round.number != pairing.last:
            continue
        league = pairing.round.league
        opponent = pairing.b if pairing.a.player_id == user.pk else pairing.a
        if not opponent.player.is_active:
            continue  # they deleted their account: the organiser settles the match
        items.append(
            Waiting(
                "record",
                f"l{league.pk}:m{pairing.pk}:report",
                _("Play your round %(round)s match in %(league)s against %(player)s and report it.")
                % {
                    "round": pairing.round.number,
                    "league": league.name,
                    "player": opponent.player.username,
                },
                reverse("match_detail", args=[league.pk, pairing.pk]) + "#report",
                pairing.round.created,
            )
        )
    organised = list(
        League.objects.filter(
            club__members__user=user,
            club__members__role=ClubMember.ORGANISER,
        )
        .exclude(status=League.FINISHED)
        .order_by("pk")
    )
    if organised:
        items += _organiser_items(organised)
    items += _illegal_items(user, organised)
    items += _open_items(user)
    return items


def _open_items(user) -> list[Waiting]:
    """Leagues open for registration in the user's clubs (where they are a member, not
    an organiser) that they have not registered for."""
    leagues = (
        League.objects.filter(
            status=League.REGISTRATION,
            club__members__user=user,
            club__members__role=ClubMember.MEMBER,
        )
        .exclude(registrations__player=user)
        .select_related("club")
        .order_by("pk")
    )
    return [
        Waiting(
            "register",
            f"l{league.pk}:open",
            _("%(league)s is open for registration in %(club)s: register a gang.")
            % {"league": league.name, "club": league.club.name},
            reverse("league_register", args=[league.pk]),
            league.created,
        )
        for league in leagues
    ]


def _problems(registration: Registration) -> str:
    """The first two things that make the gang illegal, as sentences (each once, ending
    with one full stop: ``campaigns.leagues.services.problem_sentences``)."""
    return " ".join(problem_sentences(registration.problems.splitlines())[:2])


def _illegal_items(user, organised: list[League]) -> list[Waiting]:
    """Registered gangs (the user's own, and those in leagues they organise) that break
    their league's cap, as checked when the gang last changed (the leagues re-check a
    registered gang then: ``campaigns.leagues.services.gang_changed``)."""
    registrations = list(
        Registration.objects.filter(Q(player=user) | Q(league__in=organised))
        .filter(
            league__status__in=[League.REGISTRATION, League.RUNNING],
            dropped=False,
            gang__isnull=False,
        )
        .select_related("league", "gang", "player")
        .order_by("league_id", "pk")
    )
    mine = {league.pk for league in organised}
    items: list[Waiting] = []
    for r in registrations:
        if r.legal:
            continue
        what = {
            "gang": r.gang.name,
            "league": r.league.name,
            "player": player_name(r.player),
            "problems": _problems(r),
        }
        digest = hashlib.sha1(r.problems.encode("utf-8")).hexdigest()[:10]
        if r.player_id == user.pk:
            items.append(
                Waiting(
                    "illegal",
                    f"l{r.league_id}:r{r.pk}:illegal:{digest}",
                    _("Your gang %(gang)s breaks the cap of %(league)s: %(problems)s") % what,
                    reverse("gang_detail", args=[r.gang_id]),
                    r.gang.updated,
                )
            )
        elif r.league_id in mine:
            items.append(
                Waiting(
                    "illegal",
                    f"l{r.league_id}:r{r.pk}:illegal:{digest}",
                    _("%(gang)s (%(player)s) breaks the cap of %(league)s: %(problems)s") % what,
                    reverse("league_detail", args=[r.league_id]),
                    r.gang.updated,
                )
            )
    return items


def _left_items(leagues: list[League]) -> list[Waiting]:
    """Matches that wait on a player who deleted their account (a result for them to
    confirm, or a match not reported): the organisers settle them (docs/leagues.md)."""
    items: list[Waiting] = []
    stuck = (
        Pairing.objects.filter(round__league__in=leagues, b__isnull=False)
        .filter(Q(a__player__is_active=False) | Q(b__player__is_active=False))
        .filter(Q(report__isnull=True) | Q(report__status=MatchReport.SUBMITTED))
        .select_related("round__league", "a__player", "b__player", "report")
        .order_by("pk")
    )
    for pairing in stuck:
        report = getattr(pairing, "report", None)
        if report is not None:
            waits_on = pairing.b if report.submitted_by_id == pairing.a.player_id else pairing.a
            if waits_on.player.is_active:
                continue  # the one still here confirms it
        league = pairing.round.league
        items.append(
            Waiting(
                "dispute",
                f"l{league.pk}:m{pairing.pk}:left:{_stamp(report.updated if report else None)}",
                _(
                    "Settle the result of %(a)s v %(b)s (round %(round)s of %(league)s): "
                    "a player deleted their account."
                )
                % {
                    "a": player_name(pairing.a.player),
                    "b": player_name(pairing.b.player),
                    "round": pairing.round.number,
                    "league": league.name,
                },
                reverse("match_detail", args=[league.pk, pairing.pk]) + "#settle",
                report.updated if report else pairing.round.created,
            )
        )
    return items


def _organiser_items(leagues: list[League]) -> list[Waiting]:
    items: list[Waiting] = []
    disputed = MatchReport.objects.filter(
        status=MatchReport.DISPUTED, pairing__round__league__in=leagues
    ).select_related("pairing__round__league", "pairing__a__player", "pairing__b__player")
    for report in disputed:
        pairing = report.pairing
        league = pairing.round.league
        items.append(
            Waiting(
                "dispute",
                f"l{league.pk}:m{pairing.pk}:dispute:{_stamp(report.updated)}",
                _(
                    "The result of %(a)s v %(b)s (round %(round)s of %(league)s) is disputed: "
                    "settle it."
                )
                % {
                    "a": player_name(pairing.a.player),
                    "b": player_name(pairing.b.player) if pairing.b else "",
                    "round": pairing.round.number,
                    "league": league.name,
                },
                reverse("match_detail", args=[league.pk, pairing.pk]) + "#settle",
                report.updated,
            )
        )
    items += _left_items(leagues)
    pairings: dict[int, list[tuple[Any, ...]]] = {}
    for league_id, *row in (
        Pairing.objects.filter(round__league__in=leagues)
        .order_by("round__league_id", "round__number", "table")
        .values_list(
            "round__league_id",
            "round__number",
            "round__created",
            "a_id",
            "b_id",
            "report__status",
            "report__updated",
        )
    ):
        pairings.setdefault(league_id, []).append(tuple(row))
    registrations: dict[int, list[tuple[int, bool, datetime.datetime]]] = {}
    for league_id, *row in (
        Registration.objects.filter(league__in=leagues)
        .order_by("league_id", "pk")
        .values_list("league_id", "pk", "dropped", "registered")
    ):
        registrations.setdefault(league_id, []).append(tuple(row))
    counted = (MatchReport.CONFIRMED, MatchReport.SETTLED)
    for league in leagues:
        regs = registrations.get(league.pk, [])
        rows = pairings.get(league.pk, [])
        rounds_url = reverse("league_rounds", args=[league.pk])
        if not rows:
            if regs:
                newest = max(r[2] for r in regs)
                items.append(
                    Waiting(
                        "registration",
                        f"l{league.pk}:registered:{max(r[0] for r in regs)}",
                        ngettext(
                            "%(n)d player registered for %(league)s: pair round 1 once "
                            "everyone is in.",
                            "%(n)d players registered for %(league)s: pair round 1 once "
                            "everyone is in.",
                            len(regs),
                        )
                        % {"n": len(regs), "league": league.name},
                        rounds_url,
                        newest,
                    )
                )
            continue
        number = rows[-1][0]
        current = [r for r in rows if r[0] == number]
        games = [r for r in current if r[3] is not None]
        if any(r[4] not in counted for r in games):
            continue
        when = max((r[5] for r in games if r[5]), default=current[0][1])
        everyone = [(pk, dropped) for pk, dropped, _at in regs]
        met = [(r[2], r[3]) for r in rows]
        planned = league.planned_rounds(len(everyone))
        if number < planned and not round_robin_done(league, everyone, met):
            items.append(
                Waiting(
                    "round",
                    f"l{league.pk}:round:{number + 1}",
                    _("Every match of round %(n)s of %(league)s is in: pair round %(next)s.")
                    % {"n": number, "next": number + 1, "league": league.name},
                    rounds_url,
                    when,
                )
            )
        else:
            items.append(
                Waiting(
                    "round",
                    f"l{league.pk}:finish",
                    _("Every round of %(league)s is played: finish the league.")
                    % {"league": league.name},
                    rounds_url,
                    when,
                )
            )
    return items
