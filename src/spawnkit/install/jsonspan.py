"""A JSON parser that remembers where every value sits in the source text.

spawnkit edits a user's settings.json by splicing text, not by re-serialising
the whole document, so every byte it did not mean to touch stays as it was
(indentation, key order, escapes, blank lines). ``json.loads`` gives no
positions, hence this parser. Standard library only.

It is lazy, so a 10 MB file costs about what ``json.loads`` costs: a container's
children are found only when someone asks for them, and every value is scanned by
the C scanner that ``json`` itself uses (which also gives the value's end). Only
the few containers an edit looks into (the root, ``hooks``, its event lists)
are walked in Python. Nesting deeper than ``MAX_DEPTH`` is refused.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_WS_CHARS = frozenset(" \t\n\r")


class JSONSpanError(ValueError):
    """Invalid JSON; ``str()`` names the line and column like ``json`` does."""


def _reject_constant(name: str) -> Any:
    # Python accepts NaN/Infinity; JSON (and Claude Code's JSON.parse) does not.
    raise ValueError(f"{name} is not valid JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_scan_value = _DECODER.scan_once  # (text, index) -> (python value, end index)


class Node:
    """One JSON value: its kind, its ``[start, end)`` slice of the source, its Python value.

    ``members`` (objects) and ``items`` (arrays) are built on first use.
    """

    __slots__ = ("kind", "start", "end", "value", "_text", "_children")

    def __init__(self, kind: str, start: int, end: int, value: Any, text: str) -> None:
        self.kind = kind  # "object" | "array" | "string" | "number" | "literal"
        self.start = start
        self.end = end
        self.value = value  # the Python value (dict, list, str, …)
        self._text = text
        self._children: list[Any] | None = None

    @property
    def members(self) -> list[Member]:
        if self.kind != "object":
            return []
        if self._children is None:
            self._children = _object_members(self._text, self.start)
        return self._children

    @property
    def items(self) -> list[Node]:
        if self.kind != "array":
            return []
        if self._children is None:
            self._children = _array_items(self._text, self.start)
        return self._children

    def get(self, key: str) -> Node | None:
        """The value of the LAST member named ``key`` (what JSON.parse keeps)."""
        member = self.member(key)
        return None if member is None else member.value

    def member(self, key: str) -> Member | None:
        if self.kind != "object" or key not in self.value:
            return None
        for member in reversed(self.members):
            if member.key == key:
                return member
        return None

    def duplicate_keys(self) -> list[str]:
        if self.kind != "object" or len(self.value) == len(self.members):
            return []
        seen: set[str] = set()
        dupes: list[str] = []
        for member in self.members:
            if member.key in seen and member.key not in dupes:
                dupes.append(member.key)
            seen.add(member.key)
        return dupes

    def to_python(self) -> Any:
        return self.value


class Member:
    """``"key": value`` inside an object; the member spans ``[start, value.end)``."""

    __slots__ = ("key", "start", "value")

    def __init__(self, key: str, start: int, value: Node) -> None:
        self.key = key
        self.start = start
        self.value = value

    @property
    def end(self) -> int:
        return self.value.end


def parse(text: str, expand: frozenset[tuple[str, ...]] = frozenset({()})) -> Node:
    """Parse a whole JSON document (leading BOM and surrounding whitespace allowed).

    A document nested deeper than the C scanner recurses raises ``RecursionError`` (the
    caller bounds the depth: ``spawnkit.files.bounded``).

    ``expand`` names the objects (by their key path; ``()`` is the root) whose members
    are surely needed: they are walked right away, so their content is scanned once
    instead of once for the object and again for its members.
    """
    start = _skip(text, 1 if text.startswith("\ufeff") else 0)
    try:
        node = _expanded(text, start, (), expand)
    except StopIteration as exc:
        raise JSONSpanError(_where(text, exc.value, "Expecting value")) from None
    except json.JSONDecodeError as exc:
        raise JSONSpanError(str(exc)) from None
    except ValueError as exc:  # NaN/Infinity, or an integer too long to convert
        raise JSONSpanError(str(exc)) from None
    end = _skip(text, node.end)
    if end != len(text):
        raise JSONSpanError(_where(text, end, "Extra data"))
    return node


def _where(text: str, pos: int, what: str) -> str:
    line = text.count("\n", 0, pos) + 1
    col = pos - text.rfind("\n", 0, pos)
    return f"{what}: line {line} column {col} (char {pos})"


def _skip(text: str, pos: int) -> int:
    if text[pos : pos + 1] not in _WS_CHARS:  # the common case: no whitespace
        return pos
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


_KINDS = {
    "{": "object",
    "[": "array",
    '"': "string",
    "t": "literal",
    "f": "literal",
    "n": "literal",
}


def _node(text: str, pos: int) -> Node:
    value, end = _scan_value(text, pos)
    return Node(_KINDS.get(text[pos], "number"), pos, end, value, text)


def _expanded(
    text: str, pos: int, path: tuple[str, ...], expand: frozenset[tuple[str, ...]]
) -> Node:
    """The value at ``pos``; a container named in ``expand`` gets its children at once.

    A path may end in ``*``: every member of the object above. This is also where
    invalid JSON is found: ``scanstring`` and the C scanner raise on anything
    ``json.loads`` would refuse.
    """
    opener = text[pos : pos + 1]
    if opener not in ("{", "[") or not (path in expand or (*path[:-1], "*") in expand):
        return _node(text, pos)
    if opener == "[":
        items = _array_items(text, pos, check=True)
        end = _skip(text, items[-1].end) + 1 if items else _skip(text, pos + 1) + 1
        node = Node("array", pos, end, [item.value for item in items], text)
        node._children = items
        return node
    members = _object_members(text, pos, path, expand)
    end = _skip(text, members[-1].end) + 1 if members else _skip(text, pos + 1) + 1
    node = Node("object", pos, end, {m.key: m.value.value for m in members}, text)
    node._children = members
    return node


def _object_members(
    text: str,
    start: int,
    path: tuple[str, ...] = (),
    expand: frozenset[tuple[str, ...]] = frozenset(),
) -> list[Member]:
    """The members of the object at ``start`` (checked as it goes: it may be unvalidated)."""
    members: list[Member] = []
    pos = _skip(text, start + 1)
    if text[pos : pos + 1] == "}":
        return members
    while True:
        if text[pos : pos + 1] != '"':
            raise JSONSpanError(
                _where(text, pos, "Expecting property name enclosed in double quotes")
            )
        key, after_key = scanstring(text, pos + 1)
        colon = _skip(text, after_key)
        if text[colon : colon + 1] != ":":
            raise JSONSpanError(_where(text, colon, "Expecting ':' delimiter"))
        value = _expanded(text, _skip(text, colon + 1), (*path, key), expand)
        members.append(Member(key, pos, value))
        pos = _skip(text, value.end)
        if text[pos : pos + 1] == "}":
            return members
        if text[pos : pos + 1] != ",":
            raise JSONSpanError(_where(text, pos, "Expecting ',' delimiter"))
        pos = _skip(text, pos + 1)  # past the comma


def _array_items(text: str, start: int, check: bool = False) -> list[Node]:
    """The items of the array at ``start`` (``check``: it may be unvalidated).

    The hot loop of a settings file with tens of thousands of hooks: kept tight.
    """
    items: list[Node] = []
    append, scan, ws, kinds = items.append, _scan_value, _WS.match, _KINDS
    pos = ws(text, start + 1).end()  # type: ignore[union-attr]
    if text[pos : pos + 1] == "]":
        return items
    while True:
        value, end = scan(text, pos)
        append(Node(kinds.get(text[pos], "number"), pos, end, value, text))
        pos = ws(text, end).end()  # type: ignore[union-attr]
        following = text[pos : pos + 1]
        if following == "]":
            return items
        if check and following != ",":
            raise JSONSpanError(_where(text, pos, "Expecting ',' delimiter"))
        pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
