"""``spawnkit uninstall``: take back what install added; drop the template store when restorable,
and (user scope) spawnkit's runtime state in the host's folder."""

from __future__ import annotations

from pathlib import Path

from spawnkit import hosts
from spawnkit.commands.planned import prepared, run_plan, store_config
from spawnkit.errors import EXIT_OK
from spawnkit.install import leftovers
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
        # The hook keeps its session state in the host's own folder whatever the scope: only a
        # user-scope uninstall (spawnkit leaving this host) takes it, and only when no hook of
        # spawnkit's stays registered there.
        found = leftovers.survey(target.config_dir, Path.cwd()) if target.scope == "user" else None
        if found is not None and plan.hooks_stay:
            found.sessions, found.logs = [], []
        if found is not None:
            plan.notes += found.notes()
        # The template store serves every skill of the user's and lives in the Claude Code
        # folder: only a user-scope Claude Code uninstall (spawnkit leaving this machine) takes
        # it away, never a project's, a local one or a Codex one.
        store_home = store_config(target) if target.scope == "user" and claude else None
        note = store.uninstall_note(store_home) if store_home is not None else None
        if note:
            plan.notes.append(note)
        cleans = found is not None and bool(found.removable)
        code = run_plan(
            "uninstall",
            target,
            plan,
            dry_run,
            yes,
            as_json,
            done=f"Uninstalled. Start a new {target.label} session to drop the hooks.",
            idle="Removed spawnkit's runtime state; nothing else was installed."
            if cleans and not dry_run
            else "Nothing to remove.",
        )
        if code == EXIT_OK and not dry_run and found is not None:
            leftovers.remove(found)
            prune_empty(plan.prune_dirs)  # the runtime state kept install's folders alive
    if code == EXIT_OK and not dry_run and store_home is not None:
        if store.remove_if_restorable(store_home):
            # the folders install made were kept while the store was in them: try them again
            prune_empty(plan.prune_dirs)
    return code
