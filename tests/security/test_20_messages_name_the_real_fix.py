"""Issue 21, item 8: four refusals whose advice was wrong or missing.

``.spawnkit.toml``'s ``exclude`` error suggested rule codes (it takes path globs); "cannot
write /proc/x.html: No such file or directory" gave no fix (and came after the whole audit);
a hooks.json refused under Codex said "Claude Code ignores this file"; ``doctor`` with
``CLAUDE_CONFIG_DIR`` set to a file said "run spawnkit install", which then refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import one_line_error, run_cli, spawnkit

SKILL = "---\nname: a\ndescription: Says hello.\n---\n\nSay hello.\n"


def test_exclude_is_explained_as_path_globs(project: Path):
    (project / "a").mkdir()
    (project / "a" / "SKILL.md").write_text(SKILL)
    (project / ".spawnkit.toml").write_text('exclude = "vendor"\n')
    line = one_line_error(spawnkit("lint", "a", cwd=project))
    assert "exclude must be a list of path globs" in line and '"vendor/**"' in line
    assert "CM005" not in line


@pytest.mark.parametrize("target", ["/proc/x.html", "/sys/x.html"])
def test_an_output_that_cannot_be_written_is_refused_first_with_a_fix(project: Path, target):
    (project / "t").mkdir()
    line = one_line_error(spawnkit("audit", "--format", "html", "-o", target, "t", cwd=project))
    assert line.startswith(f"spawnkit: error: cannot write {target}: ")
    assert "pass -o a file in a folder you can write" in line


def test_a_codex_hooks_file_refusal_says_nothing_about_claude_code(tmp_path: Path):
    codex, claude = tmp_path / "codex", tmp_path / "claude"
    for folder, name in ((codex, "hooks.json"), (claude, "settings.json")):
        folder.mkdir()
        (folder / name).write_text('{"hooks": [1]}')
    line = one_line_error(spawnkit("install", "--host", "codex", "--config-dir", str(codex)))
    assert '"hooks" must be an object' in line and "Claude Code" not in line
    line = one_line_error(spawnkit("install", "--config-dir", str(claude)))
    assert "Claude Code ignores this file" in line  # observed for Claude Code: still said


def test_a_config_folder_that_is_a_file_gets_its_real_fix(tmp_path: Path, monkeypatch):
    not_a_folder = tmp_path / "claude-config"
    not_a_folder.write_text("a file\n")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(not_a_folder))
    doctor = run_cli("doctor", "--json")
    assert doctor.exit_code == 1
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    fix = checks["config folder"]["fix"]
    assert "point CLAUDE_CONFIG_DIR at a folder" in fix and "spawnkit install" not in fix
    assert all("spawnkit install" not in c["fix"] for c in checks.values())
    install = spawnkit("install", "--yes")
    assert "point CLAUDE_CONFIG_DIR at a folder" in one_line_error(install)
    assert not_a_folder.read_text() == "a file\n"
