"""Small transcripts written record by record, in each client's shape, for the attribution rules.

The shapes are the real clients' (tests/fixtures/audit, the e2e runs): a ``Claude`` session is
``<projects>/<project>/<session>.jsonl``; a ``Copilot`` one ``<state>/<id>/events.jsonl``; a
``Codex`` one a rollout under ``sessions/``. Each launch returns at once with a long answer
(over the budget by the estimate, so CM001 holds either way), so a test names only what
matters to it: which skill ran when.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

LONG = "finding: an unused import that should go. " * 200  # ~2,000 tokens by the estimate


class _Writer:
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self._clock = itertools.count(1)
        self._ids = itertools.count(1)

    def stamp(self) -> str:
        n = next(self._clock)
        return f"2026-11-28T10:{n // 60:02d}:{n % 60:02d}.000Z"

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids):04d}"

    def lines(self) -> str:
        return "".join(json.dumps(r) + "\n" for r in self.records)


class Claude(_Writer):
    """A Claude Code session; ``tagged`` writes the client's attributionSkill on the records of
    a running skill (as 2.1.330 does), else none (as 2.0.x-2.1.1xx did)."""

    def __init__(self, cwd: str = "/home/user/project", session: str = "s-claude") -> None:
        super().__init__()
        self.cwd, self.session = cwd, session
        self.agent_of: dict[str, str] = {}

    def _add(self, kind: str, **fields: Any) -> dict[str, Any]:
        record = {
            "type": kind,
            "uuid": self.new_id("u"),
            "timestamp": self.stamp(),
            "sessionId": self.session,
            "cwd": self.cwd,
            "version": "2.1.39",
            **fields,
        }
        self.records.append(record)
        return record

    def _user(self, content: Any, **fields: Any) -> None:
        self._add("user", message={"role": "user", "content": content}, **fields)

    def _assistant(self, blocks: list[dict], tag: str | None) -> None:
        extra = {"attributionSkill": tag} if tag else {}
        message = {
            "id": self.new_id("msg_"),
            "role": "assistant",
            "model": "claude-opus-4-5",
            "content": blocks,
            "usage": {"input_tokens": 1000, "output_tokens": 10},
        }
        self._add("assistant", message=message, **extra)

    def prompt(self, text: str) -> Claude:
        self._user(text)
        return self

    def command(self, name: str, body: str = "Do the thing.") -> Claude:
        """The user typing ``/name``: the command's record, then its body (meta)."""
        self._user(
            f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>"
        )
        self._user([{"type": "text", "text": body}], isMeta=True)
        return self

    def builtin(self, name: str) -> Claude:
        """A built-in command as 2.1.x writes it: a caveat, the command, its output."""
        self._user(
            "<local-command-caveat>Caveat: run by the user.</local-command-caveat>", isMeta=True
        )
        self._user(
            f"<command-name>/{name}</command-name>\n<command-message>{name}</command-message>"
        )
        self._user("<local-command-stdout>ok</local-command-stdout>")
        return self

    def skill(
        self, name: str, *, error: bool = False, tag: str | None = None, base: str = ""
    ) -> Claude:
        """The model calling the Skill tool; on success the client's "Base directory" body."""
        call = self.new_id("toolu_")
        self._assistant(
            [{"type": "tool_use", "id": call, "name": "Skill", "input": {"skill": name}}], tag
        )
        result = {"type": "tool_result", "tool_use_id": call, "content": "Launching skill: " + name}
        if error:
            result = {**result, "is_error": True, "content": "Error: the skill failed to load"}
        self._user([result], toolUseResult={"success": not error, "commandName": name})
        if not error and base:
            text = f"Base directory for this skill: {base}\n\n# {name}\n"
            self._user([{"type": "text", "text": text}], isMeta=True)
        return self

    def message(self, agent_id: str, name: str = "mate", body: str = LONG) -> None:
        """A sub-agent's SendMessage to the orchestrator, as 2.1.330 delivers it (a user record
        naming its sender's task)."""
        text = f'Another Claude session sent a message:\n<agent-message from="{name}">\n{body}\n</agent-message>'
        self._user(text, origin={"kind": "agent", "senderTaskId": agent_id})

    def launch(self, description: str, *, tag: str | None = None) -> str:
        """An Agent call answered at once (foreground) with a long answer; its call id (its
        agent's id is ``self.agent_of[call]``)."""
        call = self.new_id("toolu_")
        agent = {
            "description": description,
            "prompt": description,
            "subagent_type": "general-purpose",
        }
        self._assistant([{"type": "tool_use", "id": call, "name": "Agent", "input": agent}], tag)
        agent_id = self.agent_of[call] = self.new_id("a")
        self._user(
            [
                {
                    "type": "tool_result",
                    "tool_use_id": call,
                    "content": [{"type": "text", "text": LONG}],
                }
            ],
            toolUseResult={
                "status": "completed",
                "agentId": agent_id,
                "content": [{"type": "text", "text": LONG}],
            },
        )
        return call

    def read(self, path: str, *, tag: str | None = None) -> None:
        call = self.new_id("toolu_")
        self._assistant(
            [{"type": "tool_use", "id": call, "name": "Read", "input": {"file_path": path}}], tag
        )
        self._user([{"type": "tool_result", "tool_use_id": call, "content": "the report"}])

    def workflow(self, script: str, *, tag: str | None = None) -> str:
        """A Workflow call by script path, launched, then its result in a notification."""
        call, run_id = self.new_id("toolu_"), self.new_id("wf")
        self._assistant(
            [{"type": "tool_use", "id": call, "name": "Workflow", "input": {"scriptPath": script}}],
            tag,
        )
        self._user(
            [{"type": "tool_result", "tool_use_id": call, "content": "Workflow launched"}],
            toolUseResult={"status": "async_launched", "runId": run_id, "workflowName": "wf"},
        )
        note = (
            f"<task-notification><task-id>{run_id}</task-id><tool-use-id>{call}</tool-use-id>"
            f"<status>completed</status><result>{LONG}</result></task-notification>"
        )
        self._user(note)
        return call

    def compact(self) -> Claude:
        self._add("system", subtype="compact_boundary", content="Conversation compacted")
        self._user(
            "This session is being continued from a previous conversation.", isCompactSummary=True
        )
        return self

    def write(self, projects: Path) -> Path:
        folder = projects / ("-" + self.cwd.strip("/").replace("/", "-"))
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.session}.jsonl"
        path.write_text(self.lines(), encoding="utf-8")
        return path


class Copilot(_Writer):
    """A Copilot CLI session (events.jsonl)."""

    def __init__(self, cwd: str = "/home/user/project", session: str = "s-copilot") -> None:
        super().__init__()
        self.session = session
        self._event(
            "session.start",
            {"sessionId": session, "copilotVersion": "1.0.102", "context": {"cwd": cwd}},
        )

    def _event(self, kind: str, data: dict, agent: str | None = None) -> None:
        record = {"type": kind, "data": data, "id": self.new_id("e"), "timestamp": self.stamp()}
        if agent:
            record["agentId"] = agent
        self.records.append(record)

    def prompt(self, text: str) -> Copilot:
        self._event("user.message", {"content": text})
        return self

    def skill(self, name: str, path: str) -> Copilot:
        self._event("skill.invoked", {"name": name, "path": path, "trigger": "agent-invoked"})
        return self

    def launch(self, description: str) -> str:
        call, agent = self.new_id("call_"), self.new_id("agent-")
        args = {
            "description": description,
            "prompt": description,
            "agent_type": "general-purpose",
            "mode": "sync",
        }
        self._event(
            "assistant.message",
            {
                "content": "",
                "toolRequests": [{"toolCallId": call, "name": "task", "arguments": args}],
            },
        )
        self._event("subagent.started", {"toolCallId": call}, agent)
        self._event(
            "tool.execution_complete",
            {"toolCallId": call, "success": True, "result": {"content": LONG}},
        )
        return call

    def compact(self) -> Copilot:
        self._event("session.compaction_complete", {"success": True})
        return self

    def write(self, state: Path) -> Path:
        path = state / self.session / "events.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.lines(), encoding="utf-8")
        return path


class Codex(_Writer):
    """A Codex rollout (the root thread only: its launches' answers arrive in wait_agent)."""

    def __init__(
        self, cwd: str = "/home/user/project", thread: str = "0000aaaa-0000-7000-8000-000000000001"
    ) -> None:
        super().__init__()
        self.cwd, self.thread = cwd, thread
        self._item("session_meta", {"id": thread, "cwd": cwd, "cli_version": "0.169.0"})

    def _item(self, kind: str, payload: dict) -> None:
        self.records.append({"timestamp": self.stamp(), "type": kind, "payload": payload})

    def _user_text(self, text: str) -> None:
        self._item(
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]},
        )

    def prompt(self, text: str) -> Codex:
        self._user_text(text)
        self._item(
            "event_msg",
            {"type": "item_completed", "item": {"type": "UserMessage", "id": self.new_id("i")}},
        )
        return self

    def mention(self, name: str, path: str) -> Codex:
        """What Codex adds after a prompt naming ``$name``."""
        self._user_text(
            f"<skill>\n<name>{name}</name>\n<path>{path}</path>\n---\nname: {name}\n---\n</skill>"
        )
        return self

    def shell(self, command: str) -> Codex:
        call = self.new_id("call_")
        self._item(
            "response_item",
            {
                "type": "function_call",
                "name": "exec_command",
                "call_id": call,
                "arguments": json.dumps({"cmd": command}),
            },
        )
        self._item(
            "response_item", {"type": "function_call_output", "call_id": call, "output": "ok"}
        )
        return self

    def launch(self, description: str) -> str:
        call, agent = self.new_id("call_"), f"0000bbbb-0000-7000-8000-{next(self._ids):012d}"
        self._item(
            "response_item",
            {
                "type": "function_call",
                "name": "spawn_agent",
                "call_id": call,
                "arguments": json.dumps({"message": description}),
            },
        )
        self._item(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": call,
                "output": json.dumps({"agent_id": agent}),
            },
        )
        wait = self.new_id("call_")
        self._item(
            "response_item",
            {
                "type": "function_call",
                "name": "wait_agent",
                "call_id": wait,
                "arguments": json.dumps({"targets": [agent]}),
            },
        )
        self._item(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": wait,
                "output": json.dumps({"status": {agent: {"completed": LONG}}}),
            },
        )
        return call

    def compact(self) -> Codex:
        self._item("compacted", {"message": "summary"})
        return self

    def write(self, sessions: Path) -> Path:
        path = sessions / "2026" / "11" / "28" / f"rollout-2026-11-28T10-00-00-{self.thread}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.lines(), encoding="utf-8")
        return path
