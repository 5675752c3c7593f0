"""The real entry points, run as Claude Code runs them: a shell command, payload on stdin."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from spawnkit.hook.command import PLUGIN_COMMAND, hook_command, script_path
from spawnkit.standard import protocol

from .conftest import REPO, SCRIPT, copilot_payload, payload

SESSION = "12b7445c-960b-42b8-a9f4-c3f9c33f404e"


def test_enforced_launch_through_the_script(hook):
    proc = hook.script(payload("PreToolUse_Agent"), {"SPAWNKIT_MODE": "enforce"})
    assert (proc.returncode, proc.stderr) == (0, "")
    report = hook.project / ".spawnkit" / "reports" / SESSION / "probe-sub-2ab80d.md"
    assert json.loads(proc.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": {
                "description": "probe sub",
                "prompt": "SUBTASK: do the thing\n\n" + protocol.return_block(500, str(report)),
                "subagent_type": "general-purpose",
            },
        }
    }


def test_blocked_stop_through_the_script(hook):
    data = payload("SubagentStop_first_blocked")
    data["last_assistant_message"] *= 12
    proc = hook.script(data, {"SPAWNKIT_MODE": "enforce"})
    assert proc.returncode == 0 and proc.stderr == ""
    answer = json.loads(proc.stdout)
    assert answer["decision"] == "block"
    saved = hook.project / ".spawnkit" / "returns" / data["session_id"] / f"{data['agent_id']}.md"
    assert str(saved) in answer["reason"]
    assert saved.read_text() == data["last_assistant_message"]


@pytest.mark.parametrize(
    "name",
    [
        "SubagentStart",
        "SubagentStop_foreground",
        "PostToolBatch_two_parallel_agents",
        "PreToolUse_Read",
        "PostToolUse_Write",
        "Stop",
    ],
)
def test_silent_events_through_the_script(hook, name):
    proc = hook.script(payload(name))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


@pytest.mark.parametrize("data", [b"", b"{truncated", b"\xff\xfe"])
def test_bad_stdin_through_the_script(hook, data):
    proc = hook.script(data)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_console_script_and_module_forms(hook):
    data = json.dumps(hook.prepare(payload("PreToolUse_Agent"))).encode()
    env = hook.env | {"SPAWNKIT_MODE": "enforce"}
    exe = Path(sys.executable).with_name("spawnkit-hook")
    outputs = []
    for argv in ([str(exe)], [sys.executable, "-m", "spawnkit.hook"]):
        proc = subprocess.run(argv, input=data, capture_output=True, env=env, timeout=60)
        assert proc.returncode == 0, proc.stderr
        outputs.append(json.loads(proc.stdout))
    assert outputs[0] == outputs[1]
    assert "updatedInput" in outputs[0]["hookSpecificOutput"]


def test_hook_command_survives_a_shell_and_spaces_in_paths(hook, tmp_path):
    odd = tmp_path / "my python's dir"
    odd.mkdir()
    (odd / "python").symlink_to(sys.executable)
    command = hook_command(str(odd / "python"))
    assert command == f"'{tmp_path}/my python'\"'\"'s dir/python' -I -S {script_path()}"
    data = json.dumps(hook.prepare(payload("PreToolUse_Agent"))).encode()
    proc = subprocess.run(
        ["/bin/sh", "-c", command],
        input=data,
        capture_output=True,
        env=hook.env | {"SPAWNKIT_MODE": "enforce"},
        timeout=60,
    )
    assert proc.returncode == 0 and "updatedInput" in json.loads(proc.stdout)["hookSpecificOutput"]


def test_hook_command_defaults_to_this_interpreter():
    assert hook_command() == f"{shlex.quote(sys.executable)} -I -S {shlex.quote(str(SCRIPT))}"
    assert Path(script_path()) == SCRIPT


def test_plugin_command_runs_from_a_copy_of_the_repo(hook, tmp_path):
    """The plugin form needs no pip: a bare checkout (src/ + standards/) is enough."""
    root = tmp_path / "plugin root"
    shutil.copytree(
        REPO / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    shutil.copytree(REPO / "standards", root / "standards")
    data = json.dumps(hook.prepare(payload("PreToolUse_Agent"))).encode()
    env = hook.env | {
        "CLAUDE_PLUGIN_ROOT": str(root),
        "SPAWNKIT_MODE": "enforce",
        "PYTHONPATH": "/nonexistent",
    }
    proc = subprocess.run(
        ["/bin/sh", "-c", PLUGIN_COMMAND.replace("python3", sys.executable, 1)],
        input=data,
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "updatedInput" in json.loads(proc.stdout)["hookSpecificOutput"]


def test_broken_install_still_fails_open(tmp_path):
    root = tmp_path / "broken"
    shutil.copytree(
        REPO / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    (root / "src" / "spawnkit" / "base" / "fastjson.py").write_text(
        "raise ImportError('damaged')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(root / "src/spawnkit/hook/__main__.py")],
        input=b"{}",
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == {
        "systemMessage": "spawnkit-hook could not start (ImportError); reinstall spawnkit. "
        "The tool call went ahead unchanged."
    }


HEAVY = {
    "os",
    "_collections_abc",
    "json",
    "re",
    "pathlib",
    "typing",
    "dataclasses",
    "enum",
    "tempfile",
    "spawnkit.lint",
    "spawnkit.lint.engine",
}
FORBIDDEN = {"copier", "click", "yaml", "jsonschema", "spawnkit.cli"}


def modules_after(hook, data: dict, env: dict[str, str] | None = None) -> set[str]:
    """Modules loaded by one hook run, started exactly like the script (-I -S)."""
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from spawnkit.hook import main; main.run(sys.stdin.buffer.read());"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(REPO / "src")],
        input=json.dumps(hook.prepare(data)).encode(),
        capture_output=True,
        env=hook.env | (env or {}),
        timeout=60,
        check=True,
    )
    return set(proc.stdout.decode().split())


def test_a_sub_agents_stop_counts_checkpoints_without_loading_their_module(hook):
    """SubagentStop runs on every finished sub-agent: it counts toward the CM007 reminder with the
    inlined code, and ``checkpoint`` (the reminder itself) loads only when one is due."""
    from spawnkit.hook import checkpoint, main, return_budget

    assert return_budget.CHECKPOINT == checkpoint.CODE
    assert '"CM007" is checkpoint.CODE' in Path(main.__file__).read_text()
    loaded = modules_after(hook, payload("SubagentStop_foreground"), {"SPAWNKIT_MODE": "enforce"})
    assert "spawnkit.hook.return_budget" in loaded
    assert "spawnkit.hook.checkpoint" not in loaded


@pytest.mark.parametrize(
    "name",
    [
        "SubagentStop_foreground",
        "PreToolUse_Agent",
        "SubagentStart",
        "PostToolBatch_two_parallel_agents",
        "PreToolUse_Read",
    ],
)
def test_fast_events_import_only_what_they_need(hook, name):
    loaded = modules_after(hook, payload(name), {"SPAWNKIT_MODE": "enforce"})
    assert "spawnkit.hook.main" in loaded
    assert not loaded & (HEAVY | FORBIDDEN)


def test_lint_on_write_loads_the_engine_but_no_heavy_dependency(hook):
    target = hook.project / ".claude" / "skills" / "demo" / "SKILL.md"
    target.parent.mkdir(parents=True)
    target.write_text("---\nname: demo\n---\n")
    data = payload("PostToolUse_Write")
    data["tool_input"]["file_path"] = str(target)
    loaded = modules_after(hook, data)
    assert "spawnkit.lint.engine" in loaded
    assert not loaded & FORBIDDEN


@pytest.mark.parametrize("flags", [[], ["-I", "-S"]])
def test_symlinked_script_and_plain_python(hook, tmp_path, flags):
    """A symlink to the script elsewhere, run with or without -I -S, still finds its package."""
    link = tmp_path / "elsewhere" / "spawnkit-hook.py"
    link.parent.mkdir()
    link.symlink_to(SCRIPT)
    data = json.dumps(hook.prepare(payload("PreToolUse_Agent"))).encode()
    env = hook.env | {"SPAWNKIT_MODE": "enforce"}
    proc = subprocess.run(
        [sys.executable, *flags, str(link)], input=data, capture_output=True, env=env, timeout=60
    )
    assert proc.returncode == 0 and proc.stderr == b""
    assert "updatedInput" in json.loads(proc.stdout)["hookSpecificOutput"]


def test_help_version_and_usage_errors(hook):
    run = [sys.executable, "-I", "-S", str(SCRIPT)]
    helped = subprocess.run([*run, "--help"], capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0 and helped.stdout.startswith(
        "usage: spawnkit-hook [--host claude-code|codex|copilot|gemini|qwen] [--event EVENT]"
        " < payload.json"
    )
    version = subprocess.run([*run, "--version"], capture_output=True, text=True, timeout=60)
    assert version.stdout.startswith("spawnkit-hook 0.")
    bad = subprocess.run([*run, "--frobnicate"], capture_output=True, text=True, timeout=60)
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr == "spawnkit-hook: error: unexpected argument '--frobnicate'; see --help\n"
    # An unknown host: exit 1 (a non-blocking error for Claude Code and Codex; Copilot CLI's
    # commands always name their host), nothing on stdout.
    odd = subprocess.run(
        [*run, "--host", "cursor"], input="{}", capture_output=True, text=True, timeout=60
    )
    assert (odd.returncode, odd.stdout) == (1, "")
    assert odd.stderr == (
        "spawnkit-hook: error: unknown host 'cursor'; use one of claude-code, codex, copilot,"
        " gemini, qwen\n"
    )
    for form in (
        ["--host", "codex", "--version"],
        ["--host=codex", "--version"],
        ["--host", "copilot", "--event", "subagentStop", "--version"],
        ["--host=copilot", "--event=preToolUse", "--version"],
    ):
        shown = subprocess.run([*run, *form], capture_output=True, text=True, timeout=60)
        assert shown.stdout.startswith("spawnkit-hook 0.")


def test_a_closed_stdout_still_exits_zero(copilot):
    """The script ends without tearing the interpreter down (a fifth of its run): an answer it
    cannot deliver leaves no buffered text for the teardown to fail on, which made the exit
    status 120, and Copilot CLI denies the tool call of a preToolUse hook that exits non-zero."""
    copilot.use("preToolUse")
    data = json.dumps(copilot.prepare(copilot_payload("preToolUse_task_main"))).encode()
    reader, writer = os.pipe()
    os.close(reader)  # the client stopped reading
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-S", str(SCRIPT), *copilot.args],
            input=data,
            stdout=writer,
            stderr=subprocess.PIPE,
            env=copilot.env,
            timeout=60,
        )
    finally:
        os.close(writer)
    assert (proc.returncode, proc.stderr) == (0, b"")
    # the launch was still counted: the state file went through a descriptor, not a buffer
    assert list((copilot.state_dir / "sessions").glob("*.json"))


def test_a_terminal_on_stdin_gets_a_hint_not_a_hang(hook):
    import pty

    controller, terminal = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-S", str(SCRIPT)],
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        os.close(controller)
        os.close(terminal)
    assert proc.returncode == 2
    assert proc.stderr == "spawnkit-hook: error: expects a hook payload on stdin; see --help\n"


@pytest.mark.parametrize(
    "name",
    [
        "block__SubagentStop_01",
        "run1__PreToolUse_00",
        "run1__SubagentStart_00",
        "run1__PostToolUse_00",
    ],
)
def test_fast_codex_events_import_only_what_they_need(codex, name):
    from .conftest import codex_payload

    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from spawnkit import hosts; from spawnkit.hook import main;"
        "main.run(sys.stdin.buffer.read(), host=hosts.get('codex'));"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(REPO / "src")],
        input=json.dumps(codex.prepare(codex_payload(name))).encode(),
        capture_output=True,
        env=codex.env | {"SPAWNKIT_MODE": "enforce"},
        timeout=60,
        check=True,
    )
    loaded = set(proc.stdout.decode().split())
    assert "spawnkit.hook.main" in loaded and "spawnkit.hosts" in loaded
    assert not loaded & (HEAVY | FORBIDDEN)


def test_importing_the_hook_loads_only_the_standard_library_and_the_hook_package():
    """The hot-path rule, visible in the tree: ``spawnkit.hook`` needs nothing at import but the
    ground floor (``spawnkit.base``)."""
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); before = set(sys.modules);"
        "import spawnkit.hook.main;"
        "print('\\n'.join(sorted(set(sys.modules) - before)))"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(REPO / "src")],
        capture_output=True,
        timeout=60,
        check=True,
    )
    loaded = set(proc.stdout.decode().split())
    ours = {m for m in loaded if m == "spawnkit" or m.startswith("spawnkit.")}
    assert "spawnkit.hook.main" in ours
    assert {m for m in ours if m not in ("spawnkit", "spawnkit.hook", "spawnkit.base")} <= {
        m for m in ours if m.startswith(("spawnkit.hook.", "spawnkit.base."))
    }
    foreign = {m for m in loaded - ours if m.split(".")[0] not in sys.stdlib_module_names}
    assert not foreign, f"non-stdlib modules on the hook's import path: {sorted(foreign)}"
