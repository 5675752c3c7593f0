"""``spawnkit uninstall``: take back exactly what install added, and nothing else.

Settings entries go by their marker, and only when their command is one spawnkit
writes (an entry someone changed is kept and named, unless ``force``); files by
the install record, and only when unchanged since (an edited standard stays, and
the user is told); a file install had replaced comes back from its backup. A
record this machine's spawnkit did not write (one that came with a cloned
project) never makes uninstall delete a file. User skills are never looked at.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from spawnkit.errors import SpawnkitError
from spawnkit.files import contain
from spawnkit.files.atomic import BACKUP_SUFFIX, BACKUP_TAG, timestamp
from spawnkit.install import codex_config, guard
from spawnkit.install import manifest as mf
from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm
from spawnkit.install.changes import Change, Plan, personal_backups_dir
from spawnkit.install.install import (
    Target,
    _own_trust,
    check_paths,
    decode,
    entry_notes,
    label_for,
    read_bytes,
    trust_in,
)


def plan_uninstall(target: Target, *, force: bool = False, install_id: str | None = None) -> Plan:
    """Every change an uninstall would make. ``force`` also removes changed marked entries.

    Install's backups of a hooks file (and of Codex's config.toml) go too once the file comes
    back byte for byte as it was before the first install (``settle_backups``); the runtime
    state in the host's folder is ``leftovers``' (the command removes it after the plan).

    A Codex project's trust entries (in the user's config.toml) go first: were the run
    killed after the project's record is gone, nothing would say which entries were ours."""
    return _trust_first(_plan_uninstall(target, force=force, install_id=install_id))


def _trust_first(plan: Plan) -> Plan:
    if plan.then is None:
        return plan
    first, plan.then = plan.then, None
    first.then, first.notes, plan.notes = plan, plan.notes, []
    first.hooks_stay = plan.hooks_stay
    return first


def _plan_uninstall(target: Target, *, force: bool, install_id: str | None) -> Plan:
    plan = Plan(config_dir=target.root, trusted=target.trusted)
    if not target.trusted:
        plan.install_id = install_id or mf.install_id() or os.urandom(16).hex()
    found = mf.read(target.config_dir, target.local)
    ours = found is not None and (target.trusted or found.written_here())
    old = found if ours else None
    path = target.settings_path
    guard.check_link(path)
    before = read_bytes(path)
    record = old.settings.get(path.name) if old else None
    try:
        result = sm.remove(
            decode(before, path),
            record.created_keys if record else (),
            record.blank_original if record else None,
            name=str(path),
            force=force,
            client=target.label,
            empty_inner=record.empty_inner if record else None,
        )
    except sm.SettingsError as exc:
        raise SpawnkitError(str(exc)) from None
    plan.notes += entry_notes(path.name, result, "uninstall")
    plan.hooks_stay = bool(result.kept or sm.spawnkit_plugins(decode(before, path), str(path)))
    after = None if result.text is None else result.text.encode("utf-8")
    original = record.original if record else mf.Original()
    forced = any(not regs.is_generated(entry.command) for entry in result.removed)
    settled = settle_backups(target, path, original, after, forced)
    plan.changes.append(
        Change(
            path,
            before,
            after,
            "hook registrations",
            # back as before install (or a file install created, now holding nothing): the
            # file itself is the copy, no backup of spawnkit's entries is needed
            backup_stamp=None if after is None or settled.quiet else timestamp(),
            personal_backup=not target.trusted,
        )
    )
    settled.into(plan, plan)
    if target.trust_path is not None:
        trust, settled = _trust_removal(target, old, decode(before, path))
        if trust is not None:
            trust_in(target, plan).changes.append(trust)
            settled.into(plan, trust_in(target, plan))
        after = result.text
        plan.notes += _moved_user_hooks(str(path), decode(before, path), after)
    manifest_path = target.record_path
    if found is not None and old is None:
        kept = ", ".join(sorted(found.files)) or "no files"
        plan.notes.append(
            f"{manifest_path} was not written by spawnkit on this machine (copied or cloned?):"
            f" the files it lists ({kept}) are left where they are; delete them yourself if"
            " you want them gone"
        )
        check_paths(target, plan)
        return plan
    if old is None:
        if not plan.pending:
            plan.notes.append(f"spawnkit is not installed in {target.config_dir}; nothing to do")
        check_paths(target, plan)
        return plan
    others = {name: rec for name, rec in old.settings.items() if name != path.name}
    if others:
        # The other scope sharing this folder still needs the standard, skill and config.
        kept_record = mf.Manifest(old.version, others, old.files, old.dirs, old.install_id)
        plan.changes.append(
            Change(
                manifest_path, read_bytes(manifest_path), kept_record.to_bytes(), "install record"
            )
        )
        plan.notes.append(
            f"kept the standard, skill and config: {', '.join(sorted(others))} still uses them"
        )
        check_paths(target, plan)
        return plan
    for rel, rec in sorted(old.files.items()):
        _take_back(plan, target, rel, rec)
    plan.changes.append(Change(manifest_path, read_bytes(manifest_path), None, "install record"))
    plan.prune_dirs = [
        target.root / d
        for d in sorted(old.dirs, key=lambda d: (d.count("/"), d != "."), reverse=True)
    ]
    check_paths(target, plan)
    return plan


def _take_back(plan: Plan, target: Target, rel: str, rec: mf.FileRecord) -> None:
    path = target.root / rel
    if not target.trusted and (
        contain.problem(path, target.settings_bounds)
        or contain.problem(path, target.root, final_link=False)
    ):
        plan.notes.append(f"kept {path}: it is a link, or a link on its way leads elsewhere")
        return
    current = read_bytes(path)
    if current is None:
        return
    if rec.preexisting:
        plan.notes.append(f"kept {path}: it was there before spawnkit installed")
        return
    if mf.sha256(current) != rec.sha256:
        plan.notes.append(
            f"kept {path}: it changed since spawnkit installed it; delete it"
            " yourself if you no longer need it"
        )
        return
    saved = path.with_name(rec.replaced_backup) if rec.replaced_backup else None
    original = read_bytes(saved) if saved else None
    if saved is not None and original is not None:
        plan.changes.append(Change(path, current, original, "restored from backup"))
        plan.changes.append(Change(saved, original, None, "backup (restored)"))
    else:
        plan.changes.append(Change(path, current, None, label_for(rel)))


@dataclass
class Settled:
    """What becomes of install's backups of one file (see ``settle_backups``)."""

    quiet: bool = False  # uninstall needs no backup of its own
    changes: list[Change] = field(default_factory=list)  # backups removed, in the file's folder
    drop_after: list[Path] = field(default_factory=list)  # a project's, in the user's folder
    notes: list[str] = field(default_factory=list)

    def into(self, plan: Plan, changes: Plan) -> None:
        changes.changes += self.changes
        plan.drop_after += self.drop_after
        plan.notes += self.notes


def settle_backups(
    target: Target, path: Path, original: mf.Original, after: bytes | None, forced: bool = False
) -> Settled:
    """Install's backups of ``path`` go when uninstall leaves it as it was before the first
    install (they hold nothing the file does not then); else they stay, named.

    ``quiet`` when ``after`` is a state of the file the record or a backup already holds and
    nothing the user wrote is dropped (``forced``: an entry someone changed goes with
    ``--force``): then uninstall needs no backup of its own either."""
    done = Settled()
    personal = not target.trusted and path != target.trust_path
    folder = personal_backups_dir(target.root) if personal else path.parent
    ours = [folder / name for name in original.backups if _names_a_backup(name, path)]
    present = [saved for saved in ours if os.path.lexists(saved)]
    exact = original.matches(after)
    copies = [] if personal else _identical_backups(path, after)
    if not exact:
        if present:
            done.notes.append(
                f"kept {', '.join(str(p) for p in present)}: {path.name} is not as it was before"
                " install (edited since), so install's backups of it may still matter; delete"
                " them yourself once they do not"
            )
        present = []
    for saved in dict.fromkeys([*present, *copies]):
        if personal:
            done.drop_after.append(saved)
            continue
        data = read_bytes(saved)
        if data is not None:
            label = f"install's backup: {path.name} is back as it was"
            done.changes.append(Change(saved, data, None, label))
    done.quiet = (exact or bool(copies)) and not forced
    return done


def _names_a_backup(name: str, path: Path) -> bool:
    """``name`` is one of spawnkit's backups of ``path`` (a record names nothing else)."""
    return name.startswith(path.name + BACKUP_TAG) and name.endswith(BACKUP_SUFFIX)


MAX_SCANNED = 256  # entries looked at beside a file for identical backups


def _identical_backups(path: Path, after: bytes | None) -> list[Path]:
    """spawnkit's backups of ``path`` beside it whose bytes are ``after`` exactly: copies of
    nothing but what the file holds (left by an install that recorded no backups)."""
    if after is None:
        return []
    found = []
    try:
        with os.scandir(path.parent) as entries:
            for count, entry in enumerate(entries):
                if count >= MAX_SCANNED:
                    break
                if _names_a_backup(entry.name, path) and entry.is_file(follow_symlinks=False):
                    try:
                        data = read_bytes(Path(entry.path))
                    except SpawnkitError:
                        continue
                    if data == after:
                        found.append(Path(entry.path))
    except OSError:
        return []
    return sorted(found)


def _trust_removal(
    target: Target, old: mf.Manifest | None, hooks_text: str | None
) -> tuple[Change | None, Settled]:
    """config.toml without spawnkit's trust entries (Codex), byte for byte as before install.

    Without an install record (deleted or damaged), the entries of spawnkit's handlers
    still in the hooks file are found by their keys and removed as they stand."""
    path = target.trust_path
    assert path is not None
    recorded = old.trust if old is not None and old.trust else None
    if recorded and recorded.get("path") != str(path):
        recorded = None  # a record about another config.toml: never act on it here
    before = read_bytes(path)
    if before is None:
        return None, Settled()
    if recorded:
        record = codex_config.TrustRecord.from_json(recorded)
    else:
        record = codex_config.TrustRecord(_own_trust(str(target.settings_path), hooks_text or ""))
    try:
        after = codex_config.remove(decode(before, path), record, str(path))
    except codex_config.ConfigError as exc:
        raise SpawnkitError(str(exc)) from None
    data = None if after is None else after.encode("utf-8")
    original = mf.Original.from_json(recorded.get("original")) if recorded else mf.Original()
    settled = settle_backups(target, path, original, data)
    # a file install created and that holds nothing else now needs no backup (it would keep
    # the folder alive that install created too), nor one back as it was before install
    stamp = None if (after is None and record.created) or settled.quiet else timestamp()
    return Change(path, before, data, "hook trust", backup_stamp=stamp), settled


def _moved_user_hooks(source: str, before: str | None, after: str | None) -> list[str]:
    """Hooks of the user's that sat after spawnkit's in hooks.json move up when spawnkit's go,
    and Codex keys trust by position: say which will need trusting again."""
    import json

    from spawnkit.install import codex_trust

    def keyed(text: str | None) -> dict[tuple[str, str], str]:
        try:
            hooks = json.loads(text).get("hooks", {}) if text and text.strip() else {}
        except (ValueError, AttributeError):
            return {}
        found = {}
        for key, value in codex_trust.expected_entries(source, hooks).items():
            event = key[len(source) + 1 :].split(":")[0]
            found[(event, value)] = key
        return found

    old, new = keyed(before), keyed(after)
    return [
        f"your hook at {old[k][len(source) + 1 :]} in {source} moves to"
        f" {new[k][len(source) + 1 :]}; Codex keys trust by position, so trust it again in Codex"
        for k in new
        if k in old and old[k] != new[k]
    ]
