"""The sixth game system, for tests only: "Duel at Dawn" (id ``duel``).

``rules/`` holds its rules package and ``editors/`` its browser editor; ``conftest.py``
registers both for the tests of this folder alone (``rules.registry.add_package``,
``builder.editors.add_package``), so the rest of the suite sees the five real games.
"""
