"""Issue 30: every read-only command over a project hostile in random places.

Hypothesis builds a project from random plantings: links to a secret file, to a folder of
secrets or to ``/``; control characters in file names and contents; YAML alias bombs and
deep nesting; in skills, workflow scripts, agents, commands, answers files, the project's
``spawnkit.json`` and ``settings.json``, and transcripts. Over it run lint (all four
formats, named and with no path), doctor (user and project scope), ``update --check``,
``audit`` and ``workflow check``. Whatever the project, each ends with an exit code of its
contract (0, 1 or 2; never a traceback), within its time, with no raw control character in
a text output, no line a value forged, and no byte of a file outside the project in any
output. A quick run is part of the default suite; ``-m slow`` runs the long one.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import run_cli
from .hostile import RAW_CONTROL, SECRET, SECRETS, outside_secrets
from .test_32_alias_bombs import bomb

NAMES = ["a", "b\x1b]0;T\x07", "c\nFORGED all good", "d\u202e", "e\rX", "f\x9b2J"]
PLACES = {  # where a project's file goes, {n} a name
    "skill": ".claude/skills/{n}/SKILL.md",
    "skill script": ".claude/skills/{n}/workflow.js",
    "workflow": ".claude/workflows/{n}.js",
    "agent": ".claude/agents/{n}.md",
    "command": ".claude/commands/{n}.md",
    "answers": ".claude/skills/{n}/.copier-answers.yml",
    "config": ".claude/spawnkit.json",
    "settings": ".claude/settings.json",
    "skill folder": ".claude/skills/{n}",
    "transcript": "transcripts/{n}.jsonl",
    "brief": ".claude/skills/{n}/brief.md",  # a skill's body links to it: read as its prompt
    "lint config": ".spawnkit.toml",
}
SECRET_FOR = {  # the secret each place links to: one its reader would quote if it read it
    "skill": "skill.md",
    "skill script": "netrc",  # a syntax error near its first characters
    "workflow": "script.js",
    "agent": "skill.md",
    "command": "skill.md",
    "answers": "answers.yml",
    "config": "spawnkit.json",
    "settings": "settings.json",
    "skill folder": "skill-folder",
    "transcript": "transcript.jsonl",
    "brief": "skill.md",
    "lint config": "config.toml",
}
PAYLOADS = ["secret file", "secret folder", "root", "bomb", "deep", "control", "plain"]
EVIL = "\x1b]0;PWNED\x07\rX\nFORGED all good\u202e\x85"
SECONDS = 20  # per command; a generous bound on a shared machine


def content(payload: str, place: str) -> str:
    """The text a planted file holds (for the payloads that are files, not links)."""
    if place in ("config", "settings"):
        if payload == "deep":
            return '{"agents": ' + "[" * 200 + "]" * 200 + "}"
        return json.dumps({"version": 1, "agents": {f"k{EVIL}": "off"}, "mode": EVIL})
    if place == "lint config":
        return (
            f"select = [{json.dumps(EVIL)}]\n"
            if payload != "deep"
            else "a = " + "[" * 200 + "]" * 200
        )
    if place == "transcript":
        record = {"type": "user", "sessionId": EVIL, "cwd": EVIL, "message": EVIL}
        return json.dumps(record) + "\n"
    if place in ("skill script", "workflow"):
        return f"export const meta = {{ name: {json.dumps(EVIL)} }}\nthrow new Error({json.dumps(EVIL)})\n"
    front = {"bomb": bomb(), "deep": "k: " + "[" * 200 + "]" * 200 + "\n"}.get(payload, "")
    return (
        f"---\nname: {json.dumps('n' + EVIL)}\ndescription: {json.dumps('d' + EVIL)}\n{front}---\n\n"
        f"Use the Task tool to spawn a sub-agent {EVIL} for each file with [the brief](brief.md)"
        " and read its report.\n"
    )


plantings = st.lists(
    st.tuples(st.sampled_from(list(PLACES)), st.sampled_from(NAMES), st.sampled_from(PAYLOADS)),
    min_size=1,
    max_size=8,
)


def build(project: Path, planted: list[tuple[str, str, str]], secret: dict[str, Path]) -> None:
    for place, name, payload in planted:
        path = project / PLACES[place].format(n=name)
        if place == "answers" and payload == "plain":
            payload = "secret file"
        if path.exists() or path.is_symlink():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if payload == "secret file":
            path.symlink_to(secret[SECRET_FOR[place]])
        elif payload == "secret folder":
            path.symlink_to(secret["skill-folder"] if place == "skill folder" else secret["netrc"])
        elif payload == "root":
            path.symlink_to("/")
        elif place == "skill folder":
            path.mkdir()
            (path / "SKILL.md").write_text(content(payload, "skill"))
        else:
            path.write_text(content(payload, place))


def commands(project: Path) -> list[tuple[list[str], bool]]:
    """(argv, whether its output is text a terminal shows)."""
    scripts = sorted(project.glob(".claude/**/*.js")) or [Path("none.js")]
    found = [
        *(
            (["lint", "--format", fmt, *where], fmt in ("text", "github"))
            for fmt in ("text", "json", "sarif", "github")
            for where in ([".claude"], [])
        ),
        (["doctor"], True),
        (["doctor", "--scope", "project", "--json"], False),
        (["update", "--check"], True),
        (
            [
                "workflow",
                "check",
                str(scripts[0].relative_to(project)) if scripts[0].is_absolute() else "none.js",
            ],
            True,
        ),
    ]
    if (project / "transcripts").is_dir():
        found.append((["audit", "transcripts"], True))
    return found


def check(project: Path, secret_text: str) -> None:
    for argv, text in commands(project):
        started = time.perf_counter()
        result = run_cli(*argv)  # exceptions propagate: a crash fails the test
        seconds = time.perf_counter() - started
        output = result.stdout + result.stderr
        assert result.exit_code in (0, 1, 2), (argv, result.exit_code, output)
        assert "internal error" not in output and "Traceback" not in output, (argv, output)
        assert seconds <= SECONDS, (argv, seconds)
        assert not SECRET.search(output), (argv, output)
        assert secret_text not in output
        lines = output.split("\n") if text else result.stderr.split("\n")
        for line in lines:
            assert not RAW_CONTROL.search(line), (argv, repr(line))
            assert not line.startswith("FORGED"), (argv, repr(line))


def _fuzz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted) -> None:
    secret = outside_secrets(Path(tempfile.mkdtemp(dir=tmp_path)) / "outside")
    project = Path(tempfile.mkdtemp(dir=tmp_path)) / "repo"
    project.mkdir()
    build(project, planted, secret)
    monkeypatch.chdir(project)
    check(project, SECRETS["netrc"].strip())


# the same test, run briefly in the default suite and at length with -m slow
_RUNS = {"quick": (25, []), "long": (400, [pytest.mark.slow])}


@pytest.mark.parametrize(
    "size", [pytest.param(name, marks=marks) for name, (_, marks) in _RUNS.items()]
)
def test_read_only_commands_over_a_hostile_project(tmp_path, monkeypatch, size):
    @settings(
        max_examples=_RUNS[size][0],
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(planted=plantings)
    def run(planted):
        _fuzz(tmp_path, monkeypatch, planted)

    run()
