"""Every test runs with its own HOME, Claude config dir, Codex home and Copilot home, so no test
can touch the real ones."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# The linter keeps compiled regular expressions in the user's cache folder between runs
# (spawnkit.lint.regexcache): point it, for this test process and every command it starts,
# at a folder of the run's own, so no test reads or writes the real one.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="spawnkit-tests-cache-")


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    monkeypatch.delenv("COPILOT_PROJECT_DIR", raising=False)
    for key in ("SPAWNKIT_MODE", "SPAWNKIT_MAX_RETRIES"):
        monkeypatch.delenv(key, raising=False)
    # git commits made by tests need an identity that does not come from the user's config
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "spawnkit tests")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "tests@spawnkit.invalid")
    return home


# Whole modules that spend seconds in real tools (pre-commit, copier over git tags); the long
# fuzz runs are marked one by one (tests/hook/test_fuzz.py keeps a short quick one).
SLOW_MODULES = {
    "test_precommit_hook.py",
    "test_plain_copier.py",
    "test_update.py",
    "test_06_update_holds_back.py",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests under tests/e2e drive a real client: mark them e2e and slow; mark slow modules."""
    for item in items:
        path = Path(str(item.fspath))
        if "e2e" in path.parts:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.slow)
        elif path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


# --- the lint calibration (issue 34) ------------------------------------------------------


def sure_model(
    detection: dict[str, float] | None = None, rules: dict[str, dict[str, float]] | None = None
) -> dict:
    """A calibration model for mechanism tests, fixed so they do not move when the shipped one
    is refitted: every file some reading finds spawning, and every finding of a calibrated rule,
    gets probability 0.99 (a bias of 5) and is asserted from 0.5; ``detection`` and ``rules``
    add weights (``{"reading:agent-object": -10}`` makes that reading's files preview)."""
    from spawnkit.lint import calibration
    from spawnkit.lint.rules import BY_CODE

    model: dict = {
        "target_precision": 0.95,
        "corpus_files": 0,
        "detection": {
            "mode": "calibrated",
            "threshold": 0.5,
            "weights": {"bias": 5.0, **(detection or {})},
        },
    }
    for code in calibration.CALIBRATED_RULES:
        model[code] = {
            "threshold": 0.5,
            "readings": [f.name for f in BY_CODE[code].families],
            "weights": {"bias": 5.0, **((rules or {}).get(code, {}))},
        }
    return model


@pytest.fixture
def calibrated(monkeypatch):
    """calibrated(**kw): use :func:`sure_model` (with ``kw``) in this test; the shipped model
    comes back after it."""
    from spawnkit.lint import calibration

    def install(**kw) -> dict:
        model = sure_model(**kw)
        monkeypatch.setattr(calibration, "_model", model)
        return model

    return install


@pytest.fixture
def sure(calibrated):
    """Every calibrated decision asserted: the tiers as they were before issue 34 calibrated
    them, for tests of how findings are made and shown rather than which tier they get."""
    return calibrated()
