"""CM005 max-parallel: count the sub-agents in flight per session and hold the cap.

In flight = agents running (``running``, by agent id) plus launches approved by
PreToolUse that no client signal has confirmed yet (``pending``, by tool_use_id;
Copilot CLI names no tool call, so by hook process):
the PreToolUse calls of parallel Agent launches in one message arrive before any of
those agents start, so without them every call of a burst would see zero running.

The table follows every signal the client gives, so a slot is freed however an agent
ends (Claude Code 2.1.330 as observed; Codex sends the first four):

* PreToolUse spawn: at the cap → warn (``additionalContext``) or deny, naming the
  agents counted; otherwise (and in warn mode) reserve a pending slot.
* SubagentStart: the agent runs; it takes over the oldest pending slot (of its type
  when a workflow runs: a workflow's agents start without any Agent call, and do not
  count — they run under the workflow's own cap).
* SubagentStop that really stops (not one the return budget blocks): drop it. A stop
  of an id never announced (Claude Code may send a fresh id with an empty type) only
  marks the id as ended.
* PostToolUse of the spawn tool: a background launch names its agent id (running from
  now on, also when its SubagentStart never comes); a foreground one that completed,
  or a launch that failed, frees its slot. Codex v1 names the agent id, v2 only a task
  path (its slot then waits for the SubagentStart).
* PostToolBatch (orchestrator): the batch is resolved, so its pending slots go; more
  launches in one message than the cap → warn.
* ``TaskStop`` (PreToolUse and PostToolUse): a stopped agent fires no SubagentStop;
  its slot goes as soon as it is asked to stop (also when the stop fails because the
  agent had already ended: that is how the model clears a stale slot).
* A ``<task-notification>`` whose status ends the task (UserPromptSubmit).
* ``background_tasks`` on Stop and SubagentStop: the session's background tasks still
  running. A listed agent counts (and is confirmed); a background agent no longer
  listed has ended. At Stop the orchestrator's turn is over, so none of its foreground
  agents or launches is left either.

Recently ended ids are remembered for ``GONE_KEEP`` seconds, so a signal that arrives
late (hook processes run in parallel) cannot bring an ended agent back. Entries
expire: a launch no signal confirmed after ``PENDING_GRACE``, a running agent no
signal confirmed for ``RUNNING_TTL``.
"""

from __future__ import annotations

from spawnkit.hook.call import running_of_type, spawn_type
from spawnkit.standard import protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from spawnkit.hook.call import Answer, Call
    from spawnkit.hook.tasks import Notification

CODE = "CM005"
RUNNING_TTL = 30 * 60.0
PENDING_GRACE = 60.0
GONE_KEEP = 30.0
# A listing made this long before a slot was taken may not know it yet (hooks run in parallel).
LISTING_SLACK = 2.0
_KEEP_GONE = 256


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    table = data.get(key)
    if not isinstance(table, dict):
        table = data[key] = {}
    return table


def _entry(value: object) -> dict[str, Any] | None:
    """An entry as a dict (earlier versions stored a bare time stamp); None when unusable."""
    if isinstance(value, dict):
        stamp = value.get("t")
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
            return value
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"t": value, "seen": value}
    return None


def _stamp(entry: dict[str, Any], key: str = "seen") -> float:
    value = entry.get(key, entry["t"])
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else entry["t"]


def prune(data: dict[str, Any], now: float) -> None:
    """Normalise every entry; drop expired ones."""
    for key, ttl in (("running", RUNNING_TTL), ("pending", PENDING_GRACE)):
        table = _table(data, key)
        for name in list(table):
            entry = _entry(table[name])
            if entry is None or now - _stamp(entry) >= ttl:
                del table[name]
            else:
                table[name] = entry
    gone = _table(data, "gone")
    for name in [n for n, t in gone.items() if not _fresh(t, now, GONE_KEEP)]:
        del gone[name]
    workflows = _table(data, "workflows")
    for name in [n for n, t in workflows.items() if not _fresh(t, now, RUNNING_TTL)]:
        del workflows[name]


def _fresh(stamp: object, now: float, ttl: float) -> bool:
    return isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and now - stamp < ttl


def running_entries(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The running entries (after ``prune``), for counts kept per launch."""
    return [e for e in _table(data, "running").values() if isinstance(e, dict)]


def in_flight(data: dict[str, Any]) -> int:
    return len(_table(data, "running")) + len(_table(data, "pending"))


def _end(data: dict[str, Any], now: float, *ids: str) -> None:
    """These agent ids / tool_use_ids have ended: free their slots, remember them."""
    running, pending, gone = _table(data, "running"), _table(data, "pending"), _table(data, "gone")
    for name in ids:
        if name:
            running.pop(name, None)
            pending.pop(name, None)
            gone[name] = now
    if len(gone) > _KEEP_GONE:
        for name in sorted(gone, key=lambda n: gone[n])[: len(gone) - _KEEP_GONE]:
            del gone[name]


def _gone(data: dict[str, Any], name: str, now: float) -> bool:
    return _fresh(_table(data, "gone").get(name), now, GONE_KEEP)


# --- launching ----------------------------------------------------------------------------------


def tracking(call: Call) -> bool:
    """Whether the table of launches is kept: for the cap, and on a host whose sub-agents end
    unseen by the payload (Gemini CLI: ``Host.finish_tool``) for the return budget's retry
    count too, which is kept per launch."""
    if call.mode(CODE) != "off":
        return True
    return bool(call.host.finish_tool) and call.mode("CM001") == "enforce"


def before_launch(call: Call, answer: Answer, data: dict[str, Any]) -> None:
    """PreToolUse spawn: refuse or warn at the cap; otherwise reserve a slot."""
    mode = call.mode(CODE)
    if mode == "off" and not tracking(call):
        return
    prune(data, call.now)
    if call.call_id and (
        call.call_id in _table(data, "pending") or call.call_id in _table(data, "running")
    ):
        return  # the same launch again (spawnkit's hook registered twice): judged already
    if mode == "off":
        _reserve(call, data)
        return
    limit = protocol.max_parallel()
    running = in_flight(data)
    if running >= limit:
        counted = describe(data, call.now)
        if mode == "enforce":
            answer.deny(
                f"spawnkit max-parallel ({CODE}): {running} sub-agents are already running in "
                f"this session and the limit is {limit}: {counted}. Do not launch another one "
                f"now: wait until one of them has returned{_how_to_wait(call)}, then launch "
                f"this one again.{_how_to_clear(call)}"
            )
            return
        answer.add_context(
            f"spawnkit max-parallel ({CODE}): this launch makes {running + 1} sub-agents run at "
            f"once ({counted}, and this one); the protocol allows at most {limit}. Wait for "
            f"running sub-agents to return before launching more."
        )
    _reserve(call, data)


def _reserve(call: Call, data: dict[str, Any]) -> None:
    """Take a slot for this launch, keyed by ``Call.launch_key``; two launches with one
    fingerprint get ``#2``, ``#3``… (the PostToolUse settles the oldest). On a host with no
    start event (Gemini CLI) the launch runs from now on: nothing else will confirm it."""
    tool_input = call.tool_input()
    base = call.launch_key()
    key, n = base, 1
    pending, running = _table(data, "pending"), _table(data, "running")
    while key in pending or key in running:  # fingerprints only: a seen call id returned early
        n += 1
        key = f"{base}#{n}"
    background = tool_input.get("run_in_background")
    entry = {
        "t": call.now,
        "d": call.host.spawn_label(tool_input)[:80],
        "type": spawn_type(call),
        "bg": background if isinstance(background, bool) else None,
        "sub": call.agent_id or "",
        "fp": base,
    }
    if call.host.agent_events:
        pending[key] = entry
    else:
        running[key] = {**entry, "seen": call.now, "bg": False, "tu": key}


def _how_to_wait(call: Call) -> str:
    if call.host.wait_tool:
        return f" (call {call.host.wait_tool})"
    if call.host.stop_tool:
        return " (a background agent's result arrives as a task notification)"
    return ""


def _how_to_clear(call: Call) -> str:
    path = call.state_file
    model = (
        f" If one of them is no longer running, call {call.host.stop_tool} with its id: that "
        f"frees its slot even when the agent has already ended."
        if call.host.stop_tool
        else ""
    )
    return (
        f"{model} A launch no signal confirms stops counting after {PENDING_GRACE:.0f} s; the "
        f"user can reset the count by deleting {path}."
    )


def describe(data: dict[str, Any], now: float, limit: int = 6) -> str:
    """The agents counted, oldest first: ``"audit" (background agent, running for 2 min, id
    a1b2)``, ``"scan" (launched 3 s ago, not yet confirmed)``."""
    items = []
    for name, entry in _table(data, "running").items():
        kind = {True: "background agent, ", False: "foreground agent, "}.get(entry.get("bg"), "")
        label = entry.get("d") or entry.get("type") or "sub-agent"
        age = _age(now - entry["t"])
        items.append((entry["t"], f'"{label}" ({kind}running for {age}, id {name})'))
    for entry in _table(data, "pending").values():
        label = entry.get("d") or entry.get("type") or "sub-agent"
        items.append(
            (entry["t"], f'"{label}" (launched {_age(now - entry["t"])} ago, not yet confirmed)')
        )
    items.sort(key=lambda item: item[0])
    shown = [text for _, text in items[:limit]]
    if len(items) > limit:
        shown.append(f"{len(items) - limit} more")
    return ", ".join(shown)


def _age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def started(call: Call, data: dict[str, Any]) -> None:
    """SubagentStart: the agent runs now; it takes over a pending slot."""
    prune(data, call.now)
    agent = call.agent_id
    agent_type = call.text(call.host.agent_type_field)
    if not agent or call.is_workflow_agent or _gone(data, agent, call.now):
        return
    running = _table(data, "running")
    if agent in running:
        running[agent]["seen"] = call.now
        return
    pending = _table(data, "pending")
    workflow_running = bool(_table(data, "workflows"))
    same = [k for k, e in pending.items() if str(e.get("type", "")).lower() == agent_type.lower()]
    candidates = same if same or workflow_running else list(pending)
    if not candidates and workflow_running:
        return  # no Agent call is waiting for it: one of the workflow's own agents
    entry: dict[str, Any] = {"t": call.now, "seen": call.now, "type": agent_type, "bg": None}
    if candidates:
        key = min(candidates, key=lambda k: pending[k]["t"])
        claimed = pending.pop(key)
        entry.update(
            d=claimed.get("d", ""),
            bg=claimed.get("bg"),
            tu=key,
            sub=claimed.get("sub"),
            fp=claimed.get("fp", key),
        )
    running[agent] = entry


def stopped(call: Call, data: dict[str, Any]) -> None:
    """A SubagentStop that really ends the agent (or of an id never announced)."""
    if call.agent_id:
        _end(data, call.now, call.agent_id)


def workflow_agent_stopped(call: Call, data: dict[str, Any]) -> None:
    """A workflow agent's stop: not a finished step (no checkpoint count), but its listing of
    the background tasks is as good as any, and should the cap have counted the agent (its
    start looked like an Agent launch's) its slot goes."""
    listed = call.background_tasks()
    if listed is not None:
        reconcile(call, data, listed, turn_ended=False)
    stopped(call, data)


def after_launch(call: Call, data: dict[str, Any]) -> None:
    """PostToolUse of one spawn call: settle its slot.

    The slot is found by ``Call.launch_key``: the tool call's id, or, where the host names
    none, the oldest slot of the launch's fingerprint (pending, or held by the agent that
    took it over at its start). One rule for every host, so a launch that has returned is
    never counted as running: a foreground launch that finished (Copilot CLI's sync
    ``task``, every Gemini CLI ``invoke_agent``) or failed frees its slot here whether or
    not a stop event came; a background one names the agent that runs on.
    """
    prune(data, call.now)
    agent, state = launch_outcome(call)
    pending, running = _table(data, "pending"), _table(data, "running")
    key = call.call_id or _oldest_of(data, call.launch_key())
    holders = [name for name, e in running.items() if key and e.get("tu") == key]
    if state in ("finished", "failed"):
        _end(data, call.now, agent, key, *holders)
        return
    result = _response(call)
    task = result.get("task_name")
    if not agent:
        if state is None and not (isinstance(task, str) and task):
            pending.pop(key, None)  # refused or failed: it never starts
        return  # Codex v2: the slot waits for its SubagentStart
    claimed = pending.pop(key, None) or {}
    if _gone(data, agent, call.now):
        return  # it ended before its launch record was read
    for name in holders:  # the agent took the slot over under another name: one entry
        if name != agent:
            claimed = {**running.pop(name), **claimed}
    entry = running.get(agent) or {
        "t": claimed.get("t", call.now),
        "type": claimed.get("type") or spawn_type(call),
    }
    entry.update(
        seen=call.now,
        d=call.host.spawn_label(call.tool_input())[:80] or entry.get("d", ""),
        bg=True if state == "background" else entry.get("bg"),
        tu=key,
        sub=call.agent_id or "",
        fp=claimed.get("fp", entry.get("fp", key)),
    )
    running[agent] = entry


def _oldest_of(data: dict[str, Any], base: str) -> str:
    """The key of the oldest slot taken by a launch of fingerprint ``base`` ("" when none)."""
    found = [
        (entry.get("t", 0), name)
        for table in ("pending", "running")
        for name, entry in _table(data, table).items()
        if isinstance(entry, dict) and entry.get("fp") == base
    ]
    if not found:
        return ""
    held = min(found)[1]
    entry = _table(data, "running").get(held)
    return entry.get("tu", held) if entry is not None else held


# Where a background launch's result names its agent: Copilot CLI ("agent_id: …"), Qwen Code
# ("task_id: …").
_AGENT_NAMED = ("agent_id: ", "task_id: ")


def launch_outcome(call: Call) -> tuple[str, str | None]:
    """What a spawn call's PostToolUse says: the agent it names ("" when none) and whether the
    launch ``finished`` (a foreground agent answered), ``failed``, runs in the ``background``,
    or None when the result does not say (Codex: the agent runs until waited for).

    Claude Code: ``status`` completed / async_launched / anything else, ``agentId``; Codex v1:
    ``agent_id`` only; Qwen Code: ``returnDisplay.status`` completed / background, the agent in
    the text (``task_id: …``); Copilot CLI: ``resultType`` and, for a background ``mode``, the
    agent in the text; Gemini CLI runs every sub-agent in the foreground: always finished.
    """
    result = _response(call)
    agent = result.get("agentId") or result.get("agent_id")
    agent = agent if isinstance(agent, str) else ""
    if not call.host.agent_events:
        return agent, "finished"
    status = result.get("status")
    display = result.get("returnDisplay")
    if status is None and isinstance(display, dict):
        status = display.get("status")
    tool_input = call.tool_input()
    background = tool_input.get("run_in_background") is True or tool_input.get("mode") == (
        "background"
    )
    if (status in ("async_launched", "background") or background) and not agent:
        agent = _named_agent(_result_text(result))
    if status == "completed":
        return agent, "finished"
    if status in ("async_launched", "background"):
        return agent, "background"
    if status is not None:
        return agent, "failed"
    kind = result.get("resultType")  # Copilot CLI
    if kind is not None:
        if kind != "success":
            return agent, "failed"
        return agent, "background" if background and agent else "finished"
    return agent, None


def _result_text(result: dict[str, Any]) -> str:
    for key in ("textResultForLlm", "llmContent"):
        value = result.get(key)
        if isinstance(value, list) and value and isinstance(value[0], dict):
            value = value[0].get("text")
        if isinstance(value, str):
            return value[:4096]
    return ""


def _named_agent(text: str) -> str:
    for mark in _AGENT_NAMED:
        at = text.find(mark)
        if at != -1:
            rest = text[at + len(mark) :].split(None, 1)
            name = rest[0].rstrip(".,;)") if rest else ""
            if name and len(name) <= 128:
                return name
    return ""


def _response(call: Call) -> dict[str, Any]:
    response = call.payload.get("tool_response")
    if response is None:
        response = call.payload.get("toolResult")  # Copilot CLI
    if isinstance(response, str):
        from spawnkit.base import fastjson

        try:
            response = fastjson.loads(response)
        except fastjson.JSONError:
            response = None
    return response if isinstance(response, dict) else {}


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


# --- the client's other signals -----------------------------------------------------------------


def task_stopped(call: Call, data: dict[str, Any]) -> None:
    """PreToolUse or PostToolUse of the stop tool: the task it names is (being) stopped."""
    prune(data, call.now)
    tool_input = call.tool_input()
    named = [tool_input.get("task_id"), tool_input.get("shell_id"), _response(call).get("task_id")]
    for name in named:
        if isinstance(name, str) and name:
            _end(data, call.now, name)
            _table(data, "workflows").pop(name, None)


def workflow_launched(call: Call, data: dict[str, Any]) -> None:
    """PostToolUse Workflow: a workflow runs; agents that start now without an Agent call are its."""
    task = _response(call).get("taskId")
    if isinstance(task, str) and task and not _gone(data, task, call.now):
        _table(data, "workflows")[task] = call.now


def notified(call: Call, data: dict[str, Any], notes: list[Notification]) -> dict[str, str]:
    """Task notifications: each ended task frees its slot. Returns the agent type of each
    notified agent the table knew (task id → type), for the return budget's scope."""
    prune(data, call.now)
    running = _table(data, "running")
    types = {}
    for note in notes:
        entry = running.get(note.task_id)
        if entry is not None and isinstance(entry.get("type"), str):
            types[note.task_id] = entry["type"]
        if note.ended:
            _end(data, call.now, note.task_id, note.tool_use_id)
            _table(data, "workflows").pop(note.task_id, None)
    return types


def reconcile(call: Call, data: dict[str, Any], listed: list[dict[str, Any]], turn_ended: bool):
    """``background_tasks`` of a Stop (``turn_ended``) or SubagentStop: what still runs."""
    prune(data, call.now)
    running, pending = _table(data, "running"), _table(data, "pending")
    agents = running_of_type(listed, "subagent")
    for name, task in agents.items():
        if _gone(data, name, call.now):
            continue
        entry = running.get(name)
        if entry is None:  # its start never came (or came before spawnkit was installed)
            label = str(task.get("description") or "")[:80]
            entry = running[name] = {"t": call.now, "d": label, "tu": ""}
            entry["type"] = str(task.get("agent_type") or "")
            # its launch's pending slot: the oldest background launch of that description
            same = [
                k for k, e in pending.items() if e.get("d") == label and e.get("bg") is not False
            ]
            if same:
                key = min(same, key=lambda k: pending[k]["t"])
                entry.update(t=pending.pop(key)["t"], tu=key)
        entry.update(seen=call.now, bg=True)
    settled = call.now - LISTING_SLACK
    for name, entry in list(running.items()):
        if name in agents or entry["t"] > settled:
            continue
        if entry.get("bg") is True or (turn_ended and not entry.get("sub")):
            _end(data, call.now, name)
    if turn_ended:
        for key in [k for k, e in pending.items() if not e.get("sub") and e["t"] <= settled]:
            del pending[key]
    workflows = _table(data, "workflows")
    listed_workflows = running_of_type(listed, "workflow")
    for name in [n for n in workflows if n not in listed_workflows and workflows[n] <= settled]:
        del workflows[name]
    for name in listed_workflows:
        if not _gone(data, name, call.now):
            workflows[name] = call.now
