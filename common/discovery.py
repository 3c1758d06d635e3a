"""How a lower app reaches what the apps above it offer, without importing them by name:
an app offers a module of a fixed name (``<app>/privacy.py``, ``<app>/book_texts.py``)
and the one that needs it asks for every installed app's module of that name.

This is the interface between the layers (tests/test_layers.py): the module's name and
the functions it defines are the contract, written down where they are used
(``accounts/services.py`` for ``privacy``, ``common/templatetags/gangfight_i18n.py`` for
``book_texts``).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import ModuleType

from django.apps import apps
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.module_loading import module_has_submodule


@cache
def app_modules(name: str) -> tuple[ModuleType, ...]:
    """Each installed app's module ``name`` (``<app>.<name>``), for the apps that have one,
    in the order of ``INSTALLED_APPS`` (looked up once: a test that changes
    ``INSTALLED_APPS`` has it looked up again)."""
    found = []
    for config in apps.get_app_configs():
        if module_has_submodule(config.module, name):
            found.append(import_module(f"{config.name}.{name}"))
    return tuple(found)


@receiver(setting_changed)
def _apps_changed(setting: str, **kwargs) -> None:
    if setting == "INSTALLED_APPS":
        app_modules.cache_clear()
