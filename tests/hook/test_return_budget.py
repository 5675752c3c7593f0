"""SubagentStop: the return budget, warned about or enforced, on real payloads."""

from __future__ import annotations

import pytest

from spawnkit import tokens
from spawnkit.hook import return_budget
from spawnkit.standard import protocol

from .conftest import payload, session_file

FORMAT = (
    "AGENT: <step name>\nSTATUS: COMPLETE | PARTIAL | FAILED\nKEY_METRICS: <up to 3 short "
    "key=value pairs>\nTOP_FINDINGS: <up to 3 one-line findings>\nREPORT: <path of the full "
    "report on disk>"
)


def long_stop(active: bool = False, text: str | None = None) -> dict:
    """The real first-stop payload, its reply grown well past the token budget."""
    data = payload("SubagentStop_first_blocked")
    data["last_assistant_message"] = text or data["last_assistant_message"] * 12
    data["stop_hook_active"] = active
    return data


def block_reason(size: int, saved: str) -> str:
    return (
        f"spawnkit return budget (CM001): your reply is ~{size} tokens but a sub-agent may return "
        f"at most {BUDGET} tokens, so it was NOT delivered. It is saved in full at {saved} - do "
        f"not repeat it. Reply again with at most {BUDGET} tokens in exactly this format (REPORT: "
        f"that "
        f"file, or your own fuller report file):\n{FORMAT}"
    )


SESSION = "c9c85ebb-3db8-4e54-9798-e7db35ef8778"
BUDGET = protocol.return_budget()
AGENT = "a41e3766856c21cbb"


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_reply_within_budget_is_silent(hook, mode):
    assert hook(payload("SubagentStop_second_stop_hook_active"), {"SPAWNKIT_MODE": mode}) is None
    assert hook(payload("SubagentStop_foreground"), {"SPAWNKIT_MODE": mode}) is None


def test_warn_names_agent_type_and_size(hook):
    data = long_stop()
    size = tokens.estimate(data["last_assistant_message"])
    assert size > BUDGET
    assert hook(data) == {
        "systemMessage": (
            f"spawnkit: the general-purpose sub-agent returned ~{size} tokens, over the {BUDGET}-token "
            f"return budget (CM001); its whole reply went into the orchestrator's context. Set "
            f"CM001 to enforce to hold such replies back."
        )
    }
    assert not (hook.project / ".spawnkit").exists()


def test_enforce_saves_the_full_reply_then_blocks(hook):
    data = long_stop()
    size = tokens.estimate(data["last_assistant_message"])
    saved = hook.project / ".spawnkit" / "returns" / SESSION / f"{AGENT}.md"
    answer = hook(data, {"SPAWNKIT_MODE_CM001": "enforce"})
    assert answer == {"decision": "block", "reason": block_reason(size, str(saved))}
    assert saved.read_text(encoding="utf-8") == data["last_assistant_message"]
    assert session_file(hook, SESSION)["retries"] == {AGENT: 1}


def test_enforce_retries_then_lets_through_with_a_warning(hook):
    env = {"SPAWNKIT_MODE": "enforce"}
    first, second, third = long_stop(), long_stop(True, "x" * 4000), long_stop(True, "y" * 5000)
    folder = hook.project / ".spawnkit" / "returns" / SESSION
    assert hook(first, env)["decision"] == "block"
    answer = hook(second, env)
    assert answer == {
        "decision": "block",
        "reason": block_reason(tokens.estimate("x" * 4000), str(folder / f"{AGENT}-2.md")),
    }
    size = tokens.estimate("y" * 5000)
    assert hook(third, env) == {
        "systemMessage": (
            f"spawnkit: the general-purpose sub-agent still replied ~{size} tokens (budget {BUDGET}) "
            f"after 2 retries; let it through so the session is not stuck. Its earlier full "
            f"replies are in {folder}."
        )
    }
    # Nothing was lost: both blocked replies are on disk, the first untouched.
    assert (folder / f"{AGENT}.md").read_text() == first["last_assistant_message"]
    assert (folder / f"{AGENT}-2.md").read_text() == "x" * 4000
    assert session_file(hook, SESSION)["retries"] == {}


def test_max_retries_from_config(hook):
    hook.write_config("user", {"version": 1, "mode": "enforce", "max_retries": 0})
    answer = hook(long_stop())
    assert "decision" not in answer
    assert "after 0 retries; let it through" in answer["systemMessage"]


def test_stop_without_stop_hook_active_starts_a_new_round(hook):
    env = {"SPAWNKIT_MODE": "enforce", "SPAWNKIT_MAX_RETRIES": "1"}
    assert hook(long_stop(), env)["decision"] == "block"
    assert "decision" not in hook(long_stop(True), env)  # retries used up
    # The agent is resumed later (SendMessage) and stops long again: a fresh round.
    assert hook(long_stop(False), env)["decision"] == "block"


def test_short_retry_ends_the_round_and_counts_the_agent_finished(hook):
    env = {"SPAWNKIT_MODE": "enforce"}
    hook(payload("SubagentStart") | {"agent_id": AGENT, "session_id": SESSION}, env)
    assert list(session_file(hook, SESSION)["running"]) == [AGENT]
    hook(long_stop(), env)
    # Blocked: the agent keeps running, so it still holds its parallel slot.
    assert list(session_file(hook, SESSION)["running"]) == [AGENT]
    assert hook(payload("SubagentStop_second_stop_hook_active"), env) is None
    state = session_file(hook, SESSION)
    assert state["running"] == {} and state["retries"] == {} and state["completed"] == 1


def test_off_does_nothing_over_budget(hook):
    assert hook(long_stop(), {"SPAWNKIT_MODE": "off"}) is None
    assert not hook.state_dir.exists()


def test_unsaveable_reply_is_let_through(hook):
    (hook.project / ".spawnkit").write_text("a file where the returns folder should be")
    data = long_stop()
    size = tokens.estimate(data["last_assistant_message"])
    answer = hook(data, {"SPAWNKIT_MODE": "enforce"})
    folder = hook.project / ".spawnkit" / "returns" / SESSION
    assert answer == {
        "systemMessage": (
            f"spawnkit: the general-purpose sub-agent returned ~{size} tokens (budget {BUDGET}); it was "
            f"let through because its reply could not be saved in {folder} (Not a directory)."
        )
    }


def test_locked_state_fails_open(hook, monkeypatch):
    monkeypatch.setattr("spawnkit.hook.store.LOCK_TIMEOUT", 0.05)
    import fcntl
    import os

    sessions = hook.state_dir / "sessions"
    sessions.mkdir(parents=True)
    fd = os.open(sessions / f"{SESSION}.json", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        data = long_stop()
        answer = hook(data, {"SPAWNKIT_MODE": "enforce"})
    finally:
        os.close(fd)
    assert "decision" not in answer
    assert "its retry count could not be read" in answer["systemMessage"]
    assert "stayed locked" in (hook.state_dir / "hook.log").read_text()


def test_save_reply_never_overwrites(tmp_path):
    first = return_budget.save_reply(str(tmp_path), ["r"], "agent", "one")
    second = return_budget.save_reply(str(tmp_path), ["r"], "agent", "two")
    folder = tmp_path / "r"
    assert (first, second) == (str(folder / "agent.md"), str(folder / "agent-2.md"))
    assert [p.name for p in sorted(folder.iterdir())] == ["agent-2.md", "agent.md"]
    assert (folder / "agent.md").read_text() == "one"
