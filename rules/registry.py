"""The one registry of game systems.

A game system is one package: ``rules/systems/<id>/``, whose ``__init__`` defines
``SYSTEM`` (the rules, evaluation, content schemas, limit and cap help) and keeps its data
in ``data/``. Two modules of the same package are optional:

- ``campaign.py`` sets ``PROGRESSION``, its campaign rules (else :class:`XPProgression`);
- ``play.py`` sets ``TRACKER``, its play-mode tracker (else the generic :class:`Tracker`).

Nothing else scans for systems, and no code outside a system's package names its id: the
rest of the app asks the system object. More packages of systems can be added with
:func:`add_package` (the test suite's sixth game, ``tests/systems/rules``).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from rules.base import GameSystem

#: the packages whose sub-packages are game systems
_PACKAGES: list[str] = ["rules.systems"]


def add_package(name: str) -> None:
    """Look for systems in the sub-packages of ``name`` too."""
    if name not in _PACKAGES:
        _PACKAGES.append(name)
        _clear()


def remove_package(name: str) -> None:
    if name in _PACKAGES and name != "rules.systems":
        _PACKAGES.remove(name)
        _clear()


def _clear() -> None:
    _load.cache_clear()
    _part.cache_clear()


@cache
def _load() -> dict[str, tuple[GameSystem, ModuleType]]:
    found: dict[str, tuple[GameSystem, ModuleType]] = {}
    for package_name in _PACKAGES:
        package = importlib.import_module(package_name)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            if not info.ispkg:
                continue
            module = importlib.import_module(f"{package_name}.{info.name}")
            system = getattr(module, "SYSTEM", None)
            if system is None:
                continue
            if system.id in found:
                raise RuntimeError(f"two packages claim the system id {system.id!r}")
            found[system.id] = (system, module)
    return found


def all_systems() -> list[GameSystem]:
    return [system for system, _module in _load().values()]


def get_system(system_id: str) -> GameSystem:
    try:
        return _load()[system_id][0]
    except KeyError:
        raise KeyError(f"unknown game system {system_id!r}") from None


def system_choices() -> list[tuple[str, str]]:
    return [(s.id, s.name) for s in all_systems()]


def package_of(system_id: str) -> ModuleType:
    """The system's package (``rules.systems.<id>``)."""
    try:
        return _load()[system_id][1]
    except KeyError:
        raise KeyError(f"unknown game system {system_id!r}") from None


def data_dir(system_id: str) -> Path:
    """Where the system keeps its data (``<package>/data``)."""
    return Path(package_of(system_id).__file__).parent / "data"


@cache
def _part(system_id: str, module: str, name: str) -> Any:
    package = package_of(system_id)
    try:
        part = importlib.import_module(f"{package.__name__}.{module}")
    except ModuleNotFoundError as error:
        if error.name != f"{package.__name__}.{module}":
            raise
        return None
    return getattr(part, name, None)


def progression_class(system_id: str) -> Any:
    """The system's campaign progression class (``campaign.py``'s ``PROGRESSION``), or
    None: the generic one serves."""
    return _part(system_id, "campaign", "PROGRESSION")


def tracker_class(system_id: str) -> Any:
    """The system's play-mode tracker class (``play.py``'s ``TRACKER``), or None: the
    generic one serves."""
    return _part(system_id, "play", "TRACKER")


def system_part(system_id: str, module: str, name: str) -> Any:
    """Any other optional part of a system's package (``glossary.py``'s ``TERMS``...)."""
    return _part(system_id, module, name)
