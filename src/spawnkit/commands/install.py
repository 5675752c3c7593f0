"""``spawnkit install``: per host, lock, plan, confirm, apply; then make sure the template store
exists (Claude Code only)."""

from __future__ import annotations

import os

import click

from spawnkit import hosts
from spawnkit.commands import planned
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
    *,
    explicit_dir: bool = False,
) -> int:
    """Install into each target (one per host with ``--host all``), one after the other, each
    under its own lock; the worst exit code wins."""
    targets = targets if isinstance(targets, list) else [targets]
    return max(
        _run_one(t, mode, dry_run, yes, as_json, force, explicit_dir=explicit_dir) for t in targets
    )


def _run_one(
    target: Target,
    mode: str | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
    force: bool,
    *,
    explicit_dir: bool = False,
) -> int:
    claude = target.host == hosts.DEFAULT
    missing = explicit_dir and not os.path.lexists(target.config_dir)
    if missing and not dry_run:
        confirm_new_folder(target, yes, as_json)
    with prepared(target, dry_run) as notes:
        plan = plan_install(target, mode, force=force)
        plan.notes[:0] = notes
        if missing and dry_run and not yes:
            plan.notes.append(
                f"{target.config_dir} does not exist: a real install asks before creating it"
                " (without a terminal it needs --yes)"
            )
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
    if code in (EXIT_OK, EXIT_FINDINGS) and not dry_run and claude:
        try:
            store.ensure_store(store_home)  # idempotent
        except SpawnkitError as exc:
            click.echo(
                f"spawnkit: warning: the template store for `spawnkit update` was not set up: {exc}",
                err=True,
            )
            return EXIT_FINDINGS
    return code


def confirm_new_folder(target: Target, yes: bool, as_json: bool) -> None:
    """``--config-dir`` naming a folder that does not exist is more often a typo than a wish:
    ask on a terminal, accept ``--yes``, refuse otherwise (writing nothing)."""
    folder = target.config_dir
    if yes:
        return
    if not as_json and planned.interactive():
        if click.confirm(f"{folder} does not exist. Create it and install there?", default=False):
            return
        raise click.exceptions.Abort
    raise SpawnkitError(
        f"--config-dir {folder} does not exist; check the path, or pass --yes to create it"
    )
