"""Issue 21, item 2: ``new`` and ``update`` followed a link planted in a project out of it.

``ln -s /outside .claude/skills; spawnkit new evil --defaults`` created ``/outside/evil/``; a
``.claude`` link or a dangling ``.claude/skills/evil`` link did the same; ``new --force`` over a
linked skill folder overwrote files there; ``update --all`` rewrote a skill folder that was a
link to an outside folder. ``install --scope project`` already refused this layout; now every
verb that writes into a project resolves its target with the same rule
(``spawnkit.files.contain``): a link on the way that leaves the project, leads nowhere or loops
refuses the command in one line naming the link, exit 2, nothing written.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.snapshots import snapshot

from .conftest import one_line_error, spawnkit


def _everything(tmp_path: Path) -> dict:
    return {"tmp": snapshot(tmp_path), "home": snapshot(Path(os.environ["HOME"]))}


def _skills_linked(project: Path, outside: Path) -> Path:
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to(outside)
    return project / ".claude" / "skills"


def _claude_linked(project: Path, outside: Path) -> Path:
    (project / ".claude").symlink_to(outside)
    return project / ".claude"


def _dangling_skill(project: Path, outside: Path) -> Path:
    (project / ".claude" / "skills").mkdir(parents=True)
    (project / ".claude" / "skills" / "evil").symlink_to(outside / "evil")
    return project / ".claude" / "skills" / "evil"


def _skill_linked(project: Path, outside: Path) -> Path:
    (outside / "evil").mkdir()
    (outside / "evil" / "SKILL.md").write_text("precious\n")
    (project / ".claude" / "skills").mkdir(parents=True)
    (project / ".claude" / "skills" / "evil").symlink_to(outside / "evil")
    return project / ".claude" / "skills" / "evil"


LAYOUTS: dict[str, Callable[[Path, Path], Path]] = {
    "skills-folder-linked-out": _skills_linked,
    "claude-folder-linked-out": _claude_linked,
    "dangling-skill-link": _dangling_skill,
    "skill-folder-linked-out": _skill_linked,
}


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_new_never_follows_a_link_out_of_the_project(project, tmp_path, layout, force):
    outside = tmp_path / "outside"
    outside.mkdir()
    link = LAYOUTS[layout](project, outside)
    before = _everything(tmp_path)
    proc = spawnkit("new", "evil", "--defaults", *(["--force"] if force else []), cwd=project)
    line = one_line_error(proc)
    assert f"{link} is a symlink" in line and "nothing was written" in line
    assert _everything(tmp_path) == before


def test_new_force_never_writes_through_a_linked_file(project, tmp_path):
    made = spawnkit("new", "mine", "--defaults", cwd=project)
    assert made.returncode == 0, made.stderr
    victim = tmp_path / "victim.md"
    victim.write_text("a file of the user's\n")
    skill_md = project / ".claude" / "skills" / "mine" / "SKILL.md"
    skill_md.unlink()
    skill_md.symlink_to(victim)
    before = _everything(tmp_path)
    proc = spawnkit("new", "mine", "--defaults", "--force", cwd=project)
    assert f"{skill_md} is a symlink to {victim}" in one_line_error(proc)
    assert _everything(tmp_path) == before


def test_a_link_inside_the_project_is_followed(project):
    (project / "shared-skills").mkdir()
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to(project / "shared-skills")
    proc = spawnkit("new", "fine", "--defaults", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert (project / "shared-skills" / "fine" / "SKILL.md").is_file()


@pytest.mark.parametrize("dry_run", [False, True])
def test_update_never_rewrites_a_skill_folder_linked_out_of_the_project(project, tmp_path, dry_run):
    outside = tmp_path / "outside"
    made = spawnkit("new", "linked", "--defaults", "--dest", str(outside / "linked"))
    assert made.returncode == 0, made.stderr
    (project / ".claude" / "skills").mkdir(parents=True)
    (project / ".claude" / "skills" / "linked").symlink_to(outside / "linked")
    before = _everything(tmp_path)
    proc = spawnkit("update", "--all", *(["--dry-run"] if dry_run else []), cwd=project)
    assert f"{project / '.claude' / 'skills' / 'linked'} is a symlink" in one_line_error(proc)
    assert _everything(tmp_path) == before


@pytest.mark.parametrize("layout", ["skills-folder-linked-out", "claude-folder-linked-out"])
def test_install_refuses_the_same_layouts_with_the_same_rule(project, tmp_path, layout):
    outside = tmp_path / "outside"
    outside.mkdir()
    link = LAYOUTS[layout](project, outside)
    before = _everything(tmp_path)
    proc = spawnkit("install", "--scope", "project", "--yes", cwd=project)
    assert f"{link} is a symlink to {outside}" in one_line_error(proc)
    assert _everything(tmp_path) == before
