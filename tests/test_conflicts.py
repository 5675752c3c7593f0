"""Conflict markers, three-way merges and keeping SKILL.md's frontmatter loadable."""

from __future__ import annotations

from spawnkit.template import conflicts

BEFORE = "---\nname: demo\ndescription: mine\n---\n# demo\nbody\n"


def test_markers_are_found_only_with_updates_labels(tmp_path):
    assert conflicts.has_markers(
        b"a\n<<<<<<< before updating\nx\n=======\ny\n>>>>>>> after updating\n"
    )
    assert not conflicts.has_markers(b"```\n<<<<<<< HEAD\n=======\n>>>>>>> branch\n```\n")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f.md").write_text("<<<<<<< before updating\n")
    (tmp_path / "g.md").write_text("clean\n")
    assert conflicts.files_with_markers(tmp_path) == ["d/f.md"]


def test_merge3_merges_apart_and_marks_overlaps():
    base = b"a\nb\nc\nd\ne\nf\ng\n"
    merged, conflicted = conflicts.merge3(b"a\nB\nc\nd\ne\nf\ng\n", base, b"a\nb\nc\nd\ne\nf\nG\n")
    assert (merged, conflicted) == (b"a\nB\nc\nd\ne\nf\nG\n", False)
    merged, conflicted = conflicts.merge3(b"a\nmine\nc\n", b"a\nb\nc\n", b"a\ntheirs\nc\n")
    assert (
        conflicted
        and b"<<<<<<< before updating\nmine\n=======\ntheirs\n>>>>>>> after updating\n" in merged
    )


def test_conflict_inside_frontmatter_keeps_the_users_lines():
    after = (
        "---\nname: demo\n<<<<<<< before updating\ndescription: mine\n=======\n"
        "description: theirs\nlicense: MIT\n>>>>>>> after updating\n---\n# demo\n"
        "<<<<<<< before updating\nbody mine\n=======\nbody theirs\n>>>>>>> after updating\n"
    )
    outcome = conflicts.protect_frontmatter(after, BEFORE)
    assert outcome.changed and outcome.template_lines == ["description: theirs", "license: MIT"]
    assert conflicts.frontmatter(outcome.text) == {"name": "demo", "description": "mine"}
    assert "<<<<<<< before updating\nbody mine\n" in outcome.text, (
        "body conflicts stay for the user"
    )


def test_diff3_style_block_in_frontmatter():
    after = (
        "---\n<<<<<<< before updating\nname: demo\n||||||| last update\nname: old\n=======\n"
        "name: new\n>>>>>>> after updating\n---\nbody\n"
    )
    outcome = conflicts.protect_frontmatter(after, BEFORE)
    assert conflicts.frontmatter(outcome.text) == {"name": "demo"}
    assert outcome.template_lines == ["name: new"]


def test_clean_merge_that_breaks_yaml_falls_back_to_the_users_frontmatter():
    after = "---\nname: demo\ndescription: mine\ndescription: [unclosed\n---\n# demo\nbody merged\n"
    outcome = conflicts.protect_frontmatter(after, BEFORE)
    assert outcome.text == "---\nname: demo\ndescription: mine\n---\n# demo\nbody merged\n"
    assert (
        "description: [unclosed" in outcome.template_lines
        and "kept your whole frontmatter" in outcome.note
    )


def test_untouched_frontmatter_is_left_alone():
    outcome = conflicts.protect_frontmatter(BEFORE.replace("body", "new body"), BEFORE)
    assert not outcome.changed and not outcome.note
