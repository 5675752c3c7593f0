"""The ``spawnkit`` command line: parse options, call a plain function, map errors to exit codes.

Heavy modules (copier above all) are imported inside the commands that need them.
"""

from __future__ import annotations

import sys

import click

from spawnkit import __version__
from spawnkit.errors import EXIT_USAGE, SpawnkitError


class _Group(click.Group):
    """Turn SpawnkitError into ``spawnkit: error: …`` and its exit code."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except SpawnkitError as exc:
            click.echo(f"spawnkit: error: {exc}", err=True)
            ctx.exit(exc.exit_code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="spawnkit")
def cli() -> None:
    """Scaffold, lint and guard Claude Code skills that spawn sub-agents.

    Every sub-agent's final answer lands in the orchestrator's context window;
    spawnkit keeps those answers short and the full results on disk.
    """


# --- new (issue 2) -----------------------------------------------------------


# --- tokens (issue 3) --------------------------------------------------------


# --- lint, rule (issue 4) ----------------------------------------------------


# --- install, uninstall, doctor (issue 6) ------------------------------------


# --- update, adopt (issue 7) -------------------------------------------------


def main() -> None:
    try:
        cli(prog_name="spawnkit")
    except KeyboardInterrupt:
        click.echo("spawnkit: interrupted", err=True)
        sys.exit(130)


__all__ = ["cli", "main", "EXIT_USAGE"]
