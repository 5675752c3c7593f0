"""The hook registrations in the standard's data match what the hook handles."""

from __future__ import annotations

import pytest

from spawnkit import protocol
from spawnkit.hook import main
from spawnkit.hook.lint_on_write import WRITE_TOOLS
from spawnkit.hook.parallel_cap import AGENT_TOOLS
from spawnkit.hook.store import LOCK_TIMEOUT

from .conftest import payload

HOOKS = protocol.load()["hooks"]


def test_every_registered_event_is_handled_and_nothing_else():
    assert {e["event"] for e in HOOKS["events"]} == set(main._HANDLERS)


def test_matchers_name_exactly_the_tools_handled():
    matchers = [(e["event"], e.get("matcher")) for e in HOOKS["events"]]
    post = {t for event, m in matchers if event == "PostToolUse" for t in m.split("|")}
    pre = {t for event, m in matchers if event == "PreToolUse" for t in m.split("|")}
    assert (post, pre) == (set(WRITE_TOOLS), {*AGENT_TOOLS, "Read"})
    assert all(m is None for event, m in matchers if not event.endswith("ToolUse"))


def test_timeout_leaves_room_for_the_lock():
    assert HOOKS["timeout_seconds"] >= 3 * LOCK_TIMEOUT


@pytest.mark.parametrize("tool", ["Agent", "Task"])
def test_both_agent_tool_names_are_checked(hook, tool):
    data = payload("PreToolUse_Agent") | {"tool_name": tool}
    assert "updatedInput" in hook(data, {"SPAWNKIT_MODE": "enforce"})["hookSpecificOutput"]
