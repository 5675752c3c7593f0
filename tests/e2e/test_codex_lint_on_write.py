"""Codex 6: apply_patch writes a skill that breaks the protocol; the model hears about it."""

from __future__ import annotations

from .codex_sandbox import PATCH_MODEL
from .fake_responses import add_file_patch, apply_patch

# names the spawn tool: the shipped calibration asserts the file, and CM001 (no cap on replies)
BAD = (
    "---\nname: fan\ndescription: Audits.\n---\n"
    "Use the Task tool to launch one sub-agent per file, all in parallel.\n"
)


def test_lint_findings_reach_the_model_after_apply_patch(codex, fake_responses):
    codex.spawnkit("install", "--host", "codex", "--mode", "warn", "--yes")
    patch = apply_patch(add_file_patch(".agents/skills/fan/SKILL.md", BAD))
    main = fake_responses.conversation("C6-ORCH", patch, "Written.")

    codex.run("C6-ORCH: write the skill", model=PATCH_MODEL)

    assert (codex.project / ".agents" / "skills" / "fan" / "SKILL.md").read_text() == BAD
    after = main.request_with_result(patch["call_id"])
    assert "spawnkit lint: .agents/skills/fan/SKILL.md breaks" in after.new_text
    assert "CM001" in after.new_text


def test_enforce_replaces_the_patch_result_with_the_findings(codex, fake_responses):
    codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    patch = apply_patch(add_file_patch(".agents/skills/fan/SKILL.md", BAD))
    main = fake_responses.conversation("C6E-ORCH", patch, "Written.")

    codex.run("C6E-ORCH: write the skill", model=PATCH_MODEL)

    result = main.request_with_result(patch["call_id"]).tool_result(patch["call_id"])
    assert result.text.startswith("spawnkit lint: .agents/skills/fan/SKILL.md breaks")
