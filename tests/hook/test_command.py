"""The hook registrations in the standard's data match what the hook handles."""

from __future__ import annotations

import pytest

from spawnkit import hosts
from spawnkit.hook import main
from spawnkit.hook.store import LOCK_TIMEOUT
from spawnkit.standard import protocol

from .conftest import payload

HOOKS = protocol.load()["hooks"]


@pytest.mark.parametrize("host", hosts.all_hosts(), ids=str)
def test_every_registered_event_is_handled_and_nothing_else(host):
    events = {host.event_names.get(e["event"], e["event"]) for e in HOOKS[host.events_key]}
    handled = set(main._HANDLERS) - ({"PostToolBatch"} - {host.batch_event})
    assert events == handled


@pytest.mark.parametrize("host", hosts.all_hosts(), ids=str)
def test_matchers_name_exactly_the_tools_handled(host):
    matchers = [
        (host.event_names.get(e["event"], e["event"]), e.get("matcher"))
        for e in HOOKS[host.events_key]
    ]
    post = {t for event, m in matchers if event == "PostToolUse" for t in m.split("|")}
    pre = {t for event, m in matchers if event == "PreToolUse" for t in m.split("|")}
    # Without PostToolBatch, launches are settled on the spawn tool's PostToolUse, where the
    # launch has an id to settle by (Copilot CLI sends none: its slots settle on
    # SubagentStart, or expire).
    settle = set(host.spawn_tools) if host.batch_event is None and host.call_id_field else set()
    assert post == {*host.write_tools, *settle}
    assert pre == {*host.spawn_tools, *host.read_tools}
    assert all(m is None for event, m in matchers if not event.endswith("ToolUse"))


def test_timeout_leaves_room_for_the_lock():
    assert HOOKS["timeout_seconds"] >= 3 * LOCK_TIMEOUT


@pytest.mark.parametrize("tool", ["Agent", "Task"])
def test_both_agent_tool_names_are_checked(hook, tool):
    data = payload("PreToolUse_Agent") | {"tool_name": tool}
    assert "updatedInput" in hook(data, {"SPAWNKIT_MODE": "enforce"})["hookSpecificOutput"]
