"""Issue 21, item 6: empty containers did not survive install + uninstall byte for byte.

``{"hooks": { }}`` and ``{"hooks":{"SubagentStop":[ ]}}``, in Claude Code's settings.json and
in Codex's hooks.json, came back as ``{"hooks": {}}`` / ``[]``: the blank inside an empty
container was lost when install filled it. The install record now keeps that blank for each
container it fills, and uninstall gives it back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import run_cli

TEXTS = [
    '{"hooks": { }}',
    '{"hooks":{"SubagentStop":[ ]}}',
    "{ }",
    '{\n  "hooks": {\n  }\n}\n',
    '{"hooks":{"SubagentStop":[\r\n  ],\r\n "PreToolUse": [\t]}}\r\n',
    '{"env": {}, "hooks": {"Stop": [ ]}}',
]
HOSTS = {"claude-code": "settings.json", "codex": "hooks.json"}


@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.parametrize("text", TEXTS, ids=[json.dumps(t)[:40] for t in TEXTS])
def test_install_then_uninstall_gives_back_every_byte(tmp_path: Path, host: str, text: str):
    config = tmp_path / host
    config.mkdir()
    path = config / HOSTS[host]
    path.write_bytes(text.encode())
    common = ("--host", host, "--config-dir", str(config), "--yes")
    installed = run_cli("install", *common)
    assert installed.exit_code == 0, installed.output
    assert path.read_bytes() != text.encode()  # the hooks went in
    again = run_cli("install", *common)  # a second install keeps what the first recorded
    assert again.exit_code == 0, again.output
    removed = run_cli("uninstall", *common)
    assert removed.exit_code == 0, removed.output
    assert path.read_bytes() == text.encode()
