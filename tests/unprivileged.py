"""Run a command as an ordinary user, where file permissions decide the outcome.

root ignores permission bits, so a test run as root cannot show what a read-only
file or a symlink into a user's own files does to an ordinary user. When the
tests run as root, these helpers run the command as ``nobody`` (uid 65534) with
``setpriv`` (util-linux); when they already run as an ordinary user, they run it
as is. A test is skipped only when neither is possible (root without setpriv, or
an interpreter that user cannot read), and says so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

from tests.requires import unavailable

UID = GID = 65534  # nobody / nogroup


def command_prefix() -> list[str] | None:
    """How to run a command as a user file modes apply to; None when this machine cannot."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, f"--reuid={UID}", f"--regid={GID}", "--clear-groups"]


@cache
def why_not() -> str | None:
    """Why commands cannot run unprivileged here, or None when they can."""
    prefix = command_prefix()
    if prefix is None:
        return "running as root and setpriv (util-linux) is not installed"
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", "import spawnkit, copier"],
        capture_output=True,
        text=True,
        cwd="/",  # a root-only working folder must not fail the probe
        timeout=120,
        check=False,
    )
    if probe.returncode != 0:
        return f"uid {UID} cannot import spawnkit with {sys.executable}: {probe.stderr[-200:]}"
    return None


def private_dir(prefix: str = "spawnkit-unpriv-") -> Path:
    """A fresh folder the unprivileged user owns (outside pytest's root-only tmp folder)."""
    reason = why_not()
    if reason:
        unavailable(f"cannot run as an ordinary user: {reason}")
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    if os.geteuid() == 0:
        os.chown(folder, UID, GID)
    return folder


def give_away(root: Path) -> None:
    """Make everything under ``root`` belong to the unprivileged user (no-op when not root)."""
    if os.geteuid() != 0:
        return
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [dirpath, *[os.path.join(dirpath, n) for n in dirnames + filenames]]:
            os.lchown(name, UID, GID)


def run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run`` as the unprivileged user (skips when impossible)."""
    reason = why_not()
    if reason:
        unavailable(f"cannot run as an ordinary user: {reason}")
    prefix = command_prefix()
    assert prefix is not None
    kwargs.setdefault("timeout", 300)
    kwargs.setdefault("check", False)
    return subprocess.run([*prefix, *argv], **kwargs)


def cleanup(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
