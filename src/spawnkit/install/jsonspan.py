"""A JSON parser that remembers where every value sits in the source text.

spawnkit edits a user's settings.json by splicing text, not by re-serialising
the whole document, so every byte it did not mean to touch stays as it was
(indentation, key order, escapes, blank lines). ``json.loads`` gives no
positions, hence this small recursive-descent parser. Standard library only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from json.decoder import scanstring
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_WS_CHARS = frozenset(" \t\n\r")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}


class JSONSpanError(ValueError):
    """Invalid JSON; ``str()`` names the line and column like ``json`` does."""


@dataclass
class Node:
    """One JSON value and its ``[start, end)`` slice of the source text."""

    kind: str  # "object" | "array" | "string" | "number" | "literal"
    start: int
    end: int
    members: list[Member] = field(default_factory=list)  # objects
    items: list[Node] = field(default_factory=list)  # arrays
    value: Any = None  # scalars

    def get(self, key: str) -> Node | None:
        """The value of the LAST member named ``key`` (what JSON.parse keeps)."""
        for member in reversed(self.members):
            if member.key == key:
                return member.value
        return None

    def member(self, key: str) -> Member | None:
        for member in reversed(self.members):
            if member.key == key:
                return member
        return None

    def duplicate_keys(self) -> list[str]:
        seen: set[str] = set()
        dupes: list[str] = []
        for member in self.members:
            if member.key in seen and member.key not in dupes:
                dupes.append(member.key)
            seen.add(member.key)
        return dupes

    def to_python(self) -> Any:
        if self.kind == "object":
            return {m.key: m.value.to_python() for m in self.members}
        if self.kind == "array":
            return [item.to_python() for item in self.items]
        return self.value


@dataclass
class Member:
    """``"key": value`` inside an object; the member spans ``[start, value.end)``."""

    key: str
    start: int
    value: Node

    @property
    def end(self) -> int:
        return self.value.end


def parse(text: str, trusted: bool = False) -> Node:
    """Parse a whole JSON document (leading BOM and surrounding whitespace allowed).

    ``trusted`` skips the validating pass for text already known to be valid
    (spawnkit's own edits of a validated document).
    """
    if trusted:
        return _Parser(text).value(_Parser(text).skip(1 if text.startswith("\ufeff") else 0))
    try:
        json.loads(text.lstrip("\ufeff"), parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        # json's message carries line and column; reuse it verbatim.
        raise JSONSpanError(str(exc)) from None
    except ValueError as exc:
        raise JSONSpanError(str(exc)) from None
    parser = _Parser(text)
    pos = parser.skip(1 if text.startswith("\ufeff") else 0)
    return parser.value(pos)


def _reject_constant(name: str) -> Any:
    # Python accepts NaN/Infinity; JSON (and Claude Code's JSON.parse) does not.
    raise ValueError(f"{name} is not valid JSON")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text

    def skip(self, pos: int) -> int:
        if self.text[pos : pos + 1] not in _WS_CHARS:  # the common case: no whitespace
            return pos
        return _WS.match(self.text, pos).end()  # type: ignore[union-attr]

    def value(self, pos: int) -> Node:
        ch = self.text[pos]
        if ch == "{":
            return self.object(pos)
        if ch == "[":
            return self.array(pos)
        if ch == '"':
            string, end = scanstring(self.text, pos + 1)
            return Node("string", pos, end, value=string)
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, pos):
                return Node("literal", pos, pos + len(word), value=literal)
        match = _NUMBER.match(self.text, pos)
        if match is None:  # unreachable: json.loads accepted the text
            raise JSONSpanError(f"unexpected character at offset {pos}")
        return Node("number", pos, match.end(), value=json.loads(match.group()))

    def object(self, start: int) -> Node:
        node = Node("object", start, start)
        pos = self.skip(start + 1)
        if self.text[pos] == "}":
            node.end = pos + 1
            return node
        while True:
            key, after_key = scanstring(self.text, pos + 1)
            colon = self.skip(after_key)
            value = self.value(self.skip(colon + 1))
            node.members.append(Member(key, pos, value))
            pos = self.skip(value.end)
            if self.text[pos] == "}":
                node.end = pos + 1
                return node
            pos = self.skip(pos + 1)  # past the comma

    def array(self, start: int) -> Node:
        node = Node("array", start, start)
        pos = self.skip(start + 1)
        if self.text[pos] == "]":
            node.end = pos + 1
            return node
        while True:
            item = self.value(pos)
            node.items.append(item)
            pos = self.skip(item.end)
            if self.text[pos] == "]":
                node.end = pos + 1
                return node
            pos = self.skip(pos + 1)
