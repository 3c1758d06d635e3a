"""Where everything goes on paper: the paper sizes, a card's geometry, its faces, and the
text of a member cut into cards where WeasyPrint's own layout says it ends.

No WeasyPrint call here: ``measure`` reads a document laid out by ``render.document``,
and ``split_face`` cuts a member's text by what it measured (``cards.py`` runs the loop).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rules.printing import Card, Entry, Weapon


@dataclass(frozen=True)
class Paper:
    id: str
    label: str
    css: str  # the @page size
    width: float  # mm
    height: float

    @property
    def sheet_height(self) -> float:
        """A page's content height, a hair short of the paper so no blank page follows."""
        return self.height - 0.2


PAPERS = {
    "a4": Paper("a4", "A4", "A4", 210.0, 297.0),
    "letter": Paper("letter", gettext_noop("US Letter"), "letter", 215.9, 279.4),
}

CARD_W, CARD_H = 63.0, 88.0  # poker size, mm
COLS, ROWS = 3, 3
PER_PAGE = COLS * ROWS
BACK_PT = 8.0  # a card's usual text size
MIN_PT = 7.0  # the smallest we print: text that does not fit then goes on to a second card
MARK_GAP, MARK_LEN = 1.5, 4.5  # cut marks start this far outside the grid (mm)
PX_PER_MM = 96 / 25.4  # WeasyPrint's layout unit
CARD_PAD = 2.4  # mm: a card's padding, top and bottom (where the first front's text starts)
BACK_TOP = 7.2  # mm: where the text of a back or a further front starts, under its heading
LINE = 1.07  # the cards' line height
SHORT_CARD = 300  # characters of text that surely fit a front: not measured unless it overflows
FRONT_HOLDS = 1000  # characters of text: more never fit a front whole
LONG_CARD = 1200  # characters: a card with this much text is also measured at 7 pt at once
OVERLEAF = 3.4  # mm kept free at the foot of a back followed by another card


# --------------------------------------------------------------------------- card faces


@dataclass
class Group:
    """A block of a card's text: the weapons table, a section, or the play notes."""

    kind: str  # "weapons" | "section" | "notes"
    title: str
    items: list[Any]  # Weapon | Entry | str
    continued: bool = False  # it began on an earlier face: its heading says "(continued)"
    cut: bool = False  # it starts with the rest of a cut entry ("Term (continued)"): no title

    @property
    def columns(self) -> dict[str, bool]:
        """Which of the weapon table's columns any weapon here fills (the rest are left
        out: a Gunfight weapon has no Str or level)."""
        return {
            name: any(getattr(w, name, "") for w in self.items)
            for name in ("range", "strength", "level")
        }

    @property
    def range_width(self) -> float:
        """The range column's width in mm, from its longest value (the table's layout is
        fixed: an automatic one costs WeasyPrint a third of a card sheet's layout time)."""
        longest = max((len(getattr(w, "range", "") or "") for w in self.items), default=0)
        return round(max(7.0, 1.25 * longest + 1.5), 1)


@dataclass
class Face:
    """One physical card of a member: its front and its back.

    The first card's front has the member's identity block (name, kind, mark, stat line,
    facts, tracks) and then ``front``, the text that fits under it; its back goes on with
    ``groups``. A member whose text needs more has further cards, whose fronts and backs
    both carry text under a small heading ("Name 2/2"), never only "see the back".
    """

    card: Card
    groups: list[Group]  # the back's text
    front: list[Group] = field(default_factory=list)  # the front's text, under its heading
    part: int = 1
    parts: int = 1
    size: float = BACK_PT  # the text's size, front and back
    front_size: float = BACK_PT  # the identity block's (7 pt only when it alone overflows)
    id: str = ""

    @property
    def continues(self) -> bool:
        return self.part < self.parts

    @property
    def identity_size(self) -> float:
        """The identity block's text size: never larger than the card's text."""
        return min(self.front_size, self.size)


def back_groups(card: Card) -> list[Group]:
    """A card's text in the order it prints: the weapons with their figures, then each
    section, then the play notes. It fills the first front under the identity block, then
    the back, then further cards."""
    groups = []
    if card.weapons:
        groups.append(Group("weapons", _("Equipment"), list(card.weapons)))
    for section in card.sections:
        entries = [replace(e, text=_one_line(e.text)) for e in section.entries]
        if entries:
            groups.append(Group("section", section.title, entries))
    if card.play_notes:
        groups.append(Group("notes", _("In play"), list(card.play_notes)))
    return groups


def _words(text: str) -> list[str]:
    """``text``'s words, cut at white space but not at a non-breaking space (French puts
    one before : ; ! ?: a word and its mark stay together)."""
    return [w for w in re.split(r"[ \t\n\r\f\v]+", text) if w]


def _one_line(text: str) -> str:
    return re.sub(r"[ \t\n\r\f\v]+", " ", text).strip()  # a non-breaking space stays


def text_length(groups: list[Group]) -> int:
    """About how much text ``groups`` hold, in characters (a weapon's row counts 40)."""
    length = 0
    for group in groups:
        for item in group.items:
            if isinstance(item, Entry):
                length += len(item.term) + len(item.text) + 1
            elif isinstance(item, Weapon):
                length += 40 + len(item.note) + sum(len(t) + 2 for t in item.traits)
            else:
                length += len(str(item))
        length += 25  # the group's title
    return length


@dataclass
class Fit:
    """What the layout measured of one face's body: room, height and each item's box."""

    capacity: float
    height: float
    items: dict[tuple[int, int], tuple[float, float, list[tuple[float, int]]]] = field(
        default_factory=dict
    )  # (group, item) -> (top, bottom, [(line bottom, letters so far)]); item -1: heading


def _boxes(box) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", None) or ():
        yield from _boxes(child)


def _letters(box) -> int:
    """The letters (not spaces) of a line's own text: a word broken after its hyphen
    counts on both lines, so lines are told apart by letters, not words; a section's
    run-in title is not part of its entry's text."""
    element = getattr(box, "element", None)
    if element is not None and "group-title" in (element.get("class") or "").split():
        return 0
    if hasattr(box, "text"):
        return len("".join(box.text.split()))
    return sum(_letters(child) for child in getattr(box, "children", None) or ())


def measure(document) -> dict[str, Fit]:
    """Every face body that overflows its card, by ``data-fit`` id, with its items' boxes."""
    found: dict[str, Fit] = {}
    for page in document.pages:
        for box in _boxes(page._page_box):
            element = getattr(box, "element", None)
            fit_id = element.get("data-fit") if element is not None else None
            if not fit_id or not box.children:
                continue
            flow = box.children[0]
            if flow.margin_height() <= box.height + 0.5:
                continue
            fit = Fit(capacity=box.height, height=flow.margin_height())
            top = flow.position_y
            for item in _boxes(flow):
                item_el = getattr(item, "element", None)
                ref = item_el.get("data-item") if item_el is not None else None
                if not ref or (ref_key := tuple(int(n) for n in ref.split("."))) in fit.items:
                    continue
                lines, letters = [], 0
                for line in _boxes(item):
                    if type(line).__name__ == "LineBox":
                        letters += _letters(line)
                        lines.append((line.position_y + line.height - top, letters))
                fit.items[ref_key] = (
                    item.position_y - top,
                    item.position_y + item.margin_height() - top,
                    lines,
                )
            found[fit_id] = fit
    return found


def line_height(size: float) -> float:
    """One line of a card's text at ``size`` pt, in layout units."""
    return size * LINE * 96 / 72


def split_face(face: Face, fit: Fit, *, slack: float = 0.0) -> list[Face]:
    """Cut a member's text into cards, in one go, from one layout of it.

    ``face`` has all of the member's text on its front under the identity block, and
    ``fit`` is that front's measured layout. The text fills, in order, the first front
    (what is left under the identity block), its back, then the front and back of each
    further card (the room under a small heading). Items go on while their measured bottom
    is within the room; an entry that runs past it is cut between two lines (its rest
    goes on as "Term (continued)"); anything else moves whole. A face that starts in the
    middle of a group keeps room for its "(continued)" heading (a table's heading row, or
    a line for a section's run-in title or a cut entry's "Term (continued)"), and a back
    followed by another card keeps room for "Continued on card n". ``slack`` is room kept
    free on every face, when a first cut was a line out.

    A reader turns the card between sentences: an entry is cut at the end of the last
    sentence on the lines that fit, and one with no sentence end there goes on whole to
    the back (if it fits there). When that costs a card, the text is cut as close to the
    room's end as a sentence allows, and failing that between two lines: no card is wasted
    for the sake of a sentence.
    """
    ways = [
        _split(face, fit, slack, sentences=True, whole=True),
        _split(face, fit, slack, sentences=True, whole=False),
        _split(face, fit, slack, sentences=False, whole=False),
    ]
    fewest = min(len(way) for way in ways)
    return next(way for way in ways if len(way) == fewest)


def _split(face: Face, fit: Fit, slack: float, *, sentences: bool, whole: bool) -> list[Face]:
    front_room = fit.capacity - slack
    later_room = fit.capacity - (BACK_TOP - CARD_PAD) * PX_PER_MM - slack
    heads = {gi: bottom - top for (gi, ii), (top, bottom, _l) in fit.items.items() if ii == -1}
    cutter = _Cutter(front_room, later_room, fit.height, heads, line_height(face.size))
    cutter.sentences, cutter.whole = sentences, whole
    for gi, group in enumerate(face.front + face.groups):
        head_top = fit.items.get((gi, -1), (None,))[0]
        for ii, item in enumerate(group.items):
            top, bottom, lines = fit.items.get((gi, ii), (None, None, []))
            if ii == 0 and head_top is not None and top is not None:
                top = head_top  # a group's heading goes with its first item
            if top is None or cutter.fits(bottom):
                cutter.add(gi, group, item, continued=ii > 0)
            elif isinstance(item, Entry) and lines:
                cutter.add_entry(gi, group, ii, item, top, lines)
            else:
                cutter.next_face(top, gi if ii > 0 else None)
                cutter.add(gi, group, item, continued=ii > 0)
    chunks = cutter.faces
    while len(chunks) > 1 and not chunks[-1]:
        chunks.pop()
    if len(chunks) % 2:
        chunks.append([])
    return [
        replace(face, front=chunks[n], groups=chunks[n + 1], id="")
        for n in range(0, len(chunks), 2)
    ]


class _Cutter:
    """The faces a member's text is being cut into, in print order (front, back, front,
    back…): each a list of groups, with where it starts in the measured layout."""

    def __init__(self, first_room, later_room, end, heads, line):
        self.faces: list[list[Group]] = [[]]
        self.last: int | None = None  # the group the current face ends with
        self.offset, self.keep = 0.0, 0.0
        self.first_room, self.later_room, self.end = first_room, later_room, end
        self.heads, self.line = heads, line
        self.sentences, self.whole = True, True  # cut at sentence ends; move entries whole

    def room(self) -> float:
        n = len(self.faces) - 1
        room = (self.first_room if n == 0 else self.later_room) - self.keep
        if n % 2 and self.end - self.offset > room:  # a back with more to come
            room -= OVERLEAF * PX_PER_MM
        return room

    def fits(self, bottom: float) -> bool:
        return bottom - self.offset <= self.room()

    def next_face(self, at: float, continuing: int | None) -> None:
        """Go on to the next face at ``at``; ``continuing``: the group it starts in the
        middle of. Its heading then says "(continued)": a table's heading row takes its
        measured height; a section's title, or "Term (continued)" at the start of a cut
        entry, runs in and may push the text a line down."""
        if not self.faces[-1] and len(self.faces) > 1:
            return  # an item taller than a whole face stays where it is
        self.faces.append([])
        self.last = None
        self.offset = at
        self.keep = 0.0 if continuing is None else self.heads.get(continuing, self.line)

    def add(self, gi: int, group: Group, item: Any, *, continued: bool, cut: bool = False) -> None:
        """Put ``item`` on the current face; ``continued``: its group began on an earlier
        one (so the group's heading says so); ``cut``: it is the rest of a cut entry."""
        groups = self.faces[-1]
        if groups and self.last == gi:
            groups[-1].items.append(item)
        else:
            continued = group.continued or continued
            groups.append(replace(group, items=[item], continued=continued, cut=cut))
            self.last = gi

    def add_entry(self, gi, group, ii, entry: Entry, top: float, lines) -> None:
        """Place an entry line by line: (line bottom, letters so far) from the layout. A cut
        leaves at least two lines to go on; an entry of one or two lines moves whole
        (unless it is alone on a face and still too long)."""
        words = _words(entry.term) + _words(entry.text)  # a non-breaking space holds
        term_words = len(_words(entry.term))
        # letters to each word's end (the layout's count: no white space, NBSP included)
        ends = list(itertools.accumulate(len("".join(w.split())) for w in words))
        done, placed, at = 0, 0, top  # lines and words placed, where the rest starts

        def piece(upto: int) -> Entry:
            term = (
                entry.term
                if placed < term_words
                else _("%(term)s (continued)") % {"term": entry.term}
            )
            return Entry(term, " ".join(words[max(placed, term_words) : upto]))

        while done < len(lines):
            left = len(lines) - done
            fitting = 0
            while fitting < left and self.fits(lines[done + fitting][0]):
                fitting += 1
            if fitting == left:
                break
            take = min(fitting, left - 2) if left >= 3 else 0
            if not take and not self.faces[-1] and len(self.faces) > 1:
                take = max(fitting, 1)  # alone on a face: cut it all the same
            if take:  # the words that end on those lines (not one broken at a hyphen)
                upto = bisect.bisect_right(ends, lines[done + take - 1][1])
                # ... back to the end of a sentence on them, if one ends there: a reader
                # then turns the card between two sentences, never in the middle of one
                sentence = self.sentences and _sentence_end(words, max(placed, term_words), upto)
                # none ends there: the rest goes on whole to this card's back if it fits
                # there (from a back it would cost a card: it is cut between lines then)
                on_a_front = len(self.faces) % 2 == 1
                movable = on_a_front and (bool(self.faces[-1]) or len(self.faces) == 1)
                movable = movable and self.whole
                if not sentence and movable and lines[-1][0] - at <= self.later_room - self.line:
                    self.next_face(at, gi if ii > 0 or placed else None)
                    continue
                done += take
                if sentence:
                    upto, letters = sentence, ends[sentence - 1]
                    line = bisect.bisect_left([n for _b, n in lines], letters)
                    # the rest starts on the line the sentence ends on, unless it ends it
                    done = line + 1 if lines[line][1] == letters else line
                self.add(gi, group, piece(upto), continued=ii > 0 or placed > 0, cut=placed > 0)
                placed = upto
                at = lines[done - 1][0] if done else top
                self.next_face(at, gi)
            else:
                self.next_face(at, gi if ii > 0 or placed else None)
        if placed < len(words):
            self.add(gi, group, piece(len(words)), continued=ii > 0 or placed > 0, cut=placed > 0)


SENTENCE_ENDS = (".", "!", "?", ";", ":", ".)", ".»", "!»", "?»")


def _sentence_end(words: list[str], start: int, upto: int) -> int | None:
    """How many of ``words`` to take to end on the last sentence that ends after ``start``
    and by ``upto`` (None when no sentence ends there)."""
    for k in range(upto, start, -1):
        if words[k - 1].endswith(SENTENCE_ENDS):
            return k
    return None


@dataclass
class Slot:
    face: Face
    side: str  # "front" | "back"
    x: float
    y: float
    index: int
    place: str = ""  # the CSS class that puts it there: "c0r0" … "c2r2"


def grid(paper: Paper) -> tuple[float, float]:
    """The top-left corner of the 3 by 3 grid, centred so that backs mirror exactly."""
    return (paper.width - COLS * CARD_W) / 2, (paper.height - ROWS * CARD_H) / 2


def pages(faces: list[Face], paper: Paper, *, fronts_only: bool) -> list[dict[str, Any]]:
    """Front pages of nine cards, each followed by its back page, mirrored left to right.

    On a portrait sheet turned over its long edge, the card in column c lands behind
    column 2 - c of the same row: that is where its back is printed.
    """
    x0, y0 = grid(paper)
    result = []
    for start in range(0, len(faces), PER_PAGE):
        chunk = faces[start : start + PER_PAGE]
        sides = ("front",) if fronts_only else ("front", "back")
        for side in sides:
            slots = []
            for i, face in enumerate(chunk):
                col, row = i % COLS, i // COLS
                if side == "back":
                    col = COLS - 1 - col
                x, y = x0 + col * CARD_W, y0 + row * CARD_H
                slots.append(Slot(face, side, x, y, start + i, f"c{col}r{row}"))
            result.append({"side": side, "slots": slots, "sheet": start // PER_PAGE + 1})
    total = -(-len(faces) // PER_PAGE)
    for page in result:
        page["sheets"] = total
    return result


def cut_marks(paper: Paper) -> list[dict[str, float]]:
    """Short lines in the margins at every cut, never on a card."""
    x0, y0 = grid(paper)
    x1, y1 = x0 + COLS * CARD_W, y0 + ROWS * CARD_H
    marks = []
    for c in range(COLS + 1):
        x = x0 + c * CARD_W
        marks.append({"x": x, "y": max(0.0, y0 - MARK_GAP - MARK_LEN), "w": 0, "h": MARK_LEN})
        marks.append({"x": x, "y": y1 + MARK_GAP, "w": 0, "h": MARK_LEN})
    for r in range(ROWS + 1):
        y = y0 + r * CARD_H
        marks.append({"x": max(0.0, x0 - MARK_GAP - MARK_LEN), "y": y, "w": MARK_LEN, "h": 0})
        marks.append({"x": x1 + MARK_GAP, "y": y, "w": MARK_LEN, "h": 0})
    return marks


def footer_cells(paper: Paper) -> list[dict[str, float]]:
    """Three places for footer text below the grid, one per column, clear of the marks."""
    x0, y0 = grid(paper)
    top = y0 + ROWS * CARD_H + MARK_GAP
    return [
        {"x": x0 + c * CARD_W + 2, "y": top, "w": CARD_W - 4, "h": paper.height - top - 1.5}
        for c in range(COLS)
    ]


def qr_place(paper: Paper) -> dict[str, float]:
    """The QR code's square: below the grid if the margin is deep (A4), else beside it."""
    x0, y0 = grid(paper)
    bottom = paper.height - (y0 + ROWS * CARD_H)
    if bottom >= 14:
        size = bottom - MARK_GAP - MARK_LEN - 1.5
        return {"x": x0 + COLS * CARD_W - size - 1, "y": paper.height - size - 1, "size": size}
    size = min(x0 - 2.5, 12.0)
    return {"x": paper.width - size - 1, "y": y0 + ROWS * CARD_H - size - 3, "size": size}
