"""Judge each session against the standard and sum up across sessions.

Rules the transcripts can show, with the codes lint and the hooks use (read from the standard):

- CM001 a return the orchestrator received was over the return budget;
- CM002 an over-budget sub-agent wrote no file, so its results live only in the reply;
- CM003 sub-agents finished (at least the checkpoint interval of them) and no state file was
  ever written; CM007 state files were written, but more sub-agents than the interval
  returned in a row without one;
- CM005 more sub-agents ran at once than the cap;
- CM006 the orchestrator read a sub-agent's report back (a read a hook refused is not one).

CM004 (resume at start-up) and CM008 (lean progress lines) leave no trace a reader could judge.
"""

from __future__ import annotations

import heapq
from collections import Counter
from typing import Any

from spawnkit import protocol
from spawnkit.audit.model import Finding, Return, Session


def finish(session: Session, budget: int, cap: int, every: int) -> None:
    """Fill in peak parallelism and findings."""
    session.peak_parallel = peak_parallel(session)
    session.findings = findings(session, budget, cap, every)


def peak_parallel(session: Session) -> int:
    """Most sub-agents running at one moment: launch to last record (or to its return)."""
    events: list[tuple[float, int]] = []
    for ret in session.returns:
        end = ret.finished if ret.finished is not None else ret.received
        if ret.launched is not None and end is not None:
            events += [(ret.launched, 1), (max(end, ret.launched), -1)]
    for start in session.open_launches:
        events += [(start, 1), (max(session.ended or start, start), -1)]
    running = peak = 0
    for _, step in sorted(events):  # at a tie a finish (-1) sorts before a start
        running += step
        peak = max(peak, running)
    return peak


def findings(session: Session, budget: int, cap: int, every: int) -> list[Finding]:
    found: list[Finding] = []
    for ret in session.returns:
        name = _who(ret)
        if ret.tokens > budget:
            found.append(
                _finding(
                    "CM001",
                    f"{name} returned ~{ret.tokens:,} tokens, over the {budget}-token budget"
                    + (f" (delivered {ret.deliveries} times)" if ret.deliveries > 1 else ""),
                    ret.agent_id,
                )
            )
        size = max(ret.tokens, ret.full_tokens or 0)
        if ret.wrote_files is False and not ret.blocked and size > budget:
            found.append(
                _finding(
                    "CM002",
                    f"{name} wrote no file: its ~{size:,}-token result exists only in its reply",
                    ret.agent_id,
                )
            )
    found += _checkpoints(session, every)
    if session.peak_parallel > cap:
        found.append(
            _finding(
                "CM005",
                f"{session.peak_parallel} sub-agents ran at the same time; the cap is {cap}",
            )
        )
    for touch in session.report_reads:
        if not touch.denied:
            found.append(
                _finding("CM006", f"the orchestrator read the full report {touch.path} back")
            )
    return found


def _checkpoints(session: Session, every: int) -> list[Finding]:
    done = [r.received for r in session.returns]
    if len(done) < every:
        return []
    if not session.state_writes:
        return [
            _finding(
                "CM003",
                f"{len(done)} sub-agents returned and no state file was written",
            )
        ]
    events = sorted(
        [(t, 1) for t in done if t is not None]
        + [(w.time, 0) for w in session.state_writes if w.time is not None and not w.denied]
    )
    streak = worst = 0
    for _, is_return in events:
        streak = streak + 1 if is_return else 0
        worst = max(worst, streak)
    if worst > every:
        return [
            _finding(
                "CM007",
                f"{worst} sub-agents returned in a row without a state-file update"
                f" (the standard asks for one at least every {every})",
            )
        ]
    return []


def _who(ret: Return) -> str:
    label = ret.description or ret.agent_type or "a sub-agent"
    return f"'{label}'" if ret.description else label


def _finding(code: str, message: str, agent_id: str | None = None) -> Finding:
    rule = protocol.rule(code)
    assert rule is not None, code
    return Finding(code, rule.name, rule.severity, message, agent_id)


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
        self.quiet_sessions = 0  # no sub-agent returns and no findings
        self.hosts: Counter[str] = Counter()
        self.codes: Counter[str] = Counter()
        self._worst: list[tuple[int, int, dict[str, Any]]] = []
        self._closest: list[tuple[float, int, dict[str, Any]]] = []
        self._seq = 0

    def add(self, s: Session) -> None:
        self.sessions += 1
        self.hosts[s.host] += 1
        self.sessions_with_returns += bool(s.returns)
        self.quiet_sessions += not (s.returns or s.findings)
        self.denied_launches += s.denied_launches
        self.denied_reads += sum(1 for t in s.report_reads if t.denied)
        self.codes.update(f.code for f in s.findings)
        for r in s.returns:
            self.returns += 1
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
            "over_budget": self.over_budget,
            "tokens_received": self.tokens_received,
            "blocked": self.blocked,
            "blocked_full_tokens": self.blocked_full_tokens,
            "blocked_received_tokens": self.blocked_received_tokens,
            "tokens_kept_out": max(0, self.blocked_full_tokens - self.blocked_received_tokens),
            "denied_launches": self.denied_launches,
            "denied_reads": self.denied_reads,
            "worst_returns": [item for _, _, item in sorted(self._worst, reverse=True)],
            "closest_to_limit": [item for _, _, item in sorted(self._closest, reverse=True)],
            "findings_by_code": dict(sorted(self.codes.items())),
        }
