"""What reading any client's session shares: the launches, the first and last times, the
sub-agents' own transcripts joined to their returns. ``claude`` and ``codex`` fill in the rest."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spawnkit.audit.discovery import Source
from spawnkit.audit.jsonl import Skip, record_type, records, timestamp
from spawnkit.audit.model import FileTouch, InputStats, Session, SubagentFacts


@dataclass
class Launch:
    """A sub-agent launch, until its return arrives (or never does)."""

    tool_use_id: str
    description: str
    launched: float | None
    agent_type: str = ""
    agent_id: str = ""
    background: bool = False
    done: bool = False


class Orchestrator:
    """Folds an orchestrator's records into its ``Session``, one record at a time."""

    skip: Skip | None = None  # recognises lines not worth parsing (all of known types)
    known: frozenset[str] = frozenset()  # the record types this client writes

    def __init__(self, session: Session) -> None:
        self.s = session
        self.launches: dict[str, Launch] = {}
        self.by_agent: dict[str, Launch] = {}
        self.reads: dict[str, list[FileTouch]] = {}
        self.first: str | None = None
        self.last: str | None = None

    def feed(self, record: dict[str, Any], stats: InputStats) -> None:
        raise NotImplementedError

    def seen(self, stamp: Any) -> None:
        """Keep the first and last record times (parsed once, at the end)."""
        if isinstance(stamp, str):
            self.first = self.first or stamp
            self.last = stamp

    def read_back(self, tool_id: str, path: str, when: float | None) -> None:
        """The orchestrator read a report; whether a hook refused it shows in the tool's result."""
        touch = FileTouch(path, when)
        self.s.report_reads.append(touch)
        self.reads.setdefault(tool_id, []).append(touch)

    def close(self) -> None:
        self.s.started = timestamp(self.first)
        self.s.ended = timestamp(self.last)
        self.s.open_launches = [
            launch.launched
            for launch in self.launches.values()
            if not launch.done and launch.launched is not None
        ]


def read_session(
    source: Source,
    stats: InputStats,
    reader: Orchestrator,
    read_child: Callable[[str, InputStats], SubagentFacts],
) -> Session | None:
    """The orchestrator's transcript, then each sub-agent's joined to its return by agent id.

    None when not one record of the file is of a type the client writes: some other JSON
    Lines file (a prompt history, a log), counted as not a transcript, its types not reported.
    """
    recognised = 0
    unknown: Counter[str] = Counter()

    def skip(line: bytes) -> bool:
        nonlocal recognised
        if reader.skip is not None and reader.skip(line):
            recognised += 1
            return True
        return False

    for record in records(source.path, stats, skip):
        kind = record_type(record)
        if kind in reader.known:
            recognised += 1
        else:
            unknown[kind] += 1
        reader.feed(record, stats)
    if not recognised:
        if unknown:
            stats.not_transcripts += 1
        return None
    stats.unknown_records.update(unknown)
    reader.close()
    session = reader.s
    for agent_id, path in source.children.items():
        session.subagent_transcripts += 1
        facts = read_child(path, stats)
        for ret in session.returns:
            if ret.agent_id == agent_id:
                facts.apply(ret)
                break
    return session
