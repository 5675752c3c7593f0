"""Run a command as an ordinary user, where file permissions decide the outcome.

root ignores permission bits, so a test run as root cannot show what a read-only
file or a symlink into a user's own files does to an ordinary user. When the
tests run as root, these helpers run the command as ``nobody`` (uid 65534) with
``setpriv`` (util-linux); when they already run as an ordinary user, they run it
as is. When that user cannot read the checkout (CI clones into a root-only folder),
the commands import a readable copy of the package instead. A test is skipped
(failed in CI) only when none of this is possible, and says so.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

from tests.requires import unavailable

UID = GID = 65534  # nobody / nogroup
# /tmp, not $TMPDIR: a private TMPDIR (CI may set one) would keep the user out of its own folders
SHARED_TMP = "/tmp"


def _as_user() -> list[str] | None:
    """``setpriv`` to the ordinary user when the tests run as root; None when that is impossible."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, f"--reuid={UID}", f"--regid={GID}", "--clear-groups"]


def _probe(prefix: list[str]) -> str | None:
    """Why ``prefix`` cannot import spawnkit (its code, not a bare ``_data`` folder) and copier."""
    # The same interpreter, not another one the user happens to reach (setpriv was seen running
    # Debian's python when the user could not search the folders on the way to pyenv's).
    check = (
        "import os, sys\n"
        f"if os.path.realpath(sys.executable) != {os.path.realpath(sys.executable)!r}:\n"
        "    sys.exit(f'ran {os.path.realpath(sys.executable)} instead: a folder on the way "
        "to the interpreter is not searchable (.ci/run grants o+x)')\n"
        "import spawnkit.cli, copier"
    )
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", check],
        capture_output=True,
        text=True,
        cwd="/",  # a root-only working folder must not fail the probe
        timeout=120,
        check=False,
    )
    return None if probe.returncode == 0 else probe.stderr[-200:]


def _readable_copy() -> Path:
    """A copy of the spawnkit package and its data, laid out as a wheel installs it, that anyone can read.

    CI clones the project into a folder only root may enter, so the unprivileged user cannot
    import the editable install from there (the interpreter and site-packages are readable).
    The copy is the same code, taken at the start of the run, and is removed at exit.
    """
    import spawnkit
    from spawnkit.standard import resources

    root = Path(tempfile.mkdtemp(prefix="spawnkit-readable-", dir=SHARED_TMP))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    package = root / "spawnkit"
    shutil.copytree(
        Path(spawnkit.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    data = package / "_data"
    if not data.exists():
        for name in ("standards", "template", "copier.yml", "skills"):
            source = resources.data_root() / name
            if source.is_dir():
                shutil.copytree(source, data / name)
            else:
                data.mkdir(exist_ok=True)
                shutil.copy2(source, data / name)
    for dirpath, _dirnames, filenames in os.walk(root):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            path = os.path.join(dirpath, name)
            os.chmod(path, os.stat(path).st_mode | 0o444)
    return root


@cache
def _prepared() -> tuple[list[str], str | None, Path | None]:
    """The command prefix, why it cannot work (None when it can), and the readable copy in use."""
    prefix = _as_user()
    if prefix is None:
        return [], "running as root and setpriv (util-linux) is not installed", None
    failure = _probe(prefix)
    if failure is None:
        return prefix, None, None
    copy = _readable_copy()
    prefix = [*prefix, "env", f"PYTHONPATH={copy}"]
    again = _probe(prefix)
    if again is None:
        return prefix, None, copy
    reason = f"uid {UID} cannot import spawnkit with {sys.executable}: {failure}; nor from {copy}: {again}"
    return prefix, reason, copy


def command_prefix() -> list[str] | None:
    """How to run a command as a user file modes apply to; None when this machine cannot."""
    prefix, reason, _copy = _prepared()
    return None if reason else prefix


def why_not() -> str | None:
    """Why commands cannot run unprivileged here, or None when they can."""
    return _prepared()[1]


def script(path: Path) -> Path:
    """Where a file of the spawnkit package is in the copy the unprivileged user runs (if any)."""
    import spawnkit

    copy = _prepared()[2]
    if copy is None:
        return path
    return copy / path.resolve().relative_to(Path(spawnkit.__file__).resolve().parent.parent)


def private_dir(prefix: str = "spawnkit-unpriv-") -> Path:
    """A fresh folder the unprivileged user owns (outside pytest's root-only tmp folder)."""
    reason = why_not()
    if reason:
        unavailable(f"cannot run as an ordinary user: {reason}")
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=SHARED_TMP))
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
