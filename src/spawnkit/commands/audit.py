"""``spawnkit audit``: read the transcripts, print or write the report, exit 1 on findings.

The report is written while the sessions are read (to a temporary file beside ``-o FILE``
that replaces it only once complete), so memory does not grow with the transcripts' size.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from spawnkit.audit import discovery, render_html, render_json, render_text
from spawnkit.audit.engine import stream
from spawnkit.audit.model import Audit
from spawnkit.base.shown import shown
from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, SpawnkitError
from spawnkit.files import reading
from spawnkit.files.atomic import atomic_writer, why_not_writable

_OUTPUT_FIX = "pass -o a file in a folder you can write (or leave -o out to print it)"

WRITERS = {"text": render_text.write, "json": render_json.write, "html": render_html.write}


def run(
    *,
    paths: tuple[Path, ...],
    project: Path | None,
    since: str | None,
    session: str | None,
    fmt: str,
    output: Path | None,
    context_window: int | None,
    by: str = "session",
) -> int:
    """``spawnkit audit`` with its options by name (``cli.audit_command`` passes them all)."""
    if paths and project is not None:
        raise SpawnkitError("give transcript paths or --project DIR, not both")
    for path in paths:  # a FIFO, device or unreadable path: refused before anything is read
        reading.check_named(
            path,
            "pass a transcript (.jsonl), a folder of them, or nothing to audit every session of "
            "this user",
        )
    if project is not None and not project.is_dir():
        raise SpawnkitError(
            f"--project {project}: not a folder; pass the project's working directory"
        )
    if output is not None and (output.is_dir() or not output.parent.is_dir()):
        raise SpawnkitError(f"-o {output}: give a file path in an existing folder")
    problem = why_not_writable(output) if output is not None else None
    if problem:  # said before the transcripts are read, not after
        raise SpawnkitError(f"cannot write {output}: {problem}; {_OUTPUT_FIX}")
    try:
        cutoff = discovery.parse_since(since) if since else None
    except ValueError as exc:
        raise SpawnkitError(str(exc)) from exc
    if project is not None:
        roots = discovery.project_roots(project.resolve())
    else:
        roots = list(paths) or discovery.default_roots()
    if not roots:
        click.echo(
            "spawnkit: nothing to audit: no transcripts folder found (looked in "
            f"{discovery.claude_projects()}, {discovery.codex_sessions()},"
            f" {discovery.copilot_sessions()}, {discovery.gemini_chats()} and"
            f" {discovery.qwen_projects()})",
            err=True,
        )
    progress = _Progress() if sys.stderr.isatty() else None
    result = stream(
        roots,
        since=cutoff,
        session=session,
        project=project.resolve() if project is not None else None,
        context_window=context_window,
        progress=progress,
    )
    write = WRITERS[fmt]
    try:
        if output is not None:
            with atomic_writer(output) as fh:
                write(result, lambda text: fh.write(click.unstyle(text).encode("utf-8")), by=by)
        elif fmt == "text":
            encoding = getattr(sys.stdout, "encoding", None)
            render_text.write(result, lambda text: click.echo(text, nl=False), encoding, by)
        else:
            write(result, lambda text: click.echo(text, nl=False, color=False), by=by)
    except BrokenPipeError:
        raise  # the reader went away (`| head`): the CLI edge ends it like every verb
    except OSError as exc:
        raise SpawnkitError(f"cannot write {output}: {exc.strerror or exc}; {_OUTPUT_FIX}") from exc
    finally:
        if progress is not None:
            progress.close()
    if output is not None:
        click.echo(
            shown(f"spawnkit: wrote {output} ({result.totals.sessions} session(s))"), err=True
        )
    _report_problems(result, roots)
    return EXIT_FINDINGS if result.totals.findings else EXIT_OK


def _report_problems(result: Audit, roots: list[Path]) -> None:
    """No sessions, and unreadable input, are never fatal but always said: one line on stderr."""
    stats = result.stats
    problems = stats.problems or stats.unknown_records
    said = []
    if roots and not result.totals.sessions:
        said.append("no sessions found under " + ", ".join(str(r) for r in roots))
    if problems:
        said.append(render_text.input_line(result))
    if said:  # paths and record types come from the transcripts: through the output gate
        click.echo(shown("spawnkit: warning: " + "; ".join(said)), err=True)
    for note in stats.notes:
        click.echo(shown(f"spawnkit: warning: {note}"), err=True)


class _Progress:
    """``reading session N/M`` on a terminal, at most twice a second, once work takes a while."""

    def __init__(self) -> None:
        self.last = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int, source: discovery.Source) -> None:
        now = time.monotonic()
        if now - self.last < 0.5:
            return
        self.last, self.shown = now, True
        click.echo(f"\rspawnkit: reading session {done}/{total}", nl=False, err=True)

    def close(self) -> None:
        if self.shown:
            click.echo("", err=True)
