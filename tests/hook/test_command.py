"""The hook registrations in the standard's data match what the hook handles."""

from __future__ import annotations

import pytest

from spawnkit import hosts
from spawnkit.hook import main
from spawnkit.hook.store import LOCK_TIMEOUT
from spawnkit.standard import protocol

from .conftest import payload

HOOKS = protocol.load()["hooks"]


def _tools(matcher: str) -> set[str]:
    """The tool names a matcher lists ("^(write_file|replace)$": both)."""
    return set(matcher.strip("^$").strip("()").split("|"))


@pytest.mark.parametrize("host", hosts.all_hosts(), ids=str)
def test_every_registered_event_is_handled_and_nothing_else(host):
    events = {host.event_names.get(e["event"], e["event"]) for e in HOOKS[host.events_key]}
    handled = set(main._HANDLERS) - ({"PostToolBatch"} - {host.batch_event})
    if not host.notification_event:  # no task notification reaches a hook
        handled -= {"UserPromptSubmit"}
    if host.agent_events:
        # the end of a turn says what still runs where the host lists background tasks
        if not host.background_listing:
            handled -= {"Stop"}
    else:  # no start or stop event: launches settle on the spawn tool and at the turn's end
        handled -= {"SubagentStart", "SubagentStop"}
    assert events == handled


@pytest.mark.parametrize("host", hosts.all_hosts(), ids=str)
def test_matchers_name_exactly_the_tools_handled(host):
    matchers = [
        (host.event_names.get(e["event"], e["event"]), e.get("matcher"))
        for e in HOOKS[host.events_key]
    ]
    post = {t for event, m in matchers if event == "PostToolUse" for t in _tools(m)}
    pre = {t for event, m in matchers if event == "PreToolUse" for t in _tools(m)}
    # Every host settles a launch on the spawn tool's PostToolUse (by its tool call id, or
    # where the host names none by its fingerprint: Call.launch_key). Where the host has a
    # stop tool, its calls and Workflow launches settle slots too.
    tasks = {host.stop_tool, main.WORKFLOW_TOOL} if host.stop_tool else set()
    assert post == {*host.write_tools, *host.spawn_tools, *tasks}
    finish = {host.stop_tool, host.finish_tool} - {None}
    # Claude Code's sub-agents message the orchestrator with SendMessage (issue 35)
    messages = {main.MESSAGE_TOOL} if host.stop_tool else set()
    assert pre == {*host.spawn_tools, *host.read_tools, *finish, *messages}
    assert all(m is None for event, m in matchers if not event.endswith("ToolUse"))


@pytest.mark.parametrize("host", hosts.all_hosts(), ids=str)
def test_matchers_are_anchored_where_the_host_does_not_anchor_them(host):
    """Gemini CLI and Qwen Code test a matcher as an unanchored regular expression ("task"
    matches complete_task, "agent" list_agents): theirs are anchored."""
    if host.name in ("gemini", "qwen"):
        for entry in HOOKS[host.events_key]:
            matcher = entry.get("matcher")
            assert matcher is None or (matcher.startswith("^") and matcher.endswith("$"))


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
