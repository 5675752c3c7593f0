"""The copier template renders working, protocol-complete skills for every kind of answer set."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import skills_ref
import yaml
from skill_render import REPO, render, split_skill, template_copy
from skills_ref.parser import parse_frontmatter

from spawnkit.standard import protocol

P = protocol.load()
SPEC = P["skill_spec"]
STATE = "python3 ${CLAUDE_SKILL_DIR}/scripts/state.py"


def make_steps(count: int) -> list[dict[str, str]]:
    return [
        {
            "name": f"check-{i}",
            "job": f"Check area {i} and record each problem with its file and line.",
        }
        for i in range(1, count + 1)
    ]


ANSWER_SETS: dict[str, dict[str, Any]] = {
    "defaults": {},
    "claude-code-status-only-parallel-12-hooks": {
        "profile": "claude-code",
        "return_style": "status-only",
        "max_parallel": 2,
        "steps": make_steps(12),
        "skill_hooks": True,
    },
    "portable-status-only-single-step": {"return_style": "status-only", "steps": make_steps(1)},
    "claude-code-summary-parallel-custom": {
        "profile": "claude-code",
        "max_parallel": 2,
        "checkpoint_every": 1,
        "return_budget": 300,
        "reports_dir": "out/audit-reports",
        "steps": make_steps(5),
    },
    "portable-summary-parallel-12": {
        "max_parallel": 2,
        "checkpoint_every": 2,
        "steps": make_steps(12),
    },
    "portable-summary-sequential-12": {"steps": make_steps(12)},
    "workflow-defaults": {"engine": "workflow"},
    "workflow-claude-code-status-only-parallel-12-hooks": {
        "engine": "workflow",
        "profile": "claude-code",
        "return_style": "status-only",
        "max_parallel": 2,
        "steps": make_steps(12),
        "skill_hooks": True,
        "return_budget": P["workflow"]["min_return_budget"],
    },
    "workflow-summary-parallel-custom": {
        "engine": "workflow",
        "max_parallel": 2,
        "checkpoint_every": 1,
        "return_budget": 300,
        "reports_dir": "out/audit-reports",
        "steps": make_steps(5),
    },
}


def answers_for(name: str) -> dict[str, Any]:
    """The full answers of a set, defaults filled in the way the template fills them."""
    given = ANSWER_SETS[name]
    return {
        "engine": "prompt",
        "profile": "portable",
        "return_style": "summary",
        "max_parallel": 1,
        "checkpoint_every": P["checkpoint_every"],
        "return_budget": P["return_budget_tokens"],
        "reports_dir": ".demo-skill-reports/",
        "skill_hooks": False,
        **given,
        "steps": given.get("steps")
        or [{"name": n} for n in ("survey", "analyze", "verify", "summarize")],
    }


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return template_copy(tmp_path_factory.mktemp("tpl"))


@pytest.fixture(scope="module")
def skills(source, tmp_path_factory) -> dict[str, Path]:
    made = {}
    for name, data in ANSWER_SETS.items():
        made[name] = render(
            source, tmp_path_factory.mktemp(name) / "demo-skill", skill_name="demo-skill", **data
        )
    return made


def steps_text(skill: Path) -> str:
    """Where the orchestrator finds the steps and their prompts: the SKILL.md body, and with
    the workflow engine its fallback.md (read only when workflows are turned off)."""
    _, body = split_skill(skill)
    fallback = skill / "fallback.md"
    return body + (fallback.read_text(encoding="utf-8") if fallback.exists() else "")


def load_state_module(skill: Path):
    spec = importlib.util.spec_from_file_location(
        f"state_{skill.parent.name}", skill / "scripts" / "state.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ANSWER_SETS)
def test_frontmatter_parses_and_has_only_allowed_keys(skills, name):
    answers = answers_for(name)
    front, _ = split_skill(skills[name])
    allowed = set(SPEC["portable_keys"])
    if answers["profile"] == "claude-code":
        allowed |= set(SPEC["claude_code_keys"])
    assert set(front) <= allowed
    assert front["name"] == "demo-skill" == skills[name].name
    assert 1 <= len(front["description"]) <= SPEC["description_max_length"]
    assert ("allowed-tools" in front) == (answers["profile"] == "claude-code")
    assert ("hooks" in front) == bool(answers["skill_hooks"])
    # the reference validator's own (strictyaml) parser agrees
    strict, _ = parse_frontmatter((skills[name] / "SKILL.md").read_text(encoding="utf-8"))
    assert strict["description"] == front["description"]


@pytest.mark.parametrize("name", ANSWER_SETS)
def test_reference_validator_accepts_the_skill(skills, name):
    problems = skills_ref.validate(skills[name])
    if answers_for(name)["skill_hooks"]:
        # `hooks` is a Claude Code key the portable spec does not know; nothing else may be wrong
        assert len(problems) == 1 and "hooks" in problems[0]
    else:
        assert problems == []


def test_reference_validator_cli_accepts_the_default_skill(skills):
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from skills_ref.cli import main; main()",
            "validate",
            str(skills["defaults"]),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_skill_hooks_match_the_protocol(skills):
    front, _ = split_skill(skills["claude-code-status-only-parallel-12-hooks"])
    hooks = P["hooks"]
    expected: dict[str, list[dict[str, Any]]] = {}
    for entry in hooks["events"]:
        group: dict[str, Any] = {
            "hooks": [
                {
                    "type": "command",
                    "command": hooks["command"],
                    "timeout": hooks["timeout_seconds"],
                }
            ]
        }
        if "matcher" in entry:
            group = {"matcher": entry["matcher"], **group}
        expected.setdefault(entry["event"], []).append(group)
    assert front["hooks"] == expected
    assert front["hooks"]["PreToolUse"][0]["matcher"] == "Agent|Task"
    assert set(front["hooks"]) == {
        "PreToolUse",
        "PostToolUse",
        "SubagentStart",
        "SubagentStop",
        "PostToolBatch",
        "UserPromptSubmit",
        "Stop",
    }


@pytest.mark.parametrize("name", ANSWER_SETS)
def test_body_carries_every_protocol_element(skills, name):
    a = answers_for(name)
    _, body = split_skill(skills[name])
    rd = a["reports_dir"].rstrip("/") + "/"
    budget = a["return_budget"]
    assert "~/.claude/standards/CONTEXT_MANAGEMENT.md" in body
    assert f"`{STATE} resume`" in body and f"`{STATE} init`" in body
    assert "Resuming — X/Y steps complete, next: STEP" in body
    assert "Exit 0" in body and "Exit 3" in body and "Exit 2" in body
    assert f"at most {budget} tokens" in body
    assert f"`{rd}{P['state_file_pattern']}`" in body
    assert "[3/8] step: key metric — report path" in body
    assert "Never read full reports" in body and "never open a report" in body
    assert f"## 4. Checkpoint every {a['checkpoint_every']} step" in body
    assert f"`{STATE} checkpoint`" in body and f"`{STATE} finish`" in body
    # fallback.md (workflow engine) writes the skill's folder as SKILL_DIR: SKILL.md names it
    state = "python3 SKILL_DIR/scripts/state.py" if a["engine"] == "workflow" else STATE
    assert f"{state} step STEP --status complete --report {rd}STEP.md" in steps_text(skills[name])
    assert len(body.splitlines()) <= SPEC["body_max_lines"]


@pytest.mark.parametrize("name", ANSWER_SETS)
def test_every_step_has_a_prompt_block_with_the_return_contract(skills, name):
    a = answers_for(name)
    rd = a["reports_dir"].rstrip("/") + "/"
    blocks = re.findall(r"^~~~text\n(You are .*?)\n~~~$", steps_text(skills[name]), re.S | re.M)
    assert len(blocks) == len(a["steps"])
    for index, (block, step) in enumerate(zip(blocks, a["steps"], strict=True), 1):
        report = f"{rd}{step['name']}.md"
        if a["return_style"] == "status-only":
            handoff = rd + P["handoff_file_pattern"].format(step=step["name"])
            contract = protocol.handoff_block(
                budget=a["return_budget"], report=report, handoff=handoff
            )
        else:
            contract = protocol.return_block(budget=a["return_budget"], report=report)
        assert block.endswith(contract)
        assert (
            f'You are the "{step["name"]}" sub-agent (step {index} of {len(a["steps"])})' in block
        )
        for marker in P["return_contract_markers"]:
            assert marker in block


@pytest.mark.parametrize("name", ANSWER_SETS)
def test_parallel_wording_and_batches(skills, name):
    a = answers_for(name)
    body = steps_text(skills[name])
    n = len(a["steps"])
    if a["max_parallel"] == 1:
        assert "strictly one sub-agent at a time: at most 1 sub-agent in parallel" in body
        assert "strictly one at a time" in body
        assert "### Batch" not in body
    else:
        assert f"at most {a['max_parallel']} sub-agents in parallel" in body
        batches = re.findall(r"^### Batch (\d+)$", body, re.M)
        assert [int(b) for b in batches] == list(range(1, -(-n // a["max_parallel"]) + 1))
    assert set(re.findall(r"at most (\d+) sub-agents? in parallel", body)) == {
        str(a["max_parallel"])
    }


@pytest.mark.parametrize("name", ANSWER_SETS)
def test_checkpoints_follow_the_interval(skills, name):
    a = answers_for(name)
    body = steps_text(skills[name])
    n, k, par = len(a["steps"]), a["checkpoint_every"], a["max_parallel"]
    ends = [min(b + par, n) for b in range(0, n, par)][
        :-1
    ]  # completed steps after each batch but the last
    expected = sum(1 for i, end in enumerate(ends) if end // k > (ends[i - 1] if i else 0) // k)
    assert body.count("**Checkpoint:**") == expected


@pytest.mark.parametrize("name", ANSWER_SETS)
def test_state_script_is_baked_from_answers_and_protocol(skills, name):
    a = answers_for(name)
    module = load_state_module(skills[name])
    assert module.SKILL == "demo-skill"
    assert module.STEPS == [s["name"] for s in a["steps"]]
    assert module.REPORTS_DIR == a["reports_dir"].rstrip("/") + "/"
    assert module.RESUME_WINDOW_MINUTES == P["resume_window_minutes"]
    assert module.CHECKPOINT_EVERY == a["checkpoint_every"]
    assert module.PROGRESS_LINE == P["progress_line_format"]
    assert module.STATE_FILE_REGEX.pattern == P["state_file_regex"]
    assert (skills[name] / "scripts" / "state.py").stat().st_mode & 0o111


@pytest.mark.parametrize("name", ANSWER_SETS)
def test_answers_file_records_the_answers_but_not_the_protocol(skills, name):
    a = answers_for(name)
    answers = yaml.safe_load((skills[name] / ".copier-answers.yml").read_text(encoding="utf-8"))
    assert "protocol" not in answers
    assert answers["skill_name"] == "demo-skill"
    for key in (
        "engine",
        "profile",
        "return_style",
        "max_parallel",
        "checkpoint_every",
        "return_budget",
        "reports_dir",
    ):
        assert answers[key] == a[key]
    assert [s["name"] for s in answers["steps"]] == [s["name"] for s in a["steps"]]
    assert ("skill_hooks" in answers) == (a["profile"] == "claude-code")
    assert answers["_src_path"]


DESCRIPTIONS = [
    "Quotes \"double\" and 'single': colons, # hashes, and a trailing backslash \\",
    "Unicode: naïve café, Straße, 日本語, emoji 😀🚀, an em dash — and ellipsis…",
    "Line one\nline two: with colon\n\n- not a list item\ttab",
    "--- starts like a document marker, and ----- runs --- of dashes ------",
    "yes",
    "null",
    "{not: a mapping} [not, a list] *not_alias &not_anchor !not_tag %percent @at `tick`",
    "   leading and trailing spaces   ",
    "x" * SPEC["description_max_length"],
]


@pytest.mark.parametrize("description", DESCRIPTIONS, ids=range(len(DESCRIPTIONS)))
def test_description_survives_yaml_quoting(source, tmp_path, description):
    skill = render(source, tmp_path / "quoting", description=description)
    front, _ = split_skill(skill)
    assert front["description"] == description
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    strict, _ = parse_frontmatter(
        text
    )  # the reference validator splits on '---' and uses strictyaml
    assert strict["description"] == description
    assert skills_ref.validate(skill) == []
    assert text.count("---") == 2  # nothing in the frontmatter can be mistaken for its fence


BAD_ANSWERS = [
    {"skill_name": "Bad_Name"},
    {"skill_name": "a" * (SPEC["name_max_length"] + 1)},
    {"skill_name": "trailing-"},
    {"description": ""},
    {"description": "has <angle> brackets"},
    {"description": "x" * (SPEC["description_max_length"] + 1)},
    {"description": "a bell \x07 character"},
    {"purpose": ""},
    {"purpose": "two\nlines"},
    {"steps": []},
    {"steps": make_steps(P["template"]["max_steps"] + 1)},
    {"steps": [{"name": "Scan", "job": "x"}]},
    {"steps": [{"name": "scan", "job": ""}]},
    {"steps": [{"name": "scan", "job": "two\nlines"}]},
    {"steps": [{"name": "scan", "job": "x", "extra": 1}]},
    {"steps": [{"name": "scan", "job": "x"}, {"name": "scan", "job": "y"}]},
    {"steps": "scan"},
    {"return_budget": 0},
    {"return_budget": P["return_budget_tokens"] + 1},
    {"max_parallel": 0},
    {"max_parallel": P["max_parallel"] + 1},
    {"checkpoint_every": 0},
    {"checkpoint_every": P["checkpoint_every"] + 1},
    {"reports_dir": "../outside"},
    {"reports_dir": "/abs/path"},
    {"reports_dir": "has space/"},
    {"reports_dir": "a/./b"},
    {"profile": "other"},
    {"return_style": "verbose"},
]


@pytest.mark.parametrize("answers", BAD_ANSWERS, ids=[json.dumps(a)[:40] for a in BAD_ANSWERS])
def test_bad_answers_are_refused_and_nothing_is_written(source, tmp_path, answers):
    dest = tmp_path / "refused"
    with pytest.raises(ValueError):
        render(source, dest, **answers)
    assert not dest.exists()


def test_defaults_follow_the_folder_name(source, tmp_path):
    skill = render(source, tmp_path / "folder-named")
    assert split_skill(skill)[0]["name"] == "folder-named"
    assert load_state_module(skill).REPORTS_DIR == ".folder-named-reports/"


def test_a_folder_name_that_breaks_the_spec_is_refused(source, tmp_path):
    """Plain ``copier copy --defaults <repo> Bad_Name`` must not make a skill named otherwise
    than its folder (SP007): the folder's name is the default and the validator refuses it."""
    with pytest.raises(
        ValueError, match="'Not_Valid' is not a valid skill name.*rename the folder"
    ):
        render(source, tmp_path / "Not_Valid")
    assert not (tmp_path / "Not_Valid").exists()


def test_template_reads_its_numbers_from_protocol_json(tmp_path):
    """Change protocol.json alone: defaults, limits, texts and the baked script all follow."""
    source = template_copy(tmp_path / "tpl")
    data = json.loads((source / "standards" / "protocol.json").read_text(encoding="utf-8"))
    data.update(
        return_budget_tokens=400, checkpoint_every=2, resume_window_minutes=45, max_parallel=3
    )
    data["return_block"][0] = "RETURN CONTRACT (edited for this test):"
    data["reports_dir_pattern"] = "out/{skill}-runs/"
    (source / "standards" / "protocol.json").write_text(json.dumps(data), encoding="utf-8")

    skill = render(source, tmp_path / "x" / "demo-skill", max_parallel=3)
    _, body = split_skill(skill)
    assert "at most 400 tokens" in body and "at most 500 tokens" not in body
    assert "RETURN CONTRACT (edited for this test):" in body
    assert "at most 3 sub-agents in parallel" in body
    assert "## 4. Checkpoint every 2 steps" in body
    module = load_state_module(skill)
    assert module.RESUME_WINDOW_MINUTES == 45 and module.REPORTS_DIR == "out/demo-skill-runs/"
    with pytest.raises(ValueError):
        render(source, tmp_path / "y" / "demo-skill", return_budget=450)


def _copier_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "copier", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_plain_copier_copy_of_the_repository_works(tmp_path):
    done = _copier_cli("copy", "--defaults", str(REPO), "demo-audit", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    skill = tmp_path / "demo-audit"
    assert split_skill(skill)[0]["name"] == "demo-audit"
    assert skills_ref.validate(skill) == []
    answers = yaml.safe_load((skill / ".copier-answers.yml").read_text(encoding="utf-8"))
    assert Path(answers["_src_path"]).resolve() == REPO


def test_plain_copier_copy_of_a_tagged_release_records_the_version(tmp_path):
    """What a user of a released template does: copy from a tagged git repository."""
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    release = tmp_path / "spawnkit-release"
    for rel in filter(None, files):
        if (REPO / rel).is_file():
            (release / rel).parent.mkdir(parents=True, exist_ok=True)
            (release / rel).write_bytes((REPO / rel).read_bytes())
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=release, check=True)
    subprocess.run(["git", "add", "-A"], cwd=release, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "release", "--no-verify"], cwd=release, check=True)
    subprocess.run([*git, "tag", "v1.2.3"], cwd=release, check=True)

    done = _copier_cli(
        "copy", "--defaults", "--data", "max_parallel=2", str(release), "tagged-skill", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    answers = yaml.safe_load(
        (tmp_path / "tagged-skill" / ".copier-answers.yml").read_text(encoding="utf-8")
    )
    assert answers["_commit"] == "v1.2.3" and answers["max_parallel"] == 2
    assert skills_ref.validate(tmp_path / "tagged-skill") == []
