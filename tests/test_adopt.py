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
    """Every protocol finding, preview tier too (CM002/CM003 are preview rules since issue 25)."""
    return [d for d in lint_text(text, str(path), preview=True) if d.code.startswith("CM")]


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


# --- issue 14: one validator for new and adopt, a retrofit that hides nothing, no dead end ---

CONTRARY = """---
name: audit
description: Audits the repository with sub-agents.
---

# audit

Spawn 5 agents in parallel, one per module, with the Agent tool. Give each this prompt:

```text
You are a module auditor. Audit the module and return your full report.
```

Then summarize their answers for the user.
"""


def _findings(path: Path) -> set[str]:
    return {d.code for d in lint_text(path.read_text(), str(path), preview=True)}


@pytest.mark.parametrize(
    "pair, message",
    [
        ("protocol=foo", "unknown --data key 'protocol'"),
        ("skill_name=other", "the skill name is the folder's name (my-audit)"),
        ("_commit=1.0", "unknown --data key '_commit'"),
    ],
)
def test_adopt_refuses_internal_keys_like_new(env, skill, pair, message):
    before = fsutil.snapshot(skill)
    res = run_cli("adopt", str(skill), "-d", pair)
    assert res.exit_code == 2, res.output
    assert res.stderr.strip().splitlines() == [res.stderr.strip()] and message in res.stderr
    listed = res.stderr.partition("the template asks: ")[2]
    assert "protocol" not in listed and "skill_name" not in listed
    assert fsutil.snapshot(skill) == before
    assert not (env.config / ".spawnkit").exists()
    # `new` answers the same keys with the same validator
    made = run_cli("new", "x", "--defaults", "--dest", str(env.project / "x"), "-d", pair)
    assert made.exit_code == 2 and not (env.project / "x").exists()
    if "unknown" in message:
        assert message in made.stderr


def test_adopt_refuses_an_answer_its_profile_does_not_ask(env, skill):
    before = fsutil.snapshot(skill)
    res = run_cli("adopt", str(skill), "-d", "skill_hooks=true")
    assert res.exit_code == 2 and "needs profile=claude-code" in res.stderr, res.output
    assert fsutil.snapshot(skill) == before
    res = run_cli("adopt", str(skill), "-d", "skill_hooks=true", "-d", "profile=claude-code")
    assert res.exit_code == 0, res.output
    assert yaml.safe_load((skill / ANSWERS).read_text())["skill_hooks"] is True


def test_retrofit_never_hides_a_finding_it_did_not_fix(env, calibrated):
    # the tiers as this test was written for (CM002 offered, the other calibrated rules
    # asserted), fixed so a refit of the shipped model does not move them
    calibrated(rules={"CM002": {"bias": -10.0}})
    skill = env.config / "skills" / "audit"
    skill.mkdir(parents=True)
    md = skill / "SKILL.md"
    md.write_text(CONTRARY)
    before = _findings(md)
    assert {"CM001", "CM002", "CM003", "CM005"} <= before
    res = run_cli("adopt", str(skill), "--retrofit", "--json")
    assert res.exit_code == 1, res.output
    report = json.loads(res.stdout)
    after = _findings(md)
    # what only the skill's own text can fix is still reported ...
    assert {"CM001", "CM002", "CM005"} <= after
    # ... while what adding sections does fix is fixed
    assert "CM003" not in after and "## Rules" in md.read_text()
    withheld = " ".join(report["withheld"])
    assert "at most 500 tokens" in withheld and "full output to its report file" in withheld
    assert "at most 500 tokens" not in md.read_text()
    # lint_left is what `spawnkit lint` still reports (its default tier; CM002 is preview)
    assert {line.split(": ", 1)[1].split()[0] for line in report["lint_left"]} >= {
        "CM001",
        "CM005",
    }
    # a second look from the plain linter agrees with what adopt reported
    lint = run_cli("lint", str(skill))
    assert lint.exit_code == 1 and "CM001" in lint.stdout and "CM002" not in lint.stdout
    lint = run_cli("lint", "--preview", str(skill))
    assert lint.exit_code == 1 and "CM002" in lint.stdout


def test_a_skill_made_with_plain_copier_has_one_command_that_works(env, tmp_path):
    from skill_render import render, template_copy

    source = template_copy(tmp_path / "clone")
    skill = render(source, env.project / ".claude" / "skills" / "demo", purpose="a demo review")
    answers = yaml.safe_load((skill / ANSWERS).read_text())
    assert "_commit" not in answers and answers["_src_path"] == str(source)
    stuck = run_cli("update", str(skill))
    assert stuck.exit_code == 2
    command = f"spawnkit adopt {skill}"
    assert f"`{command}`" in stuck.stderr, stuck.stderr
    before = fsutil.snapshot(skill)
    adopted = run_cli(*command.split()[1:])
    assert adopted.exit_code == 0, adopted.output
    after = fsutil.snapshot(skill)
    answers = yaml.safe_load(after.pop(ANSWERS)[1])
    before.pop(ANSWERS)
    assert after == before  # nothing but the answers file changed
    assert answers["purpose"] == "a demo review" and answers["_src_path"].endswith("template-store")
    assert "backup:" in adopted.stdout and "replaced the answers file" in adopted.stdout
    update = run_cli("update", str(skill), "--json")
    assert update.exit_code == 0, update.output
    assert json.loads(update.stdout)["skills"][0]["status"] == "up-to-date"


def test_an_unknown_version_points_to_an_adopt_that_works(env, skill):
    assert run_cli("adopt", str(skill)).exit_code == 0
    answers = yaml.safe_load((skill / ANSWERS).read_text())
    answers["_commit"] = "0.0.9+d.000000000000"
    (skill / ANSWERS).write_text(yaml.safe_dump(answers))
    check = run_cli("update", "--check", "--json")
    [row] = json.loads(check.stdout)["skills"]
    assert row["status"] == "unknown-version" and f"spawnkit adopt {skill}" in row["message"]
    again = run_cli("adopt", str(skill))
    assert again.exit_code == 0, again.output
    assert run_cli("update", "--check", "--json").stdout.count('"up-to-date"') == 1


def test_adopt_refuses_the_answers_of_another_template(env, skill):
    (skill / ANSWERS).write_text("_src_path: gh:someone/else\nproject_name: x\n")
    before = fsutil.snapshot(skill)
    res = run_cli("adopt", str(skill))
    assert res.exit_code == 2 and "another template" in res.stderr and "copier update" in res.stderr
    assert fsutil.snapshot(skill) == before


def test_adopt_refuses_a_name_that_differs_from_the_folder(env, skill):
    md = skill / "SKILL.md"
    md.write_text(HAND_WRITTEN.replace("name: my-audit", "name: other-name"))
    res = run_cli("adopt", str(skill))
    assert res.exit_code == 2 and "rename the folder or fix the name" in res.stderr
    assert not (skill / ANSWERS).exists()


# --- issue 23: the workflow engine --------------------------------------------------------------


def test_a_hand_written_skill_cannot_take_the_workflow_engine(env, skill):
    before = fsutil.snapshot(skill)
    res = run_cli("adopt", str(skill), "--data", "engine=workflow")
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "has no workflow.js" in res.stderr and "--engine workflow" in res.stderr
    assert fsutil.snapshot(skill) == before
    assert run_cli("adopt", str(skill), "--data", "engine=prompt").exit_code == 0


def test_a_workflow_skill_made_with_plain_copier_is_adopted_and_up_to_date(env, tmp_path):
    from skill_render import render, template_copy

    source = template_copy(tmp_path / "clone")
    skill = render(source, env.project / ".claude" / "skills" / "demo", engine="workflow")
    before = fsutil.snapshot(skill)
    adopted = run_cli("adopt", str(skill))
    assert adopted.exit_code == 0, adopted.output
    after = fsutil.snapshot(skill)
    assert yaml.safe_load(after.pop(ANSWERS)[1])["engine"] == "workflow"
    before.pop(ANSWERS)
    assert after == before and "workflow.js" in after and "fallback.md" in after
    update = run_cli("update", str(skill), "--json")
    assert update.exit_code == 0, update.output
    assert json.loads(update.stdout)["skills"][0]["status"] == "up-to-date"
