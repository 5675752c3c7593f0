"""Pure text-in, text-out merging: markers, shapes, problems, idempotence."""

from __future__ import annotations

import json

import pytest

from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm

SCRIPT = "/opt/py/site-packages/spawnkit/hook/__main__.py"
CMD = regs.marked(f"test -f {SCRIPT} && /opt/py/bin/python3 -I -S {SCRIPT}")


def test_markers_identify_only_spawnkit_commands():
    assert regs.is_managed(CMD)
    assert regs.is_managed(CMD + "  ")
    assert not regs.is_managed("spawnkit-hook")  # a name is not a marker: never guess
    assert not regs.is_managed("echo '# spawnkit-managed:v1' && rm x")
    assert not regs.is_managed(None)


def test_install_is_idempotent_and_uninstall_inverts_it_on_its_own():
    text = '{\n  "model": "opus"\n}\n'
    result = sm.install(text, CMD)
    assert sm.install(result.text, CMD).text == result.text
    assert sm.remove(result.text, result.created_keys).text == text


def test_uninstall_without_created_keys_leaves_empty_containers():
    result = sm.install("{}\n", CMD)
    left = json.loads(sm.remove(result.text).text)
    assert left == {"hooks": {r.event: [] for r in regs.registrations()}}


def test_managed_hooks_lists_spawnkit_entries_in_file_order():
    text = sm.install(
        '{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "x"}]}]}}', CMD
    ).text
    found = sm.managed_hooks(text)
    assert [(h.event, h.matcher, h.timeout) for h in found] == [
        (r.event, r.matcher, r.timeout) for r in regs.registrations()
    ]
    assert {h.command for h in found} == {CMD}


def test_set_top_level_edits_in_place_or_appends():
    assert (
        sm.set_top_level('{"a": 1, "mode": "warn"}', "mode", "enforce")
        == '{"a": 1, "mode": "enforce"}'
    )
    assert (
        sm.set_top_level('{\n  "a": 1\n}\n', "mode", "warn")
        == '{\n  "a": 1,\n  "mode": "warn"\n}\n'
    )
    same = '{"mode":"warn"}'
    assert sm.set_top_level(same, "mode", "warn") is same


@pytest.mark.parametrize(
    "hooks, problem",
    [
        ({"Stop": [{"hooks": [{"type": "command"}]}]}, 'needs a non-empty "command"'),
        (
            {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 0}]}]},
            "timeout must be a positive number",
        ),
        ({"Stop": [{"hooks": [{"type": "shell", "command": "x"}]}]}, ".type must be one of"),
        ({"Stop": [{"matcher": "x", "hook": []}]}, "hooks must be a list"),
        ({"Stop": ["echo hi"]}, "is a string, not an object"),
        ({"PreToolUse": [{"matcher": 3, "hooks": []}]}, "matcher must be a string"),
    ],
)
def test_hook_problems_name_the_entry_and_the_fault(hooks, problem):
    found = sm.hook_problems(json.dumps({"hooks": hooks}))
    assert any(problem in f.message for f in found), found
    assert all(f.message.startswith("hooks.") for f in found)


def test_only_strict_events_cost_the_whole_file():
    entry = [{"hooks": [{"type": "command"}]}]
    found = sm.hook_problems(
        json.dumps({"hooks": {"Stop": entry, "PreToolUse": entry, "PermissionRequest": entry}})
    )
    assert [(p.message.split("[")[0], p.fatal) for p in found] == [
        ("hooks.Stop", False),
        ("hooks.PreToolUse", True),
        ("hooks.PermissionRequest", True),
    ]
    assert "ignores this whole settings file" in str(found[1])
    assert "skips this entry" in str(found[0])


def test_valid_hook_types_have_no_problems():
    hooks = {
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "x",
                        "timeout": 1.5,
                        "async": True,
                        "if": "Bash(git *)",
                    },
                    {"type": "command", "command": "x", "note": "unknown keys are tolerated"},
                    {"type": "prompt", "prompt": "ok? $ARGUMENTS"},
                    {"type": "http", "url": "http://127.0.0.1:9/h", "headers": {"A": "b"}},
                    {"type": "mcp_tool", "server": "s", "tool": "t", "input": {}},
                ]
            }
        ]
    }
    assert sm.hook_problems(json.dumps({"hooks": hooks})) == []


def test_a_compact_file_stays_on_one_line():
    result = sm.install('{"model":"opus"}', CMD)
    assert "\n" not in result.text
    assert json.loads(result.text)["model"] == "opus"


def test_generated_commands_are_recognised_byte_for_byte():
    command = regs.installed_command()
    assert regs.is_generated(command) and regs.is_generated(CMD)
    unguarded = regs.marked(f"/opt/py/bin/python3 -I -S {SCRIPT}")
    assert regs.is_generated(unguarded)
    for changed in (
        "nice -n 5 " + command,
        command.replace(" && ", "  && "),
        command + " ",
        regs.marked(f"test -f {SCRIPT} && /opt/py/bin/python3 -I -S /elsewhere/__main__.py"),
        regs.marked("test -f /x/hook.py && /opt/py/bin/python3 -I -S /x/hook.py"),
        regs.marked(f"test -f {SCRIPT} && python3 -I -S {SCRIPT}"),  # not an absolute path
        regs.marked(f"sh -c 'id' ; /opt/py/bin/python3 -I -S {SCRIPT}"),
    ):
        assert regs.is_managed(changed.rstrip()) and not regs.is_generated(changed), changed


@pytest.mark.parametrize("seed", range(40))
def test_the_merged_value_matches_the_text_and_problems_need_no_second_parse(seed: int):
    import random

    rng = random.Random(seed)
    old_script = "/old/spawnkit/hook/__main__.py"
    other = regs.marked(f"test -f {old_script} && /old/py -I -S {old_script}")

    def hook():
        return {
            "type": "command",
            "command": rng.choice([CMD, other, "u", "v # spawnkit-managed:v1"]),
            "timeout": rng.choice([10, 0, "x"]),
        }

    hooks = {
        event: [
            {
                "matcher": rng.choice(["Read", "Bash", "Agent|Task"]),
                "hooks": [hook() for _ in range(rng.randint(0, 3))],
            }
            for _ in range(rng.randint(0, 4))
        ]
        for event in rng.sample(
            ["PreToolUse", "PostToolUse", "Stop", "SubagentStop"], rng.randint(0, 4)
        )
    }
    text = json.dumps({"model": "x", "hooks": hooks}, indent=rng.choice([None, 2, "\t"]))
    result = sm.install(text, CMD)
    assert result.value == json.loads(result.text)
    assert sm.problems_of(result.value) == sm.hook_problems(result.text)
    assert sm.install(result.text, CMD).text == result.text
    removed = sm.remove(result.text, result.created_keys)
    kept = [e.command for e in removed.kept]
    assert all(not regs.is_generated(c) and c != CMD for c in kept)
    assert len(sm.managed_hooks(removed.text)) == len(kept)
