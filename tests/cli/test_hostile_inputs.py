"""Every verb against the inputs a newcomer's file system hands it (issue 14).

Missing paths, a folder where a file is expected and the reverse, unreadable files, non-UTF-8
bytes, FIFOs (which block a naive ``open``) and read-only parents. Whatever happens: a
documented exit code, at most one line on stderr, never a traceback; a refusal (exit 2) is
one ``spawnkit: error: …`` line and leaves every file as it was. Permission cases run as an
unprivileged user, since root ignores file modes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from .sandbox import DOCUMENTED_EXIT_CODES, Sandbox

pytestmark = pytest.mark.slow

SKILL = """---
name: {name}
description: Audits the repository step by step.
---

# {name}

Read the code and list the findings.
"""
NOT_UTF8 = b"---\nname: bad\ndescription: caf\xe9 \xff\n---\nbody \xfe\n"


def hand_written(box: Sandbox, name: str = "audit", parent: Path | None = None) -> Path:
    folder = (parent or box.work) / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL.format(name=name), encoding="utf-8")
    return folder


def managed(box: Sandbox, name: str = "audit") -> Path:
    result = box.run("new", name, "--defaults", "--dest", name)
    assert result.code == 0, result
    return box.work / name


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def unreadable(path: Path) -> Path:
    os.chmod(path, 0)
    return path


def read_only(path: Path) -> Path:
    os.chmod(path, 0o555)
    return path


def not_utf8(path: Path, data: bytes = NOT_UTF8) -> Path:
    path.write_bytes(data)
    return path


def a_file(path: Path, text: str = "not a folder\n") -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def config(box: Sandbox) -> Path:
    return box.home / ".claude"


@dataclass(frozen=True)
class Case:
    id: str
    setup: Callable[[Sandbox], tuple]  # returns the arguments (str or bytes)
    codes: frozenset[int] = frozenset({2})  # what a correct spawnkit may answer
    user: bool = False  # run as an unprivileged user (file modes matter)
    lines: int = 1  # error lines allowed: one per file that cannot be read


def case(
    id: str, setup: Callable[[Sandbox], tuple], *codes: int, user: bool = False, lines: int = 1
) -> Case:
    return Case(id, setup, frozenset(codes or {2}), user, lines)


# --- the hostile project (issue 21): what a cloned repository can plant -------------------

DEEP = 600  # flow levels: the strict reader's recursion once died near 500


def outside(box: Sandbox) -> Path:
    """A folder of the user's beside the project, which no command may write into."""
    return box.root / "outside"


def hostile(box: Sandbox) -> Path:
    """A project with links out of it, deep nesting and odd empties, every one planted where a
    verb looks: skills linked and sub-folders linked outside, a dangling skill link, a
    frontmatter nested ``DEEP`` levels, an empty SKILL.md, an empty frontmatter, settings and
    Codex hooks with empty containers. Returns the project (the working folder)."""
    away = outside(box)
    (away / "skill").mkdir(parents=True, exist_ok=True)
    (away / "skill" / "SKILL.md").write_text(SKILL.format(name="linked-out"), encoding="utf-8")
    (away / "scripts").mkdir(exist_ok=True)
    skills = box.work / ".claude" / "skills"
    skills.mkdir(parents=True)
    (skills / "linked-out").symlink_to(away / "skill")
    (skills / "dangling").symlink_to(away / "nothing-here")
    deep = skills / "deep"
    deep.mkdir()
    (deep / "SKILL.md").write_text(
        "---\nname: deep\ndescription: " + "[" * DEEP + "]" * DEEP + "\n---\n\nbody\n",
        encoding="utf-8",
    )
    (skills / "empty").mkdir()
    (skills / "empty" / "SKILL.md").write_text("", encoding="utf-8")
    (skills / "blank-front").mkdir()
    (skills / "blank-front" / "SKILL.md").write_text("---\n---\n", encoding="utf-8")
    linked_scripts = hand_written(box, "linked-scripts", skills)
    (linked_scripts / "scripts").symlink_to(away / "scripts")
    (box.work / ".claude" / "settings.json").write_text('{"hooks": { }}', encoding="utf-8")
    (box.work / ".codex").mkdir()
    (box.work / ".codex" / "hooks.json").write_text('{"hooks":{"SubagentStop":[ ]}}')
    (box.work / ".spawnkit.toml").write_text("", encoding="utf-8")
    return box.work


def in_hostile(*args: str) -> Callable[[Sandbox], tuple]:
    return lambda b: (hostile(b), args)[1]


def with_managed_outside(*args: str) -> Callable[[Sandbox], tuple]:
    """The hostile project, plus a skill made by ``spawnkit new`` outside it and linked in."""

    def setup(box: Sandbox) -> tuple:
        hostile(box)
        made = box.run("new", "managed-out", "--defaults", "--dest", "../outside/managed-out")
        assert made.code == 0, made
        (box.work / ".claude" / "skills" / "managed-out").symlink_to(outside(box) / "managed-out")
        return args

    return setup


HOSTILE = [
    # lint: one line for the deep file, the others' findings still reported
    case("hostile-lint", in_hostile("lint", ".claude"), 2, lines=3),
    case("hostile-lint-no-path", in_hostile("lint"), 2, lines=3),
    case("hostile-doctor", in_hostile("doctor"), 1),
    case("hostile-doctor-project", in_hostile("doctor", "--scope", "project"), 1),
    case("hostile-new", in_hostile("new", "fresh", "--defaults"), 0),
    case("hostile-new-over-link", in_hostile("new", "linked-out", "--defaults", "--force")),
    case("hostile-new-dangling", in_hostile("new", "dangling", "--defaults")),
    case("hostile-adopt-deep", in_hostile("adopt", ".claude/skills/deep")),
    case("hostile-adopt-linked", in_hostile("adopt", ".claude/skills/linked-out")),
    case(
        "hostile-retrofit-linked-scripts",
        in_hostile("adopt", ".claude/skills/linked-scripts", "--retrofit"),
    ),
    case("hostile-adopt-empty", in_hostile("adopt", ".claude/skills/empty"), 0),
    case("hostile-update-all", in_hostile("update", "--all"), 0),
    case("hostile-update-check", in_hostile("update", "--check"), 0),
    case("hostile-update-linked-skill", with_managed_outside("update", "--all")),
    case("hostile-update-linked-skill-dry", with_managed_outside("update", "--all", "--dry-run")),
    case("hostile-update-check-linked-skill", with_managed_outside("update", "--check"), 0),
    case("hostile-install-project", in_hostile("install", "--scope", "project", "--yes"), 0),
    case(
        "hostile-install-codex-project",
        in_hostile("install", "--host", "codex", "--scope", "project", "--yes"),
        0,
    ),
    case("hostile-uninstall-project", in_hostile("uninstall", "--scope", "project", "--yes"), 0),
    case("hostile-tokens-deep", in_hostile("tokens", ".claude/skills/deep/SKILL.md"), 0),
    case("hostile-audit", in_hostile("audit", "--project", "."), 0),
    case("hostile-rule", in_hostile("rule", "state-file"), 0),
]


CASES = [
    # --- tokens FILE
    case("tokens-missing", lambda b: ("tokens", "nope.md")),
    case("tokens-dir", lambda b: ("tokens", str(b.work))),
    case("tokens-fifo", lambda b: ("tokens", str(fifo(b.work / "pipe.md")))),
    case(
        "tokens-unreadable",
        lambda b: ("tokens", str(unreadable(a_file(b.work / "r.md")))),
        user=True,
    ),
    case("tokens-not-utf8", lambda b: ("tokens", str(not_utf8(b.work / "r.md"))), 0),
    # --- lint PATHS / --config
    case("lint-missing", lambda b: ("lint", "nope")),
    case("lint-skill-md-dir", lambda b: ("lint", str(_skill_md_dir(b))), 0, 2),
    case("lint-fifo-file", lambda b: ("lint", str(fifo(b.work / "SKILL.md")))),
    case("lint-fifo-in-skill", lambda b: ("lint", str(_fifo_skill(b)))),
    case("lint-not-utf8", lambda b: ("lint", str(not_utf8(hand_written(b) / "SKILL.md")))),
    case(
        "lint-unreadable",
        lambda b: ("lint", str(unreadable(hand_written(b) / "SKILL.md"))),
        user=True,
    ),
    case("lint-unreadable-dir", lambda b: ("lint", str(unreadable(hand_written(b)))), user=True),
    case("lint-config-missing", lambda b: ("lint", "--config", "nope.toml", str(hand_written(b)))),
    case("lint-config-dir", lambda b: ("lint", "--config", str(b.work), str(hand_written(b)))),
    case(
        "lint-config-fifo",
        lambda b: ("lint", "--config", str(fifo(b.work / "c.toml")), str(hand_written(b))),
    ),
    case(
        "lint-config-not-utf8",
        lambda b: (
            "lint",
            "--config",
            str(not_utf8(b.work / ".spawnkit.toml", b"profile = '\xff'\n")),
            str(hand_written(b)),
        ),
    ),
    case(
        "lint-config-unreadable",
        lambda b: (
            "lint",
            "--config",
            str(unreadable(a_file(b.work / "c.toml", "profile = 'portable'\n"))),
            str(hand_written(b)),
        ),
        user=True,
    ),
    case(
        "lint-found-config-not-utf8",
        lambda b: (
            not_utf8(b.work / ".spawnkit.toml", b"x = '\xff'\n"),
            ("lint", str(hand_written(b))),
        )[1],
    ),
    # --- rule CODE
    case("rule-not-utf8", lambda b: ("rule", b"CM\xff")),
    case("rule-code-and-all", lambda b: ("rule", "CM005", "--all")),
    # --- new NAME
    case(
        "new-dest-under-file",
        lambda b: ("new", "zz", "--defaults", "--dest", str(a_file(b.work / "f") / "zz")),
    ),
    case(
        "new-dest-is-file",
        lambda b: ("new", "zz", "--defaults", "--dest", str(a_file(b.work / "zz"))),
    ),
    case(
        "new-dest-fifo", lambda b: ("new", "zz", "--defaults", "--dest", str(fifo(b.work / "zz")))
    ),
    case(
        "new-dest-read-only-parent",
        lambda b: ("new", "y", "--defaults", "--dest", str(read_only(_dir(b.work / "ro")) / "y")),
        user=True,
    ),
    case(
        "new-dest-unreadable",
        lambda b: (
            "new",
            "y",
            "--defaults",
            "--force",
            "--dest",
            str(unreadable(hand_written(b, "y"))),
        ),
        user=True,
    ),
    case("new-name-not-utf8", lambda b: ("new", b"a\xff", "--defaults")),
    case(
        "new-data-not-utf8",
        lambda b: ("new", "x", "--defaults", "--dest", "x", "-d", b"purpose=caf\xe9"),
    ),
    case(
        "new-scope-user-read-only",
        lambda b: (
            ("new", "x", "--defaults", "--scope", "user") if read_only(_dir(config(b))) else ()
        ),
        user=True,
    ),
    case(
        "new-scope-project-claude-is-file",
        lambda b: (a_file(b.work / ".claude"), ("new", "x", "--defaults"))[1],
    ),
    case(
        "new-missing-parents",
        lambda b: ("new", "x", "--defaults", "--dest", str(b.work / "a" / "b" / "x")),
        0,
    ),
    # --- adopt PATH
    case("adopt-missing", lambda b: ("adopt", "nope")),
    case("adopt-file", lambda b: ("adopt", str(a_file(b.work / "f")))),
    case("adopt-skill-md-dir", lambda b: ("adopt", str(_skill_md_dir(b)))),
    case("adopt-skill-md-fifo", lambda b: ("adopt", str(_fifo_skill(b)))),
    case("adopt-not-utf8", lambda b: ("adopt", str(_not_utf8_skill(b)))),
    case("adopt-unreadable", lambda b: ("adopt", str(_unreadable_skill(b))), user=True),
    case("adopt-read-only-skill", lambda b: ("adopt", str(read_only(hand_written(b)))), user=True),
    case("adopt-answers-dir", lambda b: ("adopt", str(_answers_dir(b)))),
    case(
        "adopt-config-read-only",
        lambda b: (read_only(_dir(config(b))), ("adopt", str(hand_written(b))))[1],
        user=True,
    ),
    case(
        "adopt-data-not-utf8",
        lambda b: ("adopt", str(hand_written(b)), "--data", b"purpose=caf\xe9"),
    ),
    # --- update NAME|PATH
    case("update-missing", lambda b: ("update", "nope/")),
    case("update-file", lambda b: ("update", str(a_file(b.work / "f")))),
    case("update-answers-not-utf8", lambda b: ("update", str(_answers(b, not_utf8)))),
    case("update-answers-fifo", lambda b: ("update", str(_answers(b, _replace_with_fifo)))),
    case(
        "update-answers-unreadable", lambda b: ("update", str(_answers(b, unreadable))), user=True
    ),
    case(
        "update-read-only-skill",
        lambda b: ("update", "--all") if read_only(managed(b)) else (),
        0,
        2,
        user=True,
    ),
    case(
        "update-check-unreadable-skills",
        lambda b: ("update", "--check") if unreadable(_dir(b.work / ".claude" / "skills")) else (),
        0,
        2,
        user=True,
    ),
    # --- audit PATH / --project / -o / --since
    case("audit-missing", lambda b: ("audit", "nope.jsonl")),
    case("audit-fifo", lambda b: ("audit", str(fifo(b.work / "pipe.jsonl")))),
    case(
        "audit-unreadable",
        lambda b: ("audit", str(unreadable(a_file(b.work / "t.jsonl", "{}\n")))),
        user=True,
    ),
    case(
        "audit-unreadable-dir", lambda b: ("audit", str(unreadable(_dir(b.work / "t")))), user=True
    ),
    case("audit-not-utf8", lambda b: ("audit", str(not_utf8(b.work / "t.jsonl"))), 0),
    case("audit-project-file", lambda b: ("audit", "--project", str(a_file(b.work / "f")))),
    case("audit-output-dir", lambda b: ("audit", "-o", str(b.work), str(_dir(b.work / "t")))),
    case(
        "audit-output-no-parent",
        lambda b: ("audit", "-o", str(b.work / "no" / "r.html"), str(_dir(b.work / "t"))),
    ),
    case(
        "audit-output-read-only",
        lambda b: (
            "audit",
            "--format",
            "html",
            "-o",
            str(read_only(_dir(b.work / "ro")) / "r.html"),
            str(_dir(b.work / "t")),
        ),
        user=True,
    ),
    case("audit-bad-since", lambda b: ("audit", "--since", "soon", str(_dir(b.work / "t")))),
    # --- install / uninstall / doctor --config-dir
    case(
        "install-config-dir-missing",
        lambda b: ("install", "--config-dir", str(b.work / "nope" / "dir")),
    ),
    case(
        "install-config-dir-file", lambda b: ("install", "--config-dir", str(a_file(b.work / "f")))
    ),
    case(
        "install-config-dir-read-only",
        lambda b: ("install", "--config-dir", str(read_only(_dir(b.work / "cc")))),
        user=True,
    ),
    case(
        "install-config-dir-unreadable",
        lambda b: ("install", "--config-dir", str(unreadable(_dir(b.work / "cc")))),
        user=True,
    ),
    case("install-settings-dir", lambda b: ("install", "--config-dir", str(_settings(b, _dir)))),
    case("install-settings-fifo", lambda b: ("install", "--config-dir", str(_settings(b, fifo)))),
    case(
        "install-settings-not-utf8",
        lambda b: (
            "install",
            "--config-dir",
            str(_settings(b, lambda p: not_utf8(p, b'{"a": "\xff"}'))),
        ),
    ),
    case(
        "install-settings-unreadable",
        lambda b: (
            "install",
            "--config-dir",
            str(_settings(b, lambda p: unreadable(a_file(p, "{}")))),
        ),
        user=True,
    ),
    case(
        "install-project-claude-is-file",
        lambda b: (a_file(b.work / ".claude"), ("install", "--scope", "project"))[1],
    ),
    case(
        "uninstall-config-dir-missing",
        lambda b: ("uninstall", "--config-dir", str(b.work / "nope")),
        0,
        2,
    ),
    case(
        "uninstall-settings-fifo", lambda b: ("uninstall", "--config-dir", str(_settings(b, fifo)))
    ),
    case(
        "uninstall-settings-not-utf8",
        lambda b: (
            "uninstall",
            "--config-dir",
            str(_settings(b, lambda p: not_utf8(p, b'{"a": "\xff"}'))),
        ),
    ),
    case(
        "uninstall-config-dir-unreadable",
        lambda b: ("uninstall", "--config-dir", str(unreadable(_dir(b.work / "cc")))),
        user=True,
    ),
    case(
        "doctor-config-dir-missing",
        lambda b: ("doctor", "--config-dir", str(b.work / "nope")),
        1,
        2,
    ),
    case(
        "doctor-settings-fifo", lambda b: ("doctor", "--config-dir", str(_settings(b, fifo))), 1, 2
    ),
    case(
        "doctor-settings-not-utf8",
        lambda b: (
            "doctor",
            "--config-dir",
            str(_settings(b, lambda p: not_utf8(p, b'{"a": "\xff"}'))),
        ),
        1,
        2,
    ),
    case(
        "doctor-config-dir-unreadable",
        lambda b: ("doctor", "--config-dir", str(unreadable(_dir(b.work / "cc")))),
        1,
        2,
        user=True,
    ),
    *HOSTILE,
]


def _dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _skill_md_dir(box: Sandbox) -> Path:
    folder = _dir(box.work / "audit")
    _dir(folder / "SKILL.md")
    return folder


def _fifo_skill(box: Sandbox) -> Path:
    folder = _dir(box.work / "audit")
    fifo(folder / "SKILL.md")
    return folder


def _not_utf8_skill(box: Sandbox) -> Path:
    folder = _dir(box.work / "bad")
    not_utf8(folder / "SKILL.md")
    return folder


def _unreadable_skill(box: Sandbox) -> Path:
    folder = hand_written(box)
    unreadable(folder / "SKILL.md")
    return folder


def _answers_dir(box: Sandbox) -> Path:
    folder = hand_written(box)
    _dir(folder / ".copier-answers.yml")
    return folder


def _replace_with_fifo(path: Path) -> Path:
    path.unlink()
    return fifo(path)


def _with_fifo(folder: Path) -> Path:
    fifo(folder / "pipe")
    return folder


def _answers(box: Sandbox, spoil: Callable[[Path], Path]) -> Path:
    folder = managed(box)
    spoil(folder / ".copier-answers.yml")
    return folder


def _settings(box: Sandbox, make: Callable[[Path], Path]) -> Path:
    folder = _dir(box.work / "cc")
    make(folder / "settings.json")
    return folder


@pytest.mark.parametrize("item", CASES, ids=[c.id for c in CASES])
def test_hostile_input(sandbox: Sandbox, item: Case, request: pytest.FixtureRequest):
    if item.user:
        request.getfixturevalue("unprivileged")
    args = item.setup(sandbox)
    before = sandbox.snapshot()
    away = sandbox.snapshot(outside(sandbox)) if outside(sandbox).exists() else None
    result = sandbox.run(*args, user=item.user, timeout=60)
    assert "Traceback" not in result.stderr + result.stdout, result
    assert "internal error" not in result.stderr, result
    assert result.code in DOCUMENTED_EXIT_CODES, result
    assert result.code in item.codes, result
    errors = [line for line in result.error_lines if not line.startswith("spawnkit: warning:")]
    assert len(errors) <= item.lines, result
    assert len(set(errors)) == len(errors), f"a file reported twice\n{result}"
    if away is not None:
        assert sandbox.snapshot(outside(sandbox)) == away, f"wrote outside the project\n{result}"
    if result.code == 2:
        assert errors and errors[0].startswith("spawnkit: error: "), result
        assert sandbox.snapshot() == before, f"a refusal changed files\n{result}"
