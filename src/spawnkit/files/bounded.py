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

Standard library only (the lint-on-write hook reads frontmatter through it); the
parsers themselves are imported where used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from spawnkit.errors import SpawnkitError

MAX_DEPTH = 64  # levels of lists and mappings, the outermost one counted as 1

T = TypeVar("T")


class TooDeep(SpawnkitError):
    """Structured input nested more than ``MAX_DEPTH`` levels deep."""


def too_deep(label: str) -> TooDeep:
    return TooDeep(
        f"{label} is nested more than {MAX_DEPTH} levels deep, more than spawnkit reads (real"
        " ones nest a few levels); flatten it, then run the command again"
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


def yaml_loads(text: str, label: str) -> Any:
    """YAML (PyYAML's safe loader, the C one where built) within the depth limit."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return parse(lambda t: yaml.load(t, Loader=loader), text, label)  # noqa: S506 - safe
    except yaml.YAMLError as exc:
        if "maximum nesting depth" in str(exc):  # libyaml's own limit (1,000 levels)
            raise too_deep(label) from None
        raise


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
