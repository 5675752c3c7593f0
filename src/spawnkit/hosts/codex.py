"""OpenAI Codex CLI 0.169.0, as observed offline (see the project's codex facts).

Differences from Claude Code that matter to spawnkit: sub-agents start with
``spawn_agent`` (multi-agent v1) or ``collaborationspawn_agent`` (v2, the
``collaboration`` namespace prefixed to the name), whose task is ``message``;
files are written by ``apply_patch`` (the patch text in ``tool_input.command``);
a PreToolUse rewrite needs ``permissionDecision: "allow"``; SubagentStart's
``additionalContext`` reaches the sub-agent; there is no PostToolBatch and NO
cap on repeated SubagentStop blocks; and hooks run only once trusted in
``config.toml`` (``spawnkit.install`` writes the trust entries).
"""

from __future__ import annotations

from spawnkit.hosts.base import Host

HOST = Host(
    name="codex",
    label="Codex CLI",
    binary="codex",
    # $CODEX_HOME, else ~/.codex
    config_env="CODEX_HOME",
    config_default=".codex",
    # No project or session variable: the payload's cwd and session_id are all there is.
    project_env=None,
    session_env=None,
    project_folder=".codex",
    spawn_tools=("spawn_agent", "collaborationspawn_agent"),
    spawn_text_key="message",
    spawn_items_key="items",  # v1 also takes structured items instead of a message
    spawn_label_keys=("task_name",),
    wait_tool="wait_agent",  # how the orchestrator waits for a running sub-agent
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
)
