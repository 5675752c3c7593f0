"""The hook path's os-free helpers agree with os.path and os on POSIX."""

from __future__ import annotations

import os

import pytest

from spawnkit.base import lightos


@pytest.mark.parametrize(
    "path", ["/a/b/c", "/a/b/", "/", "a", "", "//x", "/a//b//", "a/b", "/a/b.md"]
)
def test_dirname(path):
    assert lightos.dirname(path) == os.path.dirname(path)


@pytest.mark.parametrize(
    "parts", [("/a", "b"), ("/a/", "b"), ("a", "/b", "c"), ("", "x"), ("/a", "b/", "c"), ("/",)]
)
def test_join(parts):
    assert lightos.join(*parts) == os.path.join(*parts)


def test_environ_and_cwd():
    assert lightos.environ() == dict(os.environ)
    assert lightos.getcwd() == os.getcwd()


def test_is_file(tmp_path):
    (tmp_path / "f").write_text("x")
    assert lightos.is_file(str(tmp_path / "f"))
    assert not lightos.is_file(str(tmp_path))
    assert not lightos.is_file(str(tmp_path / "missing"))
    assert not lightos.is_file("bad\0path")


def test_open_folder_creates_folders_and_refuses_a_planted_symlink(tmp_path):
    fd = lightos.open_folder(str(tmp_path), ["a", "b", "c"])
    os.close(fd)
    fd = lightos.open_folder(str(tmp_path), ["a", "b", "c"])  # exists: fine
    os.close(fd)
    assert (tmp_path / "a" / "b" / "c").is_dir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "a" / "link").symlink_to(elsewhere)
    with pytest.raises(OSError):
        lightos.open_folder(str(tmp_path), ["a", "link", "x"])
    assert not (elsewhere / "x").exists()
    (tmp_path / "file").write_text("")
    with pytest.raises(OSError):
        lightos.open_folder(str(tmp_path), ["file", "sub"])
    for bad in ("..", "", "x/y"):
        with pytest.raises(OSError):
            lightos.open_folder(str(tmp_path), [bad])


def test_open_plain_refuses_symlinks_hard_links_and_fifos(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep")
    folder = lightos.open_folder(str(tmp_path), ["d"])
    try:
        (tmp_path / "d" / "sym").symlink_to(victim)
        os.link(victim, tmp_path / "d" / "hard")
        os.mkfifo(tmp_path / "d" / "fifo")
        for name in ("sym", "hard", "fifo"):
            with pytest.raises(OSError):
                lightos.open_plain(folder, name, os.O_WRONLY | os.O_CREAT)
        fd = lightos.open_plain(folder, "new", os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        lightos.write_all(fd, b"ok")
        os.close(fd)
    finally:
        os.close(folder)
    assert victim.read_text() == "keep"
    assert (tmp_path / "d" / "new").read_bytes() == b"ok"


def test_read_regular_refuses_fifos_devices_and_big_files_without_blocking(tmp_path):
    (tmp_path / "f").write_bytes(b"12345")
    assert lightos.read_regular(str(tmp_path / "f"), 5) == b"12345"
    with pytest.raises(lightos.FileTooLarge):
        lightos.read_regular(str(tmp_path / "f"), 4)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(lightos.NotRegularFile):
        lightos.read_regular(str(tmp_path / "fifo"), 100)  # would block forever if opened plainly
    with pytest.raises(lightos.NotRegularFile):
        lightos.read_regular("/dev/zero", 100)
    with pytest.raises(lightos.NotRegularFile):
        lightos.read_regular(str(tmp_path), 100)
    (tmp_path / "link").symlink_to(tmp_path / "f")
    assert lightos.read_regular(str(tmp_path / "link"), 5) == b"12345"
    with pytest.raises(OSError):
        lightos.read_regular(str(tmp_path / "link"), 5, follow=False)


@pytest.mark.parametrize(
    ("path", "base"),
    [
        ("/a/b", "/x"),
        ("b/c.md", "/x/y"),
        ("../c", "/x/y"),
        ("./c", "/x"),
        ("/a//b/./c/", "/x"),
        ("~/notes", "/x"),
        ("~", "/x"),
        ("", "/x/y/"),
    ],
)
def test_absolute(path, base):
    expected = os.path.normpath(os.path.join(base, os.path.expanduser(path)))
    assert lightos.absolute(path, base) == expected
