"""Run install and uninstall under a write tracer of the tests' own, in a world restored at will.

The tracer is an audit hook (PEP 578) with its own list of the calls that change the file
system, added before spawnkit starts: it counts a run's writes from outside, to hold the
kill switch (``spawnkit.files.killswitch``) to the same count.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from spawnkit.files.killswitch import ABORT_ENV

# Runs spawnkit (its real entry point) under the test's own write tracer.
TRACER = r"""
import json, os, sys

log = open(os.environ["WRITES_LOG"], "a", buffering=1)
CHANGES = {  # audit events that change the file system, and which argument names the path
    "open": 0, "os.rename": 0, "os.remove": 0, "os.mkdir": 0, "os.rmdir": 0, "os.link": 0,
    "os.symlink": 0, "os.truncate": 0, "os.chmod": 0, "os.chown": 0, "os.mkfifo": 0,
    "os.mknod": 0, "subprocess.Popen": 1,
}
WRITING = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


def there(path, dir_fd):
    try:
        os.lstat(path, dir_fd=dir_fd if isinstance(dir_fd, int) and dir_fd >= 0 else None)
        return True
    except (OSError, ValueError):
        return False


def trace(event, args):
    if event not in CHANGES:
        return
    target = args[CHANGES[event]]
    if event == "subprocess.Popen":
        log.write(json.dumps([event, [str(a)[:80] for a in (target or [])]]) + "\n")
        return
    if isinstance(target, bytes):
        target = os.fsdecode(target)
    if not isinstance(target, str) or target.startswith("/dev/") or "__pycache__" in target:
        return  # a descriptor (a file this process opened), a device, a bytecode cache
    if event == "open" and not (isinstance(args[2], int) and args[2] & WRITING):
        return
    if event == "os.mkdir" and there(target, args[2]):
        return  # exist_ok: nothing happens
    if event in ("os.remove", "os.rmdir") and not there(target, args[1]):
        return  # missing_ok: nothing happens
    log.write(json.dumps([event, target]) + "\n")


sys.addaudithook(trace)
from spawnkit.__main__ import main

sys.argv = ["spawnkit", *sys.argv[1:]]
main()
"""


class World:
    """A project and a HOME (Claude Code and Codex folders inside), restored before each run."""

    def __init__(self, tmp: Path, host: str) -> None:
        self.tmp = tmp
        self.host = host
        self.work = tmp / "work"
        self.project = self.work / "proj"
        self.home = self.work / "home"
        self.project.mkdir(parents=True)
        self.home.mkdir()
        self.log = tmp / "writes.jsonl"
        # this machine's install id, as a first spawnkit run leaves it: every restored world
        # is the same machine (a new id would make a project's record look copied)
        state = self.home / ".claude" / ".spawnkit"
        state.mkdir(parents=True)
        (state / "install-id").write_text("5b1d" * 8 + "\n")
        (state / "install-id").chmod(0o600)

    def save(self, name: str) -> Path:
        dest = self.tmp / "saved" / name
        shutil.copytree(self.work, dest, symlinks=True)
        return dest

    def restore(self, saved: Path) -> None:
        shutil.rmtree(self.work)
        shutil.copytree(saved, self.work, symlinks=True)

    def run(self, verb: str, abort: int = 0, scope: str = "project") -> tuple[int, list]:
        """``spawnkit VERB --yes --scope SCOPE`` traced; exit code and the writes seen."""
        env = {
            **os.environ,
            "HOME": str(self.home),
            "CODEX_HOME": str(self.home / ".codex"),
            "COPILOT_HOME": str(self.home / ".copilot"),
            "QWEN_HOME": str(self.home / ".qwen"),
            "WRITES_LOG": str(self.log),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        env.pop("CLAUDE_CONFIG_DIR", None)
        env.pop("GEMINI_CLI_HOME", None)
        env.pop(ABORT_ENV, None)
        if abort:
            env[ABORT_ENV] = str(abort)
        self.log.write_text("")
        args = [verb, "--yes", "--scope", scope]
        if self.host != "claude-code":
            args += ["--host", self.host]
        proc = subprocess.run(
            [sys.executable, "-c", TRACER, *args],
            cwd=self.project,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        assert proc.returncode in (0, -signal.SIGKILL), proc.stderr
        writes = [json.loads(line) for line in self.log.read_text().splitlines()]
        return proc.returncode, writes
