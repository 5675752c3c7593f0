"""Codex CLI's hook trust: which ``config.toml`` entry makes a hook in hooks.json run.

Codex 0.169.0 skips an untrusted hook silently (no payload, no warning). A hook is
trusted when the user's ``$CODEX_HOME/config.toml`` holds::

    [hooks.state."<hooks file>:<event_snake>:<group index>:<handler index>"]
    trusted_hash = "sha256:<hex>"

where hex is the sha256 of the compact, key-sorted JSON of the handler's group:
``{"event_name": <event_snake>, "hooks": [{"async", "command", "timeout", "type"}],
"matcher": M}`` — ``matcher`` only when the group has one, ``timeout`` 600 when
unset. Checked against the real binary: hooks whose entries were computed this way
ran without ``--dangerously-bypass-hook-trust`` (matcher present or absent), and
the same hooks without the entries never ran.

The hash covers the command, so an installer writes a hook and its trust entry
together, and must rewrite the entry whenever the command or the hook's position
changes. Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

DEFAULT_TIMEOUT = 600
STATE_TABLE = ("hooks", "state")
HASH_KEY = "trusted_hash"
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def event_snake(event: str) -> str:
    """``SubagentStop`` -> ``subagent_stop``, as Codex names events in trust keys."""
    return _CAMEL.sub("_", event).lower()


def trust_key(source: str, event: str, group_index: int, handler_index: int) -> str:
    """The ``[hooks.state."…"]`` key of one handler of ``source`` (the hooks file's path)."""
    return f"{source}:{event_snake(event)}:{group_index}:{handler_index}"


def trusted_hash(event: str, group: Mapping[str, Any], handler: Mapping[str, Any]) -> str:
    """``sha256:<hex>`` Codex expects for ``handler`` (a ``type: command`` entry) of ``group``."""
    timeout = handler.get("timeout")
    entry = {
        "async": bool(handler.get("async", False)),
        "command": handler.get("command"),
        "timeout": DEFAULT_TIMEOUT if timeout is None else timeout,
        "type": handler.get("type", "command"),
    }
    data: dict[str, Any] = {"event_name": event_snake(event), "hooks": [entry]}
    if "matcher" in group:
        data["matcher"] = group["matcher"]
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def expected_entries(source: str, hooks: Mapping[str, Any]) -> dict[str, str]:
    """Trust key -> hash for every command handler in a hooks document's ``hooks`` object."""
    found: dict[str, str] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for gi, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                continue
            for hi, handler in enumerate(handlers):
                if isinstance(handler, dict) and handler.get("type", "command") == "command":
                    found[trust_key(source, event, gi, hi)] = trusted_hash(event, group, handler)
    return found


def untrusted(source: str, hooks: Mapping[str, Any], trusted: Mapping[str, str]) -> list[str]:
    """Trust keys of the handlers Codex would skip: no entry, or a hash that no longer matches."""
    return [
        key for key, value in expected_entries(source, hooks).items() if trusted.get(key) != value
    ]


def hooks_disabled(config: Mapping[str, Any]) -> str | None:
    """The config.toml setting that turns hooks off (``[features] hooks = false``), if any."""
    features = config.get("features")
    if not isinstance(features, Mapping):
        return None
    for name in ("hooks", "codex_hooks"):  # codex_hooks: the feature's old name
        if features.get(name) is False:
            return f"[features] {name} = false"
    return None
