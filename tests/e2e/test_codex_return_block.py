"""Codex 3: a spawn_agent task without a return contract gets the standard's block (v1 and v2)."""

from __future__ import annotations

import pytest

from spawnkit.standard import protocol

from .fake_responses import spawn_agent, wait_agent

BARE = "C3-SUB: list every TODO in src/ and explain each one."
CONTRACT_HEAD = protocol.load()["return_block"][0]


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_enforce_appends_the_return_block_the_sub_agent_then_sees(codex, fake_responses, version):
    codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    tag = f"C3{version}"
    v2 = version == "v2"
    call = spawn_agent(f"{BARE} ({tag})", task_name="todos" if v2 else None)

    def wait(req):
        return wait_agent(None if v2 else [req.spawned_agent_id(call["call_id"])])

    main = fake_responses.conversation(f"{tag}-ORCH", call, wait, "Noted.")
    sub = fake_responses.conversation(
        "/root/todos" if v2 else f"{BARE} ({tag})", "AGENT: todo\nSTATUS: COMPLETE"
    )

    codex.run(f"{tag}-ORCH: delegate", enable=("multi_agent_v2",) if v2 else ())

    task = sub.first.text[sub.first.text.rindex(BARE) :]
    assert task.startswith(f"{BARE} ({tag})\n\n{CONTRACT_HEAD}")  # original words first
    assert f"at most {protocol.return_budget()} tokens" in task
    assert ".spawnkit/reports/" in task
    # The budget was also stated before the first turn, as a developer message.
    assert "spawnkit return budget (CM001)" in sub.first.developer_text
    assert main.last.agent_result(call["call_id"]) == "AGENT: todo\nSTATUS: COMPLETE"


def test_warn_leaves_the_task_alone_and_tells_the_orchestrator(codex, fake_responses):
    codex.spawnkit("install", "--host", "codex", "--mode", "warn", "--yes")
    call = spawn_agent(f"{BARE} (W)")
    main = fake_responses.conversation(
        "C3W-ORCH", call, lambda req: wait_agent([req.spawned_agent_id(call["call_id"])]), "Ok."
    )
    sub = fake_responses.conversation(f"{BARE} (W)", "AGENT: todo\nSTATUS: COMPLETE")

    codex.run("C3W-ORCH: delegate")

    assert CONTRACT_HEAD not in sub.first.text
    assert "spawnkit return budget" not in sub.first.developer_text
    assert "CM001" in main.request_with_result(call["call_id"]).new_text
