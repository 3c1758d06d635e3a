"""Each game system's browser builder: one package per system (``builder/editors/<id>/``)
whose ``__init__`` defines ``EDITOR``, with its templates (``templates/editors/<id>/``) and
its stylesheet (``static/editors/<id>/``, optional, declared by the editor).

A system without an editor (or whose editor has no actions) is shown read-only, and its
gangs change by importing a roster file. More packages of editors can be added with
:func:`add_package` (the test suite's sixth game, ``tests/systems/editors``); the template
loader and the static files finder below serve every editor package's files.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path

from django.contrib.staticfiles.finders import BaseFinder, FileSystemFinder
from django.core.files.storage import FileSystemStorage
from django.template.loaders.filesystem import Loader as FileSystemLoader

from builder.editors.base import ActionContext, ActionForm, Catalogue, Editor, EntryForm

__all__ = [
    "ActionContext",
    "ActionForm",
    "Catalogue",
    "Editor",
    "EntryForm",
    "add_package",
    "all_editors",
    "catalogue_system",
    "get_editor",
]

_PACKAGES: list[str] = [__name__]


def add_package(name: str) -> None:
    """Look for editors in the sub-packages of ``name`` too."""
    if name not in _PACKAGES:
        _PACKAGES.append(name)
        _load.cache_clear()


def remove_package(name: str) -> None:
    if name in _PACKAGES and name != __name__:
        _PACKAGES.remove(name)
        _load.cache_clear()


@cache
def _load() -> dict[str, tuple[Editor, Path]]:
    from rules.registry import get_system

    found: dict[str, tuple[Editor, Path]] = {}
    for package_name in _PACKAGES:
        package = importlib.import_module(package_name)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            if not info.ispkg:
                continue
            module = importlib.import_module(f"{package_name}.{info.name}")
            editor = getattr(module, "EDITOR", None)
            if editor is None:
                continue
            get_system(editor.system_id)  # an editor names a known system
            if editor.system_id in found:
                raise RuntimeError(f"two editors claim the system id {editor.system_id!r}")
            found[editor.system_id] = (editor, Path(module.__file__).parent)
    return found


def get_editor(system_id: str) -> Editor:
    known = _load().get(system_id)
    if known is not None:
        return known[0]
    editor = Editor()
    editor.system_id = system_id
    return editor


def all_editors() -> list[Editor]:
    return [editor for editor, _folder in _load().values()]


def catalogue_system() -> str:
    """The system whose editor keeps a weapon catalogue (the Catalogue pages), or ""."""
    return next((e.system_id for e in all_editors() if e.weapon_catalogue), "")


def _folders(name: str) -> list[str]:
    return [str(folder / name) for _editor, folder in _load().values()]


class TemplateLoader(FileSystemLoader):
    """Finds ``editors/<id>/...`` templates in each editor package's ``templates/``."""

    def get_dirs(self):
        return _folders("templates")


class StaticFinder(FileSystemFinder):
    """Finds ``editors/<id>/...`` static files in each editor package's ``static/``, read
    from the registry each time (a package added later is served too)."""

    def __init__(self, app_names=None, *args, **kwargs):
        self._storages: dict[str, FileSystemStorage] = {}
        BaseFinder.__init__(self, *args, **kwargs)

    @property
    def locations(self):
        return [("", d) for d in _folders("static") if Path(d).is_dir()]

    @property
    def storages(self):
        for _prefix, root in self.locations:
            if root not in self._storages:
                self._storages[root] = FileSystemStorage(location=root)
                self._storages[root].prefix = ""
        return self._storages

    def check(self, **kwargs):
        return []
