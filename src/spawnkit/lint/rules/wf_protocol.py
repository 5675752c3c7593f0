"""Workflow-script rules of the standard: the protocol written as code (WF006–WF009).

One class per rule, each with its own tests (``tests/lint/test_wf00N_*.py``); they share a file
so that ``spawnkit lint`` on Markdown loads one module for them. Their checks import the workflow
package (and tree-sitter) only when a script is linted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.analysis import STATE_FILE
from spawnkit.lint.patterns import lazy
from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.cm002_results_on_disk import written_paths
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule, finding
from spawnkit.standard import protocol

# --- WF006 bounded-result ----------------------------------------------------------------------


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
        from spawnkit.lint.workflow.flow import dotted

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
            part = dotted(leaf.answer.path)
            what = f"field `{part}` of this agent's answer" if part else "this agent's answer"
            returns = ", ".join(str(script.line(r)) for r in script.top_returns[:3])
            evidence = [(line, f"agent() whose answer is unbounded: {verdict[1]}")]
            evidence += [
                (script.line(r), "the value the script returns") for r in script.top_returns[:3]
            ]
            yield finding(
                line,
                f"{what} reaches the returned value (return on line {returns}) with no size "
                f"bound: {verdict[1]}",
                tuple(evidence),
                col=col,
            )


# --- WF007 no-whole-answers --------------------------------------------------------------------


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
        evidence = tuple(
            (script.line(leaf.site.node), "agent() whose whole answer is returned")
            for leaf, _ in whole
        )
        yield finding(
            line,
            f"the returned value holds whole agent answers{size}, from agent() on line {calls}",
            ((line, "the value the script returns"), *evidence),
            col=col,
        )


# --- WF008 parallel-cap ------------------------------------------------------------------------


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
                evidence = [
                    (script.line(f.node), f"{f.what}: {_count(f)} at once") for f in fan.factors
                ]
                if fan.limit is not None:
                    evidence.append(
                        (script.line(fan.limit.node), f"limiter: {_count(fan.limit)} at once")
                    )
                evidence.append((script.line(site.node), "the agent() call it starts"))
                yield finding(
                    line,
                    f"{message}; the cap is {cap}{sight} (agent() on line {script.line(site.node)})",
                    tuple(evidence),
                    col=col,
                )


def _count(factor) -> str:  # type: ignore[no-untyped-def]
    return "any number" if factor.count is None else str(factor.count)


def _culprit(script, fan, total, cap):  # type: ignore[no-untyped-def]
    limit = fan.limit
    if limit is not None and limit.count is not None and limit.count > cap and not fan.factors:
        return limit, f"the limiter this agent runs through lets {limit.count} agents run at once"
    if any(f.count is None and f.opaque for f in fan.factors):
        return None, ""  # a list from code the linter cannot read: not judged
    for factor in fan.factors:
        if factor.count is None:
            return (
                factor,
                f"{_describe(script, factor)} starts one agent per item of a list of unknown length",
            )
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


# --- WF009 report-file -------------------------------------------------------------------------

HOLE = "{x}"  # stands for a part of the prompt the linter cannot read (a placeholder to CM002)
# a path into a reports folder, or a file named as a report, counts without a verb
_REPORT_PATH = lazy(
    r"[\w.\-{}$/~]*reports?[\w.\-{}$]*/[\w.\-{}$/]*|\breport\w*\.(?:md|json|txt)\b", re.I
)
_NAMED = lazy(r"report|out(?:put)?_?(?:file|path|dir)|dest", re.I)


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
        'End every prompt with the report file, e.g. "Write your full result to '
        '.NAME-reports/STEP.md; answer only with the status and that path."'
    )

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        from spawnkit.lint.workflow.values import text_of

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
                yield finding(
                    line,
                    f'this agent\'s prompt names no report file ("{shown}")',
                    ((script.line(site.prompt), f'the prompt: "{shown}"'),),
                    col=col,
                )


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
