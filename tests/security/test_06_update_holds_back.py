"""Reproduction 6: `spawnkit update` overwrote or skipped files silently.

A user's binary rewrite of ``scripts/state.py`` was replaced (exit 0, no
conflict); a symlinked ``SKILL.md`` was skipped without a word while ``_commit``
advanced, so the template change was lost for good; read-only files were replaced
and their modes reset. Now such files are held back and reported (exit 1), the
template's version of each is saved in the skill's backup so nothing is lost,
modes stay as the user set them, and ``_commit`` moves only with every file
applied or reported.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
import unprivileged
import yaml
from update_helpers import V1, build_store, generate, make_env, real_files

from spawnkit.template import update as updating

V2 = "0.0.2"
STATE_TPL = "template/scripts/state.py.jinja"
SKILL_TPL = "template/SKILL.md.jinja"
EXTRA_TPL = "template/reference/extra.md"
V2_LINE = b"\n# state.py line added by template v2\n"
BINARY = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4


def _versions() -> dict:
    v1 = {**real_files(), EXTRA_TPL: ("100644", b"extra v1\n")}
    v2 = dict(v1)
    for rel, added in ((STATE_TPL, V2_LINE), (SKILL_TPL, b"\nTemplate v2 closing line.\n")):
        mode, data = v1[rel]
        v2[rel] = (mode, data + added)
    v2[EXTRA_TPL] = ("100644", b"extra v1\nextra v2\n")
    return {V1: v1, V2: v2}


@pytest.fixture
def env(tmp_path, monkeypatch):
    env = make_env(tmp_path, monkeypatch)
    build_store(env.config, _versions())
    env.skill = generate(env.config, V1, env.config / "skills" / "demo")
    return env


def _update(env) -> dict:
    outcome = updating.update(("demo",), env.config, env.project, to_tag=V2)
    assert outcome.exit_code == 1, "held-back files need the user's attention"
    [result] = outcome.to_json()["skills"]
    return result


def _commit(skill: Path) -> str:
    return yaml.safe_load((skill / ".copier-answers.yml").read_text())["_commit"]


def _skipped(result: dict) -> dict[str, dict]:
    return {item["file"]: item for item in result.get("skipped", [])}


def test_a_binary_rewrite_is_kept_and_reported(env):
    state = env.skill / "scripts" / "state.py"
    state.write_bytes(BINARY)
    result = _update(env)
    assert state.read_bytes() == BINARY
    item = _skipped(result)["scripts/state.py"]
    assert "cannot be merged" in item["reason"]
    saved = Path(item["template_version"])
    assert saved.is_file() and V2_LINE.strip() in saved.read_bytes()
    assert b"Template v2 closing line." in (env.skill / "SKILL.md").read_bytes()  # the rest applied
    assert _commit(env.skill) == V2


def test_a_symlinked_skill_md_is_not_written_through_and_is_reported(env, tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "SKILL.md"
    os.replace(env.skill / "SKILL.md", real)
    (env.skill / "SKILL.md").symlink_to(real)
    before = real.read_bytes()
    result = _update(env)
    assert (env.skill / "SKILL.md").is_symlink() and real.read_bytes() == before
    item = _skipped(result)["SKILL.md"]
    assert "symlink" in item["reason"]
    assert b"Template v2 closing line." in Path(item["template_version"]).read_bytes()
    assert sorted(p.name for p in dotfiles.iterdir()) == ["SKILL.md"]


def test_a_read_only_file_keeps_its_content_and_mode(env):
    extra = env.skill / "reference" / "extra.md"
    extra.chmod(0o444)
    state = env.skill / "scripts" / "state.py"
    state.chmod(0o700)  # a mode of the user's on a file the update does change
    result = _update(env)
    assert extra.read_bytes() == b"extra v1\n"
    assert stat.S_IMODE(extra.stat().st_mode) == 0o444
    assert "read-only" in _skipped(result)["reference/extra.md"]["reason"]
    assert V2_LINE.strip() in state.read_bytes()
    assert stat.S_IMODE(state.stat().st_mode) == 0o700


def test_as_an_ordinary_user_a_read_only_file_is_reported_not_replaced():
    """Through the CLI, as a user the permission bits apply to; to the running version."""
    root = unprivileged.private_dir()
    try:
        home, project = root / "home", root / "project"
        project.mkdir(parents=True)
        config = home / ".claude"
        v1 = real_files()
        mode, data = v1[STATE_TPL]
        build_store(config, {V1: {**v1, STATE_TPL: (mode, data + b"\n# only in v1\n")}})
        skill = generate(config, V1, config / "skills" / "demo")
        state = skill / "scripts" / "state.py"
        state.chmod(0o555)
        before = state.read_bytes()
        unprivileged.give_away(root)
        proc = unprivileged.run(
            [sys.executable, "-m", "spawnkit", "update", "demo", "--json"],
            capture_output=True,
            text=True,
            cwd=project,
            env={**os.environ, "HOME": str(home), "CLAUDE_CONFIG_DIR": str(config)},
        )
        assert proc.returncode == 1, proc.stderr
        [result] = json.loads(proc.stdout)["skills"]
        assert "read-only" in _skipped(result)["scripts/state.py"]["reason"]
        assert state.read_bytes() == before
        assert stat.S_IMODE(state.stat().st_mode) == 0o555
    finally:
        unprivileged.cleanup(root)
