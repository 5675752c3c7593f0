"""Return-budget paths the other tests left open, found by mutation testing (``mutmut run``).

Each test names the behaviour a surviving mutant changed: a stop without an agent id, a new
round while an old count stands, a count the state file holds in a wrong type, a reply that
cannot be saved (logged, and the agent still counted finished), a start without an agent id,
a reply without an agent type, the parallel cap counting with the checkpoint off, and the
sweep of temporary files that removes only its own.
"""

from __future__ import annotations

import json
import os

from spawnkit.hook import return_budget

from .conftest import codex_payload, payload, session_file
from .test_return_budget import AGENT, SESSION, long_stop

ENFORCE = {"SPAWNKIT_MODE": "enforce"}


def _without(data: dict, *keys: str) -> dict:
    return {k: v for k, v in data.items() if k not in keys}


def test_a_stop_without_an_agent_id_is_counted_and_forgotten_under_one_key(hook):
    assert hook(_without(long_stop(), "agent_id"), ENFORCE)["decision"] == "block"
    assert session_file(hook, SESSION)["retries"] == {"unknown-agent": 1}
    saved = hook.project / ".spawnkit" / "returns" / SESSION / "unknown-agent.md"
    assert saved.is_file()
    short = _without(payload("SubagentStop_second_stop_hook_active"), "agent_id")
    assert hook(short, ENFORCE) is None
    assert session_file(hook, SESSION)["retries"] == {}


def test_a_stop_not_marked_as_a_retry_starts_a_new_round_whatever_the_count(hook):
    env = {**ENFORCE, "SPAWNKIT_MAX_RETRIES": "1"}
    assert hook(long_stop(), env)["decision"] == "block"
    assert session_file(hook, SESSION)["retries"] == {AGENT: 1}
    # the agent was resumed (SendMessage) and stops long again, not as a retry: a new round
    assert hook(long_stop(False), env)["decision"] == "block"


def test_a_retry_with_no_count_recorded_counts_from_zero(hook):
    env = {**ENFORCE, "SPAWNKIT_MAX_RETRIES": "1"}
    assert hook(long_stop(True), env)["decision"] == "block"


def test_a_count_of_the_wrong_type_counts_as_zero(hook):
    env = {**ENFORCE, "SPAWNKIT_MAX_RETRIES": "1"}
    hook(payload("SubagentStart") | {"agent_id": AGENT, "session_id": SESSION}, env)
    state = hook.state_dir / "sessions" / f"{SESSION}.json"
    data = json.loads(state.read_text())
    data["retries"] = {AGENT: "lots"}  # a hand-edited or foreign state file
    state.write_text(json.dumps(data))
    assert hook(long_stop(True), env)["decision"] == "block"
    assert session_file(hook, SESSION)["retries"] == {AGENT: 1}


def test_an_unsaveable_reply_is_logged_and_the_agent_counted_finished(hook):
    hook(payload("SubagentStart") | {"agent_id": AGENT, "session_id": SESSION}, ENFORCE)
    assert list(session_file(hook, SESSION)["running"]) == [AGENT]
    (hook.project / ".spawnkit").write_text("a file where the returns folder should be")
    answer = hook(long_stop(), ENFORCE)
    assert "decision" not in answer and "could not be saved" in answer["systemMessage"]
    log = (hook.state_dir / "hook.log").read_text()
    assert "SubagentStop: could not save the reply in " in log and "NotADirectoryError" in log
    state = session_file(hook, SESSION)
    assert state["running"] == {} and state["completed"] == 1


def test_a_codex_start_without_an_agent_id_names_a_report_all_the_same(codex):
    data = _without(codex_payload("block__SubagentStart_00"), "agent_id")
    context = codex(data, ENFORCE)["hookSpecificOutput"]["additionalContext"]
    report = os.path.join(
        str(codex.project), ".spawnkit", "reports", data["session_id"], "subagent.md"
    )
    assert f"else {report} - and end" in context


def test_a_reply_without_an_agent_type_is_called_a_sub_agent(hook):
    answer = hook(_without(long_stop(), "agent_type"), {"SPAWNKIT_MODE": "warn"})
    assert answer["systemMessage"].startswith("spawnkit: the sub-agent sub-agent returned ~")


def test_the_parallel_cap_counts_a_finished_agent_with_the_checkpoint_off(hook):
    env = {"SPAWNKIT_MODE_CM007": "off"}
    hook(payload("SubagentStart") | {"agent_id": AGENT, "session_id": SESSION}, env)
    assert list(session_file(hook, SESSION)["running"]) == [AGENT]
    hook(payload("SubagentStop_second_stop_hook_active"), env)
    assert session_file(hook, SESSION)["running"] == {}


def test_the_sweep_removes_only_stale_temporary_files_of_its_own(tmp_path):
    folder = tmp_path / "r"
    folder.mkdir()
    keep = ["notes.tmp", ".notes.tmp", "a.spawnkit-tmp-0.tmp", ".b.spawnkit-tmp-1.md"]
    for name in keep:
        (folder / name).write_text("the user's")
        os.utime(folder / name, (1, 1))
    stale = folder / ".c.spawnkit-tmp-2.tmp"
    stale.write_text("half")
    os.utime(stale, (1, 1))
    fresh = folder / ".d.spawnkit-tmp-3.tmp"  # a hook at work right now
    fresh.write_text("half")
    dangling = folder / ".e.spawnkit-tmp-4.tmp"  # a link left there, its target gone
    dangling.symlink_to(tmp_path / "gone")
    os.utime(dangling, (1, 1), follow_symlinks=False)
    return_budget.save_reply(str(tmp_path), ["r"], "agent", "text")
    left = sorted(p.name for p in folder.iterdir())
    assert left == sorted([*keep, fresh.name, "agent.md"])
