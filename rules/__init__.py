"""The rules engine: plain Python, no Django.

Each game system is one module in ``rules/systems`` that exposes ``SYSTEM``, an object
with the :class:`rules.base.GameSystem` interface. Models, views and templates call the
engine; it never calls them. A roster is a plain ``dict`` in the roster file's shape
(``rules.roster``, ``docs/roster-format.md``); dice come from ``rules.dice`` with an
injected random source.
"""

from rules.base import Finding, GameSystem, Report, RuleDoc, Severity
from rules.registry import all_systems, get_system, system_choices

__all__ = [
    "Finding",
    "GameSystem",
    "Report",
    "RuleDoc",
    "Severity",
    "all_systems",
    "get_system",
    "system_choices",
]
