"""``spawnkit update``: bring managed skills to the installed template version, losing no line.

Each skill is copied into a throwaway git repository, updated there with copier's
three-way update, checked (files the template dropped or renamed, conflicts in the
frontmatter), backed up, and only then synced back. The user's folder never gets a
``.git`` and a git repository around it is never committed to.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from spawnkit.base.lightos import NotRegularFile, read_regular
from spawnkit.base.shown import shown
from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, SpawnkitError
from spawnkit.files import contain, interrupts
from spawnkit.files.atomic import why_not_writable
from spawnkit.files.lock import locked as config_lock
from spawnkit.template import conflicts, copier_run, fsutil, managed
from spawnkit.template.gitutil import init_snapshot_repo
from spawnkit.template.store import (
    Store,
    Target,
    bundle_refs,
    ensure_store,
    parse_version,
    planned_target,
    running_content,
    tree_id,
)

NOT_APPLIED = "not-applied"  # in a skill's backup: the template's version of files not written
RENAME_SIMILARITY = 0.6
SKILL_FILE = "SKILL.md"

# Statuses, as scripts see them in --json output.
UP_TO_DATE = "up-to-date"
AVAILABLE = "update-available"
AHEAD = "ahead"  # made by a newer spawnkit
PENDING = "conflicts-pending"  # markers from an earlier update are still there
UNKNOWN = "unknown-version"  # the version it was made from is not in the store
UPDATED = "updated"
CONFLICTS = "conflicts"  # updated, some files hold conflict markers
WOULD_UPDATE = "would-update"
ERROR = "error"
_NEEDS_ATTENTION = {CONFLICTS, UNKNOWN, ERROR, PENDING}


@dataclass
class SkillResult:
    name: str
    path: str
    scope: str
    version: str | None
    target: str
    status: str
    modified: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    # edited files the template dropped: left in place
    kept: list[str] = field(default_factory=list)
    # {"from", "to"}: edits carried over
    renamed: list[dict[str, str]] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    # files the update did not write (symlinked, read-only, edited binary): why, and where
    # the template's version was saved for you to merge by hand
    skipped: list[dict[str, str | None]] = field(default_factory=list)
    frontmatter: dict[str, Any] | None = None  # template frontmatter lines not applied, and why
    backup: str | None = None
    message: str = ""

    @property
    def needs_attention(self) -> bool:
        """Conflicts, a template frontmatter change not applied, or an error: exit code 1."""
        return (
            self.status in _NEEDS_ATTENTION
            or bool(self.conflicts)
            or bool(self.skipped)
            or self.frontmatter is not None
        )


@dataclass
class Outcome:
    target: str
    skills: list[SkillResult]
    dry_run: bool = False
    # skill folders (or answers files) linked out of their project: never read, one line each
    skipped: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return EXIT_FINDINGS if any(s.needs_attention for s in self.skills) else EXIT_OK

    def to_json(self) -> dict[str, Any]:
        return {
            "target_version": self.target,
            "dry_run": self.dry_run,
            "updates_available": sum(s.status == AVAILABLE for s in self.skills),
            "skills": [asdict(s) for s in self.skills],
            "skipped": self.skipped,
        }


def _result(skill: managed.Skill, target: str, status: str, message: str = "") -> SkillResult:
    return SkillResult(
        skill.name, str(skill.path), skill.scope, skill.commit, target, status, message=message
    )


def _precheck(
    skill: managed.Skill,
    target: str,
    store_tags: dict[str, str],
    target_tree: str,
    shipped: set[str],
) -> SkillResult | None:
    """The status of a skill that needs no update run, or None if it needs one.

    ``shipped``: versions the wheel's bundle holds (in the store once it is next filled).
    """
    pending = conflicts.files_with_markers(skill.path)
    if pending:
        return _result(
            skill, target, PENDING, f"resolve the conflict markers in {', '.join(pending)} first"
        )
    commit = skill.commit
    if not commit:
        return _result(
            skill,
            target,
            ERROR,
            f"its answers file has no _commit; run `spawnkit adopt {skill.path}` (your answers "
            "are kept)",
        )
    if commit == target or store_tags.get(commit) == target_tree:
        return _result(skill, target, UP_TO_DATE)
    if is_ahead(commit, target):
        return _result(
            skill,
            target,
            AHEAD,
            f"made by spawnkit {commit}, newer than this one; updating to {target} would undo "
            "template changes: use that spawnkit (or a newer one) to update it",
        )
    if commit not in store_tags and commit not in shipped:
        return _result(
            skill,
            target,
            UNKNOWN,
            f"template version {commit} is not in the template store (made elsewhere from a "
            f"source checkout?); run `spawnkit adopt {skill.path}` to adopt it at this version "
            "(your answers are kept)",
        )
    return None


def is_ahead(have_tag: str, want_tag: str) -> bool:
    """Whether moving from ``have_tag`` to ``want_tag`` goes back in PEP 440 order.

    ``0.1.0+d.<tree>`` (a modified checkout of 0.1.0) sorts after ``0.1.0``: going from it to
    the plain release would strip the changes it was made with. Between two local versions
    of the same release neither is older, so that move stays an update.
    """
    have, want = parse_version(have_tag), parse_version(want_tag)
    if have is None or want is None:
        return False
    if have.public != want.public:
        return have.public > want.public
    return bool(have.local) and not want.local


def _pinned(target: Target, tags: dict[str, str], to_tag: str | None) -> Target:
    if to_tag is None:
        return target
    if to_tag not in tags:
        raise SpawnkitError(
            f"template version {to_tag} is not in the template store {target.store}"
        )
    return Target(to_tag, target.store, target.src_path, True)


def check(
    names: tuple[str, ...], config_dir: Path, cwd: Path, *, to_tag: str | None = None
) -> Outcome:
    """Available updates. Writes nothing at all: not the skills, not the store, not a lock file.

    ``to_tag`` pins the target to a version already in the store (default: the running one).
    """
    outside: list[tuple[Path, Path]] = []
    skills = managed.select(names, config_dir, cwd, outside)
    target = planned_target(config_dir)
    tags = Store(target.store).tags()
    target = _pinned(target, tags, to_tag)
    tree = tags[to_tag] if to_tag else tree_id(running_content())
    shipped = set(bundle_refs())
    results = [
        _precheck(s, target.tag, tags, tree, shipped) or _result(s, target.tag, AVAILABLE)
        for s in skills
    ]
    return Outcome(target.tag, results, skipped=[str(contain.outside(p, r)) for p, r in outside])


def available_updates(config_dir: Path, cwd: Path) -> list[SkillResult]:
    """Managed skills an update would change (for ``spawnkit doctor``); read-only."""
    return [s for s in check((), config_dir, cwd).skills if s.status == AVAILABLE]


def update(
    names: tuple[str, ...],
    config_dir: Path,
    cwd: Path,
    *,
    dry_run: bool = False,
    to_tag: str | None = None,
    progress: Callable[[str], None] = lambda _msg: None,
) -> Outcome:
    """Update the named managed skills (all when ``names`` is empty) to the running version or ``to_tag``."""
    outside: list[tuple[Path, Path]] = []
    skills = managed.select(names, config_dir, cwd, outside)
    for path, root in outside:  # a skill linked out of its project: nothing is written
        contain.check(path, root)
        raise SpawnkitError(
            f"{path}: its answers file is a link out of {root}: refused, nothing was written;"
            " remove the link, then run the command again"
        )
    refused = [(s, conflicts.files_with_markers(s.path)) for s in skills]
    refused = [(s, files) for s, files in refused if files]
    if refused:
        detail = "; ".join(f"{s.path}: {', '.join(f)}" for s, f in refused)
        raise SpawnkitError(
            f"conflict markers from an earlier update are still in {detail}; "
            "resolve them (keep the lines you want, delete the <<<<<<< ======= >>>>>>> lines) and rerun"
        )
    if not skills:
        return Outcome(planned_target(config_dir).tag, [], dry_run)
    for skill in skills:  # a skill folder reached through a link out of its project: refused
        root, trusted = managed.write_root(skill, cwd)
        contain.check(skill.path, root, trusted=trusted)
    # The store is spawnkit's cache of template versions, not user content: a dry run may fill it too.
    target = ensure_store(config_dir)
    tags = Store(target.store).tags()
    target = _pinned(target, tags, to_tag)
    tree = tags[target.tag]
    results = []
    # The config folder's lock: install, uninstall and update never write it at once.
    with config_lock(config_dir):
        for skill in skills:
            done = _precheck(skill, target.tag, tags, tree, set())
            if done is None:
                progress(
                    f"{'checking' if dry_run else 'updating'} {skill.name} ({skill.commit} -> {target.tag})"
                )
                try:
                    done = _update_one(skill, target, config_dir, dry_run, cwd)
                except SpawnkitError as exc:
                    done = _result(skill, target.tag, ERROR, str(exc))
            results.append(done)
    return Outcome(target.tag, results, dry_run)


def _run_copier_update(work: Path, skill: managed.Skill, target: Target) -> None:
    try:
        copier_run.update(work, answers_file=skill.answers_file.name, vcs_ref=target.tag)
    except copier_run.CopierFailed as exc:
        raise SpawnkitError(
            f"copier could not update {skill.path}: {exc}; nothing was changed"
        ) from None


def render(
    store: Path, tag: str, data: dict[str, Any], answers_file: str, dest: Path
) -> fsutil.Snapshot:
    """The files template version ``tag`` produces for ``data`` (answers file excluded)."""
    try:
        copier_run.copy(str(store), dest, data=data, vcs_ref=tag, answers_file=answers_file)
    except copier_run.CopierFailed as exc:
        raise SpawnkitError(f"could not render template version {tag}: {exc}") from None
    snap = fsutil.snapshot(dest)
    snap.pop(answers_file, None)
    return snap


def _similar(a: bytes, b: bytes) -> float:
    try:
        left, right = a.decode().splitlines(), b.decode().splitlines()
    except UnicodeDecodeError:
        return 0.0
    return difflib.SequenceMatcher(None, left, right, autojunk=False).ratio()


def _update_one(
    skill: managed.Skill, target: Target, config_dir: Path, dry_run: bool, cwd: Path
) -> SkillResult:
    result = _result(skill, target.tag, WOULD_UPDATE if dry_run else UPDATED)
    answers = skill.answers_file.name
    with interrupts.temporary_folder("spawnkit-update-") as tmp:
        work = Path(tmp) / "work" / skill.name
        links = fsutil.symlinks(skill.path)
        linked_folders = fsutil.linked_folders(skill.path)
        # Symlinked files become plain copies: copier can never write through a link.
        fsutil.copy_tree(skill.path, work, materialize=True)
        before = fsutil.snapshot(work)
        fsutil.make_writable(work)  # copier may rewrite any file of the copy; modes come back
        init_snapshot_repo(work)
        _run_copier_update(work, skill, target)
        after = fsutil.snapshot(work)

        renders: dict[str, fsutil.Snapshot] = {}

        def rendered(tag: str) -> fsutil.Snapshot:
            if tag not in renders:
                renders[tag] = render(
                    target.store,
                    tag,
                    skill.user_data(),
                    answers,
                    Path(tmp) / f"render-{len(renders)}" / skill.name,
                )
            return renders[tag]

        not_applied = _hold_back(result, before, after, links, lambda: rendered(skill.commit or ""))
        not_applied.update(
            _hold_back_linked(
                result,
                skill.path,
                (links - set(before)) | linked_folders,
                after,
                lambda: rendered(skill.commit or ""),
                lambda: rendered(target.tag),
            )
        )
        for rel in sorted(set(before) - set(after)):
            old = rendered(skill.commit or "")
            if rel in old and old[rel] == before[rel]:
                continue  # generated, unedited, dropped by the template: removing it loses nothing
            if rel in old:
                new = rendered(target.tag)
                moved_to = _rename_target(rel, old, new, after)
                if moved_to:
                    merged, _ = conflicts.merge3(before[rel][1], old[rel][1], new[moved_to][1])
                    after[moved_to] = (new[moved_to][0], merged)
                    result.renamed.append({"from": rel, "to": moved_to})
                    continue
            after[rel] = before[
                rel
            ]  # the template no longer ships it, but it holds the user's work
            result.kept.append(rel)

        if SKILL_FILE in after and SKILL_FILE in before and after[SKILL_FILE] != before[SKILL_FILE]:
            _protect_skill_md(result, before, after)

        for rel, (mode, data) in list(after.items()):
            if rel in before and before[rel][0] != mode:
                after[rel] = (before[rel][0], data)  # your permission bits stay
        result.conflicts = sorted(
            r for r, (_, data) in after.items() if conflicts.has_markers(data)
        )
        if result.conflicts and not dry_run:
            result.status = CONFLICTS
        result.modified, result.added, result.removed = fsutil.changes(before, after)
        if not dry_run:
            if fsutil.snapshot(skill.path, links=True) != before:
                raise SpawnkitError(
                    f"{skill.path} changed while it was being updated; nothing was written, rerun"
                )
            root, trusted = managed.write_root(skill, cwd)
            for rel in (*result.modified, *result.added, *result.removed):
                contain.check(skill.path / rel, root, trusted=trusted)
                problem = why_not_writable(skill.path / rel)
                if problem:
                    raise SpawnkitError(
                        f"cannot update {skill.path}: {problem}; nothing was written"
                    )
            try:
                backup = fsutil.backup(skill.path, managed.backups_dir(config_dir), skill.name)
            except OSError as exc:
                raise SpawnkitError(
                    f"could not back up {skill.path} ({exc}); nothing was written"
                ) from exc
            result.backup = str(backup)
            for item in result.skipped:
                saved = backup / NOT_APPLIED / item["file"]
                saved.parent.mkdir(parents=True, exist_ok=True)
                saved.write_bytes(not_applied[item["file"]])
                item["template_version"] = str(saved)
            try:
                with interrupts.writing():
                    fsutil.apply_snapshot(skill.path, before, after, last=answers)
            except OSError as exc:
                raise SpawnkitError(
                    f"writing {skill.path} failed midway ({exc}); restore it from {backup}"
                ) from exc
    return result


def _is_binary(data: bytes) -> bool:
    if b"\0" in data:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _hold_back(
    result: SkillResult,
    before: fsutil.Snapshot,
    after: fsutil.Snapshot,
    links: set[str],
    old_render: Callable[[], fsutil.Snapshot],
) -> dict[str, bytes]:
    """Keep, and report, the files an update must not write: symlinks (never written
    through), read-only files (the user's choice) and binary files the user changed
    (they cannot be merged). Returns what the template would have put in each."""
    held: dict[str, bytes] = {}
    for rel in sorted(before):
        if rel in after and after[rel][1] == before[rel][1]:
            continue
        mode, data = before[rel]
        if rel in links:
            reason = "a symlink: spawnkit does not write through it"
        elif not mode & 0o222:
            reason = "read-only: kept as you set it"
        elif _is_binary(data) and old_render().get(rel) != before[rel]:
            reason = "not text and changed by you: it cannot be merged"
        else:
            continue
        if rel in after:
            held[rel] = after[rel][1]
            result.skipped.append({"file": rel, "reason": reason, "template_version": None})
        else:
            result.kept.append(rel)
        after[rel] = before[rel]
    return held


def _hold_back_linked(
    result: SkillResult,
    skill_path: Path,
    linked: set[str],
    after: fsutil.Snapshot,
    old_render: Callable[[], fsutil.Snapshot],
    new_render: Callable[[], fsutil.Snapshot],
) -> dict[str, bytes]:
    """Files at or below a link the snapshots do not hold (a symlinked folder, a dangling
    link): never written through it. One the template changed since the skill's version,
    and which does not already hold the new text, is held back and reported like any other
    (the template's version saved); the rest are left alone without a word."""

    def link_of(rel: str) -> str | None:
        return next((d for d in sorted(linked) if rel == d or rel.startswith(d + "/")), None)

    if not linked:
        return {}
    held: dict[str, bytes] = {}
    new = new_render()
    for rel in sorted(set(after) | set(new)):
        link = link_of(rel)
        if link is None:
            continue
        after.pop(rel, None)
        if rel not in new or old_render().get(rel, (None, None))[1] == new[rel][1]:
            continue  # the template did not change it: nothing to apply
        try:
            current = read_regular(str(skill_path / rel), fsutil.MAX_FILE_BYTES)
        except (OSError, NotRegularFile):
            current = None
        if current == new[rel][1]:
            continue
        held[rel] = new[rel][1]
        target = os.readlink(skill_path / link)
        result.skipped.append(
            {
                "file": rel,
                "reason": f"{link} is a symlink (to {target}): spawnkit does not write through it",
                "template_version": None,
            }
        )
    return held


def _rename_target(
    rel: str, old: fsutil.Snapshot, new: fsutil.Snapshot, after: fsutil.Snapshot
) -> str | None:
    """The file the template renamed ``rel`` to: new in this version, fresh from the template, similar."""
    best, score = None, RENAME_SIMILARITY
    for cand in sorted(set(new) - set(old)):
        if after.get(cand) != new[cand]:
            continue
        ratio = _similar(old[rel][1], new[cand][1])
        if ratio >= score:
            best, score = cand, ratio
    return best


def _protect_skill_md(result: SkillResult, before: fsutil.Snapshot, after: fsutil.Snapshot) -> None:
    mode, data = after[SKILL_FILE]
    try:
        text, old_text = data.decode(), before[SKILL_FILE][1].decode()
    except UnicodeDecodeError:
        return
    outcome = conflicts.protect_frontmatter(text, old_text)
    if outcome.changed:
        after[SKILL_FILE] = (mode, outcome.text.encode())
    if outcome.changed or outcome.note:
        result.frontmatter = {
            "file": SKILL_FILE,
            "note": outcome.note,
            "template_lines": outcome.template_lines,
        }


def format_text(outcome: Outcome, checking: bool) -> str:
    """The human report: one line per skill, then what changed and what needs a look."""
    notes = list(outcome.skipped)  # each: "<path>: skipped: a link out of <project> …"
    if not outcome.skills:
        return _gated(
            notes
            + [
                "no skills managed by spawnkit found (skills made with `spawnkit new` or"
                " `spawnkit adopt`)"
            ]
        )
    lines = [f"target template version: {outcome.target}", *notes]
    for s in outcome.skills:
        head = f"{s.name} ({s.scope}, {s.path}): {s.status}"
        if s.status in (AVAILABLE, UPDATED, CONFLICTS, WOULD_UPDATE):
            head += f" {s.version} -> {s.target}"
        lines.append(head + (f" — {s.message}" if s.message else ""))
        if checking:
            continue
        if s.backup:
            lines.append(f"  backup: {s.backup}")
        for label, items in (("modified", s.modified), ("added", s.added), ("removed", s.removed)):
            if items:
                lines.append(f"  {label}: {', '.join(items)}")
        for item in s.renamed:
            lines.append(
                f"  renamed by the template: {item['from']} -> {item['to']} (your edits merged into it)"
            )
        for item in s.skipped:
            saved = (
                f"; the template's version: {item['template_version']}"
                if item["template_version"]
                else ""
            )
            lines.append(f"  NOT UPDATED {item['file']}: {item['reason']}{saved}")
        if s.kept:
            lines.append(
                f"  kept (the template dropped them; they hold your edits): {', '.join(s.kept)}"
            )
        if s.frontmatter:
            lines.append(f"  {s.frontmatter['file']}: {s.frontmatter['note']}")
            if s.frontmatter["template_lines"]:
                lines.append("    the template's lines not applied (add what you want by hand):")
                lines.extend(f"    | {x}" for x in s.frontmatter["template_lines"])
        if s.conflicts:
            lines.append(
                f"  CONFLICTS in {', '.join(s.conflicts)}: keep the lines you want between "
                "<<<<<<< before updating / ======= / >>>>>>> after updating, delete the marker lines"
            )
    if checking:
        n = sum(s.status == AVAILABLE for s in outcome.skills)
        summary = f"{n} update(s) available" + (": run `spawnkit update --all`" if n else "")
        attention = sum(s.needs_attention for s in outcome.skills)
        if attention:  # the exit code is 1: say why on the last line too
            summary += f"; {attention} skill(s) need attention (see above)"
        lines.append(summary)
    return _gated(lines)


def _gated(lines: list[str]) -> str:
    """The report's lines, each through the output gate (``base.shown``): skill names, paths
    and the template's lines come from the skills' folders."""
    return "\n".join(shown(line) for line in lines)
