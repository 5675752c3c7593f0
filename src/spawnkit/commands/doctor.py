"""``spawnkit doctor``: run every check, print them (text or JSON), exit 1 when one is broken."""

from __future__ import annotations

import json

import click

from spawnkit.base.shown import shown
from spawnkit.errors import EXIT_FINDINGS, EXIT_OK
from spawnkit.install.doctor import BROKEN, OK, WARN, as_dict, run_checks
from spawnkit.install.install import Target


def run(targets: Target | list[Target], as_json: bool, run_hook: bool = False) -> int:
    """Print every check of every host asked for; exit 1 when one is broken.

    ``--json`` prints one object per host; with ``--host all`` they come in a list under
    ``hosts``."""
    targets = targets if isinstance(targets, list) else [targets]
    reports = [_report(target, as_json, run_hook) for target in targets]
    if as_json:
        data = (
            reports[0]
            if len(reports) == 1
            else {
                "ok": all(r["ok"] for r in reports),
                "hosts": reports,
            }
        )
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    return EXIT_OK if all(r["ok"] for r in reports) else EXIT_FINDINGS


def _report(target: Target, as_json: bool, run_hook: bool) -> dict:
    results = run_checks(target, run_hook=run_hook)
    broken = sum(r.status == BROKEN for r in results)
    warned = sum(r.status == WARN for r in results)
    report = {
        "host": target.host,
        "scope": target.scope,
        "config_dir": str(target.config_dir),
        "ok": broken == 0,
        "checks": [as_dict(r) for r in results],
    }
    if not as_json:  # each line through the output gate: details quote the files read
        say = lambda line: click.echo(shown(line))  # noqa: E731
        say(f"spawnkit doctor: {target.label}, {target.scope} scope, {target.config_dir}")
        width = max(len(r.name) for r in results)
        for r in results:
            say(f"  {r.status:<6}  {r.name:<{width}}  {r.detail}")
            if r.fix and r.status != OK:
                say(f"  {'':<6}  {'':<{width}}  fix: {r.fix}")
        say(f"{broken} broken, {warned} warning(s)" if broken or warned else "all good")
    return report
