"""Each game system's browser builder: one module per system that defines ``EDITOR``.

A system without a module (or whose editor has no actions) is shown read-only, and its
gangs change by importing a roster file.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from builder.editors.base import ActionContext, ActionForm, Catalogue, Editor, EntryForm

__all__ = [
    "ActionContext",
    "ActionForm",
    "Catalogue",
    "Editor",
    "EntryForm",
    "all_editors",
    "get_editor",
]


@cache
def _load() -> dict[str, Editor]:
    found: dict[str, Editor] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        editor = getattr(module, "EDITOR", None)
        if editor is not None:
            found[editor.system_id] = editor
    return found


def get_editor(system_id: str) -> Editor:
    editor = _load().get(system_id)
    if editor is None:
        editor = Editor()
        editor.system_id = system_id
    return editor


def all_editors() -> list[Editor]:
    return list(_load().values())
