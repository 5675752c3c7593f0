"""Where Claude Code keeps the user's and the project's configuration."""

from __future__ import annotations

import os
from pathlib import Path


def claude_config_dir() -> Path:
    """``$CLAUDE_CONFIG_DIR`` if set, else ``~/.claude``."""
    env = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(env).expanduser() if env else Path.home() / ".claude"


def project_claude_dir(cwd: Path | None = None) -> Path:
    """The project's ``.claude`` folder (in ``cwd``, default the current directory)."""
    return (cwd or Path.cwd()) / ".claude"
