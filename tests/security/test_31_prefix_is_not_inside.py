"""Issue 30: containment by string prefix, a bug the whole suite let through.

Planted in a scratch copy on 2026-11-28: ``realpath(target).startswith(root)`` without the
separator. With ``proj/.claude/skills`` linked to ``../proj-evil``, ``spawnkit new`` wrote the
skill into ``proj-evil``, and every read would take ``proj-evil`` for a part of ``proj``. The
one test (``spawnkit.base.lightos.inside``, used by ``files.contain`` for writes and reads)
compares with the separator; these tests fail when it does not (checked by planting the bug:
see the commit that added them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spawnkit.base import lightos
from spawnkit.files import contain, reading
from tests.snapshots import snapshot

from .conftest import one_line_error, spawnkit
from .hostile import SECRETS, watched

SIBLINGS = [("proj", "proj-evil"), ("proj", "proj2"), ("a/b", "a/b.c"), ("p", "p_")]


@pytest.fixture
def twins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """``proj`` (the working folder) and ``proj-evil`` beside it, which ``proj``'s
    ``.claude/skills`` links to by a relative link."""
    proj, evil = tmp_path / "proj", tmp_path / "proj-evil"
    proj.mkdir()
    evil.mkdir()
    (proj / ".claude").mkdir()
    (proj / ".claude" / "skills").symlink_to(Path("..") / ".." / "proj-evil")
    monkeypatch.chdir(proj)
    return proj, evil


@pytest.mark.parametrize(("root", "sibling"), SIBLINGS)
def test_a_sibling_sharing_the_prefix_is_not_inside(tmp_path, root, sibling):
    (tmp_path / root).mkdir(parents=True)
    (tmp_path / sibling).mkdir(parents=True, exist_ok=True)
    (tmp_path / sibling / "f").write_text("x")
    outside = str(tmp_path / sibling / "f")
    assert not lightos.inside(outside, str(tmp_path / root))
    assert not contain.inside(outside, tmp_path / root)
    link = tmp_path / root / "link"
    link.symlink_to(tmp_path / sibling / "f")
    assert not contain.inside(link, tmp_path / root)  # through a link: the slow path
    assert contain.inside(tmp_path / root / "plain", tmp_path / root)


def test_the_root_and_what_is_below_it_are_inside(tmp_path):
    assert lightos.inside("/", "/") and lightos.inside(str(tmp_path), "/")
    assert contain.inside(tmp_path, tmp_path) and contain.inside(tmp_path / "x" / "y", tmp_path)


def test_new_writes_nothing_into_the_sibling(twins, tmp_path):
    proj, evil = twins
    before = snapshot(tmp_path)
    proc = spawnkit("new", "evil", "--defaults", cwd=proj)
    line = one_line_error(proc)
    assert f"{proj / '.claude' / 'skills'} is a symlink" in line and "outside" in line
    assert snapshot(tmp_path) == before
    assert not any(evil.iterdir())


def test_a_read_does_not_take_the_sibling_for_the_project(twins, tmp_path):
    proj, evil = twins
    (evil / "s").mkdir()
    (evil / "s" / "SKILL.md").write_text(SECRETS["skill.md"])
    with pytest.raises(contain.Outside):
        reading.read_bytes(proj / ".claude" / "skills" / "s" / "SKILL.md", root=proj)
    for where in ([".claude"], []):
        run = watched("lint", "--format", "json", *where, cwd=proj)
        assert "SECRET" not in run.text, run.text
        assert "skills: skipped: a link out of" in run.err, run.err


def test_a_write_root_on_the_slow_path_still_compares_with_the_separator(tmp_path):
    """``inside`` on real paths (the write rule resolves every link on the way first)."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj-evil").mkdir()
    (tmp_path / "proj" / "x").symlink_to(tmp_path / "proj-evil")
    why = contain.problem(tmp_path / "proj" / "x" / "f", tmp_path / "proj")
    assert why is not None and "outside" in why
    assert os.path.realpath(tmp_path / "proj" / "x").startswith(str(tmp_path / "proj"))
