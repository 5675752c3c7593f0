"""Shared helpers for the audit tests: the real-client fixtures, the schema, the CLI in-process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from spawnkit.cli import cli
from tests.requires import unavailable

from . import real_corpus

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


class RealCorpus:
    """The real transcripts a test audits here: the materialised corpus, else the vendored copy.

    A group whose files are all materialised (``python -m tests.audit.real_corpus
    --materialize-from DIR``) is audited in full; otherwise its vendored subset, unpacked once
    per session and checked against corpus.yaml. Without either the test skips locally and
    fails in CI: the copies are committed, so their absence there is a mistake.
    """

    def __init__(self, base: Path) -> None:
        self.base = base
        present = any(real_corpus.VENDORED.rglob("*.gz"))
        self.problems = real_corpus.unpack_vendored(base) if present else None
        self._docs: dict[Path, dict] = {}

    @staticmethod
    def runnable(group: real_corpus.Group) -> bool:
        """Whether the group can be audited without its snapshot: vendored or materialised."""
        return bool(group.vendored) or not group.missing()

    def root(self, group: real_corpus.Group) -> Path:
        """The folder to audit for ``group``: in full when materialised, else its subset."""
        return group.root if not group.missing() else self.vendored_root(group)

    def vendored_root(self, group: real_corpus.Group) -> Path:
        # a test's own mistake, never a reason to skip: choose groups with RealCorpus.runnable
        assert group.vendored, (
            f"{group.name} is not vendored (its licence allows no copy): pick runnable groups, "
            "or materialise it with python -m tests.audit.real_corpus --materialize-from DIR"
        )
        if self.problems is None:
            unavailable(
                "neither the real transcripts (python -m tests.audit.real_corpus "
                "--materialize-from DIR) nor their vendored copies "
                "(tests/fixtures/audit-real/vendored/*.gz) are here"
            )
        assert not self.problems, "damaged vendored transcripts: " + "; ".join(self.problems)
        return group.root_in(self.base)

    def audit(self, root: Path) -> dict:
        """``spawnkit audit ROOT --format json``, once per folder and session."""
        if root not in self._docs:
            self._docs[root] = audit_json(str(root))
        return self._docs[root]


@pytest.fixture(scope="session")
def real(tmp_path_factory: pytest.TempPathFactory) -> RealCorpus:
    return RealCorpus(tmp_path_factory.mktemp("audit-real"))
