"""``spawnkit uninstall``: take back what install added; drop the template store when restorable."""

from __future__ import annotations

from spawnkit import hosts
from spawnkit.commands.planned import prepared, run_plan, store_config
from spawnkit.errors import EXIT_OK
from spawnkit.install.changes import prune_empty
from spawnkit.install.install import Target
from spawnkit.install.uninstall import plan_uninstall
from spawnkit.template import store


def run(
    targets: Target | list[Target], dry_run: bool, yes: bool, as_json: bool, force: bool = False
) -> int:
    """Uninstall from each target (one per host with ``--host all``); the worst exit code wins."""
    targets = targets if isinstance(targets, list) else [targets]
    return max(_run_one(t, dry_run, yes, as_json, force) for t in targets)


def _run_one(target: Target, dry_run: bool, yes: bool, as_json: bool, force: bool) -> int:
    claude = target.host == hosts.DEFAULT
    with prepared(target, dry_run) as notes:
        plan = plan_uninstall(target, force=force)
        plan.notes[:0] = notes
        # The template store serves every skill of the user's and lives in the Claude Code
        # folder: only a user-scope Claude Code uninstall (spawnkit leaving this machine) takes
        # it away, never a project's, a local one or a Codex one.
        store_home = store_config(target) if target.scope == "user" and claude else None
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
            done=f"Uninstalled. Start a new {target.label} session to drop the hooks.",
            idle="Nothing to remove.",
        )
    if code == EXIT_OK and not dry_run and store_home is not None:
        if store.remove_if_restorable(store_home):
            # the folders install made were kept while the store was in them: try them again
            prune_empty(plan.prune_dirs)
    return code
