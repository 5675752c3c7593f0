"""The base of the workflow-script rules (WF…) and the context they read.

A workflow rule is a lint rule like any other (code, name, doc with a bad and a good example,
fix, ``check``) that runs on ``.js`` workflow scripts instead of Markdown. Its severity does not
depend on the file kind or profile: Claude Code either refuses the script (errors) or runs it
fragile (warnings).

Suppression: ``// spawnkit: ignore WF005`` silences the listed codes (none = all) on the
comment's own line and the line after it; ``// spawnkit: ignore-file WF009`` anywhere silences
them for the file. Only real comments count (a string holding the words does not).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from spawnkit.lint.memo import cached_property
from spawnkit.lint.patterns import lazy
from spawnkit.lint.rules.base import Finding, Rule

WORKFLOW = "workflow"
_SUPPRESS = lazy(r"spawnkit:\s*(ignore-file|ignore)\b(.*)", re.I)
_CODE = lazy(r"\b[A-Z]{2}\d{0,3}\b")


def is_workflow_path(path: str) -> bool:
    """Workflow scripts are JavaScript files (Claude Code loads ``*.js`` only)."""
    return path.endswith(".js")


class WorkflowDoc:
    """What the engine and the report need of the linted file."""

    kind = WORKFLOW

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text


class WorkflowContext:
    """One workflow script under lint: its parse, its facts and its flow, built on first use."""

    def __init__(self, path: str, text: str, profile: str, seconds: float | None = None) -> None:
        self.doc = WorkflowDoc(path, text)
        self.profile = profile
        from spawnkit.lint.workflow import parse as parsing

        limit = seconds if seconds is not None else parsing.DEFAULT_SECONDS
        self.parsed = parsing.parse(text, limit)

    @cached_property
    def script(self) -> Any:
        """The :class:`~spawnkit.lint.workflow.script.Script`, or None when it was not parsed."""
        if self.parsed.tree is None:
            return None
        from spawnkit.lint.workflow.script import Script

        return Script(self.parsed.source, self.parsed.tree)

    @property
    def analysable(self) -> bool:
        """Parsed, free of syntax errors and not absurdly deep: the other rules may read it."""
        script = self.script
        return script is not None and script.error is None and not script.too_deep

    @cached_property
    def flow(self) -> Any:
        from spawnkit.lint.workflow.flow import Flow

        return Flow(self.script)

    @property
    def orchestrator(self) -> bool:
        """The script spawns agents: an ``agent()`` call (under any name the evaluator follows),
        a ``workflow()`` call, or ``agent`` handed to a function (``files.map(agent)``)."""
        if not self.analysable:
            return False
        from spawnkit.lint.workflow.script import call_arguments, unwrap

        ev = self.flow.ev
        calls = self.script.by_type["call_expression"]
        return (
            bool(ev.sites)
            or any(ev.is_global_call(call, "workflow") for call in calls)
            or any(
                ev.is_global(unwrap(arg), "agent") for call in calls for arg in call_arguments(call)
            )
        )

    def suppressions(self) -> dict[int, set[str]]:
        """line -> suppressed codes (line 0: the whole file)."""
        out: dict[int, set[str]] = {}
        if self.script is None:
            return out
        for comment in self.script.by_type["comment"]:
            text = self.script.text(comment)
            match = _SUPPRESS.search(text)
            if match is None:
                continue
            codes = set(_CODE.findall(match.group(2))) or {"*"}
            line = self.script.line(comment)
            if match.group(1).lower() == "ignore-file":
                out.setdefault(0, set()).update(codes)
            else:
                out.setdefault(line, set()).update(codes)
                out.setdefault(comment.end_point[0] + 2, set()).update(codes)
        return out


class WorkflowRule(Rule):
    """A rule over workflow scripts (see the module docstring)."""

    files: ClassVar[str] = WORKFLOW
    example_path: ClassVar[str] = ".claude/workflows/demo-audit.js"

    def severity_for(self, ctx: Any) -> str:
        return self.severity

    def severity_label(self) -> str:
        return self.severity

    def severity_note(self) -> str:
        return ""


def finding(
    line: int,
    message: str,
    evidence: tuple[tuple[int, str], ...] = (),
    fix: str | None = None,
    col: int = 1,
    severity: str | None = None,
) -> Finding:
    """A finding with the places it rests on (``(line, note)`` pairs), carried as evidence where
    the lint engine shows evidence (text, JSON, SARIF related locations) and left out where it
    does not yet."""
    if evidence and "evidence" in Finding._fields:
        from spawnkit.lint.evidence import Evidence  # type: ignore[import-not-found]

        places = tuple(Evidence(at, note) for at, note in evidence)
        return Finding(line, message, fix, col, severity, evidence=places)  # type: ignore[call-arg]
    return Finding(line, message, fix, col, severity)
