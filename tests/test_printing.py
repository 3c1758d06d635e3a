"""Print-ready PDFs: true-size cards on A4 and Letter, duplex-aligned backs, long text,
fonts, safety, the command line. Each system's own content has tests/test_print_<id>.py."""

from __future__ import annotations

import copy
import io
import itertools
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from pypdf import PdfReader

from benchmarks.bench_editors import grown  # a player's big gang, as benchmarked
from builder import printing
from builder.printing import documents, layout, render
from builder.printing.cards import layout_cards
from builder.printing.printed import Printed, base_context
from rules import get_system
from rules.printing import Card, Entry, Section, Stat
from rules.roster import make_roster, read_roster
from tests.helpers.pdf import pdf_pages, pdf_text

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
LEGAL = {
    "bwg1": "bwg1-legal-dalton-boys.json",
    "bwg2": "bwg2-legal-tranquility-crew-700.json",
    "gf26": "gf26-legal-iron-company.json",
    "rivals": "rivals-legal-red-jacks-gang.json",
    "gunfight": "gunfight-legal-lawman-posse.json",
}
MM = 72 / 25.4  # PDF points per millimetre
PX = 96 / 25.4  # WeasyPrint layout units per millimetre
SHARE = "https://gangfight.example.org/s/abcdefghijklmnopqrstuvwxyz012345/"


def example(system: str) -> dict:
    return read_roster((EXAMPLES / LEGAL[system]).read_bytes())


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def in_order(expected: str, text: str) -> bool:
    """Every word of ``expected`` appears in ``text`` in the same order (other words, such
    as a second card's heading, may come between)."""
    found = iter(words(text))
    return all(any(w == got for got in found) for w in words(expected))


def boxes(document, attribute: str):
    """(page number, box, element) for each layout box whose element has ``attribute``."""
    for number, page in enumerate(document.pages):
        seen = set()
        for box in layout._boxes(page._page_box):
            element = getattr(box, "element", None)
            if element is None or element.get(attribute) is None or id(element) in seen:
                continue
            seen.add(id(element))
            yield number, box, element


def card_boxes(document):
    return [(n, b, e) for n, b, e in boxes(document, "data-card")]


# --------------------------------------------------------------------------- paper and cards


@pytest.mark.parametrize("system", sorted(LEGAL))
@pytest.mark.parametrize(("paper", "size_mm"), [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_every_pdf_is_exactly_the_paper_asked_for(system, paper, size_mm):
    roster = example(system)
    for content in (
        printing.cards_pdf(roster, paper=paper),
        printing.sheet_pdf(roster, paper=paper),
        printing.reference_pdf(roster, paper=paper),
    ):
        for page in pdf_pages(content):
            assert float(page.mediabox.width) == pytest.approx(size_mm[0] * MM, abs=0.05)
            assert float(page.mediabox.height) == pytest.approx(size_mm[1] * MM, abs=0.05)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_is_63_by_88_mm_on_a_centred_three_by_three_grid(paper):
    spec = printing.PAPERS[paper]
    document = layout_cards(printing.prepare(example("bwg2")), spec)
    cards = card_boxes(document)
    assert cards, "no cards laid out"
    x0, y0 = layout.grid(spec)
    assert x0 == pytest.approx((spec.width - 189) / 2) and y0 == pytest.approx(
        (spec.height - 264) / 2
    )
    columns = {round(x0 + c * 63, 2) for c in range(3)}
    rows = {round(y0 + r * 88, 2) for r in range(3)}
    for _page, box, _element in cards:
        assert box.border_width() / PX == pytest.approx(63, abs=0.01)
        assert box.border_height() / PX == pytest.approx(88, abs=0.01)
        assert round(box.border_box_x() / PX, 2) in columns
        assert round(box.border_box_y() / PX, 2) in rows
    per_page = {}
    for page, _box, _element in cards:
        per_page[page] = per_page.get(page, 0) + 1
    assert max(per_page.values()) <= 9


def test_cut_marks_run_along_every_cut_and_stay_off_the_cards():
    spec = printing.PAPERS["a4"]
    x0, y0 = layout.grid(spec)
    marks = layout.cut_marks(spec)
    assert len(marks) == 16  # 4 vertical cuts and 4 horizontal, marked at both ends
    xs = {round(m["x"], 2) for m in marks if m["w"] == 0}
    ys = {round(m["y"], 2) for m in marks if m["h"] == 0}
    assert xs == {round(x0 + c * 63, 2) for c in range(4)}
    assert ys == {round(y0 + r * 88, 2) for r in range(4)}
    for m in marks:  # each mark lies wholly outside the grid
        outside_x = m["x"] + m["w"] <= x0 or m["x"] >= x0 + 189
        outside_y = m["y"] + m["h"] <= y0 or m["y"] >= y0 + 264
        assert outside_x or outside_y
        assert m["x"] >= 0 and m["x"] + m["w"] <= spec.width
        assert m["y"] >= 0 and m["y"] + m["h"] <= spec.height
    document = layout_cards(printing.prepare(example("bwg1")), spec)
    assert len(list(boxes(document, "data-card"))) > 0
    html_marks = [b for _n, b, e in boxes(document, "class") if "cut" in e.get("class").split()]
    assert len(html_marks) == 16 * len(document.pages)


def test_the_back_of_card_n_lands_behind_card_n_when_flipped_on_the_long_edge():
    spec = printing.PAPERS["a4"]
    roster = example("gf26")
    roster["members"] = roster["members"] * 3  # more than nine cards: two sheets
    document = layout_cards(printing.prepare(roster), spec)
    fronts, backs = {}, {}
    for page, box, element in card_boxes(document):
        side = "front" if "front" in element.get("class") else "back"
        place = (page, box.border_box_x() / PX, box.border_box_y() / PX)
        (fronts if side == "front" else backs)[element.get("data-card")] = place
    assert set(fronts) == set(backs) and len(fronts) > 9
    for card, (page, x, y) in fronts.items():
        back_page, back_x, back_y = backs[card]
        assert back_page == page + 1  # each front page is followed by its backs
        # turned over the long (vertical) edge, x becomes paper width - x - card width
        assert back_x == pytest.approx(spec.width - x - 63, abs=0.01)
        assert back_y == pytest.approx(y, abs=0.01)


def test_mirrored_order_in_the_pdf_itself():
    """Read the names' positions from the PDF: the first card's back is top right."""
    roster = example("bwg1")
    content = printing.cards_pdf(roster)
    first = printing.prepare(roster).cards[0].name
    positions = {}
    for number, page in enumerate(pdf_pages(content)[:2]):

        def visit(text, cm, tm, font, size, number=number):
            if text.strip() == first and number not in positions:
                positions[number] = (tm[4] * cm[0] + cm[4]) / MM

        page.extract_text(visitor_text=visit)
    x0, _ = layout.grid(printing.PAPERS["a4"])
    assert positions[0] < x0 + 63  # front: the first column
    assert positions[1] > x0 + 2 * 63  # back: the third column, behind it


def test_fronts_only_prints_no_backs():
    roster = example("rivals")
    both = pdf_pages(printing.cards_pdf(roster))
    fronts = printing.cards_pdf(roster, fronts_only=True)
    assert len(pdf_pages(fronts)) * 2 == len(both)
    assert "Fronts, sheet 1 of 1 (fronts only)" in pdf_text(fronts)
    assert "Backs, sheet" not in pdf_text(fronts)


def test_a_single_card_is_its_own_pdf():
    roster = example("gunfight")
    printed = printing.prepare(roster)
    wanted = printed.cards[1]
    content = printing.cards_pdf(roster, member_key=wanted.key)
    text = pdf_text(content)
    assert wanted.name in text
    for other in printed.cards:
        if other.name != wanted.name:
            assert other.name not in text
    document = layout_cards(printed, printing.PAPERS["a4"], member_key=wanted.key)
    assert {e.get("data-member") for _n, _b, e in card_boxes(document)} == {wanted.key}
    with pytest.raises(KeyError):
        printing.cards_pdf(roster, member_key="nobody")


@pytest.mark.parametrize("system", sorted(LEGAL))
def test_the_text_has_every_members_name_and_stats(system):
    roster = example(system)
    printed = printing.prepare(roster)
    text = pdf_text(printing.cards_pdf(roster))
    flat = " ".join(text.split())
    for card in printed.cards:
        assert card.name in text
        for stat in card.stats:  # labels print in capitals
            assert stat.label.upper() in text.upper()
            assert stat.value in flat
        assert len(card.tracks) > 0


# --------------------------------------------------------------------------- long text


def all_fixture_cards():
    """Every card the shipped examples and sample content print, with its roster."""
    found = []
    for path in sorted(EXAMPLES.glob("*.json")):
        roster = read_roster(path.read_bytes())
        for card in printing.prepare(roster).cards:
            found.append((len(card.text()), card.key, roster))
    return found


def _text(box) -> str:
    return " ".join(b.text for b in layout._boxes(box) if hasattr(b, "text"))


def faces_in_reading_order(document) -> list[tuple[str, int, str, str]]:
    """(member key, card number, "front" or "back", the face's text) for every printed
    face, in the order a player reads them: card 1's front, its back, card 2's front…"""
    found = {}
    for _n, box, element in card_boxes(document):
        side = "front" if "front" in element.get("class").split() else "back"
        key = (element.get("data-member"), int(element.get("data-part")), side)
        found[key] = " ".join(_text(box).split())
    order = {key: n for n, (key, _part, _side) in enumerate(found)}
    return [
        (*key, text)
        for key, text in sorted(
            found.items(), key=lambda f: (order[f[0][0]], f[0][1], f[0][2] == "back")
        )
    ]


def reading_text(document, member_key: str | None = None) -> str:
    return " ".join(
        text
        for key, _part, _side, text in faces_in_reading_order(document)
        if member_key in (None, key)
    )


def cards_per_member(document) -> dict[str, int]:
    counts: dict[str, int] = {}
    for key, _part, side, _text in faces_in_reading_order(document):
        if side == "front":
            counts[key] = counts.get(key, 0) + 1
    return counts


def test_the_longest_card_in_the_fixtures_prints_all_its_text():
    _length, key, roster = max(all_fixture_cards(), key=lambda f: f[0])
    printed = printing.prepare(roster)
    card = next(c for c in printed.cards if c.key == key)
    document = layout_cards(printed, printing.PAPERS["a4"], member_key=key)
    assert layout.measure(document) == {}  # every face fits its card: nothing cut off
    text = reading_text(document)
    for section in card.sections:
        for entry in section.entries:
            assert in_order(f"{entry.term} {entry.text}", text), entry.term
    for note in card.play_notes:
        assert in_order(note, text)


PARAGRAPH = (
    "When this character is activated it may move and shoot twice at the same target, "
    "each shot at one die less, unless it is engaged in melee or hiding behind cover. "
)


def printed_with_rule(repeat: int) -> tuple[Printed, Card]:
    """The gf26 example with one card whose rule is ``repeat`` paragraphs long."""
    printed = printing.prepare(example("gf26"))
    text = " ".join(f"({n}) {PARAGRAPH}" for n in range(1, repeat + 1))
    card = Card(
        key="long",
        name="Long Winded",
        kind="Test card",
        mark="circle",
        stats=[Stat("HP", "3")],
        sections=[Section.of("Skills", [("Endless Rule", text)])],
    )
    printed.cards = [card]
    return printed, card


def faces_of(document):
    sizes = {}
    for _n, _box, element in boxes(document, "data-fit"):
        sizes[element.get("data-fit")] = element.get("class")
    return sizes


def test_text_goes_on_the_front_first_and_a_card_that_fits_at_8pt_stays_at_8pt():
    printed, card = printed_with_rule(4)
    document = layout_cards(printed, printing.PAPERS["a4"])
    assert layout.measure(document) == {}
    assert "pt8" in faces_of(document)["f0"].split()
    ((_key, _part, _side, front), (_k, _p, _s, back)) = faces_in_reading_order(document)
    assert "(1) When this character is activated" in front  # under the stat line
    assert in_order(card.sections[0].entries[0].text, front + " " + back)


def test_a_card_that_is_too_long_is_set_at_7pt_before_anything_moves():
    printed, card = printed_with_rule(13)
    document = layout_cards(printed, printing.PAPERS["a4"])
    assert layout.measure(document) == {}
    styles = faces_of(document)
    assert "pt7" in styles["f0"].split() and "pt7" in styles["b0"].split()
    parts = [e.get("data-part") for _n, _b, e in card_boxes(document)]
    assert set(parts) == {"1"}  # shrunk, not split: front and back of one card
    assert in_order(card.sections[0].entries[0].text, reading_text(document))


def test_text_too_long_for_one_card_goes_on_to_a_second_card_front_first_and_none_is_lost():
    printed, card = printed_with_rule(18)
    document = layout_cards(printed, printing.PAPERS["a4"])
    assert layout.measure(document) == {}  # nothing overflows any card
    faces = faces_in_reading_order(document)
    assert [(part, side) for _k, part, side, _t in faces] == [
        (1, "front"),
        (1, "back"),
        (2, "front"),
        (2, "back"),
    ]
    # 7 pt would need two cards as well: so both stay at 8 pt
    assert all("pt8" in s.split() for s in faces_of(document).values())
    text = reading_text(document)
    assert in_order(card.sections[0].entries[0].text, text)
    assert "(18) When this character is activated" in text
    front_2 = faces[2][3]
    # the second card's front carries the text on, not "see the back"
    assert front_2.startswith("Long Winded 2/2 Endless Rule (continued)")
    assert len(front_2) > 400
    assert "Continued on card 2 of 2" in faces[1][3]


def test_split_keeps_every_word_of_an_entry_in_order():
    entry = Entry("Rule", " ".join(f"w{n}" for n in range(300)))
    card = Card("1", "A", "", "circle", [])
    face = layout.Face(card, [], front=[layout.Group("section", "Skills", [entry])])
    # "Rule" and 300 words, 12 words a line: 26 lines, each 10 px below the last; the
    # identity block takes the first 30 px of the front
    words = ["Rule", *entry.text.split()]
    letters = list(itertools.accumulate(len(w) for w in words))
    lines = [(30.0 + (n + 1) * 10.0, letters[min((n + 1) * 12, 301) - 1]) for n in range(26)]
    fit = layout.Fit(capacity=110.0, height=290.0)
    fit.items[(0, 0)] = (30.0, 290.0, lines)
    faces = layout.split_face(face, fit)
    pieces = [g.items[0] for f in faces for g in (*f.front, *f.groups)]
    assert len(faces) == 2 and len(pieces) == 4  # both faces of two cards
    assert [p.term for p in pieces] == ["Rule"] + ["Rule (continued)"] * 3
    assert " ".join(p.text for p in pieces) == entry.text
    assert pieces[0].text.split()[-1] == "w94"  # 8 lines on the front: 96 words
    assert all(len(p.text.split()) >= 12 for p in pieces[1:])  # never a line alone
    front_2 = faces[1].front[0]
    assert front_2.continued and front_2.cut  # "Rule (continued)", under no title
    assert not faces[0].front[0].continued


def test_a_cut_entry_is_turned_over_between_two_sentences():
    """Issue 25: "A 1-handed gun for" / "(continued) short and medium range": a card's text
    continued elsewhere breaks at the end of a sentence when one ends on the lines that fit,
    not in the middle of one."""
    # "Rule" and 300 words, 12 words a line, a sentence every 20 words (w19., w39., ...)
    words = [f"w{n}." if n % 20 == 19 else f"w{n}" for n in range(300)]
    entry = Entry("Rule", " ".join(words))
    card = Card("1", "A", "", "circle", [])
    face = layout.Face(card, [], front=[layout.Group("section", "Skills", [entry])])
    letters = list(itertools.accumulate(len(w) for w in ["Rule", *words]))
    lines = [(30.0 + (n + 1) * 10.0, letters[min((n + 1) * 12, 301) - 1]) for n in range(26)]
    fit = layout.Fit(capacity=110.0, height=290.0)
    fit.items[(0, 0)] = (30.0, 290.0, lines)
    faces = layout.split_face(face, fit)
    pieces = [g.items[0] for f in faces for g in (*f.front, *f.groups)]
    assert " ".join(p.text for p in pieces) == entry.text  # every word, in order
    assert all(p.text.endswith(".") for p in pieces[:-1]), [p.text[-12:] for p in pieces]
    # the front's 8 lines end at w94: the last sentence ending on them is w79.
    assert pieces[0].text.split()[-1] == "w79."
    assert pieces[1].text.split()[0] == "w80"


def layout_example(system: str, language: str):
    from django.utils import translation

    with translation.override(language):
        return layout_cards(printing.prepare(example(system)), printing.PAPERS["a4"])


def cut_entries(document, language: str) -> list[tuple[str, str]]:
    """(the part before, the part after) of every section entry cut between two faces of
    the cards, in reading order."""
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override(language):
        continued = (gettext("%(term)s (continued)") % {"term": ""}).strip()
    faces = {}
    for _n, _box, element in card_boxes(document):
        side = "front" if "front" in element.get("class").split() else "back"
        key = (element.get("data-member"), int(element.get("data-part")), side)
        faces[key] = [
            (
                " ".join("".join(p.find("b").itertext()).split()),
                " ".join("".join(p.itertext()).split()),
            )
            for p in element.iter("p")
            if "entry" in (p.get("class") or "").split() and p.find("b") is not None
        ]
    members = list(dict.fromkeys(key for key, _part, _side in faces))
    entries = [
        entry
        for key in sorted(faces, key=lambda k: (members.index(k[0]), k[1], k[2] == "back"))
        for entry in faces[key]
    ]
    return [
        (entries[n - 1][1], text)
        for n, (term, text) in enumerate(entries)
        if n and term.endswith(continued)
    ]


@pytest.mark.parametrize("language", ["en-gb", "fr"])
@pytest.mark.parametrize("system", ["bwg1", "bwg2"])
def test_the_shipped_examples_turn_their_cards_over_between_sentences(
    system, language, monkeypatch
):
    """The Dalton Boys' Leader and the Tranquility Crew's Captain run over: wherever an
    entry goes on after a cut ("Term (continued)"), its part before the cut ends a
    sentence, unless keeping to sentences (an entry with no sentence end in the room left
    moving whole) would print more cards: a card is never wasted for it."""
    from django.core.cache import caches

    document = layout_example(system, language)
    cuts = cut_entries(document, language)
    mid_sentence = [(b[-40:], a[:40]) for b, a in cuts if not b.endswith(layout.SENTENCE_ENDS)]
    if system == "bwg1":  # the "A 1-handed gun for" / "short and medium range"
        assert not mid_sentence
    else:
        assert cuts, "the example has a cut entry (else this test proves nothing)"
    if mid_sentence:
        caches["pdf"].clear()  # the cuts remembered for each card
        split = layout._split
        monkeypatch.setattr(
            layout,
            "_split",
            lambda f, fit, slack, **_k: split(f, fit, slack, sentences=True, whole=True),
        )
        strict = layout_example(system, language)
        assert sum(cards_per_member(strict).values()) > sum(cards_per_member(document).values()), (
            mid_sentence
        )


def _with_class(box, name: str) -> list:
    return [
        b
        for b in layout._boxes(box)
        if getattr(b, "element", None) is not None
        and name in (b.element.get("class") or "").split()
    ]


def test_the_back_head_makes_room_and_every_back_text_starts_under_it():
    """A back's (and a second front's) text starts where layout.BACK_TOP says, below the
    heading with the member's name, never over it."""
    printed, _card = printed_with_rule(18)
    document = layout_cards(printed, printing.PAPERS["a4"])
    checked = 0
    for _n, box, _element in card_boxes(document):
        heads, bodies = _with_class(box, "back-head"), _with_class(box, "back-body")
        if heads and bodies:
            head_bottom = heads[0].position_y + heads[0].margin_height()
            assert head_bottom <= bodies[0].position_y + 0.5
            checked += 1
    assert checked == 3  # back 1, front 2, back 2


# --------------------------------------------------------------------------- no wasted cards

# Cards each shipped legal example printed before fronts carried text (issue 17): a club
# printing these gangs now prints fewer cards for the same gang.
CARDS_BEFORE = {
    "bwg1-legal-dalton-boys.json": 7,
    "bwg2-legal-switch-sides-325.json": 6,
    "bwg2-legal-tranquility-crew-700.json": 17,
    "gf26-legal-iron-company.json": 7,
    "gunfight-legal-indian-war-party.json": 4,
    "gunfight-legal-lawman-posse.json": 5,
    "rivals-legal-red-jacks-gang.json": 6,
    "rivals-legal-six-outlaws.json": 7,
}


def test_every_shipped_legal_example_is_counted():
    assert set(CARDS_BEFORE) == {p.name for p in EXAMPLES.glob("*-legal-*.json")}


@pytest.mark.parametrize("name", sorted(CARDS_BEFORE))
def test_a_shipped_example_prints_a_card_a_member_and_one_more_at_most(name):
    roster = read_roster((EXAMPLES / name).read_bytes())
    printed = printing.prepare(roster)
    document = layout_cards(printed, printing.PAPERS["a4"])
    assert layout.measure(document) == {}
    counts = cards_per_member(document)
    assert set(counts) == {c.key for c in printed.cards}
    longest = max(printed.cards, key=lambda c: len(c.text())).key
    for key, count in counts.items():
        assert count <= (2 if key == longest else 1), (key, count)
    total = sum(counts.values())
    assert total <= len(printed.cards) + 1
    before = CARDS_BEFORE[name]
    assert total < before or before == len(printed.cards)  # fewer cards for the same gang
    for key, part, side, text in faces_in_reading_order(document):
        card = next(c for c in printed.cards if c.key == key)
        if side == "front" and part > 1:  # a further card's front carries the text on
            rest = text.replace(card.name, "", 1).strip()
            assert len(rest) > 40 and "on the back" not in rest, (key, rest)


def test_the_front_carries_the_weapons_with_their_figures_first():
    roster = example("bwg1")
    printed = printing.prepare(roster)
    document = layout_cards(printed, printing.PAPERS["a4"])
    fronts = {k: t for k, part, side, t in faces_in_reading_order(document) if side == "front"}
    for card in printed.cards:
        front = fronts[card.key]
        stats_end = front.index(card.stats[-1].value, front.index(card.stats[0].label.upper()))
        for weapon in card.weapons:
            at = front.index(weapon.name)
            assert at > stats_end  # under the identity block and stat line
            assert weapon.level in front[at:]
        if card.sections:  # then the rest, in order
            assert front.index(card.sections[0].title.upper()) > front.index(card.weapons[-1].name)


# --------------------------------------------------------------------------- gang sheets fit


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("system", sorted(LEGAL))
def test_a_ten_member_roster_sheet_is_one_page(system, paper):
    roster = grown(example(system), 10)
    printed = printing.prepare(roster)
    pages = pdf_pages(printing.sheet_pdf(roster, paper=paper, share_url=SHARE))
    first = " ".join(pages[0].extract_text().split())
    for card in printed.cards:  # every member is on the first page
        assert card.name in first, card.name
    for finding in printed.report.findings:  # and every finding
        assert " ".join(finding.message.split()) in first, finding.code
    if system == "rivals":  # the roster; each outlaw's Wanted Poster may take more pages
        assert "GANG SUMMARY" in first.upper() and "Total" in first
    else:
        assert len(pages) == 1


# --------------------------------------------------------------------------- footer, QR, fonts


def test_every_pdf_has_a_footer_with_the_gang_name_and_date():
    roster = example("bwg2")
    from django.utils import timezone

    today = timezone.localdate().strftime("%-d %B %Y")
    for content in (
        printing.cards_pdf(roster),
        printing.sheet_pdf(roster),
        printing.reference_pdf(roster),
    ):
        for page in pdf_pages(content):
            text = page.extract_text()
            assert roster["name"] in text
            assert today in text


def test_a_qr_code_of_the_share_page_only_when_there_is_one():
    import segno

    roster = example("gf26")
    printed = printing.prepare(roster)
    spec = printing.PAPERS["a4"]
    with_qr = base_context(printed, spec, SHARE)
    assert with_qr["qr"] == render.qr_data_uri(SHARE)
    assert with_qr["qr"] == segno.make(SHARE, error="l").svg_data_uri(
        border=2, dark="#000", light="#fff"
    )
    assert with_qr["qr"].startswith("data:image/svg+xml")
    assert base_context(printed, spec, None)["qr"] == ""
    html = documents.sheet_html(printed, spec, SHARE)
    assert 'class="qr"' in html
    assert 'class="qr"' not in documents.sheet_html(printed, spec, None)
    document = layout_cards(printed, spec, share_url=SHARE)
    qr_boxes = [b for _n, b, e in boxes(document, "class") if e.get("class") == "qr"]
    fronts = list(document.pages)
    assert len(qr_boxes) == len(fronts) // 2  # one on each front page
    box = layout.qr_place(spec)
    assert box["size"] >= 9  # big enough for a phone to read
    x0, y0 = layout.grid(spec)
    assert box["y"] >= y0 + 264 or box["x"] >= x0 + 189  # never on a card


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_qr_code_and_footer_stay_clear_of_cards_and_cut_marks(paper):
    spec = printing.PAPERS[paper]
    x0, y0 = layout.grid(spec)
    q = layout.qr_place(spec)
    qr = (q["x"], q["y"], q["x"] + q["size"], q["y"] + q["size"])
    assert qr[2] <= spec.width and qr[3] <= spec.height
    assert qr[0] >= x0 + 189 or qr[1] >= y0 + 264
    for m in layout.cut_marks(spec):
        mark = (m["x"], m["y"], m["x"] + m["w"], m["y"] + m["h"])
        assert mark[2] < qr[0] or mark[0] > qr[2] or mark[3] < qr[1] or mark[1] > qr[3]
    for cell in layout.footer_cells(spec):
        assert cell["y"] >= y0 + 264 and cell["y"] + cell["h"] <= spec.height


NAMES = ["Zoë Ångström-Łukasiewicz", "Пётр Кузнецов", "Ὀδυσσεύς", "山田 太郎", "Nguyễn Thị Ánh"]


def test_accents_and_non_latin_letters_print_in_our_own_fonts():
    roster = example("gf26")
    for member, name in zip(roster["members"], NAMES, strict=False):
        member["name"] = name
    content = printing.cards_pdf(roster)
    text = pdf_text(content)
    for name in NAMES[: len(roster["members"])]:
        assert name.replace(" ", "") in text.replace(" ", "").replace("\n", "")
    fonts = set()
    for page in pdf_pages(content):
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert fonts, "no fonts found"
    for font in fonts:  # subsets of our @font-face fonts (static/fonts), none of the machine
        assert re.search(r"\+GF-(Sans|Condensed|Display|Fallback)", font), font


def test_the_big_fallback_font_is_only_loaded_when_a_name_needs_it():
    assert not printing.needs_fallback_font("Zoë Ångström Пётр Ὀδυσσεύς Nguyễn")
    assert printing.needs_fallback_font("山田 太郎")
    printed = printing.prepare(example("rivals"))
    assert "fallback-font.css" not in documents.sheet_html(printed, printing.PAPERS["a4"])
    roster = example("rivals")
    roster["name"] = "山賊団"
    printed = printing.prepare(roster)
    assert "fallback-font.css" in documents.sheet_html(printed, printing.PAPERS["a4"])


# --------------------------------------------------------------------------- safety

HOSTILE = [
    "file:///etc/passwd",
    "http://169.254.169.254/latest/meta-data/",
    "<link rel=attachment href=file:///etc/passwd>",
    '<img src="http://169.254.169.254/x.png">',
]


class RecordingFetchers:
    def __init__(self):
        self.made = []

    def __call__(self, static_dir):
        from rules.pdf import make_fetcher

        fetcher = make_fetcher(static_dir)
        self.made.append(fetcher)
        return fetcher

    @property
    def refused(self):
        return [url for f in self.made for url in f.refused]

    @property
    def served(self):
        return [url for f in self.made for url in f.served]


@pytest.mark.parametrize("system", sorted(LEGAL))
def test_hostile_names_print_as_text_fetch_nothing_and_attach_nothing(system, monkeypatch):
    fetchers = RecordingFetchers()
    monkeypatch.setattr(render, "make_fetcher", fetchers)
    roster = example(system)
    roster["name"] = HOSTILE[2]
    for member, name in zip(roster["members"], HOSTILE, strict=False):
        member["name"] = name
    for content in (
        printing.cards_pdf(roster, share_url=SHARE),
        printing.sheet_pdf(roster, share_url=SHARE),
        printing.reference_pdf(roster, share_url=SHARE),
    ):
        reader = PdfReader(io.BytesIO(content))
        assert reader.attachments == {}
        assert b"/EmbeddedFile" not in content and b"/FileAttachment" not in content
        text = pdf_text(content)
        assert "<link rel=attachment href=file:///etc/passwd>" in text.replace("\n", "")
    assert fetchers.refused == []  # escaped text: nothing even tried to fetch it
    static = settings.PDF_STATIC_DIR.resolve().as_uri()
    assert fetchers.served and all(url.startswith(static) for url in fetchers.served)


def test_the_fetcher_refuses_redirects_other_files_and_the_network():
    from rules.pdf import make_fetcher, render_pdf

    html = """<html><head><link rel="attachment" href="file:///etc/passwd">
    <link rel="stylesheet" href="http://169.254.169.254/x.css"></head>
    <body><img src="file:///etc/passwd"><img src="../../../../etc/hostname">
    <p>hello</p></body></html>"""
    fetcher = make_fetcher(settings.PDF_STATIC_DIR)
    content = render_pdf(html, settings.PDF_STATIC_DIR, fetcher=fetcher)
    assert PdfReader(io.BytesIO(content)).attachments == {}
    refused = " ".join(fetcher.refused)
    assert "/etc/passwd" in refused and "169.254.169.254" in refused
    assert "/etc/hostname" in refused
    from urllib.request import HTTPRedirectHandler

    assert not any(isinstance(h, HTTPRedirectHandler) for h in fetcher.handlers)


def test_a_render_that_takes_too_long_is_stopped_with_a_clear_error(monkeypatch):
    import time

    def slow(*args, **kwargs):
        time.sleep(30)

    monkeypatch.setattr(documents, "cards_pdf", slow)
    started = time.monotonic()
    with pytest.raises(printing.PdfTimeout, match=r"took longer than 0\.5 seconds"):
        printing.print_pdf(example("bwg1"), "cards", timeout=0.5)
    assert time.monotonic() - started < 10


def test_print_pdf_makes_each_kind_in_a_child_process_and_reports_failures(monkeypatch):
    roster = example("gunfight")
    assert printing.print_pdf(roster, "sheet").startswith(b"%PDF")

    def broken(*args, **kwargs):
        raise printing.PdfUnavailable("cannot load library 'libpango-1.0-0'")

    monkeypatch.setattr(documents, "sheet_pdf", broken)
    with pytest.raises(printing.PdfUnavailable, match="libpango"):
        printing.print_pdf(roster, "sheet")
    with pytest.raises(ValueError, match="unknown kind"):
        printing.print_pdf(roster, "poster")


# --------------------------------------------------------------------------- reference


@pytest.mark.parametrize("system", sorted(LEGAL))
def test_the_quick_reference_fits_on_one_or_two_pages_and_holds_what_the_gang_uses(system):
    roster = example(system)
    printed = printing.prepare(roster)
    sections: list[Section] = printed.system.quick_reference(roster, printed.report)
    content = printing.reference_pdf(roster)
    assert 1 <= len(pdf_pages(content)) <= 2
    text = " ".join(pdf_text(content).split())
    for section in sections:
        for entry in section.entries:
            assert in_order(entry.term, text), entry.term


def test_a_gang_sheet_for_a_system_without_its_own_uses_the_generic_one(monkeypatch):
    printed = printing.prepare(example("gf26"))
    printed.system = copy.copy(printed.system)
    monkeypatch.setattr(type(printed.system), "id", "sixth", raising=False)
    html = documents.sheet_html(printed, printing.PAPERS["a4"])
    for card in printed.cards:
        assert card.name in html


# --------------------------------------------------------------------------- command line


def test_render_pdf_prints_a_roster_file_of_every_kind(tmp_path):
    source = EXAMPLES / LEGAL["bwg2"]
    for kind in ("cards", "sheet", "reference"):
        out = tmp_path / f"{kind}.pdf"
        call_command("render_pdf", str(source), kind=kind, paper="letter", output=str(out))
        pages = pdf_pages(out.read_bytes())
        assert float(pages[0].mediabox.height) == pytest.approx(279.4 * MM, abs=0.05)
        assert json.loads(source.read_text())["name"] in pdf_text(out.read_bytes())


def test_render_pdf_fronts_only_and_a_single_member(tmp_path):
    source = EXAMPLES / LEGAL["rivals"]
    out = tmp_path / "fronts.pdf"
    call_command("render_pdf", str(source), kind="cards", fronts_only=True, output=str(out))
    assert "Backs, sheet" not in pdf_text(out.read_bytes())
    roster = read_roster(source.read_bytes())
    name = roster["members"][0]["name"]
    one = tmp_path / "one.pdf"
    call_command("render_pdf", str(source), member=name, output=str(one))
    assert name in pdf_text(one.read_bytes())


def test_render_pdf_exits_2_with_the_reason_on_a_broken_file(tmp_path, capsys):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "gangfight-roster", "version": 1, "system": "bwg9"}')
    with pytest.raises(SystemExit) as exit_info:
        call_command("render_pdf", str(broken), output=str(tmp_path / "x.pdf"))
    assert exit_info.value.code == 2
    assert "is not a roster file" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()
    not_json = tmp_path / "not.json"
    not_json.write_text("{")
    with pytest.raises(SystemExit) as exit_info:
        call_command("render_pdf", str(not_json), output=str(tmp_path / "x.pdf"))
    assert exit_info.value.code == 2
    assert "not valid JSON" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        call_command("render_pdf", str(EXAMPLES / LEGAL["gf26"]), member="Nobody", output="x.pdf")
    assert exit_info.value.code == 2


def test_a_roster_made_in_code_prints_too():
    system = get_system("gunfight")
    roster = make_roster("gunfight", "Tiny", None, [("Lone Rider", system.new_member())])
    assert "Lone Rider" in pdf_text(printing.cards_pdf(roster))


def test_the_readme_shows_a_sheet_rendered_to_png():
    readme = (Path(settings.BASE_DIR) / "README.md").read_text()
    shown = re.findall(r'src="(docs/img/[^"]+\.png)"', readme)
    assert shown
    for path in shown:
        assert (Path(settings.BASE_DIR) / path).read_bytes().startswith(b"\x89PNG")


def test_a_hundred_letter_name_fits_its_front_with_the_stat_line_and_tracks():
    roster = example("gf26")
    name = "Bartholomew " * 8 + "Longname-Smythe"  # 100 letters, the longest a name can be
    roster["members"][0]["name"] = name
    printed = printing.prepare(roster)
    document = layout_cards(printed, printing.PAPERS["a4"])
    assert layout.measure(document) == {}  # the whole front fits its card
    text = " ".join(pdf_text(document.write_pdf()).split())
    assert in_order(name, text)
    card = printed.cards[0]
    assert in_order(" ".join(f"{s.label} {s.value}" for s in card.stats), text.upper()) or all(
        s.value in text for s in card.stats
    )


def test_printing_the_same_cards_again_takes_one_layout(monkeypatch):
    layouts = []
    real = render.document

    def counting(html):
        layouts.append(len(html))
        return real(html)

    monkeypatch.setattr(render, "document", counting)
    roster = example("bwg2")  # its backs overflow: 7 pt and second cards
    first = layout_cards(printing.prepare(roster), printing.PAPERS["a4"])
    assert len(layouts) == 2
    again = layout_cards(printing.prepare(roster), printing.PAPERS["letter"])
    assert len(layouts) == 3  # the fit is remembered: one layout, still measured
    assert layout.measure(again) == {}
    assert len(again.pages) == len(first.pages)
