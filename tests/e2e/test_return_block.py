"""Scenario 2: an Agent prompt without a return contract."""

from __future__ import annotations

from spawnkit.standard import protocol

from .fake_api import agent

BARE = "S2-SUB: list every TODO in src/ and explain each one."
CONTRACT_HEAD = protocol.load()["return_block"][0]


def _script(fake_api, tag: str):
    call = agent(f"{BARE} ({tag})", "find TODOs", background=False)
    main = fake_api.conversation(f"S2-{tag}-ORCH", call, "Noted.")
    sub = fake_api.conversation(f"{BARE} ({tag})", "AGENT: todo\nSTATUS: COMPLETE")
    return call, main, sub


def test_enforce_appends_the_standard_return_block_to_the_sub_agent_prompt(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    call, main, sub = _script(fake_api, "E")

    claude.run("S2-E-ORCH: delegate")

    received = (
        sub.first.last_user_text
    )  # the sub-agent's first request: its prompt as the model saw it
    prompt = received[received.index(BARE) :]
    assert prompt.startswith(call["input"]["prompt"])  # the original words are kept, in front
    assert CONTRACT_HEAD in prompt
    assert f"{protocol.return_budget()} tokens" in prompt
    # The rest of the call was kept: it ran in the foreground and its answer came back.
    assert main.request_with_agent_result(call["id"]).turn == 1


def test_warn_leaves_the_prompt_alone_and_tells_the_orchestrator(claude, fake_api):
    claude.spawnkit("install", "--mode", "warn", "--yes")
    call, main, sub = _script(fake_api, "W")

    claude.run("S2-W-ORCH: delegate")

    assert CONTRACT_HEAD not in sub.first.text
    after = main.request_with_agent_result(call["id"])
    assert "CM001" in after.new_text
