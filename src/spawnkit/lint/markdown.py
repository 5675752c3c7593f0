"""Split a Markdown body into the blocks the rules reason about.

Rules read structure, not keywords: a sentence in a numbered step, a table row,
a fenced or quoted block handed to a sub-agent, a "Rules" section. Each block
keeps its text line for line so a match maps back to a file line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from spawnkit.lint import regexcache

_FENCE = regexcache.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
_HEADING = regexcache.compile(r"^\s{0,3}(#{1,6})\s+(.*)$")
_ITEM = regexcache.compile(r"^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$")
_QUOTE = regexcache.compile(r"^\s*>\s?(.*)$")
_TABLE = regexcache.compile(r"^\s*\|")
_TABLE_RULE = regexcache.compile(r"^\s*\|?\s*:?-{2,}")
_COMMENT = regexcache.compile(r"^\s*<!--.*-->\s*$")
_TAG_OPEN = regexcache.compile(r"^\s*<([A-Za-z][\w-]*)(?:\s[^>]*)?>\s*$")
# a fence with a language, met inside another fence: a nested example
_NESTED_OPEN = {c: regexcache.compile(r"^\s*" + c * 3 + r"+\s*[\w.+-]+\s*$") for c in "`~"}


def _may_open_block(line: str) -> bool:
    """Whether ``line`` can start a fence, heading, quote, list item, table or tag line.

    Each of those patterns needs one of these characters first after the indentation: a
    cheap test that spares most prose lines five regex matches.
    """
    first = line.lstrip()[:1]
    return (first != "" and first in "`~#>|-*+<") or first.isdigit()


_TAG_LINE = regexcache.compile(r"^\s*</?[A-Za-z][\w-]*(?:\s[^>]*)?>\s*$")


class Block:
    """One structural piece of the body; ``lines[k]`` is file line ``start + k``."""

    def __init__(
        self,
        kind: str,
        start: int,
        lines: list[str],
        *,
        level: int = 0,
        info: str = "",
        parent: int | None = None,
        list_id: int | None = None,
    ) -> None:
        self.kind = (
            kind  # heading | paragraph | item | code | quote | table | tag (<name> … </name>)
        )
        self.start = start
        self.lines = lines
        self.text = "\n".join(lines)  # every rule reads it: joined once
        self.section: tuple[str, ...] = ()  # enclosing headings, outermost first
        self.level = level  # heading level, or list item indentation
        self.info = info  # code fence info string ("" for indented code), or the tag name
        self.parent = parent  # index of the list item a nested block belongs to
        self.list_id = list_id  # items of one list share an id
        self.source = ""  # "" for the linted file, else the referenced sibling's name
        self.memo: dict[str, object] = {}  # per-block caches (lowered text, sentences, spawn hits)

    def copy(self, lines: list[str]) -> Block:
        """The same block with other text (for masking quoted passages)."""
        other = Block(
            self.kind,
            self.start,
            lines,
            level=self.level,
            info=self.info,
            parent=self.parent,
            list_id=self.list_id,
        )
        other.section, other.source = self.section, self.source
        return other

    def __repr__(self) -> str:
        return f"Block({self.kind!r}, {self.start}, {self.text[:30]!r})"

    @property
    def lower(self) -> str:
        lower = self.memo.get("lower")
        if lower is None:
            lower = self.memo["lower"] = self.text.lower()
        return lower  # type: ignore[return-value]

    @property
    def end(self) -> int:
        return self.start + len(self.lines) - 1

    def line_of(self, offset: int) -> int:
        """File line of character ``offset`` in :attr:`text`.

        The offsets of the block's line breaks are found once and searched by bisection: counting
        them anew for every sentence made a long paragraph cost time quadratic in its size.
        """
        if len(self.lines) == 1:
            return self.start
        breaks = self.memo.get("breaks")
        if breaks is None:
            breaks = self.memo["breaks"] = list(accumulate(len(line) + 1 for line in self.lines))
        return self.start + bisect_right(breaks, offset)  # type: ignore[arg-type]


def parse(lines: list[str], first_line: int, source: str = "") -> list[Block]:
    """Blocks of ``lines`` (the body), numbering lines from ``first_line``."""
    blocks: list[Block] = []
    section: list[tuple[int, str]] = []
    titles: tuple[str, ...] = ()  # the titles in ``section``, shared by the blocks under them
    open_items: list[int] = []  # stack of list item block indexes
    list_counter = 0
    current_list: dict[int, int] = {}  # indent -> list id
    i = 0
    n = len(lines)
    closes: dict[str, list[int]] | None = None  # tag name -> lines closing it (built on demand)
    skip_close: set[int] = set()  # closing lines of transparent containers
    # open transparent containers as (closing line, indent): text indented inside <workflow>
    # is the body's prose, not an indented code block
    containers: list[tuple[int, int]] = []

    def add(block: Block) -> int:
        block.section = titles
        block.source = source
        blocks.append(block)
        return len(blocks) - 1

    def enclosing(indent: int) -> int | None:
        while open_items:
            item = blocks[open_items[-1]]
            if indent > item.level:
                return open_items[-1]
            open_items.pop()
        return None

    while i < n:
        line = lines[i]
        lineno = first_line + i
        if not line.strip() or ("<!--" in line and _COMMENT.match(line)) or i in skip_close:
            i += 1
            continue
        indent = len(line) - len(line.lstrip(" "))
        first = line[indent]
        fence = _FENCE.match(line) if first in "`~" else None
        if fence:
            marker = fence.group(2)
            body: list[str] = []
            closing = re.compile(
                r"^\s*" + re.escape(marker[0]) + "{" + str(len(marker)) + r",}\s*$"
            )
            # a fence that opens with a language inside this one ("   ```ts" in a template) is
            # a nested example, as its author meant: its bare closer does not end this block
            nested = _NESTED_OPEN[marker[0]]
            depth = 0
            j = i + 1
            while j < n:
                if closing.match(lines[j]):
                    if not depth:
                        break
                    depth -= 1
                elif marker[0] in lines[j] and nested.match(lines[j]):
                    depth += 1
                body.append(
                    lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j].lstrip()
                )
                j += 1
            parent = enclosing(indent)
            add(
                Block(
                    "code",
                    lineno + 1,
                    body or [""],
                    info=fence.group(3).strip().lower(),
                    parent=parent,
                )
            )
            i = j + 1
            continue
        tag = _TAG_OPEN.match(line) if first == "<" else None
        if tag:
            if closes is None:
                closes = _closing_tags(lines)
            name = tag.group(1).lower()
            j = _next_close(closes.get(name), i)
            if j is not None and _transparent(name, lines, i):
                # a container (<process>, <workflow>, <objective> …): its Markdown is the body's
                skip_close.add(j)
                containers.append((j, indent))
                i += 1
                continue
            if j is not None:
                parent = enclosing(indent)
                add(
                    Block(
                        "tag",
                        lineno + 1,
                        [ln.strip() for ln in lines[i + 1 : j]] or [""],
                        info=tag.group(1).lower(),
                        parent=parent,
                    )
                )
                i = j + 1
                continue
        heading = _HEADING.match(line) if first == "#" else None
        if heading:
            level = len(heading.group(1))
            while section and section[-1][0] >= level:
                section.pop()
            title = heading.group(2).rstrip().rstrip("#").rstrip()
            section.append((level, title))
            titles = tuple([t for _, t in section])
            open_items.clear()
            current_list.clear()
            add(Block("heading", lineno, [title], level=level))
            i += 1
            continue
        if first == ">":
            body = []
            j = i
            while j < n and _QUOTE.match(lines[j]):
                body.append(_QUOTE.match(lines[j]).group(1))  # type: ignore[union-attr]
                j += 1
            parent = enclosing(indent)
            add(Block("quote", lineno, body, parent=parent))
            i = j
            continue
        if first == "|":
            j = i
            body = []
            while j < n and _TABLE.match(lines[j]):
                rule = "--" in lines[j] and _TABLE_RULE.match(lines[j])
                body.append("" if rule else lines[j].strip())
                j += 1
            parent = enclosing(indent)
            add(Block("table", lineno, body, parent=parent))
            i = j
            continue
        item = _ITEM.match(line) if first in "-*+0123456789" else None
        if item:
            parent = enclosing(indent)
            if parent is None:
                # a new top-level list unless it continues the one at this indent
                if indent not in current_list or (blocks and blocks[-1].kind == "heading"):
                    list_counter += 1
                    current_list[indent] = list_counter
            else:
                key = -(parent + 1)
                if key not in current_list:
                    list_counter += 1
                    current_list[key] = list_counter
            list_id = current_list[indent] if parent is None else current_list[-(parent + 1)]
            body = [item.group(3)]
            content_indent = indent + len(item.group(2)) + 1
            j = i + 1
            while j < n:
                nxt = lines[j]
                if not nxt.strip():
                    # a blank line ends the item unless indented text follows
                    k = j
                    while k < n and not lines[k].strip():
                        k += 1
                    if (
                        k < n
                        and _indent(lines[k]) >= content_indent
                        and not _FENCE.match(lines[k])
                        and not _QUOTE.match(lines[k])
                        and not _ITEM.match(lines[k])
                        and _indent(lines[k]) < content_indent + 4
                    ):
                        body.extend([""] * (k - j))
                        j = k
                        continue
                    break
                if _may_open_block(nxt) and (
                    _FENCE.match(nxt)
                    or _QUOTE.match(nxt)
                    or _HEADING.match(nxt)
                    or _ITEM.match(nxt)
                    or _TABLE.match(nxt)
                    or _TAG_LINE.match(nxt)  # "</step>", "<step>": the item ends there
                ):
                    break
                body.append(nxt.strip())
                j += 1
            idx = add(
                Block(
                    "item",
                    lineno,
                    body,
                    level=indent,
                    parent=parent,
                    list_id=list_id,
                )
            )
            open_items.append(idx)
            i = j
            continue
        # indented code: 4+ spaces beyond any enclosing list item's content
        parent = enclosing(indent)
        base = (blocks[parent].level + 2) if parent is not None else 0
        while containers and containers[-1][0] < i:
            containers.pop()
        if containers:
            base = max(base, containers[-1][1] + 2)
        prev_blank = i > 0 and not lines[i - 1].strip()
        if indent >= base + 4 and prev_blank:
            body = []
            j = i
            while j < n and (not lines[j].strip() or _indent(lines[j]) >= indent):
                body.append(lines[j][indent:])
                j += 1
            while body and not body[-1].strip():
                body.pop()
            add(Block("code", lineno, body, parent=parent))
            i = i + len(body)
            continue
        body = [line.strip()]
        j = i + 1
        while (
            j < n
            and lines[j].strip()
            and not (
                _may_open_block(lines[j])
                and (
                    _FENCE.match(lines[j])
                    or _HEADING.match(lines[j])
                    or _QUOTE.match(lines[j])
                    or _ITEM.match(lines[j])
                    or _TABLE.match(lines[j])
                    or _TAG_LINE.match(lines[j])
                )
            )
        ):
            body.append(lines[j].strip())
            j += 1
        add(Block("paragraph", lineno, body, parent=parent))
        if parent is None:
            open_items.clear()
            current_list.clear()
        i = j
    return blocks


_CLOSE_TAG = regexcache.compile(r"^\s*</([A-Za-z][\w-]*)>\s*$")
# tags whose content is handed over or shown, never followed by the orchestrator itself
_OPAQUE_TAG = regexcache.compile(
    r"prompt|brief|example|template|sample|output|format|response|reply|result"
)


def _closing_tags(lines: list[str]) -> dict[str, list[int]]:
    """Lines of every closing tag, by name: one pass, so unclosed tags cost no re-scan."""
    found: dict[str, list[int]] = {}
    for k, line in enumerate(lines):
        if "</" in line:
            m = _CLOSE_TAG.match(line)
            if m:
                found.setdefault(m.group(1).lower(), []).append(k)
    return found


def _next_close(candidates: list[int] | None, after: int) -> int | None:
    if not candidates:
        return None
    import bisect

    k = bisect.bisect_right(candidates, after)
    return candidates[k] if k < len(candidates) else None


def _transparent(name: str, lines: list[str], at: int) -> bool:
    """A tag that wraps the skill's own steps rather than a prompt, example or template.

    Not when its name says prompt, example, template or output, nor when the line before
    introduces it (ends with a colon: "spawn a sub-agent with:").
    """
    if _OPAQUE_TAG.search(name):
        return False
    k = at - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    return k < 0 or not lines[k].rstrip().endswith(":")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
