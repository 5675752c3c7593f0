"""One hook call: what comes in and what goes out.

``Call`` gives typed, defensive access to the payload, the environment and the host
(``spawnkit.hosts``), and the places derived from them. ``Answer`` collects what
the checks want to say.

Several checks can speak on one event (a PreToolUse spawn may be over the parallel
cap, lack a return contract and be due a checkpoint reminder); they add to one
``Answer`` and ``render`` turns it into the one JSON object the host reads. Output
shapes per event (Claude Code 2.1.330 and Codex CLI 0.169.0 alike, except where said):

* PreToolUse: ``hookSpecificOutput`` with ``permissionDecision: "deny"`` +
  ``permissionDecisionReason``, or ``updatedInput`` (the WHOLE tool input; Codex
  applies it only together with ``permissionDecision: "allow"``), and/or
  ``additionalContext`` (shown to the model after the tool result).
* PostToolUse: top-level ``decision: "block"`` + ``reason`` (fed to the model; Codex
  shows it instead of the tool's output), or ``hookSpecificOutput.additionalContext``.
* PostToolBatch (Claude Code only): ``hookSpecificOutput.additionalContext``.
* SubagentStart (Codex): ``hookSpecificOutput.additionalContext`` reaches the new
  sub-agent before its first turn.
* SubagentStop: top-level ``decision: "block"`` + ``reason``. Never
  ``additionalContext`` here: it restarts the sub-agent like a block does.
* UserPromptSubmit (Claude Code): ``hookSpecificOutput.additionalContext`` reaches the
  model with the prompt; never a block (a notification must reach the model).
* Any event: ``systemMessage``, shown to the user only.

Copilot CLI 1.0.102 (``Host.answer_style`` "flat") reads the same answers flat, at the top level:
``permissionDecision`` + ``permissionDecisionReason`` or ``modifiedArgs`` (the whole tool
input) and ``additionalContext`` on preToolUse; ``additionalContext`` (appended to the tool
result) or ``modifiedResult`` (replacing it: how a PostToolUse "block" reaches the model)
on postToolUse; ``additionalContext`` on subagentStart (put before the sub-agent's prompt);
``decision``/``reason`` on subagentStop. It has no ``systemMessage``: those lines go to the
hook log (``system_for_log``).

Gemini CLI 0.61.0 (``Host.answer_style`` "decision") reads ``decision: "deny"`` + ``reason`` at
the top level (BeforeTool: the call is not run and the model gets the reason as its error;
AfterTool: the model gets the reason instead of the result), ``hookSpecificOutput.tool_input``
(the WHOLE input) to rewrite a call, and ``hookSpecificOutput.additionalContext`` after a tool
(appended to its result); under its own event names (``BeforeTool``, ``AfterTool``).

Where a host passes no PreToolUse ``additionalContext`` on to the model (Gemini CLI, Qwen Code:
``Host.pre_tool_context``), what it would have said goes to the user as a ``systemMessage``.
"""

from __future__ import annotations

from spawnkit.base import lightos
from spawnkit.hook import config as config_mod
from spawnkit.standard import protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from spawnkit.hosts import Host

STATE_DIR_NAME = ".spawnkit"
SESSIONS_DIR = "sessions"  # <state dir>/sessions/<session>.json: the per-session state (store)
# Claude Code's background tasks as its payloads name them (2.1.330; notifications: ``tasks``).
WORKFLOW_AGENT_TYPE = "workflow-subagent"
WORKFLOW_TRANSCRIPTS = "/subagents/workflows/"
# A task status other than these ends the task (completed, failed, killed, any the client adds).
STILL_RUNNING = ("running", "blocked", "pending")
MAX_LISTED = 256
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def session_path(state_dir: str, session: str) -> str:
    """The state file of one session (``session`` already made file-name safe)."""
    return lightos.join(state_dir, SESSIONS_DIR, session + ".json")


def safe_name(raw: object) -> str:
    """A file-name-safe, collision-resistant form of an id taken from a payload."""
    text = raw if isinstance(raw, str) else ""
    clean = "".join(c if c in _SAFE else "_" for c in text)[:96].strip(".")
    if clean and clean == text:
        return clean
    from spawnkit.base.checksum import checksum

    return f"{clean or 'unknown'}-{checksum(text)}"


class Call:
    """Typed, defensive access to one payload (any field may be missing or of the wrong type)."""

    def __init__(
        self,
        payload: dict[str, Any],
        env: Mapping[str, str],
        now: float,
        host: Host | None = None,
        event: str | None = None,
    ) -> None:
        if host is None:
            from spawnkit import hosts

            host = hosts.get(hosts.DEFAULT)
        self.host = host
        self.payload = payload
        self.env = env
        self.now = now
        # spawnkit's name of the event (Claude Code's): given, else the payload's own
        self.event = event or host.event_of(payload) or ""
        # the tool call's id where the host sends one (Copilot CLI sends none)
        self.call_id = self.text(host.call_id_field) if host.call_id_field else ""
        self.session_id = self.text(host.session_field) or (
            env.get(host.session_env, "") if host.session_env else ""
        )
        self.session = safe_name(self.session_id)
        agent = payload.get(host.agent_field)
        self.agent_id = agent if isinstance(agent, str) and agent else None
        cwd = self.text("cwd")
        self.cwd = cwd if lightos.isabs(cwd) and "\0" not in cwd else lightos.getcwd()
        # The project comes from the host (its env, or the folder it runs the hook in), never
        # from the payload: every write under the project stays where the user works.
        self.project = host.project_dir(env, lightos.getcwd())
        self.config_dir = host.config_dir(env)
        self.state_dir = lightos.join(self.config_dir, STATE_DIR_NAME)
        self._config: config_mod.Config | None = None

    def text(self, key: str) -> str:
        value = self.payload.get(key)
        return value if isinstance(value, str) else ""

    @property
    def tool_name(self) -> str:
        return self.text(self.host.tool_name_field)

    def tool_input(self) -> dict[str, Any]:
        value = self.payload.get(self.host.tool_input_field)
        return value if isinstance(value, dict) else {}

    def unique_key(self) -> str:
        """A key unique to this call: its tool call id, else one of this hook process's."""
        if self.call_id:
            return self.call_id
        return f"anon-{self.now}-{lightos.native.getpid()}"

    def launch_key(self) -> str:
        """The key of this launch in the parallel cap's table, the same in its PreToolUse and
        its PostToolUse: the tool call's id where the host sends one, else (Copilot CLI's
        ``task``, Gemini CLI's ``invoke_agent``) a fingerprint of the call (``fp-…``: the tool,
        the sub-agent type and label, and the task text without the return contract spawnkit
        may have appended to it). Two launches alike in all of that share a fingerprint and
        are told apart by the order they came in (``parallel_cap``)."""
        if self.call_id:
            return self.call_id
        from spawnkit.base.checksum import checksum

        tool_input = self.tool_input()
        text = self.host.spawn_text(tool_input) or ""
        head = protocol.load()["return_block"][0]
        text = text.split("\n\n" + head, 1)[0].rstrip()
        label = self.host.spawn_label(tool_input)
        raw = "\0".join((self.tool_name, spawn_type(self), label, text))
        return f"fp-{checksum(raw)}"

    @property
    def loaded_config(self) -> config_mod.Config | None:
        """The config if some check already read it (so silent events stay cheap)."""
        return self._config

    @property
    def config(self) -> config_mod.Config:
        if self._config is None:
            aliases = {r["name"]: r["code"] for r in protocol.load()["rules"]}
            self._config = config_mod.load(
                self.env, self.config_dir, self.project, aliases, self.host.project_folder
            )
        return self._config

    def mode(self, code: str) -> str:
        return self.config.mode(code)

    @property
    def state_file(self) -> str:
        return session_path(self.state_dir, self.session)

    @property
    def has_state(self) -> bool:
        """Whether this session has a state file yet: a signal that can only free slots needs
        nothing when nothing was counted (and then costs no lock)."""
        try:
            lightos.native.stat(self.state_file)
        except OSError:
            return False
        return True

    def background_tasks(self) -> list[dict[str, Any]] | None:
        """``background_tasks`` of a Stop or SubagentStop: every background task of the session
        still running (``id``, ``type`` ``subagent`` or ``workflow``, ``status``,
        ``description``, ``agent_type``); None when the client sent no list."""
        tasks = self.payload.get("background_tasks")
        if not isinstance(tasks, list):
            return None
        return [
            t for t in tasks[:MAX_LISTED] if isinstance(t, dict) and isinstance(t.get("id"), str)
        ]

    @property
    def is_workflow_agent(self) -> bool:
        """An agent a Workflow script started (its answer goes to the script): its type is
        ``workflow-subagent``, or the one the script chose, and then only its transcript, under
        ``subagents/workflows/`` (SubagentStop only), tells."""
        transcript = self.text("agent_transcript_path").replace("\\", "/")
        return (
            self.text(self.host.agent_type_field) == WORKFLOW_AGENT_TYPE
            or WORKFLOW_TRANSCRIPTS in transcript
        )

    def display_path(self, path: str) -> str:
        """``path`` relative to the project when inside it (shorter for the model to read)."""
        prefix = self.project.rstrip(lightos.SEP) + lightos.SEP
        return path[len(prefix) :] if path.startswith(prefix) else path


def spawn_type(call: Call) -> str:
    """The sub-agent type a spawn call asks for, else the host's default."""
    tool_input = call.tool_input()
    for key in ("subagent_type", "agent_type", "agent_name"):
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return call.host.default_agent_type


def running_of_type(tasks: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    """The listed background tasks of one ``type`` (``subagent``, ``workflow``) still running
    (Qwen Code lists sub-agents without a type, with their ``agent_type``)."""
    return {
        t["id"]: t
        for t in tasks
        if t.get("type", "subagent" if "agent_type" in t else None) == kind
        and str(t.get("status") or "running") in STILL_RUNNING
    }


# Events whose hookSpecificOutput may carry additionalContext for the model (SubagentStart
# only where the host passes it on: ``Host.start_context``).
_CONTEXT_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolBatch",
    "SubagentStart",
    "UserPromptSubmit",
)


class Answer:
    """What one hook call answers; empty means print nothing."""

    def __init__(self) -> None:
        self.context: list[str] = []
        self.system: list[str] = []
        self.deny_reason: str | None = None
        self.block_reason: str | None = None
        self.updated_input: dict[str, Any] | None = None

    def add_context(self, text: str) -> None:
        self.context.append(text)

    def add_system(self, text: str) -> None:
        self.system.append(text)

    def deny(self, reason: str) -> None:
        if self.deny_reason is None:
            self.deny_reason = reason

    def block(self, reason: str) -> None:
        if self.block_reason is None:
            self.block_reason = reason

    def update_input(self, tool_input: dict[str, Any]) -> None:
        self.updated_input = tool_input

    @property
    def denied(self) -> bool:
        return self.deny_reason is not None

    def render(self, event: str, host: Host | None = None) -> dict[str, Any] | None:
        if host is not None and event == "PreToolUse" and not host.pre_tool_context:
            self.system.extend(self.context)  # the model would never see it: tell the user
            self.context = []
        if host is not None and host.answer_style == "flat":
            return self._render_flat(event)
        if host is not None and host.answer_style == "decision":
            return self._render_decision(event, host)
        out: dict[str, Any] = {}
        specific: dict[str, Any] = {}
        if event == "PreToolUse":
            if self.deny_reason is not None:
                specific["permissionDecision"] = "deny"
                specific["permissionDecisionReason"] = self.deny_reason
            elif self.updated_input is not None:
                if host is not None and host.rewrite_needs_allow:
                    specific["permissionDecision"] = "allow"
                specific["updatedInput"] = self.updated_input
        elif event in ("PostToolUse", "SubagentStop") and self.block_reason is not None:
            out["decision"] = "block"
            out["reason"] = self.block_reason
        if self.context and event in _CONTEXT_EVENTS and self.deny_reason is None:
            specific["additionalContext"] = "\n\n".join(self.context)
        if specific:
            out["hookSpecificOutput"] = {"hookEventName": event, **specific}
        if self.system:
            out["systemMessage"] = "\n".join(self.system)
        return out or None

    def _render_flat(self, event: str) -> dict[str, Any] | None:
        """The answer in Copilot CLI's flat shape (see the module doc); no systemMessage."""
        out: dict[str, Any] = {}
        if event == "PreToolUse":
            if self.deny_reason is not None:
                out["permissionDecision"] = "deny"
                out["permissionDecisionReason"] = self.deny_reason
            elif self.updated_input is not None:
                out["modifiedArgs"] = self.updated_input
        elif event == "SubagentStop" and self.block_reason is not None:
            out["decision"] = "block"
            out["reason"] = self.block_reason
        elif event == "PostToolUse" and self.block_reason is not None:
            out["modifiedResult"] = {"resultType": "success", "textResultForLlm": self.block_reason}
        if self.context and event in _CONTEXT_EVENTS and self.deny_reason is None:
            out["additionalContext"] = "\n\n".join(self.context)
        return out or None

    def _render_decision(self, event: str, host: Host) -> dict[str, Any] | None:
        """The answer in Gemini CLI's shape (see the module doc), under its own event names."""
        out: dict[str, Any] = {}
        specific: dict[str, Any] = {}
        if event == "PreToolUse":
            if self.deny_reason is not None:
                out["decision"] = "deny"
                out["reason"] = self.deny_reason
            elif self.updated_input is not None:
                specific["tool_input"] = self.updated_input
        elif event == "PostToolUse" and self.block_reason is not None:
            out["decision"] = "deny"
            out["reason"] = self.block_reason
        if self.context and event == "PostToolUse" and self.block_reason is None:
            specific["additionalContext"] = "\n\n".join(self.context)
        if specific:
            out["hookSpecificOutput"] = {"hookEventName": host.own_event(event), **specific}
        if self.system:
            out["systemMessage"] = "\n".join(self.system)
        return out or None

    def system_for_log(self, host: Host | None) -> list[str]:
        """The user-only lines a host cannot show (it has no systemMessage): for the hook log."""
        return list(self.system) if host is not None and not host.system_messages else []
