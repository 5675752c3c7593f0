"""Orchestrator detection by tier (issue 25): the readings that guides, titles and prompt talk
set off are offered (preview), the rest asserted (default).

Each case is checked both ways: the file must still be read as spawning with preview on (the
reading is kept), and must not be judged by the protocol rules without it.
"""

from __future__ import annotations

import pytest
from prose import result

from spawnkit.lint import analysis


def tiers(body: str) -> tuple[bool, str]:
    found = result(body)
    return found.orchestrator, found.spawn_tier


@pytest.mark.parametrize(
    "body",
    [
        # a guide-like section: patterns, examples, best practices, recipes
        "# Agents\n\n## Setup\n\nRead the docs.\n\n## Multi-Agent Patterns\n\n"
        "Spawn three sub-agents, one per source.\n",
        "# Skill\n\n## Usage\n\n### Examples\n\nLaunch a reviewer sub-agent on the diff.\n",
        "# Guide\n\n## Composition Recipes\n\n### A research team\n\n"
        "Dispatch the researcher sub-agents in parallel.\n",
    ],
)
def test_spawning_under_a_guide_heading_is_a_preview_reading(body):
    assert tiers(body) == (True, "preview")
    assert not result(body, preview=False).orchestrator


def test_the_document_title_alone_does_not_make_a_guide():
    # "Concepts" in the H1 names the document; the steps under their own heading instruct
    body = "# Workflow Concepts\n\n## Phase 0\n\nSpawn both research agents in parallel.\n"
    assert tiers(body) == (True, "default")


def test_a_heading_that_names_spawning_is_a_title_not_a_step():
    title = "# Skill\n\n## Step 6: Spawn New Agents\n\nRun `ccgram spawn --prompt x`.\n"
    assert tiers(title) == (True, "preview")
    step = title + "\nSpawn a reviewer sub-agent for each package.\n"
    assert tiers(step) == (True, "default")


def test_a_capability_is_not_an_instruction():
    assert not result("Goose can also delegate to external sub-agents as providers.\n").orchestrator
    assert result("You will then delegate the review to a sub-agent.\n").orchestrator
    assert result("Then delegate the review to a sub-agent.\n").orchestrator


def test_a_call_written_into_prose_alone_is_a_preview_reading():
    body = '3. Task(subagent_type="milestone-planner"): You are a project planner.\n'
    assert tiers(body) == (True, "preview")


def test_every_reading_has_a_documented_tier():
    names = {f.name for f in analysis.DETECTION_FAMILIES}
    assert len(names) == len(analysis.DETECTION_FAMILIES)
    assert {analysis.HEADING, analysis.GUIDE, analysis.PROMPT_HEADER} <= names
    assert all(f.tier in ("default", "preview") and f.what for f in analysis.DETECTION_FAMILIES)
