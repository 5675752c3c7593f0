"""CM005: in-flight sub-agents per session, the cap at launch, oversized batches."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from spawnkit.hook import parallel_cap
from spawnkit.standard import protocol

from .conftest import SCRIPT, payload, session_file

SESSION = "12b7445c-960b-42b8-a9f4-c3f9c33f404e"
ONLY_CAP = {"SPAWNKIT_MODE_CM001": "off"}


def launch(n: int) -> dict:
    data = payload("PreToolUse_Agent")
    data["tool_use_id"] = f"toolu_{n}"
    return data


def start(agent: str) -> dict:
    return payload("SubagentStart") | {"session_id": SESSION, "agent_id": agent}


def stop(agent: str) -> dict:
    return payload("SubagentStop_foreground") | {"session_id": SESSION, "agent_id": agent}


CAP = protocol.max_parallel()


def deny(hook, counted: str) -> str:
    """The enforce denial, naming the agents counted and how to clear a stale one."""
    state = hook.state_dir / "sessions" / f"{SESSION}.json"
    return (
        f"spawnkit max-parallel (CM005): {CAP} sub-agents are already running in this session "
        f"and the limit is {CAP}: {counted}. Do not launch another one now: wait until one of "
        "them has returned (a background agent's result arrives as a task notification), then "
        "launch this one again. If one of them is no longer running, call TaskStop with its id: "
        "that frees its slot even when the agent has already ended. A launch no signal confirms "
        f"stops counting after 60 s; the user can reset the count by deleting {state}."
    )


def warn(counted: str) -> str:
    return (
        f"spawnkit max-parallel (CM005): this launch makes {CAP + 1} sub-agents run at once "
        f"({counted}, and this one); the protocol allows at most {CAP}. Wait for running "
        "sub-agents to return before launching more."
    )


UNCONFIRMED = '"probe sub" (launched 0 s ago, not yet confirmed)'


def test_enforce_denies_the_third_launch_of_a_burst(hook):
    env = ONLY_CAP | {"SPAWNKIT_MODE_CM005": "enforce"}
    assert hook(launch(1), env) is None
    assert hook(launch(2), env) is None
    assert hook(launch(3), env) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": deny(hook, f"{UNCONFIRMED}, {UNCONFIRMED}"),
        }
    }
    assert sorted(session_file(hook, SESSION)["pending"]) == ["toolu_1", "toolu_2"]


def test_warn_lets_it_launch_and_says_why(hook):
    hook(launch(1), ONLY_CAP)
    hook(launch(2), ONLY_CAP)
    assert hook(launch(3), ONLY_CAP) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": warn(f"{UNCONFIRMED}, {UNCONFIRMED}"),
        }
    }
    assert len(session_file(hook, SESSION)["pending"]) == 3


def test_slots_follow_start_and_real_stop(hook):
    env = ONLY_CAP | {"SPAWNKIT_MODE": "enforce"}
    for n in (1, 2):
        hook(launch(n), env)
    hook(start("agent-a"), env)
    hook(start("agent-b"), env)
    state = session_file(hook, SESSION)
    assert state["pending"] == {} and sorted(state["running"]) == ["agent-a", "agent-b"]
    assert hook(launch(3), env)["hookSpecificOutput"]["permissionDecision"] == "deny"
    # A stop the return budget blocks does not free the slot ...
    long = stop("agent-a") | {"last_assistant_message": "long answer " * 500}
    assert hook(long, env | {"SPAWNKIT_MODE_CM001": "enforce"})["decision"] == "block"
    assert hook(launch(3), env)["hookSpecificOutput"]["permissionDecision"] == "deny"
    # ... the real stop does.
    assert hook(stop("agent-a"), env) is None
    assert hook(launch(3), env) is None


def test_stale_entries_expire(hook):
    env = ONLY_CAP | {"SPAWNKIT_MODE": "enforce"}
    hook(launch(1), env)
    hook(start("agent-a"), env)
    hook(launch(2), env)  # pending, never started (e.g. refused by another hook)
    hook.now += parallel_cap.PENDING_GRACE + 1
    assert hook(launch(3), env) is None  # the pending slot expired, agent-a still runs
    hook.now += parallel_cap.RUNNING_TTL
    state = session_file(hook, SESSION)
    assert list(state["running"]) == ["agent-a"]
    hook(launch(4), env)
    assert session_file(hook, SESSION)["running"] == {}  # agent-a expired


def test_sessions_are_counted_apart(hook):
    env = ONLY_CAP | {"SPAWNKIT_MODE": "enforce"}
    hook(launch(1), env)
    hook(launch(2), env)
    other = launch(3) | {"session_id": "another-session"}
    assert hook(other, env) is None


def test_batch_over_the_cap_warns_even_in_enforce(hook):
    data = payload("PostToolBatch_two_parallel_agents")
    data["tool_calls"].append(dict(data["tool_calls"][0], tool_use_id="toolu_third"))
    expected = {
        "hookSpecificOutput": {
            "hookEventName": "PostToolBatch",
            "additionalContext": (
                f"spawnkit max-parallel (CM005): you launched {CAP + 1} sub-agents in one message; "
                f"the protocol allows at most {CAP} at a time. Launch at most {CAP} per message and "
                "wait for them to return before starting more."
            ),
        }
    }
    assert hook(data) == expected
    assert hook(data, {"SPAWNKIT_MODE": "enforce"}) == expected
    assert hook(data, {"SPAWNKIT_MODE_CM005": "off"}) is None


@pytest.mark.parametrize(
    "name",
    [
        "PostToolBatch_two_parallel_agents",
        "PostToolBatch_Agent_fg",
        "PostToolBatch_inside_subagent",
    ],
)
def test_batches_within_the_cap_are_silent(hook, name):
    assert hook(payload(name)) is None


def test_refused_launches_do_not_count_and_free_their_slot(hook):
    data = payload("PostToolBatch_denied_Agent")
    data["tool_calls"] = [dict(data["tool_calls"][0], tool_use_id=f"toolu_{n}") for n in range(3)]
    session = data["session_id"]
    for n in range(3):
        hook(launch(n) | {"session_id": session})
    assert len(session_file(hook, session)["pending"]) == 3
    assert hook(data) is None
    assert session_file(hook, session)["pending"] == {}


def test_parallel_hook_processes_never_exceed_the_cap(hook):
    """Six PreToolUse Agent hooks at once (a burst): exactly two get through."""
    env = hook.env | {"SPAWNKIT_MODE": "enforce", "SPAWNKIT_MODE_CM001": "off"}
    procs = []
    for n in range(6):
        data = hook.prepare(launch(n))
        procs.append(
            subprocess.Popen(
                [sys.executable, "-I", "-S", str(SCRIPT)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
            )
        )
        procs[-1].stdin.write(json.dumps(data).encode())
    outs = []
    for proc in procs:
        proc.stdin.close()
        outs.append(proc.stdout.read().decode())
        assert proc.wait(timeout=60) == 0
    denied = [
        o for o in outs if o and json.loads(o)["hookSpecificOutput"]["permissionDecision"] == "deny"
    ]
    assert (len(denied), outs.count("")) == (4, 2)
    assert len(session_file(hook, SESSION)["pending"]) == 2


def test_the_same_launch_seen_twice_takes_one_slot(hook):
    """spawnkit's hook registered twice (the user's and a project's install) sees every
    PreToolUse twice, with one tool_use_id: that is one launch, never two slots (a second
    slot would deny the next launch and stay counted until it expired)."""
    env = ONLY_CAP | {"SPAWNKIT_MODE": "enforce"}
    for _ in range(2):
        assert hook(launch(1), env) is None
    assert len(session_file(hook, SESSION).get("pending", {})) == 1
    for _ in range(2):
        assert hook(launch(2), env) is None  # the second launch: within the cap of 2
    assert "deny" in json.dumps(hook(launch(3), env))
