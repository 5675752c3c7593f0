"""Modes per rule: user file < project file < environment; bad values reported, never fatal."""

from __future__ import annotations

import os

import pytest

from spawnkit import hosts
from spawnkit.hook import config

CLAUDE, CODEX = hosts.get("claude-code"), hosts.get("codex")

ALIASES = {"return-budget": "CM001", "max-parallel": "CM005", "no-full-report-reads": "CM006"}


def load(hook, env=None):
    return config.load(
        {**hook.env, **(env or {})}, str(hook.config_dir), str(hook.project), ALIASES
    )


def test_default_is_warn(hook):
    cfg = load(hook)
    assert (cfg.mode("CM001"), cfg.max_retries, cfg.problems) == ("warn", 2, [])


def test_layers_override_in_order(hook):
    hook.write_config(
        "user", {"version": 1, "mode": "enforce", "rules": {"CM006": "off"}, "max_retries": 3}
    )
    cfg = load(hook)
    assert (cfg.mode("CM001"), cfg.mode("CM006"), cfg.max_retries) == ("enforce", "off", 3)
    # The project's own mode overrides everything the user file says ...
    hook.write_config("project", {"mode": "warn", "rules": {"return-budget": "enforce"}})
    cfg = load(hook)
    assert (cfg.mode("CM001"), cfg.mode("CM006"), cfg.mode("cm005"), cfg.max_retries) == (
        "enforce",
        "warn",
        "warn",
        3,
    )
    # ... and the environment overrides both; a rule's own variable beats SPAWNKIT_MODE.
    cfg = load(
        hook,
        {
            "SPAWNKIT_MODE": "off",
            "SPAWNKIT_MODE_RETURN_BUDGET": "warn",
            "SPAWNKIT_MAX_RETRIES": "0",
        },
    )
    assert (cfg.mode("CM001"), cfg.mode("CM005"), cfg.max_retries) == ("warn", "off", 0)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "ignored {path}: not valid JSON"),
        ("[1]", "ignored {path}: expected a JSON object"),
        ('{"version": 2, "mode": "off"}', "ignored {path}: version 2 is not 1"),
        (
            '{"mode": "enforced"}',
            "ignored 'mode' in {path}: 'enforced' is not one of off, warn, enforce",
        ),
        ('{"rules": {"CM042": "off"}}', "ignored rule 'CM042' in {path}: not a rule code or name"),
        (
            '{"rules": ["CM001"]}',
            'ignored \'rules\' in {path}: expected an object like {{"CM001": "enforce"}}',
        ),
        (
            '{"max_retries": 9}',
            "ignored 'max_retries' in {path}: 9 is not a whole number from 0 to 5",
        ),
        (
            '{"max_retries": true}',
            "ignored 'max_retries' in {path}: True is not a whole number from 0 to 5",
        ),
    ],
)
def test_bad_files_are_named(hook, content, problem):
    path = hook.write_config("user", content)
    cfg = load(hook)
    assert cfg.problems == [problem.format(path=path)]
    assert cfg.mode("CM001") == "warn"


def test_bad_environment_is_named(hook):
    cfg = load(
        hook, {"SPAWNKIT_MODE": "loud", "SPAWNKIT_MODE_FOO": "off", "SPAWNKIT_MAX_RETRIES": "many"}
    )
    assert cfg.problems == [
        "ignored SPAWNKIT_MODE: 'loud' is not one of off, warn, enforce",
        "ignored SPAWNKIT_MODE_FOO: not a rule code or name",
        "ignored SPAWNKIT_MAX_RETRIES: 'many' is not a whole number from 0 to 5",
    ]


def test_problems_reach_the_user(hook):
    from .conftest import payload

    path = hook.write_config("project", '{"mode": "strict"}')
    answer = hook(payload("SubagentStart"))
    problem = f"ignored 'mode' in {path}: 'strict' is not one of off, warn, enforce"
    assert answer == {"systemMessage": f"spawnkit: {problem}"}


@pytest.mark.parametrize("value", ["/x/cfg", " /x/cfg ", "~/alt", "", None])
def test_config_dir_agrees_with_spawnkit_paths(monkeypatch, value):
    from spawnkit.hosts import paths

    env = {"HOME": os.path.expanduser("~")}
    if value is None:
        monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    else:
        monkeypatch.setenv("CLAUDE_CONFIG_DIR", value)
        env["CLAUDE_CONFIG_DIR"] = value
    assert CLAUDE.config_dir(env) == str(paths.claude_config_dir())


def test_config_dir_and_project_dir():
    assert CLAUDE.config_dir({"CLAUDE_CONFIG_DIR": "/x/cfg", "HOME": "/h"}) == "/x/cfg"
    assert CLAUDE.config_dir({"HOME": "/h"}) == "/h/.claude"
    assert CLAUDE.project_dir({"CLAUDE_PROJECT_DIR": "/p"}, "/cwd") == "/p"
    assert CLAUDE.project_dir({}, "/cwd") == "/cwd"


def test_codex_config_dir_and_project_dir():
    assert CODEX.config_dir({"CODEX_HOME": "/x/codex", "HOME": "/h"}) == "/x/codex"
    assert CODEX.config_dir({"CODEX_HOME": " ", "HOME": "/h"}) == "/h/.codex"
    assert CODEX.config_dir({"HOME": "/h", "CLAUDE_CONFIG_DIR": "/c"}) == "/h/.codex"
    # Codex gives hooks no project variable: a CLAUDE_PROJECT_DIR left in the env must not count.
    assert CODEX.project_dir({"CLAUDE_PROJECT_DIR": "/p"}, "/cwd") == "/cwd"
