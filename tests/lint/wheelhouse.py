"""Repack installed distributions as wheels, so pip can install them with no index.

The pre-commit test needs spawnkit's dependencies (and its build backend) in a
fresh virtualenv without touching the network. Every one of them is already
installed in the test environment; a wheel is a zip of exactly those files plus
the dist-info, so this rebuilds one from the installed RECORD.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as md
import re
import zipfile
from pathlib import Path

from packaging.requirements import Requirement


def closure(names: list[str]) -> dict[str, md.Distribution]:
    """Installed distributions needed by ``names`` (markers evaluated here, no extras)."""
    found: dict[str, md.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in found:
            continue
        dist = md.distribution(name)
        found[key] = dist
        for raw in dist.requires or []:
            req = Requirement(raw)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return found


def runtime_requirements(name: str = "spawnkit") -> list[str]:
    """The names ``name`` depends on when installed without extras (from its metadata), so a
    wheelhouse for it follows pyproject.toml instead of a list copied into each test."""
    found = []
    for raw in md.requires(name) or []:
        req = Requirement(raw)
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            found.append(req.name)
    return found


def _hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def repack(dist: md.Distribution, dest: Path) -> Path:
    wheel_meta = dist.read_text("WHEEL") or ""
    tags = [
        line.split(":", 1)[1].strip() for line in wheel_meta.splitlines() if line.startswith("Tag:")
    ]
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    info_dir = f"{name}-{dist.version}.dist-info"
    tag = next(
        (t for t in tags if t.startswith(("py3", "cp3"))), tags[0] if tags else "py3-none-any"
    )
    out = dest / f"{name}-{dist.version}-{tag}.whl"
    record: list[str] = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in dist.files or []:
            rel = file.as_posix()
            if rel.startswith("..") or "__pycache__" in rel or rel.endswith(".pyc"):
                continue
            if rel.split("/")[0].endswith(".dist-info"):
                if rel.rsplit("/", 1)[-1] in (
                    "RECORD",
                    "INSTALLER",
                    "REQUESTED",
                    "direct_url.json",
                ):
                    continue
                rel = info_dir + "/" + rel.split("/", 1)[1]
            path = Path(file.locate())
            if not path.is_file():
                continue
            data = path.read_bytes()
            zf.writestr(rel, data)
            record.append(f"{rel},{_hash(data)},{len(data)}")
        record.append(f"{info_dir}/RECORD,,")
        zf.writestr(f"{info_dir}/RECORD", "\n".join(record) + "\n")
    return out


def build(dest: Path, requirements: list[str]) -> list[Path]:
    dest.mkdir(parents=True, exist_ok=True)
    return [repack(dist, dest) for dist in closure(requirements).values()]
