"""The installable app in a real browser at 375 px (issue 29, docs/offline.md): the
manifest as chromium reads it and the checks of installability it can run here; a player's
gang page, its cards PDF and a game opened again with the network cut, from the service
worker's cache, each saying "Offline: as of …" (and the gang page's forms disabled); taps
made offline surviving a closed browser and sent once each, in order, when the network is
back; and logging out leaving nothing to open offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Error, Page, expect

from builder.services import import_gang
from play.models import Game, TapEvent
from rules.roster import read_roster
from tests.browser.builder import log_in
from tests.browser.conftest import CHROMIUM_ARGS, PHONE, chromium_path
from tests.browser.test_pages import axe_violations
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
WAIT = 15_000
CONTROLLED = "() => !!navigator.serviceWorker.controller"
FETCH = """async url => {
    const r = await fetch(url, {credentials: "same-origin"});
    const body = new Uint8Array(await r.arrayBuffer());
    return {status: r.status, type: r.headers.get("content-type"),
            asOf: r.headers.get("gangfight-offline-as-of"),
            start: String.fromCharCode(...body.slice(0, 5))};
}"""


def rivals_gang(username: str):
    user = User.objects.create_user(username, password=PASSWORD)
    roster = read_roster((EXAMPLES / "rivals-legal-red-jacks-gang.json").read_bytes())
    return import_gang(user, roster)


def new_phone(browser) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=PHONE, bypass_csp=True, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    return context, page


def controlled(page: Page) -> None:
    """The service worker controls the page (registered by app.js on the first page)."""
    page.wait_for_function(CONTROLLED)


def start_game(page: Page, base: str, gang) -> str:
    page.goto(f"{base}/play/start/gang/{gang.pk}/")
    page.click('[data-testid="start"]')
    expect(page.locator('[data-testid="play-table"]')).to_have_count(1)
    return page.url


def offline_bar(page: Page):
    return page.locator('[data-testid="offline-as-of"]')


def test_the_app_is_installable(browser, live_server):
    """What Lighthouse checks for installability, as far as headless chromium can tell."""
    gang = rivals_gang("rider")
    context, page = new_phone(browser)
    log_in(page, live_server.url, "rider")
    controlled(page)
    cdp = context.new_cdp_session(page)
    page.goto(f"{live_server.url}/gangs/{gang.pk}/")
    answer = cdp.send("Page.getAppManifest")
    assert answer["url"] == f"{live_server.url}/manifest.webmanifest"
    assert answer["errors"] == [], answer["errors"]
    # the manifest as chromium parsed it
    parsed = answer["manifest"]
    assert parsed["name"] == "Gangfight"
    assert parsed["display"] == "kStandalone"
    assert parsed["startUrl"] == parsed["id"] == parsed["scope"] == f"{live_server.url}/"
    assert parsed["themeColor"] == "rgba(43,33,24,1)"  # --ink
    assert parsed["backgroundColor"] == "rgba(246,240,228,1)"  # --paper
    assert {(i["sizes"], i["type"]) for i in parsed["icons"]} >= {
        ("192x192", "image/png"),
        ("512x512", "image/png"),
    }
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Headless chromium can't install an app: it may only say so ("in-incognito" for a
    # fresh context, and the like); nothing about the manifest, its icons or the worker.
    about_us = {
        "manifest-empty",
        "no-manifest",
        "start-url-not-valid",
        "manifest-missing-name-or-short-name",
        "manifest-display-not-supported",
        "manifest-missing-suitable-icon",
        "no-acceptable-icon",
        "cannot-download-icon",
        "no-icon-available",
        "not-offline-capable",
        "no-matching-service-worker",
        "not-in-main-frame",
    }
    assert not {e["errorId"] for e in errors} & about_us, errors

    # The same checks by hand: the manifest's fields, its icons, the worker and its scope.
    manifest = page.evaluate(
        "async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json()"
    )
    assert (manifest["name"], manifest["display"], manifest["scope"]) == (
        "Gangfight",
        "standalone",
        "/",
    )
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        fetched = page.evaluate(FETCH, icon["src"])
        assert fetched["status"] == 200 and fetched["type"] == "image/png", icon
        size = page.evaluate(
            "async src => { const i = new Image(); i.src = src; await i.decode();"
            " return i.naturalWidth + 'x' + i.naturalHeight; }",
            icon["src"],
        )
        assert size == icon["sizes"]
    worker = page.evaluate(
        "async () => { const r = await navigator.serviceWorker.getRegistration();"
        " return {scope: r.scope, active: !!r.active,"
        " controller: navigator.serviceWorker.controller.scriptURL}; }"
    )
    assert worker == {
        "scope": f"{live_server.url}/",
        "active": True,
        "controller": f"{live_server.url}/sw.js",
    }
    # the start page, once seen, is answered by the worker with no network
    page.goto(live_server.url + manifest["start_url"])
    context.set_offline(True)
    response = page.goto(live_server.url + manifest["start_url"])
    assert response is not None and response.status == 200
    assert response.headers.get("gangfight-offline-as-of")
    expect(offline_bar(page)).to_be_visible()
    context.close()


def test_a_gang_its_cards_and_a_game_open_with_no_network(browser, live_server):
    gang = rivals_gang("rider")
    context, page = new_phone(browser)
    log_in(page, live_server.url, "rider")
    controlled(page)
    gang_url = f"{live_server.url}/gangs/{gang.pk}/"
    cards_url = f"{live_server.url}/gangs/{gang.pk}/print/?kind=cards&paper=a4"
    page.goto(gang_url)
    expect(offline_bar(page)).to_be_hidden()  # with signal: the page is the server's
    name = page.locator("h1").first.inner_text()
    online = page.evaluate(FETCH, cards_url)
    assert (online["status"], online["type"], online["start"], online["asOf"]) == (
        200,
        "application/pdf",
        "%PDF-",
        None,
    )
    game_url = start_game(page, live_server.url, gang)
    page.goto(game_url)  # (the first answer came after a POST: now a GET of its own)

    context.set_offline(True)
    # the gang page, from the cache, says it is a copy and disables what posts
    response = page.goto(gang_url)
    assert response is not None and response.status == 200
    expect(offline_bar(page)).to_be_visible()
    expect(offline_bar(page)).to_contain_text("Offline: as of ")
    assert page.locator("h1").first.inner_text() == name
    buttons = page.evaluate(
        """() => [...document.querySelectorAll("form")]
            .filter(f => (f.getAttribute("method") || "").toLowerCase() === "post")
            .filter(f => !f.closest("[data-offline-ok]"))
            .flatMap(f => [...f.querySelectorAll("button, input[type=submit]")])
            .filter(b => b.type === "submit")
            .map(b => b.disabled)"""
    )
    assert buttons and all(buttons), buttons
    assert axe_violations(page) == []
    # the cards PDF printed before
    offline_pdf = page.evaluate(FETCH, cards_url)
    assert (offline_pdf["status"], offline_pdf["type"], offline_pdf["start"]) == (
        200,
        "application/pdf",
        "%PDF-",
    )
    assert offline_pdf["asOf"]
    # a PDF never printed is not there
    with pytest.raises(Error):
        page.evaluate(FETCH, f"{live_server.url}/gangs/{gang.pk}/print/?kind=sheet&paper=letter")
    # the game, whose taps may still be made (they wait in the phone)
    page.goto(game_url)
    expect(offline_bar(page)).to_be_visible()
    expect(page.locator('[data-testid="play-table"]')).to_have_count(1)
    assert page.locator('[data-offline-ok] [data-testid="next-turn"]').is_enabled()
    assert axe_violations(page) == []
    # a page never opened: the browser's own "no network"
    with pytest.raises(Error):
        page.goto(f"{live_server.url}/gangs/")
    context.close()


def test_a_stale_pdf_is_replaced_on_the_next_visit_with_signal(browser, live_server):
    gang = rivals_gang("rider")
    context, page = new_phone(browser)
    log_in(page, live_server.url, "rider")
    controlled(page)
    sheet = f"{live_server.url}/gangs/{gang.pk}/sheet.pdf"
    page.goto(f"{live_server.url}/gangs/{gang.pk}/")
    first = page.evaluate(FETCH, sheet)
    assert first["status"] == 200
    kept_version = page.evaluate(
        "async u => (await caches.match(u)).headers.get('gangfight-offline-version')", sheet
    )
    gang.refresh_from_db()
    gang.name = "Red Jack's Riders"
    gang.version += 1
    gang.save()
    page.goto(f"{live_server.url}/gangs/{gang.pk}/")  # the gang page says its new version
    page.wait_for_function(
        "async ([u, v]) => { const r = await caches.match(u);"
        " return r && r.headers.get('gangfight-offline-version') !== v; }",
        arg=[sheet, kept_version],
    )
    context.close()


def test_taps_made_offline_survive_a_closed_browser_and_arrive_once_in_order(
    browser, live_server, tmp_path
):
    gang = rivals_gang("rider")
    profile = tmp_path / "profile"

    def launch():
        context = browser.browser_type.launch_persistent_context(
            str(profile),
            executable_path=chromium_path(),
            args=CHROMIUM_ARGS,
            headless=True,
            viewport=PHONE,
            bypass_csp=True,
        )
        context.set_default_timeout(WAIT)
        return context

    context = launch()
    page = context.pages[0] if context.pages else context.new_page()
    sent: list[dict] = []

    def seen(request) -> None:
        if request.method == "POST" and request.url.endswith("/tap/"):
            sent.append(dict(p.split("=", 1) for p in (request.post_data or "").split("&")))

    context.on("request", seen)
    log_in(page, live_server.url, "rider")
    controlled(page)
    game_url = start_game(page, live_server.url, gang)
    context.set_offline(True)
    sarah = page.locator('[data-testid="tracker"][data-member="Sarah"]')
    sarah.locator('[data-testid="minus-actions"]').click()
    page.click('[data-testid="next-turn"]')
    page.locator(
        '[data-testid="tracker"][data-member="Jesse"] [data-testid="minus-actions"]'
    ).click()
    expect(page.locator('[data-testid="offline"]')).to_contain_text("3 taps waiting")
    waiting = page.evaluate(
        """() => new Promise((ok, no) => {
            const open = indexedDB.open("gangfight", 1);
            open.onsuccess = () => {
                const all = open.result.transaction("taps").objectStore("taps").getAll();
                all.onsuccess = () => ok(all.result.map(
                    t => Object.fromEntries(new URLSearchParams(t.body))));
            };
            open.onerror = () => no(open.error);
        })"""
    )
    assert TapEvent.objects.count() == 0
    context.close()  # the browser closed, the phone in a pocket

    assert [w["do"] for w in waiting] == ["wound/1", "turn/1", "wound/1"]
    phone = waiting[0]["phone"]
    assert phone.isalnum() and 0 < len(phone) <= 32
    assert all(w["phone"] == phone for w in waiting)
    seqs = [int(w["phone_seq"]) for w in waiting]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3 and seqs[1:] == [seqs[0] + 1, seqs[0] + 2]
    assert all(w["seen"] == "0" and int(w["made_at"]) > 0 for w in waiting)

    context = launch()  # the same profile, the network back
    context.on("request", seen)
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(f"{live_server.url}/")  # (not the game: the worker sends the taps)
    game = Game.objects.get()
    for _ in range(60):  # Background Sync: the worker sends them, with no game page open
        if TapEvent.objects.filter(game=game).count() == 3:
            break
        page.wait_for_timeout(250)
    assert TapEvent.objects.filter(game=game).count() == 3, "the worker did not send the taps"
    ids = [w["client_id"] for w in waiting]
    page.goto(game_url)
    expect(page.locator("#play-table")).to_have_attribute("data-version", "3", timeout=WAIT)
    expect(page.locator('[data-testid="offline"]')).to_be_hidden()
    taps = list(TapEvent.objects.filter(game=game).order_by("seq"))
    assert [t.client_id for t in taps] == ids  # once each, in the order they were made
    assert [t.kind for t in taps] == ["wound", "turn", "wound"]
    if hasattr(TapEvent, "phone") and taps[0].phone:
        assert [(t.phone, t.phone_seq) for t in taps] == [(phone, s) for s in seqs]
    # every send said which phone, which tap, what the page showed and when it left
    for body in sent:
        assert body["phone"] == phone and "phone_seq" in body and "seen" in body
        assert int(body["sent"]) >= int(body["made_at"])
    page.reload()
    expect(page.locator("#play-table")).to_have_attribute("data-version", "3")
    assert TapEvent.objects.filter(game=game).count() == 3
    context.close()


def test_the_poll_says_which_phone_asks(page: Page, live_server):
    gang = rivals_gang("rider")
    log_in(page, live_server.url, "rider")
    start_game(page, live_server.url, gang)
    with page.expect_request(
        lambda r: "/play/" in r.url and "sent=" in r.url, timeout=WAIT
    ) as poll:
        pass
    query = dict(p.split("=", 1) for p in poll.value.url.split("?", 1)[1].split("&"))
    assert query["phone"] == page.evaluate("localStorage.getItem('gangfight-phone')")
    assert query["v"] == "0" and int(query["sent"]) > 0


def test_logging_out_leaves_nothing_to_open_offline(browser, live_server):
    gang = rivals_gang("rider")
    context, page = new_phone(browser)
    log_in(page, live_server.url, "rider")
    controlled(page)
    gang_url = f"{live_server.url}/gangs/{gang.pk}/"
    page.goto(gang_url)
    assert page.evaluate("async u => !!(await caches.match(u))", gang_url)
    page.click("[data-logout] button")
    expect(page.locator('[data-testid="nav-user"]')).to_have_count(0)
    assert (
        page.evaluate(
            "async () => (await caches.keys()).filter(k => k.startsWith('gangfight-pages-'))"
        )
        == []
    )
    context.set_offline(True)
    with pytest.raises(Error):
        page.goto(gang_url)
    context.close()
