"""Print a roster: character cards on A4 or Letter sheets, the gang sheet, a quick reference.

Everything starts from a roster dict (the roster file's shape), so a saved gang and a file
given to ``manage.py render_pdf`` print the same way. The rules engine says what is on each
card (``system.print_cards``); this module lays the cards out, nine to a page, with cut
marks, and backs mirrored for long-edge duplex; the templates in ``templates/pdf/`` draw
them; ``rules.pdf`` turns the HTML into a PDF, fetching nothing but our static files.

**No wasted cards, and text never gets cut off.** A card's text (its weapons with their
figures first, then each section, then the play notes) fills the front under the
identity block and stat line, then the back, then, when it must, the front and back of a
second card, whose front carries the text on (never only "see the back"). Each card is
first laid out whole, all its text on its front, and measured in WeasyPrint's own layout;
one that overflows is cut, between items or between two lines of an entry, where that
layout says, at 8 pt, or at 7 pt (the smallest we print) when that saves a card. The
cards are laid out again and measured; the loop stops when every face fits (a cut a line
out is made again with a line to spare). A card's cut is remembered by its content, and
by its text alone: a member renamed has a new card with the same text, whose previous
cut is laid out at once and checked, in that same layout, against the card laid out
whole (``_Plan.check``), so a change usually costs one layout.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime
import itertools
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string, select_template
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from rules import Report, get_system
from rules.pdf import (
    PdfError,
    PdfTimeout,
    PdfUnavailable,
    make_fetcher,
    render_document,
    run_in_parallel,
    run_with_deadline,
)
from rules.printing import Card, Entry, Section, Weapon

__all__ = [
    "KINDS",
    "PAPERS",
    "PdfError",
    "PdfTimeout",
    "PdfUnavailable",
    "cards_pdf",
    "filename",
    "print_pdf",
    "reference_pdf",
    "sheet_pdf",
]

KINDS = {
    "cards": gettext_noop("Character cards"),
    "sheet": gettext_noop("Gang sheet"),
    "reference": gettext_noop("Quick reference"),
}


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


# --------------------------------------------------------------------------- the roster


@dataclass
class Printed:
    """A roster evaluated for printing: the system, its report and its cards."""

    roster: Mapping[str, Any]
    system: Any
    report: Report
    cards: list[Card]

    @property
    def gang_name(self) -> str:
        name = self.roster.get("name")
        return name.strip() if isinstance(name, str) and name.strip() else _("Unnamed gang")

    def members(self) -> list[dict[str, Any]]:
        raws = self.roster.get("members") or []
        by_key = {c.key: c for c in self.cards}
        rows = []
        for raw, (key, r) in zip(raws, self.report.members.items(), strict=False):
            raw = raw if isinstance(raw, Mapping) else {}
            rows.append(
                {"name": r.name, "data": raw.get("data") or {}, "r": r, "card": by_key.get(key)}
            )
        return rows

    def finding_rows(self) -> list[dict[str, Any]]:
        return [
            {"finding": f, "member": self.report.members.get(f.member) if f.member else None}
            for f in self.report.findings
        ]


def prepare(roster: Mapping[str, Any]) -> Printed:
    system = get_system(roster["system"])
    report = system.evaluate(roster)
    return Printed(roster, system, report, system.print_cards(roster, report))


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


# --------------------------------------------------------------------------- rendering


def qr_data_uri(url: str) -> str:
    import segno

    return segno.make(url, error="l").svg_data_uri(border=2, dark="#000", light="#fff")


@cache
def _covered() -> frozenset[int]:
    from fontTools.ttLib import TTFont

    font = TTFont(settings.PDF_STATIC_DIR / "fonts" / "DejaVuSansCondensed.ttf", lazy=True)
    return frozenset(font.getBestCmap())


def needs_fallback_font(*texts: str) -> bool:
    """True when some letter is not in DejaVu (Chinese, Japanese, Korean…): then, and only
    then, the 4 MB fallback font is loaded."""
    covered = _covered()
    return any(ord(ch) not in covered for text in texts for ch in text if not ch.isspace())


def _all_text(printed: Printed) -> str:
    return printed.gang_name + " ".join(card.text() for card in printed.cards)


def _base_context(printed: Printed, paper: Paper, share_url: str | None) -> dict[str, Any]:
    return {
        "gang_name": printed.gang_name,
        "limit": printed.report.limit,
        "roster": printed.roster,
        "system": printed.system,
        "report": printed.report,
        "printed": timezone.localdate() if settings.USE_TZ else datetime.date.today(),
        "paper": paper,
        "qr": qr_data_uri(share_url) if share_url else "",
        "share_url": share_url or "",
        "fallback_font": needs_fallback_font(_all_text(printed)),
    }


def _render(html: str):
    static = settings.PDF_STATIC_DIR
    return render_document(html, static, fetcher=make_fetcher(static))


def _card_digest(card: Card) -> str:
    """How each card was fitted (its sizes, and where its text was cut) is kept by the
    card's content in the PDF cache: printing the same member again (another paper, one
    card, the gang after a change to someone else) needs one layout, not two. Every
    layout is measured all the same, so a stale entry only costs more layouts."""
    import hashlib

    return "fit:" + _print_code_digest() + ":" + hashlib.sha256(repr(card).encode()).hexdigest()


Fitted = list[tuple[list[Group], list[Group], float, float]]  # (front, back, size, front size)


def _fitted(digests: list[str]) -> dict[str, Fitted]:
    from django.core.cache import caches

    try:
        return caches["pdf"].get_many(digests)
    except Exception:  # an unreadable entry (a broken cache file): fit the cards anew
        return {}


def _text_digest(card: Card) -> str:
    """A card's text alone (what its cut is made of), for a *guessed* fit: a member renamed,
    or with a stat changed, has a new card but the same text, most likely cut the same
    way. A guess is laid out at once, and checked in that same layout against the card
    measured whole (``_Plan.check``): a changed card costs one layout, not two."""
    import hashlib

    text = repr(back_groups(card)).encode()
    return "guess:" + _print_code_digest() + ":" + hashlib.sha256(text).hexdigest()


def _member_digest(card: Card) -> str:
    """A member's cards by the *shape* of its text (each group's kind, title and number of
    items): a guess for a card whose words changed a little (a unit mate renamed) but
    that still has the same items, re-filled with the new words (``_refill``)."""
    import hashlib

    shape = [(g.kind, g.title, len(g.items)) for g in back_groups(card)]
    made = repr((card.key, shape)).encode()
    return "guess-member:" + _print_code_digest() + ":" + hashlib.sha256(made).hexdigest()


def _refill(fitted: Fitted, groups: list[Group]) -> Fitted | None:
    """A remembered cut with each item replaced by the new card's item at the same place;
    None when it cannot be (an entry was cut between two faces, or the shape differs)."""
    at = [0, 0]  # group, item

    def take(group: Group) -> Group | None:
        if at[0] >= len(groups) or groups[at[0]].title != group.title or group.cut:
            return None
        items = groups[at[0]].items[at[1] : at[1] + len(group.items)]
        if len(items) != len(group.items):
            return None
        at[1] += len(items)
        if at[1] == len(groups[at[0]].items):
            at[0], at[1] = at[0] + 1, 0
        return replace(group, items=list(items))

    result = []
    for front, back, size, front_size in fitted:
        new_front = [take(g) for g in front]
        new_back = [take(g) for g in back]
        if any(g is None for g in new_front + new_back):
            return None
        result.append((new_front, new_back, size, front_size))
    return result if at == [len(groups), 0] else None


def _remember(faces: list[Face], slack: Mapping[str, float] | None = None) -> None:
    by_card: dict[str, Fitted] = {}
    guesses: dict[str, tuple[float, Fitted]] = {}
    for face in faces:
        digest = _card_digest(face.card)
        if digest not in by_card and face.card.key in (slack or {}):
            guesses[_text_digest(face.card)] = ((slack or {})[face.card.key], [])
        by_card.setdefault(digest, []).append((face.front, face.groups, face.size, face.front_size))
    for face in faces:
        guess = guesses.get(_text_digest(face.card))
        if guess is not None and len(guess[1]) < len(by_card[_card_digest(face.card)]):
            guess[1].append((face.front, face.groups, face.size, face.front_size))
    members = {
        _member_digest(face.card): guesses[_text_digest(face.card)]
        for face in faces
        if _text_digest(face.card) in guesses
    }
    from builder.pdf_store import remember_fits

    remember_fits({**by_card, **guesses, **members})  # bounded, with an expiry (pdf_store.py)


def _number(faces: list[Face]) -> list[Face]:
    """Give every face its id and, per member, its part number (1 of 2…)."""
    counts: dict[str, int] = {}
    for face in faces:
        counts[face.card.key] = counts.get(face.card.key, 0) + 1
    seen: dict[str, int] = {}
    for i, face in enumerate(faces):
        seen[face.card.key] = seen.get(face.card.key, 0) + 1
        face.part, face.parts, face.id = seen[face.card.key], counts[face.card.key], str(i)
    return faces


@dataclass
class _Plan:
    """How one member's cards are being fitted.

    Until it is cut (``faces`` is None) the member is one card with all its text on the
    front, at ``size``: laid out like that, the front either fits (done) or tells, by its
    measured layout, where each face's text ends. The measured layout comes from a copy
    laid out whole in the measuring section, at the top of a tall page (a card in the
    bottom row is cut short at the foot of its page). ``fits`` keeps that layout by size
    (None: everything fitted on the front at that size).
    """

    card: Card
    groups: list[Group]
    size: float = BACK_PT
    front_size: float = BACK_PT
    faces: list[Face] | None = None
    fits: dict[float, Fit | None] = field(default_factory=dict)
    slack: float = 0.0
    cached: bool = False
    guessed: bool = False  # ``faces`` is a guess, from a card with the same text
    copy: bool = False  # lay it out whole in the measuring section, however short

    def whole(self, size: float) -> Face:
        return Face(self.card, [], front=self.groups, size=size, front_size=self.front_size)

    def current(self) -> list[Face]:
        return self.faces if self.faces is not None else [self.whole(self.size)]

    def copies(self, *, every: bool = False) -> list[float]:
        """The sizes it is laid out at, whole, in the measuring section: its size unless
        its text is short (it surely fits the front) and ``every`` is false, and 7 pt too
        when it is long (so that one layout tells how it fits at either size)."""
        length = _text_length(self.groups)
        if self.guessed:  # measured whole at both sizes, to check the guess against
            if not every and _shape(self.faces or []) == _shape([self.whole(BACK_PT)]):
                return []  # all on the front at 8 pt: its own layout is the check
            return [BACK_PT] + ([MIN_PT] if length > LONG_CARD else [])
        if self.faces is not None:
            return []
        sizes = [self.size] if every or self.copy or length > SHORT_CARD else []
        if self.size > MIN_PT and length > LONG_CARD:
            sizes.append(MIN_PT)
        return sizes

    def refit(self, faces: list[Face], overflow: dict[str, Fit], measured: set[str]) -> None:
        """Change the plan after a layout in which one of ``faces`` overflowed;
        ``measured``: the ids of the copies in the measuring section."""
        if self.faces is not None:
            if self.cached or not self.fits:  # a remembered fit that no longer fits: again
                self.faces, self.cached, self.size = None, False, BACK_PT
            else:  # the cut was a line out somewhere: cut again, keeping a line more
                self.slack += line_height(self.size)
                self._choose()
            return
        (face,) = faces
        copy = _copy_id(face.size, face.id)
        if copy not in measured:
            self.copy = True  # the next layout measures it whole
            return
        fit = overflow.get(copy) or overflow.get(f"f{face.id}")
        if fit is None:
            return
        identity = min((top for top, _b, _l in fit.items.values()), default=fit.height)
        if identity > fit.capacity + 0.5 and self.front_size > MIN_PT:
            self.front_size = MIN_PT  # the name and stat line alone overflow: set them smaller
            self.copy = True
            return
        self.fits[face.size] = fit
        if _copy_id(MIN_PT, face.id) in measured:
            self.fits[MIN_PT] = overflow.get(_copy_id(MIN_PT, face.id))
        self._choose()

    def check(self, own: list[Face], overflow: dict[str, Fit], measured: set[str]) -> bool:
        """After a layout of a guessed cut (``own``) and of the card whole beside it: keep
        the guess when it fits and is the cut the whole card's layout gives (so never more
        cards than fitting it anew would print); else take that cut (laid out next), or,
        when the layout could not tell it, fit the card anew. Returns whether it was kept."""
        self.guessed = False
        overflowed = any(f"{side}{face.id}" in overflow for face in own for side in "fb")
        whole = _copy_id(BACK_PT, own[0].id)
        if whole not in measured:  # the guess was all on the front at 8 pt
            if not overflowed:
                return True
            self.faces, self.size, self.copy = None, BACK_PT, True
            return False
        self.fits = {BACK_PT: overflow.get(whole)}
        if _copy_id(MIN_PT, own[0].id) in measured:
            self.fits[MIN_PT] = overflow.get(_copy_id(MIN_PT, own[0].id))
        fit = self.fits[BACK_PT]
        identity = min((top for top, _b, _l in fit.items.values()), default=0) if fit else 0
        if fit is not None and identity > fit.capacity + 0.5:
            self.faces, self.size, self.copy, self.fits = None, BACK_PT, True, {}
            return False  # the identity block alone overflows: fit it anew
        guess = _shape(own)
        self._choose()
        if self.faces is None:  # 7 pt to be measured too
            return False
        if _shape(self.faces) == guess and not overflowed:
            self.faces = own
            return True
        return False

    def _choose(self) -> None:
        """The fewest cards, at 8 pt if 7 pt needs as many; measure at 7 pt first if 8 pt
        needs more than one card and 7 pt was never tried."""
        options = []
        for size, fit in self.fits.items():
            whole = self.whole(size)
            cut = [whole] if fit is None else split_face(whole, fit, slack=self.slack)
            options.append((len(cut), -size, cut))
        count, minus_size, cut = min(options, key=lambda o: (o[0], o[1]))
        if count > 1 and MIN_PT not in self.fits:
            self.faces, self.size, self.copy = None, MIN_PT, True
            return
        self.faces, self.size = cut, -minus_size


def _shape(faces: list[Face]) -> Fitted:
    """How a member's text is cut into faces, whatever their ids and part numbers."""
    return [(f.front, f.groups, f.size, f.front_size) for f in faces]


def _copy_id(size: float, face_id: str) -> str:
    return f"m{size:g}:{face_id}"


def _plans(printed: Printed, member_key: str | None) -> list[_Plan]:
    """A plan per card: remembered faces, or the card whole to be measured."""
    cards = printed.cards
    if member_key is not None:
        cards = [c for c in cards if c.key == member_key]
        if not cards:
            raise KeyError(f"no member {member_key!r} in this gang")
    known = _fitted(
        [_card_digest(card) for card in cards]
        + [_text_digest(c) for c in cards]
        + [_member_digest(c) for c in cards]
    )
    plans = []
    for card in cards:
        plan = _Plan(card, back_groups(card))
        fitted = known.get(_card_digest(card))
        guess = known.get(_text_digest(card)) if not fitted else None
        if not fitted and not (guess and guess[1]):
            remembered = known.get(_member_digest(card))
            if remembered and (refilled := _refill(remembered[1], plan.groups)):
                guess = (remembered[0], refilled)
        if guess and guess[1]:
            plan.slack, fitted = guess
            plan.guessed = True
        if fitted:
            plan.faces = [
                Face(card, back, front=front, size=size, front_size=front_size)
                for front, back, size, front_size in fitted
            ]
            plan.size = plan.faces[0].size
            plan.cached = not plan.guessed
        plans.append(plan)
    return plans


def layout_cards(
    printed: Printed,
    paper: Paper,
    *,
    fronts_only: bool = False,
    member_key: str | None = None,
    share_url: str | None = None,
):
    """Lay the cards out until every face fits; return the WeasyPrint document."""
    return _fit_cards(
        printed,
        paper,
        fronts_only=fronts_only,
        member_key=member_key,
        share_url=share_url,
        render=_render_whole,
    )


def _render_whole(context: dict[str, Any], *, final: bool):
    """One document for the whole context: its overflow, and how to finish it (the
    document without the measuring page)."""
    document = _render(render_to_string("pdf/cards.html", context))
    printed_pages = document.pages[: len(context["pages"])]
    return measure(document), lambda: document.copy(printed_pages)


def _fit_cards(
    printed: Printed,
    paper: Paper,
    *,
    fronts_only: bool,
    member_key: str | None,
    share_url: str | None,
    render,
):
    """The fitting loop: lay out, measure, cut what overflows, again until every face fits.
    ``render(context, final=…)`` lays a context out and returns what overflowed and a
    function that gives the result (a document, or the PDF's bytes)."""
    plans = _plans(printed, member_key)
    context = _base_context(printed, paper, share_url)
    x0, y0 = grid(paper)
    context.update(
        places=[
            {"name": f"c{c}r{r}", "x": x0 + c * CARD_W, "y": y0 + r * CARD_H}
            for r in range(ROWS)
            for c in range(COLS)
        ],
        marks=cut_marks(paper),
        footer=footer_cells(paper),
        qr_box=qr_place(paper),
        card_w=CARD_W,
        card_h=CARD_H,
        back_top=BACK_TOP,
        line=LINE,
        fronts_only=fronts_only,
    )
    # When some card surely overflows its front, the first layout only measures the cards
    # laid out whole (the sheets would be laid out again anyway); else it is also the one
    # printed when everything fits.
    measure_only = any(p.faces is None and _text_length(p.groups) > FRONT_HOLDS for p in plans)
    for _attempt in range(8):
        placed = [(plan, plan.current()) for plan in plans]
        faces = _number([face for _plan, own in placed for face in own])
        measuring = [
            replace(plan.whole(size), id=_copy_id(size, own[0].id))
            for plan, own in placed
            for size in plan.copies(every=measure_only)
        ]
        context["pages"] = [] if measure_only else pages(faces, paper, fronts_only=fronts_only)
        context["measuring"] = measuring
        overflow, finish = render(context, final=not measure_only)
        measured = {face.id for face in measuring}
        wrong = [
            plan for plan, own in placed if plan.guessed and not plan.check(own, overflow, measured)
        ]
        if not measure_only and not wrong and not any(key[0] in "fb" for key in overflow):
            if not fronts_only:  # without backs, the backs were never measured
                _remember(faces, {p.card.key: p.slack for p in plans if not p.cached})
            return finish()
        for plan, own in placed:
            if any(plan is other for other in wrong):
                continue
            copies = (_copy_id(size, own[0].id) for size in (plan.size, MIN_PT))
            if any(f"{side}{face.id}" in overflow for face in own for side in "fb") or (
                measure_only and any(copy in overflow for copy in copies)
            ):
                plan.refit(own, overflow, measured)
        measure_only = False
    return finish()


# --------------------------------------------------------------------------- two CPUs

#: the work one card face, page or measured copy costs the layout, in "characters"
FACE_COST = 250


def _face_cost(face: Face, side: str) -> int:
    groups = (face.front if side == "front" else face.groups) or []
    identity = FACE_COST if side == "front" and face.part == 1 else FACE_COST // 3
    return identity + _text_length(groups)


def _halves(costs: list[int]) -> tuple[list[int], list[int]]:
    """Split units (pages and measured copies) into two lists of indexes of about equal
    cost: the larger first, each to the lighter side (the order is restored after)."""
    first: list[int] = []
    second: list[int] = []
    loads = [0, 0]
    for i in sorted(range(len(costs)), key=lambda i: -costs[i]):
        side = 0 if loads[0] <= loads[1] else 1
        (first if side == 0 else second).append(i)
        loads[side] += costs[i]
    return sorted(first), sorted(second)


def _parallel_render(context: dict[str, Any], *, final: bool):
    """Lay the context out in two processes at once, each with about half of its pages
    and measured copies (every sheet of cards, and every copy, is laid out on its own:
    nothing flows from one to the next), then join the two PDFs' pages in order.

    Each process measures its own half; a half with no overflow writes its PDF at once
    (the common case is the last layout: every face fits), so the parent only joins."""
    page_list, measuring = context["pages"], context["measuring"]
    units = [("page", p) for p in page_list] + [("copy", m) for m in measuring]
    if len(units) < 2:
        overflow, finish = _render_whole(context, final=final)
        return overflow, (lambda: _write(finish()))
    costs = [
        sum(_face_cost(slot.face, slot.side) for slot in unit["slots"])
        if kind == "page"
        else FACE_COST + _text_length(unit.front)
        for kind, unit in units
    ]
    halves = _halves(costs)

    def job(indexes: list[int]) -> tuple[dict[str, Fit], bytes | None, list[int]]:
        own_pages = [units[i][1] for i in indexes if units[i][0] == "page"]
        own_copies = [units[i][1] for i in indexes if units[i][0] == "copy"]
        document = _render(
            render_to_string(
                "pdf/cards.html", {**context, "pages": own_pages, "measuring": own_copies}
            )
        )
        overflow = measure(document)
        content = None
        if final and own_pages and not any(key[0] in "fb" for key in overflow):
            content = _write(document.copy(document.pages[: len(own_pages)]))
        return overflow, content, [i for i in indexes if units[i][0] == "page"]

    saved = {**context}
    results = run_in_parallel([lambda: job(halves[0]), lambda: job(halves[1])])
    overflow: dict[str, Fit] = {}
    for part_overflow, _content, _pages in results:
        overflow.update(part_overflow)

    def finish() -> bytes:
        parts = [(content, page_indexes) for _o, content, page_indexes in results if page_indexes]
        if any(content is None for content, _indexes in parts):  # gave up fitting: as it is
            return _write(_render_whole(saved, final=True)[1]())
        return join_pdfs(parts)

    return overflow, finish


def parallel_allowed() -> bool:
    setting = getattr(settings, "PDF_PARALLEL", None)
    if setting is not None:
        return bool(setting)
    return (os.cpu_count() or 1) >= 2 and hasattr(os, "fork")


def join_pdfs(parts: list[tuple[bytes, list[int]]]) -> bytes:
    """One PDF from several, each given with the positions its pages take in the whole."""
    import io

    from pypdf import PdfReader, PdfWriter

    if len(parts) == 1:
        return parts[0][0]
    placed = []
    readers = []
    for content, positions in parts:
        reader = PdfReader(io.BytesIO(content))
        readers.append(reader)
        placed.extend(zip(positions, reader.pages, strict=True))
    writer = PdfWriter()
    for _position, page in sorted(placed, key=lambda item: item[0]):
        writer.add_page(page)
    if readers[0].metadata:
        writer.add_metadata(dict(readers[0].metadata))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _text_length(groups: list[Group]) -> int:
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


def _write(document) -> bytes:
    return document.write_pdf()


def cards_pdf(
    roster: Mapping[str, Any],
    *,
    paper: str = "a4",
    fronts_only: bool = False,
    member_key: str | None = None,
    share_url: str | None = None,
    parallel: bool | None = None,
) -> bytes:
    """Character cards, nine to a page, backs mirrored (unless ``fronts_only``).

    ``parallel`` (default: ``PDF_PARALLEL``, on with two CPUs or more): lay the sheets
    out in two processes at once (``_parallel_render``)."""
    printed = prepare(roster)
    if parallel if parallel is not None else parallel_allowed():
        return _fit_cards(
            printed,
            PAPERS[paper],
            fronts_only=fronts_only,
            member_key=member_key,
            share_url=share_url,
            render=_parallel_render,
        )
    return _write(
        layout_cards(
            printed,
            PAPERS[paper],
            fronts_only=fronts_only,
            member_key=member_key,
            share_url=share_url,
        )
    )


def sheet_html(printed: Printed, paper: Paper, share_url: str | None = None) -> str:
    context = _base_context(printed, paper, share_url)
    context.update(
        members=printed.members(),
        findings=printed.finding_rows(),
        sheet=printed.system.print_sheet(printed.roster, printed.report),
        cards=printed.cards,
    )
    template = select_template([f"pdf/{printed.system.id}_sheet.html", "pdf/generic_sheet.html"])
    return template.render(context)


def sheet_pdf(
    roster: Mapping[str, Any], *, paper: str = "a4", share_url: str | None = None
) -> bytes:
    """The system's own gang sheet, with every finding."""
    return _write(_render(sheet_html(prepare(roster), PAPERS[paper], share_url)))


def reference_html(printed: Printed, paper: Paper, share_url: str | None = None) -> str:
    context = _base_context(printed, paper, share_url)
    sections: list[Section] = printed.system.quick_reference(printed.roster, printed.report)
    context.update(sections=[s for s in sections if s.entries], findings=printed.finding_rows())
    return render_to_string("pdf/reference.html", context)


def reference_pdf(
    roster: Mapping[str, Any], *, paper: str = "a4", share_url: str | None = None
) -> bytes:
    """Only the rules, skills, traits and weapons this gang uses, with their text."""
    return _write(_render(reference_html(prepare(roster), PAPERS[paper], share_url)))


def print_pdf(
    roster: Mapping[str, Any],
    kind: str,
    *,
    paper: str = "a4",
    fronts_only: bool = False,
    member_key: str | None = None,
    share_url: str | None = None,
    timeout: float | None = None,
    nice: int = 10,
) -> bytes:
    """Any of the three PDFs, made in a child process stopped after ``timeout`` seconds
    and run at ``nice`` (a render made ahead, in the background, at 19: clicks go first)."""
    if kind == "cards":

        def job() -> bytes:
            return cards_pdf(
                roster,
                paper=paper,
                fronts_only=fronts_only,
                member_key=member_key,
                share_url=share_url,
                # made ahead, nobody waits: one CPU, leaving the other to the site
                parallel=False if nice > 10 else None,
            )
    elif kind == "sheet":

        def job() -> bytes:
            return sheet_pdf(roster, paper=paper, share_url=share_url)
    elif kind == "reference":

        def job() -> bytes:
            return reference_pdf(roster, paper=paper, share_url=share_url)
    else:
        raise ValueError(f"unknown kind of PDF {kind!r}: use one of {', '.join(KINDS)}")
    seconds = settings.PDF_TIMEOUT_SECONDS if timeout is None else timeout
    return run_with_deadline(job, seconds, nice=nice)


WARM_UP_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="pdf/fonts.css"><link rel="stylesheet" href="pdf/cards.css">
<link rel="stylesheet" href="pdf/sheet.css"><style>@page { size: A4; margin: 0; }</style>
</head><body><div class="card front"><img class="mark" src="pdf/marks/star.svg" alt="">
<p style="font-family: 'GF Sans'">Warm <b>up</b></p><p>Warm <b>up</b></p>
<p style="font-family: 'GF Display'; font-weight: bold">Warm up</p>
<table class="stats"><tr><th>Str</th><td>3</td></tr></table></div></body></html>"""


def warm_up() -> bool:
    """Do once, in a server or worker process before it forks its renders, what the first
    PDF of a process would otherwise pay for (about a second): import WeasyPrint, load
    Pango and the fonts, compile the print templates, write one small PDF. Renders then
    start warm, in forked children that inherit all of it. Returns whether it could (a
    machine without Pango prints nothing, and says so when asked)."""
    from django.template.loader import get_template

    for path in sorted((settings.BASE_DIR / "templates" / "pdf").glob("*.html")):
        with contextlib.suppress(Exception):
            get_template(f"pdf/{path.name}")
    _print_code_digest()
    try:
        _render(WARM_UP_HTML).write_pdf()
    except (PdfError, ImportError, OSError):
        return False
    return True


def filename(gang_name: str, kind: str, *, paper: str = "a4", member: str = "") -> str:
    stem = slugify(gang_name) or "gang"
    if kind == "cards" and member:
        return f"{stem}-card-{slugify(member) or 'member'}.pdf"
    if kind == "cards":
        return f"{stem}-cards-{paper}.pdf"
    return f"{stem}-{kind}.pdf"


def cache_key(roster: Mapping[str, Any], kind: str, **options: Any) -> str:
    """What a PDF is made from, hashed: the roster (so the gang's version and every value
    it shows), the options, the QR's address, the date in the footer and the language it
    is printed in (the reader's: its words, dates and the book's terms)."""
    import hashlib
    import json

    made_from = {
        "roster": roster,
        "kind": kind,
        "options": options,
        "date": timezone.localdate().isoformat(),
        "language": get_language(),
        "code": _print_code_digest(),
    }
    digest = hashlib.sha256(json.dumps(made_from, sort_keys=True, default=str).encode())
    return f"pdf:{kind}:{digest.hexdigest()}"


@cache
def _print_code_digest() -> str:
    """A digest of everything that decides how a PDF looks, so a new release never serves
    a PDF cached by the old one."""
    import hashlib

    base = settings.BASE_DIR
    files = sorted(
        [
            *(base / "templates" / "pdf").glob("*.html"),
            *(base / "static" / "pdf").rglob("*.*"),
            *(base / "rules").rglob("*.py"),
            *(base / "rules" / "data").glob("*.json"),
            base / "builder" / "printing.py",
        ]
    )
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class PdfTooBig(PdfError):
    """More members than one PDF may hold: the message says what to print instead (413)."""


#: the most members one PDF of each kind holds (a 200-member gang's cards take over 20 s)
MAX_MEMBERS = {"cards": 60, "sheet": 120, "reference": 200}


def check_size(roster: Mapping[str, Any], kind: str, member_key: str | None = None) -> None:
    """Refuse, in words, a PDF too big to make within the time a render may take."""
    if kind == "cards" and member_key:
        return
    count = len(roster.get("members") or [])
    most = getattr(settings, "PDF_MAX_MEMBERS", MAX_MEMBERS).get(kind)
    if most is not None and count > most:
        what = {
            "cards": _("cards"),
            "sheet": _("a gang sheet"),
            "reference": _("a quick reference"),
        }
        raise PdfTooBig(
            _(
                "This gang has %(count)s members, and %(what)s can be printed for at most "
                "%(most)s: print members' cards one at a time from their panels, or split "
                "the gang."
            )
            % {"count": count, "what": what[kind], "most": most}
        )


def pdf_error_status(error: PdfError) -> int:
    """The HTTP status a view answers for a PDF that could not be made."""
    from builder import pdf_gate

    if isinstance(error, PdfTimeout):
        return 504
    if isinstance(error, PdfTooBig):
        return 413
    if isinstance(error, pdf_gate.PdfTooMany):
        return 429
    return 503


def pdf_error_page(request, error: PdfError, **context: Any):
    """The page a view answers when a PDF could not be made: what happened, in words, with
    the status that says it (busy and too many say when to try again)."""
    from django.shortcuts import render

    response = render(
        request,
        "builder/pdf_error.html",
        {**context, "error": error},
        status=pdf_error_status(error),
    )
    retry = getattr(error, "retry_after", None)
    if retry:
        response["Retry-After"] = str(retry)
    return response


def share_url(request, token: str) -> str:
    """The address of a gang's shared page, printed as the QR code on every PDF: made
    from ``SITE_URL`` (required in production), never from the request's Host, which the
    client chooses; without it (development) the request's own address, for this PDF
    alone: nothing a request says is kept for others (gangfight_site/links.py)."""
    from django.urls import reverse

    from gangfight_site import links

    return links.absolute(reverse("gang_shared", args=[token]), request)


def site_origin() -> str:
    """The site's address for a PDF made with no request (in the background):
    ``SITE_URL``, else the development server's (gangfight_site/links.py)."""
    from gangfight_site import links

    return links.site_origin()


def client_of(request, what: str = "") -> str:
    """Who asked, for the render gate's one PDF at a time per client and per ``what`` (a
    gang: ``gang:12``): the signed-in user, else the visitor's session (one that exists),
    else, as a last resort, the client's address as the trusted proxies tell it (never the
    proxy's own: gangfight_site/proxies.py)."""
    from gangfight_site.throttle import client_address

    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    if user is not None and user.is_authenticated:
        who = f"user:{user.pk}"
    elif session is not None and session.session_key and session.exists(session.session_key):
        who = f"session:{session.session_key}"
    else:
        who = f"address:{client_address(request)}"
    return f"{who}|{what}" if what else who


def cached_pdf(
    roster: Mapping[str, Any],
    kind: str,
    *,
    client: str | None = None,
    background: bool = False,
    owner: str | None = None,
    version: Any = None,
    **options: Any,
) -> tuple[bytes, bool]:
    """The PDF from the cache if made before from the same roster and options, else made
    now (and kept), through the render gate (``builder/pdf_gate.py``): ``client`` is the
    address that asked; ``background``, a render made ahead (``builder/tasks.py``), at a
    lower priority than any click. Returns the bytes and whether they came from the cache.
    ``owner`` and ``version`` (a gang's ``gang:12`` and its version): the cache keeps only
    the owner's latest version's PDFs (``builder/pdf_store.py``).

    The key is a digest of the roster itself (so of every value the PDF shows), never of
    a version number alone: a Print click right after a change can only find the PDF of
    the gang as it now is, or make it."""
    from django.core.cache import caches

    from builder import pdf_gate

    check_size(roster, kind, options.get("member_key"))
    cache = caches["pdf"]
    key = cache_key(roster, kind, **options)

    def cached() -> bytes | None:
        try:
            return cache.get(key)
        except OSError:  # an unreadable cache is only slower, never an error page
            return None

    content = cached()
    if content is not None:
        return content, True
    with pdf_gate.gate(key, client, background=background):
        content = cached()  # made meanwhile by the request this one waited for
        if content is not None:
            return content, True
        content = print_pdf(roster, kind, nice=19 if background else 10, **options)
        from builder.pdf_store import store_pdf

        store_pdf(key, content, owner, version)
    return content, False
