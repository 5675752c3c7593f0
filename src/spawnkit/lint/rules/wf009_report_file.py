"""WF009 report-file: every agent prompt names the file the agent writes its full result to."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.analysis import STATE_FILE
from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.cm002_results_on_disk import written_paths
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule
from spawnkit.lint.workflow.values import text_of

HOLE = "{x}"  # stands for a part of the prompt the linter cannot read (a placeholder to CM002)
# a path into a reports folder, or a file named as a report, counts without a verb
_REPORT_PATH = re.compile(r"[\w.\-{}$/~]*reports?[\w.\-{}$]*/[\w.\-{}$/]*|\breport\w*\.(?:md|json|txt)\b", re.I)
_NAMED = re.compile(r"report|out(?:put)?_?(?:file|path|dir)|dest", re.I)


def names_report_file(text: str) -> bool:
    """Whether a prompt tells the agent to write its result to a file (CM002's reading of a
    sub-agent prompt), or names a path in a reports folder."""
    if any(not STATE_FILE.search(where) for where in written_paths(text)):
        return True
    return _REPORT_PATH.search(text) is not None


class ReportFile(WorkflowRule):
    code = "WF009"
    protocol_rule = True
    what = """
        Reads each `agent()` prompt — a string, a template, a concatenation, a constant or a
        helper function's result, in every context the call runs in — and reports a prompt
        that does not tell the agent to write its result to a file: no "write … to <path>"
        (read as CM002 reads a sub-agent prompt), no path into a reports folder, and no
        interpolated value named like a report path. A prompt the linter cannot read at all
        (one passed in through `args`) is not judged.
    """
    why = """
        A schema keeps an answer short; the full result has to go somewhere else or it is
        lost. A workflow script cannot write files, so the agent must, and its prompt has to
        say where: a later step, a resumed run and the user all read it there.
    """
    bad = """
        export const meta = { name: 'deps', description: 'Check the dependencies' }
        const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'OUTDATED'] } } }
        const r = await agent('Check package.json for outdated dependencies.', { schema: SCHEMA })
        return { status: r.status }
    """
    good = """
        export const meta = { name: 'deps', description: 'Check the dependencies' }
        const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'OUTDATED'] } } }
        const r = await agent(
          'Check package.json for outdated dependencies. Write the full list to .deps-reports/deps.md.',
          { schema: SCHEMA },
        )
        return { status: r.status }
    """
    fix = (
        "End every prompt with the report file, e.g. \"Write your full result to "
        ".NAME-reports/STEP.md; answer only with the status and that path.\""
    )

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        flow = ctx.flow
        if flow.ev.exhausted:
            return
        script = ctx.script
        for site in flow.sites:
            if site.prompt is None:
                continue
            if _NAMED.search(_identifiers(script, site.prompt)):
                continue
            texts = [t for value in flow.site_prompts(site) for t in text_of(value, HOLE)]
            readable = [t for t in texts if t.replace(HOLE, "").strip()]
            if not readable:
                continue  # nothing of the prompt is known here
            missing = [t for t in readable if not names_report_file(t)]
            if missing:
                line, col = script.position(site.node)
                shown = " ".join(missing[0].replace(HOLE, "…").split())
                if len(shown) > 60:
                    shown = shown[:57] + "…"
                yield Finding(line, f"this agent's prompt names no report file (\"{shown}\")", col=col)


def _identifiers(script, node) -> str:  # type: ignore[no-untyped-def]
    """The names used inside a prompt expression's interpolations and concatenations."""
    names = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("identifier", "property_identifier", "shorthand_property_identifier"):
            names.append(script.text(current))
        elif current.type not in ("string", "string_fragment"):
            stack.extend(current.named_children)
    return " ".join(names)
