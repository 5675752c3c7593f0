"""Lint on write: after a tool wrote a skill, command or agent file, on either host.

Claude Code writes with Write/Edit/MultiEdit (``tool_input.file_path``), Copilot CLI
with create/edit (``toolArgs.path``); Codex with ``apply_patch``, whose patch text names
every file it adds or updates (``*** Add File:``, ``*** Update File:``, ``*** Move to:``;
relative to the session's cwd).

A file is linted when it is, after the tool ran, one of the host file kinds under a
host's skill root (``spawnkit.hosts``), with that host's lint profile:

* Claude Code: ``<root>/skills/<name>/SKILL.md``, ``<root>/commands/**/*.md`` or
  ``<root>/agents/**/*.md``, where ``<root>`` is a ``.claude`` folder (any project's,
  or the user's), the Claude config dir (``$CLAUDE_CONFIG_DIR``), or a plugin (a
  folder holding ``.claude-plugin/plugin.json``) — profile ``claude-code``;
* Codex: ``<root>/skills/<name>/SKILL.md`` where ``<root>`` is an ``.agents`` or
  ``.codex`` folder or the Codex home (``$CODEX_HOME``) — profile ``portable``
  (Codex reads only the spec's keys);
* Copilot CLI: ``<root>/skills/<name>/SKILL.md`` where ``<root>`` is a ``.github`` folder
  or the Copilot home (``$COPILOT_HOME``) — profile ``copilot`` (the spec's keys and the
  three Copilot reads besides). Its other folders (``.agents``, ``.claude``) are Codex's
  and Claude Code's roots already.
* Claude Code workflow scripts: ``<root>/workflows/<name>.js`` and a skill's
  ``<root>/skills/<name>/workflow.js``. They are JavaScript, read with tree-sitter, a
  compiled extension outside the standard library: the hook lints one only when
  tree-sitter imports (an installed spawnkit has it beside itself in site-packages; a
  source checkout run with ``-I -S`` may not), with its own time limit
  (``WORKFLOW_SECONDS``), and passes over it silently otherwise. That import happens
  only when a workflow script was written, so every other call keeps the standard-
  library start-up; and a missing parser must never stop the user's edit (the hook
  fails open).

Where the file is decides, not which host wrote it. The file is read from disk, so
the result of an edit is what gets linted.

Each diagnostic's rule has its own mode: ``off`` drops it, ``warn`` reports it as
``additionalContext`` (the model fixes it on its next turn), ``enforce`` as a
PostToolUse block (the reason goes to the model as feedback). The user gets a
one-line ``systemMessage`` either way. Clean → no output.
"""

from __future__ import annotations

from spawnkit.base import lightos
from spawnkit.hosts.kinds import locate, roots

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from spawnkit.hook.call import Answer, Call

    Linter = Callable[..., list[Any]]

WORKFLOW_SECONDS = 3.0  # the most a workflow script's parse may take inside the hook
MAX_BYTES = 1024 * 1024
MAX_PATH = 4096  # bytes in a path Linux accepts (PATH_MAX)
MAX_SHOWN = 15
MAX_FILES = 20  # files of one patch that get linted
_PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Move to: ")


def written_paths(call: Call) -> list[str]:
    """The files the tool call wrote, as given (possibly relative), at most ``MAX_FILES``."""
    tool_input = call.tool_input()
    if call.host.write_paths == "patch":
        patch = tool_input.get("command")
        if not isinstance(patch, str):
            patch = tool_input.get("input")
        if not isinstance(patch, str):
            return []
        found: list[str] = []
        for line in patch[: MAX_BYTES * 4].split("\n"):
            if line.startswith(_PATCH_HEADERS):
                name = line.split(": ", 1)[1].strip()
                if name and name not in found:
                    found.append(name)
                    if len(found) >= MAX_FILES:
                        break
        return found
    raw = tool_input.get(call.host.write_paths)
    return [raw] if isinstance(raw, str) and raw else []


def after_write(call: Call, answer: Answer, lint: Linter | None = None) -> None:
    config_dirs = roots(call.env)
    lines: list[str] = []
    summary: list[str] = []
    enforce = False
    for raw in written_paths(call):
        if len(raw) > MAX_PATH or "\0" in raw:
            continue  # no system writes a path longer than MAX_PATH: nothing was written
        path = lightos.absolute(raw, call.cwd)
        where = locate(path, config_dirs)
        if where is None:
            continue
        try:  # a FIFO or device in its place is refused, never waited on
            text = lightos.read_regular(path, MAX_BYTES).decode("utf-8", "replace")
        except OSError:
            continue  # gone, unreadable, not a plain file or over 1 MiB: nothing to lint
        if where[0] == "workflow":
            diagnostics = _lint_workflow(text, path, where[1])
        else:
            if lint is None:
                from spawnkit.lint.engine import lint_text as lint
            diagnostics = lint(text, path, profile=where[1])
        found = [d for d in diagnostics if call.mode(d.code) != "off"]
        if not found:
            continue
        shown = call.display_path(path)
        found.sort(key=lambda d: (d.line, d.code))
        lines.append(f"spawnkit lint: {shown} breaks {len(found)} rule(s) of the skill standard:")
        for d in found[:MAX_SHOWN]:
            message = (d.message.strip().splitlines() or [""])[0][:200]
            lines.append(f"- line {d.line}: {d.code} {d.name}: {message}")
        if len(found) > MAX_SHOWN:
            lines.append(f"- … and {len(found) - MAX_SHOWN} more (run `spawnkit lint {shown}`)")
        codes = ", ".join(sorted({d.code for d in found}))
        summary.append(f"spawnkit: {len(found)} lint issue(s) in {shown} ({codes})")
        enforce = enforce or any(call.mode(d.code) == "enforce" for d in found)
    if not lines:
        return
    lines.append("Fix them in the file; run `spawnkit rule CODE` for details of a rule.")
    text = "\n".join(lines)
    if enforce:
        answer.block(text)
    else:
        answer.add_context(text)
    for line in summary:
        answer.add_system(line)


def _lint_workflow(text: str, path: str, profile: str) -> list[Any]:
    """The diagnostics of a workflow script; none when tree-sitter cannot be imported here."""
    from spawnkit.lint.workflow import parse

    if not parse.available():
        return []
    from spawnkit.lint.engine import lint_workflow

    return lint_workflow(text, path, profile, seconds=WORKFLOW_SECONDS).diagnostics
