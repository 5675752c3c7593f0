"""What install and uninstall share: show a plan, confirm it, apply it, report.

Kept apart from the planning modules (``spawnkit.install``) so those stay plain
functions over files; this is the only place that talks to the terminal for them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import click

from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, SpawnkitError
from spawnkit.files import interrupts
from spawnkit.files.lock import lock_folder, locked
from spawnkit.hosts import paths
from spawnkit.install import journal
from spawnkit.install.changes import (
    Plan,
    apply,
    check_writable,
    display,
    drop_personal_temps,
    personal_backup_path,
)
from spawnkit.install.install import CONFIG_NAME, LOCAL_CONFIG_NAME, Target, not_a_folder


@contextmanager
def prepared(target: Target, dry_run: bool) -> Iterator[list[str]]:
    """Hold the config folder's lock and roll back an interrupted run; yields notes.

    Plan, confirmation and apply all happen inside, so two spawnkits never plan
    from the same state. A dry run writes nothing: it only says that a real run
    would roll back first.
    """
    problem = not_a_folder(target)
    if problem:
        raise SpawnkitError(problem)
    roots = [(target.root, target.trusted)]
    if target.trust_root is not None:  # a Codex project: its trust is in the user's folder
        roots.append((target.trust_root, True))
    if dry_run:
        found = [p for p in (journal.find(root) for root, _ in roots) if p is not None]
        yield [
            f"an earlier spawnkit run was interrupted ({pending}); a real run rolls it back"
            " first, so this plan may differ from what it does"
            for pending in found
        ]
        return
    with ExitStack() as stack:
        held: set[Path] = set()
        for root, _ in roots:
            if lock_folder(root) not in held:
                held.add(lock_folder(root))
                stack.enter_context(locked(root))
        notes: list[str] = []
        for root, trusted in roots:
            notes += journal.recover(root, trusted)
            if not trusted:  # a project: its backups' half-made copies in the user's folder
                drop_personal_temps(root)
        yield notes


def store_config(target: Target) -> Path:
    """The template store lives in the user's Claude Code folder whatever the scope or host:
    skills everywhere use it."""
    if target.scope == "user" and target.host == "claude-code":
        return target.config_dir
    return paths.claude_config_dir()


def run_plan(
    verb: str,
    target: Target,
    plan: Plan,
    dry_run: bool,
    yes: bool,
    as_json: bool,
    done: str,
    idle: str,
) -> int:
    """Show the plan, ask on a terminal, apply it; exit 0, or 1 when ``plan.warnings`` remain.

    Answering no is an abort like Ctrl-C (exit 130, nothing written), not a finding.
    """
    pending = plan.all_pending
    if not dry_run:
        check_writable(plan)  # refuse before printing a plan that cannot happen
    code = EXIT_FINDINGS if plan.warnings else EXIT_OK
    if as_json:
        if pending and not dry_run:
            _apply(plan)
        _emit_json(verb, target, plan, applied=bool(pending) and not dry_run, dry_run=dry_run)
        return code
    click.echo(f"spawnkit {verb}: {target.label}, {target.scope} scope, {target.config_dir}")
    if dry_run:
        click.echo(plan.diff(target.root), nl=False)
        _summary(plan, target)
        _warn(plan)
        click.echo(f"dry run: {len(pending)} file(s) would change; nothing was written.")
        return code
    _summary(plan, target)
    _warn(plan)
    if (
        pending
        and not yes
        and interactive()
        and not click.confirm("Apply these changes?", default=True)
    ):
        raise click.exceptions.Abort  # "aborted, nothing written", exit 130
    if pending:
        _apply(plan)
    click.echo(done if pending else idle)
    return code


def _apply(plan: Plan) -> None:
    with interrupts.writing():  # a Ctrl-C waits until every file is whole (the journal too)
        apply(plan)  # and moves a project's backups to the user's folder


def _warn(plan: Plan) -> None:
    for warning in plan.warnings:
        click.echo(f"spawnkit: warning: {warning}", err=True)


def interactive() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _summary(plan: Plan, target: Target) -> None:
    rows = plan.all_pending
    width = max((len(display(c.path, target.root)) for c in rows), default=0)
    for change in rows:
        name = display(change.path, target.root)
        extra = ""
        if change.action in ("create", "delete"):
            size = len(change.after if change.after is not None else change.before or b"")
            extra = f" ({size:,} bytes)"
        saved = personal_backup_path(change, target.config_dir)
        if saved is not None:
            shown = saved.name if saved.parent == change.path.parent else str(saved)
            extra += f" (backup: {shown})"
        if change.path.name in (CONFIG_NAME, LOCAL_CONFIG_NAME) and change.after is not None:
            extra += f" (mode: {_mode(change.after)})"
        action = {"create": "create", "update": "update", "delete": "remove"}[change.action]
        click.echo(f"  {action:<7} {name:<{width}}  {change.label}{extra}")
    for note in plan.notes:
        click.echo(f"  note: {note}")


def _mode(config: bytes) -> str:
    try:
        return str(json.loads(config).get("mode", "?"))
    except (ValueError, AttributeError):
        return "?"


def _emit_json(verb: str, target: Target, plan: Plan, applied: bool, dry_run: bool) -> None:
    data: dict[str, Any] = {
        "command": verb,
        "host": target.host,
        "scope": target.scope,
        "config_dir": str(target.config_dir),
        "settings": str(target.settings_path),
        "dry_run": dry_run,
        "applied": applied,
        "changes": [
            {
                "path": str(c.path),
                "action": c.action,
                "what": c.label,
                "backup": (
                    str(personal_backup_path(c, target.config_dir))
                    if c.backup_path and applied
                    else None
                ),
                "bytes": len(c.after if c.after is not None else c.before or b""),
            }
            for c in plan.all_pending
        ],
        "notes": plan.notes,
        "warnings": plan.warnings,
    }
    if dry_run:
        data["diff"] = plan.diff(target.root)
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))
