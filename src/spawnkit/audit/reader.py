"""What reading any client's session shares: the launches and their returns or refusals, the
first and last times, report read-backs and state writes, and the sub-agents' own transcripts
(their last record, the answers spawnkit held back) joined to their returns. ``claude`` and
``codex`` know their clients' records and fill in the rest."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from spawnkit import tokens
from spawnkit.audit import signals, skills
from spawnkit.audit.discovery import Source
from spawnkit.audit.jsonl import Skip, record_type, records, timestamp
from spawnkit.audit.model import FileTouch, InputStats, Return, Session, SubagentFacts
from spawnkit.hosts import kinds


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
    kind: str = "agent"  # "workflow": a workflow run, whose result is its return
    mark: skills.Mark = skills.Mark(None, None)  # which skill it was launched in


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
        self.spans = skills.Spans(session)
        self.record_tag: str | None = None  # the client's skill tag on the record being read
        self.opened: list[SimpleNamespace] = []  # launches never returned: their skill, once known

    def feed(self, record: dict[str, Any], stats: InputStats) -> None:
        raise NotImplementedError

    def finish(self, source: Source, stats: InputStats) -> None:
        """After the sub-agents' transcripts: what else of the session lies on disk (workflow
        runs, for Claude Code)."""

    def is_subagent(self) -> bool:
        """The file held only a sub-agent's records: a sub-agent whose session is not here."""
        return False

    def seen(self, stamp: Any) -> None:
        """Keep the first and last record times (parsed once, at the end)."""
        if isinstance(stamp, str):
            self.first = self.first or stamp
            self.last = stamp

    def read_back(self, tool_id: str, path: str, when: float | None) -> None:
        """The orchestrator read a report; whether a hook refused it shows in the tool's result."""
        touch = FileTouch(path, when)
        self.spans.attach(touch, self.spans.mark(self.record_tag))
        self.s.report_reads.append(touch)
        self.reads.setdefault(tool_id, []).append(touch)

    def read_result(self, tool_id: str, text: str, refused: bool = True) -> None:
        """The result of tool call ``tool_id``: a read-back in it was denied when the call was
        ``refused`` (where the client says so) with spawnkit's reason."""
        for touch in self.reads.pop(tool_id, ()):
            touch.denied = refused and signals.spawnkit_said(text, signals.READS_CODE)

    def wrote(self, path: str, when: float | None) -> None:
        """The orchestrator wrote ``path``: a checkpoint when it is a state file."""
        if signals.is_state_file(path):
            self.s.state_writes.append(FileTouch(path, when))

    def shell(self, tool_id: str, command: str, cwd: str, when: float | None) -> None:
        """A shell command of the orchestrator: reports it prints, the state file it updates."""
        for path in signals.shell_report_reads(command, cwd):
            self.read_back(tool_id, path, when)
        state = signals.shell_state_write(command)
        if state:
            self.s.state_writes.append(FileTouch(state, when))

    def refused(self, launch: Launch, text: str) -> None:
        """A launch that never started: refused by spawnkit's parallel cap, or failed."""
        launch.done = True
        if signals.spawnkit_said(text, signals.PARALLEL_CODE):
            self.s.denied_launches += 1
        else:
            self.s.failed_launches += 1

    def arrived(self, text: str) -> None:
        """``text`` reached the orchestrator before its next model response (any tool result,
        message or notification): the characters a recorded growth is shared by."""
        if text:
            gap = self.gap()
            self.s.gap_chars[gap] = self.s.gap_chars.get(gap, 0) + len(text)

    def gap(self) -> int:
        """The context point that will first include what arrives now: the next one."""
        return len(self.s.context)

    def returned(self, launch: Launch, words: str, stamp: Any, received: str = "") -> Return:
        """The sub-agent's final ``words`` reached the orchestrator, within ``received`` (the
        text as delivered, the client's framing included; ``words`` when empty)."""
        launch.done = True
        estimate = tokens.estimate(words)
        ret = Return(
            agent_id=launch.agent_id,
            tokens=estimate,
            estimated_tokens=estimate,
            chars=len(words),
            delivered_chars=max(len(received), len(words)),
            description=launch.description,
            agent_type=launch.agent_type,
            tool_use_id=launch.tool_use_id,
            background=launch.background,
            launched=launch.launched,
            received=timestamp(stamp),
            turn=self.gap(),
            kind=launch.kind,
        )
        self.spans.attach(ret, launch.mark)
        self.s.returns.append(ret)
        return ret

    def compacted(self) -> None:
        """The conversation was compacted: the next prompt is not the last one plus more."""
        self.s.breaks.add(len(self.s.context))

    def launch(self, launch: Launch) -> Launch:
        """A launch made now: marked with the skill it is made in, and kept by its call id."""
        launch.mark = self.spans.mark(self.record_tag)
        self.launches[launch.tool_use_id] = launch
        return launch

    def settle(self) -> None:
        """Once everything of the session is read: each mark resolved to its skill, a workflow
        run whose script lies in a skill's folder given to that skill, each skill located."""
        self.spans.close()
        self.s.open_launch_skills = [holder.skill for holder in self.opened]
        config_dirs = kinds.roots(os.environ)
        for run in self.s.workflows:
            name = skills.script_skill(self.s, run.script_path, config_dirs)
            if name is not None:
                run.skill = name
                if run.result is not None:
                    run.result.skill = name
        skills.locate(self.s)

    def close(self) -> None:
        self.s.started = timestamp(self.first)
        self.s.ended = timestamp(self.last)
        opened = [
            launch
            for launch in self.launches.values()
            if not launch.done and launch.launched is not None
        ]
        self.s.open_launches = [launch.launched for launch in opened]
        self.opened = [SimpleNamespace(skill=None) for _ in opened]
        for holder, launch in zip(self.opened, opened, strict=True):
            self.spans.attach(holder, launch.mark)


class Child:
    """Folds a sub-agent's own records into its ``SubagentFacts``: when it ended, whether it
    wrote files, and each answer spawnkit held back."""

    skip: Skip | None = None
    known: frozenset[str] = frozenset()

    def __init__(self) -> None:
        self.facts = SubagentFacts()
        self.parts: list[str] = []  # the text of its latest answer
        self.held = False  # that answer was already held back

    def feed(self, record: dict[str, Any], kind: str) -> None:
        raise NotImplementedError

    def new_answer(self) -> None:
        self.parts, self.held = [], False

    def block(self, reason: str) -> None:
        """A SubagentStop block after the latest answer: spawnkit's, when ``reason`` says so."""
        if self.parts and not self.held:
            self.held = signals.held_back(self.facts, "\n".join(self.parts), reason)

    def read(self, path: str, stats: InputStats) -> SubagentFacts:
        first = last = None
        for record in records(path, stats, self.skip):
            kind = record_type(record)
            if isinstance(record.get("timestamp"), str):
                first = first or record["timestamp"]
                last = record["timestamp"]
            if kind in self.known:
                self.feed(record, kind)
            else:
                stats.unknown_records[kind] += 1
        self.facts.started = timestamp(first)
        self.facts.finished = timestamp(last)
        return self.facts


def read_session(
    source: Source,
    stats: InputStats,
    orchestrator: type[Orchestrator],
    child: type[Child],
) -> Session | None:
    """The orchestrator's transcript, then each sub-agent's joined to its return by agent id.

    None when not one record of the file is of a type the client writes: some other JSON
    Lines file (a prompt history, a log), counted as not a transcript, its types not reported.
    """
    reader = orchestrator(
        Session(id=source.session_id, host=source.host, path=source.path, project=source.project)
    )
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
    if reader.is_subagent():
        stats.orphan_subagents += 1
        return None
    reader.close()
    session = reader.s
    for agent_id, path in source.children.items():
        session.subagent_transcripts += 1
        facts = child().read(path, stats)
        session.messages_held += facts.held_messages
        for ret in session.returns:
            if ret.agent_id == agent_id and ret.kind == "agent":
                facts.apply(ret)
                break
    reader.finish(source, stats)
    reader.settle()
    return session
