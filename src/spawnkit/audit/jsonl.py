"""Stream a JSON Lines file one record at a time, with memory bounded by the longest line.

Transcripts are untrusted input that can be huge, cut off mid-write by a crash, or not text
at all. So a file is opened without following a symlink and only if it is a regular file; a
line longer than ``MAX_LINE_BYTES`` is skipped without ever being held whole; a line that is
not a JSON object is counted (``truncated`` when it is the unterminated last line, a crash
signature; ``malformed`` otherwise) and skipped. Nothing here raises on bad content.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any, BinaryIO

from spawnkit.audit.model import InputStats
from spawnkit.base import lightos

MAX_LINE_BYTES = 64 * 1024 * 1024
_DRAIN_CHUNK = 1024 * 1024
_SNIFF_BYTES = 8192

Skip = Callable[[bytes], bool]


class Unreadable(Exception):
    """The file could not be opened as a regular file (gone, a symlink, a FIFO, no permission)."""


def open_regular(path: str) -> BinaryIO:
    """Open ``path`` for buffered reading, refusing symlinks and anything but a regular file
    (``lightos.open_regular``, the one careful opener: a planted FIFO cannot hang it); the
    descriptor is made blocking again once it is known to be a file."""
    try:
        fd, _ = lightos.open_regular(path, follow=False)
    except OSError as exc:
        raise Unreadable(exc.strerror or str(exc)) from exc
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb", buffering=1024 * 1024)
    except BaseException:
        os.close(fd)
        raise


def records(path: str, stats: InputStats, skip: Skip | None = None) -> Iterator[dict[str, Any]]:
    """Every JSON object in ``path``, in order; problems are counted in ``stats``.

    ``skip(line)`` may cheaply recognise a line the caller does not need (by its first bytes);
    such a line is counted as read but never parsed.
    """
    try:
        fh = open_regular(path)
    except Unreadable:
        stats.unreadable_files += 1
        return
    with fh:
        stats.files += 1
        try:
            head = fh.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]
        except OSError:
            stats.unreadable_files += 1
            return
        if not head:
            stats.empty_files += 1
            return
        if b"\0" in head:  # JSON text never holds a NUL byte: this is not a transcript
            stats.binary_files += 1
            stats.bytes += os.fstat(fh.fileno()).st_size
            return
        yield from _lines(fh, stats, skip)


def _lines(fh: BinaryIO, stats: InputStats, skip: Skip | None) -> Iterator[dict[str, Any]]:
    loads = json.loads
    readline = fh.readline
    while True:
        try:
            line = readline(MAX_LINE_BYTES + 1)
        except OSError:
            stats.unreadable_files += 1
            return
        if not line:
            return
        stats.bytes += len(line)
        ended = line.endswith(b"\n")
        if len(line) > MAX_LINE_BYTES and not ended:
            stats.oversized_lines += 1
            stats.lines += 1
            _drain(fh, stats)
            continue
        if ended:
            line = line.rstrip(b"\r\n")
        if not line or line.isspace():
            continue
        stats.lines += 1
        if skip is not None and ended and skip(line):
            continue
        try:  # decoded here: json.loads would sniff the encoding of every line first
            record = loads(line.decode("utf-8", "surrogatepass"))
        except (ValueError, RecursionError):
            if ended:
                stats.malformed_lines += 1
            else:
                stats.truncated_lines += 1
            continue
        if isinstance(record, dict):
            yield record
        else:
            stats.malformed_lines += 1


def _drain(fh: BinaryIO, stats: InputStats) -> None:
    """Skip the rest of an over-long line without keeping it."""
    while True:
        chunk = fh.readline(_DRAIN_CHUNK)
        stats.bytes += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            return


def first_record(path: str, stats: InputStats | None = None) -> dict[str, Any] | None:
    """The first JSON object of ``path`` (for sniffing a file's kind), or None."""
    scratch = InputStats()
    for record in records(path, scratch):
        return record
    if stats is not None:
        stats.unreadable_files += scratch.unreadable_files
    return None


def count(value: Any) -> int | None:
    """A recorded count (tokens, calls): a non-negative int, never a bool; None otherwise."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def string(value: Any) -> str:
    """``value`` when it is a string, else "" (fields of untrusted records may be anything)."""
    return value if isinstance(value, str) else ""


def record_type(record: dict[str, Any]) -> str:
    """A record's ``type`` as a short string ("(none)" when missing or not a string)."""
    kind = record.get("type")
    return kind[:60] if isinstance(kind, str) and kind else "(none)"


def timestamp(value: Any) -> float | None:
    """Epoch seconds of an ISO 8601 time (``2026-11-24T00:16:28.386Z``), or None."""
    if not isinstance(value, str) or not value:
        return None
    text = value[:-1] + "+00:00" if value.endswith("Z") else value
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if not 1990 <= moment.year <= 2200:  # outside any real session: a corrupt field
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def text_of(content: Any) -> str:
    """The text of a message's content: a string, or the ``text`` of its text blocks."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for block in content:
        if isinstance(block, dict):
            value = block.get("text")
            if isinstance(value, str):
                parts.append(value)
        elif isinstance(block, str):
            parts.append(block)
    return "\n".join(parts)


def sections(text: str, opening: str, closing: str) -> Iterator[str]:
    """Each ``opening…closing`` span's inside, left to right, in linear time (an unclosed
    opening ends the search: a lazy regex would rescan the rest once per opening)."""
    start = text.find(opening)
    while start != -1:
        end = text.find(closing, start + len(opening))
        if end == -1:
            return
        yield text[start + len(opening) : end]
        start = text.find(opening, end + len(closing))
