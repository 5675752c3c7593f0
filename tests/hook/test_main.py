"""Dispatch and failing open: odd input is ignored, internal errors are logged and reported."""

from __future__ import annotations

import json

import pytest

from spawnkit.hook import log, main

from .conftest import payload


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"   ",
        b"not json",
        b'{"hook_event_name": "SubagentStop"',
        b"[1, 2]",
        b'"PreToolUse"',
        b"\xff\xfe\x00garbage",
        b"[" * 100_000,
    ],
)
def test_odd_stdin_is_ignored(hook, data):
    assert hook.raw(data) == ""
    log = hook.state_dir / "hook.log"
    if data.strip():
        assert f"ignored {len(data)} bytes on stdin: not one JSON object" in log.read_text()
    else:
        assert not log.exists()
    log = hook.state_dir / "hook.log"
    if data.strip():
        assert f"ignored {len(data)} bytes on stdin: not one JSON object" in log.read_text()
    else:
        assert not log.exists()


@pytest.mark.parametrize(
    "name",
    [
        "SessionStart",
        "SessionEnd",
        "Stop",
        "UserPromptSubmit",
        "PostToolUse_Read",
        "PreToolUse_Write",
        "PreToolUse_Bash_inside_subagent",
        "MessageDisplay",
    ],
)
def test_events_and_tools_spawnkit_does_not_watch_are_silent(hook, name):
    assert hook(payload(name), {"SPAWNKIT_MODE": "enforce"}) is None


def test_oversized_stdin_is_ignored(hook):
    data = json.dumps(payload("SubagentStop_foreground")).encode()
    assert hook.raw(data + b" " * main.MAX_STDIN) == ""


def test_internal_error_fails_open_with_one_line_and_a_log(hook, monkeypatch):
    def broken(call, answer):
        raise KeyError("boom")

    monkeypatch.setattr("spawnkit.hook.return_budget.on_stop", broken)
    answer = hook(payload("SubagentStop_foreground"))
    log_file = hook.state_dir / "hook.log"
    assert answer == {
        "systemMessage": (
            f"spawnkit-hook: internal error on SubagentStop (KeyError); the tool call went ahead "
            f"unchanged. Details: {log_file}"
        )
    }
    text = log_file.read_text()
    assert "internal error on SubagentStop" in text and "KeyError: 'boom'" in text


def test_log_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(log, "MAX_BYTES", 1000)
    for n in range(100):
        log.append(str(tmp_path), f"entry {n} " + "x" * 50)
    assert (tmp_path / "hook.log").stat().st_size <= 1000 + 200
    assert (tmp_path / "hook.log.1").stat().st_size <= 1000 + 200
    assert "entry 99" in (tmp_path / "hook.log").read_text()


def test_log_never_raises(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    log.append(str(blocker / "sub"), "cannot be written")  # parent is a file: silently skipped


def test_a_cwd_with_a_nul_byte_falls_back_to_the_process_cwd(hook):
    data = payload("SubagentStart") | {"cwd": "/tmp/a\0b"}
    env = {"CLAUDE_PROJECT_DIR": ""}
    assert hook.raw(json.dumps(data).encode(), env) == ""
