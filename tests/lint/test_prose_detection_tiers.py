"""The readings that guides, titles and prompt talk set off (issue 25) are readings of their own,
so the calibrated decision (issue 34) can weigh them apart from a spawn step in the file's own
instructions: each case checks which reading fires, and that the file is still found spawning
with preview on. Whether the default tier asserts it is the calibrated decision's
(test_calibration.py tests that mechanism; docs/lint-accuracy.md has the figures).
"""

from __future__ import annotations

import pytest
from prose import HEAD, PATH, result

from spawnkit.lint import analysis
from spawnkit.lint.document import Document
from spawnkit.lint.evidence import CALIBRATED


def readings(body: str) -> set[str]:
    return {m.family for m in analysis.analyse(Document(PATH, HEAD + body)).marks}


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
def test_spawning_under_a_guide_heading_is_a_reading_of_its_own(body):
    assert readings(body) == {analysis.GUIDE}
    assert result(body).orchestrator


def test_the_document_title_alone_does_not_make_a_guide():
    # "Concepts" in the H1 names the document; the steps under their own heading instruct
    body = "# Workflow Concepts\n\n## Phase 0\n\nSpawn both research agents in parallel.\n"
    assert readings(body) == {analysis.AGENT_OBJECT}


def test_a_heading_that_names_spawning_is_a_title_not_a_step():
    title = "# Skill\n\n## Step 6: Spawn New Agents\n\nRun `ccgram spawn --prompt x`.\n"
    assert readings(title) == {analysis.HEADING}
    step = title + "\nSpawn a reviewer sub-agent for each package.\n"
    assert readings(step) == {analysis.HEADING, analysis.AGENT_OBJECT}


def test_a_capability_is_not_an_instruction():
    assert not result("Goose can also delegate to external sub-agents as providers.\n").orchestrator
    assert result("You will then delegate the review to a sub-agent.\n").orchestrator
    assert result("Then delegate the review to a sub-agent.\n").orchestrator


def test_a_call_written_into_prose_alone_is_its_own_reading():
    body = '3. Task(subagent_type="milestone-planner"): You are a project planner.\n'
    assert readings(body) == {analysis.PROSE_CALL}
    assert result(body).orchestrator


def test_every_reading_is_documented_and_weighed_by_the_calibrated_decision():
    names = {f.name for f in analysis.DETECTION_FAMILIES}
    assert len(names) == len(analysis.DETECTION_FAMILIES)
    assert {analysis.HEADING, analysis.GUIDE, analysis.PROMPT_HEADER} <= names
    assert all(f.tier == CALIBRATED and f.what for f in analysis.DETECTION_FAMILIES)
