"""Entry point for ``spawnkit-hook`` (placeholder until issue 5 lands)."""

from __future__ import annotations

import sys


def main() -> int:
    sys.stdin.read()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
