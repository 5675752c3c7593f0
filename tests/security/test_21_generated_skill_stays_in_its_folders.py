"""Issue 21, item 9: the generated skill took any report path, and ``new --force`` left
backups in the project.

``state.py step --report /etc/passwd`` was recorded (the reports folder is where a step's
report is; the orchestrator later names it to the user). Now a report or handoff must be a
file inside the reports folder, links resolved, or the step is refused (exit 2, nothing
written). ``new --force`` kept its backups in ``.claude/skills/.spawnkit-backups/``, inside
the project, unlike install and update; now they go to ``<config>/.spawnkit/backups/``.
(The default profile's frontmatter: docs/skill.md "Permissions", tests/e2e/
test_skill_permissions.py.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import spawnkit

NAME = "demo"
REPORTS = f".{NAME}-reports"


@pytest.fixture
def skill(project: Path) -> Path:
    made = spawnkit("new", NAME, "--defaults", cwd=project)
    assert made.returncode == 0, made.stderr
    return project / ".claude" / "skills" / NAME


def state(skill: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(skill / "scripts" / "state.py"), *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "report",
    ["/etc/passwd", "../outside.md", f"{REPORTS}/../survey.md", f"{REPORTS}/linked.md"],
)
def test_a_report_outside_the_reports_folder_is_refused(skill, project, tmp_path, report):
    assert state(skill, project, "init").returncode == 0
    (project / "survey.md").write_text("beside the folder\n")
    (tmp_path / "outside.md").write_text("outside the project\n")
    (project / REPORTS / "linked.md").symlink_to(tmp_path / "outside.md")
    [path] = (project / REPORTS).glob("state-*.json")
    before = path.read_bytes()
    done = state(skill, project, "step", "survey", "--status", "complete", "--report", report)
    assert done.returncode == 2 and "is not a file in the reports folder" in done.stderr
    assert path.read_bytes() == before
    (project / REPORTS / "survey.md").write_text("# survey\n")
    ok = state(skill, project, "step", "survey", "--status", "complete", "--report",
               f"{REPORTS}/survey.md")  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    assert json.loads(path.read_text())["steps"][0]["report"] == f"{REPORTS}/survey.md"


def test_new_force_keeps_its_backups_out_of_the_project(skill, project):
    (skill / "SKILL.md").write_text((skill / "SKILL.md").read_text() + "\nmy notes\n")
    forced = spawnkit("new", NAME, "--defaults", "--force", cwd=project)
    assert forced.returncode == 0, forced.stderr
    assert not (project / ".claude" / "skills" / ".spawnkit-backups").exists()
    backups = Path(os.environ["HOME"]) / ".claude" / ".spawnkit" / "backups"
    [backup] = backups.iterdir()
    assert "my notes" in (backup / "SKILL.md").read_text()
    assert f"backed up to {backup}" in forced.stdout
