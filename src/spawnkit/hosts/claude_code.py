"""Claude Code 2.1.330, as observed (see the project's claude-code facts)."""

from __future__ import annotations

from spawnkit.hosts.base import Host

HOST = Host(
    name="claude-code",
    label="Claude Code",
    binary="claude",
    # $CLAUDE_CONFIG_DIR, else ~/.claude
    config_env="CLAUDE_CONFIG_DIR",
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
    wait_tool=None,  # the Agent tool returns the result itself (or notifies)
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
    file_kinds=("skill", "command", "agent"),  # what lint-on-write checks under a skill root
    plugin_marker=".claude-plugin/plugin.json",  # a folder holding this file is a root too
    lint_profile="claude-code",
    session_field="session_id",
    agent_field="agent_id",
    agent_type_field="agent_type",
    answer_field="last_assistant_message",
    retry_field="stop_hook_active",
)
