"""CM006: the orchestrator reading a sub-agent's full report back."""

from __future__ import annotations

import pytest

from .conftest import payload


def read(hook, path: str, **extra) -> dict:
    data = payload("PreToolUse_Read")
    data["tool_input"] = {"file_path": path}
    return hook.prepare(data) | extra


def reason(shown: str) -> str:
    return (
        f"spawnkit no-full-report-reads (CM006): {shown} is a sub-agent's full report. Reading it "
        f"puts the whole report into your context, which the sub-agent's short reply exists to "
        f"prevent. Work from that reply; if you need a detail, launch a sub-agent to read the "
        f"report and answer within the return budget."
    )


def test_warn(hook):
    path = str(hook.project / ".demo-audit-reports" / "scan.md")
    assert hook(read(hook, path)) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": reason(".demo-audit-reports/scan.md"),
        }
    }


def test_enforce_denies(hook):
    path = str(hook.project / ".spawnkit" / "returns" / "s1" / "a1.md")
    assert hook(read(hook, path), {"SPAWNKIT_MODE_CM006": "enforce"}) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason(".spawnkit/returns/s1/a1.md"),
        }
    }


@pytest.mark.parametrize(
    "relative",
    [
        ".spawnkit/reports/s1/probe-sub-2ab80d.md",
        "sub/dir/.x-reports/deep/report.json",
        ".demo-reports/notes.txt",
    ],
)
def test_report_locations(hook, relative):
    answer = hook(read(hook, relative), {"SPAWNKIT_MODE": "enforce"})
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize(
    "relative",
    [
        ".demo-reports/state-20250101-120000.json",  # the orchestrator's own state file
        ".demo-reports/handoff-scan.json",  # a handoff file (status-only returns)
        "README.none",
        "src/reports/summary.md",
        ".reports/x.md",  # no skill name: not the protocol's pattern
        "-reports/x.md",
    ],
)
def test_other_files_are_fine(hook, relative):
    assert hook(read(hook, relative), {"SPAWNKIT_MODE": "enforce"}) is None


def test_sub_agents_may_read_reports(hook):
    data = read(hook, ".demo-reports/scan.md", agent_id="a1", agent_type="general-purpose")
    assert hook(data, {"SPAWNKIT_MODE": "enforce"}) is None


def test_real_read_payload_is_silent(hook):
    assert hook(payload("PreToolUse_Read"), {"SPAWNKIT_MODE": "enforce"}) is None


def test_off(hook):
    assert hook(read(hook, ".demo-reports/scan.md"), {"SPAWNKIT_MODE": "off"}) is None
