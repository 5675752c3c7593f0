"""WF002 meta-first: the script starts with ``export const meta = {…}``."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule
from spawnkit.lint.workflow.script import meta_declarator


class MetaFirst(WorkflowRule):
    code = "WF002"
    name = "meta-first"
    severity = "error"
    summary = "The first statement of a workflow script is `export const meta = {…}`."
    what = """
        Checks that the script's first statement (comments aside) exports a `const` named
        `meta`, alone in its declaration, whose value is an object literal: the shape Claude
        Code requires before it reads anything else.
    """
    why = """
        Claude Code reads the workflow's name, description and phases from `meta` before it
        runs a line of the script; without it first, the Workflow tool refuses the script
        ("must be the FIRST statement in the script") and a saved workflow never shows up
        in the list.
    """
    bad = """
        const STEPS = ['scan', 'fix']
        export const meta = { name: 'cleanup', description: 'Scan the repository and fix what it finds' }
        return { steps: STEPS.length }
    """
    good = """
        export const meta = { name: 'cleanup', description: 'Scan the repository and fix what it finds' }
        const STEPS = ['scan', 'fix']
        return { steps: STEPS.length }
    """
    fix = "Move `export const meta = { name, description, phases }` to the top of the script."

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        script = ctx.script
        statements = script.statements
        if not statements:
            yield Finding(1, "the script is empty: it needs `export const meta = {…}` first")
            return
        first = statements[0]
        declarator = meta_declarator(first)
        if declarator is None:
            line, col = script.position(first)
            elsewhere = next(
                (s for s in statements[1:] if meta_declarator(s) is not None), None
            )
            if elsewhere is not None:
                message = (
                    f"`export const meta` is on line {script.line(elsewhere)}, but the script "
                    "must start with it"
                )
            else:
                message = "the script has no `export const meta = {…}` as its first statement"
            yield Finding(line, message, col=col)
            return
        decl = first.child_by_field_name("declaration")
        line, col = script.position(first)
        keyword = decl.child(0).type if decl is not None and decl.child(0) is not None else ""
        if keyword != "const":
            yield Finding(line, f"meta is declared with `{keyword}`; Claude Code needs `const`", col=col)
        declarators = [c for c in decl.named_children if c.type == "variable_declarator"]
        if len(declarators) != 1:
            yield Finding(line, "meta must be declared alone (`export const meta = {…}`)", col=col)
        value = declarator.child_by_field_name("value")
        if value is None or value.type != "object":
            yield Finding(
                line,
                "meta's value must be an object literal written in place (`{ name, description }`)",
                col=col,
            )
