"""Issue 30, item 4: escape sequences and line breaks from a project reached the terminal raw.

A project's ``spawnkit.json`` (``agents`` keys, printed by ``doctor``), a SKILL.md (lint's
evidence quotes) and a transcript (workflow names in ``audit`` text) could retitle the
terminal or forge a line of ``doctor``'s verdict. Now every line of text output passes one
function (``spawnkit.base.shown.shown``): control characters are written as visible
escapes. Each test here puts a hostile value in every field a command prints (the project's
own folder name included) and greps the whole output for a raw control character, and for
a line that a value forged.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .hostile import RAW_CONTROL, Run, no_traceback, watched

# what a hostile value carries: an OSC title, a BEL, a CSI, a CR, a bare LF starting a forged
# line, C1 (CSI as one character), DEL and a right-to-left override
EVIL = "\x1b]0;PWNED\x07\x1b[2J\rX\nFORGED all good\x9b31m\x7f\u202eZ"


def gated(run: Run) -> None:
    """No raw control character in any line, and no line a value started."""
    no_traceback(run)
    for line in run.text.split("\n"):
        assert not RAW_CONTROL.search(line), repr(line)
        assert not line.startswith("FORGED"), repr(line)


@pytest.fixture
def evil_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose own folder name is hostile: every path printed carries it."""
    folder = tmp_path / f"repo{EVIL.replace(chr(10), '')}"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def test_shown_escapes_every_control_character_visibly():
    from spawnkit.base.shown import shown

    assert shown(EVIL) == (
        "\\x1b]0;PWNED\\x07\\x1b[2J\\x0dX\\x0aFORGED all good\\x9b31m\\x7f\\u202eZ"
    )
    for code in [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029, 0x202E, 0x2066]:
        out = shown(f"a{chr(code)}b")
        assert out.startswith("a\\") and out.endswith("b") and not RAW_CONTROL.search(out)


def test_shown_leaves_text_alone():
    from spawnkit.base.shown import shown, shown_lines

    text = "plain ASCII, “quotes”, é, 日本語, emoji 🙂, a tab-free line"
    assert shown(text) == text and shown("") == ""
    assert shown_lines("one\ntwo\x1b") == "one\ntwo\\x1b"


def _skill(root: Path, folder: str, name: str) -> None:
    path = root / ".claude" / "skills" / folder
    path.mkdir(parents=True)
    (path / "SKILL.md").write_text(
        f"---\nname: {json.dumps(name)}\ndescription: {json.dumps('Reviews ' + EVIL)}\n---\n\n"
        f"Use the Task tool to spawn a sub-agent {EVIL} for each file and read its full"
        " report.\n"
    )


@pytest.mark.parametrize("fmt", ["text", "github"])
@pytest.mark.parametrize("where", [[".claude"], []], ids=["named", "no-path"])
def test_lint_text_and_annotations_are_gated(evil_project, fmt, where):
    _skill(evil_project, f"e{EVIL}".replace("/", ""), f"n{EVIL}")
    run = watched("lint", "--format", fmt, *where, cwd=evil_project)
    assert run.code == 1, run.text
    gated(run)
    assert "\\x1b]0;PWNED\\x07" in run.out  # shown, escaped, where it was quoted


def test_lint_warnings_and_errors_are_gated(evil_project, tmp_path):
    (evil_project / ".claude" / "skills" / f"l{EVIL}").mkdir(parents=True)
    (evil_project / ".claude" / "skills" / f"l{EVIL}" / "SKILL.md").symlink_to(tmp_path)
    run = watched("lint", ".claude", cwd=evil_project)
    gated(run)
    missing = watched("lint", f"nothing{EVIL}", cwd=evil_project)
    assert missing.code == 2
    gated(missing)


@pytest.mark.parametrize("scope", [[], ["--scope", "project"]], ids=["user", "project"])
def test_doctor_is_gated(evil_project, scope):
    config = evil_project / ".claude"
    config.mkdir()
    agents = {f"Explore{EVIL}": "off", f"x{EVIL}": "warn", f"y{EVIL}": "enforce", "z": EVIL}
    (config / "spawnkit.json").write_text(json.dumps({"version": 1, "agents": agents}))
    _skill(evil_project, f"d{EVIL}".replace("/", ""), "d")
    run = watched("doctor", *scope, cwd=evil_project)
    gated(run)
    assert "Explore\\x1b]0;PWNED" in run.out


def test_audit_text_is_gated(evil_project):
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "audit" / "claude"
    scenario = evil_project / "transcripts"
    shutil.copytree(fixture / "workflow-lean", scenario)
    (scenario / "facts.json").unlink()
    quoted = json.dumps(EVIL)[1:-1]  # as JSON writes it
    for path in scenario.rglob("*.jsonl"):
        text = path.read_text()
        text = text.replace('"workflowName":"wf-lean"', f'"workflowName":"wf{quoted}"')
        text = text.replace('"description":"', f'"description":"{quoted}')
        text = text.replace("/home/user/project", f"/home/user/project{quoted}")
        path.write_text(text)
    run = watched("audit", str(scenario), cwd=evil_project)
    assert run.code in (0, 1), run.text
    gated(run)
    assert "workflow wf\\x1b]0;PWNED" in run.out, run.out


def test_workflow_check_is_gated(evil_project):
    folder = evil_project / f"w{EVIL}".replace("/", "")
    folder.mkdir()
    script = folder / "x.js"
    message = json.dumps(EVIL)
    script.write_text(
        f"export const meta = {{ name: {message}, description: {message} }}\n"
        f"await agent({message});\nthrow new Error({message});\n"
    )
    run = watched("workflow", "check", str(script.relative_to(evil_project)), cwd=evil_project)
    assert run.code == 1, run.text
    gated(run)
    assert "the script threw" in run.out


def test_update_check_is_gated(evil_project):
    made = watched("new", "plain", "--defaults", cwd=evil_project, timeout=180)
    assert made.code == 0, made.text
    skills = evil_project / ".claude" / "skills"
    (skills / "plain").rename(skills / f"p{EVIL}".replace("/", ""))
    run = watched("update", "--check", cwd=evil_project)
    gated(run)
    assert "p\\x1b]0;PWNED" in run.out, run.out
