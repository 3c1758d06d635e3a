"""The morph (idiomorph, vendored, with app.js's callbacks) keeps what the player is doing:
the focus and the text being typed when an answer adds a field before the focused one,
the ``data-keep`` parts the server left out, every choice of a ``<select multiple>``,
the focus on "Earlier" when a member moves up, a <details> the player opened; and the
builder's panel and play mode's trackers are morphed (the same elements, changed), never
redrawn.

An element is known to be the same one by a mark set on the DOM node itself
(``el.__same``): a redrawn element would not have it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from builder.models import Gang
from builder.services import import_gang
from play import services as play_services
from play.models import Game
from tests.browser.builder import (
    answered,
    log_in,
    member_row,
    new_gang,
    open_member,
    recruit,
    settled,
    version,
)
from tests.browser.test_play import WAIT, more, roster, table_settled, tracker, value
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

# The builder's answer for the page as it is, fetched as htmx would (with no version
# header, so nothing is left out), then changed by ``edit`` (JavaScript, given the parsed
# answer as a <template>'s content) and served at ``url`` to a morph of #builder-root: the
# same path as every answer (htmx, the "morph" extension, app.js's callbacks). The request
# comes from #builder-root (``source``): htmx uses the extensions of the element a request
# comes from, and without one it would swap innerHTML.
ANSWER_WITH = """async edit => {
  const html = await fetch(location.href, {headers: {'HX-Request': 'true'}}).then(r => r.text());
  const template = document.createElement('template');
  template.innerHTML = html;
  new Function('answer', edit)(template.content);
  return template.innerHTML;
}"""


def serve_edited_answer(page: Page, url: str, edit: str) -> None:
    """Morph the builder's current answer, edited by ``edit``, into the page."""
    body = page.evaluate(ANSWER_WITH, edit)
    page.route(
        f"**{url}",
        lambda route: route.fulfill(status=200, content_type="text/html", body=body),
    )
    page.evaluate(
        "url => htmx.ajax('GET', url, "
        "{source: '#builder-root', target: '#builder-root', swap: 'morph'})",
        url,
    )
    settled(page)


def mark(page: Page, selector: str) -> None:
    page.eval_on_selector_all(selector, "els => els.forEach(el => { el.__same = true; })")


def same(page: Page, selector: str) -> bool:
    """Every element ``selector`` finds is one that was marked (none was redrawn)."""
    return page.eval_on_selector_all(
        selector, "els => els.length > 0 && els.every(el => el.__same === true)"
    )


def test_a_field_added_before_the_focused_one_keeps_focus_and_typed_text(page: Page, live_server):
    new_gang(page, live_server.url, "morph1", "Inserted Field")
    recruit(page, "Ann", "professional")
    panel = open_member(page, "Ann")
    field_id = panel.locator('input[name$="-points-str"]').get_attribute("id")
    field = page.locator(f"#{field_id}")
    field.focus()
    field.press("Control+a")
    page.keyboard.type("7")  # typed, not sent (no change event yet)
    mark(page, f"#{field_id}")
    # The answer has one more field just before it: a copy of its own field group (same
    # tag, same class, no id of its own), as a form that gains a field draws it.
    serve_edited_answer(
        page,
        "/inserted-field/",
        f"""
        const input = answer.getElementById('{field_id}');
        let group = input.parentElement;
        while (group.parentElement && group.parentElement.children.length < 2) {{
          group = group.parentElement;
        }}
        const copy = group.cloneNode(true);
        copy.querySelectorAll('[id]').forEach(el => {{ el.id = 'added-' + el.id; }});
        copy.querySelectorAll('[for]').forEach(el => {{
          el.setAttribute('for', 'added-' + el.getAttribute('for'));
        }});
        copy.querySelectorAll('[name]').forEach(el => {{ el.name = 'added-' + el.name; }});
        copy.querySelector('input').setAttribute('data-testid', 'added-field');
        group.parentElement.insertBefore(copy, group);
        """,
    )
    added = page.locator('[data-testid="added-field"]')
    expect(added).to_have_count(1)
    assert added.evaluate(
        "(el, id) => !!(el.compareDocumentPosition(document.getElementById(id))"
        " & Node.DOCUMENT_POSITION_FOLLOWING)",
        field_id,
    ), "the added field is not before the focused one"
    assert same(page, f"#{field_id}"), "the focused field was redrawn"
    assert page.evaluate("document.activeElement.id") == field_id, "the focus was lost"
    expect(field).to_have_value("7")
    expect(added).not_to_have_value("7")
    # What was typed is still the player's to send.
    page.keyboard.type("0")
    expect(field).to_have_value("70")


def test_data_keep_parts_stay_as_the_page_shows_them(page: Page, live_server):
    new_gang(page, live_server.url, "morph2", "Kept Rows")
    recruit(page, "Ann", "professional")
    recruit(page, "Bea", "professional")
    panel = open_member(page, "Ann")
    bea = member_row(page, "Bea")
    bea_id = bea.get_attribute("id")
    before = bea.inner_html()
    assert "Bea" in before
    mark(page, f"#{bea_id}")
    mark(page, "#member-panel")
    plus = panel.locator('button[value="str:+"]')
    plus.focus()
    with page.expect_response(lambda r: r.request.method == "POST") as response:
        answered(page, lambda: page.keyboard.press("Enter"))
    body = response.value.text()
    # The server left Bea's row out: an empty placeholder the page keeps as it is.
    assert f'<li id="{bea_id}" data-keep></li>' in body
    assert same(page, f"#{bea_id}"), "Bea's row was redrawn"
    assert bea.inner_html() == before
    assert bea.get_attribute("data-keep") is None
    # The open member's panel changed in place: the same element, the focus still on +.
    assert same(page, "#member-panel"), "the panel was redrawn, not morphed"
    expect(panel.locator('input[name$="-points-str"]')).to_have_value("2")
    assert plus.evaluate("el => el === document.activeElement"), "the focus left +"
    assert page.evaluate("window.__noReload") == "still here"


MULTI = """
  const builder = answer.getElementById('builder');
  const select = (id, chosen) => '<select multiple id="' + id + '" name="' + id + '">'
    + ['a', 'b', 'c', 'd'].map(v => '<option value="' + v + '"'
        + (chosen.includes(v) ? ' selected' : '') + '>' + v + '</option>').join('')
    + '</select>';
  // A live form (sent on change, its answer morphed in as every answer is) and a plain one.
  const live = document.createElement('form');
  live.id = 'test-live';
  live.setAttribute('hx-post', '/multi-sent/');
  live.setAttribute('hx-trigger', 'change');
  live.innerHTML = select('test-multi', LIVE);
  const plain = document.createElement('form');
  plain.id = 'test-plain';
  plain.innerHTML = select('test-held', HELD);
  builder.prepend(live, plain);
"""


def multi_answer(live: list[str], held: list[str]) -> str:
    return f"const LIVE = {live!r}, HELD = {held!r};" + MULTI


def chosen(page: Page, select: str) -> list[str]:
    return page.eval_on_selector(select, "s => [...s.selectedOptions].map(o => o.value)")


def test_a_select_multiple_keeps_every_choice(page: Page, live_server):
    """(The builder has no <select multiple> of its own: two are added to its answers.)"""
    new_gang(page, live_server.url, "morph3", "Many Choices")
    recruit(page, "Ann", "professional")
    serve_edited_answer(page, "/multi-1/", multi_answer(["a", "c"], ["a"]))
    assert chosen(page, "#test-multi") == ["a", "c"]
    mark(page, "#test-multi, #test-held")
    # The player picks two; the form is sent and the answer chooses three (say the server
    # adds one): all three are chosen, in the same element.
    sent = page.evaluate(ANSWER_WITH, multi_answer(["a", "b", "d"], ["a"]))
    page.route(
        "**/multi-sent/",
        lambda route: route.fulfill(status=200, content_type="text/html", body=sent),
    )
    with page.expect_response("**/multi-sent/"):
        page.select_option("#test-multi", ["b", "d"])
    page.wait_for_function(
        "() => [...document.getElementById('test-multi').selectedOptions]"
        ".map(o => o.value).join() === 'a,b,d'"
    )
    assert same(page, "#test-multi")
    # A choice changed and not sent yet keeps every option the player chose when an answer
    # (to something sent before) comes.
    page.select_option("#test-held", ["b", "c", "d"])
    serve_edited_answer(page, "/multi-2/", multi_answer(["a", "b", "d"], ["a"]))
    assert chosen(page, "#test-held") == ["b", "c", "d"]
    assert chosen(page, "#test-multi") == ["a", "b", "d"]
    assert same(page, "#test-multi, #test-held")


def test_moving_a_member_up_keeps_the_focus_on_earlier(page: Page, live_server):
    new_gang(page, live_server.url, "morph4", "Marching Order")
    for name in ("Ann", "Bea", "Cat"):
        recruit(page, name, "professional")
    panel = open_member(page, "Cat")
    earlier = panel.locator("button:has-text('Earlier')")
    earlier_id = earlier.get_attribute("id")
    earlier.focus()
    mark(page, f"#{earlier_id}")
    mark(page, "#member-panel")
    answered(page, lambda: page.keyboard.press("Enter"))
    names = page.eval_on_selector_all(
        '[data-testid="member"]', "rows => rows.map(r => r.dataset.memberName)"
    )
    assert names == ["Ann", "Cat", "Bea"]
    assert page.evaluate("document.activeElement.id") == earlier_id, "the focus was lost"
    assert same(page, f"#{earlier_id}") and same(page, "#member-panel")
    # Again, with the keyboard only: Cat goes first, and "Earlier" (now disabled) is where
    # the focus was; Enter on "Later" moves her back.
    v = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => Number(document.getElementById('builder').dataset.version) > v", arg=v
    )
    settled(page)
    names = page.eval_on_selector_all(
        '[data-testid="member"]', "rows => rows.map(r => r.dataset.memberName)"
    )
    assert names == ["Cat", "Ann", "Bea"]
    assert same(page, "#member-panel")
    assert Gang.objects.get().members.order_by("position").first().name == "Cat"


def test_play_trackers_are_morphed_by_taps_and_by_the_poll(page: Page, live_server):
    User.objects.create_user("rider", password=PASSWORD)
    rider = User.objects.get(username="rider")
    gang = import_gang(rider, roster("rivals-legal-red-jacks-gang.json"))
    log_in(page, live_server.url, "rider")
    page.goto(f"{live_server.url}/play/start/gang/{gang.pk}/")
    page.click('[data-testid="start"]')
    expect(tracker(page, "Sarah")).to_have_count(1)
    game = Game.objects.get()
    table_settled(page, 0)
    mark(page, '[data-testid="tracker"]')
    sarah_before = value(page, "Sarah", "actions").inner_text()
    more(page, "Sarah")  # the player opens her "Wounds, out…": it stays open
    sarah_more = tracker(page, "Sarah").locator("details.trk-more")
    expect(sarah_more).to_have_attribute("open", "")
    jesse_html = tracker(page, "Jesse").inner_html()

    # A tap (play.js's own morph): Sarah's tracker changes in place, the others are kept.
    minus = tracker(page, "Sarah").locator('[data-testid="minus-actions"]')
    minus.focus()
    page.keyboard.press("Enter")
    table_settled(page, 1)
    expect(value(page, "Sarah", "actions")).to_have_text(str(int(sarah_before) - 1))
    expect(page.locator('[data-testid="waiting"]')).to_have_count(0)
    assert same(page, '[data-testid="tracker"]'), "a tracker was redrawn"
    assert tracker(page, "Jesse").inner_html() == jesse_html
    assert minus.evaluate("el => el === document.activeElement"), "the focus left the minus"
    expect(sarah_more).to_have_attribute("open", "")

    # The other player's tap comes with the poll (htmx, the "morph" extension).
    jesse_before = value(page, "Jesse", "actions").inner_text()
    play_services.tap(game, rider, "wound", {"member": "a/3", "amount": 1}, "elsewhere")
    expect(value(page, "Jesse", "actions")).to_have_text(str(int(jesse_before) - 1), timeout=WAIT)
    table_settled(page, 2)
    expect(sarah_more).to_have_attribute("open", "")
    assert same(page, '[data-testid="tracker"]'), "a tracker was redrawn by the poll"
    expect(value(page, "Sarah", "actions")).to_have_text(str(int(sarah_before) - 1))
