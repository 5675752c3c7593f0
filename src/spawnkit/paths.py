"""Where Claude Code keeps its configuration, resolved the way Claude Code itself does.

One implementation for every command and the hook path: ``config_dir_of`` lives in the
hook package (plain strings, no ``os``/``pathlib`` import, so the hook starts fast);
:func:`claude_config_dir` is the ``Path`` form the CLI uses.
"""

from __future__ import annotations

from spawnkit.hook.config import config_dir_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from pathlib import Path


def claude_config_dir() -> Path:
    """The user's Claude Code folder: ``$CLAUDE_CONFIG_DIR`` when set, else ``~/.claude``."""
    import os
    from pathlib import Path

    return Path(config_dir_of(os.environ))


def project_claude_dir(cwd: str | os.PathLike[str] | None = None) -> Path:
    """The project's ``.claude`` folder under ``cwd`` (default: the current directory)."""
    import os
    from pathlib import Path

    return Path(cwd if cwd is not None else os.getcwd()) / ".claude"
