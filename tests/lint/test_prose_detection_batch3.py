"""Wordings met on batch 3 of benchmarks/data/lint-real (round 3): instructions in Japanese,
Korean and Chinese, calls written into prose, a few more object shapes, and the look-alikes
(other programs run as workers, an agent file showing its own invocation, an agent file that is
itself a prompt, descriptions of how a tool works) that must stay quiet."""

from __future__ import annotations

import pytest
from prose import codes, result

from spawnkit.lint.analysis import cjk_spawn
from spawnkit.lint.engine import lint_document

# --- detection: Japanese, Korean, Chinese ----------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "以下のエージェントを並列で起動してください：\n\n1. **backend-dev**\n2. **tester**\n",
        "複数のSubAgentを並列で実行して、開発を高速化します。\n",
        "critic-design を Agent で 2 体並列に起動する。\n",
        "서브에이전트를 병렬로 실행하세요.\n",
        "광범위 검색만 Explore agent 위임.\n",
        "并行启动3个子代理，分别检查每个模块。\n",
    ],
)
def test_cjk_spawn_instructions_make_an_orchestrator(body):
    assert result(body).orchestrator, body


@pytest.mark.parametrize(
    "body",
    [
        "エージェントを起動しないでください。\n",  # do not launch an agent
        "このエージェントを使用して、コードをレビューします。\n",  # "use this agent": the file itself
        "에이전트를 실행하지 마세요.\n",  # do not run an agent
        "不要启动子代理。\n",  # do not start a sub-agent
        "使用代理服务器访问网络。\n",  # "proxy" is 代理 too: not a sub-agent
        "テストを並列で実行する。\n",  # tests in parallel, no agent
    ],
)
def test_negated_self_and_non_agent_cjk_wording_is_not_spawning(body):
    assert not result(body).orchestrator, body


def test_cjk_patterns_run_only_on_text_with_such_characters():
    assert not cjk_spawn("dispatch the agent — then wait")  # not ASCII, but no CJK character
    assert cjk_spawn("エージェントを起動する")


# --- detection: more English shapes ------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        '3. Task(subagent_type="milestone-planner"): You are a project planner.\n',
        "Dispatch the survey-code + survey-history subagents in parallel.\n",
        "Dispatch each applicable lens (3a-3f) as a parallel Task agent.\n",
        "For anything judgement-bound, dispatch `component-reviewer` rather than deciding here.\n",
        "If the runtime supports subagents, delegate to a planning specialist.\n",
    ],
)
def test_more_english_spawn_shapes_make_an_orchestrator(body):
    assert result(body).orchestrator, body


@pytest.mark.parametrize(
    "body",
    [
        "Spawn headless grok workers through the launcher script.\n",
        "Spawn specialized Codex CLI subagents for each module.\n",
        "- **Access**: Claude invokes them via the Task tool (not directly user-accessible)\n",
        "Hand the result to the user.\n",
    ],
)
def test_other_programs_and_descriptions_are_not_orchestrators(body):
    assert not result(body).orchestrator, body


AGENT_HEAD = "---\nname: quality-guard\ndescription: Validates artifacts.\n---\n"


def test_an_agent_showing_its_own_invocation_starts_nothing():
    own = '**Invocation**:\n```\nTask("Validate the skill", subagent_type="quality-guard")\n```\n'
    path = ".claude/agents/quality-guard.md"
    assert not lint_document(AGENT_HEAD + own, path).orchestrator
    other = own.replace('subagent_type="quality-guard"', 'subagent_type="fixer"')
    assert lint_document(AGENT_HEAD + other, path).orchestrator


def test_an_agent_file_that_is_only_prompt_talk_is_the_prompt_itself():
    body = (
        "# Failure-analysis subagent prompt\n\n"
        "You will receive (as JSON in the dispatched Agent prompt) the session events.\n"
    )
    path = ".claude/agents/failure-analysis.md"
    head = AGENT_HEAD.replace("quality-guard", "failure-analysis")
    assert not lint_document(head + body, path, preview=True).orchestrator
    # a skill that says so hands a prompt on; prompt talk alone is a preview reading (issue 25)
    assert result(body).orchestrator and result(body).spawn_tier == "preview"
    assert not result(body, preview=False).orchestrator


def test_allowed_tools_without_the_spawn_tool_yield_to_an_instruction_naming_it():
    listed = "name: demo-audit\ndescription: Audit.\nallowed-tools: Read, Grep, Bash\n"
    named = "Spawn agents in parallel using a single message with multiple Task tool calls.\n"
    assert result(named, front=listed).orchestrator
    vague = "3. **Deployment** - Launch specialized agents with assignments\n"
    assert not result(vague, front=listed).orchestrator
    assert result(vague).orchestrator


# --- CM005 -------------------------------------------------------------------------------------

CAPPED = (
    "Keep `.demo-audit-reports/state.json`, updated after every step; resume from it.\n"
    "Write every finding to .demo-audit-reports/x.md and reply in 400 tokens or fewer.\n"
)


@pytest.mark.parametrize(
    "body",
    [
        "以下のエージェントを並列で起動してください。\n",
        "서브에이전트를 병렬로 실행하세요.\n",
        "2. For **each** open PR number, spawn **one** background subagent.\n",
        "**Sequential**: Review each PR in turn.\n\n**Parallel**: Launch background Task agents "
        "per PR.\n",
        "Spawn three Explore agents in a single message.\n",
    ],
)
def test_parallel_wordings_without_a_cap_are_reported(body):
    assert "CM005" in codes(CAPPED + body), body


def test_a_counted_parallel_step_within_the_cap_is_fine():
    assert "CM005" not in codes(CAPPED + "Spawn two Explore agents in a single message.\n")


# --- CM002 / CM003 -----------------------------------------------------------------------------


def test_results_written_to_a_shared_file_or_an_own_folder_are_on_disk():
    steps = (
        "Spawn one agent per package.\n\n"
        "## Coordination\n\n- Write findings to shared `findings.jsonl` with file locking\n"
    )
    assert "CM002" not in codes(steps)
    own = "Spawn one agent per package. Each agent writes to its own tmp/ subdirectory.\n"
    assert "CM002" not in codes(own)
    assert "CM002" in codes("Spawn one agent per package and collect their replies.\n")


@pytest.mark.parametrize(
    "kept",
    [
        "Each agent updates the status board (.claude/status/board.json) after every task.\n",
        "Update `.claude/status/${AGENT_ID}.json` after every task.\n",
        "Agents report progress to .claude-analysis/progress.log after every file.\n",
    ],
)
def test_status_boards_folders_and_progress_logs_are_state_files(kept):
    steps = "1. Spawn one agent per package.\n2. Merge the results.\n"
    assert "CM003" in codes(steps)
    assert "CM003" not in codes(steps + kept), kept
