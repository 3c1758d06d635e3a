"""Line charts as SVG made on the server, for campaign pages and their PDFs.

Plain Python, no Django: ``line_chart()`` returns an ``<svg>`` element as a string, drawn
only with presentation attributes (no CSS, scripts, ids in stylesheets, external fonts or
images), so the same markup works inline in a page and in WeasyPrint. It scales to its
container (``width="100%"``, no fixed height, a ``viewBox``). All user text is escaped
here; the caller marks the string safe when putting it in a template.

``chart_table()`` gives the same numbers as rows of plain (unescaped) strings for an HTML
table next to the chart, for screen readers and for anyone who prefers the figures.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from django.utils.translation import gettext, gettext_noop

__all__ = ["EMPTY_TEXT", "PALETTE", "Series", "chart_table", "line_chart"]

FONT_FAMILY = "DejaVu Sans, sans-serif"
EMPTY_TEXT = gettext_noop("No encounters recorded yet")  # translated where drawn
MISSING = "—"  # a cell of chart_table() where the series has no value

# Paul Tol's "muted" scheme: distinct for the common forms of colour blindness. The two
# light colours come last, so small campaigns get the ones with the most contrast.
PALETTE = (
    "#332288",  # indigo
    "#CC6677",  # rose
    "#117733",  # green
    "#AA4499",  # purple
    "#44AA99",  # teal
    "#882255",  # wine
    "#999933",  # olive
    "#88CCEE",  # cyan
    "#DDCC77",  # sand
)
# Once every colour is used, the next series repeat them with these dash patterns.
DASHES = ("", "8 4", "2 3", "10 3 2 3")

FONT_SIZE = 13  # ticks and axis labels, in user units (the chart is 640 wide by default)
LEGEND_FONT_SIZE = 14
CHAR_WIDTH = 0.62  # a generous average advance of DejaVu Sans, in ems
LEGEND_MAX_CHARS = 28
X_LABEL_MAX_CHARS = 12
LEGEND_ROW = 22
LEGEND_SWATCH = 26
TEXT_COLOUR = "#333333"
AXIS_COLOUR = "#666666"
GRID_COLOUR = "#DDDDDD"

# Characters XML 1.0 does not allow: a label holding one would break the whole page.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True)
class Series:
    """One line: a label (user text) and one value per x label.

    ``None`` means the outlaw or gang was not in the campaign then (not yet joined, or
    dead): no point is drawn and the line breaks there.
    """

    label: str
    values: Sequence[int | None]


def line_chart(
    *,
    title: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    y_label: str = "",
    width: int = 640,
    height: int = 320,
) -> str:
    """An ``<svg>`` element (string) with viewBox, role="img", <title>, <desc> ...

    ``width`` and ``height`` are the size of the plot in user units; the legend below it
    adds as many rows as it needs, so the viewBox is taller than ``height`` by those. The
    SVG itself is ``width="100%"`` and keeps its proportions at any size.

    Raises ``ValueError`` when a series has not exactly one value per x label.
    """
    if width < 200 or height < 120:
        raise ValueError(f"a chart needs at least 200 by 120 user units, not {width} by {height}")
    for one in series:
        if len(one.values) != len(x_labels):
            raise ValueError(
                f"series {one.label!r} has {len(one.values)} values for {len(x_labels)} x labels"
            )
    prefix = _id_prefix(title, x_labels, series, y_label)
    drawn = [one for one in series if any(v is not None for v in one.values)]
    if not x_labels or not drawn:
        return _empty_chart(title, prefix, width, min(height, 160))
    return _LineChart(title, list(x_labels), drawn, y_label, width, height, prefix).svg()


def chart_table(*, x_labels: Sequence[str], series: Sequence[Series]) -> list[list[str]]:
    """The chart's numbers as rows of text, header row first: one row per series.

    The header is an empty corner cell then the x labels; each row is the series' label
    then its values, ``"—"`` where it has none. Strings are not escaped (the template
    does that).
    """
    rows = [["", *(str(label) for label in x_labels)]]
    for one in series:
        rows.append([one.label, *(MISSING if v is None else _number(v) for v in one.values)])
    return rows


# --- drawing ---------------------------------------------------------------------------


class _LineChart:
    def __init__(self, title, x_labels, series, y_label, width, height, prefix):
        self.title = title
        self.x_labels = x_labels
        self.series = series
        self.y_label = y_label
        self.width = width
        self.height = height
        self.prefix = prefix

        values = [v for one in series for v in one.values if v is not None]
        self.top = 14
        self.bottom = height - 34  # the x labels go below, then the legend
        intervals = max(2, int((self.bottom - self.top) // 36))
        self.ticks = nice_ticks(min(values), max(values), intervals)
        widest_tick = max(len(_number(t)) for t in self.ticks)
        self.left = 10 + (FONT_SIZE + 10 if y_label else 0) + _text_width(widest_tick) + 8
        self.right = width - 16
        self.legend_rows = self._legend_layout()
        legend_height = len(self.legend_rows) * LEGEND_ROW + 6 if self.legend_rows else 0
        self.total_height = height + legend_height

    # positions

    def x(self, index: int) -> float:
        count = len(self.x_labels)
        if count == 1:
            return (self.left + self.right) / 2
        inset = 14  # keeps the first and last labels and markers off the axes
        span = self.right - self.left - 2 * inset
        return self.left + inset + span * index / (count - 1)

    def y(self, value: float) -> float:
        low, high = self.ticks[0], self.ticks[-1]
        return self.bottom - (value - low) * (self.bottom - self.top) / (high - low)

    # parts

    def svg(self) -> str:
        p = self.prefix
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} '
            f'{self.total_height}" width="100%" preserveAspectRatio="xMidYMid meet" '
            f'role="img" aria-labelledby="{p}-title" aria-describedby="{p}-desc" '
            f'font-family="{FONT_FAMILY}" font-size="{FONT_SIZE}" fill="{TEXT_COLOUR}" '
            f'class="chart">',
            f'<title id="{p}-title">{_text(self.title)}</title>',
            f'<desc id="{p}-desc">{_text(self.summary())}</desc>',
            *self._grid(),
            *self._x_axis(),
            *self._lines(),
            *self._legend(),
            "</svg>",
        ]
        return "\n".join(parts)

    def summary(self) -> str:
        """Where each series ended, in words: "After 3: Sarah 14, James 6."."""
        last = len(self.x_labels) - 1
        finals = []
        for one in self.series:
            index = max(i for i, v in enumerate(one.values) if v is not None)
            text = f"{one.label} {_number(one.values[index])}"
            if index != last:
                text = gettext("%(value)s (last at %(label)s)") % {
                    "value": text,
                    "label": self.x_labels[index],
                }
            finals.append(text)
        return gettext("After %(label)s: %(values)s.") % {
            "label": self.x_labels[last],
            "values": ", ".join(finals),
        }

    def _grid(self) -> list[str]:
        out = ['<g class="chart-y-axis" text-anchor="end">']
        for tick in self.ticks:
            y = _n(self.y(tick))
            colour = AXIS_COLOUR if tick == 0 else GRID_COLOUR
            out.append(
                f'<line x1="{_n(self.left)}" y1="{y}" x2="{_n(self.right)}" y2="{y}" '
                f'stroke="{colour}" stroke-width="1"/>'
            )
            out.append(
                f'<text x="{_n(self.left - 6)}" y="{_n(self.y(tick) + FONT_SIZE * 0.35)}">'
                f"{_number(tick)}</text>"
            )
        out.append(
            f'<line x1="{_n(self.left)}" y1="{self.top}" x2="{_n(self.left)}" '
            f'y2="{self.bottom}" stroke="{AXIS_COLOUR}" stroke-width="1"/>'
        )
        out.append("</g>")
        if self.y_label:
            middle = (self.top + self.bottom) / 2
            x = 10 + FONT_SIZE
            out.append(
                f'<text class="chart-y-label" x="{x}" y="{_n(middle)}" text-anchor="middle" '
                f'transform="rotate(-90 {x} {_n(middle)})">{_text(self.y_label)}</text>'
            )
        return out

    def _x_axis(self) -> list[str]:
        out = ['<g class="chart-x-axis" text-anchor="middle">']
        out.append(
            f'<line x1="{_n(self.left)}" y1="{self.bottom}" x2="{_n(self.right)}" '
            f'y2="{self.bottom}" stroke="{AXIS_COLOUR}" stroke-width="1"/>'
        )
        labels = [_truncate(str(label), X_LABEL_MAX_CHARS) for label in self.x_labels]
        for index in self._shown_x_labels(labels):
            x = _n(self.x(index))
            out.append(
                f'<line x1="{x}" y1="{self.bottom}" x2="{x}" y2="{self.bottom + 4}" '
                f'stroke="{AXIS_COLOUR}" stroke-width="1"/>'
            )
            out.append(
                f'<text x="{x}" y="{self.bottom + 6 + FONT_SIZE}">{_text(labels[index])}</text>'
            )
        out.append("</g>")
        return out

    def _shown_x_labels(self, labels: list[str]) -> list[int]:
        """Every k-th label counting back from the last, and always the first, so that
        labels never overlap however many encounters there are."""
        count = len(labels)
        if count == 1:
            return [0]
        spacing = self.x(1) - self.x(0)
        needed = max(_text_width(len(label)) for label in labels) + 8
        step = max(1, math.ceil(needed / spacing))
        shown = list(range(count - 1, -1, -step))
        if shown[-1] != 0:
            if len(shown) > 1:
                shown.pop()
            shown.append(0)
            if len(shown) == 2 and self.x(shown[0]) - self.x(0) < needed:
                shown = [count - 1]
        return sorted(shown)

    def _lines(self) -> list[str]:
        out = []
        for number, one in enumerate(self.series):
            colour, dash = _style(number)
            label = _text(one.label)
            out.append(f'<g class="chart-series" stroke="{colour}" fill="{colour}">')
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            for run in _runs(one.values):
                if len(run) < 2:
                    continue
                points = " ".join(f"{_n(self.x(i))},{_n(self.y(one.values[i]))}" for i in run)
                out.append(
                    f'<polyline points="{points}" fill="none" stroke-width="2.5" '
                    f'stroke-linejoin="round" stroke-linecap="round"{dash_attr}/>'
                )
            for index, value in enumerate(one.values):
                if value is None:
                    continue
                where = _text(str(self.x_labels[index]))
                out.append(
                    f'<circle cx="{_n(self.x(index))}" cy="{_n(self.y(value))}" r="4" '
                    f'stroke="#FFFFFF" stroke-width="1.5">'
                    "<title>"
                    + gettext("%(label)s: %(value)s at %(where)s")
                    % {"label": label, "value": _number(value), "where": where}
                    + "</title></circle>"
                )
            out.append("</g>")
        return out

    def _legend_item_width(self, label: str) -> float:
        shown = _truncate(label, LEGEND_MAX_CHARS)
        return LEGEND_SWATCH + 6 + _text_width(len(shown), LEGEND_FONT_SIZE) + 18

    def _legend_layout(self) -> list[list[tuple[int, float]]]:
        """Rows of (series number, x) so that no row is wider than the chart."""
        rows: list[list[tuple[int, float]]] = []
        start, end = 12, self.width - 12
        x = end  # forces a first row
        for number, one in enumerate(self.series):
            item = self._legend_item_width(one.label)
            if x + item > end and (not rows or rows[-1]):
                rows.append([])
                x = start
            rows[-1].append((number, x))
            x += item
        return rows

    def _legend(self) -> list[str]:
        if not self.legend_rows:
            return []
        out = [f'<g class="chart-legend" font-size="{LEGEND_FONT_SIZE}">']
        for row_number, row in enumerate(self.legend_rows):
            y = self.height + 4 + row_number * LEGEND_ROW + LEGEND_ROW / 2
            for number, x in row:
                one = self.series[number]
                colour, dash = _style(number)
                dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
                out.append(
                    f'<g class="chart-legend-item"><title>{_text(one.label)}</title>'
                    f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x + LEGEND_SWATCH)}" '
                    f'y2="{_n(y)}" stroke="{colour}" stroke-width="2.5"{dash_attr}/>'
                    f'<circle cx="{_n(x + LEGEND_SWATCH / 2)}" cy="{_n(y)}" r="4" '
                    f'fill="{colour}" stroke="#FFFFFF" stroke-width="1.5"/>'
                    f'<text x="{_n(x + LEGEND_SWATCH + 6)}" '
                    f'y="{_n(y + LEGEND_FONT_SIZE * 0.35)}">'
                    f"{_text(_truncate(one.label, LEGEND_MAX_CHARS))}</text></g>"
                )
        out.append("</g>")
        return out


def _empty_chart(title: str, prefix: str, width: int, height: int) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="100%" preserveAspectRatio="xMidYMid meet" role="img" '
            f'aria-labelledby="{prefix}-title" aria-describedby="{prefix}-desc" '
            f'font-family="{FONT_FAMILY}" font-size="{LEGEND_FONT_SIZE}" '
            f'fill="{TEXT_COLOUR}" class="chart chart-empty">',
            f'<title id="{prefix}-title">{_text(title)}</title>',
            f'<desc id="{prefix}-desc">{_text(gettext(EMPTY_TEXT))}.</desc>',
            f'<rect x="0.5" y="0.5" width="{width - 1}" height="{height - 1}" fill="none" '
            f'stroke="{GRID_COLOUR}" stroke-width="1"/>',
            f'<text x="{_n(width / 2)}" y="{_n(height / 2 + LEGEND_FONT_SIZE * 0.35)}" '
            f'text-anchor="middle">{_text(gettext(EMPTY_TEXT))}</text>',
            "</svg>",
        ]
    )


# --- helpers ---------------------------------------------------------------------------


def nice_ticks(low: float, high: float, max_intervals: int = 7) -> list[int]:
    """Integer ticks from at most ``min(0, low)`` to at least ``max(high, 1)``.

    The step is the smallest of 1, 2, 5, 10, 20, 50… giving no more than
    ``max_intervals`` intervals; 0 is always a tick.
    """
    low, high = min(0, low), max(high, 1)
    magnitude = 1
    while True:
        for multiple in (1, 2, 5):
            step = multiple * magnitude
            first, last = math.floor(low / step), math.ceil(high / step)
            if last - first <= max_intervals:
                return [n * step for n in range(first, last + 1)]
        magnitude *= 10


def _runs(values: Sequence[int | None]) -> list[list[int]]:
    """Indexes of consecutive values that are not None."""
    runs: list[list[int]] = []
    previous = None
    for index, value in enumerate(values):
        if value is None:
            previous = None
            continue
        if previous is None:
            runs.append([])
        runs[-1].append(index)
        previous = value
    return runs


def _style(number: int) -> tuple[str, str]:
    """Colour and dash pattern of the n-th series."""
    colour = PALETTE[number % len(PALETTE)]
    dash = DASHES[(number // len(PALETTE)) % len(DASHES)]
    return colour, dash


def _id_prefix(title, x_labels, series, y_label) -> str:
    """Ids unique to this chart's content, and the same for the same input."""
    key = repr((title, list(x_labels), [(s.label, list(s.values)) for s in series], y_label))
    return "chart-" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def _text(value: str) -> str:
    """User text, escaped for XML and HTML, without characters XML cannot hold."""
    return escape(_NOT_XML.sub("", str(value)), quote=True)


def _truncate(value: str, limit: int) -> str:
    value = str(value)
    return value if len(value) <= limit else value[: limit - 1].rstrip() + "…"


def _text_width(chars: int, size: int = FONT_SIZE) -> float:
    return chars * size * CHAR_WIDTH


def _number(value: float) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value) if isinstance(value, int) else f"{value:g}"


def _n(value: float) -> str:
    """A coordinate with at most one decimal, without a trailing ".0"."""
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text
