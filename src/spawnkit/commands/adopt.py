"""``spawnkit adopt``: put a hand-written skill under management (and optionally retrofit it)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from spawnkit.hosts import paths
from spawnkit.template.adopt import adopt


def run(path: Path, pairs: tuple[str, ...], retrofit: bool, as_json: bool) -> int:
    result = adopt(path, pairs, paths.claude_config_dir(), retrofit=retrofit)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
        return result.exit_code
    click.echo(
        f"adopted {result.path} at template version {result.version} "
        f"(answers: {result.answers_file})"
    )
    if result.replaced:
        click.echo(f"  replaced the answers file from {result.replaced} (answers kept)")
    if result.backup:
        click.echo(f"  backup: {result.backup}")
    if result.sections_added:
        click.echo(f"  sections added: {', '.join(result.sections_added)}")
    if result.files_added:
        click.echo(f"  files added: {', '.join(result.files_added)}")
    if result.withheld:
        click.echo("  not added, as your own text says otherwise (fix it, then add these by hand):")
        for line in result.withheld:
            click.echo(f"    {line}")
    if retrofit:
        click.echo(
            "  lint: clean" if not result.lint_left else "  lint still reports (fix by hand):"
        )
        for line in result.lint_left:
            click.echo(f"    {line}")
    return result.exit_code
