"""JSON in and out for the hook path, without ``import json``.

``import json`` drags in ``re``, ``enum``, ``functools`` and ``collections``: about
12 ms on a busy machine, more than the whole budget a hook has to start, run and
answer. The C accelerator ``_json`` that ``json`` itself uses parses and quotes just
as well on its own, so the hook path calls it directly. ``json`` stays the fallback
where ``_json`` is missing (other Python implementations).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


_INF = float("inf")


class JSONError(ValueError):
    """The text is not one complete JSON value."""


try:
    import _json

    class _Context:
        # The attributes the C scanner reads from its context (see json.scanner).
        strict = False
        object_hook = None
        object_pairs_hook = None
        parse_float = float
        parse_int = int
        parse_constant = float  # NaN, Infinity, -Infinity
        memo: dict = {}

    _scan = _json.make_scanner(_Context())
    _quote = _json.encode_basestring_ascii
except ImportError:  # pragma: no cover - CPython always has _json
    _scan = None
    _quote = None


def loads(text: str) -> Any:
    """Parse one JSON value; JSONError on anything else (also on absurd nesting)."""
    if _scan is None:  # pragma: no cover
        import json

        try:
            return json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise JSONError(str(exc)) from None
    body = text.strip(" \t\n\r")
    try:
        value, end = _scan(body, 0)
    except StopIteration:
        raise JSONError("not JSON") from None
    except RecursionError:
        raise JSONError("JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer literal longer than Python converts
        raise JSONError(str(exc)) from None
    if end != len(body):
        raise JSONError(f"extra data after the JSON value at offset {end}")
    return value


def load_file(path: str) -> Any:
    """Parse a UTF-8 JSON file."""
    with open(path, "rb") as fh:
        return loads(fh.read().decode("utf-8", "replace"))


def dumps(value: Any) -> str:
    """Compact ASCII JSON; non-finite floats become null so the output is always valid JSON.

    Iterative, so any value the parser accepted can be written back (no recursion limit).
    """
    if _quote is None:  # pragma: no cover
        import json

        return json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if type(item) is _Raw:
            parts.append(item)
        elif isinstance(item, str):
            parts.append(_quote(item))
        elif item is None:
            parts.append("null")
        elif item is True:
            parts.append("true")
        elif item is False:
            parts.append("false")
        elif isinstance(item, int):
            parts.append(int.__repr__(item))
        elif isinstance(item, float):
            finite = item == item and item not in (_INF, -_INF)
            parts.append(float.__repr__(item) if finite else "null")
        elif isinstance(item, dict):
            todo: list[Any] = [_Raw("{")]
            for key, member in item.items():
                sep = "," if len(todo) > 1 else ""
                todo.append(_Raw(sep + _quote(key if isinstance(key, str) else str(key)) + ":"))
                todo.append(member)
            todo.append(_Raw("}"))
            stack.extend(reversed(todo))
        elif isinstance(item, (list, tuple)):
            todo = [_Raw("[")]
            for i, member in enumerate(item):
                if i:
                    todo.append(_Raw(","))
                todo.append(member)
            todo.append(_Raw("]"))
            stack.extend(reversed(todo))
        else:
            raise TypeError(f"cannot encode {type(item).__name__} as JSON")
    return "".join(parts)


class _Raw(str):
    """Already-encoded JSON text (brackets, separators, keys) waiting on the stack."""
