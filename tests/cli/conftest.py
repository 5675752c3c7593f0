"""Fixtures for the command-line tests: a sandbox HOME per test, real ``spawnkit`` processes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import unprivileged as unprivileged_user

from tests.requires import unavailable

from .sandbox import Sandbox


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    box = Sandbox()
    try:
        yield box
    finally:
        box.close()


@pytest.fixture
def unprivileged() -> None:
    """Skip where no unprivileged user can run spawnkit (root without setpriv)."""
    reason = unprivileged_user.why_not()
    if reason:
        unavailable(reason)
