"""``Host``: one agent host (a CLI that runs skills and sub-agents), as plain data.

A plain class with ``__slots__`` rather than a dataclass: the hook builds one on
every call and ``dataclasses`` alone costs milliseconds to import. Paths are
strings joined POSIX-style (``spawnkit.hook.lightos``), for the same reason; code
off the hook path wraps them in ``pathlib.Path`` itself.
"""

from __future__ import annotations

from spawnkit.hook import lightos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


class Host:
    """What spawnkit needs to know about one host. Every field is documented where it is set."""

    __slots__ = (
        "name",
        "label",
        "binary",
        "config_env",
        "config_default",
        "project_env",
        "session_env",
        "project_folder",
        "spawn_tools",
        "spawn_text_key",
        "spawn_items_key",
        "spawn_label_keys",
        "wait_tool",
        "read_tools",
        "write_tools",
        "write_paths",
        "rewrite_needs_allow",
        "start_context",
        "batch_event",
        "own_block_cap",
        "events_key",
        "hooks_file",
        "hooks_under_key",
        "project_hooks_file",
        "local_hooks_file",
        "trust_file",
        "user_skill_dirs",
        "project_skill_dirs",
        "skill_roots",
        "file_kinds",
        "plugin_marker",
        "lint_profile",
        "session_field",
        "agent_field",
        "agent_type_field",
        "answer_field",
        "retry_field",
    )

    def __init__(self, **fields: object) -> None:
        missing = [f for f in self.__slots__ if f not in fields]
        unknown = [f for f in fields if f not in self.__slots__]
        if missing or unknown:
            raise TypeError(f"Host fields missing {missing} or unknown {unknown}")
        for key, value in fields.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("a Host is read-only")

    def __repr__(self) -> str:
        return f"Host({self.name!r})"

    def __str__(self) -> str:
        return self.name

    # --- places -----------------------------------------------------------------------------

    def home(self, env: Mapping[str, str]) -> str:
        home = env.get("HOME")
        if not home:
            import os

            home = os.path.expanduser("~")
        return home

    def config_dir(self, env: Mapping[str, str]) -> str:
        """The host's user folder: ``$<config_env>`` when set, else ``~/<config_default>``."""
        configured = (env.get(self.config_env) or "").strip()
        if configured:
            return lightos.absolute(configured, lightos.getcwd())
        return lightos.join(self.home(env), self.config_default)

    def project_dir(self, env: Mapping[str, str], cwd: str) -> str:
        """The project a hook call belongs to: the host's project variable, else ``cwd``."""
        base = cwd or lightos.getcwd()
        chosen = env.get(self.project_env) if self.project_env else None
        return lightos.absolute(chosen or base, base)

    def user_skill_dir(self, env: Mapping[str, str]) -> str:
        """Where spawnkit puts user-scope skills for this host (the first of ``user_skill_dirs``)."""
        return self.user_skill_dirs_in(env)[0]

    def user_skill_dirs_in(self, env: Mapping[str, str]) -> list[str]:
        """Every user-scope folder the host reads skills from, first the one spawnkit writes."""
        values = {"config": self.config_dir(env), "home": self.home(env)}
        return [pattern.format(**values) for pattern in self.user_skill_dirs]

    # --- tools ------------------------------------------------------------------------------

    @property
    def spawn_matcher(self) -> str:
        """The hook matcher for the spawn tools (a whole-name regex on both hosts)."""
        return "|".join(self.spawn_tools)

    def spawn_text(self, tool_input: Mapping[str, object]) -> str | None:
        """The task text a spawn call gives its sub-agent, or None when it has none."""
        value = tool_input.get(self.spawn_text_key)
        if isinstance(value, str):
            return value
        if self.spawn_items_key:
            items = tool_input.get(self.spawn_items_key)
            if isinstance(items, list):
                texts = [
                    i["text"]
                    for i in items
                    if isinstance(i, dict) and i.get("type") == "text" and isinstance(i.get("text"), str)
                ]
                if texts:
                    return "\n".join(texts)
        return None

    def with_spawn_text_appended(
        self, tool_input: Mapping[str, object], extra: str
    ) -> dict[str, object]:
        """The whole tool input with ``extra`` added to the sub-agent's task text."""
        value = tool_input.get(self.spawn_text_key)
        if isinstance(value, str) or not self.spawn_items_key:
            text = value if isinstance(value, str) else ""
            return {**tool_input, self.spawn_text_key: text.rstrip() + "\n\n" + extra}
        items = tool_input.get(self.spawn_items_key)
        items = list(items) if isinstance(items, list) else []
        return {**tool_input, self.spawn_items_key: [*items, {"type": "text", "text": extra}]}

    def spawn_label(self, tool_input: Mapping[str, object]) -> str:
        """A short name for the spawned task (description or task name), "" when none."""
        for key in self.spawn_label_keys:
            value = tool_input.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
        return ""
