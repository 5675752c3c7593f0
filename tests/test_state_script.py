"""The generated scripts/state.py: documented commands and exit codes, safe writes, no lost updates."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema
import pytest
from skill_render import REPO, render, template_copy

from spawnkit.standard import protocol

P = protocol.load()
SCHEMAS = REPO / "standards" / "schemas"
STATE_SCHEMA = jsonschema.Draft202012Validator(
    json.loads((SCHEMAS / "state.schema.json").read_text())
)
HANDOFF_SCHEMA = jsonschema.Draft202012Validator(
    json.loads((SCHEMAS / "handoff.schema.json").read_text())
)
REPORTS = ".demo-skill-reports"
STEPS = ["survey", "analyze", "verify", "summarize"]


@pytest.fixture(scope="module")
def skill(tmp_path_factory) -> Path:
    source = template_copy(tmp_path_factory.mktemp("tpl"))
    return render(
        source, tmp_path_factory.mktemp("skills") / "demo-skill", return_style="status-only"
    )


@pytest.fixture
def project(tmp_path) -> Path:
    """A project folder with a report file for every step (sub-agents write them)."""
    (tmp_path / REPORTS).mkdir()
    for step in STEPS:
        (tmp_path / REPORTS / f"{step}.md").write_text(f"# {step}\nfull report\n")
    return tmp_path


@pytest.fixture(scope="module")
def state_module(skill):
    spec = importlib.util.spec_from_file_location("demo_state", skill / "scripts" / "state.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(skill: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(skill / "scripts" / "state.py"), *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
    )


def state_files(project: Path) -> list[Path]:
    return sorted((project / REPORTS).glob(P["state_file_glob"]))


def read_state(project: Path) -> dict:
    return json.loads(state_files(project)[-1].read_text(encoding="utf-8"))


def step(skill, project, name, *extra, status="complete"):
    return run(
        skill, project, "step", name, "--status", status, "--report", f"{REPORTS}/{name}.md", *extra
    )


def test_help_documents_commands_and_exit_codes(skill, project):
    done = run(skill, project, "--help")
    assert done.returncode == 0
    for word in ("init", "step", "checkpoint", "resume", "status", "finish", "Exit codes", "3"):
        assert word in done.stdout
    doc = (skill / "scripts" / "state.py").read_text(encoding="utf-8")
    assert "0  success" in doc and "2  error" in doc and "3  `resume`: nothing to resume" in doc


def test_a_full_run(skill, project):
    assert run(skill, project, "resume").returncode == 3
    started = run(skill, project, "init")
    assert started.returncode == 0 and started.stdout.startswith(
        "Started — 0/4 steps complete, next: survey"
    )
    [path] = state_files(project)
    assert path.name.startswith("state-") and len(path.name) == len("state-YYYYMMDD-HHMMSS.json")
    STATE_SCHEMA.validate(read_state(project))

    done = step(skill, project, "survey", "--metric", "findings=3", "--metric", "score=8.5")
    assert done.returncode == 0
    assert (
        done.stdout.splitlines()[0] == f"[1/4] survey: findings=3, score=8.5 — {REPORTS}/survey.md"
    )
    resumed = run(skill, project, "resume")
    assert resumed.returncode == 0
    assert resumed.stdout.splitlines()[0] == "Resuming — 1/4 steps complete, next: analyze"
    assert "analyze, verify, summarize" in resumed.stdout

    step(skill, project, "analyze")
    third = step(skill, project, "verify")
    assert "Checkpoint due" in third.stdout  # every 3 completed steps
    checkpoint = run(skill, project, "checkpoint")
    assert checkpoint.stdout.startswith("Checkpoint — 3/4 steps complete, next: summarize")
    assert read_state(project)["checkpoint"]["complete"] == 3
    last = step(skill, project, "summarize")
    assert "All 4 steps complete" in last.stdout
    finished = run(skill, project, "finish")
    assert finished.returncode == 0 and "Run complete: 4/4" in finished.stdout
    assert finished.stdout.splitlines()[0].startswith("[1/4] survey: findings=3")

    data = read_state(project)
    STATE_SCHEMA.validate(data)
    assert data["status"] == "complete" and [s["status"] for s in data["steps"]] == ["complete"] * 4
    assert data["steps"][0]["metrics"] == {"findings": 3, "score": 8.5}
    nothing = run(skill, project, "resume")
    assert nothing.returncode == 3 and "complete" in nothing.stdout
    assert not list((project / REPORTS).glob(".state-*.tmp"))


def test_status(skill, project):
    assert run(skill, project, "status").returncode == 3
    run(skill, project, "init")
    step(skill, project, "survey", "--metric", "n=1")
    shown = run(skill, project, "status")
    assert shown.returncode == 0
    assert shown.stdout.splitlines()[0].startswith(
        "in_progress — 1/4 steps complete, next: analyze"
    )
    assert "pending: verify" in shown.stdout
    as_json = json.loads(run(skill, project, "status", "--json").stdout)
    STATE_SCHEMA.validate(as_json["state"])


def age(project: Path, minutes: float) -> None:
    path = state_files(project)[-1]
    data = json.loads(path.read_text())
    data["updated"] = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=minutes)).isoformat()
    path.write_text(json.dumps(data))


def test_a_stale_run_is_not_resumed(skill, project):
    window = P["resume_window_minutes"]
    run(skill, project, "init")
    step(skill, project, "survey")
    age(project, window - 1)
    assert run(skill, project, "resume").returncode == 0
    age(project, window + 1)
    stale = run(skill, project, "resume")
    assert stale.returncode == 3 and f"{window}-minute" in stale.stdout
    # and a stale run does not block a new one
    old = state_files(project)[-1]
    old.rename(old.with_name("state-20000101-000000.json"))
    assert run(skill, project, "init").returncode == 0
    assert len(state_files(project)) == 2


def test_init_refuses_to_shadow_a_resumable_run(skill, project):
    run(skill, project, "init")
    before = state_files(project)
    refused = run(skill, project, "init")
    assert refused.returncode == 2 and "--fresh" in refused.stderr
    assert state_files(project) == before
    old = state_files(project)[-1]  # rename it out of this second

    old.rename(old.with_name("state-20000101-000000.json"))
    fresh = run(skill, project, "init", "--fresh")
    assert fresh.returncode == 0 and len(state_files(project)) == 2


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "corrupt"),
        ('{"some": "other tool"}', "not a spawnkit state file"),
        ('{"kind": "spawnkit-state", "version": 9}', "version"),
        ('{"kind": "spawnkit-state", "version": 1, "skill": "demo-skill"}', "missing keys"),
        ("[]", "not a JSON object"),
    ],
)
def test_corrupt_or_foreign_files_are_reported_and_never_overwritten(
    skill, project, content, message
):
    path = project / REPORTS / "state-20200101-000000.json"
    path.write_text(content)
    for args in (("resume",), ("status",), ("checkpoint",), ("finish",), ("init",)):
        done = run(skill, project, *args)
        assert done.returncode == 2, args
        assert message in done.stderr and "left untouched" in done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    done = step(skill, project, "survey")
    assert done.returncode == 2 and message in done.stderr
    assert path.read_text() == content
    assert state_files(project) == [path]


def test_another_skills_state_file_is_foreign(skill, project):
    run(skill, project, "init")
    path = state_files(project)[-1]
    data = json.loads(path.read_text())
    data["skill"] = "other-skill"
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    done = step(skill, project, "survey")
    assert done.returncode == 2 and "belongs to the skill 'other-skill'" in done.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("step", "nope", "--status", "complete", "--report", f"{REPORTS}/survey.md"),
            "unknown step 'nope'",
        ),
        (
            ("step", "survey", "--status", "complete", "--report", f"{REPORTS}/missing.md"),
            "does not exist",
        ),
        # issue 21: a report or handoff anywhere else is refused, links out of the folder too
        (("step", "survey", "--status", "complete", "--report", "/etc/passwd"), "reports folder"),
        (("step", "survey", "--status", "failed", "--report", "missing.md"), "reports folder"),
        (
            ("step", "survey", "--status", "complete", "--report", f"{REPORTS}/../survey.md"),
            "reports folder",
        ),
        (("step", "survey", "--status", "complete", "--report", f"{REPORTS}/out.md"), "reports"),
        (
            (
                "step",
                "survey",
                "--status",
                "complete",
                "--report",
                f"{REPORTS}/survey.md",
                "--handoff",
                "/etc/hostname",
            ),
            "reports folder",
        ),
        (
            (
                "step",
                "survey",
                "--status",
                "complete",
                "--report",
                f"{REPORTS}/survey.md",
                "--metric",
                "novalue",
            ),
            "KEY=VALUE",
        ),
        (("finish",), "not complete: survey"),
    ],
)
def test_refused_commands_write_nothing(skill, project, args, message):
    (project / REPORTS / "out.md").symlink_to(project / "elsewhere.md")
    (project / "elsewhere.md").write_text("a file outside the reports folder\n")
    (project / "survey.md").write_text("beside the reports folder, not in it\n")
    run(skill, project, "init")
    before = state_files(project)[-1].read_bytes()
    done = run(skill, project, *args)
    assert done.returncode == 2 and message in done.stderr
    assert state_files(project)[-1].read_bytes() == before


def test_usage_errors_exit_2(skill, project):
    assert run(skill, project, "step", "survey").returncode == 2
    assert run(skill, project, "bogus").returncode == 2
    assert step(skill, project, "survey").returncode == 2  # no run yet
    assert "state.py init" in step(skill, project, "survey").stderr


def test_a_given_up_run_is_not_resumed(skill, project):
    run(skill, project, "init")
    step(skill, project, "survey", status="failed")
    again = step(skill, project, "survey", status="failed")
    assert "FAILED (attempt 2)" in again.stdout
    assert run(skill, project, "finish", "--failed").returncode == 0
    assert read_state(project)["status"] == "failed"
    assert run(skill, project, "resume").returncode == 3
    assert step(skill, project, "analyze").returncode == 2  # the run is closed


def write_handoff(project: Path, name: str, **override) -> str:
    handoff = {
        "step": name,
        "status": "COMPLETE",
        "summary": "Checked 12 files.",
        "report": f"{REPORTS}/{name}.md",
        "metrics": {"files": 12, "high": 1},
        "inputs_for_next": ["look at a.py first"],
        **override,
    }
    if not override:
        HANDOFF_SCHEMA.validate(handoff)
    path = project / REPORTS / P["handoff_file_pattern"].format(step=name)
    path.write_text(json.dumps(handoff))
    return str(path.relative_to(project))


def test_handoff_metrics_are_recorded(skill, project):
    run(skill, project, "init")
    done = step(skill, project, "survey", "--handoff", write_handoff(project, "survey"))
    assert done.returncode == 0 and "files=12, high=1" in done.stdout
    recorded = read_state(project)["steps"][0]
    assert recorded["metrics"] == {"files": 12, "high": 1} and recorded["handoff"].endswith(
        "handoff-survey.json"
    )
    STATE_SCHEMA.validate(read_state(project))


@pytest.mark.parametrize(
    "override", [{"step": "analyze"}, {"status": "DONE"}, {"summary": ""}, {"extra": 1}]
)
def test_invalid_handoff_is_refused(skill, project, override):
    run(skill, project, "init")
    before = state_files(project)[-1].read_bytes()
    done = step(skill, project, "survey", "--handoff", write_handoff(project, "survey", **override))
    assert done.returncode == 2 and "handoff file" in done.stderr
    assert state_files(project)[-1].read_bytes() == before


def test_lock_timeout_is_a_clear_error(state_module, project, capsys, monkeypatch):
    import fcntl

    reports = str(project / REPORTS)
    assert state_module.main(["--dir", reports, "init"]) == 0
    monkeypatch.setattr(state_module, "LOCK_TIMEOUT_SECONDS", 0.2)
    with open(os.path.join(reports, ".state.lock"), "a+b") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        code = state_module.main(
            ["--dir", reports, "step", "survey", "--status", "failed", "--report", f"{reports}/x"]
        )
    assert code == 2
    assert "run the command again" in capsys.readouterr().err
    assert all(s["status"] == "pending" for s in read_state(project)["steps"])


DRIVER = """
import contextlib, importlib.util, io, sys
spec = importlib.util.spec_from_file_location("state", sys.argv[1])
state = importlib.util.module_from_spec(spec)
spec.loader.exec_module(state)
folder, report, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
failures = 0
with contextlib.redirect_stdout(io.StringIO()):
    for i in range(count):
        failures += state.main(["--dir", folder, "step", "survey", "--status", "complete",
                                "--report", report, "--metric", f"i={i}"]) != 0
print(failures)
"""


def fast_folder(tmp_path: Path) -> Path:
    """A RAM-backed folder where there is one: fsync latency is not what this test is about."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        return Path(tempfile.mkdtemp(dir=shm, prefix="spawnkit-state-"))
    return tmp_path / "state"


def remove_fast_folder(folder: Path) -> None:
    if folder.parent == Path("/dev/shm"):
        shutil.rmtree(folder, ignore_errors=True)


def test_two_processes_times_500_steps_lose_no_update(skill, state_module, tmp_path):
    folder = fast_folder(tmp_path)
    try:
        report = folder / "survey.md"
        folder.mkdir(exist_ok=True)
        report.write_text("report")
        assert state_module.main(["--dir", str(folder), "init"]) == 0
        driver = tmp_path / "driver.py"
        driver.write_text(DRIVER)
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    str(driver),
                    str(skill / "scripts" / "state.py"),
                    str(folder),
                    str(report),
                    "500",
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        outputs = [p.communicate(timeout=300)[0] for p in procs]
        assert [o.strip() for o in outputs] == ["0", "0"]
        [path] = sorted(folder.glob("state-*.json"))
        data = json.loads(path.read_text())
        STATE_SCHEMA.validate(data)
        assert data["steps"][0]["attempts"] == 1000
        assert not list(folder.glob(".state-*.tmp"))
    finally:
        remove_fast_folder(folder)


def test_concurrent_cli_calls_lose_no_update(skill, tmp_path):
    folder = fast_folder(tmp_path)
    try:
        folder.mkdir(exist_ok=True)
        (folder / "r.md").write_text("report")
        script = str(skill / "scripts" / "state.py")
        assert (
            subprocess.run([sys.executable, script, "--dir", str(folder), "init"]).returncode == 0
        )
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    script,
                    "--dir",
                    str(folder),
                    "step",
                    name,
                    "--status",
                    "complete",
                    "--report",
                    str(folder / "r.md"),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(8)
            for name in ("survey", "analyze")
        ]
        assert [p.wait(timeout=120) for p in procs] == [0] * 16
        [path] = sorted(folder.glob("state-*.json"))
        data = json.loads(path.read_text())
        assert [s["attempts"] for s in data["steps"][:2]] == [8, 8]
        STATE_SCHEMA.validate(data)
    finally:
        remove_fast_folder(folder)


def valid_state() -> dict:
    return {
        "kind": "spawnkit-state",
        "version": 1,
        "skill": "demo-skill",
        "protocol_version": "1.0",
        "created": "2026-01-01T00:00:00+00:00",
        "updated": "2026-01-01T00:05:00+00:00",
        "status": "in_progress",
        "checkpoint": None,
        "steps": [
            {
                "id": "a",
                "status": "complete",
                "attempts": 1,
                "report": "r/a.md",
                "metrics": {"n": 1, "ok": True},
                "updated": "2026-01-01T00:05:00+00:00",
            },
            {"id": "b", "status": "pending"},
        ],
    }


def mutated(**changes) -> dict:
    data = valid_state()
    for key, value in changes.items():
        if value is KeyError:
            data.pop(key)
        else:
            data[key] = value
    return data


def step_mutated(**changes) -> dict:
    data = valid_state()
    data["steps"][0].update(changes)
    return data


@pytest.mark.parametrize(
    "data",
    [
        valid_state(),
        mutated(checkpoint={"at": "2026-01-01T00:03:00+00:00", "complete": 1}),
        mutated(kind="other"),
        mutated(version=2),
        mutated(status="done"),
        mutated(skill="Bad Name"),
        mutated(steps=[]),
        mutated(steps=KeyError),
        mutated(extra=1),
        mutated(checkpoint={"at": "2026-01-01T00:03:00+00:00"}),
        step_mutated(status="running"),
        step_mutated(id="Has Space"),
        step_mutated(attempts=-1),
        step_mutated(metrics={"bad key": 1}),
        step_mutated(metrics={"n": [1]}),
        step_mutated(report=3),
        step_mutated(surprise=True),
    ],
)
def test_stdlib_check_agrees_with_the_schema(state_module, data):
    assert (state_module.state_problems(data) == []) == STATE_SCHEMA.is_valid(data)


@pytest.mark.parametrize(
    "data",
    [
        {"step": "a", "status": "COMPLETE", "summary": "s", "report": "r.md"},
        {
            "step": "a",
            "status": "PARTIAL",
            "summary": "s",
            "report": "r.md",
            "metrics": {"a": 1, "b": "x", "c": True},
        },
        {
            "step": "a",
            "status": "COMPLETE",
            "summary": "s",
            "report": "r.md",
            "metrics": {"a": 1, "b": 2, "c": 3, "d": 4},
        },
        {"step": "a", "status": "COMPLETE", "summary": "", "report": "r.md"},
        {"step": "a", "status": "OK", "summary": "s", "report": "r.md"},
        {"step": "a", "status": "COMPLETE", "summary": "s"},
        {
            "step": "a",
            "status": "COMPLETE",
            "summary": "s",
            "report": "r.md",
            "inputs_for_next": ["x", ""],
        },
        {"step": "a", "status": "COMPLETE", "summary": "s", "report": "r.md", "other": 1},
    ],
)
def test_stdlib_handoff_check_agrees_with_the_schema(state_module, data):
    assert (state_module.handoff_problems(data) == []) == HANDOFF_SCHEMA.is_valid(data)
