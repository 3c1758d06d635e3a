"""Real-browser fixtures: Playwright driving Debian's chromium, headless.

Playwright can't download its own browser here, so we launch the system's chromium. The
browser tests fail (never skip) when it is missing, with the command that installs it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test's thread; the ORM calls the tests
# make around it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 375, "height": 812}


def chromium_path() -> str | None:
    candidates = [
        os.environ.get("CHROMIUM_PATH"),
        shutil.which("chromium"),
        "/usr/bin/chromium",
        shutil.which("chromium-browser"),
    ]
    return next((c for c in candidates if c and Path(c).exists()), None)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        pytest.fail(
            "The browser tests need Debian's chromium: `apt-get install chromium` "
            "(or set CHROMIUM_PATH to a Chromium binary)."
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


def _page(browser, **options):
    context = browser.new_context(viewport=PHONE, accept_downloads=True, **options)
    page = context.new_page()
    page.set_default_timeout(45_000)  # a print on a busy CI machine may be sent back once
    return context, page


@pytest.fixture
def page(browser):
    """A phone-sized page (375 px wide) with JavaScript on.

    The site's Content-Security-Policy forbids eval, and Playwright's polling waits
    (``wait_for_function``) evaluate their predicate in the page: these contexts let the
    test's own scripts run. ``strict_page`` keeps the policy whole, to test it."""
    context, page = _page(browser, bypass_csp=True)
    yield page
    context.close()


@pytest.fixture
def strict_page(browser):
    """A phone-sized page under the site's Content-Security-Policy, as a visitor's."""
    context, page = _page(browser)
    yield page
    context.close()


@pytest.fixture
def page_without_js(browser):
    """A phone-sized page with JavaScript off: plain forms and reloads."""
    context, page = _page(browser, java_script_enabled=False, bypass_csp=True)
    yield page
    context.close()
