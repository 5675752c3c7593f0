"""Issue 16: ``spawnkit audit`` on the transcripts a real Claude Code session just wrote.

The fake API sees exactly what the orchestrator model was sent, so it is the independent truth:
per sub-agent, the words the orchestrator received (estimated with ``spawnkit.tokens``, like the
audit), whether spawnkit held a longer answer back, and how many sub-agents were running at once
(each sub-agent here waits until its siblings have started, so they certainly overlap).
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from spawnkit import protocol, tokens

from .fake_api import FakeAnthropic, agent, text
from .scenarios import (
    SAVED_COPY,
    long_answer,
    mixed,
    obey_block,
    once_started,
    received_tokens,
)

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "standards/schemas/audit.schema.json").read_text()
)
MARGIN = 0.08  # the estimate's own safety margin: the audit may differ from the fake by this much


def _audit(claude) -> dict:
    proc = claude.spawnkit("audit", "--format", "json", check=False)
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert doc["input"]["problems"] == {} and doc["input"]["unknown_records"] == {}
    (session,) = doc["sessions"]
    assert session["host"] == "claude-code" and session["client_version"] == "2.1.330"
    return session


def _overlapping(api: FakeAnthropic, tag: str, running: int):
    """One orchestrator message launching cap + 1 foreground sub-agents that each answer at
    length only once ``running`` of them have started (so they overlap for sure)."""
    n = protocol.max_parallel() + 1
    calls, subs = [], []
    for i in range(1, n + 1):
        name = f"{tag}-SUB-{i}"
        calls.append(agent(f"{name}: audit part {i}.", f"audit part {i}", background=False))
        first = once_started(api, subs, running, long_answer(name, 1500))
        subs.append(api.conversation(name, first, obey_block(name), name=name))
    main = api.conversation(f"{tag}-ORCH", [text("Fanning out."), *calls], "Done.")
    return f"{tag}-ORCH: audit the repository.", main, subs, calls


@pytest.mark.parametrize("mode", ["off", "enforce"])
def test_audit_reports_what_the_fake_api_received(claude, fake_api, mode):
    enforced = mode == "enforce"
    if enforced:
        claude.spawnkit("install", "--mode", "enforce", "--yes")
    cap = protocol.max_parallel()
    prompt, main, subs, calls = _overlapping(fake_api, "AUD", cap if enforced else cap + 1)

    claude.run(prompt)
    session = _audit(claude)

    returns = {r["tool_use_id"]: r for r in session["returns"]}
    for call, sub in zip(calls, subs, strict=True):
        expected = received_tokens(main, call["id"])
        if expected is None:  # refused by the parallel cap: it never returned
            assert call["id"] not in returns and not sub.requests
            continue
        got = returns[call["id"]]
        assert abs(got["tokens"] - expected) <= MARGIN * expected, (got, expected)
        held = next((SAVED_COPY.search(r.last_user_text) for r in sub.requests[1:]), None)
        assert got["blocked"] is enforced is (held is not None)
        if enforced:
            assert got["saved_path"] == held.group(0)
            saved = Path(got["saved_path"])
            assert saved.is_file() and saved.is_relative_to(claude.project)
            assert got["full_tokens"] == tokens.estimate(saved.read_text())
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
def test_audit_of_background_agents_reads_and_checkpoints(claude, fake_api, mode):
    enforced = mode == "enforce"
    if enforced:
        claude.spawnkit("install", "--mode", "enforce", "--yes")
    plan = mixed(fake_api, "BGA", claude.project, enforced=enforced)

    claude.run(plan.prompt)
    session = _audit(claude)

    returns = {r["tool_use_id"]: r for r in session["returns"]}
    for call in plan.calls:
        expected = received_tokens(plan.main, call["id"])
        if expected is None:
            assert call["id"] not in returns
            continue
        got = returns[call["id"]]
        assert got["background"] and abs(got["tokens"] - expected) <= MARGIN * expected
    assert [w["path"] for w in session["state_writes"]] == [plan.state_file]
    (read,) = session["report_reads"]
    assert read["path"] == plan.report_read and read["denied"] is enforced
    codes = sorted(f["code"] for f in session["findings"])
    if enforced:
        assert session["denied_launches"] == 1 and session["peak_parallel"] <= 2
        assert codes == []
    else:
        assert session["peak_parallel"] == 3
        assert codes == ["CM001", "CM001", "CM005", "CM006"]
