"""The campaign engine's words (rules/campaign, plain Python, English), translated where the
app shows them: ``words.shown(text)`` in Python, ``{{ text|translated }}`` in templates
(builder/templatetags/gangfight_i18n.py). The engine marks its words with gettext_noop at the
source; listed here are only those it builds rather than writes out, so that makemessages
puts them in the catalogue. A word missing from the catalogue simply shows in English."""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

from rules.i18n import punctuate

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


#: The purposes the engines write into the dice log (English, stored with each roll), as
#: (the pattern of the stored line, its message): shown in the reader's language.
PURPOSES = (
    (r"Death roll for (?P<name>.+)", gettext_noop("Death roll for {name}")),
    (
        r"Badly wounded: which of (?P<name>.+)'s rows",
        gettext_noop("Badly wounded: which of {name}'s rows"),
    ),
    (r"Rivals: encounter location", gettext_noop("Rivals: encounter location")),
    (
        r"(?P<name>.+): new ability \((?P<table>.+)\)",
        gettext_noop("{name}: new ability ({table})"),
    ),
    (
        r"Special skill: (?P<table>.+) \((?P<cost>\d+) CCP\)",
        gettext_noop("Special skill: {table} ({cost} CCP)"),
    ),
    (r"(?P<name>.+): first player", gettext_noop("{name}: first player")),
    (r"(?P<name>.+): second player", gettext_noop("{name}: second player")),
    (
        r"(?:(?P<name>.+?): )?ability (?P<n>\d+) \((?P<table>.+) table\)",
        gettext_noop("ability {n} ({table} table)"),
    ),
    (
        r"(?:(?P<name>.+?): )?re-roll: repeat of (?P<ability>.+)",
        gettext_noop("re-roll: repeat of {ability}"),
    ),
)
_PURPOSES = tuple((re.compile(f"^{pattern}$"), message) for pattern, message in PURPOSES)


def purpose(text: str) -> str:
    """A dice log's purpose in the reader's language, when it is one the engines write;
    else as it is (a name, a book's abbreviation: "BD", "Str")."""
    for pattern, message in _PURPOSES:
        found = pattern.match(text or "")
        if found:
            parts = {k: v for k, v in found.groupdict().items() if v is not None}
            shown_text = gettext(message).format(**{**dict.fromkeys(("name",), ""), **parts})
            name = parts.get("name")
            if name and "{name}" not in message:
                return f"{name}{punctuate(':')}{shown_text}"
            return shown_text
    return text
