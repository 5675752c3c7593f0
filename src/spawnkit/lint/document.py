"""One file to lint: its kind, frontmatter, body blocks and referenced siblings."""

from __future__ import annotations

import os
import stat
from typing import Any, NamedTuple

from spawnkit.base import lightos
from spawnkit.lint import frontmatter, markdown
from spawnkit.lint.memo import cached_property
from spawnkit.lint.patterns import lazy

SKILL = "skill"
COMMAND = "command"
AGENT = "agent"

_LINK = lazy(r"\[[^\]]*\]\(\s*<?([^)\s>#]+)>?(?:#[^)]*)?\s*\)|`([\w./-]+\.md)`")
_MAX_SIBLINGS = 10
_MAX_SIBLING_BYTES = 256 * 1024


def folder_and_name(path: str) -> tuple[str, str]:
    """The names of ``path``'s folder and file, as ``pathlib.PurePath`` gives them.

    On POSIX the split is done by hand (``PurePosixPath`` drops empty and "." parts): building
    a path object per linted file cost more than the rest of the kind check.
    """
    if os.sep != "/":
        from pathlib import PurePath

        p = PurePath(path)
        return p.parent.name, p.name
    parts = [part for part in path.split("/") if part and part != "."]
    return (parts[-2] if len(parts) > 1 else ""), (parts[-1] if parts else "")


def kind_of(path: str) -> str:
    """``skill`` for SKILL.md, ``agent`` under agents/, else ``command`` (frontmatter optional)."""
    folder, name = folder_and_name(path)
    if name == "SKILL.md":
        return SKILL
    if folder == "agents":
        return AGENT
    return COMMAND


class Sibling(NamedTuple):
    name: str  # path relative to the linted file's folder
    line: int  # line of the linted file that references it
    blocks: list[markdown.Block]


class Document:
    """A file's text split into frontmatter and body, with its kind taken from its path."""

    def __init__(self, path: str, text: str, reader: str = "strict") -> None:
        self.path = path
        self.text = text
        self.kind = kind_of(path)
        self.lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.front: frontmatter.Frontmatter | None = None
        self.front_error: frontmatter.YamlError | None = None
        self.body_start = 0  # 0-based index of the first body line
        try:
            fence = frontmatter.split(self.lines)
        except frontmatter.YamlError as exc:
            self.front_error = exc
            fence = None
        if fence is not None:
            self.body_start = fence[1] + 1
            try:
                self.front = frontmatter.parse(self.lines, reader, f"{path}'s frontmatter")
            except frontmatter.YamlError as exc:
                self.front_error = exc

    @property
    def data(self) -> dict[str, Any]:
        """The frontmatter mapping ({} when absent or unreadable)."""
        if self.front is not None and isinstance(self.front.data, dict):
            return self.front.data
        return {}

    def key_line(self, key: str) -> int:
        if self.front is not None:
            return self.front.key_lines.get(key, self.front.start)
        return 1

    @cached_property
    def body_lines(self) -> list[str]:
        return self.lines[self.body_start :]

    @cached_property
    def body_text(self) -> str:
        return "\n".join(self.body_lines)

    @cached_property
    def blocks(self) -> list[markdown.Block]:
        return markdown.parse(self.body_lines, self.body_start + 1)

    @cached_property
    def siblings(self) -> list[Sibling]:
        """Markdown files beside this one that the body points to (read from disk if present)."""
        found: list[Sibling] = []
        if ".md" not in self.body_text:
            return found  # every block's text is made of the body's lines: no need to parse it
        candidates = [b for b in self.blocks if ".md" in b.text]
        if not candidates:
            return found
        base = os.path.dirname(os.path.abspath(self.path))
        seen: set[str] = set()
        for block in candidates:
            for match in _LINK.finditer(block.text):
                target = match.group(1) or match.group(2)
                if not target or "://" in target or target.startswith(("~", "/", "$")):
                    continue
                if (
                    not target.endswith(".md")
                    or target in seen
                    or len(found) >= _MAX_SIBLINGS
                    or any(c in target for c in "{}<>*$")
                ):
                    continue  # placeholders name files sub-agents will write, not siblings
                seen.add(target)
                candidate = os.path.normpath(os.path.join(base, target))
                if not candidate.startswith(base + os.sep) or not lightos.inside(candidate, base):
                    continue  # only files inside the skill's own folder, links resolved
                try:
                    found_stat = os.stat(candidate)
                    if found_stat.st_size > _MAX_SIBLING_BYTES or not stat.S_ISREG(
                        found_stat.st_mode
                    ):
                        continue
                    with open(candidate, encoding="utf-8", errors="replace") as fh:
                        text = fh.read()
                except OSError:
                    continue
                lines = text.split("\n")
                start = 0
                try:
                    fence = frontmatter.split(lines)
                    if fence:
                        start = fence[1] + 1
                except frontmatter.YamlError:
                    pass
                found.append(
                    Sibling(
                        target,
                        block.line_of(match.start()),
                        markdown.parse(lines[start:], start + 1, source=target),
                    )
                )
        return found

    def sibling_line(self, source: str) -> int:
        """Line of the linted file that references ``source`` (where its findings are reported)."""
        for sib in self.siblings:
            if sib.name == source:
                return sib.line
        return self.body_start + 1
