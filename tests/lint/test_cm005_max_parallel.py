"""CM005 max-parallel."""

from __future__ import annotations

import pytest
from samples import HEAD

from spawnkit.standard import protocol

STATE = (
    "Keep `.demo-audit-reports/state-<ts>.json`, updated after every package; resume from it if "
    "unfinished.\n\n"
)
PROMPT = (
    "\n\n```\nAudit {package}. Write every finding to .demo-audit-reports/{package}.md.\n"
    "Reply with at most 300 tokens.\n```\n"
)


def _skill(spawn: str, extra: str = "") -> str:
    return HEAD + STATE + extra + spawn + PROMPT


@pytest.mark.parametrize(
    "spawn",
    [
        "Launch a sub-agent per package, all in parallel, with this prompt:",
        "Spawn one sub-agent per package with this prompt:",
        "Spawn sub-agents concurrently, as many as there are packages, with this prompt:",
        "Run the sub-agents in parallel with this prompt:",
        "Dispatch up to 4 sub-agents in parallel with this prompt:",
        "Spawn the sub-agents in a single message with this prompt:",
    ],
)
def test_unbounded_or_over_cap_parallelism_is_reported(codes, spawn):
    assert "CM005" in codes(_skill(spawn))


@pytest.mark.parametrize(
    "spawn",
    [
        "For each package, one at a time, spawn a sub-agent with this prompt:",
        "Spawn one sub-agent per package, sequentially, with this prompt:",
        "Launch the sub-agents two at a time with this prompt:",
        "Launch at most 2 sub-agents in parallel with this prompt:",
        "Launch the sub-agents with this prompt:",
    ],
)
def test_sequential_or_capped_work_passes(codes, spawn):
    assert "CM005" not in codes(_skill(spawn))


def test_a_global_cap_covers_a_local_parallel_statement(codes):
    rules = "## Rules\n- Max parallel agents: 2.\n\n"
    assert "CM005" not in codes(
        _skill("Run the sub-agents in parallel with this prompt:", extra=rules)
    )


def test_cap_comes_from_the_standard(codes, monkeypatch):
    monkeypatch.setattr(protocol, "max_parallel", lambda: 4)
    assert "CM005" not in codes(_skill("Dispatch up to 4 sub-agents in parallel with this prompt:"))


def test_negated_parallelism_is_sequential(codes):
    assert "CM005" not in codes(
        _skill("Never run them in parallel. Spawn a sub-agent per package with this prompt:")
    )


def test_one_agent_for_each_item_is_parallel_without_a_cap(codes):
    assert "CM005" in codes(_skill("Launch one sub-agent for each package with this prompt:"))


def test_parallel_work_not_said_of_agents_is_a_preview_finding(lint, calibrated):
    """ "What can run in parallel" with no agent named is offered, not asserted (issue 25): its
    reading's calibrated probability is under the threshold (here a test model's, fixed)."""
    calibrated(
        rules={
            "CM005": {
                "reading:parallel-not-said-of-agents": -10,
                "reading:parallel-without-cap": -10,
            }
        }
    )
    loose = _skill(
        "Spawn one sub-agent per package.", extra="List which checks can run in parallel.\n\n"
    )
    found = [d for d in lint(loose).diagnostics if d.code == "CM005"]
    assert "parallel-not-said-of-agents" in {d.family for d in found}
    default = [d for d in lint(loose, preview=False).diagnostics if d.code == "CM005"]
    assert "parallel-not-said-of-agents" not in {d.family for d in default}
    said = _skill("Spawn the package sub-agents in parallel.")
    assert [d.family for d in lint(said).diagnostics if d.code == "CM005"] == [
        "parallel-without-cap"
    ]
    # itself below the threshold in the test model, as in the shipped one
    assert [d for d in lint(said, preview=False).diagnostics if d.code == "CM005"] == []
    unbounded = _skill("Spawn all the package sub-agents at once.")
    assert [d.family for d in lint(unbounded, preview=False).diagnostics if d.code == "CM005"] == [
        "no-limit"
    ]
