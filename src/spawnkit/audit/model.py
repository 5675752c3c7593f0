"""What an audit finds, as plain data: sessions, their returns and context curve, the input read.

Only numbers, short labels and paths are kept per session, never the transcripts' texts, so an
audit of many gigabytes holds little more than one line of input at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from spawnkit.audit.analyze import Totals

CLAUDE_CODE = "claude-code"
CODEX = "codex"


@dataclass
class Return:
    """One sub-agent answer as it reached the orchestrator."""

    agent_id: str
    tokens: int  # estimated tokens of the sub-agent's words the parent received
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


@dataclass
class SubagentFacts:
    """What a sub-agent's own transcript adds to its return."""

    finished: float | None = None  # its last record
    wrote_files: bool = False
    blocks: int = 0
    full_tokens: int | None = None
    saved_path: str | None = None

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
    """The orchestrator's context after one model response."""

    tokens: int
    time: float | None = None


@dataclass
class FileTouch:
    """A report read back by the orchestrator, or a state file it wrote."""

    path: str
    time: float | None = None
    denied: bool = False  # a spawnkit hook refused it


@dataclass
class Finding:
    code: str
    name: str
    severity: str
    message: str
    agent_id: str | None = None


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
    context_source: str = "usage"  # "usage" (recorded by the client) or "estimate"
    context: list[ContextPoint] = field(default_factory=list)
    returns: list[Return] = field(default_factory=list)
    open_launches: list[float] = field(default_factory=list)  # launched, never returned
    denied_launches: int = 0  # Agent calls a spawnkit hook refused (parallel cap)
    failed_launches: int = 0  # other Agent calls that never started
    report_reads: list[FileTouch] = field(default_factory=list)
    state_writes: list[FileTouch] = field(default_factory=list)
    subagent_transcripts: int = 0
    peak_parallel: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def peak_context(self) -> int:
        return max((p.tokens for p in self.context), default=0)

    @property
    def return_tokens(self) -> int:
        return sum(r.tokens * r.deliveries for r in self.returns)


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
    unknown_records: Counter[str] = field(default_factory=Counter)

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
        )
        return {n: getattr(self, n) for n in names if getattr(self, n)}


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
