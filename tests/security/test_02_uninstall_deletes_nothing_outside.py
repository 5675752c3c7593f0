"""Reproduction 2: `spawnkit uninstall --scope project` deleted files outside the config folder.

The install record's ``files`` keys were joined without containment: ``../../x``
and absolute paths whose sha256 matched were deleted, and ``dirs`` removed emptied
folders. Now a record naming any path that could leave the folder is refused
(nothing deleted), and a record this machine's spawnkit did not write never makes
uninstall delete a file, even inside the folder.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from spawnkit.install import registrations as regs

from .conftest import marked_entry, one_line_error, run_cli, spawnkit, write_json


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _record(project: Path, files: dict[str, bytes], dirs: list[str] = ()) -> Path:
    return write_json(
        project / ".claude" / ".spawnkit" / "install.json",
        {
            "format": 1,
            "spawnkit": "0.1.0",
            "settings": {"settings.json": {"created_keys": ["hooks"], "blank_original": None}},
            "files": {
                rel: {"sha256": _sha(data), "replaced_backup": None} for rel, data in files.items()
            },
            "dirs": list(dirs),
        },
    )


def test_a_record_naming_paths_outside_deletes_nothing(project: Path, tmp_path: Path):
    home_file = tmp_path / "home" / ".bashrc"
    home_file.parent.mkdir()
    home_file.write_bytes(b"# stock bashrc\n")
    sibling = tmp_path / "x"
    sibling.write_bytes(b"precious\n")
    empty = tmp_path / "emptied"
    empty.mkdir()
    _record(
        project,
        {"../../x": sibling.read_bytes(), str(home_file): home_file.read_bytes()},
        dirs=["../../emptied"],
    )
    proc = spawnkit("uninstall", "--scope", "project", "--yes", cwd=project)
    assert "outside" in one_line_error(proc)
    assert sibling.read_bytes() == b"precious\n"
    assert home_file.read_bytes() == b"# stock bashrc\n"
    assert empty.is_dir()


def test_a_cloned_record_never_deletes_files_on_a_hash_match(project: Path):
    """Paths inside the folder, hashes that match: still the repository's files, kept."""
    claude = project / ".claude"
    mine = {"notes.md": b"the team's notes\n", "agents/reviewer.md": b"a team agent\n"}
    for rel, data in mine.items():
        (claude / rel).parent.mkdir(parents=True, exist_ok=True)
        (claude / rel).write_bytes(data)
    _record(project, mine)
    result = run_cli("uninstall", "--scope", "project", "--yes")
    assert result.exit_code == 0, result.output
    for rel, data in mine.items():
        assert (claude / rel).read_bytes() == data
    assert "not written by spawnkit on this machine" in result.stdout


def test_a_symlinked_folder_in_the_project_is_not_followed(project: Path, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "SKILL.md"
    victim.write_bytes(b"my skill\n")
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to(outside)
    _record(project, {"skills/SKILL.md": victim.read_bytes()})
    spawnkit("uninstall", "--scope", "project", "--yes", cwd=project)
    assert victim.read_bytes() == b"my skill\n"
    # and install does not write through it either
    proc = spawnkit("install", "--scope", "project", "--yes", cwd=project)
    assert "outside" in one_line_error(proc)
    assert sorted(p.name for p in outside.iterdir()) == ["SKILL.md"]


def test_files_this_machine_installed_still_go(project: Path):
    assert run_cli("install", "--scope", "project", "--yes").exit_code == 0
    claude = project / ".claude"
    assert (claude / "skills" / "spawnkit" / "SKILL.md").is_file()
    assert run_cli("uninstall", "--scope", "project", "--yes").exit_code == 0
    assert not claude.exists()


def test_a_record_with_a_foreign_install_id_keeps_its_files(project: Path):
    assert run_cli("install", "--scope", "project", "--yes").exit_code == 0
    record = project / ".claude" / ".spawnkit" / "install.json"
    data = json.loads(record.read_text())
    assert data["install_id"]
    data["install_id"] = "0" * 32  # written on another machine
    record.write_text(json.dumps(data))
    result = run_cli("uninstall", "--scope", "project", "--yes")
    assert result.exit_code == 0
    assert (project / ".claude" / "skills" / "spawnkit" / "SKILL.md").is_file()
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    # its own hook entries (spawnkit's exact commands) still go: removing them loses nothing
    assert not any(
        regs.is_managed(h["command"])
        for groups in settings.get("hooks", {}).values()
        for g in groups
        for h in g["hooks"]
    )


def test_only_blank_text_is_restored_from_a_record(project: Path):
    write_json(
        project / ".claude" / "settings.json", {"hooks": {"Stop": [marked_entry("x", None)]}}
    )
    path = _record(project, {})
    data = json.loads(path.read_text())
    data["settings"]["settings.json"]["blank_original"] = {"existed": True, "text": "evil"}
    path.write_text(json.dumps(data))
    proc = spawnkit("uninstall", "--scope", "project", "--yes", cwd=project)
    assert "damaged" in one_line_error(proc)
