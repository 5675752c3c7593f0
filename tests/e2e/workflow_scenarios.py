"""Scripted runs of a skill made by ``spawnkit new --engine workflow`` in the real Claude Code.

Shared by ``test_workflow_skill.py`` and ``benchmarks/context.py``. The scripted orchestrator
does only what the loaded SKILL.md says: it takes the state script's commands and the exact
``Workflow(...)`` call from the body the Skill tool delivered, and the scripted workflow agents
take their report path and their ``state.py step`` command from the prompt workflow.js built.
What the client adds on its own (the launch record, the ``<task-notification>``, the
``StructuredOutput`` tool, the workflow's concurrency) is the client's.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fake_api import (
    Block,
    Conversation,
    FakeAnthropic,
    Request,
    _content_text,
    agent,
    text,
    tool_use,
)
from .scenarios import compact_return

#: The client runs at most min(16, CPUs - 2) workflow agents at once: one on a 2-core machine.
#: Raised here so that only the skill's own limiter can hold a workflow to its cap.
WIDE_OPEN = {"CLAUDE_CODE_WORKFLOW_MAX_CONCURRENT_AGENTS": "8"}

# A real notification starts with its task id (the skill body names the tag in prose too).
_NOTE = re.compile(r"<task-notification>(\s*<task-id>.*?)</task-notification>", re.S)


def skill_body(req: Request) -> str:
    """The skill body as the model received it: the Skill tool's follow-up message alone."""
    marker = "Base directory for this skill:"
    for message in req.messages:
        found = _content_text(message.get("content"))
        if marker in found:
            return found[found.index(marker) :]
    raise AssertionError("the skill body never reached the model")


def state_command(req: Request, verb: str) -> str:
    found = re.search(rf"python3 \S+/scripts/state\.py {verb}\b", skill_body(req))
    assert found, f"the skill body names no `state.py {verb}` command"
    return found.group(0)


def workflow_call(req: Request) -> dict[str, Any]:
    """The ``Workflow`` input the skill body spells out, as JSON."""
    found = re.search(r"^Workflow\((\{.*\})\)$", skill_body(req), re.M)
    assert found, "the skill body spells out no Workflow(...) call"
    return json.loads(found.group(1))


def notification(req: Request) -> dict[str, str] | None:
    """The newest ``<task-notification>`` the request carries: its status, result, raw text."""
    notes = _NOTE.findall(req.text)
    if not notes:
        return None
    note = notes[-1]
    status = re.search(r"<status>(.*?)</status>", note, re.S)
    result = re.search(r"<result>(.*?)</result>", note, re.S)
    return {
        "status": status.group(1) if status else "",
        "result": result.group(1) if result else "",
        "text": f"<task-notification>{note}</task-notification>",
    }


def bash(command: str) -> Block:
    return tool_use("Bash", {"command": command, "description": "run the skill's state script"})


@dataclass
class Orchestrator:
    """The main thread: Skill, resume check, init when nothing resumes, one Workflow call, then
    ``finish`` once the notification is in. Each move is decided from what the request shows."""

    conversation: Conversation
    calls: dict[str, Block] = field(default_factory=dict)

    def move(self, req: Request) -> list[Block] | Block | str:
        calls = self.calls
        if "skill" not in calls:
            return self._call("skill", tool_use("Skill", {"skill": self.skill}))
        if "resume" not in calls:
            return self._call("resume", bash(state_command(req, "resume")))
        resumed = req.tool_result(calls["resume"]["id"])
        if resumed is None:
            return "Waiting for the resume check."
        if "Nothing to resume" in resumed.text and "init" not in calls:
            return self._call("init", bash(state_command(req, "init")))
        if "workflow" not in calls:
            complete = re.search(r"^Complete: (.+)$", resumed.text, re.M)
            call = workflow_call(req)
            call["args"]["skip"] = complete.group(1).split(", ") if complete else []
            return self._call("workflow", tool_use("Workflow", call))
        note = notification(req)
        if note is None:
            return "The workflow is running; I will wait for its notification."
        if "finish" not in calls:
            failed = '"failed"' in note["result"]
            command = state_command(req, "finish") + (" --failed" if failed else "")
            return self._call("finish", bash(command))
        return f"{self.skill} finished."

    def _call(self, name: str, block: Block) -> Block:
        self.calls[name] = block
        return block

    skill: str = ""


def orchestrate(api: FakeAnthropic, tag: str, skill: str) -> Orchestrator:
    """Script the main thread for the prompt ``f"{tag}: run the {skill} skill"``."""
    conv = api.conversation(tag)
    orchestrator = Orchestrator(conv, skill=skill)
    conv.when(lambda req: True, orchestrator.move)
    return orchestrator


class Overlap:
    """How many workflow agents were running at once, seen from the fake API: an agent runs from
    its first request until the fake sends its StructuredOutput answer."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.running: set[str] = set()
        self.peak = 0
        self.log: list[tuple[float, str, str]] = []

    def start(self, name: str) -> None:
        with self._lock:
            if name not in self.running:
                self.running.add(name)
                self.peak = max(self.peak, len(self.running))
                self.log.append((time.monotonic(), "start", name))

    def end(self, name: str) -> None:
        with self._lock:
            self.running.discard(name)
            self.log.append((time.monotonic(), "end", name))


@dataclass
class WorkflowAgent:
    """One generated workflow agent: writes its report, records its step, answers the schema."""

    name: str
    project: Path
    overlap: Overlap
    seconds: float = 0.0  # how long its first turn takes: long enough for overlap to show
    gate: threading.Event | None = None  # when set, its first turn waits for the gate
    metrics: tuple[str, ...] = ("findings=3",)
    conversation: Conversation | None = None

    def first(self, req: Request) -> Block:
        self.overlap.start(self.name)
        if self.gate is not None:
            self.gate.wait(120)
        time.sleep(self.seconds)
        report = re.search(r"Write your full output .*? to (\S+) before you answer", req.text)
        assert report, f"{self.name}: the prompt names no report file"
        content = f"# {self.name}\n\nFull findings of {self.name}, kept on disk.\n"
        return tool_use(
            "Write", {"file_path": str(self.project / report.group(1)), "content": content}
        )

    def record(self, req: Request) -> Block:
        found = re.search(r"record the step: run `(.+?)`", req.text)
        if found is None:  # a script that records nothing (not one spawnkit generated)
            return self.answer(req)
        extra = "".join(f" --metric {m}" for m in self.metrics)
        return bash(found.group(1) + extra)

    def answer(self, req: Request) -> Block:
        self.overlap.end(self.name)
        return tool_use(
            "StructuredOutput",
            {"status": "COMPLETE", "metrics": list(self.metrics), "summary": f"{self.name} done"},
        )


def workflow_agents(
    api: FakeAnthropic,
    project: Path,
    steps: list[str],
    overlap: Overlap,
    seconds: float = 0.0,
    gates: dict[str, threading.Event] | None = None,
) -> dict[str, WorkflowAgent]:
    """Script the workflow agent of each step (matched by the first line of its prompt)."""
    agents = {}
    for name in steps:
        agent = WorkflowAgent(name, project, overlap, seconds, (gates or {}).get(name))
        agent.conversation = api.conversation(
            f'You are the "{name}" sub-agent', agent.first, agent.record, agent.answer, name=name
        )
        agents[name] = agent
    return agents


_ANYTHING = (
    "{ type: 'object', properties: { status: { type: 'string' }, metrics: { type: 'array' }, "
    "summary: { type: 'string' } } }"
)


def unguarded_script(steps: list[str], schema: bool) -> str:
    """A workflow written without spawnkit: every step's agent at once, no limiter, no bounds,
    and the agents' whole answers handed back to the orchestrator."""
    opts = f"{{ label: name, schema: {_ANYTHING} }}" if schema else "{ label: name }"
    return (
        "export const meta = { name: 'unguarded', description: 'every agent at once' }\n"
        f"const answers = await parallel({json.dumps(steps)}.map((name) => () =>\n"
        "  agent('You are the \"' + name + '\" sub-agent of an unguarded workflow. Write your full "
        "output (everything) to .unguarded/' + name + '.md before you answer.',\n"
        f"    {opts})))\n"
        "return { answers }\n"
    )


@dataclass
class PromptOrchestrator:
    """The main thread of a ``--engine prompt`` skill with one sub-agent at a time, as its
    SKILL.md says: resume check, init, then per step the Agent call with the step's prompt from
    the body and ``state.py step`` after its reply, then ``finish``."""

    conversation: Conversation
    skill: str
    calls: dict[str, Block] = field(default_factory=dict)
    launches: list[Block] = field(default_factory=list)
    records: list[Block] = field(default_factory=list)

    def move(self, req: Request) -> Block | str:
        if "skill" not in self.calls:
            return self._call("skill", tool_use("Skill", {"skill": self.skill}))
        if "resume" not in self.calls:
            return self._call("resume", bash(state_command(req, "resume")))
        if "init" not in self.calls:
            return self._call("init", bash(state_command(req, "init")))
        prompts = re.findall(
            r"^### Step \d+/\d+: (\S+)\n\n~~~text\n(.*?)\n~~~$", skill_body(req), re.S | re.M
        )
        if len(self.records) < len(self.launches):
            name = prompts[len(self.records)][0]
            command = (
                f"{state_command(req, 'step')} {name} --status complete "
                f"--report .{self.skill}-reports/{name}.md --metric findings=3"
            )
            self.records.append(bash(command))
            return self.records[-1]
        if len(self.launches) < len(prompts):
            name, prompt = prompts[len(self.launches)]
            self.launches.append(agent(prompt, f"{self.skill}: {name}"))
            return self.launches[-1]
        if "finish" not in self.calls:
            return self._call("finish", bash(state_command(req, "finish")))
        return f"{self.skill} finished."

    def _call(self, name: str, block: Block) -> Block:
        self.calls[name] = block
        return block


def prompt_orchestrate(api: FakeAnthropic, tag: str, skill: str) -> PromptOrchestrator:
    """Script the main thread of a prompt-engine skill for ``f"{tag}: run the {skill} skill"``."""
    conv = api.conversation(tag)
    orchestrator = PromptOrchestrator(conv, skill)
    conv.when(lambda req: True, orchestrator.move)
    return orchestrator


def prompt_agents(api: FakeAnthropic, project: Path, steps: list[str]) -> list[Conversation]:
    """The prompt engine's sub-agents: each writes its report, then replies within the contract."""

    def write(req: Request) -> Block:
        report = re.search(r"Write your full output .*? to (\S+) before you reply", req.text)
        assert report, "the prompt names no report file"
        return tool_use(
            "Write", {"file_path": str(project / report.group(1)), "content": "# report\n"}
        )

    def reply(name: str):
        return lambda req: compact_return(
            name, re.search(r"to (\S+) before you reply", req.text).group(1)
        )

    return [
        api.conversation(f'You are the "{name}" sub-agent', write, reply(name), name=name)
        for name in steps
    ]


def result_of(orchestrator: Orchestrator | Conversation) -> tuple[Request, dict[str, str]]:
    """The orchestrator's first request carrying the workflow's notification, and the note."""
    conv = orchestrator if isinstance(orchestrator, Conversation) else orchestrator.conversation
    for req in conv.requests:
        note = notification(req)
        if note is not None:
            return req, note
    raise AssertionError("the orchestrator never received the workflow's notification")


__all__ = [
    "WIDE_OPEN",
    "Orchestrator",
    "Overlap",
    "PromptOrchestrator",
    "prompt_agents",
    "prompt_orchestrate",
    "WorkflowAgent",
    "notification",
    "orchestrate",
    "result_of",
    "unguarded_script",
    "skill_body",
    "text",
    "workflow_agents",
    "workflow_call",
]
