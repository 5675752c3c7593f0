"""Scenario 4: the model writes a skill that breaks the protocol and is told so next turn."""

from __future__ import annotations

import re

from .fake_api import tool_use

BAD_SKILL = """\
---
name: sloppy-audit
description: Audits every <module> of the repository by spawning one sub-agent per module.
---
# Sloppy audit

1. List the modules of the repository.
2. Use the Agent tool to spawn one agent per module, all of them at once, in parallel.
3. Ask each agent to reply with everything it found, in full, including file contents.
4. When all are done, read each agent's full output and write the summary.
"""
CODE = re.compile(r"\b(?:CM|SP)0\d\d\b")


def test_a_protocol_breaking_skill_write_is_linted_into_the_next_request(claude, fake_api):
    claude.spawnkit("install", "--mode", "warn", "--yes")
    path = claude.project / ".claude" / "skills" / "sloppy-audit" / "SKILL.md"
    write = tool_use("Write", {"file_path": str(path), "content": BAD_SKILL})
    main = fake_api.conversation("S4-BAD", write, "Skill written.")

    run = claude.run("S4-BAD: write me an audit skill")

    assert path.read_text() == BAD_SKILL  # the write itself went through
    seen = main.request_with_result(write["id"]).new_text
    # the default tier: CM001 (asserted by the calibrated decision: the file names the spawn
    # tool) and SP010 (the angle brackets); the rest is offered with --preview
    assert "CM001" in seen and "SP010" in seen and "spawnkit rule" in seen
    assert len(CODE.findall(seen)) >= 2  # each violation named, one line each
    assert any(CODE.search(m) for m in run.system_messages("PostToolUse"))


def test_an_edit_that_keeps_a_generated_skill_clean_stays_silent(claude, fake_api):
    claude.spawnkit("install", "--mode", "warn", "--yes")
    skill = claude.project / ".claude" / "skills" / "tidy-audit"
    claude.spawnkit("new", "tidy-audit", "--defaults", "--dest", str(skill))
    path = skill / "SKILL.md"
    head = 'description: "'
    assert head in path.read_text()
    read = tool_use("Read", {"file_path": str(path)})
    edit = tool_use(
        "Edit", {"file_path": str(path), "old_string": head, "new_string": head + "Reviewed. "}
    )
    main = fake_api.conversation("S4-CLEAN", read, edit, "Edited.")

    run = claude.run("S4-CLEAN: polish the skill description")

    assert "Reviewed." in path.read_text()
    after = main.request_with_result(edit["id"])
    assert not after.tool_result(edit["id"]).is_error
    assert not CODE.search(after.new_text)
    assert run.system_messages("PostToolUse") == []
