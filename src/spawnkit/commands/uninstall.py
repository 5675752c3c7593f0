"""``spawnkit uninstall``: take back what install added; drop the template store when restorable."""

from __future__ import annotations

from spawnkit import hosts
from spawnkit.commands.planned import run_plan, store_config
from spawnkit.errors import EXIT_OK
from spawnkit.install.install import Target
from spawnkit.install.uninstall import plan_uninstall
from spawnkit.template import store


def run(targets: Target | list[Target], dry_run: bool, yes: bool, as_json: bool) -> int:
    """Uninstall from each target (one per host with ``--host all``); the worst exit code wins."""
    targets = targets if isinstance(targets, list) else [targets]
    plans = [plan_uninstall(target) for target in targets]
    codes = []
    for target, plan in zip(targets, plans, strict=True):
        claude = target.host == hosts.DEFAULT
        store_home = store_config(target)
        note = store.uninstall_note(store_home) if claude else None
        if note:
            plan.notes.append(note)
        code = run_plan(
            "uninstall",
            target,
            plan,
            dry_run,
            yes,
            as_json,
            done=f"Uninstalled. Start a new {target.label} session to drop the hooks.",
            idle="Nothing to remove.",
        )
        if code == EXIT_OK and not dry_run and claude:
            store.remove_if_restorable(store_home)
        codes.append(code)
    return max(codes)
