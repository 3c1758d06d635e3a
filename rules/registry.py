"""Finds the game systems: every module in ``rules.systems`` that defines ``SYSTEM``."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from rules import systems as _systems_package
from rules.base import GameSystem


@cache
def _load() -> dict[str, GameSystem]:
    found: dict[str, GameSystem] = {}
    for info in sorted(pkgutil.iter_modules(_systems_package.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{_systems_package.__name__}.{info.name}")
        system = getattr(module, "SYSTEM", None)
        if system is None:
            continue
        if system.id in found:
            raise RuntimeError(f"two rules modules claim the system id {system.id!r}")
        found[system.id] = system
    return found


def all_systems() -> list[GameSystem]:
    return list(_load().values())


def get_system(system_id: str) -> GameSystem:
    try:
        return _load()[system_id]
    except KeyError:
        raise KeyError(f"unknown game system {system_id!r}") from None


def system_choices() -> list[tuple[str, str]]:
    return [(s.id, s.name) for s in all_systems()]
