"""Lint on write: after Write/Edit/MultiEdit of a skill, command or agent file.

A file is linted when it is, after the tool ran, one of
``<root>/skills/<name>/SKILL.md``, ``<root>/commands/**/*.md`` or
``<root>/agents/**/*.md``, where ``<root>`` is a ``.claude`` folder (any project's,
or the user's), the Claude config dir (``$CLAUDE_CONFIG_DIR``), or a plugin (a
folder holding ``.claude-plugin/plugin.json``). The file is read from disk, so the
result of an Edit is what gets linted.

Each diagnostic's rule has its own mode: ``off`` drops it, ``warn`` reports it as
``additionalContext`` (the model fixes it on its next turn), ``enforce`` as a
PostToolUse block (the reason goes to the model as feedback). The user gets a
one-line ``systemMessage`` either way. Clean → no output.
"""

from __future__ import annotations

from spawnkit.hook import lightos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from spawnkit.hook.call import Answer, Call

    Linter = Callable[..., list[Any]]

WRITE_TOOLS = ("Write", "Edit", "MultiEdit")
KINDS = {"skills": "skill", "commands": "command", "agents": "agent"}
MAX_BYTES = 1024 * 1024
MAX_PATH = 4096  # bytes in a path Linux accepts (PATH_MAX)
MAX_SHOWN = 15
PROFILE = "claude-code"


def file_kind(path: str, config_dir: str) -> str | None:
    """``"skill"``, ``"command"`` or ``"agent"`` if ``path`` is one of those files, else None."""
    parts = path.split(lightos.SEP)
    for i in range(len(parts) - 2, 0, -1):
        kind = KINDS.get(parts[i])
        if kind is None:
            continue
        rest = parts[i + 1 :]
        if kind == "skill":
            shaped = len(rest) == 2 and rest[1] == "SKILL.md"
        else:
            shaped = rest[-1].endswith(".md") and all(rest)
        if shaped and _is_root(lightos.SEP.join(parts[:i]) or lightos.SEP, config_dir):
            return kind
    return None


def _is_root(root: str, config_dir: str) -> bool:
    return (
        root.rpartition(lightos.SEP)[2] == ".claude"
        or root == config_dir.rstrip(lightos.SEP)
        or lightos.is_file(lightos.join(root, ".claude-plugin", "plugin.json"))
    )


def after_write(call: Call, answer: Answer, lint: Linter | None = None) -> None:
    raw = call.tool_input().get("file_path")
    if not isinstance(raw, str) or not raw or len(raw) > MAX_PATH or "\0" in raw:
        return  # no system writes a path longer than MAX_PATH: nothing was written
    path = lightos.absolute(raw, call.cwd)
    if file_kind(path, call.config_dir) is None:
        return
    try:  # a FIFO or device in its place is refused, never waited on
        text = lightos.read_regular(path, MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return  # gone, unreadable, not a plain file or over 1 MiB: nothing to lint
    if lint is None:
        from spawnkit.lint.engine import lint_text as lint
    found = [d for d in lint(text, path, profile=PROFILE) if call.mode(d.code) != "off"]
    if not found:
        return
    shown = call.display_path(path)
    found.sort(key=lambda d: (d.line, d.code))
    lines = [f"spawnkit lint: {shown} breaks {len(found)} rule(s) of the skill standard:"]
    for d in found[:MAX_SHOWN]:
        message = (d.message.strip().splitlines() or [""])[0][:200]
        lines.append(f"- line {d.line}: {d.code} {d.name}: {message}")
    if len(found) > MAX_SHOWN:
        lines.append(f"- … and {len(found) - MAX_SHOWN} more (run `spawnkit lint {shown}`)")
    lines.append("Fix them in the file; run `spawnkit rule CODE` for details of a rule.")
    text = "\n".join(lines)
    codes = ", ".join(sorted({d.code for d in found}))
    if any(call.mode(d.code) == "enforce" for d in found):
        answer.block(text)
    else:
        answer.add_context(text)
    answer.add_system(f"spawnkit: {len(found)} lint issue(s) in {shown} ({codes})")
