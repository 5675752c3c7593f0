"""What an audit finds, as plain data: sessions, their returns and context curve, the input read.

Only numbers, short labels and paths are kept per session, never the transcripts' texts, so an
audit of many gigabytes holds little more than one line of input at a time.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

CLAUDE_CODE = "claude-code"
CODEX = "codex"
COPILOT = "copilot"
GEMINI = "gemini"
QWEN = "qwen"

# Where a return's ``tokens`` come from: the growth of the orchestrator's next prompt as the
# client recorded it, that growth shared with what else arrived alongside, or the estimate.
FROM_USAGE = "usage"
FROM_SHARED_USAGE = "usage-shared"
FROM_ESTIMATE = "estimate"


@dataclass
class Return:
    """One sub-agent answer as it reached the orchestrator."""

    agent_id: str
    tokens: int  # what the return cost the orchestrator: recorded growth, else the estimate
    description: str = ""
    agent_type: str = ""
    tool_use_id: str = ""
    background: bool = False
    deliveries: int = 1  # times the same words landed in the parent's context (Codex: wait + note)
    blocked: bool = False  # spawnkit held back a longer answer first
    saved_path: str | None = None  # where spawnkit saved the held-back answer
    full_tokens: int | None = None  # size of the longest held-back answer
    blocks: int = 0
    launched: float | None = None  # epoch seconds
    received: float | None = None
    finished: float | None = None  # the sub-agent's last record, when its transcript exists
    turn: int = 0  # index of the first context point that includes this return
    wrote_files: bool | None = None  # None: no sub-agent transcript to tell
    estimated_tokens: int = 0  # spawnkit's offline estimate of the words (what the hook judges)
    tokens_source: str = FROM_ESTIMATE  # FROM_USAGE, FROM_SHARED_USAGE or FROM_ESTIMATE
    chars: int = 0  # characters of the words (what the budget is about)
    delivered_chars: int = 0  # characters as delivered: the words in the client's framing
    delivered_tokens: int | None = None  # the recorded growth's share of all of that
    kind: str = "agent"  # "agent", or "workflow" for a workflow's result
    status: str = "completed"  # or what the client's notification said: killed, failed...
    skill: str | None = None  # the skill that launched it (``skills.Spans``), None: no skill


@dataclass
class Message:
    """One message a sub-agent sent the orchestrator (Claude Code's ``SendMessage`` to
    ``main``): sub-agent text in its context, beside the answers. Its tokens come from the
    recorded usage as a return's do (``usage.attribute``)."""

    sender: str  # the name it was sent under (the agent's name, or its id)
    tokens: int  # what it cost the orchestrator: recorded growth, else the estimate
    agent_id: str = ""  # the sending agent, where the client recorded it
    description: str = ""  # the sender's launch, when the session shows it
    agent_type: str = ""
    estimated_tokens: int = 0
    tokens_source: str = FROM_ESTIMATE
    chars: int = 0  # characters of the message
    delivered_chars: int = 0  # the message in its <agent-message> tag
    delivered_tokens: int | None = None
    received: float | None = None
    turn: int = 0  # index of the first context point that includes it
    skill: str | None = None  # its sender's skill (the launch's), None: no skill


@dataclass
class SubagentFacts:
    """What a sub-agent's own transcript adds to its return."""

    finished: float | None = None  # its last record
    started: float | None = None  # its first record
    wrote_files: bool = False
    blocks: int = 0
    full_tokens: int | None = None
    saved_path: str | None = None
    held_messages: int = 0  # messages to the orchestrator spawnkit refused (and saved)

    def apply(self, ret: Return) -> None:
        ret.finished = self.finished
        ret.wrote_files = self.wrote_files
        if self.blocks:
            ret.blocked = True
            ret.blocks = self.blocks
            ret.full_tokens = self.full_tokens
            ret.saved_path = self.saved_path


@dataclass
class ContextPoint:
    """The orchestrator's context after one model response: ``prompt`` (every input token,
    cached or not) plus ``output``, when the client recorded them; ``tokens`` is their sum, or
    the running estimate when nothing was recorded."""

    tokens: int
    time: float | None = None
    prompt: int | None = None
    output: int | None = None
    model: str = ""


@dataclass
class WorkflowAgent:
    """One agent of a workflow run: its answer went to the script, not to the orchestrator."""

    agent_id: str
    label: str = ""
    phase: str = ""
    answer_tokens: int | None = None  # estimate of the answer the journal kept; None: none kept
    answer_chars: int = 0
    started: float | None = None
    finished: float | None = None
    wrote_files: bool | None = None


@dataclass
class WorkflowRun:
    """One run of a Claude Code workflow script (the ``Workflow`` tool): its agents from the run's
    journal and transcripts, and the result the orchestrator received in a notification."""

    run_id: str
    name: str = ""
    tool_use_id: str = ""
    status: str = ""  # the notification's: completed, failed, killed; "" while none arrived
    launched: float | None = None
    agents: list[WorkflowAgent] = field(default_factory=list)
    result: Return | None = None  # also among the session's returns (kind "workflow")
    peak_parallel: int = 0
    reported_agents: int | None = None  # agent_count the notification's <usage> gave
    script_path: str = ""  # the script's path as the Workflow call named it ("" inline)
    skill: str | None = None  # the skill it ran for: its script's folder, else its launch's


@dataclass
class FileTouch:
    """A report read back by the orchestrator, or a state file it wrote."""

    path: str
    time: float | None = None
    denied: bool = False  # a spawnkit hook refused it
    skill: str | None = None  # the skill running when the orchestrator did it


@dataclass
class Finding:
    code: str
    name: str
    severity: str
    message: str
    agent_id: str | None = None
    skill: str | None = None  # the skill whose run broke the rule; None: outside any skill
    agent: str = ""  # the sub-agent (its description) the finding is about, when one is
    tokens: int | None = None  # what that sub-agent's return cost, when it is about one


@dataclass
class SkillRun:
    """A skill (or custom command) a session invoked, or that its launches were tagged with."""

    name: str  # as the client recorded it, without a leading slash
    runs: int = 0  # invocations recorded (Skill tool, ``/name``, ``skill.invoked``…)
    base_dir: str = ""  # the folder the client said it loaded the skill from
    recorded_path: str = ""  # the SKILL.md path the client recorded (Codex, Copilot CLI)
    path: str | None = None  # its SKILL.md (or command file), found on disk; None: not found


@dataclass
class Session:
    id: str
    host: str
    path: str  # the orchestrator's transcript
    project: str = ""  # the working directory the client recorded
    client_version: str = ""
    started: float | None = None
    ended: float | None = None
    context_window: int | None = None
    context_window_source: str | None = None  # "recorded", "option" or "default"
    context_source: str = "usage"  # "usage" (recorded), "estimate", or "none" (nothing to tell)
    context: list[ContextPoint] = field(default_factory=list)
    gap_chars: dict[int, int] = field(default_factory=dict)  # characters received before point N
    breaks: set[int] = field(default_factory=set)  # points preceded by a compaction
    workflows: list[WorkflowRun] = field(default_factory=list)
    returns: list[Return] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)  # what sub-agents sent it, not answers
    messages_held: int = 0  # messages to it a spawnkit hook refused, each saved on disk
    open_launches: list[float] = field(default_factory=list)  # launched, never returned
    open_launch_skills: list[str | None] = field(default_factory=list)  # their skills, in order
    denied_launches: int = 0  # Agent calls a spawnkit hook refused (parallel cap)
    failed_launches: int = 0  # other Agent calls that never started
    report_reads: list[FileTouch] = field(default_factory=list)
    state_writes: list[FileTouch] = field(default_factory=list)
    subagent_transcripts: int = 0
    peak_parallel: int = 0
    findings: list[Finding] = field(default_factory=list)
    skills: dict[str, SkillRun] = field(default_factory=dict)  # by name, in invocation order
    skill_peaks: dict[str | None, int] = field(
        default_factory=dict
    )  # sub-agents at once, per skill

    @property
    def peak_context(self) -> int:
        return max((p.tokens for p in self.context), default=0)

    @property
    def return_tokens(self) -> int:
        return sum(r.tokens * r.deliveries for r in self.returns)

    @property
    def message_tokens(self) -> int:
        """What sub-agents' messages cost the orchestrator (beside ``return_tokens``)."""
        return sum(m.tokens for m in self.messages)


MAX_NOTES = 10


@dataclass
class InputStats:
    """Everything read, and everything that could not be: counted, never fatal."""

    files: int = 0
    bytes: int = 0
    lines: int = 0
    malformed_lines: int = 0
    truncated_lines: int = 0
    oversized_lines: int = 0
    binary_files: int = 0
    empty_files: int = 0
    unreadable_files: int = 0
    not_transcripts: int = 0
    symlinks_skipped: int = 0
    orphan_subagents: int = 0
    files_over_limit: int = 0
    duplicate_sessions: int = 0  # transcripts whose session (thread) id another one has too
    unknown_records: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)  # the first few problems, named (stderr)

    def note(self, text: str) -> None:
        """Keep a one-line description of a problem, up to ``MAX_NOTES``."""
        if len(self.notes) < MAX_NOTES:
            self.notes.append(text)

    @property
    def problems(self) -> dict[str, int]:
        """The non-zero problem counters, by name."""
        names = (
            "malformed_lines",
            "truncated_lines",
            "oversized_lines",
            "binary_files",
            "empty_files",
            "unreadable_files",
            "not_transcripts",
            "symlinks_skipped",
            "orphan_subagents",
            "files_over_limit",
            "duplicate_sessions",
        )
        return {n: getattr(self, n) for n in names if getattr(self, n)}


class Totals:
    """The summary across sessions, kept up to date one session at a time.

    Only counters and the top few entries are kept (``heapq``), never the sessions, so an
    audit of any number of sessions holds the same small summary.
    """

    def __init__(self, budget: int, top: int = 10) -> None:
        self.budget = budget
        self.top = top
        self.sessions = self.sessions_with_returns = self.returns = self.over_budget = 0
        self.tokens_received = self.blocked = self.blocked_full_tokens = 0
        self.blocked_received_tokens = self.denied_launches = self.denied_reads = 0
        self.quiet_sessions = 0  # no sub-agent returns, messages or findings
        self.messages = self.messages_over_budget = self.message_tokens = self.messages_held = 0
        self.hosts: Counter[str] = Counter()
        self.codes: Counter[str] = Counter()
        self.sources: Counter[str] = Counter()  # returns by where their tokens came from
        self.workflow_runs = self.workflow_agents = 0
        self._worst: list[tuple[int, int, dict[str, Any]]] = []
        self._closest: list[tuple[float, int, dict[str, Any]]] = []
        self._seq = 0

    def add(self, s: Session) -> None:
        self.sessions += 1
        self.hosts[s.host] += 1
        self.sessions_with_returns += bool(s.returns)
        self.quiet_sessions += not (s.returns or s.messages or s.findings)
        self.messages += len(s.messages)
        self.message_tokens += s.message_tokens
        self.messages_over_budget += sum(m.tokens > self.budget for m in s.messages)
        self.messages_held += s.messages_held
        self.denied_launches += s.denied_launches
        self.denied_reads += sum(1 for t in s.report_reads if t.denied)
        self.codes.update(f.code for f in s.findings)
        self.workflow_runs += len(s.workflows)
        self.workflow_agents += sum(len(w.agents) for w in s.workflows)
        for r in s.returns:
            self.returns += 1
            self.sources[r.tokens_source] += 1
            self.over_budget += r.tokens > self.budget
            self.tokens_received += r.tokens * r.deliveries
            if r.blocked:
                self.blocked += 1
                self.blocked_full_tokens += r.full_tokens or 0
                self.blocked_received_tokens += r.tokens
            self._keep(
                self._worst,
                r.tokens * r.deliveries,
                {
                    "session": s.id,
                    "host": s.host,
                    "agent_id": r.agent_id,
                    "description": r.description or r.agent_type,
                    "tokens": r.tokens,
                    "tokens_source": r.tokens_source,
                    "deliveries": r.deliveries,
                },
            )
        if s.context and s.context_window:
            share = s.peak_context / s.context_window
            self._keep(
                self._closest,
                share,
                {
                    "session": s.id,
                    "host": s.host,
                    "peak_context": s.peak_context,
                    "context_window": s.context_window,
                    "share": round(share, 4),
                },
            )

    def _keep(self, heap: list, key: float, item: dict[str, Any]) -> None:
        self._seq += 1
        entry = (key, -self._seq, item)  # ties: the earlier session ranks first
        if len(heap) < self.top:
            heapq.heappush(heap, entry)
        elif entry > heap[0]:
            heapq.heapreplace(heap, entry)

    @property
    def findings(self) -> int:
        return sum(self.codes.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "sessions_with_returns": self.sessions_with_returns,
            "returns": self.returns,
            "returns_by_tokens_source": {
                k: self.sources[k] for k in (FROM_USAGE, FROM_SHARED_USAGE, FROM_ESTIMATE)
            },
            "over_budget": self.over_budget,
            "tokens_received": self.tokens_received,
            "messages": self.messages,
            "messages_over_budget": self.messages_over_budget,
            "message_tokens": self.message_tokens,
            "messages_held": self.messages_held,
            "blocked": self.blocked,
            "blocked_full_tokens": self.blocked_full_tokens,
            "blocked_received_tokens": self.blocked_received_tokens,
            "tokens_kept_out": max(0, self.blocked_full_tokens - self.blocked_received_tokens),
            "denied_launches": self.denied_launches,
            "denied_reads": self.denied_reads,
            "workflow_runs": self.workflow_runs,
            "workflow_agents": self.workflow_agents,
            "worst_returns": [item for _, _, item in sorted(self._worst, reverse=True)],
            "closest_to_limit": [item for _, _, item in sorted(self._closest, reverse=True)],
            "findings_by_code": dict(sorted(self.codes.items())),
        }


@dataclass
class Audit:
    """One audit run. ``sessions`` may be a list, or a stream that fills ``totals``, ``stats``
    and ``seconds`` as it is consumed: renderers read those only after the sessions."""

    sessions: Iterable[Session]
    stats: InputStats
    totals: Totals
    budget: int
    max_parallel: int
    checkpoint_every: int
    roots: list[str] = field(default_factory=list)
    seconds: float = 0.0
    skills: Any = None  # by_skill.SkillTotals: the per-skill view, filled like ``totals``
