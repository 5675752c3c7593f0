"""Wordings met on batch 5 of benchmarks/data/lint-real (scored once blind, then tuned on; see
docs/lint-accuracy.md): calls written into a sentence, "this skill spawns …", a prohibition that
opens a Chinese clause, and the look-alikes that must stay quiet — agents of other programs and
peers, browser workers, agents written as definition files, hook scripts reading a payload."""

from __future__ import annotations

import pytest
from prose import result

from spawnkit.lint.engine import lint_document


@pytest.mark.parametrize(
    "body",
    [
        'Search each folder (`subagent_type: "Explore"`) and list what it holds.\n',
        "- subagent_type=`domain-reviewer` 做物理 root-cause\n",
        "Checkpoint before every `Skill()` or `Agent()` call.\n",
        '3. Task(subagent_type="milestone-planner"): You are a project planner.\n',
    ],
)
def test_calls_written_into_a_sentence_are_one_reading(body):
    # one reading, call-in-prose, for every call in a sentence (0.87 precision on the 841
    # labelled files: the calibrated decision weighs it, docs/lint-accuracy.md)
    got = result(body)
    assert got.orchestrator and got.spawn_tier in ("default", "preview"), body
    assert {m.family for m in analyse_marks(body)} == {"call-in-prose"}, body


@pytest.mark.parametrize(
    "body",
    [
        "This skill spawns specialist subagents for each phase of the workflow.\n",
        # French around the borrowed noun: the other-language reading, whatever the call says
        "Pour chaque skill, lancer un sub-agent en parallèle via l'outil Agent"
        ' (`subagent_type: "Explore"`).\n',
    ],
)
def test_the_skill_in_the_third_person_and_french_spawn(body):
    assert result(body).orchestrator, body
    assert {m.family for m in analyse_marks(body)} & {"orchestrator-spawns", "other-language"}


def analyse_marks(body: str):
    from prose import HEAD, PATH

    from spawnkit.lint.analysis import analyse
    from spawnkit.lint.document import Document

    return analyse(Document(PATH, HEAD + body, "pyyaml")).marks


@pytest.mark.parametrize(
    "body",
    [
        "Start a peer Codex agent: a separate Codex thread working beside this one.\n",
        "Use codex exec to spawn Codex as a sub-agent.\n",
        "Invoke the Gemini agent for sub-tasks using structured JSON output.\n",
        "Step 5 — Delegate cleanup to the node-local agent.\n",
        "Then delegate cleanup to each node's local agent via a ticket.\n",
        "Use Dedicated Workers (standard) for tasks specific to a single page.\n",
        "Always create sub-agents as Markdown files with YAML frontmatter.\n",
        "This skill uses the sandbox pattern: the agent runs on CPU and sends work to a GPU.\n",
        "Do not start a sub-agent: run `subagent_type` checks in the hook instead.\n",
        "普通任务不需要加载本 Skill，也不要仅因任务可以拆分就主动创建子 Agent。\n",
    ],
)
def test_other_programs_definitions_and_prohibitions_are_not_spawning(body):
    assert not result(body).orchestrator, body


@pytest.mark.parametrize(
    ("body", "spawns"),
    [
        ("Spawn three dedicated workers to review the files.\n", True),  # "dedicated" counts
        ("Create a subagent to review the diff.\n", True),  # not a definition file
        ("Use the Codex CLI's own agent.\n", False),
    ],
)
def test_the_look_alike_tests_keep_their_neighbours(body, spawns):
    assert result(body).orchestrator is spawns, body


def test_an_agent_prompt_template_is_not_an_agent_started():
    # "Agent Prompt Template" names a prompt (a preview reading), not an agent to start
    got = result("Use the Unified Agent Prompt Template, adapted to the domain.\n")
    assert got.spawn_tier == "preview"
    assert not result("Use the Unified Agent Prompt Template.\n", preview=False).orchestrator


HOOKS = "---\nname: hooks-architect\ndescription: Designs hooks.\ntools: Read, Write\n---\n"
SCRIPT = (
    "```bash\n"
    'input=$(cat)\nsubagent_type=$(echo "$input" | jq -r \'.subagent_type // "unknown"\')\n'
    'case "$subagent_type" in\n  reviewer) echo ok ;;\nesac\n'
    "```\n"
)


def test_a_hook_script_reading_the_agent_type_starts_nothing():
    path = "skills/hooks-architect/SKILL.md"
    head = HOOKS.replace("tools: Read, Write\n", "")
    assert not lint_document(head + SCRIPT, path, preview=True).orchestrator
    # the same script that also calls the spawn tool does start one
    call = SCRIPT.replace("esac\n", 'esac\nTask(subagent_type="reviewer", prompt="x")\n')
    assert lint_document(head + call, path, preview=True).orchestrator
