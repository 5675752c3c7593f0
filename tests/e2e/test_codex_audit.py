"""Issue 16 on Codex: ``spawnkit audit`` on the rollouts a real Codex CLI session just wrote.

The same checks as ``test_audit.py`` for Claude Code (``audit_checks``), plus what is Codex's
own: it often hands a sub-agent's words over twice (``wait_agent``'s output and a notification),
and its orchestrator reads and writes files with shell commands. Hooks run without
``--dangerously-bypass-hook-trust``: installed and trusted by the real ``spawnkit install``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spawnkit.standard import protocol

from .audit_checks import audit_session, check_overlap, check_returns
from .codex_sandbox import CODEX_VERSION
from .scenarios import codex_fan_out, codex_mixed


def _audit(codex) -> dict:
    sessions = str(codex.codex_home / "sessions")
    return audit_session(codex, "codex", CODEX_VERSION, sessions)


@pytest.mark.parametrize("mode", ["off", "enforce"])
def test_audit_reports_what_the_fake_responses_api_delivered(codex, fake_responses, mode):
    enforced = mode == "enforce"
    if enforced:
        codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    cap = protocol.max_parallel()
    fan = codex_fan_out(
        fake_responses,
        "CXA",
        agents=cap + 1,
        per_message=cap + 1,
        answer_tokens=1500,
        overlap=cap if enforced else cap + 1,
    )

    run = codex.run(fan.prompt)
    assert run.result == "Audit complete."
    session = _audit(codex)

    returns = check_returns(session, fan.main, fan.call_ids, fan.subs, codex.project)
    check_overlap(session, returns, enforced)
    for call_id, got in returns.items():
        # every copy of the words the orchestrator was handed counts
        assert got["deliveries"] == len(fan.main.last.agent_results(call_id)) >= 1
        if got["blocked"]:  # the saved copy is the long first answer
            assert fan.answer(call_id) in Path(got["saved_path"]).read_text(encoding="utf-8")


@pytest.mark.parametrize("mode", ["off", "enforce"])
def test_audit_of_shell_reads_and_checkpoints(codex, fake_responses, mode):
    """The audit finds the state file the orchestrator wrote and the report it printed back,
    both through ``exec_command``. No spawnkit hook guards Codex's shell, so the read-back is a
    finding with or without enforce."""
    enforced = mode == "enforce"
    if enforced:
        codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    plan = codex_mixed(fake_responses, "CXM", codex.project, enforced=enforced)

    run = codex.run(plan.prompt)
    assert run.result == "All reviews are in."
    session = _audit(codex)

    ids = [call["call_id"] for call in plan.calls]
    returns = check_returns(session, plan.main, ids, plan.subs, codex.project)
    assert all(r["background"] and r["wrote_files"] is True for r in returns.values())
    assert Path(plan.state_file).is_file() and Path(plan.report_read).is_file()
    assert [w["path"] for w in session["state_writes"]] == [plan.state_file]
    (read,) = session["report_reads"]
    assert read["path"] == plan.report_read and read["denied"] is False
    codes = sorted(f["code"] for f in session["findings"])
    if enforced:
        assert session["denied_launches"] == 1 and session["peak_parallel"] <= 2
        assert codes == ["CM006"]
    else:
        assert session["peak_parallel"] == 3
        assert codes == ["CM005", "CM006"]
        # The fake API reports a request's usage as its size / 4: the two long answers cost
        # the orchestrator under the budget by that usage, over it by the estimate the hooks
        # enforce with. The audit judges by the recorded usage and says both.
        long = [r for r in returns.values() if r["estimate_over_budget"]]
        assert len(long) == 2 and all(r["tokens"] <= protocol.return_budget() for r in long)
