"""Find the files ``spawnkit lint`` checks: SKILL.md, commands/*.md, agents/*.md, workflows.

An ``agents/*.md`` file is a Claude Code agent only under a root Claude Code reads agents
from: a ``.claude`` folder, the Claude config dir, or a plugin (a folder holding
``.claude-plugin/plugin.json``) — the rule the lint-on-write hook applies
(:func:`spawnkit.hosts.kinds.file_kind`), so ``docs/agents/README.md`` is not one.
Symbolic links are followed where they stay inside the folder they belong to (the project,
or the folder named on the command line), and anywhere in the user's own folders (a skill
linked into ``~/.claude/skills`` from a dotfiles repository is a skill); each real folder is
walked once, so a link cycle ends the walk instead of looping. A link out of a project is
never opened (``files.walk``, issue 30).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from spawnkit.files import walk
from spawnkit.hosts.paths import claude_config_dir, project_claude_dir

# folders never worth walking into
_SKIP_DIRS = {
    ".git",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    "dist",
    "build",
    "site-packages",
}


# dot-folders a walk enters: where a host keeps a project's skills, commands and agents
_HOST_DIRS = {".claude", ".gemini", ".qwen"}


def default_roots(cwd: Path | None = None) -> list[Path]:
    """With no path given: the user's Claude config dir and the project's .claude, then the
    skill folders Codex reads (``$CODEX_HOME/skills`` but its ``.system`` built-ins,
    ``~/.agents/skills``, ``./.agents/skills``, ``./.codex/skills``) and Copilot CLI reads
    (``$COPILOT_HOME/skills``, ``./.github/skills``), those present."""
    from spawnkit import hosts
    from spawnkit.hosts.paths import all_skill_dirs

    here = Path(cwd) if cwd is not None else Path.cwd()
    candidates = [claude_config_dir(), project_claude_dir(cwd)]
    codex_home = Path(hosts.CODEX.config_dir(os.environ))
    for _scope, folder in all_skill_dirs(here):
        if folder.is_dir() and folder.resolve() == (codex_home / "skills").resolve():
            candidates += sorted(p for p in folder.iterdir() if p.name != ".system")
        else:
            candidates.append(folder)
    roots: list[Path] = []
    for root in candidates:
        if root.is_dir() and not any(_within(root, r) for r in roots):
            roots.append(root)
    return roots


def default_root_labels() -> list[tuple[str, str]]:
    """The folders ``default_roots`` looks in, as people read them: ``(short, long)`` per
    folder, ``~/.claude`` and ``$CLAUDE_CONFIG_DIR (or ~/.claude)`` (see
    ``hosts.paths.shown``), one inside another left out. ``lint --help`` and the README name
    these."""
    from spawnkit import hosts
    from spawnkit.hosts.paths import shown, skill_dir_labels

    claude = hosts.CLAUDE_CODE
    first = [shown(claude, "{config}"), shown(claude, claude.project_folder)]
    found = list(first)
    for _scope, short, long in skill_dir_labels():
        if not any(short == s or short.startswith(s + "/") for s, _ in found):
            found.append((short, long))
    return found


def _within(path: Path, root: Path) -> bool:
    """``path`` is ``root`` or inside it (resolved), so walking ``root`` already covers it."""
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


def location_profile(path: Path) -> str | None:
    """The lint profile a file's location implies: ``portable`` for Codex's skill folders
    (Codex reads only the spec's keys), ``copilot`` for Copilot CLI's, ``claude-code`` for
    Claude Code's, else None."""
    from spawnkit.hosts.kinds import locate, roots

    found = locate(os.path.abspath(path), roots(os.environ))
    return found[1] if found else None


def is_agent_file(path: Path, config_dir: str | None = None) -> bool:
    """Whether ``path`` (under an ``agents/`` folder) is where a host loads agents from: Claude
    Code (``config_dir``, default its config folder), Gemini CLI or Qwen Code."""
    from spawnkit import hosts
    from spawnkit.hosts.kinds import file_kind

    if config_dir is None:
        config_dir = str(claude_config_dir())
    roots = [(hosts.CLAUDE_CODE, config_dir)]
    roots += [
        (h, h.config_dir(os.environ))
        for h in hosts.all_hosts()
        if h is not hosts.CLAUDE_CODE and "agent" in h.file_kinds
    ]
    return file_kind(os.path.abspath(path), roots) == "agent"


def is_workflow_script(path: Path, config_dir: str | None = None) -> bool:
    """A script Claude Code runs as a workflow: ``workflow.js`` beside a SKILL.md, or a ``.js``
    file directly in a ``workflows/`` folder of a ``.claude`` folder, the Claude config dir or a
    plugin (Claude Code reads only that folder's own ``*.js`` files)."""
    if path.suffix != ".js":
        return False
    if path.name == "workflow.js":
        return (path.parent / "SKILL.md").is_file()
    if path.parent.name != "workflows":
        return False
    root = path.parent.parent
    if root.name == ".claude" or (root / ".claude-plugin" / "plugin.json").is_file():
        return True
    if config_dir is None:
        config_dir = str(claude_config_dir())
    return os.path.abspath(root) == os.path.abspath(config_dir)


def is_lintable(path: Path, config_dir: str | None = None) -> bool:
    """SKILL.md anywhere, a Markdown file in a commands/ folder, an agent file or a workflow
    script (see above)."""
    if path.name == "SKILL.md":
        return True
    if path.suffix == ".js":
        return is_workflow_script(path, config_dir)
    if path.suffix != ".md":
        return False
    parts = path.parts[:-1]
    if "commands" in parts:
        return True
    return "agents" in parts and is_agent_file(path, config_dir)


class Walk(walk.Walk):
    """What the walks found besides files (``files.walk.Walk``: folders unreadable, link
    cycles, links out of the project, where a bound stopped it) and the ``agents/*.md``
    files outside any root Claude Code reads agents from."""

    def __init__(self, bounds: walk.Bounds | None = None) -> None:
        super().__init__(bounds)
        self.not_agents: list[Path] = []


def _skipped_folder(name: str) -> bool:
    return (
        name in _SKIP_DIRS
        or name.endswith("-reports")
        or (name.startswith(".") and name not in _HOST_DIRS)
    )


def discover(
    paths: Iterable[Path],
    exclude: Iterable[str] = (),
    walk_state: Walk | None = None,
    cwd: Path | None = None,
    boundary: Path | None | Literal["each"] = "each",
) -> Iterator[Path]:
    """Lintable files under ``paths``; a file named explicitly is linted if it is Markdown.

    Each path keeps to its boundary (``files.walk.boundaries``): a link out of the project
    or the folder named, to a file or a folder, is listed in ``walk_state.outside`` and
    never opened; the walks together stop at ``files.walk``'s bounds. A ``boundary`` other
    than ``"each"`` (a folder, or None for the user's own) holds for every path instead
    (``doctor``: the project whose config folder it checks)."""
    from spawnkit.hosts.paths import user_roots

    patterns = list(exclude)
    state = walk_state if walk_state is not None else Walk()
    seen: set[Path] = set()
    config_dir = str(claude_config_dir())

    def keep(path: Path) -> bool:
        if path in seen or _excluded(path, patterns):
            return False
        if is_lintable(path, config_dir):
            seen.add(path)
            return True
        if path.suffix == ".md" and "agents" in path.parts[:-1]:
            state.not_agents.append(path)
        return False

    here = cwd if cwd is not None else Path.cwd()
    paths = list(paths)
    pairs = (
        walk.boundaries(paths, here, user_roots())
        if boundary == "each"
        else [(p, boundary) for p in paths]
    )
    for root, within in pairs:
        if not root.is_dir():
            if root.suffix in (".md", ".js") and not _excluded(root, patterns) and root not in seen:
                if walk.named(root, within, state):
                    seen.add(root)
                    yield root
            continue
        yield from walk.files(root, within, state, keep, _skipped_folder)


def _excluded(path: Path, patterns: list[str]) -> bool:
    if not patterns:
        return False
    import fnmatch  # only with exclude patterns in the config

    text = path.as_posix()
    return any(
        fnmatch.fnmatch(text, p) or fnmatch.fnmatch(path.name, p) or fnmatch.fnmatch(text, f"*/{p}")
        for p in patterns
    )
