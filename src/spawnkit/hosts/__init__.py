"""The agent hosts spawnkit serves, each described as data: Claude Code and OpenAI Codex CLI.

Everything that differs between two hosts lives in one ``Host`` instance: where its
config and skills live, which file its hooks go into and in which format, the tool
names of spawning, reading and writing, how a hook answer blocks or rewrites a
call, and which payload fields carry the session, the agent and its last answer.
Install, uninstall, doctor, the hook runtime and ``spawnkit new`` read it instead
of naming a host themselves.

Standard library only and import-light: the hook imports this package on every
call. A host's module is imported only when that host is asked for.
"""

from __future__ import annotations

from spawnkit.hosts.base import Host

NAMES = ("claude-code", "codex")
DEFAULT = "claude-code"

_MODULES = {"claude-code": "claude_code", "codex": "codex"}
_loaded: dict[str, Host] = {}


def get(name: str) -> Host:
    """The host called ``name`` (``claude-code`` or ``codex``); KeyError for any other."""
    host = _loaded.get(name)
    if host is None:
        module = _MODULES[name]  # KeyError: not a host
        if module == "codex":
            from spawnkit.hosts.codex import HOST
        else:
            from spawnkit.hosts.claude_code import HOST
        host = _loaded[name] = HOST
    return host


def all_hosts() -> list[Host]:
    return [get(name) for name in NAMES]


__all__ = ["DEFAULT", "NAMES", "Host", "all_hosts", "get"]
