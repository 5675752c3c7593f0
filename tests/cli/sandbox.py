"""Run the real ``spawnkit`` command in a throwaway HOME, as a newcomer's shell would.

Each run is a fresh process (``python -m spawnkit``) with its own HOME, TMPDIR and working
folder, no stdin, no Claude config from outside. ``user=True`` runs it as an unprivileged
user (root ignores file modes, so permission refusals are only real for someone else):
as the current user when that is not root, else through ``setpriv`` as ``nobody``.
"""

from __future__ import annotations

import os
import pty
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import unprivileged

DOCUMENTED_EXIT_CODES = {0, 1, 2, 130}
NOBODY = unprivileged.UID


@dataclass
class Result:
    args: tuple[str, ...]
    code: int
    stdout: str
    stderr: str

    def __str__(self) -> str:
        return (
            f"spawnkit {' '.join(self.args)} -> exit {self.code}\n"
            f"--- stdout\n{self.stdout}--- stderr\n{self.stderr}"
        )

    @property
    def error_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]


class Sandbox:
    """A HOME, a working folder and a TMPDIR under one temporary root, readable by ``nobody``."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="spawnkit-sandbox-", dir=unprivileged.SHARED_TMP))
        os.chmod(self.root, 0o755)
        self.home = self.root / "home"
        self.work = self.root / "work"
        self.tmp = self.root / "tmp"
        for folder in (self.home, self.work, self.tmp):
            folder.mkdir()
        self.owned_by_nobody = False

    def close(self) -> None:
        for path in [self.root, *self.root.rglob("*")]:
            try:
                if path.is_dir() and not path.is_symlink():
                    os.chmod(path, 0o755)
            except OSError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = {
            "HOME": str(self.home),
            "TMPDIR": str(self.tmp),
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "GIT_AUTHOR_NAME": "sandbox",
            "GIT_AUTHOR_EMAIL": "sandbox@spawnkit.invalid",
            "GIT_COMMITTER_NAME": "sandbox",
            "GIT_COMMITTER_EMAIL": "sandbox@spawnkit.invalid",
        }
        env.update(extra or {})
        return env

    def give_to_nobody(self) -> None:
        """Hand the sandbox to ``nobody`` (only needed when the tests run as root)."""
        if os.geteuid() != 0 or self.owned_by_nobody:
            return
        for path in [self.root, *self.root.rglob("*")]:
            os.lchown(path, NOBODY, NOBODY)
        self.owned_by_nobody = True

    def command(self, args: tuple[str, ...], user: bool) -> list[str]:
        base = [sys.executable, "-m", "spawnkit", *args]
        if not user:
            return base
        prefix = unprivileged.command_prefix()
        assert prefix is not None
        self.give_to_nobody()
        return [*prefix, *base]

    def run(
        self,
        *args: str,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        user: bool = False,
        input: str | None = None,
        timeout: float = 180,
    ) -> Result:
        proc = subprocess.run(
            self.command(args, user),
            cwd=cwd or self.work,
            env=self.env(env),
            input=input,
            stdin=None if input is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
        )
        return Result(args, proc.returncode, proc.stdout, proc.stderr)

    def snapshot(self, *roots: Path) -> dict[str, object]:
        """Every path under the roots (default: HOME, work, TMPDIR) with its kind, mode and bytes."""
        found: dict[str, object] = {}
        for top in roots or (self.home, self.work, self.tmp):
            for path in sorted([top, *top.rglob("*")]):
                rel = str(path.relative_to(self.root))
                st = path.lstat()
                if stat.S_ISLNK(st.st_mode):
                    found[rel] = ("link", os.readlink(path))
                elif stat.S_ISDIR(st.st_mode):
                    found[rel] = ("dir", stat.S_IMODE(st.st_mode))
                elif stat.S_ISREG(st.st_mode):
                    try:
                        data: object = path.read_bytes()
                    except PermissionError:
                        data = "<unreadable>"
                    found[rel] = ("file", stat.S_IMODE(st.st_mode), data)
                else:
                    found[rel] = ("other", stat.S_IFMT(st.st_mode))
        return found


@dataclass
class PtyRun:
    code: int
    output: str


def run_on_terminal(
    sandbox: Sandbox, args: tuple[str, ...], wait_for: str, action: str, timeout: float = 120
) -> PtyRun:
    """Run spawnkit on a pseudo-terminal; once ``wait_for`` shows, press Ctrl-C (``"ctrl-c"``),
    send SIGTERM (``"sigterm"``) or type a line (any other text); collect everything printed."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: become spawnkit
        os.chdir(sandbox.work)
        os.execve(sys.executable, [sys.executable, "-m", "spawnkit", *args], sandbox.env())
    output = b""
    acted = False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        if not acted and wait_for.encode() in output:
            time.sleep(0.3)  # let the prompt settle
            if action == "ctrl-c":
                os.write(fd, b"\x03")
            elif action == "sigterm":
                os.kill(pid, signal.SIGTERM)
            else:
                os.write(fd, action.encode() + b"\r")
            acted = True
    else:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return PtyRun(os.waitstatus_to_exitcode(status), output.decode("utf-8", "replace"))
