"""A small abstract interpreter for workflow scripts: what a value may hold.

It does not run the script. Each expression is given an abstract value: a literal, an agent's
answer (or a part of it, by path), an array (with its items or only an element and a count), an
object, a string built from parts, a function, or ``Unknown``. Variables take the union of every
value written to them anywhere (order is ignored), so a result is an over-approximation of what
the script can hold, which is what the rules need: what may reach the returned value, how many
items a fan-out may get, what a prompt may say.

Bounds: every evaluation counts against a step budget and a depth limit; past them the value is
``Unknown`` and :attr:`Evaluator.exhausted` is set, so a rule can stay silent instead of guessing.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spawnkit.lint.workflow.script import (
    FUNCTIONS,
    Node,
    Script,
    call_arguments,
    key_name,
    parameters,
    pattern_paths,
    unwrap,
)

MAX_STEPS = 400_000
MAX_DEPTH = 120
MAX_UNION = 48
MAX_CALL_DEPTH = 6
MAX_ITEMS = 4096

WORKFLOW_GLOBALS = frozenset({"agent", "parallel", "pipeline", "phase", "log", "workflow"})


# --- values ---------------------------------------------------------------------------


class Value:
    __slots__ = ()


class Unknown(Value):
    __slots__ = ("origin",)

    def __init__(self, origin: str = "") -> None:
        self.origin = origin  # "args", "param", "workflow" … (for messages)

    def __repr__(self) -> str:
        return f"Unknown({self.origin})"


class Lit(Value):
    """A primitive whose value is known."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Lit({self.value!r})"


class Prim(Value):
    """A number, boolean or short string of unknown value (a count, a comparison …)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str = "number") -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"Prim({self.kind})"


class Ans(Value):
    """The answer of the agent() call ``site`` (an index into the evaluator's sites), or the part
    of it at ``path`` (field names; ``[]`` an array element; ``*`` any field)."""

    __slots__ = ("site", "path")

    def __init__(self, site: int, path: tuple[str, ...] = ()) -> None:
        self.site = site
        self.path = path

    def __repr__(self) -> str:
        return f"Ans({self.site}, {'.'.join(self.path)})"


class Arr(Value):
    """An array: its items when known, else an element value and a count (None: unknown).

    ``origin`` is the agent answer (an array field) it was mapped or filtered from: its length
    is then the agent's to choose, bounded only by the schema's ``maxItems``. ``opaque`` says
    the count is unknown because the linter cannot see where the list comes from (a function it
    cannot read), as opposed to a list whose length is up to the input (``args``)."""

    __slots__ = ("items", "elem", "count", "origin", "opaque")

    def __init__(
        self,
        items: tuple[Value, ...] | None = None,
        elem: Value | None = None,
        count: int | None = None,
        origin: Ans | None = None,
        opaque: bool = False,
    ) -> None:
        self.items = items
        self.elem = elem if elem is not None else (union(items) if items else NOTHING)
        self.count = len(items) if items is not None else count
        self.origin = origin
        self.opaque = opaque and self.count is None

    def __repr__(self) -> str:
        return f"Arr(count={self.count}, elem={self.elem!r})"


class Obj(Value):
    __slots__ = ("fields", "spreads")

    def __init__(self, fields: dict[str, Value], spreads: tuple[Value, ...] = ()) -> None:
        self.fields = fields
        self.spreads = spreads

    def __repr__(self) -> str:
        return f"Obj({list(self.fields)}, spreads={len(self.spreads)})"


class Str(Value):
    """A string built from parts (literal text and the values pasted into it)."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple[Value, ...]) -> None:
        self.parts = parts

    def __repr__(self) -> str:
        return f"Str({self.parts!r})"


class Cut(Value):
    """A string or array cut to at most ``size`` characters or items (``.slice(0, n)``)."""

    __slots__ = ("inner", "size")

    def __init__(self, inner: Value, size: int) -> None:
        self.inner = inner
        self.size = size


class Fn(Value):
    __slots__ = ("node", "ctx")

    def __init__(self, node: Node, ctx: Ctx) -> None:
        self.node = node
        self.ctx = ctx


class Global(Value):
    """A global the evaluator knows: the workflow API and JavaScript's namespaces."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Global({self.name})"


class Union(Value):
    __slots__ = ("options",)

    def __init__(self, options: tuple[Value, ...]) -> None:
        self.options = options

    def __repr__(self) -> str:
        return f"Union({self.options!r})"


NOTHING = Union(())
UNDEFINED = Lit(None)


def union(values: Any) -> Value:
    flat: list[Value] = []
    seen: set[int] = set()
    for v in values:
        for option in v.options if isinstance(v, Union) else (v,):
            if id(option) not in seen and len(flat) < MAX_UNION:
                seen.add(id(option))
                flat.append(option)
    if len(flat) == 1:
        return flat[0]
    return Union(tuple(flat))


def options(value: Value) -> tuple[Value, ...]:
    return value.options if isinstance(value, Union) else (value,)


def may_be(value: Value, name: str) -> bool:
    """Whether ``value`` may be the global function ``name`` (``agent`` under another name)."""
    return any(isinstance(o, Global) and o.name == name for o in options(value))


class Frame:
    """One activation of a function: its parameters' values."""

    __slots__ = ("fn", "args")

    def __init__(self, fn: Node, args: tuple[Value, ...]) -> None:
        self.fn = fn
        self.args = args


class Ctx(NamedTuple):
    """The activations visible to an expression: function id -> frame."""

    frames: tuple[tuple[int, Frame], ...] = ()

    def frame(self, fn_id: int) -> Frame | None:
        for key, frame in reversed(self.frames):
            if key == fn_id:
                return frame
        return None

    def key(self) -> tuple[int, ...]:
        return tuple(id(f) for _, f in self.frames)

    def enter(self, frame: Frame) -> Ctx:
        kept = tuple(p for p in self.frames if p[0] != frame.fn.id)
        return Ctx(kept + ((frame.fn.id, frame),))


ROOT = Ctx()

_NAMESPACES = frozenset(
    {"JSON", "Math", "Object", "Array", "Promise", "String", "Number", "Boolean", "Set", "Map"}
)
_PRIM_FUNCS = frozenset(
    {"Number", "Boolean", "parseInt", "parseFloat", "isNaN", "isFinite", "encodeURIComponent"}
)
KNOWN_GLOBALS = WORKFLOW_GLOBALS | _NAMESPACES | _PRIM_FUNCS | {"globalThis"}
# callees whose value the evaluator follows to find `agent` under another name
_CALLEE_TYPES = frozenset(
    {
        "identifier",
        "member_expression",
        "subscript_expression",
        "sequence_expression",
        "ternary_expression",
        "binary_expression",
    }
)
_STRING_KEEP = frozenset(
    {
        "trim",
        "trimStart",
        "trimEnd",
        "toUpperCase",
        "toLowerCase",
        "replace",
        "replaceAll",
        "padStart",
        "padEnd",
        "normalize",
        "repeat",
        "toString",
        "toLocaleString",
        "valueOf",
    }
)
_PRIM_METHODS = frozenset(
    {
        "includes",
        "indexOf",
        "lastIndexOf",
        "findIndex",
        "findLastIndex",
        "some",
        "every",
        "startsWith",
        "endsWith",
        "test",
        "has",
        "localeCompare",
        "charCodeAt",
        "codePointAt",
        "toFixed",
        "search",
        "push",
        "unshift",
        "delete",
        "add",
        "set",
        "forEach",
        "get_size",
    }
)
_SAME_ARRAY = frozenset(
    {"filter", "sort", "reverse", "toSorted", "toReversed", "fill", "copyWithin"}
)


class Evaluator:
    """Abstract values of a script's expressions (see the module docstring)."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.steps = 0
        self.depth = 0
        self.exhausted = False
        self.sites: list[Node] = []  # agent() calls, in source order
        self._site_index: dict[int, int] = {}
        self._memo: dict[tuple[int, tuple[int, ...]], Value] = {}
        self._busy: set[tuple[int, tuple[int, ...]]] = set()
        self._frames: list[Frame] = []  # kept alive: memo keys hold their ids
        self._calls = 0
        self._site_kind: dict[int, str] = {}  # call id -> "direct", "call" or "apply"
        calls = script.by_type["call_expression"]
        for call in calls:
            if self.is_global_call(call, "agent"):
                self._site_kind[call.id] = "direct"
        # `agent` under another name (`const real = agent`, `globalThis.agent`, `agent.call`):
        # the callee's value may be the global itself
        for call in calls:
            kind = None if call.id in self._site_kind else self._aliased_agent(call, ROOT)
            if kind is not None:
                self._site_kind[call.id] = kind
        self._index_sites()

    # --- agent() sites ------------------------------------------------------------

    def _index_sites(self) -> None:
        """Sites in source order; values evaluated before a site was known are forgotten."""
        calls = self.script.by_type["call_expression"]
        self.sites = [call for call in calls if call.id in self._site_kind]
        self.sites.sort(key=lambda n: n.start_byte)
        self._site_index = {call.id: i for i, call in enumerate(self.sites)}
        self._memo.clear()
        self._busy.clear()
        self.steps = 0
        self.exhausted = False

    def _aliased_agent(self, call: Node, ctx: Ctx) -> str | None:
        """How ``call`` starts an agent when its callee is ``agent`` under another name: "direct"
        (``real(p, o)``), "call" (``agent.call(this, p, o)``) or "apply" (``agent.apply(this,
        [p, o])``); None when it does not."""
        fn = unwrap(call.child_by_field_name("function"))
        if fn is None or fn.type not in _CALLEE_TYPES:
            return None
        if fn.type == "member_expression":
            prop = fn.child_by_field_name("property")
            method = self.script.text(prop) if prop is not None else ""
            if method in ("call", "apply"):
                base = fn.child_by_field_name("object")
                if may_be(self.value(base, ctx), "agent"):
                    return method
        return "direct" if may_be(self.value(fn, ctx), "agent") else None

    def add_sites(self, found: dict[int, str]) -> None:
        """More sites (call id -> kind), found where a parameter holds ``agent``."""
        self._site_kind.update(found)
        self._index_sites()

    def site_arguments(self, call: Node) -> tuple[Node | None, Node | None]:
        """The prompt and the options an agent() site passes (after ``this`` in ``.call``,
        inside the array literal of ``.apply``)."""
        args = call_arguments(call)
        kind = self._site_kind.get(call.id, "direct")
        if kind == "call":
            args = args[1:]
        elif kind == "apply":
            packed = unwrap(args[1]) if len(args) > 1 else None
            args = (
                [a for a in packed.named_children if a.type != "comment"]
                if packed is not None and packed.type == "array"
                else []
            )
        return (args + [None, None])[0], (args + [None, None])[1]

    # --- globals ----------------------------------------------------------------

    def is_global(self, ident: Node, name: str | None = None) -> bool:
        if ident is None or ident.type != "identifier":
            return False
        text = self.script.text(ident)
        return (name is None or text == name) and self.script.resolve(ident) is None

    def is_global_call(self, call: Node, name: str) -> bool:
        fn = unwrap(call.child_by_field_name("function"))
        return fn is not None and self.is_global(fn, name)

    def site_of(self, call: Node) -> int | None:
        return self._site_index.get(call.id)

    # --- entry points -----------------------------------------------------------

    def value(self, node: Node | None, ctx: Ctx = ROOT) -> Value:
        if node is None:
            return UNDEFINED
        if self.exhausted:
            return Unknown("budget")
        self.steps += 1
        if self.steps > MAX_STEPS or self.depth > MAX_DEPTH:
            self.exhausted = True
            return Unknown("budget")
        key = (node.id, ctx.key())
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        if key in self._busy:
            return NOTHING  # a value that depends on itself adds nothing new
        self._busy.add(key)
        self.depth += 1
        try:
            result = self._eval(node, ctx)
        finally:
            self.depth -= 1
            self._busy.discard(key)
        self._memo[key] = result
        return result

    def literal(self, node: Node | None, ctx: Ctx = ROOT) -> Any:
        """The Python value of ``node`` when it is fully known (dicts, lists, primitives)."""
        return to_python(self.value(node, ctx))

    # --- expressions ------------------------------------------------------------

    def _eval(self, node: Node, ctx: Ctx) -> Value:
        t = node.type
        handler = _HANDLERS.get(t)
        if handler is not None:
            return handler(self, node, ctx)
        return Unknown(t)

    def _string(self, node: Node, ctx: Ctx) -> Value:
        return Lit(string_value(self.script, node))

    def _template(self, node: Node, ctx: Ctx) -> Value:
        parts: list[Value] = []
        text = []
        for child in node.named_children:
            if child.type == "template_substitution":
                if text:
                    parts.append(Lit("".join(text)))
                    text = []
                inner = child.named_children[0] if child.named_children else None
                parts.append(self.value(inner, ctx))
            elif child.type == "escape_sequence":
                text.append(_unescape(self.script.text(child)))
            else:
                text.append(self.script.text(child))
        # text between named children (a fragment is named; keep it simple)
        if text:
            parts.append(Lit("".join(text)))
        if all(isinstance(p, Lit) and isinstance(p.value, str) for p in parts):
            return Lit("".join(p.value for p in parts))  # type: ignore[union-attr]
        return Str(tuple(parts))

    def _number(self, node: Node, ctx: Ctx) -> Value:
        raw = self.script.text(node).replace("_", "")
        try:
            if raw.lower().startswith(("0x", "0o", "0b")):
                return Lit(int(raw, 0))
            if raw.endswith("n"):
                return Lit(int(raw[:-1]))
            number = float(raw)
            return Lit(
                int(number)
                if number.is_integer() and "." not in raw and "e" not in raw.lower()
                else number
            )
        except ValueError:
            return Prim("number")

    def _array(self, node: Node, ctx: Ctx) -> Value:
        items: list[Value] = []
        unknown_count = False
        extra: list[Value] = []
        for child in node.named_children:
            if child.type == "comment":
                continue
            if child.type == "spread_element":
                inner = self.value(child.named_children[0] if child.named_children else None, ctx)
                known = _known_items(inner)
                if known is not None:
                    items.extend(known)
                else:
                    unknown_count = True
                    extra.append(elem(inner))
            else:
                items.append(self.value(child, ctx))
        if unknown_count:
            return Arr(elem=union(items + extra), count=None)
        return Arr(items=tuple(items[:MAX_ITEMS]))

    def _object(self, node: Node, ctx: Ctx) -> Value:
        fields: dict[str, Value] = {}
        spreads: list[Value] = []
        for child in node.named_children:
            t = child.type
            if t == "pair":
                key = child.child_by_field_name("key")
                value = child.child_by_field_name("value")
                if key is not None and key.type == "computed_property_name":
                    inner = self.value(key.named_children[0] if key.named_children else None, ctx)
                    name = str(inner.value) if isinstance(inner, Lit) else "*"
                else:
                    name = key_name(key, self.script.source)
                fields[name] = (
                    union([fields[name], self.value(value, ctx)])
                    if name in fields
                    else self.value(value, ctx)
                )
            elif t == "shorthand_property_identifier":
                fields[self.script.text(child)] = self._identifier(child, ctx)
            elif t == "spread_element":
                spreads.append(
                    self.value(child.named_children[0] if child.named_children else None, ctx)
                )
            elif t == "method_definition":
                name_node = child.child_by_field_name("name")
                fields[key_name(name_node, self.script.source)] = Fn(child, ctx)
        return Obj(fields, tuple(spreads))

    def _identifier(self, node: Node, ctx: Ctx) -> Value:
        binding = self.script.resolve(node)
        name = self.script.text(node)
        if binding is None:
            if name == "undefined":
                return UNDEFINED
            if name in ("NaN", "Infinity"):
                return Prim("number")
            if name in KNOWN_GLOBALS:
                return Global(name)
            return Unknown(name)  # args, budget, anything the script did not declare
        return self.binding_value(binding, ctx)

    def binding_value(self, binding: Any, ctx: Ctx) -> Value:
        if binding.kind == "param":
            return self._param_value(binding, ctx)
        if binding.kind == "function":
            return Fn(binding.node, ctx)
        if binding.kind in ("class", "catch"):
            return Unknown(binding.kind)
        owner = self.script.function_of(binding.node) if binding.scope.type != "program" else None
        if owner is not None and owner.type != "program" and ctx.frame(owner.id) is None:
            # a local of a function evaluated outside any call: its parameters are unknown
            pass
        values: list[Value] = []
        for kind, payload in binding.writes:
            values.append(self._write_value(kind, payload, ctx))
        if not values:
            return UNDEFINED
        return union(values)

    def _write_value(self, kind: str, payload: Any, ctx: Ctx) -> Value:
        if kind == "init":
            node, path = payload
            return destructure(self.value(node, ctx), path, self, ctx)
        if kind == "elem_of":
            node, path = payload
            return destructure(elem(self.value(node, ctx)), path, self, ctx)
        if kind == "key_of":
            return Prim("string")
        if kind == "augment":
            return Str((self.value(payload, ctx),))
        if kind == "field":
            name, node = payload
            return Obj({name: self.value(node, ctx)})
        if kind == "elem":
            return Arr(elem=self.value(payload, ctx), count=None)
        if kind == "elems":
            return Arr(elem=elem(self.value(payload, ctx)), count=None)
        return Unknown()

    def _param_value(self, binding: Any, ctx: Ctx) -> Value:
        fn = binding.scope
        frame = ctx.frame(fn.id)
        if frame is None:
            return Unknown("param")
        params = parameters(fn)
        for index, param in enumerate(params):
            for name_node, path in pattern_paths(param, self.script.source):
                if self.script.text(name_node) != binding.name:
                    continue
                if param.type == "rest_pattern":
                    return Arr(items=frame.args[index:])
                arg = frame.args[index] if index < len(frame.args) else UNDEFINED
                return destructure(arg, path, self, ctx)
        return Unknown("param")

    def _parenthesized(self, node: Node, ctx: Ctx) -> Value:
        inner = [c for c in node.named_children if c.type != "comment"]
        return self.value(inner[-1], ctx) if inner else UNDEFINED

    def _await(self, node: Node, ctx: Ctx) -> Value:
        inner = node.named_children[0] if node.named_children else None
        return self.value(inner, ctx)

    def _binary(self, node: Node, ctx: Ctx) -> Value:
        op_node = node.child_by_field_name("operator")
        op = op_node.type if op_node is not None else ""
        left = self.value(node.child_by_field_name("left"), ctx)
        right = self.value(node.child_by_field_name("right"), ctx)
        if op in ("&&", "||", "??"):
            return union([left, right])
        if op == "+":
            if isinstance(left, Lit) and isinstance(right, Lit):
                try:
                    return Lit(left.value + right.value)
                except TypeError:
                    return Prim("string")
            if _numeric(left) and _numeric(right):
                return Prim("number")
            return Str((left, right))
        if op in ("-", "*", "/", "%", "**", "<<", ">>", ">>>", "&", "|", "^"):
            if isinstance(left, Lit) and isinstance(right, Lit):
                try:
                    return Lit(_arith(op, left.value, right.value))
                except Exception:  # noqa: BLE001 - any failure is just "a number"
                    return Prim("number")
            return Prim("number")
        return Prim("boolean")

    def _unary(self, node: Node, ctx: Ctx) -> Value:
        op_node = node.child_by_field_name("operator")
        arg = self.value(node.child_by_field_name("argument"), ctx)
        if op_node is not None and op_node.type == "-" and isinstance(arg, Lit):
            try:
                return Lit(-arg.value)
            except TypeError:
                pass
        return Prim("boolean" if op_node is not None and op_node.type == "!" else "number")

    def _ternary(self, node: Node, ctx: Ctx) -> Value:
        return union(
            [
                self.value(node.child_by_field_name("consequence"), ctx),
                self.value(node.child_by_field_name("alternative"), ctx),
            ]
        )

    def _sequence(self, node: Node, ctx: Ctx) -> Value:
        children = [c for c in node.named_children if c.type != "comment"]
        return self.value(children[-1], ctx) if children else UNDEFINED

    def _assign(self, node: Node, ctx: Ctx) -> Value:
        return self.value(node.child_by_field_name("right"), ctx)

    def _function(self, node: Node, ctx: Ctx) -> Value:
        return Fn(node, ctx)

    def _member(self, node: Node, ctx: Ctx) -> Value:
        obj = self.value(node.child_by_field_name("object"), ctx)
        prop = node.child_by_field_name("property")
        return get_prop(obj, self.script.text(prop) if prop is not None else "*")

    def _subscript(self, node: Node, ctx: Ctx) -> Value:
        obj = self.value(node.child_by_field_name("object"), ctx)
        index = self.value(node.child_by_field_name("index"), ctx)
        return get_index(obj, index)

    def _new(self, node: Node, ctx: Ctx) -> Value:
        ctor = unwrap(node.child_by_field_name("constructor"))
        args = [self.value(a, ctx) for a in call_arguments(node)]
        name = self.script.text(ctor) if ctor is not None and ctor.type == "identifier" else ""
        if name in ("Set", "Map") and ctor is not None and self.is_global(ctor):
            return Arr(elem=elem(args[0]) if args else NOTHING, count=None)
        if name == "Array" and ctor is not None and self.is_global(ctor):
            if len(args) == 1 and isinstance(args[0], Lit) and isinstance(args[0].value, int):
                return Arr(elem=UNDEFINED, count=args[0].value)
            return Arr(items=tuple(args))
        if name in ("String",):
            return Str(tuple(args))
        return Unknown("new")

    # --- calls --------------------------------------------------------------------

    def _call(self, node: Node, ctx: Ctx) -> Value:
        site = self.site_of(node)
        if site is not None:
            return Ans(site)
        fn = unwrap(node.child_by_field_name("function"))
        if fn is None:
            return Unknown("call")
        arg_nodes = call_arguments(node)
        if fn.type == "identifier" and self.script.resolve(fn) is None:
            return self._global_call(self.script.text(fn), node, arg_nodes, ctx)
        if fn.type == "member_expression":
            base = fn.child_by_field_name("object")
            prop = fn.child_by_field_name("property")
            method = self.script.text(prop) if prop is not None else ""
            base_value = self.value(base, ctx)
            if isinstance(base_value, Global) and base_value.name == "globalThis":
                if method in KNOWN_GLOBALS - _NAMESPACES:
                    return self._global_call(method, node, arg_nodes, ctx)
                return Unknown(method)
            if isinstance(base_value, Global) and base_value.name == "agent" and method == "bind":
                return base_value  # agent.bind(null, …) is agent again
            if isinstance(base_value, Global):
                return self._namespace_call(base_value.name, method, node, arg_nodes, ctx)
            return self.method(base_value, method, node, arg_nodes, ctx)
        if fn.type == "import":
            return Unknown("import")
        callee = self.value(fn, ctx)
        return self.call_value(callee, self.arguments(arg_nodes, ctx))

    def arguments(self, arg_nodes: list[Node], ctx: Ctx) -> tuple[Value, ...]:
        out: list[Value] = []
        for arg in arg_nodes:
            if arg.type == "spread_element":
                inner = self.value(arg.named_children[0] if arg.named_children else None, ctx)
                known = _known_items(inner)
                out.extend(known if known is not None else [elem(inner)])
            else:
                out.append(self.value(arg, ctx))
        return tuple(out)

    def _global_call(self, name: str, node: Node, arg_nodes: list[Node], ctx: Ctx) -> Value:
        if name == "agent":
            site = self.site_of(node)
            return Ans(site) if site is not None else Unknown("agent")
        if name == "parallel":
            thunks = self.value(arg_nodes[0], ctx) if arg_nodes else NOTHING
            return Arr(elem=self.call_value(elem(thunks), ()), count=count_of(thunks))
        if name == "pipeline":
            if not arg_nodes:
                return Arr(items=())
            items = self.value(arg_nodes[0], ctx)
            item = elem(items)
            current = item
            for stage in arg_nodes[1:]:
                current = self.call_value(self.value(stage, ctx), (current, item, Prim("number")))
            return Arr(elem=current, count=count_of(items))
        if name in ("phase", "log"):
            return UNDEFINED
        if name == "workflow":
            return Unknown("workflow")
        if name == "String":
            return Str(self.arguments(arg_nodes, ctx))
        if name in _PRIM_FUNCS:
            return Prim("number")
        return Unknown(name)

    def _namespace_call(
        self, namespace: str, method: str, node: Node, arg_nodes: list[Node], ctx: Ctx
    ) -> Value:
        args = self.arguments(arg_nodes, ctx)
        first = args[0] if args else UNDEFINED
        if namespace == "JSON":
            if method == "stringify":
                return Str((first,))
            if method == "parse":
                return first
        if namespace == "Math":
            if method in ("min", "max") and args and all(isinstance(a, Lit) for a in args):
                try:
                    values = [a.value for a in args]  # type: ignore[union-attr]
                    return Lit(min(values) if method == "min" else max(values))
                except TypeError:
                    pass
            return Prim("number")
        if namespace == "Object":
            if method == "keys":
                return Arr(elem=Prim("string"), count=_field_count(first))
            if method == "values":
                return Arr(elem=_field_values(first), count=_field_count(first))
            if method == "entries":
                return Arr(
                    elem=Arr(items=(Prim("string"), _field_values(first))),
                    count=_field_count(first),
                )
            if method in ("assign",):
                return Obj({}, tuple(args))
            if method == "fromEntries":
                pair = elem(first)
                return Obj({"*": get_index(pair, Lit(1))})
            if method in ("freeze", "seal"):
                return first
            return Unknown("Object")
        if namespace == "Array":
            if method == "from":
                source = first
                length = get_prop(source, "length") if isinstance(source, Obj) else None
                n = (
                    length.value
                    if isinstance(length, Lit) and isinstance(length.value, int)
                    else None
                )
                if isinstance(source, Obj):
                    item: Value = UNDEFINED
                    total = n
                else:
                    item = elem(source)
                    total = count_of(source)
                if len(args) > 1:
                    item = self.call_value(args[1], (item, Prim("number")))
                return Arr(elem=item, count=total)
            if method == "of":
                return Arr(items=args)
            if method == "isArray":
                return Prim("boolean")
        if namespace == "Promise":
            if method in ("all",):
                return first
            if method == "allSettled":
                return Arr(
                    elem=Obj({"status": Prim("string"), "value": elem(first), "reason": Unknown()}),
                    count=count_of(first),
                )
            if method in ("race", "any"):
                return elem(first)
            if method == "resolve":
                return first
            return Unknown("Promise")
        if namespace in ("String",):
            return Str(args)
        if namespace in ("Number", "Boolean"):
            return Prim("number")
        return Unknown(namespace)

    def method(
        self, base: Value, method: str, node: Node, arg_nodes: list[Node], ctx: Ctx
    ) -> Value:
        """``base.method(args)`` for arrays, strings, promises and the script's own objects."""
        if isinstance(base, Union):
            return union([self.method(o, method, node, arg_nodes, ctx) for o in base.options])
        if isinstance(base, Obj):
            target = get_prop(base, method)
            if not isinstance(target, Unknown) or method in base.fields:
                return self.call_value(target, self.arguments(arg_nodes, ctx))
        args = self.arguments(arg_nodes, ctx)
        first = args[0] if args else UNDEFINED
        if method in ("map", "flatMap"):
            mapped = self.call_value(first, (elem(base), Prim("number"), base))
            if method == "flatMap":
                return Arr(
                    elem=flat1(mapped), count=None, origin=origin_of(base), opaque=is_opaque(base)
                )
            return Arr(
                elem=mapped, count=count_of(base), origin=origin_of(base), opaque=is_opaque(base)
            )
        if method in _SAME_ARRAY:
            return Arr(
                elem=elem(base),
                count=count_of(base),
                origin=origin_of(base),
                opaque=is_opaque(base),
            )
        if method in ("flat",):
            return Arr(elem=flat1(elem(base)), count=None)
        if method in ("slice", "substring", "substr", "splice"):
            return self._slice(base, method, node, arg_nodes, ctx)
        if method == "concat":
            if isinstance(base, (Arr,)) or any(isinstance(a, Arr) for a in args):
                counts = [count_of(base)] + [count_of(a) if isinstance(a, Arr) else 1 for a in args]
                total = None if any(c is None for c in counts) else sum(counts)  # type: ignore[arg-type]
                return Arr(
                    elem=union([elem(base)] + [elem(a) if isinstance(a, Arr) else a for a in args]),
                    count=total,
                )
            return Str((base,) + args)
        if method == "join":
            known = _known_items(base)
            if known is not None:
                separator = args[:1] or (Lit(","),)
                parts: list[Value] = []
                for i, item in enumerate(known):
                    parts += ([*separator] if i else []) + [item]
                return Str(tuple(parts))
            return Str((elem(base),) + args[:1])
        if method in ("find", "findLast", "at", "pop", "shift"):
            return elem(base)
        if method == "reduce" or method == "reduceRight":
            init = args[1] if len(args) > 1 else elem(base)
            step = self.call_value(first, (init, elem(base), Prim("number"), base))
            return union([init, step])
        if method in ("then",):
            handled = self.call_value(first, (base,))
            return handled
        if method == "catch":
            return union([base, self.call_value(first, (Unknown("error"),))])
        if method == "finally":
            return base
        if method in _STRING_KEEP:
            return Str((base,)) if not isinstance(base, Lit) else Prim("string")
        if method == "split":
            return Arr(elem=Str((base,)), count=None, opaque=is_opaque(base))
        if method in ("keys", "values", "entries"):
            return Arr(elem=elem(base), count=count_of(base))
        if method in ("charAt",):
            return Prim("string")
        if method in _PRIM_METHODS:
            return Prim("boolean")
        if method == "get":
            return elem(base)
        if method in ("call", "apply", "bind"):
            return Unknown("call")
        if method == "toJSON":
            return base
        if isinstance(base, (Fn,)):
            return Unknown("method")
        target = get_prop(base, method)
        if isinstance(target, Fn):
            return self.call_value(target, args)
        return Unknown("method")

    def _slice(
        self, base: Value, method: str, node: Node, arg_nodes: list[Node], ctx: Ctx
    ) -> Value:
        size = slice_size(self, arg_nodes, ctx, method)
        if isinstance(base, Arr) or (size is None and not isinstance(base, (Str, Lit, Ans))):
            return Arr(elem=elem(base), count=size if size is not None else count_of(base))
        if size is None:
            return base if not isinstance(base, Arr) else Arr(elem=elem(base), count=count_of(base))
        return Cut(base, size)

    def call_value(self, callee: Value, args: tuple[Value, ...]) -> Value:
        """The value a call of ``callee`` with ``args`` returns."""
        if isinstance(callee, Union):
            return union([self.call_value(o, args) for o in callee.options])
        if isinstance(callee, Global):
            if callee.name == "agent":
                return Unknown("agent")
            return Unknown(callee.name)
        if not isinstance(callee, Fn):
            return Unknown("call")
        fn = callee.node
        if self._calls >= MAX_CALL_DEPTH:
            return Unknown("recursion")
        frame = Frame(fn, args)
        self._frames.append(frame)
        ctx = callee.ctx.enter(frame)
        self._calls += 1
        try:
            results = [self.value(ret, ctx) for ret in self.script.returns.get(fn.id, ())]
        finally:
            self._calls -= 1
        if not results:
            return UNDEFINED
        result = union(results)
        if isinstance(result, Unknown) and result.origin in ("new", "call", "method"):
            # a wrapper the evaluator cannot see through (a limiter, a retry loop): assume it
            # gives back what the callbacks it was handed give back
            passed = [self.call_value(a, ()) for a in args if isinstance(a, Fn)]
            if passed:
                return union([result, *passed])
        return result


_HANDLERS: dict[str, Any] = {
    "string": Evaluator._string,
    "template_string": Evaluator._template,
    "number": Evaluator._number,
    "true": lambda self, n, c: Lit(True),
    "false": lambda self, n, c: Lit(False),
    "null": lambda self, n, c: Lit(None),
    "undefined": lambda self, n, c: UNDEFINED,
    "regex": lambda self, n, c: Prim("regex"),
    "array": Evaluator._array,
    "object": Evaluator._object,
    "identifier": Evaluator._identifier,
    "parenthesized_expression": Evaluator._parenthesized,
    "await_expression": Evaluator._await,
    "binary_expression": Evaluator._binary,
    "unary_expression": Evaluator._unary,
    "update_expression": lambda self, n, c: Prim("number"),
    "ternary_expression": Evaluator._ternary,
    "sequence_expression": Evaluator._sequence,
    "assignment_expression": Evaluator._assign,
    "augmented_assignment_expression": lambda self, n, c: Prim("number"),
    "member_expression": Evaluator._member,
    "subscript_expression": Evaluator._subscript,
    "call_expression": Evaluator._call,
    "new_expression": Evaluator._new,
    "spread_element": lambda self, n, c: self.value(
        n.named_children[0] if n.named_children else None, c
    ),
    **{t: Evaluator._function for t in FUNCTIONS if t not in ("function_declaration",)},
    "function_declaration": Evaluator._function,
}


# --- operations on values ---------------------------------------------------------------


def get_prop(value: Value, name: str) -> Value:
    if isinstance(value, Union):
        return union([get_prop(o, name) for o in value.options])
    if isinstance(value, Global) and value.name == "globalThis":
        return Global(name) if name in KNOWN_GLOBALS else Unknown(name)
    if isinstance(value, Obj):
        if name in value.fields:
            return value.fields[name]
        found = [get_prop(s, name) for s in value.spreads]
        if "*" in value.fields:
            found.append(value.fields["*"])
        return union(found) if found else UNDEFINED
    if isinstance(value, Arr):
        if name == "length":
            return Lit(value.count) if value.count is not None else Prim("number")
        return Unknown("array")
    if isinstance(value, Ans):
        if name == "length":
            return Prim("number")
        return Ans(value.site, value.path + (name,))
    if isinstance(value, (Str, Cut)):
        return Prim("number") if name == "length" else Unknown("string")
    if isinstance(value, Lit):
        if name == "length" and isinstance(value.value, str):
            return Lit(len(value.value))
        return Unknown("literal")
    if isinstance(value, Unknown):
        return value
    return Unknown("prop")


def get_index(value: Value, index: Value) -> Value:
    if isinstance(value, Union):
        return union([get_index(o, index) for o in value.options])
    if isinstance(index, Lit) and isinstance(index.value, str):
        return get_prop(value, index.value)
    if isinstance(value, Arr):
        if isinstance(index, Lit) and isinstance(index.value, int) and value.items is not None:
            return value.items[index.value] if 0 <= index.value < len(value.items) else UNDEFINED
        return value.elem
    if isinstance(value, Ans):
        return Ans(value.site, value.path + ("[]",))
    if isinstance(value, Obj):
        return union(list(value.fields.values()) + [elem(s) for s in value.spreads]) or UNDEFINED
    if isinstance(value, Unknown):
        return value
    return Unknown("index")


def elem(value: Value) -> Value:
    """The value of one element when ``value`` is iterated."""
    if isinstance(value, Union):
        return union([elem(o) for o in value.options])
    if isinstance(value, Arr):
        return value.elem
    if isinstance(value, Ans):
        return Ans(value.site, value.path + ("[]",))
    if isinstance(value, Cut):
        return elem(value.inner)
    if isinstance(value, (Str, Lit, Prim)):
        return Prim("string")
    if isinstance(value, Unknown):
        return value
    return Unknown("elem")


def flat1(value: Value) -> Value:
    return union([elem(o) if isinstance(o, (Arr, Ans)) else o for o in options(value)])


def origin_of(value: Value) -> Ans | None:
    """The agent answer array ``value`` comes from (see :class:`Arr`)."""
    for option in options(value):
        if isinstance(option, Ans):
            return option
        if isinstance(option, Arr) and option.origin is not None:
            return option.origin
    return None


def is_opaque(value: Value) -> bool:
    """The value's length is unknown because the linter cannot see where it comes from (a
    function it cannot read, a parameter of a call it did not follow) — unlike ``args``, whose
    length is the caller's to choose."""
    for option in options(value):
        if isinstance(option, Arr) and option.opaque:
            return True
        if isinstance(option, Unknown) and option.origin != "args":
            return True
    return False


def count_of(value: Value) -> int | None:
    """How many items an array value has at most; None when unknown."""
    counts = []
    for option in options(value):
        if isinstance(option, Arr):
            counts.append(option.count)
        elif isinstance(option, Cut):
            counts.append(option.size)
        else:
            return None
    if not counts or any(c is None for c in counts):
        return None
    return max(counts)  # type: ignore[type-var]


def _known_items(value: Value) -> list[Value] | None:
    if isinstance(value, Arr) and value.items is not None:
        return list(value.items)
    return None


def _field_count(value: Value) -> int | None:
    if isinstance(value, Obj) and not value.spreads and "*" not in value.fields:
        return len(value.fields)
    return None


def _field_values(value: Value) -> Value:
    if isinstance(value, Obj):
        return union(list(value.fields.values()) + [elem(s) for s in value.spreads])
    if isinstance(value, Ans):
        return Ans(value.site, value.path + ("*",))
    return Unknown("values")


def _numeric(value: Value) -> bool:
    return all(
        (isinstance(o, Prim) and o.kind in ("number", "boolean"))
        or (
            isinstance(o, Lit)
            and isinstance(o.value, (int, float))
            and not isinstance(o.value, bool)
        )
        for o in options(value)
    )


def _arith(op: str, a: Any, b: Any) -> Any:
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a / b
    if op == "%":
        return a % b
    if op == "**":
        return a**b
    raise TypeError(op)


def destructure(value: Value, path: tuple[Any, ...], ev: Evaluator, ctx: Ctx) -> Value:
    for step in path:
        kind = step[0]
        if kind == "prop":
            value = get_prop(value, step[1])
        elif kind == "index":
            value = get_index(value, Lit(step[1]))
        elif kind == "slice":
            value = Arr(elem=elem(value), count=None)
        elif kind == "default":
            value = union([value, ev.value(step[1], ctx)]) if step[1] is not None else value
    return value


def slice_size(ev: Evaluator, arg_nodes: list[Node], ctx: Ctx, method: str) -> int | None:
    """The most items ``.slice(start, end)`` can give, when the arguments show it."""
    if not arg_nodes:
        return None
    start = ev.value(arg_nodes[0], ctx)
    if len(arg_nodes) < 2:
        return None
    end_node = unwrap(arg_nodes[1])
    end = ev.value(end_node, ctx)
    if method == "substr" or method == "splice":  # (start, length)
        return end.value if isinstance(end, Lit) and isinstance(end.value, int) else None
    if isinstance(start, Lit) and isinstance(end, Lit):
        if isinstance(start.value, int) and isinstance(end.value, int):
            return max(0, end.value - start.value)
    # slice(i, i + K) or slice(i, Math.min(i + K, n))
    if end_node is not None and end_node.type == "call_expression":
        args = call_arguments(end_node)
        sizes = [_offset_size(ev, arg_nodes[0], a, ctx) for a in args]
        known = [s for s in sizes if s is not None]
        if known:
            return min(known)
    return _offset_size(ev, arg_nodes[0], end_node, ctx)


def _offset_size(ev: Evaluator, start: Node, end: Node | None, ctx: Ctx) -> int | None:
    end = unwrap(end)
    if end is None or end.type != "binary_expression":
        return None
    op = end.child_by_field_name("operator")
    if op is None or op.type != "+":
        return None
    left = unwrap(end.child_by_field_name("left"))
    right = unwrap(end.child_by_field_name("right"))
    start_text = ev.script.text(unwrap(start))
    for same, other in ((left, right), (right, left)):
        if same is not None and ev.script.text(same) == start_text:
            size = ev.value(other, ctx)
            if isinstance(size, Lit) and isinstance(size.value, int):
                return size.value
    return None


def to_python(value: Value, depth: int = 0) -> Any:
    """The plain Python value of a fully known abstract value; raises NotLiteral otherwise."""
    if depth > 60:
        raise NotLiteral("too deep")
    if isinstance(value, Lit):
        return value.value
    if isinstance(value, Arr) and value.items is not None:
        return [to_python(v, depth + 1) for v in value.items]
    if isinstance(value, Obj):
        out: dict[str, Any] = {}
        for spread in value.spreads:
            inner = to_python(spread, depth + 1)
            if not isinstance(inner, dict):
                raise NotLiteral("spread")
            out.update(inner)
        for key, v in value.fields.items():
            if key == "*":
                raise NotLiteral("computed key")
            out[key] = to_python(v, depth + 1)
        return out
    if isinstance(value, Union) and len(value.options) == 1:
        return to_python(value.options[0], depth + 1)
    raise NotLiteral(type(value).__name__)


class NotLiteral(Exception):
    pass


# --- strings ------------------------------------------------------------------------------


def string_value(script: Script, node: Node) -> str:
    out = []
    for child in node.named_children:
        if child.type == "escape_sequence":
            out.append(_unescape(script.text(child)))
        elif child.type == "string_fragment":
            out.append(script.text(child))
    return "".join(out)


_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(raw: str) -> str:
    if len(raw) < 2:
        return raw
    c = raw[1]
    if c in _SIMPLE_ESCAPES and len(raw) == 2:
        return _SIMPLE_ESCAPES[c]
    if c == "u":
        digits = raw[2:].strip("{}")
        try:
            return chr(int(digits, 16))
        except ValueError:
            return raw
    if c == "x":
        try:
            return chr(int(raw[2:], 16))
        except ValueError:
            return raw
    if c in "\r\n":
        return ""
    return raw[1:]


def text_of(value: Value, hole: str = "\x00") -> list[str]:
    """The texts a string value may have, with ``hole`` where a part is not known.

    One text per option of a union, at most a few dozen.
    """
    out: list[str] = []
    for option in options(value):
        if isinstance(option, Lit):
            out.append(option.value if isinstance(option.value, str) else str(option.value))
        elif isinstance(option, Str):
            pieces = [""]
            for part in option.parts:
                texts = text_of(part, hole) if isinstance(part, (Lit, Str, Union)) else [hole]
                pieces = [p + t for p in pieces for t in texts[:4]][:24]
            out.extend(pieces)
        else:
            out.append(hole)
    return out[:48]
