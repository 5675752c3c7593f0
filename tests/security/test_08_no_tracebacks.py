"""Reproduction 8: tracebacks instead of one-line errors.

settings.json nested 600+ levels deep raised RecursionError in install and
uninstall; a settings.json symlink loop raised ELOOP. Now every structured input
has one depth limit (``spawnkit.files.bounded.MAX_DEPTH``, issue 21): a file at the
limit is edited like any other and comes back byte for byte, one level more (or a
100,000 levels, too deep even for the C scanner) ends in one line, exit 2, nothing
written; a symlink loop too. (state.py on a deeply nested file: test_07; deep YAML,
TOML and ``-d`` values: test_15.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spawnkit.files.bounded import MAX_DEPTH
from tests.snapshots import snapshot

from .conftest import one_line_error, spawnkit


def nested(levels: int) -> str:
    """A settings object whose ``a`` holds lists nested so that the file has ``levels``."""
    inner = levels - 1  # the outer object is the first level
    return '{"a": ' + "[" * inner + "]" * inner + "}\n"


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    folder = tmp_path / "claude"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_settings_at_the_depth_limit_are_edited_and_come_back(cfg: Path, verb: str):
    original = nested(MAX_DEPTH)
    (cfg / "settings.json").write_text(original)
    proc = spawnkit(verb, "--yes", "--config-dir", str(cfg))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    if verb == "install":
        proc = spawnkit("uninstall", "--yes", "--config-dir", str(cfg))
        assert proc.returncode == 0, proc.stderr
    assert (cfg / "settings.json").read_text() == original


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 700, 100_000])
@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_settings_nested_beyond_the_limit_are_refused_in_one_line(cfg: Path, verb: str, levels):
    (cfg / "settings.json").write_text(nested(levels))
    before = snapshot(cfg)
    proc = spawnkit(verb, "--yes", "--config-dir", str(cfg))
    assert f"nested more than {MAX_DEPTH} levels deep" in one_line_error(proc)
    assert snapshot(cfg) == before


@pytest.mark.parametrize("verb", ["install", "uninstall", "doctor"])
def test_a_settings_symlink_loop_is_refused_in_one_line(cfg: Path, verb: str):
    (cfg / "settings.json").symlink_to(cfg / "settings.json")
    before = snapshot(cfg)
    proc = (
        spawnkit(verb, "--yes", "--config-dir", str(cfg))
        if verb != "doctor"
        else spawnkit(verb, "--config-dir", str(cfg))
    )
    assert "Traceback" not in proc.stderr
    if verb == "doctor":
        assert proc.returncode == 1 and "symlink loop" in proc.stdout
    else:
        assert "symlink loop" in one_line_error(proc)
    assert snapshot(cfg) == before


def test_a_deeply_nested_install_record_is_refused_in_one_line(cfg: Path):
    (cfg / ".spawnkit").mkdir()
    (cfg / ".spawnkit" / "install.json").write_text("[" * 100_000 + "]" * 100_000)
    proc = spawnkit("uninstall", "--yes", "--config-dir", str(cfg))
    assert "damaged" in one_line_error(proc)
