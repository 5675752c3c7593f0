"""CM003 state-file: the orchestrator keeps its progress in a file on disk."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.analysis import RESUME_TALK, STATE_ANY, Analysis
from spawnkit.lint.patterns import Keywords, lazy
from spawnkit.lint.rules.base import (
    CALIBRATED,
    Context,
    Evidence,
    Family,
    Finding,
    Rule,
    quote,
)


def state_places(a: Analysis) -> list[tuple[int, str]]:
    """Where the orchestrator's own prose or shell names its state, in line order (computed
    once): each line with the words that name it (quoted only when shown: a long file names
    its state file thousands of times)."""
    cached = a.memo.get("state_places")
    if cached is None:
        out = []
        for s in a.prose_where(STATE_ANY):
            if STATE_ANY.search(s.text, s.lower):
                out.append((a.report_line(s.block, s.line), s.text))
        for b in a.shell_blocks:
            m = STATE_ANY.search(b.text, b.lower)
            if m:
                line = b.text[b.text.rfind("\n", 0, m.start()) + 1 :].split("\n", 1)[0]
                out.append((a.report_line(b, b.line_of(m.start())), line))
        cached = a.memo["state_places"] = sorted(out, key=lambda place: place[0])
    return cached  # type: ignore[return-value]


def state_evidence(places: list[tuple[int, str]], limit: int = 2) -> tuple[Evidence, ...]:
    """The first ``limit`` places as evidence."""
    return tuple(Evidence(line, _note(text)) for line, text in places[:limit])


def _note(text: str) -> str:
    return f"state kept outside the conversation: {quote(text)}"


_SESSION_LIST = lazy(r"\b(?:TodoWrite|TaskCreate|TaskUpdate|TaskList)\b|\btodo\s+list\b", re.I)


def session_list(a: Analysis) -> Evidence | None:
    """Where progress is kept in the session's own task list, which the next session lacks."""
    for s in a.prose_where(Keywords("todo", "taskcreate", "taskupdate", "tasklist")):
        if _SESSION_LIST.search(s.text):
            return Evidence(
                a.report_line(s.block, s.line),
                f"in-session task list, not counted (the next session starts without it): "
                f"{quote(s.text, 60)}",
            )
    return None


def resume_talk(a: Analysis) -> Evidence | None:
    """Where the skill speaks of resuming an interrupted run (its state lives somewhere)."""
    for s in a.prose_where(RESUME_TALK):
        if RESUME_TALK.search(s.text, s.lower):
            return Evidence(a.report_line(s.block, s.line), f"speaks of resuming: {quote(s.text)}")
    return None


def state_lines(a: Analysis) -> list[int]:
    """Lines where the orchestrator's own prose or shell names a state file."""
    return [line for line, _ in state_places(a)]


def runs_steps(a: Analysis) -> bool:
    """Housekeeping rules need steps: a forked skill that spawns nothing is one step."""
    return bool(a.spawn_lines or a.weak_lines)


NO_STATE = "no-state"
UNSEEN_STATE = "resumable-without-named-state"
LOOKED_FOR = (
    "progress kept outside the conversation: a state, progress or status file (state.json, "
    "STATE.md, progress.md, a tracker or a plan whose items are ticked off), a database or a "
    "memory tool the run records to, a command that records a task's status (--status, "
    "set-status, mark-done), a status field set to done, a progress log (.jsonl, .log), or a "
    "reference to the installed standard"
)


class StateFile(Rule):
    code = "CM003"
    protocol_rule = True
    tier = CALIBRATED  # each finding's tier from its probability (spawnkit.lint.calibration)
    families = (
        Family(
            NO_STATE,
            CALIBRATED,
            "an orchestrator that names no state kept outside the conversation",
        ),
        Family(
            UNSEEN_STATE,
            CALIBRATED,
            "an orchestrator that speaks of resuming a run but names no state the rule recognises",
        ),
    )
    what = """
Checks that an orchestrator keeps its progress in a state file on disk (for
example `.<skill>-reports/state-YYYYMMDD-HHMMSS.json`): which steps are done,
which remain, where each report is. State in any form that outlives the
session counts: a `STATE.md`, a progress tracker or log the run writes to, a
plan file whose items are ticked off as they finish, a database, a memory tool,
or a command that records a task's status (`bd update 12 --status done`). "Keep track as
you go" and the in-session task list (TodoWrite) are not: the next session
starts without them. A reference to the installed standard (`~/.claude/standards/CONTEXT_MANAGEMENT.md`)
counts, because the standard defines the file. A `context: fork` skill that
spawns nothing itself is a single step and is not checked.
"""
    why = """
When the context fills up or the session is cleared, whatever exists only in the
conversation is gone. A state file lets the next session resume instead of
redoing every sub-agent's work.
"""
    bad = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
For each package, one at a time, spawn a sub-agent with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```

Keep track of which packages are done as you go.
"""
    good = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
Create `.demo-audit-reports/state-<timestamp>.json` first and update it after
every package; on start, resume from an unfinished one less than 2 hours old.

For each package, one at a time, spawn a sub-agent with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```
"""
    fix = (
        'Keep a state file such as ".<skill>-reports/state-YYYYMMDD-HHMMSS.json" listing steps '
        "done and "
        "remaining, created at start and updated after every step."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        a = ctx.analysis
        if not runs_steps(a) or a.references_standard or state_lines(a):
            return
        resume = resume_talk(a)
        extra = tuple(e for e in (resume, session_list(a)) if e is not None)
        yield Finding(
            a.first_line,
            "this orchestrator keeps no state file on disk; its progress is lost when the "
            "context resets",
            family=UNSEEN_STATE if resume else NO_STATE,
            evidence=ctx.spawn_evidence() + extra,
            looked_for=LOOKED_FOR,
        )
