"""Where the hosts keep their configuration, resolved the way each host itself does.

The rules live in the host descriptions (``spawnkit.hosts``); this wraps them in
``pathlib`` for the commands. Standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path

from spawnkit import hosts


def config_dir(host: str = hosts.DEFAULT) -> Path:
    """A host's user folder: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``; ``$CODEX_HOME`` or ``~/.codex``."""
    return Path(hosts.get(host).config_dir(os.environ))


def claude_config_dir() -> Path:
    """The user's Claude Code folder: ``$CLAUDE_CONFIG_DIR`` when set, else ``~/.claude``."""
    return config_dir("claude-code")


def project_claude_dir(cwd: str | os.PathLike[str] | None = None) -> Path:
    """The project's ``.claude`` folder under ``cwd`` (default: the current directory)."""
    return Path(cwd if cwd is not None else os.getcwd()) / ".claude"
