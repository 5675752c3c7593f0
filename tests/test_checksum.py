"""The ground floor's checksum: stable across processes, length-aware, no extension import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from spawnkit.base.checksum import checksum

SRC = Path(__file__).resolve().parents[1] / "src"


def test_the_same_text_gives_the_same_sum_in_another_process():
    text = "review src/ and report ✓ \udc80"
    other = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from spawnkit.base.checksum import checksum;"
            " print(checksum(sys.argv[1].encode('utf-8', 'surrogateescape').decode('utf-8', 'surrogatepass')))",
            text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert other.stdout.strip() == checksum(text)


def test_texts_that_differ_only_in_trailing_nul_bytes_differ():
    assert len({checksum("a"), checksum("a\0"), checksum("a\0\0"), checksum("")}) == 4


def test_a_one_character_change_changes_the_sum():
    base = "x" * 10_000
    assert checksum(base) != checksum(base[:-1] + "y")
    assert checksum(base) != checksum("y" + base[1:])


def test_sixteen_hex_digits():
    value = checksum("anything")
    assert len(value) == 16 and int(value, 16) < (1 << 61) - 1


def test_it_imports_no_extension_module():
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); before = set(sys.modules);"
        "from spawnkit.base.checksum import checksum; checksum('x');"
        "print(sorted(set(sys.modules) - before))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(SRC)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "zlib" not in out and "binascii" not in out and "hashlib" not in out
