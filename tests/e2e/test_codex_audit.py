"""Issue 16 on Codex: ``spawnkit audit`` on the rollouts a real Codex CLI session just wrote.

The same check as ``test_audit.py`` for Claude Code: the fake Responses API sees exactly what
the orchestrator model was sent, so it is the independent truth. Per sub-agent: the words the
orchestrator received (estimated with ``spawnkit.tokens``, like the audit), whether spawnkit held
a longer answer back and where it saved it, and how many sub-agents ran at once (each one answers
only once its siblings have started, so they certainly overlap). Hooks run without
``--dangerously-bypass-hook-trust``: installed and trusted by the real ``spawnkit install``.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from spawnkit import protocol, tokens

from .codex_sandbox import CODEX_VERSION
from .scenarios import SAVED_COPY, codex_fan_out, codex_mixed, received_tokens

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "standards/schemas/audit.schema.json").read_text()
)
MARGIN = 0.08  # the estimate's own safety margin: the audit may differ from the fake by this much


def _audit(codex) -> dict:
    sessions = codex.codex_home / "sessions"
    proc = codex.spawnkit("audit", str(sessions), "--format", "json", check=False)
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert doc["input"]["problems"] == {} and doc["input"]["unknown_records"] == {}
    (session,) = doc["sessions"]
    assert session["host"] == "codex" and session["client_version"] == CODEX_VERSION
    return session


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

    returns = {r["tool_use_id"]: r for r in session["returns"]}
    for call_id, sub in zip(fan.call_ids, fan.subs, strict=True):
        expected = received_tokens(fan.main, call_id)
        if expected is None:  # refused by the parallel cap: it never started
            assert call_id not in returns and not sub.requests
            continue
        got = returns[call_id]
        assert abs(got["tokens"] - expected) <= MARGIN * expected, (got, expected)
        # Codex may hand the same words over twice (wait_agent's output and a notification).
        assert got["deliveries"] == len(fan.main.last.agent_results(call_id)) >= 1
        held = next((SAVED_COPY.search(r.last_user_text) for r in sub.requests[1:]), None)
        assert got["blocked"] is enforced is (held is not None)
        if enforced:
            assert got["saved_path"] == held.group(0)
            saved = Path(got["saved_path"])
            assert saved.is_file() and saved.is_relative_to(codex.project)
            assert fan.answer(call_id) in saved.read_text(encoding="utf-8")
            assert got["full_tokens"] == tokens.estimate(saved.read_text(encoding="utf-8"))
            assert got["tokens"] <= protocol.return_budget() < got["full_tokens"]
    codes = [f["code"] for f in session["findings"]]
    if enforced:
        assert session["peak_parallel"] == cap
        assert session["denied_launches"] == 1 and len(returns) == cap
        assert "CM001" not in codes and "CM005" not in codes
    else:
        assert session["peak_parallel"] == cap + 1
        assert codes.count("CM001") == cap + 1 and codes.count("CM005") == 1
        assert session["denied_launches"] == 0


@pytest.mark.parametrize("mode", ["off", "enforce"])
def test_audit_of_shell_reads_and_checkpoints(codex, fake_responses, mode):
    """Codex reads and writes files with shell commands: the audit finds the state file the
    orchestrator wrote and the report it printed back. No spawnkit hook guards Codex's shell,
    so the read-back is a finding with or without enforce."""
    enforced = mode == "enforce"
    if enforced:
        codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    plan = codex_mixed(fake_responses, "CXM", codex.project, enforced=enforced)

    run = codex.run(plan.prompt)
    assert run.result == "All reviews are in."
    session = _audit(codex)

    returns = {r["tool_use_id"]: r for r in session["returns"]}
    for call in plan.calls:
        expected = received_tokens(plan.main, call["call_id"])
        if expected is None:
            assert call["call_id"] not in returns
            continue
        got = returns[call["call_id"]]
        assert got["background"] and abs(got["tokens"] - expected) <= MARGIN * expected
        assert got["wrote_files"] is True  # its report, through exec_command
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
        assert codes == ["CM001", "CM001", "CM005", "CM006"]
