"""Reproduction 9: a dangling settings.json symlink.

install created the link's missing target folder (wherever it pointed) and
uninstall deleted the user's symlink. Both now refuse with one line and touch
nothing: the link stays, nothing is created at its target.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.snapshots import snapshot

from .conftest import one_line_error, spawnkit


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_a_dangling_settings_link_is_refused_and_kept(tmp_path: Path, verb: str):
    cfg = tmp_path / "claude"
    cfg.mkdir()
    target = tmp_path / "dotfiles" / "not-yet" / "settings.json"
    (cfg / "settings.json").symlink_to(target)
    before = snapshot(tmp_path)
    proc = spawnkit(verb, "--yes", "--config-dir", str(cfg))
    assert "does not exist" in one_line_error(proc)
    assert (cfg / "settings.json").is_symlink()
    assert not (tmp_path / "dotfiles").exists()
    assert snapshot(tmp_path) == before
