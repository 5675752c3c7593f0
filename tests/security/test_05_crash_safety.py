"""Reproduction 5, and the fault-injection proof: a killed install or uninstall loses nothing.

kill -9 between the settings write and the manifest write left hooks in settings
and no record; a later uninstall exited 0 and left empty hook arrays instead of
the original bytes, and orphaned temporary files stayed forever. Now a journal is
written before the first change and the next run rolls an interrupted one back.

The fault-injection test kills install and uninstall (SIGKILL, through the
``SPAWNKIT_TEST_ABORT_AFTER_WRITES`` switch) after every single write they make,
then runs install or uninstall again: the settings file is byte-identical to the
original (uninstall) or fully installed (install), and no temporary file, journal
or half-made folder is left anywhere.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.snapshots import snapshot

from .conftest import spawnkit

ORIGINAL = b'{\n\t"model": "opus",\r\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}\n}'

# Runs the CLI with one write patched to kill the process (works on any spawnkit version).
KILLER = """
import os, signal, sys
import spawnkit.install.changes as changes
real_write, real_replace = changes.atomic_write, os.replace
how = os.environ["KILL_HOW"]
def write(path, data, *a, **kw):
    out = real_write(path, data, *a, **kw)
    if how == "after-settings" and os.path.basename(str(path)) == "settings.json":
        os.kill(os.getpid(), signal.SIGKILL)
    return out
def replace(src, dst, *a, **kw):
    if how == "mid-settings" and os.path.basename(str(dst)) == "settings.json":
        os.kill(os.getpid(), signal.SIGKILL)
    return real_replace(src, dst, *a, **kw)
changes.atomic_write, os.replace = write, replace
from spawnkit.cli import main
sys.argv = ["spawnkit", *sys.argv[1:]]
main()
"""


def _killed(how: str, *args: str, cwd: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", KILLER, *args],
        env={**os.environ, "KILL_HOW": how},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, proc.stderr)


def _leftovers(*roots: Path) -> list[str]:
    found = []
    for root in roots:
        for path in root.rglob("*"):
            if path.name.endswith(".tmp") or "journal" in path.name:
                found.append(str(path))
    return found


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    folder = tmp_path / "claude"
    folder.mkdir()
    (folder / "settings.json").write_bytes(ORIGINAL)
    return folder


def test_killed_between_settings_and_record_uninstall_restores_the_original_bytes(cfg: Path):
    before = snapshot(cfg)
    _killed("after-settings", "install", "--yes", "--config-dir", str(cfg), cwd=cfg.parent)
    proc = spawnkit("uninstall", "--yes", "--config-dir", str(cfg), cwd=cfg.parent)
    assert proc.returncode == 0, proc.stderr
    assert (cfg / "settings.json").read_bytes() == ORIGINAL
    assert snapshot(cfg) == before


def test_killed_mid_write_leaves_no_temporary_file_behind(cfg: Path):
    _killed("mid-settings", "install", "--yes", "--config-dir", str(cfg), cwd=cfg.parent)
    proc = spawnkit("install", "--yes", "--config-dir", str(cfg), cwd=cfg.parent)
    assert proc.returncode == 0, proc.stderr
    assert not _leftovers(cfg.parent)
    assert "notify" in (cfg / "settings.json").read_text()


def _state(root: Path) -> dict[str, bytes | str]:
    """The tree minus what legitimately differs between runs: backups and the template store."""
    return {
        k: v
        for k, v in snapshot(root).items()
        if ".spawnkit-20" not in k and "template-store" not in k
    }


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, symlinks=True)
    return dst


@pytest.mark.slow
@pytest.mark.parametrize("fresh", [False, True], ids=["existing-folder", "fresh-folder"])
def test_install_and_uninstall_killed_at_every_write(tmp_path: Path, fresh: bool):
    """Project scope: the journal, the record's install id and containment all take part."""
    from spawnkit.install.journal import ABORT_ENV

    base = tmp_path / "base"
    project = base / "proj"
    project.mkdir(parents=True)
    if not fresh:
        (project / ".claude").mkdir()
        (project / ".claude" / "settings.json").write_bytes(ORIGINAL)
    original = _state(base)
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    env.pop("CLAUDE_CONFIG_DIR", None)

    def run(where: Path, *args: str, abort: int = 0) -> int:
        extra = {ABORT_ENV: str(abort)} if abort else {}
        proc = spawnkit(
            *args, "--yes", "--scope", "project", cwd=where / "proj", env={**env, **extra}
        )
        assert proc.returncode in (0, -signal.SIGKILL), proc.stderr
        return proc.returncode

    installed_dir = _copy(base, tmp_path / "installed")
    assert run(installed_dir, "install") == 0
    installed = _state(installed_dir)

    for verb, start, done in (("install", base, installed), ("uninstall", installed_dir, original)):
        writes = 0
        for n in range(1, 200):
            killed = _copy(start, tmp_path / f"{verb}-{n}")
            if run(killed, verb, abort=n) == 0:
                assert _state(killed) == done, (verb, n)
                break
            writes = n
            for again, expect in (("install", installed), ("uninstall", original)):
                trial = _copy(killed, tmp_path / f"{verb}-{n}-{again}")
                assert run(trial, again) == 0
                assert _state(trial) == expect, (verb, n, again)
                assert not _leftovers(trial), (verb, n, again)
                shutil.rmtree(trial)
            shutil.rmtree(killed)
        assert writes >= 5, f"{verb} made only {writes} writes: is the switch still wired?"


CODEX_CONFIG = b'# mine\r\nmodel = "o3"\r\n[projects."/elsewhere"]\r\ntrust_level = "trusted"'
CODEX_HOOKS = b'{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}}\n'


def _kill_at_every_write(
    tmp_path: Path, work: Path, host: str, scope: str, env: dict[str, str], check=None
) -> None:
    """Install then uninstall ``host`` in ``work``, killed after every write in turn; after each
    kill, a run of either verb must end in the clean installed or original state. Every run
    happens in ``work`` itself (restored from a snapshot before each): Codex keys trust by the
    hooks file's absolute path, so a moved folder would be a different install. ``check`` runs
    after each kill."""
    from spawnkit.install.journal import ABORT_ENV

    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()

    def keep(name: str) -> Path:
        return _copy(work, snapshots / name)

    def restore(snapshot: Path) -> None:
        shutil.rmtree(work)
        _copy(snapshot, work)

    def run(*args: str, abort: int = 0) -> int:
        extra = {ABORT_ENV: str(abort)} if abort else {}
        proc = spawnkit(
            *args,
            "--yes",
            "--host",
            host,
            "--scope",
            scope,
            cwd=work / "proj",
            env={**os.environ, **env, **extra},
        )
        assert proc.returncode in (0, -signal.SIGKILL), proc.stderr
        return proc.returncode

    original, base = _state(work), keep("base")
    assert run("install") == 0
    installed, installed_snap = _state(work), keep("installed")
    for verb, start, done in (
        ("install", base, installed),
        ("uninstall", installed_snap, original),
    ):
        writes = 0
        for n in range(1, 200):
            restore(start)
            if run(verb, abort=n) == 0:
                assert _state(work) == done, (verb, n)
                break
            writes = n
            if check is not None:
                check()
            killed = keep(f"{verb}-{n}")
            for again, expect in (("install", installed), ("uninstall", original)):
                restore(killed)
                assert run(again) == 0
                assert _state(work) == expect, (verb, n, again)
                assert not _leftovers(work), (verb, n, again)
            shutil.rmtree(killed)
        assert writes >= 5, f"{verb} made only {writes} writes: is the switch still wired?"
    restore(installed_snap)


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["user", "project"])
def test_codex_install_and_uninstall_killed_at_every_write(tmp_path: Path, scope: str):
    """Codex: hooks.json and config.toml change together. Project scope writes the project
    (./.codex, ./.agents) and then, under the user folder's own lock and journal, the user's
    config.toml; a kill anywhere in either, then any run, ends in a clean state."""
    work = tmp_path / "work"
    codex_home = work / "home" / ".codex"
    codex_home.mkdir(parents=True)
    (work / "proj").mkdir()
    (codex_home / "config.toml").write_bytes(CODEX_CONFIG)
    (codex_home / "hooks.json").write_bytes(CODEX_HOOKS)
    env = {
        "HOME": str(work / "home"),
        "CODEX_HOME": str(codex_home),
        # this machine's install id (in the Claude Code folder) stays put across restores
        "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
    }
    _kill_at_every_write(tmp_path, work, "codex", scope, env)
    assert "hooks.state" in (codex_home / "config.toml").read_text()


COPILOT_HOOKS = (
    b'{\n  "version": 1,\n  "hooks": {"agentStop": [{"type": "command", "bash": "notify"}]}\n}\n'
)


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["user", "project"])
def test_copilot_install_and_uninstall_killed_at_every_write(tmp_path: Path, scope: str):
    """Copilot CLI: spawnkit's own hooks/spawnkit-hooks.json beside a hook file of the user's
    (user scope: ~/.copilot; project scope: ./.github, which already holds a workflow). A kill
    after any write, then any run, ends in a clean state and the user's file is never touched."""
    work = tmp_path / "work"
    copilot_home = work / "home" / ".copilot"
    (copilot_home / "hooks").mkdir(parents=True)
    (copilot_home / "hooks" / "mine.json").write_bytes(COPILOT_HOOKS)
    (work / "proj" / ".github" / "workflows").mkdir(parents=True)
    (work / "proj" / ".github" / "workflows" / "ci.yml").write_bytes(b"on: push\n")
    env = {
        "HOME": str(work / "home"),
        "COPILOT_HOME": str(copilot_home),
        "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),  # the install id stays put
    }

    def untouched() -> None:
        assert (copilot_home / "hooks" / "mine.json").read_bytes() == COPILOT_HOOKS

    _kill_at_every_write(tmp_path, work, "copilot", scope, env, untouched)
    where = copilot_home if scope == "user" else work / "proj" / ".github"
    assert (where / "hooks" / "spawnkit-hooks.json").is_file()
