"""A missing outside tool skips a local run and fails a CI run (tests/requires.py)."""

from __future__ import annotations

import pytest

from tests.requires import unavailable


def test_a_local_run_skips_with_the_install_hint(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="install chromium"):
        unavailable("chromium not found; install chromium")


def test_a_ci_run_fails_instead_of_hiding_the_test(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must not skip this test"):
        unavailable("chromium not found; install chromium")
