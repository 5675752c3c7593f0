"""Copilot 6: create/edit write a skill that breaks the protocol; the model hears about it."""

from __future__ import annotations

from .fake_chat import tool_call

# names the spawn tool: the shipped calibration asserts the file, and CM001 (no cap on replies)
BAD = (
    "---\nname: fan\ndescription: Audits.\n---\n"
    "Use the Task tool to launch one sub-agent per file, all in parallel.\n"
)


def _write(copilot, fake_chat, tag: str):
    skill = copilot.project / ".github" / "skills" / "fan" / "SKILL.md"
    skill.parent.mkdir(parents=True)  # Copilot's create makes no folders
    create = tool_call("create", {"path": str(skill), "file_text": BAD})
    edit = tool_call("edit", {"path": str(skill), "old_str": "Audits.", "new_str": "Audits all."})
    main = fake_chat.conversation(f"{tag}-ORCH", create, edit, "Written.")
    copilot.run(f"{tag}-ORCH: write the skill")
    assert skill.read_text() == BAD.replace("Audits.", "Audits all.")
    return main, create, edit


def test_lint_findings_reach_the_model_after_create_and_edit(copilot, fake_chat):
    copilot.spawnkit("install", "--host", "copilot", "--mode", "warn", "--yes")
    main, create, edit = _write(copilot, fake_chat, "P6")
    for call in (create, edit):
        after = main.request_with_result(call["id"]).tool_result(call["id"]).text
        assert after.startswith(("Created file", "File "))  # the tool's own result stays ...
        assert "Additional guidance from postToolUse hooks:" in after  # ... with ours after it
        assert "spawnkit lint: .github/skills/fan/SKILL.md breaks" in after and "CM001" in after


def test_enforce_replaces_the_result_with_the_findings(copilot, fake_chat):
    copilot.spawnkit("install", "--host", "copilot", "--mode", "enforce", "--yes")
    main, create, _ = _write(copilot, fake_chat, "P6E")
    result = main.request_with_result(create["id"]).tool_result(create["id"]).text
    assert result.startswith("spawnkit lint: .github/skills/fan/SKILL.md breaks")
    assert "CM001" in result
