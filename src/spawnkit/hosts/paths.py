"""Where the hosts keep their configuration, resolved the way each host itself does.

One implementation for every command and the hook path: the rules live in the host
descriptions (``spawnkit.hosts``: plain strings, no ``os``/``pathlib`` import, so the
hook starts fast); these are the ``Path`` forms the CLI uses.
"""

from __future__ import annotations

from spawnkit import hosts

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable
    from pathlib import Path


def config_dir(host: str = hosts.DEFAULT) -> Path:
    """A host's user folder: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``; ``$CODEX_HOME`` or
    ``~/.codex``."""
    import os
    from pathlib import Path

    return Path(hosts.get(host).config_dir(os.environ))


def claude_config_dir() -> Path:
    """The user's Claude Code folder: ``$CLAUDE_CONFIG_DIR`` when set, else ``~/.claude``."""
    return config_dir("claude-code")


def project_claude_dir(cwd: str | os.PathLike[str] | None = None) -> Path:
    """The project's ``.claude`` folder under ``cwd`` (default: the current directory)."""
    import os
    from pathlib import Path

    return Path(cwd if cwd is not None else os.getcwd()) / ".claude"


def skill_dirs(host: hosts.Host, cwd: Path) -> dict[str, Path]:
    """The folder spawnkit writes ``host``'s skills into, per scope (user, project)."""
    import os
    from pathlib import Path

    user = Path(host.user_skill_dirs_in(os.environ)[0])
    return {"user": user, "project": Path(cwd) / host.project_skill_dirs[0]}


def all_skill_dirs(cwd: Path, first: Iterable[tuple[str, Path]] = ()) -> list[tuple[str, Path]]:
    """``(scope, folder)`` for every folder any host reads skills from, without duplicates:
    ``first`` (e.g. a ``--config-dir`` of the caller's), then Claude Code's user and project
    folders, then Codex's."""
    import os
    from pathlib import Path

    pairs = list(first)
    for host in hosts.all_hosts():
        pairs += [("user", Path(d)) for d in host.user_skill_dirs_in(os.environ)]
        pairs += [("project", Path(cwd) / d) for d in host.project_skill_dirs]
    found: list[tuple[str, Path]] = []
    seen: set[Path] = set()
    for scope, folder in pairs:
        key = folder.resolve()
        if key not in seen:
            seen.add(key)
            found.append((scope, folder))
    return found


def shown(host: hosts.Host, pattern: str) -> tuple[str, str]:
    """A folder of ``host`` (``{config}/skills``, ``{home}/.agents/skills``, ``.github/skills``:
    relative ones are the project's) as people read it: the short form (``~/.codex/skills``,
    ``./.github/skills``) and the one naming the variable that moves it
    (``$CODEX_HOME/skills (or ~/.codex/skills)``)."""
    home = "~/" + host.config_default
    variable = "$" + host.config_env
    if host.config_env_is_home:  # Gemini CLI: the variable replaces the home above its folder
        config, other_home = f"{variable}/{host.config_default}", variable
    else:
        config, other_home = variable, "~"
    if "{config}" in pattern:
        short = pattern.format(config=home, home="~")
        return short, f"{pattern.format(config=config, home=other_home)} (or {short})"
    if "{home}" in pattern:
        short = pattern.format(home="~", config=home)
        if other_home == "~":
            return short, short
        return short, f"{pattern.format(home=other_home, config=config)} (or {short})"
    return f"./{pattern}", f"./{pattern}"


def skill_dir_labels() -> list[tuple[str, str, str]]:
    """``(scope, short, long)`` for every folder any host reads skills from, in the order and
    with the hosts of ``all_skill_dirs`` (see ``shown``), without duplicates."""
    found: list[tuple[str, str, str]] = []
    for host in hosts.all_hosts():
        pairs = [("user", shown(host, d)) for d in host.user_skill_dirs]
        pairs += [("project", shown(host, d)) for d in host.project_skill_dirs]
        for scope, (short, long) in pairs:
            if short not in [f[1] for f in found]:
                found.append((scope, short, long))
    return found


def user_roots() -> list[Path]:
    """The folders that are the user's own, where links are the user's (a dotfiles
    repository): every host's config folder, and the other user skill folders a host reads
    (``~/.agents/skills``)."""
    import os
    from pathlib import Path

    found: list[Path] = []
    for host in hosts.all_hosts():
        for folder in (host.config_dir(os.environ), *host.user_skill_dirs_in(os.environ)):
            if not any(Path(folder) == f or f in Path(folder).parents for f in found):
                found.append(Path(folder))
    return found
