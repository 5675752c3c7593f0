"""Issue 21: what the generated skill's frontmatter lets Claude Code run without asking.

Run with the client's permission checks ON (no ``--dangerously-skip-permissions``): in ``-p`` a
Bash call that nothing allows is refused ("requires approval") instead of asked about. The
scripted orchestrator loads the skill, then runs its state script the way the body says, and a
second command that only LOOKS like it (``python3 -c … scripts/state.py``). What came back shows
which profile's frontmatter pre-approves what (docs/skill.md, "Permissions", rests on this).
"""

from __future__ import annotations

import re

import pytest

from .fake_api import Request, tool_use

SKILL = "perm-audit"


def _state(req: Request) -> str:
    """The state script's path as the loaded body names it (``${CLAUDE_SKILL_DIR}`` filled in)."""
    found = re.search(r"python3 (\S+/scripts/state\.py) resume\b", req.text)
    assert found, "the skill body names no state.py command: " + req.text[-600:]
    return found.group(1)


def _bash(command: str) -> dict:
    return tool_use("Bash", {"command": command, "description": "state script"})


@pytest.mark.parametrize("profile", ["portable", "claude-code", "portable+exact-rule"])
def test_what_the_frontmatter_pre_approves(claude, fake_api, profile):
    answer = profile.split("+")[0]
    claude.spawnkit("new", SKILL, "--defaults", "--scope", "user", "-d", f"profile={answer}")
    script = claude.config_dir / "skills" / SKILL / "scripts" / "state.py"
    # what docs/skill.md advises for a headless run of a default skill: the exact path
    extra = ("--allowedTools", f"Bash(python3 {script} *)") if "exact" in profile else ()
    # A skill with allowed-tools is itself approved once (in -p it would be refused: "Execute
    # skill: …. The user can add the allow rule Skill(…)"): the rule stands for that approval.
    claude.write_settings({"permissions": {"allow": [f"Skill({SKILL})"]}})
    marker = claude.project / "ran-arbitrary-python"
    calls: dict[str, dict] = {}

    def remember(name: str, block: dict) -> dict:
        calls[name] = block
        return block

    lookalike = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('x')"
    main = fake_api.conversation(
        "PERM-ORCH",
        tool_use("Skill", {"skill": SKILL}),
        lambda req: remember("resume", _bash(f"python3 {_state(req)} resume")),
        lambda req: remember("lookalike", _bash(f'python3 -c "{lookalike}" {_state(req)} resume')),
        "done",
    )
    claude.run(f"PERM-ORCH: run the {SKILL} skill", skip_permissions=False, extra_args=extra)

    resume = main.request_with_result(calls["resume"]["id"]).tool_result(calls["resume"]["id"])
    lookalike_ran = marker.exists()
    if profile == "portable":
        # no allowed-tools: the skill's own state script needs the user's approval
        assert resume.is_error and "approval" in resume.text.lower(), resume.text
        assert not lookalike_ran
    elif "exact" in profile:
        # the exact path allowed for the run: the script runs, the look-alike does not
        assert "Nothing to resume" in resume.text, resume.text
        assert not lookalike_ran
    else:
        # allowed-tools "Bash(python3 *scripts/state.py *)": the script runs unasked, and so
        # does any python3 command that merely ends in that path
        assert "Nothing to resume" in resume.text, resume.text  # it ran (exit 3: no run yet)
        assert lookalike_ran, "the wildcard grant did not cover the look-alike command"
