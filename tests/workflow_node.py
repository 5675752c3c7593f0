"""Run a generated workflow.js under Node with the client's globals stubbed (``workflow_harness.mjs``).

The real client runs these scripts in its own JavaScript runtime; the end-to-end tests in
``tests/e2e/test_workflow_skill.py`` do that. Here the script's own logic (limiter, skip, retries,
the result it returns) is driven fast and exhaustively with scripted answers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from requires import unavailable

HARNESS = Path(__file__).resolve().parent / "workflow_harness.mjs"
_NO_ARGS = object()


def node() -> str:
    """The ``node`` binary; skip (fail in CI) without it."""
    found = shutil.which("node")
    if not found:
        unavailable("node not found; install Node.js 18 or newer (.ci/run has it for npm)")
    return found


def run(
    script: str | Path,
    args: Any = _NO_ARGS,
    answers: dict[str, list[Any]] | None = None,
    delay_ms: int = 20,
) -> dict[str, Any]:
    """The harness's report on one run of ``script`` (its text or its path)."""
    text = script.read_text(encoding="utf-8") if isinstance(script, Path) else script
    payload: dict[str, Any] = {"script": text, "answers": answers or {}, "delay_ms": delay_ms}
    if args is not _NO_ARGS:
        payload["args"] = args
    proc = subprocess.run(
        [node(), str(HARNESS)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)
