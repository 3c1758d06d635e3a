"""Every PDF looked at as a person holds it: each system's example gang printed as cards
(fronts and backs), gang sheet and quick reference, and each system's campaign chronicle,
in English and French, on A4 and US Letter, every page turned into a picture (pdftoppm).

What a person would see is asserted: no blank page; nothing drawn at the paper's edge; on
card sheets, every card's ink inside its 63 x 88 mm box and none across the cut lines, and
each back page's cards where the fronts' cards land when the sheet is turned over its long
edge. Page one of each system's documents (and the first backs), in English and French on
A4, is held against a reference picture in tests/references/ (at 30 dpi, half the checks'
resolution), so a layout change fails with a difference picture in test-artifacts/pdf/
(``UPDATE_REFERENCES=1`` writes them anew: README, "Tests").
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone, translation

from builder import printing
from rules.roster import read_roster
from tests.helpers.pdf import (
    blank_pages,
    card_boxes,
    card_sheet_problems,
    compare,
    ink_at_the_edge,
    mirrored,
    occupied,
    page_sizes_mm,
    rasterise,
)
from tests.test_campaign_journeys import dice  # noqa: F401 (a fixture)

EXAMPLES = Path(settings.BASE_DIR) / "docs" / "examples"
LEGAL = {
    "bwg1": "bwg1-legal-dalton-boys.json",
    "bwg2": "bwg2-legal-tranquility-crew-700.json",
    "gf26": "gf26-legal-iron-company.json",
    "rivals": "rivals-legal-red-jacks-gang.json",
    "gunfight": "gunfight-legal-lawman-posse.json",
}
SYSTEMS = list(LEGAL)
LANGUAGES = ["en-gb", "fr"]
PAPERS = ["a4", "letter"]
DPI = 60  # enough to see a card's 1 mm rim (2.4 pixels); the references are kept at 30
REFERENCE_DPI = 30
PRINTED_ON = datetime.date(2026, 5, 14)  # the footer's date, the same in every run
SHARE = "https://gangfight.example.org/s/abcdefghijklmnopqrstuvwxyz012345/"


@pytest.fixture(autouse=True)
def same_day(monkeypatch):
    """The footers print the day's date: one fixed day, so the pictures never drift."""
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: PRINTED_ON)


def example(system: str) -> dict:
    return read_roster((EXAMPLES / LEGAL[system]).read_bytes())


def paper_mm(paper: str) -> tuple[float, float]:
    p = printing.PAPERS[paper]
    return p.width, p.height


def looked_at(content: bytes, paper: str, what: str) -> tuple[list, list[str]]:
    """The pages as pictures, and what is wrong with any page (whatever the document)."""
    problems = []
    sizes = page_sizes_mm(content)
    width, height = paper_mm(paper)
    for n, (w, h) in enumerate(sizes, 1):
        if abs(w - width) > 0.5 or abs(h - height) > 0.5:
            problems.append(f"{what} page {n} is {w:.1f} x {h:.1f} mm, not {paper}")
    images = rasterise(content, DPI)
    assert len(images) == len(sizes)
    problems += [f"{what} page {n} is blank" for n in blank_pages(images)]
    for n, image in enumerate(images, 1):
        for edge in ink_at_the_edge(image, DPI):
            problems.append(f"{what} page {n} has ink at its {edge} edge (cut off by a printer)")
    return images, problems


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("system", SYSTEMS)
def test_every_page_of_cards_sheet_and_reference_is_drawn_whole(system, language, paper):
    """Every page whole; on A4, page one of each document (and the first backs) as it
    looked in its reference picture."""
    roster = example(system)
    with translation.override(language):
        cards = printing.print_pdf(roster, "cards", paper=paper, share_url=SHARE)
        sheet = printing.print_pdf(roster, "sheet", paper=paper, share_url=SHARE)
        reference = printing.print_pdf(roster, "reference", paper=paper, share_url=SHARE)

    images, problems = looked_at(cards, paper, "cards")
    assert len(images) % 2 == 0, "fronts and backs come in pairs of pages"
    for n, image in enumerate(images, 1):
        problems += [
            f"cards page {n}: {p}" for p in card_sheet_problems(image, DPI, paper_mm(paper))
        ]
    boxes = card_boxes(*paper_mm(paper))
    for front, back in zip(images[0::2], images[1::2], strict=True):
        on_front, on_back = occupied(front, DPI, boxes), occupied(back, DPI, boxes)
        if on_back != mirrored(on_front):
            problems.append(
                f"the backs are at {sorted(on_back)}, their fronts at {sorted(on_front)}: "
                "they don't land behind each other when turned over the long edge"
            )
    firsts = {"fronts": images[0], "backs": images[1]}
    for content, what in ((sheet, "sheet"), (reference, "reference")):
        pages, found = looked_at(content, paper, what)
        problems += found
        firsts[what] = pages[0]
    if paper == "a4":
        suffix = "" if language == "en-gb" else f"-{language}"
        for name, image in firsts.items():
            problems.append(compare(reference_size(image), f"{system}-{name}{suffix}"))
    problems = [p for p in problems if p]
    assert not problems, "\n".join(problems)


def reference_size(image):
    """A page as its reference picture keeps it: at half the checks' resolution."""
    return image.reduce(DPI // REFERENCE_DPI)


# --------------------------------------------------------------------------- chronicles


@pytest.fixture
def chronicled(db, content, dice, monkeypatch):  # noqa: F811 (dice: a fixture)
    """A campaign of each system with one encounter played, as the journeys play it, all
    on one day (the chronicle prints when each thing happened)."""
    at = datetime.datetime(2026, 5, 14, 20, 30, tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: at)

    def make(system: str):
        from campaigns import services
        from tests.test_campaign_journeys import JOURNEYS, one_encounter
        from tests.test_campaign_views import (
            RED_JACKS,
            SIX_OUTLAWS,
            join,
            make_user,
            new_campaign,
            play,
        )

        if system == "rivals":
            campaign = new_campaign(make_user("organiser"))
            join(campaign, make_user("player"), RED_JACKS)
            join(campaign, make_user("rival"), SIX_OUTLAWS)
            services.record(campaign, None, "campaign_started", {})
            play(campaign, seed=2)
        else:
            campaign = one_encounter(dice, JOURNEYS[system])[3]
        return campaign, services.state_of(campaign)

    return make


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_page_of_each_chronicle_is_drawn_whole(chronicled, system):
    from campaigns import chronicle

    campaign, state = chronicled(system)
    problems, differences = [], []
    for language in LANGUAGES:
        for paper in PAPERS:
            with translation.override(language):
                content = chronicle.chronicle_pdf(campaign, state, paper=paper)
            pages, found = looked_at(content, paper, f"chronicle ({language}, {paper})")
            problems += found
            if language == "en-gb" and paper == "a4":
                differences.append(compare(reference_size(pages[0]), f"{system}-chronicle"))
    problems += [d for d in differences if d]
    assert not problems, "\n".join(problems)
