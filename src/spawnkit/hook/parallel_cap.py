"""CM005 max-parallel: count the sub-agents in flight per session and hold the cap.

In flight = agents started and not yet stopped (``running``, by agent id) plus
launches approved by PreToolUse whose SubagentStart has not arrived yet
(``pending``, by tool_use_id; Copilot CLI names no tool call, so by hook process).
The pending slots matter because the PreToolUse calls of parallel Agent launches in
one message arrive before any of those agents start: without them every call of a
burst would see zero running agents.

* PreToolUse Agent: at the cap → warn (``additionalContext``) or deny; otherwise
  (and in warn mode) reserve a pending slot.
* SubagentStart: the agent is running; it takes over the oldest pending slot.
* SubagentStop that really stops (not one the return budget blocks): drop it.
* PostToolBatch (orchestrator, Claude Code): the batch is resolved, so its pending
  slots go (launched agents are in ``running`` by now, refused ones never will be);
  more Agent launches in one message than the cap → warn.
* PostToolUse of the spawn tool (Codex, which has no PostToolBatch): the launch is
  resolved. A v1 launch names its agent id, which runs from now on (Codex sends this
  before the SubagentStart); a launch that failed frees its slot; a v2 launch names
  only a task path, so its slot waits for the SubagentStart.

Entries expire (a crashed or interrupted agent must not hold a slot forever):
running ones after ``RUNNING_TTL``, pending ones after ``PENDING_TTL``.
"""

from __future__ import annotations

from spawnkit.standard import protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from spawnkit.hook.call import Answer, Call

CODE = "CM005"
RUNNING_TTL = 30 * 60.0
PENDING_TTL = 120.0


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    table = data.get(key)
    if not isinstance(table, dict):
        table = data[key] = {}
    return table


def prune(data: dict[str, Any], now: float) -> None:
    for key, ttl in (("running", RUNNING_TTL), ("pending", PENDING_TTL)):
        table = _table(data, key)
        for name in [n for n, t in table.items() if not _fresh(t, now, ttl)]:
            del table[name]


def _fresh(stamp: object, now: float, ttl: float) -> bool:
    return isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and now - stamp < ttl


def in_flight(data: dict[str, Any]) -> int:
    return len(_table(data, "running")) + len(_table(data, "pending"))


def before_launch(call: Call, answer: Answer, data: dict[str, Any]) -> None:
    """PreToolUse Agent: refuse or warn at the cap; otherwise reserve a slot."""
    mode = call.mode(CODE)
    if mode == "off":
        return
    prune(data, call.now)
    limit = protocol.max_parallel()
    running = in_flight(data)
    if running >= limit:
        if mode == "enforce":
            wait = f" (call {call.host.wait_tool})" if call.host.wait_tool else ""
            answer.deny(
                f"spawnkit max-parallel ({CODE}): {running} sub-agents are already running in "
                f"this session and the limit is {limit}. Do not launch another one now: wait "
                f"until a running sub-agent has returned{wait}, then launch this one again."
            )
            return
        answer.add_context(
            f"spawnkit max-parallel ({CODE}): this launch makes {running + 1} sub-agents run at "
            f"once; the protocol allows at most {limit}. Wait for running sub-agents to return "
            f"before launching more."
        )
    key = call.slot_key()
    _table(data, "pending")[key] = call.now


def started(call: Call, data: dict[str, Any]) -> None:
    """SubagentStart: the agent runs now; it takes over the oldest pending slot."""
    prune(data, call.now)
    running = _table(data, "running")
    agent = call.agent_id or f"anon-{call.now}"
    if agent in running:
        return
    running[agent] = call.now
    pending = _table(data, "pending")
    if pending:
        oldest = min(pending, key=lambda k: pending[k])
        del pending[oldest]


def stopped(call: Call, data: dict[str, Any]) -> None:
    """A SubagentStop that really ends the agent."""
    if call.agent_id:
        _table(data, "running").pop(call.agent_id, None)


def after_launch(call: Call, data: dict[str, Any]) -> None:
    """PostToolUse of one spawn call (hosts without PostToolBatch): settle its pending slot."""
    prune(data, call.now)
    key = call.call_id
    response = call.payload.get("tool_response")
    result: object = None
    if isinstance(response, str):
        from spawnkit.hook import fastjson

        try:
            result = fastjson.loads(response)
        except fastjson.JSONError:
            result = None
    elif isinstance(response, dict):
        result = response
    agent = result.get("agent_id") if isinstance(result, dict) else None
    task = result.get("task_name") if isinstance(result, dict) else None
    if isinstance(agent, str) and agent:
        _table(data, "pending").pop(key, None)
        _table(data, "running").setdefault(agent, call.now)
    elif not (isinstance(task, str) and task):
        _table(data, "pending").pop(key, None)  # refused or failed: it never starts


def after_batch(call: Call, answer: Answer, data: dict[str, Any]) -> None:
    """PostToolBatch of the orchestrator: settle pending slots; warn on an oversized batch."""
    calls = call.payload.get("tool_calls")
    if not isinstance(calls, list):
        return
    pending = _table(data, "pending")
    launched = 0
    for item in calls:
        if not isinstance(item, dict) or item.get("tool_name") not in call.host.spawn_tools:
            continue
        tool_use_id = item.get("tool_use_id")
        if isinstance(tool_use_id, str):
            pending.pop(tool_use_id, None)
        # A refused or failed call answers with an error string; a launch with content.
        if not isinstance(item.get("tool_response"), str):
            launched += 1
    limit = protocol.max_parallel()
    if launched > limit and call.mode(CODE) != "off":
        answer.add_context(
            f"spawnkit max-parallel ({CODE}): you launched {launched} sub-agents in one message; "
            f"the protocol allows at most {limit} at a time. Launch at most {limit} per message "
            f"and wait for them to return before starting more."
        )
