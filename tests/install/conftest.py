"""Shared helpers for the install / uninstall / doctor tests: real files in tmp dirs, real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from spawnkit.cli import cli
from tests.snapshots import snapshot

__all__ = ["snapshot"]  # the install tests import it from here

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "fixtures" / "claude-code-settings.schema.json"


def run_cli(*args: str, input: str | None = None):
    """``spawnkit ARGS`` in-process; stdout and stderr kept apart."""
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr in by default
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, list(args), input=input, catch_exceptions=False)


def without_backups(snap: dict[str, bytes | str]) -> dict[str, bytes | str]:
    return {k: v for k, v in snap.items() if ".spawnkit-" not in k}


@pytest.fixture(scope="session")
def settings_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture
def validate_settings(settings_schema):
    def check(path: Path) -> dict:
        data = json.loads(path.read_text(encoding="utf-8").lstrip("\ufeff"))
        jsonschema.validate(data, settings_schema)
        return data

    return check


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    """A Claude Code config folder to install into (given with --config-dir)."""
    folder = tmp_path / "claude"
    folder.mkdir()
    return folder


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch) -> Path:
    """No test reads or writes the real ~/.claude."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return home
