"""Findings a skill's own runs showed (``spawnkit lint --observed``): the tier ``observed``.

Lint reads a skill's words, and where words cannot be read reliably it stays quiet (on real
skills the default tier reports no CM002 or CM003). What a skill did when it ran is exact:
``spawnkit audit`` reads it from the transcripts. The command layer hands lint what the audit
saw, as plain data (``Observed``: a rule and the runs that broke it); lint adds one finding per
rule to the skill's file, in the tier ``observed``, each run named as its evidence (session,
date, the sub-agent, its tokens). Lint never reads a transcript itself: it sits below the audit.
"""

from __future__ import annotations

from typing import NamedTuple

from spawnkit.lint.engine import Diagnostic, FileResult
from spawnkit.lint.evidence import OBSERVED
from spawnkit.lint.rules import MARKDOWN


class Run(NamedTuple):
    """One run that broke the rule, as the audit saw it."""

    session: str
    date: str  # ISO 8601, UTC, or "" when the transcript had no time
    agent: str  # the sub-agent (its description), or what ran at once
    tokens: int | None  # what its return cost the orchestrator, when the rule is about one
    message: str  # the audit's own words
    transcript: str = ""  # the session's transcript
    host: str = ""


class Observed(NamedTuple):
    """A rule broken in a skill's runs: how many times, and the runs kept as evidence."""

    code: str
    count: int
    runs: tuple[Run, ...]


CODES = frozenset(r.code for r in MARKDOWN if r.protocol_rule)  # what a run can show


def add(result: FileResult, observed: list[Observed]) -> FileResult:
    """``result`` with one finding of the tier ``observed`` per rule its runs broke (a rule
    lint does not know is left out)."""
    found = [_diagnostic(result.path, seen) for seen in sorted(observed) if seen.code in CODES]
    if not found:
        return result
    return result._replace(diagnostics=[*result.diagnostics, *found])


def _diagnostic(path: str, seen: Observed) -> Diagnostic:
    rule = next(r for r in MARKDOWN if r.code == seen.code)
    runs = f"{seen.count} time{'s' * (seen.count != 1)}"
    first = seen.runs[0].message if seen.runs else ""
    return Diagnostic(
        path,
        1,
        1,
        rule.code,
        rule.name,
        rule.severity,
        f"broken at run time, {runs}" + (f": {first}" if first else ""),
        " ".join(rule.fix.split()),
        OBSERVED,
        observed=seen.runs,
    )


def describe(run: Run) -> str:
    """One line naming a run: ``session 1b2c3d4e 2026-11-28, 'review part 1', 3,055 tokens``."""
    parts = [f"session {run.session}" + (f" {run.date[:10]}" if run.date else "")]
    if run.agent:
        parts.append(run.agent)
    if run.tokens is not None:
        parts.append(f"{run.tokens:,} tokens")
    return ", ".join(parts)
