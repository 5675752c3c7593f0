"""WF009 report-file: every agent prompt names the file the agent writes its full result to."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.rules.base import Finding
from spawnkit.lint.workflow.rule import WorkflowContext, WorkflowRule
from spawnkit.lint.workflow.values import text_of

HOLE = "\x00"
# a file path in prose: a name with an extension reports use, or a path into a reports folder
_FILE = re.compile(
    r"(?:[\w.\-~$\x00{}]*/)*[\w.\-$\x00{}]+\.(?:md|markdown|json|jsonl|txt|ya?ml|csv|html?|log|xml|sarif|tsv)\b"
    r"|[\w.\-\x00]*reports?/[\w.\-\x00/{}]*",
    re.I,
)
# ... named as where the agent puts its result (not a file it reads)
_WRITES = re.compile(
    r"\b(?:writ\w*|wrote|sav\w*|record\w*|stor\w*|put|dump\w*|append\w*|persist\w*|"
    r"output\w*|report\w*|creat\w*|log\w*)\b",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z\x00])|\n+")
_NAMED = re.compile(r"report|out(?:put)?_?(?:file|path|dir)|dest", re.I)


def names_report_file(text: str) -> bool:
    """Whether a prompt text names a file for the agent's result: a path in a sentence that says
    to write (save, record …) or report, or a path into a reports folder."""
    for sentence in _SENTENCE.split(text):
        for match in _FILE.finditer(sentence):
            token = match.group(0)
            if "report" in token.lower() or _WRITES.search(sentence):
                return True
    return False


class ReportFile(WorkflowRule):
    code = "WF009"
    protocol_rule = True
    what = """
        Reads each `agent()` prompt — a string, a template, a concatenation, a constant or a
        helper function's result, in every context the call runs in — and reports a prompt
        that names no file: no path with an extension such as `.md` or `.json`, no reports
        folder, and no interpolated value named like a report path. A prompt the linter cannot
        read at all (one passed in through `args`) is not judged.
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
