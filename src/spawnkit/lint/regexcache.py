"""Compiled regular expressions kept between runs, as ``.pyc`` files keep bytecode.

A one-file ``spawnkit lint`` (pre-commit, the lint-on-write hook) spends about as long
compiling the linter's patterns as linting: Python's ``re`` parses and compiles every
pattern afresh in each process, in pure Python. Compiling ends in ``_sre.compile`` with a
list of integers (the regex program); this module stores that list, per pattern and flags,
in a cache file and rebuilds the pattern from it on later runs, skipping the parse.

The program format belongs to the interpreter: the file's name carries the Python version
and ``_sre.MAGIC``, and ``_sre.compile`` validates every program it is given. Anything
unexpected — no cache folder, a damaged or foreign file, an interpreter without these
internals — falls back to ``re.compile``; a run never fails because of the cache. Standard
library only: the hook imports it (and only reads the file; ``spawnkit lint`` writes it after
a run that linted files). ``SPAWNKIT_REGEX_CACHE=0`` turns it off.
"""

from __future__ import annotations

import os
import re
import sys

try:  # CPython's regex compiler: re._parser / re._compiler since 3.11, sre_* before
    import _sre
    from re import _compiler as _sre_compiler  # type: ignore[attr-defined]
    from re import _parser as _sre_parser
except ImportError:  # pragma: no cover - Python 3.10 or another implementation
    try:
        import _sre
        import sre_compile as _sre_compiler  # type: ignore[no-redef]
        import sre_parse as _sre_parser  # type: ignore[no-redef]
    except ImportError:
        _sre = None  # type: ignore[assignment]

_MAX_BYTES = 4 * 1024 * 1024  # a larger file is not ours: ignored
_MAX_ENTRIES = 2000

_programs: dict[str, tuple] | None = None  # key -> (flags, code, groups, groupindex, indexgroup)
_dirty = False


def _enabled() -> bool:
    return _sre is not None and os.environ.get("SPAWNKIT_REGEX_CACHE", "1") != "0"


def cache_file() -> str | None:
    """Where the programs are kept (None when no cache folder can be named)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not base or base.startswith("~"):
        return None
    tag = f"{sys.implementation.cache_tag}-{getattr(_sre, 'MAGIC', 0)}"
    return os.path.join(base, "spawnkit", f"regex-{tag}.marshal")


def compile(source: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 - re's own name
    """``re.compile(source, flags)``, from the cache when it holds the program."""
    if not _enabled():
        return re.compile(source, flags)
    flags = int(flags)  # a RegexFlag prints as its name: the key needs the number
    programs = _load()
    key = f"{flags}:{source}"
    entry = programs.get(key)
    if entry is not None:
        try:
            final, code, groups, groupindex, indexgroup = entry
            if type(code) is list and type(groupindex) is dict and type(indexgroup) is tuple:
                return _sre.compile(source, final, code, groups, groupindex, indexgroup)
        except Exception:  # a program this interpreter does not accept: compile anew
            pass
        programs.pop(key, None)
    try:
        parsed = _sre_parser.parse(source, flags)
        code = [int(op) for op in _sre_compiler._code(parsed, flags)]  # opcodes are int subclasses
        groupindex = dict(parsed.state.groupdict)
        indexgroup = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        final = int(flags | parsed.state.flags)
        entry = (final, code, parsed.state.groups - 1, groupindex, tuple(indexgroup))
        pattern = _sre.compile(source, *entry)
    except Exception:
        return re.compile(source, flags)
    _remember(key, entry)
    return pattern


def _load() -> dict[str, tuple]:
    global _programs
    if _programs is None:
        _programs = _read(cache_file())
    return _programs


def _read(path: str | None) -> dict[str, tuple]:
    if not path:
        return {}
    import marshal

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return {}
    try:
        data = os.read(fd, _MAX_BYTES + 1)
    except OSError:
        return {}
    finally:
        os.close(fd)
    if len(data) > _MAX_BYTES:
        return {}
    try:
        loaded = marshal.loads(data)
    except Exception:
        return {}
    # each entry is checked when used: _sre.compile refuses a malformed program
    return loaded if isinstance(loaded, dict) else {}


def _remember(key: str, entry: tuple) -> None:
    global _dirty
    assert _programs is not None
    _programs[key] = entry
    _dirty = True


def save() -> None:
    """Write the programs learnt in this run (atomically; any failure is ignored).

    Called by ``spawnkit lint`` once it has linted files — never on a refused command, and
    never by the hook, which only reads the file.
    """
    global _dirty
    path = cache_file()
    if not _dirty or not path or _programs is None:
        return
    _dirty = False
    import marshal

    try:
        folder = os.path.dirname(path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        # this run's programs first, then what other runs learnt meanwhile, up to the bound
        merged = dict(_programs)
        for key, entry in _read(path).items():
            if len(merged) >= _MAX_ENTRIES:
                break
            merged.setdefault(key, entry)
        data = marshal.dumps(dict(list(merged.items())[:_MAX_ENTRIES]))
        tmp = f"{path}.{os.getpid()}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(tmp, flags, 0o600)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except Exception:
        pass
