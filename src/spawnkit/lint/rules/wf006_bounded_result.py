"""WF006 bounded-result: what reaches the returned value has a size bound."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule


class BoundedResult(WorkflowRule):
    code = "WF006"
    protocol_rule = True
    what = """
        Follows every `agent()` answer through the script (variables, `parallel()` and
        `pipeline()` results, `map`, destructuring, helper functions, template strings,
        `JSON.stringify`) and reports an answer, or a field of one, that can reach the value
        the script returns without a size bound: an agent called without a `schema` (its
        answer is free text), a string field without `maxLength`, an array without
        `maxItems`, or a field with no type. A string cut with `.slice(0, n)` is bounded.
    """
    why = """
        The value a workflow returns is copied whole into the orchestrator's context (up to
        100,000 characters), the same as a sub-agent's reply in a prompt-driven skill. An
        agent that answers in free text, or fills an unbounded schema field, puts its whole
        output there: the return budget the standard sets for every reply is gone.
    """
    bad = """
        export const meta = { name: 'scan', description: 'Scan the dependencies' }
        const report = await agent(
          'Scan package.json for outdated dependencies; write the full list to .scan-reports/deps.md.',
        )
        return { report }
    """
    good = """
        export const meta = { name: 'scan', description: 'Scan the dependencies' }
        const SCHEMA = {
          type: 'object',
          properties: {
            status: { enum: ['COMPLETE', 'PARTIAL', 'FAILED'] },
            outdated: { type: 'integer' },
            report: { type: 'string', maxLength: 200 },
          },
          required: ['status', 'outdated', 'report'],
        }
        const r = await agent(
          'Scan package.json for outdated dependencies; write the full list to .scan-reports/deps.md.',
          { schema: SCHEMA },
        )
        return { status: r.status, outdated: r.outdated, report: r.report }
    """
    fix = (
        "Give the agent a schema whose strings have maxLength and arrays maxItems (sized so an "
        "answer fits the {return_budget}-token budget), and return only those bounded fields."
    )

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        flow = ctx.flow
        if flow.ev.exhausted:
            return
        script = ctx.script
        seen: set[tuple[int, str]] = set()
        for leaf in flow.result_leaves:
            verdict = flow.leaf_problem(leaf)
            if verdict is None or verdict[0] != "unbounded":
                continue
            key = (leaf.site.index, verdict[1] or "")
            if key in seen:
                continue
            seen.add(key)
            line, col = script.position(leaf.site.node)
            part = ".".join(leaf.answer.path)
            what = f"field `{part}` of this agent's answer" if part else "this agent's answer"
            returns = ", ".join(str(script.line(r)) for r in script.top_returns[:3])
            yield Finding(
                line,
                f"{what} reaches the returned value (return on line {returns}) with no size "
                f"bound: {verdict[1]}",
                col=col,
            )
