"""Issue 19's protections: log-in throttling, security headers, formula-proof CSV cells,
a polite 503 while the database is down, and the health check."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connection
from django.test import Client
from django.urls import reverse

from campaigns.leagues.views.leagues import safe_cell
from common import throttle
from gangfight_site.middleware import outage_response
from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def empty_cache():
    """Throttle counts live in the default cache: each test starts and ends without any."""
    cache.clear()
    yield
    cache.clear()


def post_log_in(client: Client, username: str, password: str, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


# --------------------------------------------------------------------------- throttling


def test_sixty_wrong_passwords_in_a_row_are_not_all_checked(owner, client):
    """The issue's report: 60 wrong passwords for one account in 15 s all got 200."""
    with mock.patch("django.contrib.auth.forms.authenticate", wraps=authenticate) as checked:
        statuses = [post_log_in(client, "owner", f"guess-{n}").status_code for n in range(60)]
    assert statuses[:5] == [200] * 5
    assert statuses[5:] == [429] * 55
    assert checked.call_count == 5  # only the first five passwords were checked


def test_past_the_limit_the_form_says_how_long_to_wait_and_ignores_even_the_right_password(
    owner, client
):
    for _ in range(5):
        response = post_log_in(client, "owner", "wrong")
        assert response.status_code == 200
        assert "enter a correct username and password" in response.content.decode()
    with mock.patch("django.contrib.auth.forms.authenticate") as checked:
        response = post_log_in(client, "owner", PASSWORD)
    assert not checked.called and not logged_in(client)
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    page = response.content.decode()
    assert 'data-testid="login-error"' in page
    assert "Too many failed attempts to log in to this account" in page
    assert "wait 15 minutes and try again" in page
    assert '<form method="post" action="/accounts/login/"' in page  # the form, again
    assert 'value="owner"' in page  # with the username kept


def test_the_wait_ends_with_the_window_and_is_not_a_lock(owner, client):
    with mock.patch("time.time", return_value=1_000_000.0):
        for _ in range(6):
            post_log_in(client, "owner", "wrong")
    with mock.patch("time.time", return_value=1_000_000.0 + 600):
        response = post_log_in(client, "owner", PASSWORD)
        assert response.status_code == 429 and "wait 5 minutes" in response.content.decode()
    with mock.patch("time.time", return_value=1_000_000.0 + 901):
        response = post_log_in(client, "owner", PASSWORD)
    assert response.status_code == 302 and logged_in(client)


def test_a_successful_log_in_clears_the_accounts_count(owner, client):
    for _ in range(4):
        post_log_in(client, "owner", "wrong")
    assert post_log_in(client, "owner", PASSWORD).status_code == 302
    Client().post(reverse("logout"))
    again = Client()
    statuses = [post_log_in(again, "owner", "wrong").status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]


def test_the_account_is_counted_whatever_the_case_of_its_name(owner, client):
    for name in ["owner", "OWNER", "Owner ", "oWnEr", "owner"]:
        post_log_in(client, name, "wrong")
    assert post_log_in(client, "owner", PASSWORD).status_code == 429


def test_one_address_is_limited_across_accounts_and_others_are_not(db, client, settings):
    for n in range(20):
        assert post_log_in(client, f"nobody{n}", "wrong").status_code == 200
    response = post_log_in(client, "someone-else", "wrong")
    assert response.status_code == 429
    assert "Too many failed attempts from your network" in response.content.decode()
    User.objects.create_user("fresh", password=PASSWORD)
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")
    assert post_log_in(elsewhere, "fresh", PASSWORD).status_code == 302


def test_x_forwarded_for_counts_only_when_the_proxy_is_trusted(db, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    client = Client()
    for n in range(3):  # a new made-up address each time does not help
        post_log_in(client, f"x{n}", "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
    assert post_log_in(client, "y", "wrong", HTTP_X_FORWARDED_FOR="203.0.113.99").status_code == 429

    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]  # (issue 27: addresses, not a yes/no flag)
    proxy = Client(REMOTE_ADDR="10.0.0.2")
    hop = "203.0.113.5, 10.0.0.1"
    for n in range(3):
        post_log_in(proxy, f"z{n}", "wrong", HTTP_X_FORWARDED_FOR=hop)
    assert post_log_in(proxy, "z", "wrong", HTTP_X_FORWARDED_FOR=hop).status_code == 429
    other = post_log_in(proxy, "z", "wrong", HTTP_X_FORWARDED_FOR="203.0.113.6, 10.0.0.1")
    assert other.status_code == 200


def test_attempts_made_at_once_cannot_all_slip_under_the_limit(rf):
    """Each attempt is counted (atomically) before its password is checked."""
    from concurrent.futures import ThreadPoolExecutor

    request = rf.post("/accounts/login/")
    with ThreadPoolExecutor(max_workers=12) as pool:
        attempts = list(pool.map(lambda _: throttle.attempt(request, "victim"), range(60)))
    assert sum(not a.blocked for a in attempts) == 5


def test_client_address_counts_ipv6_by_its_64(rf, settings):
    def address(remote: str, forwarded: str = "") -> str:
        return throttle.client_address(
            rf.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
        )

    assert address("2001:db8:1:2::1") == address("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address("2001:db8:1:3::1") != address("2001:db8:1:2::1")
    assert address("::ffff:192.0.2.1") == "192.0.2.1"
    assert address("192.0.2.1", "198.51.100.1") == "192.0.2.1"
    settings.TRUSTED_PROXIES = ["192.0.2.1"]  # (issue 27: addresses, not a yes/no flag)
    assert address("192.0.2.1", " 198.51.100.1 , 192.0.2.1") == "198.51.100.1"
    assert address("192.0.2.1", "") == "192.0.2.1"


def test_limits_come_from_settings_and_zero_turns_one_off(owner, client, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 2
    settings.LOGIN_FAILURE_WINDOW = 60
    statuses = [post_log_in(client, "owner", "wrong").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert "wait 1 minute and" in post_log_in(client, "owner", "wrong").content.decode()
    cache.clear()
    settings.LOGIN_FAILURES_PER_ACCOUNT = 0
    settings.LOGIN_FAILURES_PER_ADDRESS = 0
    assert {post_log_in(client, "owner", "wrong").status_code for _ in range(30)} == {200}


def test_the_admin_log_in_is_throttled_too(db, client):
    User.objects.create_superuser("boss", password=PASSWORD)
    url = reverse("admin:login")
    for _ in range(5):
        client.post(url, {"username": "boss", "password": "wrong"})
    response = client.post(url, {"username": "boss", "password": PASSWORD})
    assert "Too many failed attempts to log in to this account" in response.content.decode()
    assert not logged_in(client)


def test_throttle_settings_are_read_from_the_environment():
    env = {
        **os.environ,
        "LOGIN_FAILURES_PER_ACCOUNT": "3",
        "LOGIN_FAILURES_PER_ADDRESS": "7",
        "LOGIN_FAILURE_WINDOW": "120",
        "TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8",
        "CSP_REPORT_ONLY": "1",
    }
    code = (
        "from gangfight_site import settings as s; print(s.LOGIN_FAILURES_PER_ACCOUNT,"
        " s.LOGIN_FAILURES_PER_ADDRESS, s.LOGIN_FAILURE_WINDOW, ','.join(s.TRUSTED_PROXIES),"
        " s.CSP_REPORT_ONLY)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert out.stdout.split() == ["3", "7", "120", "127.0.0.1,10.0.0.0/8", "True"], out.stderr


# --------------------------------------------------------------------------- headers


def test_every_answer_carries_a_content_security_policy_and_a_permissions_policy(client, db):
    for url in [reverse("home"), reverse("login"), reverse("rules"), "/no-such-page/"]:
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'"  # no inline scripts, no eval
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
        assert directives["base-uri"] == "'self'" and directives["form-action"] == "'self'"
        assert directives["default-src"] == "'self'"
        features = response["Permissions-Policy"]
        for feature in ["camera", "microphone", "geolocation", "payment", "usb"]:
            assert f"{feature}=()" in features


def test_the_policy_can_be_report_only_or_replaced(client, db, settings):
    settings.CSP_REPORT_ONLY = True
    response = client.get(reverse("home"))
    assert "Content-Security-Policy" not in response
    assert "script-src 'self'" in response["Content-Security-Policy-Report-Only"]
    settings.CSP_REPORT_ONLY = False
    settings.CONTENT_SECURITY_POLICY = "default-src 'none'"
    assert client.get(reverse("home"))["Content-Security-Policy"] == "default-src 'none'"


def page_templates() -> list[Path]:
    """The templates a browser shows (the pdf/ ones only go to WeasyPrint)."""
    folders = [ROOT / "templates", *ROOT.glob("*/templates"), *ROOT.glob("*/*/templates")]
    found = {p for folder in folders for p in folder.rglob("*.html")}
    return sorted(p for p in found if "/templates/pdf/" not in p.as_posix())


def test_no_template_has_an_inline_script_or_event_handler():
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
    handler = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)
    offenders = []
    for path in page_templates():
        text = path.read_text("utf-8")
        if inline_script.search(text) or handler.search(text) or "javascript:" in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert page_templates() and not offenders


def test_htmx_is_told_not_to_eval_nor_add_inline_styles(client, db):
    page = client.get(reverse("home")).content.decode()
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page)
    config = json.loads(meta.group(1))
    assert config["allowEval"] is False
    assert config["allowScriptTags"] is False
    assert config["includeIndicatorStyles"] is False
    css = (ROOT / "static" / "css" / "app.css").read_text()
    assert ".htmx-indicator" in css and ".htmx-request .htmx-indicator" in css
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)


# --------------------------------------------------------------------------- CSV


@pytest.mark.parametrize(
    "text",
    [
        "=1+1",
        "+1",
        "-2+3",
        "@SUM(A1)",
        "\tx",
        "\rx",
        "\nx",
        '\uff1dHYPERLINK("http://evil")',  # full-width equals
        "\uff0b1",  # full-width plus
        "\uff0d1",  # full-width hyphen-minus
        "\uff20SUM(A1)",  # full-width commercial at
        "\ufe66cmd",  # small equals
        "\ufe62\ufe63\ufe6b",  # small plus, minus, at
        "\u207a1",  # superscript plus
        "\u208c1",  # subscript equals
        "\u22121",  # minus sign
        "\u2795x",  # heavy plus
        " =1+1",  # behind a space
        "\u00a0=1",  # behind a no-break space
        "\u200b=1",  # behind a zero-width space
        "\ufeff\uff1d1",  # behind a byte-order mark
        "\u3000\uff1d1",  # behind an ideographic space
    ],
)
def test_formula_starts_and_their_look_alikes_are_neutralised(text):
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Ann", "The Wild Bunch", "", "1.5", "yes", -4, 3, 0.5, None])
def test_other_cells_are_left_alone(value):
    assert safe_cell(value) == value


# --------------------------------------------------------------------------- outages


def database_down():
    """The database stops answering: every new query fails to get a cursor."""
    return mock.patch.object(
        connection,
        "ensure_connection",
        side_effect=OperationalError("server closed the connection unexpectedly"),
    )


def test_while_the_database_is_down_a_page_answers_503_and_recovers_after(owner_client):
    with database_down():
        response = owner_client.get(reverse("gang_list"))
    assert response.status_code == 503
    page = response.content.decode()
    assert 'data-testid="outage"' in page and "Nothing you saved is lost" in page
    assert response["Retry-After"] == "30"
    assert "no-cache" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
    assert "Content-Security-Policy" in response
    # The database is back: the next request just works.
    assert owner_client.get(reverse("gang_list")).status_code == 200


def test_an_interface_error_is_an_outage_too(owner_client):
    with mock.patch.object(connection, "ensure_connection", side_effect=InterfaceError("gone")):
        assert owner_client.get(reverse("gang_list")).status_code == 503


def test_an_outage_outside_a_view_is_a_503_as_well(owner):
    """The 404 page needs the user, so the database: its failure reaches handler500."""
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    with database_down():
        response = client.get("/no-such-page/")
    assert response.status_code == 503
    assert 'data-testid="outage"' in response.content.decode()


def test_other_errors_are_still_500(owner_client, monkeypatch):
    client = Client(raise_request_exception=False)
    client.cookies = owner_client.cookies
    with mock.patch("builder.views.gangs.render", side_effect=RuntimeError("a bug")):
        response = client.get(reverse("gang_list"))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_the_outage_page_touches_no_database():
    """No ``db`` fixture here: a query would raise "Database access not allowed"."""
    response = outage_response()
    assert response.status_code == 503
    assert "Back in a moment" in response.content.decode()


# --------------------------------------------------------------------------- /healthz


def test_healthz_says_ok_without_a_login_and_is_never_cached(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok"}
    assert "no-store" in response["Cache-Control"] and "max-age=0" in response["Cache-Control"]
    assert client.post("/healthz").status_code == 405


def test_healthz_reports_a_database_that_does_not_answer(client, db):
    with database_down():
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "error", "cache": "ok"}
    assert client.get("/healthz").status_code == 200


def test_healthz_reports_a_cache_that_does_not_answer(client, db):
    with mock.patch.object(cache, "set", side_effect=ConnectionError("redis is down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "cache": "error"}
