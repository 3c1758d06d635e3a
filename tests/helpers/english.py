"""English words in French text, found without the catalogue.

``english_words(text)`` is the set of words of ``text`` that are English and never French
(``STOP_WORDS``: a small list of the commonest English words, the interface's and the
games' words, each checked not to be a French word too), once the books' own English terms
and the names players wrote (``ALLOWED``) are taken out. A French page, card or sheet has
none outside the elements marked ``lang="en"``: a message nobody marked for translation, a
word built in Python, a game term left as its English are found whether or not the
catalogue knows them.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: English words that are never French words ("on", "or", "but", "an", "as", "six",
#: "centre", "large", "former", "file", "invite", "explosive", "sort", "place", "range",
#: "report", "mine", "close", "axe", "second" are French too, so they are not here). Lower
#: case; matched as whole words, whatever their case.
_STOP_WORDS = """
    the and of to in with without your yours you is are was were has have had this that
    these those which who whom whose what when where why how from for by at it its not
    all any each every new edit delete remove save show hide add undo cancel
    no yes must should will would could can cannot do does did done so up out off more
    most less than then there their they them he she his her him we our my get got made
    make been being into over under after before only also just still again here about
    between through while other some such same very first last next left right once
    twice never always both either neither own because if else unless until since
    against among per someone everyone nothing none please
    round rounds turn turns player players member members weapon weapons horse horses
    skill skills melee ranged knife rifle pistol pistols shotgun longarm repeater thrown
    parry flaming small war blank card cards badly wounded wound wounds
    encounter encounters edge town uses use used one two three four five
    center board boards play played plays playing legal illegal kind level levels
    dead death roll rolls rolled dice shot shots hand hands handed gun guns
    attack attacks damage armour armor leader leaders henchman henchmen professional
    professionals bounty hunter gambler prospector doctor strength quickness stamina
    health defense luck injury injuries move run cover hit hits miss target targets
    victory loot hire recruit recruits name names list settings help home link share
    print copy view download upload step steps finish finished start started
    begin join joined leave invited waiting account today week weeks day days
    month months year years hour hours league leagues campaign campaigns result results
    standings pairing pairings paired chart history log rule rules rulebook book
    deployment sign password speed
    """
STOP_WORDS = frozenset(_STOP_WORDS.split())

#: English a French reader meets on purpose, and why: taken out of the text before it is
#: checked (whole phrases, case aside).
ALLOWED: dict[str, str] = {
    # bwg1's French book (seed 002) keeps these English words as its own terms
    **dict.fromkeys(
        [
            "Gunslinger",
            "Wrassler",
            "Repeater Winchester",
            "Brute Strength",
            "Strong Arms",
            "Bravery",
            "Duck & Cover",
            "Run & Gun",
            "Knowhow",
            "Quickdraw",
            "Deadeye",
            "Duelist",
            "Point Blank",
            "Hearty",
            "Really Tough",
        ],
        "bwg1's French book's own term (seed 002): the Gunslinger and Wrassler professions "
        "(p. 15), its name of the Winchester (p. 12), the skills (p. 11)",
    ),
    # the site's name
    "Gangfight": "a name",
}

WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")  # a word of letters, accented ones too
#: a finding's code ("bwg1.too_many_leaders"), an address: identifiers, not words
IDENTIFIERS = re.compile(r"\b[a-z][a-z0-9]*\.[a-z_][a-z0-9_]*\b|\S+@\S+|https?://\S+|log₂")


@lru_cache(maxsize=16)
def _phrases(phrases: frozenset[str]) -> re.Pattern:
    alternatives = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True) if p)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.I)


def without_allowed(text: str, also_allowed=frozenset()) -> str:
    """``text`` with the allowed phrases and the identifiers taken out."""
    allowed = _phrases(frozenset(ALLOWED) | frozenset(also_allowed))
    return allowed.sub(" ", IDENTIFIERS.sub(" ", text))


def english_words(text: str, *, also_allowed=frozenset()) -> set[str]:
    """The English words of ``text`` (as written), the allowed phrases taken out."""
    text = without_allowed(text, also_allowed)
    found = set()
    for word in WORD.findall(text):
        bare = word.split("'")[0] if "'" in word else word
        if bare.lower() in STOP_WORDS:
            found.add(word)
    return found


def squeezed(text: str) -> str:
    """White space squeezed to one space, but a non-breaking space kept (French typography
    is read in it)."""
    return re.sub(r"[ \t\n\r\f\v]+", " ", text).strip()


def english_in(texts, *, also_allowed=()) -> dict[str, set[str]]:
    """{text: its English words} for each text that has some."""
    found = {}
    for text in texts:
        text = squeezed(text)
        words = english_words(text, also_allowed=frozenset(also_allowed))
        if words:
            found[text] = words
    return found
