"""A skill made by ``spawnkit new --engine workflow`` runs as a workflow in the real Claude Code.

The orchestrator calls ``Workflow`` by script path with the arguments its SKILL.md spells out;
the script starts one agent per step; each agent writes its report, records its step with the
skill's state script and answers through ``StructuredOutput``; the orchestrator receives only the
script's short result. The fake API makes every agent slow enough that running more than the
skill's cap at once would show, with the client's own limit raised out of the way.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

import jsonschema

from spawnkit import tokens
from spawnkit.standard import protocol

from .fake_api import agent, tool_use
from .scenarios import compact_return
from .workflow_scenarios import (
    WIDE_OPEN,
    Overlap,
    bash,
    notification,
    orchestrate,
    result_of,
    skill_body,
    state_command,
    unguarded_script,
    workflow_agents,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import workflow_node  # noqa: E402

TOOLS = Path(__file__).resolve().parent.parent / "fixtures" / "claude-code-tools"
SKILL = "wf-audit"
STEPS = ["survey", "analyze", "verify", "summarize"]
BUDGET = protocol.return_budget()


def _new(claude, *args: str) -> Path:
    claude.spawnkit("new", SKILL, "--engine", "workflow", "--defaults", "--scope", "user", *args)
    return claude.config_dir / "skills" / SKILL


def _answer_schema(skill_dir: Path) -> dict:
    """The schema workflow.js gives its agents (read by running the script with stub agents)."""
    ran = workflow_node.run(skill_dir / "workflow.js", delay_ms=0)
    assert ran["ok"], ran
    return ran["calls"][0]["opts"]["schema"]


def _state(project: Path) -> tuple[list[Path], dict]:
    files = sorted((project / f".{SKILL}-reports").glob(protocol.load()["state_file_glob"]))
    return files, json.loads(files[-1].read_text()) if files else {}


def test_the_generated_workflow_runs_capped_answers_by_schema_and_returns_little(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    skill_dir = _new(claude, "-d", "max_parallel=2")
    overlap = Overlap()
    main = orchestrate(fake_api, "WF-ORCH", SKILL)
    agents = workflow_agents(fake_api, claude.project, STEPS, overlap, seconds=3.0)

    run = claude.run(f"WF-ORCH: run the {SKILL} skill", env=WIDE_OPEN)

    # The client's Workflow tool is the one the skill was written for: scriptPath, args and
    # resumeFromRunId as captured, and a skill's instructions count as the user's opt-in.
    [live] = [t for t in main.conversation.first.body["tools"] if t["name"] == "Workflow"]
    captured = json.loads((TOOLS / "Workflow.json").read_text(encoding="utf-8"))
    assert live["input_schema"] == captured["input_schema"]
    opt_in = (
        "The user invoked a skill or slash command whose instructions tell you to call Workflow"
    )
    assert opt_in in live["description"] and opt_in in captured["description"]
    # The orchestrator called Workflow by script path, with the args the body spells out.
    call = main.calls["workflow"]["input"]
    assert call == {
        "scriptPath": f"{skill_dir}/workflow.js",
        "args": {"skill_dir": str(skill_dir), "skip": []},
    }
    launched = main.conversation.request_with_result(main.calls["workflow"]["id"])
    launch = launched.tool_result(main.calls["workflow"]["id"])
    assert not launch.is_error and "Workflow launched in background" in launch.text
    # Every step's agent ran once, got StructuredOutput with the script's bounded schema, and
    # ended its turn with it.
    schema = _answer_schema(skill_dir)
    structured_output = json.loads((TOOLS / "StructuredOutput.json").read_text(encoding="utf-8"))
    for name, scripted in agents.items():
        conv = scripted.conversation
        assert len(conv.requests) == 3, f"{name}: {len(conv.requests)} requests"
        [tool] = [t for t in conv.first.body["tools"] if t["name"] == "StructuredOutput"]
        assert tool["input_schema"] == schema
        assert tool["description"] == structured_output["description"]
        assert conv.last.reply[0]["name"] == "StructuredOutput"
        assert not conv.last.tool_results(last_only=True)[0].is_error  # the state script ran
    # No more than the skill's cap ran at once, and the cap was reached: overlap could show.
    assert overlap.peak == 2, overlap.log
    # The result the orchestrator received: statuses and where the reports are, in budget.
    req, note = result_of(main)
    assert note["status"] == "completed"
    assert json.loads(note["result"]) == {
        "complete": STEPS,
        "reports": f".{SKILL}-reports/{{step}}.md",
    }
    assert tokens.estimate(note["result"]) <= BUDGET
    # (The notification around it is the client's: ids, paths, usage, ~1,200 tokens by the
    # estimate whatever the workflow does; benchmarks/context.py reports it per run.)
    said = "\n".join(r.text for r in main.conversation.requests)
    assert not any(f"{name} done" in said for name in STEPS), "an agent's words reached the model"
    # Reports on disk, written by the agents; the state file recorded by them, closed by finish.
    for name in STEPS:
        report = claude.project / f".{SKILL}-reports" / f"{name}.md"
        assert report.read_text().startswith(f"# {name}\n")
    files, state = _state(claude.project)
    assert len(files) == 1 and state["status"] == "complete"
    assert [(s["id"], s["status"], s["metrics"]) for s in state["steps"]] == [
        (name, "complete", {"findings": 3}) for name in STEPS
    ]
    finished = main.conversation.request_with_result(main.calls["finish"]["id"])
    assert (
        "Run complete: 4/4 steps complete" in finished.tool_result(main.calls["finish"]["id"]).text
    )
    # The client's journal holds each agent's answer, valid against the schema.
    journals = list((claude.home / ".claude" / "projects").rglob("journal.jsonl"))
    assert len(journals) == 1
    answers = [json.loads(line) for line in journals[0].read_text().splitlines()]
    results = [a for a in answers if a.get("type") == "result"]
    assert len(results) == len(STEPS)
    for entry in results:
        jsonschema.validate(entry["result"], schema)
    # spawnkit's own hooks (enforce mode) saw nothing to object to.
    assert run.system_messages() == []


def test_without_a_limiter_the_same_agents_overlap(claude, fake_api):
    """The control: the same slow agents under a script with no limiter run all at once, so
    the peak of 2 above is the skill's limiter, not the client or the fake."""
    script = claude.project / "unguarded.js"
    script.write_text(unguarded_script(STEPS, schema=True))
    overlap = Overlap()
    workflow_agents(fake_api, claude.project, STEPS, overlap, seconds=3.0)
    conv = fake_api.conversation(
        "WF-CONTROL", tool_use("Workflow", {"scriptPath": str(script)}), "waiting", "done"
    )
    claude.run("WF-CONTROL: run it", env=WIDE_OPEN)
    assert overlap.peak >= 3, overlap.log
    assert notification(conv.last)["status"] == "completed"


def test_a_second_session_skips_the_steps_the_state_file_marks_done(claude, fake_api):
    skill_dir = _new(claude)
    overlap = Overlap()
    gate = threading.Event()
    agents = workflow_agents(fake_api, claude.project, STEPS, overlap, gates={"verify": gate})
    first = orchestrate(fake_api, "WF-FIRST", SKILL)

    # Session 1 ends while the third step runs: the process is killed, as a crash would.
    session = claude.start(f"WF-FIRST: run the {SKILL} skill", env=WIDE_OPEN)
    try:
        assert fake_api.wait_for(lambda: bool(agents["verify"].conversation.requests), 150)
        files, state = _state(claude.project)
        assert [s["status"] for s in state["steps"]] == [
            "complete",
            "complete",
            "pending",
            "pending",
        ]
    finally:
        os.killpg(session.pid, signal.SIGKILL)
        session.wait(30)
        gate.set()
    time.sleep(0.5)
    done_before = {name: len(a.conversation.requests) for name, a in agents.items()}
    assert first.calls["workflow"]["input"]["args"]["skip"] == []

    # Session 2: the resume check names the finished steps; the workflow skips them.
    second = orchestrate(fake_api, "WF-SECOND", SKILL)
    claude.run(f"WF-SECOND: run the {SKILL} skill", env=WIDE_OPEN)
    resumed = second.conversation.request_with_result(second.calls["resume"]["id"])
    assert "Resuming — 2/4 steps complete, next: verify" in resumed.new_text
    assert "init" not in second.calls
    call = second.calls["workflow"]["input"]
    assert call["scriptPath"] == f"{skill_dir}/workflow.js"
    assert call["args"]["skip"] == ["survey", "analyze"]
    ran_now = {name: len(a.conversation.requests) - done_before[name] for name, a in agents.items()}
    assert ran_now == {"survey": 0, "analyze": 0, "verify": 3, "summarize": 3}
    _, note = result_of(second)
    assert json.loads(note["result"]) == {
        "complete": ["verify", "summarize"],
        "skipped": ["survey", "analyze"],
        "reports": f".{SKILL}-reports/{{step}}.md",
    }
    files, state = _state(claude.project)
    assert len(files) == 1, "the second session continued the first run's state file"
    assert state["status"] == "complete"
    assert [s["attempts"] for s in state["steps"]] == [1, 1, 1, 1]
    assert re.search(r"\[4/4\] summarize", second.conversation.last.text)


def test_with_workflows_turned_off_the_skill_falls_back_to_sub_agents(claude, fake_api):
    """CLAUDE_CODE_DISABLE_WORKFLOWS takes the Workflow tool away; the orchestrator reads
    fallback.md and runs the first step with the Agent tool, as the prompt engine would."""
    skill_dir = _new(claude)
    calls: dict[str, dict] = {}

    def remember(name: str, block: dict) -> dict:
        calls[name] = block
        return block

    def fallback(req) -> str:
        # Read numbers the lines it returns ("    12\t..."): the text is after the tab.
        lines = req.tool_result(calls["read"]["id"]).text.split("\n")
        return "\n".join(line.split("\t", 1)[-1] for line in lines)

    def first_prompt(req) -> str:
        found = re.search(r"~~~text\n(You are the \"survey\".*?)\n~~~", fallback(req), re.S)
        assert found, "fallback.md holds no prompt for the first step"
        return found.group(1)

    def record(req) -> str:
        """fallback.md's record command, with SKILL_DIR the folder SKILL.md names for it."""
        folder = re.search(r"this skill's folder, `(\S+)`, as `SKILL_DIR`", skill_body(req))
        line = re.search(r"Record it on disk: `(python3 SKILL_DIR/\S+ step) STEP ", fallback(req))
        assert folder and line, "SKILL.md or fallback.md lost the record command"
        return line.group(1).replace("SKILL_DIR", folder.group(1))

    main = fake_api.conversation(
        "WF-OFF",
        tool_use("Skill", {"skill": SKILL}),
        lambda req: remember("resume", bash(state_command(req, "resume"))),
        lambda req: remember("init", bash(state_command(req, "init"))),
        lambda req: remember(
            "read",
            tool_use(
                "Read", {"file_path": re.search(r"`(\S+/fallback\.md)`", skill_body(req)).group(1)}
            ),
        ),
        lambda req: remember("agent", agent(first_prompt(req), f"{SKILL}: survey")),
        lambda req: remember(
            "step",
            bash(
                f"{record(req)} survey --status complete "
                f"--report .{SKILL}-reports/survey.md --metric findings=2"
            ),
        ),
        "Survey recorded.",
    )
    report = claude.project / f".{SKILL}-reports" / "survey.md"
    sub = fake_api.conversation(
        'You are the "survey" sub-agent',
        tool_use("Write", {"file_path": str(report), "content": "# survey\n"}),
        compact_return("survey", str(report)),
    )
    claude.run(f"WF-OFF: run the {SKILL} skill", env={"CLAUDE_CODE_DISABLE_WORKFLOWS": "1"})

    assert "Workflow" not in main.first.tools
    assert calls["read"]["input"]["file_path"] == f"{skill_dir}/fallback.md"
    assert protocol.load()["return_block"][0] in sub.first.last_user_text
    assert report.is_file()
    recorded = main.request_with_result(calls["step"]["id"]).tool_result(calls["step"]["id"])
    assert not recorded.is_error and "[1/4] survey" in recorded.text
