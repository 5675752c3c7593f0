"""What a tool call or a hook message means for the protocol, shared by both transcript readers.

The rules come from the same places the hooks use: report folders from ``report_reads``,
state-file names from the standard, the codes from each hook module. spawnkit's hooks name
their rule as ``spawnkit <rule-name> (<CODE>)``; that is how their refusals are recognised.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from functools import lru_cache
from typing import Any

from spawnkit import tokens
from spawnkit.audit.model import SubagentFacts
from spawnkit.hook import parallel_cap, report_reads, return_budget
from spawnkit.standard import protocol

BUDGET_CODE = return_budget.CODE
PARALLEL_CODE = parallel_cap.CODE
READS_CODE = report_reads.CODE

# Shell commands that print a file into the conversation.
_READERS = frozenset({"cat", "head", "tail", "less", "more", "bat", "nl", "sed", "awk", "tac"})
_MAX_COMMAND = 64 * 1024  # longer shell commands are not inspected


def spawnkit_said(text: str, code: str) -> bool:
    """True when ``text`` is a spawnkit hook message about rule ``code``."""
    return "spawnkit" in text and f"({code})" in text


def refused_message(text: str) -> bool:
    """True when a tool result is spawnkit's refusal of a message to the orchestrator."""
    return spawnkit_said(text, BUDGET_CODE) and "your message to" in text


def held_back(facts: SubagentFacts, answer: str, reason: str) -> bool:
    """Record a SubagentStop block when ``reason`` is spawnkit's return-budget block of ``answer``."""
    if not answer or not spawnkit_said(reason, BUDGET_CODE):
        return False
    facts.blocks += 1
    facts.full_tokens = max(facts.full_tokens or 0, tokens.estimate(answer))
    facts.saved_path = facts.saved_path or saved_copy(reason)
    return True


def label(value: Any) -> str:
    """A one-line label of at most 80 characters from a launch's description or message."""
    return " ".join(value.split())[:80] if isinstance(value, str) else ""


def saved_copy(text: str) -> str | None:
    """The saved-reply path named in a spawnkit return-budget block, or None.

    The path runs from the last ``/`` that follows whitespace on its line (project folders may
    hold spaces) through the returns folder to ``.md``.
    """
    marker = protocol.load()["returns_dir"].strip("/") + "/"
    at = text.find(marker)
    end = text.find(".md", at) if at != -1 else -1
    if end == -1 or "\n" in text[at:end]:
        return None
    line_start = text.rfind("\n", 0, at) + 1
    starts = [m.start(1) for m in _ABSOLUTE_START.finditer(text, line_start, at)]
    if starts:
        start = starts[-1]
    else:
        start = max(text.rfind(c, line_start, at) for c in " \t'\"") + 1
    return text[start : end + 3]


_ABSOLUTE_START = re.compile(r"(?:^|(?<=\s))(/)", re.MULTILINE)


def absolute(path: str, cwd: str) -> str:
    """``path`` made absolute against ``cwd`` and normalised, without touching the disk."""
    joined = path if path.startswith("/") else posixpath.join(cwd or "/", path)
    return posixpath.normpath(joined)


def is_report(path: str, cwd: str) -> bool:
    """A sub-agent's full report, as the CM006 hook decides it."""
    if not path or "\0" in path:
        return False
    return report_reads.is_report(absolute(path, cwd))


@lru_cache(maxsize=1)
def _state_name() -> re.Pattern[str]:
    return re.compile(protocol.load()["state_file_regex"].strip("^$"))


def is_state_file(path: str) -> bool:
    return bool(_state_name().fullmatch(posixpath.basename(path)))


def _words(command: str) -> list[str]:
    if len(command) > _MAX_COMMAND:
        return []
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return command.split()


def shell_reads(command: str) -> list[str]:
    """The files a shell command prints (``cat a.md``, ``sed -n 1,80p b/SKILL.md``), in order:
    the arguments of a reading command that starts a pipeline stage, options left out."""
    found: list[str] = []
    reading = False
    first = True
    for word in _words(command):
        if word in ("|", "&&", "||", ";"):
            reading, first = False, True
            continue
        if first:
            reading, first = posixpath.basename(word) in _READERS, False
            continue
        if reading and word and not word.startswith("-"):
            found.append(word)
    return found


def shell_report_reads(command: str, cwd: str) -> list[str]:
    """Reports a shell command prints (``cat .x-reports/a.md``), in order."""
    return [word for word in shell_reads(command) if is_report(word, cwd)]


def shell_state_write(command: str) -> str | None:
    """The state file a shell command updates: a redirect to one, or the skill's state.py."""
    words = _words(command)
    for i, word in enumerate(words):
        if posixpath.basename(word) == "state.py" and i + 1 < len(words):
            if words[i + 1] in ("init", "step", "checkpoint", "finish"):
                return word
        if word.lstrip(">") and word.startswith(">") and is_state_file(word.lstrip(">")):
            return word.lstrip(">")
        if word in (">", ">>", "tee") and i + 1 < len(words) and is_state_file(words[i + 1]):
            return words[i + 1]
    return None


def shell_writes_file(command: str) -> bool:
    """Whether a shell command writes a file: an output redirect (``>``, ``>>``, ``&>``,
    ``>|``) or ``tee`` to a path. Redirects that write no file do not count: to /dev/null (the
    usual ``2>/dev/null`` of a command that only reads), /dev/stdout, /dev/stderr, or another
    descriptor (``2>&1``); nor does a ``>`` inside quotes."""
    if len(command) > _MAX_COMMAND:
        return False
    words = _operator_words(command)
    for i, word in enumerate(words):
        target = words[i + 1] if i + 1 < len(words) else ""
        if word in _REDIRECTS and _is_file(target, dup=word.endswith("&")):
            return True
        if posixpath.basename(word) == "tee" and (i == 0 or words[i - 1] in _SEPARATORS):
            for arg in words[i + 1 :]:
                if arg in _SEPARATORS or arg in _REDIRECTS:
                    break
                if not arg.startswith("-") and _is_file(arg):
                    return True
    return False


_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", ">&"})
_SEPARATORS = frozenset({"|", "||", "&&", ";", "&", "|&", "(", ")"})
_NOT_FILES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})


def _operator_words(command: str) -> list[str]:
    """The command's words with shell operators apart (``2>/dev/null`` -> ``2``, ``>``,
    ``/dev/null``); quoted text stays inside its word."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;()<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:  # an unclosed quote: read it as plain words, operators still apart
        return command.replace(">", " > ").split()


def _is_file(target: str, dup: bool = False) -> bool:
    """A redirect's target that is a file: not a descriptor (``&1``, ``1``, ``-`` after ``>&``)
    nor a device that writes nothing to disk."""
    if not target or target in _SEPARATORS or target in _REDIRECTS:
        return False
    if dup and (target.isdigit() or target == "-"):
        return False
    if target.startswith("/dev/fd/") or target in _NOT_FILES:
        return False
    return True


WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
