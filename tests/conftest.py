"""Every test runs with its own HOME and Claude config dir, so no test can touch the real ones."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    for key in ("SPAWNKIT_MODE", "SPAWNKIT_MAX_RETRIES"):
        monkeypatch.delenv(key, raising=False)
    # git commits made by tests need an identity that does not come from the user's config
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "spawnkit tests")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "tests@spawnkit.invalid")
    return home
