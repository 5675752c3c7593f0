"""Issue 21, item 7: an empty Codex ``[hooks]`` table, and what uninstall left behind.

A valid ``config.toml`` with an empty ``[hooks]`` table was refused ("editing the trust
entries would change other settings"), with no fix; uninstall after an install that created
``~/.codex`` kept a backup of the config.toml spawnkit itself had created (so the folder
stayed); Claude Code's uninstall left the empty config folder install had created. Now the
empty table is as good as none (and comes back byte for byte), a file spawnkit created and
takes away needs no backup, and the folders install created go once they are empty.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import run_cli

CONFIGS = [
    "[hooks]\n",
    'model = "gpt-5"\n\n[hooks]\n',
    "[hooks]\n\n[hooks.state]\n",
    '[hooks]\r\n[projects."/x"]\r\ntrust_level = "trusted"\r\n',
]


@pytest.mark.parametrize("text", CONFIGS)
def test_an_empty_hooks_table_is_accepted_and_comes_back(tmp_path: Path, text: str):
    codex = tmp_path / "codex"
    codex.mkdir()
    config = codex / "config.toml"
    config.write_bytes(text.encode())
    common = ("--host", "codex", "--config-dir", str(codex), "--yes")
    installed = run_cli("install", *common)
    assert installed.exit_code == 0, installed.output
    assert b"trusted_hash" in config.read_bytes()
    removed = run_cli("uninstall", *common)
    assert removed.exit_code == 0, removed.output
    assert config.read_bytes() == text.encode()


@pytest.mark.parametrize("host, folder", [("codex", ".codex"), ("claude-code", ".claude")])
def test_uninstall_removes_the_folder_install_created(host: str, folder: str):
    home = Path(os.environ["HOME"])
    assert not (home / folder).exists()
    assert run_cli("install", "--host", host, "--yes").exit_code == 0
    assert (home / folder).is_dir()
    removed = run_cli("uninstall", "--host", host, "--yes")
    assert removed.exit_code == 0, removed.output
    assert "backup" not in removed.output
    assert not (home / folder).exists(), sorted(p.name for p in (home / folder).rglob("*"))
