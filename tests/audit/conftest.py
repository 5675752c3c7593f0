"""Shared helpers for the audit tests: the real-client fixtures, the schema, the CLI in-process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from spawnkit.cli import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "audit"
SCHEMA = json.loads(
    (
        Path(__file__).resolve().parents[2] / "standards" / "schemas" / "audit.schema.json"
    ).read_text()
)
SCENARIOS = sorted(
    p.relative_to(FIXTURES).as_posix() for p in FIXTURES.glob("*/*") if (p / "facts.json").is_file()
)


@pytest.fixture(autouse=True)
def _no_codex_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """Codex's folder is the isolated HOME's, never the developer's."""
    monkeypatch.delenv("CODEX_HOME", raising=False)


def validate(doc: dict) -> None:
    jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(doc)


def run_cli(*args: str):
    """``spawnkit ARGS`` in-process; stdout and stderr kept apart."""
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr in by default
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, list(args), catch_exceptions=False)


def audit_json(*args: str) -> dict:
    result = run_cli("audit", *args, "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    doc = json.loads(result.stdout)
    validate(doc)
    return doc


def copy_scenario(name: str, dest: Path) -> Path:
    """A writable copy of one fixture scenario (its transcripts, without facts.json)."""
    target = dest / name.replace("/", "-")
    shutil.copytree(FIXTURES / name, target, ignore=shutil.ignore_patterns("facts.json"))
    return target
