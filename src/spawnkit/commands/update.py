"""``spawnkit update``: check for or apply template updates to managed skills."""

from __future__ import annotations

import json
from pathlib import Path

import click

from spawnkit.errors import SpawnkitError
from spawnkit.hosts import paths
from spawnkit.template import update as updating


def run(
    skills: tuple[str, ...], all_skills: bool, check: bool, dry_run: bool, as_json: bool
) -> int:
    if skills and all_skills:
        raise SpawnkitError("pass skill names or --all, not both")
    if check and dry_run:
        raise SpawnkitError("pass --check or --dry-run, not both")
    if not skills and not all_skills and not check:
        raise SpawnkitError(
            "name the skills to update, or pass --all (list them with `spawnkit update --check`)"
        )
    config_dir, cwd = paths.claude_config_dir(), Path.cwd()
    if check:
        outcome = updating.check(skills, config_dir, cwd)
    else:
        progress = (lambda _m: None) if as_json else (lambda m: click.echo(m + " …", err=True))
        outcome = updating.update(skills, config_dir, cwd, dry_run=dry_run, progress=progress)
    if as_json:
        click.echo(json.dumps(outcome.to_json(), indent=2))
    else:
        click.echo(updating.format_text(outcome, check))
    return outcome.exit_code
