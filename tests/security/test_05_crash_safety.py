"""Reproduction 5, and the fault-injection proof: a killed install or uninstall loses nothing.

kill -9 between the settings write and the manifest write left hooks in settings
and no record; a later uninstall exited 0 and left empty hook arrays instead of
the original bytes, and orphaned temporary files stayed forever. Now a journal is
written before the first change and the next run rolls an interrupted one back.

The fault-injection test kills install and uninstall (SIGKILL, through the
``SPAWNKIT_TEST_ABORT_AFTER_WRITES`` switch) after every single write they make, as
many as a tracer of its own counts (``writes.py``; the backup's move out of the
project and the template store's git commands included), then runs install or
uninstall again: the settings file is byte-identical to the original (uninstall) or
fully installed (install), and no temporary file, journal, backup in the project or
half-made folder is left anywhere.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from spawnkit.files.atomic import BACKUP_TAG
from tests.snapshots import snapshot

from .conftest import spawnkit
from .writes import World

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


def _unstamped(content: bytes | str) -> bytes | str:
    """An install record names the backups it made, by their time stamp: a run killed and
    done again makes them at another time."""
    if isinstance(content, str):
        return content
    return re.sub(rb"\.spawnkit-\d{8}-\d{6}-\d{6}\.bak", b".spawnkit-<stamp>.bak", content)


def _state(world: World) -> dict[str, bytes | str]:
    """The project and HOME, minus what legitimately differs between runs: the user's own
    backups (stamped, and the folder that keeps a project's) and the template store's objects
    (its tags and trees must match).

    A project keeps no backup at all: one left there is a leftover of a killed run."""
    found: dict[str, bytes | str] = {
        k: _unstamped(v)
        for k, v in snapshot(world.work).items()
        if not (k.startswith("home/") and (BACKUP_TAG in k or "template-store" in k))
        and not k.startswith("home/.claude/.spawnkit/backups")
    }
    store = world.home / ".claude" / ".spawnkit" / "template-store"
    if (store / ".git").is_dir():
        found["template store tags"] = subprocess.run(
            ["git", "for-each-ref", "--format=%(refname) %(tree)", "refs/tags"],
            cwd=store,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return found


def _kill_at_every_write(world: World, verb: str, start: Path, done: dict, ends: dict, **kw):
    """Kill ``verb`` after each of its writes in turn; then each way on must end cleanly.

    The tracer counts the writes of a full run (T); the run killed at N < T + 1 must die,
    and every command after it (``ends``: verb -> expected state) must finish the job."""
    world.restore(start)
    code, traced = world.run(verb, **kw)
    assert code == 0
    total = len(traced)
    for n in range(1, total + 2):
        world.restore(start)
        code, _ = world.run(verb, abort=n, **kw)
        if n > total:
            state = _state(world)
            if "template store tags" not in done:
                state.pop("template store tags", None)
            assert code == 0 and state == done, (verb, n)
            break
        assert code == -signal.SIGKILL, (verb, n, f"not killed after write {n} of {total}")
        killed = world.save(f"{verb}-{n}")
        for again, expect in ends.items():
            world.restore(killed)
            assert world.run(again, **kw)[0] == 0
            state = _state(world)
            if "template store tags" not in expect:  # uninstall keeps what install made there
                state.pop("template store tags", None)
            assert state == expect, (verb, n, traced[n - 1], again)
            assert not _leftovers(world.work), (verb, n, traced[n - 1], again)
        shutil.rmtree(killed)
    return total


@pytest.mark.slow
@pytest.mark.parametrize("fresh", [False, True], ids=["existing-folder", "fresh-folder"])
def test_install_and_uninstall_killed_at_every_write(tmp_path: Path, fresh: bool):
    """Project scope: the journal, the record's install id and containment all take part; the
    backup's move to the user's folder and the template store (made on the first install, in
    a HOME of its own here) are written after the journal is gone, and are stopped at too."""
    world = World(tmp_path, "claude-code")
    if not fresh:
        (world.project / ".claude").mkdir()
        (world.project / ".claude" / "settings.json").write_bytes(ORIGINAL)
    original, base = _state(world), world.save("base")
    assert world.run("install")[0] == 0
    installed, installed_snap = _state(world), world.save("installed")
    ends = {"install": installed, "uninstall": original}
    assert _kill_at_every_write(world, "install", base, installed, ends) >= 20
    assert _kill_at_every_write(world, "uninstall", installed_snap, original, ends) >= 5


CODEX_CONFIG = b'# mine\r\nmodel = "o3"\r\n[projects."/elsewhere"]\r\ntrust_level = "trusted"'
CODEX_HOOKS = b'{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}}\n'


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["user", "project"])
def test_codex_install_and_uninstall_killed_at_every_write(tmp_path: Path, scope: str):
    """Codex: hooks.json and config.toml change together. Project scope writes the project
    (./.codex, ./.agents) and then, under the user folder's own lock and journal, the user's
    config.toml; a kill anywhere in either, then any run, ends in a clean state.

    Every run happens in the same folder (restored from a snapshot before each): Codex keys
    trust by the hooks file's absolute path, so a moved folder is a different install."""
    world = World(tmp_path, "codex")
    codex_home = world.home / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_bytes(CODEX_CONFIG)
    (codex_home / "hooks.json").write_bytes(CODEX_HOOKS)
    original, base = _state(world), world.save("base")
    assert world.run("install", scope=scope)[0] == 0
    installed, installed_snap = _state(world), world.save("installed")
    assert "hooks.state" in (codex_home / "config.toml").read_text()
    ends = {"install": installed, "uninstall": original}
    for verb, start, done in (
        ("install", base, installed),
        ("uninstall", installed_snap, original),
    ):
        assert _kill_at_every_write(world, verb, start, done, ends, scope=scope) >= 5


COPILOT_HOOKS = (
    b'{\n  "version": 1,\n  "hooks": {"agentStop": [{"type": "command", "bash": "notify"}]}\n}\n'
)


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["user", "project"])
def test_copilot_install_and_uninstall_killed_at_every_write(tmp_path: Path, scope: str):
    """Copilot CLI: spawnkit's own hooks/spawnkit-hooks.json beside a hook file of the user's
    (user scope: ~/.copilot; project scope: ./.github, which already holds a workflow). A kill
    after any write, then any run, ends in a clean state and the user's file is never touched."""
    world = World(tmp_path, "copilot")
    copilot_home = world.home / ".copilot"
    (copilot_home / "hooks").mkdir(parents=True)
    (copilot_home / "hooks" / "mine.json").write_bytes(COPILOT_HOOKS)
    (world.project / ".github" / "workflows").mkdir(parents=True)
    (world.project / ".github" / "workflows" / "ci.yml").write_bytes(b"on: push\n")
    original, base = _state(world), world.save("base")
    assert world.run("install", scope=scope)[0] == 0
    installed, installed_snap = _state(world), world.save("installed")
    where = copilot_home if scope == "user" else world.project / ".github"
    assert (where / "hooks" / "spawnkit-hooks.json").is_file()
    ends = {"install": installed, "uninstall": original}
    for verb, start, done in (
        ("install", base, installed),
        ("uninstall", installed_snap, original),
    ):
        assert _kill_at_every_write(world, verb, start, done, ends, scope=scope) >= 5
    # the user's own hook file is part of every state compared above, so never touched
    world.restore(installed_snap)
    assert (copilot_home / "hooks" / "mine.json").read_bytes() == COPILOT_HOOKS


GEMINI_SETTINGS = (
    b'{\n  "security": {"auth": {"selectedType": "gemini-api-key"}},\n  "hooks": {\n'
    b'    "enabled": true,\n    "BeforeTool": [{"matcher": "run_shell_command", "hooks":'
    b' [{"name": "mine", "type": "command", "command": "true"}]}]\n  }\n}\n'
)
QWEN_SETTINGS = (
    b'{\r\n  "$version": 4,\r\n  "ui": {"theme": "Dracula"},\r\n  "hooks": {"SubagentStop":'
    b' [{"hooks": [{"type": "command", "command": "notify"}]}]}\r\n}'
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("host", "scope"),
    [("gemini", "user"), ("gemini", "project"), ("qwen", "user"), ("qwen", "fresh user")],
)
def test_gemini_and_qwen_install_and_uninstall_killed_at_every_write(
    tmp_path: Path, host: str, scope: str
):
    """Gemini CLI and Qwen Code: spawnkit's entries in the settings.json that holds the user's
    own hook and keys (a "fresh user" Qwen Code folder has none: install creates the file with
    the "$version" Qwen Code needs, uninstall takes the file away again). A kill after any
    write, then any run, ends in a clean state."""
    world = World(tmp_path, host)
    fresh = scope.startswith("fresh")
    scope = scope.split()[-1]
    folder = (world.home if scope == "user" else world.project) / f".{host}"
    folder.mkdir()
    if not fresh:
        (folder / "settings.json").write_bytes(
            GEMINI_SETTINGS if host == "gemini" else QWEN_SETTINGS
        )
    original, base = _state(world), world.save("base")
    assert world.run("install", scope=scope)[0] == 0
    installed, installed_snap = _state(world), world.save("installed")
    assert b"spawnkit-managed" in (folder / "settings.json").read_bytes()
    ends = {"install": installed, "uninstall": original}
    for verb, start, done in (
        ("install", base, installed),
        ("uninstall", installed_snap, original),
    ):
        assert _kill_at_every_write(world, verb, start, done, ends, scope=scope) >= 5
