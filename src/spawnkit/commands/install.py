"""``spawnkit install``: per host, lock, plan, confirm, apply; then make sure the template store
exists (Claude Code only)."""

from __future__ import annotations

import click

from spawnkit import hosts
from spawnkit.commands.planned import prepared, run_plan, store_config
from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, SpawnkitError
from spawnkit.install.install import Target, plan_install
from spawnkit.template import store


def run(
    targets: Target | list[Target],
    mode: str | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
    force: bool = False,
) -> int:
    """Install into each target (one per host with ``--host all``), one after the other, each
    under its own lock; the worst exit code wins."""
    targets = targets if isinstance(targets, list) else [targets]
    return max(_run_one(t, mode, dry_run, yes, as_json, force) for t in targets)


def _run_one(
    target: Target, mode: str | None, dry_run: bool, yes: bool, as_json: bool, force: bool
) -> int:
    claude = target.host == hosts.DEFAULT
    with prepared(target, dry_run) as notes:
        plan = plan_install(target, mode, force=force)
        plan.notes[:0] = notes
        store_home = store_config(target)
        note = store.install_note(store_home) if claude else None
        if note:
            plan.notes.append(note)
        check = "spawnkit doctor" if claude else f"spawnkit doctor --host {target.host}"
        code = run_plan(
            "install",
            target,
            plan,
            dry_run,
            yes,
            as_json,
            done=f"Installed. Start a new {target.label} session to load the hooks; `{check}`"
            " checks them.",
            idle=f"spawnkit is already installed and up to date in {target.config_dir}.",
        )
    # The template store (what `spawnkit update` needs) lives in the Claude Code folder; a
    # Codex install does not create that folder (`spawnkit new` sets the store up on use).
    if code == EXIT_OK and not dry_run and claude:
        try:
            store.ensure_store(store_home)  # idempotent
        except SpawnkitError as exc:
            click.echo(
                f"spawnkit: warning: the template store for `spawnkit update` was not set up: {exc}",
                err=True,
            )
            return EXIT_FINDINGS
    return code
