"""Where Claude Code keeps its configuration. Standard library only (the hook uses it)."""

from __future__ import annotations

import os
from pathlib import Path


def claude_config_dir() -> Path:
    """The user's Claude Code folder: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".claude"


def project_claude_dir(cwd: str | os.PathLike[str] | None = None) -> Path:
    """A project's ``.claude`` folder (Claude Code treats the launch folder as the project)."""
    return Path(cwd if cwd is not None else os.getcwd()) / ".claude"
