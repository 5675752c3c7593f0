"""What the protocol rules ask of a workflow script: where answers go, how many agents run at once.

* **Result.** The value the script returns (its top-level ``return``) is what the orchestrator
  receives. :meth:`Flow.result_leaves` lists every agent answer, or part of one, that may end up
  in it, with the schema that bounds it.
* **Fan-out.** Each ``agent()`` call is reached through the functions that enclose it; each of
  those is invoked somewhere (a ``map`` callback runs once per item, all at once; a ``pipeline``
  stage once per item; a thunk handed to ``parallel()`` once per thunk; a callback handed to a
  function of the script's own — a limiter, a queue — as often as that function allows). The
  product along the way is how many agents that call may have in flight at once.
* **Contexts.** The same walk gives the values a function's parameters take at each of its
  invocations, so a prompt or a schema built from a parameter is read in every context.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spawnkit.lint.memo import cached_property
from spawnkit.lint.workflow import schema as schemas
from spawnkit.lint.workflow.script import (
    Node,
    Script,
    call_arguments,
    callee_name,
    parameters,
    unwrap,
)
from spawnkit.lint.workflow.values import (
    ROOT,
    Ans,
    Arr,
    Ctx,
    Cut,
    Evaluator,
    Fn,
    Frame,
    Lit,
    NotLiteral,
    Obj,
    Str,
    Union,
    Unknown,
    count_of,
    elem,
    get_prop,
    is_opaque,
    origin_of,
    to_python,
    union,
)

MAX_CONTEXTS = 8
_ITERATING = frozenset(
    {"map", "flatMap", "forEach", "filter", "some", "every", "find", "findIndex"}
)
_CONCURRENT_GLOBALS = ("parallel",)
_CONCURRENT_PROMISE = frozenset({"all", "allSettled", "race", "any"})
NO_SCHEMA = "none"
UNKNOWN_SCHEMA = "unknown"


class Factor(NamedTuple):
    node: Node  # the construct that fans out (map, pipeline, parallel, array of thunks, limiter)
    count: int | None  # how many at once; None: as many as a list of unknown length holds
    what: str  # "pipeline", "parallel", "map", "Promise.all", "limiter"
    opaque: bool = False  # the count is unknown because the list's source cannot be read


class Fan(NamedTuple):
    factors: tuple[Factor, ...] = ()
    limit: Factor | None = None  # a limiter the agents pass through (its count, if known)

    def times(self, factor: Factor) -> Fan:
        return Fan(self.factors + (factor,), self.limit)

    def total(self) -> int | None:
        n = self.limit.count if self.limit is not None and self.limit.count is not None else 1
        for f in self.factors:
            if f.count is None:
                return None
            n *= f.count
        return n


class Inv(NamedTuple):
    ctx: Ctx
    fan: Fan  # for code running directly in the function
    base: Fan  # where the function was handed over (for thunks it returns)
    iterated: tuple[Node, Any] | None = None  # (map call, receiver value) when a map callback


class Site(NamedTuple):
    node: Node
    index: int
    prompt: Node | None
    options: Node | None


class Leaf(NamedTuple):
    answer: Ans
    site: Site
    count_only: bool = False  # a list mapped from this answer array: only its length matters


class Flow:
    def __init__(self, script: Script) -> None:
        self.script = script
        self.ev = Evaluator(script)
        self._invocations: dict[int, list[Inv]] = {}
        self._busy: set[int] = set()
        self.sites = self._sites()
        found = self._sites_through_parameters()
        if found:
            self.ev.add_sites(found)
            self._invocations.clear()
            self.sites = self._sites()

    def _sites(self) -> list[Site]:
        return [
            Site(call, i, *self.ev.site_arguments(call)) for i, call in enumerate(self.ev.sites)
        ]

    def _sites_through_parameters(self) -> dict[int, str]:
        """Calls of a parameter that some caller hands ``agent`` (``go(agent, p)`` with
        ``function go(spawn, p) { return spawn(p) }``): agent() sites the evaluator could not see
        without the callers' arguments."""
        found: dict[int, str] = {}
        for call in self.script.by_type["call_expression"]:
            if self.ev.site_of(call) is not None or not self._calls_a_parameter(call):
                continue
            for inv in self.invocations(self.script.function_of(call)):
                kind = self.ev._aliased_agent(call, inv.ctx)
                if kind is not None:
                    found[call.id] = kind
                    break
        return found

    def _calls_a_parameter(self, call: Node) -> bool:
        fn = unwrap(call.child_by_field_name("function"))
        if fn is not None and fn.type == "member_expression":
            prop = fn.child_by_field_name("property")
            if prop is None or self.script.text(prop) not in ("call", "apply"):
                return False
            fn = fn.child_by_field_name("object")  # spawn.call(…), spawn.apply(…)
        if fn is None or fn.type != "identifier":
            return False
        binding = self.script.resolve(fn)
        return binding is not None and binding.kind == "param"

    # --- invocations ---------------------------------------------------------------------

    def invocations(self, fn: Node) -> list[Inv]:
        """How the function ``fn`` (or the program) is run: contexts and fan-out."""
        if fn.type == "program":
            return [Inv(ROOT, Fan(), Fan())]
        cached = self._invocations.get(fn.id)
        if cached is not None:
            return cached
        if fn.id in self._busy:
            return []
        self._busy.add(fn.id)
        try:
            found = self._find_invocations(fn)[:MAX_CONTEXTS]
        finally:
            self._busy.discard(fn.id)
        if not found:  # never seen called: one run with unknown parameters
            found = [Inv(ROOT, Fan(), Fan())]
        self._invocations[fn.id] = found
        return found

    def _find_invocations(self, fn: Node) -> list[Inv]:
        out: list[Inv] = []
        parent = _up(fn)
        if parent is not None and parent.type == "arguments":
            out += self._as_argument(fn, fn, parent.parent)
        elif parent is not None and parent.type == "array":
            out += self._in_array(fn, parent)
        elif parent is not None and parent.type == "variable_declarator":
            name = parent.child_by_field_name("name")
            if name is not None and name.type == "identifier":
                binding = self.script.resolve(name)
                if binding is not None:
                    out += self._by_references(fn, binding)
        elif parent is not None and parent.type == "pair":
            out += self._as_method(fn, parent)
        if fn.type in ("function_declaration", "generator_function_declaration"):
            name = fn.child_by_field_name("name")
            binding = self.script.resolve(name) if name is not None else None
            if binding is not None:
                out += self._by_references(fn, binding)
        returned_by = self._returned_by(fn)
        if returned_by is not None:
            out += self._as_returned(fn, returned_by)
        return out

    def _as_argument(self, fn: Node, at: Node, call: Node | None) -> list[Inv]:
        """``fn`` is handed to ``call`` at position ``at`` (fn itself or a reference to it)."""
        if call is None:
            return []
        if call.type == "new_expression":
            outer = self.invocations(self.script.function_of(call))
            return [
                Inv(i.ctx.enter(Frame(fn, (Unknown("resolve"), Unknown("reject")))), i.fan, i.fan)
                for i in outer
            ]
        if call.type != "call_expression":
            return []
        args = call_arguments(call)
        index = next((i for i, a in enumerate(args) if a.id == at.id), -1)
        callee = unwrap(call.child_by_field_name("function"))
        name = callee_name(call, self.script.source)
        out: list[Inv] = []
        outer = self.invocations(self.script.function_of(call))
        if (
            callee is not None
            and callee.type == "member_expression"
            and name in _ITERATING | {"reduce", "then", "catch", "finally"}
        ):
            receiver = callee.child_by_field_name("object")
            for inv in outer:
                value = self.ev.value(receiver, inv.ctx)
                if name == "reduce":
                    frame_args: tuple[Any, ...] = (Unknown("acc"), elem(value))
                    out.append(Inv(inv.ctx.enter(Frame(fn, frame_args)), inv.fan, inv.fan))
                elif name in ("then", "catch", "finally"):
                    out.append(Inv(inv.ctx.enter(Frame(fn, (value,))), inv.fan, inv.fan))
                else:
                    factor = Factor(call, self.count(value), name, is_opaque(value))
                    out.append(
                        Inv(
                            inv.ctx.enter(Frame(fn, (elem(value), Unknown("index"), value))),
                            inv.fan.times(factor),
                            inv.fan,
                            (call, value),
                        )
                    )
            return out
        if callee is not None and self.ev.is_global(callee, "pipeline") and index >= 1:
            for inv in outer:
                items = self.ev.value(args[0], inv.ctx) if args else Arr(items=())
                item = elem(items)
                prev = item if index == 1 else Unknown("stage")
                factor = Factor(call, self.count(items), "pipeline", is_opaque(items))
                out.append(
                    Inv(
                        inv.ctx.enter(Frame(fn, (prev, item, Unknown("index")))),
                        inv.fan.times(factor),
                        inv.fan,
                    )
                )
            return out
        if callee is not None and callee.type == "member_expression" and name == "from":
            base = callee.child_by_field_name("object")
            if base is not None and self.ev.is_global(base, "Array") and index == 1:
                for inv in outer:
                    source = self.ev.value(args[0], inv.ctx)
                    n = count_of(source)
                    if isinstance(source, Obj):
                        length = get_prop(source, "length")
                        n = (
                            length.value
                            if isinstance(length, Lit) and isinstance(length.value, int)
                            else None
                        )
                    factor = Factor(call, n, "Array.from")
                    out.append(
                        Inv(
                            inv.ctx.enter(Frame(fn, (Unknown("item"), Unknown("index")))),
                            inv.fan.times(factor),
                            inv.fan,
                            (call, Arr(count=n)),
                        )
                    )
                return out
        if callee is not None and (self.ev.is_global(callee) or _is_global_member(self, callee)):
            for inv in outer:  # setTimeout and the like: runs in the caller's fan-out
                out.append(Inv(inv.ctx.enter(Frame(fn, ())), inv.fan, inv.fan))
            return out
        # a function of the script's own (or an object's method) takes the callback. Built by a
        # factory with a number (`limit = limiter(2)`, `new Semaphore(2)`): a limiter, that many
        # at once. A plain helper (`step(name, ask)`): follow the callback into it — it may call
        # it (the helper's own fan-out applies) or hand it on (to a limiter, say).
        count, made = self._limit_of(callee)
        helper = self._helper(callee) if count is None else None
        if helper is not None and index >= 0:
            passed = self._passed_on(fn, helper, index)
            if passed is not None:
                return passed
        limit = Factor(made if made is not None else call, count, "limiter")
        for inv in outer:
            fan = Fan((), limit)
            out.append(Inv(inv.ctx.enter(Frame(fn, ())), fan, inv.fan))
        return out

    def _helper(self, callee: Node | None) -> Node | None:
        """The function node a callee names, when it is one of the script's own functions."""
        if callee is None or callee.type not in ("identifier", "member_expression"):
            return None
        for option in (
            self.ev.value(callee).options
            if isinstance(self.ev.value(callee), Union)
            else (self.ev.value(callee),)
        ):
            if isinstance(option, Fn):
                return option.node
        return None

    def _passed_on(self, fn: Node, helper: Node, index: int) -> list[Inv] | None:
        """How ``fn``, handed to ``helper`` as its ``index``-th argument, is run there; None when
        the helper does something else with it (then it is taken for a limiter)."""
        params = parameters(helper)
        if index >= len(params) or params[index].type != "identifier":
            return None
        binding = self.script.resolve(params[index])
        if binding is None:
            return None
        out: list[Inv] = []
        for ref in self._references(binding):
            parent = _up(ref)
            if parent is None or ref.id == params[index].id:
                continue
            if parent.type == "call_expression" and _same(
                unwrap(parent.child_by_field_name("function")), ref
            ):
                for inv in self.invocations(helper):  # called right there
                    out.append(
                        Inv(
                            inv.ctx.enter(Frame(fn, ())), self._launch_fan(parent, inv.fan), inv.fan
                        )
                    )
            elif parent.type == "arguments":
                out += self._as_argument(fn, ref, parent.parent)
            else:
                return None  # stored or returned: the linter does not follow it
        return out or None

    def _limit_of(self, callee: Node | None) -> tuple[int | None, Node | None]:
        """The number a limiter was built with (``limit(2)``, ``new Semaphore(2)``) and the call
        that built it; (None, None) when ``callee`` was not built that way."""
        if callee is None:
            return None, None
        target = callee
        if callee.type == "member_expression":
            target = callee.child_by_field_name("object")
        if target is None or target.type != "identifier":
            return None, None
        binding = self.script.resolve(target)
        if binding is None:
            return None, None
        for kind, payload in binding.writes:
            if kind != "init":
                continue
            node = unwrap(payload[0])
            if node is None or node.type not in ("call_expression", "new_expression"):
                continue
            for arg in call_arguments(node):
                value = self.ev.value(arg)
                if isinstance(value, Lit) and isinstance(value.value, int):
                    if not isinstance(value.value, bool):
                        return value.value, node
            return None, None
        return None, None

    def _in_array(self, fn: Node, array: Node) -> list[Inv]:
        outer = self.invocations(self.script.function_of(array))
        concurrent = self.consumed_concurrently(array)
        count = len([c for c in array.named_children if c.type != "comment"])
        out = []
        for inv in outer:
            fan = inv.fan.times(Factor(array, count, concurrent)) if concurrent else inv.fan
            out.append(Inv(inv.ctx.enter(Frame(fn, ())), fan, inv.fan))
        return out

    def _by_references(self, fn: Node, binding: Any) -> list[Inv]:
        out: list[Inv] = []
        for ident in self._references(binding):
            parent = _up(ident)
            if parent is None:
                continue
            if (
                parent.type == "call_expression"
                and unwrap(parent.child_by_field_name("function")) is not None
                and _same(unwrap(parent.child_by_field_name("function")), ident)
            ):
                caller = self.script.function_of(parent)
                for inv in self.invocations(caller):
                    args = self.ev.arguments(call_arguments(parent), inv.ctx)
                    fan = self._launch_fan(parent, inv.fan)
                    out.append(Inv(inv.ctx.enter(Frame(fn, args)), fan, inv.fan))
            elif parent.type == "arguments":
                out += self._as_argument(fn, ident, parent.parent)
            elif parent.type == "array":
                out += self._in_array(fn, parent)
        return out

    def _as_method(self, fn: Node, pair: Node) -> list[Inv]:
        return []

    def _references(self, binding: Any) -> list[Node]:
        refs = self._all_identifiers.get(binding.name, [])
        return [r for r in refs if self.script.resolve(r) is binding]

    @cached_property
    def _all_identifiers(self) -> dict[str, list[Node]]:
        out: dict[str, list[Node]] = {}
        cursor = self.script.root.walk()
        while True:
            node = cursor.node
            if node.type == "identifier":
                out.setdefault(self.script.text(node), []).append(node)
            if cursor.goto_first_child():
                continue
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    return out

    def _returned_by(self, fn: Node) -> Node | None:
        """The function that returns ``fn`` (``x => () => agent(x)``), if any."""
        parent = _up(fn)
        if parent is None:
            return None
        if (
            parent.type in ("arrow_function",)
            and parent.child_by_field_name("body") is not None
            and _same(parent.child_by_field_name("body"), fn)
        ):
            return parent
        if parent.type == "return_statement":
            owner = self.script.function_of(parent)
            return owner if owner.type != "program" else None
        return None

    def _as_returned(self, fn: Node, maker: Node) -> list[Inv]:
        out = []
        for inv in self.invocations(maker):
            fan = inv.base
            if inv.iterated is not None:
                call, value = inv.iterated
                if self.consumed_concurrently(call):
                    fan = fan.times(Factor(call, self.count(value), "parallel", is_opaque(value)))
            else:
                fan = inv.fan
            out.append(Inv(inv.ctx.enter(Frame(fn, ())), fan, inv.base))
        return out

    def consumed_concurrently(self, expr: Node) -> str | None:
        """``parallel`` or ``Promise.all`` when ``expr``'s value is handed to one of them (directly
        or through a variable); None otherwise."""
        node = expr
        parent = _up(node)
        if parent is not None and parent.type == "variable_declarator":
            name = parent.child_by_field_name("name")
            binding = (
                self.script.resolve(name)
                if name is not None and name.type == "identifier"
                else None
            )
            if binding is None:
                return None
            for ref in self._references(binding):
                found = self._concurrent_call(ref)
                if found:
                    return found
            return None
        return self._concurrent_call(node)

    def _concurrent_call(self, node: Node) -> str | None:
        parent = _up(node)
        while parent is not None and parent.type in ("await_expression",):
            node, parent = parent, _up(parent)
        if parent is None or parent.type != "arguments":
            return None
        call = parent.parent
        if call is None or call.type != "call_expression":
            return None
        callee = unwrap(call.child_by_field_name("function"))
        if callee is None:
            return None
        if self.ev.is_global(callee, "parallel"):
            return "parallel"
        if callee.type == "member_expression":
            base = callee.child_by_field_name("object")
            prop = callee.child_by_field_name("property")
            if (
                base is not None
                and self.ev.is_global(base, "Promise")
                and prop is not None
                and self.script.text(prop) in _CONCURRENT_PROMISE
            ):
                return f"Promise.{self.script.text(prop)}"
        return None

    def _launch_fan(self, call: Node, fan: Fan) -> Fan:
        """``fan`` times the siblings started with ``call`` (``Promise.all([a(), b(), c()])``)."""
        parent = _up(call)
        while parent is not None and parent.type == "await_expression":
            parent = _up(parent)
        if parent is not None and parent.type == "array":
            concurrent = self.consumed_concurrently(parent)
            if concurrent:
                count = len([c for c in parent.named_children if c.type != "comment"])
                return fan.times(Factor(parent, count, concurrent))
        return fan

    def count(self, value: Any) -> int | None:
        """The most items ``value`` can hold: known from the script, or from the schema's
        ``maxItems`` when the list is (mapped from) an agent's answer."""
        n = count_of(value)
        if n is not None:
            return n
        origin = origin_of(value)
        if origin is None:
            return None
        limits = []
        for schema in self.site_schemas(self.sites[origin.site]):
            if not isinstance(schema, dict):
                return None
            part = schemas.subschema(schema, origin.path)
            limit = part.get("maxItems") if isinstance(part, dict) else None
            if not isinstance(limit, int):
                return None
            limits.append(limit)
        return max(limits) if limits else None

    # --- agent sites -----------------------------------------------------------------------

    def site_contexts(self, site: Site) -> list[Inv]:
        return self.invocations(self.script.function_of(site.node))

    def site_fan(self, site: Site) -> list[Fan]:
        return [self._launch_fan(site.node, inv.fan) for inv in self.site_contexts(site)]

    def site_schemas(self, site: Site) -> list[Any]:
        """The schema the call passes in each context: a dict, NO_SCHEMA or UNKNOWN_SCHEMA."""
        found: list[Any] = []
        for inv in self.site_contexts(site):
            if site.options is None:
                found.append(NO_SCHEMA)
                continue
            opts = self.ev.value(site.options, inv.ctx)
            for option in opts.options if isinstance(opts, Union) else (opts,):
                if isinstance(option, Obj) and not option.spreads and "*" not in option.fields:
                    if "schema" not in option.fields:
                        found.append(NO_SCHEMA)
                        continue
                    value = option.fields["schema"]
                    if isinstance(value, Lit) and value.value is None:
                        found.append(NO_SCHEMA)
                        continue
                    try:
                        found.append(to_python(value))
                    except NotLiteral:
                        found.append(UNKNOWN_SCHEMA)
                elif isinstance(option, Lit) and option.value is None:
                    found.append(NO_SCHEMA)
                else:
                    found.append(UNKNOWN_SCHEMA)
        return found or [UNKNOWN_SCHEMA]

    def site_prompts(self, site: Site) -> list[Any]:
        return [self.ev.value(site.prompt, inv.ctx) for inv in self.site_contexts(site)]

    # --- the result ------------------------------------------------------------------------

    @cached_property
    def result(self) -> Any:
        returns = self.script.top_returns
        values = []
        for stmt in returns:
            arg = stmt.named_children[0] if stmt.named_children else None
            if arg is not None and arg.type != "comment":
                values.append(self.ev.value(arg))
        return union(values) if values else Lit(None)

    @cached_property
    def result_leaves(self) -> list[Leaf]:
        """Every agent answer, or part of one, that the returned value may hold verbatim."""
        found: list[Leaf] = []
        seen: set[tuple[int, tuple[str, ...]]] = set()
        stack = [self.result]
        visited: set[int] = set()
        while stack:
            value = stack.pop()
            if id(value) in visited:
                continue
            visited.add(id(value))
            if isinstance(value, Ans):
                key = (value.site, value.path)
                if key not in seen:
                    seen.add(key)
                    found.append(Leaf(value, self.sites[value.site]))
            elif isinstance(value, Union):
                stack.extend(value.options)
            elif isinstance(value, Obj):
                stack.extend(value.fields.values())
                stack.extend(value.spreads)
            elif isinstance(value, Arr):
                stack.extend(value.items if value.items is not None else (value.elem,))
                origin = value.origin
                if origin is not None and value.items is None:
                    key = (origin.site, origin.path + ("#",))
                    if key not in seen:
                        seen.add(key)
                        found.append(Leaf(origin, self.sites[origin.site], True))
            elif isinstance(value, Str):
                stack.extend(value.parts)
            # Cut: bounded by the cut; Lit, Prim, Unknown, Fn, Global: no answer in them
        found.sort(key=lambda leaf: (leaf.site.index, leaf.answer.path))
        return found

    def leaf_problem(self, leaf: Leaf) -> tuple[str, str | None] | None:
        """("unbounded", why) or ("whole", size) for a leaf worth reporting; None if fine."""
        verdicts = []
        for schema in self.site_schemas(leaf.site):
            if schema == UNKNOWN_SCHEMA:
                return None  # a schema this reading cannot see: not judged
            if schema == NO_SCHEMA:
                if leaf.answer.path:
                    return None  # a property of a string: not an answer's text
                verdicts.append(("unbounded", "free text: the call has no schema"))
                continue
            part = schemas.subschema(schema, leaf.answer.path)
            if part is None:
                continue
            where = dotted(leaf.answer.path)
            if leaf.count_only:
                if isinstance(part, dict) and part.get("type") == "array":
                    if not isinstance(part.get("maxItems"), int):
                        verdicts.append(("unbounded", f"array field `{where}` has no maxItems"))
                continue
            why = schemas.unbounded(part, where)
            if why:
                verdicts.append(("unbounded", why))
            elif not leaf.answer.path:
                size = schemas.max_chars(schema)
                verdicts.append(("whole", None if size is None else f"{size:,}"))
        for kind in ("unbounded", "whole"):
            for verdict in verdicts:
                if verdict[0] == kind:
                    return verdict
        return None


def dotted(path: tuple[str, ...]) -> str:
    """``("items", "[]", "name")`` -> ``items[].name``."""
    out = ""
    for step in path:
        out += step if step == "[]" or not out else "." + step
    return out


def _up(node: Node) -> Node | None:
    """The parent of ``node``, past parentheses."""
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    return parent


def _same(a: Node | None, b: Node | None) -> bool:
    return a is not None and b is not None and a.id == b.id


def _is_global_member(flow: Flow, callee: Node) -> bool:
    if callee.type != "member_expression":
        return False
    base = callee.child_by_field_name("object")
    return (
        base is not None
        and base.type == "identifier"
        and flow.ev.is_global(base)
        and flow.script.text(base) not in ("args",)
    )


__all__ = [
    "Flow",
    "Fan",
    "Factor",
    "Leaf",
    "Site",
    "NO_SCHEMA",
    "UNKNOWN_SCHEMA",
    "Cut",
    "Str",
    "Unknown",
]
