"""The campaign engine's words (rules/campaign, plain Python, English), translated where the
app shows them: ``words.shown(text)`` in Python, ``{{ text|translated }}`` in templates
(builder/templatetags/gangfight_i18n.py). The engine marks its words with gettext_noop at the
source; listed here are only those it builds rather than writes out, so that makemessages
puts them in the catalogue. A word missing from the catalogue simply shows in English."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

WORDS = (
    # the engine marks its own words at the source (rules/campaign, gettext_noop): listed
    # here are only those it builds rather than writes out
    gettext_noop("Experience"),
    gettext_noop("experience"),
    # one of what is earned (Progression.earned_one: earned_label without its "s")
    gettext_noop("advance"),
    gettext_noop("attribute point"),
    gettext_noop("promotion"),
)


def shown(text: str) -> str:
    """``text`` in the reader's language when the catalogue has it, else as it is."""
    return gettext(text) if text else text
