"""What ``spawnkit lint --observed`` adds: the rules each skill broke at run time, read by the
audit from the same transcripts ``spawnkit audit`` reads, handed to lint as plain data.

Lint sits below the audit and never imports it; this command module joins the two. A skill's
runs are matched to the file lint checks by the path of its SKILL.md (or command file) as the
audit found it, links resolved on both sides.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from spawnkit.audit import discovery
from spawnkit.audit.engine import stream
from spawnkit.audit.render_json import iso
from spawnkit.errors import SpawnkitError
from spawnkit.lint.observed import Observed, Run


def observations(since: str | None) -> dict[str, list[Observed]]:
    """The rules broken in each skill's runs, by the real path of the skill's file: every
    transcript of this user's clients (``spawnkit audit``'s default folders), since ``since``."""
    try:
        cutoff = discovery.parse_since(since) if since else None
    except ValueError as exc:
        raise SpawnkitError(str(exc)) from exc  # it names --since and the forms it takes
    progress = _progress() if sys.stderr.isatty() else None
    run = stream(discovery.default_roots(), since=cutoff, progress=progress)
    for _ in run.sessions:
        pass
    if progress is not None:
        sys.stderr.write("\n")
    found: dict[str, list[Observed]] = {}
    for usage in run.skills.ranked():
        if usage.path is None or not usage.findings:
            continue
        seen = found.setdefault(os.path.realpath(usage.path), [])
        for code, count in sorted(usage.findings.items()):
            runs = tuple(
                Run(
                    session=e["session"],
                    date=iso(e["started"]) or "",
                    agent=e["agent"],
                    tokens=e["tokens"],
                    message=e["message"],
                    transcript=e["transcript"],
                    host=e["host"],
                )
                for e in usage.evidence
                if e["code"] == code
            )
            seen.append(Observed(code, count, runs))
    return found


def for_file(found: dict[str, list[Observed]], path: Path) -> list[Observed]:
    """What the runs of the skill whose file is ``path`` broke (nothing for a skill that never
    ran, or ran without breaking a rule)."""
    return found.get(os.path.realpath(path), [])


def _progress():
    def show(done: int, total: int, source: discovery.Source) -> None:
        sys.stderr.write(f"\rspawnkit: reading session {done}/{total} for --observed")

    return show
