"""The record of what ``spawnkit install`` put into a Claude Code folder.

Uninstall removes exactly what is listed here: files by content hash (a file
the user changed since is kept), settings containers spawnkit created, and
folders it made. One manifest per config folder; the project and local scopes
share ``.claude/`` and so share it, each with its own settings entry.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spawnkit.errors import SpawnkitError
from spawnkit.install.settings_merge import MISSING

FORMAT = 1
RELATIVE_PATH = Path(".spawnkit") / "install.json"


@dataclass
class SettingsRecord:
    created_keys: list[str] = field(default_factory=list)
    # What the file held before the first install when it held nothing useful:
    # None (it had content), MISSING (no file) or its blank text.
    blank_original: str | None = None


@dataclass
class FileRecord:
    sha256: str
    replaced_backup: str | None = None  # name of the backup of a foreign file install replaced


@dataclass
class Manifest:
    version: str = ""
    settings: dict[str, SettingsRecord] = field(default_factory=dict)  # by settings file name
    files: dict[str, FileRecord] = field(default_factory=dict)  # by path relative to config dir
    dirs: list[str] = field(default_factory=list)  # folders install created, relative
    # Codex: the hook trust entries written into config.toml (``codex_config.TrustRecord``
    # as JSON, plus "path": the config.toml they are in).
    trust: dict[str, Any] | None = None

    def to_bytes(self) -> bytes:
        data: dict[str, Any] = {
            "format": FORMAT,
            "spawnkit": self.version,
            "settings": {
                name: {"created_keys": rec.created_keys, "blank_original": _encode_blank(rec)}
                for name, rec in sorted(self.settings.items())
            },
            "files": {
                name: {"sha256": rec.sha256, "replaced_backup": rec.replaced_backup}
                for name, rec in sorted(self.files.items())
            },
            "dirs": sorted(set(self.dirs)),
        }
        if self.trust:
            data["trust"] = self.trust
        return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def path_in(config_dir: Path) -> Path:
    return config_dir / RELATIVE_PATH


def read(config_dir: Path) -> Manifest | None:
    path = path_in(config_dir)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(raw)
        return Manifest(
            version=str(data.get("spawnkit", "")),
            settings={
                name: SettingsRecord(list(rec.get("created_keys", [])), _decode_blank(rec))
                for name, rec in data.get("settings", {}).items()
            },
            files={
                name: FileRecord(rec["sha256"], rec.get("replaced_backup"))
                for name, rec in data.get("files", {}).items()
            },
            dirs=list(data.get("dirs", [])),
            trust=dict(data["trust"]) if isinstance(data.get("trust"), dict) else None,
        )
    except (ValueError, TypeError, KeyError, AttributeError):
        raise SpawnkitError(
            f"{path} is damaged; delete it and run `spawnkit install` again (uninstall then"
            " removes spawnkit's settings entries by their marker)"
        ) from None


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
    return str(blank.get("text", "")) if blank.get("existed") else MISSING
