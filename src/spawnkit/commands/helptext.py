"""The parts of ``--help`` that name hosts and folders, built from the host descriptions
(``spawnkit.hosts``) and lint's discovery, never kept by hand: a host added there is named
here, and a folder lint starts reading is listed. ``tests/cli/test_help.py`` holds these
texts and the README to each other.

Imported when the CLI is: only light modules (the host descriptions, lint's discovery).
"""

from __future__ import annotations

from spawnkit import hosts
from spawnkit.hosts.paths import shown


def labels(conjunction: str = "and") -> str:
    """``Claude Code, Codex CLI and Copilot CLI``: every host, for prose."""
    found = [h.label for h in hosts.all_hosts()]
    return found[0] if len(found) == 1 else f"{', '.join(found[:-1])} {conjunction} {found[-1]}"


def hooks_files() -> str:
    """Where each host's hooks go in its user folder: ``Claude Code: settings.json; …``."""
    return "; ".join(
        f"{h.label}: {h.hooks_file}"
        + (f" (and the hooks' trust entries in {h.trust_file})" if h.trust_file else "")
        for h in hosts.all_hosts()
    )


def host_choices(with_all: bool = False) -> tuple[str, ...]:
    return (*hosts.NAMES, "all") if with_all else tuple(hosts.NAMES)


def host_help() -> str:
    others = ", ".join(
        f"{h.name} ({h.label})" for h in hosts.all_hosts() if h.name != hosts.DEFAULT
    )
    optional = [h.label for h in hosts.all_hosts() if h.all_needs_folder]
    where = f" ({' and '.join(optional)} only where their folder exists)" if optional else ""
    return (
        f"{hosts.DEFAULT} ({hosts.get(hosts.DEFAULT).label}, the default), {others}, or all:"
        f" every host{where}. The default stays Claude Code, so a plain `spawnkit install`"
        " never writes into another tool's config unasked."
    )


def _user_folder(host: hosts.Host) -> str:
    return shown(host, "{config}")[1]


def scope_help() -> str:
    """Where each scope installs, per host."""
    parts = []
    for host in hosts.all_hosts():
        trusted = f", trusted in {host.trust_file}" if host.trust_file else ""
        where = [f"user: {_user_folder(host)}, hooks in {host.hooks_file}{trusted}"]
        project = [f"./{host.project_hooks_file}"]
        if host.project_skill_dirs:
            project.append(f"./{host.project_skill_dirs[0]}")
        where.append(f"project: {' and '.join(project)}")
        if host.local_hooks_file:
            where.append(f"local: ./{host.local_hooks_file} (this machine only, not committed)")
        flag = "" if host.name == hosts.DEFAULT else f" (--host {host.name})"
        parts.append(f"{host.label}{flag}: {'; '.join(where)}.")
    return "user (default), project or local. " + " ".join(parts)


def new_where() -> str:
    """``new``'s epilog lines: where --scope and --host put the skill (the first user and
    project skill folder of each host, as ``spawnkit.hosts.paths.skill_dirs`` picks them)."""
    lines = [
        "\b",
        "Where the skill goes:",
        "  --dest DIR        DIR itself; its folder name must equal NAME",
    ]
    for host in hosts.all_hosts():
        user = shown(host, host.user_skill_dirs[0] + "/NAME")[1]
        project = f"./{host.project_skill_dirs[0]}/NAME"
        if host.name == hosts.DEFAULT:
            lines.append(f"  --scope project   {project} (the default)")
            lines.append(f"  --scope user      {user}")
        else:
            lines.append(f"  --host {host.name:<10} {host.label}'s folders instead: {project}")
            lines.append(f"                    (project), {user} (user)")
    return "\n".join(lines) + "\n"


def lint_folders() -> str:
    """The folders lint reads without a path (``lint.discovery.default_roots``), for its help."""
    from spawnkit.lint.discovery import default_root_labels

    return ", ".join(long for _short, long in default_root_labels())
