"""WF003 meta-literal: ``meta`` is a pure literal with a name and a description."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule
from spawnkit.lint.workflow.script import Node, Script, key_name, unwrap
from spawnkit.lint.workflow.values import string_value

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
            name = key_name(key)
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
        return float(int(text, 0)) if text[:2].lower() in ("0x", "0o", "0b") else float(text.replace("_", "").rstrip("n"))
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
