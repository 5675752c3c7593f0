"""The facts of one workflow script the rules share: statements, calls, scopes and bindings.

One iterative walk over the syntax tree files every node a rule needs (calls, ``new``, member
accesses, functions, declarations, assignments, returns) and notes the first syntax error and the
nesting depth. Scopes follow JavaScript's: ``var`` and parameters belong to the function,
``let``/``const``/``class`` and function declarations to the nearest block. A name is resolved
by walking up from its use to the first scope that declares it; a name no scope declares is a
global (``agent``, ``parallel``, ``args``, ``JSON`` …).
"""

from __future__ import annotations

from typing import Any

from spawnkit.lint.memo import cached_property

Node = Any  # tree_sitter.Node

FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
        "generator_function",
        "function",  # older grammar versions
    }
)
BLOCKS = frozenset({"statement_block", "for_statement", "for_in_statement", "catch_clause"})
_WANTED = frozenset(
    {
        "call_expression",
        "new_expression",
        "member_expression",
        "subscript_expression",
        "variable_declarator",
        "assignment_expression",
        "augmented_assignment_expression",
        "for_in_statement",
        "return_statement",
        "class_declaration",
        "catch_clause",
        "with_statement",
        "import_statement",
        "export_statement",
        "comment",
    }
    | FUNCTIONS
)
MAX_DEPTH = 400  # deeper trees are not analysed (the walk itself is iterative)


class Binding:
    """One declared name: where it lives and every place that gives it a value."""

    __slots__ = ("name", "scope", "kind", "node", "writes")

    def __init__(self, name: str, scope: Node, kind: str, node: Node) -> None:
        self.name = name
        self.scope = scope  # the scope node (function, block, program)
        self.kind = kind  # var | let | const | param | function | class | catch
        self.node = node  # the declaring node (declarator, function, parameter list …)
        self.writes: list[tuple[str, Any]] = []

    def __repr__(self) -> str:
        return f"Binding({self.name!r}, {self.kind})"


class Script:
    """A parsed workflow script (see the module docstring)."""

    def __init__(self, source: bytes, tree: Any) -> None:
        self.source = source
        self.tree = tree
        self.root: Node = tree.root_node
        self.by_type: dict[str, list[Node]] = {t: [] for t in _WANTED}
        self.error: Node | None = None  # the first ERROR or MISSING node
        self.depth = 0
        self._walk()
        self.too_deep = self.depth > MAX_DEPTH
        self._scopes: dict[int, dict[str, Binding]] = {}
        self._resolved: dict[int, Binding | None] = {}
        self._lines = source.split(b"\n")
        if not self.too_deep:
            self._declare()
            self._collect_writes()

    # --- the walk -------------------------------------------------------------------

    def _walk(self) -> None:
        cursor = self.root.walk()
        depth = 0
        wanted = self.by_type
        while True:
            node = cursor.node
            kind = node.type
            if kind in wanted:
                wanted[kind].append(node)
            if self.error is None and (node.is_error or node.is_missing):
                self.error = node
            if cursor.goto_first_child():
                depth += 1
                if depth > self.depth:
                    self.depth = depth
                continue
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    return
                depth -= 1

    # --- text and positions ---------------------------------------------------------

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def position(self, node: Node) -> tuple[int, int]:
        """1-based line and column (in characters) where ``node`` starts."""
        row, byte_col = node.start_point
        line = self._lines[row] if row < len(self._lines) else b""
        return row + 1, len(line[:byte_col].decode("utf-8", "replace")) + 1

    def line(self, node: Node) -> int:
        return node.start_point[0] + 1

    # --- statements and meta --------------------------------------------------------

    @cached_property
    def statements(self) -> list[Node]:
        """The program's top-level statements (comments left out)."""
        return [c for c in self.root.named_children if c.type not in ("comment", "hash_bang_line")]

    @cached_property
    def meta(self) -> Node | None:
        """The ``export const meta = {…}`` declarator's value, wherever it stands (or None)."""
        for stmt in self.statements:
            declarator = meta_declarator(stmt, self.source)
            if declarator is not None:
                return declarator.child_by_field_name("value")
        return None

    # --- scopes ---------------------------------------------------------------------

    def _scope_of(self, node: Node, kind: str) -> Node:
        """The scope a declaration of ``kind`` at ``node`` belongs to."""
        function_scoped = kind in ("var", "param")
        current = node.parent
        while current is not None:
            t = current.type
            if t in FUNCTIONS or t == "program":
                return current
            if not function_scoped and t in BLOCKS:
                # a function's own body block is the function's scope
                parent = current.parent
                if t == "statement_block" and parent is not None and parent.type in FUNCTIONS:
                    return parent
                return current
            current = current.parent
        return self.root

    def _bind(self, scope: Node, name: str, kind: str, node: Node) -> Binding:
        table = self._scopes.setdefault(scope.id, {})
        binding = table.get(name)
        if binding is None:
            binding = table[name] = Binding(name, scope, kind, node)
        return binding

    def _declare(self) -> None:
        for declarator in self.by_type["variable_declarator"]:
            decl = declarator.parent
            kind = "var"
            if decl is not None and decl.type == "lexical_declaration":
                first = decl.child(0)
                kind = first.type if first is not None else "let"
            scope = self._scope_of(declarator, kind)
            for name_node in pattern_names(declarator.child_by_field_name("name"), self.source):
                self._bind(scope, self.text(name_node), kind, declarator)
        for fn in self._functions():
            if fn.type in ("function_declaration", "generator_function_declaration"):
                name = fn.child_by_field_name("name")
                if name is not None:
                    self._bind(self._scope_of(fn, "function"), self.text(name), "function", fn)
            elif fn.type in ("function_expression", "function", "generator_function"):
                name = fn.child_by_field_name("name")
                if name is not None:  # a named function expression sees its own name
                    self._bind(fn, self.text(name), "function", fn)
            for param in parameters(fn):
                for name_node in pattern_names(param, self.source):
                    self._bind(fn, self.text(name_node), "param", param)
        for cls in self.by_type["class_declaration"]:
            name = cls.child_by_field_name("name")
            if name is not None:
                self._bind(self._scope_of(cls, "class"), self.text(name), "class", cls)
        for clause in self.by_type["catch_clause"]:
            param = clause.child_by_field_name("parameter")
            for name_node in pattern_names(param, self.source):
                self._bind(clause, self.text(name_node), "catch", clause)
        for loop in self.by_type["for_in_statement"]:
            left = loop.child_by_field_name("left")
            kind_node = loop.child_by_field_name("kind")
            kind = kind_node.type if kind_node is not None else None
            if kind in ("let", "const", "var"):
                scope = loop if kind != "var" else self._scope_of(loop, "var")
                for name_node in pattern_names(left, self.source):
                    self._bind(scope, self.text(name_node), kind, loop)

    def _functions(self) -> list[Node]:
        return [n for t in FUNCTIONS for n in self.by_type.get(t, ())]

    def resolve(self, ident: Node) -> Binding | None:
        """The binding an identifier refers to; None for a global."""
        key = ident.id
        if key in self._resolved:
            return self._resolved[key]
        found = self._resolve(ident)
        self._resolved[key] = found
        return found

    def _resolve(self, ident: Node) -> Binding | None:
        name = self.text(ident)
        current = ident.parent
        while current is not None:
            table = self._scopes.get(current.id)
            if table is not None and name in table:
                return table[name]
            current = current.parent
        table = self._scopes.get(self.root.id)
        return table.get(name) if table else None

    def binding_named(self, name: str, scope: Node | None = None) -> Binding | None:
        table = self._scopes.get((scope or self.root).id)
        return table.get(name) if table else None

    # --- writes: every place a binding gets a value ----------------------------------

    def _collect_writes(self) -> None:
        for declarator in self.by_type["variable_declarator"]:
            value = declarator.child_by_field_name("value")
            target = declarator.child_by_field_name("name")
            if value is not None:
                self._write_pattern(target, ("init", value))
        for loop in self.by_type["for_in_statement"]:
            operator = loop.child_by_field_name("operator")
            left = loop.child_by_field_name("left")
            right = loop.child_by_field_name("right")
            of = operator is not None and operator.type == "of"
            if right is not None:
                self._write_pattern(left, ("elem_of" if of else "key_of", right))
        for assign in self.by_type["assignment_expression"]:
            left = assign.child_by_field_name("left")
            right = assign.child_by_field_name("right")
            if left is None or right is None:
                continue
            if left.type in ("member_expression", "subscript_expression"):
                self._write_member(left, right)
            else:
                self._write_pattern(left, ("init", right))
        for assign in self.by_type["augmented_assignment_expression"]:
            left = assign.child_by_field_name("left")
            right = assign.child_by_field_name("right")
            if left is None or right is None:
                continue
            if left.type in ("member_expression", "subscript_expression"):
                self._write_member(left, right)  # groups[key] ??= [], total.n += x
            elif left.type == "identifier":
                binding = self.resolve(left)
                if binding is not None:
                    binding.writes.append(("augment", right))
        for call in self.by_type["call_expression"]:
            fn = call.child_by_field_name("function")
            if fn is None or fn.type != "member_expression":
                continue
            method = fn.child_by_field_name("property")
            base = fn.child_by_field_name("object")
            if method is None or base is None or base.type != "identifier":
                continue
            name = self.text(method)
            if name not in ("push", "unshift", "set", "add"):
                continue
            binding = self.resolve(base)
            if binding is None:
                continue
            args = [a for a in call_arguments(call)]
            if name == "set" and len(args) == 2:
                args = args[1:]
            for arg in args:
                if arg.type == "spread_element":
                    inner = arg.named_children[0] if arg.named_children else None
                    if inner is not None:
                        binding.writes.append(("elems", inner))
                else:
                    binding.writes.append(("elem", arg))

    def _write_pattern(self, pattern: Node | None, source: tuple[str, Node]) -> None:
        """Record ``source`` (through the destructuring path) for each name in ``pattern``."""
        if pattern is None:
            return
        for name_node, path in pattern_paths(pattern, self.source):
            binding = self.resolve(name_node)
            if binding is not None:
                binding.writes.append((source[0], (source[1], path)))

    def _write_member(self, left: Node, right: Node) -> None:
        base = left.child_by_field_name("object")
        if base is None or base.type != "identifier":
            return
        binding = self.resolve(base)
        if binding is None:
            return
        if left.type == "member_expression":
            prop = left.child_by_field_name("property")
            binding.writes.append(("field", (self.text(prop) if prop is not None else "*", right)))
        else:
            binding.writes.append(("elem", right))

    # --- functions ------------------------------------------------------------------

    def function_of(self, node: Node) -> Node:
        """The function (or the program) whose body holds ``node``."""
        current = node.parent
        while current is not None:
            if current.type in FUNCTIONS:
                return current
            current = current.parent
        return self.root

    @cached_property
    def returns(self) -> dict[int, list[Node]]:
        """function id (the program's too) -> the expressions its ``return`` statements give."""
        out: dict[int, list[Node]] = {}
        for stmt in self.by_type["return_statement"]:
            value = stmt.named_children[0] if stmt.named_children else None
            if value is not None and value.type != "comment":
                out.setdefault(self.function_of(stmt).id, []).append(value)
        for fn in self.by_type["arrow_function"]:
            body = fn.child_by_field_name("body")
            if body is not None and body.type != "statement_block":
                out.setdefault(fn.id, []).append(body)
        return out

    @cached_property
    def top_returns(self) -> list[Node]:
        """The ``return`` statements of the script body itself (its result)."""
        return [
            stmt
            for stmt in self.by_type["return_statement"]
            if self.function_of(stmt).id == self.root.id
        ]


# --- helpers over nodes ---------------------------------------------------------------


def meta_declarator(stmt: Node, source: bytes) -> Node | None:
    """The ``meta = {…}`` declarator when ``stmt`` is ``export const meta = …`` (any value)."""
    if stmt.type != "export_statement":
        return None
    decl = stmt.child_by_field_name("declaration")
    if decl is None or decl.type not in ("lexical_declaration", "variable_declaration"):
        return None
    for declarator in decl.named_children:
        if declarator.type != "variable_declarator":
            continue
        name = declarator.child_by_field_name("name")
        if name is not None and name.type == "identifier" and _raw(name, source) == b"meta":
            return declarator
    return None


def call_arguments(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "arguments":
        return []  # a tagged template
    return [a for a in args.named_children if a.type != "comment"]


def callee_name(call: Node, source: bytes) -> str | None:
    """``agent`` for ``agent(…)``, ``map`` for ``x.map(…)``; None for other callees."""
    fn = call.child_by_field_name("function")
    if fn is None:
        return None
    if fn.type == "identifier":
        return _raw(fn, source).decode("utf-8", "replace")
    if fn.type == "member_expression":
        prop = fn.child_by_field_name("property")
        return _raw(prop, source).decode("utf-8", "replace") if prop is not None else None
    return None


def parameters(fn: Node) -> list[Node]:
    """A function's parameter nodes (identifier, pattern, default or rest)."""
    single = fn.child_by_field_name("parameter")
    if single is not None:
        return [single]
    params = fn.child_by_field_name("parameters")
    if params is None:
        return []
    return [p for p in params.named_children if p.type != "comment"]


def unwrap(node: Node | None) -> Node | None:
    """``node`` without parentheses."""
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def pattern_names(pattern: Node | None, source: bytes) -> list[Node]:
    return [name for name, _ in pattern_paths(pattern, source)] if pattern is not None else []


def pattern_paths(pattern: Node, source: bytes) -> list[tuple[Node, tuple[Any, ...]]]:
    """Each identifier a (destructuring) pattern binds, with its path into the value.

    Path steps: ``("prop", name)``, ``("index", i)``, ``("rest",)``, ``("default", node)``.
    """
    out: list[tuple[Node, tuple[Any, ...]]] = []
    stack: list[tuple[Node, tuple[Any, ...]]] = [(pattern, ())]
    while stack:
        node, path = stack.pop()
        t = node.type
        if t in ("identifier", "shorthand_property_identifier_pattern"):
            if t == "shorthand_property_identifier_pattern":
                path = path + (("prop", _raw(node, source).decode("utf-8", "replace")),)
            out.append((node, path))
        elif t == "assignment_pattern":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None:
                if left.type == "shorthand_property_identifier_pattern":
                    stack.append((left, path))
                else:
                    stack.append((left, path + (("default", right),)))
        elif t == "object_assignment_pattern":  # {a = 1}
            left = node.child_by_field_name("left")
            if left is not None:
                stack.append((left, path))
        elif t == "rest_pattern":
            for child in node.named_children:
                stack.append((child, path + (("rest",),)))
        elif t == "object_pattern":
            for child in node.named_children:
                if child.type == "pair_pattern":
                    key = child.child_by_field_name("key")
                    value = child.child_by_field_name("value")
                    name = _key_name(key, source)
                    if value is not None:
                        stack.append((value, path + (("prop", name),)))
                elif child.type != "comment":
                    stack.append((child, path))
        elif t == "array_pattern":
            index = 0
            for child in node.children:
                if child.type == ",":
                    index += 1
                elif child.is_named and child.type != "comment":
                    if child.type == "rest_pattern":
                        stack.append((child, path + (("slice", index),)))
                    else:
                        stack.append((child, path + (("index", index),)))
    return out


def _key_name(key: Node | None, source: bytes) -> str:
    if key is None:
        return "*"
    if key.type in ("property_identifier", "identifier"):
        return _raw(key, source).decode("utf-8", "replace")
    if key.type == "string":
        return "".join(_raw(c, source).decode("utf-8", "replace") for c in key.named_children)
    if key.type == "number":
        return _raw(key, source).decode("utf-8", "replace")
    return "*"


key_name = _key_name


def _raw(node: Node, source: bytes) -> bytes:
    """A node's bytes. Never ``node.text``: a tree parsed through a read callback (as here, for
    the time limit) keeps no copy of the source, so ``text`` calls the callback again, slowly."""
    return source[node.start_byte : node.end_byte]
