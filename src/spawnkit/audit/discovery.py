"""Find transcripts and group them into sessions, without leaving the folders they were asked for.

Where the clients keep them:

- Claude Code: ``<config>/projects/<project>/<session>.jsonl`` for the orchestrator and
  ``<config>/projects/<project>/<session>/subagents/agent-<id>.jsonl`` per sub-agent, where
  ``<project>`` is the working directory with every character but letters and digits turned
  into ``-``;
- Codex: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl``, one per thread; a
  sub-agent's rollout names its parent thread in its first record (``session_meta``);
- Copilot CLI: ``$COPILOT_HOME/session-state/<session>/events.jsonl``, one file per session,
  its sub-agents' records included (``audit.copilot``); the first record (``session.start``)
  names the working directory.

A root the user names is resolved once; below it nothing is followed through a symlink (each
one is counted), the walk stops at ``MAX_DEPTH`` folders and ``MAX_FILES`` transcripts.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from spawnkit.audit.jsonl import first_record
from spawnkit.audit.model import CLAUDE_CODE, CODEX, COPILOT, InputStats
from spawnkit.hosts.paths import claude_config_dir

MAX_DEPTH = 8
COPILOT_EVENTS = "events.jsonl"  # a Copilot CLI session's one transcript
MAX_FILES = 200_000
_LONG_PROJECT = 200  # Claude Code shortens longer folder names; match on this prefix
_SKIP_DIRS = frozenset({".git", "node_modules", "__pycache__", ".venv", "venv"})


@dataclass
class Source:
    """One session's files: the orchestrator's transcript and its sub-agents' by agent id."""

    host: str
    session_id: str
    path: str
    mtime: float
    project: str = ""  # Codex: the cwd in session_meta (Claude Code records it per line)
    children: dict[str, str] = field(default_factory=dict)


def codex_home() -> Path:
    """Codex's folder: ``$CODEX_HOME`` when set, else ``~/.codex``."""
    configured = os.environ.get("CODEX_HOME", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".codex"


def copilot_sessions() -> Path:
    """Copilot CLI's sessions: ``$COPILOT_HOME/session-state``, else ``~/.copilot/session-state``."""
    from spawnkit import hosts

    copilot = hosts.COPILOT
    return Path(copilot.config_dir(os.environ)) / copilot.transcripts_dir


def claude_projects() -> Path:
    return claude_config_dir() / "projects"


def codex_sessions() -> Path:
    return codex_home() / "sessions"


def default_roots() -> list[Path]:
    """Every transcript of this user: Claude Code's projects, Codex's and Copilot CLI's
    sessions, those present."""
    return [p for p in (claude_projects(), codex_sessions(), copilot_sessions()) if p.is_dir()]


def project_folder_name(project: Path) -> str:
    """The folder Claude Code keeps a project's transcripts in (``/a/b.c`` -> ``-a-b-c``)."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(project))


def project_roots(project: Path) -> list[Path]:
    """The Claude Code transcript folders of one project (the Codex filter is by cwd)."""
    base = claude_projects()
    wanted = project_folder_name(project)
    found = []
    try:
        with os.scandir(base) as entries:
            for entry in entries:
                if not entry.is_dir(follow_symlinks=False):
                    continue
                long = len(wanted) > _LONG_PROJECT
                prefix = entry.name[:_LONG_PROJECT] == wanted[:_LONG_PROJECT]
                if entry.name == wanted or (long and prefix):
                    found.append(Path(entry.path))
    except OSError:
        pass
    for sessions in (codex_sessions(), copilot_sessions()):  # filtered by cwd later
        if sessions.is_dir():
            found.append(sessions)
    return found


def has_transcripts(root: Path, limit: int = 2000) -> int:
    """How many transcripts (sub-agents' aside) are under ``root``, counting to ``limit``.

    Cheap enough for doctor: names only, nothing is opened."""
    count = 0
    for path, _ in _walk(str(root), InputStats(), limit * 4):
        name = os.path.basename(path)
        if os.path.basename(os.path.dirname(path)) != "subagents" and not name.startswith("agent-"):
            count += 1
            if count >= limit:
                break
    return count


def discover(
    roots: list[Path],
    stats: InputStats,
    since: float | None = None,
    session: str | None = None,
    project: Path | None = None,
) -> list[Source]:
    """The sessions under ``roots``, oldest first, filtered by mtime, id prefix and project."""
    claude: dict[str, Source] = {}
    named: list[Source] = []  # transcripts named as roots themselves
    pending_children: list[tuple[str, str, str]] = []  # (main path, agent id, path)
    rollouts: list[tuple[str, float]] = []
    copilot: list[tuple[str, float]] = []
    budget = MAX_FILES
    for root in roots:
        real = os.path.realpath(root)
        for path, mtime in _walk(real, stats, budget):
            budget -= 1
            name = os.path.basename(path)
            folder = os.path.dirname(path)
            if os.path.basename(folder) == "subagents" and name.startswith("agent-"):
                main = os.path.dirname(folder) + ".jsonl"
                pending_children.append((main, name[len("agent-") : -len(".jsonl")], path))
            elif name.startswith("rollout-"):
                rollouts.append((path, mtime))
            elif name == COPILOT_EVENTS:
                copilot.append((path, mtime))
            else:
                claude[path] = Source(CLAUDE_CODE, name[: -len(".jsonl")], path, mtime)
                if path == real:
                    named.append(claude[path])
        if budget <= 0:
            stats.files_over_limit += 1
            break
    for main, agent_id, path in pending_children:
        owner = claude.get(main)
        if owner is None:
            stats.orphan_subagents += 1  # its session's transcript is not among the roots
        else:
            owner.children[agent_id] = path
    for source in named:
        _add_siblings(source, stats)
    sources = (
        list(claude.values()) + _codex_sessions(rollouts, stats) + _copilot_sessions(copilot, stats)
    )
    if since is not None:
        sources = [s for s in sources if s.mtime >= since]
    if session:
        sources = [s for s in sources if s.session_id.startswith(session)]
    if project is not None:
        wanted = os.path.realpath(project)
        sources = [
            s
            for s in sources
            if s.host == CLAUDE_CODE or os.path.realpath(s.project or "/") == wanted
        ]
    sources.sort(key=lambda s: (s.mtime, s.path))
    return sources


def _add_siblings(source: Source, stats: InputStats) -> None:
    """A transcript named on its own brings its session folder's sub-agents along."""
    session_dir = source.path[: -len(".jsonl")]
    if os.path.islink(session_dir):
        stats.symlinks_skipped += 1
        return
    for path, _ in _walk(os.path.join(session_dir, "subagents"), stats, 10_000, depth=1):
        name = os.path.basename(path)
        if name.startswith("agent-"):
            source.children[name[len("agent-") : -len(".jsonl")]] = path


def _codex_sessions(rollouts: list[tuple[str, float]], stats: InputStats) -> list[Source]:
    """Root rollouts become sessions; a sub-agent's rollout joins its parent's by thread id."""
    roots: dict[str, Source] = {}
    children: list[tuple[str, str, str]] = []  # (parent id, own id, path)
    for path, mtime in rollouts:
        meta = first_record(path, stats)
        payload = meta.get("payload") if isinstance(meta, dict) else None
        if not isinstance(payload, dict) or meta.get("type") != "session_meta":
            stats.not_transcripts += 1
            continue
        own = str(payload.get("id") or "")
        parent = _parent_thread(payload)
        if parent:
            children.append((parent, own, path))
        elif own:
            cwd = payload.get("cwd")
            roots[own] = Source(CODEX, own, path, mtime, cwd if isinstance(cwd, str) else "")
    nested = {own for _, own, _ in children}
    for parent, own, path in children:
        if parent in roots:
            roots[parent].children[own] = path
        elif parent not in nested:  # a sub-agent's sub-agent is not an orphan
            stats.orphan_subagents += 1
    return list(roots.values())


def _copilot_sessions(files: list[tuple[str, float]], stats: InputStats) -> list[Source]:
    """Each ``events.jsonl`` that starts with ``session.start`` is one session."""
    found = []
    for path, mtime in files:
        first = first_record(path, stats)
        data = first.get("data") if isinstance(first, dict) else None
        if not isinstance(data, dict) or first.get("type") != "session.start":
            stats.not_transcripts += 1
            continue
        context = data.get("context")
        cwd = context.get("cwd") if isinstance(context, dict) else None
        session = data.get("sessionId")
        name = (
            session
            if isinstance(session, str) and session
            else os.path.basename(os.path.dirname(path))
        )
        found.append(Source(COPILOT, name, path, mtime, cwd if isinstance(cwd, str) else ""))
    return found


def _parent_thread(payload: dict) -> str:
    parent = payload.get("parent_thread_id")
    if isinstance(parent, str) and parent:
        return parent
    source = payload.get("source")
    sub = source.get("subagent") if isinstance(source, dict) else None
    spawn = sub.get("thread_spawn") if isinstance(sub, dict) else None
    if isinstance(spawn, dict) and isinstance(spawn.get("parent_thread_id"), str):
        return spawn["parent_thread_id"]
    return ""


def _walk(
    root: str, stats: InputStats, budget: int, depth: int = MAX_DEPTH
) -> Iterator[tuple[str, float]]:
    """``*.jsonl`` files under ``root`` (or ``root`` itself), never through a symlink."""
    try:
        info = os.lstat(root)
    except OSError:
        return
    if not os.path.isdir(root) or os.path.islink(root):
        if root.endswith(".jsonl") and not os.path.islink(root):
            yield root, info.st_mtime
        return
    stack = [(root, 0)]
    while stack:
        folder, level = stack.pop()
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError:
            stats.unreadable_files += 1
            continue
        subfolders = []
        for entry in entries:
            try:
                if entry.is_symlink():
                    stats.symlinks_skipped += 1
                elif entry.is_dir(follow_symlinks=False):
                    if level + 1 < depth and entry.name not in _SKIP_DIRS:
                        subfolders.append((entry.path, level + 1))
                elif entry.name.endswith(".jsonl") and entry.is_file(follow_symlinks=False):
                    if budget <= 0:
                        return
                    budget -= 1
                    yield entry.path, entry.stat(follow_symlinks=False).st_mtime
            except OSError:
                stats.unreadable_files += 1
        stack.extend(reversed(subfolders))


def parse_since(text: str, now: float | None = None) -> float:
    """``7d``, ``12h``, ``30m``, ``2w`` or an ISO date (``2026-11-01``) -> epoch seconds."""
    from datetime import datetime, timezone

    now = time.time() if now is None else now
    found = re.fullmatch(r"\s*(\d+)\s*([mhdw])\s*", text or "")
    if found:
        unit = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}[found.group(2)]
        return now - int(found.group(1)) * unit
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValueError(
            f"--since {text!r}: use a duration such as 7d, 12h, 30m or 2w, or a date such as "
            "2026-11-01"
        ) from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()
