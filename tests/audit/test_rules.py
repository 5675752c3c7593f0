"""The judgement: which tool calls are read-backs and checkpoints, parallelism, the CM findings."""

from __future__ import annotations

import json

import pytest

from spawnkit.audit import analyze, signals
from spawnkit.audit.engine import audit
from spawnkit.audit.model import FileTouch, Return, Session
from spawnkit.standard import protocol

from .conftest import FIXTURES, copy_scenario

CAP = protocol.max_parallel()
EVERY = protocol.checkpoint_every()
BUDGET = protocol.return_budget()


@pytest.mark.parametrize(
    ("command", "reads"),
    [
        ("cat .audit-reports/scan.md", [".audit-reports/scan.md"]),
        ("head -n 50 /p/.spawnkit/reports/s/x.md | tail -5", ["/p/.spawnkit/reports/s/x.md"]),
        ("cat .audit-reports/state-20261124-001600.json", []),  # bookkeeping stays readable
        ("ls .audit-reports/scan.md", []),
        ("echo cat .audit-reports/scan.md", []),
        ("cat notes.md", []),
        ("cat 'unterminated", []),
    ],
)
def test_shell_report_reads(command, reads):
    assert signals.shell_report_reads(command, "/p") == reads


@pytest.mark.parametrize(
    ("command", "state"),
    [
        ("python3 /s/scripts/state.py step scan --status complete", "/s/scripts/state.py"),
        ("python3 scripts/state.py status --json", None),  # reading is not a checkpoint
        (
            'echo "{}" > .x-reports/state-20261124-001600.json',
            ".x-reports/state-20261124-001600.json",
        ),
        (
            "tee .x-reports/state-20261124-001600.json < new",
            ".x-reports/state-20261124-001600.json",
        ),
        ("echo hi > notes.json", None),
    ],
)
def test_shell_state_writes(command, state):
    assert signals.shell_state_write(command) == state


def test_saved_copy_handles_spaces_and_relative_paths():
    reason = "spawnkit return budget (CM001): saved in full at {} - do not repeat it."
    for path in ("/home/me/my project/.spawnkit/returns/s/a1.md", ".spawnkit/returns/s/a1.md"):
        assert signals.saved_copy(reason.format(path)) == path
    assert signals.saved_copy("no path here") is None


def _ret(start: float, end: float, tokens: int = 100, **extra) -> Return:
    return Return(agent_id=f"a{start}", tokens=tokens, launched=start, received=end, **extra)


def test_peak_parallel_counts_overlaps_not_touches():
    s = Session("s", "claude-code", "p")
    s.returns = [_ret(0, 10), _ret(5, 15), _ret(10, 20), _ret(12, 13)]
    assert analyze.peak_parallel(s) == 3  # 10..13: the 2nd, 3rd and 4th; the 1st ended at 10
    s.returns[0].finished = 12.5  # its transcript shows it ran longer than its return arrived
    assert analyze.peak_parallel(s) == 4
    s.open_launches, s.ended = [1.0], 30.0  # launched, never returned: runs to the end
    assert analyze.peak_parallel(s) == 5


def test_cm003_without_any_state_write_cm007_for_a_long_stretch():
    s = Session("s", "claude-code", "p")
    s.returns = [_ret(t, t + 1) for t in range(EVERY)]
    codes = [f.code for f in analyze.findings(s, BUDGET, CAP, EVERY)]
    assert codes == ["CM003"]
    s.state_writes = [FileTouch("state.json", EVERY + 0.5)]  # after the first few returned
    assert analyze.findings(s, BUDGET, CAP, EVERY) == []
    s.returns += [_ret(10 + t, 11 + t) for t in range(EVERY + 1)]  # then none for a while
    (finding,) = analyze.findings(s, BUDGET, CAP, EVERY)
    assert finding.code == "CM007" and f"{EVERY + 1} sub-agents" in finding.message
    assert (finding.name, finding.severity) == (protocol.rule("CM007").name, "warning")


def test_cm001_cm002_and_a_let_through_return():
    s = Session("s", "claude-code", "p")
    s.returns = [
        _ret(0, 1, BUDGET + 1, description="big", wrote_files=False),
        _ret(0, 1, BUDGET + 1, description="wrote", wrote_files=True),
        _ret(0, 1, BUDGET * 3, description="let through", blocked=True, full_tokens=BUDGET * 4),
        _ret(0, 1, BUDGET, description="fine", wrote_files=False),
    ]
    found = [(f.code, f.message.split("'")[1]) for f in analyze.findings(s, BUDGET, 9, 99)]
    assert found == [
        ("CM001", "big"),
        ("CM002", "big"),
        ("CM001", "wrote"),
        ("CM001", "let through"),  # blocked, yet still over when let through after retries
    ]


def test_without_recorded_usage_the_context_is_estimated(tmp_path):
    root = copy_scenario("claude/fanout-off", tmp_path)
    for path in root.rglob("*.jsonl"):
        lines = []
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if isinstance(record.get("message"), dict):
                record["message"].pop("usage", None)
            lines.append(json.dumps(record))
        path.write_text("\n".join(lines) + "\n")
    (session,) = audit([root]).sessions
    assert session.context_source == "estimate"
    sizes = [p.tokens for p in session.context]
    assert len(sizes) == 4 and sizes == sorted(sizes) and sizes[0] > 0
    # the estimate counts what the orchestrator read: six ~1,545-token returns at least
    assert sizes[-1] - sizes[0] >= 6 * 1545


def test_older_transcripts_task_tool_and_sidechain_records(tmp_path):
    """Before the Agent tool was renamed it was Task, and sub-agent records sat in the main
    file marked isSidechain; the audit reads the one and skips the other."""
    stamp = "2025-06-01T10:00:0{}.000Z"
    records = [
        {"type": "user", "timestamp": stamp.format(0), "message": {"content": "go"}},
        {
            "type": "assistant",
            "timestamp": stamp.format(1),
            "message": {
                "id": "m1",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Task",
                        "input": {"description": "scan"},
                    }
                ],
                "usage": {"input_tokens": 1000, "output_tokens": 10},
            },
        },
        {
            "type": "assistant",
            "isSidechain": True,
            "timestamp": stamp.format(2),
            "message": {"id": "m2", "content": [{"type": "text", "text": "x" * 5000}]},
        },
        {
            "type": "user",
            "timestamp": stamp.format(3),
            "message": {
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "all clean"}]
            },
        },
    ]
    (tmp_path / "old.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (session,) = audit([tmp_path]).sessions
    (ret,) = session.returns
    assert ret.description == "scan" and ret.tokens < 10
    assert [p.tokens for p in session.context] == [1010]  # the sidechain response is not ours


def test_codex_fixtures_name_their_window_and_ids():
    result = audit([FIXTURES / "codex"])
    assert {s.context_window for s in result.sessions} == {258400}
    assert all(s.client_version == "0.169.0" for s in result.sessions)
