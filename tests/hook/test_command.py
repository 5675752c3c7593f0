"""What the installer registers matches what the hook handles."""

from __future__ import annotations

import pytest

from spawnkit.hook import main
from spawnkit.hook.command import REGISTRATIONS, TIMEOUT_SECONDS
from spawnkit.hook.lint_on_write import WRITE_TOOLS
from spawnkit.hook.parallel_cap import AGENT_TOOLS
from spawnkit.hook.store import LOCK_TIMEOUT

from .conftest import payload


def test_every_registered_event_is_handled_and_nothing_else():
    assert {event for event, _ in REGISTRATIONS} == set(main._HANDLERS)


def test_matchers_name_exactly_the_tools_handled():
    matchers = {event: m for event, m in REGISTRATIONS if m}
    assert set(matchers["PostToolUse"].split("|")) == set(WRITE_TOOLS)
    pre = {tool for event, m in REGISTRATIONS if event == "PreToolUse" for tool in m.split("|")}
    assert pre == {*AGENT_TOOLS, "Read"}


def test_timeout_leaves_room_for_the_lock():
    assert TIMEOUT_SECONDS >= 3 * LOCK_TIMEOUT


@pytest.mark.parametrize("tool", ["Agent", "Task"])
def test_both_agent_tool_names_are_checked(hook, tool):
    data = payload("PreToolUse_Agent") | {"tool_name": tool}
    assert "updatedInput" in hook(data, {"SPAWNKIT_MODE": "enforce"})["hookSpecificOutput"]
