"""CM001 on what a task notification hands the orchestrator (UserPromptSubmit, Claude Code).

A workflow's result, and a background agent's reply, reach the orchestrator as a
``<task-notification>`` (the prompt of a UserPromptSubmit; a workflow's ``<result>``
can hold up to 100,000 characters). That is a return like any other, so it is
measured against the return budget. No mode ever blocks or changes a notification
(the orchestrator would lose its result, and a workflow's agents cannot be asked to
answer again): over the budget, warn and enforce alike tell the model
(``additionalContext``, with what to do next time) and the user (``systemMessage``):
the size, the budget and, for a workflow, the journal file with every agent's full
result that the notification's ``<diagnostics>`` names.

The scope (``agents`` in the config) applies: a workflow's result is looked up as the
type ``Workflow``, a background agent's as its own type when the parallel cap's table
knows it. The same notifications free the slots of the tasks they end (``parallel_cap``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from spawnkit.hook import tasks
    from spawnkit.hook.call import Answer, Call

CODE = "CM001"
WORKFLOW_SCOPE = "Workflow"  # the scope key of a workflow's result (the tool's name)


def measure(
    call: Call, answer: Answer, notes: list[tasks.Notification], types: dict[str, str]
) -> None:
    """Measure each notification's result; ``types`` maps task ids to known agent types."""
    for note in notes:
        if note.result:
            _measure(call, answer, note, types.get(note.task_id, ""))


def _measure(call: Call, answer: Answer, note: tasks.Notification, agent_type: str) -> None:
    from spawnkit import tokens
    from spawnkit.standard import protocol

    scope = WORKFLOW_SCOPE if note.is_workflow else agent_type
    mode = call.config.mode_for_agent(CODE, scope)
    if mode == "off":
        return
    budget = protocol.return_budget()
    result = note.result or ""
    if not tokens.exceeds(result, budget):
        return
    size = tokens.estimate(result)
    name = note.name or note.task_id or "task"
    if note.is_workflow:
        where = (
            f" Every agent's full result is in {note.journal}: read only the lines you need "
            f"from it, never the whole file."
            if note.journal
            else ""
        )
        answer.add_context(
            f'spawnkit return budget ({CODE}): the result of the workflow "{name}" is ~{size} '
            f"tokens, over the {budget}-token return budget; all of it is in your context now."
            f"{where} Next time have the script return counts, statuses and report paths, and "
            f"have its agents write their full reports to files."
        )
        answer.add_system(
            f'spawnkit: the workflow "{name}" returned ~{size} tokens to the orchestrator, over '
            f"the {budget}-token return budget ({CODE})"
            + (f"; per-agent results: {note.journal}" if note.journal else "")
            + "."
        )
        return
    answer.add_context(
        f'spawnkit return budget ({CODE}): the background agent "{name}" returned ~{size} '
        f"tokens, over the {budget}-token return budget; its whole reply is in your context "
        f"now. End every sub-agent prompt with a return contract: the full output written to "
        f"a report file, a reply of at most {budget} tokens."
    )
    answer.add_system(
        f'spawnkit: the background agent "{name}" returned ~{size} tokens, over the '
        f"{budget}-token return budget ({CODE}); its whole reply went into the orchestrator's "
        f"context."
        + (f" Set {CODE} to enforce to hold such replies back." if mode == "warn" else "")
    )
