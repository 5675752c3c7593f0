"""What ``spawnkit lint`` checks, and honesty when it checks nothing (issue 13)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import unprivileged
from click.testing import CliRunner

from spawnkit.cli import cli

CLEAN = (
    "---\nname: notes\ndescription: Turn a transcript into notes.\n---\nSummarise the meeting.\n"
)


def _skill(root: Path, name: str, text: str) -> Path:
    return _write(root / "skills" / name / "SKILL.md", text)


def run(args, cwd: Path, env: dict | None = None):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, args, env=env, catch_exceptions=False)
    finally:
        os.chdir(old)


AGENT = "---\nname: helper\ndescription: Helps with chores.\n---\nHelp.\n"
NOT_AGENT = "# Agents\n\nNotes about the agents we use.\n"


def _files(result) -> list[str]:
    return sorted(f["path"] for f in json.loads(result.stdout)["files"])


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# --- agents/ only where Claude Code loads agents from ---------------------------------


def test_agents_folder_outside_claude_is_not_linted_as_agents(tmp_path):
    _write(tmp_path / "docs" / "agents" / "README.md", NOT_AGENT)
    _write(tmp_path / ".claude" / "agents" / "helper.md", AGENT)
    _skill(tmp_path / ".claude", "notes", CLEAN)
    result = run(["lint", "--format", "json", "."], tmp_path)
    assert result.exit_code == 0, result.output
    assert _files(result) == [".claude/agents/helper.md", ".claude/skills/notes/SKILL.md"]


def test_plugin_root_and_config_dir_agents_are_linted(tmp_path):
    plugin = tmp_path / "plug"
    _write(plugin / ".claude-plugin" / "plugin.json", '{"name": "plug"}')
    _write(plugin / "agents" / "helper.md", AGENT)
    loose = tmp_path / "loose"
    _write(loose / "agents" / "helper.md", AGENT)
    config = tmp_path / "cfg"
    _write(config / "agents" / "helper.md", AGENT)
    env = {"CLAUDE_CONFIG_DIR": str(config)}
    result = run(["lint", "--format", "json", "plug", "loose", "cfg"], tmp_path, env=env)
    assert _files(result) == ["cfg/agents/helper.md", "plug/agents/helper.md"]


def test_only_docs_under_agents_exits_2_and_names_the_reason(tmp_path):
    _write(tmp_path / "docs" / "agents" / "README.md", NOT_AGENT)
    result = run(["lint", "docs"], tmp_path)
    assert result.exit_code == 2
    assert "not a Claude Code agent" in result.output
    assert "All checks passed" not in result.output


def test_pre_commit_mode_skips_named_non_agents_and_passes_on_nothing(tmp_path):
    doc = _write(tmp_path / "docs" / "agents" / "README.md", NOT_AGENT)
    assert run(["lint", "--pre-commit", str(doc)], tmp_path).exit_code == 0
    agent = _write(tmp_path / ".claude" / "agents" / "helper.md", AGENT)
    result = run(["lint", "--pre-commit", "--format", "json", str(doc), str(agent)], tmp_path)
    assert _files(result) == [".claude/agents/helper.md"]


# --- symlinked skill folders ----------------------------------------------------------


def test_symlinked_skill_folder_is_followed(tmp_path):
    real = _skill(tmp_path / "elsewhere", "notes", CLEAN).parent
    skills = tmp_path / "home" / ".claude" / "skills"
    skills.mkdir(parents=True)
    (skills / "notes").symlink_to(real, target_is_directory=True)
    result = run(["lint", "--format", "json", "home/.claude"], tmp_path)
    assert _files(result) == ["home/.claude/skills/notes/SKILL.md"]


def test_symlink_cycle_ends_the_walk(tmp_path):
    skill = _skill(tmp_path / ".claude", "notes", CLEAN).parent
    (skill / "loop").symlink_to(tmp_path / ".claude", target_is_directory=True)
    result = run(["lint", "--format", "json", ".claude"], tmp_path)
    assert result.exit_code == 0
    assert _files(result) == [".claude/skills/notes/SKILL.md"]


# --- a run that checked nothing ---------------------------------------------------------


def test_non_markdown_file_exits_2(tmp_path):
    _write(tmp_path / "notes.txt", "hello")
    result = run(["lint", "notes.txt"], tmp_path)
    assert result.exit_code == 2 and "neither Markdown nor a workflow script" in result.output


def test_directory_named_skill_md_exits_2(tmp_path):
    (tmp_path / "SKILL.md").mkdir()
    result = run(["lint", "SKILL.md"], tmp_path)
    assert result.exit_code == 2 and "no SKILL.md" in result.output


def test_empty_select_is_a_usage_error(tmp_path):
    _skill(tmp_path, "notes", CLEAN)
    result = run(["lint", "--select", "", "skills"], tmp_path)
    assert result.exit_code == 2 and "selects no rule" in result.output


def test_unreadable_folder_exits_2():
    """Run as an ordinary user (root reads every folder): a folder lint cannot enter is exit 2."""
    home = unprivileged.private_dir()
    try:
        locked = home / "locked"
        _skill(locked, "notes", CLEAN)
        unprivileged.give_away(home)
        locked.chmod(0)
        proc = unprivileged.run(
            [sys.executable, "-m", "spawnkit", "lint", "locked"],
            cwd=home,
            capture_output=True,
            text=True,
            env={**os.environ, "HOME": str(home)},
        )
    finally:
        unprivileged.cleanup(home)
    assert proc.returncode == 2 and "cannot read folder" in proc.stderr, proc.stderr


# --- FIFOs, devices and huge files ------------------------------------------------------


def test_fifo_named_skill_md_is_skipped_with_a_warning_not_read(tmp_path):
    folder = tmp_path / "skills" / "pipe"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "SKILL.md")
    _skill(tmp_path, "notes", CLEAN)
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "spawnkit", "lint", "skills"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert time.monotonic() - started < 30
    assert "not a regular file" in proc.stderr
    assert proc.returncode == 0, proc.stdout + proc.stderr  # the other skill is clean


def test_file_over_the_size_cap_is_reported_and_skipped(tmp_path):
    big = _skill(tmp_path, "big", CLEAN + "word " * 3000)
    result = run(["lint", "--max-file-size", "10k", str(big)], tmp_path)
    assert result.exit_code == 2
    assert "over the 10,240-byte limit" in result.output
    assert run(["lint", "--max-file-size", "1MB", str(big)], tmp_path).exit_code in (0, 1)


def test_size_cap_from_the_config_and_bad_values(tmp_path):
    big = _skill(tmp_path, "big", CLEAN + "word " * 3000)
    (tmp_path / ".spawnkit.toml").write_text('max-file-size = "10k"\n')
    assert "over the 10,240-byte limit" in run(["lint", str(big)], tmp_path).output
    result = run(["lint", "--max-file-size", "lots", str(big)], tmp_path)
    assert result.exit_code == 2 and "is not a size" in result.output


# --- conflict markers -------------------------------------------------------------------


def test_conflict_markers_are_an_error_pointing_at_update(tmp_path):
    text = (
        "---\nname: notes\ndescription: Turn a transcript into notes.\n---\n"
        "<<<<<<< before updating\nFive bullets.\n=======\nThree bullets.\n>>>>>>> after updating\n"
    )
    path = _skill(tmp_path, "notes", text)
    result = run(["lint", str(path)], tmp_path)
    assert result.exit_code == 1
    assert ":5:1: SP014" in result.output and "spawnkit update" in result.output


def test_conflict_in_the_frontmatter_is_still_reported(tmp_path):
    text = (
        "---\nname: notes\n<<<<<<< before updating\ndescription: A.\n=======\n"
        "description: B.\n>>>>>>> after updating\n---\nBody.\n"
    )
    result = run(["lint", str(_skill(tmp_path, "notes", text))], tmp_path)
    assert "SP014" in result.output


def test_a_setext_heading_is_not_a_conflict(tmp_path):
    text = CLEAN + "\nTitle\n=======\n\nMore text.\n"
    assert "SP014" not in run(["lint", str(_skill(tmp_path, "notes", text))], tmp_path).output
