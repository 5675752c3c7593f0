"""Run git the same way on every machine: no user config, no hooks, fixed identity and dates.

The template store's commits must hash the same everywhere (a release bundle and a
store filled at run time agree commit for commit), and a user's global git config
(hooks, signing, conflict style, default branch) must not change what spawnkit does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from spawnkit.errors import SpawnkitError
from spawnkit.files import interrupts

# 2000-01-01, in git's own date format: every commit spawnkit makes carries it.
FIXED_DATE = "946684800 +0000"
IDENTITY = "spawnkit"
EMAIL = "spawnkit@localhost"
TIMEOUT_SECONDS = 120
STOP_WAIT_SECONDS = 2  # an interrupted git's children: killed, then waited for this long at most

# Options that neutralise per-repository settings a user may have copied around.
_CONFIG = (
    "-c",
    f"core.hooksPath={os.devnull}",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "tag.gpgsign=false",
    "-c",
    "core.autocrlf=false",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "init.defaultBranch=main",
    "-c",
    "pack.threads=1",
    "-c",
    "merge.conflictstyle=merge",
)


class GitError(SpawnkitError):
    """git failed; the message carries git's own last line."""


def fixed_env() -> dict[str, str]:
    """The variables that make git ignore user config and write byte-stable commits."""
    return {
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_AUTHOR_NAME": IDENTITY,
        "GIT_AUTHOR_EMAIL": EMAIL,
        "GIT_COMMITTER_NAME": IDENTITY,
        "GIT_COMMITTER_EMAIL": EMAIL,
        "GIT_AUTHOR_DATE": FIXED_DATE,
        "GIT_COMMITTER_DATE": FIXED_DATE,
        "LC_ALL": "C",
    }


def _base_env() -> dict[str, str]:
    # Drop inherited GIT_* (GIT_DIR from a hook, GIT_INDEX_FILE, …): they would redirect git.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(fixed_env())
    return env


def git(
    args: Sequence[str],
    cwd: Path | str,
    *,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    check: bool = True,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git <args>`` in ``cwd``; raise GitError on failure when ``check``."""
    full_env = _base_env()
    if env:
        full_env.update(env)
    try:
        proc = _run(["git", *_CONFIG, *args], str(cwd), input, full_env)
    except FileNotFoundError as exc:
        raise GitError("git is not installed or not on PATH; install git and retry") from exc
    except subprocess.TimeoutExpired as exc:
        raise GitError(f"git {args[0]} took over {TIMEOUT_SECONDS}s in {cwd}; retry") from exc
    if check and proc.returncode != 0:
        detail = proc.stderr.decode(errors="replace").strip().splitlines()
        raise GitError(
            f"git {' '.join(args[:2])} failed in {cwd}: {detail[-1] if detail else proc.returncode}"
        )
    return proc


def _run(
    argv: list[str], cwd: str, input: bytes | None, env: dict[str, str]
) -> subprocess.CompletedProcess[bytes]:
    """``subprocess.run`` that leaves nothing running behind an interrupted or timed-out git.

    git runs in its own process group (``git fetch`` starts ``index-pack``, which a kill of
    git alone would leave writing). On Ctrl-C, SIGTERM or the time limit the whole group is
    killed and waited for, so a folder the caller removes next is not written into again. A
    signal that lands while git is being started waits until ``Popen`` returns (it used to
    leave git running with nobody holding it).
    """
    proc = None
    try:
        with interrupts.shielded():  # a signal while git starts must not lose the handle on it
            proc = subprocess.Popen(
                argv,
                cwd=cwd,
                stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                start_new_session=True,
            )
        stdout, stderr = proc.communicate(input, timeout=TIMEOUT_SECONDS)
    except BaseException:
        if proc is not None:
            with interrupts.shielded():
                _stop_group(proc)
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, stdout, stderr)


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill ``proc``'s process group and wait (at most ``STOP_WAIT_SECONDS``) until it is empty."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass  # already gone
    proc.wait()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()  # communicate() was cut short and left them open
    deadline = time.monotonic() + STOP_WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except OSError:
            return  # no process of the group is left
        time.sleep(0.01)


def out(args: Sequence[str], cwd: Path | str, **kw) -> str:
    """stdout of a git command, stripped."""
    return git(args, cwd, **kw).stdout.decode().strip()


@contextmanager
def isolated_env() -> Iterator[None]:
    """Give libraries that shell out to git (copier, through plumbum) the fixed environment.

    plumbum copies ``os.environ`` once at import, so both are patched and restored.
    """
    from plumbum import local

    saved = dict(os.environ)
    fixed = fixed_env()
    for key in [k for k in os.environ if k.startswith("GIT_")]:
        del os.environ[key]
    os.environ.update(fixed)
    try:
        with local.env(**fixed):
            for key in [k for k in local.env.keys() if k.startswith("GIT_") and k not in fixed]:
                del local.env[key]
            yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def init_snapshot_repo(path: Path) -> None:
    """Make ``path`` a throwaway git repo with everything in it committed (ignored files too)."""
    git(["init", "-q"], path)
    git(["add", "-A", "-f", "."], path)
    git(["commit", "-q", "--no-verify", "--allow-empty", "-m", "spawnkit: before update"], path)
