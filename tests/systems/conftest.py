"""The sixth game, Duel at Dawn, registered for the tests of this folder alone.

Its rules package (``tests/systems/rules``) and its editor package
(``tests/systems/editors``) are added the way any package of systems is, and removed
after each test, so the rest of the suite (in the same pytest-xdist worker too) sees only
the five real games. No cache needs clearing here: the registries clear their own on
``add_package`` / ``remove_package``, and every form's choices are read when the form is
made (none at import).
"""

from __future__ import annotations

import pytest

from builder import editors
from rules import registry

RULES_PACKAGE = "tests.systems.rules"
EDITORS_PACKAGE = "tests.systems.editors"


@pytest.fixture(autouse=True)
def sixth_system():
    """Duel at Dawn is a known game (and has an editor) during each test of this folder."""
    # rules first: the editor registry checks that each editor names a known system
    registry.add_package(RULES_PACKAGE)
    editors.add_package(EDITORS_PACKAGE)
    try:
        yield registry.get_system("duel")
    finally:
        editors.remove_package(EDITORS_PACKAGE)
        registry.remove_package(RULES_PACKAGE)
