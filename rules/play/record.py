"""After the game: the log as the draft of the record the app already keeps.

- :func:`encounter_draft`: a campaign encounter's record (its happenings, in the order
  they happened, naming members as the campaign does, ``"<gang id>/<member key>"``, and the
  winner). Only what the campaign's game records is drafted: for Rivals, wounds and kills
  with their cause, leaving the board and loot; for the others, members put out of action
  and leaving the board. The campaign engine then computes reputation or experience from
  it, as from a record typed by hand: the player does not type numbers.
- :func:`match_draft`: a league match report's Victory Points, winner and casualties.

Both players follow one game (one log), so nothing is counted twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.i18n import _
from rules.play.engine import STATUSES, GameState


def _settled(state: GameState) -> list[dict[str, Any]]:
    """The happenings, with a member's return to the fight striking out what took it out."""
    out: list[dict[str, Any]] = []
    for h in state.happenings:
        if h["kind"] == "back":
            for earlier in reversed(out):
                if earlier.get("to", earlier.get("who")) == h["who"] and earlier["kind"] in (
                    "out",
                    "kill",
                    "left",
                    "playing_dead",
                ):
                    out.remove(earlier)
                    break
            continue
        out.append(h)
    return out


def encounter_draft(
    state: GameState,
    gangs: Mapping[str, str],
    kinds: tuple[str, ...] | None = None,
    *,
    with_seqs: bool = False,
) -> dict[str, Any]:
    """The encounter record's data (``happenings``, ``winner``) drafted from the game.

    ``gangs``: the campaign gang id of each side. ``kinds``: the happenings the campaign's
    game records (the tracker's by default). ``with_seqs``: also ``seqs``, the tap each
    line comes from (so a line the campaign refuses can be named in the log's words).
    """
    kinds = kinds or state.tracker.happening_kinds

    def ref(member_ref: str) -> str:
        if not member_ref:
            return ""
        side, _slash, key = member_ref.partition("/")
        return f"{gangs[side]}/{key}"

    lines: list[dict[str, Any]] = []
    seqs: list[int | None] = []
    for h in _settled(state):
        before = len(lines)
        kind = h["kind"]
        if kind == "wound" and "wound" in kinds and h["by"]:
            lines.append(
                {"kind": "wound", "by": ref(h["by"]), "to": ref(h["to"]), "amount": h["amount"]}
            )
        elif kind == "kill" and "kill" in kinds:
            lines.append({"kind": "kill", "by": ref(h["by"]), "to": ref(h["to"])})
        elif kind in ("kill", "out") and "out" in kinds:
            lines.append({"kind": "out", "by": ref(h["by"]), "to": ref(h["to"])})
        elif kind == "left" and "left" in kinds:
            lines.append({"kind": "left", "who": ref(h["who"])})
        elif kind == "loot" and "loot" in kinds:
            lines.append(
                {
                    "kind": "loot",
                    "by": ref(h["by"]),
                    "from": ref(h["from"]),
                    "cash": h["cash"],
                    "items": list(h["items"]),
                }
            )
        seqs += [h.get("seq")] * (len(lines) - before)
    winner = state.winner if state.winner in gangs else ""
    draft = {"happenings": lines, "winner": gangs.get(winner, "") if winner else ""}
    if with_seqs:
        draft["seqs"] = seqs
    return draft


def unnamed_wounds(state: GameState) -> list[dict[str, Any]]:
    """The wounds tapped with nobody named as their cause: they earn nobody anything
    until a ``blame`` tap names who caused them (each has its tap's ``seq``)."""
    return [h for h in _settled(state) if h["kind"] == "wound" and not h["by"]]


def casualty_vp(state: GameState, side_id: str) -> int:
    """Victory Points a side earns for the enemies out of the fight at the end (the
    system's value per member, 0 where the system has none)."""
    return sum(
        m.vp
        for s in state.sides.values()
        if s.id != side_id
        for m in s.members.values()
        if m.status in ("out", "dead")
    )


def match_draft(state: GameState) -> dict[str, Any]:
    """A league match report drafted from the game: each side's Victory Points (tapped in,
    plus those its system gives for enemies out of action), the winner (as ended, else the
    side with more VP) and the casualties in words."""
    vp = {s: state.sides[s].vp + casualty_vp(state, s) for s in state.sides}
    vp_a, vp_b = vp.get("a", 0), vp.get("b", 0)
    if state.winner in ("a", "b", "draw"):
        winner = state.winner
    else:
        winner = "a" if vp_a > vp_b else "b" if vp_b > vp_a else "draw"
    lines = []
    for side in state.sides.values():
        fallen = []
        for m in side.members.values():
            if m.in_fight:
                continue
            what = _(STATUSES[m.status]).lower()
            if m.cause:
                fallen.append(
                    _("{name} ({what} by {by})").format(
                        name=m.name, what=what, by=state.member(m.cause).name
                    )
                )
            else:
                fallen.append(_("{name} ({what})").format(name=m.name, what=what))
        if fallen:
            lines.append(_("{side}: {fallen}.").format(side=side.name, fallen=", ".join(fallen)))
    return {"vp_a": vp_a, "vp_b": vp_b, "winner": winner, "casualties": "\n".join(lines)}
