"""Fitting the character cards: lay out, measure, cut what overflows, again until every
face fits.

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

With two CPUs, the sheets are laid out in two processes at once (``parallel_render``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.template.loader import render_to_string

from builder.printing import render
from builder.printing.layout import (
    BACK_PT,
    BACK_TOP,
    CARD_H,
    CARD_W,
    COLS,
    FRONT_HOLDS,
    LINE,
    LONG_CARD,
    MIN_PT,
    ROWS,
    SHORT_CARD,
    Face,
    Fit,
    Group,
    Paper,
    back_groups,
    cut_marks,
    footer_cells,
    grid,
    line_height,
    measure,
    pages,
    qr_place,
    split_face,
    text_length,
)
from builder.printing.printed import Printed, base_context
from rules.pdf import run_in_parallel
from rules.printing import Card


def _card_digest(card: Card) -> str:
    """How each card was fitted (its sizes, and where its text was cut) is kept by the
    card's content in the PDF cache: printing the same member again (another paper, one
    card, the gang after a change to someone else) needs one layout, not two. Every
    layout is measured all the same, so a stale entry only costs more layouts."""
    import hashlib

    return "fit:" + render.code_digest() + ":" + hashlib.sha256(repr(card).encode()).hexdigest()


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
    return "guess:" + render.code_digest() + ":" + hashlib.sha256(text).hexdigest()


def _member_digest(card: Card) -> str:
    """A member's cards by the *shape* of its text (each group's kind, title and number of
    items): a guess for a card whose words changed a little (a unit mate renamed) but
    that still has the same items, re-filled with the new words (``_refill``)."""
    import hashlib

    shape = [(g.kind, g.title, len(g.items)) for g in back_groups(card)]
    made = repr((card.key, shape)).encode()
    return "guess-member:" + render.code_digest() + ":" + hashlib.sha256(made).hexdigest()


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
        length = text_length(self.groups)
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
    return fit_cards(
        printed,
        paper,
        fronts_only=fronts_only,
        member_key=member_key,
        share_url=share_url,
        lay_out=_render_whole,
    )


def _render_whole(context: dict[str, Any], *, final: bool):
    """One document for the whole context: its overflow, and how to finish it (the
    document without the measuring page)."""
    document = render.document(render_to_string("pdf/cards.html", context))
    printed_pages = document.pages[: len(context["pages"])]
    return measure(document), lambda: document.copy(printed_pages)


def fit_cards(
    printed: Printed,
    paper: Paper,
    *,
    fronts_only: bool,
    member_key: str | None,
    share_url: str | None,
    lay_out,
):
    """The fitting loop: lay out, measure, cut what overflows, again until every face fits.
    ``lay_out(context, final=…)`` lays a context out and returns what overflowed and a
    function that gives the result (a document, or the PDF's bytes)."""
    plans = _plans(printed, member_key)
    context = base_context(printed, paper, share_url)
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
    measure_only = any(p.faces is None and text_length(p.groups) > FRONT_HOLDS for p in plans)
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
        overflow, finish = lay_out(context, final=not measure_only)
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
    return identity + text_length(groups)


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


def parallel_render(context: dict[str, Any], *, final: bool):
    """Lay the context out in two processes at once, each with about half of its pages
    and measured copies (every sheet of cards, and every copy, is laid out on its own:
    nothing flows from one to the next), then join the two PDFs' pages in order.

    Each process measures its own half; a half with no overflow writes its PDF at once
    (the common case is the last layout: every face fits), so the parent only joins."""
    page_list, measuring = context["pages"], context["measuring"]
    units = [("page", p) for p in page_list] + [("copy", m) for m in measuring]
    if len(units) < 2:
        overflow, finish = _render_whole(context, final=final)
        return overflow, (lambda: render.write(finish()))
    costs = [
        sum(_face_cost(slot.face, slot.side) for slot in unit["slots"])
        if kind == "page"
        else FACE_COST + text_length(unit.front)
        for kind, unit in units
    ]
    halves = _halves(costs)

    def job(indexes: list[int]) -> tuple[dict[str, Fit], bytes | None, list[int]]:
        own_pages = [units[i][1] for i in indexes if units[i][0] == "page"]
        own_copies = [units[i][1] for i in indexes if units[i][0] == "copy"]
        document = render.document(
            render_to_string(
                "pdf/cards.html", {**context, "pages": own_pages, "measuring": own_copies}
            )
        )
        overflow = measure(document)
        content = None
        if final and own_pages and not any(key[0] in "fb" for key in overflow):
            content = render.write(document.copy(document.pages[: len(own_pages)]))
        return overflow, content, [i for i in indexes if units[i][0] == "page"]

    saved = {**context}
    results = run_in_parallel([lambda: job(halves[0]), lambda: job(halves[1])])
    overflow: dict[str, Fit] = {}
    for part_overflow, _content, _pages in results:
        overflow.update(part_overflow)

    def finish() -> bytes:
        parts = [(content, page_indexes) for _o, content, page_indexes in results if page_indexes]
        if any(content is None for content, _indexes in parts):  # gave up fitting: as it is
            return render.write(_render_whole(saved, final=True)[1]())
        return render.join_pdfs(parts)

    return overflow, finish
