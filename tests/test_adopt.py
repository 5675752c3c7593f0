"""`spawnkit adopt`: a hand-written skill comes under management without a byte of it changing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from update_helpers import ANSWERS, make_env, run_cli

from spawnkit.lint.engine import lint_text
from spawnkit.template import fsutil, store

HAND_WRITTEN = """---
name: my-audit
description: Audits the repository with a few helpers. Use when asked for an audit.
---

# my-audit

## What to do

Spawn a helper for each folder and ask it what it found.
Then tell the user everything.
"""


@pytest.fixture
def env(tmp_path, monkeypatch):
    return make_env(tmp_path, monkeypatch)


@pytest.fixture
def skill(env):
    path = env.config / "skills" / "my-audit"
    (path / "notes").mkdir(parents=True)
    (path / "SKILL.md").write_text(HAND_WRITTEN)
    (path / "notes" / "todo.md").write_text("my todo\n")
    return path


def test_adopt_adds_only_the_answers_file(env, skill):
    before = fsutil.snapshot(skill)
    res = run_cli("adopt", str(skill), "--data", "purpose=an audit of the repository")
    assert res.exit_code == 0, res.output
    after = fsutil.snapshot(skill)
    answers = yaml.safe_load(after.pop(ANSWERS)[1])
    assert after == before
    assert answers["_commit"] == store.planned_target(env.config).tag
    assert answers["_src_path"] == "~/.claude/.spawnkit/template-store"
    assert (
        answers["skill_name"] == "my-audit" and answers["purpose"] == "an audit of the repository"
    )
    assert answers["description"].startswith("Audits the repository")

    res = run_cli("update", "--check", "--json")
    [row] = json.loads(res.stdout)["skills"]
    assert (row["name"], row["status"]) == ("my-audit", "up-to-date")


def test_adopt_refusals_write_nothing(env, skill, tmp_path):
    before = fsutil.snapshot(skill)
    res = run_cli("adopt", str(skill), "--data", "max_parallel=99")
    assert (
        res.exit_code == 2 and "--data" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    )
    res = run_cli("adopt", str(skill), "--data", "novalue")
    assert res.exit_code == 2 and "KEY=VALUE" in res.stderr
    res = run_cli("adopt", str(skill), "--data", "purpos=typo")
    assert (
        res.exit_code == 2
        and "unknown --data key 'purpos'" in res.stderr
        and "purpose" in res.stderr
    )
    assert fsutil.snapshot(skill) == before
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_cli("adopt", str(empty)).exit_code == 2
    assert run_cli("adopt", str(skill)).exit_code == 0
    res = run_cli("adopt", str(skill))
    assert res.exit_code == 2 and "already managed" in res.stderr


def _errors(text, path):
    return [d for d in lint_text(text, str(path)) if d.severity == "error"]


def test_retrofit_adds_protocol_sections_and_reports_what_is_left(env, skill):
    md = skill / "SKILL.md"
    errors_before = _errors(HAND_WRITTEN, md)
    assert errors_before, "a hand-written skill without the protocol must have lint errors"
    res = run_cli("adopt", str(skill), "--retrofit", "--json")
    report = json.loads(res.stdout)
    text = md.read_text()
    left = lint_text(text, str(md))
    assert report["lint_left"] == [f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}" for d in left]
    assert res.exit_code == (1 if left else 0)
    assert len(_errors(text, md)) < len(errors_before)
    assert report["sections_added"] and all(f"## {h}" in text for h in report["sections_added"])
    for line in HAND_WRITTEN.splitlines():
        assert line in text.splitlines(), f"retrofit lost {line!r}"
    assert report["backup"] and (
        fsutil.snapshot(
            skill.parent.parent / ".spawnkit" / "backups" / report["backup"].rsplit("/", 1)[1]
        )["SKILL.md"][1].decode()
        == HAND_WRITTEN
    )
    for rel in report["files_added"]:
        assert (skill / rel).is_file() and Path(rel).name in text
    example_steps = yaml.safe_load((skill / ANSWERS).read_text()).get("steps") or []
    for step in example_steps:  # the template's example workflow is never pasted in
        assert step["name"] not in text
