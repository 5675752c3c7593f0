"""CM005 slots that match reality: every signal Claude Code 2.1.330 gives about its tasks.

Each test feeds the hook the real client's payloads (tests/fixtures/payloads) in the order,
or out of the order, the client sends them, and checks the in-flight table and the next
launch's verdict under a cap of 2.
"""

from __future__ import annotations

import json
import time

import pytest

from spawnkit.hook import parallel_cap, tasks
from spawnkit.standard import protocol

from .conftest import payload, session_file

SESSION = "s-main"
CAP = protocol.max_parallel()
ENV = {"SPAWNKIT_MODE_CM001": "off", "SPAWNKIT_MODE_CM005": "enforce"}


def ours(name: str, session: str = SESSION, **fields) -> dict:
    """A real payload moved into this test's session."""
    return payload(name) | {"session_id": session} | fields


def launch(
    n: int, description: str = "probe sub", background: bool = True, kind: str = "", **kw
) -> dict:
    data = ours("PreToolUse_Agent", **kw)
    data["tool_use_id"] = f"toolu_{n}"
    data["tool_input"] = dict(
        data["tool_input"], description=description, run_in_background=background
    )
    if kind:
        data["tool_input"]["subagent_type"] = kind
    return data


def launched(n: int, agent: str, description: str = "probe sub", **kw) -> dict:
    """PostToolUse of a background launch: the client names the agent id."""
    data = ours("PostToolUse_Agent_background_default", **kw)
    data["tool_use_id"] = f"toolu_{n}"
    data["tool_input"] = dict(data["tool_input"], description=description)
    data["tool_response"] = dict(data["tool_response"], agentId=agent, description=description)
    return data


def completed(n: int, agent: str) -> dict:
    """PostToolUse of a foreground launch: the agent has finished."""
    data = ours("PostToolUse_Agent_foreground")
    data["tool_use_id"] = f"toolu_{n}"
    data["tool_response"] = dict(data["tool_response"], agentId=agent)
    return data


def start(agent: str, agent_type: str = "general-purpose", **kw) -> dict:
    return ours("SubagentStart", agent_id=agent, agent_type=agent_type, **kw)


def stop(agent: str, agent_type: str = "general-purpose", listed=None, **kw) -> dict:
    data = ours("SubagentStop_foreground", agent_id=agent, agent_type=agent_type, **kw)
    data["last_assistant_message"] = "AGENT: x\nSTATUS: COMPLETE"
    if listed is not None:
        data["background_tasks"] = listed
    return data


def listing(*agents: str, workflows: tuple[str, ...] = ()) -> list[dict]:
    out = [
        {"id": a, "type": "subagent", "status": "running", "description": f"d-{a}"}
        | {"agent_type": "general-purpose"}
        for a in agents
    ]
    out += [
        {"id": w, "type": "workflow", "status": "running", "description": "wf"} for w in workflows
    ]
    return out


def turn_end(*agents: str, **kw) -> dict:
    return ours("Stop", background_tasks=listing(*agents), **kw)


def notification(task: str, status: str = "completed", tool_use: str = "toolu_x", result="ok"):
    body = f"<task-id>{task}</task-id>\n<tool-use-id>{tool_use}</tool-use-id>\n"
    body += f'<status>{status}</status>\n<summary>Agent "probe sub" finished</summary>\n'
    if result is not None:
        body += f"<result>{result}</result>\n"
    return f"<task-notification>\n{body}</task-notification>"


def notify(*prompts: str, session: str = SESSION) -> dict:
    return ours("UserPromptSubmit_task_notification", session, prompt="\n".join(prompts))


def stop_task(task_id: str) -> dict:
    return ours("PreToolUse_TaskStop", tool_input={"task_id": task_id})


def stopped_task(task_id: str, named: str | None = None) -> dict:
    data = ours("PostToolUse_TaskStop", tool_input={"task_id": named or task_id})
    data["tool_response"] = dict(data["tool_response"], task_id=task_id)
    return data


def running(hook, session: str = SESSION) -> list[str]:
    return sorted(session_file(hook, session).get("running", {}))


def pending(hook, session: str = SESSION) -> list[str]:
    return sorted(session_file(hook, session).get("pending", {}))


def denied(answer) -> bool:
    return bool(answer) and answer["hookSpecificOutput"].get("permissionDecision") == "deny"


def two_background_agents(hook) -> None:
    """Two background launches, as the client reports them: Pre, Start, Post (ids a1, a2)."""
    for n, agent in ((1, "a1"), (2, "a2")):
        assert hook(launch(n, f"long {n}"), ENV) is None
        hook(start(agent), ENV)
        hook(launched(n, agent, f"long {n}"), ENV)
    assert running(hook) == ["a1", "a2"] and pending(hook) == []
    assert denied(hook(launch(3), ENV))


# --- TaskStop ---------------------------------------------------------------------------------


def test_taskstop_frees_the_slots_of_stopped_agents(hook):
    two_background_agents(hook)
    assert hook(stop_task("a1"), ENV) is None  # PreToolUse: the stop is asked for
    assert running(hook) == ["a2"]
    assert hook(stopped_task("a2"), ENV) is None  # PostToolUse names the stopped task
    assert running(hook) == []
    assert hook(launch(3), ENV) is None


def test_taskstop_by_name_is_settled_by_the_id_the_client_reports(hook):
    two_background_agents(hook)
    hook(stop_task("long 1"), ENV)  # a name: not an id the table knows
    assert running(hook) == ["a1", "a2"]
    hook(stopped_task("a1", named="long 1"), ENV)
    assert running(hook) == ["a2"]


def test_real_taskstop_payloads(hook):
    agent = payload("PreToolUse_TaskStop")["tool_input"]["task_id"]
    hook(start(agent), ENV)
    hook(ours("PreToolUse_TaskStop"), ENV)
    assert running(hook) == []
    hook(start("other"), ENV)
    other = ours("PostToolUse_TaskStop")
    other["tool_response"] = dict(other["tool_response"], task_id="other")
    hook(other, ENV)
    assert running(hook) == []


def test_taskstop_with_the_cap_off_writes_nothing(hook):
    assert hook(stop_task("a1"), {"SPAWNKIT_MODE": "off"}) is None
    assert not hook.state_dir.exists()


# --- task notifications -------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["completed", "killed", "failed"])
def test_a_notification_that_ends_a_task_frees_its_slot(hook, status):
    two_background_agents(hook)
    assert hook(notify(notification("a1", status, "toolu_1")), ENV) is None
    assert running(hook) == ["a2"]
    assert hook(launch(3), ENV) is None


def test_a_notification_that_does_not_end_the_task_keeps_it(hook):
    two_background_agents(hook)
    hook(notify(notification("a1", "blocked")), ENV)
    assert running(hook) == ["a1", "a2"]


def test_one_prompt_can_carry_several_notifications(hook):
    two_background_agents(hook)
    hook(notify(notification("a1", "killed"), notification("a2", "completed")), ENV)
    assert running(hook) == []


def test_a_notification_for_an_unknown_id_changes_nothing(hook):
    two_background_agents(hook)
    assert hook(notify(notification("never-seen", "completed", "toolu_never")), ENV) is None
    assert running(hook) == ["a1", "a2"]
    assert denied(hook(launch(3), ENV))


def test_real_notification_payloads_free_their_agents(hook):
    for name in ("UserPromptSubmit_task_notification", "UserPromptSubmit_task_notification_killed"):
        note = tasks.notifications(payload(name)["prompt"])[0]
        hook(start(note.task_id), ENV)
        hook(ours(name), ENV)
        assert running(hook) == [], name


def test_a_persons_prompt_is_left_alone(hook):
    two_background_agents(hook)
    before = session_file(hook, SESSION)
    assert hook(ours("UserPromptSubmit", prompt="stop <task-id>a1</task-id> please"), ENV) is None
    assert session_file(hook, SESSION) == before


# --- background_tasks on Stop and SubagentStop --------------------------------------------------


def test_stop_drops_what_the_client_no_longer_lists(hook):
    two_background_agents(hook)
    hook.now += 10
    hook(turn_end("a2"), ENV)
    assert running(hook) == ["a2"]
    hook(turn_end(), ENV)
    assert running(hook) == []


def test_real_stop_payloads(hook):
    data = ours("Stop_with_running_background_agent")
    (listed,) = data["background_tasks"]
    hook(start("stale"), ENV)
    hook.now += 10
    hook(data, ENV)
    state = session_file(hook, SESSION)
    assert list(state["running"]) == [listed["id"]]
    assert state["running"][listed["id"]]["d"] == listed["description"]
    hook.now += 10
    hook(ours("Stop"), ENV)  # background_tasks: []
    assert running(hook) == []


def test_a_stop_without_a_listing_changes_nothing(hook):
    two_background_agents(hook)
    data = ours("Stop")
    del data["background_tasks"]  # an older client
    hook.now += 10
    hook(data, ENV)
    assert running(hook) == ["a1", "a2"]


def test_a_background_agent_without_a_start_is_counted_from_the_listing(hook):
    """#44075: no SubagentStart for a background agent; the client still lists it."""
    assert hook(launch(1, "quiet one"), ENV) is None
    hook.now += 5
    hook(ours("Stop", background_tasks=[listing("q1")[0] | {"description": "quiet one"}]), ENV)
    # the listed agent takes over its launch's slot: one agent, counted once, by its name
    assert running(hook) == ["q1"] and pending(hook) == []
    assert session_file(hook, SESSION)["running"]["q1"]["d"] == "quiet one"
    # an agent no hook of this session ever saw launch (installed mid-session) counts too
    hook(ours("Stop", background_tasks=listing("q1", "q2")), ENV)
    assert running(hook) == ["q1", "q2"]
    assert denied(hook(launch(2), ENV))


def test_a_background_agent_without_a_start_is_counted_from_its_launch(hook):
    hook(launch(1, "quiet one"), ENV)
    hook(launched(1, "q1", "quiet one"), ENV)  # PostToolUse names it; no SubagentStart ever
    hook(launch(2, "quiet two"), ENV)
    hook(launched(2, "q2", "quiet two"), ENV)
    assert running(hook) == ["q1", "q2"] and pending(hook) == []
    answer = hook(launch(3), ENV)
    reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert '"quiet one" (background agent, running for 0 s, id q1)' in reason
    assert '"quiet two" (background agent, running for 0 s, id q2)' in reason
    hook(notify(notification("q1", "completed", "toolu_1")), ENV)
    assert hook(launch(3), ENV) is None


def test_the_listing_on_subagentstop_drops_background_agents_that_ended(hook):
    two_background_agents(hook)
    hook.now += 10
    # a2 stops; the session's list has a2 only (a1 was killed and fired nothing)
    hook(stop("a2", listed=listing("a2")), ENV)
    assert running(hook) == []


def test_the_listing_on_subagentstop_keeps_foreground_agents(hook):
    hook(launch(1, "fg", background=False), ENV)
    hook(start("f1"), ENV)
    hook(launch(2), ENV)
    hook(start("b2"), ENV)
    hook(launched(2, "b2"), ENV)
    hook.now += 10
    hook(stop("b2", listed=listing("b2")), ENV)  # foreground agents are never listed
    assert running(hook) == ["f1"]


def test_real_subagentstop_listing(hook):
    data = ours("SubagentStop_background_two_running")
    ids = [t["id"] for t in data["background_tasks"]]
    hook(start("gone-agent"), ENV)
    hook(launched(9, "gone-agent"), ENV)
    hook.now += 10
    hook(data, ENV)
    # the stopping agent ends, the other listed one runs, the unlisted one is gone
    assert running(hook) == [i for i in ids if i != data["agent_id"]]


def test_a_slot_taken_after_the_listing_was_made_is_kept(hook):
    """Hook processes run in parallel: a listing may be read after a newer launch."""
    hook(launch(1), ENV)
    hook(launched(1, "new"), ENV)
    hook.now += parallel_cap.LISTING_SLACK - 0.5
    hook(turn_end(), ENV)
    assert running(hook) == ["new"]
    hook.now += 1
    hook(turn_end(), ENV)
    assert running(hook) == []


def test_the_turn_end_settles_pending_launches(hook):
    hook(launch(1), ENV)
    hook(launch(2), ENV)
    hook.now += 5
    hook(turn_end(), ENV)
    assert pending(hook) == []


# --- foreground agents, orphans, order ----------------------------------------------------------


def test_a_completed_foreground_agent_frees_its_slot(hook):
    hook(launch(1, background=False), ENV)
    hook(start("f1"), ENV)
    hook(launch(2, background=False), ENV)
    hook(start("f2"), ENV)
    assert denied(hook(launch(3), ENV))
    hook(completed(1, "f1"), ENV)  # its SubagentStop was blocked the last time, say
    assert running(hook) == ["f2"]
    assert hook(launch(3), ENV) is None


def test_an_orphan_stop_frees_nothing_and_breaks_nothing(hook):
    """#89555: a SubagentStop with a fresh agent_id and an empty agent_type."""
    two_background_agents(hook)
    assert hook(stop("fresh-id", agent_type=""), ENV) is None
    assert running(hook) == ["a1", "a2"]
    # its id is remembered as ended: a late start for it does not take a slot
    hook(start("fresh-id"), ENV)
    assert running(hook) == ["a1", "a2"]


def test_a_stop_that_arrives_before_its_start(hook):
    hook(launch(1), ENV)
    hook(stop("quick"), ENV)
    hook(start("quick"), ENV)  # read after the stop: the agent has ended
    assert running(hook) == []
    assert pending(hook) == ["toolu_1"]  # still unconfirmed: held only for the grace
    hook.now += parallel_cap.PENDING_GRACE
    assert hook(launch(2), ENV) is None and pending(hook) == ["toolu_2"]


def test_a_notification_that_arrives_before_the_launch_record(hook):
    hook(launch(1), ENV)
    hook(notify(notification("a1", "completed", "toolu_1")), ENV)
    hook(launched(1, "a1"), ENV)
    assert running(hook) == [] and pending(hook) == []


def test_a_start_after_the_end_is_a_resumed_agent_once_some_time_has_passed(hook):
    hook(start("a1"), ENV)
    hook(notify(notification("a1", "completed")), ENV)
    hook.now += parallel_cap.GONE_KEEP
    hook(start("a1"), ENV)  # SendMessage resumed it
    assert running(hook) == ["a1"]


def test_starts_in_another_order_than_launches_get_the_right_names(hook):
    """The client started the second launch's agent first (seen in 2.1.330)."""
    hook(launch(1, "first"), ENV)
    hook(launch(2, "second"), ENV)
    hook(start("agent-of-2"), ENV)
    hook(start("agent-of-1"), ENV)
    hook(launched(1, "agent-of-1", "first"), ENV)
    hook(launched(2, "agent-of-2", "second"), ENV)
    table = session_file(hook, SESSION)["running"]
    assert {a: e["d"] for a, e in table.items()} == {"agent-of-1": "first", "agent-of-2": "second"}
    assert pending(hook) == []


def test_a_launch_record_before_the_start_counts_once(hook):
    hook(launch(1), ENV)
    hook(launched(1, "a1"), ENV)
    hook(start("a1"), ENV)
    assert running(hook) == ["a1"] and pending(hook) == []


def test_a_failed_launch_frees_its_slot(hook):
    hook(launch(1), ENV)
    failed = launched(1, "")
    failed["tool_response"] = {"status": "error", "error": "no such agent type"}
    hook(failed, ENV)
    assert running(hook) == [] and pending(hook) == []


# --- the grace and the denial -------------------------------------------------------------------


def test_an_unconfirmed_slot_blocks_for_the_grace_and_no_longer(hook):
    hook(launch(1), ENV)
    hook(launch(2), ENV)
    hook.now += parallel_cap.PENDING_GRACE - 1
    assert denied(hook(launch(3), ENV))
    hook.now += 1
    assert hook(launch(3), ENV) is None


def test_the_denial_names_each_agent_its_age_and_how_to_clear_it(hook):
    hook(launch(1, "scan the repo"), ENV)
    hook(start("a1"), ENV)
    hook(launched(1, "a1", "scan the repo"), ENV)
    hook.now += 120
    hook(launch(2, "write the report"), ENV)
    hook.now += 3
    reason = hook(launch(3), ENV)["hookSpecificOutput"]["permissionDecisionReason"]
    assert (
        ': "scan the repo" (background agent, running for 2 min, id a1), "write the report" '
        "(launched 3 s ago, not yet confirmed). Do not launch"
    ) in reason
    assert "call TaskStop with its id" in reason
    assert str(hook.state_dir / "sessions" / f"{SESSION}.json") in reason


def test_state_written_by_the_previous_version_is_read(hook):
    sessions = hook.state_dir / "sessions"
    sessions.mkdir(parents=True)
    old = {"version": 1, "running": {"old-a": hook.now - 5}, "pending": {"toolu_old": hook.now}}
    (sessions / f"{SESSION}.json").write_text(json.dumps(old))
    assert denied(hook(launch(3), ENV))
    hook(notify(notification("old-a", "completed", "toolu_old")), ENV)
    assert running(hook) == [] and pending(hook) == []


# --- workflows ----------------------------------------------------------------------------------


def test_workflow_agents_do_not_count(hook):
    hook(ours("PostToolUse_Workflow"), ENV)
    for n in range(5):
        hook(ours("SubagentStart_workflow-subagent", agent_id=f"w{n}"), ENV)
    assert running(hook) == []
    assert hook(launch(1), ENV) is None and hook(launch(2), ENV) is None


def test_a_workflow_agent_with_its_own_type_does_not_take_an_agent_launchs_slot(hook):
    """agent(prompt, {agentType: 'Explore'}) starts as type Explore, with no Agent call."""
    hook(ours("PostToolUse_Workflow"), ENV)
    hook(launch(1), ENV)  # a general-purpose launch waits for its start
    hook(ours("SubagentStart_workflow_agentType_Explore"), ENV)
    assert running(hook) == [] and pending(hook) == ["toolu_1"]
    hook(start("gp-1"), ENV)
    assert running(hook) == ["gp-1"] and pending(hook) == []


def test_a_workflow_agent_taken_for_an_agent_launch_frees_the_slot_at_its_stop(hook):
    """Without the Workflow launch record (installed mid-run, say) a typed workflow agent
    looks like the start of a pending launch; its stop, under subagents/workflows/, ends it."""
    hook(launch(1, "explore", kind="Explore"), ENV)
    hook(ours("SubagentStart_workflow_agentType_Explore"), ENV)
    agent = payload("SubagentStart_workflow_agentType_Explore")["agent_id"]
    assert running(hook) == [agent]
    hook.now += 5
    hook(ours("SubagentStop_workflow_agentType_Explore"), ENV)
    assert running(hook) == []
    assert list(session_file(hook, SESSION)["workflows"]) == ["wcod8nbst"]  # from its listing
    assert "completed" not in session_file(hook, SESSION)  # not a finished step


def test_a_workflow_is_over_when_its_notification_comes(hook):
    hook(ours("PostToolUse_Workflow"), ENV)
    assert session_file(hook, SESSION)["workflows"]
    workflow = ours("UserPromptSubmit_task_notification")
    task = payload("PostToolUse_Workflow")["tool_response"]["taskId"]
    workflow["prompt"] = notification(task, "completed", result='{"n": 1}')
    hook(workflow, ENV)
    assert session_file(hook, SESSION)["workflows"] == {}
    hook(start("typed", agent_type="Explore"), ENV)  # no workflow runs: an agent of ours
    assert running(hook) == ["typed"]


def test_the_listing_keeps_and_ends_workflows(hook):
    hook(ours("Stop_with_running_workflow"), ENV)
    assert list(session_file(hook, SESSION)["workflows"]) == ["wcod8nbst"]
    hook.now += 5
    hook(turn_end(), ENV)
    assert session_file(hook, SESSION)["workflows"] == {}


# --- sessions -----------------------------------------------------------------------------------


def test_two_sessions_in_one_project_keep_their_own_slots(hook):
    hook.now = time.time()  # a new session's first call sweeps sessions idle for days
    two_background_agents(hook)
    assert hook(launch(1, session="s-other"), ENV) is None
    hook(start("b1", session_id="s-other"), ENV)
    # the other session's notification and turn end touch only its own table
    hook(notify(notification("a1", "completed"), session="s-other"), ENV)
    hook.now += 10
    hook(turn_end(session_id="s-other"), ENV)
    assert running(hook) == ["a1", "a2"] and running(hook, "s-other") == []
    assert denied(hook(launch(3), ENV))


def test_a_hostile_state_file_never_breaks_the_hook(hook):
    """The session file sits in a folder other programs can write: odd values are dropped."""
    sessions = hook.state_dir / "sessions"
    sessions.mkdir(parents=True)
    hostile = {
        "running": {"a1": {"t": "x"}, "a2": [1], "a3": {"t": hook.now, "seen": "y", "d": 5}},
        "pending": 5,
        "gone": {"a1": "b", "x": None},
        "workflows": [1],
    }
    path = sessions / f"{SESSION}.json"
    signals = [
        launch(1),
        start("a4"),
        launched(1, "a4"),
        stop_task("a3"),
        stopped_task("a4"),
        notify(notification("a4", "killed")),
        turn_end("a5"),
        stop("a5", listed=listing()),
        completed(1, "a5"),
        ours("PostToolUse_Workflow"),
    ]
    for data in signals:
        path.write_text(json.dumps(hostile))
        answer = hook(data, ENV)
        assert answer is None or "internal error" not in json.dumps(answer), data
    assert not (hook.state_dir / "hook.log").exists()
