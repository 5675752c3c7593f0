"""CM001/CM002 at launch time: every sub-agent prompt must carry a return contract.

A prompt carries one when it contains every ``return_contract_markers`` entry of
the standard (case-insensitive; the standard's block always does) AND states a
reply cap of N tokens with N <= the budget (``"at most 500 tokens"``; the smallest
number written before "token(s)" counts). Markers alone are not enough: a contract
that allows 2,000 tokens still floods the orchestrator.

Warn: ``additionalContext`` for the orchestrator (shown after the launch) with the
block to use next time. Enforce: ``updatedInput`` (Copilot CLI: ``modifiedArgs``; Gemini CLI:
``hookSpecificOutput.tool_input``; Qwen Code ignores every rewrite: the user is told) =
the whole original input with the standard's return block appended to the sub-agent's
task (Claude Code's and Copilot's ``prompt``, Codex's ``message`` or, failing that, its
``items``; the host replaces the entire input, so every other field is passed through
unchanged). The block
names a report file ``<project>/.spawnkit/reports/<session>/<label-slug>-<id>.md``
(label: the description or task name) — the hook cannot know which skill is
running, so it uses its own per-session folder, which the report-read check (CM006)
also guards. The return budget's scope (``agents`` in the config) applies per
sub-agent type: a type it caps at ``warn`` is only warned about, never rewritten.
"""

from __future__ import annotations

from spawnkit.base import lightos
from spawnkit.standard import protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from spawnkit.hook.call import Answer, Call

CODE = "CM001"
_DIGITS = "0123456789"
_SLUG_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def stated_caps(text: str) -> list[int]:
    """Each number written just before "token(s)": "500 tokens", "500-token", "2k tokens"."""
    lower = text.lower()
    caps: list[int] = []
    start = lower.find("token")
    while start != -1:
        i = start
        while i > 0 and lower[i - 1] in " -\u00a0~":
            i -= 1
        scale = 1
        if i > 0 and lower[i - 1] == "k":
            scale, i = 1000, i - 1
        end = i
        while i > 0 and (
            lower[i - 1] in _DIGITS or (lower[i - 1] == "," and i > 1 and lower[i - 2] in _DIGITS)
        ):
            i -= 1
        digits = lower[i:end].replace(",", "")
        if digits and (i == 0 or not lower[i - 1].isalpha()):
            caps.append(int(digits[-12:]) * scale)
        start = lower.find("token", start + 5)
    return caps


def contract_problem(prompt: str, budget: int) -> str | None:
    """Why ``prompt`` lacks a usable return contract, or None when it has one."""
    lower = prompt.lower()
    markers = protocol.load()["return_contract_markers"]
    if not all(m.lower() in lower for m in markers):
        return "has no return contract"
    caps = stated_caps(prompt)
    if not caps:
        return "has a return contract without a token cap"
    if min(caps) > budget:
        return f"caps the reply at {min(caps)} tokens, above the {budget}-token budget"
    return None


def report_path(call: Call) -> str:
    """Where the injected contract tells the sub-agent to write its full output."""
    words = call.host.spawn_label(call.tool_input()).lower()
    slug = "".join(c if c in _SLUG_CHARS else "-" for c in words)
    slug = "-".join(part for part in slug.split("-") if part)[:40].strip("-") or "subagent"
    # the tool call's id; a host that sends none (Copilot CLI) gets this hook process's key,
    # so two launches with one description never share a report
    key = call.call_id or (call.unique_key() if call.host.call_id_field is None else "")
    suffix = "".join(c for c in key if c.isalnum())[-6:]
    name = f"{slug}-{suffix}.md" if suffix else f"{slug}.md"
    folder = protocol.load()["hook_reports_dir"].strip("/").split("/")
    return lightos.join(call.project, *folder, call.session, name)


def before_launch(call: Call, answer: Answer) -> None:
    """PreToolUse spawn: warn about, or fix, a task without a return contract.

    The scope decides per sub-agent type (``subagent_type``): a type capped at ``warn``
    is never rewritten, one capped at ``off`` is left alone."""
    from spawnkit.hook.parallel_cap import spawn_type

    mode = call.config.mode_for_agent(CODE, spawn_type(call))
    if mode == "off":
        return
    tool_input = call.tool_input()
    prompt = call.host.spawn_text(tool_input)
    if prompt is None:
        return
    budget = protocol.return_budget()
    problem = contract_problem(prompt, budget)
    if problem is None:
        return
    block = protocol.return_block(budget=budget, report=report_path(call))
    if mode == "enforce" and call.host.rewrites_input:
        answer.update_input(call.host.with_spawn_text_appended(tool_input, block))
        return
    description = call.host.spawn_label(tool_input)
    label = f'"{description}"' if description else "you just launched"
    if mode == "enforce":  # the host ignores a rewritten launch (Qwen Code): say so instead
        answer.add_system(
            f"spawnkit return budget ({CODE}): the prompt of the sub-agent {label} {problem}, "
            f"and {call.host.label} does not let a hook add one; its reply is held to the "
            f"budget when it stops. Put the return contract in the skill's own prompts."
        )
        return
    answer.add_context(
        f"spawnkit return budget ({CODE}): the prompt of the sub-agent {label} {problem}, so its "
        f"whole reply will land in your context. End every sub-agent prompt with a return "
        f"contract like this:\n{block}"
    )
