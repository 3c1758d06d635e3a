"""Everything that changes a game at the table, each inside one transaction.

Views call these; they call the play engine (``rules.play``), which says whether a tap
makes sense and what it means. A change is always a new tap in the log. After the game,
the log drafts the record the app already keeps, which is submitted through the
campaign's and the league's own services (and confirmed there by the opponent).
"""

from __future__ import annotations

import re
import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from builder.models import Gang
from builder.roster import export_roster
from campaigns import services as campaign_services
from campaigns.leagues import services as league_services
from campaigns.leagues.models import MatchReport, Pairing
from campaigns.models import Campaign, CampaignGang
from common.recent import PerThread
from play.models import Game, PhoneClock, TapEvent
from rules.campaign import CONFIRMED, CampaignError
from rules.campaign import prepare as campaign_prepare
from rules.play import (
    Checkpoints,
    GameState,
    PlayError,
    Tap,
    encounter_draft,
    kept,
    replay,
    setup,
)
from rules.play.engine import admit, undone_by

__all__ = [
    "PlayError",
    "encounter_of",
    "game_for_encounter",
    "game_for_pairing",
    "games_for",
    "get_game_for_user",
    "start_from_encounter",
    "start_from_gang",
    "start_from_pairing",
    "state_of",
    "states_of",
    "submit_encounter",
    "submit_match",
    "tap",
]


def games_for(user) -> QuerySet[Game]:
    """The games the user plays in."""
    return Game.objects.filter(players=user)


def get_game_for_user(user, game_id: int) -> Game:
    """A game the user plays in; anyone else gets a 404."""
    return get_object_or_404(games_for(user), pk=game_id)


def state_of(game: Game) -> GameState:
    """The game's state, replayed from its log (one query)."""
    return states_of(game)[0]


def _taps(game: Game) -> tuple[list[Tap], set[str]]:
    """The game's taps in order, and their client ids (one query, read as values)."""
    rows = game.taps.order_by("seq").values_list(
        "seq", "kind", "data", "user__username", "at", "client_id", "made_at", "phone", "phone_seq"
    )
    taps, known = [], set()
    for seq, kind, data, username, at, client_id, made_at, phone, phone_seq in rows:
        made = made_at.isoformat() if made_at else ""
        taps.append(Tap(seq, kind, data, username or "", at.isoformat(), made, phone, phone_seq))
        known.add(client_id)
    return taps, known


#: how far back a phone's tap time is believed (a phone offline longer is a stale queue)
MADE_AT_MOST_BEFORE = timedelta(hours=12)


def sane_made_at(made_at: datetime | None, now: datetime, game: Game) -> datetime:
    """When the phone says it made the tap, kept sane: never after it was received, never
    before the game began nor more than 12 hours before; ``now`` when it says nothing."""
    if made_at is None:
        return now
    earliest = max(game.created or now, now - MADE_AT_MOST_BEFORE)
    return min(now, max(earliest, made_at))


#: a clock measured longer ago than this is measured again from scratch (a phone's clock
#: may have been set since); a player keeps the clocks of this many phones at most
CLOCK_FRESH = timedelta(minutes=10)
CLOCKS_PER_PLAYER = 8
#: a phone's clock further than this from the server's is not believed (a day)
CLOCK_MOST_MS = 24 * 3600 * 1000
PHONE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def phone_offset(user, phone: str, sent_ms: int | None, now: datetime | None = None):
    """The offset of the player's phone's clock to the server's, as a timedelta to add to
    the phone's times (zero when unknown). ``sent_ms``: when the phone sent this request,
    on its clock: (received - sent) is the offset plus the time on the way, so the smallest
    seen lately is the best bound; a measure older than CLOCK_FRESH starts again."""
    if not phone or not PHONE_ID.fullmatch(phone) or not user.is_authenticated:
        return timedelta(0)
    now = now or timezone.now()
    clock = PhoneClock.objects.filter(user=user, phone=phone).first()
    if sent_ms is not None:
        sample = int(now.timestamp() * 1000) - int(sent_ms)
        if abs(sample) <= CLOCK_MOST_MS:
            if clock is None:
                clock = PhoneClock.objects.create(
                    user=user, phone=phone, offset_ms=sample, measured=now
                )
                stale = PhoneClock.objects.filter(user=user).order_by("-measured")
                old = list(stale.values_list("pk", flat=True)[CLOCKS_PER_PLAYER:])
                if old:  # bounded: the phones used least lately go
                    PhoneClock.objects.filter(pk__in=old).delete()
            elif sample < clock.offset_ms or now - clock.measured > CLOCK_FRESH:
                PhoneClock.objects.filter(pk=clock.pk).update(offset_ms=sample, measured=now)
                clock.offset_ms = sample
    return timedelta(milliseconds=clock.offset_ms) if clock is not None else timedelta(0)


#: each thread's checkpoints of the games it replayed lately (rules.play.Checkpoints: a new
#: tap is applied to the state the thread had, not the whole log again), at most PLAY_BOOKS
#: of them, the least recently used dropped first
PLAY_BOOKS = 64
_books: PerThread[Checkpoints] = PerThread(PLAY_BOOKS)


def _book(game: Game) -> Checkpoints:
    return _books.get(
        (game.pk, translation.get_language()),  # the log's words are the reader's
        lambda book: book.fits(game.snapshot),
        lambda: Checkpoints(game.snapshot),
    )


def _shown_state(game: Game, taps: list[Tap], now: GameState, shown: int | None, *known):
    """The state a phone showing version ``shown`` has: one of ``known`` when it is one
    of them, else replayed from the log's start (None for a version this log never had)."""
    if shown is None or not 0 <= shown <= now.version:
        return None
    for state in (now, *known):
        if state is not None and state.version == shown:
            return state
    return replay(game.snapshot, [t for t in taps if t.seq <= shown])


def states_of(game: Game, shown: int | None = None) -> tuple[GameState, GameState | None]:
    """The game's state now, and as a phone showing version ``shown`` sees it (None when
    it shows nothing, or something this log never was): one query, at most two replays."""
    taps, _known = _taps(game)
    now = _book(game).replay(taps)
    return now, _shown_state(game, taps, now, shown)


def watch_link(game: Game, *, on: bool) -> Game:
    """Give the game a new secret read-only link (the old one stops), or none."""
    token = secrets.token_urlsafe(32) if on else ""
    Game.objects.filter(pk=game.pk).update(watch_token=token)
    game.watch_token = token
    return game


def watched_game(token: str) -> Game:
    """The game a read-only link names; 404 for any other (and for no link at all)."""
    if not token or len(token) > 43:
        raise Http404("No such game.")
    return get_object_or_404(Game.objects.exclude(watch_token=""), watch_token=token)


# --------------------------------------------------------------------------- starting


@transaction.atomic
def start_from_gang(user, gang: Gang, *, scenario: str = "", table_size: str = "") -> Game:
    """A game tracking one of the user's gangs (one side)."""
    if gang.owner_id != user.pk:
        raise PlayError(_("You can only start a game with one of your own gangs."))
    snapshot = setup(
        gang.system,
        [
            {
                "id": "a",
                "name": gang.name,
                "gang": str(gang.pk),
                "player": user.get_username(),
                "roster": export_roster(gang),
            }
        ],
    )
    game = Game.objects.create(
        owner=user,
        system=gang.system,
        name=gang.name,
        snapshot=snapshot,
        source=Game.GANG,
        gang=gang,
        scenario=scenario,
        table_size=table_size,
    )
    game.players.add(user)
    return game


def encounter_of(campaign: Campaign, encounter_id: int):
    """The campaign's state and the encounter (CampaignError if there is none)."""
    state = campaign_services.state_of(campaign)
    return state, state.encounter(encounter_id)


def game_for_encounter(campaign: Campaign, encounter_id: int) -> Game | None:
    return Game.objects.filter(campaign=campaign, encounter=encounter_id).first()


def game_for_pairing(pairing: Pairing) -> Game | None:
    return Game.objects.filter(pairing=pairing).first()


@transaction.atomic
def start_from_encounter(
    user, campaign: Campaign, encounter_id: int, *, scenario: str = "", table_size: str = ""
) -> Game:
    """The game of a campaign encounter: both gangs as the campaign has them now. Each
    player starting it follows the same game (one log), so nothing is counted twice."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    state, enc = encounter_of(campaign, encounter_id)
    players = dict(
        CampaignGang.objects.filter(pk__in=[int(g) for g in enc.gangs]).values_list("pk", "player")
    )
    if user.pk not in players.values():
        raise PlayError(_("Only the players of the encounter's two gangs play it."))
    if enc.status == CONFIRMED:
        raise PlayError(_("This encounter's record is confirmed: it was played."))
    existing = game_for_encounter(campaign, enc.id)
    if existing is not None:
        existing.players.add(user)
        return existing
    progression = state.progression
    sides = []
    for side_id, gang_id in zip(("a", "b"), enc.gangs, strict=True):
        gang = state.gangs[gang_id]
        roster = {
            **gang.roster,
            "members": [
                {"key": m.key, "name": m.name, "data": progression.member_data(m)}
                for m in gang.alive
            ],
        }
        sides.append(
            {
                "id": side_id,
                "name": gang.name,
                "gang": gang_id,
                "player": gang.player,
                "roster": roster,
            }
        )
    a, b = (state.gangs[g].name for g in enc.gangs)
    game = Game.objects.create(
        owner=user,
        system=campaign.system,
        name=_("%(a)s v %(b)s (encounter %(n)d)") % {"a": a, "b": b, "n": enc.number},
        snapshot={**setup(campaign.system, sides), "title": {"encounter": enc.number}},
        source=Game.ENCOUNTER,
        campaign=campaign,
        encounter=enc.id,
        scenario=scenario or enc.scenario,
        table_size=table_size,
    )
    game.players.add(*set(players.values()))
    return game


@transaction.atomic
def start_from_pairing(user, pairing: Pairing, *, scenario: str = "", table_size: str = "") -> Game:
    """The game of a league match: both registered gangs as they are now."""
    Pairing.objects.select_for_update().filter(pk=pairing.pk).first()
    if pairing.is_bye:
        raise PlayError(_("A bye has no game to play."))
    if league_services.side_of(pairing, user) is None:
        raise PlayError(_("You can only play your own matches."))
    existing = game_for_pairing(pairing)
    if existing is not None:
        existing.players.add(user)
        return existing
    report = MatchReport.objects.filter(pairing=pairing).first()
    if report is not None and report.counts:
        raise PlayError(_("This match's result is confirmed: it was played."))
    league = pairing.round.league
    sides = []
    for side_id, reg in (("a", pairing.a), ("b", pairing.b)):
        if reg.gang is None:
            raise PlayError(
                _("%(gang)s's gang is gone: the game can't be set up.") % {"gang": reg.gang_name}
            )
        sides.append(
            {
                "id": side_id,
                "name": reg.gang_name,
                "gang": str(reg.gang_id),
                "player": reg.player.get_username(),
                "roster": export_roster(reg.gang),
            }
        )
    system = pairing.a.gang.system
    game = Game.objects.create(
        owner=user,
        system=system,
        name=_("%(a)s v %(b)s (%(league)s, round %(n)d)")
        % {
            "a": pairing.a.gang_name,
            "b": pairing.b.gang_name,
            "league": league.name,
            "n": pairing.round.number,
        },
        snapshot={
            **setup(system, sides),
            "title": {"league": league.name, "round": pairing.round.number},
        },
        source=Game.MATCH,
        pairing=pairing,
        scenario=scenario,
        table_size=table_size,
    )
    game.players.add(pairing.a.player, pairing.b.player)
    return game


# --------------------------------------------------------------------------- tapping


def _my_last(state: GameState, username: str) -> int | None:
    """The latest tap of this player that still counts, repeats the other player's or is
    held (what one-tap undo undoes)."""
    counting = {*state.effective, *state.duplicates, *(h.seq for h in state.held)}
    for line in reversed(state.log):
        if line.seq in counting and line.by == username:
            return line.seq
    return None


@transaction.atomic
def tap(
    game: Game,
    user,
    kind: str,
    data: Mapping[str, Any],
    client_id: str = "",
    shown=None,
    made_at: datetime | None = None,
    *,
    phone: str = "",
    phone_seq: int = 0,
    seen: int | None = None,
) -> tuple[GameState, GameState | None, bool]:
    """Check one tap and put it in the game's log, where it was made. Returns the new
    state, the state the phone shows (its version ``shown``; None if unknown) and whether
    the tap was new.

    ``made_at``: when the phone made it, on the server's clock (the phone's time corrected
    by :func:`phone_offset`; kept sane by :func:`sane_made_at`); ``phone``/``phone_seq``:
    the phone and the tap's number there (a phone's taps keep their order); ``seen``: the
    version the phone showed when the tap was made. A tap made after everything in the
    log that the rules refuse is refused, if the phone had seen the whole log (the player
    is told at once); otherwise (made offline, or before the other phone's taps reached
    this one) it is kept, in conflict, for either player to keep or drop: never dropped
    silently. The other player's copy of a tap counts once. A tap whose ``client_id`` the
    game already has (sent again after a lost answer) is not added twice. The game row is
    locked, so two phones tapping at once are put in order. Raises :class:`PlayError`
    (nothing is written)."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    client_id = (client_id or uuid.uuid4().hex)[:64]
    taps, known = _taps(locked)
    book = _book(locked)
    before = book.replay(taps)
    if client_id in known:
        game.version = locked.version
        return before, _shown_state(locked, taps, before, shown), False
    most = int(getattr(settings, "PLAY_MAX_TAPS", 1000) or 0)
    if most and locked.version >= most:  # every tap replays the log: it stays bounded
        raise PlayError(
            ngettext(
                "This game has reached %(count)d tap, the most one game keeps. Finish it "
                "from its record page (the taps so far are kept), or start a new game.",
                "This game has reached %(count)d taps, the most one game keeps. Finish it "
                "from its record page (the taps so far are kept), or start a new game.",
                most,
            )
            % {"count": most}
        )
    data = dict(data)
    username = user.get_username()
    if kind == "undo" and data.get("target") in (None, ""):
        mine = _my_last(before, username)
        if mine is None:
            raise PlayError(_("You have no tap left to undo."))
        data["target"] = mine
    now = timezone.now()
    made = sane_made_at(made_at, now, locked)
    phone = phone if PHONE_ID.fullmatch(phone or "") else ""
    if phone:  # a phone's own taps keep their order, whatever its clock said
        last = max((t.made for t in taps if t.phone == phone and t.made), default="")
        if last:
            made = max(made, datetime.fromisoformat(last))
    seq = locked.version + 1
    new = Tap(seq, kind, data, username, now.isoformat(), made.isoformat(), phone, phone_seq)
    stored = admit(locked.snapshot, taps, before, new, seen if seen is not None else shown)
    # (the book's state changes with the tap: the state before it, as the phone shows it)
    shown_before = kept(before) if shown == before.version else None
    TapEvent.objects.create(
        game=locked,
        seq=seq,
        client_id=client_id,
        kind=kind,
        data=stored,
        user=user,
        at=now,
        made_at=made,
        phone=phone,
        phone_seq=max(0, int(phone_seq or 0)) if phone else 0,
    )
    taps.append(Tap(seq, kind, stored, username, new.at, new.made, new.phone, new.phone_seq))
    after = book.replay(taps)
    Game.objects.filter(pk=locked.pk).update(version=seq, updated=now, ended=after.ended)
    game.version, game.ended = seq, after.ended
    return after, _shown_state(locked, taps, after, shown, shown_before), True


def open_questions(state: GameState) -> None:
    """PlayError while a tap waits to be settled: the record drafted from the game waits."""
    if state.held:
        raise PlayError(
            ngettext(
                "%(count)d tap waits to be settled on the table (kept or dropped) before "
                "the record can be drafted.",
                "%(count)d taps wait to be settled on the table (kept or dropped) before "
                "the record can be drafted.",
                len(state.held),
            )
            % {"count": len(state.held)}
        )


# --------------------------------------------------------------------------- after the game


def sides_gangs(game: Game) -> dict[str, str]:
    """Each side's gang id (a campaign gang's, for an encounter)."""
    return {s["id"]: str(s["gang"]) for s in game.snapshot.get("sides") or []}


def encounter_record_data(game: Game, state: GameState, user, winner: str, notes: str) -> dict:
    """The encounter record drafted from the game, as ``campaigns.services.record`` takes it
    (the lines the campaign refuses left out: :func:`checked_encounter_record`)."""
    return checked_encounter_record(game, state, user, winner, notes)[0]


@dataclass
class RefusedLine:
    """A line of the drafted record the campaign refuses, in words: the tap it comes from
    (to drop it from the review) and why."""

    seq: int | None
    what: str
    why: str


def checked_encounter_record(
    game: Game, state: GameState, user, winner: str, notes: str
) -> tuple[dict, dict | None, list[RefusedLine]]:
    """The encounter record drafted from the game, the campaign's check of it and the
    lines it refused. A refused line (loot the victim does not carry...) does not wipe the
    draft: it is left out, said in words, and the rest is checked again."""
    campaign_state, enc = encounter_of(game.campaign, game.encounter)
    kinds = tuple(campaign_state.progression.happening_kinds)
    draft = encounter_draft(state, sides_gangs(game), kinds, with_seqs=True)
    lines, seqs = list(draft["happenings"]), list(draft["seqs"])
    mine = campaign_services.user_gang_ids(game.campaign, user)
    texts = {line.seq: line.text for line in state.log}
    refused: list[RefusedLine] = []
    while True:
        data = {
            "encounter": enc.id,
            "gang": next((g for g in enc.gangs if g in mine), ""),
            "happenings": lines,
            "winner": winner,
            "notes": notes,
        }
        try:
            return data, campaign_prepare(campaign_state, "encounter_recorded", data), refused
        except CampaignError as error:
            found = re.fullmatch(r"line-(\d+)", error.field or "")
            index = int(found.group(1)) - 1 if found else -1
            if not 0 <= index < len(lines):
                return data, None, [*refused, RefusedLine(None, "", error.message)]
            seq = seqs.pop(index)
            lines.pop(index)
            why = re.sub(r"^Line \d+: ", "", error.message)
            refused.append(RefusedLine(seq, texts.get(seq, ""), why))


@transaction.atomic
def submit_encounter(game: Game, user, *, winner: str, notes: str = ""):
    """Submit the game's record to the campaign (the opponent confirms it there, as any
    record). Raises CampaignError when the campaign refuses it."""
    if game.source != Game.ENCOUNTER or game.campaign is None:
        raise PlayError(_("This game is not a campaign encounter."))
    state = state_of(game)
    open_questions(state)
    data = encounter_record_data(game, state, user, winner, notes)
    new = campaign_services.record(game.campaign, user, "encounter_recorded", data)
    Game.objects.filter(pk=game.pk).update(submitted=True)
    return new


@transaction.atomic
def submit_match(game: Game, user, values: Mapping[str, Any]):
    """Submit the game's report to the league (the opponent confirms it there)."""
    if game.source != Game.MATCH or game.pairing is None:
        raise PlayError(_("This game is not a league match."))
    open_questions(state_of(game))
    report = league_services.submit_report(game.pairing, user, values)
    Game.objects.filter(pk=game.pk).update(submitted=True)
    return report


__all__ += ["CampaignError", "encounter_record_data", "sides_gangs"]


# --------------------------------------------------------------------------- the user's data


def games_data(user) -> list[dict[str, Any]]:
    """The games the user played in, each with its whole log (for the data download):
    two queries however many games."""
    games = list(
        games_for(user)
        .order_by("pk")
        .prefetch_related("taps__user")
        .only("pk", "name", "system", "source", "scenario", "table_size", "created", "ended")
    )
    out = []
    for game in games:
        taps = sorted(game.taps.all(), key=lambda t: t.seq)
        voided = undone_by([t.as_tap() for t in taps])
        out.append(
            {
                "name": game.name,
                "system": game.system,
                "played_for": game.source,
                "scenario": game.scenario,
                "table_size": game.table_size,
                "started": game.created.isoformat(),
                "ended": game.ended,
                "taps": [
                    {
                        "seq": t.seq,
                        "kind": t.kind,
                        "data": t.data,
                        "by": t.user.get_username() if t.user else "",
                        "made_at": t.made_at.isoformat() if t.made_at else None,
                        "received_at": t.at.isoformat(),
                        "undone": t.seq in voided,
                    }
                    for t in taps
                ],
            }
        )
    return out
