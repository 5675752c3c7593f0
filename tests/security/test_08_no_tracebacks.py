"""Reproduction 8: tracebacks instead of one-line errors.

settings.json nested 600+ levels deep raised RecursionError in install and
uninstall; a settings.json symlink loop raised ELOOP. The parser no longer
recurses in Python (such a file is simply edited), a file too deep even for the C
scanner and a symlink loop end in one line, exit 2, nothing written. (state.py
on a deeply nested file: test_07.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.snapshots import snapshot

from .conftest import one_line_error, spawnkit

DEPTH = 700


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    folder = tmp_path / "claude"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_settings_nested_700_levels_are_handled_without_recursion(cfg: Path, verb: str):
    """What broke the old parser is valid JSON: it is now edited like any other file."""
    original = '{"a": ' + "[" * DEPTH + "]" * DEPTH + "}\n"
    (cfg / "settings.json").write_text(original)
    proc = spawnkit(verb, "--yes", "--config-dir", str(cfg))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    if verb == "install":
        proc = spawnkit("uninstall", "--yes", "--config-dir", str(cfg))
        assert proc.returncode == 0, proc.stderr
    assert (cfg / "settings.json").read_text() == original


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_settings_nested_too_deeply_for_any_parser_are_refused_in_one_line(cfg: Path, verb: str):
    (cfg / "settings.json").write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    before = snapshot(cfg)
    proc = spawnkit(verb, "--yes", "--config-dir", str(cfg))
    assert "nested too deeply" in one_line_error(proc)
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
