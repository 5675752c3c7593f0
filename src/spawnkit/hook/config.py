"""Which checks run, and how hard: ``off``, ``warn`` or ``enforce`` per rule.

Layers, lowest first; a higher layer overrides whatever it sets:

1. default ``warn``;
2. ``<config dir>/spawnkit.json`` (the host's folder: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``
   for Claude Code, ``$CODEX_HOME`` or ``~/.codex`` for Codex);
3. ``<project>/.claude/spawnkit.json`` (``.codex/`` for Codex; project: ``$CLAUDE_PROJECT_DIR``,
   else the folder the host runs the hook in);
4. ``<project>/.claude/spawnkit.local.json`` (``.codex/`` for Codex): this machine's mode for the
   project (``spawnkit install --scope local``; never committed, like ``settings.local.json``);
5. environment: ``SPAWNKIT_MODE`` for every rule, ``SPAWNKIT_MODE_<CODE>`` for one
   (e.g. ``SPAWNKIT_MODE_CM001=off``), ``SPAWNKIT_MAX_RETRIES``.

Within a layer a rule's own entry beats that layer's ``mode``. File format::

    {"version": 1, "mode": "warn", "rules": {"CM001": "enforce"}, "max_retries": 2,
     "agents": {"Explore": "off", "my-plugin:*": "warn"}}

``agents`` is the return budget's scope: per sub-agent type (``agent_type`` on
SubagentStop, ``subagent_type`` at launch), the strongest CM001 mode that may apply to
it — ``off`` (not measured), ``warn`` (told, never blocked or rewritten) or ``enforce``
(CM001's own mode applies). A key is a type (case-insensitive) or a pattern with ``*``
(``my-plugin:*``; ``*`` alone is every other type). The first layer that has a matching
key decides (files in the order above, then ``DEFAULT_AGENTS``); inside a layer an exact
key beats a pattern, a longer pattern a shorter one. Workflow agents are outside every
scope: their answers go to the script that started them, never to the orchestrator.

A bad file or value is skipped (never fatal) and reported once per call in
``problems`` so the user sees it in a ``systemMessage``.
"""

from __future__ import annotations

from spawnkit.base import fastjson, lightos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MODES = ("off", "warn", "enforce")
DEFAULT_MODE = "warn"
CONFIG_NAME = "spawnkit.json"
LOCAL_CONFIG_NAME = "spawnkit.local.json"
CONFIG_VERSION = 1
DEFAULT_MAX_RETRIES = 2
# Claude Code lets a stop through after 8 consecutive blocks; stay well below it,
# also leaving room for other hooks that block the same stop.
MAX_RETRIES_LIMIT = 5
_MAX_CONFIG_BYTES = 64 * 1024
_MODE_RANK = {mode: rank for rank, mode in enumerate(MODES)}
# The return budget's scope when no file sets one: enforce binds general-purpose and the
# user's own agents (``*``); Claude Code's built-in specialists and plugin agents (named
# ``plugin:agent``) are at most warned about: their prompts and answers are their
# authors', written for the client's own flows.
DEFAULT_AGENTS = {
    "general-purpose": "enforce",
    "Explore": "warn",
    "Plan": "warn",
    "claude-code-guide": "off",
    "statusline-setup": "off",
    "output-style-setup": "off",
    "*:*": "warn",
    "*": "enforce",
}
MAX_AGENT_KEY = 128


class Problem(str):
    """A bad file or value, in one line (what the hook shows), with ``fix``: what to change,
    where, to what (what ``doctor`` shows)."""

    fix = ""


def _problem(problems: list[str], message: str, fix: str) -> None:
    found = Problem(message)
    found.fix = fix
    problems.append(found)


_MODES_TEXT = ", ".join(MODES[:-1]) + " or " + MODES[-1]  # "off, warn or enforce"


class Layer:
    """One source of settings: a global mode and per-rule modes (either may be unset)."""

    __slots__ = ("mode", "rules", "max_retries", "agents", "source")

    def __init__(self, source: str = "") -> None:
        self.mode: str | None = None
        self.rules: dict[str, str] = {}
        self.max_retries: int | None = None
        self.agents: dict[str, str] = {}  # agent type or pattern, as written -> mode
        self.source = source  # the file or variable it came from, for doctor

    def agent_cap(self, agent_type: str) -> str | None:
        """This layer's scope entry for ``agent_type``: an exact key, else the most specific
        pattern that matches; None when the layer says nothing about it."""
        if not self.agents:
            return None
        key = agent_type.lower()
        best: str | None = None
        for written, mode in self.agents.items():
            pattern = written.lower()
            if "*" not in pattern:
                if pattern == key:
                    return mode
            elif _matches(pattern, key) and (
                best is None or len(pattern.replace("*", "")) > len(best.replace("*", ""))
            ):
                best = written
        return None if best is None else self.agents[best]


class Config:
    """Resolved settings for one hook call."""

    def __init__(self, layers: list[Layer], problems: list[str]) -> None:
        self._layers = layers  # highest precedence first
        self.problems = problems

    def mode(self, code: str) -> str:
        code = code.upper()
        for layer in self._layers:
            if code in layer.rules:
                return layer.rules[code]
            if layer.mode is not None:
                return layer.mode
        return DEFAULT_MODE

    @property
    def max_retries(self) -> int:
        for layer in self._layers:
            if layer.max_retries is not None:
                return layer.max_retries
        return DEFAULT_MAX_RETRIES

    def agent_cap(self, agent_type: str) -> str:
        """The strongest return-budget mode the scope allows for ``agent_type``."""
        for layer in [*self._layers, default_scope()]:
            cap = layer.agent_cap(agent_type)
            if cap is not None:
                return cap
        return "enforce"

    def hold_back_hint(self, code: str, agent_type: str, what: str) -> str:
        """How to have ``what`` (replies, messages) of ``agent_type`` held back, for a warning:
        the rule's own mode, or, where the rule enforces already, the type's scope."""
        if self.mode(code) == "enforce":  # the scope only warns about this type
            return f'Add "{agent_type}": "enforce" to "agents" in spawnkit.json to hold its {what} back.'
        return f"Set {code} to enforce to hold such {what} back."

    def mode_for_agent(self, code: str, agent_type: str) -> str:
        """``mode(code)``, lowered to what the scope allows for ``agent_type``."""
        mode, cap = self.mode(code), self.agent_cap(agent_type)
        return mode if _MODE_RANK[mode] <= _MODE_RANK[cap] else cap

    def scope(self) -> list[tuple[str, str, str]]:
        """Every scope entry in force, as (key, mode, source), highest precedence first; a key a
        higher layer already set is left out (doctor shows this)."""
        seen: set[str] = set()
        out = []
        for layer in [*self._layers, default_scope()]:
            for key, mode in layer.agents.items():
                if key.lower() not in seen:
                    seen.add(key.lower())
                    out.append((key, mode, layer.source))
        return out


_default_scope: Layer | None = None


def default_scope() -> Layer:
    """``DEFAULT_AGENTS`` as the lowest layer."""
    global _default_scope
    if _default_scope is None:
        layer = Layer("spawnkit's default")
        layer.agents = dict(DEFAULT_AGENTS)
        _default_scope = layer
    return _default_scope


def _matches(pattern: str, text: str) -> bool:
    """``*`` matches any run of characters; everything else is literal."""
    parts = pattern.split("*")
    if not text.startswith(parts[0]):
        return False
    at = len(parts[0])
    for middle in parts[1:-1]:
        found = text.find(middle, at)
        if found == -1:
            return False
        at = found + len(middle)
    return len(text) - at >= len(parts[-1]) and text.endswith(parts[-1])


def load(
    env: Mapping[str, str],
    config_dir: str,
    project: str,
    aliases: dict[str, str],
    project_folder: str = ".claude",
) -> Config:
    """Read the config files and the environment. ``aliases`` maps rule names to codes;
    ``project_folder`` is the host's folder in the project (``.claude``, ``.codex``)."""
    problems: list[str] = []
    user = _read_file(lightos.join(config_dir, CONFIG_NAME), aliases, problems)
    proj = _read_file(
        lightos.join(project, project_folder, CONFIG_NAME), aliases, problems, project
    )
    local = _read_file(
        lightos.join(project, project_folder, LOCAL_CONFIG_NAME), aliases, problems, project
    )
    return Config([_read_env(env, aliases, problems), local, proj, user], problems)


def _read_file(
    path: str, aliases: dict[str, str], problems: list[str], project: str | None = None
) -> Layer:
    """One config file's layer. A project's (``project`` given) must resolve inside the
    project: a link out of it is skipped, never opened (``lightos.inside``, the rule of every
    read spawnkit makes in a project)."""
    layer = Layer(path)
    if project is not None and not _inside(path, project):
        problems.append(f"ignored {path}: a link out of the project, never opened")
        return layer
    try:
        raw = lightos.read_regular(path, _MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return layer
    except lightos.FileTooLarge:
        _problem(
            problems,
            f"ignored {path}: larger than 64 KiB",
            f"{path} holds a few settings: cut it down to them (under 64 KiB)",
        )
        return layer
    except lightos.NotRegularFile:
        _problem(
            problems,
            f"ignored {path}: not a regular file",
            f"replace {path} with a plain JSON file (not a link, folder or pipe)",
        )
        return layer
    except OSError as exc:
        _problem(
            problems,
            f"cannot read {path} ({exc.strerror}); make it readable (chmod u+r)",
            f"make {path} readable to you (chmod u+r)",
        )
        return layer
    try:
        data = fastjson.loads(raw.decode("utf-8", "replace"))
    except fastjson.JSONError:
        _problem(
            problems,
            f"ignored {path}: not valid JSON",
            f'make {path} valid JSON, e.g. {{"version": 1, "mode": "warn"}}',
        )
        return layer
    if not isinstance(data, dict):
        _problem(
            problems,
            f"ignored {path}: expected a JSON object",
            f'make {path} a JSON object, e.g. {{"version": 1, "mode": "warn"}}',
        )
        return layer
    version = data.get("version", CONFIG_VERSION)
    if version != CONFIG_VERSION:
        _problem(
            problems,
            f"ignored {path}: version {version!r} is not {CONFIG_VERSION}",
            f'set "version" in {path} to {CONFIG_VERSION}',
        )
        return layer
    where = f"in {path}"
    layer.mode = _mode(data.get("mode"), f"'mode' {where}", problems, f'"mode" in {path}')
    rules = data.get("rules", {})
    if isinstance(rules, dict):
        for key, value in rules.items():
            code = _code(key, aliases)
            if code is None:
                _problem(
                    problems,
                    f"ignored rule {key!r} {where}: not a rule code or name",
                    f'in "rules" of {path}, name a rule by its code or name (`spawnkit rule`'
                    f" lists them), or remove {key!r}",
                )
                continue
            setting = f'{fastjson.dumps(key)} under "rules" in {path}'
            mode = _mode(value, f"rule {key} {where}", problems, setting)
            if mode is not None:
                layer.rules[code] = mode
    else:
        _problem(
            problems,
            f'ignored \'rules\' {where}: expected an object like {{"CM001": "enforce"}}',
            f'write "rules" in {path} as an object like {{"CM001": "enforce"}}',
        )
    layer.max_retries = _retries(
        data.get("max_retries"), f"'max_retries' {where}", problems, f'"max_retries" in {path}'
    )
    layer.agents = _agents(data.get("agents"), path, problems)
    return layer


def _agents(value: object, path: str, problems: list[str]) -> dict[str, str]:
    if value is None:
        return {}
    where = f"in {path}"
    if not isinstance(value, dict):
        _problem(
            problems,
            f'ignored \'agents\' {where}: expected an object like {{"Explore": "off"}}',
            f'write "agents" in {path} as an object of agent types and modes, like'
            ' {"Explore": "off"}',
        )
        return {}
    agents: dict[str, str] = {}
    for key, mode in value.items():
        if not isinstance(key, str) or not key.strip() or len(key) > MAX_AGENT_KEY:
            _problem(
                problems,
                f"ignored agent type {key!r} {where}: not a name of 1 to 128 characters",
                f'in "agents" of {path}, name an agent type of 1 to 128 characters (or a'
                ' pattern like "my-plugin:*")',
            )
            continue
        setting = f'{fastjson.dumps(key)} under "agents" in {path}'
        checked = _mode(mode, f"agent type {key!r} {where}", problems, setting)
        if checked is not None:
            agents[key.strip()] = checked
    return agents


def _inside(path: str, project: str) -> bool:
    here = lightos.getcwd()
    return lightos.inside(lightos.join(here, path), lightos.join(here, project))


def _read_env(env: Mapping[str, str], aliases: dict[str, str], problems: list[str]) -> Layer:
    layer = Layer("the environment")
    layer.mode = _mode(env.get("SPAWNKIT_MODE"), "SPAWNKIT_MODE", problems, "SPAWNKIT_MODE")
    for key, value in env.items():
        if key.startswith("SPAWNKIT_MODE_"):
            # SPAWNKIT_MODE_CM001 or SPAWNKIT_MODE_RETURN_BUDGET
            code = _code(key[len("SPAWNKIT_MODE_") :].replace("_", "-"), aliases)
            if code is None:
                _problem(
                    problems,
                    f"ignored {key}: not a rule code or name",
                    f"unset {key}, or name a rule after SPAWNKIT_MODE_ (SPAWNKIT_MODE_CM001;"
                    " `spawnkit rule` lists them)",
                )
                continue
            mode = _mode(value, key, problems, key)
            if mode is not None:
                layer.rules[code] = mode
    raw = env.get("SPAWNKIT_MAX_RETRIES")
    if raw is not None:
        try:
            value: object = int(raw.strip())
        except ValueError:
            value = raw
        layer.max_retries = _retries(
            value, "SPAWNKIT_MAX_RETRIES", problems, "SPAWNKIT_MAX_RETRIES"
        )
    return layer


def _mode(value: object, where: str, problems: list[str], setting: str) -> str | None:
    """``value`` as a mode; else a problem whose fix names ``setting`` (a key and its file, or
    a variable) and the modes allowed."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in MODES:
        return value.strip().lower()
    _problem(
        problems,
        f"ignored {where}: {value!r} is not one of off, warn, enforce",
        f"set {setting} to {_MODES_TEXT}",
    )
    return None


def _retries(value: object, where: str, problems: list[str], setting: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_RETRIES_LIMIT:
        _problem(
            problems,
            f"ignored {where}: {value!r} is not a whole number from 0 to {MAX_RETRIES_LIMIT}",
            f"set {setting} to a whole number from 0 to {MAX_RETRIES_LIMIT}",
        )
        return None
    return value


def _code(key: object, aliases: dict[str, str]) -> str | None:
    if not isinstance(key, str):
        return None
    upper = key.strip().upper()
    if upper in aliases.values():
        return upper
    return aliases.get(key.strip().lower())
