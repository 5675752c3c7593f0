"""Every skill the template generates lints clean (real copier, several answer sets)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from skill_render import render, template_copy  # noqa: E402

from spawnkit.lint.engine import lint_document  # noqa: E402

ANSWER_SETS = {
    "defaults": {},
    "claude-code-hooks": {"profile": "claude-code", "skill_hooks": True},
    "parallel-status-only": {
        "max_parallel": 2,
        "return_style": "status-only",
        "checkpoint_every": 1,
        "profile": "claude-code",
    },
    "one-step-small-budget": {
        "steps": [{"name": "scan", "job": "Scan every module for TODO comments."}],
        "return_budget": 120,
        "purpose": "a TODO inventory",
    },
    "five-steps-pairs": {
        "max_parallel": 2,
        "checkpoint_every": 2,
        "reports_dir": "out/audit-reports/",
        "steps": [
            {"name": f"part-{i}", "job": f"Audit part {i} of the code base and rate each issue."}
            for i in range(1, 6)
        ],
    },
}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return template_copy(tmp_path_factory.mktemp("template"))


@pytest.mark.parametrize("answers", list(ANSWER_SETS), ids=list(ANSWER_SETS))
def test_generated_skill_is_a_clean_orchestrator(template, tmp_path, answers):
    data = dict(ANSWER_SETS[answers])
    name = "demo-audit"
    skill = render(template, tmp_path / name, skill_name=name, **data)
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    generated_profile = data.get("profile", "portable")
    profiles = ["claude-code", "portable"] if generated_profile == "portable" else ["claude-code"]
    for profile in profiles:
        result = lint_document(text, str(skill / "SKILL.md"), profile)
        assert result.orchestrator, "the template's skill spawns sub-agents; the linter must see it"
        assert result.diagnostics == [], (profile, result.diagnostics)
    script = skill / "workflow.js"
    if script.exists():  # the workflow engine (`spawnkit new --engine workflow`): the WF rules
        result = lint_document(script.read_text(encoding="utf-8"), str(script))
        assert result.orchestrator and result.diagnostics == [], result.diagnostics


def test_claude_code_keys_are_reported_only_under_the_portable_profile(template, tmp_path):
    skill = render(
        template,
        tmp_path / "demo-audit",
        skill_name="demo-audit",
        profile="claude-code",
        skill_hooks=True,
    )
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    portable = lint_document(text, str(skill / "SKILL.md"), "portable").diagnostics
    assert {d.code for d in portable} == {"SP011"}
    assert {d.message.split("'")[1] for d in portable} == {"hooks"}


def test_the_plugins_own_skills_lint_clean():
    from spawnkit.lint.discovery import discover

    files = list(discover([ROOT / "skills"]))
    assert files, "the plugin ships at least one skill"
    for path in files:
        for profile in ("claude-code", "portable"):
            result = lint_document(path.read_text(encoding="utf-8"), str(path), profile)
            assert result.diagnostics == [], (path, profile, result.diagnostics)
