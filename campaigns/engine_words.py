"""The campaign engine's words (rules/campaign, plain Python, English), translated where the
app shows them: ``words.shown(text)`` in Python, ``{{ text|translated }}`` in templates
(builder/templatetags/gangfight_i18n.py). Listed here with gettext_noop so that
makemessages puts them in the catalogue; a word missing here simply shows in English."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

WORDS = (
    # score and what is earned (Progression.score_label, score_word, earned_label, earned_one)
    gettext_noop("Reputation"),
    gettext_noop("reputation"),
    gettext_noop("XP"),
    gettext_noop("Experience"),
    gettext_noop("experience"),
    gettext_noop("CCP"),
    gettext_noop("advances"),
    gettext_noop("advance"),
    gettext_noop("attribute points"),
    gettext_noop("attribute point"),
    gettext_noop("promotions"),
    gettext_noop("promotion"),
    # what each house rule does (Progression.rule_help)
    gettext_noop("The most a gang may cost when it joins (empty: the game's usual limit)."),
    gettext_noop("Experience for every member of the winning gang."),
    gettext_noop("Experience (usually 0 or less) for a member who left the table early."),
    gettext_noop("Experience needed for each advance."),
    gettext_noop("Dollars each gang gets after every game, to spend between games."),
    gettext_noop("Roll the Rivals death roll for every member taken out."),
    gettext_noop("Experience at which a Greenhorn becomes an Old Hand."),
    gettext_noop("Experience at which an Old Hand becomes a Veteran."),
    # an encounter's status (rules/campaign/state.py ENCOUNTER_STATUS)
    gettext_noop("Being played"),
    gettext_noop("Provisional: waiting for both players to confirm"),
    gettext_noop("Disputed: the organiser settles it"),
    gettext_noop("Confirmed"),
    # the charts' first point (CampaignState.series)
    gettext_noop("Start"),
    # the title the campaign's winner takes (Progression.title)
    gettext_noop("Campaign champions"),
    gettext_noop("The Most Famous Gang in Blackwater Gulch"),
    gettext_noop("The Most Wanted Outlaws in the Old West"),
    # what can happen in an encounter (Progression.happening_kinds)
    gettext_noop("Took out"),
    gettext_noop("Left the table early"),
    gettext_noop("Wounded"),
    gettext_noop("Killed"),
    gettext_noop("Left the board early"),
    gettext_noop("Took from a dead outlaw"),
)


def shown(text: str) -> str:
    """``text`` in the reader's language when the catalogue has it, else as it is."""
    return gettext(text) if text else text
