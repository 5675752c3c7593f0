"""Collect what the checks of one hook call want to say, and shape it for Claude Code.

Several checks can speak on one event (a PreToolUse Agent call may be over the
parallel cap, lack a return contract and be due a checkpoint reminder); they add to
one ``Answer`` and ``render`` turns it into the one JSON object Claude Code reads.
Output shapes per event (Claude Code 2.1.330):

* PreToolUse: ``hookSpecificOutput`` with ``permissionDecision: "deny"`` +
  ``permissionDecisionReason``, or ``updatedInput`` (the WHOLE tool input), and/or
  ``additionalContext`` (shown to the model after the tool result).
* PostToolUse: top-level ``decision: "block"`` + ``reason`` (fed to the model), or
  ``hookSpecificOutput.additionalContext``.
* PostToolBatch: ``hookSpecificOutput.additionalContext``.
* SubagentStop: top-level ``decision: "block"`` + ``reason``. Never
  ``additionalContext`` here: it restarts the sub-agent like a block does.
* Any event: ``systemMessage``, shown to the user only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Events whose hookSpecificOutput may carry additionalContext for the model.
_CONTEXT_EVENTS = ("PreToolUse", "PostToolUse", "PostToolBatch")


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

    def render(self, event: str) -> dict[str, Any] | None:
        out: dict[str, Any] = {}
        specific: dict[str, Any] = {}
        if event == "PreToolUse":
            if self.deny_reason is not None:
                specific["permissionDecision"] = "deny"
                specific["permissionDecisionReason"] = self.deny_reason
            elif self.updated_input is not None:
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
