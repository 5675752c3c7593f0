"""The built-in slash commands of a Claude Code binary, read from its strings.

    python scripts/claude_builtins.py BINARY            # print the names, one a line
    python scripts/claude_builtins.py BINARY --write    # rewrite src/spawnkit/hosts/builtins.py

A user's ``/clear`` is recorded in a transcript exactly like a ``/name`` of their own skill
(``<command-name>/clear</command-name>``), so ``spawnkit audit`` needs the client's own list to
tell the two apart. Claude Code ships as one native executable whose JavaScript is readable in
its strings; each built-in command is an object literal there with a ``type`` of ``"local"``,
``"local-jsx"`` or ``"prompt"``, a ``name`` and sometimes ``aliases``. This script finds every
such literal (balanced braces around each ``type:"…"``) and prints the names and aliases.

The binary of an npm install is ``node_modules/@anthropic-ai/claude-code/bin/claude.exe``;
``node_modules/.bin/claude`` links to it. The list checked in is the pinned client's;
``tests/audit/test_builtins.py`` compares it with the binary when one is installed.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET = REPO / "src" / "spawnkit" / "hosts" / "builtins.py"
_TYPE = re.compile(rb'type:"(?:local|local-jsx|prompt)"')
_NAME = re.compile(rb'(?:^|[{,])name:"([a-z][a-z0-9-]*)"')
_ALIASES = re.compile(rb'(?:^|[{,])aliases:\[((?:"[a-z0-9-]+",?)*)\]')
_WINDOW = 4000  # bytes either side of a type:"…" searched for its object's braces


def _object(data: bytes, at: int) -> bytes | None:
    """The object literal holding position ``at``: from its ``{`` to its matching ``}``, nested
    braces (functions, sub-objects) skipped; None when no balanced one is near."""
    depth = 0
    start = None
    for i in range(at, max(0, at - _WINDOW), -1):
        c = data[i]
        if c == ord("}"):
            depth += 1
        elif c == ord("{"):
            if depth == 0:
                start = i
                break
            depth -= 1
    if start is None:
        return None
    depth = 0
    for j in range(start, min(len(data), start + 2 * _WINDOW)):
        c = data[j]
        if c == ord("{"):
            depth += 1
        elif c == ord("}"):
            depth -= 1
            if depth == 0:
                return data[start : j + 1]
    return None


def _top_level(literal: bytes) -> bytes:
    """The literal with its nested objects and functions cut out: only its own keys remain."""
    out = bytearray()
    depth = 0
    for c in literal[1:-1]:
        if c == ord("{"):
            depth += 1
        elif c == ord("}"):
            depth -= 1
        elif depth == 0:
            out.append(c)
    return bytes(out)


def builtins(binary: Path) -> list[str]:
    """Every built-in command name and alias the binary defines, sorted."""
    data = binary.read_bytes()
    found: set[str] = set()
    for match in _TYPE.finditer(data):
        literal = _object(data, match.start())
        if literal is None:
            continue
        own = _top_level(literal)
        if not _TYPE.search(own):
            continue  # the type belongs to a nested object, not this one
        name = _NAME.search(own)
        if name is None or (b"description:" not in own and b"description(" not in own):
            continue
        found.add(name.group(1).decode())
        aliases = _ALIASES.search(own)
        if aliases:
            found.update(a.decode() for a in re.findall(rb'"([a-z0-9-]+)"', aliases.group(1)))
    return sorted(found)


def module(names: list[str], version: str) -> str:
    lines = [f'        "{n}",' for n in names]
    return (
        f'"""The built-in slash commands of Claude Code {version} (and their aliases).\n\n'
        "A user's ``/clear`` is recorded in a transcript as a ``/name`` of their own skill is\n"
        "(``<command-name>/clear</command-name>``): ``spawnkit audit`` tells the two apart with\n"
        "this list. Generated from the pinned client's binary by ``scripts/claude_builtins.py``\n"
        "(do not edit by hand); ``tests/audit/test_builtins.py`` compares it with the binary.\n"
        "Standard library only, plain data.\n"
        '"""\n\n'
        f'CLAUDE_CODE_VERSION = "{version}"\n\n'
        "CLAUDE_CODE = frozenset(\n    {\n" + "\n".join(lines) + "\n    }\n)\n"
    )


def resolve(binary: Path) -> Path:
    """``node_modules/.bin/claude`` is a link to the native executable: follow it."""
    return Path(os.path.realpath(binary))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", type=Path, help="the claude executable (or its npm bin link)")
    parser.add_argument("--write", action="store_true", help=f"rewrite {TARGET.name}")
    parser.add_argument("--version", default="2.1.330", help="the client version it is of")
    args = parser.parse_args(argv)
    binary = resolve(args.binary)
    if not binary.is_file():
        print(f"claude_builtins: {args.binary} is not a file", file=sys.stderr)
        return 2
    names = builtins(binary)
    if args.write:
        TARGET.write_text(module(names, args.version), encoding="utf-8")
        print(f"wrote {len(names)} names to {TARGET.relative_to(REPO)}")
    else:
        print("\n".join(names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
