"""Run an audit: discover the sessions, then read and judge them one at a time.

``stream`` hands each finished session to the renderer and forgets it, so memory holds one
line of input, one session's facts and the running summary, whatever the total size.
``audit`` is the same with the sessions kept in a list (tests, small inputs).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

from spawnkit.audit import analyze, claude, codex, copilot, gemini, qwen
from spawnkit.audit.by_skill import SkillTotals
from spawnkit.audit.discovery import Source, discover
from spawnkit.audit.model import (
    CLAUDE_CODE,
    CODEX,
    COPILOT,
    GEMINI,
    QWEN,
    Audit,
    InputStats,
    Session,
    Totals,
)
from spawnkit.standard import protocol

# Claude Code's transcripts do not record the window; this is the standard Claude window.
DEFAULT_CONTEXT_WINDOW = 200_000

Progress = Callable[[int, int, Source], None]
READERS = {CLAUDE_CODE: claude, CODEX: codex, COPILOT: copilot, GEMINI: gemini, QWEN: qwen}


def stream(
    roots: list[Path],
    *,
    since: float | None = None,
    session: str | None = None,
    project: Path | None = None,
    context_window: int | None = None,
    progress: Progress | None = None,
) -> Audit:
    """An audit whose ``sessions`` are read lazily, oldest transcript first."""
    started = time.perf_counter()
    stats = InputStats()
    budget = protocol.return_budget()
    run = Audit(
        [],
        stats,
        Totals(budget),
        budget,
        protocol.max_parallel(),
        protocol.checkpoint_every(),
        roots=[str(r) for r in roots],
        skills=SkillTotals(budget),
    )

    def sessions() -> Iterator[Session]:
        sources = discover(roots, stats, since=since, session=session, project=project)
        for n, source in enumerate(sources, 1):
            if progress is not None:
                progress(n, len(sources), source)
            reader = READERS[source.host]
            found = reader.read(source, stats)
            if found is None:  # not a transcript after all
                continue
            _window(found, context_window)
            analyze.finish(found, run.budget, run.max_parallel, run.checkpoint_every)
            run.totals.add(found)
            run.skills.add(found)
            run.seconds = time.perf_counter() - started
            yield found
        run.seconds = time.perf_counter() - started

    run.sessions = sessions()
    return run


def _window(session: Session, option: int | None) -> None:
    """The context window: ``--context-window``, else what the client recorded, else (Claude
    Code only, whose transcripts never say) the standard Claude window. Nothing is invented
    for a session whose client records its window but did not this time."""
    if option:
        session.context_window, session.context_window_source = option, "option"
    elif session.context_window:
        session.context_window_source = "recorded"
    elif session.host == CLAUDE_CODE:
        session.context_window = DEFAULT_CONTEXT_WINDOW
        session.context_window_source = "default"


def audit(roots: list[Path], **options) -> Audit:
    """``stream`` with every session read up front and kept."""
    run = stream(roots, **options)
    run.sessions = list(run.sessions)
    return run
