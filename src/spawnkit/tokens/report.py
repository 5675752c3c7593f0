"""What ``spawnkit tokens`` does: read a file or stdin, count, and say how it counted.

Decoding policy: input is read as bytes and decoded as UTF-8; invalid bytes are replaced with
U+FFFD (one per bad byte) and a warning says so. Replacement, not ``surrogateescape``, because
the replaced text is exactly what could be sent to the API, so ``--exact`` and the estimate
count the same string.
"""

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import BinaryIO

from spawnkit import tokens
from spawnkit.errors import SpawnkitError
from spawnkit.files import reading

MAX_INPUT_BYTES = 256 * 1024 * 1024  # a counting tool may see big logs; still bounded


@dataclass
class TokenReport:
    source: str
    characters: int
    estimate: int
    tokens: int
    method: str  # "estimate" | "exact"
    model: str
    fallback_reason: str | None = None
    replaced_bytes: bool = False
    budget: int | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def over_budget(self) -> bool:
        return self.budget is not None and self.tokens > self.budget

    def as_dict(self) -> dict:
        data: dict = {
            "source": self.source,
            "characters": self.characters,
            "tokens": self.tokens,
            "method": self.method,
            "estimate": self.estimate,
            "model": self.model,
        }
        if self.method == "estimate":
            data["calibrated_to"] = tokens.CALIBRATED_MODEL
        if self.fallback_reason is not None:
            data["fallback_reason"] = self.fallback_reason
        if self.replaced_bytes:
            data["invalid_utf8_replaced"] = True
        if self.budget is not None:
            data["budget"] = self.budget
            data["over_budget"] = self.over_budget
        return data


def read_text(source: str | None, stdin: BinaryIO | None = None) -> tuple[str, bool]:
    """The text of ``source`` and whether invalid bytes were replaced.

    ``source`` is a path, ``-`` for standard input, or None for standard input unless it is a
    terminal (where waiting for typed text would look like a hang).
    """
    if source is None or source == "-":
        stream = stdin or sys.stdin.buffer
        if source is None and stream.isatty():
            raise SpawnkitError(
                "no input: give a FILE, or pipe text in (use - to type it, ending with Ctrl-D)"
            )
        data = stream.read()
    else:
        try:
            data = reading.read_bytes(source, limit=MAX_INPUT_BYTES)
        except SpawnkitError as exc:
            if not os.path.lexists(source):
                raise SpawnkitError(
                    f"no such file: {source} (give an existing file, or - to read standard input)"
                ) from None
            if os.path.isdir(source):
                raise SpawnkitError(
                    f"{source} is a directory; give a file, or - for stdin"
                ) from None
            raise exc from None
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace"), True


def measure(
    source: str | None,
    *,
    exact: bool = False,
    model: str = tokens.CALIBRATED_MODEL,
    budget: int | None = None,
    stdin: BinaryIO | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> TokenReport:
    """Count ``source``; with ``exact``, ask the API and fall back to the estimate on failure.

    ``env`` and ``timeout`` default to the process environment and the API client's 3 s.
    """
    text, replaced = read_text(source, stdin)
    name = source if source not in (None, "-") else "<stdin>"
    estimated = tokens.estimate(text)
    report = TokenReport(
        source=name,
        characters=len(text),
        estimate=estimated,
        tokens=estimated,
        method="estimate",
        model=model,
        replaced_bytes=replaced,
        budget=budget,
    )
    if replaced:
        report.warnings.append(
            f"{name} is not valid UTF-8; each invalid byte was counted as U+FFFD"
        )
    if exact:
        from spawnkit.tokens import (
            count_api as token_count_api,
        )  # urllib is only worth importing here

        limit = token_count_api.TIMEOUT_SECONDS if timeout is None else timeout
        try:
            report.tokens = token_count_api.count_tokens(text, model, env=env, timeout=limit)
            report.method = "exact"
        except token_count_api.CountError as exc:
            report.fallback_reason = str(exc)
            report.warnings.append(f"--exact fell back to the estimate: {exc}")
    return report


def budget_message(report: TokenReport) -> str:
    return f"{report.source}: {tokens.describe(report.tokens, report.budget)}"
