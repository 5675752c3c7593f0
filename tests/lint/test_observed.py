"""Issue 31: ``spawnkit lint --observed``: what a skill's runs broke, as findings of the tier
``observed`` on its file, in every format; from transcripts the test writes in the client's
shape (the e2e test does it with the real Claude Code)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from spawnkit.lint.engine import lint_document
from spawnkit.lint.observed import Observed, Run, add
from spawnkit.lint.report import render
from tests.audit.skill_transcripts import Claude

SARIF = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "sarif-schema-2.1.0.json").read_text()
)
SKILL = (
    "---\nname: fan\ndescription: Reviews the code. Use to review.\n---\n\n# fan\n\nReview it.\n"
)
RUN = Run(
    "s-1", "2026-11-28T10:00:01.000Z", "review part 1", 1401, "'review part 1' returned 1,401"
)


def _result():
    return lint_document(SKILL, "skills/fan/SKILL.md")


def test_each_rule_broken_is_one_finding_of_the_observed_tier():
    clean = _result()
    assert clean.diagnostics == []
    seen = add(clean, [Observed("CM001", 3, (RUN, RUN._replace(session="s-2")))])
    (finding,) = seen.diagnostics
    assert (finding.code, finding.name, finding.severity, finding.tier) == (
        "CM001",
        "return-budget",
        "error",
        "observed",
    )
    assert finding.message == "broken at run time, 3 times: 'review part 1' returned 1,401"
    assert [r.session for r in finding.observed] == ["s-1", "s-2"] and finding.line == 1


def test_a_rule_lint_does_not_know_and_no_runs_add_nothing():
    clean = _result()
    assert add(clean, []) is clean
    assert add(clean, [Observed("XX999", 1, (RUN,))]) is clean


def test_every_format_names_the_runs():
    result = add(_result(), [Observed("CM005", 1, (RUN._replace(agent="3 at once", tokens=None),))])
    text = render([result], "text")
    assert "CM005 broken at run time, 1 time" in text and "[max-parallel, error, observed]" in text
    assert "seen: session s-1 2026-11-28, 3 at once" in text and "1 seen at run time" in text
    (diag,) = json.loads(render([result], "json"))["files"][0]["diagnostics"]
    assert diag["tier"] == "observed" and diag["observed"][0]["session"] == "s-1"
    sarif = json.loads(render([result], "sarif"))
    jsonschema.Draft7Validator(SARIF).validate(sarif)
    (found,) = sarif["runs"][0]["results"]
    assert found["properties"] == {
        "tier": "observed",
        "observed": [RUN._replace(agent="3 at once", tokens=None)._asdict()],
    }
    github = render([result], "github")
    assert (
        "(max-parallel, observed)." in github
        and "Seen: session s-1 2026-11-28, 3 at once." in github
    )


def _spawnkit(home: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    return subprocess.run(
        [sys.executable, "-m", "spawnkit", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def ran(tmp_path) -> tuple[Path, Path, Path]:
    """A project with two skills, one of which ran (a long answer, no file written) in a Claude
    Code session the user's folder keeps; (home, project, that skill's SKILL.md)."""
    home, project = tmp_path / "home", tmp_path / "project"
    skills = project / ".claude" / "skills"
    for name in ("fan", "idle"):
        (skills / name).mkdir(parents=True)
        (skills / name / "SKILL.md").write_text(SKILL.replace("fan", name), encoding="utf-8")
    t = Claude(cwd=str(project)).prompt("go").skill("fan", base=str(skills / "fan"))
    t.launch("review part 1")
    t.write(home / ".claude" / "projects")
    return home, project, skills / "fan" / "SKILL.md"


def test_lint_observed_from_the_users_transcripts(ran):
    home, project, _ = ran
    proc = _spawnkit(home, project, "lint", "--observed", "--format", "json", ".claude/skills")
    assert proc.returncode == 1, proc.stderr
    files = {Path(f["path"]).parent.name: f for f in json.loads(proc.stdout)["files"]}
    observed = {d["code"]: d for d in files["fan"]["diagnostics"] if d["tier"] == "observed"}
    assert set(observed) == {"CM001"}  # the sub-agent left no transcript: CM002 cannot be told
    (run,) = observed["CM001"]["observed"]
    assert run["session"] == "s-claude" and run["date"].startswith("2026-11-28")
    assert run["agent"] == "review part 1" and run["tokens"] > 500
    assert files["idle"]["diagnostics"] == []
    plain = _spawnkit(home, project, "lint", ".claude/skills")
    assert plain.returncode == 0, plain.stdout  # without --observed: the words alone


def test_since_and_select_narrow_what_is_observed(ran):
    home, project, skill_md = ran
    later = _spawnkit(home, project, "lint", "--observed", "--since", "2099-01-01", str(skill_md))
    assert later.returncode == 0 and "observed" not in later.stdout
    ignored = _spawnkit(home, project, "lint", "--observed", "--ignore", "CM001", str(skill_md))
    assert ignored.returncode == 0 and "observed" not in ignored.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--since", "7d"], "--since goes with --observed"),
        (["--observed", "--since", "yesterday-ish"], "error: --since 'yesterday-ish': use a"),
    ],
)
def test_a_bad_since_is_refused_before_anything_is_written(ran, args, says):
    home, project, skill_md = ran
    proc = _spawnkit(home, project, "lint", *args, str(skill_md))
    assert proc.returncode == 2 and proc.stdout == ""
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith("spawnkit: error:") and says in line
