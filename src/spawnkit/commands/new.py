"""``spawnkit new``: render the template into a new skill folder and say what to do next."""

from __future__ import annotations

import click

from spawnkit.errors import EXIT_OK
from spawnkit.template.scaffold import new_skill


def run(
    name: str,
    dest: str | None,
    scope: str | None,
    data: tuple[str, ...],
    defaults: bool,
    force: bool,
    host: str | None = None,
    *,
    engine: str | None = None,
) -> int:
    made = new_skill(
        name,
        dest=dest,
        scope=scope,
        data=data,
        defaults=defaults,
        force=force,
        host=host,
        engine=engine,
    )
    click.echo(f"Created skill {name} in {made.path}")
    if made.backup is not None:
        click.echo(f"Replaced files were backed up to {made.backup}")
    skill_md = made.path / "SKILL.md"
    if made.engine == "workflow":  # its jobs live in the script, and in fallback.md
        skill_md = made.path / "workflow.js (and fallback.md)"
    if made.in_skills_dir:
        hint = made.host.invoke_hint.format(skill=name)
        click.echo(f"Next: adjust the step jobs in {skill_md}, {hint}.")
    else:
        click.echo(
            f"Next: adjust the step jobs in {skill_md}, then move the folder into a skills "
            f"folder to use it: {_skills_folders()}."
        )
    return EXIT_OK


def _skills_folders() -> str:
    """Each host's first project and user skills folder, from the host descriptions."""
    from spawnkit import hosts
    from spawnkit.hosts.paths import shown

    return ", ".join(
        f"{shown(host, host.project_skill_dirs[0])[0]}/ or "
        f"{shown(host, host.user_skill_dirs[0])[0]}/ ({host.label})"
        for host in hosts.all_hosts()
    )
