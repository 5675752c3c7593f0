"""Add and remove spawnkit's hook entries in a settings.json text, touching nothing else.

Pure functions: text in, text out. Every change is a splice of the original
text, so the user's indentation, key order, escapes and line endings survive,
and removing what was added gives back the original bytes. Entries are found
by the marker in their command (see ``registrations``), never by guessing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from spawnkit.install import registrations as regs
from spawnkit.install.jsonspan import JSONSpanError, Node, parse

_HOOK_REQUIRED = {
    "command": ("command",),
    "prompt": ("prompt",),
    "agent": ("prompt",),
    "http": ("url",),
    "mcp_tool": ("server", "tool"),
}


MISSING = "\0missing"  # ``blank_original`` for "the file did not exist before install"


class SettingsError(ValueError):
    """The settings text cannot be merged safely; the message says why and what to do."""


@dataclass(frozen=True)
class MergeResult:
    text: str
    created_keys: tuple[str, ...]  # containers this merge added: "hooks", "hooks.<Event>"


# Events whose malformed entries make Claude Code 2.1.330 ignore the whole settings file.
STRICT_EVENTS = frozenset({"PreToolUse", "PermissionRequest"})


@dataclass(frozen=True)
class HookProblem:
    message: str  # "hooks.<Event>[i].hooks[j] needs …"
    fatal: bool  # True: the client drops the whole file; False: it skips this entry

    def __str__(self) -> str:
        consequence = (
            "Claude Code ignores this whole settings file (every hook, env and permission in it)"
            if self.fatal
            else "Claude Code skips this entry"
        )
        return f"{self.message}: {consequence}"


@dataclass(frozen=True)
class ManagedHook:
    event: str
    matcher: str | None
    command: str
    timeout: Any


# --- reading -----------------------------------------------------------------


def load(text: str | None, name: str = "settings.json") -> Node | None:
    """Parse and check the shape spawnkit relies on; None for a missing or blank file."""
    if text is None or not text.strip():
        return None
    try:
        root = parse(text)
    except JSONSpanError as exc:
        raise SettingsError(
            f"{name} is not valid JSON ({exc}); fix it or move it aside, then run the command again"
        ) from None
    if root.kind != "object":
        raise SettingsError(
            f"{name} must hold a JSON object, not {_kind(root)}; fix the file first"
        )
    _refuse_duplicates(root, name, "")
    hooks = root.get("hooks")
    if hooks is None:
        return root
    if hooks.kind != "object":
        raise SettingsError(
            f'{name}: "hooks" must be an object mapping event names to lists, not {_kind(hooks)};'
            " Claude Code ignores this file until it is fixed; fix it, then run the command again"
        )
    _refuse_duplicates(hooks, name, "hooks.")
    for member in hooks.members:
        if member.value.kind != "array":
            raise SettingsError(
                f"{name}: hooks.{member.key} must be a list of matcher groups, not"
                f" {_kind(member.value)}; Claude Code ignores this file until it is fixed; fix it,"
                " then run the command again"
            )
    return root


def managed_hooks(text: str | None, name: str = "settings.json") -> list[ManagedHook]:
    """spawnkit's entries in a settings text, in file order."""
    root = load(text, name)
    return [
        ManagedHook(event, _matcher(group), hook.get("command").value, _scalar(hook.get("timeout")))
        for event, group, _gi, hook, _hi in _scan(root)
    ]


def hook_problems(text: str | None, name: str = "settings.json") -> list[HookProblem]:
    """Hook entries Claude Code cannot use, and whether they cost the whole file.

    Observed with Claude Code 2.1.330 (tests/e2e/test_install_e2e.py keeps this
    honest): a hook without its command, with a bad type or timeout, or a
    non-string matcher makes the client drop the WHOLE settings file (every hook,
    env, permission) when it sits under PreToolUse or PermissionRequest; under
    other events only that entry is skipped. Unknown keys and unknown event
    names are tolerated, so they are not reported.
    """
    root = load(text, name)
    hooks = root.get("hooks") if root else None
    problems: list[HookProblem] = []
    for member in hooks.members if hooks else []:
        found: list[str] = []
        for gi, group in enumerate(member.value.items):
            where = f"hooks.{member.key}[{gi}]"
            if group.kind != "object":
                found.append(f"{where} is {_kind(group)}, not an object")
                continue
            matcher = group.get("matcher")
            if matcher is not None and matcher.kind != "string":
                found.append(f"{where}.matcher must be a string")
            inner = group.get("hooks")
            if inner is None or inner.kind != "array":
                found.append(f"{where}.hooks must be a list")
                continue
            for hi, hook in enumerate(inner.items):
                found.extend(_hook_entry_problems(hook, f"{where}.hooks[{hi}]"))
        problems += [HookProblem(msg, member.key in STRICT_EVENTS) for msg in found]
    return problems


def _hook_entry_problems(hook: Node, where: str) -> list[str]:
    if hook.kind != "object":
        return [f"{where} is {_kind(hook)}, not an object"]
    data = hook.to_python()
    kind = data.get("type")
    if kind not in _HOOK_REQUIRED:
        return [f"{where}.type must be one of {', '.join(_HOOK_REQUIRED)}"]
    problems = [
        f'{where} needs a non-empty "{key}"'
        for key in _HOOK_REQUIRED[kind]
        if not (isinstance(data.get(key), str) and data[key])
    ]
    timeout = data.get("timeout")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0
    ):
        problems.append(f"{where}.timeout must be a positive number of seconds")
    return problems


# --- writing -----------------------------------------------------------------


def install(
    text: str | None,
    command: str,
    table: Iterable[regs.Registration] | None = None,
    name: str = "settings.json",
) -> MergeResult:
    """Put spawnkit's entries in place: replace its old ones where they stand, append the missing.

    ``command`` is the marked hook command. Running it again on its own output
    returns the same text.
    """
    table = list(regs.registrations() if table is None else table)
    original = load(text, name)
    created: list[str] = []
    if original is None:
        text = "{}" + ("\r\n" if text and "\r\n" in text else "\n")
        created.append("hooks")
    elif original.get("hooks") is None:
        created.append("hooks")
    hooks = original.get("hooks") if original is not None else None
    present = {m.key for m in hooks.members} if hooks is not None else set()
    for reg in table:
        if reg.event not in present and f"hooks.{reg.event}" not in created:
            created.append(f"hooks.{reg.event}")
    wanted = {(r.event, r.matcher): regs.hook_entry(r, command) for r in table}
    text = _until_stable(text, lambda t: _next_install_edit(t, wanted, table))
    return MergeResult(text, tuple(created))


def uninstall(
    text: str | None,
    created_keys: Iterable[str] = (),
    blank_original: str | None = None,
    name: str = "settings.json",
) -> str | None:
    """Remove every spawnkit entry, then the containers spawnkit itself created.

    ``blank_original`` is what the file held before the first install when that
    was nothing useful ("" for an empty file); when only ``{}`` is left it is
    restored. Returns None when the file should be deleted (it did not exist).
    """
    if load(text, name) is None:
        return text
    assert text is not None
    text = _until_stable(text, _next_removal)
    created = set(created_keys)
    for key in sorted((k for k in created if k.startswith("hooks.")), reverse=True):
        root = _tree(text)
        hooks = root.get("hooks") if root else None
        member = hooks.member(key[len("hooks.") :]) if hooks else None
        if member is not None and not member.value.items:
            index = hooks.members.index(member)  # type: ignore[union-attr]
            text = _remove_member(text, hooks, index)  # type: ignore[arg-type]
    root = _tree(text)
    if "hooks" in created:
        member = root.member("hooks")
        if member is not None and not member.value.members:
            text = _remove_member(text, root, root.members.index(member))
    root = _tree(text)
    if blank_original is not None and not root.members:
        return None if blank_original == MISSING else blank_original
    return text


def set_top_level(text: str, key: str, value: Any) -> str:
    """Set one key of a JSON object text, in place if present, else appended."""
    root = parse(text)
    if root.kind != "object":
        raise SettingsError("expected a JSON object")
    node = root.get(key)
    if node is None:
        return _insert_member(text, _style(text, root), root, key, value)
    if node.to_python() == value:
        return text
    return _replace(text, _style(text, root), node, value)


def _next_install_edit(
    text: str, wanted: dict[tuple[str, str | None], dict[str, Any]], table: list[regs.Registration]
) -> str | None:
    root = _tree(text)
    style = _style(text, root)
    claimed: set[tuple[str, str | None]] = set()
    for event, group, gi, hook, hi in _scan(root):
        key = (event, _matcher(group))
        if key in wanted and key not in claimed:
            claimed.add(key)
            if hook.to_python() != wanted[key]:
                return _replace(text, style, hook, wanted[key])
            continue
        return _remove_hook(text, root, event, gi, hi)  # stale or duplicate
    for reg in table:
        if (reg.event, reg.matcher) in claimed:
            continue
        group = regs.matcher_group(reg, wanted[(reg.event, reg.matcher)]["command"])
        hooks = root.get("hooks")
        if hooks is None:
            return _insert_member(text, style, root, "hooks", {reg.event: [group]})
        events = hooks.get(reg.event)
        if events is None:
            return _insert_member(text, style, hooks, reg.event, [group])
        return _append_item(text, style, events, group)
    return None


def _next_removal(text: str) -> str | None:
    root = _tree(text)
    for event, _group, gi, _hook, hi in _scan(root):
        return _remove_hook(text, root, event, gi, hi)  # type: ignore[arg-type]
    return None


def _until_stable(text: str, step: Callable[[str], str | None]) -> str:
    for _ in range(1000):
        new = step(text)
        if new is None:
            return text
        text = new
    raise RuntimeError("settings edit did not converge")  # a bug, not a user error


def _scan(root: Node | None):
    """(event, group, group index, hook, hook index) for every spawnkit hook entry."""
    hooks = root.get("hooks") if root else None
    for member in hooks.members if hooks else []:
        for gi, group in enumerate(member.value.items):
            inner = group.get("hooks") if group.kind == "object" else None
            if inner is None or inner.kind != "array":
                continue
            for hi, hook in enumerate(inner.items):
                command = hook.get("command") if hook.kind == "object" else None
                if command is not None and regs.is_managed(command.value):
                    yield member.key, group, gi, hook, hi


def _remove_hook(text: str, root: Node, event: str, gi: int, hi: int) -> str:
    """Drop one entry; drop its matcher group too when nothing else is left in it."""
    events = root.get("hooks").get(event)  # type: ignore[union-attr]
    group = events.items[gi]  # type: ignore[union-attr]
    inner = group.get("hooks")
    if len(inner.items) == 1:  # type: ignore[union-attr]
        return _remove_item(text, events, gi)  # type: ignore[arg-type]
    return _remove_item(text, inner, hi)  # type: ignore[arg-type]


# --- splicing ----------------------------------------------------------------


@dataclass(frozen=True)
class _Style:
    newline: str
    unit: str | None  # one level of indentation; None: the document is on one line
    colon: str


def _tree(text: str) -> Node:
    """Parse text spawnkit itself produced from a validated document."""
    return parse(text, trusted=True)


def _style(text: str, root: Node) -> _Style:
    newline = "\r\n" if "\r\n" in text else "\n"
    unit: str | None = None
    colon = ": "
    if root.members:
        first = root.members[0]
        unit = _own_line_indent(text, first.start) or None
        colon = text[_after_key(text, first.start) : first.value.start]
    if unit is None and "\n" in text.strip():
        unit = "  "
    if unit is None and not root.members:
        unit = "  "  # "{}": Claude Code itself writes two-space JSON
    return _Style(newline, unit, colon or ": ")


def _after_key(text: str, key_start: int) -> int:
    _, end = json.decoder.scanstring(text, key_start + 1)
    return end


def _own_line_indent(text: str, pos: int) -> str | None:
    """The whitespace before ``pos`` when nothing else precedes it on its line."""
    line_start = text.rfind("\n", 0, pos) + 1
    lead = text[line_start:pos]
    return lead if lead.strip() == "" and line_start > 0 else None


def _line_indent(text: str, pos: int) -> str:
    line_start = text.rfind("\n", 0, pos) + 1
    line = text[line_start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _dump(value: Any, style: _Style, indent_at: str, inline: bool) -> str:
    if inline or style.unit is None:
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, indent=style.unit, ensure_ascii=False).replace(
        "\n", style.newline + indent_at
    )


def _append_item(text: str, style: _Style, array: Node, value: Any) -> str:
    return _add(text, style, array, array.items, value, None)


def _insert_member(text: str, style: _Style, obj: Node, key: str, value: Any) -> str:
    return _add(text, style, obj, obj.members, value, key)


def _add(
    text: str, style: _Style, container: Node, children: list, value: Any, key: str | None
) -> str:
    """Append after the last child, copying its indentation; removing it again (``_cut``
    of the last child) deletes exactly what this added."""

    def entry(indent_at: str, inline: bool) -> str:
        body = _dump(value, style, indent_at, inline)
        return body if key is None else json.dumps(key, ensure_ascii=False) + style.colon + body

    if children:
        last = children[-1]
        indent = _own_line_indent(text, last.start)
        if indent is not None and style.unit is not None:
            piece = "," + style.newline + indent + entry(indent, False)
        else:
            piece = ", " + entry("", True)
        return text[: last.end] + piece + text[last.end :]
    outer = _line_indent(text, container.start)
    if style.unit is None:
        inner = entry("", True)
    else:
        indent = outer + style.unit
        inner = style.newline + indent + entry(indent, False) + style.newline + outer
    return text[: container.start + 1] + inner + text[container.end - 1 :]


def _remove_item(text: str, container: Node, index: int) -> str:
    return _cut(text, container, container.items, index)


def _remove_member(text: str, container: Node, index: int) -> str:
    return _cut(text, container, container.members, index)


def _cut(text: str, container: Node, children: list, index: int) -> str:
    if len(children) == 1:
        return text[: container.start + 1] + text[container.end - 1 :]
    if index == len(children) - 1:
        return text[: children[index - 1].end] + text[children[index].end :]
    return text[: children[index].start] + text[children[index + 1].start :]


def _replace(text: str, style: _Style, node: Node, value: Any) -> str:
    inline = "\n" not in text[node.start : node.end]
    body = _dump(value, style, _line_indent(text, node.start), inline)
    return text[: node.start] + body + text[node.end :]


# --- small helpers -------------------------------------------------------------


def _refuse_duplicates(obj: Node, name: str, prefix: str) -> None:
    dupes = obj.duplicate_keys()
    if dupes:
        raise SettingsError(
            f'{name} has the key "{prefix}{dupes[0]}" more than once and Claude Code keeps only'
            " the last; merge them into one, then run the command again"
        )


def _kind(node: Node) -> str:
    if node.kind == "literal":
        return "null" if node.value is None else "a boolean"
    return {"object": "an object", "array": "a list", "string": "a string", "number": "a number"}[
        node.kind
    ]


def _matcher(group: Node) -> str | None:
    node = group.get("matcher")
    return node.value if node is not None and node.kind == "string" else None


def _scalar(node: Node | None) -> Any:
    return None if node is None else node.to_python()
