"""Which sub-agents the return budget binds: the scope (``agents``), workflow agents, loop guards."""

from __future__ import annotations

import pytest

from spawnkit.hook import config

from .conftest import payload, session_file

ENFORCE = {"SPAWNKIT_MODE": "enforce"}
LONG = "LONGMARK finding: src/module/handler.py raises KeyError under load. " * 120


def long_stop(agent_type: str, **fields) -> dict:
    data = payload("SubagentStop_foreground") | {"agent_type": agent_type, **fields}
    data["last_assistant_message"] = LONG
    return data


def launch(subagent_type: str | None) -> dict:
    data = payload("PreToolUse_Agent")
    data["tool_input"] = dict(data["tool_input"])
    if subagent_type is None:
        data["tool_input"].pop("subagent_type", None)
    else:
        data["tool_input"]["subagent_type"] = subagent_type
    return data


def verdict(answer) -> str:
    """What a SubagentStop answer did: block, warn (a message), or nothing."""
    if not answer:
        return "silent"
    return "block" if answer.get("decision") == "block" else "warn"


def launch_verdict(answer) -> str:
    if not answer:
        return "silent"
    specific = answer["hookSpecificOutput"]
    return "rewrite" if "updatedInput" in specific else "warn"


# --- the default scope --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent_type", "expected"),
    [
        ("general-purpose", "block"),
        ("my-reviewer", "block"),  # a custom agent
        ("", "block"),  # a type the client left empty: still bound
        ("Explore", "warn"),
        ("Plan", "warn"),
        ("probe-plugin:plug-agent", "warn"),  # a plugin's agent
        ("claude-code-guide", "silent"),
        ("statusline-setup", "silent"),
    ],
)
def test_enforce_binds_general_purpose_and_custom_agents_by_default(hook, agent_type, expected):
    assert verdict(hook(long_stop(agent_type), ENFORCE)) == expected


@pytest.mark.parametrize(
    ("subagent_type", "expected"),
    [("general-purpose", "rewrite"), (None, "rewrite"), ("Explore", "warn"), ("Plan", "warn")],
)
def test_the_scope_applies_to_the_launch_too(hook, subagent_type, expected):
    env = ENFORCE | {"SPAWNKIT_MODE_CM005": "off"}
    assert launch_verdict(hook(launch(subagent_type), env)) == expected


def test_a_launch_that_names_no_type_is_scoped_as_what_claude_code_runs(hook):
    hook.write_config("project", {"agents": {"general-purpose": "off"}})
    env = ENFORCE | {"SPAWNKIT_MODE_CM005": "off"}
    assert hook(launch(None), env) is None
    assert launch_verdict(hook(launch("my-reviewer"), env)) == "rewrite"


def test_warn_mode_is_not_raised_by_the_scope(hook):
    assert verdict(hook(long_stop("general-purpose"))) == "warn"
    assert verdict(hook(long_stop("general-purpose"), {"SPAWNKIT_MODE": "off"})) == "silent"


# --- the user's scope ---------------------------------------------------------------------------


def test_an_excluded_type_passes_unblocked(hook):
    hook.write_config("project", {"version": 1, "agents": {"my-reviewer": "off"}})
    data = long_stop("my-reviewer")
    assert hook(data, ENFORCE) is None
    assert not (hook.project / ".spawnkit").exists()  # nothing saved, nothing blocked
    assert verdict(hook(long_stop("general-purpose"), ENFORCE)) == "block"


def test_a_type_can_be_bound_that_the_default_only_warns_about(hook):
    hook.write_config("user", {"version": 1, "agents": {"explore": "enforce"}})
    assert verdict(hook(long_stop("Explore"), ENFORCE)) == "block"


def test_patterns_and_layers(hook):
    hook.write_config("user", {"agents": {"acme:*": "off", "acme:strict": "enforce", "*": "warn"}})
    assert verdict(hook(long_stop("acme:loose"), ENFORCE)) == "silent"
    assert verdict(hook(long_stop("acme:strict"), ENFORCE)) == "block"  # exact beats a pattern
    assert verdict(hook(long_stop("my-reviewer"), ENFORCE)) == "warn"  # the user's own "*"
    # The project's layer comes first: its "*" beats the user's exact "acme:strict".
    hook.write_config("project", {"agents": {"*": "off"}})
    assert verdict(hook(long_stop("acme:strict"), ENFORCE)) == "silent"


def test_bad_scope_entries_are_reported_and_skipped(hook):
    path = hook.write_config("user", {"agents": {"Explore": "always", "": "off", "Plan": "off"}})
    answer = hook(long_stop("Plan"), ENFORCE)
    assert answer == {
        "systemMessage": (
            f"spawnkit: ignored agent type 'Explore' in {path}: 'always' is not one of off, warn, "
            f"enforce\nspawnkit: ignored agent type '' in {path}: not a name of 1 to 128 characters"
        )
    }
    path = hook.write_config("user", {"agents": ["Explore"]})
    message = hook(long_stop("Plan"), ENFORCE)["systemMessage"]
    assert message.endswith(
        f'\nspawnkit: ignored \'agents\' in {path}: expected an object like {{"Explore": "off"}}'
    )
    assert 'Add "Plan": "enforce" to "agents" in spawnkit.json' in message


def test_scope_listing_for_doctor(hook):
    hook.write_config("project", {"agents": {"Explore": "off"}})
    cfg = config.load(hook.env, str(hook.config_dir), str(hook.project), {})
    scope = cfg.scope()
    assert scope[0] == ("Explore", "off", str(hook.project / ".claude" / "spawnkit.json"))
    assert ("Plan", "warn", "spawnkit's default") in scope
    assert [key for key, _, _ in scope].count("Explore") == 1  # the default's entry is hidden
    assert cfg.mode_for_agent("CM001", "Explore") == "off"


# --- workflow agents ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["SubagentStop_workflow-subagent", "SubagentStop_workflow_agentType_Explore"]
)
@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_a_workflow_agent_is_never_blocked_warned_or_counted(hook, name, mode):
    data = payload(name)
    data["last_assistant_message"] = LONG
    assert hook(data, {"SPAWNKIT_MODE": mode}) is None
    assert not (hook.project / ".spawnkit").exists()
    assert not (hook.state_dir / "sessions").exists()  # no slot freed, no agent counted


def test_a_workflow_agent_is_recognised_by_its_transcript_alone(hook):
    data = payload("SubagentStop_workflow_agentType_Explore") | {"agent_type": "general-purpose"}
    data["last_assistant_message"] = LONG
    assert hook(data, ENFORCE) is None


# --- the second loop guard: stop_hook_active ----------------------------------------------------


def test_an_agent_whose_id_changes_on_every_stop_cannot_loop(hook):
    """A fresh agent id on each stop (reported for Claude Code): the agent's own count never
    grows, stop_hook_active says the stop follows a block, and one count per session of such
    stops ends the blocks after max_retries."""
    env = ENFORCE | {"SPAWNKIT_MAX_RETRIES": "2"}
    first = long_stop("general-purpose", agent_id="fresh-0", stop_hook_active=False)
    verdicts = [verdict(hook(first, env))]
    for n in range(1, 6):
        again = long_stop("general-purpose", agent_id=f"fresh-{n}", stop_hook_active=True)
        verdicts.append(verdict(hook(again, env)))
    assert verdicts == ["block", "block", "block", "warn", "block", "block"]
    # ... and after the let-through the session's count starts over (a later incident)


def test_a_repeated_stop_with_a_count_is_blocked_until_the_retries_are_used(hook):
    env = ENFORCE | {"SPAWNKIT_MAX_RETRIES": "2"}
    agent = {"agent_id": "a1"}
    assert (
        verdict(hook(long_stop("general-purpose", stop_hook_active=False, **agent), env)) == "block"
    )
    assert (
        verdict(hook(long_stop("general-purpose", stop_hook_active=True, **agent), env)) == "block"
    )
    assert (
        verdict(hook(long_stop("general-purpose", stop_hook_active=True, **agent), env)) == "warn"
    )
    assert session_file(hook, payload("SubagentStop_foreground")["session_id"])["retries"] == {}


def test_a_lost_count_still_ends_the_blocks(hook):
    env = ENFORCE | {"SPAWNKIT_MAX_RETRIES": "1"}
    assert verdict(hook(long_stop("general-purpose", stop_hook_active=False), env)) == "block"
    (hook.state_dir / "sessions").joinpath(
        payload("SubagentStop_foreground")["session_id"] + ".json"
    ).write_text("not json")
    repeated = long_stop("general-purpose", stop_hook_active=True)
    assert verdict(hook(repeated, env)) == "block"  # counted in the session's count
    assert verdict(hook(repeated, env)) == "warn"
