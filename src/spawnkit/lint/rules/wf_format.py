"""Workflow-script rules for the format Claude Code requires (WF001–WF005).

One class per rule, each with its own tests (``tests/lint/test_wf00N_*.py``); they share a file
so that ``spawnkit lint`` on Markdown loads one module for them, not five. Their checks import
the workflow package (and tree-sitter) only when a script is linted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from spawnkit.lint.patterns import lazy
from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from spawnkit.lint.workflow.script import Node, Script


# --- WF001 script-syntax -----------------------------------------------------------------------

# Claude Code 2.1.330 refuses a workflow script longer than this (its own limit, zO)
MAX_SCRIPT_BYTES = 524_288


# Characters Claude Code refuses in a script: C0 controls but tab and newline (a carriage return
# only when it is not part of CRLF), DEL and C1 controls.
_CONTROL = lazy(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")


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
        from spawnkit.lint.workflow.script import meta_declarator

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
        control = _CONTROL.search(text)
        if control is not None:
            index = control.start()
            line = text.count("\n", 0, index) + 1
            col = index - (text.rfind("\n", 0, index) + 1) + 1
            yield Finding(
                line,
                f"the script holds a control character (U+{ord(text[index]):04X}); Claude Code "
                "refuses a script it cannot show in full in its approval prompt",
                "Remove the character (write it as an escape such as \\u001b inside a string).",
                col,
            )
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
            if meta_declarator(node, script.source) is not None:
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


# --- WF002 meta-first --------------------------------------------------------------------------


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
        from spawnkit.lint.workflow.script import meta_declarator

        script = ctx.script
        statements = script.statements
        if not statements:
            yield Finding(1, "the script is empty: it needs `export const meta = {…}` first")
            return
        first = statements[0]
        declarator = meta_declarator(first, script.source)
        if declarator is None:
            line, col = script.position(first)
            elsewhere = next(
                (s for s in statements[1:] if meta_declarator(s, script.source) is not None), None
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
            yield Finding(
                line, f"meta is declared with `{keyword}`; Claude Code needs `const`", col=col
            )
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


# --- WF003 meta-literal ------------------------------------------------------------------------


RESERVED = ("__proto__", "constructor", "prototype")
_SIMPLE = ("string", "number", "true", "false", "null", "regex")


class NotPure(Exception):
    def __init__(self, node: Node, why: str) -> None:
        super().__init__(why)
        self.node = node
        self.why = why


def pure_value(script: Script, node: Node, depth: int = 0) -> Any:
    """The value of a pure literal the way Claude Code reads meta; NotPure names the first part
    that is not one (a variable, a call, a spread, a computed key, a method, interpolation)."""
    from spawnkit.lint.workflow.script import key_name, unwrap
    from spawnkit.lint.workflow.values import string_value

    node = unwrap(node)
    if depth > 60:
        raise NotPure(node, "nested too deep")
    t = node.type
    if t == "string":
        return string_value(script, node)
    if t == "number":
        return _number(script.text(node))
    if t in ("true", "false", "null", "regex"):
        text = script.text(node)
        return {"true": True, "false": False, "null": None}.get(text, text)
    if t == "undefined":
        raise NotPure(node, "`undefined` is a variable, not a literal")
    if t == "template_string":
        if any(c.type == "template_substitution" for c in node.named_children):
            raise NotPure(node, "template interpolation is not allowed in meta")
        return "".join(script.text(c) for c in node.named_children)
    if t == "unary_expression":
        op = node.child_by_field_name("operator")
        arg = unwrap(node.child_by_field_name("argument"))
        if op is not None and op.type == "-" and arg is not None and arg.type == "number":
            return -_number(script.text(arg))
        raise NotPure(node, "only a negative number may use an operator in meta")
    if t == "array":
        out = []
        previous_comma = True
        for child in node.children:
            if child.type == ",":
                if previous_comma:
                    raise NotPure(child, "an array in meta has a hole (two commas in a row)")
                previous_comma = True
            elif child.is_named and child.type != "comment":
                if child.type == "spread_element":
                    raise NotPure(child, "spread is not allowed in meta")
                out.append(pure_value(script, child, depth + 1))
                previous_comma = False
        return out
    if t == "object":
        out_obj: dict[str, Any] = {}
        for child in node.named_children:
            if child.type == "comment":
                continue
            if child.type == "spread_element":
                raise NotPure(child, "spread is not allowed in meta")
            if child.type == "method_definition":
                raise NotPure(child, "methods, getters and setters are not allowed in meta")
            if child.type == "shorthand_property_identifier":
                raise NotPure(child, f"`{script.text(child)}` is a variable (write `key: value`)")
            if child.type != "pair":
                raise NotPure(child, f"{child.type.replace('_', ' ')} is not allowed in meta")
            key = child.child_by_field_name("key")
            if key is not None and key.type == "computed_property_name":
                raise NotPure(key, "computed keys are not allowed in meta")
            name = key_name(key, script.source)
            if name in RESERVED:
                raise NotPure(key, f"the key `{name}` is reserved")
            out_obj[name] = pure_value(script, child.child_by_field_name("value"), depth + 1)
        return out_obj
    if t == "identifier":
        raise NotPure(node, f"`{script.text(node)}` is a variable, not a literal")
    if t in ("call_expression", "new_expression"):
        raise NotPure(node, "a call is not a literal")
    raise NotPure(node, f"{t.replace('_', ' ')} is not a literal")


def _number(text: str) -> float:
    try:
        return (
            float(int(text, 0))
            if text[:2].lower() in ("0x", "0o", "0b")
            else float(text.replace("_", "").rstrip("n"))
        )
    except ValueError:
        return 0.0


def meta_data(ctx: WorkflowContext) -> dict[str, Any] | None:
    """meta as data when it is a pure object literal; None otherwise."""
    node = ctx.script.meta
    if node is None or node.type != "object":
        return None
    try:
        value = pure_value(ctx.script, node)
    except NotPure:
        return None
    return value if isinstance(value, dict) else None


class MetaLiteral(WorkflowRule):
    code = "WF003"
    name = "meta-literal"
    severity = "error"
    summary = "`meta` is a pure literal with a non-empty name and description."
    what = """
        Reads `meta` the way Claude Code does: strings, numbers, booleans, null, arrays and
        objects written out, nothing computed (no variables, calls, spreads, template
        interpolation, computed keys or methods), and `name` and `description` non-empty
        strings.
    """
    why = """
        Claude Code reads `meta` without running the script, so anything computed is refused
        ("meta must be a pure literal") and the workflow does not start. The name and the
        description are what the user approves in the permission dialog.
    """
    bad = """
        export const meta = { name: 'triage', description: `Triage ${args.count} issues` }
        return { ok: true }
    """
    good = """
        export const meta = { name: 'triage', description: 'Triage the open issues' }
        return { ok: true }
    """
    fix = "Write meta's values out as literals; pass anything variable to the script in `args`."

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        script = ctx.script
        node = script.meta
        if node is None or node.type != "object":
            return  # WF002 reports it
        try:
            value = pure_value(script, node)
        except NotPure as exc:
            line, col = script.position(exc.node)
            yield Finding(line, f"meta is not a pure literal: {exc.why}", col=col)
            return
        line, col = script.position(node)
        for key in ("name", "description"):
            field = value.get(key)
            if not isinstance(field, str) or not field:
                problem = "is missing" if key not in value else "must be a non-empty string"
                yield Finding(line, f"meta.{key} {problem}", col=col)


# --- WF004 phase-titles ------------------------------------------------------------------------


class PhaseTitles(WorkflowRule):
    code = "WF004"
    name = "phase-titles"
    severity = "warning"
    summary = (
        "Every `phase()` title is declared in `meta.phases`, and every declared phase is used."
    )
    what = """
        Compares the titles in `meta.phases` with the titles the script passes to `phase()`
        and to agents' `phase` option. Reports a title used but not declared, and a declared
        title no call uses (when every call's title is a literal the linter can read).
        A script whose meta declares no phases is not checked.
    """
    why = """
        Claude Code shows the declared phases in the permission dialog and groups the agents'
        progress under them, matching titles exactly. A `phase('Verfiy')` typo gets a progress
        group of its own, and the declared phase stays empty: the user sees a run that never
        reached a step it did run.
    """
    bad = """
        export const meta = {
          name: 'review',
          description: 'Review the diff',
          phases: [{ title: 'Review' }, { title: 'Verify' }],
        }
        phase('Review')
        phase('Verfiy')
        return { ok: true }
    """
    good = """
        export const meta = {
          name: 'review',
          description: 'Review the diff',
          phases: [{ title: 'Review' }, { title: 'Verify' }],
        }
        phase('Review')
        phase('Verify')
        return { ok: true }
    """
    fix = "Use the same titles, letter for letter, in meta.phases and in phase() calls."

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        from spawnkit.lint.workflow.script import call_arguments
        from spawnkit.lint.workflow.values import Lit, Obj, get_prop, options

        meta = meta_data(ctx)
        phases = meta.get("phases") if meta else None
        if not isinstance(phases, list) or not phases:
            return
        declared = [
            p["title"] for p in phases if isinstance(p, dict) and isinstance(p.get("title"), str)
        ]
        script, ev = ctx.script, ctx.flow.ev
        used: list[tuple[str, object]] = []
        dynamic = False
        for call in script.by_type["call_expression"]:
            args = call_arguments(call)
            if ev.is_global_call(call, "phase"):
                titles = (
                    [o.value for o in options(ev.value(args[0])) if isinstance(o, Lit)]
                    if args
                    else []
                )
                if not titles or any(not isinstance(t, str) for t in titles):
                    dynamic = True
                used += [(t, call) for t in titles if isinstance(t, str)]
            elif ev.site_of(call) is not None and ev.site_arguments(call)[1] is not None:
                opts = ev.value(ev.site_arguments(call)[1])
                for option in options(opts):
                    if not isinstance(option, Obj) or "phase" not in option.fields:
                        continue
                    for title in options(get_prop(option, "phase")):
                        if isinstance(title, Lit) and isinstance(title.value, str):
                            used.append((title.value, call))
                        else:
                            dynamic = True
        reported: set[str] = set()
        for title, call in used:
            if title not in declared and title not in reported:
                reported.add(title)
                line, col = script.position(call)
                near = [d for d in declared if d.lower() == title.lower()]
                hint = f" (did you mean '{near[0]}'?)" if near else ""
                yield Finding(
                    line,
                    f"phase '{title}' is not in meta.phases{hint}: its agents get a progress "
                    "group of their own",
                    col=col,
                )
        if dynamic:
            return
        titles_used = {t for t, _ in used}
        line, col = script.position(script.meta)
        for title in declared:
            if title not in titles_used:
                yield Finding(
                    line,
                    f"meta.phases declares '{title}', but no phase() call or agent uses it",
                    col=col,
                )


# --- WF005 deterministic -----------------------------------------------------------------------

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
        from spawnkit.lint.workflow.script import call_arguments, unwrap
        from spawnkit.lint.workflow.values import string_value

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
                yield Finding(
                    line, f"{what} is not deterministic: it throws in a workflow", col=col
                )
        for node in script.by_type["new_expression"]:
            ctor = unwrap(node.child_by_field_name("constructor"))
            if ctor is not None and script.text(ctor) == "Date" and not call_arguments(node):
                line, col = script.position(node)
                yield Finding(
                    line,
                    "new Date() without arguments reads the clock: it throws in a workflow",
                    col=col,
                )
        for node in script.by_type["call_expression"]:
            fn = unwrap(node.child_by_field_name("function"))
            if fn is not None and fn.type == "identifier" and script.text(fn) == "Date":
                if script.resolve(fn) is None:
                    line, col = script.position(node)
                    yield Finding(
                        line, "Date() reads the clock: the result differs on every run", col=col
                    )
