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
