"""Duel at Dawn: the smallest game system there is, for tests only (id ``duel``).

A gang is any number of *gunhands*. A gunhand has one stat, **grit** (1 to 3), and costs
10 points per point of grit. A gang may cost at most its points limit (usually 50).

A roster for this system is the common roster file shape; each member's ``data`` is::

    {"type": "gunhand", "grit": 2}

and the roster's ``gang`` part is an empty object. Two rules:

- ``DUEL-OVER-LIMIT`` (error): the gang costs more than its limit;
- ``DUEL-GRIT`` (error): a gunhand's grit is not a whole number from 1 to 3.

Nothing outside ``tests/systems/`` names this game: it proves that a system is a package
like the five real ones, found by ``rules.registry`` and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.base import Finding, Report, RuleDoc, Severity, as_int, as_str, member_keys
from rules.i18n import _, gettext_noop
from rules.printing import Card, Section, Stat, Track, play_notes

ERROR = Severity.ERROR

GUNHAND = "gunhand"
GRIT_MIN, GRIT_MAX = 1, 3
POINTS_PER_GRIT = 10
LIMIT = 50

OVER_LIMIT = "DUEL-OVER-LIMIT"
BAD_GRIT = "DUEL-GRIT"

SOURCE = "Duel at Dawn (a test-only game: tests/systems/rules/duel)"

RULES: tuple[RuleDoc, ...] = (
    RuleDoc(
        OVER_LIMIT,
        ERROR,
        "The gang's points (10 per point of grit) must not be over its limit.",
        SOURCE,
    ),
    RuleDoc(BAD_GRIT, ERROR, "Each gunhand's grit is a whole number from 1 to 3.", SOURCE),
)

DECISIONS: tuple[str, ...] = (
    "A grit the sheet can't read (missing, not a whole number) is a DUEL-GRIT error and "
    "costs nothing.",
)

GRIT_TEXT = "Grit: how much a gunhand can take, 1 to 3. Each point costs 10 points."
SHOT_TEXT = "At dawn, each gunhand shoots once; a hit takes one point of grit."

MEMBER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Duel at Dawn member",
    "type": "object",
    "required": ["type", "grit"],
    "properties": {
        "type": {"enum": [GUNHAND]},
        "grit": {"type": "integer", "description": "1 to 3 (the rules say so, not the file)"},
    },
    "additionalProperties": False,
}
GANG_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Duel at Dawn gang",
    "type": "object",
    "properties": {},
    "additionalProperties": False,
}


@dataclass
class MemberReport:
    key: str
    name: str
    position: int
    grit: int | None
    cost: int = 0
    summary: str = ""
    stats: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        return any(f.is_error for f in self.findings)

    @property
    def grit_ok(self) -> bool:
        return self.grit is not None and GRIT_MIN <= self.grit <= GRIT_MAX


class DuelAtDawn:
    id = "duel"
    name = "Duel at Dawn"
    short_name = "Duel"
    book_languages = ("en",)
    seed = ""
    rules = RULES
    decisions = DECISIONS
    limit_presets: tuple[int, ...] = (LIMIT,)
    default_limit: int | None = LIMIT
    member_schema = MEMBER_SCHEMA
    gang_schema = GANG_SCHEMA
    content_entry_schemas: dict[str, dict[str, Any]] = {}
    cap_help = gettext_noop("Points: each gang may cost at most this many points (usually 50).")
    cap_refused: str | None = None
    limit_help: str | None = None
    limit_optional = False

    @property
    def total_label(self) -> str:
        return _("Points")

    def new_member(self, grit: int = 1) -> dict[str, Any]:
        return {"type": GUNHAND, "grit": grit}

    # ----------------------------------------------------------------- evaluation

    def evaluate(self, roster: Mapping[str, Any]) -> Report:
        roster = roster if isinstance(roster, Mapping) else {}
        raw_members = roster.get("members")
        raw_members = raw_members if isinstance(raw_members, list) else []
        members = []
        keys = member_keys(raw_members)
        for position, (key, raw) in enumerate(zip(keys, raw_members, strict=True), start=1):
            raw = raw if isinstance(raw, Mapping) else {}
            members.append(self._member(key, position, as_str(raw.get("name")), raw.get("data")))

        total = sum(m.cost for m in members)
        limit = as_int(roster.get("limit"))
        findings: list[Finding] = []
        if limit is not None and total > limit:
            findings.append(
                Finding(
                    OVER_LIMIT,
                    ERROR,
                    _(
                        "The gang costs {total} points, {over} over its limit of {limit}: "
                        "lower a gunhand's grit or remove a gunhand."
                    ).format(total=total, over=total - limit, limit=limit),
                )
            )
        for m in members:
            findings.extend(m.findings)
        return Report(
            system=self.id,
            total_label=self.total_label,
            total=total,
            limit=limit,
            findings=findings,
            members={m.key: m for m in members},
            gang={
                "gunhands": len(members),
                "facts": [(_("Gunhands"), str(len(members))), (_("Points"), str(total))],
            },
        )

    def _member(self, key: str, position: int, name: str, data: Any) -> MemberReport:
        data = data if isinstance(data, Mapping) else {}
        grit = as_int(data.get("grit"))
        m = MemberReport(key=key, name=name, position=position, grit=grit)
        if m.grit_ok:
            m.cost = POINTS_PER_GRIT * grit
        else:
            shown = str(grit) if grit is not None else _("unreadable")
            m.findings.append(
                Finding(
                    BAD_GRIT,
                    ERROR,
                    _("{name}'s grit is {grit}: set it to 1, 2 or 3.").format(
                        name=name or _("(no name)"), grit=shown
                    ),
                    member=key,
                )
            )
        m.summary = _("Gunhand")
        m.stats = [(_("Grit"), str(grit) if grit is not None else "?")]
        return m

    # ----------------------------------------------------------------- printing

    def print_cards(self, roster: Mapping[str, Any], report: Report) -> list[Card]:
        cards = []
        for m in report.members.values():
            cards.append(
                Card(
                    key=m.key,
                    name=m.name or _("(no name)"),
                    kind=m.summary,
                    mark="hat",
                    stats=[Stat(label, value) for label, value in m.stats],
                    tracks=[Track(_("Grit"), m.grit if m.grit_ok else 0)],
                    facts=[Stat(_("Points"), str(m.cost))],
                    sections=[Section.of(_("Rules"), [(_("Grit"), GRIT_TEXT)])],
                    play_notes=play_notes(report.findings_for(m.key)),
                )
            )
        return cards

    def print_sheet(self, roster: Mapping[str, Any], report: Report) -> dict[str, Any]:
        return {"gunhands": len(report.members), "points": report.total}

    def quick_reference(self, roster: Mapping[str, Any], report: Report) -> list[Section]:
        if not report.members:
            return []
        return [Section.of(_("Rules"), [(_("Grit"), GRIT_TEXT), (_("The shot"), SHOT_TEXT)])]


SYSTEM = DuelAtDawn()
