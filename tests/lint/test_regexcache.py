"""Compiled patterns kept between runs (spawnkit.lint.regexcache) behave exactly as
re.compile's, survive a damaged or foreign cache file, and can be turned off."""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
from pathlib import Path

import pytest

import spawnkit.lint
import spawnkit.lint.rules
from spawnkit.lint import regexcache
from spawnkit.lint.patterns import Folded, Gated, Lazy

CORPUS = Path(__file__).parent / "corpus"


def _linter_patterns() -> set[tuple[str, int]]:
    """(source, flags) of every pattern the linter's modules define."""
    found: set[tuple[str, int]] = set()
    packages = [spawnkit.lint, spawnkit.lint.rules]
    for package in packages:
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for value in vars(module).values():
                if isinstance(value, Gated):
                    value = value.pattern
                if isinstance(value, Folded):
                    found.add((value.original.source, value.original.flags))
                    value = value.lowered
                if isinstance(value, Lazy):
                    found.add((value.source, value.flags))
                elif isinstance(value, re.Pattern):
                    found.add((value.pattern, value.flags & ~re.UNICODE))
    return found


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """The cache module with no programs loaded, its file under ``tmp_path``."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("SPAWNKIT_REGEX_CACHE", raising=False)
    monkeypatch.setattr(regexcache, "_programs", None)
    monkeypatch.setattr(regexcache, "_dirty", False)
    return tmp_path


def _same(a: re.Pattern[str], b: re.Pattern[str]) -> None:
    assert (a.pattern, a.flags, a.groups, a.groupindex) == (
        b.pattern,
        b.flags,
        b.groups,
        b.groupindex,
    )


def test_every_linter_pattern_rebuilt_from_the_cache_matches_like_re_compile(fresh):
    patterns = sorted(_linter_patterns())
    assert len(patterns) > 100
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.rglob("*.md"))][:40]
    for source, flags in patterns:
        regexcache.compile(source, flags)  # learnt
    regexcache.save()
    assert regexcache.cache_file() and os.path.exists(regexcache.cache_file())
    regexcache._programs, regexcache._dirty = None, False
    for source, flags in patterns:
        cached, plain = regexcache.compile(source, flags), re.compile(source, flags)
        _same(cached, plain)
        for text in texts:
            subject = text.lower() if not flags & re.IGNORECASE else text
            assert [m.span() for m in cached.finditer(subject)] == [
                m.span() for m in plain.finditer(subject)
            ], source
    assert not regexcache._dirty, "every pattern came from the file"


def test_a_damaged_or_foreign_cache_file_is_ignored(fresh):
    path = Path(regexcache.cache_file())
    path.parent.mkdir(parents=True)
    import marshal

    bad_program = (32, [999999, 1, 2], 0, {}, ())
    for content in (
        b"\x00garbage",
        marshal.dumps([1, 2, 3]),
        marshal.dumps({"0:a+": "not an entry", "0:b+": bad_program}),
    ):
        path.write_bytes(content)
        regexcache._programs, regexcache._dirty = None, False
        for source in ("a+", "b+", r"\bc(\d)"):
            _same(regexcache.compile(source), re.compile(source))
            assert regexcache.compile(source).findall("aab c1 bb") == re.findall(
                source, "aab c1 bb"
            )
    regexcache.save()  # the damaged entries are replaced by sound ones
    regexcache._programs, regexcache._dirty = None, False
    _same(regexcache.compile("b+"), re.compile("b+"))
    assert not regexcache._dirty


def test_a_linked_cache_file_is_not_read(fresh, tmp_path):
    target = tmp_path / "elsewhere.marshal"
    import marshal

    target.write_bytes(marshal.dumps({"0:x": (32, [1], 0, {}, ())}))
    path = Path(regexcache.cache_file())
    path.parent.mkdir(parents=True)
    path.symlink_to(target)
    assert regexcache._read(str(path)) == {}


def test_turned_off_it_writes_nothing(fresh, monkeypatch):
    monkeypatch.setenv("SPAWNKIT_REGEX_CACHE", "0")
    _same(regexcache.compile(r"x(y)"), re.compile(r"x(y)"))
    regexcache.save()
    assert not any(fresh.rglob("*.marshal"))


def test_spawnkit_lint_writes_the_cache_only_after_linting(tmp_path):
    import subprocess
    import sys

    cache = tmp_path / "cache"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("SPAWNKIT_REGEX_CACHE", None)
    lint = [sys.executable, "-m", "spawnkit", "lint"]
    refused = subprocess.run([*lint, str(tmp_path / "missing")], env=env, capture_output=True)
    assert refused.returncode == 2 and not cache.exists()
    skill = CORPUS / "skills" / "dep-audit" / "SKILL.md"
    done = subprocess.run([*lint, str(skill)], env=env, capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    (written,) = cache.glob("spawnkit/regex-*.marshal")
    again = subprocess.run([*lint, str(skill)], env=env, capture_output=True, text=True)
    assert again.stdout == done.stdout and written.exists()
