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
    """The generator reads protocol.json: a different budget and cap give a different table."""
    import json
    import shutil

    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import readme_tables
    finally:
        sys.path.pop(0)
    table = readme_tables.questions_table()
    assert "| `return_budget` | 500 |" in table
    assert "| `max_parallel` | 1 |" in table and "at most 2)" in table
    rules = readme_tables.rules_table()
    assert re.search(r"^\| CM005 \| max-parallel \| error where asserted", rules, re.M)

    # A checkout whose standard says 350 tokens and 3 at once: the table follows it.
    other = tmp_path / "repo"
    (other / "standards").mkdir(parents=True)
    shutil.copy(REPO / "copier.yml", other / "copier.yml")
    data = json.loads((REPO / "standards" / "protocol.json").read_text(encoding="utf-8"))
    data.update(return_budget_tokens=350, max_parallel=3)
    (other / "standards" / "protocol.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(readme_tables, "REPO", other)
    changed = readme_tables.questions_table()
    assert "| `return_budget` | 350 |" in changed and "at most the standard's 350;" in changed
    assert "at most 3)" in changed and "at most 2)" not in changed
    assert changed.replace("350", "500").replace("at most 3)", "at most 2)") == table


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
