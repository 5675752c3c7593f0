"""Fixtures for the end-to-end tests: the fake API and a sandbox running the real Claude Code CLI.

See tests/e2e/README.md for the harness API.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .fake_api import FakeAnthropic
from .sandbox import INSTALL_HINT, ClaudeMisconfigured, ClaudeSandbox, find_claude


@pytest.fixture(scope="session")
def claude_bin() -> str:
    try:
        found = find_claude()
    except ClaudeMisconfigured as exc:  # configured but broken: a CI mistake, never a silent skip
        pytest.fail(str(exc), pytrace=False)
    if not found:
        pytest.skip(f"Claude Code CLI not found; {INSTALL_HINT}")
    return found


@pytest.fixture
def fake_api() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


@pytest.fixture
def claude(tmp_path: Path, claude_bin: str, fake_api: FakeAnthropic) -> ClaudeSandbox:
    return ClaudeSandbox(tmp_path, claude_bin, fake_api)
