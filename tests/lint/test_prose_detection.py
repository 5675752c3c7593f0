"""Wordings seen in real skills (issue 13): spawning in prose, fan-outs without a number,
report read-backs of every kind, checkpoint phrasings — and the look-alikes that must stay quiet."""

from __future__ import annotations

import pytest
from prose import codes, result

# --- spawning stated in prose -------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "**USE PARALLEL AGENTS** to follow these steps:\n\n- read the docs\n",
        "Analyze the codebase using PARALLEL SUBAGENTS.\n",
        "Use the `code-reviewer` agent to review the diff.\n",
        "Invoke the subagent-auditor subagent to audit $ARGUMENTS.\n",
        "Use the recruiter subagent to perform a talent scan.\n",
        "Deploy subagents for each phase of the plan.\n",
        "Fan out with parallel subagents against what the sections need.\n",
        "**Step 2: Execute with Agent**\nUse the spec-task-executor agent:\n",
        "Launch three independent voices as fresh subagents.\n",
        "Subagent per user-supplied input, each writing its extract.\n",
        "Then check the result with six parallel agents.\n",
    ],
)
def test_prose_spawning_makes_an_orchestrator(body):
    assert result(body).orchestrator, body


def test_steps_wrapped_in_a_container_tag_are_read():
    body = (
        "<process>\n## Step 1\n\nLaunch two specialized agents using the Task tool.\n</process>\n"
    )
    assert result(body).orchestrator


def test_a_prompt_tag_introduced_by_a_colon_stays_a_prompt():
    body = "Spawn a sub-agent with this prompt:\n\n<task>\nReview the code.\n</task>\n"
    res = result(body)
    assert res.orchestrator and "CM001" in {d.code for d in res.diagnostics}


def test_granted_spawn_tool_lets_looser_wording_count():
    body = "Run the review with the agents listed below on the diff.\n"
    assert not result(body).orchestrator
    granted = "name: demo-audit\ndescription: Audit.\nallowed-tools: Read, Task\n"
    assert result(body, front=granted).orchestrator


@pytest.mark.parametrize(
    "body",
    [
        "Agents are autonomous subprocesses spawned via the Task tool.\n",
        "Critical: you MUST NOT dispatch, spawn, or delegate to sub-agents.\n",
        "Create the `agent-os/product/` directory if it doesn't exist.\n",
        "Generate a complete, ready-to-use sub-agent configuration file.\n",
        "Run pressure scenario with subagent WITHOUT the skill.\n",
        "Use agents wisely.\n",
        "Create agent files under agents/.\n",
        "```python\nagent = Agent(name='x', instructions='y')\n```\n",
    ],
)
def test_look_alikes_are_not_orchestrators(body):
    assert not result(body).orchestrator, body


def test_an_agent_whose_tools_lack_the_spawn_tool_cannot_orchestrate():
    front = "name: helper\ndescription: Helps.\ntools: Read, Grep\n"
    body = "Use the code-reviewer agent to review the diff.\n"
    assert not result(body, front=front, path="agents/helper.md").orchestrator
    assert result(
        body, front="name: helper\ndescription: Helps.\n", path="agents/helper.md"
    ).orchestrator


def test_disallowed_spawn_tool_even_in_frontmatter_yaml_cannot_read():
    front = "description: Plan only: no agents\nargument-hint: [a] [b]\ndisallowed-tools: Task\n"
    body = "Deploy agents with Task to execute assigned work.\n"
    assert not result(body, front=front, path="commands/plan.md").orchestrator


# --- CM005 fan-out --------------------------------------------------------------------------


def cm005(body: str) -> list[str]:
    return [d.message for d in result(body).diagnostics if d.code == "CM005"]


def test_parallel_agents_without_a_number():
    assert cm005("**USE PARALLEL AGENTS** to follow these steps.\n")


def test_a_count_before_the_noun_is_a_cap():
    assert any("allows 4" in m for m in cm005("Spawn 4 review subagents in parallel.\n"))
    assert any("allows 6" in m for m in cm005("Fan them out across six parallel agents.\n"))
    assert not cm005("Launch both agents in parallel.\n")


def test_listed_agents_after_a_colon_are_counted():
    three = "Launch these agents in parallel:\n\n- Agent 1: modules\n- Agent 2: APIs\n- Agent 3: tests\n"
    two = "Fan out subagents in parallel:\n\n- Artifact Analyzer\n- Web Researcher\n"
    assert any("allows 3" in m for m in cm005(three))
    assert not cm005(two)


def test_max_parallel_settings_are_caps():
    assert any(
        "allows 4" in m
        for m in cm005('Settings: `"max_parallel": 4` agents.\n\nLaunch agents in parallel.\n')
    )
    assert any(
        "allows 4" in m
        for m in cm005(
            "Use `--max-agents` - Maximum parallel agents (default: 4).\n\nLaunch agents in parallel.\n"
        )
    )


def test_a_limit_that_is_not_about_agents_caps_nothing():
    body = "Maximum 10 total passes.\n\nAsk one question at a time.\n\nUse parallel subagents to scan.\n"
    assert any("without a stated cap" in m for m in cm005(body))


# --- CM006 read-backs -------------------------------------------------------------------------


def cm006(body: str) -> bool:
    return "CM006" in codes("Spawn a sub-agent per package.\n\n" + body)


def test_the_lead_agent_reading_notes_is_a_read_back():
    assert cm006("Lead agent reads all task notes and builds a registry.\n")


def test_a_report_pasted_into_a_later_prompt():
    prompt = (
        "Then spawn the architect agent with this prompt:\n\n```\nDesign it.\n"
        "Repository Context: [Include repository scan results]\n```\n"
    )
    assert cm006(prompt)
    assert cm006("Insert the full contents of the scan report into the architect's prompt.\n")


def test_pasted_command_output_and_redirects_are_not_read_backs():
    prompt = "Spawn the executor agent with this prompt:\n\n```\n[PASTE THE OUTPUT FROM get-tasks COMMAND HERE]\n```\n"
    assert not cm006(prompt)
    assert not cm006("Concatenate with `cat .demo-audit-reports/*.md > ALL.md`.\n")


# --- CM003 / CM007 state and checkpoints ------------------------------------------------------


def test_a_run_log_is_a_state_file_updated_at_every_decision():
    body = (
        "Spawn one sub-agent per section, one at a time.\n\n"
        "`.memlog.md` is the run's memory: append every decision to it at every decision.\n"
        "On start, resume from an unfinished memlog.\n"
    )
    found = codes(body)
    assert "CM003" not in found and "CM007" not in found


def test_as_soon_as_each_agent_returns_is_a_checkpoint():
    body = (
        "Keep `.demo-audit-reports/state-<ts>.json`; resume from an unfinished one at start.\n\n"
        "Spawn one sub-agent per package, one at a time. Update the state file as soon as it "
        "returns.\n"
    )
    assert "CM007" not in codes(body)


# --- SP011: a typo is an error, an extra key a warning ------------------------------------------


def test_misspelt_key_is_an_error_and_extra_key_a_warning():
    front = "name: demo-audit\ndescription: Audit.\nallowed_tools: Read\ncategory: tools\n"
    found = {
        (d.message.split("'")[1], d.severity)
        for d in result("Audit.\n", front=front).diagnostics
        if d.code == "SP011"
    }
    assert found == {("allowed_tools", "error"), ("category", "warning")}
