"""One hook call: the payload, the environment and the places derived from them."""

from __future__ import annotations

import os

from spawnkit import protocol
from spawnkit.hook import config as config_mod
from spawnkit.hook.store import safe_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

STATE_DIR_NAME = ".spawnkit"


class Call:
    """Typed, defensive access to one payload (any field may be missing or of the wrong type)."""

    def __init__(self, payload: dict[str, Any], env: Mapping[str, str], now: float) -> None:
        self.payload = payload
        self.env = env
        self.now = now
        self.event = self.text("hook_event_name")
        self.session_id = self.text("session_id") or env.get("CLAUDE_CODE_SESSION_ID", "")
        self.session = safe_name(self.session_id)
        agent = payload.get("agent_id")
        self.agent_id = agent if isinstance(agent, str) and agent else None
        cwd = self.text("cwd")
        self.cwd = cwd if os.path.isabs(cwd) else os.getcwd()
        self.project = config_mod.project_dir(env, self.cwd)
        self.config_dir = config_mod.claude_config_dir(env)
        self.state_dir = os.path.join(self.config_dir, STATE_DIR_NAME)
        self._config: config_mod.Config | None = None

    def text(self, key: str, source: Mapping[str, Any] | None = None) -> str:
        value = (self.payload if source is None else source).get(key)
        return value if isinstance(value, str) else ""

    def tool_input(self) -> dict[str, Any]:
        value = self.payload.get("tool_input")
        return value if isinstance(value, dict) else {}

    @property
    def loaded_config(self) -> config_mod.Config | None:
        """The config if some check already read it (so silent events stay cheap)."""
        return self._config

    @property
    def config(self) -> config_mod.Config:
        if self._config is None:
            aliases = {r["name"]: r["code"] for r in protocol.load()["rules"]}
            self._config = config_mod.load(self.env, self.config_dir, self.project, aliases)
        return self._config

    def mode(self, code: str) -> str:
        return self.config.mode(code)

    def display_path(self, path: str) -> str:
        """``path`` relative to the project when inside it (shorter for the model to read)."""
        prefix = self.project.rstrip(os.sep) + os.sep
        return path[len(prefix) :] if path.startswith(prefix) else path
