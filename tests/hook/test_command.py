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
    if host.stop_tool is None:  # no background tasks to follow (notifications, Stop's list)
        handled -= {"UserPromptSubmit", "Stop"}
    assert events == handled


@pytest.mark.parametrize("host", hosts.all_hosts(), ids=str)
def test_matchers_name_exactly_the_tools_handled(host):
    matchers = [
        (host.event_names.get(e["event"], e["event"]), e.get("matcher"))
        for e in HOOKS[host.events_key]
    ]
    post = {t for event, m in matchers if event == "PostToolUse" for t in m.split("|")}
    pre = {t for event, m in matchers if event == "PreToolUse" for t in m.split("|")}
    # Launches are settled on the spawn tool's PostToolUse where the launch has an id to
    # settle by (Copilot CLI sends none: its slots settle on SubagentStart, or expire): on
    # Codex (no PostToolBatch) and on Claude Code (a background launch names its agent there).
    # Where the host has a stop tool, its calls and Workflow launches settle slots too.
    followed = host.batch_event is None or host.stop_tool is not None
    settle = set(host.spawn_tools) if followed and host.call_id_field else set()
    tasks = {host.stop_tool, main.WORKFLOW_TOOL} if host.stop_tool else set()
    assert post == {*host.write_tools, *settle, *tasks}
    # Claude Code's sub-agents message the orchestrator with SendMessage (issue 35)
    messages = {main.MESSAGE_TOOL} if host.stop_tool else set()
    assert pre == {*host.spawn_tools, *host.read_tools, *({host.stop_tool} - {None}), *messages}
    assert all(m is None for event, m in matchers if not event.endswith("ToolUse"))


def test_timeout_leaves_room_for_the_lock():
    assert HOOKS["timeout_seconds"] >= 3 * LOCK_TIMEOUT


@pytest.mark.parametrize("tool", ["Agent", "Task"])
def test_both_agent_tool_names_are_checked(hook, tool):
    data = payload("PreToolUse_Agent") | {"tool_name": tool}
    assert "updatedInput" in hook(data, {"SPAWNKIT_MODE": "enforce"})["hookSpecificOutput"]


def test_the_help_names_every_registration():
    for entry in HOOKS["events"]:
        assert entry["event"] in main.USAGE
        for tool in (entry.get("matcher") or "").split("|"):
            assert tool in main.USAGE, tool
