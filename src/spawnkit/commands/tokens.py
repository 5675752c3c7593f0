"""``spawnkit tokens``: count a file's or stdin's tokens; exit 1 when over ``--budget``."""

from __future__ import annotations

import json

import click

from spawnkit.errors import EXIT_FINDINGS, EXIT_OK
from spawnkit.tokens import report as token_report


def run(source: str | None, as_json: bool, exact: bool, model: str, budget: int | None) -> int:
    report = token_report.measure(source, exact=exact, model=model, budget=budget)
    for warning in report.warnings:
        click.echo(f"spawnkit: warning: {warning}", err=True)
    if as_json:
        click.echo(json.dumps(report.as_dict(), ensure_ascii=False))
    else:
        click.echo(report.tokens)
    if report.over_budget:
        click.echo(f"spawnkit: {token_report.budget_message(report)}", err=True)
        return EXIT_FINDINGS
    return EXIT_OK
