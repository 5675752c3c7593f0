"""Wordings met on the grown tuning half (batch 2 of benchmarks/data/lint-real): spawning in
modal, third-person and "in a subagent" form, fan-outs stated by structure, state kept in
trackers and ticked plans, read-backs of files a sub-agent wrote, output pasted on — and the
look-alikes (guides, advice, quoted speech, CLI loops) that must stay quiet."""

from __future__ import annotations

import pytest
from prose import codes, messages, result

from spawnkit.lint.markdown import parse

# --- detection: more ways to say "spawn" ----------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "**CRITICAL**: MUST spawn these EXACT agents using Task().\n",
        "4. **Run every remaining mission in a subagent** through the tdd discipline.\n",
        "After the last task, the orchestrator dispatches a fresh Verifier sub-agent.\n",
        "For each sub-agent, clearly delegate its task and capture its output.\n",
        "1. **Explore** using Explore agent (thorough mode)\n",
        "Spawn ALL of the following agents in parallel:\n\n- code-auditor\n- bug-auditor\n",
        "If gaps remain, iterate (spawn sub-agents again) until confident.\n",
        "Spawn `fix-planner` to read the audit files.\n",
        "### With Subagents\n\n1. Dispatch Group A tasks (max 2 concurrent).\n",
    ],
)
def test_more_spawn_wordings_make_an_orchestrator(body):
    assert result(body).orchestrator, body


def test_steps_inside_an_instructions_tag_are_read_even_when_indented():
    body = (
        "<instructions>\n  <orchestrator_role>\n    **You MUST:**\n"
        "      - Use Task tool to delegate ALL debugging work\n  </orchestrator_role>\n"
        "</instructions>\n"
    )
    assert result(body).orchestrator


def test_a_code_sketch_naming_the_granted_spawn_tool():
    front = "name: demo-audit\ndescription: Audit.\nallowed-tools: Read, Task\n"
    body = "```\nTask tool を並列起動:\n- agent1: src/components/\n- agent2: src/lib/\n```\n"
    assert result(body, front=front).orchestrator
    assert not result(body).orchestrator


@pytest.mark.parametrize(
    "body",
    [
        "Report cycle results and spawn next cycle.\n",
        "### 3. Dispatch failure iteration\n\nRetry the next ready issue.\n",
        "Give each agent its own named workspace so it is visible in the sidebar.\n",
        '5. Suggest: "Next time you run parallel agents via /dispatch, this is automatic"\n',
        "**Use Subagents for:**\n\n- Complex workflows requiring isolated context\n",
        "Run agents in parallel when the work surfaces are independent.\n",
        "**Solution:** Separate concerns, use subagents or multiple skills.\n",
        "### 3. Write the Subagent Prompt\n\nKeep it short.\n",
        "You work in tandem with the task-orchestrator agent.\n",
    ],
)
def test_advice_guides_and_other_objects_are_not_orchestrators(body):
    assert not result(body).orchestrator, body


def test_allowed_tools_that_list_whole_tools_without_the_spawn_tool():
    body = "Use the code-reviewer agent to review the diff.\n"
    listed = "name: demo-audit\ndescription: Audit.\nallowed-tools: Read, Grep, Bash\n"
    assert not result(body, front=listed).orchestrator
    # scoped grants only pre-approve commands: they say nothing about sub-agents
    scoped = 'name: demo-audit\ndescription: Audit.\nallowed-tools: "Bash(python3 x.py *)"\n'
    assert result(body, front=scoped).orchestrator


# --- CM005: fan-outs without a parallel word, and remarks that cap nothing -------------------


@pytest.mark.parametrize(
    "body",
    [
        "For each participant, spawn an agent that researches them.\n",
        "Spawn researcher subagents for each subtopic.\n",
        "- For each URL in the README:\n  1. Use the Task tool to invoke the fetcher subagent\n",
        "Use the host's parallel subagent mechanism to spawn subagents per domain.\n\n"
        "If the host cannot run parallel work, execute the same domains sequentially.\n",
        "Launch the reviewer subagents in parallel.\n\n"
        "| Rationalization | Required action |\n|---|---|\n"
        '| "Sequential dispatch is fine" | Dispatch in parallel |\n',
        "Dispatch the review agents in parallel.\n\n"
        "Parallelize across documents, sequential within.\n",
        "Spawn one teammate per module in parallel.\n\n"
        "Send a sequential shutdown_request to each teammate.\n",
    ],
)
def test_unbounded_fan_outs_are_reported(body):
    assert messages("CM005", body), body


def test_counted_fan_outs_by_structure():
    listed = "Use multiple researcher subagents to cover:\n\n- the site\n- the news\n- reviews\n"
    assert any("allows 3" in m for m in messages("CM005", listed))
    calls = (
        "Launch the reviewers:\n\n```\nTask tool #1:\n  subagent_type: a\nTask tool #2:\n"
        "  subagent_type: b\nTask tool #3:\n  subagent_type: c\n```\n"
    )
    assert any("allows 3" in m for m in messages("CM005", calls))
    table = "Spawn image subagents in parallel.\n\n| Setting | Value |\n|---|---|\n"
    table += "| Max concurrency | 8 subagents |\n"
    assert any("allows 8" in m for m in messages("CM005", table))
    ranged = "Validate the max-agents parameter (1-8), then launch agents in parallel.\n"
    assert any("allows 8" in m for m in messages("CM005", ranged))


def test_loops_over_ordered_units_and_stated_caps_stay_quiet():
    phases = "For each phase in PLAN.md:\n\n- Launch the implementer agent for the phase\n"
    assert not messages("CM005", phases)
    capped = "For each package, spawn a sub-agent.\n\nOne sub-agent at a time.\n"
    assert not messages("CM005", capped)


# --- CM002: where results go, by placeholder, tracker or passive -----------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        "Audit [target directory]. Save report to [output file].",
        "Write findings to ${reviewQueuePath} and return JSON.",
        "Create the fix task.\nOutput to: .ralph/tasks/preset-fixes/",
        "Implement the mission, then append your summary to the progress tracker.",
    ],
)
def test_results_written_to_named_places(prompt):
    body = f"Spawn a sub-agent with this prompt:\n\n```\n{prompt}\n```\n"
    assert "CM002" not in codes(body), prompt


def test_a_progress_file_is_not_a_results_file():
    body = (
        "Spawn one agent per feature. Each agent writes to: "
        "`.feature-tracking/agents/agent-1-progress.md`.\n"
    )
    assert "CM002" in codes(body)


# --- CM003 / CM007: state kept as STATE.md, trackers and ticked plans -------------------------


@pytest.mark.parametrize(
    "line",
    [
        "Update `.specs/STATE.md` with a handoff snapshot after every task.",
        "After each fix, mark the fix complete in FIXES.md.",
        "Each subagent appends its summary to the progress tracker when it finishes.",
    ],
)
def test_other_state_files(line):
    found = codes(f"Spawn one sub-agent per fix, one at a time.\n\n{line}\n")
    assert "CM003" not in found and "CM007" not in found, line


def test_a_tracker_only_named_is_no_state():
    body = "Spawn one sub-agent per fix, one at a time.\n\nWrite review.md next to progress-tracker.md.\n"
    assert "CM003" in codes(body)


def test_checkboxes_ticked_as_tasks_complete_are_a_checkpoint():
    body = (
        "Spawn one sub-agent per task, one at a time.\n\n"
        "As tasks complete, update task checkboxes in phase-1.md.\n"
    )
    assert not {"CM003", "CM007"} & codes(body)


# --- CM006: read-backs of what a sub-agent wrote, and output handed on ------------------------


def cm006(body: str) -> bool:
    return "CM006" in codes(body)


def test_reading_a_file_a_sub_agent_was_told_to_write():
    prompt = (
        "Launch the debugger agent:\n\n```\nAnalyze the error.\n"
        "Save analysis to: ${SESSION_PATH}/error-analysis.md\n```\n\n"
    )
    assert cm006(prompt + "Review analysis (read ${SESSION_PATH}/error-analysis.md).\n")
    told = (
        "Dispatch a subagent with the domain-analyzer prompt.\n\n"
        "The agent writes its output to `.understand/domain-analysis.json`.\n\n"
    )
    assert cm006(told + "Read the domain analysis output.\n")
    assert cm006(
        "Use the Task tool to invoke the fetch subagent per URL.\n\n"
        "After all docs are fetched, read the saved documentation files.\n"
    )


@pytest.mark.parametrize(
    "body",
    [
        "Spawn a reviewer sub-agent.\n\nRead reference/output-format.md and format the report.\n",
        "Spawn a reviewer sub-agent.\n\nFor each prep note, read frontmatter and report:\n",
        "Spawn `fix-planner`:\n\n- Read all audit reports\n- Write FIXES.md\n",
    ],
)
def test_reference_files_verbs_and_briefs_are_not_read_backs(body):
    assert not cm006(body), body


@pytest.mark.parametrize(
    "prompt",
    [
        "Investigation results: [Investigation JSON output]",
        "You are the CRITIC.\nResearch findings: <paste>",
        "Apply these fixes:\n${JSON.stringify(findings.fixes, null, 2)}",
    ],
)
def test_earlier_output_pasted_into_a_prompt(prompt):
    body = f"Then spawn the verifier agent with this prompt:\n\n```\n{prompt}\n```\n"
    assert cm006(body), prompt


def test_an_item_taken_from_earlier_findings_is_no_paste():
    body = (
        "Then spawn the analyst agent with this prompt:\n\n```\n"
        "- [entry point 1 from explorer/analyst findings]\n```\n"
    )
    assert not cm006(body)


def test_findings_handed_on_verbatim():
    body = (
        "Invoke task-executor using the Agent tool:\n\n"
        "- `correction_findings`: complete reviewer finding objects verbatim\n"
    )
    assert cm006(body)


# --- Markdown structure ----------------------------------------------------------------------


def test_a_fence_with_a_language_inside_a_fence_is_nested():
    lines = ["```", "Template:", "   ```ts", "code()", "   ```", "end", "```", "after"]
    blocks = parse(lines, 1)
    assert [b.kind for b in blocks] == ["code", "paragraph"]
    assert blocks[1].text == "after"


def test_tag_lines_end_list_items():
    lines = ["- Environment details", "</step>", "<step>", "Launch the debugger agent:", "</step>"]
    items = [b for b in parse(lines, 1) if b.kind == "item"]
    assert items[0].text == "Environment details"
