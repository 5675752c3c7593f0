"""Run an audit: discover the sessions, read each one, judge it. One session in memory at a time."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from spawnkit import protocol
from spawnkit.audit import analyze, claude, codex
from spawnkit.audit.discovery import Source, discover
from spawnkit.audit.model import CLAUDE_CODE, Audit, InputStats, Session

# Claude Code's transcripts do not record the window; this is the standard Claude window.
DEFAULT_CONTEXT_WINDOW = 200_000

Progress = Callable[[int, int, Source], None]


def audit(
    roots: list[Path],
    *,
    since: float | None = None,
    session: str | None = None,
    project: Path | None = None,
    context_window: int | None = None,
    progress: Progress | None = None,
) -> Audit:
    """Audit every session under ``roots``; ``context_window`` overrides the recorded one."""
    started = time.perf_counter()
    stats = InputStats()
    sources = discover(roots, stats, since=since, session=session, project=project)
    budget = protocol.return_budget()
    cap = protocol.max_parallel()
    every = protocol.checkpoint_every()
    sessions: list[Session] = []
    for n, source in enumerate(sources, 1):
        if progress is not None:
            progress(n, len(sources), source)
        reader = claude if source.host == CLAUDE_CODE else codex
        found = reader.read(source, stats)
        if context_window:
            found.context_window = context_window
        elif found.context_window is None:
            found.context_window = DEFAULT_CONTEXT_WINDOW
        analyze.finish(found, budget, cap, every)
        sessions.append(found)
    sessions.sort(key=lambda s: (s.started or 0.0, s.id))
    return Audit(
        sessions,
        stats,
        budget,
        cap,
        every,
        roots=[str(r) for r in roots],
        seconds=time.perf_counter() - started,
    )
