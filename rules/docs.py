"""Write docs/rules.md from the rules engine's own list of rules.

Run ``python -m rules.docs > docs/rules.md``; a test fails when the file is out of date.
"""

from __future__ import annotations

from rules.base import cite
from rules.registry import all_systems

HEADER = """# Rule codes

Every finding the rules engine reports has a stable code, a severity, the member it
concerns (or the whole gang) and a message that says what to change. An **error** makes a
gang illegal; a **warning** is legal but worth knowing, and is printed on the sheet.
Drafts may be illegal: the builder saves them and says so.

This file is generated from the engine (`python -m rules.docs > docs/rules.md`); a test
fails when it is out of date. The seeds are the rulebook texts in `../shared/seeds/`.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def rules_markdown() -> str:
    lines = [HEADER]
    for system in all_systems():
        lines.append(f"## `{system.id}` — {system.name}\n")
        lines.append(f"Seed: `{system.seed}`.\n")
        lines.append("| code | severity | rule | source |")
        lines.append("|---|---|---|---|")
        for rule in system.rules:
            lines.append(
                f"| `{rule.code}` | {rule.severity} | {_cell(rule.summary)} | "
                f"{_cell(cite(system, rule.source))} |"
            )
        decisions = [r for r in system.rules if r.decision]
        notes = list(getattr(system, "decisions", ()))
        if decisions or notes:
            lines.append("\n**Decisions** (where the book is unclear, from RULES.md):\n")
            for rule in decisions:
                lines.append(f"- `{rule.code}`: {rule.decision}")
            for note in notes:
                lines.append(f"- {note}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    print(rules_markdown(), end="")
