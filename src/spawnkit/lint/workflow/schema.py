"""How large an answer a JSON Schema lets an agent give.

An ``agent()`` call with a ``schema`` gets back an object the client validated against it, so the
schema bounds the answer: a string with ``maxLength``, an array with ``maxItems`` whose items are
bounded, numbers, booleans, ``enum`` and ``const``. A string without ``maxLength`` (or a field
with no type at all) can hold any amount of text. ``unbounded`` names the first such place.
"""

from __future__ import annotations

from typing import Any

MAX_DEPTH = 40
_SMALL = {"number", "integer", "boolean", "null"}


def subschema(schema: Any, path: tuple[str, ...]) -> Any:
    """The part of ``schema`` that describes the value at ``path``; None when it says nothing."""
    current = schema
    for step in path:
        if not isinstance(current, dict):
            return None
        if step == "[]":
            current = current.get("items")
        elif step == "*":
            props = current.get("properties")
            if not isinstance(props, dict) or not props:
                return None
            return {"anyOf": list(props.values())}
        else:
            props = current.get("properties")
            if isinstance(props, dict) and step in props:
                current = props[step]
            else:
                extra = current.get("additionalProperties")
                current = extra if isinstance(extra, dict) else None
    return current


def unbounded(schema: Any, where: str = "", depth: int = 0) -> str | None:
    """None when every value ``schema`` allows is bounded in size; else the first place that is
    not, as a short phrase ("string field `summary` has no maxLength")."""
    label = f"`{where}`" if where else "the answer"
    if depth > MAX_DEPTH:
        return None  # deeper than any real schema: not judged
    if schema is True or schema == {}:
        return f"{label} accepts any value"
    if not isinstance(schema, dict):
        return None
    if "const" in schema or "enum" in schema:
        return None
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            for branch in branches:
                found = unbounded(branch, where, depth + 1)
                if found:
                    return found
            return None
    if isinstance(schema.get("allOf"), list):
        found = [unbounded(b, where, depth + 1) for b in schema["allOf"]]
        if found and any(f is None for f in found):
            return None
    if "$ref" in schema:
        return None  # not followed: not judged
    types = schema.get("type")
    if types is None:
        if "properties" in schema:
            types = "object"
        elif "items" in schema:
            types = "array"
        else:
            return f"{label} has no type"
    for kind in types if isinstance(types, list) else [types]:
        if kind in _SMALL:
            continue
        if kind == "string":
            if not isinstance(schema.get("maxLength"), int):
                return f"string {_field(where)}has no maxLength"
        elif kind == "array":
            if not isinstance(schema.get("maxItems"), int):
                return f"array {_field(where)}has no maxItems"
            items = schema.get("items")
            if items is None:
                return f"the items of {label} have no schema"
            found = unbounded(items, f"{where}[]", depth + 1)
            if found:
                return found
        elif kind == "object":
            props = schema.get("properties")
            if not isinstance(props, dict) or not props:
                extra = schema.get("additionalProperties")
                if extra is False:
                    continue
                return f"object {_field(where)}has no properties"
            for name, prop in props.items():
                found = unbounded(prop, f"{where}.{name}" if where else name, depth + 1)
                if found:
                    return found
    return None


def _field(where: str) -> str:
    return f"field `{where}` " if where else ""


def max_chars(schema: Any, depth: int = 0) -> int | None:
    """The most characters a JSON value valid under ``schema`` can take; None when unbounded."""
    if depth > MAX_DEPTH or not isinstance(schema, dict):
        return None
    if "const" in schema:
        return len(_json(schema["const"]))
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return max(len(_json(v)) for v in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            sizes = [max_chars(b, depth + 1) for b in schema[key]]
            return None if any(s is None for s in sizes) else max(sizes)  # type: ignore[type-var]
    types = schema.get("type")
    if types is None:
        types = "object" if "properties" in schema else "array" if "items" in schema else None
    if types is None:
        return None
    sizes: list[int] = []
    for kind in types if isinstance(types, list) else [types]:
        if kind in ("number", "integer"):
            sizes.append(24)
        elif kind in ("boolean", "null"):
            sizes.append(5)
        elif kind == "string":
            limit = schema.get("maxLength")
            if not isinstance(limit, int):
                return None
            sizes.append(limit * 2 + 2)  # quotes, and escapes at worst double a character
        elif kind == "array":
            limit = schema.get("maxItems")
            item = max_chars(schema.get("items"), depth + 1)
            if not isinstance(limit, int) or item is None:
                return None
            sizes.append(2 + limit * (item + 1))
        elif kind == "object":
            props = schema.get("properties")
            if not isinstance(props, dict):
                return None
            total = 2
            for name, prop in props.items():
                size = max_chars(prop, depth + 1)
                if size is None:
                    return None
                total += len(_json(name)) + 2 + size
            sizes.append(total)
    return max(sizes) if sizes else None


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)
