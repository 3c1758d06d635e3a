"""The leagues' part of a user's data (accounts/services.py finds this module by its name;
the interface is written there).

- export: ``leagues.json``, each league the user registered in: their registration and
  every match of theirs, with its report and the report's history;
- forgetting: their results stay (the user row stays, as a former member). A league still
  running stops pairing them (dropped), one still taking registrations forgets them. A
  club they organise alone passes to its longest-standing member, as organiser (told
  through ``accounts.signals.handed_over``); a club with no other member goes, unless
  other players' results are in its leagues (then it stays, under the former member).
  They leave every other club.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse

from accounts.signals import handed_over
from campaigns.leagues import services
from campaigns.leagues.models import Club, ClubMember, League, MatchReport, Pairing, Registration

#: after the campaigns' part (as accounts/services.py did it)
PRIVACY_ORDER = 30


def _when(value) -> str | None:
    return value.isoformat() if value else None


def _report(report: MatchReport) -> dict[str, Any]:
    return {
        "status": report.status,
        "winner": report.winner,
        "vp_a": report.vp_a,
        "vp_b": report.vp_b,
        "scenario": report.scenario,
        "deployment": report.deployment,
        "casualties": report.casualties,
        "notes": report.notes,
        "dispute": report.dispute,
        "settled_note": report.settled_note,
        "history": [
            {
                "kind": step.kind,
                "by": step.by.get_username() if step.by else None,
                "at": _when(step.at),
                "values": step.values,
            }
            for step in report.history.all()
        ],
    }


def _history(user) -> list[dict[str, Any]]:
    registrations = list(
        Registration.objects.filter(player=user).select_related("league__club").order_by("pk")
    )
    ids = [r.pk for r in registrations]
    pairings = (
        Pairing.objects.filter(Q(a_id__in=ids) | Q(b_id__in=ids))
        .select_related("round", "a__player", "b__player", "report__submitted_by")
        .prefetch_related("report__history__by")
        .order_by("round__number", "pk")
    )
    by_registration: dict[int, list[dict[str, Any]]] = {pk: [] for pk in ids}
    for pairing in pairings:
        mine = pairing.a if pairing.a_id in by_registration else pairing.b
        other = pairing.b if mine is pairing.a else pairing.a
        side = "a" if mine is pairing.a else "b"
        try:
            report = pairing.report
        except MatchReport.DoesNotExist:
            report = None
        by_registration[mine.pk].append(
            {
                "round": pairing.round.number,
                "side": side,
                "opponent": None
                if other is None
                else {"gang": other.gang_name, "player": other.player.get_username()},
                "report": None if report is None else _report(report),
            }
        )
    return [
        {
            "club": r.league.club.name,
            "league": r.league.name,
            "system": r.league.system,
            "status": r.league.status,
            "gang": r.gang_name,
            "registered": _when(r.registered),
            "dropped": r.dropped,
            "matches": by_registration[r.pk],
        }
        for r in registrations
    ]


def export_user_data(user) -> dict[str, Any]:
    return {"leagues.json": _history(user)}


def club_heir(club: Club, user) -> tuple[str, ClubMember | None]:
    """What becomes of a club when ``user`` leaves: "stays" (another organiser remains),
    "hand" (to the member returned), "keep" (no one else, but others' results are in it:
    it stays under the former member) or "delete"."""
    others = club.members.exclude(user=user).filter(user__is_active=True)
    if not others.exists():
        if Registration.objects.filter(league__club=club).exclude(player=user).exists():
            return "keep", None
        return "delete", None
    if others.filter(role=ClubMember.ORGANISER).exists():
        return "stays", None
    return "hand", others.select_related("user").order_by("joined", "pk").first()


def _leave_leagues(user) -> None:
    registrations = Registration.objects.filter(player=user).exclude(league__status=League.FINISHED)
    for registration in registrations.select_related("league"):
        services.withdraw(registration)


def _leave_clubs(user) -> None:
    for membership in ClubMember.objects.filter(user=user).select_related("club"):
        what, heir = club_heir(membership.club, user)
        if what == "keep":
            continue  # the former member stays its organiser: the results stay
        if what == "delete":
            membership.club.delete()
            continue
        if what == "hand" and membership.role == ClubMember.ORGANISER:
            heir.role = ClubMember.ORGANISER
            heir.save(update_fields=["role"])
            handed_over.send(
                Club,
                heir=heir.user,
                name=membership.club.name,
                url=reverse("club_detail", args=[heir.club_id]),
            )
        membership.delete()


def forget_user(user) -> None:
    _leave_leagues(user)
    _leave_clubs(user)


def owned_counts(user) -> dict[str, int]:
    return {"clubs": ClubMember.objects.filter(user=user).count()}


def deletion_plan(user) -> dict[str, Any]:
    """The clubs whose fate the user's leaving decides (those they organise, those that
    go or stay under the former member), each with what becomes of it and its heir."""
    clubs = []
    for membership in ClubMember.objects.filter(user=user).select_related("club"):
        what, heir = club_heir(membership.club, user)
        if membership.role == ClubMember.ORGANISER or what in ("delete", "keep"):
            clubs.append({"name": membership.club.name, "what": what, "heir": heir})
    return {"clubs": clubs}
