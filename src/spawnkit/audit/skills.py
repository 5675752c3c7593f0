"""Which skill each sub-agent launch (and each read-back, each workflow run) belongs to: one
implementation for every client's reader, and where each skill's SKILL.md lies.

The readers tell ``Spans`` what their client recorded, in order; ``Spans`` keeps a mark on
everything the orchestrator did and decides, once the session is read, which skill it was for:

- **A tag wins.** Claude Code (2.1.330 at least) writes ``"attributionSkill": "<name>"`` on the
  assistant record of every call made while a skill runs. In a session where the client tags
  launches, a launch belongs to the skill its tag names, and an untagged one to no skill.
- **Otherwise, spans.** Older Claude Code transcripts, Codex and Copilot CLI record no tag: a
  launch belongs to the last skill invoked (the Skill tool, a ``/name`` of a skill or custom
  command, Copilot's ``skill.invoked``, Codex's ``<skill>`` injection or a read of a SKILL.md)
  in the same user turn. The next real user prompt, a compaction or another skill's
  invocation ends the span. A client's built-in command (``/clear``, ``/compact``…) is no
  skill: typed, it is a prompt like any other.
- **A workflow run** whose script lies in a skill's folder belongs to that skill, whatever was
  running when it started.

What a reader hands over is a ``Mark`` (the tag of the record the call sat in, and the skill
whose span was open), attached to the item it concerns (``attach``); ``close`` resolves every
mark of the session at once, because whether the client tags launches is known only then.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, NamedTuple

from spawnkit import hosts
from spawnkit.audit.model import Session, SkillRun
from spawnkit.hosts import kinds
from spawnkit.hosts.builtins import CLAUDE_CODE as CLAUDE_BUILTINS

MAX_SKILLS_PER_SESSION = 200  # distinct names kept per session; a flood of them is not read on
BASE_DIRECTORY = "Base directory for this skill: "


class Mark(NamedTuple):
    tag: str | None  # what the client tagged the record with
    span: str | None  # the skill whose span was open


def clean_name(value: Any) -> str:
    """A skill's name as recorded, without a leading slash or surrounding blanks; "" when it
    is no usable name (not text, empty, over ``kinds.MAX_NAME`` characters or multi-line)."""
    if not isinstance(value, str):
        return ""
    name = value.strip().removeprefix("/")
    if not name or len(name) > kinds.MAX_NAME or any(c in name for c in "\n\r\t <>"):
        return ""
    return name


def is_builtin(name: str) -> bool:
    """A command Claude Code itself defines (``/clear``, ``/compact``, ``/model``…), not a skill."""
    return name in CLAUDE_BUILTINS


class Spans:
    """One session's skill spans and the marks waiting to be resolved (see the module)."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self.current: str | None = None
        self.tagged = False  # the client tagged at least one record of this session
        self.pending: list[tuple[Any, Mark]] = []

    # --- what the client recorded, in order ---------------------------------------------------

    def invoked(self, value: Any, *, base_dir: str = "", path: str = "") -> str:
        """A skill (or custom command) was invoked: its span starts now. Returns its name ("" when
        ``value`` is no usable name, which ends the current span all the same)."""
        name = clean_name(value)
        run = self._run(name) if name else None
        if run is None:
            self.current = None
            return ""
        run.runs += 1
        run.base_dir = base_dir or run.base_dir
        run.recorded_path = path or run.recorded_path
        self.current = name
        return name

    def located(self, base_dir: str) -> None:
        """The client said where it loaded the running skill from ("Base directory…")."""
        if self.current is not None and base_dir:
            self.s.skills[self.current].base_dir = base_dir[:4096]

    def ended(self) -> None:
        """A real user prompt or a compaction: no skill runs any more."""
        self.current = None

    def tag(self, value: Any) -> str | None:
        """The client's tag on a record (``attributionSkill``): noted, and returned clean."""
        name = clean_name(value)
        if name:
            self.tagged = True
            return name
        return None

    # --- marks ---------------------------------------------------------------------------------

    def mark(self, tag: str | None = None) -> Mark:
        """The mark of a call made now, in a record the client tagged ``tag`` (or not)."""
        return Mark(tag, self.current)

    def attach(self, item: Any, mark: Mark) -> None:
        """``item`` (a return, a read-back, a workflow run: anything with a ``skill``) gets the
        skill ``mark`` resolves to, once the session is read."""
        self.pending.append((item, mark))

    def close(self) -> None:
        """Resolve every mark: the tag where the client tags, else the span. Every skill an item
        was given is among the session's skills (a tag may name one whose invocation lies in
        another file, or before the transcript begins)."""
        for item, mark in self.pending:
            name = mark.tag if self.tagged else mark.span
            if name is not None and self._run(name) is None:
                name = None
            item.skill = name
        self.pending.clear()

    def _run(self, name: str) -> SkillRun | None:
        run = self.s.skills.get(name)
        if run is None:
            if len(self.s.skills) >= MAX_SKILLS_PER_SESSION:
                return None
            run = self.s.skills[name] = SkillRun(name)
        return run


def command_name(text: str) -> str | None:
    """The ``/name`` a user record holds (``<command-name>/name</command-name>``), or None."""
    at = text.find("<command-name>")
    if at == -1:
        return None
    end = text.find("</command-name>", at, at + 400)
    return text[at + len("<command-name>") : end] if end != -1 else None


def base_directory(text: str) -> str:
    """The folder of a "Base directory for this skill: <folder>" line at the start of ``text``."""
    if not text.startswith(BASE_DIRECTORY):
        return ""
    line = text[len(BASE_DIRECTORY) : len(BASE_DIRECTORY) + 4096].split("\n", 1)[0].strip()
    return line if line.startswith("/") else ""


def script_skill(session: Session, script: str, config_dirs: list) -> str | None:
    """The skill whose folder holds a workflow ``script`` (a path as the call named it,
    relative to the session's folder), or None. A skill invoked in the session from that folder
    keeps the name it was invoked by; otherwise the folder's name is the skill's."""
    if not script or "\0" in script:
        return None
    path = script if script.startswith("/") else ""
    if not path and session.project.startswith("/"):
        path = os.path.normpath(os.path.join(session.project, script))
    if not path:
        return None
    found = kinds.skill_folder(os.path.normpath(path), config_dirs)
    if found is None:
        return None
    folder_name, folder = found
    for run in session.skills.values():
        if run.base_dir and os.path.normpath(run.base_dir) == folder:
            return run.name
    if folder_name not in session.skills:
        if len(session.skills) >= MAX_SKILLS_PER_SESSION:
            return None
        session.skills[folder_name] = SkillRun(folder_name, base_dir=folder)
    elif not session.skills[folder_name].base_dir:
        session.skills[folder_name].base_dir = folder
    return folder_name


# --- where a skill's file lies ----------------------------------------------------------------


def locate(session: Session) -> None:
    """Each skill of the session gets the path of its SKILL.md (or command file), from what the
    client recorded (the SKILL.md path, the base directory), else from the session's own working
    directory, else from the user's skills folder; never from where the audit runs."""
    env = tuple(os.environ.get(k, "") for k in _ENV)
    for run in session.skills.values():
        run.path = _find(
            session.host, run.name, run.recorded_path, run.base_dir, session.project, env
        )


_ENV = ("HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME")


@lru_cache(maxsize=4096)
def _find(
    host_name: str, name: str, recorded: str, base_dir: str, cwd: str, env_key: tuple[str, ...]
) -> str | None:
    env = {k: v for k, v in zip(_ENV, env_key, strict=True) if v}
    config_dirs = kinds.roots(env)
    claimed = [recorded] if recorded else []
    if base_dir:
        claimed.append(os.path.join(base_dir, "SKILL.md"))
    for path in claimed:
        path = os.path.normpath(path)
        # a path a transcript names is reported only where a host loads skills from
        if path.startswith("/") and kinds.skill_folder(path, config_dirs) and _is_file(path):
            return path
    for path in kinds.skill_files(hosts.get(host_name), name, cwd, env):
        if _is_file(path):
            return os.path.normpath(path)
    return None


def _is_file(path: str) -> bool:
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):
        return False


def items(session: Session) -> list[tuple[str, list]]:
    """Each kind of return-like item a session holds, with the list of them: what the per-skill
    view counts (``by_skill.Tally``). Every item has ``skill``, ``tokens`` and ``deliveries``."""
    return [("returns", session.returns), ("messages", session.messages)]
