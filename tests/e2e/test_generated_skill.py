"""Scenario 5: a skill made by ``spawnkit new`` runs in the real client as its body says.

The scripted orchestrator does only what the loaded SKILL.md says: it takes the commands and the
step-1 prompt from the body it received through the Skill tool, so a broken body breaks the test.
"""

from __future__ import annotations

import json
import re

from spawnkit.standard import protocol

from .fake_api import Request, agent, tool_use
from .scenarios import compact_return

SKILL = "demo-audit"


def _body(req: Request) -> str:
    """The skill body as the model received it (the Skill tool's follow-up message)."""
    text = req.text
    start = text.index("Base directory for this skill:")
    return text[start:]


def _command(req: Request, verb: str) -> str:
    found = re.search(rf"python3 \S+/scripts/state\.py {verb}\b", _body(req))
    assert found, f"the skill body names no `state.py {verb}` command"
    return found.group(0)


def _bash(command: str) -> dict:
    return tool_use("Bash", {"command": command, "description": "run the skill's state script"})


def _first_step_prompt(req: Request) -> str:
    found = re.search(r"### Step 1/\d+: (\S+)\n+~~~text\n(.*?)\n~~~", _body(req), re.S)
    assert found, "the skill body has no step-1 prompt"
    return found.group(2)


def test_a_generated_skill_is_listed_loads_and_its_state_script_runs(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    claude.spawnkit("new", SKILL, "--defaults", "--scope", "user")
    skill_dir = claude.config_dir / "skills" / SKILL
    report = claude.project / f".{SKILL}-reports" / "survey.md"
    calls: dict[str, dict] = {}

    def remember(name: str, block: dict) -> dict:
        calls[name] = block
        return block

    main = fake_api.conversation(
        "S5-ORCH",
        tool_use("Skill", {"skill": SKILL}),
        lambda req: remember("resume", _bash(_command(req, "resume"))),
        lambda req: remember("init", _bash(_command(req, "init"))),
        lambda req: remember("agent", agent(_first_step_prompt(req), f"{SKILL}: survey")),
        lambda req: remember(
            "step",
            _bash(
                f"{_command(req, 'step')} survey --status complete "
                f"--report .{SKILL}-reports/survey.md --metric findings=3"
            ),
        ),
        "Survey recorded.",
    )
    write = tool_use("Write", {"file_path": str(report), "content": "# survey\nfull findings\n"})
    sub = fake_api.conversation(
        'You are the "survey" sub-agent', write, compact_return("survey", str(report))
    )

    run = claude.run(f"S5-ORCH: run the {SKILL} skill")

    # Listed to the model, with its description.
    description = re.search(r'^description: "(.*)"$', (skill_dir / "SKILL.md").read_text(), re.M)
    assert SKILL in main.first.text and description.group(1)[:60] in main.first.text
    # Its body loaded through the Skill tool, ${CLAUDE_SKILL_DIR} resolved.
    loaded = main.requests[1].new_text
    assert f"Base directory for this skill: {skill_dir}" in loaded
    assert f"# {SKILL}" in loaded and "${CLAUDE_SKILL_DIR}" not in loaded
    assert f"python3 {skill_dir}/scripts/state.py resume" in loaded
    # Its state script ran: nothing to resume, a run started, the first step recorded.
    assert "Nothing to resume" in main.request_with_result(calls["resume"]["id"]).new_text
    assert "0/4" in main.request_with_result(calls["init"]["id"]).new_text
    recorded = main.request_with_result(calls["step"]["id"]).tool_result(calls["step"]["id"])
    assert not recorded.is_error and "[1/4] survey" in recorded.text
    # The sub-agent got the skill's own return contract and obeyed it.
    assert protocol.load()["return_block"][0] in sub.first.last_user_text
    assert report.is_file()
    states = list((claude.project / f".{SKILL}-reports").glob(protocol.load()["state_file_glob"]))
    assert len(states) == 1
    assert re.match(protocol.load()["state_file_regex"], states[0].name)
    state = json.loads(states[0].read_text())
    assert state["skill"] == SKILL
    assert state["steps"][0]["status"] == "complete" and state["steps"][0]["metrics"]
    # A compliant skill under enforce: no block, no denial, no warning.
    assert len(sub.requests) == 2 and run.system_messages() == []
    assert all(
        not r.is_error for r in main.last.tool_results() if r.tool_use_id != calls["resume"]["id"]
    )


def test_the_client_reads_tricky_generated_frontmatter_exactly(claude, fake_api):
    """The client lists the skill with its description decoded exactly (quotes, dashes, unicode)."""
    from skill_render import render, template_copy

    description = 'Checks "quotes": colons, # hash, naïve 😀 --- dashes ----- and back\\slashes'
    render(
        template_copy(claude.root / "template"),
        claude.config_dir / "skills" / "quoted-skill",
        description=description,
        profile="claude-code",
        skill_hooks=True,
        return_style="status-only",
    )
    claude.run("hi")
    sent = "\n".join(json.dumps(r.body, ensure_ascii=False) for r in fake_api.requests)
    assert f"quoted-skill: {json.dumps(description, ensure_ascii=False)[1:-1]}" in sent
