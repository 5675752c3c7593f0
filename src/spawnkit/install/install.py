"""``spawnkit install``: put the standard, the hooks, the skill and the mode into Claude Code.

Everything is planned first (``plan_install``) and written by ``changes.apply``,
so a dry run, a confirmation prompt and a refusal all happen before any byte
moves. Running it twice changes nothing the second time.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from spawnkit import __version__, paths, resources
from spawnkit.atomic import timestamp
from spawnkit.errors import SpawnkitError
from spawnkit.install import guard
from spawnkit.install import manifest as mf
from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm
from spawnkit.install.changes import Change, Plan

SCOPES = ("user", "project", "local")
MODES = ("warn", "enforce")
DEFAULT_MODE = "warn"
CONFIG_NAME = "spawnkit.json"
LOCAL_CONFIG_NAME = "spawnkit.local.json"  # the local scope's mode; read by the hook too
CONFIG_FORMAT = 1
STANDARD = Path("standards") / "CONTEXT_MANAGEMENT.md"
SKILL = Path("skills") / "spawnkit"


@dataclass(frozen=True)
class Target:
    """Where an install goes: the Claude Code folder and the settings file inside it."""

    scope: str
    config_dir: Path
    settings_path: Path

    @property
    def trusted(self) -> bool:
        """The user scope: the config folder the user runs Claude Code with (or names with
        ``--config-dir``). A project's ``.claude`` may have come with ``git clone``: its
        records need this machine's install id, and every write must stay inside it."""
        return self.scope == "user"

    @property
    def local(self) -> bool:
        """This machine only: it touches ``settings.local.json``, ``spawnkit.local.json`` and its
        own record, never a file a project commits (the shared settings, config, standard, skill
        or record)."""
        return self.scope == "local"

    @property
    def config_name(self) -> str:
        return LOCAL_CONFIG_NAME if self.local else CONFIG_NAME

    @property
    def record_path(self) -> Path:
        return mf.path_in(self.config_dir, self.local)

    @property
    def settings_bounds(self) -> Path:
        """Where a symlinked settings file of a project may point: inside the project."""
        return self.config_dir.parent


def resolve_target(
    scope: str = "user", config_dir: str | Path | None = None, cwd: str | Path | None = None
) -> Target:
    """user: $CLAUDE_CONFIG_DIR or ~/.claude; project/local: ./.claude; --config-dir wins."""
    if scope not in SCOPES:
        raise SpawnkitError(f"unknown scope {scope!r}; use one of {', '.join(SCOPES)}")
    if config_dir is not None:
        base = Path(config_dir).expanduser()
    elif scope == "user":
        base = paths.claude_config_dir()
    else:
        base = paths.project_claude_dir(cwd)
    base = base.absolute()
    name = "settings.local.json" if scope == "local" else "settings.json"
    return Target(scope, base, base / name)


def plan_install(
    target: Target,
    mode: str | None = None,
    python: str | None = None,
    *,
    force: bool = False,
    install_id: str | None = None,
) -> Plan:
    """Every change an install would make; ``mode`` None keeps the configured mode.

    ``force`` replaces marked hook entries someone changed (by default they are kept
    and reported). ``install_id`` is recorded in an untrusted folder's record (default:
    this machine's, or a placeholder for a dry run on a machine that has none yet).
    """
    if mode is not None and mode not in MODES:
        raise SpawnkitError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    stamp = timestamp()
    plan = Plan(config_dir=target.config_dir, trusted=target.trusted)
    if not target.trusted:
        plan.install_id = install_id or mf.install_id() or os.urandom(16).hex()
    found = mf.read(target.config_dir, target.local)
    old = found if found is None or target.trusted or found.written_here() else None
    if found is not None and old is None:
        plan.notes.append(
            f"{target.record_path} was not written by spawnkit on this machine"
            " (copied or cloned?): it is replaced, and the files it lists are not deleted by a"
            " later uninstall"
        )
    old = old or mf.Manifest()
    new = mf.Manifest(
        __version__, dict(old.settings), dict(old.files), list(old.dirs), plan.install_id
    )
    plan.changes.append(_settings_change(target, old, new, python, stamp, plan, force))
    if target.local:
        plan.notes.append(
            "local scope: the standard and the spawnkit skill are not copied into the project"
            " (its files are shared); `spawnkit install` puts them in your own folder"
        )
    else:
        for rel, data, label in _bundled_files():
            plan.changes.append(
                _file_change(target.config_dir, rel, data, label, old, new, stamp, plan)
            )
    config = target.config_dir / target.config_name
    current = read_bytes(config)
    plan.changes.append(
        _file_change(
            target.config_dir,
            Path(target.config_name),
            config_bytes(current, mode, config),
            label_for(target.config_name),
            old,
            new,
            stamp,
            plan,
        )
    )
    manifest_path = target.record_path
    record = Change(manifest_path, read_bytes(manifest_path), b"", "install record")
    plan.changes.append(record)
    new.dirs = sorted(set(new.dirs) | _dirs_to_create(target.config_dir, plan.changes))
    record.after = new.to_bytes()
    check_paths(target, plan)
    return plan


def check_paths(target: Target, plan: Plan) -> None:
    """Refuse, before anything is written, a change that would land outside its folder.

    A dangling or looping symlink is refused everywhere. In an untrusted folder no
    file may be a symlink or sit below one that leads out of the folder (the settings
    file may link elsewhere inside the project).
    """
    for change in plan.pending:
        path = change.path
        guard.check_link(path)
        if target.trusted:
            continue
        if path == target.settings_path:
            bounds, ok = target.settings_bounds, guard.inside(path, target.settings_bounds)
        else:
            bounds = target.config_dir
            ok = not path.is_symlink() and guard.inside(path, bounds)
        if not ok:
            raise SpawnkitError(
                f"{path} leads to {os.path.realpath(path)}, outside {bounds}: refused, nothing"
                " was changed (a symlink in a project folder must not send spawnkit's writes"
                " elsewhere); remove the link, then run the command again"
            )


def config_bytes(current: bytes | None, mode: str | None, path: Path) -> bytes:
    """spawnkit.json with ``mode`` set, every other key of the user's kept as written."""
    if current is None:
        data = {"version": CONFIG_FORMAT, "mode": mode or DEFAULT_MODE}
        return (json.dumps(data, indent=2) + "\n").encode("utf-8")
    if mode is None:
        return current
    text = decode(current, path)
    try:
        return sm.set_top_level(text, "mode", mode).encode("utf-8")
    except ValueError as exc:
        raise SpawnkitError(
            f"{path} is not a JSON object ({exc}); fix it or delete it, then run spawnkit"
            " install again"
        ) from None


def read_bytes(path: Path) -> bytes | None:
    """A file install reads: plain, bounded, None when missing (see ``guard.read_file``)."""
    return guard.read_file(path)


def decode(data: bytes | None, path: Path) -> str | None:
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpawnkitError(
            f"{path} is not UTF-8 text (byte {exc.start}); save it as UTF-8, then run the"
            " command again"
        ) from None


def _settings_change(
    target: Target,
    old: mf.Manifest,
    new: mf.Manifest,
    python: str | None,
    stamp: str,
    plan: Plan,
    force: bool,
) -> Change:
    path = target.settings_path
    guard.check_link(path)
    before = read_bytes(path)
    text = decode(before, path)
    try:
        result = sm.install(text, regs.installed_command(python), name=str(path), force=force)
        problems = sm.problems_of(result.value)
    except sm.SettingsError as exc:
        raise SpawnkitError(str(exc)) from None
    record = old.settings.get(path.name)
    if record is None:
        blank = sm.MISSING if text is None else (text if not text.strip() else None)
        record = mf.SettingsRecord([], blank)
    keys = list(dict.fromkeys([*record.created_keys, *result.created_keys]))
    new.settings[path.name] = mf.SettingsRecord(keys, record.blank_original)
    plan.notes += entry_notes(path.name, result, "install")
    for problem in problems:
        plan.warnings.append(
            f"{path} {problem}"
            + ("; spawnkit's hooks will not run either" if problem.fatal else "")
            + ": fix or remove that entry of yours, then start a new Claude Code session"
        )
    if target.scope == "project" and result.text != text:
        plan.notes.append(
            f"{path.name} is usually committed: its hook command names this machine's Python"
            " and spawnkit; each teammate runs `spawnkit install --scope project` (or prefer"
            " --scope local)"
        )
    return Change(
        path,
        before,
        result.text.encode("utf-8"),
        "hook registrations",
        backup_stamp=stamp,
        personal_backup=not target.trusted,
    )


def entry_notes(name: str, result: sm.MergeResult | sm.RemovalResult, verb: str) -> list[str]:
    """One line per hook entry changed or kept, so nothing happens to an entry unsaid."""
    notes = []
    if isinstance(result, sm.MergeResult):
        for entry in result.updated:
            notes.append(
                f"{name}: updates spawnkit's {entry.slot} entry in place (it ran"
                f" {_short(entry.command)})"
            )
        for entry in result.removed:
            notes.append(
                f"{name}: removes a stale or duplicate spawnkit {entry.slot} entry"
                f" ({_short(entry.command)})"
            )
    else:
        for entry in result.removed:
            notes.append(f"{name}: removes spawnkit's {entry.slot} entry")
    for entry in result.kept:
        notes.append(
            f"{name}: keeps the {entry.slot} entry marked as spawnkit's: modified by you"
            f" ({_short(entry.command)}); remove it by hand or run `spawnkit {verb} --force`"
            + (" to replace it" if verb == "install" else " to remove it")
        )
    return notes


def _short(command: str, limit: int = 100) -> str:
    return command if len(command) <= limit else command[: limit - 1] + "…"


def _file_change(
    config_dir: Path,
    rel: Path,
    desired: bytes,
    label: str,
    old: mf.Manifest,
    new: mf.Manifest,
    stamp: str,
    plan: Plan,
) -> Change:
    path = config_dir / rel
    key = rel.as_posix()
    current = read_bytes(path)
    record = old.files.get(key)
    change = Change(path, current, desired, label)
    if current is None or current == desired:
        new.files[key] = mf.FileRecord(
            mf.sha256(desired),
            record.replaced_backup if record else None,
            # the same bytes were there already (committed to a project?): not install's
            preexisting=record.preexisting if record else current is not None,
        )
    elif record is not None and mf.sha256(current) == record.sha256:
        new.files[key] = mf.FileRecord(mf.sha256(desired), record.replaced_backup)  # upgrade
    else:
        change.backup_stamp = stamp
        saved = change.backup_path
        assert saved is not None
        plan.notes.append(
            f"{key} differed from spawnkit's copy; the old one is saved as {saved.name}"
        )
        new.files[key] = mf.FileRecord(
            mf.sha256(desired), record.replaced_backup if record else saved.name
        )
    return change


def label_for(rel: str) -> str:
    """What a file install writes is, for people."""
    if rel == STANDARD.as_posix():
        return "context-management standard"
    if rel == CONFIG_NAME:
        return "spawnkit config"
    if rel == LOCAL_CONFIG_NAME:
        return "spawnkit config (this machine)"
    return "spawnkit skill" if rel.startswith(SKILL.as_posix() + "/") else "spawnkit file"


def _bundled_files() -> list[tuple[Path, bytes, str]]:
    standard = resources.standard_doc_path()
    skill = resources.bundled_skills_dir() / SKILL.name
    if not standard.is_file() or not (skill / "SKILL.md").is_file():
        raise SpawnkitError(
            f"spawnkit's packaged files are missing ({standard} or {skill}/SKILL.md);"
            " reinstall spawnkit"
        )
    pairs = [(STANDARD, standard)]
    pairs += [(SKILL / p.relative_to(skill), p) for p in sorted(skill.rglob("*")) if p.is_file()]
    return [(rel, src.read_bytes(), label_for(rel.as_posix())) for rel, src in pairs]


def _dirs_to_create(config_dir: Path, changes: list[Change]) -> set[str]:
    """Folders (relative to the config dir, "." for itself) that writing ``changes`` creates."""
    made: set[str] = set()
    for change in changes:
        if change.before is not None or change.after is None:
            continue
        folder = change.path.parent
        while not folder.exists() and folder != config_dir:
            made.add(folder.relative_to(config_dir).as_posix())
            folder = folder.parent
        if not config_dir.exists():
            made.add(".")
    return made
