"""What spawnkit keeps in a host's folder besides the files install records, and what a
user-scope uninstall does with it.

``<config>/.spawnkit`` holds, beside the install record: the hook's runtime state (one
small file of counters per session under ``sessions/``, and its log ``hook.log``), the
CLI's own error log (``spawnkit.log``, Claude Code's folder), and in Claude Code's folder
the template store, the backups of skills that ``update``, ``adopt`` and ``new --force``
made (and of projects' settings), and the machine's install id. The runtime state and the
logs are spawnkit's alone: a user-scope uninstall (spawnkit leaving this host) removes
them. The backups and the install id may still matter (a skill's earlier content; telling
this machine's project installs from cloned ones): they stay, and uninstall names them.
Outside the host's folder, the replies and reports the hook saved in projects
(``<project>/.spawnkit/returns``, ``.spawnkit/reports``) are the user's work: never
removed, named (those of the projects the sessions on record worked in).

The hook's state folder may hold what a sub-agent planted (a link, a folder): only plain
files and links named like spawnkit's are removed (a link itself, never what it points
to), and nothing read from a session file is acted on, only printed.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from spawnkit.hook.call import SESSIONS_DIR, STATE_DIR_NAME
from spawnkit.hook.log import LOG_NAME as HOOK_LOG
from spawnkit.hook.store import PROJECT_KEY
from spawnkit.standard import protocol

CLI_LOG = "spawnkit.log"  # spawnkit.commands.edge writes it (the CLI's tracebacks)
LOGS = (HOOK_LOG, HOOK_LOG + ".1", CLI_LOG, CLI_LOG + ".1")
# What stays, and why (names inside <config>/.spawnkit); the template store has its own rule
# (spawnkit.template.store.uninstall_note).
KEPT = {
    "backups": "backups of your skills (update, adopt, new --force) and of projects' settings",
    "install-id": "this machine's id: spawnkit uninstalls a project's install only with it",
}
HANDLED_ELSEWHERE = {"template-store", "template-store.lock", "install.json", "install.local.json"}
MAX_SESSIONS = 4096  # session files looked at (the hook sweeps those idle for two days)
MAX_SESSION_BYTES = 256 * 1024


@dataclass
class Leftovers:
    """What ``<config>/.spawnkit`` holds of spawnkit's runtime, found before an uninstall."""

    folder: Path
    sessions: list[Path] = field(default_factory=list)  # the hook's session state files
    logs: list[Path] = field(default_factory=list)
    kept: list[tuple[Path, str]] = field(default_factory=list)  # stays, and why
    projects: list[Path] = field(default_factory=list)  # folders of saved replies (the user's)

    @property
    def removable(self) -> list[Path]:
        return [*self.sessions, *self.logs]

    def notes(self) -> list[str]:
        """One line for what goes, one per thing kept."""
        out = []
        parts = []
        if self.sessions:
            parts.append(f"{len(self.sessions)} session file(s) of the hook")
        if self.logs:
            parts.append(", ".join(p.name for p in self.logs))
        if parts:
            out.append(
                f"removes spawnkit's runtime state in {self.folder}: {'; '.join(parts)} (a session"
                " still running writes it again until it is restarted)"
            )
        for path, why in self.kept:
            out.append(f"keeps {path}: {why}; delete it yourself once you do not need it")
        if self.projects:
            shown = ", ".join(str(p) for p in self.projects[:5])
            more = f" and {len(self.projects) - 5} more" if len(self.projects) > 5 else ""
            out.append(
                "keeps the sub-agent replies and reports the hook saved in your projects"
                f" (yours: delete them yourself): {shown}{more}"
            )
        return out


def survey(config_dir: Path, cwd: Path | None = None) -> Leftovers:
    """What ``config_dir``'s spawnkit folder holds (read only: nothing is changed)."""
    folder = Path(config_dir) / STATE_DIR_NAME
    found = Leftovers(folder)
    if not _plain_dir(folder):
        found.projects = _saved_in([Path(cwd) if cwd is not None else Path.cwd()])
        return found
    sessions = folder / SESSIONS_DIR
    projects: list[Path] = []
    if _plain_dir(sessions):
        for entry in _entries(sessions)[:MAX_SESSIONS]:
            if entry.name.endswith(".json") and _file_or_link(entry):
                found.sessions.append(Path(entry.path))
                project = _project_of(entry)
                if project is not None:
                    projects.append(project)
    for name in LOGS:
        path = folder / name
        if _file_or_link_at(path):
            found.logs.append(path)
    for entry in _entries(folder):
        why = KEPT.get(entry.name)
        if why is not None:
            found.kept.append((Path(entry.path), why))
        elif entry.name not in HANDLED_ELSEWHERE and entry.name != SESSIONS_DIR:
            if Path(entry.path) not in found.logs and not entry.name.startswith("."):
                found.kept.append((Path(entry.path), "not a file this spawnkit writes"))
    found.projects = _saved_in([*projects, Path(cwd) if cwd is not None else Path.cwd()])
    return found


def remove(found: Leftovers) -> None:
    """Remove the runtime state ``survey`` found, then its folders where left empty."""
    for path in found.removable:
        try:
            if _file_or_link_at(path):
                path.unlink()
        except OSError:
            pass  # gone meanwhile, or not removable: it stays, harmless
    for folder in (found.folder / SESSIONS_DIR, found.folder):
        try:
            folder.rmdir()
        except OSError:
            pass  # something else still there (kept and named), or gone


def _saved_in(projects: list[Path]) -> list[Path]:
    """The folders of replies and reports the hook saved under these projects, those present."""
    numbers = protocol.load()
    wanted = [numbers["returns_dir"], numbers["hook_reports_dir"]]
    found: list[Path] = []
    for project in dict.fromkeys(projects):
        for rel in wanted:
            folder = project / rel.strip("/")
            if folder not in found and _plain_dir(folder):
                found.append(folder)
    return found


def _project_of(entry: os.DirEntry[str]) -> Path | None:
    """The project a session file names (``store.PROJECT_KEY``), if it is a plain absolute
    path: it is only printed, never acted on."""
    try:
        if not entry.is_file(follow_symlinks=False) or entry.stat().st_size > MAX_SESSION_BYTES:
            return None
        with open(entry.path, "rb") as fh:
            data = json.loads(fh.read(MAX_SESSION_BYTES).decode("utf-8", "replace"))
    except (OSError, ValueError, RecursionError):
        return None
    value = data.get(PROJECT_KEY) if isinstance(data, dict) else None
    if not isinstance(value, str) or not os.path.isabs(value) or not value.isprintable():
        return None
    return Path(value)


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError:
        return []


def _plain_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _file_or_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink() or entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _file_or_link_at(path: Path) -> bool:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)
