"""The one policy for structured input: every parse is bounded in size and in depth.

A YAML frontmatter, a TOML config (``.spawnkit.toml``, ``pyproject.toml``'s
``[tool.spawnkit]``, Codex's ``config.toml``), a JSON settings file or record, a ``-d``
value: each arrives from a file or a command line that a cloned repository can shape.
Sizes are bounded where each is read (``spawnkit.files.reading``, each reader's own
limit); here is the depth. Python's parsers recurse once or more per level, so a value
nested some hundreds of levels deep ends in ``RecursionError`` somewhere inside them,
at a depth that depends on how deep the caller already was. So the rule is one number
for every parser: a value nested more than ``MAX_DEPTH`` levels is refused, with one
line naming the file (``TooDeep``, exit 2 for that input), never an internal error,
whichever parser notices first. No real skill, settings file or config nests beyond a
dozen levels.

YAML has one more way to be larger than its bytes: an alias (``*a``) repeats what its
anchor (``&a``) names, so nine levels of nine aliases each make a 700-byte frontmatter
expand to 9**9 values, which any code walking the value then pays for (issue 30: 30 s and
441 MB in ``spawnkit lint``). Every YAML spawnkit parses (a SKILL.md's frontmatter in the
CLI's lint, an answers file, copier.yml, a ``-d`` value) goes through ``yaml_document``
here: before anything is built from the document, its nodes are counted as if every
alias were written out, and a document whose aliases would add more than
``MAX_ALIAS_NODES`` nodes (or that refers to itself) is refused with one line of the same
shape as a deep one (``TooExpanded``). The hook's own frontmatter reader refuses anchors
outright (``spawnkit.lint.frontmatter``, standard library only), so it never meets one.

Standard library only (the lint-on-write hook reads frontmatter through it); the
parsers themselves are imported where used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from spawnkit.errors import SpawnkitError

MAX_DEPTH = 64  # levels of lists and mappings, the outermost one counted as 1
MAX_ALIAS_NODES = 10_000  # nodes YAML aliases may add to a document (real files: a few dozen)

T = TypeVar("T")


class OverLimit(SpawnkitError):
    """Structured input beyond one of the bounds every parse keeps (depth, alias expansion):
    the file cannot be judged, rather than judged broken."""


class TooDeep(OverLimit):
    """Structured input nested more than ``MAX_DEPTH`` levels deep."""


class TooExpanded(OverLimit):
    """A YAML document whose aliases would add more than ``MAX_ALIAS_NODES`` nodes."""


def too_deep(label: str) -> TooDeep:
    return TooDeep(
        f"{label} is nested more than {MAX_DEPTH} levels deep, more than spawnkit reads (real"
        " ones nest a few levels); flatten it, then run the command again"
    )


def too_expanded(label: str) -> TooExpanded:
    return TooExpanded(
        f"{label} has YAML aliases that expand it by more than {MAX_ALIAS_NODES:,} values, more"
        " than spawnkit reads (real ones use a few aliases, if any); write the values out"
        " instead of *aliases, then run the command again"
    )


_CONTAINERS = (dict, list, tuple)


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How many levels of lists and mappings ``value`` nests (0 for a scalar), counted level
    by level without recursion; stops counting at ``limit + 1``.

    Only containers are carried to the next level (a list comprehension per container), so
    a 10 MB settings file of mostly strings costs about half of what parsing it did."""
    level = 0
    frontier = [value] if isinstance(value, _CONTAINERS) else []
    while frontier:
        level += 1
        if level > limit:
            return level
        following: list[Any] = []
        for item in frontier:
            children = item.values() if isinstance(item, dict) else item
            following += [c for c in children if isinstance(c, _CONTAINERS)]
        frontier = following
    return level


def checked(value: T, label: str) -> T:
    """``value``, or ``TooDeep`` when it nests more than ``MAX_DEPTH`` levels."""
    if depth(value) > MAX_DEPTH:
        raise too_deep(label)
    return value


@contextmanager
def parsing(label: str) -> Iterator[None]:
    """Turn a parser's ``RecursionError`` (input too deep for it) into ``TooDeep``."""
    try:
        yield
    except RecursionError:
        raise too_deep(label) from None


def parse(parser: Callable[[str], T], text: str, label: str) -> T:
    """``parser(text)`` within the depth limit; the parser's own errors pass through."""
    with parsing(label):
        value = parser(text)
    return checked(value, label)


def alias_growth(node: Any) -> int:
    """How many nodes the aliases of a composed YAML document add when written out: its
    expanded size less its own nodes, counted without expanding anything (each node's
    expanded size is one plus its children's, computed once per node: a node an alias
    names is one object, reached again). A node that contains itself (``&a [*a]``) grows
    without end: ``_ENDLESS``."""
    sizes: dict[int, int] = {}
    pending: set[int] = set()
    stack: list[tuple[Any, bool]] = [(node, False)]
    while stack:
        current, children_done = stack.pop()
        key = id(current)
        if children_done:
            pending.discard(key)
            total = 1 + sum(sizes[id(child)] for child in _yaml_children(current))
            sizes[key] = min(total, _ENDLESS)
        elif key not in sizes:
            if key in pending:  # reached again while its own children are counted: a cycle
                return _ENDLESS
            pending.add(key)
            stack.append((current, True))
            stack.extend((c, False) for c in _yaml_children(current) if id(c) not in sizes)
    return sizes[id(node)] - len(sizes)


_ENDLESS = 1 << 62


def _yaml_children(node: Any) -> list[Any]:
    value = node.value
    if isinstance(value, list):  # a sequence's nodes, or a mapping's (key, value) pairs
        return [n for item in value for n in (item if isinstance(item, tuple) else (item,))]
    return []  # a scalar


def yaml_document(loader: Any, label: str) -> Any:
    """The node of the single document a PyYAML loader reads, within the bounds: deeper than
    the parser goes is ``TooDeep``, aliases adding more than ``MAX_ALIAS_NODES`` nodes are
    ``TooExpanded``. The caller builds the value (``loader.construct_document(node)``) and
    disposes of the loader; PyYAML's own errors pass through."""
    import yaml

    try:
        with parsing(label):
            node = loader.get_single_node()
    except yaml.YAMLError as exc:
        if "maximum nesting depth" in str(exc):  # libyaml's own limit (1,000 levels)
            raise too_deep(label) from None
        raise
    if node is not None and alias_growth(node) > MAX_ALIAS_NODES:
        raise too_expanded(label)
    return node


def yaml_loads(text: str, label: str, loader: Any = None) -> Any:
    """YAML within the bounds: PyYAML's safe loader (the C one where built), or ``loader``
    (a ``SafeLoader`` subclass, e.g. copier.yml's with ``!include``)."""
    import yaml

    if loader is None:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    reader = loader(text)
    try:
        node = yaml_document(reader, label)
        with parsing(label):
            value = reader.construct_document(node) if node is not None else None
    finally:
        reader.dispose()
    return checked(value, label)


def toml_loads(text: str, label: str) -> dict[str, Any]:
    """TOML (``tomllib``, or ``tomli`` before Python 3.11) within the depth limit."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    return parse(tomllib.loads, text, label)


def json_loads(text: str, label: str) -> Any:
    """JSON within the depth limit."""
    import json

    return parse(json.loads, text, label)
