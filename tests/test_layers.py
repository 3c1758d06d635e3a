"""The apps in layers, with no import circle between them (issue 28).

Counted: every import of every module of the apps, inside functions and ``TYPE_CHECKING``
blocks too (grimp, the graph import-linter builds, reads them all: the last test shows it).
Left out: migrations. The site's wiring, ``gangfight_site`` (settings, URL table, process
entry points, checks, its few pages), is the top layer: it may import every app, and no app
imports it; what every app uses is in ``common``, below them all.

The layers, top to bottom, are the import-linter contract's in pyproject.toml
(``[tool.importlinter]``), with ``campaigns.leagues`` above the rest of ``campaigns``
(its second contract). CI runs the contract by ``lint-imports`` (the first test); the
tests below say the same at the level of the apps, naming the import lines.

What an app needs from one above it comes through an interface: a signal the upper app
listens to (campaigns/signals.py, accounts/signals.py), or a module of a fixed name the
lower one asks every app for (common/discovery.py: ``<app>/privacy.py``,
``<app>/book_texts.py``).
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path

import grimp
import networkx as nx
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
CONTRACT = next(c for c in CONFIG["contracts"] if c["id"] == "layers")
LEAGUES = "campaigns.leagues"
#: the apps, top to bottom
APPS: list[str] = []
for _layer in CONTRACT["layers"]:
    APPS += [LEAGUES, _layer] if _layer == "campaigns" else [_layer]
#: modules that wire the apps together (each may import any app)
WIRING = {
    rule.split(" -> ")[0]
    for rule in CONTRACT["ignore_imports"]
    if rule.endswith(" -> **") and "*" not in rule.split(" -> ")[0]
}


def app_of(module: str) -> str:
    if module == LEAGUES or module.startswith(LEAGUES + "."):
        return LEAGUES
    return module.split(".")[0]


def counted(module: str) -> bool:
    return module not in WIRING and "migrations" not in module.split(".")


@cache
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*CONFIG["root_packages"], cache_dir=None)


@cache
def app_imports() -> dict[tuple[str, str], list[str]]:
    """(importing app, imported app) → the import lines ("module:line imported")."""
    g = graph()
    edges: dict[tuple[str, str], list[str]] = {}
    for importer in sorted(g.modules):
        if not counted(importer):
            continue
        for imported in sorted(g.find_modules_directly_imported_by(importer)):
            pair = (app_of(importer), app_of(imported))
            if pair[0] == pair[1]:
                continue
            for detail in g.get_import_details(importer=importer, imported=imported):
                edges.setdefault(pair, []).append(
                    f"{importer}:{detail['line_number']} {detail['line_contents']}"
                )
    return edges


def described(pairs) -> str:
    lines = []
    for pair in pairs:
        lines.append(f"{pair[0]} -> {pair[1]}:")
        lines += [f"    {line}" for line in app_imports()[pair]]
    return "\n".join(lines)


def test_the_import_contracts_are_kept():
    """``lint-imports`` (CI's check) with the contracts of pyproject.toml."""
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_every_app_has_its_layer():
    """A new app is placed in the layers before it is used."""
    ours = {
        name.split(".apps.")[0]
        for name in settings.INSTALLED_APPS
        if name.split(".")[0] in CONFIG["root_packages"]
    }
    assert ours <= set(APPS), sorted(ours - set(APPS))
    assert set(CONFIG["root_packages"]) <= set(APPS)


def test_no_import_circle_between_apps():
    """No two apps reach each other by imports, directly or through others (a circle is a
    strongly connected set of apps: the message names each import inside it)."""
    apps = nx.DiGraph(list(app_imports()))
    circles = [sorted(c) for c in nx.strongly_connected_components(apps) if len(c) > 1]
    inside = [(a, b) for a, b in app_imports() if any(a in c and b in c for c in circles)]
    assert circles == [], f"apps in an import circle: {circles}\n" + described(inside)


def test_each_app_imports_only_the_apps_below_it():
    upward = [(a, b) for a, b in app_imports() if APPS.index(b) < APPS.index(a)]
    assert upward == [], f"layers, top to bottom: {APPS}\n" + described(upward)


def test_url_modules_import_only_their_own_app():
    """An app's URL table is wiring: it routes to its own views (the site's URL table,
    gangfight_site/urls.py, routes to every app's)."""
    g = graph()
    wrong = []
    for module in sorted(g.modules):
        if module.endswith(".urls") and counted(module) and app_of(module) != "gangfight_site":
            wrong += [
                f"{module} -> {imported}"
                for imported in sorted(g.find_modules_directly_imported_by(module))
                if app_of(imported) != app_of(module)
            ]
    assert wrong == []


def test_the_graph_counts_imports_inside_functions_and_type_checking_blocks(tmp_path):
    (tmp_path / "upper").mkdir()
    (tmp_path / "lower").mkdir()
    for name in ("upper/__init__.py", "lower/__init__.py", "lower/a.py", "lower/b.py"):
        (tmp_path / name).write_text("")
    (tmp_path / "lower" / "c.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    import upper.x\n"
        "def f():\n"
        "    from upper import y\n"
    )
    for name in ("x", "y"):
        (tmp_path / "upper" / f"{name}.py").write_text("")
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(tmp_path))
        g = grimp.build_graph("upper", "lower", cache_dir=None)
    assert g.find_modules_directly_imported_by("lower.c") == {"upper.x", "upper.y"}
