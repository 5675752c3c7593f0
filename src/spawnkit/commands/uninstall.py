"""``spawnkit uninstall``: take back what install added; drop the template store when restorable."""

from __future__ import annotations

from spawnkit.commands.planned import prepared, run_plan, store_config
from spawnkit.errors import EXIT_OK
from spawnkit.install.install import Target
from spawnkit.install.uninstall import plan_uninstall
from spawnkit.template import store


def run(target: Target, dry_run: bool, yes: bool, as_json: bool, force: bool = False) -> int:
    with prepared(target, dry_run) as notes:
        plan = plan_uninstall(target, force=force)
        plan.notes[:0] = notes
        # The template store serves every skill of the user's: only a user-scope uninstall
        # (spawnkit leaving this machine) takes it away, never a project's or a local one.
        store_home = store_config(target) if target.scope == "user" else None
        note = store.uninstall_note(store_home) if store_home is not None else None
        if note:
            plan.notes.append(note)
        code = run_plan(
            "uninstall",
            target,
            plan,
            dry_run,
            yes,
            as_json,
            done="Uninstalled. Start a new Claude Code session to drop the hooks.",
            idle="Nothing to remove.",
        )
    if code == EXIT_OK and not dry_run and store_home is not None:
        store.remove_if_restorable(store_home)
    return code
