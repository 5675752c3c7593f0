"""Orchestrator detection reads instructions, not keywords."""

from __future__ import annotations

import pytest

from spawnkit.lint.analysis import analyse
from spawnkit.lint.document import Document

HEAD = "---\nname: x\ndescription: d\n---\n"


@pytest.mark.parametrize(
    "body",
    [
        "Use the Agent tool to review each file.",
        "For each file, spawn a reviewer.",
        "Then dispatch a sub-agent per module.",
        "1. Launch a sub-agent with the prompt below.",
        "| 2 | Run the checker sub-agent via the Task tool |",
        "You call the Agent tool once per package.",
        "Work through the checklist with one helper sub-agent per item.",
        "```python\nAgent(subagent_type='Explore', prompt='List TODOs')\n```",
    ],
)
def test_orchestrators(body):
    assert analyse(Document("skills/x/SKILL.md", HEAD + body + "\n")).orchestrator


@pytest.mark.parametrize(
    "body",
    [
        "Claude Code can delegate work to sub-agents.",
        "Does the orchestrator launch workers all in parallel?",
        "Do not spawn sub-agents; do the work yourself.",
        "An orchestrator spawns worker agents and collects their results.",
        "Classify each user agent string in the access log.",
        "There is no need to hand this to a sub-agent.",
        "The orchestrator that spawned you needs a short answer.",
        "Explain how to spawn agents when the user asks.",
    ],
)
def test_not_orchestrators(body):
    assert not analyse(Document("skills/x/SKILL.md", HEAD + body + "\n")).orchestrator


def test_allowed_tools_alone_is_not_orchestration():
    doc = Document(
        "skills/x/SKILL.md",
        "---\nname: x\ndescription: d\nallowed-tools: Agent Task\n---\nFormat code.\n",
    )
    assert not analyse(doc).orchestrator


def test_context_fork_is_orchestration():
    assert analyse(
        Document("skills/x/SKILL.md", "---\nname: x\ndescription: d\ncontext: fork\n---\nDo it.\n")
    ).orchestrator
