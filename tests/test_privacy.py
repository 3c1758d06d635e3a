"""Each app holds its part of a user's data (``<app>/privacy.py``: ``export_user_data`` and
``forget_user``) and accounts only calls them, found by name (issue 28): accounts imports
no app above it, and the data download holds every app's part. (What the download holds
and what deleting does: tests/test_account_data.py, tests/test_account_leaving.py.)"""

from __future__ import annotations

import ast
import io
import zipfile
from pathlib import Path

import pytest
from django.urls import reverse

from accounts import privacy as own_part
from accounts import services as accounts
from builder.models import ContentPack
from campaigns.leagues import services as league_services
from common.discovery import app_modules
from tests.factories import build_gang
from tests.helpers.users import client_for, make_user

ROOT = Path(__file__).resolve().parents[1]
#: the apps above accounts (tests/test_layers.py): accounts reaches them only by discovery
ABOVE_ACCOUNTS = ("builder", "campaigns", "play", "notifications")


def imported_modules(path: Path, source: str | None = None) -> list[tuple[int, str]]:
    """Every module ``path`` imports (inside functions and ``TYPE_CHECKING`` blocks too),
    with its line: absolute names (a relative import is resolved from ``path``)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    if source is None:
        source = path.read_text("utf-8")
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module or ""]).strip(".")
            else:
                module = node.module or ""
            found.append((node.lineno, module))
    return found


def test_accounts_services_imports_no_other_app():
    path = ROOT / "accounts" / "services.py"
    wrong = [
        f"line {line}: {module}"
        for line, module in imported_modules(path)
        if module.split(".")[0] in ABOVE_ACCOUNTS
    ]
    assert wrong == []


def test_no_module_of_accounts_imports_an_app_above_it():
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in sorted((ROOT / "accounts").rglob("*.py"))
        if "migrations" not in path.parts
        for line, module in imported_modules(path)
        if module.split(".")[0] in ABOVE_ACCOUNTS
    ]
    assert wrong == []


def test_the_import_check_sees_imports_inside_functions():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    import play.models\n"
        "def f():\n"
        "    from builder import services\n"
        "    from . import names\n"
    )
    found = imported_modules(ROOT / "accounts" / "services.py", source)
    assert found[1:] == [(3, "play.models"), (5, "builder"), (6, "accounts")]


def test_every_app_with_a_users_data_has_its_part_in_a_fixed_order(db):
    names = [m.__name__ for m in app_modules("privacy")]
    assert sorted(names) == sorted(
        [
            "accounts.privacy",
            "builder.privacy",
            "campaigns.privacy",
            "campaigns.leagues.privacy",
            "notifications.privacy",
            "play.privacy",
        ]
    )
    # the order of today's deletion: gangs, campaigns handed on, leagues and clubs left
    assert [m.__name__ for m in accounts._parts()] == [
        "builder.privacy",
        "campaigns.privacy",
        "campaigns.leagues.privacy",
        "play.privacy",
        "notifications.privacy",
    ]
    for module in app_modules("privacy"):
        assert callable(module.export_user_data) and callable(module.forget_user)


@pytest.mark.usefixtures("content")
def test_my_data_holds_every_apps_part(db):
    ann = make_user("ann", "ann@example.org")
    build_gang(ann, name="Ann's Gang")
    ContentPack.objects.create(owner=ann, system="bwg1", name="Ann's Pack")
    league_services.create_club(ann, name="Ann's Club")
    response = client_for(ann).get(reverse("my_data_download"))
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = archive.namelist()
    parts = {module.__name__: module.export_user_data(ann) for module in app_modules("privacy")}
    for module, files in parts.items():
        assert set(files) <= set(names), module
    assert names == [
        "README.txt",
        "account.json",
        "gangs/anns-gang-bwg1-roster.json",
        "packs/anns-pack-bwg1-pack.json",
        "campaigns.json",
        "leagues.json",
        "games.json",
    ]
    assert set(names) == {"README.txt"}.union(*parts.values())
    assert archive.read("account.json") == own_part.export_user_data(ann)["account.json"].encode()


def test_an_app_part_that_repeats_a_file_name_is_refused(db, monkeypatch):
    ann = make_user("ann")
    monkeypatch.setattr(own_part, "export_user_data", lambda user: {"games.json": []})
    with pytest.raises(ValueError, match=r"games\.json"):
        accounts.my_data(ann)


def test_a_handed_on_campaign_or_club_is_told_through_the_signal(db):
    """accounts mails the heir and notifications lists the news, both listening to
    ``accounts.signals.handed_over`` (campaigns and leagues send it)."""
    from accounts.signals import handed_over
    from notifications.models import Mailed, Notice

    heir = make_user("heir", "heir@example.org")
    handed_over.send(None, heir=heir, name="Deadrock", url="/somewhere/")
    notice = Notice.objects.get(user=heir)
    assert "You now organise Deadrock" in notice.text and notice.url == "/somewhere/"
    assert Mailed.objects.filter(user=heir, key=f"n{notice.pk}").exists()  # mailed on its own
