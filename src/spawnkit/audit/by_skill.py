"""The audit per skill (``--by skill``): what each skill's runs cost, across sessions.

Kept up to date one session at a time, like ``model.Totals``: per skill (its name and the path
of its SKILL.md, so two projects' ``review`` skills stay apart) the runs, the return-like
items its launches brought back (``skills.items``: returns, and whatever other kind a session
holds) with their tokens, the most of its sub-agents at once, its workflow runs and the rules
its runs broke, each with the first few sessions as evidence; then the same for what ran
outside any skill. Memory holds one entry per distinct skill, up to ``MAX_SKILLS``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from spawnkit.audit import skills
from spawnkit.audit.model import Session

MAX_SKILLS = 2000  # distinct skills kept; further ones are counted together (``over_limit``)
EVIDENCE_PER_CODE = 5  # sessions kept as evidence per rule, per skill
OTHER = "(more skills)"  # where skills past MAX_SKILLS are counted


@dataclass
class Tally:
    """Items of one kind (returns…): how many, their tokens, the largest, how many over budget."""

    count: int = 0
    tokens: int = 0  # what they cost the orchestrator, every delivery counted
    max_tokens: int = 0
    over_budget: int = 0

    def add(self, item: Any, budget: int) -> None:
        self.count += 1
        self.tokens += item.tokens * getattr(item, "deliveries", 1)
        self.max_tokens = max(self.max_tokens, item.tokens)
        self.over_budget += item.tokens > budget

    def as_dict(self, kind: str) -> dict[str, int]:
        """``returns``, ``tokens``, ``max_tokens``, ``over_budget`` for the returns; the same
        prefixed with the kind (``messages_tokens``…) for any other kind."""
        prefix = "" if kind == "returns" else f"{kind}_"
        return {
            kind: self.count,
            f"{prefix}tokens": self.tokens,
            f"{prefix}max_tokens": self.max_tokens,
            f"{prefix}over_budget": self.over_budget,
        }


@dataclass
class SkillUsage:
    """One skill across sessions; ``name`` None: everything launched outside any skill."""

    name: str | None
    path: str | None = None
    runs: int = 0
    sessions: int = 0
    hosts: Counter[str] = field(default_factory=Counter)
    tallies: dict[str, Tally] = field(default_factory=dict)
    peak_parallel: int = 0
    workflow_runs: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    first: float | None = None  # the earliest and latest session it was seen in
    last: float | None = None

    def tally(self, kind: str) -> Tally:
        found = self.tallies.get(kind)
        if found is None:
            found = self.tallies[kind] = Tally()
        return found

    @property
    def returns(self) -> Tally:
        return self.tally("returns")

    def seen(self, session: Session) -> None:
        self.sessions += 1
        self.hosts[session.host] += 1
        if session.started is not None:
            self.first = min(self.first or session.started, session.started)
            self.last = max(self.last or session.started, session.started)


class SkillTotals:
    """The per-skill view, one session at a time (see the module)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.usages: dict[tuple[str, str | None], SkillUsage] = {}
        self.unattributed = SkillUsage(None)
        self.over_limit = 0  # distinct skills counted under OTHER

    def add(self, session: Session) -> None:
        touched: dict[int, SkillUsage] = {}

        def usage(name: str | None) -> SkillUsage:
            found = self._usage(session, name)
            touched[id(found)] = found
            return found

        for run in session.skills.values():
            usage(run.name).runs += run.runs or 1  # tagged, or its script ran: one run at least
        for kind, items in skills.items(session):
            for item in items:
                usage(item.skill).tally(kind).add(item, self.budget)
        for name, peak in session.skill_peaks.items():
            found = usage(name)
            found.peak_parallel = max(found.peak_parallel, peak)
        for run in session.workflows:
            found = usage(run.skill)
            found.workflow_runs += 1
            found.peak_parallel = max(found.peak_parallel, run.peak_parallel)
        for finding in session.findings:
            found = usage(finding.skill)
            found.findings[finding.code] += 1
            if sum(e["code"] == finding.code for e in found.evidence) < EVIDENCE_PER_CODE:
                found.evidence.append(
                    {
                        "code": finding.code,
                        "session": session.id,
                        "host": session.host,
                        "started": session.started,
                        "transcript": session.path,
                        "agent": finding.agent,
                        "tokens": finding.tokens,
                        "message": finding.message,
                    }
                )
        for found in touched.values():
            found.seen(session)

    def _usage(self, session: Session, name: str | None) -> SkillUsage:
        if name is None:
            return self.unattributed
        run = session.skills.get(name)
        key = (name, run.path if run is not None else None)
        found = self.usages.get(key)
        if found is None:
            if len(self.usages) >= MAX_SKILLS:
                self.over_limit += 1
                key = (OTHER, None)
                found = self.usages.get(key)
                if found is not None:
                    return found
            found = self.usages[key] = SkillUsage(key[0], key[1])
        return found

    def ranked(self) -> list[SkillUsage]:
        """The skills, the costliest first (tokens their returns brought), then by name."""
        return sorted(
            self.usages.values(),
            key=lambda u: (-u.returns.tokens, -u.returns.count, u.name or "", u.path or ""),
        )

    @property
    def kinds(self) -> list[str]:
        """Every kind of item counted, the returns first."""
        found = {"returns"}
        for usage in [*self.usages.values(), self.unattributed]:
            found.update(usage.tallies)
        return ["returns", *sorted(found - {"returns"})]
