"""WF001 script-syntax: Claude Code can read and compile the workflow script."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule
from spawnkit.lint.workflow.script import meta_declarator

# Claude Code 2.1.330 refuses a workflow script longer than this (its own limit, zO)
MAX_SCRIPT_BYTES = 524_288


def _control(code: int, following: str) -> bool:
    """Characters Claude Code refuses in a script: C0 controls but tab and newline (a carriage
    return only when it is not part of CRLF), DEL and C1 controls."""
    if code in (9, 10):
        return False
    if code == 13:
        return following != "\n"
    return code < 32 or 127 <= code <= 159


class ScriptSyntax(WorkflowRule):
    code = "WF001"
    name = "script-syntax"
    severity = "error"
    summary = "The workflow script is plain JavaScript that Claude Code accepts and compiles."
    what = """
        Parses the script with tree-sitter's JavaScript grammar and reports what makes Claude
        Code refuse it before any agent runs: a syntax error (TypeScript annotations,
        interfaces and generics are the usual cause), a `with` statement, `import` (static or
        `import()`), an `export` other than `meta`, a control character an approval prompt
        cannot show (an escape byte, a carriage return outside CRLF), and a script over
        524,288 bytes. A script too large, too deep or too slow to parse within lint's bounds
        is reported as not checked (a warning).
    """
    why = """
        The Workflow tool answers a refused script with an error instead of a run: the skill
        that calls it stops at its first step, after the model already spent a turn on it.
    """
    bad = """
        export const meta = { name: 'audit', description: 'Audit the repository' }
        const files: string[] = args.files
        return { files: files.length }
    """
    good = """
        export const meta = { name: 'audit', description: 'Audit the repository' }
        const files = args.files
        return { files: files.length }
    """
    fix = (
        "Write plain JavaScript: drop type annotations, imports and `with`; keep the script "
        "under 512 KiB and free of control characters."
    )

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        parsed = ctx.parsed
        size = len(parsed.source)
        if size > MAX_SCRIPT_BYTES:
            yield Finding(
                1,
                f"the script has {size:,} bytes; Claude Code refuses workflow scripts over "
                f"{MAX_SCRIPT_BYTES:,}",
                "Split it: move a stage into a script of its own and run it with workflow().",
            )
        text = ctx.doc.text
        for index, char in enumerate(text):
            code = ord(char)
            if (code < 32 or 127 <= code <= 159) and _control(code, text[index + 1 : index + 2]):
                line = text.count("\n", 0, index) + 1
                col = index - (text.rfind("\n", 0, index) + 1) + 1
                yield Finding(
                    line,
                    f"the script holds a control character (U+{code:04X}); Claude Code refuses "
                    "a script it cannot show in full in its approval prompt",
                    "Remove the character (write it as an escape such as \\u001b inside a string).",
                    col,
                )
                break
        if parsed.tree is None:
            yield Finding(
                1,
                f"not checked: {parsed.problem}",
                "Lint a smaller script (Claude Code runs none over 512 KiB anyway).",
                severity="warning",
            )
            return
        script = ctx.script
        if script.error is not None:
            line, col = script.position(script.error)
            near = script.text(script.error).strip().split("\n")[0][:40]
            where = f" near `{near}`" if near else ""
            yield Finding(
                line,
                f"not plain JavaScript: a syntax error{where}; Claude Code refuses to run the "
                "script (TypeScript annotations, interfaces and generics are the usual cause)",
                col=col,
            )
            return
        if script.too_deep:
            yield Finding(
                1,
                f"not analysed: the syntax nests {script.depth} levels deep",
                "Flatten the script; no real workflow nests this deep.",
                severity="warning",
            )
        for node in script.by_type["with_statement"]:
            line, col = script.position(node)
            yield Finding(line, "a `with` statement: workflow scripts may not use it", col=col)
        for node in script.by_type["import_statement"]:
            line, col = script.position(node)
            yield Finding(
                line,
                "an `import`: a workflow script has no modules, only the workflow globals",
                "Inline what you import, or run the other script with workflow().",
                col,
            )
        for call in script.by_type["call_expression"]:
            fn = call.child_by_field_name("function")
            if fn is not None and fn.type == "import":
                line, col = script.position(call)
                yield Finding(line, "import() is not available in workflow scripts", col=col)
        for node in script.by_type["export_statement"]:
            if meta_declarator(node) is not None:
                continue  # meta's place is WF002's
            if node.parent is not None and node.parent.type == "program":
                line, col = script.position(node)
                yield Finding(
                    line,
                    "an `export` other than the leading meta: the body runs as a function, where "
                    "export is a syntax error",
                    "Drop `export`; only `export const meta` at the top is allowed.",
                    col,
                )
