"""Scripted orchestrations shared by the e2e scenarios and benchmarks/context.py, for every
client: ``fan_out`` drives Claude Code's Agent tool, ``codex_fan_out`` Codex's spawn_agent,
``copilot_fan_out`` Copilot CLI's task, ``gemini_fan_out`` Gemini CLI's invoke_agent (each
sub-agent answering through complete_task), ``qwen_fan_out`` Qwen Code's agent.

The answers are sized with spawnkit's own token estimate, so "about 3,000 tokens" stays true
whatever the estimate's calibration.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from spawnkit import tokens
from spawnkit.standard import protocol

from . import fake_chat as chat
from . import fake_gemini as gem
from . import fake_responses as responses
from .fake_api import Block, Conversation, FakeAnthropic, Request, agent, text, tool_use

SAVED_COPY = re.compile(r"\S*\.spawnkit/returns/\S+?\.md")


def long_answer(tag: str, target_tokens: int = 3000) -> str:
    """A verbose sub-agent answer of at least ``target_tokens`` tokens: a full findings dump."""
    lines = [f"FULL-ANSWER {tag}: complete audit, every finding listed below."]
    n = 0
    while tokens.estimate("\n".join(lines)) < target_tokens:
        n += 1
        lines.append(
            f"- src/{tag.lower()}/module_{n % 37:02d}.py:{(n * 17) % 400 + 1}: finding {n}: "
            "unused import or shadowed name; fix: remove it or document why it stays."
        )
    return "\n".join(lines)


def received_tokens(conv: Conversation, call_id: str, rewrite=lambda text: text) -> int | None:
    """Estimated tokens of the sub-agent's words the orchestrator's requests carried for launch
    ``call_id`` (an Agent or ``spawn_agent`` call, after ``rewrite``), or None when the launch
    was refused."""
    for req in conv.requests:
        if req.launch_refused(call_id):
            return None
        words = req.agent_result(call_id)
        if words is not None:
            return tokens.estimate(rewrite(words))
    raise AssertionError(f"{conv.name}: no result for Agent call {call_id}")


def once_started(api, subs: list[Conversation], running: int, answer: str):
    """A step that answers ``answer`` only once ``running`` of ``subs`` have started: the
    sub-agents then surely run at the same time."""

    def step(req) -> str:
        assert api.wait_for(lambda: sum(bool(s.requests) for s in subs) >= running, 60), (
            f"{running} sub-agents never ran at once"
        )
        return answer

    return step


def compact_return(tag: str, report: str) -> str:
    """A reply in the standard's return format (field names read from the protocol data)."""
    values = {
        "AGENT": tag,
        "STATUS": "COMPLETE",
        "KEY_METRICS": "findings=120, files=37",
        "TOP_FINDINGS": "unused imports dominate; no security issue; 3 files need docs",
        "REPORT": report,
    }
    fields = [line.split(":", 1)[0] for line in protocol.load()["return_format"]]
    return "\n".join(f"{name}: {values.get(name, '-')}" for name in fields)


def obey_block(tag: str, finish: Callable[[str], object] = lambda words: words):
    """The sub-agent's answer once a SubagentStop block (Gemini CLI: a denied complete_task)
    asked it to shorten: a compact return pointing at the copy the hook saved (named in the
    reason), as a compliant model would; ``finish`` turns the words into the step (Gemini:
    a complete_task call)."""

    def step(req) -> object:
        told = req.text if isinstance(req, gem.Request) else req.last_user_text
        found = SAVED_COPY.findall(told)
        return finish(compact_return(tag, found[-1] if found else f".audit-reports/{tag}.md"))

    return step


@dataclass
class FanOut:
    """An orchestrator that spawns sub-agents in batches, each answering at length first."""

    prompt: str
    main: Conversation
    subs: list[Conversation]
    calls: list[Block]
    answers: dict[str, str] = field(default_factory=dict)  # tool_use id -> the long first answer

    @property
    def call_ids(self) -> list[str]:
        return [c.get("id") or c["call_id"] for c in self.calls]

    def after_last_return(self) -> Request:
        """The orchestrator's request right after the last sub-agent result reached it."""
        return self.main.request_with_agent_result(self.call_ids[-1])

    def answer(self, call_id: str) -> str:
        return self.answers[call_id]


def _sub_agents(
    api,
    tag: str,
    agents: int,
    answer_tokens: int,
    with_contract: bool,
    launch: Callable[[str, int], Block],
    overlap: int = 0,
    finish: Callable[[str], object] = lambda words: words,
) -> tuple[list[Block], list[Conversation], dict[str, str]]:
    """The sub-agents of a fan-out, on any client: each one's launch (``launch(task, n)``),
    its scripted conversation (~``answer_tokens`` first, once ``overlap`` of them have started,
    then a compact return if blocked; ``finish`` makes the words a step) and that first answer
    by launch id."""
    calls, subs, answers = [], [], {}
    for i in range(1, agents + 1):
        name = f"{tag}-SUB-{i:02d}"
        task = f"{name}: audit part {i} of the repository."
        if with_contract:
            task += "\n\n" + protocol.return_block(report=f".audit-reports/part-{i}.md")
        call = launch(task, i)
        answer = long_answer(name, answer_tokens)
        first = once_started(api, subs, overlap, answer)
        steps = (lambda req, first=first: finish(first(req)), obey_block(name, finish))
        subs.append(api.conversation(name, *steps, name=name))
        calls.append(call)
        answers[call.get("id") or call["call_id"]] = answer
    return calls, subs, answers


def fan_out(
    api: FakeAnthropic,
    tag: str,
    agents: int = 2,
    per_message: int | None = None,
    answer_tokens: int = 3000,
    with_contract: bool = True,
) -> FanOut:
    """Script ``agents`` foreground sub-agents, ``per_message`` (default: the standard's cap) per
    orchestrator turn. Each answers ~``answer_tokens`` first and a compact return if blocked.
    ``with_contract`` puts the standard's return block in each prompt, as a well-made skill does."""
    return _batched(
        api,
        tag,
        lambda task, i: agent(task, f"audit part {i}", background=False),
        text,
        agents,
        per_message,
        answer_tokens,
        with_contract,
    )


def _batched(
    api,
    tag: str,
    launch: Callable[[str, int], Block],
    say: Callable[[str], Block],
    agents: int,
    per_message: int | None,
    answer_tokens: int,
    with_contract: bool,
    overlap: int = 0,
    finish: Callable[[str], object] = lambda words: words,
) -> FanOut:
    """An orchestrator whose scripted turns each launch one batch of sub-agents (``launch``,
    after a line of ``say``), for a client that answers each launch with its sub-agent's result
    (Claude Code's foreground Agent, Copilot's sync task), then ends the audit."""
    per_message = per_message or protocol.max_parallel()
    calls, subs, answers = _sub_agents(
        api, tag, agents, answer_tokens, with_contract, launch, overlap, finish
    )
    batches = [calls[i : i + per_message] for i in range(0, len(calls), per_message)]
    steps = [[say(f"Dispatching batch {n + 1}."), *batch] for n, batch in enumerate(batches)]
    main_tag = f"{tag}-ORCH"
    main = api.conversation(main_tag, *steps, "Audit complete.", name=main_tag)
    return FanOut(f"{main_tag}: audit the repository with sub-agents.", main, subs, calls, answers)


def codex_fan_out(
    api: responses.FakeResponses,
    tag: str,
    agents: int = 2,
    per_message: int | None = None,
    answer_tokens: int = 3000,
    with_contract: bool = True,
    overlap: int = 0,
) -> FanOut:
    """``fan_out`` for Codex (multi-agent v1): each batch is one response of ``spawn_agent``
    calls; the orchestrator then calls ``wait_agent`` on the agents whose result it has not seen
    yet until it has them all (a spawn the hook denied has no agent to wait for), then starts the
    next batch. Each sub-agent answers ~``answer_tokens`` first and a compact return if blocked;
    with ``overlap`` its first answer waits until that many sub-agents have started, so they
    surely run at the same time."""
    per_message = per_message or protocol.max_parallel()
    calls, subs, answers = _sub_agents(
        api,
        tag,
        agents,
        answer_tokens,
        with_contract,
        lambda task, i: responses.spawn_agent(task),
        overlap,
    )
    batches = [calls[i : i + per_message] for i in range(0, len(calls), per_message)]

    def orchestrate(req: responses.Request) -> list[Block] | str:
        made = [c for c in calls if req.tool_result(c["call_id"]) is not None]
        waiting = not_returned(req, made)
        if waiting:
            return [responses.wait_agent(waiting)]
        batch = next((b for b in batches if b[0] not in made), None)
        if batch is None:
            return "Audit complete."
        return [responses.say(f"Dispatching batch {batches.index(batch) + 1}."), *batch]

    main_tag = f"{tag}-ORCH"
    main = api.conversation(main_tag, name=main_tag).when(lambda req: True, orchestrate)
    return FanOut(f"{main_tag}: audit the repository with sub-agents.", main, subs, calls, answers)


def copilot_fan_out(
    api: chat.FakeChat,
    tag: str,
    agents: int = 2,
    per_message: int | None = None,
    answer_tokens: int = 3000,
    with_contract: bool = True,
    overlap: int = 0,
) -> FanOut:
    """``fan_out`` for Copilot CLI: each batch is one response of sync ``task`` calls (Copilot
    runs them at once and answers each with its sub-agent's last words); the next batch follows
    once the results are in. With ``overlap`` each sub-agent's first answer waits until that
    many of them have started."""
    return _batched(
        api,
        tag,
        lambda task, i: chat.task(task, f"audit-part-{i}", description=f"audit part {i}"),
        chat.say,
        agents,
        per_message,
        answer_tokens,
        with_contract,
        overlap,
    )


def gemini_fan_out(
    api: gem.FakeGemini,
    tag: str,
    agents: int = 2,
    per_message: int | None = None,
    answer_tokens: int = 3000,
    with_contract: bool = True,
    overlap: int = 0,
) -> FanOut:
    """``fan_out`` for Gemini CLI: each batch is one response of ``invoke_agent`` calls (Gemini
    runs them at once, in the foreground, and answers each with its sub-agent's result); each
    sub-agent answers through ``complete_task``, ~``answer_tokens`` first, a compact return
    once that call is denied."""
    return _batched(
        api,
        tag,
        lambda task, i: gem.invoke_agent(task),
        gem.say,
        agents,
        per_message,
        answer_tokens,
        with_contract,
        overlap,
        gem.complete,
    )


def qwen_fan_out(
    api: chat.FakeChat,
    tag: str,
    agents: int = 2,
    per_message: int | None = None,
    answer_tokens: int = 3000,
    with_contract: bool = True,
    overlap: int = 0,
    background: bool = False,
) -> FanOut:
    """``fan_out`` for Qwen Code: each batch is one response of ``agent`` calls (foreground:
    each answered with its sub-agent's last words; ``background``: each answered with a launch
    notice, the words arriving later as a ``<task-notification>``)."""
    return _batched(
        api,
        tag,
        lambda task, i: qwen_agent(task, f"audit part {i}", background),
        chat.say,
        agents,
        per_message,
        answer_tokens,
        with_contract,
        overlap,
    )


def qwen_agent(prompt: str, description: str, background: bool = False) -> Block:
    """Qwen Code's ``agent`` call."""
    args = {
        "description": description,
        "prompt": prompt,
        "subagent_type": "general-purpose",
        "run_in_background": background,
    }
    return chat.tool_call("agent", args)


def not_returned(req: responses.Request, calls: list[Block]) -> list[str]:
    """The agent ids of ``calls`` that started and whose result the orchestrator has not seen
    yet (a spawn the hook denied has no agent to wait for)."""
    return [
        agent_id
        for c in calls
        if (agent_id := req.spawned_agent_id(c["call_id"])) is not None
        and req.agent_result(c["call_id"]) is None
    ]


@dataclass
class Mixed:
    """Background sub-agents, one too many for the cap, a state write and a report read-back."""

    prompt: str
    main: Conversation
    subs: list[Conversation]
    calls: list[Block]
    state_file: str
    report_read: str


def mixed(api: FakeAnthropic, tag: str, project, enforced: bool) -> Mixed:
    """Script an orchestrator that launches ``cap + 1`` background sub-agents in one message,
    records a checkpoint in its state file once they are done, then reads a report back.

    Each sub-agent writes its report, then answers: the first ones at length (~700 tokens),
    the last one briefly. With ``enforced`` spawnkit blocks the long answers (one more request
    each) and refuses one launch over the cap (whichever loses the race; it never starts)."""
    cap = protocol.max_parallel()
    running = cap if enforced else cap + 1
    reports = project / f".{tag.lower()}-reports"
    calls, subs, finals = [], [], []
    for i in range(1, cap + 2):
        name = f"{tag}-SUB-{i}"
        report = str(reports / f"part-{i}.md")
        size = 700 if i <= cap else 200
        write = tool_use("Write", {"file_path": report, "content": long_answer(name, 800)})
        answer = long_answer(name, size)
        reply = once_started(api, subs, running, answer)
        subs.append(api.conversation(name, [write], reply, obey_block(name), name=name))
        calls.append(agent(f"{name}: review module {i}", f"review module {i}", background=True))
        long = tokens.estimate(answer) > protocol.return_budget()
        finals.append(3 if enforced and long else 2)

    def all_done() -> bool:
        started = [(s, n) for s, n in zip(subs, finals, strict=True) if s.requests]
        return len(started) >= running and all(len(s.requests) >= n for s, n in started)

    def checkpoint_when_done(req: Request) -> Block:
        assert api.wait_for(all_done, timeout=90)
        state = reports / "state-20261124-001600.json"
        return tool_use(
            "Write", {"file_path": str(state), "content": '{"steps": {"1": "complete"}}'}
        )

    read_back = str(reports / "part-1.md")
    main_tag = f"{tag}-ORCH"
    main = api.conversation(
        main_tag,
        [text("Fanning out."), *calls],
        checkpoint_when_done,
        tool_use("Read", {"file_path": read_back}),
        "All reviews are in.",
        name=main_tag,
    )
    state = str(reports / "state-20261124-001600.json")
    return Mixed(f"{main_tag}: review every module.", main, subs, calls, state, read_back)


def codex_mixed(api: responses.FakeResponses, tag: str, project, enforced: bool) -> Mixed:
    """``mixed`` for Codex (multi-agent v1), where files go through shell commands: ``cap + 1``
    ``spawn_agent`` calls in one response, each sub-agent writing its report with
    ``exec_command`` before it answers (the first ones at length, ~700 tokens, the last one
    briefly); once every result is in, the orchestrator writes its state file and prints a
    report back, both with ``exec_command``. With ``enforced`` spawnkit blocks the long answers
    and denies the spawn over the cap (it never starts)."""
    cap = protocol.max_parallel()
    running = cap if enforced else cap + 1
    reports = project / f".{tag.lower()}-reports"
    calls, subs = [], []
    for i in range(1, cap + 2):
        name = f"{tag}-SUB-{i}"
        report = reports / f"part-{i}.md"
        content = shlex.quote(long_answer(name, 800))
        write = responses.exec_command(
            f"mkdir -p {shlex.quote(str(reports))} && printf '%s\\n' {content} > "
            f"{shlex.quote(str(report))}"
        )
        reply = once_started(api, subs, running, long_answer(name, 700 if i <= cap else 200))
        subs.append(api.conversation(name, [write], reply, obey_block(name), name=name))
        calls.append(responses.spawn_agent(f"{name}: review module {i}"))
    state = str(reports / "state-20261124-001600.json")
    steps = shlex.quote('{"steps": {"1": "complete"}}')
    checkpoint = responses.exec_command(f"echo {steps} > {shlex.quote(state)}")
    read_back = str(reports / "part-1.md")
    show = responses.exec_command(f"cat {shlex.quote(read_back)}")

    def orchestrate(req: responses.Request) -> list[Block] | str:
        if all(req.tool_result(c["call_id"]) is None for c in calls):
            return [responses.say("Fanning out."), *calls]
        waiting = not_returned(req, calls)
        if waiting:
            return [responses.wait_agent(waiting)]
        for step in (checkpoint, show):
            if req.tool_result(step["call_id"]) is None:
                return [step]
        return "All reviews are in."

    main_tag = f"{tag}-ORCH"
    main = api.conversation(main_tag, name=main_tag).when(lambda req: True, orchestrate)
    return Mixed(f"{main_tag}: review every module.", main, subs, calls, state, read_back)


# --- Claude Code workflows (issue 23/24): a script runs agents; its value comes back ----------

WORKFLOWS = {
    # three agents at once (more than the standard's cap), their whole answers returned
    "workflow-fanout": (
        """export const meta = { name: 'wf-fanout', description: 'three parts at once' }
phase('scan')
const parts = await parallel([1, 2, 3].map(i => () =>
  agent(`WFF-SUB-${i}: audit part ${i} of the repository.`, {label: `part ${i}`})))
return { answers: parts }
""",
        3,
    ),
    # one agent after the other, reports on disk, counts and paths returned
    "workflow-lean": (
        """export const meta = { name: 'wf-lean', description: 'reports on disk, counts back' }
phase('modules')
const a = await agent('WFL-SUB-1: list the modules; write the list to .wf-reports/modules.md.',
  {label: 'modules'})
phase('findings')
const b = await agent('WFL-SUB-2: count the findings; write them to .wf-reports/findings.md.',
  {label: 'findings', schema: {type: 'object', properties: {
    status: {type: 'string', maxLength: 20}, findings: {type: 'integer'}},
    required: ['status', 'findings']}})
return { modules_chars: (a || '').length, findings: b ? b.findings : null,
  reports: ['.wf-reports/modules.md', '.wf-reports/findings.md'] }
""",
        1,
    ),
}


def workflow_agents(api: FakeAnthropic, name: str, project: Path) -> dict[str, str]:
    """Script the agents of workflow ``name``; their answers by label."""
    answers: dict[str, str] = {}
    if name == "workflow-fanout":
        subs: list[Conversation] = []
        for i in (1, 2, 3):
            answers[f"part {i}"] = long_answer(f"WFF-SUB-{i}", 600)
            step = once_started(api, subs, 3, answers[f"part {i}"])
            subs.append(api.conversation(f"WFF-SUB-{i}", step, name=f"WFF-SUB-{i}"))
        return answers
    report = str(project / ".wf-reports" / "modules.md")
    write = tool_use("Write", {"file_path": report, "content": "src/a.py\nsrc/b.py\n"})
    answers["modules"] = "2 modules listed in .wf-reports/modules.md"
    api.conversation("WFL-SUB-1", [write], answers["modules"], name="WFL-SUB-1")
    findings = {"status": "done", "findings": 7}
    answers["findings"] = json.dumps(findings, separators=(",", ":"))
    structured = tool_use("StructuredOutput", findings)
    api.conversation("WFL-SUB-2", [structured], "ok", name="WFL-SUB-2")
    return answers


def notified(main: Conversation, call_id: str) -> str:
    """The ``<result>`` of the notification naming ``call_id`` (a Workflow call), as the fake
    API received it in one of the orchestrator's requests."""
    for req in main.requests:
        for note in re.findall(r"<task-notification>(.*?)</task-notification>", req.text, re.S):
            if f"<tool-use-id>{call_id}</tool-use-id>" in note:
                found = re.search(r"<result>(.*?)</result>", note, re.S)
                return found.group(1) if found else ""
    raise AssertionError(f"no notification for {call_id}")


def workflow_orchestrator(api: FakeAnthropic, script: str) -> tuple[Conversation, Block]:
    """The orchestrator: calls Workflow with ``script``, waits for its notification, ends."""
    call = tool_use("Workflow", {"script": script})

    def orchestrate(req: Request) -> list[Block] | str:
        if req.assistant_turns == 0:
            return [text("Running the workflow."), call]
        if req.agent_result(call["id"]) is not None:
            return "WF-ORCH done."
        return "Waiting for the workflow."

    main = api.conversation("WF-ORCH", name="WF-ORCH").when(lambda r: True, orchestrate)
    return main, call


# --- skills (issue 31): a hand-written skill's launches, then one ad hoc --------------------------

SKILL = "fan-two"


def hand_written_skill(folder: Path, name: str = SKILL, body: str = "") -> Path:
    """A skill of a SKILL.md and nothing else, in ``folder/<name>/``; its path."""
    skill_md = folder / name / "SKILL.md"
    skill_md.parent.mkdir(parents=True)
    body = body or "FT-BODY: launch two reviewers, one per part, and wait for both."
    skill_md.write_text(
        f"---\nname: {name}\ndescription: Reviews the code with two sub-agents. Use to review."
        f"\n---\n\n# {name}\n\n{body}\n",
        encoding="utf-8",
    )
    return skill_md


def reviewers(
    api: FakeAnthropic, tag: str, answer_tokens: int = 3000, overlap: bool = False
) -> list[Block]:
    """Two foreground launches whose sub-agents answer at length (~``answer_tokens``); with
    ``overlap``, only once both have started (so they surely run at once)."""
    calls, subs = [], []
    for i in (1, 2):
        name = f"{tag}-SUB-{i}"
        calls.append(agent(f"{name}: review part {i}.", f"review part {i}", background=False))
        answer = long_answer(name, answer_tokens)
        step = once_started(api, subs, 2, answer) if overlap else answer
        subs.append(api.conversation(name, step, name=name))
    return calls


def ad_hoc(
    api: FakeAnthropic, conversations: list[Conversation], tag: str, answer_tokens: int = 3000
) -> tuple[str, Block]:
    """The second prompt of the session: one sub-agent launched outside any skill. Its rule goes
    first in each conversation the main thread may be matched by (the first prompt's, or a
    compaction's summary). The prompt and the launch."""
    prompt = f"{tag}-ADHOC: one more look at the README."
    call = agent(f"{tag}-LOOK: read the README.", "one more look", background=False)
    api.conversation(f"{tag}-LOOK", long_answer(f"{tag}-LOOK", answer_tokens), name=f"{tag}-LOOK")

    def step(req: Request) -> list[Block] | str:
        return "Looked." if req.tool_result(call["id"]) is not None else [text("Looking."), call]

    for conv in conversations:
        conv.rules.insert(0, (lambda req: prompt in req.last_user_text, step))
    return prompt, call


# --- issue 35: the message channel (SendMessage to the orchestrator) ----------------------------

SAVED_MESSAGE = re.compile(r"\S*\.spawnkit/returns/\S+?-message(?:-\d+)?\.md")


def long_message(tag: str, chars: int = 21_000) -> str:
    """A sub-agent's whole report as one message of at least ``chars`` characters."""
    lines = [f"MSGMARK {tag}: every finding of the audit, as a message to the orchestrator."]
    n = 0
    while sum(len(line) + 1 for line in lines) < chars:
        n += 1
        lines.append(
            f"- src/pkg_{n % 23}/module_{n}.py:{n * 7}: finding {n}: an OSError is swallowed in "
            "the retry loop, so the caller never learns that the write failed."
        )
    return "\n".join(lines)


def send_message(to: str, message: str) -> Block:
    return tool_use("SendMessage", {"to": to, "summary": "findings", "message": message})


def named_agent(prompt: str, name: str, description: str) -> Block:
    """A background Agent call with a ``name``: the agent is addressable and its messages say
    ``from="<name>"``."""
    call = agent(prompt, description, background=True)
    call["input"]["name"] = name
    return call


@dataclass
class Messaging:
    """An orchestrator waiting on named background agents, one of which messages it."""

    prompt: str
    main: Conversation
    sender: Conversation
    name: str  # the sender's agent name
    sends: list[Block] = field(default_factory=list)  # its SendMessage calls, in order
    peer: Conversation | None = None  # the agent it messages instead, when not the orchestrator

    def results(self) -> list[tuple[bool, str]]:
        """(is_error, text) of each SendMessage call, as the sender was told."""
        out = []
        for call in self.sends:
            res = self.sender.request_with_result(call["id"]).tool_result(call["id"])
            out.append((res.is_error, res.text))
        return out

    def received(self) -> list[tuple[str, str]]:
        """The agent messages the orchestrator was shown, over the whole session."""
        return self.main.last.agent_messages()


def messaging(
    api: FakeAnthropic,
    tag: str,
    message: str,
    to: str = "main",
    *,
    stubborn: bool = False,
    busy: bool = False,
) -> Messaging:
    """The orchestrator starts the named background agent ``<tag>-mate`` (and ``<tag>-peer``,
    which sits in a Bash call long enough to be messaged, when ``to`` names it) and waits for
    their final answers. The agent loads SendMessage (a deferred tool) and sends ``message`` to
    ``to``. Refused (an error result naming the copy spawnkit saved), it sends a short note with
    that path, as a compliant model would, or, when ``stubborn``, the same message again, until
    one goes through; then it answers briefly. ``busy``: the orchestrator sits in a Bash call
    while the message arrives (the client then delivers it as a system message after that
    tool round, not as a user turn)."""
    name = f"{tag.lower()}-mate"
    peer_name = f"{tag.lower()}-peer"
    finals = [f"{tag}-MATE-FINAL"]
    launches = [named_agent(f"{tag}-MATE: audit the retry loops.", name, "audit retry loops")]
    peer = None
    if to == peer_name:
        finals.append(f"{tag}-PEER-FINAL")
        launches.append(named_agent(f"{tag}-PEER: wait for a note.", peer_name, "wait for a note"))
        peer = api.conversation(
            f"{tag}-PEER",
            tool_use("Bash", {"command": "sleep 4", "description": "wait for a note"}),
            f"{finals[-1]}: noted.",
        )

    def wait(req: Request) -> str:
        if all(final in req.text for final in finals):
            return f"{tag}: all agents are done."
        api.wait_for(lambda: False, timeout=0.3)  # nothing to do until the next delivery
        return "WAITING"

    steps: list = [launches]
    if busy:
        steps.append(tool_use("Bash", {"command": "sleep 4", "description": "busy meanwhile"}))
    main = api.conversation(f"{tag}-ORCH", *steps, *[wait] * 80, name=f"{tag}-ORCH")
    plan = Messaging(f"{tag}-ORCH: start the agents.", main, None, name, peer=peer)  # type: ignore[arg-type]

    def act(req: Request) -> Block | str:
        if req.assistant_turns == 0:
            return tool_use("ToolSearch", {"query": "select:SendMessage", "max_results": 1})
        last = plan.sends[-1] if plan.sends else None
        result = req.tool_result(last["id"]) if last else None
        if last is None or (result is not None and result.is_error):
            saved = SAVED_MESSAGE.search(result.text) if result else None
            text = message
            if saved and not stubborn:
                text = (
                    f"{tag} note: 180 findings, 23 packages; the retry loops swallow OSError. "
                    f"Full list: {saved.group(0)}"
                )
            call = send_message(to, text)
            plan.sends.append(call)
            return call
        return f"{finals[0]}: done."

    plan.sender = api.conversation(f"{tag}-MATE", name=f"{tag}-MATE").when(lambda req: True, act)
    return plan
