"""``spawnkit install``: lock, plan, confirm, apply; then make sure the template store exists."""

from __future__ import annotations

import click

from spawnkit.commands.planned import prepared, run_plan, store_config
from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, SpawnkitError
from spawnkit.install.install import Target, plan_install
from spawnkit.template import store


def run(
    target: Target, mode: str | None, dry_run: bool, yes: bool, as_json: bool, force: bool = False
) -> int:
    with prepared(target, dry_run) as notes:
        plan = plan_install(target, mode, force=force)
        plan.notes[:0] = notes
        store_home = store_config(target)
        note = store.install_note(store_home)
        if note:
            plan.notes.append(note)
        code = run_plan(
            "install",
            target,
            plan,
            dry_run,
            yes,
            as_json,
            done="Installed. Start a new Claude Code session to load the hooks;"
            " `spawnkit doctor` checks them.",
            idle=f"spawnkit is already installed and up to date in {target.config_dir}.",
        )
    if code == EXIT_OK and not dry_run:
        try:
            store.ensure_store(store_home)  # what `spawnkit update` needs; idempotent
        except SpawnkitError as exc:
            click.echo(
                f"spawnkit: warning: the template store for `spawnkit update` was not set up: {exc}",
                err=True,
            )
            return EXIT_FINDINGS
    return code
