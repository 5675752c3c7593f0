"""`spawnkit update`: three template versions, a skill full of user edits, and no user line lost."""

from __future__ import annotations

import json
import subprocess

import pytest
import yaml
from update_helpers import (
    ANSWERS,
    SKILL_TPL,
    V1,
    V2,
    V2_BODY_LINE,
    V2_FRONTMATTER_LINE,
    V3,
    V3_BODY_LINE,
    assert_user_lines_survive,
    build_store,
    generate,
    make_env,
    make_versions,
    real_files,
    run_cli,
    tree_state,
    user_lines,
)

from spawnkit.template import conflicts, fsutil, store
from spawnkit.template import update as updating

DESCRIPTION = 'description: "My own words about what this skill does."'
HEADING_SUFFIX = " (my wording)"
FAR_EDIT = " My far-away edit."
NOTES = "Keep the reports for a week."


@pytest.fixture
def env(tmp_path, monkeypatch):
    return make_env(tmp_path, monkeypatch)


def _edit_like_a_user(skill):
    md = skill / "SKILL.md"
    text = md.read_text().splitlines(keepends=True)
    desc = next(i for i, x in enumerate(text) if x.startswith("description:"))
    text[desc] = DESCRIPTION + "\n"  # frontmatter, right next to v2's new key
    first = next(i for i, x in enumerate(text) if x.startswith("## "))
    text[first] = (
        text[first].rstrip("\n") + HEADING_SUFFIX + "\n"
    )  # body, right next to v2's new line
    last = max(i for i, x in enumerate(text) if x.strip())
    text[last] = text[last].rstrip("\n") + FAR_EDIT + "\n"  # body, far from any template change
    text.append(f"\n## My notes\n\n{NOTES}\n")
    md.write_text("".join(text))
    (skill / "notes").mkdir()
    (skill / "notes" / "mine.md").write_text("My own file.\nSecond line of mine.\n")
    (skill / "reference" / "extra.md").unlink()  # a generated file the user deleted
    for name, line in (("legacy", "legacy line 5"), ("guide", "guide line 15")):
        path = skill / "reference" / f"{name}.md"
        path.write_text(path.read_text().replace(line + "\n", line + ", edited by me\n"))


def _rendered(env, tag):
    skill = updating.managed.read_skill(env.config / "skills" / "demo", "user")
    return updating.render(
        store.store_dir(env.config),
        tag,
        skill.user_data(),
        ANSWERS,
        env.home.parent / f"r-{tag}" / skill.name,
    )


def _resolve_markers(path):
    """What a user does: keep their side, plus the template's new non-heading lines."""
    out, block, side = [], None, None
    for line in path.read_text().splitlines(keepends=True):
        if line.startswith("<<<<<<< "):
            block, side = {"ours": [], "theirs": []}, "ours"
        elif block is not None and line.rstrip() == "=======":
            side = "theirs"
        elif block is not None and line.startswith(">>>>>>> "):
            out += block["ours"] + [
                x for x in block["theirs"] if x not in block["ours"] and not x.startswith("## ")
            ]
            block = None
        elif block is not None:
            block[side].append(line)
        else:
            out.append(line)
    path.write_text("".join(out))


def _outside_conflicts(text, needle):
    inside = False
    for line in text.splitlines():
        inside = (inside or line.startswith("<<<<<<< ")) and not line.startswith(">>>>>>> ")
        if needle in line:
            return not inside
    raise AssertionError(f"{needle!r} not found")


def test_three_versions_keep_every_user_line(env):
    build_store(env.config)
    skill = generate(env.config, V1, env.config / "skills" / "demo")
    _edit_like_a_user(skill)
    mine = user_lines(skill, _rendered(env, V1))
    assert set(mine) >= {"SKILL.md", "notes/mine.md", "reference/legacy.md", "reference/guide.md"}

    # v1 -> v2: conflicts next to template changes, clean merge far from them.
    outcome = updating.update(("demo",), env.config, env.project, to_tag=V2)
    [r] = outcome.skills
    assert (r.status, r.version, r.target) == (updating.CONFLICTS, V1, V2)
    assert outcome.exit_code == 1
    assert r.conflicts == ["SKILL.md"]
    assert_user_lines_survive(mine, skill, r)
    text = (skill / "SKILL.md").read_text()
    front = conflicts.frontmatter(text)
    assert front is not None, "SKILL.md must stay loadable"
    assert front["description"] == "My own words about what this skill does."
    assert r.frontmatter and V2_FRONTMATTER_LINE in r.frontmatter["template_lines"]
    assert "<<<<<<< before updating" in text and V2_BODY_LINE in text
    assert _outside_conflicts(text, FAR_EDIT) and _outside_conflicts(text, NOTES)
    assert r.kept == ["reference/legacy.md"]
    assert "legacy line 5, edited by me" in (skill / "reference" / "legacy.md").read_text()
    assert not (skill / "reference" / "extra.md").exists(), "a file the user deleted came back"
    assert (skill / "notes" / "mine.md").read_text() == "My own file.\nSecond line of mine.\n"
    assert yaml.safe_load((skill / ANSWERS).read_text())["_commit"] == V2
    assert not list(skill.rglob(".git")), "update left git metadata in the skill"
    backup = env.config / ".spawnkit" / "backups"
    assert r.backup and r.backup.startswith(str(backup / "demo-"))
    assert "(my wording)" in (backup / r.backup.rsplit("/", 1)[1] / "SKILL.md").read_text()

    # A second run refuses while the markers are there, and writes nothing.
    before = tree_state(env.home, env.project)
    res = run_cli("update", "demo")
    assert res.exit_code == 2
    assert len(res.stderr.strip().splitlines()) == 1
    assert "SKILL.md" in res.stderr and "conflict markers" in res.stderr
    assert tree_state(env.home, env.project) == before

    # The user resolves; v2 -> v3 renames a file the user edited.
    _resolve_markers(skill / "SKILL.md")
    mine = user_lines(skill, _rendered(env, V2))
    outcome = updating.update(("demo",), env.config, env.project, to_tag=V3)
    [r] = outcome.skills
    assert (r.status, r.conflicts, outcome.exit_code) == (updating.UPDATED, [], 0)
    assert r.renamed == [{"from": "reference/guide.md", "to": "reference/handbook.md"}]
    assert_user_lines_survive(mine, skill, r)
    handbook = (skill / "reference" / "handbook.md").read_text()
    assert "guide line 15, edited by me" in handbook and "handbook line 2" in handbook
    assert not (skill / "reference" / "guide.md").exists()
    text = (skill / "SKILL.md").read_text()
    assert V3_BODY_LINE in text and DESCRIPTION in text and HEADING_SUFFIX in text
    assert conflicts.frontmatter(text) is not None


def test_check_json_lists_updates_and_writes_nothing(env):
    build_store(env.config)
    generate(env.config, V1, env.config / "skills" / "demo")
    generate(env.config, V3, env.project / ".claude" / "skills" / "other")
    before = tree_state(env.home, env.project)
    res = run_cli("update", "--check", "--json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    target = store.planned_target(env.config).tag
    assert report["target_version"] == target and report["updates_available"] == 2
    rows = {s["name"]: s for s in report["skills"]}
    assert (rows["demo"]["scope"], rows["demo"]["version"], rows["demo"]["status"]) == (
        "user",
        V1,
        "update-available",
    )
    assert (rows["other"]["scope"], rows["other"]["version"]) == ("project", V3)
    assert tree_state(env.home, env.project) == before, "--check wrote something"
    assert target not in store.Store(store.store_dir(env.config)).tags()

    pinned = updating.check((), env.config, env.project, to_tag=V3)
    assert {s.name: s.status for s in pinned.skills} == {
        "demo": "update-available",
        "other": "up-to-date",
    }


def test_codex_skill_folders_are_found_too(env):
    """Skills in Codex's folders ($CODEX_HOME/skills, ~/.agents/skills, ./.agents/skills,
    ./.codex/skills) are listed and updated like Claude Code's."""
    build_store(env.config)
    places = {
        "cx-home": env.home / ".codex" / "skills" / "cx-home",
        "cx-agents": env.home / ".agents" / "skills" / "cx-agents",
        "cx-proj": env.project / ".agents" / "skills" / "cx-proj",
        "cx-dotcodex": env.project / ".codex" / "skills" / "cx-dotcodex",
    }
    for folder in places.values():
        generate(env.config, V1, folder)
    res = run_cli("update", "--check", "--json")
    assert res.exit_code == 0, res.output
    rows = {s["name"]: s for s in json.loads(res.stdout)["skills"]}
    assert {n: (r["scope"], r["status"]) for n, r in rows.items()} == {
        "cx-home": ("user", "update-available"),
        "cx-agents": ("user", "update-available"),
        "cx-proj": ("project", "update-available"),
        "cx-dotcodex": ("project", "update-available"),
    }
    done = run_cli("update", "cx-proj", "--json")
    assert done.exit_code == 0, done.output
    assert [s["status"] for s in json.loads(done.stdout)["skills"]] == ["updated"]
    assert V1 not in (places["cx-proj"] / ANSWERS).read_text()


def test_dry_run_reports_and_touches_no_skill(env):
    build_store(env.config)
    skill = generate(env.config, V1, env.config / "skills" / "demo")
    _edit_like_a_user(skill)
    before = tree_state(skill)
    outcome = updating.update(("demo",), env.config, env.project, dry_run=True, to_tag=V2)
    [r] = outcome.skills
    assert r.status == updating.WOULD_UPDATE and r.conflicts == ["SKILL.md"] and r.backup is None
    assert "SKILL.md" in r.modified and r.kept == ["reference/legacy.md"]
    assert tree_state(skill) == before
    assert not (env.config / ".spawnkit" / "backups").exists()


def test_skill_inside_a_git_repo_is_updated_but_never_committed(env):
    build_store(env.config)
    skill = generate(env.config, V1, env.project / ".claude" / "skills" / "demo")

    def run(*a):
        return subprocess.run(
            ["git", *a],
            cwd=env.project,
            check=True,
            capture_output=True,
            text=True,
            env={
                "GIT_CONFIG_GLOBAL": "/dev/null",
                "GIT_AUTHOR_NAME": "u",
                "GIT_AUTHOR_EMAIL": "u@x",
                "GIT_COMMITTER_NAME": "u",
                "GIT_COMMITTER_EMAIL": "u@x",
                "PATH": "/usr/bin:/bin",
            },
        ).stdout

    run("init", "-q")
    run("add", "-A")
    run("commit", "-qm", "mine")
    head = run("rev-parse", "HEAD")
    res = run_cli("update", str(skill), "--json")
    # pin through the API is not possible from the CLI: the skill goes to the running version
    assert res.exit_code == 0, res.output
    [r] = json.loads(res.stdout)["skills"]
    assert r["status"] == "updated" and r["target"] == store.planned_target(env.config).tag
    assert run("rev-parse", "HEAD") == head
    assert ".claude/skills/demo/.copier-answers.yml" in run("status", "--porcelain")
    assert not (skill / ".git").exists()


def test_unknown_and_newer_versions_are_reported_not_touched(env):
    build_store(env.config)
    skill = generate(env.config, V1, env.config / "skills" / "demo")
    answers = skill / ANSWERS
    for commit, status in (("0.0.1+d.0123456789ab", updating.UNKNOWN), ("99.0.0", updating.AHEAD)):
        answers.write_text(answers.read_text().replace(f"_commit: {V1}", f"_commit: {commit}"))
        before = tree_state(skill)
        outcome = updating.update((), env.config, env.project, to_tag=V2)
        assert [s.status for s in outcome.skills] == [status]
        assert tree_state(skill) == before
        answers.write_text(answers.read_text().replace(f"_commit: {commit}", f"_commit: {V1}"))


def test_usage_errors_exit_2(env):
    assert run_cli("update").exit_code == 2
    assert run_cli("update", "x", "--all").exit_code == 2
    res = run_cli("update", "nope")
    assert res.exit_code == 2 and "spawnkit adopt" in res.stderr
    assert run_cli("update", "--all").exit_code == 0


def test_snapshot_roundtrip_applies_removals(tmp_path):
    root = tmp_path / "s"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f").write_text("x")
    (root / "keep").write_text("k")
    before = fsutil.snapshot(root)
    after = {"keep": (0o600, b"k2"), "new/n": (0o644, b"n")}
    fsutil.apply_snapshot(root, before, after)
    assert fsutil.snapshot(root) == after and not (root / "a").exists()


def test_new_records_the_store_and_version_so_update_finds_it(env):
    res = run_cli("new", "my-audit", "--defaults")
    assert res.exit_code == 0, res.output
    answers = yaml.safe_load(
        (env.project / ".claude" / "skills" / "my-audit" / ANSWERS).read_text()
    )
    target = store.planned_target(env.config)
    assert answers["_src_path"] == "~/.claude/.spawnkit/template-store"
    assert answers["_commit"] == target.tag and target.in_store
    res = run_cli("update", "--check", "--json")
    assert [(s["name"], s["status"]) for s in json.loads(res.stdout)["skills"]] == [
        ("my-audit", "up-to-date")
    ]


# --- issue 14: a skill made by a newer (or modified) spawnkit is ahead, never "updated" back ---


@pytest.mark.parametrize(
    "have, want, ahead",
    [
        ("0.1.0+d.aa4719025749", "0.1.0", True),
        ("0.2.0", "0.1.0+d.aa4719025749", True),
        ("0.1.0", "0.1.0+d.aa4719025749", False),
        ("0.1.0+d.aaaaaaaaaaaa", "0.1.0+d.bbbbbbbbbbbb", False),
        ("0.0.9", "0.1.0", False),
    ],
)
def test_is_ahead_follows_pep_440(have, want, ahead):
    assert updating.is_ahead(have, want) is ahead


def test_a_skill_from_a_modified_checkout_is_ahead_of_the_release(env):
    local = f"{V2}+d.aaaaaaaaaaaa"
    versions = make_versions()
    build_store(env.config, {V1: versions[V1], V2: versions[V2], local: versions[V3]})
    skill = generate(env.config, local, env.config / "skills" / "demo")
    before = tree_state(skill)
    [checked] = updating.check(("demo",), env.config, env.project, to_tag=V2).skills
    assert checked.status == updating.AHEAD, checked
    outcome = updating.update(("demo",), env.config, env.project, dry_run=True, to_tag=V2)
    [row] = outcome.skills
    assert row.status == updating.AHEAD and not row.modified and not row.removed
    assert "newer than this one" in row.message
    assert tree_state(skill) == before
    assert "update --all" not in updating.format_text(outcome, checking=True)


# --- issue 23: the engine question (prompt or workflow) across versions ----------------------

WORKFLOW_JS = "template/{% if engine == 'workflow' %}workflow.js{% endif %}.jinja"
FALLBACK_MD = "template/{% if engine == 'workflow' %}fallback.md{% endif %}.jinja"


def _before_the_engine_question() -> store.Files:
    """The real template as it was before it asked for an engine: no question, no workflow files."""
    files = dict(real_files())
    del files[WORKFLOW_JS], files[FALLBACK_MD]
    mode, data = files["copier.yml"]
    text = data.decode()
    start = text.index("\nengine:\n")
    files["copier.yml"] = (mode, (text[:start] + text[text.index("\nreturn_budget:\n") :]).encode())
    mode, data = files[SKILL_TPL]
    old = data.decode().replace("{%- set wf = engine == 'workflow' -%}", "{%- set wf = false -%}")
    files[SKILL_TPL] = (mode, old.encode())
    return files


def test_a_skill_from_before_the_engine_question_updates_to_the_prompt_engine(env):
    build_store(env.config, {V1: _before_the_engine_question(), V2: real_files()})
    skill = generate(env.config, V1, env.config / "skills" / "demo")
    assert "engine" not in yaml.safe_load((skill / ANSWERS).read_text())
    md = skill / "SKILL.md"
    md.write_text(md.read_text() + "\nMy closing note.\n")

    outcome = updating.update(("demo",), env.config, env.project, to_tag=V2)
    [r] = outcome.skills
    assert (r.status, r.conflicts, outcome.exit_code) == (updating.UPDATED, [], 0)
    assert yaml.safe_load((skill / ANSWERS).read_text())["engine"] == "prompt"
    assert not (skill / "workflow.js").exists() and not (skill / "fallback.md").exists()
    fresh = generate(env.config, V2, env.home.parent / "fresh" / "demo")
    assert md.read_text() == (fresh / "SKILL.md").read_text() + "\nMy closing note.\n"


def test_a_workflow_skill_keeps_its_engine_and_user_edits_across_versions(env):
    v1 = real_files()
    v2 = dict(v1)
    for path, line in (
        (WORKFLOW_JS, "// Template v2 adds this line.\n"),
        (FALLBACK_MD, "Template v2 note.\n"),
    ):
        mode, data = v1[path]
        v2[path] = (mode, data + line.encode())
    build_store(env.config, {V1: v1, V2: v2})
    skill = generate(env.config, V1, env.config / "skills" / "demo", {"engine": "workflow"})
    script = skill / "workflow.js"
    script.write_text(
        script.read_text().replace("const MAX_PARALLEL = 1", "const MAX_PARALLEL = 1 // mine")
    )
    fallback = skill / "fallback.md"
    fallback.write_text("My fallback preface.\n" + fallback.read_text())

    outcome = updating.update(("demo",), env.config, env.project, to_tag=V2)
    [r] = outcome.skills
    assert (r.status, r.conflicts, outcome.exit_code) == (updating.UPDATED, [], 0)
    assert yaml.safe_load((skill / ANSWERS).read_text())["engine"] == "workflow"
    text = script.read_text()
    assert "const MAX_PARALLEL = 1 // mine" in text and text.endswith(
        "// Template v2 adds this line.\n"
    )
    assert fallback.read_text().startswith("My fallback preface.\n")
    assert fallback.read_text().endswith("Template v2 note.\n")
