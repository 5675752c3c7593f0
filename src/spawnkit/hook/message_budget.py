"""CM001 on the message channel: a sub-agent's ``SendMessage`` to the orchestrator is a return too.

What a sub-agent sends the orchestrator (``main``, or the lead by another name it accepts:
``agent_messages.to_lead``) lands in its context uncut, beside the agent's final answer. So
the return budget holds for it as for the answer, at the one point where the sender can still
be asked for less: ``PreToolUse`` on ``SendMessage``, inside the sub-agent (``agent_id``
set; the orchestrator's own messages are left alone, and so is every message to another
agent's name, which never enters the orchestrator's context).

Over the budget:

* enforce: the full text is saved where the agent's held-back answers go
  (``<project>/.spawnkit/returns/<session>/<agent_id>-message.md``, never replacing an earlier
  copy), and the call is denied with a reason naming that file and asking for a short note
  instead. Each agent gets at most ``max_retries`` refusals in a row (the answers' limit); past
  it the message goes through with a warning to the user, so the agent is never stuck. A
  message within the budget ends the row.
* warn: the message goes through; the sender is told (``additionalContext``, after the tool
  result) and so is the user (``systemMessage``).

The scope (``agents`` in the config) applies per sub-agent type, as for answers: a type capped
at ``warn`` is never refused, one at ``off`` never refused nor reported (its over-budget
message is only recorded, so that its arrival stays silent too).

When a message arrives (``UserPromptSubmit`` with ``<agent-message>`` blocks) it is measured
like a task notification: over the budget the orchestrator's model is told (``additionalContext``)
and so is the user, unless the sender's side already told them about that very message (a
record in the session state, keyed by the text's checksum, which also carries the sender's
scope). Never a block: blocking that prompt drops the message from the orchestrator's context
without a word to it, and the sender was already told "queued".
"""

from __future__ import annotations

from spawnkit.hook import agent_messages

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from spawnkit.hook.agent_messages import AgentMessage
    from spawnkit.hook.call import Answer, Call

CODE = "CM001"
RETRIES = "message_retries"  # agent id -> messages refused in a row
SENT = "messages_sent"  # over-budget messages let through: [checksum, chars, mode, told user]
_KEEP = 64


def before_send(call: Call, answer: Answer) -> None:
    """PreToolUse ``SendMessage``: hold an over-budget message to the orchestrator."""
    if not call.agent_id:
        return  # the orchestrator's own message
    tool_input = call.tool_input()
    message = tool_input.get("message")
    if not isinstance(message, str) or not agent_messages.to_lead(tool_input.get("to")):
        return
    from spawnkit import tokens
    from spawnkit.standard import protocol

    agent_type = call.text(call.host.agent_type_field)
    mode = call.config.mode_for_agent(CODE, agent_type)
    if mode == "off" and call.mode(CODE) == "off":
        return
    budget = protocol.return_budget()
    # the size is reported anyway: one pass of the estimate (``exceeds`` would cut a long text
    # into chunks with a regular expression, and importing ``re`` alone costs the hook ~6 ms)
    size = tokens.estimate(message)
    if mode == "off":
        # a type the scope leaves alone: its arrival must stay as silent as its sending
        if size > budget:
            _locked(call, lambda data: _remember(data, message, mode, told=True))
        return
    if size <= budget:
        if mode == "enforce":
            _end_row(call)
        return
    agent = agent_type or "sub-agent"
    to = _shown(str(tool_input.get("to")))
    if mode == "warn":
        how = call.config.hold_back_hint(CODE, agent_type, "messages")
        answer.add_context(
            f'spawnkit return budget ({CODE}): your message to "{to}" is ~{size} tokens, over the '
            f"{budget}-token return budget, and goes into the orchestrator's context whole. Next "
            f"time write the details to a report file and send only its path and a short summary."
        )
        answer.add_system(
            f"spawnkit: the {agent} sub-agent {call.agent_id} sent the orchestrator ~{size} tokens "
            f'(SendMessage to "{to}"), over the {budget}-token return budget ({CODE}); all of '
            f"it went into the orchestrator's context. {how}"
        )
        _locked(call, lambda data: _remember(data, message, mode, told=True))
        return
    if not _locked(call, lambda data: _hold(call, answer, data, message, size, budget, agent, to)):
        answer.add_system(
            f"spawnkit: the {agent} sub-agent {call.agent_id} sent the orchestrator ~{size} tokens "
            f"(budget {budget}, {CODE}) but its count of refused messages could not be read; "
            "let it through."
        )


def _locked(call: Call, change) -> bool:  # noqa: ANN001 - a function of the state
    """Run ``change`` on the locked session state; False (logged) when the lock timed out."""
    from spawnkit.hook.store import LockedState

    with LockedState(call) as data:
        if data is None:
            return False
        change(data)
    return True


def _hold(
    call: Call,
    answer: Answer,
    data: dict[str, Any],
    message: str,
    size: int,
    budget: int,
    agent: str,
    to: str,
) -> None:
    """Save and refuse the message, unless this agent's refusals in a row are used up."""
    from spawnkit.hook import return_budget
    from spawnkit.hook.call import safe_name

    counts = _table(data, RETRIES)
    key = call.agent_id or "unknown-agent"
    used = counts.get(key)
    used = used if isinstance(used, int) and not isinstance(used, bool) and used > 0 else 0
    folder = return_budget.returns_folder(call)
    if used >= call.config.max_retries:
        counts.pop(key, None)
        _remember(data, message, "enforce", told=True)
        answer.add_system(
            f"spawnkit: the {agent} sub-agent {call.agent_id} still sent ~{size} tokens to the "
            f'orchestrator (SendMessage to "{to}"; budget {budget}, {CODE}) after {used} '
            f"refusals; let it through so the agent is not stuck. Its earlier full messages are "
            f"in {folder}."
        )
        return
    try:
        saved = return_budget.save_reply(
            call.project, return_budget.returns_parts(call), safe_name(key) + "-message", message
        )
    except OSError as exc:
        from spawnkit.hook.log import append

        append(call.state_dir, f"PreToolUse SendMessage: could not save in {folder}: {exc!r}")
        _remember(data, message, "enforce", told=True)
        answer.add_system(
            f"spawnkit: the {agent} sub-agent {call.agent_id} sent the orchestrator ~{size} "
            f"tokens (budget {budget}, {CODE}); the message was let through because it could not "
            f"be saved in {folder} ({exc.strerror})."
        )
        return
    counts[key] = used + 1
    del_oldest(counts)
    answer.deny(
        f'spawnkit return budget ({CODE}): your message to "{to}" is ~{size} tokens, but what a '
        f"sub-agent sends the orchestrator may be at most {budget} tokens, so it was NOT sent. "
        f"It is saved in full at {saved} - do not send it again. Send a short note instead, at "
        f"most {budget} tokens: what you found in a line or three and that path (or your own "
        f"fuller report file)."
    )


def _end_row(call: Call) -> None:
    """A message within the budget: this agent's refusals in a row are over. The state file is
    read unlocked first, so a sender never refused costs no lock."""
    if not call.agent_id or not call.has_state:
        return
    from spawnkit.base import lightos

    try:
        raw = lightos.read_regular(call.state_file, 1 << 20)
    except OSError:
        return
    if RETRIES.encode() not in raw or call.agent_id.encode("utf-8", "replace") not in raw:
        return

    def forget(data: dict[str, Any]) -> None:
        _table(data, RETRIES).pop(call.agent_id, None)

    _locked(call, forget)


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    table = data.get(key)
    if not isinstance(table, dict):
        table = data[key] = {}
    return table


def del_oldest(table: dict[str, Any], keep: int = _KEEP) -> None:
    """Keep the ``keep`` most recent entries (dicts keep insertion order)."""
    for name in list(table)[: max(0, len(table) - keep)]:
        del table[name]


def _remember(data: dict[str, Any], message: str, mode: str, told: bool) -> None:
    """An over-budget message goes through: its arrival will know its scope and whether the
    user was told already."""
    sent = data.get(SENT)
    if not isinstance(sent, list):
        sent = data[SENT] = []
    from spawnkit.base.checksum import checksum

    sent.append([checksum(message), len(message), mode, told])
    del sent[:-_KEEP]


def _recall(data: dict[str, Any], body: str) -> tuple[str, bool] | None:
    """(mode, told) of the message the sender's side let through with this text; None if none."""
    sent = data.get(SENT)
    if not isinstance(sent, list):
        return None
    from spawnkit.base.checksum import checksum

    key = [checksum(body), len(body)]
    for i, item in enumerate(sent):
        if isinstance(item, list) and len(item) == 4 and item[:2] == key:
            del sent[i]
            mode, told = item[2], item[3]
            return (mode if mode in ("off", "warn", "enforce") else "warn", told is True)
    return None


def arrived(call: Call, answer: Answer, messages: list[AgentMessage]) -> None:
    """UserPromptSubmit: agent messages reached the orchestrator; report those over budget."""
    from spawnkit import tokens
    from spawnkit.standard import protocol

    budget = protocol.return_budget()
    # one pass of the estimate each, as on the sender's side
    over = [(m, size) for m in messages if (size := tokens.estimate(m.body)) > budget]
    if not over:
        return
    known: dict[int, tuple[str, bool] | None] = {}
    if call.has_state:

        def recall(data: dict[str, Any]) -> None:
            for i, (m, _) in enumerate(over):
                known[i] = _recall(data, m.body)

        _locked(call, recall)
    default = call.config.mode_for_agent(CODE, "")
    for i, (message, size) in enumerate(over):
        mode, told = known.get(i) or (default, False)
        if mode == "off":
            continue
        sender = _shown(message.sender) or "a sub-agent"
        answer.add_context(
            f'spawnkit return budget ({CODE}): the message from "{sender}" is ~{size} tokens, '
            f"over the {budget}-token return budget; all of it is in your context now. Tell "
            f"sub-agents to write their findings to a report file and to message you only its "
            f"path and a short note, as their final answer does."
        )
        if not told:
            answer.add_system(
                f'spawnkit: the agent "{sender}" sent the orchestrator a message of ~{size} '
                f"tokens, over the {budget}-token return budget ({CODE}); all of it went into "
                f"the orchestrator's context."
                + (f" Set {CODE} to enforce to hold such messages back." if mode == "warn" else "")
            )


def _shown(sender: str) -> str:
    """A name from the payload fit to quote: no quotes, control characters escaped visibly
    (``base.shown``, the one output gate: the user's terminal shows the systemMessage)."""
    from spawnkit.base.shown import shown

    return shown("".join(c for c in sender[:64] if c not in "\"'`"))
