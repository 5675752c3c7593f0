"""This machine's install id: the cases mutation testing (``mutmut run``) found unchecked.

The id decides whether a journal or record in a project is this machine's own; a wrong id
file must read as "none" (never crash), a folder that already exists is no obstacle, and a
link planted where the id goes is never written through.
"""

from __future__ import annotations

import os

import pytest

from spawnkit.errors import SpawnkitError
from spawnkit.install import manifest as mf


def test_an_id_file_that_is_not_ascii_reads_as_no_id():
    path = mf.install_id_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff" * 32 + b"\n")
    assert mf.install_id() is None


@pytest.mark.parametrize(("size", "read"), [(256, True), (257, False)])
def test_an_id_file_is_read_up_to_256_bytes(size, read):
    path = mf.install_id_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"a" * 32 + b" " * (size - 32))  # an id, padded to the limit or past it
    assert mf.install_id() == ("a" * 32 if read else None)


def test_the_id_is_made_in_a_state_folder_that_already_exists():
    mf.install_id_path().parent.mkdir(parents=True)
    made = mf.ensure_install_id()
    assert len(made) == 32 and mf.install_id() == made


def test_a_link_planted_where_the_id_goes_is_not_written_through(tmp_path):
    path = mf.install_id_path()
    path.parent.mkdir(parents=True)
    target = tmp_path / "elsewhere"
    path.symlink_to(target)
    with pytest.raises(SpawnkitError, match="is not an install id spawnkit wrote"):
        mf.ensure_install_id()
    assert not os.path.lexists(target)


def test_an_empty_id_file_left_by_a_killed_write_is_replaced():
    path = mf.install_id_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")  # what a kill between the exclusive open and the write used to leave
    made = mf.ensure_install_id()
    assert len(made) == 32 and mf.install_id() == made


def test_an_id_file_with_other_text_is_still_refused():
    path = mf.install_id_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not an id\n")
    with pytest.raises(SpawnkitError, match="is not an install id spawnkit wrote"):
        mf.ensure_install_id()
    assert path.read_bytes() == b"not an id\n"


def test_the_id_file_appears_whole_or_not_at_all(monkeypatch):
    """A kill after the id is written but before it is linked leaves no id file, no temp file
    an install could trip on, and the next run makes the id."""
    path = mf.install_id_path()
    path.parent.mkdir(parents=True)

    def killed(src, dst):
        assert os.path.getsize(src) == 33  # the whole id and its newline are written first
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "link", killed)
    with pytest.raises(KeyboardInterrupt):
        mf.ensure_install_id()
    assert not os.path.lexists(path)
    assert os.listdir(path.parent) == []
    monkeypatch.undo()
    assert mf.ensure_install_id() == mf.install_id()


def test_a_temp_file_a_killed_id_write_left_is_swept_by_the_next_install_run():
    from spawnkit.install import journal

    path = mf.install_id_path()
    path.parent.mkdir(parents=True)
    left = path.parent / f".install-id{journal.TEMP_TAG}dead.tmp"
    left.write_bytes(b"0" * 32 + b"\n")
    journal._sweep(path.parent.parent, set())
    assert not left.exists()
