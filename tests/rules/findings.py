"""Assertions on findings, shared by every system's rule tests."""

from __future__ import annotations

from rules import Finding, Report, Severity


def assert_flags(report: Report, code: str, severity: Severity, member: str | None) -> Finding:
    """Exactly one ``code`` finding, with that severity, about that member (None: gang)."""
    found = [f for f in report.findings if f.code == code]
    assert len(found) == 1, f"expected one {code}, got {report.codes()}"
    finding = found[0]
    assert finding.severity is severity, finding
    assert finding.member == member, finding
    assert finding.message.strip(), "a finding says what to change"
    if severity is Severity.ERROR:
        assert not report.is_legal
    if member is not None:
        assert finding in report.members[member].findings
    return finding


def assert_clear(report: Report, code: str) -> None:
    assert code not in report.codes(), [f for f in report.findings if f.code == code]
