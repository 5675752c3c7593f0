"""The workflow engine's workflow.js: bounded answers, a limiter, skip, retries and a short result.

The script is rendered by real copier and run under Node with the client's globals stubbed
(``workflow_node``); the real client runs it in ``tests/e2e/test_workflow_skill.py``.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from skill_render import render, split_skill, template_copy
from workflow_node import run

from spawnkit import tokens
from spawnkit.standard import protocol

P = protocol.load()
W = P["workflow"]
STEPS = ["survey", "analyze", "verify", "summarize"]
COMPLETE = {"status": "COMPLETE", "metrics": ["findings=1"], "summary": "done"}
FAILED = {"status": "FAILED", "metrics": [], "summary": "could not"}
PARTIAL = {"status": "PARTIAL", "metrics": [], "summary": "half"}
# Characters of every class spawnkit's estimate tells apart, and the two a JSON string escapes.
CHARS = ["a", "B", "1", " ", "-", "~", '"', "\\", "é", "ж", "中", "✅", "\u2028", "\x7f", "\u0301"]


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return template_copy(tmp_path_factory.mktemp("tpl"))


def make(source: Path, where: Path, **data) -> Path:
    return render(source, where / "demo-skill", skill_name="demo-skill", engine="workflow", **data)


@pytest.fixture(scope="module")
def default(source, tmp_path_factory) -> Path:
    return make(source, tmp_path_factory.mktemp("default"))


@pytest.fixture(scope="module")
def batched(source, tmp_path_factory) -> Path:
    steps = [{"name": f"part-{i}", "job": f"Check part {i}."} for i in range(1, 6)]
    return make(source, tmp_path_factory.mktemp("batched"), max_parallel=2, steps=steps)


def schema_of(skill: Path) -> dict:
    ran = run(skill / "workflow.js", delay_ms=0)
    assert ran["ok"], ran
    return ran["calls"][0]["opts"]["schema"]


# --- the script as the client sees it ---------------------------------------------------------


def test_only_the_workflow_engine_writes_workflow_js(source, tmp_path, default):
    plain = render(source, tmp_path / "demo-skill", skill_name="demo-skill")
    assert not (plain / "workflow.js").exists()
    assert (default / "workflow.js").is_file()


def test_meta_comes_first_as_a_literal_and_one_phase_and_agent_run_per_step(default):
    text = (default / "workflow.js").read_text()
    assert text.startswith("export const meta = {\n")
    ran = run(default / "workflow.js")
    assert ran["ok"], ran
    meta = ran["meta"]
    assert meta["name"] == "demo-skill" and meta["description"].startswith("demo-skill: ")
    assert [p["title"] for p in meta["phases"]] == STEPS == ran["phases"]
    assert [c["label"] for c in ran["calls"]] == STEPS
    assert [c["opts"]["phase"] for c in ran["calls"]] == STEPS
    assert text.count("agent(") == len(STEPS) and text.count("phase(") == len(STEPS)
    for banned in ("Date.now", "Math.random", "new Date("):
        assert banned not in text  # the harness makes them throw too, as the client does


def test_every_prompt_names_its_report_and_ends_with_the_workflow_contract(default):
    ran = run(default / "workflow.js", args={"skill_dir": "/skills/demo-skill"})
    for call, name in zip(ran["calls"], STEPS, strict=True):
        report = f".demo-skill-reports/{name}.md"
        contract = "\n".join(W["return_block"]).format(
            budget=P["return_budget_tokens"], report=report
        )
        assert call["prompt"].startswith(f'You are the "{name}" sub-agent (step ')
        assert call["prompt"].endswith(contract)
        for marker in P["return_contract_markers"]:
            assert marker in call["prompt"]


def test_the_record_command_quotes_the_skill_folder(default, tmp_path):
    folder = tmp_path / "it's a skill"
    ran = run(default / "workflow.js", args={"skill_dir": str(folder) + "/"})
    command = re.search(r"record the step: run `(.+?)`", ran["calls"][0]["prompt"]).group(1)
    assert shlex.split(command) == [
        "python3",
        f"{folder}/scripts/state.py",
        "step",
        "survey",
        "--status",
        "complete",
        "--report",
        ".demo-skill-reports/survey.md",
    ]
    assert "checkpoint`" in ran["calls"][0]["prompt"]
    quiet = run(default / "workflow.js")
    assert "record the step" not in quiet["calls"][0]["prompt"]
    assert quiet["result"]["state"].startswith("not recorded")


# --- the answer's schema fits the budget --------------------------------------------------------


def test_tokens_per_char_max_is_the_estimates_worst_character_in_a_json_string():
    """The bound behind every maxLength: no run of admitted characters costs more per character
    (escapes included). Fails when the estimate's weights change: recompute it then."""
    pattern = re.compile(W["text_pattern"])
    worst = 0.0
    for size in (1, 2, 3):
        for combo in itertools.product(CHARS, repeat=size):
            text = "".join(combo) * (48 // size)
            assert pattern.match(text)
            cost = tokens._milli(json.dumps(text, ensure_ascii=False)) - tokens._milli('""')
            worst = max(worst, cost / 1000 / len(text))
    assert worst <= W["tokens_per_char_max"] < worst + 0.01


def test_the_answer_skeleton_fits_its_overhead():
    full = {"status": "COMPLETE", "metrics": [""] * W["metrics_max"], "summary": ""}
    assert tokens.estimate(json.dumps(full, separators=(",", ":"))) < W["answer_overhead_tokens"]


def _largest_answers(schema: dict):
    """Schema-valid answers of the largest size, in the costliest characters."""
    metric = schema["properties"]["metrics"]["items"]["maxLength"]
    summary = schema["properties"]["summary"]["maxLength"]
    for fill, key in itertools.product(['"', "\\", '1"', "a1B", '中"', "✅1"], ["1a", "a1B"]):
        name = (key * metric)[: metric // 2]
        value = (fill * metric)[: metric - len(name) - 1]
        yield {
            "status": "COMPLETE",
            "metrics": [f"{name}={value}"] * schema["properties"]["metrics"]["maxItems"],
            "summary": (fill * summary)[:summary],
        }


@pytest.mark.parametrize(
    "budget", [W["min_return_budget"], W["min_return_budget"] + 1, 333, 499, 500]
)
def test_any_schema_valid_answer_fits_the_return_budget(source, tmp_path, budget):
    schema = schema_of(make(source, tmp_path, return_budget=budget))
    biggest = 0
    for answer in _largest_answers(schema):
        jsonschema.validate(answer, schema)
        biggest = max(
            biggest, tokens.estimate(json.dumps(answer, ensure_ascii=False, separators=(",", ":")))
        )
    assert biggest <= budget
    assert biggest >= budget * 0.9, "the bound wastes the budget"


def test_the_schema_refuses_what_would_not_fit(default):
    schema = schema_of(default)
    props = schema["properties"]
    ok = {"status": "COMPLETE", "metrics": ["a=1"], "summary": "x" * props["summary"]["maxLength"]}
    jsonschema.validate(ok, schema)
    bad = [
        {**ok, "summary": "x" * (props["summary"]["maxLength"] + 1)},
        {**ok, "metrics": ["a=1"] * (props["metrics"]["maxItems"] + 1)},
        {**ok, "metrics": ["a=" + "1" * (props["metrics"]["items"]["maxLength"] - 1)]},
        {**ok, "metrics": ["no key"]},
        {**ok, "summary": "two\nlines"},
        {**ok, "summary": "emoji 😀 costs more"},
        {**ok, "status": "DONE"},
        {**ok, "extra": 1},
    ]
    for answer in bad:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(answer, schema)


# --- the run: limiter, skip, retries, result ---------------------------------------------------


def test_batches_never_run_more_than_the_cap(batched):
    ran = run(batched / "workflow.js")
    assert ran["ok"] and ran["peak"] == 2
    assert ran["result"]["complete"] == [f"part-{i}" for i in range(1, 6)]


def test_the_limiter_holds_the_cap_even_when_the_batches_are_merged(batched):
    """A user who merges the batches into one parallel() still gets the cap; without the
    limiter (its cap raised) the same script runs all five at once."""
    text = (batched / "workflow.js").read_text()
    merged = text.replace("\n])\n\nawait parallel([", "")
    assert merged.count("await parallel([") == 1
    assert run(merged)["peak"] == 2
    assert run(merged.replace("const MAX_PARALLEL = 2", "const MAX_PARALLEL = 9"))["peak"] == 5


def test_skip_runs_only_the_other_steps(default):
    ran = run(default / "workflow.js", args={"skip": ["survey", "analyze"]})
    assert [c["label"] for c in ran["calls"]] == ["verify", "summarize"]
    assert ran["result"] == {
        "complete": ["verify", "summarize"],
        "skipped": ["survey", "analyze"],
        "reports": ".demo-skill-reports/{step}.md",
        "state": "not recorded: pass args.skill_dir",
    }
    as_text = run(default / "workflow.js", args=json.dumps({"skip": ["survey"]}))
    assert [c["label"] for c in as_text["calls"]] == STEPS[1:]


@pytest.mark.parametrize(
    "args, message",
    [
        ({"skip": ["nope"]}, "args.skip must list steps of this skill; they are: survey, analyze"),
        ({"skip": "survey"}, "args.skip must list steps"),
        (["survey"], "args must be an object"),
        ({"skill_dir": ""}, "args.skill_dir must be the path"),
        ({"skill_dir": "a\nb"}, "args.skill_dir must be the path"),
    ],
)
def test_bad_args_stop_the_workflow_before_any_agent(default, args, message):
    ran = run(default / "workflow.js", args=args)
    assert not ran["ok"] and message in ran["error"] and ran["calls"] == []


def test_a_failed_step_is_retried_once_then_later_steps_do_not_run(default):
    ran = run(default / "workflow.js", answers={"analyze": [FAILED, None]})
    assert [c["label"] for c in ran["calls"]] == ["survey", "analyze", "analyze"]
    assert ran["result"]["complete"] == ["survey"]
    assert ran["result"]["failed"] == ["analyze"]
    assert ran["result"]["not_run"] == ["verify", "summarize"]
    again = run(default / "workflow.js", answers={"analyze": [None, PARTIAL]})
    assert again["result"]["partial"] == ["analyze"] and "failed" not in again["result"]


def test_a_failure_in_a_batch_lets_its_sibling_finish(batched):
    ran = run(batched / "workflow.js", answers={"part-1": [FAILED, FAILED]})
    assert ran["result"]["complete"] == ["part-2"]
    assert ran["result"]["not_run"] == ["part-3", "part-4", "part-5"]


@pytest.mark.parametrize("budget", [W["min_return_budget"], P["return_budget_tokens"]])
def test_the_result_fits_the_budget_for_the_largest_skill(source, tmp_path, budget):
    """Twelve steps with the longest names, a long reports folder: every mix of outcomes."""
    longest = P["template"]["step_name_max_length"]
    names = [f"s{i:02d}-" + "a1b2" * longest for i in range(P["template"]["max_steps"])]
    steps = [{"name": name[:longest], "job": "Do it."} for name in names]
    skill = make(
        source,
        tmp_path,
        steps=steps,
        return_budget=budget,
        max_parallel=2,
        reports_dir="deep/" + "x" * 80 + "/reports",
    )
    names = [s["name"] for s in steps]
    mixes = [
        {},
        {"skip": names[:5]},
        {"answers": {names[0]: [FAILED, FAILED]}},
        {"answers": {names[6]: [FAILED, FAILED]}, "skip": names[:3]},
        {"answers": {n: [PARTIAL] for n in names[::2]}},
        {"skip": names},
    ]
    limit = int(budget / W["tokens_per_char_max"])
    for mix in mixes:
        ran = run(
            skill / "workflow.js",
            args={"skip": mix.get("skip", []), "skill_dir": "/s"},
            answers=mix.get("answers"),
            delay_ms=0,
        )
        assert ran["ok"], ran
        text = json.dumps(ran["result"], separators=(",", ":"))
        assert len(text) <= limit and tokens.estimate(text) <= budget, (mix, text)
        counts = {
            k: v if isinstance(v, int) else len(v)
            for k, v in ran["result"].items()
            if k != "reports"
        }
        assert sum(counts.values()) == len(names), text


# --- SKILL.md ------------------------------------------------------------------------------------


def test_skill_md_spells_out_the_workflow_call_and_the_fallback(default):
    _, body = split_skill(default)
    call = re.search(r"^Workflow\((\{.*\})\)$", body, re.M).group(1)
    parsed = json.loads(call.replace("${CLAUDE_SKILL_DIR}", "/x/demo-skill"))
    assert parsed == {
        "scriptPath": "/x/demo-skill/workflow.js",
        "args": {"skill_dir": "/x/demo-skill", "skip": []},
    }
    for needed in (
        "resumeFromRunId",
        "disableWorkflows",
        "CLAUDE_CODE_DISABLE_WORKFLOWS",
        "`Complete:` line",
        "## 3. Fallback: workflows turned off",
        "${CLAUDE_SKILL_DIR}/fallback.md",
    ):
        assert needed in body
    assert "~~~text\nYou are" not in body, "the fallback prompts belong in fallback.md"
    fallback = (default / "fallback.md").read_text()
    assert "## 1. Steps" in fallback and "## 2. Sub-agent prompts" in fallback
    assert fallback.count("RETURN CONTRACT (spawnkit context-management protocol):") == len(STEPS)


def test_the_resume_check_names_the_complete_steps(default, tmp_path):
    state = [sys.executable, str(default / "scripts" / "state.py")]
    subprocess.run([*state, "init"], cwd=tmp_path, check=True, capture_output=True)
    (tmp_path / ".demo-skill-reports" / "survey.md").write_text("x")
    subprocess.run(
        [
            *state,
            "step",
            "survey",
            "--status",
            "complete",
            "--report",
            ".demo-skill-reports/survey.md",
        ],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    out = subprocess.run([*state, "resume"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert out.splitlines()[-1] == "Complete: survey"


LINTED = {
    "defaults": {},
    "parallel-status-only-hooks": {
        "max_parallel": 2,
        "return_style": "status-only",
        "profile": "claude-code",
        "skill_hooks": True,
    },
    "longest": {
        "steps": [
            {"name": f"step-{i}", "job": "j" * P["template"]["job_max_length"]}
            for i in range(P["template"]["max_steps"])
        ],
        "return_budget": W["min_return_budget"],
    },
}


@pytest.mark.parametrize("name", LINTED)
def test_spawnkit_lint_passes_every_generated_workflow_skill(source, tmp_path, name):
    skill = make(source, tmp_path, **LINTED[name])
    done = subprocess.run(
        [sys.executable, "-m", "spawnkit", "lint", str(skill)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
