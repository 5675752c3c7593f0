"""The session state file read back: what mutation testing (``mutmut run``) found unchecked.

A state file larger than one read, one with bytes that are not ASCII, and one holding JSON
that is not an object: each is read the way the hook means (whole, or started over), never a
crash that would turn into an internal error.
"""

from __future__ import annotations

import json

import pytest

from spawnkit.hook.store import SessionState

NOW = 1_800_000_000.0


def _state_file(tmp_path, raw: bytes):
    sessions = tmp_path / "state" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "s1.json").write_bytes(raw)
    return sessions / "s1.json"


def test_a_state_larger_than_one_read_comes_back_whole(tmp_path):
    data = {"version": 1, "created": NOW, "notes": "x" * 200_000}
    _state_file(tmp_path, json.dumps(data).encode())
    with SessionState(str(tmp_path / "state"), "s1", NOW) as read:
        assert read == data


@pytest.mark.parametrize("raw", [b'{"version": 1, "note": "\xff\xfe"}', b"[1, 2]", b"{not json"])
def test_a_state_the_hook_cannot_use_starts_over(tmp_path, raw):
    path = _state_file(tmp_path, raw)
    with SessionState(str(tmp_path / "state"), "s1", NOW) as read:
        if raw.startswith(b'{"version"'):
            assert read["version"] == 1  # read, the odd bytes replaced
        else:
            assert read == {"version": 1, "created": NOW}
        read["running"] = {}
    assert json.loads(path.read_text())["running"] == {}
