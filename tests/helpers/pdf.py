"""PDFs as a person meets them: the words on their pages, and the pages as pictures.

``pdf_text`` is what a PDF says (pypdf's text, each page's lines, pages joined by a new
line); ``flat`` squeezes its white space to single spaces for phrases that may wrap.
``rasterise`` turns each page into a grey picture with pdftoppm (poppler-utils), at a
resolution given in dots per inch, and the checks below look at those pictures the way a
player holding the printed sheet would: is any page blank, is anything drawn off the
paper's edge, is each card's ink inside its 63 x 88 mm box, do the backs land behind their
fronts. ``compare`` holds a page against a reference picture kept in
``tests/references/``, with a tolerance, and saves the page and a difference picture into
``test-artifacts/`` when they differ (``UPDATE_REFERENCES=1`` writes the references
anew instead: see the README's "Tests" section).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageFilter
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]
REFERENCES = ROOT / "tests" / "references"
ARTIFACTS = ROOT / "test-artifacts"

MM_PER_INCH = 25.4
INK = 160  # a grey darker than this is ink (the cards' light borders are #bbb, 187)
FAINT = 245  # anything darker than this is drawn at all


# --------------------------------------------------------------------------- text


def pdf_pages(content: bytes) -> list:
    return list(PdfReader(io.BytesIO(content)).pages)


def pdf_text(content: bytes) -> str:
    """Every page's text as pypdf extracts it, pages joined by a new line."""
    return "\n".join(page.extract_text() for page in pdf_pages(content))


def flat(text: str) -> str:
    """White space (line breaks included) squeezed to one space: a phrase the layout may
    wrap anywhere is still found."""
    return re.sub(r"\s+", " ", text).strip()


def pdf_words(content: bytes) -> str:
    """Every page's text with its white space squeezed to single spaces: ``flat(pdf_text)``."""
    return flat(pdf_text(content))


def pdftotext(content: bytes, *, layout: bool = True) -> str:
    """What poppler's pdftotext reads off the PDF (``-layout``: as laid out on the page)."""
    assert shutil.which("pdftotext"), "pdftotext is missing: apt-get install poppler-utils"
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(content)
        command = ["pdftotext", *(["-layout"] if layout else []), str(source), "-"]
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def page_sizes_mm(content: bytes) -> list[tuple[float, float]]:
    """Each page's width and height in millimetres."""
    return [
        (float(p.mediabox.width) * MM_PER_INCH / 72, float(p.mediabox.height) * MM_PER_INCH / 72)
        for p in pdf_pages(content)
    ]


# --------------------------------------------------------------------------- pictures


def rasterise(content: bytes, dpi: int = 60, *, first: int | None = None, last: int | None = None):
    """Each page of a PDF (or pages first..last, counted from 1) as a grey ``Image``."""
    assert shutil.which("pdftoppm"), "pdftoppm is missing: apt-get install poppler-utils"
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(content)
        command = ["pdftoppm", "-gray", "-r", str(dpi)]
        if first:
            command += ["-f", str(first)]
        if last:
            command += ["-l", str(last)]
        subprocess.run([*command, str(source), str(Path(folder) / "p")], check=True)
        files = sorted(Path(folder).glob("p-*.pgm"), key=lambda p: int(p.stem.split("-")[-1]))
        return [Image.open(f).copy() for f in files]


@dataclass(frozen=True)
class Box:
    """A rectangle in millimetres from the page's top left corner."""

    x: float
    y: float
    w: float
    h: float

    def inset(self, by: float) -> Box:
        return Box(self.x + by, self.y + by, self.w - 2 * by, self.h - 2 * by)

    def pixels(self, image: Image.Image, dpi: int) -> tuple[int, int, int, int]:
        k = dpi / MM_PER_INCH
        return (
            max(0, round(self.x * k)),
            max(0, round(self.y * k)),
            min(image.width, round((self.x + self.w) * k)),
            min(image.height, round((self.y + self.h) * k)),
        )


def dark_pixels(
    image: Image.Image, box: tuple[int, int, int, int] | None = None, *, below: int = INK
) -> int:
    """How many pixels (in ``box``, else the whole picture) are darker than ``below``."""
    part = image.crop(box) if box else image
    if part.width <= 0 or part.height <= 0:
        return 0
    return sum(part.histogram()[:below])


def ink_in(image: Image.Image, box: Box, dpi: int, *, below: int = INK) -> int:
    return dark_pixels(image, box.pixels(image, dpi), below=below)


def blank_pages(images: list[Image.Image], *, at_least: int = 40) -> list[int]:
    """The pages (counted from 1) with next to no ink: a page a person would call blank."""
    return [n for n, image in enumerate(images, 1) if dark_pixels(image) < at_least]


def ink_at_the_edge(image: Image.Image, dpi: int, *, band_mm: float = 0.8) -> list[str]:
    """Which edges of the paper have something drawn within ``band_mm`` of them: text or
    a box running off the page, which a printer cuts."""
    k = dpi / MM_PER_INCH
    band = max(1, round(band_mm * k))
    w, h = image.size
    edges = {
        "top": (0, 0, w, band),
        "bottom": (0, h - band, w, h),
        "left": (0, 0, band, h),
        "right": (w - band, 0, w, h),
    }
    return [name for name, box in edges.items() if dark_pixels(image, box, below=FAINT)]


# --------------------------------------------------------------------------- card sheets


def card_boxes(paper_w: float, paper_h: float, card_w: float = 63.0, card_h: float = 88.0) -> dict:
    """The nine card places of a sheet, (column, row) -> Box, the grid centred on the paper
    as builder.printing lays it out."""
    x0, y0 = (paper_w - 3 * card_w) / 2, (paper_h - 3 * card_h) / 2
    return {
        (c, r): Box(x0 + c * card_w, y0 + r * card_h, card_w, card_h)
        for r in range(3)
        for c in range(3)
    }


def occupied(image: Image.Image, dpi: int, boxes: dict) -> set:
    """The card places with a card on them: anything drawn inside the place."""
    return {
        place for place, box in boxes.items() if ink_in(image, box.inset(0.5), dpi, below=FAINT)
    }


def card_sheet_problems(image: Image.Image, dpi: int, paper_mm: tuple[float, float]) -> list[str]:
    """What is wrong with one page of cards, as a person holding it would say it.

    Each card's text stays inside its box, clear of the cut lines: no ink in the 1 mm
    inside a card's edge (its padding is 2.3 mm). A card place with a card has its text
    drawn (ink inside it); a place without one is empty. Nothing is drawn across the
    cut lines between cards.
    """
    problems = []
    boxes = card_boxes(*paper_mm)
    cards = occupied(image, dpi, boxes)
    if not cards:
        return ["no card is drawn on the page"]
    for place, box in sorted(boxes.items()):
        name = f"card place column {place[0] + 1}, row {place[1] + 1}"
        if place not in cards:
            continue
        inner = box.inset(2.0)
        if ink_in(image, inner, dpi) < 40:
            problems.append(f"{name}: next to no ink inside the card (is its text drawn?)")
        # the rim: from 0.3 mm to 1.1 mm inside the card's edge, all four sides
        outer, rim_inner = box.inset(0.35), box.inset(1.1)
        rim = ink_in(image, outer, dpi) - ink_in(image, rim_inner, dpi)
        if rim > 0:
            problems.append(
                f"{name}: {rim} dark pixels at the card's edge (text across the cut line)"
            )
    return problems


def mirrored(places: set) -> set:
    """Where the backs of cards in ``places`` land on a sheet turned over its long edge."""
    return {(2 - c, r) for c, r in places}


# --------------------------------------------------------------------------- references


def _update_references() -> bool:
    return os.environ.get("UPDATE_REFERENCES", "") not in ("", "0")


def compare(image: Image.Image, name: str, *, tolerance: float = 0.004) -> str | None:
    """Hold a page (a grey picture) against ``tests/references/<name>.png``.

    Both are softened by a pixel's blur, so that a line moved by less than a pixel does
    not count; then the share of pixels whose grey differs by more than a quarter must stay
    under ``tolerance``. Returns None when the page matches, else what differs, with the
    page and a difference picture saved in ``test-artifacts/pdf/`` (red where the page has
    ink the reference lacks, blue where the reference has ink the page lacks).
    ``UPDATE_REFERENCES=1`` writes the reference from the page instead.
    """
    REFERENCES.mkdir(parents=True, exist_ok=True)
    reference_path = REFERENCES / f"{name}.png"
    if _update_references():
        image.save(reference_path, optimize=True)
        return None
    if not reference_path.exists():
        return (
            f"no reference picture {reference_path.relative_to(ROOT)}: make it with "
            "UPDATE_REFERENCES=1 (see the README's Tests section) and look at it"
        )
    reference = Image.open(reference_path).convert("L")
    if reference.size != image.size:
        _save_artifacts(name, image, reference)
        return f"{name}: the page is {image.size} pixels, the reference {reference.size}"
    soft = ImageFilter.BoxBlur(1)
    difference = ImageChops.difference(image.filter(soft), reference.filter(soft))
    changed = sum(difference.histogram()[64:])
    share = changed / (image.width * image.height)
    if share <= tolerance:
        return None
    where = _save_artifacts(name, image, reference)
    return (
        f"{name}: {share:.2%} of the page differs from its reference (tolerance "
        f"{tolerance:.2%}); see {where}"
    )


def _save_artifacts(name: str, image: Image.Image, reference: Image.Image) -> Path:
    folder = ARTIFACTS / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    image.save(folder / f"{name}.png")
    if reference.size == image.size:
        white = Image.new("L", image.size, 255)
        extra = ImageChops.subtract(reference, image)  # ink on the page, not on the reference
        missing = ImageChops.subtract(image, reference)  # ink on the reference, not the page
        diff = Image.merge(
            "RGB",
            (
                ImageChops.subtract(white, missing),
                ImageChops.subtract(ImageChops.subtract(white, missing), extra),
                ImageChops.subtract(white, extra),
            ),
        )
        diff.save(folder / f"{name}-diff.png")
    return folder / f"{name}-diff.png"
