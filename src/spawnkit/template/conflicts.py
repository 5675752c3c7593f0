"""Conflict markers from an update: find them, merge with them, keep them out of SKILL.md's frontmatter.

The labels are copier's (``conflict="inline"``), so markers spawnkit writes for a
renamed file look the same as the ones copier writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from spawnkit.files import interrupts
from spawnkit.lint.frontmatter import is_fence, read, split
from spawnkit.template.gitutil import git

OURS = "before updating"  # the user's lines
BASE = "last update"
THEIRS = "after updating"  # the new template's lines
START = "<<<<<<< "
MIDDLE = "======="
BASE_MARK = "||||||| "
END = ">>>>>>> "
_START_LINE = START + OURS
_END_LINE = END + THEIRS
_MAX_SCAN_BYTES = 2_000_000


def has_markers(data: bytes) -> bool:
    """Whether an update left unresolved conflict markers in this file's content."""
    if len(data) > _MAX_SCAN_BYTES or b"\0" in data[:8000]:
        return False
    for line in data.decode("utf-8", errors="replace").splitlines():
        if line.rstrip() in (_START_LINE, _END_LINE):
            return True
    return False


def files_with_markers(root: Path) -> list[str]:
    """Files under ``root`` (relative, posix) that still hold markers from an update."""
    found = []
    for path in sorted(root.rglob("*")):
        if ".git" in path.relative_to(root).parts or not path.is_file() or path.is_symlink():
            continue
        try:
            if has_markers(path.read_bytes()):
                found.append(path.relative_to(root).as_posix())
        except OSError:
            continue
    return found


def merge3(ours: bytes, base: bytes, theirs: bytes) -> tuple[bytes, bool]:
    """Three-way merge with copier's labels; returns (merged content, had conflicts)."""
    with interrupts.temporary_folder("spawnkit-merge-") as tmp:
        paths = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            p = Path(tmp) / name
            p.write_bytes(data)
            paths.append(str(p))
        proc = git(
            ["merge-file", "-p", "-L", OURS, "-L", BASE, "-L", THEIRS, *paths], tmp, check=False
        )
        if proc.returncode < 0 or proc.returncode > 127:
            raise RuntimeError(
                f"git merge-file failed: {proc.stderr.decode(errors='replace').strip()}"
            )
        return proc.stdout, proc.returncode > 0


# --- SKILL.md frontmatter ---------------------------------------------------------------


@dataclass
class FrontmatterOutcome:
    """What ``protect_frontmatter`` did; ``template_lines`` are the template's lines not applied."""

    text: str
    changed: bool = False
    template_lines: list[str] = field(default_factory=list)
    note: str = ""


def _split(lines: list[str]) -> int | None:
    """Index of the closing ``---`` of a frontmatter block, or None if there is none."""
    fence = split(lines, strict=False)
    return None if fence is None else fence[1]


def frontmatter(text: str, label: str = "SKILL.md's frontmatter") -> dict | None:
    """SKILL.md's frontmatter as a mapping, or None if it is missing or does not load
    (``bounded.OverLimit`` when nested too deeply or expanded by aliases to read)."""
    return read(text, label)


def frontmatter_ok(text: str) -> bool:
    return frontmatter(text) is not None


def _block(lines: list[str], start: int) -> tuple[list[str], list[str], int] | None:
    """(ours, theirs, index of the end marker) of the conflict block opening at ``start``."""
    ours: list[str] = []
    theirs: list[str] = []
    target = ours
    for i in range(start + 1, len(lines)):
        stripped = lines[i].rstrip("\r\n")
        if stripped.startswith(BASE_MARK) and target is ours:
            target = []  # diff3 base section: neither side
        elif stripped == MIDDLE:
            target = theirs
        elif stripped.startswith(END):
            return ours, theirs, i
        else:
            target.append(lines[i])
    return None


def _take_ours_in_frontmatter(lines: list[str]) -> tuple[list[str], list[str]]:
    """Resolve conflict blocks inside the frontmatter to the user's side."""
    if not lines or not is_fence(lines[0]):
        return lines, []
    out, dropped = [lines[0]], []
    i = 1
    while i < len(lines):
        line = lines[i]
        if line.startswith(START):
            block = _block(lines, i)
            if block is None:
                break
            ours, theirs, end = block
            out.extend(ours)
            dropped.extend(theirs)
            i = end + 1
            if any(is_fence(x) for x in ours):
                break
            continue
        out.append(line)
        i += 1
        if is_fence(line):
            break
    out.extend(lines[i:])
    return out, dropped


def protect_frontmatter(after: str, before: str) -> FrontmatterOutcome:
    """Keep SKILL.md loadable after an update.

    Conflicts inside the frontmatter are resolved to the user's lines. If the merged
    frontmatter still does not load, the user's whole pre-update frontmatter is put back.
    Either way the template's lines that were not applied are returned for the report.
    """
    lines = after.splitlines(keepends=True)
    resolved, dropped = _take_ours_in_frontmatter(lines)
    text = "".join(resolved)
    if frontmatter_ok(text):
        if not dropped:
            return FrontmatterOutcome(after)
        return FrontmatterOutcome(
            text,
            True,
            [x.rstrip("\r\n") for x in dropped],
            "conflict in the YAML frontmatter: kept your lines",
        )
    before_lines = before.splitlines(keepends=True)
    before_end = _split(before_lines)
    if before_end is None or not frontmatter_ok(before):
        return FrontmatterOutcome(
            after, note="the frontmatter did not load before the update either; fix it by hand"
        )
    after_end = _split(resolved)
    body = resolved[after_end + 1 :] if after_end is not None else resolved
    template_fm = resolved[1:after_end] if after_end is not None else []
    text = "".join(before_lines[: before_end + 1] + body)
    return FrontmatterOutcome(
        text,
        True,
        [x.rstrip("\r\n") for x in dropped + template_fm],
        "merged frontmatter did not load as YAML: kept your whole frontmatter",
    )
