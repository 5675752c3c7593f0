"""Reproduction 4: parallel installs on a fresh config folder could all succeed with no hook.

Four `spawnkit install --yes` at once, 50 times: twice every one reported success
and settings.json held 0 hooks (an mkdir race, then one process's rollback rewrote
the others' work). Now install, uninstall and update hold the config folder's lock
from planning to the last write.

The processes are forked after spawnkit is imported and released together by a
barrier, so they really do start the same work at the same moment.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm

from .conftest import run_cli

PROCESSES = 4
ROUNDS = 25


def _install(barrier, config_dir: str, result: str) -> None:
    import io
    import sys

    from spawnkit.cli import cli

    sys.stdout = io.StringIO()
    sys.stderr = io.StringIO()
    code: object = 0
    barrier.wait()
    try:
        cli.main(["install", "--yes", "--config-dir", config_dir], standalone_mode=False)
    except SystemExit as exc:
        code = exc.code or 0
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        code = repr(exc)
    Path(result).write_text(f"{code} {sys.stderr.getvalue()!r}")
    os._exit(0)


@pytest.mark.slow
def test_parallel_installs_all_succeed_and_leave_every_hook(tmp_path: Path):
    context = multiprocessing.get_context("fork")
    for round_no in range(ROUNDS):
        config = tmp_path / f"round{round_no}" / ".claude"
        barrier = context.Barrier(PROCESSES)
        results = [tmp_path / f"result-{round_no}-{i}" for i in range(PROCESSES)]
        workers = [
            context.Process(target=_install, args=(barrier, str(config), str(result)))
            for result in results
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
        codes = [result.read_text() for result in results]
        assert all(code.startswith("0 ") for code in codes), (round_no, codes)
        settings = config / "settings.json"
        assert settings.is_file(), (round_no, "every install succeeded, no settings.json")
        hooks = sm.managed_hooks(settings.read_text())
        assert len(hooks) == len(regs.registrations()), round_no
        record = json.loads((config / ".spawnkit" / "install.json").read_text())
        assert set(record["files"]) >= {"spawnkit.json", "standards/CONTEXT_MANAGEMENT.md"}
        # and it uninstalls cleanly: nothing half-recorded
        assert run_cli("uninstall", "--yes", "--config-dir", str(config)).exit_code == 0
        assert not config.exists() or not any(config.iterdir())
