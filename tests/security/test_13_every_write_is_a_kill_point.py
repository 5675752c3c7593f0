"""The crash tests stop after every write install and uninstall make, counted from outside.

The kill switch (``SPAWNKIT_TEST_ABORT_AFTER_WRITES=N``, ``spawnkit.files.killswitch``) used
to count writes at hand-placed points, and only until the install journal was removed: the
move of a project's backup to the user's folder and the template store's ``git init`` and
commit were never stopped at, and removing two of the three points of a change went
unnoticed. Here a tracer of the test's own (an audit hook with its own list of what changes
the file system, added before spawnkit starts) counts every write of a full run, T. The
switch must then kill a run at N = T (after the last write) and let N = T + 1 finish: it
counts exactly the writes the tracer sees. ``test_05_crash_safety`` then kills at every N.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from spawnkit.files.atomic import BACKUP_TAG

from .test_05_crash_safety import CODEX_CONFIG, CODEX_HOOKS, ORIGINAL
from .writes import World


def _world(tmp_path: Path, host: str) -> World:
    world = World(tmp_path, host)
    if host == "claude-code":
        (world.project / ".claude").mkdir()
        (world.project / ".claude" / "settings.json").write_bytes(ORIGINAL)
    else:
        codex = world.home / ".codex"
        codex.mkdir()
        (codex / "config.toml").write_bytes(CODEX_CONFIG)
        (world.project / ".codex").mkdir()
        (world.project / ".codex" / "hooks.json").write_bytes(CODEX_HOOKS)
    return world


def _git(writes: list, command: str) -> bool:
    return any(e == "subprocess.Popen" and command in args for e, args in writes)


def _count_matches(world: World, start: Path, verb: str) -> list:
    """T writes by the tracer; the switch kills at N = T and lets N = T + 1 finish."""
    world.restore(start)
    code, writes = world.run(verb)
    assert code == 0
    total = len(writes)
    world.restore(start)
    assert world.run(verb, abort=total)[0] == -signal.SIGKILL, (
        f"{verb}: the tracer saw {total} writes but the kill switch counted fewer: {writes}"
    )
    world.restore(start)
    assert world.run(verb, abort=total + 1)[0] == 0, (
        f"{verb}: the kill switch counted more writes than the {total} the tracer saw"
    )
    return writes


def test_claude_code_project_install_and_uninstall(tmp_path: Path):
    world = _world(tmp_path, "claude-code")
    base = world.save("base")
    writes = _count_matches(world, base, "install")
    # after the journal is gone: the backup leaves the project, the template store is made
    backups = str(world.home / ".claude" / ".spawnkit" / "backups")
    assert any(e == "open" and p.startswith(backups) for e, p in writes), writes
    assert _git(writes, "init") and _git(writes, "commit-tree"), writes
    world.restore(base)
    assert world.run("install")[0] == 0
    installed = world.save("installed")
    writes = _count_matches(world, installed, "uninstall")
    # after the journal is gone: install's backup leaves the user's folder (the project's file
    # is back as it was, so it holds nothing more), and uninstall needs none of its own
    assert any(e == "os.remove" and p.startswith(backups) for e, p in writes), writes
    assert not any(e == "open" and p.startswith(backups) for e, p in writes), writes


@pytest.mark.slow
def test_codex_project_install_and_uninstall(tmp_path: Path):
    world = _world(tmp_path, "codex")
    base = world.save("base")
    _count_matches(world, base, "install")
    world.restore(base)
    assert world.run("install")[0] == 0
    _count_matches(world, world.save("installed"), "uninstall")


def test_a_kill_while_the_backup_leaves_the_project_leaves_no_backup_there(tmp_path: Path):
    """A project keeps no backup (it goes to the user's folder): a kill while it moves, once
    the journal was already gone, left ``settings.json.spawnkit-<stamp>.bak`` in the project
    for good. Now the move happens while the journal still covers it."""
    world = _world(tmp_path, "claude-code")
    base = world.save("base")
    code, writes = world.run("install")
    assert code == 0
    backups = str(world.home / ".claude" / ".spawnkit" / "backups")
    copy = next(i for i, (e, p) in enumerate(writes, 1) if e == "open" and p.startswith(backups))
    assert writes[copy][0] == "os.rename" and writes[copy + 1][0] == "os.remove", writes
    world.restore(base)  # killed with the copy made, the project's not yet removed
    assert world.run("install", abort=copy + 1)[0] == -signal.SIGKILL
    assert list(world.project.rglob(f"*{BACKUP_TAG}*"))  # the moment the old code left it
    assert world.run("uninstall")[0] == 0
    assert not list(world.project.rglob(f"*{BACKUP_TAG}*"))
    assert (world.project / ".claude" / "settings.json").read_bytes() == ORIGINAL
