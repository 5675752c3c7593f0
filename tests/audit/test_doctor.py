"""``spawnkit doctor`` points at ``spawnkit audit`` once there are transcripts to audit."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .conftest import FIXTURES, run_cli


def _transcripts_check(cfg: Path) -> dict:
    result = run_cli("doctor", "--config-dir", str(cfg), "--json")
    checks = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    return checks["transcripts"]


def test_doctor_says_there_is_nothing_to_audit_yet(tmp_path):
    cfg = tmp_path / ".claude"
    cfg.mkdir()
    check = _transcripts_check(cfg)
    assert check["status"] == "ok" and "no session transcripts" in check["detail"]
    assert "spawnkit audit" not in check["detail"]


def test_doctor_mentions_audit_when_transcripts_exist(tmp_path, monkeypatch):
    cfg = tmp_path / ".claude"
    shutil.copytree(FIXTURES / "claude/fanout-off/projects", cfg / "projects")
    shutil.copytree(FIXTURES / "claude/mixed-off/projects", cfg / "projects", dirs_exist_ok=True)
    codex = tmp_path / "codex"
    shutil.copytree(FIXTURES / "codex/off/sessions", codex / "sessions")
    monkeypatch.setenv("CODEX_HOME", str(codex))
    check = _transcripts_check(cfg)
    assert check["status"] == "ok"
    assert check["detail"].startswith("2 Claude Code sessions, 3 Codex rollouts on disk")
    assert "spawnkit audit" in check["detail"]
    text = run_cli("doctor", "--config-dir", str(cfg)).stdout
    assert "transcripts" in text and "spawnkit audit --since 7d" in text


def test_the_bundled_skill_can_run_the_audit_and_stays_clean():
    from spawnkit.lint.engine import lint_text
    from spawnkit.standard import resources

    skill = resources.bundled_skills_dir() / "spawnkit" / "SKILL.md"
    text = skill.read_text()
    assert "spawnkit audit --since 7d" in text and "--format html" in text
    assert "Bash(spawnkit:*)" in text  # the skill may run it without asking
    assert lint_text(text, str(skill)) == []
