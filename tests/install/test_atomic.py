"""atomic_write replaces files whole, keeps their mode, writes through links; backups rotate."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from spawnkit.files import atomic


def test_replaces_content_and_keeps_the_mode(tmp_path: Path):
    target = tmp_path / "f.json"
    target.write_text("old")
    target.chmod(0o640)
    atomic.atomic_write(target, "new ü")
    assert target.read_text(encoding="utf-8") == "new ü"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["f.json"]  # no temp file left


def test_new_files_get_the_requested_or_umask_mode(tmp_path: Path):
    atomic.atomic_write(tmp_path / "secret", b"x", mode=0o600)
    assert stat.S_IMODE((tmp_path / "secret").stat().st_mode) == 0o600


def test_writes_through_a_symlink_and_keeps_the_link(tmp_path: Path):
    real = tmp_path / "real.json"
    real.write_text("a")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    written = atomic.atomic_write(link, "b")
    assert written == real and link.is_symlink() and real.read_text() == "b"


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path, monkeypatch):
    target = tmp_path / "f"
    target.write_text("keep me")

    def boom(src, dst):
        raise OSError(5, "I/O error")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic.atomic_write(target, "lost")
    assert target.read_text() == "keep me" and os.listdir(tmp_path) == ["f"]


def test_backups_sort_by_time_and_rotate(tmp_path: Path):
    target = tmp_path / "settings.json"
    for n in range(7):
        target.write_text(str(n))
        made = atomic.backup(target, stamp=f"20260101-00000{n}-000000", keep=5)
        assert made == tmp_path / f"settings.json.spawnkit-20260101-00000{n}-000000.bak"
    kept = atomic.list_backups(target)
    assert [p.read_text() for p in kept] == ["2", "3", "4", "5", "6"]
    assert atomic.backup(tmp_path / "absent") is None


def test_why_not_writable(tmp_path: Path):
    assert atomic.why_not_writable(tmp_path / "x") is None
    (tmp_path / "d").mkdir()
    assert atomic.why_not_writable(tmp_path / "d") == f"{tmp_path / 'd'} is a directory"
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro").chmod(0o555)
    try:
        assert (
            atomic.why_not_writable(tmp_path / "ro" / "new" / "f")
            == f"folder {tmp_path / 'ro'} is read-only"
        )
    finally:
        (tmp_path / "ro").chmod(0o755)
