"""Where each host keeps skills, commands, agents and workflow scripts, and what kind a file is.

One owner for the question "is this file a skill (or a command, an agent, a workflow
script), and for which host?": lint's discovery, lint on write (in the hook), install and
audit all ask it here. It reads each host's description (``spawnkit.hosts``): its skill
roots, its config folder, its plugin marker and the file kinds it loads.

Standard library only and import-light: the hook calls it after every write.
"""

from __future__ import annotations

from spawnkit.base import lightos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from spawnkit.hosts import Host

KINDS = {"skills": "skill", "commands": "command", "agents": "agent", "workflows": "workflow"}


def roots(env: Mapping[str, str]) -> list[tuple[Host, str]]:
    """Every host with its config dir (a skill root whatever its name)."""
    from spawnkit import hosts

    return [(host, host.config_dir(env)) for host in hosts.all_hosts()]


def locate(path: str, config_dirs: list[tuple[Host, str]]) -> tuple[str, str] | None:
    """``(kind, lint profile)`` if ``path`` is a skill, command or agent file, else None."""
    parts = path.split(lightos.SEP)
    for i in range(len(parts) - 2, 0, -1):
        kind = KINDS.get(parts[i])
        if kind is None:
            continue
        rest = parts[i + 1 :]
        if kind == "skill":
            shaped = len(rest) == 2 and rest[1] in ("SKILL.md", "workflow.js")
            if shaped and rest[1] == "workflow.js":
                kind = "workflow"
        elif kind == "workflow":
            shaped = len(rest) == 1 and rest[0].endswith(".js") and len(rest[0]) > 3
        else:
            shaped = rest[-1].endswith(".md") and all(rest)
        if not shaped:
            continue
        root = lightos.SEP.join(parts[:i]) or lightos.SEP
        for host in _root_hosts(root, config_dirs):
            if kind in host.file_kinds:
                return kind, host.lint_profile
    return None


def file_kind(path: str, config_dirs: list[tuple[Host, str]]) -> str | None:
    """``"skill"``, ``"command"`` or ``"agent"`` if ``path`` is one of those files, else None."""
    found = locate(path, config_dirs)
    return found[0] if found else None


def _root_hosts(root: str, config_dirs: list[tuple[Host, str]]) -> list[Host]:
    """The hosts whose skill root ``root`` is."""
    name = root.rpartition(lightos.SEP)[2]
    found = []
    for host, config_dir in config_dirs:
        if (
            name in host.skill_roots
            or root == config_dir.rstrip(lightos.SEP)
            or (host.plugin_marker and lightos.is_file(lightos.join(root, host.plugin_marker)))
        ):
            found.append(host)
    return found


# --- a skill by its name, and the skill a file belongs to ------------------------------------

_NAME_PART = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
MAX_NAME = 200


def name_parts(name: str) -> list[str] | None:
    """A skill's or command's name split at ``:`` (``wsd:boot``: the command ``wsd/boot.md``),
    or None when it could not be a file's name: empty, too long, a ``/``, ``.`` or ``..``, or
    any character but letters, digits, ``.``, ``_`` and ``-`` (names come from transcripts:
    they must never walk out of the folder they are looked up in)."""
    if not name or len(name) > MAX_NAME:
        return None
    parts = name.split(":")
    for part in parts:
        if not part or part in (".", "..") or not set(part) <= _NAME_PART:
            return None
    return parts


def skill_files(host: Host, name: str, cwd: str, env: Mapping[str, str]) -> list[str]:
    """Where ``host`` would load the skill (``<folder>/<name>/SKILL.md``) or, for a host that
    has them, the command file (``commands/<a>/<b>.md`` for ``a:b``) called ``name``, for a
    session run in the absolute folder ``cwd`` ("" when the session recorded none): the
    project's folders first, then the user's. Candidates only: nothing is looked at on disk.
    A namespaced name (``plugin:skill``) is a plugin's, whose folder only the client knows:
    no skill candidate; it may still be a command in a sub-folder."""
    parts = name_parts(name)
    if parts is None:
        return []
    project = cwd if cwd and lightos.isabs(cwd) else ""
    found = []
    if len(parts) == 1:
        folders = [lightos.join(project, d) for d in host.project_skill_dirs if project]
        folders += host.user_skill_dirs_in(env)
        found += [lightos.join(folder, name, "SKILL.md") for folder in folders]
    if "command" in host.file_kinds:
        command = lightos.SEP.join(parts) + ".md"
        if project:
            found.append(lightos.join(project, host.project_folder, "commands", command))
        found.append(lightos.join(host.config_dir(env), "commands", command))
    return found


def skill_folder(path: str, config_dirs: list[tuple[Host, str]]) -> tuple[str, str] | None:
    """``(name, folder)`` of the skill whose folder holds the absolute ``path`` (a workflow
    script, a SKILL.md): ``<root>/skills/<name>/…`` under a host's skill root. None otherwise.
    Only the path is read, never the disk (but for a plugin root's marker file)."""
    parts = path.split(lightos.SEP)
    for i in range(len(parts) - 3, 0, -1):
        if parts[i] != "skills" or not parts[i + 1] or parts[i + 1] in (".", ".."):
            continue
        root = lightos.SEP.join(parts[:i]) or lightos.SEP
        if any("skill" in host.file_kinds for host in _root_hosts(root, config_dirs)):
            return parts[i + 1], lightos.SEP.join(parts[: i + 2])
    return None
