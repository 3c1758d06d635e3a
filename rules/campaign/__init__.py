"""Campaigns: a gang's life after its first fight, kept as an append-only log of events.

Plain Python, like the rest of ``rules``. The app stores events; this package says what
they mean:

- :mod:`.state`: the campaign's state (gangs, members, encounters) as plain data;
- :mod:`.engine`: :func:`replay` folds the events into a state; :func:`prepare` checks and
  completes a new event (dice through an injected :class:`rules.dice.Dice`), or raises
  :class:`CampaignError` saying what to change; undo is an event too;
- :mod:`.progression`: what every game's campaign shares, and the hooks a game overrides;
- one module per game system (``rivals``, ``bwg1``, ``bwg2``, ``gf26``, ``gunfight``)
  with its campaign rules, found by its system id. Rivals follows its book; the other four
  follow Rivals-style house rules (``docs/campaigns.md``) whose numbers the organiser can
  change per campaign. A system with no module here gets :class:`XPProgression`.
"""

from rules.campaign.engine import (
    EVENT_KINDS,
    SHOWDOWN_FATES,
    Checkpoints,
    prepare,
    progression_for,
    replay,
    showdown_gone,
    showdown_pairs,
)
from rules.campaign.progression import Progression, XPProgression
from rules.campaign.state import (
    ACTIVE,
    CONFIRMED,
    DEAD,
    DISPUTED,
    ENCOUNTER_STATUS,
    FINISHED,
    IN_PLAY,
    MAX_HAPPENINGS,
    PROVISIONAL,
    RUNNING,
    SETUP,
    TIMES,
    Award,
    CampaignError,
    CampaignState,
    EncounterState,
    Event,
    GangState,
    LogLine,
    MemberState,
    Standing,
    member_cost,
    ref,
)

__all__ = [
    "ACTIVE",
    "CONFIRMED",
    "DEAD",
    "DISPUTED",
    "ENCOUNTER_STATUS",
    "EVENT_KINDS",
    "FINISHED",
    "IN_PLAY",
    "MAX_HAPPENINGS",
    "PROVISIONAL",
    "RUNNING",
    "SETUP",
    "SHOWDOWN_FATES",
    "TIMES",
    "Award",
    "CampaignError",
    "CampaignState",
    "Checkpoints",
    "EncounterState",
    "Event",
    "GangState",
    "LogLine",
    "MemberState",
    "Progression",
    "Standing",
    "XPProgression",
    "member_cost",
    "prepare",
    "progression_for",
    "ref",
    "replay",
    "showdown_gone",
    "showdown_pairs",
]
