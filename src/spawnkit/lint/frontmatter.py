"""A strict reader for the YAML subset that skill frontmatter uses, and the one splitter.

The lint-on-write hook cannot import PyYAML (and the plugin may run where it is not
installed), so this module reads the subset by hand: plain, single- and double-quoted
scalars (also over several lines), block scalars (``|`` and ``>`` with chomping and
indentation indicators), flow and block lists, flow and block maps nested to any depth,
comments. Plain scalars resolve like PyYAML's ``safe_load`` (YAML 1.1: ``yes``/``on`` are
booleans, ``0x1F`` is an int, ``2024-01-31`` a date). Everything the CLI runs reads with
PyYAML instead (``reader="pyyaml"``).

Anything outside the subset (anchors, aliases, tags, complex keys, directives,
several documents, sexagesimal numbers, full timestamps, tabs as indentation)
raises :class:`Unsupported` naming the construct, never a guess; text that is
certainly not YAML raises :class:`YamlError`. ``tests/lint/test_frontmatter.py``
checks every answer against PyYAML on the corpus and on generated cases.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from spawnkit.files import bounded
from spawnkit.lint import regexcache
from spawnkit.lint.patterns import lazy


class YamlError(Exception):
    """The frontmatter is not valid YAML (PyYAML would refuse it too)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line  # 1-based line within the file
        self.message = message


class Unsupported(YamlError):
    """Valid YAML, maybe, but outside the subset this reader judges."""


class Frontmatter(NamedTuple):
    """The frontmatter block of a Markdown file."""

    data: Any  # the parsed value (a dict for any sensible file)
    start: int  # 1-based line of the opening ``---``
    end: int  # 1-based line of the closing ``---``
    key_lines: dict[str, int]  # top-level key -> 1-based line


_DELIM = regexcache.compile(r"^---[ \t]*\r?$")

#: The two ways to read a frontmatter block: ``strict`` (this module, standard library only,
#: for the hook path and the plugin) and ``pyyaml`` (PyYAML, for everything the CLI runs).
READERS = ("strict", "pyyaml")


def is_fence(line: str) -> bool:
    """Whether ``line`` (with or without its line ending) is a ``---`` frontmatter fence."""
    return _DELIM.match(line) is not None


def split(lines: list[str], strict: bool = True) -> tuple[int, int] | None:
    """(open, close) 0-based indexes of the frontmatter fences, or None without frontmatter.

    The one frontmatter splitter: lint, update, adopt and retrofit all use it. ``lines`` may
    keep their line endings. With ``strict`` an unclosed block or a ``...`` end marker raises
    :class:`YamlError`; without, such a file simply has no frontmatter.
    """
    if not lines or not _DELIM.match(lines[0]):
        return None
    for i in range(1, len(lines)):
        if lines[i].startswith("---") and _DELIM.match(lines[i]):  # most lines fail the first test
            return 0, i
        if strict and lines[i].rstrip() == "...":
            raise Unsupported(
                i + 1,
                "the '...' document end marker is not supported; close the frontmatter with '---'",
            )
    if not strict:
        return None
    raise YamlError(
        1, "the frontmatter opened with '---' on line 1 is never closed by a second '---' line"
    )


def parse(
    lines: list[str], reader: str = "strict", label: str = "the frontmatter"
) -> Frontmatter | None:
    """Parse the frontmatter at the top of ``lines`` (the file's lines, no newlines).

    ``reader`` ``strict`` uses this module's subset reader, which raises :class:`Unsupported`
    outside the subset; ``pyyaml`` gives PyYAML's safe-loader answer for any YAML. Where both
    answer they give the same value (tests/lint/test_frontmatter.py and test_readers.py check
    it), so ``pyyaml`` lets the subset reader answer first and imports PyYAML (about 20 ms)
    only for what lies outside the subset: ``spawnkit lint`` on a plain skill stays fast.

    Either way the value is bounded in depth (``spawnkit.files.bounded``): a frontmatter
    nested deeper raises ``TooDeep`` and an alias bomb ``TooExpanded`` (both ``OverLimit``,
    named by ``label``), which are not a ``YamlError``: the file cannot be judged, rather
    than judged broken.
    """
    fence = split(lines)
    if fence is None:
        return None
    start, end = fence
    parser = _Parser(lines[start + 1 : end], first_line=start + 2)
    try:
        with bounded.parsing(label):
            data = parser.document()
        key_lines = parser.top_keys
    except Unsupported:
        if reader != "pyyaml":
            raise
        with bounded.parsing(label):
            data, key_lines = _pyyaml(lines[start + 1 : end], first_line=start + 2, label=label)
    bounded.checked(data, label)
    return Frontmatter(data=data, start=start + 1, end=end + 1, key_lines=key_lines)


def _pyyaml(
    lines: list[str], first_line: int, label: str = "the frontmatter"
) -> tuple[Any, dict[str, int]]:
    """(value, top-level key -> line) read with PyYAML; its errors become :class:`YamlError`.

    The document goes through ``bounded.yaml_document`` before a value is built: aliases
    that would blow it up (an alias bomb) are ``TooExpanded``, like a too deep one."""
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = loader_class("".join(line + "\n" for line in lines))  # each line ends, as in the file
    top_keys: dict[str, int] = {}
    try:
        node = bounded.yaml_document(loader, label)
        if isinstance(node, yaml.MappingNode):
            for key, _value in node.value:  # keys as constructed values, like the strict reader
                name = str(loader.construct_object(key, deep=True))
                top_keys.setdefault(name, first_line + key.start_mark.line)
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = first_line + (mark.line if mark is not None else 0)
        raise YamlError(line, " ".join(str(exc.problem or exc).split())) from None
    except yaml.YAMLError as exc:
        raise YamlError(first_line, " ".join(str(exc).split())) from None
    finally:
        loader.dispose()
    return data, top_keys


def read(text: str, label: str = "the frontmatter") -> dict[str, Any] | None:
    """A file's frontmatter as a mapping, read with PyYAML; None if missing, unclosed or invalid.

    What update, adopt and retrofit use: they need the values, not diagnostics. One nested
    too deeply or with an alias bomb raises ``OverLimit`` (see ``parse``).
    """
    lines = text.splitlines()
    try:
        front = parse(lines, reader="pyyaml", label=label)
    except YamlError:
        return None
    if front is None or not isinstance(front.data, dict):
        return None
    return front.data


def loads(text: str) -> Any:
    """Parse a bare YAML document of the subset (used by tests against PyYAML)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line starts no line of its own
    return _Parser(lines, first_line=1).document()


# --- scalar resolution (YAML 1.1 as PyYAML's SafeLoader implements it) ------------

_NULL = {"", "~", "null", "Null", "NULL"}
_TRUE = {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}
_FALSE = {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}
_INT_BIN = lazy(r"^[-+]?0b[0-1_]+$")
_INT_OCT = lazy(r"^[-+]?0[0-7_]+$")
_INT_DEC = lazy(r"^[-+]?(?:0|[1-9][0-9_]*)$")
_INT_HEX = lazy(r"^[-+]?0x[0-9a-fA-F_]+$")
_SEXAGESIMAL = lazy(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$")
_FLOAT = lazy(
    r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
_DATE = lazy(r"^[0-9]{4}-[0-9][0-9]-[0-9][0-9]$")
_TIMESTAMP = lazy(
    r"^[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9]"
)


def _resolve(text: str, line: int) -> Any:
    """The Python value PyYAML's SafeLoader gives a plain scalar."""
    if text in _NULL:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    first = text[0]
    if first in "-+0123456789.":
        if (
            _INT_BIN.match(text)
            or _INT_OCT.match(text)
            or _INT_DEC.match(text)
            or _INT_HEX.match(text)
        ):
            return _to_int(text)
        if _FLOAT.match(text):
            return _to_float(text)
        if _SEXAGESIMAL.match(text):
            raise Unsupported(line, f"the sexagesimal number {text!r} is not supported; quote it")
    if first.isdigit():
        if _DATE.match(text):
            try:
                import datetime  # only for a date-valued key: most files have none

                return datetime.date.fromisoformat(text)
            except ValueError:
                raise YamlError(
                    line, f"{text!r} looks like a date but is not a valid one"
                ) from None
        if _TIMESTAMP.match(text):
            raise Unsupported(line, f"the timestamp {text!r} is not supported; quote it")
    if text in ("=", "<<"):
        raise Unsupported(line, f"the YAML indicator {text!r} is not supported; quote it")
    return text


def _to_int(text: str) -> int:
    value = text.replace("_", "")
    sign = 1
    if value[0] in "+-":
        sign = -1 if value[0] == "-" else 1
        value = value[1:]
    if value == "0":
        return 0
    if value.startswith("0b"):
        return sign * int(value[2:], 2)
    if value.startswith("0x"):
        return sign * int(value[2:], 16)
    if value[0] == "0":
        return sign * int(value, 8)
    return sign * int(value)


def _to_float(text: str) -> float:
    value = text.replace("_", "").lower()
    sign = 1.0
    if value[0] in "+-":
        sign = -1.0 if value[0] == "-" else 1.0
        value = value[1:]
    if value == ".inf":
        return sign * float("inf")
    if value == ".nan":
        return float("nan")
    return sign * float(value)


# --- the block parser ----------------------------------------------------------------

_ESCAPES = {
    "0": "\0",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_CANNOT_START = "@`"
_UNSUPPORTED_START = {
    "&": "anchors",
    "*": "aliases",
    "!": "tags",
    "?": "complex keys",
    "%": "directives",
}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blank(line: str) -> bool:
    stripped = line.strip(" ")
    return not stripped or stripped.startswith("#")


class _Parser:
    def __init__(self, lines: list[str], first_line: int) -> None:
        self.lines = list(lines)
        self.first = first_line
        self.i = 0
        self.top_keys: dict[str, int] = {}

    # helpers
    def lineno(self, i: int | None = None) -> int:
        return self.first + (self.i if i is None else i)

    def skip_blank(self) -> None:
        while self.i < len(self.lines) and _blank(self.lines[self.i]):
            self.i += 1

    def check_tabs(self, i: int) -> None:
        line = self.lines[i]
        lead = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in lead and line.strip():
            raise Unsupported(
                self.lineno(i), "a tab in the indentation is not supported; indent with spaces"
            )

    def document(self) -> Any:
        for i, line in enumerate(self.lines):
            if line.startswith("%") or line.rstrip() in ("---", "..."):
                raise Unsupported(
                    self.lineno(i), "YAML directives and several documents are not supported"
                )
        self.skip_blank()
        if self.i >= len(self.lines):
            return None
        self.check_tabs(self.i)
        indent = _indent(self.lines[self.i])
        if indent != 0:
            raise Unsupported(
                self.lineno(),
                "an indented first line is not supported; start the frontmatter's keys in column 1",
            )
        rest = self.lines[self.i]
        if rest.startswith("- ") or rest.rstrip() == "-":
            value = self.sequence(0)
        elif self.looks_like_key(rest):
            value = self.mapping(0, top=True)
        else:
            value = self.value_after(rest.strip(" "), -1, self.i)
        self.skip_blank()
        if self.i < len(self.lines):
            raise YamlError(
                self.lineno(), "unexpected text after the end of the frontmatter's top-level block"
            )
        return value

    def looks_like_key(self, line: str) -> bool:
        try:
            return self.split_key(line.strip(" "), self.i) is not None
        except YamlError:
            return True

    def split_key(self, text: str, i: int) -> tuple[str, str] | None:
        """(key, rest after ':') when ``text`` starts a ``key:`` entry, else None."""
        if not text:
            return None
        if text[0] in "\"'":
            end = self.quoted_end(text, 0)
            if end is None:
                return None
            after = text[end:]
            if after.startswith(":") and (len(after) == 1 or after[1] == " "):
                key = self.unquote(text[:end], i)
                return key, after[1:]
            return None
        if text[0] in _UNSUPPORTED_START and (text[0] != "?" or text[1:2] in ("", " ")):
            raise Unsupported(self.lineno(i), f"{_UNSUPPORTED_START[text[0]]} are not supported")
        if "\t" in text.split(":", 1)[0]:
            raise Unsupported(self.lineno(i), "a tab inside a key is not supported")
        pos = 0
        while True:
            pos = text.find(":", pos)
            if pos < 0:
                return None
            hash_pos = text.find(" #")
            if 0 <= hash_pos < pos:
                return None
            if pos + 1 == len(text) or text[pos + 1] == " ":
                key = text[:pos].rstrip(" ")
                if not key:
                    raise Unsupported(self.lineno(i), "an empty key is not supported")
                if key[0] in "[]{},":
                    raise Unsupported(
                        self.lineno(i), f"a key starting with {key[0]!r} is not supported; quote it"
                    )
                if key == "<<":
                    raise Unsupported(self.lineno(i), "merge keys ('<<') are not supported")
                if key[0] in "-" and key[1:2] in ("", " "):
                    return None
                return key, text[pos + 1 :]
            pos += 1

    def mapping(self, indent: int, top: bool = False) -> dict[str, Any]:
        result: dict[str, Any] = {}
        while True:
            self.skip_blank()
            if self.i >= len(self.lines):
                return result
            self.check_tabs(self.i)
            line = self.lines[self.i]
            cur = _indent(line)
            if cur < indent:
                return result
            if cur > indent:
                raise YamlError(self.lineno(), "this line is indented more than the keys above it")
            text = line[cur:]
            if text.startswith("- ") or text.rstrip() == "-":
                if top:
                    raise YamlError(
                        self.lineno(), "a list item where a 'key: value' line was expected"
                    )
                return result
            pair = self.split_key(text, self.i)
            if pair is None and text[:1] in "|>'\"[{":
                raise Unsupported(
                    self.lineno(),
                    "a value on the line below its key, at the key's indentation, is not supported",
                )
            if pair is None:
                raise YamlError(
                    self.lineno(), f"expected 'key: value' but found {text.strip()[:40]!r}"
                )
            key, rest = pair
            key_obj = self.key_value(key)
            if top:
                self.top_keys.setdefault(str(key_obj), self.lineno())
            start = self.i
            result[key_obj] = self.value_after(rest, indent, start)  # type: ignore[index]
            if isinstance(key_obj, (list, dict)):
                raise Unsupported(self.lineno(start), "collection keys are not supported")

    def key_value(self, key: str) -> Any:
        if key[0] in "\"'":
            return self.unquote(key, self.i)
        return _resolve(key, self.lineno())

    def sequence(self, indent: int) -> list[Any]:
        result: list[Any] = []
        while True:
            self.skip_blank()
            if self.i >= len(self.lines):
                return result
            self.check_tabs(self.i)
            line = self.lines[self.i]
            cur = _indent(line)
            if cur < indent:
                return result
            if cur > indent:
                raise YamlError(
                    self.lineno(), "this line is indented more than the list items above it"
                )
            text = line[cur:]
            if not (text.startswith("- ") or text.rstrip() == "-"):
                return result
            body = text[1:]
            inner = body.lstrip(" ")
            col = cur + 1 + (len(body) - len(inner))
            if inner.startswith("- ") or inner.rstrip() == "-":
                raise Unsupported(
                    self.lineno(), "a list directly inside a list item ('- - x') is not supported"
                )
            pair = None
            if inner and not inner.startswith("#"):
                pair = self.split_key(inner, self.i)
            if pair is not None:
                # "- key: value": a map whose keys line up with the first key
                self.lines[self.i] = " " * col + inner
                result.append(self.mapping(col))
            else:
                result.append(self.value_after(inner, cur, self.i, in_sequence=True))

    def value_after(self, rest: str, indent: int, i: int, in_sequence: bool = False) -> Any:
        """Parse the value that follows ``key:`` (or ``-``) on line ``i``; advances past it."""
        text = rest.strip(" ")
        self.i = i + 1
        if not text or text.startswith("#"):
            return self.nested(indent, in_sequence)
        first = text[0]
        if first in "|>":
            return self.block_scalar(text, indent, i)
        if first in "[{":
            return self.flow(text, indent, i)
        if first in "\"'":
            return self.quoted(rest.lstrip(" "), indent, i)
        if first in _CANNOT_START:
            raise YamlError(self.lineno(i), f"a value cannot start with {first!r}; quote it")
        if first in "&*!%":
            raise Unsupported(self.lineno(i), f"{_UNSUPPORTED_START[first]} are not supported")
        if first == "?" and text[1:2] in ("", " "):
            raise Unsupported(self.lineno(i), "complex keys are not supported")
        if first == "-" and text[1:2] in ("", " "):
            raise YamlError(
                self.lineno(i),
                "a list cannot start on the same line as its key; put '- item' on the next line",
            )
        if first in "]},":
            raise Unsupported(
                self.lineno(i), f"a plain value starting with {first!r} is not supported; quote it"
            )
        return self.plain(text, indent, i)

    def nested(self, indent: int, in_sequence: bool = False) -> Any:
        """The block under ``key:`` with nothing after the colon (or None)."""
        self.skip_blank()
        if self.i >= len(self.lines):
            return None
        self.check_tabs(self.i)
        line = self.lines[self.i]
        cur = _indent(line)
        text = line[cur:]
        is_item = text.startswith("- ") or text.rstrip() == "-"
        if cur > indent:
            if is_item:
                return self.sequence(cur)
            if self.looks_like_key(text):
                return self.mapping(cur)
            return self.value_after(text, indent, self.i)
        if cur == indent and is_item and indent >= 0 and not in_sequence:
            return self.sequence(cur)
        return None

    # plain scalars
    def plain(self, text: str, indent: int, i: int) -> Any:
        self.i = i + 1
        value, ended_by_comment = self.plain_piece(text, i)
        parts = [value]
        pending_breaks = 0
        if not ended_by_comment:
            j = i + 1
            while j < len(self.lines):
                line = self.lines[j]
                if not line.strip(" "):
                    pending_breaks += 1
                    j += 1
                    continue
                self.check_tabs(j)
                if _indent(line) <= indent or line.strip(" ").startswith("#"):
                    break
                piece = line.strip(" ")
                if piece.startswith("- ") and _indent(line) <= indent + 0:
                    break
                piece, comment = self.plain_piece(piece, j)
                parts.append("\n" * pending_breaks if pending_breaks else " ")
                parts.append(piece)
                pending_breaks = 0
                j += 1
                self.i = j
                if comment:
                    break
        return _resolve("".join(parts), self.lineno(i))

    def plain_piece(self, text: str, i: int) -> tuple[str, bool]:
        """One line of a plain scalar: (text, ended by a comment)."""
        if "\t" in text:
            raise Unsupported(
                self.lineno(i), "a tab inside an unquoted value is not supported; quote the value"
            )
        hash_pos = text.find(" #")
        comment = hash_pos >= 0
        if comment:
            text = text[:hash_pos]
        text = text.rstrip(" \t")
        colon = text.find(": ")
        if colon >= 0 or text.endswith(":"):
            raise YamlError(
                self.lineno(i),
                "': ' inside an unquoted value starts a second mapping; quote the value",
            )
        return text, comment

    # quoted scalars
    def quoted_end(self, text: str, start: int) -> int | None:
        """Index just past the closing quote of the quoted scalar at ``start`` on one line."""
        quote = text[start]
        j = start + 1
        while j < len(text):
            c = text[j]
            if quote == "'" and c == "'":
                if j + 1 < len(text) and text[j + 1] == "'":
                    j += 2
                    continue
                return j + 1
            if quote == '"':
                if c == "\\":
                    j += 2
                    continue
                if c == '"':
                    return j + 1
            j += 1
        return None

    def quoted(self, text: str, indent: int, i: int) -> str:
        quote = text[0]
        raw = text
        j = i
        end = self.quoted_end(raw, 0)
        while end is None:
            j += 1
            if j >= len(self.lines):
                raise YamlError(
                    self.lineno(i), f"the {quote}quoted{quote} value starting here is never closed"
                )
            nxt = self.lines[j]
            if nxt.strip(" ") and _indent(nxt) <= indent:
                raise Unsupported(
                    self.lineno(j),
                    "a quoted value that continues at or left of its key's indentation is not "
                    "supported",
                )
            raw = raw + "\n" + nxt
            end = self.quoted_end(raw, 0)
        tail = raw[end:]
        if tail.strip(" ") and not tail.strip(" ").startswith("#"):
            if tail.lstrip(" ").startswith(":"):
                raise YamlError(
                    self.lineno(j), "a quoted key in value position; quote the whole value"
                )
            raise YamlError(
                self.lineno(j), f"unexpected text after the closing quote: {tail.strip()[:30]!r}"
            )
        self.i = j + 1
        return self.unquote(raw[:end], i)

    def unquote(self, token: str, i: int) -> str:
        quote = token[0]
        body = token[1:-1]
        if "\n" in body:
            body = self.fold_quoted(body, quote)
        if quote == "'":
            return body.replace("''", "'")
        return self.unescape(body, i)

    @staticmethod
    def fold_quoted(body: str, quote: str) -> str:
        lines = body.split("\n")
        out = [
            lines[0].rstrip(" \t") if not (quote == '"' and lines[0].endswith("\\")) else lines[0]
        ]
        breaks = 0
        for k, line in enumerate(lines[1:], start=1):
            last = k == len(lines) - 1
            piece = line.strip(" \t") if not last else line.lstrip(" \t")
            if not piece and not last:
                breaks += 1
                continue
            prev = out[-1]
            if quote == '"' and prev.endswith("\\") and not prev.endswith("\\\\"):
                out[-1] = prev[:-1]
                out.append("\n" * breaks + piece)
            else:
                out.append(("\n" * breaks if breaks else " ") + piece)
            breaks = 0
        if breaks:
            out.append("\n" * breaks)
        return "".join(out)

    def unescape(self, body: str, i: int) -> str:
        out: list[str] = []
        j = 0
        while j < len(body):
            c = body[j]
            if c != "\\":
                out.append(c)
                j += 1
                continue
            if j + 1 >= len(body):
                raise YamlError(self.lineno(i), "a double-quoted value ends with a lone backslash")
            e = body[j + 1]
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
                j += 2
            elif e in _HEX_ESCAPES:
                n = _HEX_ESCAPES[e]
                digits = body[j + 2 : j + 2 + n]
                if len(digits) != n or not re.fullmatch(r"[0-9A-Fa-f]+", digits):
                    raise YamlError(self.lineno(i), f"bad \\{e} escape in a double-quoted value")
                out.append(chr(int(digits, 16)))
                j += 2 + n
            else:
                raise YamlError(
                    self.lineno(i),
                    f"unknown escape '\\{e}' in a double-quoted value; write '\\\\' for a "
                    f"backslash",
                )
        return "".join(out)

    # block scalars
    def block_scalar(self, header: str, indent: int, i: int) -> str:
        m = re.fullmatch(r"([|>])([-+]?)([1-9]?)([-+]?)(?:\s+#.*)?\s*", header)
        if not m or (m.group(2) and m.group(4)):
            raise YamlError(self.lineno(i), f"bad block scalar header {header!r}")
        folded = m.group(1) == ">"
        chomp = m.group(2) or m.group(4)
        explicit = int(m.group(3)) if m.group(3) else 0
        min_indent = indent + 1 if indent >= 0 else 1
        j = i + 1
        # find the content indentation
        if explicit:
            block_indent = (indent if indent >= 0 else 0) + explicit
        else:
            block_indent = 0
            k = j
            while k < len(self.lines) and not self.lines[k].strip(" "):
                if len(self.lines[k]) > 0:
                    raise Unsupported(
                        self.lineno(k),
                        "whitespace-only lines before a block scalar's text are not supported",
                    )
                k += 1
            if k < len(self.lines):
                block_indent = _indent(self.lines[k])
            block_indent = max(block_indent, min_indent)
        content: list[str] = []
        while j < len(self.lines):
            line = self.lines[j]
            if line.strip(" "):
                if _indent(line) < block_indent:
                    break
                content.append(line[block_indent:])
            else:
                if len(line) > block_indent:
                    content.append(line[block_indent:])
                else:
                    content.append("")
            j += 1
        # trailing empty lines belong to chomping; the parser resumes after the text
        trailing = 0
        while content and content[-1] == "":
            content.pop()
            trailing += 1
        self.i = i + 1 + len(content)
        return _assemble_block(content, folded, chomp, trailing)

    # flow collections
    def flow(self, text: str, indent: int, i: int) -> Any:
        raw = text
        j = i
        while True:
            try:
                value, end = _FlowReader(raw, self.lineno(i)).read()
                break
            except _NeedMore:
                j += 1
                if j >= len(self.lines):
                    raise YamlError(
                        self.lineno(i), "the bracketed list or map starting here is never closed"
                    ) from None
                nxt = self.lines[j]
                if "\t" in nxt[: len(nxt) - len(nxt.lstrip(" \t"))] or (
                    nxt.strip() and _indent(nxt) <= indent
                ):
                    raise Unsupported(
                        self.lineno(j),
                        "this continuation of a bracketed list or map is not supported; indent it",
                    ) from None
                raw = raw + "\n" + nxt
        tail = raw[end:]
        if tail.strip(" ") and not tail.lstrip(" ").startswith("#"):
            raise YamlError(
                self.lineno(j), f"unexpected text after the closing bracket: {tail.strip()[:30]!r}"
            )
        self.i = j + 1
        return value


def _assemble_block(content: list[str], folded: bool, chomp: str, trailing: int) -> str:
    """Join block scalar lines the way YAML (and PyYAML) does."""
    chunks: list[str] = []
    breaks: list[str] = []
    line_break = ""
    k, n = 0, len(content)
    while k < n and content[k] == "":
        breaks.append("\n")
        k += 1
    while k < n:
        chunks.extend(breaks)
        leading_non_space = content[k][:1] not in (" ", "\t")
        chunks.append(content[k])
        line_break = "\n"
        k += 1
        breaks = []
        while k < n and content[k] == "":
            breaks.append("\n")
            k += 1
        if k >= n:
            break
        if folded and leading_non_space and content[k][:1] not in (" ", "\t"):
            if not breaks:
                chunks.append(" ")
        else:
            chunks.append(line_break)
    if chomp != "-":
        chunks.append(line_break)
    if chomp == "+":
        chunks.extend(breaks)
        chunks.append("\n" * trailing)
    return "".join(chunks)


class _NeedMore(Exception):
    pass


class _FlowReader:
    """Reads ``[a, b]`` / ``{k: v}`` possibly spanning lines (joined by newlines)."""

    def __init__(self, text: str, line: int) -> None:
        self.s = text
        self.p = 0
        self.line = line

    def err(self, msg: str) -> YamlError:
        return YamlError(self.line, msg)

    def ws(self) -> None:
        while self.p < len(self.s):
            c = self.s[self.p]
            if c == "\t":
                raise Unsupported(
                    self.line, "a tab inside a bracketed list or map is not supported"
                )
            if c in " \n":
                self.p += 1
            elif c == "#" and (self.p == 0 or self.s[self.p - 1] in " \t\n"):
                nl = self.s.find("\n", self.p)
                if nl < 0:
                    self.p = len(self.s)
                else:
                    self.p = nl
            else:
                break

    def read(self) -> tuple[Any, int]:
        value = self.node()
        return value, self.p

    def node(self) -> Any:
        self.ws()
        if self.p >= len(self.s):
            raise _NeedMore()
        c = self.s[self.p]
        if c == "[":
            return self.seq()
        if c == "{":
            return self.map()
        if c in "\"'":
            return self.quoted()
        if c in "&*!|>%?@`" or (c in "-:" and self.s[self.p + 1 : self.p + 2] in (" ", "\n", "")):
            raise Unsupported(self.line, f"{c!r} inside a bracketed list or map is not supported")
        return self.plain()

    def seq(self) -> list[Any]:
        self.p += 1
        out: list[Any] = []
        while True:
            self.ws()
            if self.p >= len(self.s):
                raise _NeedMore()
            if self.s[self.p] == "]":
                self.p += 1
                return out
            if self.s[self.p] == ",":
                raise self.err("an empty entry (',,') in a bracketed list")
            item = self.node()
            self.ws()
            if self.p >= len(self.s):
                raise _NeedMore()
            if self.s[self.p] == ":":
                raise Unsupported(
                    self.line, "'key: value' pairs inside a bracketed list are not supported"
                )
            out.append(item)
            if self.s[self.p] == ",":
                self.p += 1
            elif self.s[self.p] != "]":
                raise self.err(f"expected ',' or ']' in a bracketed list, found {self.s[self.p]!r}")

    def map(self) -> dict[Any, Any]:
        self.p += 1
        out: dict[Any, Any] = {}
        while True:
            self.ws()
            if self.p >= len(self.s):
                raise _NeedMore()
            if self.s[self.p] == "}":
                self.p += 1
                return out
            if self.s[self.p] == ",":
                raise self.err("an empty entry (',,') in a bracketed map")
            key = self.node()
            if isinstance(key, (list, dict)):
                raise Unsupported(self.line, "collection keys are not supported")
            self.ws()
            if self.p >= len(self.s):
                raise _NeedMore()
            if self.s[self.p] == ":":
                self.p += 1
                self.ws()
                if self.p >= len(self.s):
                    raise _NeedMore()
                if self.s[self.p] in ",}":
                    value = None
                else:
                    value = self.node()
            else:
                value = None
            out[key] = value
            self.ws()
            if self.p >= len(self.s):
                raise _NeedMore()
            if self.s[self.p] == ",":
                self.p += 1
            elif self.s[self.p] != "}":
                raise self.err(f"expected ',' or '}}' in a bracketed map, found {self.s[self.p]!r}")

    def quoted(self) -> str:
        q = self.s[self.p]
        j = self.p + 1
        while j < len(self.s):
            c = self.s[j]
            if q == "'" and c == "'":
                if j + 1 < len(self.s) and self.s[j + 1] == "'":
                    j += 2
                    continue
                break
            if q == '"' and c == "\\":
                j += 2
                continue
            if q == '"' and c == '"':
                break
            j += 1
        else:
            raise _NeedMore()
        token = self.s[self.p : j + 1]
        self.p = j + 1
        parser = _Parser([], self.line)
        return parser.unquote(token, 0)

    def plain(self) -> Any:
        start = self.p
        while self.p < len(self.s):
            c = self.s[self.p]
            if c in ",[]{}":
                break
            if c == ":" and (self.p + 1 >= len(self.s) or self.s[self.p + 1] in " \t\n,[]{}"):
                break
            if c == "#" and self.p > start and self.s[self.p - 1] in " \t\n":
                break
            self.p += 1
        raw = self.s[start : self.p]
        if "\t" in raw:
            raise Unsupported(self.line, "a tab inside a bracketed list or map is not supported")
        words = [w for w in re.split(r"[ \t]*\n[ \t]*", raw.strip(" \t\n"))]
        text = " ".join(w for w in words)
        if not text:
            raise self.err("an empty entry in a bracketed list or map")
        return _resolve(text, self.line)
