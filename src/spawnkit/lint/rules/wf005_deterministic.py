"""WF005 deterministic: no ``Date.now()``, ``Math.random()`` or argument-less ``new Date()``."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule
from spawnkit.lint.workflow.script import call_arguments, unwrap
from spawnkit.lint.workflow.values import string_value

_BANNED = {("Date", "now"): "Date.now()", ("Math", "random"): "Math.random()"}


class Deterministic(WorkflowRule):
    code = "WF005"
    name = "deterministic"
    severity = "error"
    summary = "The script uses no clock or randomness: no Date.now(), Math.random() or new Date()."
    what = """
        Finds `Date.now`, `Math.random` (also written `Math['random']`), `new Date` without
        arguments and `Date()` called as a function, anywhere in the script.
    """
    why = """
        Claude Code resumes a workflow by replaying the answers of the agents that already
        finished, in order, so a rerun must make the same calls. It makes these functions throw
        inside a workflow, and refuses to launch an inline script that mentions them: the run
        fails instead of resuming.
    """
    bad = """
        export const meta = { name: 'stamp', description: 'Stamp the report' }
        const started = Date.now()
        return { started }
    """
    good = """
        export const meta = { name: 'stamp', description: 'Stamp the report' }
        const started = args.startedAt
        return { started }
    """
    fix = (
        "Pass times in through args (or stamp the result after the workflow returns); vary "
        "agents by their index instead of at random."
    )

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        script = ctx.script
        for node in script.by_type["member_expression"] + script.by_type["subscript_expression"]:
            obj = unwrap(node.child_by_field_name("object"))
            if obj is None or obj.type != "identifier":
                continue
            if node.type == "member_expression":
                prop = node.child_by_field_name("property")
                name = script.text(prop) if prop is not None else ""
            else:
                index = unwrap(node.child_by_field_name("index"))
                if index is None or index.type != "string":
                    continue
                name = string_value(script, index)
            what = _BANNED.get((script.text(obj), name))
            if what is not None:
                line, col = script.position(node)
                yield Finding(line, f"{what} is not deterministic: it throws in a workflow", col=col)
        for node in script.by_type["new_expression"]:
            ctor = unwrap(node.child_by_field_name("constructor"))
            if ctor is not None and script.text(ctor) == "Date" and not call_arguments(node):
                line, col = script.position(node)
                yield Finding(
                    line, "new Date() without arguments reads the clock: it throws in a workflow", col=col
                )
        for node in script.by_type["call_expression"]:
            fn = unwrap(node.child_by_field_name("function"))
            if fn is not None and fn.type == "identifier" and script.text(fn) == "Date":
                if script.resolve(fn) is None:
                    line, col = script.position(node)
                    yield Finding(
                        line, "Date() reads the clock: the result differs on every run", col=col
                    )
