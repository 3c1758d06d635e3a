"""The project's promises: the README's two commands, CI, settings, generated docs."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from rules import all_systems
from rules.docs import rules_markdown

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    lines = [line.strip() for line in (ROOT / "README.md").read_text().splitlines()]
    return [line for line in lines[:5] if line]


def test_readme_starts_with_the_serve_command_and_the_test_command():
    serve, test = readme_commands()[:2]
    install_uv = "PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install -q uv && "
    assert serve.startswith(install_uv) and serve.endswith("manage.py serve")
    assert test == "bash .ci/test"


def test_the_test_command_installs_what_it_needs_then_runs_pytest_over_every_cpu():
    """.ci/test is all a newcomer needs: it installs the Debian packages the tests use
    when they are missing, and uv, then runs pytest with pytest-xdist."""
    script = ROOT / ".ci" / "test"
    text = script.read_text()
    assert os.access(script, os.X_OK)
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
    for package in ("chromium", "redis-server", "gettext", "poppler-utils", "libpango"):
        assert package in text, package
    assert "pip install -q uv" in text
    assert 'pytest -n "${TEST_WORKERS:-auto}"' in text


def test_ci_runs_the_readmes_test_command_word_for_word():
    test = readme_commands()[1]
    assert f"TEST_COMMAND='{test}'" in (ROOT / ".ci" / "run").read_text()


def test_ci_script_is_executable_bash():
    script = ROOT / ".ci" / "run"
    assert os.access(script, os.X_OK)
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0


def test_docs_rules_md_is_generated_from_the_engine():
    assert (ROOT / "docs" / "rules.md").read_text() == rules_markdown(), (
        "docs/rules.md is out of date: run `python -m rules.docs > docs/rules.md`"
    )


def test_every_rule_code_is_documented_once():
    text = (ROOT / "docs" / "rules.md").read_text()
    for system in all_systems():
        for rule in system.rules:
            assert rule.code.startswith(f"{system.id}.")
            assert text.count(f"`{rule.code}`") >= 1


def _settings_import(env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    return subprocess.run(
        [sys.executable, "-c", "import gangfight_site.settings as s; print(s.DEBUG)"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_without_debug_a_secret_key_is_required():
    result = _settings_import({"DEBUG": "0"})
    assert result.returncode != 0
    assert "Set SECRET_KEY in the environment when DEBUG is off." in result.stderr
    # (and SITE_URL, since issue 27: tests/test_hardening_links.py)
    result = _settings_import(
        {"DEBUG": "0", "SECRET_KEY": "x" * 50, "SITE_URL": "https://gangfight.example.org"}
    )
    assert result.returncode == 0 and result.stdout.strip() == "False"


def test_wsgi_is_not_in_debug_mode_by_default():
    text = (ROOT / "gangfight_site" / "wsgi.py").read_text()
    assert 'os.environ.setdefault("DEBUG", "0")' in text


def test_the_sqlite_default_lives_in_the_project_and_is_ignored_by_git():
    from django.conf import settings

    ignored = (ROOT / ".gitignore").read_text().split()
    assert "db.sqlite3" in ignored and "*.pdf" in ignored and ".venv/" in ignored
    if not os.environ.get("DATABASE_URL"):
        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_migrates_loads_content_and_serves_a_fresh_database(tmp_path):
    """What the README's first command runs, on an empty SQLite file."""
    db = tmp_path / "fresh.sqlite3"
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DEBUG": "1"}
    # The server's output goes to a file: a pipe nobody reads would fill and stop it.
    log = (tmp_path / "serve.log").open("w+b")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        body = ""
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    body = r.read().decode()
                    break
            except OSError:
                if process.poll() is not None:
                    break
                time.sleep(0.25)
        assert "Build your gang" in body, (tmp_path / "serve.log").read_text() or body
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/app.css", timeout=10) as r:
            assert r.status == 200
        with sqlite3.connect(db) as conn:
            names = {n for (n,) in conn.execute("SELECT name FROM builder_item")}
        assert {"Bowie knife", "Remington Army revolver", "Winchester Repeater"} <= names
        assert {"Mule", "Small horse", "Large horse", "War horse"} <= names
    finally:
        os.killpg(process.pid, 15)
        process.wait(timeout=10)
        log.close()


def test_validate_roster_runs_on_a_freshly_migrated_database(tmp_path):
    """The command as a user runs it: its own process, a new SQLite file, real exit codes."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}"}

    def manage(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
        )

    assert manage("migrate", "-v0").returncode == 0
    examples = ROOT / "docs" / "examples"
    legal = manage("validate_roster", str(examples / "rivals-legal-red-jacks-gang.json"))
    assert legal.returncode == 0, legal.stderr
    assert "CCP: 30 / 30" in legal.stdout
    illegal = manage("validate_roster", str(examples / "gf26-illegal-too-many-captains.json"))
    assert illegal.returncode == 1
    assert "gf26.points_over_limit" in illegal.stdout
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    unreadable = manage("validate_roster", str(broken))
    assert unreadable.returncode == 2
    assert "line 1, column 2: not valid JSON" in unreadable.stderr


def test_a_server_process_settles_before_its_first_request():
    """wsgi.py loads every view and the builder's templates, then freezes them out of the
    garbage collector's sight (long full collections were the builder's slowest answers)."""
    import gc

    from gangfight_site.startup import settle

    thresholds = gc.get_threshold()
    try:
        settle()
        assert gc.get_freeze_count() > 10_000
        assert gc.get_threshold()[2] > thresholds[2]
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    wsgi = (ROOT / "gangfight_site" / "wsgi.py").read_text()
    assert wsgi.index("get_wsgi_application()") < wsgi.index("settle()")


# --------------------------------------------------------------------------- dependency audit

FAKE_PIP_AUDIT = r"""
import json, os, re, sys
args = sys.argv[1:]
requirements = open(args[args.index("-r") + 1]).read()
service = args[args.index("--vulnerability-service") + 1]
output = args[args.index("--output") + 1]
names = re.findall(r"^([A-Za-z0-9_.-]+)==", requirements, re.M)
answer = json.loads(os.environ["FAKE_AUDIT"]).get(service, "down")
if answer == "down":
    sys.exit("requests.exceptions.ConnectionError: Failed to resolve 'advisories.example'")
deps = []
for name in names:
    if answer == "unknown":
        deps.append({"name": name, "skip_reason": f"Dependency not found on PyPI: {name}"})
    else:
        vulns = []
        if answer == "vulnerable" and name.lower() == "django":
            vulns = [{"id": "PYSEC-2099-1", "fix_versions": ["9.9.9"], "aliases": []}]
        deps.append({"name": name, "version": "1", "vulns": vulns})
json.dump({"dependencies": deps, "fixes": []}, open(output, "w"))
sys.exit(1 if answer == "vulnerable" else 0)
"""


def run_audit(tmp_path, answers: dict[str, str], **env) -> subprocess.CompletedProcess:
    """`.ci/run audit` over the real locked requirements, with a pip-audit that answers
    ``answers`` (per advisory service: clean, vulnerable, unknown or down)."""
    import json
    import shutil

    script = ROOT / ".ci" / "run"
    # Without its audit mode the script would run the whole of CI, tests included.
    assert '[ "${1:-}" = "audit" ]' in script.read_text(), ".ci/run has no audit mode"
    fake = tmp_path / "fake_pip_audit.py"
    fake.write_text(FAKE_PIP_AUDIT)
    uv = os.environ.get("UV") or shutil.which("uv")
    environment = {
        **os.environ,
        "PIP_AUDIT": f"{sys.executable} {fake}",
        "FAKE_AUDIT": json.dumps(answers),
        **({"UV": uv} if uv else {}),
        **env,
    }
    return subprocess.run(
        ["bash", str(script), "audit"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_ci_audits_the_locked_requirements_before_the_tests():
    script = (ROOT / ".ci" / "run").read_text()
    assert "export --locked --no-hashes" in script and "pip-audit" in script
    assert "DEPENDENCY AUDIT SKIPPED" in script
    assert script.index("audit_dependencies || failed=1") < script.index("run_tests sqlite")
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"pip-audit' in pyproject and 'name = "pip-audit"' in (ROOT / "uv.lock").read_text()


def test_the_audit_passes_when_no_vulnerability_is_known(tmp_path):
    result = run_audit(tmp_path, {"pypi": "clean"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no known vulnerabilities" in result.stdout
    assert "SKIPPED" not in result.stdout


def test_the_audit_fails_on_a_known_vulnerability(tmp_path):
    result = run_audit(tmp_path, {"pypi": "vulnerable"})
    assert result.returncode == 1
    assert "DEPENDENCY AUDIT FAILED" in result.stdout
    assert "django 1: PYSEC-2099-1 (fixed in: 9.9.9)" in result.stdout


def test_an_unreachable_advisory_database_is_said_loudly_not_passed_silently(tmp_path):
    result = run_audit(tmp_path, {"pypi": "down", "osv": "down"})
    assert result.returncode == 0
    assert "DEPENDENCY AUDIT SKIPPED" in result.stdout
    assert "Failed to resolve" in result.stdout  # and why
    # A PyPI that knows none of the packages is no better than none: OSV is asked, and
    # when it cannot answer either, the skip is said again.
    unknown = run_audit(tmp_path, {"pypi": "unknown", "osv": "down"})
    assert unknown.returncode == 0 and "DEPENDENCY AUDIT SKIPPED" in unknown.stdout
    rescued = run_audit(tmp_path, {"pypi": "unknown", "osv": "clean"})
    assert rescued.returncode == 0 and "SKIPPED" not in rescued.stdout
    required = run_audit(tmp_path, {"pypi": "down"}, DEPENDENCY_AUDIT_REQUIRED="1")
    assert required.returncode == 1 and "DEPENDENCY AUDIT SKIPPED" in required.stdout
