"""A stable checksum of a text, for keys and file names (never for security).

The hook needs one on hot paths (a launch with no call id, a message it has seen, an id that
is not file-name safe). ``zlib.crc32`` costs an extension-module import (~0.3 ms, a twentieth
of the hook's whole start-up budget); the remainder of the text's bytes, read as one integer,
by a Mersenne prime is computed by CPython's big integers in C with no import at all.
"""

from __future__ import annotations

_PRIME = (1 << 61) - 1


def checksum(text: str) -> str:
    """16 hex digits, the same for the same text in every process and version of Python."""
    # the trailing 0x01 makes the length count: b"a" and b"a\0" differ
    data = text.encode("utf-8", "surrogatepass") + b"\x01"
    return f"{int.from_bytes(data, 'little') % _PRIME:016x}"
