"""Add and remove spawnkit's hook entries in a settings.json text, touching nothing else.

Pure functions: text in, text out. Every change is a splice of the original
text, so the user's indentation, key order, escapes and line endings survive,
and removing what was added gives back the original bytes. Entries are found
by the marker in their command (see ``registrations``), never by guessing, and
only an entry whose command is exactly one spawnkit writes counts as spawnkit's:
a marked entry someone changed (wrapped the command, pointed it elsewhere) is
kept and reported unless ``force`` is given.

Every edit of one call is planned on a single parse and applied in one pass,
so the cost grows linearly with the file, however many entries there are.
The same code serves any client file of this shape (Claude Code's settings.json
``hooks``, Codex's hooks.json, the hooks/spawnkit-hooks.json spawnkit owns in Copilot CLI's
folder).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from spawnkit.files import bounded
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
class Entry:
    """One marked hook entry: where it sits and what it runs."""

    event: str
    matcher: str | None
    command: str

    @property
    def slot(self) -> str:
        """``PreToolUse Read``, ``SubagentStop``: how people name the entry."""
        return self.event if self.matcher is None else f"{self.event} {self.matcher}"


@dataclass(frozen=True)
class MergeResult:
    text: str
    created_keys: tuple[str, ...]  # containers this merge added: "hooks", "hooks.<Event>"
    added: tuple[Entry, ...] = ()
    updated: tuple[Entry, ...] = ()  # spawnkit entries rewritten where they stand (old command)
    removed: tuple[Entry, ...] = ()  # stale or duplicate spawnkit entries taken out
    kept: tuple[Entry, ...] = ()  # marked entries a person changed: left as they are
    value: Any = None  # ``text`` parsed (for ``problems_of`` without parsing it again)
    # containers this merge filled that were empty, with the blank between their brackets
    # ("" the root, "hooks", "hooks.<Event>"): what ``remove`` needs to give them back as
    # they were (only non-empty blanks)
    empty_inner: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RemovalResult:
    text: str | None  # None: delete the file (install created it)
    removed: tuple[Entry, ...] = ()
    kept: tuple[Entry, ...] = ()


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

# Every edit looks at the members of these: the root, "hooks", and each event's list.
_EXPAND = frozenset({(), ("hooks",), ("hooks", "*")})


CLAUDE = "Claude Code"  # the client whose reaction to a malformed file was observed


def load(text: str | None, name: str = "settings.json", client: str = CLAUDE) -> Node | None:
    """Parse and check the shape spawnkit relies on; None for a missing or blank file.

    ``client`` is the host reading the file; only Claude Code's reaction to a bad shape
    was observed, so only for it does a refusal say what the client does."""
    if text is None or not text.strip():
        return None
    try:
        with bounded.parsing(name):
            root = parse(text, _EXPAND)
        bounded.checked(root.value, name)
    except JSONSpanError as exc:
        raise SettingsError(
            f"{name} is not valid JSON ({exc}); correct the JSON there, or move the file aside,"
            " then run the command again"
        ) from None
    except bounded.TooDeep as exc:
        raise SettingsError(str(exc)) from None
    ignored = "; Claude Code ignores this file until it is fixed" if client == CLAUDE else ""
    if root.kind != "object":
        raise SettingsError(
            f"{name} must hold a JSON object, not {_kind(root)}; make it one ({{}} at the least)"
            " or move the file aside, then run the command again"
        )
    _refuse_duplicates(root, name, "")
    hooks = root.get("hooks")
    if hooks is None:
        return root
    if hooks.kind != "object":
        raise SettingsError(
            f'{name}: "hooks" must be an object mapping event names to lists, not {_kind(hooks)}'
            f'{ignored}; make "hooks" an object like {{"Stop": [...]}}, then run the command'
            " again"
        )
    _refuse_duplicates(hooks, name, "hooks.")
    settings_keys = _settings_keys(client)
    for member in hooks.members:
        if member.key in settings_keys:
            continue  # a setting of the hook system (Gemini CLI's "enabled"), not an event
        if member.value.kind != "array":
            raise SettingsError(
                f"{name}: hooks.{member.key} must be a list of matcher groups, not"
                f' {_kind(member.value)}{ignored}; make it a list like [{{"hooks": [...]}}], then'
                " run the command again"
            )
    return root


def _settings_keys(client: str) -> tuple[str, ...]:
    """Keys under ``hooks`` that the client reads as settings, not events (by its label)."""
    from spawnkit import hosts

    for host in hosts.all_hosts():
        if host.label == client:
            return host.hooks_config_keys
    return ()


def managed_hooks(
    text: str | None, name: str = "settings.json", client: str = CLAUDE
) -> list[ManagedHook]:
    """Every marked entry in a settings text, in file order (spawnkit's and changed ones)."""
    root = load(text, name, client)
    return [
        ManagedHook(m.event, m.matcher, m.command, _scalar(m.hook.get("timeout")))
        for m in _marked(root)
    ]


PLUGIN_PREFIX = "spawnkit@"  # enabledPlugins key of the spawnkit plugin, from any marketplace


def spawnkit_plugins(text: str | None, name: str = "settings.json") -> list[str]:
    """The spawnkit plugins a Claude Code settings text enables (its hooks run besides any
    installed ones, and keep the hook's state folder in use); [] when unreadable."""
    try:
        data = bounded.json_loads(text, name) if text and text.strip() else None
    except (ValueError, bounded.TooDeep):
        return []
    plugins = data.get("enabledPlugins") if isinstance(data, dict) else None
    if not isinstance(plugins, dict):
        return []
    return [key for key, on in plugins.items() if key.startswith(PLUGIN_PREFIX) and on]


def hook_problems(
    text: str | None, name: str = "settings.json", client: str = CLAUDE
) -> list[HookProblem]:
    """Hook entries Claude Code cannot use, and whether they cost the whole file.

    Observed with Claude Code 2.1.330 (tests/e2e/test_install_e2e.py keeps this
    honest): a hook without its command, with a bad type or timeout, or a
    non-string matcher makes the client drop the WHOLE settings file (every hook,
    env, permission) when it sits under PreToolUse or PermissionRequest; under
    other events only that entry is skipped. Unknown keys and unknown event
    names are tolerated, so they are not reported.
    """
    root = load(text, name, client)
    return problems_of(root.value if root is not None else None)


def problems_of(settings: Any) -> list[HookProblem]:
    """``hook_problems`` of an already parsed settings value (see there)."""
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    problems: list[HookProblem] = []
    for event, groups in hooks.items() if isinstance(hooks, dict) else ():
        found: list[str] = []
        for gi, group in enumerate(groups if isinstance(groups, list) else ()):
            where = f"hooks.{event}[{gi}]"
            if not isinstance(group, dict):
                found.append(f"{where} is {_kind_of(group)}, not an object")
                continue
            matcher = group.get("matcher")
            if matcher is not None and not isinstance(matcher, str):
                found.append(f"{where}.matcher must be a string")
            inner = group.get("hooks")
            if not isinstance(inner, list):
                found.append(f"{where}.hooks must be a list")
                continue
            for hi, hook in enumerate(inner):
                found.extend(_hook_entry_problems(hook, f"{where}.hooks[{hi}]"))
        problems += [HookProblem(msg, event in STRICT_EVENTS) for msg in found]
    return problems


def _hook_entry_problems(data: Any, where: str) -> list[str]:
    if not isinstance(data, dict):
        return [f"{where} is {_kind_of(data)}, not an object"]
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
    command: str | Callable[[regs.Registration], str],
    table: Iterable[regs.Registration] | None = None,
    name: str = "settings.json",
    *,
    force: bool = False,
    client: str = CLAUDE,
    seed: tuple[str, Any] | None = None,
) -> MergeResult:
    """Put spawnkit's entries in place: replace its old ones where they stand, append the missing.

    ``command`` is the marked hook command, or a function giving each registration's (a
    host whose payloads name no event gets one command per event). A marked entry whose
    command spawnkit did not write is kept (and holds its slot, so the hook never runs twice) unless
    ``force``. Running it again on its own output returns the same text. ``seed`` is a
    top-level key and value a file this call creates starts with (Qwen Code's
    ``"$version": 4``, without which the client rewrites the file); ``remove`` takes it out
    again when nothing else is left.
    """
    table = list(regs.registrations() if table is None else table)
    original = load(text, name, client)
    created: list[str] = []
    if original is None:
        newline = "\r\n" if text and "\r\n" in text else "\n"
        if seed is not None:
            key, value = seed
            text = "{" + newline + f"  {json.dumps(key)}: {json.dumps(value)}" + newline + "}"
            text += newline
            created.append(key)
        else:
            text = "{}" + newline
        created.append("hooks")
        original = parse(text)
    elif original.get("hooks") is None:
        created.append("hooks")
    assert text is not None
    hooks = original.get("hooks")
    present = {m.key for m in hooks.members} if hooks is not None else set()
    for reg in table:
        if reg.event not in present and f"hooks.{reg.event}" not in created:
            created.append(f"hooks.{reg.event}")
    command_of = command if callable(command) else (lambda reg: command)
    own = {command_of(r) for r in table}
    wanted = {(r.event, r.matcher): regs.hook_entry(r, command_of(r)) for r in table}

    edits = _Edits()
    claimed: set[tuple[str, str | None]] = set()
    added: list[Entry] = []
    updated: list[Entry] = []
    removed: list[Entry] = []
    kept: list[Entry] = []
    for found in _marked(original):
        key = (found.event, found.matcher)
        ours = found.command in own or regs.is_generated(found.command)
        if not ours and not force:
            claimed.add(key)  # a changed entry of ours still registers the hook: never run twice
            kept.append(found.entry)
            continue
        if key in wanted and key not in claimed:
            claimed.add(key)
            if found.hook.value != wanted[key]:
                edits.replace_hook(found, wanted[key])
                updated.append(found.entry)
            continue
        edits.remove_hook(found)  # stale or duplicate
        removed.append(found.entry)
    missing = [r for r in table if (r.event, r.matcher) not in claimed]
    for reg in missing:
        edits.add_group(reg.event, regs.matcher_group(reg, command_of(reg)))
        added.append(Entry(reg.event, reg.matcher, command_of(reg)))
    result = edits.apply(text, original)
    return MergeResult(
        result,
        tuple(created),
        tuple(added),
        tuple(updated),
        tuple(removed),
        tuple(kept),
        edits.applied_to(original.value),
        _empty_blanks(text, original, {r.event for r in missing}),
    )


def _empty_blanks(text: str, root: Node, events: set[str]) -> dict[str, str]:
    """The blank text inside each empty container an install fills: the root, ``hooks``,
    the lists of ``events``; only where it is not "" (``{}`` needs no record)."""
    found: list[tuple[str, Node | None]] = [("", root)]
    hooks = root.get("hooks")
    if hooks is not None:
        found.append(("hooks", hooks))
        found += [(f"hooks.{m.key}", m.value) for m in hooks.members if m.key in events]
    blanks = {}
    for key, node in found:
        if node is None or node.kind not in ("object", "array"):
            continue
        children = node.members if node.kind == "object" else node.items
        inner = text[node.start + 1 : node.end - 1]
        if not children and inner:
            blanks[key] = inner
    return blanks


def remove(
    text: str | None,
    created_keys: Iterable[str] = (),
    blank_original: str | None = None,
    name: str = "settings.json",
    *,
    command: str | None = None,
    force: bool = False,
    client: str = CLAUDE,
    empty_inner: dict[str, str] | None = None,
) -> RemovalResult:
    """Remove every spawnkit entry, then the containers spawnkit itself created.

    An entry counts as spawnkit's when its command is one spawnkit writes (or
    ``command``); a marked entry someone changed is kept and listed in ``kept``
    unless ``force``. ``blank_original`` is what the file held before the first
    install when that was nothing useful ("" for an empty file); when only ``{}``
    is left it is restored. ``empty_inner`` (``MergeResult.empty_inner``) gives a
    container left empty the blank it held before install. ``text`` None in the
    result: delete the file.
    """
    root = load(text, name, client)
    if root is None:
        return RemovalResult(text)
    assert text is not None
    edits = _Edits()
    removed: list[Entry] = []
    kept: list[Entry] = []
    for found in _marked(root):
        if force or found.command == command or regs.is_generated(found.command):
            edits.remove_hook(found)
            removed.append(found.entry)
        else:
            kept.append(found.entry)
    edits.drop_empty(set(created_keys))
    edits.empty_inner = dict(empty_inner or {})
    result = edits.apply(text, root)
    if blank_original is not None and edits.root_left_empty:
        return RemovalResult(
            None if blank_original == MISSING else blank_original, tuple(removed), tuple(kept)
        )
    return RemovalResult(result, tuple(removed), tuple(kept))


def set_top_level(text: str, key: str, value: Any, name: str = "spawnkit.json") -> str:
    """Set one key of a JSON object text, in place if present, else appended.

    ``TooDeep`` (named ``name``) for a text nested beyond the one depth limit."""
    with bounded.parsing(name):
        root = parse(text)
    bounded.checked(root.value, name)
    if root.kind != "object":
        raise SettingsError("expected a JSON object")
    node = root.get(key)
    if node is None:
        style = _style(text, root)
        piece = _Renderer(text, style).render(root, append=[(key, _dumper(value, style))])
        return text[: root.start] + piece + text[root.end :]
    if node.to_python() == value:
        return text
    return _replace(text, _style(text, root), node, value)


# --- finding entries -----------------------------------------------------------


@dataclass(frozen=True)
class _Found:
    event: str
    event_index: int  # the event's index among the members of "hooks"
    group_index: int
    group: Node
    hook_index: int
    hook: Node
    matcher: str | None
    command: str

    @property
    def entry(self) -> Entry:
        return Entry(self.event, self.matcher, self.command)


def _marked(root: Node | None):
    """Every hook entry whose command carries spawnkit's marker, in file order.

    Only the groups whose text holds a marker are looked into (found with ``str.find``
    and a bisection over the groups' positions), so a file with tens of thousands of
    other hooks costs next to nothing here. An event list with ``\\u`` escapes, which
    could spell a marker differently, is checked group by group.
    """
    hooks = root.get("hooks") if root else None
    for ei, member in enumerate(hooks.members if hooks else []):
        array = member.value
        if array.kind != "array":
            continue  # a setting the client keeps under "hooks" (see ``load``)
        for gi in _groups_with_markers(array):
            group = array.items[gi]
            group_value = group.value
            if not _holds_marked(group_value):
                continue
            inner = group.get("hooks")
            if inner is None or inner.kind != "array":
                continue
            matcher = group_value.get("matcher")
            matcher = matcher if isinstance(matcher, str) else None
            for hi, hook in enumerate(inner.items):
                command = hook.value.get("command") if hook.kind == "object" else None
                if regs.is_managed(command):
                    yield _Found(member.key, ei, gi, group, hi, hook, matcher, command)


def _groups_with_markers(array: Node) -> list[int]:
    text, start, end = array._text, array.start, array.end
    if text.find("\\u", start, end) != -1:
        return list(range(len(array.items)))
    hits: set[int] = set()
    starts = [item.start for item in array.items]
    for marker in regs.markers():
        at = text.find(marker, start, end)
        while at != -1:
            hits.add(bisect.bisect_right(starts, at) - 1)
            at = text.find(marker, at + len(marker), end)
    return sorted(i for i in hits if i >= 0)


def _holds_marked(group: Any) -> bool:
    inner = group.get("hooks") if isinstance(group, dict) else None
    return isinstance(inner, list) and any(
        isinstance(h, dict) and regs.is_managed(h.get("command")) for h in inner
    )


# --- planning and applying edits ---------------------------------------------------


@dataclass
class _EventEdit:
    remove_groups: set[int] = field(default_factory=set)
    # group index -> (hook indices to remove, hook index -> new value)
    inner: dict[int, tuple[set[int], dict[int, Any]]] = field(default_factory=dict)
    add: list[Any] = field(default_factory=list)  # matcher groups to append


class _Edits:
    """All edits of one install or uninstall, applied to the text in one pass."""

    def __init__(self) -> None:
        self.events: dict[str, _EventEdit] = {}
        self._groups: dict[tuple[str, int], Node] = {}
        self._group_sizes: dict[tuple[str, int], int] = {}
        self._drop_empty: set[str] | None = None
        self.root_left_empty = False
        self.empty_inner: dict[str, str] = {}  # key -> blank for a container left empty

    def _event(self, name: str) -> _EventEdit:
        return self.events.setdefault(name, _EventEdit())

    def replace_hook(self, found: _Found, value: Any) -> None:
        _removals, replacements = self._inner(found)
        replacements[found.hook_index] = value

    def remove_hook(self, found: _Found) -> None:
        removals, _replacements = self._inner(found)
        removals.add(found.hook_index)
        if len(removals) == len(found.group.get("hooks").items):  # type: ignore[union-attr]
            self._event(found.event).remove_groups.add(found.group_index)

    def _inner(self, found: _Found) -> tuple[set[int], dict[int, Any]]:
        self._groups[(found.event, found.group_index)] = found.group
        return self._event(found.event).inner.setdefault(found.group_index, (set(), {}))

    def add_group(self, event: str, group: Any) -> None:
        self._event(event).add.append(group)

    def drop_empty(self, created_keys: set[str]) -> None:
        """After the removals, drop the containers in ``created_keys`` that are left empty."""
        self._drop_empty = created_keys

    def apply(self, text: str, root: Node) -> str:
        style = _style(text, root)
        render = _Renderer(text, style)
        hooks_member = root.member("hooks")
        hooks = hooks_member.value if hooks_member is not None else None
        created = self._drop_empty or set()

        event_text: dict[int, str] = {}  # member index in hooks -> new text of its array
        drop_members: set[int] = set()
        members = hooks.members if hooks is not None else []
        for index, member in enumerate(members):
            edit = self.events.get(member.key)
            array = member.value
            left = len(array.items) - len(edit.remove_groups) if edit else len(array.items)
            if left == 0 and not (edit and edit.add) and f"hooks.{member.key}" in created:
                drop_members.add(index)
                continue
            if edit is not None:
                event_text[index] = self._render_event(render, member.key, array, edit)
        new_events = [
            (event, edit.add)
            for event, edit in self.events.items()
            if edit.add and (hooks is None or hooks.member(event) is None)
        ]
        appends = [(event, _dumper(groups, style)) for event, groups in new_events]

        root_remove: set[int] = set()
        root_replace: dict[int, str] = {}
        root_append: list[tuple[str | None, _Dump]] = []
        if hooks is None:
            if appends:
                root_append.append(("hooks", self._new_hooks(style, new_events)))
        else:
            index = root.members.index(hooks_member)  # type: ignore[arg-type]
            empty = len(members) == len(drop_members) and not appends
            if empty and "hooks" in created:
                root_remove.add(index)
            elif event_text or drop_members or appends:
                root_replace[index] = render.render(
                    hooks,
                    remove=drop_members,
                    replace=event_text,
                    append=appends,
                    empty=self.empty_inner.get("hooks", ""),
                )
        # a key install seeded a new file with ("$version") goes once nothing else is left
        seeded = {
            i
            for i, m in enumerate(root.members)
            if m.key in created and m.value.kind not in ("object", "array") and i not in root_remove
        }
        if seeded and len(root.members) == len(root_remove | seeded) and not root_append:
            root_remove |= seeded
        self.root_left_empty = len(root.members) == len(root_remove) and not root_append
        if not (root_remove or root_replace or root_append):
            return text
        body = render.render(
            root,
            remove=root_remove,
            replace=root_replace,
            append=root_append,
            empty=self.empty_inner.get("", ""),
        )
        return text[: root.start] + body + text[root.end :]

    def applied_to(self, settings: dict[str, Any]) -> dict[str, Any]:
        """The Python value ``apply`` gives for ``settings`` (the edited lists copied)."""
        data = dict(settings)
        hooks = dict(data.get("hooks") or {})
        for event, edit in self.events.items():
            groups = []
            for gi, group in enumerate(hooks.get(event, [])):
                if gi in edit.remove_groups:
                    continue
                if gi in edit.inner:
                    removals, replacements = edit.inner[gi]
                    inner = group["hooks"]
                    group = {
                        **group,
                        "hooks": [
                            replacements.get(hi, hook)
                            for hi, hook in enumerate(inner)
                            if hi not in removals
                        ],
                    }
                groups.append(group)
            hooks[event] = groups + edit.add
        if hooks:
            data["hooks"] = hooks
        return data

    def _render_event(self, render: _Renderer, event: str, array: Node, edit: _EventEdit) -> str:
        groups: dict[int, str] = {}
        for gi, (removals, replacements) in edit.inner.items():
            if gi in edit.remove_groups:
                continue
            group = self._groups[(event, gi)]
            inner_member = group.member("hooks")
            inner = inner_member.value  # type: ignore[union-attr]
            dumped = {hi: _dumper(value, render.style) for hi, value in replacements.items()}
            new_inner = render.render(inner, remove=removals, replace_values=dumped)
            index = group.members.index(inner_member)  # type: ignore[arg-type]
            groups[gi] = render.render(group, replace={index: new_inner})
        appends: list[tuple[str | None, _Dump]] = [
            (None, _dumper(g, render.style)) for g in edit.add
        ]
        return render.render(
            array,
            remove=edit.remove_groups,
            replace=groups,
            append=appends,
            empty=self.empty_inner.get(f"hooks.{event}", ""),
        )

    @staticmethod
    def _new_hooks(style: _Style, new_events: list[tuple[str, list[Any]]]) -> _Dump:
        """The ``hooks`` object written where there was none: the first event dumped whole,
        the others appended to it like members of an existing object (the user's colon)."""
        (first, groups), rest = new_events[0], new_events[1:]

        def dump(indent_at: str, inline: bool) -> str:
            base = _dump({first: groups}, style, indent_at, inline)
            if not rest:
                return base
            node = parse(base)
            return _Renderer(base, style).render(
                node, append=[(event, _dumper(more, style)) for event, more in rest]
            )

        return dump


# --- splicing ----------------------------------------------------------------


@dataclass(frozen=True)
class _Style:
    newline: str
    unit: str | None  # one level of indentation; None: the document is on one line
    colon: str


_Dump = Callable[[str, bool], str]  # (indent of the line it starts on, inline?) -> JSON text


def _dumper(value: Any, style: _Style) -> _Dump:
    return lambda indent_at, inline: _dump(value, style, indent_at, inline)


class _Renderer:
    """New text for one container of ``text``: children removed, replaced or appended.

    The result is what removing the children one by one, replacing them, then
    appending would give: a removed child takes its following separator with it
    (the preceding one when it is last), a container left empty keeps only its
    brackets, and an appended child copies the indentation of the last one.
    Removing what was appended gives back the original bytes.
    """

    def __init__(self, text: str, style: _Style) -> None:
        self.text = text
        self.style = style

    def render(
        self,
        node: Node,
        remove: set[int] = frozenset(),  # type: ignore[assignment]
        replace: dict[int, str] | None = None,  # child index -> new text of its value
        append: list[tuple[str | None, _Dump]] | None = None,
        replace_values: dict[int, _Dump] | None = None,  # child index -> dump in its place
        empty: str = "",  # what stands between the brackets when no child is left
    ) -> str:
        text = self.text
        children: list[Any] = node.members if node.kind == "object" else node.items
        kept = [i for i in range(len(children)) if i not in remove]
        append = append or []
        if not kept:
            if not children and not append:
                return text[node.start : node.end]
            inner = self._fill_empty(node, append) if append else empty
            return text[node.start] + inner + text[node.end - 1]
        cuts: list[tuple[int, int, str]] = []
        end_cut: tuple[int, int] | None = None  # a removed run at the end: after the last kept
        last = len(children) - 1
        i = 0
        while i <= last:
            if i not in remove:
                i += 1
                continue
            j = i
            while j + 1 <= last and j + 1 in remove:
                j += 1
            if j < last:
                cuts.append((children[i].start, children[j + 1].start, ""))
            else:
                end_cut = (children[i - 1].end, children[j].end)
            i = j + 1
        for index, new in (replace or {}).items():
            child = children[index]
            value = child.value if node.kind == "object" else child
            cuts.append((value.start, value.end, new))
        for index, dump in (replace_values or {}).items():
            child = children[index]
            value = child.value if node.kind == "object" else child
            inline = "\n" not in text[value.start : value.end]
            cuts.append((value.start, value.end, dump(_line_indent(text, value.start), inline)))
        pieces = self._after(children[kept[-1]], append) if append else ""
        if end_cut is not None:
            cuts.append((end_cut[0], end_cut[1], pieces))
        elif pieces:
            cuts.append((children[kept[-1]].end, children[kept[-1]].end, pieces))
        cuts.sort(key=lambda c: (c[0], c[1]))
        out: list[str] = []
        pos = node.start
        for start, end, new in cuts:
            out.append(text[pos:start])
            out.append(new)
            pos = end
        out.append(text[pos : node.end])
        return "".join(out)

    def _entry(self, key: str | None, dump: _Dump, indent_at: str, inline: bool) -> str:
        body = dump(indent_at, inline)
        return (
            body if key is None else json.dumps(key, ensure_ascii=False) + self.style.colon + body
        )

    def _after(self, anchor: Any, append: list[tuple[str | None, _Dump]]) -> str:
        indent = _own_line_indent(self.text, anchor.start)
        pieces = []
        for key, dump in append:
            if indent is not None and self.style.unit is not None:
                pieces.append(
                    "," + self.style.newline + indent + self._entry(key, dump, indent, False)
                )
            else:
                pieces.append(", " + self._entry(key, dump, "", True))
        return "".join(pieces)

    def _fill_empty(self, node: Node, append: list[tuple[str | None, _Dump]]) -> str:
        if not append:
            return ""
        style = self.style
        (key, dump), rest = append[0], append[1:]
        if style.unit is None:
            first = self._entry(key, dump, "", True)
            return first + "".join(", " + self._entry(k, d, "", True) for k, d in rest)
        outer = _line_indent(self.text, node.start)
        indent = outer + style.unit
        out = [style.newline + indent + self._entry(key, dump, indent, False)]
        out += ["," + style.newline + indent + self._entry(k, d, indent, False) for k, d in rest]
        return "".join(out) + style.newline + outer


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
    return _kind_of(node.value)


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "a string" if isinstance(value, str) else "a number"


def _scalar(node: Node | None) -> Any:
    return None if node is None else node.to_python()
