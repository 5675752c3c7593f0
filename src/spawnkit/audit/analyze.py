"""Judge each session against the standard (the running summary is ``model.Totals``).

Rules the transcripts can show, with the codes lint and the hooks use (read from the standard):

- CM001 a return the orchestrator received was over the return budget, and so was a message a
  sub-agent sent it (Claude Code's SendMessage: the same text in the same context);
- CM002 an over-budget sub-agent wrote no file, so its results live only in the reply;
- CM003 sub-agents finished (at least the checkpoint interval of them) and no state file was
  ever written; CM007 state files were written, but more sub-agents than the interval
  returned in a row without one;
- CM005 more sub-agents ran at once than the cap;
- CM006 the orchestrator read a sub-agent's report back (a read a hook refused is not one).

CM004 (resume at start-up) and CM008 (lean progress lines) leave no trace a reader could judge.
"""

from __future__ import annotations

from spawnkit.audit import usage
from spawnkit.audit.model import FROM_ESTIMATE, Finding, Message, Return, Session
from spawnkit.standard import protocol


def finish(session: Session, budget: int, cap: int, every: int) -> None:
    """Per-return tokens from the recorded usage, peak parallelism, findings."""
    usage.attribute(session)
    session.peak_parallel = peak_parallel(session)
    session.skill_peaks = skill_peaks(session)
    for run in session.workflows:
        run.peak_parallel = overlap([(a.started, a.finished) for a in run.agents])
    session.findings = findings(session, budget, cap, every)


def peak_parallel(session: Session) -> int:
    """Most sub-agents running at one moment: launch to last record (or to its return).
    A workflow's agents are counted per run (``WorkflowRun.peak_parallel``)."""
    spans: list[tuple[float | None, float | None]] = []
    for ret in session.returns:
        if ret.kind == "agent":
            spans.append((ret.launched, ret.finished if ret.finished is not None else ret.received))
    spans += [(start, session.ended or start) for start in session.open_launches]
    return overlap(spans)


def skill_peaks(session: Session) -> dict[str | None, int]:
    """``peak_parallel`` per skill: the most of one skill's sub-agents running at one moment
    (None: those launched outside any skill)."""
    by_skill: dict[str | None, list[tuple[float | None, float | None]]] = {}
    for ret in session.returns:
        if ret.kind == "agent":
            end = ret.finished if ret.finished is not None else ret.received
            by_skill.setdefault(ret.skill, []).append((ret.launched, end))
    skills = session.open_launch_skills
    if len(skills) != len(session.open_launches):
        skills = [None] * len(session.open_launches)
    for start, skill in zip(session.open_launches, skills, strict=True):
        by_skill.setdefault(skill, []).append((start, session.ended or start))
    return {skill: overlap(spans) for skill, spans in by_skill.items()}


def overlap(spans: list[tuple[float | None, float | None]]) -> int:
    """Most spans open at one moment; one ending as another starts does not overlap it."""
    events: list[tuple[float, int]] = []
    for start, end in spans:
        if start is not None and end is not None:
            events += [(start, 1), (max(start, end), -1)]
    running = peak = 0
    for _, step in sorted(events):  # at a tie a finish (-1) sorts before a start
        running += step
        peak = max(peak, running)
    return peak


def findings(session: Session, budget: int, cap: int, every: int) -> list[Finding]:
    found: list[Finding] = []
    for ret in session.returns:
        name = _who(ret)
        about = {"skill": ret.skill, "agent": _label(ret), "tokens": ret.tokens}
        if ret.tokens > budget:
            found.append(
                _finding(
                    "CM001",
                    f"{name} returned {size_of(ret)}, over the {budget}-token budget"
                    + (f" (delivered {ret.deliveries} times)" if ret.deliveries > 1 else ""),
                    ret.agent_id,
                    **about,
                )
            )
        size = max(ret.tokens, ret.full_tokens or 0)
        if ret.wrote_files is False and not ret.blocked and size > budget:
            found.append(
                _finding(
                    "CM002",
                    f"{name} wrote no file: its ~{size:,}-token result exists only in its reply",
                    ret.agent_id,
                    **about,
                )
            )
    for message in session.messages:
        if message.tokens > budget:
            found.append(
                _finding(
                    "CM001",
                    f"{_sender(message)} sent the orchestrator a message of {size_of(message)}, "
                    f"over the {budget}-token budget",
                    message.agent_id or None,
                    skill=message.skill,
                    agent=message.description or message.sender,
                    tokens=message.tokens,
                )
            )
    found += _checkpoints(session, every)
    if session.peak_parallel > cap:
        over = [skill for skill, peak in session.skill_peaks.items() if peak > cap]
        found.append(
            _finding(
                "CM005",
                f"{session.peak_parallel} sub-agents ran at the same time; the cap is {cap}",
                skill=over[0] if len(over) == 1 else None,
                agent=f"{session.peak_parallel} sub-agents at once",
            )
        )
    for run in session.workflows:
        if run.peak_parallel > cap:
            found.append(
                _finding(
                    "CM005",
                    f"{run.peak_parallel} agents of workflow '{run.name or run.run_id}' ran at "
                    f"the same time; the cap is {cap}",
                    run.run_id,
                    skill=run.skill,
                    agent=f"workflow {run.name or run.run_id}",
                )
            )
    for touch in session.report_reads:
        if not touch.denied:
            found.append(
                _finding(
                    "CM006",
                    f"the orchestrator read the full report {touch.path} back",
                    skill=touch.skill,
                )
            )
    return found


def _checkpoints(session: Session, every: int) -> list[Finding]:
    agents = [r for r in session.returns if r.kind == "agent"]
    done = [r.received for r in agents]
    if len(done) < every:
        return []
    skills = {r.skill for r in agents}
    skill = skills.pop() if len(skills) == 1 else None  # the run of one skill, or no skill's
    if not session.state_writes:
        return [
            _finding(
                "CM003",
                f"{len(done)} sub-agents returned and no state file was written",
                skill=skill,
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
                skill=skill,
            )
        ]
    return []


def _who(ret: Return) -> str:
    if ret.kind == "workflow":
        return f"workflow '{ret.description or ret.agent_id}'"
    label = ret.description or ret.agent_type or "a sub-agent"
    return f"'{label}'" if ret.description else label


def _sender(message: Message) -> str:
    """``'msg-mate' (audit retry loops)``: the name it sent under, and its launch."""
    name = message.sender or message.agent_type or "a sub-agent"
    launch = message.description
    return f"'{name}'" + (f" ({launch})" if launch and launch != name else "")


def size_of(ret: Return | Message) -> str:
    """``5,115 tokens`` when the client's usage says so, ``~9,283 tokens (estimated)`` else."""
    if ret.tokens_source == FROM_ESTIMATE:
        return f"~{ret.tokens:,} tokens (estimated)"
    return f"{ret.tokens:,} tokens"


def _label(ret: Return) -> str:
    """The sub-agent a finding is about, as a reader knows it: its description, else its type
    or id (a workflow's result: the workflow's name)."""
    label = ret.description or ret.agent_type or ret.agent_id
    return f"workflow {label}" if ret.kind == "workflow" else label


def _finding(
    code: str,
    message: str,
    agent_id: str | None = None,
    *,
    skill: str | None = None,
    agent: str = "",
    tokens: int | None = None,
) -> Finding:
    rule = protocol.rule(code)
    assert rule is not None, code
    return Finding(code, rule.name, rule.severity, message, agent_id, skill, agent, tokens)
