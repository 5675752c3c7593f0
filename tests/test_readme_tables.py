"""The README's question and rule tables are generated from copier.yml and the rule registry."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "readme_tables.py"


def test_readme_tables_are_current():
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_changed_number_shows_in_the_tables(tmp_path, monkeypatch):
    """The generator reads protocol.json: a different budget gives a different table."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import readme_tables
    finally:
        sys.path.pop(0)
    table = readme_tables.questions_table()
    assert "| `return_budget` | 500 |" in table
    assert "| `max_parallel` | 1 |" in table and "at most 2)" in table
    rules = readme_tables.rules_table()
    assert re.search(r"^\| CM005 \| max-parallel \| error \|", rules, re.M)


def test_new_help_names_every_template_question():
    """`spawnkit new --help` lists the questions by hand; it must list exactly copier.yml's."""
    from click.testing import CliRunner

    from spawnkit.cli import cli

    sys.path.insert(0, str(SCRIPT.parent))
    try:
        pass
    finally:
        sys.path.pop(0)
    from spawnkit.template import answers

    asked = set(answers.answerable())
    out = CliRunner().invoke(cli, ["new", "--help"], terminal_width=200).output
    section = out.split("Template questions")[1].split("\n\n")[0]
    listed = set(re.findall(r"^\s+([a-z_]+)\s{2,}", section, re.M))
    assert listed == asked
