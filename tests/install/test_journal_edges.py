"""Reading a crash journal back: what mutation testing (``mutmut run``) found unchecked.

A journal is read by whoever runs next, and in a project it may have been planted: the
one-line refusal names the file and the way out; a journal that is not an object, has another
format, is too big or names a backup outside the folder is refused; one written by another
machine is refused even when it carries an id; and what a journal records (a file's mode,
its backup) is used when rolling back.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from spawnkit.errors import SpawnkitError
from spawnkit.install import guard, journal
from spawnkit.install import manifest as mf

REFUSED = (
    "{path} is not a journal this machine's spawnkit wrote; nothing was changed. If no spawnkit"
    " run was interrupted here, delete it, then run the command again"
)


def _config(tmp_path: Path) -> Path:
    cfg = tmp_path / "proj" / ".claude"
    cfg.mkdir(parents=True)
    return cfg


def _write(cfg: Path, data: object) -> Path:
    path = journal.candidates(cfg)[1]
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    return path


def _entry(**kw) -> dict:
    return {"path": "settings.json", "before_sha": None, "before": None, "after": None, **kw}


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"format": 2, "install_id": None, "entries": [], "dirs": []},
        {"install_id": None, "entries": [], "dirs": []},
        b"",
        b"\xff\xfe not ascii",
        {"format": 1, "install_id": None, "entries": [_entry(backup="../../outside.bak")]},
        {"format": 1, "install_id": None, "entries": [_entry(backup="/etc/passwd")]},
    ],
    ids=["list", "format-2", "no-format", "empty", "not-ascii", "backup-up", "backup-absolute"],
)
def test_a_journal_that_is_not_ours_is_refused_in_one_line(tmp_path, data):
    cfg = _config(tmp_path)
    path = _write(cfg, data)
    with pytest.raises(SpawnkitError) as caught:
        journal.recover(cfg, trusted=True)
    assert str(caught.value) == REFUSED.format(path=path)
    assert path.exists()  # left for the user to look at


def test_a_journal_too_big_to_be_ours_is_not_read(tmp_path):
    cfg = _config(tmp_path)
    path = _write(cfg, b" " * (journal.MAX_JOURNAL_BYTES + 1))
    with pytest.raises(SpawnkitError) as caught:
        journal.recover(cfg, trusted=True)
    assert "too large" in str(caught.value) or "bytes" in str(caught.value), caught.value
    assert guard.MAX_FILE_BYTES < journal.MAX_JOURNAL_BYTES and path.exists()


def test_in_a_project_a_journal_with_another_machines_id_is_refused(tmp_path):
    cfg = _config(tmp_path)
    mf.ensure_install_id()
    (cfg / "settings.json").write_text("the user's own")
    gone = mf.sha256(b"the user's own")
    path = _write(cfg, {"format": 1, "install_id": "f" * 32, "entries": [_entry(after=gone)]})
    with pytest.raises(SpawnkitError):
        journal.recover(cfg, trusted=False)
    assert (cfg / "settings.json").read_text() == "the user's own" and path.exists()


def test_rolling_back_a_removed_file_brings_back_its_mode_and_drops_its_backup(tmp_path):
    cfg = _config(tmp_path)
    old = b'{"model": "opus"}'
    backup = cfg / "settings.json.spawnkit-20260101-000000-000000.bak"
    backup.write_bytes(old)
    entry = journal.Entry(
        "settings.json", mf.sha256(old), None, old, 0o640, backup.name
    )  # the dead run removed settings.json after backing it up
    _write(cfg, journal.Journal(cfg, [entry]).to_bytes())
    journal.recover(cfg, trusted=True)
    restored = cfg / "settings.json"
    assert restored.read_bytes() == old
    assert os.stat(restored).st_mode & 0o777 == 0o640
    assert not backup.exists()  # the original is back: its backup would only be a stray copy


def test_a_big_file_comes_back_from_its_backup(tmp_path):
    cfg = _config(tmp_path)
    old = b"x" * (journal.INLINE_LIMIT + 1)
    (cfg / "settings.json").write_bytes(b"what the run wrote")
    backup = cfg / "settings.json.spawnkit-20260101-000000-000000.bak"
    backup.write_bytes(old)
    entry = journal.entry_for(
        cfg, cfg / "settings.json", old, b"what the run wrote", backup
    )  # big, with a backup: not kept in the journal
    assert entry.before is None and entry.backup == backup.name
    _write(cfg, journal.Journal(cfg, [entry]).to_bytes())
    journal.recover(cfg, trusted=True)
    assert (cfg / "settings.json").read_bytes() == old and not backup.exists()


def test_a_backup_that_leaves_the_folder_keeps_the_old_content_in_the_journal(tmp_path):
    cfg = _config(tmp_path)
    old = b"y" * (journal.INLINE_LIMIT + 1)
    (cfg / "settings.json").write_bytes(old)
    backup = cfg / "settings.json.spawnkit-20260101-000000-000000.bak"
    entry = journal.entry_for(cfg, cfg / "settings.json", old, b"new", backup, inline=True)
    assert entry.before == old


def test_a_file_whose_folder_the_run_removed_comes_back_with_its_folder(tmp_path):
    cfg = _config(tmp_path)
    old = b"---\nname: spawnkit\n---\n"
    entry = journal.Entry("skills/spawnkit/SKILL.md", mf.sha256(old), None, old, 0o600)
    _write(cfg, journal.Journal(cfg, [entry]).to_bytes())
    journal.recover(cfg, trusted=True)
    restored = cfg / "skills" / "spawnkit" / "SKILL.md"
    assert restored.read_bytes() == old and os.stat(restored).st_mode & 0o777 == 0o600


def test_when_the_old_content_is_gone_the_file_is_left_and_named(tmp_path):
    cfg = _config(tmp_path)
    (cfg / "settings.json").write_bytes(b"what the run wrote")
    entry = journal.Entry(
        "settings.json",
        mf.sha256(b"old"),
        mf.sha256(b"what the run wrote"),
        None,
        None,
        "settings.json.spawnkit-20260101-000000-000000.bak",  # its backup: gone
    )
    _write(cfg, journal.Journal(cfg, [entry]).to_bytes())
    later = cfg / "later.json"  # a second entry: the roll back goes on after a note
    later.write_bytes(b"created by the run")
    second = journal.Entry("later.json", None, mf.sha256(b"created by the run"))
    _write(cfg, journal.Journal(cfg, [second, entry]).to_bytes())
    notes = journal.recover(cfg, trusted=True)
    assert (cfg / "settings.json").read_bytes() == b"what the run wrote"
    assert f"left {cfg / 'settings.json'} as it is: the copy of its old content is gone" in notes
    assert not later.exists()


def test_in_a_project_a_file_reached_through_a_planted_link_is_left(tmp_path):
    cfg = _config(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.json").write_bytes(b"the user's")
    (cfg / "skills").symlink_to(outside)
    entry = journal.Entry("skills/victim.json", None, mf.sha256(b"the user's"))
    later = cfg / "later.json"
    later.write_bytes(b"created by the run")
    second = journal.Entry("later.json", None, mf.sha256(b"created by the run"))
    _write(cfg, journal.Journal(cfg, [second, entry], install_id=mf.ensure_install_id()).to_bytes())
    notes = journal.recover(cfg, trusted=False)
    assert (outside / "victim.json").read_bytes() == b"the user's"
    assert f"left {cfg / 'skills' / 'victim.json'}: it is not inside {cfg} any more" in notes
    assert not later.exists()
