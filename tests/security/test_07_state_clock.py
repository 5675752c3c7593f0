"""Reproduction 7: the generated state.py trusted the clock and left temp files.

A finished state file dated in the future made every later `step` fail, and
`init --fresh` could not help (the future file stayed the newest); a run whose
``updated`` lay in the future was resumable forever; killed writes left
``.state-*.tmp`` files. State files that are not plain files, too large or nested
too deeply now give a one-line error, exit 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from skill_render import render, template_copy

REPORTS = ".demo-skill-reports"


@pytest.fixture(scope="module")
def skill(tmp_path_factory) -> Path:
    source = template_copy(tmp_path_factory.mktemp("tpl"))
    return render(source, tmp_path_factory.mktemp("skills") / "demo-skill")


@pytest.fixture
def project(tmp_path) -> Path:
    (tmp_path / REPORTS).mkdir()
    (tmp_path / REPORTS / "survey.md").write_text("# survey\n")
    return tmp_path


def run(skill: Path, project: Path, *args: str, timeout: float = 60):
    return subprocess.run(
        [sys.executable, str(skill / "scripts" / "state.py"), *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def _state(status: str, stamp: str, updated: str | None = None) -> dict:
    return {
        "kind": "spawnkit-state",
        "version": 1,
        "protocol_version": "1.0",
        "skill": "demo-skill",
        "created": stamp,
        "updated": updated or stamp,
        "status": status,
        "checkpoint": None,
        "steps": [
            {
                "id": s,
                "status": "pending",
                "attempts": 0,
                "report": None,
                "metrics": {},
                "updated": None,
            }
            for s in ("survey", "analyze", "verify", "summarize")
        ],
    }


def _plant(project: Path, name: str, data: dict) -> Path:
    path = project / REPORTS / name
    path.write_text(json.dumps(data))
    return path


def test_a_future_dated_finished_run_does_not_block_new_runs(skill, project):
    future = _plant(
        project, "state-20990101-000000.json", _state("complete", "2099-01-01T00:00:00+00:00")
    )
    before = future.read_bytes()
    assert run(skill, project, "init", "--fresh").returncode == 0
    done = run(
        skill, project, "step", "survey", "--status", "complete", "--report", f"{REPORTS}/survey.md"
    )
    assert done.returncode == 0, done.stderr
    assert "[1/4] survey" in done.stdout
    assert future.read_bytes() == before  # reported, never rewritten
    status = run(skill, project, "status")
    assert "dated in the future" in status.stderr and future.name in status.stderr


def test_a_run_updated_in_the_future_is_not_resumed(skill, project):
    _plant(
        project,
        "state-20260101-000000.json",
        _state("in_progress", "2026-01-01T00:00:00+00:00", "2099-01-01T00:00:00+00:00"),
    )
    resume = run(skill, project, "resume")
    assert resume.returncode == 3, resume.stdout
    assert "in the future" in resume.stdout


def test_init_fresh_always_starts_a_run(skill, project):
    for _ in range(3):  # back to back, inside one second
        assert run(skill, project, "init", "--fresh").returncode == 0
    assert len(list((project / REPORTS).glob("state-*.json"))) == 3


def test_temp_files_of_killed_writes_are_removed(skill, project):
    assert run(skill, project, "init").returncode == 0
    stale = project / REPORTS / ".state-abc123.tmp"
    stale.write_text('{"half": ')
    assert run(skill, project, "checkpoint").returncode == 0
    assert not stale.exists()


def test_a_deeply_nested_state_file_is_a_one_line_error(skill, project):
    (project / REPORTS / "state-20260101-000000.json").write_text("[" * 100_000 + "]" * 100_000)
    done = run(skill, project, "status")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_fifo_state_file_is_refused_at_once(skill, project):
    os.mkfifo(project / REPORTS / "state-20260101-000000.json")
    done = run(skill, project, "status", timeout=20)
    assert done.returncode == 2 and "not a plain file" in done.stderr
