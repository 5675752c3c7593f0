"""Find transcripts and group them into sessions, without leaving the folders they were asked for.

Where the clients keep them:

- Claude Code: ``<config>/projects/<project>/<session>.jsonl`` for the orchestrator and
  ``<config>/projects/<project>/<session>/subagents/agent-<id>.jsonl`` per sub-agent, where
  ``<project>`` is the working directory with every character but letters and digits turned
  into ``-``; before 2.1 (2.0.x and older) a sub-agent's file lay beside the session's,
  ``<project>/agent-<id>.jsonl``, its first record naming the session (``sessionId``); a
  workflow run's journal and agents lie in ``<session>/subagents/workflows/<runId>/``;
- Codex: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl``, one per thread; a
  sub-agent's rollout names its parent thread in its first record (``session_meta``);
- Copilot CLI: ``$COPILOT_HOME/session-state/<session>/events.jsonl``, one file per session,
  its sub-agents' records included (``audit.copilot``); the first record (``session.start``)
  names the working directory;
- Gemini CLI: ``~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl``, its first record
  naming the session (``sessionId``, ``kind: "main"``), a sub-agent's in
  ``chats/<session id>/<agent id>.jsonl``; the project is in ``tmp/<project>/.project_root``;
- Qwen Code: ``~/.qwen/projects/<project>/chats/<session>.jsonl`` (every record naming its
  ``cwd``), a sub-agent's in ``projects/<project>/subagents/<session>/agent-<id>.jsonl``.

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
from spawnkit.audit.model import CLAUDE_CODE, CODEX, COPILOT, GEMINI, QWEN, InputStats
from spawnkit.hosts.paths import claude_config_dir

MAX_DEPTH = 10  # a workflow agent sits 5 below a projects folder, 7 below a home
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
    workflows: dict[str, dict[str, str]] = field(default_factory=dict)  # run id -> its files


def codex_home() -> Path:
    """Codex's folder: ``$CODEX_HOME`` when set, else ``~/.codex``."""
    configured = os.environ.get("CODEX_HOME", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".codex"


def copilot_sessions() -> Path:
    """Copilot CLI's sessions: ``$COPILOT_HOME/session-state``, else ``~/.copilot/session-state``."""
    from spawnkit import hosts

    copilot = hosts.COPILOT
    return Path(copilot.config_dir(os.environ)) / copilot.transcripts_dir


def gemini_chats() -> Path:
    """Gemini CLI's chats, by project: ``~/.gemini/tmp`` (``$GEMINI_CLI_HOME/.gemini/tmp``)."""
    from spawnkit import hosts

    gemini = hosts.GEMINI
    return Path(gemini.config_dir(os.environ)) / gemini.transcripts_dir


def qwen_projects() -> Path:
    """Qwen Code's transcripts, by project: ``$QWEN_HOME/projects``, else ``~/.qwen/projects``."""
    from spawnkit import hosts

    qwen = hosts.QWEN
    return Path(qwen.config_dir(os.environ)) / qwen.transcripts_dir


def claude_projects() -> Path:
    return claude_config_dir() / "projects"


def codex_sessions() -> Path:
    return codex_home() / "sessions"


def default_roots() -> list[Path]:
    """Every transcript of this user: Claude Code's projects, Codex's and Copilot CLI's
    sessions, Gemini CLI's and Qwen Code's, those present."""
    folders = (
        claude_projects(),
        codex_sessions(),
        copilot_sessions(),
        gemini_chats(),
        qwen_projects(),
    )
    return [p for p in folders if p.is_dir()]


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
    # filtered by their project later
    for sessions in (codex_sessions(), copilot_sessions(), gemini_chats(), qwen_projects()):
        if sessions.is_dir():
            found.append(sessions)
    return found


def has_transcripts(root: Path, limit: int = 2000) -> int:
    """How many transcripts (sub-agents' aside) are under ``root``, counting to ``limit``.

    Cheap enough for doctor: names only, nothing is opened."""
    count = 0
    for path, _ in _walk(str(root), InputStats(), limit * 4):
        name = os.path.basename(path)
        other = _gemini_or_qwen(path)
        if other is not None and other[0].endswith("-sub"):
            continue
        if belongs_to(path) is None and not name.startswith(_AGENT):
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
    pending: list[tuple[str, str, str]] = []  # (main path, what it is, path)
    flat: list[str] = []  # Claude Code 2.0.x sub-agents beside their session
    rollouts: list[tuple[str, float]] = []
    copilot: list[tuple[str, float]] = []
    others: list[tuple[tuple[str, str, str], str, float]] = []  # Gemini CLI's, Qwen Code's
    budget = MAX_FILES
    for root in roots:
        real = os.path.realpath(root)
        for path, mtime in _walk(real, stats, budget):
            budget -= 1
            owner = belongs_to(path)
            name = os.path.basename(path)
            other = _gemini_or_qwen(path) if owner is None else None
            if other is not None:
                others.append((other, path, mtime))
            elif owner is not None:
                pending.append((*owner, path))
            elif name.startswith(_AGENT) and path != real:
                flat.append(path)
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
    pending += [_flat_owner(path, stats) for path in flat]
    for main, what, path in pending:
        _attach(claude.get(main), what, path, stats)
    for source in named:
        _add_siblings(source, stats)
    sources = (
        list(claude.values())
        + _codex_sessions(rollouts, stats)
        + _copilot_sessions(copilot, stats)
        + _gemini_and_qwen_sessions(others, stats)
    )
    _report_duplicates(sources, stats)
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


_AGENT = "agent-"
_JOURNAL = "journal.jsonl"
JOURNAL = "journal"  # a workflow run's journal among its files (the others: agent ids)


def belongs_to(path: str) -> tuple[str, str] | None:
    """(its session's transcript, what it is) for a file inside a Claude Code session folder:
    ``agent:<id>`` for ``<session>/subagents/agent-<id>.jsonl``, ``run:<runId>:journal`` or
    ``run:<runId>:<agent id>`` for a workflow run's files; None for anything else."""
    folder, name = os.path.split(path)
    parent, here = os.path.split(folder)
    if here == "subagents" and name.startswith(_AGENT):
        return parent + ".jsonl", "agent:" + name[len(_AGENT) : -len(".jsonl")]
    grand, kind = os.path.split(parent)
    session_dir, sub = os.path.split(grand)
    if kind == "workflows" and sub == "subagents":
        if name == _JOURNAL:
            return session_dir + ".jsonl", f"run:{here}:{JOURNAL}"
        if name.startswith(_AGENT):
            return session_dir + ".jsonl", f"run:{here}:{name[len(_AGENT) : -len('.jsonl')]}"
    return None


def _gemini_or_qwen(path: str) -> tuple[str, str, str] | None:
    """(what, key, agent) for a Gemini CLI or Qwen Code transcript, else None.

    ``gemini-main`` (``chats/session-*.jsonl``), ``gemini-sub`` (``chats/<session>/<agent>``:
    key the session's chats folder and id), ``qwen-main`` (``chats/<session>.jsonl``: key its
    own path), ``qwen-sub`` (``subagents/<session>/agent-<id>.jsonl``: key its session's
    transcript). Claude Code never writes into a folder named ``chats`` (its project folders
    start with ``-``), and keeps its sub-agents in ``<session>/subagents/``, not below it.
    """
    folder, name = os.path.split(path)
    stem = name[: -len(".jsonl")]
    parent, here = os.path.split(folder)
    above = os.path.basename(parent)
    if here == "chats":
        return ("gemini-main" if name.startswith("session-") else "qwen-main"), path, ""
    if above == "chats":
        return "gemini-sub", os.path.join(parent, here), stem
    if above == "subagents" and name.startswith(_AGENT):
        main = os.path.join(os.path.dirname(parent), "chats", here + ".jsonl")
        return "qwen-sub", main, stem[len(_AGENT) :]
    return None


PROJECT_ROOT_FILE = ".project_root"  # Gemini CLI's note of a project's folder, in tmp/<project>/


def _gemini_and_qwen_sessions(
    files: list[tuple[tuple[str, str, str], str, float]], stats: InputStats
) -> list[Source]:
    """Sessions of Gemini CLI and Qwen Code, each with its sub-agents' files; a sub-agent whose
    session is not among the files is an orphan."""
    mains: dict[str, Source] = {}  # Gemini: "<chats folder>/<session id>"; Qwen: its path
    subs: list[tuple[str, str, str]] = []
    for (what, key, agent), path, mtime in files:
        if what.endswith("-sub"):
            subs.append((key, agent, path))
            continue
        first = first_record(path, stats)
        if not isinstance(first, dict):
            stats.not_transcripts += 1
            continue
        session = first.get("sessionId")
        session = session if isinstance(session, str) and _SESSION_ID.fullmatch(session) else ""
        if what == "gemini-main":
            if first.get("kind") != "main" or not session:
                stats.not_transcripts += 1
                continue
            chats = os.path.dirname(path)
            project = _project_root(os.path.dirname(chats))
            mains[os.path.join(chats, session)] = Source(GEMINI, session, path, mtime, project)
        else:
            if not isinstance(first.get("type"), str):
                stats.not_transcripts += 1
                continue
            cwd = first.get("cwd")
            own = session or os.path.basename(path)[: -len(".jsonl")]
            mains[path] = Source(QWEN, own, path, mtime, cwd if isinstance(cwd, str) else "")
    for key, agent, path in subs:
        owner = mains.get(key)
        if owner is None:
            stats.orphan_subagents += 1
        else:
            owner.children[agent] = path
    return list(mains.values())


def _project_root(folder: str) -> str:
    """The project a Gemini CLI ``tmp/<project>`` folder belongs to, from its ``.project_root``
    (a plain file of one path, read bounded); "" when there is none."""
    from spawnkit.base import lightos

    try:
        raw = lightos.read_regular(os.path.join(folder, PROJECT_ROOT_FILE), 4096, follow=False)
    except OSError:
        return ""
    text = raw.decode("utf-8", "replace").strip()
    return text if os.path.isabs(text) and "\n" not in text and "\0" not in text else ""


def _flat_owner(path: str, stats: InputStats) -> tuple[str, str, str]:
    """A 2.0.x sub-agent beside its session: the session its first record names."""
    first = first_record(path, stats) or {}
    owner = first.get("sessionId")
    if not isinstance(owner, str) or not _SESSION_ID.fullmatch(owner):
        owner = ""
    name = os.path.basename(path)
    folder = os.path.dirname(path)
    main = os.path.join(folder, owner + ".jsonl") if owner else ""
    return main, "agent:" + name[len(_AGENT) : -len(".jsonl")], path


_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


def _attach(owner: Source | None, what: str, path: str, stats: InputStats) -> None:
    """Join a sub-agent's or workflow run's file to its session; without it, an orphan."""
    if owner is None:
        stats.orphan_subagents += 1  # its session's transcript is not among the roots
        return
    kind, _, rest = what.partition(":")
    if kind == "agent":
        owner.children[rest] = path
    else:
        run_id, _, part = rest.partition(":")
        owner.workflows.setdefault(run_id, {})[part] = path


def _report_duplicates(sources: list[Source], stats: InputStats) -> None:
    """Two transcripts with one session id (a copy in another folder): both are audited, and
    said."""
    seen: dict[tuple[str, str], str] = {}
    for source in sources:
        key = (source.host, source.session_id)
        first = seen.setdefault(key, source.path)
        if first != source.path:
            stats.duplicate_sessions += 1
            stats.note(
                f"session {source.session_id} is in two transcripts: {first} and {source.path}"
            )


def _add_siblings(source: Source, stats: InputStats) -> None:
    """A transcript named on its own brings its session folder's sub-agents and workflow runs
    along, and (2.0.x) the sub-agents beside it that name it."""
    session_dir = source.path[: -len(".jsonl")]
    if os.path.islink(session_dir):
        stats.symlinks_skipped += 1
    else:
        for path, _ in _walk(os.path.join(session_dir, "subagents"), stats, 10_000, depth=3):
            owner = belongs_to(path)
            if owner is not None and owner[0] == source.path:
                _attach(source, owner[1], path, stats)
    folder = os.path.dirname(source.path)
    for path, _ in _walk(folder, stats, 10_000, depth=1):
        if os.path.basename(path).startswith(_AGENT):
            main, what, _ = _flat_owner(path, stats)
            if main == source.path:
                _attach(source, what, path, stats)


def _codex_sessions(rollouts: list[tuple[str, float]], stats: InputStats) -> list[Source]:
    """Root rollouts become sessions; a sub-agent's rollout joins its parent's by thread id."""
    roots: dict[str, list[Source]] = {}
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
            found = Source(CODEX, own, path, mtime, cwd if isinstance(cwd, str) else "")
            roots.setdefault(own, []).append(found)
    nested = {own for _, own, _ in children}
    for parent, own, path in children:
        copies = roots.get(parent)
        if copies:  # a copy of a session joins the sub-agents in its own folder
            folder = os.path.dirname(path)
            near = [c for c in copies if os.path.dirname(c.path) == folder]
            (near or copies)[0].children[own] = path
        elif parent not in nested:  # a sub-agent's sub-agent is not an orphan
            stats.orphan_subagents += 1
    return [source for copies in roots.values() for source in copies]


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
