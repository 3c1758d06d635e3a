"""The Content-Security-Policy in a real browser: the main pages, and the builder while a
gang is made through htmx, break none of it (no inline script, no eval, no inline <style>
from htmx), and the browser would tell us if they did."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.builder import new_gang, recruit, settled

pytestmark = pytest.mark.browser

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
                    " at " + (e.sourceFile || document.location.pathname) + ":" + e.lineNumber);
});
"""


class Watch:
    """Every CSP or Permissions-Policy complaint and script error the page makes."""

    def __init__(self, page: Page):
        self.page = page
        self.complaints: list[str] = []
        page.add_init_script(LISTEN)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.complaints.append(f"script error: {error}"))

    def _console(self, message) -> None:
        text = message.text
        if "Content Security Policy" in text or "Permissions-Policy" in text:
            self.complaints.append(f"console: {text}")

    def violations(self) -> list[str]:
        """What the page saw since it loaded (the securitypolicyviolation events), and
        what the console and the page said so far."""
        seen = self.page.evaluate("window.__csp || []")
        return [*seen, *self.complaints]

    def visit(self, url: str, *, ours: bool = True) -> None:
        """Open ``url``; a page of ours (not the admin's) has run page.js."""
        response = self.page.goto(url)
        assert response is not None and response.ok, url
        assert "script-src 'self'" in response.headers["content-security-policy"]
        self.page.wait_for_load_state("load")
        if ours:
            assert self.page.evaluate("document.documentElement.classList.contains('js')"), url
        assert self.violations() == [], url


def test_the_watch_sees_a_violation(strict_page: Page, live_server):
    page = strict_page
    """The listener works: an inline script, which the policy forbids, is reported."""
    watch = Watch(page)
    page.goto(live_server.url + "/rules/")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.head.appendChild(s); }"
    )
    page.wait_for_function("window.__csp.length > 0")
    assert page.evaluate("window.ran") is None
    assert any("script-src" in v for v in watch.violations())


def test_main_pages_and_the_builder_break_no_policy(strict_page: Page, live_server):
    page = strict_page
    base = live_server.url
    watch = Watch(page)
    for path in ["/", "/accounts/login/", "/accounts/signup/", "/rules/", "/roster-format/"]:
        watch.visit(base + path)
    watch.visit(base + "/admin/login/", ours=False)

    new_gang(page, base, "csp", "Policy Riders")
    assert watch.violations() == []
    recruit(page, "Wyatt", "leader")  # htmx answers, morphed in
    recruit(page, "Doc", "henchman")
    settled(page)
    assert page.evaluate("window.__noReload") == "still here"
    assert watch.violations() == []
    assert page.locator("head style").count() == 0  # htmx added no <style> of its own

    # The share link's field selects itself when clicked (no inline onclick).
    share = page.locator("#share-url")
    share_url = share.input_value()
    share.click()
    selected = share.evaluate("el => el.selectionEnd - el.selectionStart")
    assert selected == len(share_url)
    assert watch.violations() == []

    gang_url = page.url
    for path in [
        "/gangs/",
        "/gangs/new/",
        "/gangs/import/",
        gang_url.removeprefix(base) + "history/",
        gang_url.removeprefix(base) + "print/",
        "/campaigns/",
        "/campaigns/new/",
        "/clubs/",
        "/packs/",
        "/weapons/",
        "/accounts/password/",
    ]:
        watch.visit(base + path)
    watch.visit(share_url)
    expect(page.locator("h1")).to_contain_text("Policy Riders")
