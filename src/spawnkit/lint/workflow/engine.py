"""Lint one workflow script: the WF rules, selection and ``// spawnkit: ignore`` comments.

Called by :func:`spawnkit.lint.engine.lint_document` for ``.js`` paths, so the command line, the
report formats, the golden test and the lint-on-write hook all go through the one entry point.
"""

from __future__ import annotations

from spawnkit.lint.engine import Diagnostic, FileResult, _dedupe, selected
from spawnkit.lint.rules import ALL, Finding, Rule
from spawnkit.lint.rules.wf_base import WORKFLOW, WorkflowContext

# rules that still run when the script could not be analysed (not parsed, syntax errors)
_ALWAYS = ("WF001",)


def lint_workflow(
    text: str,
    path: str,
    profile: str,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    seconds: float | None = None,
) -> FileResult:
    """Every diagnostic for one workflow script, after selection and suppression comments."""
    import gc

    collecting = gc.isenabled()
    gc.disable()  # as for Markdown: the tree's objects live until the lint returns
    try:
        ctx = WorkflowContext(path, text, profile, seconds)
        found: list[Diagnostic] = []
        analysable = ctx.analysable
        orchestrator = ctx.orchestrator
        for rule in ALL:
            if rule.files != WORKFLOW or not selected(rule.code, select, ignore):
                continue
            if not analysable and rule.code not in _ALWAYS:
                continue
            if rule.protocol_rule and not orchestrator:
                continue
            for finding in rule.check(ctx):
                found.append(_diagnostic(rule, finding, path))
        if found:
            suppressed = ctx.suppressions()
            found = [d for d in found if not _suppressed(d, suppressed)]
            found.sort(key=lambda d: (d.line, d.code))
        return FileResult(path, WORKFLOW, orchestrator, _dedupe(found))
    finally:
        if collecting:
            gc.enable()


def _diagnostic(rule: Rule, finding: Finding, path: str) -> Diagnostic:
    """The diagnostic of a WF finding, with its evidence where the engine carries evidence."""
    extra = {}
    evidence = getattr(finding, "evidence", ())
    if evidence and "evidence" in Diagnostic._fields:
        extra["evidence"] = evidence
    return Diagnostic(
        path,
        max(1, finding.line),
        finding.col,
        rule.code,
        rule.name,
        finding.severity or rule.severity,
        " ".join(finding.message.split()),
        " ".join((finding.fix or rule.fix).split()),
        **extra,
    )


def _suppressed(d: Diagnostic, suppressed: dict[int, set[str]]) -> bool:
    for key in (0, d.line):
        codes = suppressed.get(key)
        if codes and ("*" in codes or any(d.code.startswith(c) for c in codes)):
            return True
    return False
