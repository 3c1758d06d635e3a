"""Server-made SVG line charts for campaigns (campaigns/charts.py): plain Python, no DB."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest
from pypdf import PdfReader

from campaigns.charts import (
    DASHES,
    EMPTY_TEXT,
    PALETTE,
    Series,
    chart_table,
    line_chart,
    nice_ticks,
)
from rules.pdf import render_document

SVG = "{http://www.w3.org/2000/svg}"
X_LABELS = ["Start", "1", "2", "3"]
SARAH = Series("Sarah", [0, 5, 9, 14])
JAMES = Series("James", [None, 2, 4, 6])


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # raises if the output is not well-formed XML


def find_all(root: ET.Element, tag: str) -> list[ET.Element]:
    return list(root.iter(SVG + tag))


def group(root: ET.Element, name: str) -> ET.Element:
    (found,) = [g for g in find_all(root, "g") if g.get("class") == name]
    return found


def markers_of(root: ET.Element) -> list[ET.Element]:
    """The data points: circles in the series groups (the legend has its own)."""
    series = [g for g in find_all(root, "g") if g.get("class") == "chart-series"]
    return [c for g in series for c in g if c.tag == SVG + "circle"]


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    return tuple(float(n) for n in root.get("viewBox").split())


def y_ticks(root: ET.Element) -> list[int]:
    return [int(text_of(t)) for t in group(root, "chart-y-axis").iter(SVG + "text")]


def chart(series, x_labels=X_LABELS, **kwargs) -> ET.Element:
    return parse(line_chart(title="Reputation", x_labels=x_labels, series=series, **kwargs))


# --------------------------------------------------------------------------- the element


def test_the_svg_scales_to_its_container_and_names_itself():
    root = chart([SARAH, JAMES], y_label="Reputation")
    assert root.tag == SVG + "svg"
    assert root.get("viewBox").startswith("0 0 640 ")
    assert root.get("width") == "100%"
    assert root.get("height") is None
    assert root.get("preserveAspectRatio") == "xMidYMid meet"
    assert root.get("role") == "img"
    assert root.get("font-family") == "DejaVu Sans, sans-serif"
    title, desc = root[0], root[1]
    assert (title.tag, title.text) == (SVG + "title", "Reputation")
    assert desc.tag == SVG + "desc"
    assert root.get("aria-labelledby") == title.get("id")
    assert root.get("aria-describedby") == desc.get("id")
    assert "Reputation" in [text_of(t) for t in find_all(root, "text")]  # the y label


def test_only_presentation_attributes_no_css_scripts_or_external_resources():
    svg = line_chart(title="T", x_labels=X_LABELS, series=[SARAH, JAMES], y_label="Rep")
    root = parse(svg)
    for element in root.iter():
        assert element.tag.removeprefix(SVG) not in {"style", "script", "image", "use", "a"}
        assert "style" not in element.attrib
        assert not any(a.startswith("on") for a in element.attrib)
        assert not any("href" in a for a in element.attrib)
    assert "var(" not in svg and "url(" not in svg and "@font-face" not in svg


def test_text_is_legible_when_the_chart_shrinks_to_a_phone():
    root = chart([SARAH, JAMES] * 3, y_label="Reputation")
    sizes = [float(e.get("font-size")) for e in root.iter() if e.get("font-size")]
    assert sizes and min(sizes) >= 11
    assert view_box(root)[2] == 640  # so at 375 px wide the text is at least 11 * 375/640


def test_the_same_input_gives_the_same_string_and_ids_differ_between_charts():
    first = line_chart(title="Reputation", x_labels=X_LABELS, series=[SARAH, JAMES])
    again = line_chart(title="Reputation", x_labels=X_LABELS, series=[SARAH, JAMES])
    other = line_chart(title="Gang totals", x_labels=X_LABELS, series=[SARAH, JAMES])
    assert first == again
    ids = [e.get("id") for e in parse(first).iter() if e.get("id")]
    other_ids = [e.get("id") for e in parse(other).iter() if e.get("id")]
    assert len(set(ids)) == len(ids) and not set(ids) & set(other_ids)


def test_series_must_have_one_value_per_x_label():
    with pytest.raises(ValueError, match="3 values for 4 x labels"):
        line_chart(title="T", x_labels=X_LABELS, series=[Series("Short", [1, 2, 3])])


# --------------------------------------------------------------------------- lines and markers


def test_one_polyline_per_series_with_two_points_and_a_marker_per_value():
    lonely = Series("Lonely", [None, None, 3, None])
    root = chart([SARAH, JAMES, lonely])
    assert len(find_all(root, "polyline")) == 2  # Sarah and James; Lonely is only a dot
    markers = markers_of(root)
    assert len(markers) == 4 + 3 + 1
    titles = [text_of(m) for m in markers]
    assert "Sarah: 0 at Start" in titles and "James: 6 at 3" in titles
    assert "Lonely: 3 at 2" in titles


def test_lines_break_where_a_value_is_missing():
    broken = Series("Back from the dead", [1, 2, None, 4, 5, None, 7])
    root = chart([broken], x_labels=["Start", *"123456"])
    polylines = find_all(root, "polyline")
    assert len(polylines) == 2  # [1, 2] and [4, 5]; the 7 stands alone
    assert [len(p.get("points").split()) for p in polylines] == [2, 2]
    assert len(markers_of(root)) == 5


def test_x_labels_are_evenly_spaced_and_a_single_label_still_draws_a_dot():
    root = chart([SARAH])
    xs = [float(p.split(",")[0]) for p in find_all(root, "polyline")[0].get("points").split()]
    gaps = {round(b - a, 1) for a, b in pairwise(xs)}
    assert len(gaps) == 1
    single = chart([Series("Sarah", [4]), Series("James", [-2])], x_labels=["Start"])
    assert find_all(single, "polyline") == []
    assert len(markers_of(single)) == 2
    assert len({c.get("cx") for c in markers_of(single)}) == 1
    assert "Start" in [text_of(t) for t in find_all(group(single, "chart-x-axis"), "text")]


def test_many_x_labels_are_thinned_so_they_never_overlap_and_keep_the_ends():
    labels = ["Start", *(str(n) for n in range(1, 61))]
    root = chart([Series("Gang", [n % 9 for n in range(61)])], x_labels=labels)
    texts = find_all(group(root, "chart-x-axis"), "text")
    shown = [text_of(t) for t in texts]
    assert shown[0] == "Start" and shown[-1] == "60" and len(shown) < 61
    xs = [float(t.get("x")) for t in texts]
    assert min(b - a for a, b in pairwise(xs)) >= 5 * 13 * 0.62
    assert len(markers_of(root)) == 61  # every point is still drawn


def test_each_series_has_its_own_colour_then_dashes_once_the_palette_is_used_up():
    assert len(PALETTE) >= 8 and len(set(PALETTE)) == len(PALETTE)
    many = [Series(f"Outlaw {n}", [n, n + 1, n + 2, n + 3]) for n in range(len(PALETTE) + 2)]
    root = chart(many)
    series = [g for g in find_all(root, "g") if g.get("class") == "chart-series"]
    styles = [(g.get("stroke"), g[0].get("stroke-dasharray")) for g in series]
    assert len(set(styles)) == len(styles)
    assert [s for s, _ in styles[: len(PALETTE)]] == list(PALETTE)
    assert all(dash is None for _, dash in styles[: len(PALETTE)])
    assert styles[len(PALETTE)] == (PALETTE[0], DASHES[1])


# --------------------------------------------------------------------------- the y axis


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (0, 0, [0, 1]),
        (0, 1, [0, 1]),
        (0, 6, [0, 1, 2, 3, 4, 5, 6]),
        (0, 14, [0, 2, 4, 6, 8, 10, 12, 14]),
        (3, 14, [0, 2, 4, 6, 8, 10, 12, 14]),
        (-3, 14, [-5, 0, 5, 10, 15]),
        (-7, -2, [-8, -6, -4, -2, 0, 2]),
        (-6, -2, [-6, -5, -4, -3, -2, -1, 0, 1]),
        (0, 480, [0, 100, 200, 300, 400, 500]),
    ],
)
def test_ticks_are_nice_integers_from_zero_or_below(low, high, expected):
    assert nice_ticks(low, high, 7) == expected


@pytest.mark.parametrize(("low", "high"), [(0, 1), (-1, 3), (-40, 7), (5, 1234), (-999, -998)])
def test_ticks_always_include_zero_and_cover_the_data(low, high):
    ticks = nice_ticks(low, high, 7)
    step = ticks[1] - ticks[0]
    assert 0 in ticks and ticks[0] <= low and ticks[-1] >= max(high, 1)
    assert re.fullmatch(r"[125]0*", str(step))
    assert all(b - a == step for a, b in pairwise(ticks))
    assert len(ticks) - 1 <= 7


def test_negative_values_get_a_tick_at_or_below_the_minimum():
    root = chart([Series("Down on his luck", [0, -3, -7, -4]), SARAH])
    ticks = y_ticks(root)
    assert min(ticks) <= -7 and 0 in ticks and max(ticks) >= 14
    gridlines = find_all(group(root, "chart-y-axis"), "line")
    assert len(gridlines) == len(ticks) + 1  # one per tick, and the axis itself
    lowest_drawn = max(float(c.get("cy")) for c in markers_of(root))
    x_axis = float(group(root, "chart-x-axis").find(SVG + "line").get("y1"))
    assert lowest_drawn <= x_axis


def test_all_values_zero_still_has_a_range():
    assert y_ticks(chart([Series("New", [0, 0, 0, 0])])) == [0, 1]


# --------------------------------------------------------------------------- user text


def test_labels_are_escaped_and_appear_as_text():
    nasty = 'Bob <script>alert("x")</script> & Sons'
    svg = line_chart(
        title="Gangs & <b>friends</b>", x_labels=["Start", "<i>1</i>"],
        series=[Series(nasty, [1, 2])], y_label="<img src=x>",
    )  # fmt: skip
    assert "<script" not in svg and "<b>" not in svg and "<img" not in svg and "<i>" not in svg
    root = parse(svg)
    tags = {e.tag.removeprefix(SVG) for e in root.iter()}
    assert not tags & {"script", "b", "i", "img"}
    assert root[0].text == "Gangs & <b>friends</b>"
    texts = [text_of(e) for e in root.iter()]
    assert f"{nasty}: 2 at <i>1</i>" in texts  # the marker's title
    assert "<img src=x>" in texts
    assert "<i>1</i>" in [text_of(t) for t in find_all(group(root, "chart-x-axis"), "text")]


def test_characters_xml_cannot_hold_are_dropped_so_the_page_still_parses():
    root = chart([Series("Bell\x07 and\x00 null\x1b", [1, 2, 3, 4])])
    assert "Bell and null" in [text_of(t) for t in find_all(group(root, "chart-legend"), "text")]


# --------------------------------------------------------------------------- legend


def test_the_legend_names_every_series_under_the_plot():
    root = chart([SARAH, JAMES])
    legend = group(root, "chart-legend")
    items = [g for g in legend if g.get("class") == "chart-legend-item"]
    assert [text_of(i.find(SVG + "text")) for i in items] == ["Sarah", "James"]
    plot_bottom = max(float(c.get("cy")) for c in markers_of(root))
    assert all(float(i.find(SVG + "text").get("y")) > plot_bottom for i in items)


def test_long_labels_are_shortened_in_the_legend_with_the_full_text_in_its_title():
    label = "Sarah 'Sidewinder' McAllister (Red Jack's Gang)"
    root = chart([Series(label, [1, 2, 3, 4])])
    (item,) = [g for g in find_all(root, "g") if g.get("class") == "chart-legend-item"]
    shown = text_of(item.find(SVG + "text"))
    assert shown.endswith("…") and len(shown) <= 28 and label.startswith(shown[:-1])
    assert item.find(SVG + "title").text == label


def test_the_legend_wraps_and_the_chart_grows_to_fit_it():
    few = chart([SARAH])
    labels = [f"Outlaw number {n} of the Very Long Gang Name" for n in range(14)]
    many = chart([Series(label, [n, n, n, n]) for n, label in enumerate(labels)])
    rows = {i.find(SVG + "text").get("y") for i in group(many, "chart-legend")}
    assert len(rows) >= 4
    assert view_box(many)[3] > view_box(few)[3] + 3 * 20
    assert view_box(many)[2] == view_box(few)[2] == 640
    for text in find_all(group(many, "chart-legend"), "text"):  # every item inside the box
        assert float(text.get("y")) < view_box(many)[3]
        assert float(text.get("x")) + len(text_of(text)) * 14 * 0.62 <= 640


# --------------------------------------------------------------------------- empty, desc, table


@pytest.mark.parametrize(
    ("x_labels", "series"),
    [
        (X_LABELS, []),
        (X_LABELS, [Series("Nobody yet", [None, None, None, None])]),
        ([], [Series("No encounters", [])]),
    ],
)
def test_nothing_to_draw_says_so(x_labels, series):
    root = parse(line_chart(title="Reputation", x_labels=x_labels, series=series))
    assert root.get("role") == "img" and root.get("width") == "100%"
    assert root[0].text == "Reputation"
    assert EMPTY_TEXT in [text_of(t) for t in find_all(root, "text")]
    assert EMPTY_TEXT == "No encounters recorded yet"
    assert find_all(root, "polyline") == [] and find_all(root, "circle") == []


def test_desc_summarises_the_final_values_for_screen_readers():
    root = chart([Series("Sarah", [0, 5, 9, 14]), Series("James", [None, 2, 4, 6])])
    assert root[1].text == "After 3: Sarah 14, James 6."


def test_desc_gives_the_last_value_of_a_series_that_left_early():
    dead = Series("Bob", [3, 4, None, None])
    root = chart([SARAH, dead, Series("Never", [None] * 4)])
    assert root[1].text == "After 3: Sarah 14, Bob 4 (last at 1)."


def test_chart_table_has_a_header_then_a_row_per_series():
    rows = chart_table(x_labels=X_LABELS, series=[SARAH, JAMES, Series("<b>", [-2, 0, 1, 2])])
    assert rows == [
        ["", "Start", "1", "2", "3"],
        ["Sarah", "0", "5", "9", "14"],
        ["James", "—", "2", "4", "6"],
        ["<b>", "-2", "0", "1", "2"],  # plain text: the template escapes it
    ]
    assert chart_table(x_labels=X_LABELS, series=[]) == [["", "Start", "1", "2", "3"]]


# --------------------------------------------------------------------------- in a PDF


def test_the_chart_lays_out_in_weasyprint(tmp_path):
    series = [
        Series("Sarah (Red Jack's Gang)", [0, 5, None, -2]),
        Series("James & <Co>", [None, 2, 4, 6]),
    ]
    svg = line_chart(title="Reputation", x_labels=X_LABELS, series=series, y_label="Rep")
    html = (
        "<html><head><style>@page { size: A4; margin: 10mm } body { margin: 0 }</style></head>"
        f'<body><div id="chart" style="width: 160mm">{svg}</div></body></html>'
    )
    document = render_document(html, tmp_path)
    wrapper = next(b for b in _boxes(document.pages[0]._page_box) if _id(b) == "chart")
    (drawn,) = [b for b in _boxes(wrapper) if str(getattr(b, "element_tag", "")) == SVG + "svg"]
    _, _, vb_width, vb_height = view_box(parse(svg))
    assert drawn.width == pytest.approx(wrapper.width, abs=1)
    assert drawn.height == pytest.approx(drawn.width * vb_height / vb_width, rel=0.02)
    content = document.write_pdf()
    assert content.startswith(b"%PDF")
    text = PdfReader(io.BytesIO(content)).pages[0].extract_text()
    assert "Sarah" in text and "James & <Co>" in text


def _boxes(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def _id(box) -> str | None:
    element = getattr(box, "element", None)
    return None if element is None else element.get("id")
