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
) -> int:
    made = new_skill(
        name, dest=dest, scope=scope, data=data, defaults=defaults, force=force, host=host
    )
    click.echo(f"Created skill {name} in {made.path}")
    if made.backup is not None:
        click.echo(f"Replaced files were backed up to {made.backup}")
    skill_md = made.path / "SKILL.md"
    if made.in_skills_dir:
        hint = made.host.invoke_hint.format(skill=name)
        click.echo(f"Next: adjust the step jobs in {skill_md}, {hint}.")
    else:
        click.echo(
            f"Next: adjust the step jobs in {skill_md}, then move the folder into a skills "
            "folder to use it: .claude/skills/ or ~/.claude/skills/ (Claude Code), "
            ".agents/skills/ or ~/.codex/skills/ (Codex), .github/skills/ or "
            "~/.copilot/skills/ (Copilot CLI)."
        )
    return EXIT_OK
