"""Issue 21, item 4: ``update`` skipped a file under a linked sub-folder without a word.

With ``scripts`` a link, ``spawnkit update`` said "updated", exited 0, left ``state.py`` old,
and ``update --check`` then said the skill was up to date: the template change was lost for
good, although docs/update.md promises "held back, reported, exit 1". Now a file the template
changed that sits below a symlinked folder (or is a dangling link) is held back like a
symlinked file: reported with the link it sits under, its template version saved in the
backup's ``not-applied/``, exit 1, and nothing is written through the link.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from update_helpers import V1, build_store, generate, make_env, real_files

from spawnkit.template import update as updating

V2 = "0.0.2"
STATE_TPL = "template/scripts/state.py.jinja"
V2_LINE = b"\n# a line template v2 adds to state.py\n"


@pytest.fixture
def env(tmp_path, monkeypatch):
    env = make_env(tmp_path, monkeypatch)
    v1 = real_files()
    mode, data = v1[STATE_TPL]
    build_store(env.config, {V1: v1, V2: {**v1, STATE_TPL: (mode, data + V2_LINE)}})
    env.skill = generate(env.config, V1, env.project / ".claude" / "skills" / "demo")
    env.shared = tmp_path / "shared-scripts"  # a folder of the user's, outside the project
    shutil.move(str(env.skill / "scripts"), env.shared)
    (env.skill / "scripts").symlink_to(env.shared)
    return env


def test_a_file_below_a_linked_folder_is_held_back_and_reported(env):
    before = (env.shared / "state.py").read_bytes()
    outcome = updating.update(("demo",), env.config, env.project, to_tag=V2)
    assert outcome.exit_code == 1
    [result] = outcome.to_json()["skills"]
    [item] = result["skipped"]
    assert item["file"] == "scripts/state.py"
    assert item["reason"].startswith(f"scripts is a symlink (to {env.shared})")
    saved = Path(item["template_version"])
    assert V2_LINE.strip() in saved.read_bytes() and "not-applied" in saved.parts
    assert (env.shared / "state.py").read_bytes() == before  # never written through the link
    assert (env.skill / "scripts").is_symlink()


def test_the_report_says_so(env):
    outcome = updating.update(("demo",), env.config, env.project, to_tag=V2)
    text = updating.format_text(outcome, checking=False)
    assert "NOT UPDATED scripts/state.py: scripts is a symlink" in text


def test_a_dangling_linked_file_is_held_back_and_nothing_is_created_at_its_target(env, tmp_path):
    shutil.rmtree(env.shared)
    (env.skill / "scripts").unlink()
    (env.skill / "scripts").mkdir()
    target = tmp_path / "nowhere" / "state.py"
    (env.skill / "scripts" / "state.py").symlink_to(target)
    outcome = updating.update(("demo",), env.config, env.project, to_tag=V2)
    assert outcome.exit_code == 1
    [result] = outcome.to_json()["skills"]
    assert [i["file"] for i in result["skipped"]] == ["scripts/state.py"]
    assert not target.exists() and not target.parent.exists()


def test_a_file_the_template_did_not_change_is_not_reported(env):
    outcome = updating.update(("demo",), env.config, env.project, to_tag=V1)
    assert outcome.exit_code == 0 and outcome.skills[0].skipped == []
