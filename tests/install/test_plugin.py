"""The repository is also a Claude Code plugin: manifest, marketplace entry, hooks, skill."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import skills_ref
from e2e.sandbox import INSTALL_HINT, find_claude

from spawnkit import __version__
from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm
from spawnkit.lint.engine import lint_text
from tests.requires import unavailable

REPO = Path(__file__).resolve().parents[2]


def _table(hooks: dict) -> list[tuple]:
    return sorted(
        (
            (event, g.get("matcher"), h["timeout"])
            for event, groups in hooks.items()
            for g in groups
            for h in g["hooks"]
        ),
        key=str,
    )


def test_hooks_json_is_generated_from_the_table_and_up_to_date():
    text = (REPO / "hooks" / "hooks.json").read_text(encoding="utf-8")
    assert text == regs.render_plugin_hooks(), (
        "hooks/hooks.json is stale: run `python -m spawnkit.install.registrations hooks/hooks.json`"
    )


def test_plugin_hooks_match_what_install_writes(validate_settings, tmp_path: Path):
    plugin = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    installed = json.loads(sm.install(None, regs.installed_command()).text)["hooks"]
    assert _table(plugin) == _table(installed)
    assert all(
        h["command"] == regs.PLUGIN_COMMAND
        for gs in plugin.values()
        for g in gs
        for h in g["hooks"]
    )
    (tmp_path / "settings.json").write_text(json.dumps({"hooks": plugin}))
    validate_settings(tmp_path / "settings.json")  # the same schema as settings.json


def test_every_timeout_is_explicit_and_short():
    assert all(0 < r.timeout <= 30 for r in regs.registrations())


def test_manifests_carry_the_package_version():
    plugin = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())
    market = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text())
    assert plugin["name"] == "spawnkit" and plugin["version"] == __version__
    (entry,) = market["plugins"]
    assert entry["name"] == "spawnkit" and entry["source"] == "./"
    assert entry["version"] == __version__


def test_the_bundled_skill_follows_the_agent_skills_spec_and_lints_clean():
    skill = REPO / "skills" / "spawnkit"
    assert skills_ref.validate(skill) == []
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    assert lint_text(text, str(skill / "SKILL.md")) == []


def _claude() -> str:
    found = find_claude()
    if not found:
        unavailable(f"Claude Code CLI not found; {INSTALL_HINT}")
    return found


@pytest.mark.slow  # runs the real Claude Code: the fast tests run no client
@pytest.mark.parametrize("manifest", ["plugin.json", "marketplace.json"])
def test_claude_code_validates_the_manifests(manifest: str, tmp_path: Path):
    proc = subprocess.run(
        [_claude(), "plugin", "validate", str(REPO / ".claude-plugin" / manifest)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        env={
            "HOME": str(tmp_path),
            "PATH": os.environ.get("PATH", ""),
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        },
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Validation passed" in proc.stdout
