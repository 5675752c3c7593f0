"""``spawnkit workflow check``: run a script with stubbed agents (quickjs-ng), count and measure."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from spawnkit.cli import cli
from spawnkit.errors import SpawnkitError
from spawnkit.standard import protocol
from spawnkit.workflow.check import FREE_TEXT_CHARS, run

CORPUS = Path(__file__).resolve().parents[1] / "lint" / "workflow-corpus"
META = "export const meta = { name: 'demo', description: 'A demo workflow' }\n"
CAP = protocol.max_parallel()


def js(body: str) -> str:
    return META + body


def cli_run(args: list[str], cwd: Path):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, args, catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.mark.parametrize("n", [CAP, CAP + 1])
def test_peak_concurrency_is_what_the_script_lets_start_together(n):
    body = f"const xs = Array.from({{ length: {n} }}, (_, i) => i)\n"
    body += "const rs = await parallel(xs.map((x) => () => agent('x', { schema: { type: 'object', "
    body += "properties: { ok: { type: 'boolean' } } } })))\nreturn { n: rs.length }\n"
    result = run(js(body))
    assert (result.agents, result.peak, result.result, result.error) == (n, n, f'{{"n":{n}}}', None)


def test_a_limiter_holds_the_peak_and_batches_do_too():
    limiter = (
        "function limiter(max) { let running = 0; const waiting = []\n"
        "  return async (task) => { while (running >= max) await new Promise((r) => waiting.push(r))\n"
        "    running++; try { return await task() } finally { running--; waiting.shift()?.() } } }\n"
        "const limit = limiter(2)\n"
        "await parallel([1, 2, 3, 4, 5].map((x) => () => limit(() => agent('x'))))\n"
        "for (let i = 0; i < 5; i += 2) await parallel([1, 2, 3, 4, 5].slice(i, i + 2).map(() => () => agent('y')))\n"
        "return 'done'\n"
    )
    result = run(js(limiter))
    assert (result.agents, result.peak, result.error) == (10, 2, None)  # 5, then 2 + 2 + 1


def test_answers_are_the_largest_the_schema_allows():
    schema = (
        "{ type: 'object', properties: { s: { type: 'string', maxLength: 7 }, "
        "e: { enum: ['A', 'LONGEST'] }, a: { type: 'array', maxItems: 2, items: { type: 'integer' } } } }"
    )
    result = run(js(f"const r = await agent('x', {{ schema: {schema} }})\nreturn r\n"))
    assert json.loads(result.result) == {"s": "xxxxxxx", "e": "LONGEST", "a": [0, 0]}
    assert result.unbounded == 0
    free = run(js("const t = await agent('x')\nreturn { t }\n"))
    assert len(json.loads(free.result)["t"]) == FREE_TEXT_CHARS and free.unbounded == 1


def test_pipeline_runs_each_item_through_the_stages_without_a_barrier():
    body = (
        "const out = await pipeline(['a', 'b', 'c'], (x) => agent(x), (prev, item, i) => item + i)\n"
        "return out\n"
    )
    result = run(js(body))
    assert (json.loads(result.result), result.agents, result.peak) == (["a0", "b1", "c2"], 3, 3)


@pytest.mark.parametrize(
    "expr, words",
    [
        ("Date.now()", "Date.now() is not available"),
        ("Math.random()", "Math.random() is not available"),
        ("new Date()", "new Date() without arguments"),
        ("null.x", "cannot read property"),
    ],
)
def test_what_throws_in_a_workflow_throws_here(expr, words):
    result = run(js(f"const x = {expr}\nreturn x\n"))
    assert result.error is not None and words.lower() in result.error.lower()
    assert run(js("const d = new Date(0).toISOString()\nreturn d\n")).error is None


def test_hostile_scripts_are_stopped(tmp_path):
    with pytest.raises(SpawnkitError, match="did not finish within 0.5 s"):
        run(js("while (true) {}\n"), seconds=0.5)
    with pytest.raises(SpawnkitError, match="did not finish"):  # a loop after an await
        run(js("await agent('x')\nwhile (true) {}\n"), seconds=0.5)
    assert "stack overflow" in run(js("function f() { return f() }\nf()\n")).error
    assert "out of memory" in run(js("const a = []\nwhile (true) a.push('x'.repeat(1e6))\n")).error
    too_many = run(js("for (let i = 0; i < 2000; i++) await agent('x')\n"))
    assert too_many.agents == 1000 and "more than 1000 agents" in too_many.error
    stuck = run(js("await new Promise(() => {})\nreturn 1\n"))
    assert "never finished" in stuck.error


def test_no_file_or_network_api_is_there():
    for probe in ("require('fs')", "process.env", "fetch('http://127.0.0.1')"):
        assert run(js(f"const x = {probe}\nreturn 1\n")).error is not None


def test_cli_exit_codes_and_json(tmp_path):
    ok = cli_run(["workflow", "check", str(CORPUS / "good-generated-steps.js")], tmp_path)
    assert ok.exit_code == 0
    assert "4 agents, at most 1 at once (cap 2); result " in ok.output
    wide = cli_run(
        [
            "workflow",
            "check",
            "--json",
            str(CORPUS / "bad-parallel-args.js"),
            "--args",
            '{"files": ["a", "b", "c"]}',
        ],
        tmp_path,
    )
    data = json.loads(wide.output)
    assert wide.exit_code == 1 and data["version"] == 1
    assert (data["agents"], data["peak_concurrency"], data["max_parallel"]) == (3, 3, CAP)
    assert data["problems"] == [f"3 agents ran at once, over the cap of {CAP}"]
    budget = cli_run(["workflow", "check", str(CORPUS / "bad-free-text-return.js")], tmp_path)
    assert budget.exit_code == 1 and "over the 500-token return budget" in budget.output
    for args, words in (
        (["README.md"], "is not a workflow script"),
        ([str(CORPUS / "bad-no-meta.js")], "does not start with `export const meta"),
        ([str(CORPUS / "bad-typescript.js")], "not plain JavaScript"),
        ([str(CORPUS / "good-single.js"), "--args", "{nope"], "--args is not JSON"),
        (["missing.js"], "missing.js"),
    ):
        refused = cli_run(["workflow", "check", *args], tmp_path)
        assert refused.exit_code == 2 and words in refused.output, refused.output
        assert "Traceback" not in refused.output


def _result_of(tokens: int) -> str:
    """A script whose result spawnkit's estimate counts at exactly ``tokens``."""
    from spawnkit.tokens import estimate
    from tests.sized_text import sized

    for words in (["status", "done", "report", "written"], ["ok", "step", "saved"]):
        for less in range(8):  # the result is the JSON of the value: its quotes count too
            text = json.dumps(sized(tokens - less, words))
            if estimate(text) == tokens:
                return js(f"await agent('x')\nreturn {text}\n")
    raise AssertionError(f"no result of exactly {tokens} tokens")


@pytest.mark.parametrize(("over", "code"), [(0, 0), (1, 1)])
def test_a_skills_own_budget_and_cap_hold_its_workflow(tmp_path, over, code):
    """A workflow.js beside a skill's answers file is held to that skill's budget (here 200,
    below the standard's 500) at the limit and one token past it; the cap too."""
    from spawnkit.tokens import estimate

    script = tmp_path / "workflow.js"
    script.write_text(_result_of(200 + over))
    assert estimate(script.read_text().split("return ", 1)[1].strip()) == 200 + over
    (tmp_path / ".copier-answers.yml").write_text("return_budget: 200\nmax_parallel: 1\n")
    done = cli_run(["workflow", "check", "--json", str(script)], tmp_path)
    data = json.loads(done.output)
    assert done.exit_code == code, data["problems"]
    assert (data["return_budget"], data["max_parallel"]) == (200, 1)
    assert data["limits_from"] == ".copier-answers.yml"
    text = cli_run(["workflow", "check", str(script)], tmp_path).output
    assert "(budget 200)" in text and "limits from the skill's .copier-answers.yml" in text


def test_without_answers_or_with_unusable_ones_the_standard_holds(tmp_path):
    script = tmp_path / "workflow.js"
    script.write_text(_result_of(300))
    alone = json.loads(cli_run(["workflow", "check", "--json", str(script)], tmp_path).output)
    assert (alone["return_budget"], alone["limits_from"]) == (protocol.return_budget(), "standard")
    for answers in ("return_budget: 0\nmax_parallel: 1\n", "return_budget: true\n", "- a\n", ":"):
        (tmp_path / ".copier-answers.yml").write_text(answers)
        data = json.loads(cli_run(["workflow", "check", "--json", str(script)], tmp_path).output)
        assert (data["return_budget"], data["limits_from"]) == (500, "standard"), answers


def test_the_peak_counts_the_whole_run_not_only_until_the_first_agent_ends():
    """2 agents at once, then 6: the peak is 6 (a count that stopped at the first agent's end
    would say 2; planted in a scratch copy, this test failed on it)."""
    body = (
        "await parallel([1, 2].map((i) => () => agent('first ' + i)))\n"
        "await parallel([1, 2, 3, 4, 5, 6].map((i) => () => agent('then ' + i)))\n"
        "return 'done'\n"
    )
    result = run(js(body))
    assert (result.agents, result.peak, result.error) == (8, 6, None)


def test_without_the_engine_the_refusal_names_the_install_commands(tmp_path, monkeypatch):
    from importlib import metadata

    real = metadata.distribution

    def missing(name):
        if name in ("quickjs-ng", "quickjs"):
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    script = tmp_path / "w.js"
    script.write_text(js("return 1\n"))
    refused = cli_run(["workflow", "check", str(script)], tmp_path)
    assert refused.exit_code == 2 and refused.output.count("\n") == 1, refused.output
    for command in ("pip install quickjs-ng", "pipx inject spawnkit quickjs-ng", "uv tool install"):
        assert command in refused.output


def test_control_characters_from_the_script_are_shown_escaped(tmp_path):
    script = tmp_path / "w.js"
    script.write_text(
        js("await workflow('\\x1b]0;owned\\x07')\nthrow new Error('\\x1b[2Jgone\\rforged')\n")
    )
    done = cli_run(["workflow", "check", str(script)], tmp_path)
    assert done.exit_code == 1
    assert "\x1b" not in done.output and "\r" not in done.output and "\x07" not in done.output
    assert "problem: the script threw: \\x1b[2Jgone\\x0dforged" in done.output


def test_args_nested_too_deep_are_refused_in_one_line(tmp_path):
    script = tmp_path / "w.js"
    script.write_text(js("return 1\n"))
    deep = "[" * 5000 + "]" * 5000
    refused = cli_run(["workflow", "check", str(script), "--args", deep], tmp_path)
    assert refused.exit_code == 2 and "--args is nested more than 64 levels" in refused.output


def test_a_long_script_is_run_and_its_meta_still_required(tmp_path):
    from spawnkit.workflow.check import HEAD_CHARS

    pad = "// " + "x" * 60 + "\n"
    long_body = pad * (HEAD_CHARS // len(pad) + 10) + "return 'ran'\n"
    assert run(js(long_body)).result == '"ran"'
    with pytest.raises(SpawnkitError, match="does not start with `export const meta"):
        run(long_body)
