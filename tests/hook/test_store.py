"""The locked per-session state file."""

from __future__ import annotations

import json
import os

import pytest

from spawnkit.hook import store
from spawnkit.hook.call import safe_name

from .conftest import payload

NOW = 1_800_000_000.0


def test_round_trip_and_no_write_when_unchanged(tmp_path):
    with store.SessionState(str(tmp_path), "s1", NOW) as data:
        data["running"] = {"a": NOW}
    path = tmp_path / "sessions" / "s1.json"
    assert json.loads(path.read_text()) == {"version": 1, "created": NOW, "running": {"a": NOW}}
    os.utime(path, (1, 1))
    with store.SessionState(str(tmp_path), "s1", NOW + 5) as data:
        assert data["running"] == {"a": NOW}
    assert path.stat().st_mtime == 1  # nothing changed, nothing written


def test_shorter_content_leaves_no_tail(tmp_path):
    with store.SessionState(str(tmp_path), "s1", NOW) as data:
        data["big"] = "x" * 1000
    with store.SessionState(str(tmp_path), "s1", NOW) as data:
        del data["big"]
    assert json.loads((tmp_path / "sessions" / "s1.json").read_text()) == {
        "version": 1,
        "created": NOW,
    }


def test_corrupt_file_starts_over(tmp_path):
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "s1.json").write_text('{"running": {"a"')
    with store.SessionState(str(tmp_path), "s1", NOW) as data:
        assert data == {"version": 1, "created": NOW}


def test_an_error_inside_saves_nothing(tmp_path):
    with pytest.raises(KeyError), store.SessionState(str(tmp_path), "s1", NOW) as data:
        data["half"] = "done"
        raise KeyError("boom")
    assert (tmp_path / "sessions" / "s1.json").read_text() == ""


def test_new_session_sweeps_idle_ones(tmp_path):
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    for name, age in (("old.json", store.KEEP_SECONDS + 60), ("recent.json", 60)):
        (sessions / name).write_text("{}")
        os.utime(sessions / name, (NOW - age, NOW - age))
    with store.SessionState(str(tmp_path), "new", NOW):
        pass
    assert sorted(p.name for p in sessions.iterdir()) == ["new.json", "recent.json"]


def test_lock_timeout(tmp_path, monkeypatch):
    import fcntl

    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.05)
    (tmp_path / "sessions").mkdir()
    fd = os.open(tmp_path / "sessions" / "s1.json", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with pytest.raises(store.LockUnavailable, match="stayed locked for 0.05 s"):
            store.SessionState(str(tmp_path), "s1", NOW).__enter__()
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("12b7445c-960b-42b8-a9f4-c3f9c33f404e", "12b7445c-960b-42b8-a9f4-c3f9c33f404e"),
        ("../../etc/passwd", "_.._etc_passwd-"),
        ("", "unknown-"),
        (None, "unknown-"),
    ],
)
def test_safe_name(raw, expected):
    name = safe_name(raw)
    assert name.startswith(expected) and "/" not in name
    assert name == safe_name(raw)  # stable across processes (no randomised hash)


def test_everything_off_writes_no_state(hook):
    env = {"SPAWNKIT_MODE": "off"}
    for name in (
        "PreToolUse_Agent",
        "SubagentStart",
        "SubagentStop_foreground",
        "PostToolBatch_Agent_fg",
    ):
        assert hook(payload(name), env) is None
    assert not hook.state_dir.exists()
