"""The agent hosts spawnkit serves, each described as data: Claude Code, OpenAI Codex CLI,
GitHub Copilot CLI, Google's Gemini CLI and Qwen Code.

Everything that differs between two hosts lives in one ``Host`` instance: where its
config and skills live, which file its hooks go into and in which format, the tool
names of spawning, reading and writing, how a hook answer blocks or rewrites a
call, and which payload fields carry the session, the agent and its last answer.
Install, uninstall, doctor, the hook runtime and ``spawnkit new`` read it instead
of naming a host themselves.

Standard library only and import-light: the hook imports this module on every call,
so it is one module of plain data (a plain read-only class, not a dataclass:
``dataclasses`` alone costs milliseconds to import). Paths are strings joined
POSIX-style (``spawnkit.base.lightos``); code off the hook path wraps them in
``pathlib.Path`` itself.
"""

from __future__ import annotations

from spawnkit.base import lightos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


class Host:
    """What spawnkit needs to know about one host. Every field is documented where it is set.

    Read-only. The fields live in the instance's ``__dict__``, filled by one ``update``: the
    hook builds every host on every call, and setting 65 slots one by one cost five times as
    much (0.2 million instructions a host, where a bare interpreter start takes 28 million)."""

    FIELDS = (
        "name",
        "label",
        "binary",
        "config_env",
        "config_env_is_home",
        "config_default",
        "project_env",
        "session_env",
        "project_folder",
        "spawn_tools",
        "spawn_text_key",
        "spawn_items_key",
        "spawn_label_keys",
        "default_agent_type",
        "wait_tool",
        "stop_tool",
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
        "event_field",
        "event_names",
        "tool_name_field",
        "tool_input_field",
        "call_id_field",
        "read_path_field",
        "answer_style",
        "system_messages",
        "denies_on_hook_error",
        "policy_file",
        "folder_trust_file",
        "transcripts_dir",
        "project_hooks_note",
        "invoke_hint",
        "timeout_scale",
        "hook_name",
        "hooks_config_keys",
        "version_key",
        "finish_tool",
        "agent_events",
        "notification_event",
        "rewrites_input",
        "background_listing",
        "npm_package",
        "all_needs_folder",
        "pre_tool_context",
    )

    def __init__(self, **fields: object) -> None:
        if fields.keys() != _FIELD_SET:
            missing = _FIELD_SET.difference(fields)
            if missing:
                raise KeyError(min(missing))
            raise TypeError(f"unknown Host fields {sorted(fields.keys() - _FIELD_SET)}")
        self.__dict__.update(fields)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("a Host is read-only")

    def __delattr__(self, key: str) -> None:
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
        """The host's user folder: ``$<config_env>`` when set, else ``~/<config_default>``
        (Gemini CLI's variable names the home folder above ``.gemini``: ``config_env_is_home``)."""
        configured = (env.get(self.config_env) or "").strip()
        if configured:
            folder = lightos.absolute(configured, lightos.getcwd())
            return lightos.join(folder, self.config_default) if self.config_env_is_home else folder
        return lightos.join(self.home(env), self.config_default)

    def user_home(self, env: Mapping[str, str]) -> str:
        """The home folder the host reads ``~/.agents/skills`` under (Gemini CLI: its variable)."""
        configured = (env.get(self.config_env) or "").strip() if self.config_env_is_home else ""
        return lightos.absolute(configured, lightos.getcwd()) if configured else self.home(env)

    def project_dir(self, env: Mapping[str, str], cwd: str) -> str:
        """The project a hook call belongs to: the host's project variable, else ``cwd``."""
        base = cwd or lightos.getcwd()
        chosen = env.get(self.project_env) if self.project_env else None
        return lightos.absolute(chosen or base, base)

    def user_skill_dirs_in(self, env: Mapping[str, str]) -> list[str]:
        """Every user-scope folder the host reads skills from, first the one spawnkit writes."""
        values = {"config": self.config_dir(env), "home": self.user_home(env)}
        return [pattern.format(**values) for pattern in self.user_skill_dirs]

    # --- events -----------------------------------------------------------------------------

    def event_of(self, payload: Mapping[str, object], named: str | None = None) -> str | None:
        """The hook event in spawnkit's names (Claude Code's: ``PreToolUse``…), or None.

        Claude Code, Codex and Qwen Code name it in the payload (``event_field``), Gemini CLI
        in its own words (``BeforeTool``), translated through ``event_names``; Copilot CLI's
        camelCase payloads carry no event name, so its hook command names the event
        (``--event preToolUse``, ``named``), translated the same way."""
        if self.event_field is None:
            return self.event_names.get(named or "")
        value = payload.get(self.event_field)
        if not isinstance(value, str):
            return None
        return self.event_names.get(value, value) if self.event_names else value

    def own_event(self, event: str) -> str:
        """The host's own name of one of spawnkit's events (``PreToolUse`` → ``BeforeTool``)."""
        for own, ours in self.event_names.items():
            if ours == event:
                return own
        return event

    # --- tools ------------------------------------------------------------------------------

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
                    if isinstance(i, dict)
                    and i.get("type") == "text"
                    and isinstance(i.get("text"), str)
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


_FIELD_SET = frozenset(Host.FIELDS)


# Claude Code 2.1.330, as observed (see the project's claude-code facts).
CLAUDE_CODE = Host(
    name="claude-code",
    label="Claude Code",
    binary="claude",
    # $CLAUDE_CONFIG_DIR, else ~/.claude
    config_env="CLAUDE_CONFIG_DIR",
    config_env_is_home=False,
    config_default=".claude",
    # Hooks run with the project in $CLAUDE_PROJECT_DIR and the session in $CLAUDE_CODE_SESSION_ID.
    project_env="CLAUDE_PROJECT_DIR",
    session_env="CLAUDE_CODE_SESSION_ID",
    # <project>/.claude holds the project's settings, skills and spawnkit.json.
    project_folder=".claude",
    # The sub-agent tool is "Agent" ("Task" is its old name, still matched); its task is `prompt`.
    spawn_tools=("Agent", "Task"),
    spawn_text_key="prompt",
    spawn_items_key=None,
    spawn_label_keys=("description",),
    default_agent_type="general-purpose",  # what an Agent call without subagent_type runs
    wait_tool=None,  # the Agent tool returns the result itself (or notifies)
    # TaskStop ends a background agent (or workflow) by task_id; no SubagentStop follows.
    stop_tool="TaskStop",
    read_tools=("Read",),
    write_tools=("Write", "Edit", "MultiEdit"),
    write_paths="file_path",  # tool_input.file_path names the written file
    # updatedInput alone replaces the input; "allow" would also skip the permission prompt.
    rewrite_needs_allow=False,
    # SubagentStart cannot talk to the sub-agent: the budget goes into the prompt instead.
    start_context=False,
    batch_event="PostToolBatch",
    own_block_cap=8,  # consecutive SubagentStop blocks it honours before letting the stop through
    events_key="events",  # standards/protocol.json "hooks" table
    hooks_file="settings.json",  # in the config dir; the hooks sit under its "hooks" key
    hooks_under_key=True,
    project_hooks_file=".claude/settings.json",
    local_hooks_file=".claude/settings.local.json",
    trust_file=None,  # hooks run once written: no trust step
    user_skill_dirs=("{config}/skills",),
    project_skill_dirs=(".claude/skills",),
    skill_roots=(".claude",),  # folder names under which skills/commands/agents are linted
    # what lint-on-write checks under a skill root; "workflow": workflows/*.js, skills/*/workflow.js
    file_kinds=("skill", "command", "agent", "workflow"),
    plugin_marker=".claude-plugin/plugin.json",  # a folder holding this file is a root too
    lint_profile="claude-code",
    session_field="session_id",
    agent_field="agent_id",
    agent_type_field="agent_type",
    answer_field="last_assistant_message",
    retry_field="stop_hook_active",
    event_field="hook_event_name",  # the payload names its event
    event_names={},
    tool_name_field="tool_name",
    tool_input_field="tool_input",
    call_id_field="tool_use_id",  # one id per tool call, the same in Pre- and PostToolUse
    read_path_field="file_path",  # Read's tool_input.file_path
    answer_style="nested",  # answers nest in hookSpecificOutput
    system_messages=True,  # systemMessage is shown to the user
    denies_on_hook_error=False,  # a hook exiting 1 is a non-blocking error
    policy_file=None,
    folder_trust_file=None,
    transcripts_dir="projects",
    project_hooks_note=(
        "{name} is usually committed: its hook command names this machine's Python and"
        " spawnkit; each teammate runs `spawnkit install --scope project` (or prefer --scope"
        " local)"
    ),
    invoke_hint="then run /{skill} in Claude Code",
    timeout_scale=1,  # hook timeouts in seconds
    hook_name=None,  # the settings schema forbids a "name" in a hook entry
    hooks_config_keys=(),  # every key under "hooks" is an event
    version_key=None,
    finish_tool=None,  # a sub-agent ends by answering; SubagentStop sees the answer
    agent_events=True,  # SubagentStart and SubagentStop fire
    notification_event=True,  # a <task-notification> is a UserPromptSubmit prompt
    rewrites_input=True,
    background_listing=True,  # Stop and SubagentStop list the background tasks
    npm_package="@anthropic-ai/claude-code",
    all_needs_folder=False,
    pre_tool_context=True,
)


# OpenAI Codex CLI 0.169.0, as observed offline (see the project's codex facts).
#
# Differences from Claude Code that matter to spawnkit: sub-agents start with
# ``spawn_agent`` (multi-agent v1) or ``collaborationspawn_agent`` (v2, the
# ``collaboration`` namespace prefixed to the name), whose task is ``message``;
# files are written by ``apply_patch`` (the patch text in ``tool_input.command``);
# a PreToolUse rewrite needs ``permissionDecision: "allow"``; SubagentStart's
# ``additionalContext`` reaches the sub-agent; there is no PostToolBatch and NO
# cap on repeated SubagentStop blocks; and hooks run only once trusted in
# ``config.toml`` (``spawnkit.install`` writes the trust entries).
CODEX = Host(
    name="codex",
    label="Codex CLI",
    binary="codex",
    # $CODEX_HOME, else ~/.codex
    config_env="CODEX_HOME",
    config_env_is_home=False,
    config_default=".codex",
    # No project or session variable: the payload's cwd and session_id are all there is.
    project_env=None,
    session_env=None,
    project_folder=".codex",
    spawn_tools=("spawn_agent", "collaborationspawn_agent"),
    spawn_text_key="message",
    spawn_items_key="items",  # v1 also takes structured items instead of a message
    spawn_label_keys=("task_name",),
    default_agent_type="",  # a spawn names no type; SubagentStop says "default"
    wait_tool="wait_agent",  # how the orchestrator waits for a running sub-agent
    stop_tool=None,  # no tool stops a sub-agent and tells the hook which one
    read_tools=(),  # files are read with shell commands: no read tool to guard
    write_tools=("apply_patch",),
    write_paths="patch",  # the files are named in the patch's "*** Add/Update File:" lines
    rewrite_needs_allow=True,  # updatedInput without permissionDecision "allow" is ignored
    start_context=True,
    batch_event=None,
    own_block_cap=None,  # a hook that always blocks loops for ever: our retry limit is the cap
    events_key="codex_events",
    hooks_file="hooks.json",
    hooks_under_key=True,
    project_hooks_file=".codex/hooks.json",
    local_hooks_file=None,
    trust_file="config.toml",  # [hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash
    # spawnkit writes user skills under $CODEX_HOME (with the hooks and config it manages);
    # Codex also reads ~/.agents/skills.
    user_skill_dirs=("{config}/skills", "{home}/.agents/skills"),
    project_skill_dirs=(".agents/skills", ".codex/skills"),
    skill_roots=(".agents", ".codex"),
    file_kinds=("skill",),  # what lint-on-write checks under a skill root
    plugin_marker=None,  # a folder holding this file is a root too
    lint_profile="portable",  # Codex reads name and description; other keys mean nothing to it
    session_field="session_id",
    agent_field="agent_id",
    agent_type_field="agent_type",
    answer_field="last_assistant_message",
    retry_field="stop_hook_active",
    event_field="hook_event_name",
    event_names={},
    tool_name_field="tool_name",
    tool_input_field="tool_input",
    call_id_field="tool_use_id",
    read_path_field=None,  # no read tool
    answer_style="nested",
    system_messages=True,
    denies_on_hook_error=False,
    policy_file=None,
    folder_trust_file=None,
    transcripts_dir="sessions",  # $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl
    project_hooks_note=(
        "Codex reads {path} only in a project it trusts, and runs each hook only once {trust}"
        " trusts it (spawnkit writes that trust for this machine; each teammate runs `spawnkit"
        " install --host codex --scope project`)"
    ),
    invoke_hint="then start Codex: it lists the skill as {skill} (mention ${skill} to use it)",
    timeout_scale=1,
    hook_name=None,
    hooks_config_keys=(),
    version_key=None,
    finish_tool=None,
    agent_events=True,
    notification_event=False,  # a finished sub-agent is read with wait_agent
    rewrites_input=True,
    background_listing=False,
    npm_package="@openai/codex",
    all_needs_folder=False,
    pre_tool_context=True,
)


# GitHub Copilot CLI 1.0.102, as observed offline (see the project's copilot facts).
#
# Differences that matter to spawnkit: hooks live in any ``*.json`` file under
# ``$COPILOT_HOME/hooks`` (a project's under ``.github/hooks``), so spawnkit owns one file
# (``spawnkit-hooks.json``) and never edits another; the file takes Claude Code's nested
# ``{"matcher", "hooks": [{"type", "command", "timeout"}]}`` groups under camelCase event
# names, and such events get camelCase payloads WITHOUT an event name (the command says which
# event it serves: ``--event``); answers are flat (``permissionDecision``, ``modifiedArgs``,
# ``additionalContext``, ``decision``; ``modifiedResult`` for a PostToolUse); there is no
# user-only ``systemMessage``; a preToolUse hook that exits non-zero DENIES the tool call;
# subagentStart's ``additionalContext`` is put before the sub-agent's prompt; sub-agents
# start with ``task`` (its ``prompt``); there is NO cap on repeated subagentStop blocks
# (1.0.102 honoured hundreds in a row); repository hooks load only in a folder the user
# trusts (``trustedFolders`` in ``config.json``), and a managed policy can allow only managed
# hooks.
COPILOT = Host(
    name="copilot",
    label="Copilot CLI",
    binary="copilot",
    # $COPILOT_HOME, else ~/.copilot
    config_env="COPILOT_HOME",
    config_env_is_home=False,
    config_default=".copilot",
    # Command hooks run in the project root with $COPILOT_PROJECT_DIR set (and $CLAUDE_PROJECT_DIR).
    project_env="COPILOT_PROJECT_DIR",
    session_env=None,
    # <project>/.github holds the project's skills, hooks and (spawnkit's) spawnkit.json.
    project_folder=".github",
    spawn_tools=("task",),
    spawn_text_key="prompt",
    spawn_items_key=None,
    spawn_label_keys=("description", "name"),
    default_agent_type="",  # `task` requires agent_type
    wait_tool="read_agent",  # how the orchestrator reads a background sub-agent's result
    stop_tool=None,  # no stop tool names the agent it stopped to a hook
    read_tools=("view",),
    write_tools=("create", "edit"),
    write_paths="path",  # toolArgs.path names the written file
    rewrite_needs_allow=False,  # modifiedArgs alone rewrites; "allow" would skip the prompt
    start_context=True,  # subagentStart's additionalContext is put before the sub-agent's prompt
    batch_event=None,
    own_block_cap=None,  # measured: no limit on subagentStop blocks in a row
    events_key="copilot_events",
    hooks_file="hooks/spawnkit-hooks.json",  # in the config dir; a file of spawnkit's own
    hooks_under_key=True,
    project_hooks_file=".github/hooks/spawnkit-hooks.json",
    local_hooks_file=None,
    trust_file=None,  # no per-hook trust (folder trust for a project's hooks: folder_trust_file)
    user_skill_dirs=("{config}/skills", "{home}/.agents/skills"),
    project_skill_dirs=(".github/skills", ".agents/skills", ".claude/skills"),
    skill_roots=(".github",),
    file_kinds=("skill",),
    plugin_marker=None,
    lint_profile="copilot",
    session_field="sessionId",  # the parent's on subagentStart/Stop, the sub-agent's in its tools
    agent_field="agentId",
    agent_type_field="agentType",
    answer_field="response",
    retry_field="stop_hook_active",  # snake_case even here
    event_field=None,
    event_names={
        "preToolUse": "PreToolUse",
        "postToolUse": "PostToolUse",
        "subagentStart": "SubagentStart",
        "subagentStop": "SubagentStop",
    },
    tool_name_field="toolName",
    tool_input_field="toolArgs",
    call_id_field=None,  # the payload names no tool call
    read_path_field="path",  # view's toolArgs.path
    answer_style="flat",
    system_messages=False,  # nothing reaches the user only: spawnkit logs such lines instead
    denies_on_hook_error=True,
    policy_file="/etc/github-copilot/managed-settings.json",
    folder_trust_file="config.json",  # {"trustedFolders": [...]}, after two // comment lines
    transcripts_dir="session-state",  # <id>/events.jsonl
    project_hooks_note=(
        "Copilot CLI loads {path} only in a folder the user trusts (it asks on the first"
        " interactive start; `copilot -p` needs --trust-folder); its hook command names this"
        " machine's Python and spawnkit: each teammate runs `spawnkit install --host copilot"
        " --scope project`"
    ),
    invoke_hint="then start Copilot CLI: it lists the skill as {skill} (type /{skill} to use it)",
    timeout_scale=1,
    hook_name=None,
    hooks_config_keys=(),
    version_key=None,
    finish_tool=None,
    agent_events=True,
    notification_event=False,
    rewrites_input=True,
    background_listing=False,
    npm_package="@github/copilot",
    all_needs_folder=False,
    pre_tool_context=True,
)


# Google's Gemini CLI 0.61.0, as observed offline (see the project's gemini-qwen facts).
#
# Differences that matter to spawnkit: its events have names of their own (``BeforeTool``,
# ``AfterTool``, ``AfterAgent``: ``event_names``); sub-agents start with ``invoke_agent``
# (``agent_name``, ``prompt``) and always run in the foreground; there is NO sub-agent start or
# stop event: a sub-agent ends by calling ``complete_task`` (``finish_tool``), whose
# ``BeforeTool`` deny is the only way to make it answer again, and whose hooks carry the PARENT's
# session id and no agent id; nothing caps a denying hook but the sub-agent's turn limit, so
# spawnkit's retry limit is the only one. Answers are ``{"decision": "deny", "reason"}`` at the
# top level, ``hookSpecificOutput.tool_input`` (the whole input) to rewrite a call and
# ``hookSpecificOutput.additionalContext`` after a tool (``answer_style`` "decision"); hook
# timeouts are milliseconds; matchers are unanchored regular expressions; every hook (the
# user's too) loads only in a trusted folder, and ``hooksConfig`` can turn hooks off.
GEMINI = Host(
    name="gemini",
    label="Gemini CLI",
    binary="gemini",
    # $GEMINI_CLI_HOME replaces the home folder above .gemini (and above .agents/skills)
    config_env="GEMINI_CLI_HOME",
    config_env_is_home=True,
    config_default=".gemini",
    # Hooks run in the project with $GEMINI_PROJECT_DIR and $GEMINI_SESSION_ID set.
    project_env="GEMINI_PROJECT_DIR",
    session_env="GEMINI_SESSION_ID",
    project_folder=".gemini",
    spawn_tools=("invoke_agent",),
    spawn_text_key="prompt",
    spawn_items_key=None,
    spawn_label_keys=(),  # only the agent's name (its type): no description of the task
    default_agent_type="",  # agent_name is required
    wait_tool=None,  # invoke_agent returns the answer itself
    stop_tool=None,
    read_tools=("read_file",),
    write_tools=("write_file", "replace"),
    write_paths="file_path",
    rewrite_needs_allow=False,
    start_context=False,  # no start event
    batch_event=None,
    own_block_cap=None,  # a hook that always denies complete_task runs the sub-agent out of turns
    events_key="gemini_events",
    hooks_file="settings.json",
    hooks_under_key=True,
    project_hooks_file=".gemini/settings.json",
    local_hooks_file=None,
    trust_file=None,  # no per-hook trust (folder trust: folder_trust_file)
    user_skill_dirs=("{config}/skills", "{home}/.agents/skills"),
    project_skill_dirs=(".gemini/skills", ".agents/skills"),
    skill_roots=(".gemini",),
    file_kinds=("skill", "agent"),  # .gemini/agents/*.md are its custom sub-agents
    plugin_marker=None,
    lint_profile="gemini",
    session_field="session_id",  # the parent's, also in a sub-agent's own tool calls
    agent_field="agent_id",  # never sent
    agent_type_field="agent_type",
    answer_field="last_assistant_message",  # no stop event: the answer is complete_task's
    retry_field="stop_hook_active",
    event_field="hook_event_name",
    event_names={"BeforeTool": "PreToolUse", "AfterTool": "PostToolUse", "AfterAgent": "Stop"},
    tool_name_field="tool_name",
    tool_input_field="tool_input",
    call_id_field=None,  # the payload names no tool call
    read_path_field="file_path",
    answer_style="decision",
    system_messages=True,  # shown (on stderr in a headless run)
    denies_on_hook_error=False,  # exit 1 is a warning; 2 denies
    policy_file=None,
    folder_trust_file="trustedFolders.json",  # {"<folder>": "TRUST_FOLDER"|"TRUST_PARENT"|…}
    transcripts_dir="tmp",  # tmp/<project>/chats/session-*.jsonl, sub-agents in chats/<sid>/
    project_hooks_note=(
        "Gemini CLI loads {path} only in a folder the user trusts and announces its hooks the"
        " first time it runs them; the hook command names this machine's Python and spawnkit:"
        " each teammate runs `spawnkit install --host gemini --scope project`"
    ),
    invoke_hint=(
        "then start Gemini CLI in a trusted folder: it offers the skill {skill} to the model"
        " (`/skills list` shows it)"
    ),
    timeout_scale=1000,  # hook timeouts in milliseconds
    hook_name="spawnkit",  # hooksConfig.disabled names hooks: "spawnkit" turns spawnkit's off
    hooks_config_keys=("enabled", "disabled", "notifications"),  # settings, not events
    version_key=None,
    finish_tool="complete_task",  # tool_input.result is the sub-agent's answer
    agent_events=False,
    notification_event=False,
    rewrites_input=True,  # hookSpecificOutput.tool_input replaces the whole input
    background_listing=False,
    npm_package="@google/gemini-cli",
    all_needs_folder=True,  # `--host all` includes it only where its folder exists
    pre_tool_context=False,  # BeforeTool reads no additionalContext
)


# Qwen Code 0.24.4, as observed offline (see the project's gemini-qwen facts).
#
# It follows Claude Code's events and answers (``SubagentStop`` with ``last_assistant_message``,
# ``stop_hook_active`` and ``background_tasks``; blocks honoured 8 times in a row); sub-agents
# start with ``agent`` (``description``, ``prompt``, ``subagent_type``, ``run_in_background``)
# and run in the background unless told otherwise; a background agent's answer reaches the
# orchestrator as a ``<task-notification>`` user message that no hook sees (so its length is
# held back at SubagentStop only). It IGNORES ``updatedInput`` on PreToolUse (the return
# contract cannot be added to a launch), PreToolUse ``additionalContext`` and, as measured,
# SubagentStart's: only the skill's own prompts can tell a sub-agent its budget. It rewrites a
# settings.json that lacks ``"$version": 4`` on start (``version_key``).
QWEN = Host(
    name="qwen",
    label="Qwen Code",
    binary="qwen",
    # $QWEN_HOME replaces ~/.qwen itself
    config_env="QWEN_HOME",
    config_env_is_home=False,
    config_default=".qwen",
    project_env="QWEN_PROJECT_DIR",  # not QWEN_CODE_PROJECT_DIR: that is ~/.qwen/projects/<slug>
    session_env="QWEN_CODE_SESSION_ID",
    project_folder=".qwen",
    spawn_tools=("agent",),
    spawn_text_key="prompt",
    spawn_items_key=None,
    spawn_label_keys=("description",),
    default_agent_type="general-purpose",
    wait_tool=None,
    stop_tool=None,  # task_stop names no agent to a hook it can be matched with
    read_tools=("read_file",),
    write_tools=("write_file", "edit"),
    write_paths="file_path",
    rewrite_needs_allow=False,
    # SubagentStart's additionalContext reached no request (0.24.4 puts it into a fresh
    # background agent's context state without adding it to its task)
    start_context=False,
    batch_event=None,
    own_block_cap=8,  # stopHookBlockingCap / $QWEN_CODE_STOP_HOOK_BLOCK_CAP, default 8
    events_key="qwen_events",
    hooks_file="settings.json",
    hooks_under_key=True,
    project_hooks_file=".qwen/settings.json",
    local_hooks_file=None,
    trust_file=None,
    user_skill_dirs=("{config}/skills", "{home}/.agents/skills"),
    project_skill_dirs=(".qwen/skills", ".agents/skills"),
    skill_roots=(".qwen",),
    file_kinds=("skill", "agent"),  # .qwen/agents/<name>.md are its custom sub-agents
    plugin_marker=None,
    lint_profile="qwen",
    session_field="session_id",
    agent_field="agent_id",  # <subagent_type>-<tool_call_id>
    agent_type_field="agent_type",
    answer_field="last_assistant_message",
    retry_field="stop_hook_active",
    event_field="hook_event_name",
    event_names={},
    tool_name_field="tool_name",
    tool_input_field="tool_input",
    # the id the agent id ends with, the same in PreToolUse, PostToolUse and a batch (its
    # tool_use_id differs between them)
    call_id_field="tool_call_id",
    read_path_field="file_path",
    answer_style="nested",
    system_messages=True,
    denies_on_hook_error=False,
    policy_file=None,
    folder_trust_file="trustedFolders.json",  # Gemini CLI's format; folder trust is off by default
    transcripts_dir="projects",  # projects/<slug>/chats/<sid>.jsonl, subagents/<sid>/agent-*.jsonl
    project_hooks_note=(
        "Qwen Code loads {path} only in a folder it trusts (when folder trust is on); the hook"
        " command names this machine's Python and spawnkit: each teammate runs `spawnkit install"
        " --host qwen --scope project`"
    ),
    invoke_hint="then start Qwen Code: it lists the skill as {skill} (type /{skill} to use it)",
    timeout_scale=1,
    hook_name=None,
    hooks_config_keys=(),
    version_key=("$version", 4),  # a file without it is rewritten (re-indented) on start
    finish_tool=None,
    agent_events=True,
    notification_event=False,  # the <task-notification> message fires no UserPromptSubmit
    rewrites_input=False,  # updatedInput is ignored on PreToolUse
    background_listing=True,
    npm_package="@qwen-code/qwen-code",
    all_needs_folder=True,  # `--host all` includes it only where its folder exists
    pre_tool_context=False,  # PreToolUse additionalContext reached no request
)

NAMES = ("claude-code", "codex", "copilot", "gemini", "qwen")
DEFAULT = "claude-code"
_BY_NAME = {h.name: h for h in (CLAUDE_CODE, CODEX, COPILOT, GEMINI, QWEN)}


def get(name: str) -> Host:
    """The host called ``name`` (one of ``NAMES``); KeyError for any other."""
    return _BY_NAME[name]


def all_hosts() -> list[Host]:
    return [CLAUDE_CODE, CODEX, COPILOT, GEMINI, QWEN]


__all__ = [
    "CLAUDE_CODE",
    "CODEX",
    "COPILOT",
    "DEFAULT",
    "GEMINI",
    "NAMES",
    "QWEN",
    "Host",
    "all_hosts",
    "get",
]
