"""Issue 31: which skill a launch belongs to, one rule per test, on transcripts in each client's
shape (``skill_transcripts``); where a skill's file is found; the per-skill view."""

from __future__ import annotations

import json
import os

import pytest

from spawnkit.audit.engine import audit
from spawnkit.hosts.builtins import CLAUDE_CODE as BUILTINS
from spawnkit.standard import protocol

from .conftest import run_cli, validate
from .skill_transcripts import Claude, Codex, Copilot

BUDGET = protocol.return_budget()


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An empty HOME: the user's skills folder is this test's."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME"):
        monkeypatch.delenv(name, raising=False)
    return folder


def _read(path):
    (session,) = audit([path]).sessions
    return session


def _skills(path) -> dict[str, str | None]:
    """Each return's skill, by its launch's call id."""
    return {r.tool_use_id: r.skill for r in _read(path).returns}


# --- Claude Code: the client's tag ------------------------------------------------------------


def test_a_tagged_launch_belongs_to_the_skill_its_tag_names(tmp_path, home):
    t = Claude().prompt("go").skill("outer")
    inner = t.launch("tagged inner", tag="inner")  # the tag wins over the open span
    assert _skills(t.write(tmp_path))[inner] == "inner"


def test_where_the_client_tags_an_untagged_launch_belongs_to_no_skill(tmp_path, home):
    t = Claude().prompt("go").skill("fan")
    tagged = t.launch("tagged", tag="fan")
    untagged = t.launch("untagged inside the span")  # the client said: no skill
    assert _skills(t.write(tmp_path)) == {tagged: "fan", untagged: None}


# --- Claude Code without the tag: spans -------------------------------------------------------


def test_a_launch_belongs_to_the_last_skill_invoked_by_the_skill_tool(tmp_path, home):
    t = Claude().prompt("review it")
    before = t.launch("before any skill")
    t.skill("fan")
    inside = t.launch("inside")
    assert _skills(t.write(tmp_path)) == {before: None, inside: "fan"}


def test_a_skill_call_that_failed_starts_no_span(tmp_path, home):
    t = Claude().prompt("go").skill("broken", error=True)
    after = t.launch("after a failed skill call")
    session = _read(t.write(tmp_path))
    assert session.returns[0].skill is None and after
    assert "broken" not in session.skills  # the client loaded nothing: no run


def test_a_slash_name_of_a_custom_command_starts_a_span(tmp_path, home):
    t = Claude().command("wsd:onboard")
    inside = t.launch("inside")
    assert _skills(t.write(tmp_path)) == {inside: "wsd:onboard"}


@pytest.mark.parametrize("builtin", ["clear", "compact", "model", "mcp", "context", "init"])
def test_a_built_in_command_is_no_skill_and_ends_the_span(tmp_path, home, builtin):
    t = Claude().prompt("go").skill("fan")
    t.builtin(builtin)
    after = t.launch("after the built-in")
    session = _read(t.write(tmp_path))
    assert _skills(t.write(tmp_path))[after] is None
    assert list(session.skills) == ["fan"] and builtin in BUILTINS


def test_the_next_real_prompt_ends_the_span(tmp_path, home):
    t = Claude().prompt("go").skill("fan")
    inside = t.launch("inside")
    t.prompt("now something else")
    after = t.launch("after the next prompt")
    assert _skills(t.write(tmp_path)) == {inside: "fan", after: None}


def test_a_compaction_ends_the_span(tmp_path, home):
    t = Claude().prompt("go").skill("fan")
    inside = t.launch("inside")
    t.compact()
    after = t.launch("after the compaction, same turn")
    assert _skills(t.write(tmp_path)) == {inside: "fan", after: None}


def test_another_skills_invocation_ends_the_span(tmp_path, home):
    t = Claude().prompt("go").skill("first")
    one = t.launch("first's")
    t.skill("second")
    two = t.launch("second's")
    assert _skills(t.write(tmp_path)) == {one: "first", two: "second"}


def test_a_notification_or_a_command_body_is_no_prompt(tmp_path, home):
    t = Claude().prompt("go").skill("fan")
    t.read("/home/user/project/.fan-reports/a.md")
    t._user("<task-notification><task-id>x</task-id><status>completed</status></task-notification>")
    t._user("[Request interrupted by user for tool use]")
    inside = t.launch("still inside")
    session = _read(t.write(tmp_path))
    assert _skills(t.write(tmp_path))[inside] == "fan"
    assert [touch.skill for touch in session.report_reads] == ["fan"]


def test_a_message_belongs_to_its_senders_skill_and_is_no_prompt(tmp_path, home):
    """A sub-agent's SendMessage to the orchestrator arrives as a user record: it is its
    sender's skill's (the skill its launch was made in), and it ends no span."""
    t = Claude().prompt("go").skill("fan")
    inside = t.launch("the sender")
    t.message(t.agent_of[inside], "mate")
    still = t.launch("launched after the message")
    t.prompt("next")
    t.message(t.agent_of[inside], "mate")  # it arrives later: still its sender's skill
    session = _read(t.write(tmp_path))
    assert _skills(t.write(tmp_path)) == {inside: "fan", still: "fan"}
    assert [m.skill for m in session.messages] == ["fan", "fan"]
    doc = _by_skill(tmp_path)
    (fan,) = doc["skills"]
    assert fan["messages"] == 2 and fan["messages_over_budget"] == 2
    assert fan["messages_tokens"] == sum(m.tokens for m in session.messages)
    assert doc["unattributed"]["messages"] == 0
    assert fan["findings"]["CM001"] == 4  # two returns and two messages over the budget


def test_a_workflow_whose_script_lies_in_a_skills_folder_is_that_skills(tmp_path, home):
    project = tmp_path / "project"
    script = project / ".claude" / "skills" / "wf-audit" / "workflow.js"
    t = Claude(cwd=str(project)).prompt("run the workflow yourself")
    call = t.workflow(str(script))  # no skill invoked, no tag: its folder says whose it is
    session = _read(t.write(tmp_path / "projects"))
    (run,) = session.workflows
    assert run.skill == "wf-audit" and _skills(t.write(tmp_path / "projects"))[call] == "wf-audit"
    assert session.skills["wf-audit"].runs == 0  # none invoked: the per-skill view counts one


def test_a_workflow_elsewhere_belongs_to_the_skill_running_when_it_started(tmp_path, home):
    t = Claude().prompt("go").skill("fan")
    call = t.workflow("/home/user/project/.claude/workflows/review.js")
    assert _skills(t.write(tmp_path))[call] == "fan"


# --- where a skill's file lies ------------------------------------------------------------------


def _skill_file(folder, name="fan") -> str:
    path = folder / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: {name}\ndescription: x\n---\n", encoding="utf-8")
    return str(path)


def test_the_path_comes_from_the_base_directory_line(tmp_path, home):
    skill_md = _skill_file(home / ".claude" / "plugins" / "p" / ".claude" / "skills")
    t = Claude(cwd=str(tmp_path / "gone")).prompt("go")
    t.skill("fan", base=os.path.dirname(skill_md))
    t.launch("x")
    assert _read(t.write(tmp_path / "projects")).skills["fan"].path == skill_md


def test_the_path_comes_from_the_sessions_folder_then_the_users(tmp_path, home):
    project = tmp_path / "project"
    in_project = _skill_file(project / ".claude" / "skills")
    in_home = _skill_file(home / ".claude" / "skills", "mine")
    t = Claude(cwd=str(project)).prompt("go").skill("fan")
    t.launch("x")
    t.skill("mine")
    t.launch("y")
    command = project / ".claude" / "commands" / "wsd" / "boot.md"
    command.parent.mkdir(parents=True)
    command.write_text("boot\n")
    t.command("wsd:boot")
    session = _read(t.write(tmp_path / "projects"))
    found = {name: run.path for name, run in session.skills.items()}
    assert found == {"fan": in_project, "mine": in_home, "wsd:boot": str(command)}


def test_the_path_never_comes_from_the_folder_the_audit_runs_in(tmp_path, home, monkeypatch):
    here = tmp_path / "here"
    _skill_file(here / ".claude" / "skills")
    monkeypatch.chdir(here)
    t = Claude(cwd=str(tmp_path / "elsewhere")).prompt("go").skill("fan")
    t.launch("x")
    assert _read(t.write(tmp_path / "projects")).skills["fan"].path is None


@pytest.mark.parametrize("name", ["../../etc/x", "a/b", "..", "x\ny"])
def test_a_name_that_is_no_file_name_finds_no_file(tmp_path, home, name):
    _skill_file(tmp_path / "project" / ".claude" / "skills", "etc")
    t = Claude(cwd=str(tmp_path / "project" / ".claude" / "skills" / "x")).prompt("go")
    t.skill(name)
    t.launch("x")
    session = _read(t.write(tmp_path / "projects"))
    assert all(run.path is None for run in session.skills.values())


def test_a_base_directory_outside_any_skill_folder_is_not_reported(tmp_path, home):
    stray = tmp_path / "not-a-skill-root" / "fan"
    _skill_file(stray.parent)
    t = Claude(cwd=str(tmp_path / "gone")).prompt("go").skill("fan", base=str(stray))
    t.launch("x")
    assert _read(t.write(tmp_path / "projects")).skills["fan"].path is None


# --- Copilot CLI and Codex ---------------------------------------------------------------------


def test_copilot_skill_invoked_starts_a_span_a_prompt_or_compaction_ends_it(tmp_path, home):
    project = tmp_path / "project"
    skill_md = _skill_file(project / ".github" / "skills")
    t = Copilot(cwd=str(project)).prompt("review").skill("fan", skill_md)
    inside = t.launch("inside")
    t.compact()
    after_compaction = t.launch("after a compaction")
    t.skill("fan", skill_md)
    again = t.launch("inside again")
    t.prompt("next")
    after_prompt = t.launch("after the next prompt")
    path = t.write(tmp_path / "state")
    assert _skills(path) == {
        inside: "fan",
        after_compaction: None,
        again: "fan",
        after_prompt: None,
    }
    assert _read(path).skills["fan"].path == skill_md and _read(path).skills["fan"].runs == 2


def test_codex_a_skill_message_or_a_read_of_skill_md_starts_a_span(tmp_path, home):
    project = tmp_path / "project"
    skill_md = _skill_file(project / ".agents" / "skills")
    t = Codex(cwd=str(project)).prompt("use $fan").mention("fan", skill_md)
    named = t.launch("named by the user")
    t.compact()
    after_compaction = t.launch("after a compaction")
    t.prompt("another")
    t.shell("sed -n '1,200p' .agents/skills/fan/SKILL.md")  # the model opens it itself
    opened = t.launch("after the model read it")
    t.prompt("and another")
    t.shell("cat README.md")
    plain = t.launch("after the next prompt")
    path = t.write(tmp_path / "sessions")
    assert _skills(path) == {named: "fan", after_compaction: None, opened: "fan", plain: None}
    assert _read(path).skills["fan"].path == skill_md


def test_codex_a_skill_md_outside_any_skill_folder_is_no_invocation(tmp_path, home):
    t = Codex(cwd=str(tmp_path)).prompt("go").shell("cat docs/SKILL.md")
    launched = t.launch("x")
    assert _skills(t.write(tmp_path / "sessions")) == {launched: None}


# --- the per-skill view -----------------------------------------------------------------------


def _by_skill(*roots) -> dict:
    result = run_cli("audit", *map(str, roots), "--by", "skill", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    doc = json.loads(result.stdout)
    validate(doc)
    return doc


def test_per_skill_counters_across_sessions(tmp_path, home):
    project = tmp_path / "project"
    skill_md = _skill_file(project / ".claude" / "skills")
    for n, session in enumerate(("s1", "s2")):
        t = Claude(cwd=str(project), session=session).prompt("go").skill("fan")
        for i in range(n + 1):
            t.launch(f"part {i}")
        t.prompt("ad hoc")
        t.launch("ad hoc look")
        t.write(tmp_path / "projects")
    doc = _by_skill(tmp_path / "projects")
    (fan,) = doc["skills"]
    assert fan["name"] == "fan" and fan["path"] == skill_md
    assert (fan["runs"], fan["sessions"], fan["returns"], fan["over_budget"]) == (2, 2, 3, 3)
    returns = [r for s in doc["sessions"] for r in s["returns"]]
    assert fan["tokens"] == sum(r["tokens"] for r in returns if r["skill"] == "fan")
    assert fan["max_tokens"] == max(r["tokens"] for r in returns if r["skill"] == "fan")
    assert fan["findings"]["CM001"] == 3 and len(fan["evidence"]) >= 3
    assert {e["session"] for e in fan["evidence"]} == {"s1", "s2"}
    outside = doc["unattributed"]
    assert (outside["runs"], outside["returns"], outside["findings"]["CM001"]) == (0, 2, 2)
    assert doc["summary"]["skills"] == 1


def test_two_projects_skills_of_one_name_stay_apart(tmp_path, home):
    for project in ("a", "b"):
        folder = tmp_path / project
        _skill_file(folder / ".claude" / "skills")
        t = Claude(cwd=str(folder), session=f"s-{project}").prompt("go").skill("fan")
        t.launch("x")
        t.write(tmp_path / "projects")
    doc = _by_skill(tmp_path / "projects")
    assert sorted(s["path"] for s in doc["skills"]) == [
        str(tmp_path / p / ".claude" / "skills" / "fan" / "SKILL.md") for p in ("a", "b")
    ]


def test_the_session_findings_go_to_the_skill_whose_run_broke_them(tmp_path, home):
    t = Claude().prompt("go").skill("fan")
    for i in range(protocol.checkpoint_every()):
        t.launch(f"part {i}")
    t.read("/home/user/project/.fan-reports/part-0.md")  # a report read back (CM006)
    session = _read(t.write(tmp_path))
    by_code = {f.code: f.skill for f in session.findings}
    assert by_code["CM003"] == "fan" and by_code["CM006"] == "fan" and by_code["CM001"] == "fan"


def test_a_skill_with_no_returns_still_counts_its_runs(tmp_path, home):
    t = Claude().prompt("go").skill("quiet")
    t.prompt("next")
    t.launch("x")
    doc = _by_skill(t.write(tmp_path).parent)
    (quiet,) = doc["skills"]
    assert (quiet["runs"], quiet["returns"], quiet["tokens"]) == (1, 0, 0)


def test_the_text_view_lists_each_skill_and_the_rest(tmp_path, home):
    t = Claude().prompt("go").skill("fan")
    t.launch("x")
    t.prompt("next")
    t.launch("y")
    result = run_cli("audit", str(t.write(tmp_path).parent), "--by", "skill")
    lines = result.stdout.splitlines()
    assert result.exit_code == 1
    fan = next(line for line in lines if line.startswith("  fan "))
    assert (
        fan.split()[1:4] == ["1", "1", fan.split()[3]]
        and "(its file was not found)" in result.stdout
    )
    assert any(line.startswith("  outside any skill ") for line in lines)
    assert max(len(line) for line in lines if "/" not in line) <= 80
