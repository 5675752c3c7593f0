"""Shared pieces of the update/adopt/store tests: template versions, skills, the no-line-lost check.

Three template versions are built from the REAL template (the one this checkout ships),
each a modified copy committed into a test store under tags below any real release:
- V1: the real template plus three reference files.
- V2: a frontmatter key added right under ``description:``, a line added right under the
  first ``## `` heading, ``reference/legacy.md`` dropped, ``reference/extra.md`` changed.
- V3: ``reference/guide.md`` renamed to ``reference/handbook.md`` (one line changed) and a
  line added under the second ``## `` heading.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from types import SimpleNamespace

from spawnkit.standard import resources
from spawnkit.template import fsutil, store
from spawnkit.template.gitutil import isolated_env

V1, V2, V3 = "0.0.1", "0.0.2", "0.0.3"
SKILL_TPL = "template/SKILL.md.jinja"
ANSWERS = ".copier-answers.yml"
V2_FRONTMATTER_LINE = "license: Apache-2.0"
V2_BODY_LINE = "Template v2 puts this new rule right under the first section heading."
V3_BODY_LINE = "Template v3 adds this line under the second section heading."


def lines(n: int, word: str) -> bytes:
    return "".join(f"{word} line {i}\n" for i in range(1, n + 1)).encode()


def real_files() -> store.Files:
    files = store.read_content(resources.data_root())
    assert SKILL_TPL in files, f"the real template has no {SKILL_TPL}"
    return files


def _edit_skill_tpl(files: store.Files, edit) -> store.Files:
    mode, data = files[SKILL_TPL]
    text = data.decode().splitlines(keepends=True)
    edit(text)
    return {**files, SKILL_TPL: (mode, "".join(text).encode())}


def _frontmatter_line(text: list[str], key: str) -> int:
    start = next(i for i, x in enumerate(text) if x.rstrip() == "---")
    end = next(i for i in range(start + 1, len(text)) if text[i].rstrip() == "---")
    return next(i for i in range(start + 1, end) if text[i].startswith(f"{key}:"))


def _heading(text: list[str], nth: int) -> int:
    return [i for i, x in enumerate(text) if x.startswith("## ")][nth]


def make_versions() -> dict[str, store.Files]:
    v1 = {
        **real_files(),
        "template/reference/guide.md": ("100644", lines(20, "guide")),
        "template/reference/legacy.md": ("100644", lines(10, "legacy")),
        "template/reference/extra.md": ("100644", lines(5, "extra")),
    }

    def v2_edit(text: list[str]) -> None:
        text.insert(_heading(text, 0) + 1, V2_BODY_LINE + "\n")
        text.insert(_frontmatter_line(text, "description") + 1, V2_FRONTMATTER_LINE + "\n")

    v2 = _edit_skill_tpl(v1, v2_edit)
    del v2["template/reference/legacy.md"]
    v2["template/reference/extra.md"] = ("100644", lines(5, "extra") + b"extra line added in v2\n")

    v3 = _edit_skill_tpl(v2, lambda text: text.insert(_heading(text, 1) + 1, V3_BODY_LINE + "\n"))
    guide = v3.pop("template/reference/guide.md")[1].replace(
        b"guide line 2\n", b"handbook line 2\n"
    )
    v3["template/reference/handbook.md"] = ("100644", guide)
    return {V1: v1, V2: v2, V3: v3}


def build_store(config_dir: Path, versions: dict[str, store.Files] | None = None) -> store.Store:
    st = store.Store(store.store_dir(config_dir))
    st.init()
    for tag, files in (versions or make_versions()).items():
        st.add_version(tag, files)
    return st


def generate(config_dir: Path, tag: str, dest: Path, data: dict | None = None) -> Path:
    """A skill made from the store at ``tag``, the way `spawnkit new` makes one."""
    from copier import run_copy

    src = store.src_path_for(store.store_dir(config_dir))
    with isolated_env(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_copy(src, dest, data=data or {}, vcs_ref=tag, defaults=True, quiet=True, unsafe=False)
    return dest


def make_env(tmp_path: Path, monkeypatch) -> SimpleNamespace:
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.chdir(project)
    return SimpleNamespace(home=home, config=home / ".claude", project=project)


def tree_state(*roots: Path) -> dict[str, tuple[int, bytes, float]]:
    """Every file and folder under ``roots`` with mode, content and mtime: 'wrote nothing' means equal."""
    state = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames:
                p = Path(dirpath) / name
                st = p.lstat()
                data = p.read_bytes() if p.is_file() and not p.is_symlink() else b""
                state[str(p)] = (st.st_mode, data, st.st_mtime_ns)
    return state


# --- no user line is lost ----------------------------------------------------------------


def user_lines(skill: Path, generated: fsutil.Snapshot) -> dict[str, list[str]]:
    """Lines the user wrote: every non-blank line of a file that its generated version lacks."""
    found = {}
    for rel, (_, data) in fsutil.snapshot(skill).items():
        if rel == ANSWERS:
            continue
        made = set(generated.get(rel, (0, b""))[1].decode().splitlines())
        mine = [x for x in data.decode().splitlines() if x.strip() and x not in made]
        if mine:
            found[rel] = mine
    return found


def assert_user_lines_survive(before: dict[str, list[str]], skill: Path, result) -> None:
    """Each user line is still in its file (merged or between conflict markers), in the file the
    template renamed it to, or — for a file the update removed — in the reported backup."""
    after = fsutil.snapshot(skill)
    renamed = {r["from"]: r["to"] for r in result.renamed}
    for rel, wanted in before.items():
        if rel in renamed:
            place = after[renamed[rel]][1].decode()
        elif rel in after:
            place = after[rel][1].decode()
        else:
            assert rel in result.removed and result.backup, (
                f"{rel} vanished without a reported backup"
            )
            place = (Path(result.backup) / rel).read_text()
        kept = place.splitlines()
        for line in wanted:
            assert line in kept, f"user line lost from {rel}: {line!r}"


def run_cli(*args: str):
    """``spawnkit ARGS`` in-process, stdout and stderr apart (click < 8.2 mixes them by default)."""
    from click.testing import CliRunner

    from spawnkit.cli import cli

    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, list(args))
