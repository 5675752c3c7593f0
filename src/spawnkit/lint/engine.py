"""Lint one file's text: the entry point the CLI and the lint-on-write hook share.

Standard library only (with spawnkit.standard.protocol, spawnkit.tokens and the lint
package): the hook imports this on every skill write.

Tiers (``spawnkit.lint.evidence``): a finding whose rule or family is in the preview tier
shows only with ``preview=True`` or when its rule is selected by its exact code, and is a
warning; so is every protocol finding on a file read as an orchestrator by preview readings
alone.

Suppression comments:

- ``<!-- spawnkit: ignore CM005 -->`` (codes separated by spaces or commas; none
  means every code) silences those codes on the comment's own line and on the
  block that follows it, up to the next blank line;
- ``<!-- spawnkit: ignore-file CM003 -->`` anywhere silences them for the file;
- in the frontmatter, a YAML comment ``# spawnkit: ignore SP011`` silences the
  codes on its line;
- a reason may follow the codes after ``--``: ``<!-- spawnkit: ignore CM007 -- bd
  records each task's status -->`` (only the words before ``--`` are read as codes).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable
from typing import NamedTuple

from spawnkit.lint import calibration
from spawnkit.lint.document import Document
from spawnkit.lint.evidence import CALIBRATED, DEFAULT, PREVIEW, Evidence
from spawnkit.lint.patterns import lazy
from spawnkit.lint.rules import DEFAULT_PROFILE, MARKDOWN, PROFILES, Context, Finding, Rule

_SUPPRESS = lazy(r"<!--\s*spawnkit:\s*(ignore-file|ignore)\b([^>]*?)-->", re.I)
_YAML_SUPPRESS = lazy(r"#\s*spawnkit:\s*(ignore-file|ignore)\b(.*)$", re.I)
_CODE = lazy(r"\b[A-Z]{2}\d{0,3}\b")


class Diagnostic(NamedTuple):  # a NamedTuple: importing dataclasses cost a one-file lint ~10 ms
    path: str
    line: int
    col: int
    code: str
    name: str
    severity: str  # "error" | "warning"
    message: str
    fix: str
    tier: str = DEFAULT  # "default" | "preview" (spawnkit.lint.evidence)
    evidence: tuple[Evidence, ...] = ()  # the places the finding rests on
    looked_for: str = ""  # what the rule searched for and did not find
    family: str = ""  # the way of reading that produced it (Rule.families)
    observed: tuple = ()  # tier "observed": the runs that broke it (``lint.observed.Run``)
    # a calibrated finding: the probability that it is right (spawnkit.lint.calibration)
    probability: float | None = None


class FileResult(NamedTuple):
    path: str
    kind: str  # skill | command | agent
    orchestrator: bool  # the protocol rules judged it (spawn_tier within the tiers in use)
    diagnostics: list[Diagnostic]
    # "default" when default readings find it spawning sub-agents, "preview" when only
    # preview readings do, "" when none does; spawns: where (its first spawn steps)
    spawn_tier: str = ""
    spawns: tuple[Evidence, ...] = ()
    suppressed: int = 0  # findings silenced by suppression comments
    # the calibrated probability that the file starts sub-agents (None: no reading finds it)
    spawn_probability: float | None = None


def selected(code: str, select: Iterable[str] | None, ignore: Iterable[str] | None) -> bool:
    """Ruff-style selection: an entry matches a code it equals or prefixes ("CM", "SP01", "ALL")."""

    def match(entries: Iterable[str]) -> bool:
        return any(e.upper() == "ALL" or code.startswith(e.upper()) for e in entries)

    if select is not None and not match(select):
        return False
    return not (ignore is not None and match(ignore))


def lint_document(
    text: str,
    path: str,
    profile: str | None = None,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    reader: str = "strict",
    preview: bool = False,
) -> FileResult:
    """Every diagnostic for one file, after selection, tiers and inline suppression.

    ``preview`` turns on the preview tier (rules, families and orchestrator readings); without
    it, a preview rule runs only when ``select`` names its exact code. ``reader`` picks the
    frontmatter reader (``spawnkit.lint.frontmatter.READERS``): the CLI passes ``pyyaml``; the
    hook keeps the default stdlib ``strict`` reader.

    Python's cyclic garbage collector is paused meanwhile: it would walk the file's blocks and
    sentences (hundreds of thousands of objects in a large file) again and again as they are
    built, and find nothing to free, since they all live until the lint returns. That was
    about a seventh of a 10 MB file's lint. It runs again, as before, once this returns.
    """
    profile = profile or DEFAULT_PROFILE
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; use one of {', '.join(PROFILES)}")
    select = list(select) if select is not None else None
    ignore = list(ignore) if ignore is not None else None
    if path.endswith(".js"):  # a workflow script: JavaScript, its own rules (WF…)
        return lint_workflow(text, path, profile, select, ignore, preview=preview)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _lint(text, path, profile, select, ignore, reader, preview)
    finally:
        if collecting:
            gc.enable()


def _lint(
    text: str,
    path: str,
    profile: str,
    select: list[str] | None,
    ignore: list[str] | None,
    reader: str,
    preview: bool,
) -> FileResult:
    doc = Document(path, text, reader)
    ctx = Context(doc, profile)
    spawn_tier = ctx.analysis.spawn_tier
    p_spawn = ctx.analysis.spawn_probability if spawn_tier else None
    orchestrator = spawn_tier == DEFAULT or (preview and spawn_tier == PREVIEW)
    frontmatter_broken = doc.front_error is not None
    rules = MARKDOWN if select is None and ignore is None else _selected_rules(select, ignore)
    named = {code.upper() for code in select} if select is not None else set()
    found: list[Diagnostic] = []
    for rule in rules:
        if rule.protocol_rule and not orchestrator:
            continue
        shown = preview or rule.code in named  # the preview tier is on for this rule
        if rule.tier == PREVIEW and not shown:
            continue
        if rule.tier == CALIBRATED and not shown and not _assertable(rule, spawn_tier, ctx):
            continue  # none of its findings could show: not worth reading the file for
        if (
            frontmatter_broken
            and rule.code.startswith("SP")
            and rule.code not in ("SP001", "SP002", "SP003", "SP012", "SP014")
        ):
            continue
        findings = list(rule.check(ctx))
        for finding in findings:
            probability = None
            if rule.tier == CALIBRATED and p_spawn is not None:
                # default only where both the file's and the finding's probabilities clear
                # their thresholds; a reading the model was not fitted on is offered
                probability = calibration.rule_probability(
                    rule.code, finding.family, p_spawn, doc.kind, len(findings)
                )
                sure = probability is not None and calibration.asserted(rule.code, probability)
                tier = DEFAULT if spawn_tier == DEFAULT and sure else PREVIEW
            else:
                tier = rule.tier_of(finding.family)
                if rule.protocol_rule and spawn_tier == PREVIEW:
                    tier = PREVIEW  # the file is not surely an orchestrator
            if tier == PREVIEW and not shown:
                continue
            found.append(_diagnostic(rule, finding, path, ctx, tier, probability))
    silenced = 0
    if found:
        suppressed = _suppressions(doc)
        kept = [d for d in found if not _is_suppressed(d, suppressed)]
        silenced = len(found) - len(kept)
        found = sorted(kept, key=lambda d: (d.line, d.code))
    spawns = ctx.analysis.spawn_evidence[:3] if spawn_tier else ()
    return FileResult(
        path, doc.kind, orchestrator, _dedupe(found), spawn_tier, spawns, silenced, p_spawn
    )


def _assertable(rule: Rule, spawn_tier: str, ctx: Context) -> bool:
    """Whether a finding of calibrated ``rule`` can be asserted in this file: the file is
    asserted to spawn sub-agents and the rule's probability can reach its threshold here."""
    if spawn_tier != DEFAULT:
        return False
    return calibration.rule_can_assert(rule.code, ctx.analysis.spawn_probability, ctx.doc.kind)


def _selected_rules(select: list[str] | None, ignore: list[str] | None) -> list[Rule]:
    return [rule for rule in MARKDOWN if selected(rule.code, select, ignore)]


def lint_text(
    text: str,
    path: str,
    profile: str | None = None,
    reader: str = "strict",
    preview: bool = False,
) -> list[Diagnostic]:
    """Diagnostics for one file's text; ``path`` decides the file kind and the folder-name check."""
    return lint_document(text, path, profile, reader=reader, preview=preview).diagnostics


def _diagnostic(
    rule: Rule,
    finding: Finding,
    path: str,
    ctx: Context,
    tier: str,
    probability: float | None = None,
) -> Diagnostic:
    severity = finding.severity or rule.severity_for(ctx)
    return _made(rule, finding, path, tier, severity, probability)


def _made(
    rule: Rule,
    finding: Finding,
    path: str,
    tier: str,
    severity: str,
    probability: float | None = None,
) -> Diagnostic:
    """The one place a finding becomes a diagnostic (Markdown and workflow rules alike)."""
    if tier == PREVIEW:
        severity = "warning"  # offered, not asserted: an error only where the tool is sure
    return Diagnostic(
        path,
        max(1, finding.line),
        finding.col,
        rule.code,
        rule.name,
        severity,
        " ".join(finding.message.split()),
        " ".join((finding.fix or rule.fix).split()),
        tier,
        finding.evidence,
        " ".join(finding.looked_for.split()),
        finding.family,
        probability=None if probability is None else round(probability, 3),
    )


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[int, str, str]] = set()
    out = []
    for d in diags:
        key = (d.line, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


# --- suppression ----------------------------------------------------------------------

_ALL = "*"


def _codes(raw: str) -> set[str]:
    """The codes a comment names, before any ``-- reason`` (none: every code)."""
    codes = set(_CODE.findall(raw.split("--", 1)[0]))
    return codes or {_ALL}


def _suppressions(doc: Document) -> dict[int, set[str]]:
    """line -> suppressed codes (line 0 holds file-wide ones)."""
    out: dict[int, set[str]] = {}
    lines = doc.lines
    front_end = doc.front.end if doc.front is not None else 0
    for i, line in enumerate(lines):
        lineno = i + 1
        if "spawnkit" not in line:
            continue
        if lineno <= front_end:
            m = _YAML_SUPPRESS.search(line)
            if m:
                key = 0 if m.group(1).lower() == "ignore-file" else lineno
                out.setdefault(key, set()).update(_codes(m.group(2)))
            continue
        for m in _SUPPRESS.finditer(line):
            codes = _codes(m.group(2))
            if m.group(1).lower() == "ignore-file":
                out.setdefault(0, set()).update(codes)
                continue
            out.setdefault(lineno, set()).update(codes)
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            while j < len(lines) and lines[j].strip():
                out.setdefault(j + 1, set()).update(codes)
                j += 1
    return out


def _is_suppressed(d: Diagnostic, suppressed: dict[int, set[str]]) -> bool:
    for key in (0, d.line):
        codes = suppressed.get(key)
        if codes and (_ALL in codes or any(d.code.startswith(c) for c in codes)):
            return True
    return False


# --- workflow scripts (.js) ----------------------------------------------------------------
# The WF rules read a parsed script (spawnkit.lint.rules.wf_base), not a Markdown document;
# selection, suppression comments (``// spawnkit: ignore WF005``) and the result are the same.

# rules that still run when the script could not be analysed (not parsed, syntax errors)
_WF_ALWAYS = ("WF001",)


def lint_workflow(
    text: str,
    path: str,
    profile: str,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    seconds: float | None = None,
    preview: bool = False,
) -> FileResult:
    """Every diagnostic for one workflow script; ``seconds`` bounds its parse (the hook's is
    shorter than the command line's). tree-sitter is imported here, for .js files only. Tiers
    work as for Markdown: a preview rule or family shows with ``preview`` or when ``select``
    names the rule's exact code, and then only as a warning."""
    from spawnkit.lint.rules import ALL
    from spawnkit.lint.rules.wf_base import WORKFLOW, WorkflowContext

    select = list(select) if select is not None else None
    ignore = list(ignore) if ignore is not None else None
    collecting = gc.isenabled()
    gc.disable()  # as for Markdown: the tree's objects live until the lint returns
    try:
        ctx = WorkflowContext(path, text, profile, seconds)
        found: list[Diagnostic] = []
        analysable = ctx.analysable
        orchestrator = ctx.orchestrator
        named = {code.upper() for code in select} if select is not None else set()
        for rule in ALL:
            if rule.files != WORKFLOW or not selected(rule.code, select, ignore):
                continue
            if (not analysable and rule.code not in _WF_ALWAYS) or (
                rule.protocol_rule and not orchestrator
            ):
                continue
            shown = preview or rule.code in named
            if rule.tier == PREVIEW and not shown:
                continue
            for finding in rule.check(ctx):  # type: ignore[arg-type]
                tier = rule.tier_of(finding.family)
                if tier == PREVIEW and not shown:
                    continue
                found.append(_wf_diagnostic(rule, finding, path, tier))
        if found:
            suppressed = ctx.suppressions()
            found = [d for d in found if not _is_suppressed(d, suppressed)]
            found.sort(key=lambda d: (d.line, d.code))
        return FileResult(path, WORKFLOW, orchestrator, _dedupe(found))
    finally:
        if collecting:
            gc.enable()


def _wf_diagnostic(rule: Rule, finding: Finding, path: str, tier: str = DEFAULT) -> Diagnostic:
    """The diagnostic of a WF finding: its severity does not depend on the file kind."""
    return _made(rule, finding, path, tier, finding.severity or rule.severity)
