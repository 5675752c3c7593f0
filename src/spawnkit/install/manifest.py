"""The record of what ``spawnkit install`` put into a Claude Code folder.

Uninstall removes exactly what is listed here: files by content hash (a file
the user changed since is kept), settings containers spawnkit created, and
folders it made. One manifest per config folder; the project and local scopes
share ``.claude/`` and so share it, each with its own settings entry.

A record inside a project arrives with ``git clone`` like any other file there,
so it is checked before anything acts on it: every path must be a plain relative
path inside the folder (otherwise the record is refused and nothing is deleted),
and it names the install id of the machine that wrote it. The id is a random
number kept in the user's own config folder; a record with another id (or none)
came from elsewhere, and its files are never deleted on a hash match alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spawnkit.errors import SpawnkitError
from spawnkit.files import atomic, bounded
from spawnkit.hosts import paths
from spawnkit.install import guard
from spawnkit.install.settings_merge import MISSING

FORMAT = 1
RELATIVE_PATH = Path(".spawnkit") / "install.json"
# The local scope's own record: it must not touch the shared one a project commits.
LOCAL_RELATIVE_PATH = Path(".spawnkit") / "install.local.json"
INSTALL_ID_PATH = Path(".spawnkit") / "install-id"
_ID = re.compile(r"[0-9a-f]{32}")
_SHA = re.compile(r"[0-9a-f]{64}")
# containers install created, and the top-level key it seeded a new file with (Qwen Code's)
_KEY = re.compile(r"hooks(\.[A-Za-z0-9_]{1,64})?|\$version")
MAX_BLANK = 4096  # the blank text kept for an empty container (real ones hold a few spaces)
MISSING_FILE = "missing"  # Original.sha256 of a file that did not exist before install
MAX_BACKUP_NAMES = 64  # installs rotate their backups (5 kept); a longer list is not ours


@dataclass
class SettingsRecord:
    created_keys: list[str] = field(default_factory=list)
    # What the file held before the first install when it held nothing useful:
    # None (it had content), MISSING (no file) or its blank text.
    blank_original: str | None = None
    # Containers that were empty before install filled them, and the blank text between
    # their brackets ("" the root, "hooks", "hooks.<Event>" -> " "), so uninstall leaves
    # ``{ }`` as ``{ }``; only non-empty blanks are kept.
    empty_inner: dict[str, str] = field(default_factory=dict)
    # What the file held before the first install and the backups installs made of it: uninstall
    # removes those backups once it gives the file back exactly as it was (``Original``).
    original: Original = field(default_factory=lambda: Original())


@dataclass
class Original:
    """A file install edits (a hooks file, Codex's config.toml) as it was before the first
    install, and the backups installs made of it since (names, beside the file or, for a
    project, in the user's folder). Once uninstall leaves the file byte for byte as it was,
    those backups hold nothing the file does not: they go with it."""

    sha256: str = ""  # of the bytes before the first install; MISSING_FILE: no file; "": unknown
    backups: list[str] = field(default_factory=list)

    def matches(self, data: bytes | None) -> bool:
        """Whether ``data`` (None: no file) is what the file held before the first install."""
        if not self.sha256:
            return False  # a record from before spawnkit kept this: unknown
        return self.sha256 == (MISSING_FILE if data is None else sha256(data))

    def with_backup(self, folder: Path, name: str | None) -> Original:
        """This record with ``name`` added, and without the backups no longer in ``folder``
        (rotated away, or planned by a run killed before it made them)."""
        names = [n for n in self.backups if os.path.lexists(folder / n)]
        names = names if name is None else [*names, name]
        return Original(self.sha256, list(dict.fromkeys(names)))

    @classmethod
    def of(cls, data: bytes | None) -> Original:
        """The record of a file as it is before the first install."""
        return cls(MISSING_FILE if data is None else sha256(data))

    def to_json(self) -> dict[str, Any]:
        return {"sha256": self.sha256, "backups": list(self.backups)}

    @classmethod
    def from_json(cls, data: Any) -> Original:
        """The record as written; refused (ValueError, _Outside) when a name could lead
        elsewhere. An absent record (older spawnkit) is an unknown original."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ValueError("original")
        sha, names = data.get("sha256", ""), data.get("backups", [])
        if not isinstance(sha, str) or not (sha in ("", MISSING_FILE) or _SHA.fullmatch(sha)):
            raise ValueError("original.sha256")
        if not isinstance(names, list) or len(names) > MAX_BACKUP_NAMES:
            raise ValueError("original.backups")
        for name in names:
            if not isinstance(name, str) or not guard.plain_name(name):
                raise _Outside(str(name))
        return cls(sha, list(names))


@dataclass
class FileRecord:
    sha256: str
    replaced_backup: str | None = None  # name of the backup of a foreign file install replaced
    # The same bytes were already there before install: uninstall leaves the file.
    preexisting: bool = False


@dataclass
class Manifest:
    version: str = ""
    settings: dict[str, SettingsRecord] = field(default_factory=dict)  # by settings file name
    files: dict[str, FileRecord] = field(default_factory=dict)  # by path relative to config dir
    dirs: list[str] = field(default_factory=list)  # folders install created, relative
    install_id: str | None = None  # the machine whose spawnkit wrote this record
    # Codex: the hook trust entries written into config.toml (``codex_config.TrustRecord``
    # as JSON, plus "path": the config.toml they are in).
    trust: dict[str, Any] | None = None

    def to_bytes(self) -> bytes:
        data: dict[str, Any] = {
            "format": FORMAT,
            "spawnkit": self.version,
            "install_id": self.install_id,
            "settings": {
                name: _encode_settings(rec) for name, rec in sorted(self.settings.items())
            },
            "files": {name: _encode_file(rec) for name, rec in sorted(self.files.items())},
            "dirs": sorted(set(self.dirs)),
        }
        if self.trust:
            data["trust"] = self.trust
        return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")

    def written_here(self) -> bool:
        """True when this machine's spawnkit wrote the record (its install id matches)."""
        local = install_id()
        return bool(self.install_id and local and hmac.compare_digest(self.install_id, local))


def path_in(config_dir: Path, local: bool = False) -> Path:
    return config_dir / (LOCAL_RELATIVE_PATH if local else RELATIVE_PATH)


def read(config_dir: Path, local: bool = False, root: Path | None = None) -> Manifest | None:
    """The record in ``config_dir``, checked; None when there is none.

    Refused (``SpawnkitError``, nothing acted on) when damaged or when any path in
    it could point outside ``config_dir``; ``root``: the project whose record it is, out of
    which the file must not resolve (None: the user's own folder).
    """
    path = path_in(config_dir, local)
    raw = guard.read_file(path, guard.MAX_RECORD_BYTES, root)
    if raw is None:
        return None
    try:
        data = bounded.json_loads(raw.decode("utf-8"), str(path))
        return _checked(data, path)
    except _Outside as exc:
        raise SpawnkitError(
            f"{path} lists {exc.args[0]!r}, a path outside {config_dir}: refused, nothing was"
            " changed. spawnkit never writes such a record; if you did not edit it, it came"
            " from elsewhere (a cloned repository?): delete it, then run the command again"
        ) from None
    except (ValueError, TypeError, KeyError, AttributeError, bounded.TooDeep):
        raise SpawnkitError(
            f"{path} is damaged; delete it and run `spawnkit install` again (uninstall then"
            " removes spawnkit's settings entries by their marker)"
        ) from None


class _Outside(ValueError):
    """A path in the record that could leave the config folder."""


def _checked(data: Any, path: Path) -> Manifest:
    if not isinstance(data, dict) or data.get("format", FORMAT) != FORMAT:
        raise ValueError("not an install record of this format")
    settings = {}
    for name, rec in _mapping(data.get("settings", {})).items():
        if not guard.plain_name(name):
            raise _Outside(name)
        keys = rec.get("created_keys", [])
        if not isinstance(keys, list) or not all(
            isinstance(k, str) and _KEY.fullmatch(k) for k in keys
        ):
            raise ValueError("created_keys")
        empty = rec.get("empty_inner", {})
        if not isinstance(empty, dict) or not all(
            isinstance(k, str)
            and (k == "" or _KEY.fullmatch(k))
            and isinstance(v, str)
            and len(v) <= MAX_BLANK
            and not v.strip()
            for k, v in empty.items()
        ):
            raise ValueError("empty_inner")
        original = Original.from_json(rec.get("original"))
        settings[name] = SettingsRecord(list(keys), _decode_blank(rec), dict(empty), original)
    files = {}
    for rel, rec in _mapping(data.get("files", {})).items():
        if not guard.relative_inside(rel):
            raise _Outside(rel)
        backup = rec.get("replaced_backup")
        if backup is not None and not guard.plain_name(backup):
            raise _Outside(backup)
        if not isinstance(rec["sha256"], str) or not _SHA.fullmatch(rec["sha256"]):
            raise ValueError("sha256")
        files[rel] = FileRecord(rec["sha256"], backup, rec.get("preexisting") is True)
    dirs = data.get("dirs", [])
    if not isinstance(dirs, list):
        raise ValueError("dirs")
    for rel in dirs:
        if rel != "." and not guard.relative_inside(rel):
            raise _Outside(rel)
    ident = data.get("install_id")
    trust = data.get("trust")
    if trust is not None and not isinstance(trust, dict):
        raise ValueError("trust")
    if trust is not None:
        Original.from_json(trust.get("original"))  # its backup names stay beside the file
    return Manifest(
        version=str(data.get("spawnkit", ""))[:64],
        settings=settings,
        files=files,
        dirs=list(dirs),
        install_id=ident if isinstance(ident, str) and _ID.fullmatch(ident) else None,
        trust=trust,
    )


def _mapping(value: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ValueError("expected an object of objects")
    return value


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- the install id ------------------------------------------------------------


def install_id_path() -> Path:
    return paths.claude_config_dir() / INSTALL_ID_PATH


def install_id() -> str | None:
    """This machine's install id, or None when spawnkit never needed one here."""
    try:
        raw = guard.read_file(install_id_path(), 256)
    except SpawnkitError:
        return None
    text = raw.decode("ascii", "replace").strip() if raw else ""
    return text if _ID.fullmatch(text) else None


def ensure_install_id(new: str | None = None) -> str:
    """This machine's install id, created (``new``, else random; private) on first use.

    The id is written whole to a temporary file and then linked into place, so a kill at any
    point leaves either no id file or a complete one (never an empty file later runs refuse);
    ``link`` never follows or replaces what is already there. An empty file an older spawnkit
    left when it was killed mid-write is taken away first.
    """
    current = install_id()
    if current is not None:
        return current
    path = install_id_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    _drop_empty_id(path)
    new = new or os.urandom(16).hex()
    try:
        fd, tmp = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}{atomic.TEMP_TAG}", suffix=".tmp"
        )
    except OSError as exc:
        raise SpawnkitError(f"cannot write {path} ({exc.strerror}); nothing was changed") from None
    try:
        try:
            os.write(fd, (new + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.link(tmp, path)
    except FileExistsError:
        current = install_id()  # another spawnkit made it meanwhile
        if current is None:
            raise SpawnkitError(
                f"{path} is not an install id spawnkit wrote; delete it, then run the command again"
            ) from None
        return current
    except OSError as exc:
        raise SpawnkitError(f"cannot write {path} ({exc.strerror}); nothing was changed") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return new


def _drop_empty_id(path: Path) -> None:
    """Remove an empty regular id file: what an older spawnkit left when killed between creating and writing it."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISREG(info.st_mode) and info.st_size == 0:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def _encode_file(rec: FileRecord) -> dict[str, Any]:
    data: dict[str, Any] = {"sha256": rec.sha256, "replaced_backup": rec.replaced_backup}
    if rec.preexisting:
        data["preexisting"] = True
    return data


def _encode_settings(rec: SettingsRecord) -> dict[str, Any]:
    data: dict[str, Any] = {
        "created_keys": rec.created_keys,
        "blank_original": _encode_blank(rec),
    }
    if rec.empty_inner:  # written only when there is one: older records stay as they were
        data["empty_inner"] = dict(sorted(rec.empty_inner.items()))
    if rec.original.sha256 or rec.original.backups:
        data["original"] = rec.original.to_json()
    return data


def _encode_blank(rec: SettingsRecord) -> dict[str, Any] | None:
    if rec.blank_original is None:
        return None
    if rec.blank_original == MISSING:
        return {"existed": False}
    return {"existed": True, "text": rec.blank_original}


def _decode_blank(rec: dict[str, Any]) -> str | None:
    blank = rec.get("blank_original")
    if blank is None:
        return None
    if not isinstance(blank, dict):
        raise ValueError("blank_original")
    if not blank.get("existed"):
        return MISSING
    text = blank.get("text", "")
    if not isinstance(text, str) or text.strip() or len(text) > 4096:
        raise ValueError("blank_original holds more than blank text")
    return text
