"""What a system prints: character cards, the gang sheet's extra figures, a quick reference.

Plain data, no Django and no HTML: each game system turns its evaluated roster into these
objects (``print_cards``, ``print_sheet``, ``quick_reference`` on the system), and the app's
print module lays them out (``builder/printing/``: templates, then ``rules.pdf``). A
sixth system that fills these in gets cards, a generic gang sheet and a quick-reference
sheet without any other change.

A card is 63 by 88 mm. Its **front** starts with the name, a line under it (``kind``), a
mark (one of :data:`MARKS`, our own SVG icons), the system's stat line, the facts and the
tracks to tick during play. Then comes the card's text, in order: the weapons with their
figures, each section (vital info, the faction rule, skills with their full text, what
each weapon trait means), then the notes that change play. The text fills the front, then
the back; text that does not fit is set smaller (down to 7 pt) and then goes on to a
second card: systems never shorten their text to make it fit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.base import Finding
from rules.i18n import _

# The marks a card may carry, top right of its front: static/pdf/marks/<name>.svg.
MARKS: dict[str, str] = {
    "star": "a five-pointed star (a Leader)",
    "badge": "a six-pointed lawman's badge",
    "skull": "a skull (outlaws, the cursed)",
    "hat": "a cowboy hat (henchmen, regulars)",
    "claw": "a claw mark (beasts)",
    "crosshair": "a gun sight (shooters, troopers)",
    "horseshoe": "a horseshoe (riders, animals)",
    "cannon": "a cannon wheel (artillery)",
    "diamond": "a diamond (specialists)",
    "circle": "a plain disc (minions, rabble, anything else)",
}


ONE_ROW = 9  # the most cells a card's stat line has in one row (63 mm wide: 6.4 mm each)


@dataclass(frozen=True)
class Stat:
    """One cell of the stat line: ``Stat("HP", "4")``."""

    label: str
    value: str


@dataclass(frozen=True)
class Track:
    """A row of boxes to tick in play: one per HP, per EN point, per action, per wound."""

    label: str
    boxes: int
    note: str = ""

    @property
    def box_range(self) -> range:
        return range(max(0, min(self.boxes, 60)))


@dataclass(frozen=True)
class Weapon:
    """A line of the card's equipment table. Empty strings print as a dash."""

    name: str
    range: str = ""
    strength: str = ""
    level: str = ""
    traits: tuple[str, ...] = ()
    note: str = ""  # what changes in play, e.g. "above level: +1 to hit (5+)"


@dataclass(frozen=True)
class Entry:
    """A term and its full rules text: a skill, a perk, a trait, a rule."""

    term: str
    text: str = ""


@dataclass(frozen=True)
class Section:
    """A titled block of entries, on a card or on the quick-reference sheet."""

    title: str
    entries: tuple[Entry, ...]
    #: the language its texts are in when that is the book's, not the reader's ("en": the
    #: English book's rules, digested), so a page marks them ``lang``; "" when they follow
    #: the reader's language
    lang: str = ""

    @classmethod
    def of(cls, title: str, entries: Iterable[Entry | tuple[str, str]]) -> Section:
        return cls(title, tuple(e if isinstance(e, Entry) else Entry(*e) for e in entries))


@dataclass
class Card:
    """One member's character card.

    ``key`` is the member's key in the report (so a single card can be asked for);
    ``facts`` are small figures printed on the front under the stats (cost, Fame, VP, CCP);
    ``play_notes`` are the findings that change play, in words for the table.
    """

    key: str
    name: str
    kind: str
    mark: str
    stats: list[Stat]
    tracks: list[Track] = field(default_factory=list)
    facts: list[Stat] = field(default_factory=list)
    weapons: list[Weapon] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    play_notes: list[str] = field(default_factory=list)
    count: int = 1  # figures this card stands for (a team of minions, a rabble group)
    stat_break: int = 0  # where the stat line's second group starts (its own row if two)

    def __post_init__(self) -> None:
        if self.mark not in MARKS:
            raise ValueError(f"unknown card mark {self.mark!r}: use one of {sorted(MARKS)}")

    @property
    def stat_rows(self) -> list[list[Stat]]:
        """The stat line in one row, or in two when it has more than nine cells (split
        where the system says, as the book groups them, else evenly)."""
        if len(self.stats) <= ONE_ROW:
            return [self.stats] if self.stats else []
        cut = self.stat_break if 0 < self.stat_break < len(self.stats) else -(-len(self.stats) // 2)
        return [self.stats[:cut], self.stats[cut:]]

    @property
    def stat_group_start(self) -> int:
        """In a one-row stat line, the cell that starts the system's second group (the
        card draws a heavier line before it); 0: none."""
        if len(self.stats) <= ONE_ROW and 0 < self.stat_break < len(self.stats):
            return self.stat_break
        return 0

    def text(self) -> str:
        """Every word printed on the card, front then back (for tests and search)."""
        words = [self.name, self.kind]
        words += [f"{s.label} {s.value}" for s in (*self.stats, *self.facts)]
        words += [t.label for t in self.tracks]
        for w in self.weapons:
            words += [w.name, w.range, w.strength, w.level, *w.traits, w.note]
        for section in self.sections:
            words.append(section.title)
            for entry in section.entries:
                words += [entry.term, entry.text]
        words += self.play_notes
        return " ".join(w for w in words if w)


def play_notes(findings: Iterable[Finding]) -> list[str]:
    """Findings as notes for a card: the message, marked when it is an error."""
    return [
        _("Not legal: {message}").format(message=f.message) if f.is_error else f.message
        for f in findings
    ]


def dedupe_entries(entries: Iterable[Entry]) -> tuple[Entry, ...]:
    """Entries in first-seen order, each term once (for the quick reference)."""
    seen: set[str] = set()
    kept = []
    for entry in entries:
        if entry.term.casefold() in seen:
            continue
        seen.add(entry.term.casefold())
        kept.append(entry)
    return tuple(kept)
