"""Issue 27, finding 9: ``manage.py check --deploy`` has checks of our own (SITE_URL set,
the proxy settings coherent, Redis's memory policy), so a misconfiguration is an error at
start, not a lockout later; and the README's production recipe, followed word for word
behind its reverse proxy, gives none of findings 1, 3 and 6."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def deployed(settings):
    """Settings a correct deployment has (the README's)."""
    settings.SITE_URL = "https://gangfight.example.org"
    settings.ALLOWED_HOSTS = ["gangfight.example.org"]
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.TRUST_X_FORWARDED_FOR = False
    settings.REDIS_URL = ""
    return settings


def our_messages(capsys=None) -> list[str]:
    from django.core import checks

    found = checks.run_checks(include_deployment_checks=True, tags=["gangfight"])
    return [f"{m.id}: {m.msg}" for m in found]


def errors() -> list[str]:
    from django.core import checks

    found = checks.run_checks(include_deployment_checks=True, tags=["gangfight"])
    return [m.id for m in found if m.level >= checks.ERROR]


def test_a_correct_deployment_passes(deployed):
    assert errors() == []
    call_command("check", deploy=True, tags=["gangfight"])


def test_no_site_url_is_an_error_at_check_deploy(deployed):
    deployed.SITE_URL = ""
    with pytest.raises(SystemCheckError, match="SITE_URL"):
        call_command("check", deploy=True)


@pytest.mark.parametrize(
    ("site_url", "wrong"),
    [("gangfight.example.org", "scheme"), ("https://elsewhere.example.org", "ALLOWED_HOSTS")],
)
def test_a_site_url_that_cannot_be_right_is_an_error(deployed, site_url, wrong):
    deployed.SITE_URL = site_url
    assert any(wrong in m for m in our_messages()) and errors()


@pytest.mark.parametrize("trusted", [["0.0.0.0/0"], ["::/0"], ["127.0.0.1", "0.0.0.0/1"]])
def test_trusting_everyone_as_a_proxy_is_an_error(deployed, trusted):
    deployed.TRUSTED_PROXIES = trusted
    assert "gangfight.E011" in errors()


def test_the_old_yes_no_flag_is_an_error(deployed):
    deployed.TRUST_X_FORWARDED_FOR = True
    assert "gangfight.E010" in errors()


def test_a_bad_trusted_proxies_value_stops_the_app_at_start():
    env = {**os.environ, "TRUSTED_PROXIES": "127.0.0.1, my-proxy"}
    out = subprocess.run(
        [sys.executable, "-c", "import gangfight_site.settings"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and "TRUSTED_PROXIES" in out.stderr and "my-proxy" in out.stderr


@pytest.mark.parametrize(
    ("policy", "maxmemory", "level"),
    [
        ("allkeys-lru", "268435456", "error"),
        ("allkeys-random", "268435456", "error"),
        ("noeviction", "0", "warning"),
        ("volatile-lru", "0", "warning"),
        ("volatile-lru", "268435456", None),
        ("volatile-ttl", "268435456", None),
    ],
)
def test_redis_memory_policy(deployed, policy, maxmemory, level):
    from django.core import checks

    deployed.REDIS_URL = "redis://127.0.0.1:6379/0"
    fake = mock.MagicMock()
    fake.config_get.side_effect = lambda name: {
        "maxmemory-policy": {"maxmemory-policy": policy},
        "maxmemory": {"maxmemory": maxmemory},
    }[name]
    with mock.patch("redis.Redis.from_url", return_value=fake):
        found = [
            m
            for m in checks.run_checks(include_deployment_checks=True, tags=["gangfight"])
            if "Redis" in m.msg
        ]
    if level is None:
        assert found == []
    elif level == "error":
        assert any(m.level >= checks.ERROR for m in found)
    else:
        assert found and all(checks.WARNING <= m.level < checks.ERROR for m in found)


# --------------------------------------------------------------------------- the README


def readme_production() -> tuple[dict[str, str], str]:
    """The environment the README's production recipe exports, and its proxy's config."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text[text.index("## Production") :]
    section = section[: section.index("\n## ", 5)]
    env = {}
    for name, value in re.findall(r"^export (\w+)=(\S+)", section, re.M):
        env[name] = value.strip('"')
    nginx = re.search(r"```nginx\n(.*?)```", section, re.S).group(1)
    return env, nginx


def test_the_readme_recipe_passes_check_deploy():
    env, _nginx = readme_production()
    assert {"SITE_URL", "TRUSTED_PROXIES", "SECRET_KEY", "ALLOWED_HOSTS"} <= set(env)
    # (not the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE either, set in this process when
    # they share its worker: check --deploy rightly refuses it)
    dropped = ("REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    run_env = {k: v for k, v in os.environ.items() if k not in dropped}
    run_env.update(env)
    run_env["SECRET_KEY"] = "readme-recipe-" + "x" * 40
    run_env["DATABASE_URL"] = "sqlite:///:memory:"
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "ERROR"],
        env=run_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr + out.stdout
    # and without SITE_URL the app does not start at all
    del run_env["SITE_URL"]
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        env=run_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and "SITE_URL" in out.stderr


def readme_settings() -> dict:
    """What the app's settings are under the README's environment (read in a process of
    their own, as gunicorn would)."""
    env, _nginx = readme_production()
    # (not the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE either, set in this process when
    # they share its worker: check --deploy rightly refuses it)
    dropped = ("REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    run_env = {k: v for k, v in os.environ.items() if k not in dropped}
    run_env.update(env)
    run_env["SECRET_KEY"] = "readme-recipe-" + "x" * 40
    run_env["DATABASE_URL"] = "sqlite:///:memory:"
    code = (
        "import json; from gangfight_site import settings as s; print(json.dumps({n: "
        "getattr(s, n) for n in ('ALLOWED_HOSTS', 'SITE_URL', 'TRUSTED_PROXIES',"
        " 'CSRF_TRUSTED_ORIGINS', 'SECURE_PROXY_SSL_HEADER', 'TRUST_X_FORWARDED_FOR')}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=run_env, cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


class Proxy:
    """A browser's requests as the README's proxy hands them to the app: from the proxy's
    own address (gunicorn listens on 127.0.0.1), with the headers its config sets."""

    def __init__(self, nginx: str, client_address: str):
        self.headers = dict(re.findall(r"proxy_set_header\s+(\S+)\s+([^;]+);", nginx))
        assert "127.0.0.1:8000" in re.search(r"proxy_pass\s+([^;]+);", nginx).group(1)
        self.client_address = client_address

    def client(self, sent_forwarded_for: str = "") -> Client:
        forwarded = self.headers.get("X-Forwarded-For", "")
        if forwarded == "$remote_addr":
            xff = self.client_address
        elif forwarded == "$proxy_add_x_forwarded_for":
            xff = ", ".join(filter(None, [sent_forwarded_for, self.client_address]))
        else:
            pytest.fail(f"The README's proxy sets X-Forwarded-For to {forwarded!r}")
        return Client(
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=xff,
            HTTP_X_FORWARDED_PROTO="https",
            # a Host the attacker chose, with a port: ALLOWED_HOSTS ignores the port
            HTTP_HOST="gangfight.example.org:6666",
        )


@pytest.fixture
def recipe(settings, tmp_path):
    values = readme_settings()
    for name, value in values.items():
        setattr(settings, name, tuple(value) if name == "SECURE_PROXY_SSL_HEADER" else value)
    settings.PDF_LOCK_DIR = tmp_path / "locks"
    _env, nginx = readme_production()
    return nginx


def test_the_readme_recipe_gives_none_of_findings_1_3_and_6(recipe, db, background, monkeypatch):
    nginx = recipe
    alice = User.objects.create_user("alice", "alice@example.org", PASSWORD)
    # 1. an attacker's made-up usernames lock out only the attacker
    attacker = Proxy(nginx, "203.0.113.9")
    for n in range(30):
        attacker.client(sent_forwarded_for=f"192.0.2.{n}").post(
            reverse("login"), {"username": f"made-up-{n}", "password": "guess"}
        )
    player = Proxy(nginx, "198.51.100.20").client()
    response = player.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    # 3. two players' prints are two clients of the render gate, not the proxy's one
    from django.test import RequestFactory

    from builder.views import printing

    requests = []
    for user, address in ((alice, "198.51.100.20"), (None, "198.51.100.21")):
        request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=address)
        from django.contrib.auth.models import AnonymousUser

        request.user = user or AnonymousUser()
        requests.append(request)
    assert len({printing.client_of(r, "gang:1") for r in requests}) == 2
    # 6. a reset mail asked with Host gangfight.example.org:6666 links to SITE_URL
    Proxy(nginx, "198.51.100.20").client().post(
        reverse("password_reset"), {"email": "alice@example.org"}
    )
    background.run_all()
    (message,) = mail.outbox
    assert "https://gangfight.example.org/accounts/password/reset/" in message.body
    assert ":6666" not in message.body


def test_a_production_server_refuses_to_start_on_an_error(deployed):
    """wsgi.py runs our checks at start with DEBUG off (development is not held to them)."""
    from django.core.exceptions import ImproperlyConfigured

    from gangfight_site.checks import refuse_misconfiguration

    deployed.DEBUG = False
    refuse_misconfiguration()  # the README's settings: fine
    deployed.TRUSTED_PROXIES = ["0.0.0.0/0"]
    with pytest.raises(ImproperlyConfigured, match=r"gangfight\.E011"):
        refuse_misconfiguration()
    deployed.DEBUG = True
    refuse_misconfiguration()
    wsgi = (ROOT / "gangfight_site" / "wsgi.py").read_text()
    assert "refuse_misconfiguration()" in wsgi
