"""The builder with the keyboard only, at 375 px: typed values left with Tab or Shift+Tab set
exactly what was typed (and the focus goes on where Tab sends it, and stays there); the
choices of "Roll a character" stay as picked; nothing is wider than the phone and every
control is at least 24 x 24 px; a removed member comes back with Undo; and one gang of
every system built with Tab, Shift+Tab, Enter, Space, the arrow keys and typing, no
mouse (issue 25)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Locator, Page, expect

from builder import services
from builder.models import Gang
from builder.roster import evaluate_gang
from tests.browser.builder import member_row, panel, settled, version
from tests.conftest import PASSWORD
from tests.factories import recruit

pytestmark = pytest.mark.browser

IS_OPEN = re.compile(r"\bis-open\b")


# --------------------------------------------------------------------------- helpers


def focused(page: Page) -> str:
    """What has the keyboard focus: its id, else its name and value."""
    return page.evaluate(
        "() => { const e = document.activeElement; if (!e || e === document.body) return '';"
        " return e.id || `${e.tagName}:${e.name || ''}:${e.value || ''}`; }"
    )


def is_focused(locator: Locator) -> bool:
    return locator.evaluate("el => el === document.activeElement")


def reach(page: Page, target: Locator, most: int = 80) -> None:
    """Press Tab (or Shift+Tab, when the target comes before the focus) until ``target``
    has the focus, as a player finds a control with the keyboard."""
    if page.evaluate("!!document.getElementById('builder')"):
        settled(page)
    backwards = target.evaluate(
        "el => { const a = document.activeElement;"
        " return !!a && a !== document.body &&"
        " !!(a.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING); }"
    )
    key = "Shift+Tab" if backwards else "Tab"
    for _ in range(most):
        if is_focused(target):
            return
        page.keyboard.press(key)
    assert is_focused(target), f"{key} never reached the control (focus on {focused(page)!r})"


def after_answer(page: Page, act: Callable[[], None]) -> None:
    """Do ``act`` with the keyboard and wait for its answer, live on the page."""
    settled(page)
    before = version(page)
    act()
    page.wait_for_function(
        "v => Number(document.getElementById('builder').dataset.version) > v", arg=before
    )
    idle(page)


def idle(page: Page) -> None:
    """Settled, and no change still on its way."""
    settled(page)
    page.wait_for_function("!document.querySelector('.htmx-request')")
    settled(page)


def stays_put(page: Page, act: Callable[[], None], expect_focus: Locator) -> None:
    """Do ``act`` (which moves the focus to ``expect_focus``, and changes the gang), wait
    for the answer; then the focus is on ``expect_focus`` and neither it nor the page moved
    since the focus got there."""
    settled(page)
    before = version(page)
    act()
    assert is_focused(expect_focus), f"the focus went to {focused(page)!r}"
    top = expect_focus.bounding_box()["y"]
    scroll = page.evaluate("window.scrollY")
    page.wait_for_function(
        "v => Number(document.getElementById('builder').dataset.version) > v", arg=before
    )
    idle(page)
    assert is_focused(expect_focus), f"after the answer the focus is on {focused(page)!r}"
    assert abs(expect_focus.bounding_box()["y"] - top) <= 2, "the control moved on the screen"
    assert abs(page.evaluate("window.scrollY") - scroll) <= 2, "the page scrolled"


def logged_in(page: Page, live_server, username: str) -> User:
    """A new player, logged in with the keyboard (typed, Enter)."""
    call_command("load_content", verbosity=0)
    user = User.objects.create_user(username, password=PASSWORD)
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").press_sequentially(username)
    page.locator("#id_password").press_sequentially(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.locator('[data-testid="nav-user"]')).to_have_text(username)
    return user


# --------------------------------------------------------------------------- defect 1


def test_a_typed_attribute_left_with_tab_or_shift_tab_is_set_exactly(page: Page, live_server):
    user = logged_in(page, live_server, "typist")
    gang = services.create_gang(user, system="bwg1", name="Typed Gang", limit=None)
    jesse = recruit(gang, "Jesse", "leader", "gunslinger", int=3, str=2)
    page.goto(f"{live_server.url}/gangs/{gang.pk}/?open={jesse.pk}")
    settled(page)
    box = panel(page)
    int_field = box.locator('input[name$="-points-int"]')
    plus = box.locator(f"#m{jesse.pk}-int-plus")
    minus = box.locator(f"#m{jesse.pk}-int-minus")
    left = box.locator('[data-testid="points-left"] strong')
    expect(int_field).to_have_value("4")
    expect(left).to_have_text("15")

    # Int 4, type 2, Tab: Int is 2 (not 5), and the focus is on Int's + and stays there.
    reach(page, int_field)
    page.keyboard.type("2")
    stays_put(page, lambda: page.keyboard.press("Tab"), plus)
    expect(int_field).to_have_value("2")
    expect(left).to_have_text("17")
    jesse.refresh_from_db()
    assert jesse.data["points"]["int"] == 1

    # Type 3, Shift+Tab: Int is 3 (not 1), and the focus is on Int's minus and stays there.
    page.keyboard.press("Shift+Tab")
    assert is_focused(int_field)
    page.keyboard.type("3")
    stays_put(page, lambda: page.keyboard.press("Shift+Tab"), minus)
    expect(int_field).to_have_value("3")
    expect(left).to_have_text("16")
    jesse.refresh_from_db()
    assert jesse.data["points"]["int"] == 2

    # The button the focus landed on still does its own job with Enter: one point.
    stays_put(page, lambda: page.keyboard.press("Enter"), minus)
    expect(int_field).to_have_value("2")
    # Str, typed and left with Tab, then on to its + with the keyboard: Str is as typed.
    str_field = box.locator('input[name$="-points-str"]')
    reach(page, str_field)
    page.keyboard.type("5")
    stays_put(page, lambda: page.keyboard.press("Tab"), box.locator(f"#m{jesse.pk}-str-plus"))
    expect(str_field).to_have_value("5")
    jesse.refresh_from_db()
    assert (jesse.data["points"]["str"], jesse.data["points"]["int"]) == (4, 1)
    assert Gang.objects.get(pk=gang.pk).version == version(page)


def choose(page: Page, select: Locator, value: str) -> None:
    """Pick an option of the focused select with the arrow keys (as a closed select takes
    them on a phone-sized Chromium: each press moves the choice and says it changed)."""
    assert is_focused(select)
    values = select.evaluate("s => [...s.options].map(o => o.value)")
    steps = values.index(value) - values.index(select.input_value())
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowDown" if steps > 0 else "ArrowUp")
    expect(select).to_have_value(value)


# --------------------------------------------------------------------------- defect 2


def test_rolled_characters_keep_the_type_and_experience_picked(page: Page, live_server):
    user = logged_in(page, live_server, "renos")
    gang = services.create_gang(user, system="gunfight", name="Reno Gang", limit=None)
    page.goto(f"{live_server.url}/gangs/{gang.pk}/")
    settled(page)
    kind = page.locator("#id_roll-character_type")
    experience = page.locator("#id_roll-experience")
    roll = page.locator('[data-testid="roll"]')
    reach(page, kind)
    choose(page, kind, "outlaw")
    page.keyboard.press("Tab")
    choose(page, experience, "veteran")
    page.keyboard.press("Tab")
    assert is_focused(roll)
    for number in range(1, 5):
        after_answer(page, lambda: page.keyboard.press("Enter"))
        expect(page.locator('[data-testid="member"]')).to_have_count(number)
        # What the player picked is still picked, and Roll still has the focus.
        expect(kind).to_have_value("outlaw")
        expect(experience).to_have_value("veteran")
        assert is_focused(roll), f"the focus went to {focused(page)!r}"
    kinds = [(m.data["character_type"], m.data["experience"]) for m in gang.members.all()]
    assert kinds == [("outlaw", "veteran")] * 4
    rows = page.locator('[data-testid="member"] .row-kind')
    expect(rows).to_have_text(["Outlaw · Veteran"] * 4)
    # A reload shows them too.
    page.reload()
    expect(kind).to_have_value("outlaw")
    expect(experience).to_have_value("veteran")


def test_without_javascript_the_roll_keeps_them_too(page_without_js: Page, live_server):
    page = page_without_js
    user = logged_in(page, live_server, "plainreno")
    gang = services.create_gang(user, system="gunfight", name="Plain Renos", limit=None)
    page.goto(f"{live_server.url}/gangs/{gang.pk}/")
    page.select_option("#id_roll-character_type", "gambler")
    page.select_option("#id_roll-experience", "greenhorn")
    for number in range(1, 3):
        page.locator('[data-testid="roll"]').press("Enter")
        expect(page.locator('[data-testid="member"]')).to_have_count(number)
        expect(page.locator("#id_roll-character_type")).to_have_value("gambler")
        expect(page.locator("#id_roll-experience")).to_have_value("greenhorn")
    assert [m.data["character_type"] for m in gang.members.all()] == ["gambler", "gambler"]


# --------------------------------------------------------------------------- defect 3 and sizes

#: Every control of the builder page (with every <details> opened) that is smaller than
#: 24 x 24 CSS px (WCAG 2.5.8), and every element that reaches past the right edge.
SMALL_CONTROLS = """() => {
  document.querySelectorAll('#builder details').forEach(d => { d.open = true; });
  const small = [];
  const controls = 'button, a[href], input:not([type=hidden]), select, textarea, summary';
  for (const el of document.getElementById('builder').querySelectorAll(controls)) {
    const box = el.getBoundingClientRect();
    if (!box.width && !box.height) continue;  // not shown (a button for pages without script)
    if (box.width < 23.9 || box.height < 23.9) {
      const what = el.id || el.name || el.className || el.textContent.trim().slice(0, 30);
      small.push(`${el.tagName} ${what}: ${box.width.toFixed(1)} x ${box.height.toFixed(1)}`);
    }
  }
  return small;
}"""
TOO_WIDE = """() => {
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > document.documentElement.clientWidth + 0.5) {
      wide.push(`${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 20)}"`);
    }
  }
  return [document.documentElement.scrollWidth - window.innerWidth, wide.slice(0, 5)];
}"""
#: The bar's Print menu, open: its left and right edges and its width.
PRINT_MENU = """() => {
  const box = document.querySelector('#bar-print .print-form').getBoundingClientRect();
  return [box.left, box.right, box.width];
}"""


def test_nothing_is_wider_than_a_phone_and_every_control_is_big_enough(page: Page, live_server):
    from builder.services import import_gang
    from rules.roster import read_roster
    from tests.test_roster_files import EXAMPLES

    user = logged_in(page, live_server, "narrow")
    # bwg1's first Gambler (+1 Qui, right-hand column), Doctor (+1 Int) and Bounty Hunter.
    bonuses = services.create_gang(user, system="bwg1", name="Plus One Gang", limit=None)
    recruit(bonuses, "Slick Sam", "leader", "gambler", qui=4)
    doc = recruit(bonuses, "Doc Holliday of the Long Name", "professional", "doctor", int=3)
    recruit(bonuses, "Bounty Bill", "professional", "bounty_hunter", str=2)
    gangs = [bonuses, *(import_gang(user, read_roster(p.read_bytes())) for p in EXAMPLES)]
    problems = []
    for language in ("en-gb", "fr"):
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        for gang in gangs:
            members = list(gang.members.all())
            # Every bwg1 member (the +1 beside an attribute); three of each other gang.
            for member in members if gang.system == "bwg1" else members[:3]:
                page.goto(f"{live_server.url}/gangs/{gang.pk}/?open={member.pk}")
                small = page.evaluate(SMALL_CONTROLS)
                over, wide = page.evaluate(TOO_WIDE)
                where = f"{language} {gang.system} {member.name!r}"
                if small:
                    problems.append(f"{where}: too small: {small}")
                if over > 0:
                    problems.append(f"{where}: {over} px too wide: {wide}")
                # The Print menu (opened above) is on the screen, and as wide as it can be.
                left, right, width = page.evaluate(PRINT_MENU)
                if left < 0 or right > 375 or width < 340:
                    problems.append(f"{where}: the Print menu is at {left:.0f} to {right:.0f} px")
        # A member just removed: the roster's Undo notice, with a long name.
        page.goto(f"{live_server.url}/gangs/{bonuses.pk}/?open={doc.pk}")
        settled(page)
        after_answer(page, panel(page).locator('[data-testid="remove"]').click)
        expect(page.locator('[data-testid="undo-notice"]')).to_be_visible()
        small = page.evaluate(SMALL_CONTROLS)
        over, wide = page.evaluate(TOO_WIDE)
        if small or over > 0:
            problems.append(f"{language} undo notice: {small} {over} px too wide: {wide}")
        after_answer(page, lambda: page.locator('[data-testid="undo"]').press("Enter"))
    # On a wide screen the panel sits beside the roster and scrolls by itself: nothing in
    # it is wider than it, and the Print menu opens inside the window.
    page.set_viewport_size({"width": 1280, "height": 900})
    for gang in gangs[:4]:
        member = gang.members.first()
        page.goto(f"{live_server.url}/gangs/{gang.pk}/?open={member.pk}")
        page.evaluate(SMALL_CONTROLS)  # every <details> opened
        sideways = page.evaluate(
            "() => { const p = document.getElementById('member-panel');"
            " return p.scrollWidth - p.clientWidth; }"
        )
        left, right, width = page.evaluate(PRINT_MENU)
        if sideways > 0 or left < 0 or right > 1280:
            problems.append(f"1280 {gang.system}: panel {sideways} px, Print menu {left}-{right}")
    assert not problems, "\n".join(problems[:20])


# --------------------------------------------------------------------------- defect 5


def test_a_removed_member_comes_back_with_undo(page: Page, live_server):
    from tests.factories import build_gang

    user = logged_in(page, live_server, "undoer")
    gang = build_gang(user)
    members = list(gang.members.order_by("position", "id"))
    second = members[1]
    before = [(m.pk, m.name, m.position, m.data) for m in members]
    page.goto(f"{live_server.url}/gangs/{gang.pk}/?open={second.pk}")
    settled(page)
    fame = page.locator('[data-testid="fame"]')
    total = fame.inner_text()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    remove = panel(page).locator('[data-testid="remove"]')
    reach(page, remove)
    undo = page.locator('[data-testid="undo"]')
    after_answer(page, lambda: page.keyboard.press("Enter"))
    assert dialogs == []  # no "are you sure?"
    expect(member_row(page, "Henchman 1")).to_have_count(0)
    # Where the member was: what went, and Undo, which has the focus.
    notice = page.locator('[data-testid="undo-notice"]')
    expect(notice).to_contain_text("“Henchman 1” was removed.")
    rows = page.locator('[data-testid="member"], [data-testid="undo-notice"]')
    expect(rows).to_have_count(5)
    expect(rows.nth(1)).to_have_attribute("id", "undo-notice")
    assert is_focused(undo)
    box = notice.bounding_box()
    bar = page.locator('[data-testid="summary-bar"]').bounding_box()
    assert box["y"] >= bar["y"] + bar["height"] - 1, "the notice is under the sticky bar"
    assert box["y"] + box["height"] <= 812, "the notice is below the screen"
    expect(fame).not_to_have_text(total)
    # Enter on Undo: the same member, at its place, open, with the focus on its row.
    after_answer(page, lambda: page.keyboard.press("Enter"))
    expect(notice).to_have_count(0)
    expect(page.locator('[data-testid="member"]').nth(1)).to_have_attribute(
        "data-member-name", "Henchman 1"
    )
    expect(member_row(page, "Henchman 1")).to_have_class(IS_OPEN)
    assert is_focused(page.locator(f"#row-link-{second.pk}")), focused(page)
    expect(fame).to_have_text(total)
    after = [(m.pk, m.name, m.position, m.data) for m in gang.members.order_by("position", "id")]
    assert after == before


def test_undo_works_without_javascript(page_without_js: Page, live_server):
    from tests.factories import build_gang

    page = page_without_js
    user = logged_in(page, live_server, "plainundo")
    gang = build_gang(user)
    leader = gang.members.order_by("position", "id").first()
    page.goto(f"{live_server.url}/gangs/{gang.pk}/?open={leader.pk}")
    panel(page).locator('[data-testid="remove"]').press("Enter")
    expect(member_row(page, "Bill Dalton")).to_have_count(0)
    notice = page.locator('[data-testid="undo-notice"]')
    expect(notice).to_contain_text("“Bill Dalton” was removed.")
    # The page comes back at the notice, below the sticky bar, not under it.
    expect(notice).to_be_in_viewport()
    bar = page.locator('[data-testid="summary-bar"]').bounding_box()
    assert notice.bounding_box()["y"] >= bar["y"] + bar["height"] - 1
    notice.locator('[data-testid="undo"]').press("Enter")
    expect(member_row(page, "Bill Dalton")).to_have_class(IS_OPEN)
    expect(page.locator('[data-testid="member"]').first).to_have_attribute(
        "data-member-name", "Bill Dalton"
    )
    expect(notice).to_have_count(0)
    assert gang.members.filter(pk=leader.pk).exists()


# --------------------------------------------------------------------------- keyboard journeys


def new_gang_by_keyboard(page: Page, live_server, name: str, system: str, limit=None) -> Gang:
    """The New gang form with the keyboard: name typed, system chosen with the arrow
    keys, the limit typed (or left empty), Enter."""
    page.goto(f"{live_server.url}/gangs/new/")
    reach(page, page.locator("#id_name"))
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    choose(page, page.locator("#id_system"), system)
    page.keyboard.press("Tab")
    assert is_focused(page.locator("#id_limit"))
    if limit is not None:
        page.keyboard.type(str(limit))
    page.keyboard.press("Enter")
    expect(page.locator('[data-testid="gang-name"]')).to_have_text(name)
    settled(page)
    page.evaluate("window.__noReload = 'still here'")
    return Gang.objects.get(name=name)


def type_in(page: Page, field: Locator, text: str) -> None:
    """Reach a text field with Tab or Shift+Tab and type over what it holds."""
    reach(page, field)
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def pick(page: Page, select: Locator, value: str) -> None:
    """Reach a select with the keyboard, choose with the arrow keys and, for a select that
    applies as it changes, apply with Enter: one change, one answer."""
    reach(page, select)
    after_answer(page, lambda: (choose(page, select, value), page.keyboard.press("Enter")))


def press_on(page: Page, control: Locator, key: str = "Enter") -> None:
    """Reach a button with the keyboard and press it (Enter or Space); wait for the answer."""
    reach(page, control)
    after_answer(page, lambda: page.keyboard.press(key))


def legal(page: Page) -> None:
    """The summary bar says the gang is legal, with no error."""
    status = page.locator('[data-testid="status"]')
    expect(status).to_contain_text("Legal")
    expect(status.locator(".badge.error")).to_have_count(0)
    assert page.evaluate("window.__noReload") == "still here", "the page reloaded"


def test_bwg1_gang_with_the_keyboard_only(page: Page, live_server):
    logged_in(page, live_server, "keys1")
    gang = new_gang_by_keyboard(page, live_server, "Keyboard Bunch", "bwg1", 400)
    fame = page.locator('[data-testid="fame"]')
    recruit_name = page.locator("#id_recruit-name")
    recruit_type = page.locator("#id_recruit-member_type")

    def recruit_by_keyboard(name: str, member_type: str) -> Locator:
        type_in(page, recruit_name, name)
        page.keyboard.press("Tab")
        choose(page, recruit_type, member_type)
        page.keyboard.press("Tab")
        after_answer(page, lambda: page.keyboard.press("Enter"))  # on Recruit
        expect(member_row(page, name)).to_have_class(IS_OPEN)
        return panel(page)

    # The Leader: the first recruit is one unless said otherwise; Enter in the name recruits.
    type_in(page, recruit_name, "Butch")
    after_answer(page, lambda: page.keyboard.press("Enter"))
    expect(member_row(page, "Butch")).to_have_class(IS_OPEN)
    butch = panel(page)
    pick(page, butch.locator("select[name$='-profession']"), "gunslinger")
    expect(member_row(page, "Butch").locator(".row-kind")).to_have_text("Leader · Gunslinger")
    # Points typed and left with Tab, then with Shift+Tab: exactly what was typed.
    rc = butch.locator('input[name$="-points-rc"]')
    type_in(page, rc, "4")
    after_answer(page, lambda: page.keyboard.press("Tab"))
    expect(rc).to_have_value("4")
    mc = butch.locator('input[name$="-points-mc"]')
    type_in(page, mc, "3")
    after_answer(page, lambda: page.keyboard.press("Shift+Tab"))
    expect(mc).to_have_value("3")
    # (the first Gunslinger's RC starts at 2: RC 4 and MC 3 are 2 points each)
    expect(butch.locator('[data-testid="points-left"] strong')).to_have_text("16")
    # A point with Space on a + button.
    press_on(page, butch.locator('button[value="str:+"]'), "Space")
    expect(butch.locator('input[name$="-points-str"]')).to_have_value("2")
    # A weapon chosen with the arrow keys, applied with Enter: one weapon, not one per step.
    pick(page, butch.locator("select[name$='-add_weapon-item']"), weapon_value(page, "Bowie knife"))
    expect(butch.locator(".weapon-name")).to_have_text(["Bowie knife"])

    for name, member_type, profession in [
        ("Sundance", "professional", "bounty_hunter"),
        ("Kid", "henchman", ""),
        ("Joe", "henchman", ""),
        ("Etta", "professional", "gambler"),
    ]:
        box = recruit_by_keyboard(name, member_type)
        if profession:
            pick(page, box.locator("select[name$='-profession']"), profession)
    expect(page.locator('[data-testid="member"]')).to_have_count(5)
    expect(page.locator('[data-testid="member"] .row-kind')).to_have_text(
        [
            "Leader · Gunslinger",
            "Professional · Bounty Hunter",
            "Henchman",
            "Henchman",
            "Professional · Gambler",
        ]
    )
    legal(page)
    expect(fame).to_have_text(str(evaluate_gang(gang).report.total))
    expect(page.locator(".total-label")).to_contain_text("/ 400")
    points = gang.members.get(name="Butch").data["points"]
    assert (points["rc"], points["mc"], points["str"]) == (2, 2, 1)
    carried = gang.members.get(name="Butch").member_items.all()
    assert [mi.item.name for mi in carried] == ["Bowie knife"]


def test_a_live_select_changed_with_the_arrow_keys_applies_once(page: Page, live_server):
    """On Linux and Windows each arrow key changes a closed select: a select that adds a
    weapon as it changes would add one per step. It applies once, with Enter or on leaving."""
    user = logged_in(page, live_server, "arrows")
    gang = services.create_gang(user, system="bwg1", name="Arrow Gang", limit=None)
    jesse = recruit(gang, "Jesse", "leader")
    page.goto(f"{live_server.url}/gangs/{gang.pk}/?open={jesse.pk}")
    settled(page)
    box = panel(page)
    weapons = box.locator("select[name$='-add_weapon-item']")
    far = weapon_value(page, "Winchester Repeater")
    steps = weapons.evaluate("(s, v) => [...s.options].findIndex(o => o.value === v)", far)
    assert steps >= 3
    before = version(page)
    reach(page, weapons)
    choose(page, weapons, far)
    page.wait_for_timeout(300)  # nothing is sent while the player is still choosing
    assert version(page) == before and not jesse.member_items.exists()
    after_answer(page, lambda: page.keyboard.press("Enter"))
    idle(page)
    expect(box.locator(".weapon-name")).to_have_text(["Winchester Repeater"])
    assert version(page) == before + 1
    assert [mi.item.name for mi in jesse.member_items.all()] == ["Winchester Repeater"]
    assert is_focused(weapons) and weapons.input_value() == ""
    # Changed with the arrows and left with Tab: applied once, as it is left.
    profession = box.locator("select[name$='-profession']")
    reach(page, profession)
    choose(page, profession, "gambler")
    before = version(page)
    after_answer(page, lambda: page.keyboard.press("Tab"))
    expect(member_row(page, "Jesse").locator(".row-kind")).to_have_text("Leader · Gambler")
    assert version(page) == before + 1
    jesse.refresh_from_db()
    assert jesse.data["profession"] == "gambler"


def weapon_value(page: Page, name: str) -> str:
    """The value of a weapon in the open panel's weapon select."""
    return page.evaluate(
        "name => [...document.querySelector(\"select[name$='-add_weapon-item']\").options]"
        ".find(o => o.textContent.startsWith(name + ' (')).value",
        name,
    )


def option_value(select: Locator, label_start: str) -> str:
    """The value of the select's option whose label starts with ``label_start``."""
    return select.evaluate(
        "(s, start) => [...s.options].find(o => o.textContent.trim().startsWith(start)).value",
        label_start,
    )


def test_bwg2_gang_with_the_keyboard_only(page: Page, live_server):
    logged_in(page, live_server, "keys2")
    gang = new_gang_by_keyboard(page, live_server, "Keyboard Crew", "bwg2", 325)
    cards = page.locator("#id_add_card-card")
    # A Hero picked in the card library with the arrow keys and Enter: one card, open.
    pick(page, cards, option_value(cards, "Captain Nathan Reinholdt"))
    expect(member_row(page, "Captain Nathan Reinholdt")).to_have_class(IS_OPEN)
    expect(page.locator('[data-testid="member"]')).to_have_count(1)
    hero = panel(page)
    leader = hero.locator("input[name$='-leader-on']")
    expect(leader).to_be_checked()
    # Renamed: typed, left with Shift+Tab.
    type_in(page, hero.locator("input[name$='-rename-name']"), "Mal")
    after_answer(page, lambda: page.keyboard.press("Shift+Tab"))
    expect(member_row(page, "Mal")).to_have_class(IS_OPEN)
    # The Leader box with Space: off (no Leader), on again.
    reach(page, leader)
    after_answer(page, lambda: page.keyboard.press("Space"))
    expect(page.locator('.finding[data-code="bwg2.no_leader"]')).to_have_count(1)
    assert is_focused(leader)
    after_answer(page, lambda: page.keyboard.press("Space"))
    expect(page.locator('.finding[data-code="bwg2.no_leader"]')).to_have_count(0)
    # A consumable, picked with the arrow keys and applied as the select is left (Tab).
    extra = hero.locator("select[name$='-add_extra-extra']")
    reach(page, extra)
    choose(page, extra, option_value(extra, "Snake Oil"))
    after_answer(page, lambda: page.keyboard.press("Tab"))
    expect(hero.locator('[data-testid="extra"]')).to_contain_text(["Snake Oil"])
    # A minion, then "Add another" three times with Enter: the focus follows the copies.
    pick(page, cards, option_value(cards, "Tranquility Gunhand"))
    expect(member_row(page, "Tranquility Gunhand")).to_have_class(IS_OPEN)
    reach(page, panel(page).locator('[data-testid="duplicate"]'))
    for number in (3, 4, 5):
        after_answer(page, lambda: page.keyboard.press("Enter"))
        expect(page.locator('[data-testid="member"]')).to_have_count(number)
        # The copy is open, and the focus is on its own "Add another", for the next one.
        copy = gang.members.order_by("-position", "-id").first()
        expect(member_row(page, copy.name)).to_have_class(IS_OPEN)
        assert focused(page) == f"form-m{copy.pk}-duplicate-submit", focused(page)
    legal(page)
    expect(page.locator('[data-testid="fame"]')).to_have_text("320")
    expect(page.locator(".total-label")).to_contain_text("/ 325")
    expect(page.locator("#findings")).to_contain_text("5 Fame under the limit")
    assert evaluate_gang(gang).report.total == 320
    cards = [m.data["card"]["name"] for m in gang.members.all()]
    assert cards == ["Captain Nathan Reinholdt"] + ["Tranquility Gunhand"] * 4


def test_gf26_party_with_the_keyboard_only(page: Page, live_server):
    logged_in(page, live_server, "keys26")
    gang = new_gang_by_keyboard(page, live_server, "Keyboard Company", "gf26", 500)
    profiles = page.locator("#id_add_member-profile")
    pick(page, profiles, option_value(profiles, "Human Captain"))
    expect(member_row(page, "Human Captain")).to_have_class(IS_OPEN)
    captain = panel(page)
    # Three perks, each ticked with Space (the focus stays on the box).
    for perk in ("fast", "stubborn", "healer"):
        box = captain.locator(f'input[type="checkbox"][value="{perk}"]')
        reach(page, box)
        after_answer(page, lambda: page.keyboard.press("Space"))
        expect(box).to_be_checked()
        assert is_focused(box)
    expect(captain.locator('[data-testid="perk-count"]')).to_have_text("3 of 3")
    # Party Leader with Enter; renamed, left with Tab.
    press_on(page, captain.locator('[data-testid="leader"]'))
    expect(captain.locator('[data-testid="party-leader"]')).to_be_visible()
    type_in(page, captain.locator('input[name$="-rename-name"]'), "Aldric")
    after_answer(page, lambda: page.keyboard.press("Tab"))
    expect(member_row(page, "Aldric")).to_have_class(IS_OPEN)
    # Kit bought with the arrow keys and Enter.
    buy = captain.locator('select[name$="-add_equipment-item"]')
    pick(page, buy, option_value(buy, "Shield"))
    expect(captain.locator('[data-testid="bought"]')).to_contain_text("Shield")
    # A Bowman from the list of profiles: its Add button, with Enter.
    library = page.locator("#gf26-library")
    reach(page, library.locator("summary"))
    if library.get_attribute("open") is None:  # (open while the party was empty)
        page.keyboard.press("Enter")
    expect(library).to_have_attribute("open", "")
    bowman = page.locator('[data-testid="library-profile"]', has_text="Human Bowman")
    press_on(page, bowman.locator('[data-testid="add-profile"]'))
    expect(member_row(page, "Human Bowman")).to_have_class(IS_OPEN)
    box = panel(page).locator('input[type="checkbox"][value="marksman"]')
    reach(page, box)
    after_answer(page, lambda: page.keyboard.press("Space"))
    # A unit typed and left with Shift+Tab.
    type_in(page, panel(page).locator('input[name$="-unit-unit"]'), "Archers")
    after_answer(page, lambda: page.keyboard.press("Shift+Tab"))
    expect(member_row(page, "Human Bowman")).to_contain_text("Unit Archers")
    legal(page)
    total = evaluate_gang(gang).report.total
    expect(page.locator('[data-testid="fame"]')).to_have_text(str(total))
    expect(page.locator(".total-label")).to_contain_text("500")
    aldric = gang.members.get(name="Aldric")
    assert aldric.data["perks"] == ["fast", "stubborn", "healer"] and aldric.data["leader"]


def test_gunfight_side_with_the_keyboard_only(page: Page, live_server, monkeypatch):
    import random

    from builder.editors import gunfight as gunfight_editor

    monkeypatch.setattr(gunfight_editor, "random_source", lambda: random.Random(2003))
    logged_in(page, live_server, "keysgf")
    gang = new_gang_by_keyboard(page, live_server, "Keyboard Posse", "gunfight")
    kind = page.locator("#id_roll-character_type")
    experience = page.locator("#id_roll-experience")
    roll = page.locator('[data-testid="roll"]')
    reach(page, kind)
    choose(page, kind, "outlaw")
    page.keyboard.press("Tab")
    choose(page, experience, "veteran")
    page.keyboard.press("Tab")
    for number, name in ((1, "Outlaw"), (2, "Outlaw 2")):
        after_answer(page, lambda: page.keyboard.press("Enter"))
        expect(member_row(page, name)).to_have_class(IS_OPEN)
        expect(page.locator('[data-testid="member"]')).to_have_count(number)
        assert is_focused(roll)
    expect(kind).to_have_value("outlaw")
    expect(experience).to_have_value("veteran")
    # The second one renamed (typed, Tab), and armed with the arrow keys and Enter.
    member = gang.members.get(name="Outlaw 2")
    type_in(page, panel(page).locator(f"#id_m{member.pk}-rename-name"), "Ike")
    after_answer(page, lambda: page.keyboard.press("Tab"))
    expect(member_row(page, "Ike")).to_have_class(IS_OPEN)
    weapon = panel(page).locator(f"#id_m{member.pk}-add_weapon-weapon")
    pick(page, weapon, option_value(weapon, "Shotgun"))
    expect(panel(page).locator('[data-testid="weapon"]')).to_contain_text(["Shotgun"])
    # Troopers: their button with Space; how many, typed and left with Shift+Tab.
    press_on(page, page.locator('[data-testid="add-troopers"]'), "Space")
    expect(member_row(page, "Trooper")).to_have_class(IS_OPEN)
    trooper = gang.members.get(name="Trooper")
    type_in(page, panel(page).locator(f"#id_m{trooper.pk}-figures-count"), "4")
    after_answer(page, lambda: page.keyboard.press("Shift+Tab"))
    expect(member_row(page, "Trooper").locator(".row-kind")).to_have_text("Troopers \u00d74")
    # Their type with the arrow keys, applied as the select is left.
    trooper_kind = panel(page).locator(f"#id_m{trooper.pk}-figures-character_type")
    reach(page, trooper_kind)
    choose(page, trooper_kind, "soldier")
    after_answer(page, lambda: page.keyboard.press("Tab"))
    expect(member_row(page, "Trooper").locator(".row-kind")).to_have_text(
        "Troopers \u00d74 · Soldier"
    )
    legal(page)
    expect(page.locator('[data-testid="fame"]')).to_have_text("6")
    kinds = [m.data.get("character_type") for m in gang.members.all()]
    assert kinds == ["outlaw", "outlaw", "soldier"]
    assert gang.members.get(name="Ike").data["weapons"][0]["name"] == "Shotgun"


def test_rivals_gang_with_the_keyboard_only(page: Page, live_server):
    logged_in(page, live_server, "keysrv")
    gang = new_gang_by_keyboard(page, live_server, "Keyboard Rivals", "rivals")
    add = page.locator('[data-testid="add_outlaw"]')
    press_on(page, add)
    expect(member_row(page, "Outlaw 1")).to_have_class(IS_OPEN)
    jack = panel(page)
    expect(jack.locator('[data-testid="leader-badge"]')).to_be_visible()
    type_in(page, jack.locator('input[name$="-poster-name"]'), "Red Jack")
    after_answer(page, lambda: page.keyboard.press("Tab"))
    expect(member_row(page, "Red Jack")).to_have_class(IS_OPEN)
    # Tiers with the arrow keys: each applied once, as its select is left (Tab, Shift+Tab).
    for row, tier, leave in (("handgun", "2", "Tab"), ("brawl", "1", "Shift+Tab")):
        select = jack.locator(f'select[name$="-tiers-{row}"]')
        reach(page, select)
        choose(page, select, tier)
        after_answer(page, lambda leave=leave: page.keyboard.press(leave))
        expect(select).to_have_value(tier)
    expect(jack.locator('[data-testid="tier-cost"]')).to_have_text("3 CCP")
    # Three more outlaws, each Regular in every row with Enter or Space.
    for number, key in ((2, "Enter"), (3, "Space"), (4, "Enter")):
        press_on(page, add)
        expect(member_row(page, f"Outlaw {number}")).to_have_class(IS_OPEN)
        press_on(page, panel(page).locator('[data-testid="regular"]'), key)
        expect(panel(page).locator('[data-testid="tier-cost"]')).to_have_text("6 CCP")
    # The gang named after its leader, with Enter.
    press_on(page, page.locator('[data-testid="use_name"]'))
    expect(page.locator('[data-testid="gang-name"]')).to_have_text("Red Jack's Gang")
    legal(page)
    expect(page.locator('[data-testid="fame"]')).to_have_text("21")
    expect(page.locator('[data-testid="outlaw-count"]')).to_have_text("4 outlaws (4\u20136)")
    gang.refresh_from_db()
    assert gang.name == "Red Jack's Gang"
    assert evaluate_gang(gang).report.total == 21
