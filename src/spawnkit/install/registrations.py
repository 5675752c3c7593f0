"""Which hook events spawnkit listens to on each host, and how its entries are recognised.

One table per host (``hooks`` in standards/protocol.json: ``events`` for Claude
Code, ``codex_events`` for Codex, ``copilot_events`` for Copilot CLI, ``gemini_events`` and
``qwen_events``, named by ``Host.events_key``) feeds the entries ``spawnkit install`` writes
into settings.json (Claude Code's, Gemini CLI's, Qwen Code's), Codex's hooks.json or Copilot's
hooks/spawnkit-hooks.json, and the plugin's ``hooks/hooks.json``, so they can never disagree.

Claude Code's settings schema forbids unknown keys in a hook entry, so the
marker lives in the command string as a trailing shell comment: the shell
ignores it, spawnkit finds its own entries by it and never by guessing.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spawnkit import hosts
from spawnkit.hook.command import PLUGIN_COMMAND, argv_for, hook_argv
from spawnkit.standard import protocol

CURRENT_MARKER = "# spawnkit-managed:v1"
# Markers earlier spawnkit versions wrote. When CURRENT_MARKER changes, append
# the old one here so an upgrade recognises and replaces those entries in place.
PAST_MARKERS: tuple[str, ...] = ()


@dataclass(frozen=True)
class Registration:
    event: str
    matcher: str | None  # None: the event takes no matcher, fire on every occurrence
    # in the host's unit (seconds; Gemini CLI: milliseconds); Claude Code's default (600 s)
    # would stall a session
    timeout: int
    name: str | None = None  # the entry's "name", where the host turns hooks off by name


def registrations(host: str = hosts.DEFAULT) -> list[Registration]:
    """The host's ``hooks`` table of protocol.json (the template's skill frontmatter reads
    Claude Code's too)."""
    table = protocol.load()["hooks"]
    desc = hosts.get(host)
    timeout = int(table["timeout_seconds"]) * desc.timeout_scale
    events = table[desc.events_key]
    return [Registration(e["event"], e.get("matcher"), timeout, desc.hook_name) for e in events]


def markers() -> tuple[str, ...]:
    return (CURRENT_MARKER, *PAST_MARKERS)


def is_managed(command: object) -> bool:
    """True when a hook command carries spawnkit's marker (written by spawnkit, maybe edited since)."""
    return isinstance(command, str) and command.rstrip().endswith(markers())


SCRIPT_TAIL = "/spawnkit/hook/__main__.py"


def is_generated(command: object) -> bool:
    """True when ``command`` is, byte for byte, one spawnkit writes for some installation.

    That is ``test -f S && P -I -S S`` (or the unguarded ``P -I -S S``; ``test ! -f S || …``
    for a host that denies a tool call when its hook fails, Copilot CLI), for a host other
    than Claude Code with `` --host NAME`` after it and, where the payload names no event,
    `` --event EVENT``, followed by a marker, every path quoted the way ``shlex.quote`` does,
    ``S`` a spawnkit hook script.
    A marked command in any other shape was written or changed by a person (wrapped in
    ``nice``, pointed at another script …): spawnkit keeps it and says so, never runs it
    from ``doctor``, and removes it only when asked to (``--force``).
    """
    if not is_managed(command):
        return False
    assert isinstance(command, str)
    marker = next((m for m in markers() if command.endswith(" " + m)), None)
    if marker is None:  # trailing blanks or no space before the marker: not spawnkit's form
        return False
    body = command[: -len(marker) - 1]
    try:
        words = shlex.split(body)
    except ValueError:
        return False
    event = None
    if len(words) >= 2 and words[-2] == "--event":
        event, words = words[-1], words[:-2]
    host = hosts.DEFAULT  # a host other than the default is named last: `… --host codex`
    if len(words) >= 2 and words[-2] == "--host" and words[-1] in hosts.NAMES[1:]:
        host, words = words[-1], words[:-2]
    if len(words) == 8 and words[:2] == ["test", "-f"] and words[2] == words[7]:
        guard, python, script = True, words[4], words[7]
    elif len(words) == 9 and words[:3] == ["test", "!", "-f"] and words[3] == words[8]:
        guard, python, script = True, words[5], words[8]
    elif len(words) == 4:
        guard, python, script = False, words[0], words[3]
    else:
        return False
    if not script.endswith(SCRIPT_TAIL) or not python.startswith("/"):
        return False
    try:
        return body == command_text(python, script, host, guard, event)
    except ValueError:
        return False


def command_text(
    python: str,
    script: str,
    host: str = hosts.DEFAULT,
    guard: bool = True,
    event: str | None = None,
) -> str:
    """The hook command (without marker) for ``python`` running ``script`` on ``host``.

    The one place its shape is written: ``installed_command`` builds with it and
    ``is_generated`` recognises by it, so the two can never drift apart. ``event`` is
    required exactly for a host whose payloads name no event (Copilot CLI), and must be one
    of its events; ValueError otherwise.
    """
    desc = hosts.get(host)
    if (event is not None) != (desc.event_field is None) or (
        event is not None and event not in desc.event_names
    ):
        raise ValueError(f"{desc.label} hook commands take no --event {event!r}")
    run = shlex.join(argv_for(python, script))
    argument = "" if host == hosts.DEFAULT else f" --host {host}"
    if event is not None:
        argument += f" --event {event}"
    if not guard:
        return run + argument
    quoted = shlex.quote(script)
    if desc.denies_on_hook_error:  # a missing script must exit 0, or every call is denied
        return f"test ! -f {quoted} || {run}{argument}"
    return f"test -f {quoted} && {run}{argument}"


def marked(command: str) -> str:
    return f"{command} {CURRENT_MARKER}"


def hook_entry(reg: Registration, command: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": reg.name} if reg.name else {}
    return {**entry, "type": "command", "command": command, "timeout": reg.timeout}


def matcher_group(reg: Registration, command: str) -> dict[str, Any]:
    group: dict[str, Any] = {}
    if reg.matcher is not None:
        group["matcher"] = reg.matcher
    group["hooks"] = [hook_entry(reg, command)]
    return group


def installed_command(
    python: str | None = None, host: str = hosts.DEFAULT, event: str | None = None
) -> str:
    """The marked command the host runs: this interpreter on this installation's hook
    (with ``--host codex`` for Codex; ``--host copilot --event <event>`` for Copilot CLI).

    ``test -f`` guards the script: if the package is removed without
    ``spawnkit uninstall``, Python would exit 2 ("can't open file"), which Claude Code
    and Codex read as "block this tool call". The guard turns that into exit 1, a
    non-blocking error (exit 0 for Copilot CLI, which denies the call on any failure).
    """
    argv = hook_argv(python)
    return marked(command_text(argv[0], argv[-1], host, True, event))


def command_for(host: str = hosts.DEFAULT, python: str | None = None):  # noqa: ANN201
    """``registration -> marked command`` for ``host``: one command for every registration,
    or, where the payload names no event, one per event."""
    if hosts.get(host).event_field is not None:
        command = installed_command(python, host)
        return lambda reg: command
    return lambda reg: installed_command(python, host, reg.event)


def installed_commands(python: str | None = None, host: str = hosts.DEFAULT) -> set[str]:
    """Every command this installation registers on ``host``."""
    of = command_for(host, python)
    return {of(reg) for reg in registrations(host)}


def plugin_hooks_document() -> dict[str, Any]:
    """The plugin's hooks/hooks.json: the same table, run straight from the plugin folder."""
    events: dict[str, list[dict[str, Any]]] = {}
    for reg in registrations():
        events.setdefault(reg.event, []).append(matcher_group(reg, PLUGIN_COMMAND))
    return {
        "description": "spawnkit: keep sub-agent returns out of the orchestrator's context",
        "hooks": events,
    }


def render_plugin_hooks() -> str:
    return json.dumps(plugin_hooks_document(), indent=2, ensure_ascii=False) + "\n"


def write_plugin_hooks(path: Path) -> bool:
    """Regenerate hooks.json; True when the file changed."""
    from spawnkit.files.atomic import atomic_write

    text = render_plugin_hooks()
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text)
    return True


if __name__ == "__main__":
    # Maintainers: `python -m spawnkit.install.registrations [hooks/hooks.json]` after editing the table.
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "hooks/hooks.json")
    print(f"{target}: {'updated' if write_plugin_hooks(target) else 'up to date'}")
