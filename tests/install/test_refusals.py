"""Refused installs write nothing: bad JSON, wrong shapes, read-only files and folders, failures."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from spawnkit.errors import SpawnkitError
from spawnkit.files import atomic
from spawnkit.install import changes
from spawnkit.install.install import plan_install, resolve_target
from spawnkit.standard import resources

from .conftest import run_cli, snapshot

MALFORMED = {
    "trailing comma": b'{\n  "model": "opus",\n}\n',
    "comment": b'{\n  // my settings\n  "model": "opus"\n}\n',
    "truncated": b'{\n  "hooks": {\n    "PreToolUse": [\n',
    "single quotes": b"{'model': 'opus'}",
    "NaN": b'{"cleanupPeriodDays": NaN}',
    "two documents": b'{"a": 1}\n{"b": 2}\n',
}

WRONG_SHAPE = {
    "a list": (b"[]\n", "must hold a JSON object"),
    "a string": (b'"hello"\n', "must hold a JSON object"),
    "hooks is a list": (b'{"hooks": []}\n', '"hooks" must be an object'),
    "hooks is null": (b'{"hooks": null}\n', '"hooks" must be an object'),
    "event is an object": (
        b'{"hooks": {"PreToolUse": {"matcher": "Bash"}}}\n',
        "hooks.PreToolUse must be a list",
    ),
    "hooks twice": (b'{"hooks": {}, "model": "x", "hooks": {}}\n', "more than once"),
    "not utf-8": (b'{"model": "caf\xe9"}\n', "not UTF-8"),
}


def _refused(cfg: Path, *args: str) -> str:
    before = snapshot(cfg.parent)
    result = run_cli("install", "--config-dir", str(cfg), *args)
    assert result.exit_code == 2, result.output
    assert snapshot(cfg.parent) == before  # not a byte, not a folder, not a backup
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("spawnkit: error: "), result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""  # no plan is shown for a change that cannot happen
    return lines[0]


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_json_is_refused_and_left_untouched(cfg: Path, name: str):
    (cfg / "settings.json").write_bytes(MALFORMED[name])
    message = _refused(cfg)
    assert "settings.json is not valid JSON" in message
    assert "correct the JSON there, or move the file aside" in message


@pytest.mark.parametrize("name", list(WRONG_SHAPE))
def test_wrong_shapes_are_refused_with_the_reason(cfg: Path, name: str):
    data, reason = WRONG_SHAPE[name]
    (cfg / "settings.json").write_bytes(data)
    assert reason in _refused(cfg)


def test_read_only_settings_file_is_refused(cfg: Path):
    settings = cfg / "settings.json"
    settings.write_text('{"model": "opus"}\n')
    settings.chmod(0o444)
    message = _refused(cfg)
    assert "read-only" in message and "nothing was changed" in message


def test_read_only_config_folder_is_refused(cfg: Path):
    (cfg / "settings.json").write_text('{"model": "opus"}\n')
    cfg.chmod(0o555)
    try:
        message = _refused(cfg)
    finally:
        cfg.chmod(0o755)
    assert f"folder {cfg} is read-only" in message


def test_read_only_folder_for_the_standard_is_refused_before_settings_change(cfg: Path):
    (cfg / "settings.json").write_text('{"model": "opus"}\n')
    (cfg / "standards").mkdir()
    (cfg / "standards").chmod(0o555)
    try:
        message = _refused(cfg)
    finally:
        (cfg / "standards").chmod(0o755)
    assert "standards is read-only" in message


def test_a_write_failing_midway_undoes_everything_already_done(cfg: Path, monkeypatch):
    original = b'{\n  "model": "opus"\n}\n'
    (cfg / "settings.json").write_bytes(original)
    before = snapshot(cfg)
    real = atomic.atomic_write
    calls = []

    def flaky(path, data, mode=None, **kw):
        calls.append(Path(path).name)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(path))
        return real(path, data, mode, **kw)

    monkeypatch.setattr(changes, "atomic_write", flaky)
    result = run_cli("install", "--config-dir", str(cfg))
    assert result.exit_code == 2
    assert "every change already made was undone" in result.stderr
    # Rolled back from the journal: the original bytes are back, so the backup taken
    # before the change went with the rest; the folder is exactly as it was.
    assert snapshot(cfg) == before


def test_a_dry_run_writes_nothing_and_creates_no_folder(tmp_path: Path):
    cfg = tmp_path / "fresh" / ".claude"
    result = run_cli("install", "--config-dir", str(cfg), "--dry-run")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "fresh").exists()
    # new files are listed with their size, not spelled out as a diff
    assert "+++" not in result.stdout and "\n+" not in result.stdout
    size = len(resources.standard_doc_path().read_bytes())
    assert re.search(
        rf"create\s+standards/CONTEXT_MANAGEMENT.md\s+context-management standard \({size:,} bytes\)",
        result.stdout,
    )
    assert "dry run: 5 file(s) would change; nothing was written." in result.stdout


def test_a_dry_run_on_an_existing_file_shows_a_diff_and_changes_nothing(cfg: Path):
    (cfg / "settings.json").write_text('{\n  "model": "opus"\n}\n')
    before = snapshot(cfg)
    result = run_cli("install", "--config-dir", str(cfg), "--dry-run")
    assert result.exit_code == 0
    assert snapshot(cfg) == before
    assert "--- a/settings.json\n+++ b/settings.json\n" in result.stdout
    assert '-  "model": "opus"\n+  "model": "opus",\n+  "hooks": {' in result.stdout


def test_uninstall_dry_run_changes_nothing(cfg: Path):
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    before = snapshot(cfg)
    result = run_cli("uninstall", "--config-dir", str(cfg), "--dry-run")
    assert result.exit_code == 0
    assert snapshot(cfg) == before
    assert "+++" not in result.stdout  # files that would go are listed, not spelled out
    assert re.search(
        r"remove\s+standards/CONTEXT_MANAGEMENT.md .*\(\d[\d,]* bytes\)", result.stdout
    )


def test_why_not_writable_respects_mode_bits_even_for_root(tmp_path: Path):
    locked = tmp_path / "locked.json"
    locked.write_text("{}")
    locked.chmod(0o444)
    assert atomic.why_not_writable(locked) == f"{locked} is read-only"
    assert atomic.why_not_writable(tmp_path / "new" / "deeper" / "x.json") is None
    assert stat.S_IMODE(os.stat(locked).st_mode) == 0o444


def test_plan_is_computed_without_touching_disk(tmp_path: Path):
    target = resolve_target("user", tmp_path / "nowhere")
    plan = plan_install(target)
    assert {c.action for c in plan.changes} == {"create"}
    assert not (tmp_path / "nowhere").exists()


def test_a_file_changed_after_planning_is_not_overwritten(cfg: Path):
    settings = cfg / "settings.json"
    settings.write_text('{"model": "opus"}\n')
    plan = plan_install(resolve_target("user", cfg))
    settings.write_text('{"model": "haiku"}\n')  # Claude Code saved a setting meanwhile
    before = snapshot(cfg)
    with pytest.raises(SpawnkitError, match="changed while spawnkit was working"):
        changes.apply(plan)
    assert snapshot(cfg) == before
