"""``spawnkit install``: put the standard, the hooks, the skill and the mode into a host.

Everything is planned first (``plan_install``) and written by ``changes.apply``,
so a dry run, a confirmation prompt and a refusal all happen before any byte
moves. Running it twice changes nothing the second time. The host description
(``spawnkit.hosts``) says where each piece goes: Claude Code's hooks live in
settings.json; Codex's in hooks.json, and each of them also needs a trust entry in
the user's config.toml (``codex_config``), written in the same plan; Copilot CLI's in a
file of spawnkit's own, hooks/spawnkit-hooks.json, beside the user's hook files.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from spawnkit import __version__, hosts
from spawnkit.errors import SpawnkitError
from spawnkit.files import contain, reading
from spawnkit.files.atomic import backup_path, timestamp
from spawnkit.hosts import paths
from spawnkit.install import codex_config, codex_trust, guard
from spawnkit.install import manifest as mf
from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm
from spawnkit.install.changes import Change, Plan, personal_backups_dir
from spawnkit.standard import resources

SCOPES = ("user", "project", "local")
HOSTS = (*hosts.NAMES, "all")
MODES = ("warn", "enforce")
DEFAULT_MODE = "warn"
CONFIG_NAME = "spawnkit.json"
LOCAL_CONFIG_NAME = "spawnkit.local.json"  # the local scope's mode; read by the hook too
CONFIG_FORMAT = 1
STANDARD = Path("standards") / "CONTEXT_MANAGEMENT.md"
SKILL = Path("skills") / "spawnkit"


@dataclass(frozen=True)
class Target:
    """Where an install goes: the host's folder and the hooks file inside it; for Codex
    also where the spawnkit skill goes and the config.toml that must trust the hooks."""

    scope: str
    config_dir: Path
    settings_path: Path
    host: str = hosts.DEFAULT
    skills_dir: Path | None = None  # None: <config_dir>/skills
    trust_path: Path | None = None  # Codex: the user's config.toml

    @property
    def skill_root(self) -> Path:
        return self.skills_dir if self.skills_dir is not None else self.config_dir / "skills"

    @property
    def label(self) -> str:
        return hosts.get(self.host).label

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

    @property
    def root(self) -> Path:
        """The folder every file of the install is inside: the lock's, the journal's, and
        what the install record's paths are relative to. The config folder, except for a
        Codex project, whose skill goes to ``./.agents`` beside ``./.codex``: the project.
        (The config.toml holding Codex's trust is outside it: see ``trust_path``.)"""
        if self.skills_dir is not None and not _inside(self.skills_dir, self.config_dir):
            return self.config_dir.parent
        return self.config_dir

    @property
    def trust_root(self) -> Path | None:
        """The folder of a config.toml outside ``root`` (a Codex project's trust), else None:
        a second folder the run locks, journals and recovers."""
        if self.trust_path is None or _inside(self.trust_path, self.root):
            return None
        return self.trust_path.parent

    def rel(self, path: Path) -> Path:
        """``path`` relative to ``root``."""
        return Path(os.path.relpath(path, self.root))


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def resolve_target(
    scope: str = "user",
    config_dir: str | Path | None = None,
    cwd: str | Path | None = None,
    host: str = hosts.DEFAULT,
) -> Target:
    """Claude Code: user: $CLAUDE_CONFIG_DIR or ~/.claude; project/local: ./.claude.
    Codex: user: $CODEX_HOME or ~/.codex; project: ./.codex (hooks) and ./.agents/skills.
    Copilot CLI: user: $COPILOT_HOME or ~/.copilot; project: ./.github (hooks/spawnkit-hooks.json,
    skills). Gemini CLI: user: ~/.gemini ($GEMINI_CLI_HOME/.gemini); project: ./.gemini
    (settings.json, skills). Qwen Code: user: $QWEN_HOME or ~/.qwen; project: ./.qwen.
    --config-dir wins over the scope's folder."""
    if scope not in SCOPES:
        raise SpawnkitError(f"unknown scope {scope!r}; use one of {', '.join(SCOPES)}")
    if host not in hosts.NAMES:
        raise SpawnkitError(f"unknown host {host!r}; use one of {', '.join(hosts.NAMES)}")
    desc = hosts.get(host)
    if scope == "local" and desc.local_hooks_file is None:
        raise SpawnkitError(
            f"{desc.label} has no local scope (a settings file kept out of git); use --scope"
            " project or --scope user"
        )
    here = Path(cwd if cwd is not None else os.getcwd()).absolute()
    if config_dir is not None:
        base = Path(config_dir).expanduser()
    elif scope == "user":
        base = paths.config_dir(host)
    else:
        base = here / desc.project_folder
    base = base.absolute()
    if host == hosts.DEFAULT:
        name = "settings.local.json" if scope == "local" else "settings.json"
        return Target(scope, base, base / name)
    skills = None if scope == "user" else base.parent / desc.project_skill_dirs[0]
    if desc.trust_file is None:
        trust = None
    elif scope == "user":
        trust = base / desc.trust_file
    else:
        trust = paths.config_dir(host) / desc.trust_file
    return Target(scope, base, base / desc.hooks_file, host, skills, trust)


def not_a_folder(target: Target) -> str | None:
    """Why ``target``'s config folder cannot be one (a file stands there), with the fix; None
    when it is a folder or does not exist yet. Said by install, uninstall and doctor alike."""
    folder = target.config_dir
    if not os.path.lexists(folder) or folder.is_dir():
        return None
    variable = hosts.get(target.host).config_env
    configured = os.environ.get(variable, "").strip()
    if target.scope == "user" and configured and Path(configured).expanduser().absolute() == folder:
        return (
            f"{variable} names {folder}, which is not a folder: point {variable} at a folder"
            " (or unset it), then run the command again"
        )
    return (
        f"{folder} is not a folder (a file stands where the config folder goes): move it aside"
        " or pass --config-dir a folder, then run the command again"
    )


def resolve_targets(
    scope: str = "user", config_dir: str | Path | None = None, host: str = hosts.DEFAULT
) -> list[Target]:
    """One target per host asked for: ``host`` is a host's name or ``all`` (every host that has
    the scope; Gemini CLI and Qwen Code only where their folder already exists, so a machine
    without them gets no ``~/.gemini`` or ``~/.qwen``)."""
    if host != "all":
        return [resolve_target(scope, config_dir, host=host)]
    if config_dir is not None:
        raise SpawnkitError("--config-dir names one host's folder; use it with one --host")
    targets = []
    for name in hosts.NAMES:
        desc = hosts.get(name)
        if scope == "local" and desc.local_hooks_file is None and name != hosts.DEFAULT:
            continue
        target = resolve_target(scope, host=name)
        if desc.all_needs_folder and not target.config_dir.is_dir():
            continue
        targets.append(target)
    return targets


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
    plan = Plan(config_dir=target.root, trusted=target.trusted)
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
    settings = _settings_change(target, old, new, python, stamp, plan, force)
    plan.changes.append(settings)
    if target.trust_path is not None:
        trust_in(target, plan).changes.append(_trust_change(target, settings, old, new, stamp))
    if target.local:
        plan.notes.append(
            "local scope: the standard and the spawnkit skill are not copied into the project"
            " (its files are shared); `spawnkit install` puts them in your own folder"
        )
    else:
        for rel, data, label in _bundled_files(target):
            plan.changes.append(_file_change(target.root, rel, data, label, old, new, stamp, plan))
    config = target.config_dir / target.config_name
    current = read_bytes(config)
    plan.changes.append(
        _file_change(
            target.root,
            target.rel(config),
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
    new.dirs = sorted(set(new.dirs) | _dirs_to_create(target.root, plan.changes))
    record.after = new.to_bytes()
    check_paths(target, plan)
    return plan


def check_paths(target: Target, plan: Plan) -> None:
    """Refuse, before anything is written, a change that would land outside its folder.

    A dangling or looping symlink is refused everywhere. In an untrusted folder no
    file may be a symlink or sit below one that leads out of the folder (the settings
    file may link elsewhere inside the project).
    """
    trust_folder = target.trust_path.parent if target.trust_path is not None else None
    for change in plan.all_pending:
        path = change.path
        # the user's own folder, and config.toml (Codex) with its backups beside it
        if target.trusted or path == target.trust_path or path.parent == trust_folder:
            contain.check(path, path.parent, trusted=True)
        else:  # no link on the way leaves the project (./.claude itself included) …
            contain.check(path, target.settings_bounds)
            if path != target.settings_path:  # … and below the root, files are never links
                contain.check(path, target.root, final_link=False)


def config_bytes(current: bytes | None, mode: str | None, path: Path) -> bytes:
    """spawnkit.json with ``mode`` set, every other key of the user's kept as written."""
    if current is None:
        data = {"version": CONFIG_FORMAT, "mode": mode or DEFAULT_MODE}
        return (json.dumps(data, indent=2) + "\n").encode("utf-8")
    if mode is None:
        return current
    text = decode(current, path)
    try:
        return sm.set_top_level(text, "mode", mode, str(path)).encode("utf-8")
    except ValueError as exc:
        raise SpawnkitError(
            f"{path} is not a JSON object ({exc}); correct it or delete it, then run spawnkit"
            " install again"
        ) from None


read_bytes = guard.read_file  # a file install reads: plain, bounded, None when missing


def decode(data: bytes | None, path: Path) -> str | None:
    """The text of a file install read (None stays None); one-line error when not UTF-8."""
    return None if data is None else reading.decode(data, str(path))


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
        result = sm.install(
            text,
            regs.command_for(target.host, python),
            regs.registrations(target.host),
            name=str(path),
            force=force,
            client=target.label,
            seed=hosts.get(target.host).version_key,
        )
        problems = sm.problems_of(result.value) if target.host == hosts.DEFAULT else []
        unversioned = version_missing(target.host, result.value) if text is not None else None
    except sm.SettingsError as exc:
        raise SpawnkitError(str(exc)) from None
    record = old.settings.get(path.name)
    if record is None:
        blank = sm.MISSING if text is None else (text if not text.strip() else None)
        record = mf.SettingsRecord([], blank, original=mf.Original.of(before))
    keys = list(dict.fromkeys([*record.created_keys, *result.created_keys]))
    empty = {**result.empty_inner, **record.empty_inner}  # the first install saw the original
    after = result.text.encode("utf-8")
    saved = backup_path(path, stamp) if before is not None and after != before else None
    folder = path.parent if target.trusted else personal_backups_dir(target.root)
    original = record.original.with_backup(folder, saved.name if saved else None)
    new.settings[path.name] = mf.SettingsRecord(keys, record.blank_original, empty, original)
    plan.notes += entry_notes(path.name, result, "install")
    for problem in problems:
        plan.warnings.append(
            f"{path} {problem}"
            + ("; spawnkit's hooks will not run either" if problem.fatal else "")
            + ": fix or remove that entry of yours, then start a new Claude Code session"
        )
    if unversioned:
        plan.notes.append(f"{path} {unversioned}")
    if target.scope == "project" and result.text != text:
        note = hosts.get(target.host).project_hooks_note
        plan.notes.append(note.format(name=path.name, path=path, trust=target.trust_path))
    return Change(
        path,
        before,
        after,
        "hook registrations",
        backup_stamp=stamp,
        personal_backup=not target.trusted,
    )


def version_missing(host: str, settings: object) -> str | None:
    """What a host that rewrites a settings file lacking its format key (Qwen Code's
    ``"$version": 4``) will do to this one, or None when the key is there (or not needed)."""
    desc = hosts.get(host)
    if desc.version_key is None or not isinstance(settings, dict):
        return None
    key, value = desc.version_key
    if settings.get(key) == value:
        return None
    return (
        f"has no {json.dumps(key)}: {value}, so {desc.label} rewrites it (adds the key and"
        " re-indents it) the next time it starts; spawnkit's entries survive that, and"
        " uninstall then takes them back out of the rewritten file"
    )


def trust_in(target: Target, plan: Plan) -> Plan:
    """The plan that writes Codex's config.toml: this one, or (a project's trust lives in
    the user's config.toml, outside the project) a second one for the user's folder, applied
    after this one under its own lock and journal."""
    if target.trust_root is None:
        return plan
    if plan.then is None:
        plan.then = Plan(config_dir=target.trust_root, trusted=True)
    return plan.then


def _trust_change(
    target: Target, settings: Change, old: mf.Manifest, new: mf.Manifest, stamp: str
) -> Change:
    """config.toml trusting exactly spawnkit's handlers in the new hooks file (Codex)."""
    assert target.trust_path is not None
    path = target.trust_path
    hooks_text = settings.after.decode("utf-8") if settings.after is not None else ""
    wanted = _own_trust(str(target.settings_path), hooks_text)
    before = read_bytes(path)
    record = codex_config.TrustRecord.from_json(old.trust) if old.trust else None
    try:
        after, record = codex_config.install(decode(before, path), wanted, record, str(path))
    except codex_config.ConfigError as exc:
        raise SpawnkitError(str(exc)) from None
    data = after.encode("utf-8")
    # what config.toml held before the first install, and the backups made of it since
    original = mf.Original.from_json(old.trust.get("original")) if old.trust else None
    original = original or mf.Original.of(before)
    saved = backup_path(path, stamp) if before is not None and data != before else None
    original = original.with_backup(path.parent, saved.name if saved else None)
    new.trust = {"path": str(path), **record.to_json(), "original": original.to_json()}
    return Change(path, before, data, "hook trust", backup_stamp=stamp)


def _own_trust(source: str, hooks_text: str) -> dict[str, str]:
    """Trust key -> hash for spawnkit's own handlers in a hooks.json text."""
    try:
        data = json.loads(hooks_text) if hooks_text.strip() else {}
    except ValueError:
        return {}
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        return {}
    every = codex_trust.expected_entries(source, hooks)
    own = set()
    for event, groups in hooks.items():
        for gi, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for hi, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if isinstance(handler, dict) and regs.is_managed(handler.get("command")):
                    own.add(codex_trust.trust_key(source, event, gi, hi))
    return {key: value for key, value in every.items() if key in own}


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
    if rel == STANDARD.as_posix() or rel.endswith("/" + STANDARD.as_posix()):
        return "context-management standard"
    if rel == CONFIG_NAME or rel.endswith("/" + CONFIG_NAME):
        return "spawnkit config"
    if rel == LOCAL_CONFIG_NAME or rel.endswith("/" + LOCAL_CONFIG_NAME):
        return "spawnkit config (this machine)"
    inside = f"/{rel}".find(f"/{SKILL.as_posix()}/") != -1
    return "spawnkit skill" if inside else "spawnkit file"


def skill_rel(target: Target) -> Path:
    """The spawnkit skill's folder relative to the target's root (``skills/spawnkit``; for a
    Codex project ``.agents/skills/spawnkit``)."""
    return target.rel(target.skill_root / SKILL.name)


def _bundled_files(target: Target | None = None) -> list[tuple[Path, bytes, str]]:
    standard = resources.standard_doc_path()
    skill = resources.bundled_skills_dir() / SKILL.name
    if not standard.is_file() or not (skill / "SKILL.md").is_file():
        raise SpawnkitError(
            f"spawnkit's packaged files are missing ({standard} or {skill}/SKILL.md);"
            " reinstall spawnkit"
        )
    dest = skill_rel(target) if target is not None else SKILL
    pairs = [
        (target.rel(target.config_dir / STANDARD) if target is not None else STANDARD, standard)
    ]
    pairs += [(dest / p.relative_to(skill), p) for p in sorted(skill.rglob("*")) if p.is_file()]
    return [(rel, src.read_bytes(), label_for(rel.as_posix())) for rel, src in pairs]


def _dirs_to_create(root: Path, changes: list[Change]) -> set[str]:
    """Folders (relative to ``root``, "." for itself) that writing ``changes`` creates."""
    made: set[str] = set()
    for change in changes:
        if change.before is not None or change.after is None:
            continue
        folder = change.path.parent
        while not folder.exists() and folder != root:
            made.add(folder.relative_to(root).as_posix())
            folder = folder.parent
        if not root.exists():
            made.add(".")
    return made
