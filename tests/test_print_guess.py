"""Cards after a change (issue 17, item 2): a member renamed (or with a stat changed) has a
new card but the same text, so its previous cut is laid out at once, as a guess, and
checked in that same layout against the card measured whole: one layout, not two, and
never a different cut from the one fitting the card anew would give."""

from __future__ import annotations

import pytest
from django.core.cache import caches

from builder import printing
from builder.printing import cards, layout, render
from tests.test_print_speed import example, page_texts


@pytest.fixture
def layouts(monkeypatch):
    counted: list[str] = []
    real = render.document

    def counting(html):
        counted.append(html)
        return real(html)

    monkeypatch.setattr(render, "document", counting)
    return counted


def renamed(roster: dict, n: int = 3) -> dict:
    roster["members"][n]["name"] += " the Kid"
    return roster


def fresh(roster: dict) -> bytes:
    caches["pdf"].clear()
    return printing.cards_pdf(roster, parallel=False)


@pytest.mark.parametrize("system", ["bwg1", "bwg2", "rivals"])
def test_a_renamed_member_costs_one_layout_and_prints_as_fitted_anew(system, layouts):
    roster = example(system, 6)
    printing.cards_pdf(roster, parallel=False)  # every card fitted, and remembered
    layouts.clear()
    after = printing.cards_pdf(renamed(example(system, 6)), parallel=False)
    assert len(layouts) == 1
    assert "the Kid" in " ".join(page_texts(after))
    assert page_texts(after) == page_texts(fresh(renamed(example(system, 6))))


def test_a_guess_that_prints_more_cards_than_needed_is_not_kept(layouts):
    roster = example("bwg2", 4)
    printing.cards_pdf(roster, parallel=False)
    card = printing.prepare(roster).cards[0]
    # a wrong guess for the first member's text: a first card holding only its identity,
    # all its text on the back and a second card
    groups = layout.back_groups(card)
    wrong = [([], groups[:1], 8.0, 8.0), ([], groups[1:], 8.0, 8.0)]
    caches["pdf"].set(cards._text_digest(card), (0.0, wrong))
    roster = example("bwg2", 4)
    roster["members"][0]["name"] += " the Kid"
    layouts.clear()
    guessed = printing.cards_pdf(roster, parallel=False)
    assert len(layouts) == 2  # the guess laid out, found wrong, the right cut laid out
    assert page_texts(guessed) == page_texts(fresh(roster))


def test_a_guess_that_overflows_is_fitted_again():
    roster = example("bwg2", 4)
    card = printing.prepare(roster).cards[0]
    groups = layout.back_groups(card)
    # everything on the first front: it cannot fit a Tranquility Crew captain's card
    caches["pdf"].set(cards._text_digest(card), (0.0, [(groups, [], 8.0, 8.0)]))
    guessed = printing.cards_pdf(roster, parallel=False)
    assert page_texts(guessed) == page_texts(fresh(roster))


def test_a_unit_mate_renamed_refills_the_cards_that_name_him():
    import json

    from tests.test_print_speed import ROOT

    def gang() -> dict:  # twelve members, units of four (as bench_pdf.py's gf26 gang)
        roster = json.loads(
            (ROOT / "docs" / "examples" / "gf26-legal-iron-company.json").read_text()
        )
        source, roster["members"] = roster["members"], []
        for n in range(12):
            member = json.loads(json.dumps(source[n % len(source)]))
            member.pop("key", None)
            member["name"] = f"{member['name']} {n + 1}"
            roster["members"].append(member)
        return roster

    printing.cards_pdf(gang(), parallel=False)
    changed = gang()
    changed["members"][3]["name"] = "Cole the Kid"
    plans = cards._plans(printing.prepare(changed), None)
    before = {c.key: cards._text_digest(c) for c in printing.prepare(gang()).cards}
    mates = [p for p in plans if cards._text_digest(p.card) != before[p.card.key]]
    assert len(mates) >= 2  # their text names him: no guess by text
    assert any(p.guessed for p in mates)  # the cut refilled with the new words
    after = printing.cards_pdf(changed, parallel=False)
    assert "Cole the Kid" in " ".join(page_texts(after))
    assert page_texts(after) == page_texts(fresh(changed))


def test_the_guess_is_kept_by_the_cards_text_not_its_name():
    first, second = printing.prepare(example("bwg1", 2)).cards
    renamed_card = printing.prepare(renamed(example("bwg1", 2), 0)).cards[0]
    assert cards._text_digest(renamed_card) == cards._text_digest(first)
    assert cards._card_digest(renamed_card) != cards._card_digest(first)
    assert cards._text_digest(second) != cards._text_digest(first)


def test_a_cut_is_refilled_with_new_words_only_when_every_item_keeps_its_place():
    from rules.printing import Entry

    old = [
        layout.Group("section", "Skills", [Entry("Quick", "old words"), Entry("Tough", "x")]),
        layout.Group("notes", "In play", ["With Cole 4."]),
    ]
    new = [
        layout.Group("section", "Skills", [Entry("Quick", "new words"), Entry("Tough", "y")]),
        layout.Group("notes", "In play", ["With Cole the Kid."]),
    ]
    first, rest = replace_items(old[0], 1), replace_items(old[0], 1, start=1)
    rest.continued = True
    fitted = [([first], [rest, old[1]], 8.0, 8.0)]
    refilled = cards._refill(fitted, new)
    assert refilled == [
        (
            [replace_items(new[0], 1)],
            [replace_items(new[0], 1, start=1, continued=True), new[1]],
            8.0,
            8.0,
        )
    ]
    # an entry cut between two faces: its words cannot be placed without a layout
    cut = layout.Group("section", "Skills", [Entry("Tough (continued)", "x")], True, True)
    assert cards._refill([([first], [cut, old[1]], 8.0, 8.0)], new) is None
    # another shape: a group more or less
    assert cards._refill(fitted, new[:1]) is None
    assert cards._refill(fitted, [*new, new[1]]) is None


def replace_items(group, count, *, start=0, continued=False):
    from dataclasses import replace

    return replace(group, items=group.items[start : start + count], continued=continued)
