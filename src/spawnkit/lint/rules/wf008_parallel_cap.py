"""WF008 parallel-cap: no more agents in flight than the standard's cap."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule
from spawnkit.standard import protocol


class ParallelCap(WorkflowRule):
    code = "WF008"
    protocol_rule = True
    what = """
        Counts how many agents each `agent()` call can have running at once: a `parallel()`
        over N thunks, a `pipeline()` over N items, a `map` or `Promise.all` that starts one
        agent per item, nested fan-outs multiplied. A count above the standard's cap, or a
        list of unknown length (from `args`, or from an agent's answer without `maxItems`),
        is reported unless a limiter is in sight: the agent runs inside a callback handed to a
        function of the script's own (a semaphore, a queue), or the fan-out goes over chunks
        cut with `.slice(i, i + N)`. A limiter built with a number above the cap is reported.
    """
    why = """
        Agents that run together finish together: their answers arrive in one go, with no
        chance to record any of them in between, and a crash takes all of them. The Workflow
        API has no per-call cap (Claude Code only holds a workflow to min(16, CPUs − 2) agents),
        so a script that must keep to the standard's cap has to limit itself.
    """
    bad = """
        export const meta = { name: 'review', description: 'Review every changed file' }
        const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'ISSUES'] } } }
        const results = await parallel(
          args.files.map((f) => () =>
            agent(`Review ${f}; write your findings to .review-reports/${f}.md.`, { schema: SCHEMA }),
          ),
        )
        return { reviewed: results.filter(Boolean).length }
    """
    good = """
        export const meta = { name: 'review', description: 'Review every changed file' }
        const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'ISSUES'] } } }
        const CAP = 2
        let reviewed = 0
        for (let i = 0; i < args.files.length; i += CAP) {
          const batch = args.files.slice(i, i + CAP)
          const results = await parallel(
            batch.map((f) => () =>
              agent(`Review ${f}; write your findings to .review-reports/${f}.md.`, { schema: SCHEMA }),
            ),
          )
          reviewed += results.filter(Boolean).length
        }
        return { reviewed }
    """
    fix = (
        "Run the items in batches of at most {max_parallel} (`items.slice(i, i + {max_parallel})`), "
        "or pass every agent() through a limiter that allows {max_parallel} at once."
    )

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        flow = ctx.flow
        if flow.ev.exhausted:
            return
        script = ctx.script
        cap = protocol.max_parallel()
        reported: set[int] = set()
        for site in flow.sites:
            for fan in flow.site_fan(site):
                total = fan.total()
                if total is not None and total <= cap:
                    continue
                culprit, message = _culprit(script, fan, total, cap)
                if culprit is None or culprit.node.id in reported:
                    continue
                reported.add(culprit.node.id)
                line, col = script.position(culprit.node)
                sight = "" if culprit.what == "limiter" else " and no limiter is in sight"
                yield Finding(
                    line,
                    f"{message}; the cap is {cap}{sight} (agent() on line {script.line(site.node)})",
                    col=col,
                )


def _culprit(script, fan, total, cap):  # type: ignore[no-untyped-def]
    limit = fan.limit
    if limit is not None and limit.count is not None and limit.count > cap and not fan.factors:
        return limit, f"the limiter this agent runs through lets {limit.count} agents run at once"
    if any(f.count is None and f.opaque for f in fan.factors):
        return None, ""  # a list from code the linter cannot read: not judged
    for factor in fan.factors:
        if factor.count is None:
            return factor, f"{_describe(script, factor)} starts one agent per item of a list of unknown length"
        if factor.count > cap:
            return factor, f"{_describe(script, factor)} starts {factor.count} agents at once"
    nested = [f for f in fan.factors if f.count and f.count > 1]
    if limit is not None and limit.count is not None and limit.count > 1:
        nested = [limit, *nested]
    if nested:
        product = " × ".join(str(f.count) for f in nested)
        return nested[0], f"nested fan-outs start {product} = {total} agents at once"
    return None, ""


def _describe(script, factor) -> str:  # type: ignore[no-untyped-def]
    node = factor.node
    what = factor.what
    if node.type == "call_expression":
        fn = node.child_by_field_name("function")
        target = None
        if fn is not None and fn.type == "member_expression":
            target = fn.child_by_field_name("object")
        else:
            args = node.child_by_field_name("arguments")
            named = [a for a in args.named_children] if args is not None else []
            target = named[0] if named else None
        if target is not None:
            text = " ".join(script.text(target).split())
            if len(text) > 40:
                text = text[:37] + "…"
            return f"{what}() over `{text}`"
    if node.type == "array":
        return f"{what}() over an array of {factor.count} functions"
    return f"{what}()"
