"""Issue 25: the bundled skill's review — the host's own model judges a skill, fed with lint's
evidence. The judgement is the model's (scripted here); what is tested is the mechanics: the
client lists the skill for reviews, its body names the review command, and that command, run by
the client's own shell tool, hands the model lint's findings with their evidence as JSON.

The scripted model takes the command from the body it received, so a broken body breaks the test.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from .fake_api import Request, tool_use
from .fake_responses import exec_command
from .test_codex_generated_skill import listed_skills

REVIEWED = (
    "---\nname: fan\ndescription: Audits every module.\n---\n\n"
    "Use the Task tool to launch one sub-agent per module, all in parallel, and merge what they "
    "answer.\n"
)
COMMAND = re.compile(r"`(spawnkit lint --preview --format json) <path>`")


def _review_command(body: str, path: str) -> str:
    found = COMMAND.search(body)
    assert found, "the spawnkit skill's body names no review command"
    return f"{found.group(1)} {path}"


def _assert_evidence(output: str) -> None:
    """What the model gets back: lint's JSON, the skill judged as spawning, each protocol finding
    with the lines it found and what it looked for."""
    report = json.loads(output[output.index("{") : output.rindex("}") + 1])
    (file,) = report["files"]
    assert file["orchestrator"] is True and file["spawns"][0]["line"] == 6
    found = {d["code"]: d for d in file["diagnostics"]}
    assert {"CM001", "CM005"} <= set(found)
    assert found["CM001"]["tier"] == "default" and found["CM001"]["evidence"]
    assert all(d["looked_for"] for c, d in found.items() if c.startswith("CM"))


def _body(req: Request) -> str:
    return req.text[req.text.index("Base directory for this skill:") :]


def test_claude_loads_the_review_and_runs_lint_for_its_evidence(claude, fake_api):
    claude.spawnkit("install", "--yes")
    target = claude.project / ".claude" / "skills" / "fan" / "SKILL.md"
    target.parent.mkdir(parents=True)
    target.write_text(REVIEWED, encoding="utf-8")
    calls: dict[str, dict] = {}

    def lint(req: Request) -> dict:
        command = _review_command(_body(req), str(target))
        calls["lint"] = tool_use("Bash", {"command": command, "description": "lint evidence"})
        return calls["lint"]

    main = fake_api.conversation(
        "REVIEW-ORCH",
        tool_use("Skill", {"skill": "spawnkit"}),
        lint,
        "CM001 breaks — “Use the Task tool to launch one sub-agent per module” (line 6); lint: agrees.",
    )

    claude.run("REVIEW-ORCH: review the fan skill against the protocol")

    # Listed for reviews, and its body loaded with the procedure.
    assert "review a skill against the protocol" in main.first.text
    body = _body(main.requests[2])
    assert "## Review a skill" in body and "CM001 to CM008" in body
    result = main.request_with_result(calls["lint"]["id"]).tool_result(calls["lint"]["id"])
    assert result is not None
    _assert_evidence(result.text)


def _on_login_path(home: Path) -> None:
    """spawnkit where ``pipx install`` puts it, on the PATH a login shell builds: Codex runs
    commands in one (``bash -lc``), which drops the PATH it was started with."""
    bin_dir = home / ".local" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "spawnkit").symlink_to(Path(sys.executable).parent / "spawnkit")
    (home / ".profile").write_text('PATH="$HOME/.local/bin:$PATH"\n', encoding="utf-8")


def test_codex_reads_the_review_and_runs_lint_for_its_evidence(codex, fake_responses):
    codex.spawnkit("install", "--host", "codex", "--yes")
    _on_login_path(codex.home)
    target = codex.project / ".agents" / "skills" / "fan" / "SKILL.md"
    target.parent.mkdir(parents=True)
    target.write_text(REVIEWED, encoding="utf-8")
    calls: dict[str, dict] = {}

    def read(req) -> dict:
        description, path = listed_skills(req.developer_text)["spawnkit"]
        assert "review a skill against the protocol" in description
        calls["read"] = exec_command(f"cat {path}")
        return calls["read"]

    def lint(req) -> dict:
        body = req.tool_result(calls["read"]["call_id"]).text
        calls["lint"] = exec_command(_review_command(body, str(target)))
        return calls["lint"]

    main = fake_responses.conversation("REVIEWC-ORCH", read, lint, "CM001 breaks (line 6).")

    codex.run("REVIEWC-ORCH: review the fan skill against the protocol")

    body = main.request_with_result(calls["read"]["call_id"]).tool_result(calls["read"]["call_id"])
    assert "## Review a skill" in body.text
    out = main.request_with_result(calls["lint"]["call_id"]).tool_result(calls["lint"]["call_id"])
    _assert_evidence(out.text)
