"""No game system's id is written outside its own package (``rules/systems/<id>/``,
``builder/editors/<id>/``) and the one registry: the rest of the app asks the system or
its editor (issue 28). A new system then touches only its own folders."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rules.registry import all_systems

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "rules",
    "common",
    "builder",
    "campaigns",
    "play",
    "accounts",
    "notifications",
    "gangfight_site",
)
SKIP_PARTS = {"migrations", "__pycache__"}


def _own_folder(path: Path) -> str | None:
    """The system id whose package ``path`` is in, if any."""
    parts = path.relative_to(ROOT).parts
    for i in range(len(parts) - 2):
        if parts[i : i + 2] in (("rules", "systems"), ("builder", "editors")):
            return parts[i + 2]
    return None


def _files(suffix: str):
    for app in APPS:
        for path in sorted((ROOT / app).rglob(f"*{suffix}")):
            if SKIP_PARTS & set(path.parts):
                continue
            yield path
    if suffix == ".html":
        yield from sorted((ROOT / "templates").rglob("*.html"))


def ids_written(ids: set[str]) -> list[str]:
    found = []
    for path in _files(".py"):
        own = _own_folder(path)
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in ids and node.value != own:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    alternatives = "|".join(map(re.escape, sorted(ids)))
    quoted = re.compile(rf"""["']({alternatives})["']""")
    for path in _files(".html"):
        own = _own_folder(path)
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for match in quoted.finditer(line):
                if match.group(1) != own:
                    found.append(f"{path.relative_to(ROOT)}:{n}: {match.group(0)}")
    return found


def test_no_system_id_outside_its_package():
    ids = {s.id for s in all_systems()}
    assert len(ids) >= 5
    assert ids_written(ids) == []


def test_the_check_finds_an_id_written_in_the_app(tmp_path, monkeypatch):
    """The check above is not blind: the five ids are found where the packages keep them
    (each package names its own id), so a sixth written in an app would be found too."""
    ids = {s.id for s in all_systems()}
    monkeypatch.setattr("tests.test_system_ids._own_folder", lambda path: None, raising=True)
    written = ids_written(ids)
    assert {line.rsplit(" ", 1)[1].strip("'\"") for line in written} >= ids
