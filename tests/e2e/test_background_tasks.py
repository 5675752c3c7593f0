"""Issue 20: the guard in today's Claude Code — workflows, TaskStop, notifications, the scope.

Each scenario installs spawnkit with the real ``spawnkit install`` and drives the real client
(2.1.330 unless SPAWNKIT_CLAUDE_BIN names another, see scripts/e2e_claude_version.sh):

1. under enforce, a workflow agent's long plain-text answer reaches its script whole;
2. two background agents stopped with TaskStop free their slots: a third launch runs under
   the cap of 2;
3. a workflow whose result is over the budget draws a warning naming the journal, and the
   result still reaches the orchestrator whole;
4. an agent type the project excludes passes through unblocked, while general-purpose stays
   bound.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from spawnkit.standard import protocol

from .fake_api import FakeAnthropic, Request, agent, tool_use

LONG = "".join(
    f"LONGMARK-91 finding {i}: src/module_{i}/handler.py:{i * 7} raises KeyError('cfg_{i}') "
    "under load; "
    for i in range(260)
)


def _notification(req: Request, status: str = "completed") -> str | None:
    """The first ``<task-notification>`` with this status the request shows the model."""
    for note in re.findall(r"<task-notification>(.*?)</task-notification>", req.text, re.S):
        if f"<status>{status}</status>" in note:
            return note
    return None


def _result(note: str) -> str:
    found = re.search(r"<result>(.*?)</result>", note, re.S)
    assert found, note
    return found.group(1)


def _workflow(api: FakeAnthropic, tag: str, returns: str):
    """The orchestrator calls Workflow once, then waits for the notification. The script runs
    one plain-text agent (prompt ``<tag>-PLAIN: …``), its answer ``a``, and returns ``returns``."""
    script = (
        "export const meta = { name: 'probe-wf', description: 'probe workflow' }\n"
        f"const a = await agent('{tag}-PLAIN: audit every module and report findings.', "
        "{label: 'audit'})\n"
        f"return {returns}"
    )
    call = tool_use("Workflow", {"script": script})
    return api.conversation(f"{tag}-ORCH", call, "Waiting for the workflow.", "All done.")


def test_enforce_leaves_a_workflow_agents_long_answer_to_its_script(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    main = _workflow(fake_api, "WF1", "{ chars: (a || '').length, tail: (a || '').slice(-40) }")
    sub = fake_api.conversation("WF1-PLAIN", LONG)

    claude.run("WF1-ORCH: run the workflow")

    done = next(r for r in main.requests if _notification(r))
    got = json.loads(_result(_notification(done)))
    assert got == {"chars": len(LONG), "tail": LONG[-40:]}  # the script computed with all of it
    assert len(sub.requests) == 1  # never asked to answer again
    assert not (claude.project / ".spawnkit" / "returns").exists()


def _taskstop_script(api: FakeAnthropic, tag: str):
    """Two background agents; ToolSearch loads TaskStop (a deferred tool); both are stopped;
    then a third launch. The first two keep running until the third launch is settled."""
    one = agent(f"{tag}-ONE: long task", "long one", background=True)
    two = agent(f"{tag}-TWO: long task", "long two", background=True)
    third = agent(f"{tag}-THIRD: one more task", "one more", background=True)
    main = api.conversation(f"{tag}-ORCH", [one, two])
    subs = [api.conversation(f"{tag}-ONE"), api.conversation(f"{tag}-TWO")]
    search = tool_use("ToolSearch", {"query": "select:TaskStop", "max_results": 1})
    stops: dict[str, dict] = {}

    def load_taskstop(req: Request):
        assert api.wait_for(lambda: all(s.requests for s in subs), timeout=60)
        return search

    def stop_both(req: Request):
        for call in (one, two):
            found = re.search(r"agentId: (\w+)", req.tool_result(call["id"]).text)
            stops[call["id"]] = tool_use("TaskStop", {"task_id": found.group(1)})
        return list(stops.values())

    main.then(load_taskstop, stop_both, third, "Waiting for the last one.", "All done.")

    def answer_late(req: Request):
        api.wait_for(lambda: any(r.tool_result(third["id"]) for r in main.requests), timeout=60)
        return "AGENT: long\nSTATUS: COMPLETE"

    for sub in subs:
        sub.then(answer_late)
    extra = api.conversation(f"{tag}-THIRD", "AGENT: one more\nSTATUS: COMPLETE")
    return main, stops, third, extra


def test_agents_stopped_with_taskstop_free_their_slots(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    assert protocol.max_parallel() == 2
    main, stops, third, extra = _taskstop_script(fake_api, "TS1")

    claude.run("TS1-ORCH: fan out, stop, go on")

    for call in stops.values():
        result = main.request_with_result(call["id"]).tool_result(call["id"])
        assert not result.is_error and "Successfully stopped" in result.text
    launch = main.request_with_result(third["id"]).tool_result(third["id"])
    assert not launch.is_error, launch.text  # not "2 sub-agents are already running"
    assert len(extra.requests) >= 1  # the third sub-agent ran


def test_an_over_budget_workflow_result_draws_a_warning_naming_the_journal(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    main = _workflow(fake_api, "WF3", "{ report: a }")
    # ~1,500 tokens: over the budget, under the 8,000 characters the client cuts a result to
    report = LONG[:6000]
    fake_api.conversation("WF3-PLAIN", report)

    run = claude.run("WF3-ORCH: run the workflow")

    done = next(r for r in main.requests if _notification(r))
    assert json.loads(_result(_notification(done))) == {"report": report}  # delivered whole
    journal = re.search(r"(/\S+/journal\.jsonl)", _notification(done)).group(1)
    assert Path(journal).is_file()
    # The model is told, in the same request as the result ...
    assert "spawnkit return budget (CM001): the result of the workflow" in done.new_text
    assert journal in done.new_text
    # ... and so is the user.
    (warning,) = run.system_messages("UserPromptSubmit")
    assert warning.startswith('spawnkit: the workflow "probe workflow" returned ~')
    assert warning.endswith(f"per-agent results: {journal}.")


def test_an_excluded_agent_type_passes_unblocked(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    agents = claude.project / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews code and reports every finding.\n---\n"
        "You review code.\n",
        encoding="utf-8",
    )
    (claude.project / ".claude" / "spawnkit.json").write_text(
        json.dumps({"version": 1, "agents": {"reviewer": "off"}}), encoding="utf-8"
    )
    mine = agent("EX-REVIEW: review the code", "review", subagent_type="reviewer")
    bound = agent("EX-GP: audit the code", "audit")
    main = fake_api.conversation("EX-ORCH", mine, bound, "All done.")
    review = fake_api.conversation("EX-REVIEW", LONG)
    audit = fake_api.conversation("EX-GP", LONG, "AGENT: audit\nSTATUS: COMPLETE")

    claude.run("EX-ORCH: review, then audit")

    # The excluded type: its prompt untouched, its long answer delivered whole, never blocked.
    assert "RETURN CONTRACT" not in review.first.last_user_text
    assert main.request_with_agent_result(mine["id"]).agent_result(mine["id"]) == LONG
    assert len(review.requests) == 1
    # general-purpose stays bound under enforce: blocked and asked again.
    assert len(audit.requests) == 2
    assert main.request_with_agent_result(bound["id"]).agent_result(bound["id"]) != LONG
