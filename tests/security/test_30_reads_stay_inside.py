"""Issue 30, items 1 and 2: what spawnkit read through a link planted in a project.

``ln -s ~/.netrc .claude/workflows/x.js; spawnkit lint --format github .claude`` printed the
first 40 characters of the target in a syntax error (in CI: a pull-request annotation); the
same through ``skills/*/workflow.js``; a file linked as a SKILL.md, an agent or a command was
quoted as lint's evidence; ``ln -s / .claude/skills/root; spawnkit lint`` walked the disk
(still running after 90 s at 563 MB). Now every file lint, doctor, ``update --check``,
``workflow check`` and ``audit`` opens in a project resolves inside it
(``spawnkit.files.contain``, ``spawnkit.files.walk``): a link out is one line ("skipped: a
link out of …") and never opened, and no byte of its target reaches any output format.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .hostile import SECRET, Run, no_traceback, outside_secrets, plant, watched

LINT_FORMATS = ["text", "json", "sarif", "github"]


@pytest.fixture
def hostile(project: Path, tmp_path: Path) -> dict[str, Path]:
    """The cloned project (the working folder) with every link planted."""
    secret = outside_secrets(tmp_path / "outside")
    return plant(project, secret)


def clean(run: Run) -> None:
    """No secret, no traceback; every planted link that was met is named as skipped."""
    no_traceback(run)
    assert not SECRET.search(run.text), run.text


@pytest.mark.parametrize("fmt", LINT_FORMATS)
@pytest.mark.parametrize("where", [[".claude"], []], ids=["named", "no-path"])
def test_lint_reads_no_link_out_of_the_project(project, hostile, fmt, where):
    run = watched("lint", "--format", fmt, *where, cwd=project)
    clean(run)
    assert run.code == 0, run.text  # the clean skills were linted; the links are warnings
    for role in ("workflow script", "skill workflow.js", "SKILL.md", "agent", "command"):
        link = hostile[role].relative_to(project) if where else hostile[role]
        assert f"{link}: skipped: a link out of {project}, never opened" in run.err, run.err
    assert "skills/root: skipped: a link out of" in run.err  # the link to / is not walked
    assert "skills/linked: skipped: a link out of" in run.err
    if fmt == "json":
        paths = {f["path"] for f in json.loads(run.out)["files"]}
        assert paths == {".claude/skills/clean/SKILL.md", ".claude/skills/wf/SKILL.md"} | {
            ".claude/skills/m/SKILL.md"
        }, paths


@pytest.mark.parametrize("role", ["workflow script", "parsing workflow script", "SKILL.md"])
@pytest.mark.parametrize("fmt", LINT_FORMATS)
def test_a_linked_file_named_as_pre_commit_names_it_is_not_read(project, hostile, role, fmt):
    """pre-commit passes each changed file by name: a link in the commit is refused too."""
    link = hostile[role].relative_to(project)
    run = watched("lint", "--pre-commit", "--format", fmt, str(link), cwd=project)
    clean(run)
    assert f"{link}: skipped: a link out of {project}" in run.err


def test_a_link_inside_the_project_is_followed(project, tmp_path):
    """Containment is no ban on links: one that stays in the project reads as before."""
    shared = project / "shared" / "review"
    shared.mkdir(parents=True)
    (shared / "SKILL.md").write_text("---\nname: review\ndescription: Reviews it.\n---\nbody\n")
    (project / ".claude" / "skills").mkdir(parents=True)
    (project / ".claude" / "skills" / "review").symlink_to(shared)
    run = watched("lint", "--format", "json", ".claude", cwd=project)
    assert run.code == 0, run.text
    assert [f["path"] for f in json.loads(run.out)["files"]] == [".claude/skills/review/SKILL.md"]


def test_the_users_own_folder_keeps_its_links(project, tmp_path):
    """A skill linked into the user's skills folder from a dotfiles repository is linted."""
    import os

    dotfiles = tmp_path / "dotfiles" / "mine"
    dotfiles.mkdir(parents=True)
    (dotfiles / "SKILL.md").write_text("---\nname: mine\ndescription: Mine.\n---\nbody\n")
    skills = Path(os.environ["HOME"]) / ".claude" / "skills"
    skills.mkdir(parents=True)
    (skills / "mine").symlink_to(dotfiles)
    run = watched("lint", "--format", "json", str(skills.parent), cwd=project)
    assert run.code == 0, run.text
    assert [Path(f["path"]).name for f in json.loads(run.out)["files"]] == ["SKILL.md"]


@pytest.mark.parametrize("where", [[".claude"], []], ids=["named", "no-path"])
def test_lint_with_a_link_to_the_root_is_fast_and_small(project, where):
    """Issue 30 item 2: 90 s and 563 MB and still running on 081e6cb. Must: <= 20 s, <= 300 MB
    (loose bounds on a shared machine; docs/security.md has the measured figures)."""
    (project / ".claude" / "skills").mkdir(parents=True)
    (project / ".claude" / "skills" / "root").symlink_to("/")
    run = watched("lint", *where, cwd=project, timeout=60)
    no_traceback(run)
    assert "skills/root: skipped: a link out of" in run.err
    assert run.seconds <= 20 and run.peak_mb <= 300, (run.seconds, run.peak_mb)


@pytest.mark.parametrize("fmt", [[], ["--json"]], ids=["text", "json"])
def test_doctor_reads_no_link_out_of_the_project(project, hostile, fmt):
    run = watched("doctor", "--scope", "project", *fmt, cwd=project)
    clean(run)
    assert "skipped: a link out of" in run.text
    user = watched("doctor", *fmt, cwd=project)  # the user scope reads the project's config too
    clean(user)


@pytest.mark.parametrize("fmt", [[], ["--json"]], ids=["text", "json"])
def test_update_check_reads_no_link_out_of_the_project(project, hostile, fmt):
    run = watched("update", "--check", *fmt, cwd=project)
    clean(run)
    assert ".claude/skills/m: skipped: a link out of" in run.text, run.text
    assert ".claude/skills/linked: skipped: a link out of" in run.text, run.text


@pytest.mark.parametrize("fmt", [[], ["--json"]], ids=["text", "json"])
@pytest.mark.parametrize("role", ["workflow script", "parsing workflow script"])
def test_workflow_check_refuses_a_script_linked_out(project, hostile, fmt, role):
    link = hostile[role].relative_to(project)
    run = watched("workflow", "check", str(link), *fmt, cwd=project)
    clean(run)
    assert run.code == 2
    assert run.err.strip() == (
        f"spawnkit: error: {link}: skipped: a link out of {project}, never opened (to check"
        " what it leads to, name that file itself)"
    )


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_audit_reads_no_transcript_linked_into_a_folder(project, tmp_path, fmt):
    secret = outside_secrets(tmp_path / "outside")
    folder = project / "transcripts"
    folder.mkdir()
    (folder / "a.jsonl").symlink_to(secret["transcript.jsonl"])
    (folder / "sub").symlink_to(tmp_path / "outside")
    run = watched("audit", str(folder), "--format", fmt, cwd=project)
    clean(run)


def test_a_linked_brief_beside_a_skill_is_not_read(project, tmp_path):
    """lint reads the Markdown files a skill's body links to (a worker brief is the
    sub-agents' prompt and is quoted as evidence): only inside the skill's folder, links
    resolved."""
    secret = outside_secrets(tmp_path / "outside")
    folder = project / ".claude" / "skills" / "brief"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: brief\ndescription: Reviews files with helpers.\n---\n\n"
        "Use the Task tool to spawn a sub-agent per file with [the worker brief](brief.md).\n"
    )
    (folder / "brief.md").symlink_to(secret["skill.md"])
    for fmt in LINT_FORMATS:
        clean(watched("lint", "--format", fmt, ".claude", cwd=project))


def test_a_config_file_linked_out_is_refused(project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "mine.toml").write_text('select = ["SECRET-TOML-1a2b"]\n')
    (project / ".spawnkit.toml").symlink_to(outside / "mine.toml")
    (project / ".claude" / "skills" / "clean").mkdir(parents=True)
    run = watched("lint", ".claude", cwd=project)
    clean(run)
    assert run.code == 2
    assert run.err.startswith(f"spawnkit: error: config file {project / '.spawnkit.toml'}: skipped")


def _files(root: Path, bounds) -> tuple[list[Path], object]:
    from spawnkit.files import walk

    state = walk.Walk(bounds)
    found = list(walk.files(root, root, state, lambda p: p.suffix == ".md"))
    return found, state


@pytest.mark.parametrize("limit", ["files", "entries", "size"])
def test_a_walk_stops_at_its_bounds_and_says_so(tmp_path, limit):
    """At the bound everything is found and nothing said; one beyond, the walk stops with
    one line (small bounds here; the shipped ones are in files/walk.py)."""
    from spawnkit.files import walk

    for i in range(4):
        (tmp_path / f"f{i}.md").write_text("x" * 10)
    exact = {"files": {"files": 4}, "entries": {"entries": 4}, "size": {"size": 40}}[limit]
    found, state = _files(tmp_path, walk.Bounds(**exact))
    assert len(found) == 4 and state.stopped is None
    under = {key: value - 1 for key, value in exact.items()}
    found, state = _files(tmp_path, walk.Bounds(**under))
    assert len(found) < 4 and state.halted
    assert state.stopped.startswith("stopped looking after") and state.stopped.endswith(
        "the rest was not checked (name a smaller folder)"
    )


def test_lint_looks_32_folders_deep_and_no_deeper(project):
    """A skill 32 folders below the named folder is linted; one 33 deep is not, and lint
    says it did not look that deep."""
    from spawnkit.files.walk import MAX_DEPTH

    root = project / "deep"
    at = root.joinpath(*["d"] * (MAX_DEPTH - 1), "ok")  # the skill folder is level 32
    beyond = root.joinpath(*["e"] * MAX_DEPTH, "no")  # level 33
    for folder in (at, beyond):
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: {folder.name}\ndescription: X.\n---\n")
    run = watched("lint", "--format", "json", "deep", cwd=project)
    assert [Path(f["path"]).parent.name for f in json.loads(run.out)["files"]] == ["ok"]
    assert f"spawnkit: warning: did not look more than {MAX_DEPTH} folders deep" in run.err


def test_thousands_of_planted_links_are_one_screen(project, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("x")
    folder = project / ".claude" / "commands"
    folder.mkdir(parents=True)
    for i in range(500):
        (folder / f"c{i}.md").symlink_to(outside)
    run = watched("lint", ".claude", cwd=project)
    warnings = [line for line in run.err.splitlines() if "skipped: a link out of" in line]
    assert len(warnings) == 20
    assert "spawnkit: warning: … and 480 more files skipped" in run.err
