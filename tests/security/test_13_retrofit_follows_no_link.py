"""Issue 21, item 1: ``adopt --retrofit`` wrote through links planted in a project.

A skill whose SKILL.md was a link to a file outside the project, and whose ``scripts`` was a
link to an outside folder: ``spawnkit adopt .claude/skills/x --retrofit`` exited 0, rewrote
the outside file and created an executable ``state.py`` outside. Now every file adopt writes
is checked first (``spawnkit.files.contain``): one line naming the link, exit 2, nothing
written anywhere (no backup, no answers file, nothing in the template store). A link that
stays inside the project is the project's own business and is written through.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.snapshots import snapshot

from .conftest import one_line_error, spawnkit

HAND_WRITTEN = """---
name: x
description: Reviews the code with one sub-agent per file.
---

# x

Spawn a sub-agent per file and collect what each one found.
"""


@pytest.fixture
def layout(project: Path, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    skill = project / ".claude" / "skills" / "x"
    skill.mkdir(parents=True)
    return project, skill, outside


def _everything(tmp_path: Path) -> dict:
    """The test's folders and its HOME (the template store and backups live there)."""
    return {"tmp": snapshot(tmp_path), "home": snapshot(Path(os.environ["HOME"]))}


def test_a_skill_md_linked_out_of_the_project_is_refused(layout, tmp_path):
    project, skill, outside = layout
    (outside / "SKILL.md").write_text(HAND_WRITTEN)
    (skill / "SKILL.md").symlink_to(outside / "SKILL.md")
    (outside / "scripts").mkdir()
    (skill / "scripts").symlink_to(outside / "scripts")
    before = _everything(tmp_path)
    proc = spawnkit("adopt", ".claude/skills/x", "--retrofit", cwd=project)
    line = one_line_error(proc)
    assert f"{skill / 'SKILL.md'} is a symlink to {outside / 'SKILL.md'}" in line
    assert "outside" in line and "nothing was written" in line
    assert _everything(tmp_path) == before  # the outside file, and HOME, untouched


def test_a_scripts_folder_linked_out_is_refused_before_any_backup(layout, tmp_path):
    project, skill, outside = layout
    (skill / "SKILL.md").write_text(HAND_WRITTEN)
    (outside / "scripts").mkdir()
    (skill / "scripts").symlink_to(outside / "scripts")
    before = _everything(tmp_path)
    proc = spawnkit("adopt", ".claude/skills/x", "--retrofit", cwd=project)
    assert f"{skill / 'scripts'} is a symlink to {outside / 'scripts'}" in one_line_error(proc)
    assert list((outside / "scripts").iterdir()) == []
    assert _everything(tmp_path) == before


def test_a_planted_claude_folder_is_refused_for_plain_adopt_too(project, tmp_path):
    outside = tmp_path / "outside"
    (outside / "skills" / "x").mkdir(parents=True)
    (outside / "skills" / "x" / "SKILL.md").write_text(HAND_WRITTEN)
    (project / ".claude").symlink_to(outside)
    before = _everything(tmp_path)
    proc = spawnkit("adopt", ".claude/skills/x", cwd=project)
    assert f"{project / '.claude'} is a symlink to {outside}" in one_line_error(proc)
    assert _everything(tmp_path) == before


def test_a_link_that_stays_inside_the_project_is_written_through(layout):
    project, skill, _outside = layout
    (skill / "SKILL.md").write_text(HAND_WRITTEN)
    shared = project / "shared-scripts"
    shared.mkdir()
    (skill / "scripts").symlink_to(shared)
    proc = spawnkit("adopt", ".claude/skills/x", "--retrofit", cwd=project)
    # adopted; lint's default tier finds nothing left (issue 34: what remains is preview)
    assert proc.returncode == 0, proc.stderr
    assert (shared / "state.py").is_file()
    assert (skill / ".copier-answers.yml").is_file()
