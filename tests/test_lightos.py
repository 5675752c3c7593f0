"""The hook path's os-free helpers agree with os.path and os on POSIX."""

from __future__ import annotations

import os

import pytest

from spawnkit.hook import lightos


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


def test_makedirs(tmp_path):
    deep = tmp_path / "a" / "b" / "c"
    lightos.makedirs(str(deep))
    lightos.makedirs(str(deep))  # exists: fine
    assert deep.is_dir()
    (tmp_path / "file").write_text("")
    with pytest.raises(OSError):
        lightos.makedirs(str(tmp_path / "file" / "sub"))


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
