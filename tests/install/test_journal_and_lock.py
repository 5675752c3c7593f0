"""The pieces behind crash safety: the lock, the journal's roll back, its refusals."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

from spawnkit.errors import SpawnkitError
from spawnkit.files.lock import lock_folder, locked
from spawnkit.install import journal
from spawnkit.install import manifest as mf


def test_the_lock_is_held_on_the_parent_folder_and_times_out_with_one_line(tmp_path: Path):
    cfg = tmp_path / "claude"
    fd = os.open(lock_folder(cfg), os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(SpawnkitError, match="another spawnkit install, uninstall or update"):
            with locked(cfg, timeout=0.2):
                pass
    finally:
        os.close(fd)
    with locked(cfg, timeout=0.2):
        pass
    assert not cfg.exists() and sorted(tmp_path.iterdir()) == []  # nothing created for it


def _journal(cfg: Path, entries: list[journal.Entry], ident: str | None = None) -> Path:
    record = journal.Journal(cfg, entries, install_id=ident)
    path = journal.candidates(cfg)[1]
    path.write_bytes(record.to_bytes())
    return path


def test_recover_undoes_only_what_the_dead_run_wrote(tmp_path: Path):
    cfg = tmp_path / "claude"
    cfg.mkdir()
    (cfg / "a.json").write_text("written by the run")
    (cfg / "b.json").write_text("changed by the user since")
    (cfg / "c.json").write_text("created by the run")
    entries = [
        journal.Entry("a.json", mf.sha256(b"old a"), mf.sha256(b"written by the run"), b"old a"),
        journal.Entry("b.json", mf.sha256(b"old b"), mf.sha256(b"what the run wrote"), b"old b"),
        journal.Entry("c.json", None, mf.sha256(b"created by the run")),
    ]
    path = _journal(cfg, entries)
    notes = journal.recover(cfg, trusted=True)
    assert (cfg / "a.json").read_text() == "old a"
    assert (cfg / "b.json").read_text() == "changed by the user since"
    assert not (cfg / "c.json").exists()
    assert not path.exists()
    assert any("b.json" in n and "changed since" in n for n in notes)


def test_a_journal_in_a_project_needs_this_machines_install_id(tmp_path: Path):
    cfg = tmp_path / "proj" / ".claude"
    cfg.mkdir(parents=True)
    (cfg / "settings.local.json").write_text("the user's own")
    planted = journal.Entry("settings.local.json", None, mf.sha256(b"the user's own"))
    path = _journal(cfg, [planted], ident="0" * 32)
    with pytest.raises(SpawnkitError, match="not a journal this machine's spawnkit wrote"):
        journal.recover(cfg, trusted=False)
    assert (cfg / "settings.local.json").read_text() == "the user's own" and path.exists()
    mine = mf.ensure_install_id()
    _journal(cfg, [planted], ident=mine)
    journal.recover(cfg, trusted=False)
    assert not (cfg / "settings.local.json").exists()  # a journal of ours: its change undone


@pytest.mark.parametrize("rel", ["../x", "/etc/passwd", "a/../../x", "a\\b"])
def test_a_journal_naming_a_path_outside_is_refused(tmp_path: Path, rel: str):
    cfg = tmp_path / "claude"
    cfg.mkdir()
    path = journal.candidates(cfg)[1]
    data = {
        "format": 1,
        "install_id": None,
        "entries": [{"path": rel, "before_sha": None, "before": None, "after": None}],
        "dirs": [],
    }
    path.write_text(json.dumps(data))
    with pytest.raises(SpawnkitError):
        journal.recover(cfg, trusted=True)


def test_stale_temp_files_beside_spawnkits_files_are_swept(tmp_path: Path):
    cfg = tmp_path / "claude"
    cfg.mkdir()
    ours = cfg / ".settings.json.spawnkit-tmp-abcd1234.tmp"
    backup = cfg / ".settings.json.spawnkit-20260101-000000-000000.bak.spawnkit-tmp-x1.tmp"
    other = cfg / ".notes.md.spawnkit-tmp-abcd1234.tmp"  # not a file spawnkit writes there
    for path in (ours, backup, other):
        path.write_text("half")
    journal.recover(cfg, trusted=True)
    assert not ours.exists() and not backup.exists() and other.exists()


def test_the_install_id_is_private_random_and_stable(tmp_path: Path):
    first = mf.ensure_install_id()
    assert first == mf.ensure_install_id() == mf.install_id()
    path = mf.install_id_path()
    assert len(first) == 32 and os.stat(path).st_mode & 0o777 == 0o600
