"""Whether a showdown may follow an encounter, and why not: plain Python, like the engine.

The book (Rivals): after every encounter an outlaw of the gang with the lower total
reputation may challenge an outlaw of the other gang with the same notoriety. The engine
(:func:`rules.campaign.engine.showdown_pairs`) lists who may challenge whom; this says,
when nobody may, why, in the reader's words: the chance has gone (a gang has begun another
encounter since), a gang rode to Mexico, the totals are equal, or no two outlaws share a
notoriety.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.campaign.engine import showdown_gone, showdown_pairs
from rules.campaign.state import CampaignState, EncounterState
from rules.i18n import _


@dataclass(frozen=True)
class ShowdownChance:
    """Who may challenge whom after an encounter, or why nobody may."""

    #: every (challenger, challenged) the book allows, as member refs
    pairs: list[tuple[str, str]] = field(default_factory=list)
    #: why there is no showdown ("" while one may be made, or where the question does not
    #: arise: a game without showdowns, an encounter not yet awarded, a showdown under way)
    why_not: str = ""

    @property
    def open(self) -> bool:
        return bool(self.pairs)


def showdown_chance(state: CampaignState, enc: EncounterState) -> ShowdownChance:
    """Who may challenge whom after ``enc`` and, when nobody may, why."""
    if not state.progression.has_showdown or not enc.awarded or enc.showdown is not None:
        return ShowdownChance()
    gone = showdown_gone(state, enc)
    if gone:
        return ShowdownChance(why_not=gone)
    pairs = showdown_pairs(state, enc)
    if pairs:
        return ShowdownChance(pairs=pairs)
    a, b = (state.gangs[g] for g in enc.gangs)
    score = _(state.progression.score_word)
    if a.retired or b.retired:
        why = _("A gang rode to Mexico: no showdown.")
    elif a.total == b.total:
        why = _(
            "Both gangs have %(total)s %(score)s: neither is lower, so nobody may challenge."
        ) % {"total": a.total, "score": score}
    else:
        low, high = (a, b) if a.total < b.total else (b, a)
        why = _(
            "No outlaw of %(low)s (the gang with less %(score)s) "
            "shares a notoriety with an outlaw of %(high)s."
        ) % {"low": low.name, "score": score, "high": high.name}
    return ShowdownChance(why_not=why)
