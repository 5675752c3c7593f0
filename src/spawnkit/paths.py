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
