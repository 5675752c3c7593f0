"""An interrupted or timed-out git leaves nothing running that writes into spawnkit's folders.

``git fetch`` starts ``index-pack``; killing git alone left it writing into the template store
while the refused command removed that store, so "nothing written" was false now and then.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from spawnkit.files import interrupts
from spawnkit.template import gitutil

# A stand-in for git that starts a writer of its own and waits on it, as git fetch does.
_PARENT = 'sh -c "while :; do echo x >> out; sleep 0.01; done" & echo $! > child; wait'


def _size_settles(path: Path) -> bool:
    before = path.stat().st_size
    time.sleep(0.2)
    return path.stat().st_size == before


def _wait_for(path: Path) -> None:
    deadline = time.monotonic() + 10
    while not (path.exists() and path.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.01)


def test_an_interrupt_stops_the_child_and_what_it_started(tmp_path: Path):
    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            gitutil._run(["sh", "-c", _PARENT], str(tmp_path), None, dict(os.environ))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert (tmp_path / "out").stat().st_size > 0, "the writer never ran: the test proves nothing"
    assert _size_settles(tmp_path / "out"), "a process git started still writes after the interrupt"


def test_a_signal_while_git_starts_still_stops_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """SIGTERM that lands inside ``Popen`` (after the fork, before it returns) under a command."""

    class SignalledWhileStarting(subprocess.Popen):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            _wait_for(tmp_path / "out")  # the stand-in is running and writing
            signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(gitutil.subprocess, "Popen", SignalledWhileStarting)
    with pytest.raises(KeyboardInterrupt), interrupts.handled():
        gitutil._run(["sh", "-c", _PARENT], str(tmp_path), None, dict(os.environ))
    assert _size_settles(tmp_path / "out"), "git was left running when the signal came at its start"


def test_a_timeout_stops_the_child_and_what_it_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(gitutil, "TIMEOUT_SECONDS", 0.5)
    with pytest.raises(subprocess.TimeoutExpired):
        gitutil._run(["sh", "-c", _PARENT], str(tmp_path), None, dict(os.environ))
    _wait_for(tmp_path / "out")
    assert _size_settles(tmp_path / "out"), "a process git started still writes after the timeout"


def test_git_gets_no_terminal_input_and_its_output_back(tmp_path: Path):
    proc = gitutil._run(["sh", "-c", "cat; echo done >&2"], str(tmp_path), None, dict(os.environ))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"done\n")
    proc = gitutil._run(["cat"], str(tmp_path), b"given", dict(os.environ))
    assert proc.stdout == b"given"
