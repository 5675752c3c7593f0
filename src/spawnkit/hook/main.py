"""``spawnkit-hook``: one entry point for every hook event spawnkit uses, on every host.

Reads the hook payload (JSON) on stdin, dispatches on the event (the payload's
``hook_event_name``; for Copilot CLI, whose payloads name none, ``--event``) and the
host's tool names (``--host claude-code``, the default, ``--host codex`` or ``--host
copilot``; see ``spawnkit.hosts``) and prints at most one JSON answer. Handled events:
PreToolUse (the spawn tool, the read tool, the stop tool), PostToolUse (the file-writing
tools, the spawn tool, the stop tool, Workflow), SubagentStart, SubagentStop,
PostToolBatch, UserPromptSubmit (task notifications) and Stop (the background tasks still
running); anything else is answered with silence.

It always exits 0 and fails open: a bad payload is ignored, an internal error is
logged to ``<config dir>/.spawnkit/hook.log`` and reported in a one-line
``systemMessage``, and the tool call goes ahead unchanged. Each event imports only
the modules it needs, so the process starts in a few milliseconds.
"""

from __future__ import annotations

import sys
import time

from spawnkit.base import fastjson, lightos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, NoReturn

    from spawnkit.hook.call import Answer, Call
    from spawnkit.hook.lint_on_write import Linter
    from spawnkit.hosts import Host

# Largest payload read from stdin; anything longer is treated as truncated.
MAX_STDIN = 32 * 1024 * 1024
# Claude Code writes the payload and closes stdin at once; a stdin that stays open
# longer than this is not a payload (the hook then answers nothing, well within the
# 10 s the client gives it).
STDIN_TIMEOUT = 3.0


class _StdinTimeout(Exception):
    """stdin stayed open past STDIN_TIMEOUT."""


def _stdin_timeout(signum: int, frame: object) -> None:
    raise _StdinTimeout


def read_stdin(stream: Any, limit: int = MAX_STDIN, timeout: float = STDIN_TIMEOUT) -> bytes | None:
    """Everything on ``stream`` until EOF, at most ``limit`` + 1 bytes; None when it takes too long.

    A timer signal interrupts the read (``_signal`` is built in and already loaded, so
    this costs nothing at start-up, and the read stays one buffered C call).
    """
    import _signal

    timer = getattr(_signal, "setitimer", None)
    if timer is None:  # pragma: no cover - not POSIX: no time limit
        return stream.read(limit + 1)
    previous = _signal.signal(_signal.SIGALRM, _stdin_timeout)
    try:
        timer(_signal.ITIMER_REAL, timeout)
        try:
            return stream.read(limit + 1)
        except _StdinTimeout:
            return None
        finally:
            timer(_signal.ITIMER_REAL, 0)
    finally:
        _signal.signal(_signal.SIGALRM, previous)


def _pre_tool_use(call: Call, answer: Answer, lint: Linter | None) -> None:
    tool = call.tool_name
    if tool in call.host.spawn_tools:
        _before_agent(call, answer)
    elif tool in call.host.read_tools:
        from spawnkit.hook import report_reads

        report_reads.before_read(call, answer)
    elif tool and tool == call.host.stop_tool:
        _settle(call, "task_stopped")
    elif tool and tool == call.host.finish_tool:
        from spawnkit.hook import return_budget

        return_budget.on_finish(call, answer)
    elif tool == MESSAGE_TOOL:
        from spawnkit.hook import message_budget

        message_budget.before_send(call, answer)


def _settle(call: Call, signal: str) -> None:
    """Let the parallel cap's table take in one client signal (``parallel_cap.<signal>``).

    Where no stop event follows a sub-agent (Gemini CLI), the launch's return is also where
    it counts as a finished step (the checkpoint reminder)."""
    from spawnkit.hook import parallel_cap

    counting = signal == "after_launch" and not call.host.agent_events
    counting = counting and call.mode("CM007") != "off"
    if not (parallel_cap.tracking(call) or counting):
        return
    with _locked_state(call) as data:
        if data is not None:
            getattr(parallel_cap, signal)(call, data)
            if counting:
                from spawnkit.hook.return_budget import count_completed

                count_completed(call, data)


def _before_agent(call: Call, answer: Answer) -> None:
    from spawnkit.hook import parallel_cap, return_block

    # "CM007" is checkpoint.CODE: that module loads only when a reminder is due.
    if parallel_cap.tracking(call) or call.mode("CM007") != "off":
        with _locked_state(call) as data:
            if data is not None:
                parallel_cap.before_launch(call, answer, data)
                if not answer.denied and data.get("checkpoint_due"):
                    from spawnkit.hook import checkpoint

                    checkpoint.deliver(call, answer, data)
    if not answer.denied:
        return_block.before_launch(call, answer)


def _post_tool_use(call: Call, answer: Answer, lint: Linter | None) -> None:
    tool = call.tool_name
    if tool in call.host.write_tools:
        from spawnkit.hook.lint_on_write import after_write

        after_write(call, answer, lint)
    elif tool in call.host.spawn_tools:
        _settle(call, "after_launch")  # the launch's agent id, or its end (foreground)
    elif tool and tool == call.host.stop_tool:
        _settle(call, "task_stopped")
    elif tool == WORKFLOW_TOOL:
        _settle(call, "workflow_launched")


def _post_tool_batch(call: Call, answer: Answer, lint: Linter | None) -> None:
    if call.agent_id:
        return  # a sub-agent's own batch: neither launches nor checkpoints are its business
    from spawnkit.hook import checkpoint, parallel_cap

    if call.mode(parallel_cap.CODE) == "off" and call.mode(checkpoint.CODE) == "off":
        return
    with _locked_state(call) as data:
        if data is not None:
            parallel_cap.after_batch(call, answer, data)
            checkpoint.deliver(call, answer, data)


def _subagent_start(call: Call, answer: Answer, lint: Linter | None) -> None:
    from spawnkit.hook import parallel_cap

    if call.host.start_context:
        from spawnkit.hook import return_budget

        return_budget.on_start(call, answer)
    if call.mode(parallel_cap.CODE) == "off":
        return
    with _locked_state(call) as data:
        if data is not None:
            parallel_cap.started(call, data)


def _subagent_stop(call: Call, answer: Answer, lint: Linter | None) -> None:
    if call.is_workflow_agent:
        # it answers its script: never measured, blocked or counted as a finished step
        if call.has_state:
            _settle(call, "workflow_agent_stopped")
        return
    from spawnkit.hook import return_budget

    return_budget.on_stop(call, answer)


def _user_prompt_submit(call: Call, answer: Answer, lint: Linter | None) -> None:
    """A ``<task-notification>`` (a background task ended): settle its slot, measure its result;
    ``<agent-message>`` blocks (what sub-agents sent with SendMessage): measure them. Never a
    block. A person's prompt is left alone."""
    if call.agent_id:
        return
    from spawnkit.hook import tasks

    prompt = call.text("prompt")
    messaged = MESSAGE_MARK in prompt[: tasks.HEAD]
    if messaged:
        from spawnkit.hook import agent_messages, message_budget

        messages, prompt = agent_messages.split(prompt)  # a message's body is no notification
        if messages:
            message_budget.arrived(call, answer, messages)
    notes = tasks.notifications(prompt)
    if not notes:
        return
    from spawnkit.hook import task_results

    types: dict[str, str] = {}
    # a notification only frees slots: with nothing counted in this session, nothing to do
    if call.has_state and call.mode("CM005") != "off":  # parallel_cap.CODE, loaded if needed
        from spawnkit.hook import parallel_cap

        with _locked_state(call) as data:
            if data is not None:
                types = parallel_cap.notified(call, data, notes)
    task_results.measure(call, answer, notes, types)


def _stop(call: Call, answer: Answer, lint: Linter | None) -> None:
    """The orchestrator's turn ended: its ``background_tasks`` are all that still runs (on a
    host whose sub-agents all run in the foreground, Gemini CLI's AfterAgent: nothing)."""
    listed = call.background_tasks()
    if listed is None and not call.host.agent_events:
        listed = []
    if listed is None or call.agent_id:
        return
    if not (listed or call.has_state):
        return  # nothing runs and nothing was counted: the usual end of a turn costs no lock
    from spawnkit.hook import parallel_cap

    if not parallel_cap.tracking(call):
        return
    with _locked_state(call) as data:
        if data is not None:
            parallel_cap.reconcile(call, data, listed, turn_ended=True)


# tasks.OPEN and agent_messages.OPEN + " ", kept here too: a person's prompt is answered without
# loading tasks (nor call, which loads the config); tests/hook/test_task_results.py and
# tests/hook/test_agent_messages.py pin them equal
NOTIFICATION_MARK = "<task-notification>"
MESSAGE_MARK = "<agent-message "


def _notifies(payload: dict[str, Any]) -> bool:
    """A UserPromptSubmit worth a look: its prompt opens with a task notification or an agent
    message (a person's prompt is answered before anything else is loaded)."""
    prompt = payload.get("prompt")
    if not isinstance(prompt, str):
        return False
    head = prompt[:4096]
    return NOTIFICATION_MARK in head or MESSAGE_MARK in head


WORKFLOW_TOOL = "Workflow"  # Claude Code's scripted orchestration; only its table registers it
MESSAGE_TOOL = "SendMessage"  # agent_messages.TOOL: a sub-agent's message; only Claude Code's table

_HANDLERS: dict[str, Callable[[Call, Answer, Linter | None], None]] = {
    "PreToolUse": _pre_tool_use,
    "PostToolUse": _post_tool_use,
    "PostToolBatch": _post_tool_batch,
    "SubagentStart": _subagent_start,
    "SubagentStop": _subagent_stop,
    "UserPromptSubmit": _user_prompt_submit,
    "Stop": _stop,
}


def _locked_state(call: Call):  # noqa: ANN202 - store.LockedState, imported when needed
    from spawnkit.hook.store import LockedState

    return LockedState(call)


def parse(data: bytes) -> dict[str, Any] | None:
    """The payload object, or None for empty, oversized, truncated or non-JSON input."""
    if not data or len(data) > MAX_STDIN:
        return None
    try:
        payload = fastjson.loads(data.decode("utf-8", "replace"))
    except fastjson.JSONError:
        return None
    return payload if isinstance(payload, dict) else None


def run(
    data: bytes,
    env: Mapping[str, str] | None = None,
    now: float | None = None,
    lint: Linter | None = None,
    host: Host | None = None,
    event: str | None = None,
) -> str:
    """The whole hook as a function: payload bytes in, answer text out ("" = say nothing).

    ``host`` is the client that ran the hook (default Claude Code); ``event`` the event its
    command names (``--event``, for a host whose payloads name none); ``lint`` replaces the
    lint engine (tests inject a tiny fake rule through it).
    """
    env = lightos.environ() if env is None else env
    now = time.time() if now is None else now
    payload = parse(data)
    if payload is None:
        if data.strip():
            _log(env, None, f"ignored {len(data)} bytes on stdin: not one JSON object", host)
        return ""
    if host is None:
        event = payload.get("hook_event_name")
    else:
        event = host.event_of(payload, event)
    handler = _HANDLERS.get(event) if isinstance(event, str) else None
    if handler is None or (event == "UserPromptSubmit" and not _notifies(payload)):
        return ""
    call = None
    try:
        from spawnkit.hook.call import Answer, Call

        call = Call(payload, env, now, host, event)
        answer = Answer()
        handler(call, answer, lint)
        if call.loaded_config is not None:
            for problem in call.loaded_config.problems:
                answer.add_system(f"spawnkit: {problem}")
        out = answer.render(call.event, call.host)
        unshown = answer.system_for_log(call.host)
        if unshown:
            from spawnkit.hook.log import append

            append(call.state_dir, f"{call.event}: " + "\n".join(unshown))
        return fastjson.dumps(out) if out else ""
    except Exception as exc:  # noqa: BLE001 - fail open, by design
        return _internal_error(event, exc, env, call, host)


def _log(env: Mapping[str, str], call: Call | None, message: str, host: Host | None = None) -> str:
    """Append to the hook log; returns the log's path."""
    import os

    from spawnkit.hook.call import STATE_DIR_NAME
    from spawnkit.hook.log import append, log_path

    try:
        state_dir = call.state_dir if call is not None else ""
        if not state_dir:
            from spawnkit import hosts

            folder = (host or hosts.get(hosts.DEFAULT)).config_dir(env)
            state_dir = os.path.join(folder, STATE_DIR_NAME)
    except Exception:  # noqa: BLE001 - an environment odd enough to break this: use the default
        state_dir = os.path.join(os.path.expanduser("~"), ".claude", STATE_DIR_NAME)
    append(state_dir, message)
    return log_path(state_dir)


def _internal_error(
    event: str,
    exc: BaseException,
    env: Mapping[str, str],
    call: Call | None,
    host: Host | None = None,
) -> str:
    import traceback

    path = _log(env, call, f"internal error on {event}:\n{traceback.format_exc()}", host)
    return fastjson.dumps(
        {
            "systemMessage": (
                f"spawnkit-hook: internal error on {event} ({type(exc).__name__}); the tool call "
                f"went ahead unchanged. Details: {path}"
            )
        }
    )


USAGE = """\
usage: spawnkit-hook [--host claude-code|codex|copilot|gemini|qwen] [--event EVENT] < payload.json

Claude Code, Codex CLI, Copilot CLI, Gemini CLI or Qwen Code runs this on its hook events with
the event's JSON payload on stdin; it prints at most one JSON answer and always exits 0 (it
fails open). --host names the client that runs it (default claude-code); --event the event,
for Copilot CLI, whose payloads do not name it (preToolUse, postToolUse, subagentStart,
subagentStop).
Events: PreToolUse (Agent|Task, Read, TaskStop, SendMessage; Codex:
spawn_agent|collaborationspawn_agent; Copilot: task, view; Qwen: agent, read_file),
PostToolUse (Write|Edit|MultiEdit, Agent|Task|TaskStop|Workflow; Codex: apply_patch,
spawn_agent; Copilot: create|edit, task; Qwen: write_file|edit, agent), SubagentStart,
SubagentStop, PostToolBatch, UserPromptSubmit (task notifications: a workflow's or background
agent's result; agent messages: what a sub-agent sent with SendMessage), Stop; Gemini CLI's own
BeforeTool (invoke_agent, complete_task, read_file), AfterTool (invoke_agent,
write_file|replace) and AfterAgent; others are ignored.

Modes per rule (off|warn|enforce, default warn): <config>/spawnkit.json, then
<project>/.claude/spawnkit.json (.codex/ for Codex, .github/ for Copilot, .gemini/ for Gemini,
.qwen/ for Qwen), then SPAWNKIT_MODE / SPAWNKIT_MODE_<CODE> / SPAWNKIT_MAX_RETRIES,
e.g. {"version": 1, "mode": "warn", "rules": {"CM001": "enforce"}}.
"agents" caps the return budget per sub-agent type, e.g. {"Explore": "off", "x:*": "warn"};
by default enforce binds general-purpose and your own agents, warns about Explore, Plan and
plugin agents, and never touches a workflow's agents (`spawnkit doctor` shows the scope).
<config> is $CLAUDE_CONFIG_DIR or ~/.claude ($CODEX_HOME or ~/.codex for Codex,
$COPILOT_HOME or ~/.copilot for Copilot, ~/.gemini for Gemini, $QWEN_HOME or ~/.qwen for
Qwen); errors (and, on Copilot, the messages meant for the user) are logged to
<config>/.spawnkit/hook.log. Register it with `spawnkit install`.
"""


def _option(args: list[str], flag: str) -> tuple[str | None, list[str]]:
    """``flag VALUE`` or ``flag=VALUE`` at the head of ``args``: the value and the rest."""
    if args[:1] == [flag]:
        return (args[1] if len(args) > 1 else ""), args[2:]
    if args and args[0].startswith(flag + "="):
        return args[0][len(flag) + 1 :], args[1:]
    return None, args


def main() -> int:
    """Console-script and ``__main__`` entry: stdin → stdout, exit 0 whatever happens.

    A person running it by hand gets the usage (``--help``), the version
    (``--version``), or, with a terminal on stdin, a hint instead of a silent wait.
    """
    args = sys.argv[1:]
    host = None
    name, args = _option(args, "--host")
    if name is not None:
        from spawnkit import hosts

        try:
            host = hosts.get(name)
        except KeyError:
            # Never block the client over its own command line: say so, answer nothing.
            sys.stderr.write(
                f"spawnkit-hook: error: unknown host {name!r}; use one of "
                f"{', '.join(hosts.NAMES)}\n"
            )
            return 1
    event, args = _option(args, "--event")
    if args:
        if args[0] in ("-h", "--help"):
            sys.stdout.write(USAGE)
            return 0
        if args[0] == "--version":
            from spawnkit import __version__

            sys.stdout.write(f"spawnkit-hook {__version__}\n")
            return 0
        sys.stderr.write(f"spawnkit-hook: error: unexpected argument {args[0]!r}; see --help\n")
        return 2
    if sys.stdin is None or sys.stdin.isatty():
        sys.stderr.write("spawnkit-hook: error: expects a hook payload on stdin; see --help\n")
        return 2
    try:
        data = read_stdin(sys.stdin.buffer)
        if data is None:
            _log(
                lightos.environ(),
                None,
                f"stdin stayed open for {STDIN_TIMEOUT:.0f} s: no payload",
                host,
            )
            return 0
        out = run(data, host=host, event=event)
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()
    except Exception:  # noqa: BLE001 - unreadable stdin or closed stdout: nothing to say
        pass
    return 0


def finish(code: int) -> NoReturn:
    """End the hook's process (the script's, ``__main__``) with ``code``, without tearing the
    interpreter down: stdout and stderr are flushed, then ``posix._exit``.

    Freeing every module and object one by one cost about a fifth of the hook's whole run, and
    nothing is left for it to do: every file the hook writes goes through a descriptor it has
    closed already, and it starts no thread and registers no ``atexit`` handler. An answer
    that cannot be delivered (the client closed the pipe) no longer makes the exit status
    120, which Copilot CLI reads as a denial of the tool call.
    """
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - a closed pipe: the answer cannot be delivered anyway
        pass
    try:
        from posix import _exit
    except ImportError:  # pragma: no cover - not POSIX: the usual exit
        raise SystemExit(code) from None
    _exit(code)


if __name__ == "__main__":
    raise SystemExit(main())
