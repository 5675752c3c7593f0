"""WF007 no-whole-answers: the returned value picks fields, it does not pass answers on whole."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule


class NoWholeAnswers(WorkflowRule):
    code = "WF007"
    protocol_rule = True
    what = """
        Reports a returned value that holds whole agent answers (the object an `agent()` call
        with a schema gives back, alone, spread into another object, in an array or turned
        into text with `JSON.stringify`) instead of fields picked from them. Answers without a
        schema, or with unbounded fields, are WF006's.
    """
    why = """
        What the script returns is what the orchestrator reads. Statuses, counts and report
        paths are what it needs to route the work; the rest of an answer is detail that
        belongs in the report on disk. A whole answer also grows silently: a field added to
        the schema later flows into the orchestrator's context with nobody deciding it should.
    """
    bad = """
        export const meta = { name: 'triage', description: 'Triage the open issues' }
        const SCHEMA = {
          type: 'object',
          properties: {
            status: { enum: ['COMPLETE', 'FAILED'] },
            notes: { type: 'string', maxLength: 2000 },
            report: { type: 'string', maxLength: 200 },
          },
        }
        const r = await agent('Triage the open issues; write the full triage to .triage-reports/issues.md.', {
          schema: SCHEMA,
        })
        return r
    """
    good = """
        export const meta = { name: 'triage', description: 'Triage the open issues' }
        const SCHEMA = {
          type: 'object',
          properties: {
            status: { enum: ['COMPLETE', 'FAILED'] },
            notes: { type: 'string', maxLength: 2000 },
            report: { type: 'string', maxLength: 200 },
          },
        }
        const r = await agent('Triage the open issues; write the full triage to .triage-reports/issues.md.', {
          schema: SCHEMA,
        })
        return { status: r.status, report: r.report }
    """
    fix = "Return the fields the orchestrator needs (status, counts, the report path), not answers."

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        flow = ctx.flow
        if flow.ev.exhausted:
            return
        script = ctx.script
        whole = []
        for leaf in flow.result_leaves:
            verdict = flow.leaf_problem(leaf)
            if verdict is not None and verdict[0] == "whole":
                whole.append((leaf, verdict[1]))
        if not whole:
            return
        where = script.top_returns[0] if script.top_returns else script.root
        line, col = script.position(where)
        calls = ", ".join(sorted({str(script.line(leaf.site.node)) for leaf, _ in whole}))
        sizes = sorted({s for _, s in whole if s})
        size = f" (up to {sizes[-1]} characters each)" if sizes else ""
        yield Finding(
            line,
            f"the returned value holds whole agent answers{size}, from agent() on line {calls}",
            col=col,
        )
